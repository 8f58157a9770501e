/*
 * plan.h - the one plan behind suggest, fit and patch: a struct with the
 * user's narrowings applied in place, its pinned members, and the member
 * order that makes it smallest.
 *
 * The three commands take the same words (a narrowing [TYPE.]MEMBER=BYTES,
 * a pinned MEMBER) and must mean the same layout by them: patch's diff
 * gives exactly the size suggest shows, and fit's narrowed, reordered size
 * the size suggest promises.  So the steps live here once:
 *
 *   cmd/ parses each narrowing (cmd/narrowarg.c) into sf_narrow_arg {type, member, bytes}
 *   sf_plan_make(t, {pins, narrowings, pin_first}):
 *       resolve  names -> member indexes (pin[], req[]), each refusal as data
 *       narrow   t -> base: the declarations unchanged but for the types
 *       model    does the C rule reproduce t's layout?  (else: no plan)
 *       reorder  base's placement units -> the smallest order, fewest moves
 *
 *   struct sf_plan { type | base | pin[nmembers] | req[nreq] | modeled
 *                    | units (of base) | reorder (of units) | size }
 *
 * Names are top-level member names, matched exactly (an empty name never
 * matches: anonymous members cannot be named).  A narrowing naming a TYPE
 * applies only to the type of that name.  fit sums several types: each
 * narrowing goes to the one type having the member (sf_plan_check_narrowings
 * refuses it when none or two differently named ones do), and each type's
 * plan gets the narrowings that apply to it (sf_narrow_arg_applies).
 *
 * A refusal is data, struct sf_plan_refusal: what was refused and the
 * names and members involved; report/reasons.c words it.  Memory of the
 * narrowed types comes from the caller's arena.
 */
#ifndef SF_PLAN_H
#define SF_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "narrow.h"
#include "reorder.h"
#include "model/typeset.h"

/* One narrowing by name: [TYPE.]MEMBER to BYTES (made by cmd/narrowarg.c,
 * which owns the strings). */
struct sf_narrow_arg {
	const char *arg;       /* the caller's spelling, repeated in messages */
	char *type;            /* TYPE, or NULL */
	char *member;
	uint64_t bytes;
};

/* What sf_plan_make or sf_plan_check_narrowings refused. */
enum sf_plan_refusal_kind {
	SF_PLAN_REFUSED_NOTHING = 0,
	SF_PLAN_NO_PIN_MEMBER,  /* type has no member called pin */
	SF_PLAN_NOT_THE_TYPE,   /* narrow->type does not name type */
	SF_PLAN_NO_MEMBER,      /* type has no member narrow->member */
	SF_PLAN_WIDTH,          /* member cannot take narrow->bytes: see width */
	SF_PLAN_TWICE,          /* narrow->member is narrowed twice */
	SF_PLAN_AMBIGUOUS,      /* (a sum) type and other both have the member */
	SF_PLAN_NOWHERE,        /* (a sum) no type (named narrow->type) has it */
	SF_PLAN_GROUP_SPLIT,    /* members first..last of type cannot move as one
	                         * block: a bit-field storage unit spans its edge */
};

struct sf_plan_refusal {
	enum sf_plan_refusal_kind kind;
	const struct sf_type *type;          /* the type refused (not NOWHERE) */
	const struct sf_type *other;         /* AMBIGUOUS: the second type */
	const char *pin;                     /* NO_PIN_MEMBER */
	const struct sf_narrow_arg *narrow;  /* the narrowing refused */
	const struct sf_member *member;      /* WIDTH: its member */
	enum sf_narrow_refusal width;        /* WIDTH: why (layout/narrow.h) */
	uint32_t first, last;                /* GROUP_SPLIT: member indexes */
};

/* Index of t's top-level member called name, or -1. */
long sf_member_index(const struct sf_type *t, const char *name);

/* Whether narrowing a is for t: t has the member and is the TYPE named. */
bool sf_narrow_arg_applies(const struct sf_narrow_arg *a, const struct sf_type *t);

/*
 * The narrowings of a sum of types (fit): each must apply to exactly one
 * type name among types[0..ntypes), be a width its member takes, and name
 * a member no other narrowing names.  0, or -1 with *why saying which.
 */
int sf_plan_check_narrowings(const struct sf_type *const *types, size_t ntypes,
			     const struct sf_narrow_arg *a, size_t na,
			     struct sf_plan_refusal *why);

