/*
 * contained.h - patch's stale-source check, extended to the structs a
 * struct holds by value (see contained.c).
 */
#ifndef SF_CMD_CONTAINED_H
#define SF_CMD_CONTAINED_H

#include "common.h"
#include "input/srctree.h"
#include "layout/clex.h"

/*
 * Whether every struct t holds by value (and those they hold, to a depth
 * of SF_CONTAINED_MAX types) still has, in the file the build saw it in,
 * the members the build's DWARF has.  A struct whose source no longer
 * matches (in the file below root, patch's source root, its DWARF names)
 * is a refusal (printed, returns 2): t's sizes were computed from
 * it, and the patch would promise a size the next build does not give.
 * A struct whose file is not below the source root, or whose definition
 * cannot be read for other reasons, is not judged here.  ts may have been
 * read for t alone: the inputs are then read again in full.  0 when
 * every one matches.
 */
#define SF_CONTAINED_MAX 64
int sf_patch_contained_fresh(const struct sf_type *t, const struct sf_typeset *ts,
			     const struct sf_common_opts *co, char **files, int nfiles,
			     const struct sf_source_root *root, const struct sf_cmacros *macros);

#endif
