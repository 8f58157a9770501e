/*
 * applydiff.c - strict application of a one-file unified diff (see
 * applydiff.h).
 *
 * The old text is cut into lines once; an applier walks the diff line by
 * line and builds the new text in a private strbuf, copying the old lines
 * between hunks:
 *
 *   struct applier { old lines | next_old: first old line not yet used
 *                    | diff reader (pos, line number) | hunk number | res }
 *
 * Each hunk: its header "@@ -A,B +C,D @@" (B or D may be left out: 1),
 * the old lines before A copied, then B old lines consumed (' ' kept, '-'
 * dropped, each compared) and D new lines produced (' ' and '+').  Only
 * when every hunk applied does the result reach the caller.
 */
#include "applydiff.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "lib/lines.h"

/* The diff, read one line at a time. */
struct reader {
	const char *s;
	size_t len, pos;
};

struct applier {
	struct sf_lines old;
	size_t next_old;          /* first old line not yet copied or consumed */
	struct reader r;
	size_t hunk;              /* 1-based, for messages */
	struct strbuf res;
	struct sf_udiff_refusal *why;
};

/* The next line of the diff (without its '\n'); false at the end. */
static bool next_line(struct reader *r, const char **line, size_t *n)
{
	if (r->pos >= r->len)
		return false;
	const char *s = r->s + r->pos;
	const char *nl = memchr(s, '\n', r->len - r->pos);
	*line = s;
	*n = nl ? (size_t)(nl - s) : r->len - r->pos;
	r->pos += *n + (nl != NULL);
	return true;
}

static bool peek_is(const struct reader *r, const char *prefix)
{
	size_t n = strlen(prefix);
	return r->len - r->pos >= n && !memcmp(r->s + r->pos, prefix, n);
}

/* "A" or "A,B" at *p (B is 1 when left out), *p moved past it: 0 or -1. */
static int parse_range(const char **p, size_t *start, size_t *count)
{
	char *end;

	if (**p < '0' || **p > '9')
		return -1;
	*start = strtoull(*p, &end, 10);
	*count = 1;
	if (*end == ',') {
		if (end[1] < '0' || end[1] > '9')
			return -1;
		*count = strtoull(end + 1, &end, 10);
	}
	*p = end;
	return 0;
}

/* "@@ -A[,B] +C[,D] @@..." into v[4] = {A, B, C, D}: 0, or -1 when malformed. */
static int parse_hunk_header(const char *l, size_t n, size_t v[4])
{
	char buf[128];
	const char *p = buf;

	if (n >= sizeof(buf))
		return -1;
	memcpy(buf, l, n);
	buf[n] = '\0';
	if (strncmp(p, "@@ -", 4))
		return -1;
	p += 4;
	if (parse_range(&p, &v[0], &v[1]) < 0 || strncmp(p, " +", 2))
		return -1;
	p += 2;
	if (parse_range(&p, &v[2], &v[3]) < 0 || strncmp(p, " @@", 3))
		return -1;
	return 0;
}

static int refuse(struct applier *ap, enum sf_udiff_problem code)
{
	ap->why->code = code;
	ap->why->hunk = ap->hunk;
	return -1;
}

/* Anything before "--- ", then the "--- " and "+++ " lines. */
static int skip_headers(struct applier *ap)
{
	const char *l;
	size_t n;

	while (!peek_is(&ap->r, "--- ") && next_line(&ap->r, &l, &n))
		;
	if (!next_line(&ap->r, &l, &n) || !next_line(&ap->r, &l, &n) || n < 4 ||
	    memcmp(l, "+++ ", 4))
		return refuse(ap, SF_UDIFF_NOT_A_DIFF);
	return 0;
}

/* Copy old lines up to `end` (exclusive) unchanged. */
static void copy_old(struct applier *ap, size_t end)
{
	for (; ap->next_old < end; ap->next_old++)
		sb_add(&ap->res, ap->old.v[ap->next_old].s, ap->old.v[ap->next_old].len);
}

/* Whether the next old line is `body` (with its '\n' unless no_eol). */
static bool old_line_is(const struct applier *ap, const struct sf_line *body, bool no_eol)
{
	if (ap->next_old >= ap->old.n)
		return false;
	const struct sf_line *o = &ap->old.v[ap->next_old];
	return o->len == body->len + !no_eol && !memcmp(o->s, body->s, body->len) &&
	       (no_eol || o->s[body->len] == '\n');
}

/*
 * One body line of a hunk (op then text): an old line consumed (' ', '-')
 * or a new one added ('+'); *ol and *nl count them.  0, or -1 refused.
 */
static int hunk_line(struct applier *ap, const char *l, size_t n, size_t *ol, size_t *nl)
{
	char op = n ? l[0] : ' ';     /* an empty line is empty context */
	struct sf_line body = { n ? l + 1 : l, n ? n - 1 : 0 };
	bool no_eol = peek_is(&ap->r, "\\ ");

	if (no_eol)
		next_line(&ap->r, &l, &n);    /* "\ No newline at end of file" */
	if (op == '+') {
		sb_add(&ap->res, body.s, body.len);
		if (!no_eol)
			sb_addch(&ap->res, '\n');
		++*nl;
		return 0;
	}
	if (op != ' ' && op != '-')
		return refuse(ap, SF_UDIFF_BAD_LINE);
	if (!old_line_is(ap, &body, no_eol))
		return refuse(ap, op == ' ' ? SF_UDIFF_CONTEXT_DIFFERS :
			      SF_UDIFF_REMOVED_DIFFERS);
	if (op == ' ')
		copy_old(ap, ap->next_old + 1);
	else
		ap->next_old++;
	++*ol;
	*nl += op == ' ';
	return 0;
}

/* The hunk whose header is l[0..n): 0, or -1 refused. */
static int apply_hunk(struct applier *ap, const char *l, size_t n)
{
	size_t h[4], ol = 0, nl = 0;

	ap->hunk++;
	if (parse_hunk_header(l, n, h) < 0)
		return refuse(ap, SF_UDIFF_BAD_HEADER);
	if (h[1] && h[0] == 0)
		return refuse(ap, SF_UDIFF_BAD_LINE_NUMBER);
	size_t start = h[1] ? h[0] - 1 : h[0];   /* 0-based first old line */
	if (start < ap->next_old || start > ap->old.n)
		return refuse(ap, SF_UDIFF_OUT_OF_ORDER);
	copy_old(ap, start);
	while ((ol < h[1] || nl < h[3]) && next_line(&ap->r, &l, &n))
		if (hunk_line(ap, l, n, &ol, &nl) < 0)
			return -1;
	if (ol != h[1] || nl != h[3])
		return refuse(ap, SF_UDIFF_COUNTS_DIFFER);
	return 0;
}

int sf_udiff_apply(const char *old, size_t oldlen, const char *diff, size_t difflen,
		   struct strbuf *out, struct sf_udiff_refusal *why)
{
	struct applier ap = { .r = { diff, difflen, 0 }, .why = why };
	const char *l;
	size_t n;
	int rc;

	sb_init(&ap.res);
	sf_lines_split(old, oldlen, &ap.old);
	rc = skip_headers(&ap);
	while (rc == 0 && next_line(&ap.r, &l, &n))
		if (n)   /* blank lines between hunks are ignored */
			rc = apply_hunk(&ap, l, n);
	if (rc == 0) {
		copy_old(&ap, ap.old.n);
		sb_add(out, ap.res.buf, ap.res.len);
	}
	sb_release(&ap.res);
	free(ap.old.v);
	return rc;
}
