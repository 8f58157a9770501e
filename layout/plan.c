/*
 * plan.c - narrowings and pins resolved on a struct, the narrowings applied
 * in place and the best member order searched: the one plan suggest, fit
 * and patch share (see plan.h).  A refusal is filled in as data; the
 * words are report/reasons.c's.
 */
#include "plan.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "lib/checked.h"
#include "lib/xalloc.h"
#include "rust.h"

long sf_member_index(const struct sf_type *t, const char *name)
{
	if (!*name)
		return -1;
	for (uint32_t i = 0; i < t->nmembers; i++)
		if (!strcmp(t->members[i].name, name))
			return (long)i;
	return -1;
}

/* Whether `name` ("st_table", "struct st_table") names t. */
static bool names_type(const char *name, const struct sf_type *t)
{
	static const char *const kinds[] = { "struct ", "union ", "class " };

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strncmp(name, kinds[i], strlen(kinds[i]))) {
			name += strlen(kinds[i]);
			break;
		}
	return !strcmp(name, t->name);
}

bool sf_narrow_arg_applies(const struct sf_narrow_arg *a, const struct sf_type *t)
{
	return (!a->type || names_type(a->type, t)) && sf_member_index(t, a->member) >= 0;
}

/* Whether narrowings a and b could name the same member of one type. */
static bool same_target(const struct sf_narrow_arg *a, const struct sf_narrow_arg *b)
{
	return !strcmp(a->member, b->member) &&
	       (!a->type || !b->type || !strcmp(a->type, b->type));
}

/* A refusal of narrowing a (of type t, when known). */
static int refuse(struct sf_plan_refusal *why, enum sf_plan_refusal_kind kind,
		  const struct sf_type *t, const struct sf_narrow_arg *a)
{
	*why = (struct sf_plan_refusal){ .kind = kind, .type = t, .narrow = a };
	return -1;
}

/* The one type (by name) narrowing a is for, or NULL with why set. */
static const struct sf_type *owner_of(const struct sf_type *const *types, size_t ntypes,
				      const struct sf_narrow_arg *a,
				      struct sf_plan_refusal *why)
{
	const struct sf_type *owner = NULL;

	for (size_t i = 0; i < ntypes; i++) {
		const struct sf_type *t = types[i];
		if (!sf_narrow_arg_applies(a, t) || t == owner)
			continue;
		if (owner && strcmp(owner->name, t->name)) {
			refuse(why, SF_PLAN_AMBIGUOUS, owner, a);
			why->other = t;
			return NULL;
		}
		owner = t;
	}
	if (!owner)
		refuse(why, SF_PLAN_NOWHERE, NULL, a);
	return owner;
}

/* The width check of narrow.h for narrowing a of t's member m. */
static int check_width(const struct sf_narrow_arg *a, const struct sf_type *t,
		       const struct sf_member *m, struct sf_plan_refusal *why)
{
	enum sf_narrow_refusal r = sf_narrow_check(m, a->bytes);

	if (r == SF_NARROW_OK)
		return 0;
	refuse(why, SF_PLAN_WIDTH, t, a);
	why->member = m;
	why->width = r;
	return -1;
}

int sf_plan_check_narrowings(const struct sf_type *const *types, size_t ntypes,
			     const struct sf_narrow_arg *a, size_t na,
			     struct sf_plan_refusal *why)
{
	for (size_t k = 0; k < na; k++) {
		const struct sf_type *owner = owner_of(types, ntypes, &a[k], why);
		if (!owner)
			return -1;
		long m = sf_member_index(owner, a[k].member);
		assert(m >= 0);   /* owner_of found it there */
		if (check_width(&a[k], owner, &owner->members[m], why) < 0)
			return -1;
		for (size_t j = 0; j < k; j++)
			if (same_target(&a[j], &a[k]))
				return refuse(why, SF_PLAN_TWICE, owner, &a[k]);
	}
	return 0;
}

/* Pinned names -> p->pin[]; -1 with why at an unknown one. */
static int resolve_pins(const struct sf_type *t, const struct sf_plan_opts *o,
			struct sf_plan *p, struct sf_plan_refusal *why)
{
	for (size_t i = 0; i < o->npins; i++) {
		long m = sf_member_index(t, o->pins[i]);
		if (m < 0) {
			refuse(why, SF_PLAN_NO_PIN_MEMBER, t, NULL);
			why->pin = o->pins[i];
			return -1;
		}
		p->pin[m] = true;
	}
	return 0;
}

