/*
 * ctorinit.c - constructor initializer lists in a new member order (see
 * ctorinit.h).
 *
 * One pass over the lexed text (clex.h) finds `NAME (` where NAME is the
 * class's own name: inside the class's body (the scopes around it, as
 * cdecl.c reads them, are the class), or after `Q::NAME::` where the
 * scopes around and Q make the class's qualified name.  Its parameters'
 * `)`, an optional noexcept(...), then a single `:` make a list; its
 * entries run to the body's `{`.  The edits (each slot's new text) are
 * kept by byte range and applied in one copy of the text.
 */
#include "ctorinit.h"

#include <stdlib.h>
#include <string.h>

#include "cdecl.h"
#include "clex.h"
#include "lib/xalloc.h"

#define NONE SF_CLEX_NONE

struct entry {
	size_t first, last;      /* code indexes, inclusive */
	size_t open;             /* its ( or { */
	uint32_t member;         /* model index, or UINT32_MAX */
};

struct edit {
	size_t from, to;         /* bytes of the text replaced */
	size_t src_from, src_to; /* by these bytes of the text */
};

struct work {
	const struct sf_lexed *lx;
	const struct sf_type *t;
	const uint32_t *new_pos;
	struct edit *ed;
	size_t ned, ed_cap;
	struct sf_ctor_read **rd;
	size_t *nrd;
};

/* One past the group opening at ci. */
static size_t past_group(const struct sf_lexed *lx, size_t ci)
{
	size_t depth = 0;

	for (; ci < lx->ncode; ci++) {
		if (ct_punct(lx, ci, '(') || ct_punct(lx, ci, '[') || ct_punct(lx, ci, '{'))
			depth++;
		else if ((ct_punct(lx, ci, ')') || ct_punct(lx, ci, ']') ||
			  ct_punct(lx, ci, '}')) && --depth == 0)
			return ci + 1;
	}
	return lx->ncode;
}

static uint32_t member_named(const struct sf_type *t, const struct sf_lexed *lx, size_t ci)
{
	for (uint32_t i = 0; i < t->nmembers; i++)
		if (t->members[i].name[0] && ct_is(lx, ci, t->members[i].name))
			return i;
	return UINT32_MAX;
}

/* Whether `NAME (` at ci is one of t's constructors. */
static int is_ctor(const struct sf_lexed *lx, size_t ci, const struct sf_type *t)
{
	struct strbuf scope = STRBUF_INIT, q = STRBUF_INIT;
	size_t k = ci;
	int ok;

	if (ci > 0 && (ct_punct(lx, ci - 1, '~') || ct_punct(lx, ci - 1, '.') ||
		       ct_punct(lx, ci - 1, '>') || ct_punct(lx, ci - 1, '?')))
		return 0;
	while (k >= 3 && ct_punct(lx, k - 1, ':') && ct_punct(lx, k - 2, ':') &&
	       ct_ident(lx, k - 3))
		k -= 3;
	sf_cdecl_scope_at(lx, k, &scope);
	if (k == ci) {           /* in the class's body */
		ok = !strcmp(scope.buf, t->name);
	} else {
		sb_add(&q, scope.buf, scope.len);
		for (size_t j = k; j < ci; j += 3) {
			if (q.len)
				sb_adds(&q, "::");
			sf_clex_spelled(lx, j, j + 1, &q);
		}
		ok = !strcmp(q.buf, t->name);
	}
	sb_release(&scope);
	sb_release(&q);
	return ok;
}

/* The entries of the list whose `:` is at colon; 0 when it is no list. */
static size_t read_entries(const struct sf_lexed *lx, size_t colon, const struct sf_type *t,
			   struct entry **v)
{
	size_t n = 0, cap = 0, k = colon + 1;

	*v = NULL;
	for (;;) {
		size_t first = k;
		while (k < lx->ncode && (ct_ident(lx, k) || ct_punct(lx, k, ':') ||
					 ct_punct(lx, k, '<') || ct_punct(lx, k, '>')))
			k++;
		if (k >= lx->ncode || k == first ||
		    !(ct_punct(lx, k, '(') || ct_punct(lx, k, '{')))
			return 0;
		size_t open = k;
		k = past_group(lx, k);
		while (ct_punct(lx, k, '.'))
			k++;
		SF_GROW(*v, n, cap);
		(*v)[n++] = (struct entry){ first, k - 1, open,
					    open == first + 1 ? member_named(t, lx, first) : UINT32_MAX };
		if (!ct_punct(lx, k, ','))
			break;
		k++;
	}
	return ct_punct(lx, k, '{') ? n : 0;
}

