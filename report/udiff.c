/*
 * udiff.c - unified diff rendering and strict application (see udiff.h).
 *
 * Rendering:
 *
 *   1. Split both texts into lines (a line keeps its '\n'; the last one may
 *      have none).
 *   2. Skip the common prefix and suffix.  Between them, fill the table
 *      L[i][j] = length of the longest common subsequence of old[i..] and
 *      new[j..] (bottom-up, (n+1)*(m+1) cells).  Past SF_UDIFF_MAX_CELLS the
 *      middle is shown as all removed then all added: still a correct
 *      diff, just not a minimal one.
 *   3. Walk the table forward into an edit script of ops ' ', '-', '+'
 *      (removals before additions in a changed run, as diff(1) does).
 *   4. Cut the script into hunks: each change with `context` kept lines on
 *      both sides; hunks whose context would touch are merged.
 *
 * Application reads the hunks back and rebuilds the new text from the old
 * one, refusing any hunk whose header, context or removed lines do not
 * match exactly: no offsets, no fuzz.
 */
#include "udiff.h"

#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"

#define SF_UDIFF_MAX_CELLS ((size_t)16 << 20)

struct line {
	const char *s;
	size_t len;     /* bytes, '\n' included when present */
};

struct lines {
	struct line *v;
	size_t n, cap;
};

static void split_lines(const char *text, size_t len, struct lines *out)
{
	size_t start = 0;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < len; i++) {
		if (text[i] != '\n')
			continue;
		SF_GROW(out->v, out->n, out->cap);
		out->v[out->n++] = (struct line){ text + start, i + 1 - start };
		start = i + 1;
	}
	if (start < len) {
		SF_GROW(out->v, out->n, out->cap);
		out->v[out->n++] = (struct line){ text + start, len - start };
	}
}

static int line_eq(const struct line *a, const struct line *b)
{
	return a->len == b->len && !memcmp(a->s, b->s, a->len);
}

static int has_eol(const struct line *l)
{
	return l->len && l->s[l->len - 1] == '\n';
}

/* One step of the edit script: op with the line index in old or new. */
struct op {
	char op;        /* ' ', '-', '+' */
	size_t oi, ni;  /* line indexes (0-based) it refers to / stands at */
};

struct script {
	struct op *v;
	size_t n, cap;
};

static void push_op(struct script *s, char op, size_t oi, size_t ni)
{
	SF_GROW(s->v, s->n, s->cap);
	s->v[s->n++] = (struct op){ op, oi, ni };
}

/* LCS edit script of a[0..n) vs b[0..m), positions offset by base. */
static void lcs_script(const struct line *a, size_t n, const struct line *b,
		       size_t m, size_t obase, size_t nbase, struct script *s)
{
	size_t w = m + 1;

	if (n == 0 || m == 0 || (n + 1) > SF_UDIFF_MAX_CELLS / w) {
		for (size_t i = 0; i < n; i++)
			push_op(s, '-', obase + i, nbase);
		for (size_t j = 0; j < m; j++)
			push_op(s, '+', obase + n, nbase + j);
		return;
	}
	uint32_t *L = sf_xcalloc((n + 1) * w, sizeof(uint32_t));
	for (size_t i = n; i-- > 0;)
		for (size_t j = m; j-- > 0;)
			L[i * w + j] = line_eq(&a[i], &b[j]) ?
				       L[(i + 1) * w + j + 1] + 1 :
				       L[(i + 1) * w + j] >= L[i * w + j + 1] ?
				       L[(i + 1) * w + j] : L[i * w + j + 1];
	size_t i = 0, j = 0;
	while (i < n || j < m) {
		if (i < n && j < m && line_eq(&a[i], &b[j]) &&
		    L[i * w + j] == L[(i + 1) * w + j + 1] + 1) {
			push_op(s, ' ', obase + i, nbase + j);
			i++;
			j++;
		} else if (i < n && (j == m || L[(i + 1) * w + j] >= L[i * w + j + 1])) {
			push_op(s, '-', obase + i, nbase + j);
			i++;
		} else {
			push_op(s, '+', obase + i, nbase + j);
			j++;
		}
	}
	free(L);
}

static void edit_script(const struct lines *a, const struct lines *b,
			struct script *s)
{
	size_t pre = 0, suf = 0;