/* Narrowings -> p->req[], each checked; -1 with why at a bad one. */
static int resolve_narrowings(const struct sf_type *t, const struct sf_plan_opts *o,
			      struct sf_plan *p, struct sf_plan_refusal *why)
{
	for (size_t i = 0; i < o->nnarrow; i++) {
		const struct sf_narrow_arg *a = &o->narrow[i];
		if (a->type && !names_type(a->type, t))
			return refuse(why, SF_PLAN_NOT_THE_TYPE, t, a);
		long m = sf_member_index(t, a->member);
		if (m < 0)
			return refuse(why, SF_PLAN_NO_MEMBER, t, a);
		if (check_width(a, t, &t->members[m], why) < 0)
			return -1;
		for (size_t k = 0; k < p->nreq; k++)
			if (p->req[k].member == (uint32_t)m)
				return refuse(why, SF_PLAN_TWICE, t, a);
		p->req[p->nreq++] = (struct sf_narrow_req){ (uint32_t)m, a->bytes };
	}
	return 0;
}

/* Whether the C rule, pins applied, gives t the layout the compiler did. */
static bool is_modeled(const struct sf_type *t, const bool *pin, bool pin_first)
{
	struct sf_units us;

	sf_units_build(t, pin, pin_first, &us);
	bool modeled = us.modeled;
	sf_units_release(&us);
	return modeled;
}

int sf_plan_make(const struct sf_type *t, const struct sf_plan_opts *o,
		 struct sf_typeset *arena, struct sf_plan *p,
		 struct sf_plan_refusal *why)
{
	return sf_plan_make_grouped(t, o, NULL, 0, arena, p, why);
}

/*
 * Each group of members one unit of p->units (pinned unless it may move
 * and moves exactly: sf_units_fix_group), g[i].pinned saying which; or -1
 * with why.
 */
static int fix_groups(struct sf_plan *p, struct sf_plan_group *g, size_t ng,
		      struct sf_plan_refusal *why)
{
	const struct sf_type *t = p->type;

	for (size_t i = 0; i < ng; i++) {
		assert(g[i].nm && g[i].m0 + g[i].nm <= t->nmembers);
		if (sf_units_fix_group(&p->units, g[i].m0, g[i].nm, g[i].may_move) < 0) {
			refuse(why, SF_PLAN_GROUP_SPLIT, t, NULL);
			why->first = g[i].m0;
			why->last = g[i].m0 + g[i].nm - 1;
			return -1;
		}
		g[i].pinned = p->units.v[sf_units_of_member(&p->units, g[i].m0)].pinned;
	}
	return 0;
}

int sf_plan_make_grouped(const struct sf_type *t, const struct sf_plan_opts *o,
			 struct sf_plan_group *groups, size_t ngroups,
			 struct sf_typeset *arena, struct sf_plan *p,
			 struct sf_plan_refusal *why)
{
	memset(p, 0, sizeof(*p));
	p->type = p->base = t;
	p->pin_first = o->pin_first;
	p->max_moves = o->max_moves ? o->max_moves : UINT32_MAX;
	p->pin = sf_xcalloc(t->nmembers + 1, sizeof(*p->pin));
	p->req = sf_xcalloc(o->nnarrow + 1, sizeof(*p->req));
	if (resolve_pins(t, o, p, why) < 0 || resolve_narrowings(t, o, p, why) < 0)
		return -1;
	if (p->nreq)
		p->base = sf_type_narrow(t, p->req, p->nreq, arena);
	/* narrowing in place keeps the member order: base's indexes are t's */
	assert(p->base->nmembers == t->nmembers);
	p->modeled = is_modeled(t, p->pin, o->pin_first);
	if (!p->modeled || o->search == SF_PLAN_NO_SEARCH)
		return 0;
	sf_units_build(p->base, p->pin, o->pin_first, &p->units);
	p->units.heuristic = p->heuristic = o->heuristic;
	p->searched = o->search;
	if (fix_groups(p, groups, ngroups, why) < 0) {
		sf_units_release(&p->units);
		p->searched = SF_PLAN_NO_SEARCH;
		return -1;
	}
	if (o->search == SF_PLAN_ORDER) {
		sf_reorder_search_max(&p->units, p->max_moves, &p->reorder);
		p->size = p->reorder.size;
	} else {
		p->size = sf_reorder_min_size(&p->units, NULL);
	}
	return 0;
}