/* Entry e reads members whose order relative to it changes: hazards. */
static void find_reads(struct work *w, const struct entry *e)
{
	const struct sf_lexed *lx = w->lx;
	uint32_t b = e->member;

	for (size_t ci = e->open + 1; ci < e->last; ci++) {
		if (!ct_ident(lx, ci) || (ci > 0 && ct_punct(lx, ci - 1, '.')) ||
		    (ci > 1 && ct_punct(lx, ci - 1, '>') && ct_punct(lx, ci - 2, '-') &&
		     !(ci > 2 && ct_is(lx, ci - 3, "this"))))
			continue;
		uint32_t a = member_named(w->t, lx, ci);
		if (a == UINT32_MAX || a == b ||
		    (a < b) == (w->new_pos[a] < w->new_pos[b]))
			continue;
		*w->rd = sf_xreallocarray(*w->rd, *w->nrd + 1, sizeof(**w->rd));
		(*w->rd)[(*w->nrd)++] = (struct sf_ctor_read){
			ct_line(lx, e->first), b, a, w->new_pos[b] < w->new_pos[a] };
	}
}

static int by_new_pos(const void *x, const void *y, void *arg)
{
	const uint32_t *pos = arg;
	const struct entry *a = x, *b = y;
	return (pos[a->member] > pos[b->member]) - (pos[a->member] < pos[b->member]);
}

/* The member entries of v[0..n) in the new order, as edits; 1 if any. */
static int reorder_list(struct work *w, const struct entry *v, size_t n)
{
	struct entry *m = sf_xcalloc(n + 1, sizeof(*m));
	size_t nm = 0, k = 0;
	int changed = 0;

	for (size_t i = 0; i < n; i++)
		if (v[i].member != UINT32_MAX) {
			m[nm++] = v[i];
			find_reads(w, &v[i]);
		}
	/* insertion sort: lists are short, and it is stable */
	for (size_t i = 1; i < nm; i++)
		for (size_t j = i; j > 0 && by_new_pos(&m[j - 1], &m[j], (void *)w->new_pos) > 0; j--) {
			struct entry tmp = m[j];
			m[j] = m[j - 1];
			m[j - 1] = tmp;
		}
	for (size_t i = 0; i < n; i++) {
		if (v[i].member == UINT32_MAX)
			continue;
		const struct entry *to = &m[k++];
		if (to->first == v[i].first)
			continue;
		changed = 1;
		SF_GROW(w->ed, w->ned, w->ed_cap);
		w->ed[w->ned++] = (struct edit){ ct(w->lx, v[i].first)->start,
						 ct(w->lx, v[i].last)->end,
						 ct(w->lx, to->first)->start,
						 ct(w->lx, to->last)->end };
	}
	free(m);
	return changed;
}

/* After the `)` closing the parameters at close: the list's `:`, or NONE. */
static size_t list_colon(const struct sf_lexed *lx, size_t close)
{
	size_t k = close + 1;

	if (ct_is(lx, k, "noexcept"))
		k = ct_punct(lx, k + 1, '(') ? past_group(lx, k + 1) : k + 1;
	if (ct_punct(lx, k, ':') && !ct_punct(lx, k + 1, ':'))
		return k;
	return NONE;
}

size_t sf_ctorinit_rewrite(const char *text, size_t len, const struct sf_type *t,
			   const uint32_t *new_pos, struct strbuf *out,
			   struct sf_ctor_read **rd, size_t *nrd)
{
	struct sf_lexed lx;
	const char *name = sf_cdecl_last_name(t->name);
	struct work w = { &lx, t, new_pos, NULL, 0, 0, rd, nrd };
	size_t lists = 0, at = 0;

	sf_clex(&lx, text, len);
	for (size_t ci = 0; ci + 1 < lx.ncode; ci++) {
		if (!ct_is(&lx, ci, name) || !ct_punct(&lx, ci + 1, '('))
			continue;
		size_t close = past_group(&lx, ci + 1) - 1, colon;
		struct entry *v;
		size_t n;
		if (close >= lx.ncode || (colon = list_colon(&lx, close)) == NONE ||
		    !is_ctor(&lx, ci, t) || !(n = read_entries(&lx, colon, t, &v)))
			continue;
		lists += reorder_list(&w, v, n);
		ci = v[n - 1].last;
		free(v);
	}
	for (size_t i = 0; i < w.ned; i++) {
		sb_add(out, text + at, w.ed[i].from - at);
		sb_add(out, text + w.ed[i].src_from, w.ed[i].src_to - w.ed[i].src_from);
		at = w.ed[i].to;
	}
	sb_add(out, text + at, len - at);
	free(w.ed);
	sf_clex_free(&lx);
	return lists;
}
