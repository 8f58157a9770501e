/*
 * rank.h - the `structfit holes` ranking: which types waste the most.
 *
 * A ranking is a growable array of small entries, one per type kept, each
 * a copy of the few numbers the ranking needs (so the struct sf_layout of
 * every type can be released as soon as it was added):
 *
 *   struct sf_rank { opts | v -> [entry][entry]...[entry] | n | alloc }
 *   entry = { type*, waste, size, nholes, sum_holes, padding, forced,
 *             reorder_size, public }
 *
 * With opts.live (layout/live.h: counts file or /proc/slabinfo) each
 * entry of a counted type carries its instances (live) and live_waste =
 * live x waste; sorted by waste, counted types come first, by live_waste,
 * and the others follow as without counts.
 *
 * With opts.reorderable only types a member reorder shrinks are kept
 * (suggest's reorder: leading struct member pinned; never a struct rustc
 * orders itself), each with the size that reorder reaches.
 *
 * Usage: sf_rank_init(), sf_rank_add() for each type (entries under
 * opts.min_waste are dropped right away), sf_rank_finish() sorts and
 * truncates to opts.limit, then report/ renders v[0..n), then
 * sf_rank_release().
 *
 * Orders are total, so output is deterministic: waste (largest first),
 * size (largest first) or name (A..Z); ties broken by name, then size
 * (larger first), then kind, decl_file, decl_line and origin.
 */
#ifndef SF_RANK_H
#define SF_RANK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "holes.h"
#include "live.h"
#include "model/model.h"

enum sf_rank_sort {
	SF_RANK_BY_WASTE = 0,
	SF_RANK_BY_SIZE,
	SF_RANK_BY_NAME,
};

struct sf_rank_opts {
	enum sf_rank_sort sort;
	uint64_t min_waste;     /* keep types wasting at least this many bytes */
	size_t limit;           /* keep the first `limit` after sorting; 0: all */
	bool reorderable;       /* keep only types a reorder shrinks */
	const struct sf_live *live; /* instances counted, or NULL */
};

struct sf_rank_entry {
	const struct sf_type *type;
	uint64_t waste;         /* sum_holes + padding - forced */
	uint64_t size;
	uint32_t nholes;
	uint64_t sum_holes;
	uint64_t padding;
	uint64_t forced;        /* holes and padding an alignment asked for */
	uint64_t reorder_size;  /* with opts.reorderable: the smallest size a
				 * member reorder reaches (< size); else 0 */
	uint8_t public;         /* enum sf_public (layout/public.h) */
	bool counted;           /* opts.live counts this type */
	uint64_t live;          /* instances alive (counted) */
	uint64_t live_waste;    /* live x waste, saturated */
	const struct sf_slab *slab; /* the slab cache counted, or NULL */
};

struct sf_rank {
	struct sf_rank_opts opts;
	struct sf_rank_entry *v;
	size_t n;
	size_t alloc;
};

void sf_rank_init(struct sf_rank *r, const struct sf_rank_opts *opts);
/* Add t with its computed layout l (not kept); filtered by min_waste. */
void sf_rank_add(struct sf_rank *r, const struct sf_type *t,
		 const struct sf_layout *l);
/* Add t, a type read from a holes document (t->summary): its numbers as
 * the build gave them; filtered by min_waste.  Not with opts.reorderable. */
void sf_rank_add_summary(struct sf_rank *r, const struct sf_type *t);
/* Sort by opts.sort and cut to opts.limit. */
void sf_rank_finish(struct sf_rank *r);
void sf_rank_release(struct sf_rank *r);

/* "waste", "size", "name" -> enum; 0, or -1 for anything else. */
int sf_rank_parse_sort(const char *s, enum sf_rank_sort *out);

#endif
