/*
 * srcpatch.c - rewrite a struct's body in C source text (see srcpatch.h).
 *
 * The definition is found and matched against the model by cdecl.h (over
 * the tokens of clex.h); this file writes the new body.  It is the new
 * member order, where each unit whose members stay together in their old
 * order and are not narrowed is copied verbatim, and every other member
 * becomes one line:
 *
 *     INDENT [prefix comments] SPECIFIERS DECLARATOR; [its comments]
 *
 * A free block stays in front of the first member after it that does not
 * move ("kept": a longest increasing subsequence of the old indexes in the
 * new order, the moves of reorder.h), so blank lines and section comments
 * keep separating the groups of members they separated.
 *
 * The result is parsed again and matched against the model in the new
 * order (narrowed members with their new types): a rewrite that does not
 * read back as the intended struct is an internal error, never output.
 *
 * C++: the model is the class as declared (no bases, no vptr: an order
 * moving one is refused, as is moving a [[no_unique_address]] member).
 * While emitting, each stretch of the new body is marked (mark(): a
 * label, something of an access - a member or a declaration that stays -
 * or neither); relabel() then walks the marks, keeping an original label
 * only where its section still starts and writing one wherever the access
 * changes.  Whatever stands before every data member stays first.
 */
#include "srcpatch.h"

#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cdecl.h"
#include "lib/xalloc.h"

#define NONE SF_CLEX_NONE

/* Pointers and bools narrow to unsigned integers, whatever their flags. */
static int narrow_signed(const struct sf_member *m)
{
	return m->tclass != SF_T_POINTER && m->tclass != SF_T_BOOL &&
	       (m->flags & SF_MF_SIGNED);
}

/* ---------------------------------------------------------- emitting */

struct emit {
	struct sf_cdecl_ctx *x;
	const struct sf_cstruct *p;
	const struct sf_type *t;
	const struct sf_srcpatch_plan *plan;
	const uint32_t *narrow_to;   /* per member: new bytes, 0 = unchanged */
	const uint8_t *kept;         /* per member: stays in place (not moved) */
	const char *eol;
	int have_stdint;
	struct strbuf *out;
	uint32_t split;
	int last_blank;              /* the last lines emitted were a blank block */
	/* C++: what each stretch of out is (SF_LINE_* | access), by offset */
	struct chunk {
		size_t off;
		uint8_t kind;
	} *ck;
	size_t nck, ck_cap;
};

/* C++: what is emitted from here on is of kind k (cdecl.h's SF_LINE_*). */
static void mark(struct emit *e, uint8_t k)
{
	if (!e->p->cxx)
		return;
	SF_GROW(e->ck, e->nck, e->ck_cap);
	e->ck[e->nck++] = (struct chunk){ e->out->len, k };
}

/* The access section of model member m (C++). */
static uint8_t member_kind(const struct emit *e, uint32_t m)
{
	const struct sf_cstruct *p = e->p;
	return SF_LINE_FIXED | p->decls[p->dtors[p->dtor_of[m]].decl].access;
}

static void emit_lines(struct emit *e, uint32_t l0, uint32_t l1)
{
	const struct sf_lexed *lx = &e->x->lx;
	assert(l0 <= l1 && l1 <= lx->nlines);
	sb_add(e->out, lx->text + lx->line_start[l0],
	       lx->line_start[l1 + 1] - lx->line_start[l0]);
}

static void emit_range(struct emit *e, size_t from, size_t to)
{
	sb_add(e->out, e->x->lx.text + from, to - from);
}

/* Visual column of text offset o on its line (tabs every 8). */
static size_t visual_col(const struct sf_lexed *lx, size_t o)
{
	size_t col = 0, ls = o;
	while (ls > 0 && lx->text[ls - 1] != '\n')
		ls--;
	for (size_t i = ls; i < o; i++)
		col = lx->text[i] == '\t' ? (col / 8 + 1) * 8 : col + 1;
	return col;
}

static size_t current_col(const struct strbuf *sb)
{
	size_t ls = sb->len, col = 0;
	while (ls > 0 && sb->buf[ls - 1] != '\n')
		ls--;
	for (size_t i = ls; i < sb->len; i++)
		col = sb->buf[i] == '\t' ? (col / 8 + 1) * 8 : col + 1;
	return col;
}

/* Append comment tokens [from, to) of tok[] (others skipped). */
static void emit_comments(struct emit *e, size_t from, size_t to, int *first)
{
	const struct sf_lexed *lx = &e->x->lx;
	for (size_t i = from; i < to; i++) {
		const struct sf_tok *t = &lx->tok[i];
		if (t->kind != TK_COMMENT)
			continue;
		if (*first) {
			size_t want = visual_col(lx, t->start);
			size_t col = current_col(e->out);
			if (want > col)
				sb_addchars(e->out, ' ', want - col);
			else
				sb_addch(e->out, ' ');
			*first = 0;
		} else {
			sb_addch(e->out, ' ');
		}
		emit_range(e, t->start, t->end);
	}
}

static void emit_indent(struct emit *e, uint32_t line)
{
	const struct sf_lexed *lx = &e->x->lx;
	size_t o = lx->line_start[line];
	size_t s = o;
	while (lx->text[o] == ' ' || lx->text[o] == '\t')
		o++;
	emit_range(e, s, o);
}

/* A declaration's comments that are not inside a copied text range. */
struct dcomments {
	size_t pre_from, pre_to;     /* before its first token, on its line */
	size_t gap_from, gap_to;     /* between specifiers and declarator 0 */
};

