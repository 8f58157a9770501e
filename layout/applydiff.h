/*
 * applydiff.h - whether a unified diff applies to a text, and what it
 * gives: the check `structfit patch` makes before it prints or writes
 * anything (the diff itself is rendered by report/udiff.c).
 *
 * The application is strict: every hunk at the line its header states,
 * every context and removed line identical byte for byte (lines cut as
 * lib/lines.h cuts them), the counts in the header exact; no offsets, no
 * fuzz.  So a diff that passes here is one `git apply` and `patch -p1`
 * apply as they stand.
 */
#ifndef SF_APPLYDIFF_H
#define SF_APPLYDIFF_H

#include <stddef.h>

#include "lib/err.h"
#include "lib/strbuf.h"

/*
 * Apply a one-file unified diff to old text.  Appends the patched text to
 * out and returns 0; or returns -1 with err set to "PATH: hunk N does not
 * apply (...)" (or "PATH: not a unified diff") and out unchanged.
 */
int sf_udiff_apply(const char *path, const char *old, size_t oldlen,
		   const char *diff, size_t difflen, struct strbuf *out,
		   struct sf_err *err);

#endif