	while (pre < a->n && pre < b->n && line_eq(&a->v[pre], &b->v[pre]))
		pre++;
	while (suf < a->n - pre && suf < b->n - pre &&
	       line_eq(&a->v[a->n - 1 - suf], &b->v[b->n - 1 - suf]))
		suf++;
	for (size_t i = 0; i < pre; i++)
		push_op(s, ' ', i, i);
	/* an empty text has no line array: no arithmetic on NULL */
	lcs_script(a->v ? a->v + pre : NULL, a->n - pre - suf,
		   b->v ? b->v + pre : NULL, b->n - pre - suf, pre, pre, s);
	for (size_t k = 0; k < suf; k++)
		push_op(s, ' ', a->n - suf + k, b->n - suf + k);
}

static void emit_line(struct strbuf *out, char op, const struct line *l)
{
	sb_addch(out, op);
	sb_add(out, l->s, l->len);
	if (!has_eol(l))
		sb_adds(out, "\n\\ No newline at end of file\n");
}

/* "start,count" as diff prints it: a count of 0 names the line before. */
static void emit_range(struct strbuf *out, size_t start0, size_t count)
{
	if (count == 1)
		sb_addf(out, "%zu", start0 + 1);
	else
		sb_addf(out, "%zu,%zu", count ? start0 + 1 : start0, count);
}

static void emit_hunk(struct strbuf *out, const struct script *s, size_t from,
		      size_t to, const struct lines *a, const struct lines *b)
{
	size_t ol = 0, nl = 0;
	size_t os = s->v[from].oi, ns = s->v[from].ni;

	for (size_t k = from; k < to; k++) {
		ol += s->v[k].op != '+';
		nl += s->v[k].op != '-';
	}
	sb_adds(out, "@@ -");
	emit_range(out, os, ol);
	sb_adds(out, " +");
	emit_range(out, ns, nl);
	sb_adds(out, " @@\n");
	for (size_t k = from; k < to; k++) {
		const struct op *o = &s->v[k];
		emit_line(out, o->op, o->op == '+' ? &b->v[o->ni] : &a->v[o->oi]);
	}
}

size_t sf_udiff_render(struct strbuf *out, const char *path,
		       const char *old, size_t oldlen,
		       const char *new_text, size_t newlen, unsigned context)
{
	struct lines a, b;
	struct script s = { NULL, 0, 0 };
	size_t nhunks = 0;

	split_lines(old, oldlen, &a);
	split_lines(new_text, newlen, &b);
	edit_script(&a, &b, &s);
	for (size_t k = 0; k < s.n;) {
		if (s.v[k].op == ' ') {
			k++;
			continue;
		}
		/* a hunk: from `context` keeps before this change ... */
		size_t from = k, keep = 0;
		while (from > 0 && keep < context && s.v[from - 1].op == ' ') {
			from--;
			keep++;
		}
		/* ... to `context` keeps after the last change it merges */
		size_t to = k;
		for (;;) {
			while (to < s.n && s.v[to].op != ' ')
				to++;
			size_t run = 0;
			while (to + run < s.n && s.v[to + run].op == ' ')
				run++;
			if (to + run < s.n && run <= 2 * (size_t)context) {
				to += run;
				continue;
			}
			to += run < context ? run : context;
			break;
		}
		if (!nhunks)
			sb_addf(out, "--- a/%s\n+++ b/%s\n", path, path);
		emit_hunk(out, &s, from, to, &a, &b);
		nhunks++;
		k = to;
	}
	free(s.v);
	free(a.v);
	free(b.v);
	return nhunks;
}

/* ---------------------------------------------------------- applying */

struct reader {
	const char *s;
	size_t len, pos;
	size_t lineno;
};

/* The next line of the diff (without its '\n'); 0 at the end. */
static int next_line(struct reader *r, const char **line, size_t *n)
{
	if (r->pos >= r->len)
		return 0;
	const char *s = r->s + r->pos;
	const char *nl = memchr(s, '\n', r->len - r->pos);
	*line = s;
	*n = nl ? (size_t)(nl - s) : r->len - r->pos;
	r->pos += *n + (nl != NULL);
	r->lineno++;
	return 1;
}

static int peek_is(const struct reader *r, const char *prefix)
{
	size_t n = strlen(prefix);
	return r->len - r->pos >= n && !memcmp(r->s + r->pos, prefix, n);
}