static void decl_comments(const struct sf_lexed *lx, const struct sf_decl *d,
			  const struct sf_dtor *d0, size_t lower, struct dcomments *c)
{
	size_t ft = lx->code[d->first];
	size_t i = ft;
	while (i > lower && lx->tok[i - 1].kind == TK_COMMENT &&
	       lx->tok[i - 1].line == d->line0 && lx->tok[i - 1].end_line == d->line0)
		i--;
	c->pre_from = i;
	c->pre_to = ft;
	c->gap_from = c->gap_to = 0;
	if (d0->name != NONE && d->spec_end > d->first) {
		c->gap_from = lx->code[d->spec_end - 1] + 1;
		c->gap_to = lx->code[d0->first];
	}
}

/* Trailing comment range of declarator k of d: [from, to) of tok[]. */
static void dtor_trailing(const struct sf_lexed *lx, const struct sf_cstruct *p,
			  const struct sf_decl *d, uint32_t k, size_t *from, size_t *to)
{
	const struct sf_dtor *dt = &p->dtors[d->d0 + k];
	*from = lx->code[dt->last] + 1;
	*to = k + 1 < d->nd ? lx->code[p->dtors[d->d0 + k + 1].first] : d->post_end;
}

/* Whether a declaration's only comments are after its `;`, all on one line. */
static int shares_trailing(const struct sf_lexed *lx, const struct sf_decl *d)
{
	if (d->nd < 2 || d->line0 != ct_line(lx, d->semi))
		return 0;
	for (size_t i = lx->code[d->first]; i < lx->code[d->semi]; i++)
		if (lx->tok[i].kind == TK_COMMENT)
			return 0;
	return 1;
}

/* The source text of code tokens [a, b] (inclusive), comments inside too. */
static void emit_code_span(struct emit *e, size_t a, size_t b)
{
	const struct sf_lexed *lx = &e->x->lx;
	emit_range(e, ct(lx, a)->start, ct(lx, b)->end);
}

/* The comment beside a narrowed member (the plan's words). */
static void emit_range_comment(struct emit *e, const struct sf_member *m,
			       unsigned bytes)
{
	char range[64];

	if (!e->plan->words)
		return;
	sf_srcpatch_range(bytes, narrow_signed(m), range, sizeof(range));
	e->plan->words->c_narrowed(e->out, m, range);
}

/* A narrowed member: qualifiers, attributes, new type, name. */
static void emit_narrowed(struct emit *e, const struct sf_decl *d,
			  const struct sf_dtor *dt, const struct sf_member *m,
			  unsigned bytes)
{
	struct sf_lexed *lx = &e->x->lx;
	const char *ty = sf_srcpatch_narrow_type(bytes, narrow_signed(m), e->have_stdint);

	sf_clex_brackets(lx, d->first, d->semi);
	/* attributes of the specifiers, then their qualifiers (not for a
	 * pointer: those qualify what it points to) */
	for (size_t ci = d->first; ci < d->spec_end; ci++) {
		if (ct_ident(lx, ci) && ci + 1 < d->spec_end && lx->pkind[ci + 1] == PK_CALL) {
			emit_code_span(e, ci, lx->match[ci + 1]);
			sb_addch(e->out, ' ');
			ci = lx->match[ci + 1];
		} else if (m->tclass != SF_T_POINTER && !lx->flags[ci] &&
			   sf_clex_is_qualifier(lx, ci)) {
			emit_code_span(e, ci, ci);
			sb_addch(e->out, ' ');
		}
	}
	if (m->tclass == SF_T_POINTER) {
		/* qualifiers of the pointer itself: after its last `*` */
		size_t star = NONE;
		for (size_t ci = dt->first; ci < dt->name; ci++)
			if (ct_punct(lx, ci, '*'))
				star = ci;
		for (size_t ci = star == NONE ? dt->name : star + 1; ci < dt->name; ci++)
			if (sf_clex_is_qualifier(lx, ci)) {
				emit_code_span(e, ci, ci);
				sb_addch(e->out, ' ');
			}
	}
	sb_addf(e->out, "%s ", ty);
	emit_code_span(e, dt->name, dt->name);
	/* attributes after the name, then C++'s default member initializer */
	size_t last = dt->init != NONE ? dt->init - 1 : dt->last;
	for (size_t ci = dt->name + 1; ci <= last; ci++)
		if (ct_ident(lx, ci) && ci + 1 <= last && lx->pkind[ci + 1] == PK_CALL) {
			sb_addch(e->out, ' ');
			emit_code_span(e, ci, lx->match[ci + 1]);
			ci = lx->match[ci + 1];
		}
	if (dt->init != NONE) {
		if (ct_punct(lx, dt->init, '='))
			sb_addch(e->out, ' ');
		emit_code_span(e, dt->init, dt->last);
	}
	sb_addch(e->out, ';');
	emit_range_comment(e, m, bytes);
}

/* Comment tokens strictly inside code span [a, b]: for narrowed members. */
static void emit_inner_comments(struct emit *e, size_t a, size_t b, int *first)
{
	const struct sf_lexed *lx = &e->x->lx;
	if (a > b)
		return;
	emit_comments(e, lx->code[a] + 1, lx->code[b], first);
}

