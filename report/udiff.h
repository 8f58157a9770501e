/*
 * udiff.h - unified diffs of one file's old and new text (their strict
 * application, the check before anything is written, is
 * layout/applydiff.h).
 *
 * The diff is what `diff -u` and `git diff` print and what both `git
 * apply` and `patch -p1` read from the source root:
 *
 *   --- a/PATH
 *   +++ b/PATH
 *   @@ -OLD_START,OLD_LINES +NEW_START,NEW_LINES @@
 *    context
 *   -removed
 *   +added
 *   \ No newline at end of file      (after a last line without '\n')
 *
 * Lines are compared byte for byte (a CR of CRLF is part of the line).
 * The edit script is a longest common subsequence of the lines between the
 * common prefix and suffix (which, for a patch confined to one struct
 * body, leaves a few dozen lines), so moved members show as few -/+ lines
 * as possible.
 */
#ifndef SF_UDIFF_H
#define SF_UDIFF_H

#include <stddef.h>

#include "layout/applydiff.h"
#include "lib/err.h"
#include "lib/strbuf.h"

#define SF_UDIFF_CONTEXT 3

/*
 * Append the unified diff of old -> new, headed `--- a/PATH` and
 * `+++ b/PATH`, with `context` lines around each change.  PATH is used as
 * given (relative to the directory the patch applies from).  Returns the
 * number of hunks; 0 (and nothing appended) when the texts are equal.
 */
size_t sf_udiff_render(struct strbuf *out, const char *path,
		       const char *old, size_t oldlen,
		       const char *new_text, size_t newlen, unsigned context);

/* Why a diff of PATH does not apply (layout/applydiff.h), worded into err:
 * "PATH: hunk N does not apply (context differs)", "PATH: not a unified
 * diff"; returns -1. */
int sf_udiff_refusal_err(const char *path, const struct sf_udiff_refusal *r,
			 struct sf_err *err);

#endif
