/*
 * tmpl.h - a C++ class template's instantiations under one member order:
 * what patch checks before it rewrites a primary template, whose member
 * declarations give every instantiation its layout.
 *
 * The instantiations of the template of t ("Slot<long int>") are the
 * types of the typeset named by the same template ("Slot<...>", same
 * scope) and declared at the same line of a file of the same name as t:
 * the primary template's (an explicit or partial specialization declares
 * its own members on its own line).  Each gets the order planned for t, applied
 * by member name, its pins and narrowings by name too, laid out with the
 * C rules of reorder.h (sf_units_place): its size before and after.
 *
 *   struct sf_tmpl_inst { type | old_size | new_size | state | member }
 *
 * Pure computation over the model; report/patch.c words the states.
 */
#ifndef SF_TMPL_H
#define SF_TMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "model/typeset.h"
#include "srcpatch.h"

/*
 * Length of the template's name in `name` ("ns::Slot" of
 * "ns::Slot<long int>"): up to the `<` of the last component's template
 * arguments; 0 when the last component has none.
 */
size_t sf_tmpl_name_len(const char *name);

/* Whether a component before the last one has template arguments
 * ("Box<int>::Node"): a class nested in a class template. */
bool sf_tmpl_nested(const char *name);

enum sf_tmpl_state {
	SF_TMPL_OK = 0,          /* sizes computed */
	SF_TMPL_UNMODELED,       /* the C rules do not give its layout */
	SF_TMPL_MEMBERS,         /* its members are not t's by name */
	SF_TMPL_NO_FIT,          /* a pinned member cannot keep its offset */
	SF_TMPL_NARROW,          /* a narrowed member has another type here:
	                          * its type depends on a template parameter */
};

struct sf_tmpl_inst {
	const struct sf_type *type;
	uint64_t old_size, new_size;
	enum sf_tmpl_state state;
	const char *member;      /* SF_TMPL_NARROW: the member's name */
};

/* The order planned for t, and what it pins and narrows (t's indexes). */
struct sf_tmpl_plan {
	const uint32_t *order;   /* t->nmembers member indexes */
	const bool *pin;         /* per member of t, may be NULL */
	bool pin_first;
	const struct sf_srcpatch_narrow *narrow;
	size_t nnarrow;
};

/*
 * The other instantiations of t's template in ts (t itself left out),
 * in typeset order: *out malloc'ed (NULL when none).  spec gets, the same
 * way, the types of the template declared elsewhere (specializations).
 */
size_t sf_tmpl_instances(const struct sf_typeset *ts, const struct sf_type *t,
			 const struct sf_type ***out, const struct sf_type ***spec,
			 size_t *nspec);

/*
 * Instantiation u of t's template laid out in the order pl gives t:
 * out's sizes, or its state saying why there are none.  Narrowed types
 * come from arena.
 */
void sf_tmpl_resize(const struct sf_type *t, const struct sf_tmpl_plan *pl,
		    const struct sf_type *u, struct sf_typeset *arena,
		    struct sf_tmpl_inst *out);

#endif