void sf_plan_release(struct sf_plan *p)
{
	if (p->searched != SF_PLAN_NO_SEARCH)
		sf_units_release(&p->units);
	if (p->searched == SF_PLAN_ORDER)
		sf_reorder_release(&p->reorder);
	free(p->pin);
	free(p->req);
	memset(p, 0, sizeof(*p));
}

void sf_plan_member_order(const struct sf_plan *p, uint32_t *order, uint8_t *moved)
{
	const struct sf_units *us = &p->units;
	const struct sf_reorder *r = &p->reorder;
	size_t k = 0;

	assert(p->searched == SF_PLAN_ORDER);
	for (size_t i = 0; i < r->n; i++) {
		const struct sf_unit *u = &us->v[r->order[i]];
		for (uint32_t j = 0; j < u->count; j++) {
			moved[us->members[u->first + j]] = r->moved[r->order[i]];
			order[k++] = us->members[u->first + j];
		}
	}
	if (us->flex != UINT32_MAX) {
		moved[us->flex] = 0;
		order[k++] = us->flex;
	}
	assert(k == p->type->nmembers);
}

uint64_t sf_plan_new_size(const struct sf_plan *p)
{
	const struct sf_units *us = &p->units;

	assert(p->searched == SF_PLAN_ORDER);
	if (p->reorder.moves)
		return p->reorder.size;
	/* the search keeps the current order when nothing is smaller */
	uint32_t *id = sf_xcalloc(us->n + 1, sizeof(*id));
	for (size_t i = 0; i < us->n; i++)
		id[i] = (uint32_t)i;
	uint64_t size = sf_units_place(us, id, NULL);
	free(id);
	return size;
}

/* t narrowed by req[0..n), cut into units with p's pins and searched:
 * the caller releases *us and *r. */
static const struct sf_type *search_narrowed(const struct sf_plan *p, const struct sf_type *t,
					     const struct sf_narrow_req *req, size_t n,
					     struct sf_typeset *arena, struct sf_units *us,
					     struct sf_reorder *r)
{
	const struct sf_type *nt = sf_type_narrow(t, req, n, arena);

	sf_units_build(nt, p->pin, p->pin_first, us);
	us->heuristic = p->heuristic;
	sf_reorder_search_max(us, p->max_moves, r);
	return nt;
}

const struct sf_type *sf_plan_place(const struct sf_plan *p, const struct sf_narrowing *nw,
				    struct sf_typeset *arena)
{
	struct sf_narrow_req req[2];
	struct sf_units us;
	struct sf_reorder r;

	assert(nw->n >= 1 && nw->n <= 2);
	for (uint32_t k = 0; k < nw->n; k++)
		req[k] = (struct sf_narrow_req){ nw->member[k], nw->to[k] };
	search_narrowed(p, p->base, req, nw->n, arena, &us, &r);
	const struct sf_type *placed = r.size == SF_NO_FIT ? NULL :
				       sf_units_relayout(&us, &r, arena);
	sf_reorder_release(&r);
	sf_units_release(&us);
	return placed;
}

uint64_t sf_plan_size_with(const struct sf_plan *p, uint32_t member, uint64_t to,
			   struct sf_typeset *arena)
{
	struct sf_narrow_req req = { member, to };
	struct sf_units us;
	struct sf_reorder r;

	if (!sf_rust_compiler_orders(p->type))
		return sf_type_narrow(p->type, &req, 1, arena)->size;
	const struct sf_type *nt = search_narrowed(p, p->type, &req, 1, arena, &us, &r);
	uint64_t size = r.size == SF_NO_FIT || r.size > nt->size ? nt->size : r.size;
	sf_reorder_release(&r);
	sf_units_release(&us);
	return size;
}
