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

#include "lib/strbuf.h"

/* Why a diff does not apply; report/udiff.c words it. */
enum sf_udiff_problem {
	SF_UDIFF_NOT_A_DIFF = 1,      /* no "--- " and "+++ " lines */
	SF_UDIFF_BAD_LINE,            /* a hunk line that is not ' ', '-' or '+' */
	SF_UDIFF_CONTEXT_DIFFERS,     /* a ' ' line is not the old line */
	SF_UDIFF_REMOVED_DIFFERS,     /* a '-' line is not the old line */
	SF_UDIFF_BAD_HEADER,          /* not "@@ -A[,B] +C[,D] @@" */
	SF_UDIFF_BAD_LINE_NUMBER,     /* old line 0 with old lines to take */
	SF_UDIFF_OUT_OF_ORDER,        /* before the previous hunk, or past the end */
	SF_UDIFF_COUNTS_DIFFER,       /* the body's line counts are not the header's */
};

struct sf_udiff_refusal {
	enum sf_udiff_problem code;
	size_t hunk;                  /* 1-based; 0 with SF_UDIFF_NOT_A_DIFF */
};

/*
 * Apply a one-file unified diff to old text.  Appends the patched text to
 * out and returns 0; or returns -1 with why saying which hunk does not
 * apply and why (or that it is not a unified diff), and out unchanged.
 */
int sf_udiff_apply(const char *old, size_t oldlen, const char *diff, size_t difflen,
		   struct strbuf *out, struct sf_udiff_refusal *why);

#endif
