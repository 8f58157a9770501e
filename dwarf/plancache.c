/*
 * plancache.c - the decoded attribute lists and compiled decode plans of
 * the abbreviations a reader has met, by their bytes (see plancache.h).
 *
 * Every unit of a gcc or clang build has an abbreviation table of its
 * own, and they are nearly the same tables: vmlinux's 2,172 units hold
 * 315 k abbreviations, 220 k of them used, and each used one was decoded
 * (parse_specs) and had its plans compiled (compile_plan) anew - 105 M
 * instructions, 3 % of `show`.  An abbreviation's attributes are a
 * function of its (attribute, form) bytes alone, and its plans of those
 * and the unit's geometry (die.c), so an entry keyed by both serves every
 * table holding the same bytes:
 *
 *   table: open addressing over entry pointers, linear probing from the
 *          key's hash; grown at half full; entries are never moved nor
 *          freed before the cache (an sf_abbrev points to its own)
 *   entry: the key (geometry, a copy of the bytes), the attributes with
 *          `have` bit SF_PC_ATTRS, plan k with bit 1 << k (enum sf_plan):
 *          its ops with attribute indexes relative to the abbreviation's
 *          first, and what die.c keeps beside them
 *
 * One cache per reader (one thread), so no lock.  At most MAX_ENTRIES:
 * past that an abbreviation is decoded as without a cache (hostile input
 * with millions of distinct abbreviations costs no unbounded memory).
 */
#include "plancache.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "lib/hash.h"
#include "lib/xalloc.h"

#define MAX_ENTRIES (1u << 16)

struct sf_pcent {
	uint64_t hash;
	unsigned char *key;
	uint32_t len;
	uint16_t geometry;
	uint8_t have;
	uint32_t nattrs;
	struct sf_abbrev_attr *attrs;
	struct sf_abbrev_op *ops[3];
	uint16_t nops[3], fixed[3];
	/* the pass plan's step (struct sf_abbrev) */
	uint8_t skip_fixed, sib_size;
	uint16_t sib_pos;
	uint32_t skip_size;
};

struct sf_plancache {
	struct sf_pcent **v;
	size_t cap, count;
};

struct sf_plancache *sf_plancache_new(void)
{
	return sf_xcalloc(1, sizeof(struct sf_plancache));
}

void sf_plancache_free(struct sf_plancache *pc)
{
	if (!pc)
		return;
	for (size_t i = 0; i < pc->cap; i++) {
		struct sf_pcent *e = pc->v[i];
		if (!e)
			continue;
		free(e->key);
		free(e->attrs);
		for (int k = 0; k < 3; k++)
			free(e->ops[k]);
		free(e);
	}
	free(pc->v);
	free(pc);
}

static void grow(struct sf_plancache *pc)
{
	size_t ncap = pc->cap ? 2 * pc->cap : 1024;
	struct sf_pcent **nv = sf_xcalloc(ncap, sizeof(*nv));

	for (size_t i = 0; i < pc->cap; i++) {
		struct sf_pcent *e = pc->v[i];
		if (!e)
			continue;
		size_t j = e->hash & (ncap - 1);
		while (nv[j])
			j = (j + 1) & (ncap - 1);
		nv[j] = e;
	}
	free(pc->v);
	pc->v = nv;
	pc->cap = ncap;
}

struct sf_pcent *sf_plancache_entry(struct sf_plancache *pc, uint16_t geometry,
				    const unsigned char *specs, uint32_t len, uint32_t nattrs)
{
	uint64_t h = sf_hash_bytes(geometry, specs, len);

	if ((pc->count + 1) * 2 > pc->cap) {
		if (pc->count >= MAX_ENTRIES)
			goto find_only;
		grow(pc);
	}
	size_t j = h & (pc->cap - 1);
	for (; pc->v[j]; j = (j + 1) & (pc->cap - 1)) {
		const struct sf_pcent *e = pc->v[j];
		if (e->hash == h && e->geometry == geometry && e->len == len &&
		    !memcmp(e->key, specs, len)) {
			assert(e->nattrs == nattrs);
			return pc->v[j];
		}
	}
	struct sf_pcent *e = sf_xcalloc(1, sizeof(*e));
	e->hash = h;
	e->geometry = geometry;
	e->len = len;
	e->key = sf_xmalloc(len ? len : 1);
	memcpy(e->key, specs, len);
	e->nattrs = nattrs;
	pc->v[j] = e;
	pc->count++;
	return e;
find_only:	/* full: entries already made still serve */
	for (j = h & (pc->cap - 1); pc->v[j]; j = (j + 1) & (pc->cap - 1)) {
		struct sf_pcent *e = pc->v[j];
		if (e->hash == h && e->geometry == geometry && e->len == len &&
		    !memcmp(e->key, specs, len))
			return e;
	}
	return NULL;
}

int sf_pcent_get_attrs(const struct sf_pcent *e, struct sf_abbrev_attr *out)
{
	if (!(e->have & SF_PC_ATTRS))
		return 0;
	memcpy(out, e->attrs, e->nattrs * sizeof(*out));
	return 1;
}

void sf_pcent_put_attrs(struct sf_pcent *e, const struct sf_abbrev_attr *attrs)
{
	assert(!(e->have & SF_PC_ATTRS));
	e->attrs = sf_xreallocarray(NULL, e->nattrs ? e->nattrs : 1, sizeof(*attrs));
	memcpy(e->attrs, attrs, e->nattrs * sizeof(*attrs));
	e->have |= SF_PC_ATTRS;
}

int sf_pcent_get_plan(const struct sf_pcent *e, enum sf_plan k, struct sf_abbrev *a,
		      struct sf_abbrev_op *ops)
{
	if (!(e->have & (1u << k)))
		return 0;
	assert(a->nattrs == e->nattrs);
	for (uint16_t i = 0; i < e->nops[k]; i++) {
		ops[i] = e->ops[k][i];
		ops[i].attr += a->first;
	}
	a->nops[k] = e->nops[k];
	a->fixed[k] = e->fixed[k];
	if (k == SF_PLAN_PASS) {
		a->skip_fixed = e->skip_fixed;
		a->skip_size = e->skip_size;
		a->sib_size = e->sib_size;
		a->sib_pos = e->sib_pos;
	}
	return 1;
}

void sf_pcent_put_plan(struct sf_pcent *e, enum sf_plan k, const struct sf_abbrev *a,
		       const struct sf_abbrev_op *ops)
{
	uint16_t n = a->nops[k];

	assert(!(e->have & (1u << k)) && a->nattrs == e->nattrs);
	e->ops[k] = sf_xreallocarray(NULL, n ? n : 1, sizeof(*ops));
	for (uint16_t i = 0; i < n; i++) {
		e->ops[k][i] = ops[i];
		e->ops[k][i].attr -= a->first;
	}
	e->nops[k] = n;
	e->fixed[k] = a->fixed[k];
	if (k == SF_PLAN_PASS) {
		e->skip_fixed = a->skip_fixed;
		e->skip_size = a->skip_size;
		e->sib_size = a->sib_size;
		e->sib_pos = a->sib_pos;
	}
	e->have |= (uint8_t)(1u << k);
}