/* "@@ -A[,B] +C[,D] @@": 0, or -1 when malformed. */
static int parse_hunk_header(const char *l, size_t n, size_t v[4])
{
	char buf[128];
	unsigned long long a, b = 1, c, d = 1;
	int used = 0;

	if (n >= sizeof(buf))
		return -1;
	memcpy(buf, l, n);
	buf[n] = '\0';
	if (sscanf(buf, "@@ -%llu,%llu +%llu,%llu @@%n", &a, &b, &c, &d, &used) == 4 && used)
		goto ok;
	b = d = 1;
	if (sscanf(buf, "@@ -%llu +%llu,%llu @@%n", &a, &c, &d, &used) == 3 && used)
		goto ok;
	b = d = 1;
	if (sscanf(buf, "@@ -%llu,%llu +%llu @@%n", &a, &b, &c, &used) == 3 && used)
		goto ok;
	b = d = 1;
	if (sscanf(buf, "@@ -%llu +%llu @@%n", &a, &c, &used) == 2 && used)
		goto ok;
	return -1;
ok:
	v[0] = a;
	v[1] = b;
	v[2] = c;
	v[3] = d;
	return 0;
}

static int apply_error(struct sf_err *err, const char *path, size_t hunk,
		       const char *why)
{
	return sf_error(err, "%s: hunk %zu does not apply (%s)", path, hunk, why);
}

int sf_udiff_apply(const char *path, const char *old, size_t oldlen,
		   const char *diff, size_t difflen, struct strbuf *out,
		   struct sf_err *err)
{
	struct lines a;
	struct reader r = { diff, difflen, 0, 0 };
	struct strbuf res = STRBUF_INIT;
	const char *l;
	size_t n, next_old = 0, hunk = 0;
	int rc = 0;

	split_lines(old, oldlen, &a);
	/* headers: anything before "--- ", then "+++ " */
	while (!peek_is(&r, "--- ") && next_line(&r, &l, &n))
		;
	if (!next_line(&r, &l, &n) || !next_line(&r, &l, &n) || n < 4 ||
	    memcmp(l, "+++ ", 4)) {
		free(a.v);
		return sf_error(err, "%s: not a unified diff", path);
	}
	while (rc == 0 && next_line(&r, &l, &n)) {
		size_t h[4];
		if (n == 0)
			continue;
		hunk++;
		if (parse_hunk_header(l, n, h) < 0) {
			rc = apply_error(err, path, hunk, "bad hunk header");
			break;
		}
		size_t start = h[1] ? h[0] - 1 : h[0];   /* 0-based first old line */
		if (h[1] && h[0] == 0) {
			rc = apply_error(err, path, hunk, "bad line number");
			break;
		}
		if (start < next_old || start > a.n) {
			rc = apply_error(err, path, hunk, "out of order or past the end");
			break;
		}
		for (; next_old < start; next_old++)
			sb_add(&res, a.v[next_old].s, a.v[next_old].len);
		size_t ol = 0, nl = 0;
		while (rc == 0 && (ol < h[1] || nl < h[3]) && next_line(&r, &l, &n)) {
			char op = n ? l[0] : ' ';
			int no_eol = peek_is(&r, "\\ ");
			struct line body = { n ? l + 1 : l, n ? n - 1 : 0 };
			if (no_eol) {
				const char *skip;
				size_t sn;
				next_line(&r, &skip, &sn);
			}
			if (op == ' ' || op == '-') {
				const struct line *o = next_old < a.n ? &a.v[next_old] : NULL;
				size_t want = body.len + !no_eol;
				if (!o || o->len != want || memcmp(o->s, body.s, body.len) ||
				    (!no_eol && o->s[body.len] != '\n')) {
					rc = apply_error(err, path, hunk, op == ' ' ?
							 "context differs" : "removed line differs");
					break;
				}
				if (op == ' ')
					sb_add(&res, o->s, o->len);
				next_old++;
				ol++;
				nl += op == ' ';
			} else if (op == '+') {
				sb_add(&res, body.s, body.len);
				if (!no_eol)
					sb_addch(&res, '\n');
				nl++;
			} else {
				rc = apply_error(err, path, hunk, "bad line in hunk");
			}
		}
		if (rc == 0 && (ol != h[1] || nl != h[3]))
			rc = apply_error(err, path, hunk, "line counts differ from its header");
	}
	if (rc == 0) {
		for (; next_old < a.n; next_old++)
			sb_add(&res, a.v[next_old].s, a.v[next_old].len);
		sb_add(out, res.buf, res.len);
	}
	sb_release(&res);
	free(a.v);
	return rc;
}