/* The unit holding member m, or NULL. */
static const struct sf_unit *unit_of(const struct sf_cstruct *p, uint32_t m)
{
	for (size_t i = 0; i < p->nunits; i++)
		if (p->units[i].nm && m >= p->units[i].m0 &&
		    m < p->units[i].m0 + p->units[i].nm)
			return &p->units[i];
	return NULL;
}

/*
 * The member whose line the comment lines above a split unit stay with:
 * the first one that does not move (so a comment describing several
 * members stays where it was), else the first.
 */
static uint32_t lead_owner(const struct emit *e, const struct sf_unit *u)
{
	for (uint32_t i = 0; i < u->nm; i++)
		if (e->kept[u->m0 + i])
			return u->m0 + i;
	return u->m0;
}

/* One member on a line of its own. */
static int emit_piece(struct emit *e, uint32_t member)
{
	const struct sf_lexed *lx = &e->x->lx;
	const struct sf_cstruct *p = e->p;
	const struct sf_dtor *dt = &p->dtors[p->dtor_of[member]];
	const struct sf_decl *d = &p->decls[dt->decl];
	const struct sf_unit *u = unit_of(p, member);
	uint32_t k = (uint32_t)(p->dtor_of[member] - d->d0);
	struct dcomments dc;
	size_t tf, tt;
	int first = 1;

	assert(u);
	if (u->has_assert) {
		sf_cdecl_refuse(e->x, SF_SRC_ASSERT_MOVES, u->code0, 0);
		return -1;
	}
	/* a comment that runs into the first code line cannot be split off */
	size_t ft = lx->code[d->first];
	for (size_t i = lx->code[p->open_ci]; i < ft; i++)
		if (lx->tok[i].kind == TK_COMMENT && lx->tok[i].line < d->line0 &&
		    lx->tok[i].end_line == d->line0 && dt->decl == u->decl0) {
			sf_cdecl_refuse(e->x, SF_SRC_COMMENT_ENDS, d->line0, 0);
			return -1;
		}
	mark(e, member_kind(e, member));
	if (member == lead_owner(e, u) && u->code0 > u->l0)
		emit_lines(e, u->l0, u->code0 - 1);
	decl_comments(lx, d, &p->dtors[d->d0],
		      dt->decl ? p->decls[dt->decl - 1].post_end : lx->code[p->open_ci] + 1,
		      &dc);
	emit_indent(e, d->line0);
	if (k == 0 && dc.pre_to > dc.pre_from) {
		for (size_t i = dc.pre_from; i < dc.pre_to; i++) {
			emit_range(e, lx->tok[i].start, lx->tok[i].end);
			sb_addch(e->out, ' ');
		}
	}
	unsigned bytes = e->narrow_to[member];
	if (dt->name == NONE) {
		/* an anonymous struct/union member: its whole text */
		emit_code_span(e, d->first, d->semi - 1);
		sb_addch(e->out, ';');
	} else if (bytes) {
		emit_narrowed(e, d, dt, &e->t->members[member], bytes);
		emit_inner_comments(e, d->first, d->spec_end - 1, &first);
		emit_inner_comments(e, dt->first, dt->last, &first);
	} else {
		emit_code_span(e, d->first, d->spec_end - 1);
		const struct sf_dtor *d0 = &p->dtors[d->d0];
		int gap_nl = 0;
		const char *g0 = lx->text + ct(lx, d->spec_end - 1)->end;
		const char *g1 = lx->text + ct(lx, d0->first)->start;
		for (const char *s = g0; s < g1; s++)
			if (*s == '\n' || *s == '/')
				gap_nl = 1;
		if (gap_nl || g0 == g1)
			sb_addch(e->out, ' ');
		else
			sb_add(e->out, g0, (size_t)(g1 - g0));
		emit_code_span(e, dt->first, dt->last);
		sb_addch(e->out, ';');
	}
	if (k == 0 && dc.gap_to > dc.gap_from)
		emit_comments(e, dc.gap_from, dc.gap_to, &first);
	if (shares_trailing(lx, d)) {
		emit_comments(e, lx->code[d->semi] + 1, d->post_end, &first);
	} else {
		dtor_trailing(lx, p, d, k, &tf, &tt);
		emit_comments(e, tf, tt, &first);
	}
	if (d->nd > 1)
		e->split++;
	sb_adds(e->out, e->eol);
	return 0;
}

/* Free lines of the body: every line no member unit claims. */
struct free_block {
	uint32_t l0, l1;
	uint32_t mbefore;
};

static size_t free_blocks(const struct sf_lexed *lx, const struct sf_cstruct *p,
			  struct free_block **out)
{
	uint32_t open_line = ct_line(lx, p->open_ci);
	uint32_t close_line = ct_line(lx, p->close_ci);
	struct free_block *v = NULL;
	size_t n = 0, cap = 0, ui = 0;
	uint32_t m = 0;   /* members in the units above line l */

	for (uint32_t l = open_line + 1; l < close_line; l++) {
		while (ui < p->nunits && p->units[ui].l1 < l)
			m += p->units[ui++].nm;
		if (ui < p->nunits && p->units[ui].nm && l >= p->units[ui].l0)
			continue;   /* a member unit's line */
		if (n && v[n - 1].l1 + 1 == l && v[n - 1].mbefore == m) {
			v[n - 1].l1 = l;
			continue;
		}
		SF_GROW(v, n, cap);
		v[n++] = (struct free_block){ l, l, m };
	}
	*out = v;
	return n;
}

