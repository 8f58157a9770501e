/*
 * rank.c - the `holes` ranking: filter, sort and cut, nothing else.
 *
 * Entries are copied out of each type's layout as it is added (see rank.h
 * for the memory picture), so the caller can compute, add and release one
 * layout at a time.  The comparison functions make every order total:
 * two entries compare equal only if they describe the same type, so the
 * output never depends on qsort's instability or on input order.
 */
#include "rank.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "lib/checked.h"
#include "lib/xalloc.h"
#include "public.h"
#include "reorder.h"
#include "rust.h"

void sf_rank_init(struct sf_rank *r, const struct sf_rank_opts *opts)
{
	memset(r, 0, sizeof(*r));
	if (opts)
		r->opts = *opts;
}

/*
 * A type with bytes but not one member in the debug info: gcc leaves out
 * the members of glibc's transparent union __SOCKADDR_ARG (clang keeps
 * them).  Its layout is unknown, not all padding: nothing to rank.
 */
static bool members_unknown(const struct sf_type *t)
{
	return t->size && !t->nmembers && !t->nvariants;
}

/* The smallest size a member reorder reaches, as suggest proposes it (the
 * leading struct member pinned), or t->size when none is smaller. */
static uint64_t reorder_size(const struct sf_type *t)
{
	struct sf_units us;
	uint64_t size = t->size;

	/* rustc orders a default-representation struct itself */
	if (sf_rust_compiler_orders(t))
		return size;
	sf_units_build(t, NULL, true, &us);
	if (us.modeled) {
		uint64_t min = sf_reorder_min_size(&us, NULL);
		if (min != SF_NO_FIT && min < size)
			size = min;
	}
	sf_units_release(&us);
	return size;
}

/* e's instances, from opts.live when it counts e's type. */
static void set_live(const struct sf_rank *r, struct sf_rank_entry *e)
{
	const struct sf_live_entry *le = sf_live_find(r->opts.live, e->type);

	if (!le)
		return;
	e->counted = true;
	e->live = le->count;
	e->live_waste = sf_mul_sat(le->count, e->waste);
	e->slab = le->slab;
}

void sf_rank_add(struct sf_rank *r, const struct sf_type *t,
		 const struct sf_layout *l)
{
	uint64_t waste = sf_layout_waste(l);

	assert(l->size == t->size);
	if (waste < r->opts.min_waste || members_unknown(t))
		return;
	/* no waste, nothing for a reorder to take back */
	uint64_t rsize = r->opts.reorderable && waste ? reorder_size(t) : t->size;
	if (r->opts.reorderable && rsize == t->size)
		return;
	SF_GROW(r->v, r->n, r->alloc);
	r->v[r->n++] = (struct sf_rank_entry){
		.type = t,
		.waste = waste,
		.size = t->size,
		.nholes = l->nholes,
		.sum_holes = l->sum_holes,
		.padding = l->padding,
		.forced = sf_layout_forced(l),
		.reorder_size = r->opts.reorderable ? rsize : 0,
		.public = (uint8_t)sf_type_public(t),
	};
	set_live(r, &r->v[r->n - 1]);
}

void sf_rank_add_summary(struct sf_rank *r, const struct sf_type *t)
{
	const struct sf_summary *s = t->summary;

	assert(s && !r->opts.reorderable);
	if (s->waste < r->opts.min_waste)
		return;
	SF_GROW(r->v, r->n, r->alloc);
	r->v[r->n++] = (struct sf_rank_entry){
		.type = t,
		.waste = s->waste,
		.size = t->size,
		.nholes = s->nholes,
		.sum_holes = s->sum_holes,
		.padding = s->padding,
		.forced = s->forced,
		.public = s->public,
	};
	set_live(r, &r->v[r->n - 1]);
}

static int cmp_str(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

/* larger first */
static int cmp_desc(uint64_t a, uint64_t b)
{
	return a > b ? -1 : a < b;
}

/* The tie-breakers shared by every order: name, size, then identity. */
static int cmp_ties(const struct sf_rank_entry *a,
		    const struct sf_rank_entry *b)
{
	int c;

	if ((c = cmp_str(a->type->name, b->type->name)))
		return c;
	if ((c = cmp_desc(a->size, b->size)))
		return c;
	if ((c = cmp_desc(a->waste, b->waste)))
		return c;
	if (a->type->kind != b->type->kind)
		return a->type->kind < b->type->kind ? -1 : 1;
	if ((c = cmp_str(a->type->decl_file, b->type->decl_file)))
		return c;
	if (a->type->decl_line != b->type->decl_line)
		return a->type->decl_line < b->type->decl_line ? -1 : 1;
	if ((c = cmp_str(a->type->origin, b->type->origin)))
		return c;
	return cmp_desc(a->type->hash, b->type->hash);
}

static int cmp_waste(const void *x, const void *y)
{
	const struct sf_rank_entry *a = x, *b = y;
	int c;

	/* the memory alive first; the types nothing counted as without counts */
	if (a->counted != b->counted)
		return a->counted ? -1 : 1;
	if ((c = cmp_desc(a->live_waste, b->live_waste)))
		return c;
	c = cmp_desc(a->waste, b->waste);

	return c ? c : cmp_ties(a, b);
}

static int cmp_size(const void *x, const void *y)
{
	const struct sf_rank_entry *a = x, *b = y;
	int c = cmp_desc(a->size, b->size);

	return c ? c : cmp_ties(a, b);
}

static int cmp_name(const void *x, const void *y)
{
	return cmp_ties(x, y);
}

void sf_rank_finish(struct sf_rank *r)
{
	int (*cmp)(const void *, const void *) = cmp_waste;

	if (r->opts.sort == SF_RANK_BY_SIZE)
		cmp = cmp_size;
	else if (r->opts.sort == SF_RANK_BY_NAME)
		cmp = cmp_name;
	if (r->n > 1)
		qsort(r->v, r->n, sizeof(r->v[0]), cmp);
	if (r->opts.limit && r->n > r->opts.limit)
		r->n = r->opts.limit;
	for (size_t i = 1; i < r->n; i++)
		assert(cmp(&r->v[i - 1], &r->v[i]) <= 0);
}

void sf_rank_release(struct sf_rank *r)
{
	free(r->v);
	memset(r, 0, sizeof(*r));
}

int sf_rank_parse_sort(const char *s, enum sf_rank_sort *out)
{
	static const struct {
		const char *name;
		enum sf_rank_sort sort;
	} sorts[] = {
		{ "waste", SF_RANK_BY_WASTE },
		{ "size", SF_RANK_BY_SIZE },
		{ "name", SF_RANK_BY_NAME },
	};

	for (size_t i = 0; i < sizeof(sorts) / sizeof(sorts[0]); i++)
		if (s && strcmp(s, sorts[i].name) == 0) {
			*out = sorts[i].sort;
			return 0;
		}
	return -1;
}
