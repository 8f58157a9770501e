/*
 * udiff.c - unified diff rendering (see udiff.h).
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
 * Whether the diff applies back (the strict application) is decided in
 * layout/applydiff.c.
 */
#include "udiff.h"

#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/lines.h"
#include "lib/xalloc.h"

#define SF_UDIFF_MAX_CELLS ((size_t)16 << 20)

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
static void lcs_script(const struct sf_line *a, size_t n, const struct sf_line *b,
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
			L[i * w + j] = sf_line_eq(&a[i], &b[j]) ?
				       L[(i + 1) * w + j + 1] + 1 :
				       L[(i + 1) * w + j] >= L[i * w + j + 1] ?
				       L[(i + 1) * w + j] : L[i * w + j + 1];
	size_t i = 0, j = 0;
	while (i < n || j < m) {
		if (i < n && j < m && sf_line_eq(&a[i], &b[j]) &&
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

static void edit_script(const struct sf_lines *a, const struct sf_lines *b,
			struct script *s)
{
	size_t pre = 0, suf = 0;

	while (pre < a->n && pre < b->n && sf_line_eq(&a->v[pre], &b->v[pre]))
		pre++;
	while (suf < a->n - pre && suf < b->n - pre &&
	       sf_line_eq(&a->v[a->n - 1 - suf], &b->v[b->n - 1 - suf]))
		suf++;
	for (size_t i = 0; i < pre; i++)
		push_op(s, ' ', i, i);
	/* an empty text has no line array: no arithmetic on NULL */
	lcs_script(a->v ? a->v + pre : NULL, a->n - pre - suf,
		   b->v ? b->v + pre : NULL, b->n - pre - suf, pre, pre, s);
	for (size_t k = 0; k < suf; k++)
		push_op(s, ' ', a->n - suf + k, b->n - suf + k);
}

static void emit_line(struct strbuf *out, char op, const struct sf_line *l)
{
	sb_addch(out, op);
	sb_add(out, l->s, l->len);
	if (!sf_line_has_eol(l))
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
		      size_t to, const struct sf_lines *a, const struct sf_lines *b)
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
	struct sf_lines a, b;
	struct script s = { NULL, 0, 0 };
	size_t nhunks = 0;

	sf_lines_split(old, oldlen, &a);
	sf_lines_split(new_text, newlen, &b);
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

int sf_udiff_refusal_err(const char *path, const struct sf_udiff_refusal *r,
			 struct sf_err *err)
{
	const char *why = NULL;

	switch (r->code) {
	case SF_UDIFF_NOT_A_DIFF:
		return sf_error_at(err, path, 0, 0, "not a unified diff");
	case SF_UDIFF_BAD_LINE: why = "bad line in hunk"; break;
	case SF_UDIFF_CONTEXT_DIFFERS: why = "context differs"; break;
	case SF_UDIFF_REMOVED_DIFFERS: why = "removed line differs"; break;
	case SF_UDIFF_BAD_HEADER: why = "bad hunk header"; break;
	case SF_UDIFF_BAD_LINE_NUMBER: why = "bad line number"; break;
	case SF_UDIFF_OUT_OF_ORDER: why = "out of order or past the end"; break;
	case SF_UDIFF_COUNTS_DIFFER: why = "line counts differ from its header"; break;
	}
	assert(why);
	return sf_error_at(err, path, 0, 0, "hunk %zu does not apply (%s)", r->hunk,
			   why ? why : "?");
}