/* Whether unit u can be copied verbatim at position pos of the order. */
static int unit_intact(const struct emit *e, const struct sf_unit *u, uint32_t pos)
{
	if (pos + u->nm > e->plan->norder)
		return 0;
	for (uint32_t i = 0; i < u->nm; i++)
		if (e->plan->order[pos + i] != u->m0 + i || e->narrow_to[u->m0 + i])
			return 0;
	return 1;
}

/*
 * The member a free block stays in front of: the first member after it
 * that does not move (so a blank line between two groups of members still
 * separates them), or UINT32_MAX for the end of the body.
 */
static uint32_t free_anchor(const struct emit *e, const struct free_block *b)
{
	for (uint32_t m = b->mbefore; m < e->plan->norder; m++)
		if (e->kept[m])
			return m;
	return UINT32_MAX;
}

/* Whether lines l0..l1 hold nothing but blanks. */
static int blank_lines(const struct sf_lexed *lx, uint32_t l0, uint32_t l1)
{
	for (size_t o = lx->line_start[l0]; o < lx->line_start[l1 + 1]; o++)
		if (!strchr(" \t\r\n\f\v", lx->text[o]))
			return 0;
	return 1;
}

/*
 * Emit, in their order, the free blocks anchored to `anchor_member`.  Two
 * blank separators that end up next to each other (the members between
 * them moved away) become one.
 */
static void emit_free_before(struct emit *e, const struct free_block *fb,
			     const uint32_t *anchor, uint8_t *done, size_t nfb,
			     uint32_t anchor_member)
{
	const struct sf_lexed *lx = &e->x->lx;
	for (size_t i = 0; i < nfb; i++) {
		if (done[i] || anchor[i] != anchor_member)
			continue;
		done[i] = 1;
		int blank = blank_lines(lx, fb[i].l0, fb[i].l1);
		if (blank && e->last_blank)
			continue;
		if (e->p->cxx) {
			for (uint32_t l = fb[i].l0; l <= fb[i].l1; l++) {
				mark(e, e->p->line_kind[l]);
				emit_lines(e, l, l);
			}
		} else {
			emit_lines(e, fb[i].l0, fb[i].l1);
		}
		e->last_blank = blank;
	}
}

/* The plan moves or narrows members of an #if block, or cuts it: a
 * refusal as data (x->why->cxx; report/patch.c words it). */
static int block_split_error(const struct emit *e, const struct sf_unit *u)
{
	return sf_cdecl_refuse_cxx(e->x, (struct sf_cxx_why){ SF_CXX_IF_SPLIT, 0, NULL,
							      u->code0, u->l1 });
}

static int emit_body(struct emit *e)
{
	const struct sf_lexed *lx = &e->x->lx;
	const struct sf_cstruct *p = e->p;
	struct free_block *fb;
	size_t nfb = free_blocks(lx, p, &fb);
	uint32_t *anchor = sf_xcalloc(nfb + 1, sizeof(uint32_t));
	uint8_t *done = sf_xcalloc(nfb + 1, 1);
	int rc = 0;

	for (size_t i = 0; i < nfb; i++)
		anchor[i] = free_anchor(e, &fb[i]);
	/* C++: what comes before every data member (the public functions of a
	 * class) stays first, in front of the first member of the new order */
	for (size_t i = 0; p->cxx && i < nfb && e->plan->norder; i++)
		if (fb[i].mbefore == 0)
			anchor[i] = e->plan->order[0];
	mark(e, SF_LINE_FREE);
	for (uint32_t pos = 0; pos < e->plan->norder && rc == 0;) {
		uint32_t m = e->plan->order[pos];
		const struct sf_unit *u = unit_of(p, m);
		assert(u);
		if (m == u->m0 && unit_intact(e, u, pos)) {
			for (uint32_t k = 0; k < u->nm; k++)
				emit_free_before(e, fb, anchor, done, nfb, u->m0 + k);
			mark(e, member_kind(e, u->m0));
			emit_lines(e, u->l0, u->l1);
			e->last_blank = 0;
			pos += u->nm;
			continue;
		}
		if (u->block >= 0) {
			rc = block_split_error(e, u);
			break;
		}
		emit_free_before(e, fb, anchor, done, nfb, m);
		e->last_blank = 0;
		rc = emit_piece(e, m);
		pos++;
	}
	if (rc == 0)
		emit_free_before(e, fb, anchor, done, nfb, UINT32_MAX);
	for (size_t i = 0; rc == 0 && i < nfb; i++)
		assert(done[i]);
	free(anchor);
	free(done);
	free(fb);
	return rc;
}

/* A label `public:` for access a, indented as the body's first label (or
 * as the class head). */
static void add_label(const struct emit *e, uint8_t a, struct strbuf *sb)
{
	static const char *const words[] = { "", "public", "protected", "private" };
	const struct sf_lexed *lx = &e->x->lx;
	uint32_t l = e->p->label_line ? e->p->label_line : ct_line(lx, e->p->name_ci);
	size_t o = lx->line_start[l];

	while (lx->text[o] == ' ' || lx->text[o] == '\t')
		sb_addch(sb, lx->text[o++]);
	sb_addf(sb, "%s:%s", words[a], e->eol);
}

/*
 * C++: the body emitted from `off` with its access labels made right.  A
 * label stays when the first declaration after it (before another label)
 * is of its access - unless a label written here already opened that
 * access; a declaration of another access than the current one gets a
 * label of its own.  So no label is empty or says again what the one
 * before it said, and every member and declaration keeps its access.
 */
