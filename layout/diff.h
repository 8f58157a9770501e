/*
 * diff.h - what changed in the layouts between two builds (`structfit diff`).
 *
 * Types are matched by kind and name ("struct st_table" in the old build
 * against "struct st_table" in the new one); anonymous types have no name
 * to match and are left out.  When a build holds differing definitions of
 * one name (two programs' `struct config`), each is paired with its own:
 * the one declared at the same file and line, else in the same file, else
 * with the same file name, else the only one left on each side; a
 * definition with no partner was added or removed (`definition`: while
 * its name stays in both builds), so another file's struct appearing is
 * not growth.  A pair
 * with the same definition hash and equal definitions is unchanged and
 * costs no layout computation, so diffing two kernels stays cheap.
 *
 * For each changed type the diff lists member changes - matched by name,
 * members of anonymous structs/unions included (their names live in the
 * outer scope) - and the holes gained and lost, a hole being identified by
 * the member it follows and its size (so a hole that only moved with its
 * member is neither gained nor lost):
 *
 *   struct sf_diff { types[] -> sf_dtype { old, new, growth,
 *                                          members[] -> sf_dmember,
 *                                          holes[]   -> sf_dhole } }
 *
 * Order: changed types by bytes grown (largest growth first, shrinks last),
 * then added types, then removed ones (largest first); ties by name.
 * The sf_type and sf_member pointers point into the two typesets, which
 * must outlive the diff; the arrays are malloc'ed, sf_diff_release() frees
 * them.
 */
#ifndef SF_DIFF_H
#define SF_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/err.h"
#include "model/model.h"
#include "model/typeset.h"

enum sf_dstatus {
	SF_D_CHANGED = 0,
	SF_D_ADDED,
	SF_D_REMOVED,
};

enum sf_mchange {
	SF_MC_ADDED = 0,
	SF_MC_REMOVED,
	SF_MC_MOVED,            /* offset (or bit offset) changed */
	SF_MC_RETYPED,          /* type, size or bit width changed */
};

struct sf_dmember {
	uint8_t change;         /* enum sf_mchange */
	const struct sf_member *old;    /* NULL when added */
	const struct sf_member *new;    /* NULL when removed */
};

struct sf_dhole {
	bool gained;            /* in the new layout only (else lost) */
	uint64_t offset;        /* in its own layout */
	uint64_t size;
	const char *after;      /* the member before it; "" at the start */
};

struct sf_dtype {
	uint8_t status;         /* enum sf_dstatus */
	const struct sf_type *old;      /* NULL when added */
	const struct sf_type *new;      /* NULL when removed */
	int64_t growth;         /* new size - old size; added +size, removed -size */
	bool definition;        /* added/removed: one definition of a name that
				 * has others in the other build */
	uint32_t old_nholes, new_nholes;
	uint64_t old_sum_holes, new_sum_holes;
	uint64_t old_padding, new_padding;
	bool reordered;         /* members kept changed their relative order */
	struct sf_dmember *members;
	uint32_t nmembers;
	struct sf_dhole *holes;
	uint32_t nholes;
};

struct sf_diff {
	struct sf_dtype *types;
	size_t n;
	size_t cap;
	size_t compared;        /* names looked at */
	size_t nchanged, nadded, nremoved;
	size_t ngrown;          /* changed types whose size grew */
	int64_t growth;         /* sum of the changed types' growth */
};

struct sf_diff_opts {
	/* NULL-terminated names ("st_table", "struct st_table") to compare,
	 * or NULL for every type. */
	const char *const *only;
};

/*
 * Compare every type (or opts->only) of old_ts and new_ts.  A name of
 * opts->only found in neither build is an error: -1 with *missing that
 * name (report/diff.h words it: "OLD and NEW: type 'X' not found").
 */
int sf_diff_compute(const struct sf_typeset *old_ts,
		    const struct sf_typeset *new_ts,
		    const struct sf_diff_opts *opts, struct sf_diff *out,
		    const char **missing);
void sf_diff_release(struct sf_diff *d);

#endif
