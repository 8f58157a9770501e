/*
 * nested.c - an anonymous struct/union member's type, copied to where it
 * sits.
 *
 * A loader lays out an anonymous aggregate once, at offset 0; each member
 * of that type gets a copy moved to the member's offset, recursively, so
 * every offset in the model is counted from the start of the outermost
 * type, as pahole prints them.  Shared by dwarf/members.c and btf/loader.c;
 * each passes its own allocator (a scratch arena, a typeset's arena).
 */
#include "nested.h"

#include <assert.h>

struct sf_type *sf_nested_clone(const struct sf_type *src, uint64_t delta, unsigned depth,
				unsigned max_depth, sf_nested_alloc alloc, void *ctx)
{
	struct sf_type *t = alloc(ctx, sizeof(*t));

	assert(t);
	*t = *src;
	t->members = alloc(ctx, sizeof(*t->members) * (src->nmembers ? src->nmembers : 1));
	for (uint32_t i = 0; i < src->nmembers; i++) {
		const struct sf_member *m = &src->members[i];
		t->members[i] = *m;
		t->members[i].offset += delta;
		/* a pointed-to type keeps its own offsets */
		if (m->flags & SF_MF_POINTEE)
			continue;
		if (m->nested && depth < max_depth)
			t->members[i].nested = sf_nested_clone(m->nested, delta, depth + 1,
								max_depth, alloc, ctx);
		else
			t->members[i].nested = NULL;
	}
	return t;
}