static void relabel(struct emit *e, size_t off)
{
	struct strbuf nb = STRBUF_INIT;
	uint8_t cur = e->p->default_access;
	int synth = 0;

	for (size_t i = 0; i < e->nck; i++) {
		size_t a = e->ck[i].off;
		size_t b = i + 1 < e->nck ? e->ck[i + 1].off : e->out->len;
		uint8_t k = e->ck[i].kind & 0xf0, acc = e->ck[i].kind & 0x0f;
		if (k == SF_LINE_LABEL) {
			uint8_t next = 0;
			for (size_t j = i + 1; j < e->nck && !next; j++) {
				if ((e->ck[j].kind & 0xf0) == SF_LINE_LABEL)
					break;
				if ((e->ck[j].kind & 0xf0) == SF_LINE_FIXED)
					next = e->ck[j].kind & 0x0f;
			}
			if (next != acc || (acc == cur && synth))
				continue;
			cur = acc;
			synth = 0;
		} else if (k == SF_LINE_FIXED && acc != cur) {
			add_label(e, acc, &nb);
			cur = acc;
			synth = 1;
		}
		sb_add(&nb, e->out->buf + a, b - a);
	}
	assert(e->nck && e->ck[0].off == off);
	sb_setlen(e->out, off);
	sb_add(e->out, nb.buf, nb.len);
	sb_release(&nb);
}

/*
 * The members that do not move: a longest increasing subsequence of the
 * old indexes in the new order (the same "kept" as reorder.h's moves).
 * O(n log n) patience sorting with back links.
 */
static uint8_t *kept_members(const struct sf_srcpatch_plan *plan, uint32_t n)
{
	uint8_t *kept = sf_xcalloc(n + 1, 1);

	if (plan->moved) {
		for (uint32_t i = 0; i < n; i++)
			kept[i] = !plan->moved[i];
		return kept;
	}
	uint32_t *tail = sf_xcalloc(n + 1, sizeof(uint32_t));  /* positions */
	uint32_t *prev = sf_xcalloc(n + 1, sizeof(uint32_t));
	uint32_t len = 0;

	for (uint32_t i = 0; i < plan->norder; i++) {
		uint32_t lo = 0, hi = len, v = plan->order[i];
		while (lo < hi) {
			uint32_t mid = (lo + hi) / 2;
			if (plan->order[tail[mid]] < v)
				lo = mid + 1;
			else
				hi = mid;
		}
		prev[i] = lo ? tail[lo - 1] : UINT32_MAX;
		tail[lo] = i;
		if (lo == len)
			len++;
	}
	for (uint32_t i = len ? tail[len - 1] : UINT32_MAX; i != UINT32_MAX; i = prev[i])
		kept[plan->order[i]] = 1;
	free(tail);
	free(prev);
	return kept;
}

/* ------------------------------------------------------ plan checking */

static int check_narrowable(struct sf_cdecl_ctx *x, const struct sf_member *m,
			    unsigned bytes)
{
	enum sf_src_narrow why = 0;

	if (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8)
		why = SF_SRC_NARROW_WIDTH;
	else if (sf_member_is_bitfield(m))
		why = SF_SRC_NARROW_BITFIELD;
	else if (m->tclass != SF_T_INT && m->tclass != SF_T_ENUM &&
		 m->tclass != SF_T_BOOL && m->tclass != SF_T_POINTER)
		why = SF_SRC_NARROW_TYPE;
	else if (m->type_suffix && m->type_suffix[0] && m->tclass != SF_T_POINTER)
		why = SF_SRC_NARROW_ARRAY;
	else if (bytes >= m->size)
		why = SF_SRC_NARROW_NOT_SMALLER;
	else if (m->flags & SF_MF_ALIGNED)
		why = SF_SRC_NARROW_ALIGNED;
	if (!why)
		return 0;
	struct sf_src_why *w = sf_cdecl_refuse(x, SF_SRC_NARROW, 0, 0);
	w->name = m->name;
	w->a = bytes;
	w->b = why;
	return -1;
}

/*
 * Bit-fields that share a storage unit must stay adjacent and in order:
 * the compiler packs them by declaration order.
 */
static int check_bitfield_runs(struct sf_cdecl_ctx *x, const struct sf_type *t,
			       const uint32_t *pos_of)
{
	for (uint32_t i = 0; i + 1 < t->nmembers; i++) {
		const struct sf_member *a = &t->members[i], *b = &t->members[i + 1];
		if (!sf_member_is_bitfield(a) || !sf_member_is_bitfield(b))
			continue;
		int shares = b->offset < a->offset + a->size &&
			     a->offset < b->offset + b->size;
		if (shares && pos_of[i + 1] != pos_of[i] + 1) {
			struct sf_src_why *w = sf_cdecl_refuse(x, SF_SRC_BITFIELDS_SPLIT, 0, 0);
			w->name = a->name;
			w->name2 = b->name;
			return -1;
		}
	}
	return 0;
}

