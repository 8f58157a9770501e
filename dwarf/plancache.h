/*
 * plancache.h - abbreviations decoded and planned once per reader, not
 * once per unit (internal to dwarf/: die.c fills and reads it, units.c
 * hands a reader's to the tables it opens).  See plancache.c.
 */
#ifndef SF_PLANCACHE_H
#define SF_PLANCACHE_H

#include <stdint.h>

#include "die.h"

/* sf_pcent `have` bit: the attributes are kept (plan k: 1 << k) */
enum { SF_PC_ATTRS = 1 << 3 };

struct sf_plancache *sf_plancache_new(void);
void sf_plancache_free(struct sf_plancache *pc);

/* The entry of the abbreviations whose (attribute, form) list is the len
 * bytes at specs (nattrs attributes), in units of geometry `geometry`
 * (die.c); made empty when new.  NULL when the cache is full. */
struct sf_pcent *sf_plancache_entry(struct sf_plancache *pc, uint16_t geometry,
				    const unsigned char *specs, uint32_t len, uint32_t nattrs);

/* Copy the entry's attributes to out (its nattrs): 1, or 0 if it has none
 * yet; put_attrs gives it them. */
int sf_pcent_get_attrs(const struct sf_pcent *e, struct sf_abbrev_attr *out);
void sf_pcent_put_attrs(struct sf_pcent *e, const struct sf_abbrev_attr *attrs);

/* Plan k of the entry into abbreviation a (whose attributes start at
 * a->first) and its ops slots: 1, or 0 if it has none yet; put_plan gives
 * it a's, compiled. */
int sf_pcent_get_plan(const struct sf_pcent *e, enum sf_plan k, struct sf_abbrev *a,
		      struct sf_abbrev_op *ops);
void sf_pcent_put_plan(struct sf_pcent *e, enum sf_plan k, const struct sf_abbrev *a,
		       const struct sf_abbrev_op *ops);

#endif