/* How far sf_plan_make searches the order of a modeled type. */
enum sf_plan_search {
	SF_PLAN_NO_SEARCH,     /* narrow only (fit without --reorder) */
	SF_PLAN_MIN_SIZE,      /* the smallest size: units, size */
	SF_PLAN_ORDER,         /* the order of that size with fewest moves: reorder too */
};

struct sf_plan_opts {
	const char *const *pins;             /* pinned members' names */
	size_t npins;
	const struct sf_narrow_arg *narrow;  /* every one must be t's */
	size_t nnarrow;
	bool pin_first;                      /* a leading struct member stays */
	enum sf_plan_search search;
	uint32_t max_moves;                  /* SF_PLAN_ORDER and the placed
	                                      * narrowings move at most this
	                                      * many units; 0: any number */
	bool heuristic;                      /* tests only: sf_units.heuristic */
};

struct sf_plan {
	const struct sf_type *type;    /* as read */
	const struct sf_type *base;    /* type narrowed in place; type when none */
	bool *pin;                     /* per member of type */
	struct sf_narrow_req *req;     /* the narrowings, by member index */
	size_t nreq;
	bool pin_first;
	uint32_t max_moves;            /* UINT32_MAX: any number of moves */
	bool heuristic;                /* tests only: sf_units.heuristic */
	bool modeled;                  /* the C rule gives type's layout */
	enum sf_plan_search searched;  /* what is set below: NO_SEARCH when not modeled */
	struct sf_units units;         /* base's placement units, pins applied */
	struct sf_reorder reorder;     /* their best order (SF_PLAN_ORDER), within
	                                * max_moves */
	uint64_t size;                 /* smallest size of base in any order
	                                * (SF_PLAN_ORDER: within max_moves) */
};

/*
 * Resolve o's names on t, apply the narrowings, and when t is modeled cut
 * base into units and search them as far as o->search says.  0 (see
 * p->modeled), or -1 with *why: an unknown member, a width its member
 * does not take, a member narrowed twice, a narrowing for another type.
 * Release p in both cases.
 */
int sf_plan_make(const struct sf_type *t, const struct sf_plan_opts *o,
		 struct sf_typeset *arena, struct sf_plan *p,
		 struct sf_plan_refusal *why);
void sf_plan_release(struct sf_plan *p);

/*
 * sf_plan_make, with each group of members (m0 .. m0 + nm - 1, nm > 0)
 * one unit: members under an #if in the source, which patch keeps whole
 * and in their order (layout/srcpatch.h).  A group moves as one unit when
 * may_move (the caller's rule: its #if has no other branch declaring
 * members) and the unit model is exact for it (reorder.h,
 * sf_units_fix_group); else it is pinned at its offset.  pinned is set on
 * return.  -1 with *why (SF_PLAN_GROUP_SPLIT) also when a group's members
 * are not together in memory.
 */
struct sf_plan_group {
	uint32_t m0, nm;
	bool may_move;         /* in: the block may move as a unit */
	bool pinned;           /* out: it stays at its offset */
};
int sf_plan_make_grouped(const struct sf_type *t, const struct sf_plan_opts *o,
			 struct sf_plan_group *groups, size_t ngroups,
			 struct sf_typeset *arena, struct sf_plan *p,
			 struct sf_plan_refusal *why);

/*
 * The members of a modeled, fully searched plan in their new declaration
 * order (order[type->nmembers]; the flexible array stays last) and per
 * member whether the search moved it (moved[type->nmembers]).
 */
void sf_plan_member_order(const struct sf_plan *p, uint32_t *order, uint8_t *moved);

/* The size the plan gives base: the searched order's, or the current
 * order's under the model when nothing moves (SF_PLAN_ORDER). */
uint64_t sf_plan_new_size(const struct sf_plan *p);

/*
 * A narrowing the search found (layout/narrow.h) applied to the plan's
 * base and placed in its best order, the plan's pins kept: the type
 * suggest shows for it, or NULL when the pins leave no order.
 */
const struct sf_type *sf_plan_place(const struct sf_plan *p, const struct sf_narrowing *nw,
				    struct sf_typeset *arena);

/*
 * The size of the plan's type (not base) once member `member` is `to`
 * bytes: the best order's where rustc orders the fields, else in place.
 */
uint64_t sf_plan_size_with(const struct sf_plan *p, uint32_t member, uint64_t to,
			   struct sf_typeset *arena);

#endif