static int check_plan(struct sf_cdecl_ctx *x, const struct sf_type *t,
		      const struct sf_srcpatch_plan *plan, uint32_t *narrow_to)
{
	uint32_t *pos_of;
	int rc = 0;

	if (plan->norder != t->nmembers) {
		struct sf_src_why *w = sf_cdecl_refuse(x, SF_SRC_ORDER_COUNT, 0, 0);
		w->a = plan->norder;
		w->b = t->nmembers;
		return -1;
	}
	pos_of = sf_xmalloc((t->nmembers + 1) * sizeof(uint32_t));
	for (uint32_t i = 0; i < t->nmembers; i++)
		pos_of[i] = UINT32_MAX;
	for (uint32_t i = 0; i < plan->norder && rc == 0; i++) {
		uint32_t m = plan->order[i];
		if (m >= t->nmembers || pos_of[m] != UINT32_MAX) {
			sf_cdecl_refuse(x, SF_SRC_NOT_PERMUTATION, 0, 0);
			rc = -1;
		} else
			pos_of[m] = i;
	}
	for (size_t i = 0; i < plan->nnarrow && rc == 0; i++) {
		const struct sf_srcpatch_narrow *n = &plan->narrow[i];
		if (n->member >= t->nmembers) {
			sf_cdecl_refuse(x, SF_SRC_NO_SUCH_MEMBER, 0, 0)->a = n->member;
			rc = -1;
		} else if (check_narrowable(x, &t->members[n->member], n->bytes) == 0)
			narrow_to[n->member] = n->bytes;
		else
			rc = -1;
	}
	if (rc == 0)
		rc = check_bitfield_runs(x, t, pos_of);
	free(pos_of);
	return rc;
}

/* A narrowed member whose type names a template parameter: refused (the
 * width it has differs between instantiations). */
static int narrow_dependent(struct sf_cdecl_ctx *x, const struct sf_cstruct *p,
			    const struct sf_type *t, const uint32_t *narrow_to)
{
	for (uint32_t m = 0; m < t->nmembers; m++) {
		const struct sf_dtor *d = &p->dtors[p->dtor_of[m]];
		if (!narrow_to[m] || !d->dependent)
			continue;
		return sf_cdecl_refuse_cxx(x, (struct sf_cxx_why){
			SF_CXX_TMPL_NARROW, ct_line(&x->lx, d->name), t->members[m].name, 0, 0 });
	}
	return 0;
}

static int check_model(struct sf_cdecl_ctx *x, const struct sf_type *t)
{
	if (!t->name || !t->name[0]) {
		sf_cdecl_refuse(x, SF_SRC_ANONYMOUS, 0, 0);
		return -1;
	}
	if (t->kind == SF_KIND_UNION || (t->kind == SF_KIND_CLASS && !(t->flags & SF_TF_CXX))) {
		sf_cdecl_refuse(x, SF_SRC_NOT_C_STRUCT, 0, 0)->kind_name = sf_type_kind_name(t);
		return -1;
	}
	for (uint32_t i = 0; i < t->nmembers && !(t->flags & SF_TF_CXX); i++)
		if (t->members[i].flags & (SF_MF_BASE | SF_MF_VIRTUAL_BASE | SF_MF_VPTR)) {
			sf_cdecl_refuse(x, SF_SRC_CXX_BASES, 0, 0);
			return -1;
		}
	return 0;
}

/*
 * A C++ class as its source declares it (cdecl.h's sf_cdecl_declared: no
 * bases, no vptr) and the plan over it.  The ABI places bases and the
 * vptr: an order that moves one is refused (SF_CXX_FIXED_MOVES).
 */
struct declared {
	struct sf_type t;
	struct sf_member *v;
	uint32_t *map, *order;
	uint8_t *moved;
	struct sf_srcpatch_narrow *narrow;
	struct sf_srcpatch_plan plan;
};

static int declared_plan(struct sf_cdecl_ctx *x, const struct sf_type *t,
			 const struct sf_srcpatch_plan *plan, struct declared *d)
{
	uint32_t n = 0;

	memset(d, 0, sizeof(*d));
	d->plan = *plan;
	d->map = sf_xcalloc(t->nmembers + 1, sizeof(uint32_t));
	sf_cdecl_declared(t, &d->t, &d->v, d->map);
	if (!d->v || !plan->order)
		return 0;
	d->order = sf_xcalloc(t->nmembers + 1, sizeof(uint32_t));
	d->moved = sf_xcalloc(t->nmembers + 1, 1);
	d->narrow = sf_xcalloc(plan->nnarrow + 1, sizeof(*d->narrow));
	for (uint32_t i = 0; i < plan->norder && i < t->nmembers; i++) {
		uint32_t m = plan->order[i];
		if (m >= t->nmembers)
			continue;    /* check_plan says so */
		if (d->map[m] != UINT32_MAX) {
			d->order[n++] = d->map[m];
			continue;
		}
		if (m != i)
			return sf_cdecl_refuse_cxx(x, (struct sf_cxx_why){
				SF_CXX_FIXED_MOVES, 0, t->members[m].name, 0, 0 });
	}
	for (uint32_t i = 0; i < t->nmembers && plan->moved; i++)
		if (d->map[i] != UINT32_MAX)
			d->moved[d->map[i]] = plan->moved[i];
	for (size_t i = 0; i < plan->nnarrow; i++)
		d->narrow[i] = (struct sf_srcpatch_narrow){ d->map[plan->narrow[i].member],
							    plan->narrow[i].bytes };
	d->plan.order = d->order;
	d->plan.norder = n;
	d->plan.moved = plan->moved ? d->moved : NULL;
	d->plan.narrow = d->narrow;
	return 0;
}

static void declared_free(struct declared *d)
{
	free(d->v);
	free(d->map);
	free(d->order);
	free(d->moved);
	free(d->narrow);
}

/* C++: a [[no_unique_address]] member that would move (its place is the ABI's). */
static int nua_moves(struct sf_cdecl_ctx *x, const struct sf_cstruct *p,
		     const uint8_t *kept)
{
	const struct sf_lexed *lx = &x->lx;

	for (size_t i = 0; i < p->ndecls; i++) {
		const struct sf_decl *d = &p->decls[i];
		int nua = 0;
		for (size_t ci = d->first; ci < d->semi; ci++)
			nua |= ct_is(lx, ci, "no_unique_address");
		for (uint32_t k = 0; nua && k < d->nd; k++) {
			uint32_t m = p->dtors[d->d0 + k].member;
			if (kept[m])
				continue;
			return sf_cdecl_refuse_cxx(x, (struct sf_cxx_why){
				SF_CXX_FIXED_MOVES, d->line0, p->t->members[m].name, 0, 0 });
		}
	}
	return 0;
}

/* ------------------------------------------------------------ helpers */

const char *sf_srcpatch_narrow_type(unsigned bytes, int is_signed,
				    int have_stdint)
{
	switch (bytes) {
	case 1:
		return have_stdint ? (is_signed ? "int8_t" : "uint8_t") :
				     (is_signed ? "signed char" : "unsigned char");
	case 2:
		return have_stdint ? (is_signed ? "int16_t" : "uint16_t") :
				     (is_signed ? "short" : "unsigned short");
	case 4:
		return have_stdint ? (is_signed ? "int32_t" : "uint32_t") :
				     (is_signed ? "int" : "unsigned int");
	case 8:
		return have_stdint ? (is_signed ? "int64_t" : "uint64_t") :
				     (is_signed ? "long long" : "unsigned long long");
	default:
		return NULL;
	}
}

const char *sf_srcpatch_range(unsigned bytes, int is_signed, char *buf,
			      size_t bufsz)
{
	assert(bytes >= 1 && bytes <= 8);
	unsigned bits = bytes * 8;
	if (is_signed) {
		uint64_t hi = (UINT64_C(1) << (bits - 1)) - 1;
		snprintf(buf, bufsz, "-%" PRIu64 "..%" PRIu64, hi + 1, hi);
	} else {
		uint64_t hi = bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
		snprintf(buf, bufsz, "0..%" PRIu64, hi);
	}
	return buf;
}

/* <stdint.h> or <inttypes.h> included before code token `before`. */
static int includes_stdint(const struct sf_lexed *lx, size_t before)
{
	size_t end = lx->code[before];
	for (size_t i = 0; i < end; i++) {
		const struct sf_tok *t = &lx->tok[i];
		if (t->kind != TK_PP)
			continue;
		size_t n = t->end - t->start;
		char line[256];
		if (n >= sizeof(line))
			n = sizeof(line) - 1;
		memcpy(line, lx->text + t->start, n);
		line[n] = '\0';
		if (!strstr(line, "include"))
			continue;
		if (strstr(line, "<stdint.h>") || strstr(line, "<inttypes.h>") ||
		    strstr(line, "<cstdint>") || strstr(line, "<cinttypes>") ||
		    strstr(line, "\"stdint.h\""))
			return 1;
	}
	return 0;
}

/* The model in the new order, narrowed members with their new types. */
static struct sf_type expected_model(const struct sf_type *t,
				     const struct sf_srcpatch_plan *plan,
				     const uint32_t *narrow_to, int have_stdint,
				     struct sf_member **members)
{
	struct sf_type e = *t;
	struct sf_member *v = sf_xcalloc(t->nmembers + 1, sizeof(*v));

	for (uint32_t i = 0; i < plan->norder; i++) {
		uint32_t m = plan->order[i];
		v[i] = t->members[m];
		if (narrow_to[m]) {
			v[i].type_name = sf_srcpatch_narrow_type(
				narrow_to[m], narrow_signed(&t->members[m]), have_stdint);
			v[i].type_suffix = "";
		}
	}
	e.members = v;
	*members = v;
	return e;
}

/* Parse the rewritten text again: it must read as the planned struct. */
static int verify_result(struct sf_cdecl_ctx *x, const struct strbuf *out,
			 const struct sf_type *t,
			 const struct sf_srcpatch_plan *plan,
			 const uint32_t *narrow_to, int have_stdint)
{
	struct sf_member *members;
	struct sf_type e = expected_model(t, plan, narrow_to, have_stdint, &members);
	struct sf_cdecl_ctx y = { .path = x->path, .tname = x->tname, .why = x->why,
				   .macros = x->macros };
	struct sf_cstruct p2;

	sf_clex(&y.lx, out->buf, out->len);
	int rc = sf_cdecl_parse(&y, &e, &p2);
	if (rc < 0)
		x->why->read_back = 1;    /* the reason is the reading's */
	sf_cdecl_free(&p2);
	sf_clex_free(&y.lx);
	free(members);
	return rc;
}

static const char *detect_eol(const struct sf_lexed *lx, uint32_t line)
{
	size_t e = lx->line_start[line + 1];
	return e >= 2 && lx->text[e - 1] == '\n' && lx->text[e - 2] == '\r' ?
	       "\r\n" : "\n";
}

/* The new text of x's file into res, per e (whose kept/out are set). */
static int rewrite(struct sf_cdecl_ctx *x, struct sf_cstruct *p, const struct sf_type *t,
		   const struct sf_srcpatch_plan *plan, const uint32_t *narrow_to,
		   struct strbuf *res, struct sf_srcpatch_info *info)
{
	uint32_t open_line = ct_line(&x->lx, p->open_ci);
	uint32_t close_line = ct_line(&x->lx, p->close_ci);
	uint8_t *kept = kept_members(plan, t->nmembers);
	struct emit e = { x, p, t, plan, narrow_to, kept, detect_eol(&x->lx, open_line),
			  includes_stdint(&x->lx, p->name_ci), res, 0, 0, NULL, 0, 0 };
	int rc = p->cxx ? nua_moves(x, p, kept) : 0;

	emit_range(&e, 0, x->lx.line_start[open_line + 1]);
	size_t body = res->len;
	if (rc == 0)
		rc = emit_body(&e);
	if (rc == 0) {
		if (p->cxx)
			relabel(&e, body);
		emit_range(&e, x->lx.line_start[close_line], x->lx.len);
		rc = verify_result(x, res, t, plan, narrow_to, e.have_stdint);
	}
	if (rc == 0 && info) {
		info->open_line = open_line;
		info->close_line = close_line;
		info->found_line = ct_line(&x->lx, p->name_ci);
		info->uses_stdint = e.have_stdint;
		info->split_decls = e.split;
	}
	free(kept);
	free(e.ck);
	return rc;
}

int sf_srcpatch_make(const char *path, const char *text, size_t len,
		     const struct sf_type *t0,
		     const struct sf_srcpatch_plan *plan0, struct strbuf *out,
		     struct sf_srcpatch_info *info, struct sf_src_why *why)
{
	struct sf_cdecl_ctx x = { .path = path, .tname = t0->name, .why = why,
				   .macros = plan0->macros };
	struct sf_cstruct p;
	struct strbuf res = STRBUF_INIT;
	struct declared d;
	uint32_t *narrow_to = NULL;
	int rc;

	memset(&p, 0, sizeof(p));
	why->kind = SF_SRC_NONE;
	if (check_model(&x, t0) < 0)
		return -1;
	rc = declared_plan(&x, t0, plan0, &d);
	const struct sf_type *t = &d.t;
	const struct sf_srcpatch_plan *plan = &d.plan;
	if (rc == 0) {
		narrow_to = sf_xcalloc(t->nmembers + 1, sizeof(uint32_t));
		rc = check_plan(&x, t, plan, narrow_to);
	}
	if (rc == 0) {
		sf_clex(&x.lx, text, len);
		rc = sf_cdecl_parse(&x, t, &p);
		if (rc == 0)
			rc = narrow_dependent(&x, &p, t, narrow_to);
		if (rc == 0)
			rc = rewrite(&x, &p, t, plan, narrow_to, &res, info);
	}
	if (rc == 0)
		sb_add(out, res.buf, res.len);
	sb_release(&res);
	sf_cdecl_free(&p);
	sf_clex_free(&x.lx);
	free(narrow_to);
	declared_free(&d);
	return rc;
}

int sf_srcpatch_blocks(const char *path, const char *text, size_t len,
		       const struct sf_type *t, const struct sf_cmacros *macros,
		       struct sf_srcpatch_block **out, size_t *n,
		       struct sf_src_why *why)
{
	struct sf_cdecl_ctx x = { .path = path, .tname = t->name, .why = why, .macros = macros };
	struct sf_cstruct p;
	struct sf_type dt;
	struct sf_member *v;
	uint32_t lead = 0;       /* C++: bases and vptr before the declared members */
	int rc;

	*out = NULL;
	*n = 0;
	if (check_model(&x, t) < 0)
		return -1;
	sf_cdecl_declared(t, &dt, &v, NULL);
	while (lead < t->nmembers &&
	       (t->members[lead].flags & (SF_MF_BASE | SF_MF_VIRTUAL_BASE | SF_MF_VPTR)))
		lead++;
	sf_clex(&x.lx, text, len);
	rc = sf_cdecl_parse(&x, &dt, &p);
	for (size_t b = 0; rc == 0 && b < p.nblocks; b++) {
		const struct sf_cblock *k = &p.blocks[b];
		if (!k->nm)
			continue;        /* nothing compiled: lines that stay free */
		*out = sf_xreallocarray(*out, *n + 1, sizeof(**out));
		(*out)[(*n)++] = (struct sf_srcpatch_block){ k->m0 + lead, k->nm, k->if_line,
							     k->endif_line, k->other_decls };
	}
	sf_cdecl_free(&p);
	sf_clex_free(&x.lx);
	free(v);
	return rc;
}

int sf_srcpatch_aggregate(const char *path, const char *text, size_t len,
			  const struct sf_type *t, const struct sf_cmacros *macros)
{
	struct sf_src_why why;
	struct sf_cdecl_ctx x = { .path = path, .tname = t->name, .why = &why,
				   .macros = macros };
	struct sf_cstruct p;
	struct sf_type dt;
	struct sf_member *v;
	int rc = -1;

	if (!(t->flags & SF_TF_CXX))
		return -1;
	sf_cdecl_declared(t, &dt, &v, NULL);
	sf_clex(&x.lx, text, len);
	if (sf_cdecl_parse(&x, &dt, &p) == 0) {
		rc = !p.has_ctor && !p.virtual_fn && !v;   /* v: bases or a vptr */
		for (size_t i = 0; i < p.ndecls && rc; i++)
			rc = p.decls[i].access == SF_ACC_PUBLIC;
	}
	sf_cdecl_free(&p);
	sf_clex_free(&x.lx);
	free(v);
	return rc;
}
