/*
 * ctypes.c - when a C type as the source spells it is the type the DWARF
 * names (see ctypes.h).
 *
 * Canonical spelling: a type is a list of words and punctuators; within
 * each run of words the qualifiers come first (sorted), then the base type
 * in one spelling (model/spelling.c's word rule: "long unsigned int" for
 * "unsigned long"), then the other words in their order.  Array sizes are
 * "[N]", "[]" (also for [0]) or "[?]" when the source spells them with
 * anything but a literal; "[?]" matches any size.  Parameter names and
 * attributes are the caller's to leave out.
 */
#include "ctypes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"
#include "model/spelling.h"

/* ------------------------------------------------ canonical type spelling */

/*
 * A type spelled as a list of words and punctuators, canonical so that two
 * spellings of the same C type compare equal: within each run of words the
 * qualifiers come first (sorted), then the base type in one spelling
 * (model/spelling.c's word rule: "long unsigned int" for "unsigned
 * long"), then the other words in their order.  Array sizes are "[N]",
 * "[]" (also for [0]) or "[?]" when the source spells them with anything
 * but a literal.
 */
struct canon {
	struct strbuf sb;        /* parts separated by ' ' */
	unsigned quals;          /* 1 const, 2 volatile, 4 restrict */
	struct sf_basewords bw;  /* model/spelling.c's word rule */
	int nbool, nvoid;
	struct strbuf others;
};

static void canon_part(struct canon *c, const char *s)
{
	if (c->sb.len)
		sb_addch(&c->sb, ' ');
	sb_adds(&c->sb, s);
}

static void canon_flush(struct canon *c)
{
	static const char *const qn[] = { "const", "volatile", "restrict" };
	for (int i = 0; i < 3; i++)
		if (c->quals & (1u << i))
			canon_part(c, qn[i]);
	const char *base = sf_basewords_spell(&c->bw);
	if (c->nbool)
		canon_part(c, "_Bool");
	else if (c->nvoid)
		canon_part(c, "void");
	else if (base)
		canon_part(c, base);
	if (c->others.len)
		canon_part(c, c->others.buf);
	sb_reset(&c->others);
	c->quals = 0;
	memset(&c->bw, 0, sizeof(c->bw));
	c->nbool = c->nvoid = 0;
}

static void canon_word(struct canon *c, const char *w, size_t n)
{
	if (sf_clex_word_in(w, n, sf_clex_qualifiers)) {
		/* const, __const -> 1; volatile, __volatile(__) -> 2; restrict -> 4 */
		const char *base = w[0] == '_' ? w + 2 : w;
		c->quals |= base[0] == 'c' ? 1u : base[0] == 'v' ? 2u : 4u;
		return;
	}
#define W(s) (n == sizeof(s) - 1 && !memcmp(w, s, n))
	if (sf_basewords_add(&c->bw, w, n) || W("__extension__"))
		return;
	if (W("_Bool") || W("bool")) c->nbool++;
	else if (W("void")) c->nvoid++;
	else {
		if (c->others.len)
			sb_addch(&c->others, ' ');
		sb_add(&c->others, w, n);
	}
#undef W
}

/* An array size: "[3]", "[]" for nothing or 0, "[?]" for an expression. */
static void canon_array(struct canon *c, const struct sf_lexed *lx,
			const size_t *ci, size_t n)
{
	char buf[48];

	if (n == 0) {
		canon_part(c, "[]");
		return;
	}
	if (n == 1 && ct(lx, ci[0])->kind == TK_NUM) {
		const struct sf_tok *t = ct(lx, ci[0]);
		char num[40];
		size_t len = t->end - t->start;
		if (len < sizeof(num)) {
			memcpy(num, lx->text + t->start, len);
			num[len] = '\0';
			char *e;
			unsigned long long v = strtoull(num, &e, 0);
			while (*e == 'u' || *e == 'U' || *e == 'l' || *e == 'L')
				e++;
			if (!*e) {
				if (v == 0)
					snprintf(buf, sizeof(buf), "[]");
				else
					snprintf(buf, sizeof(buf), "[%llu]", v);
				canon_part(c, buf);
				return;
			}
		}
	}
	canon_part(c, "[?]");
}

/*
 * Canonical spelling of the code tokens ci[0..n) of lx (already stripped of
 * the member name, bit width, attributes and parameter names) into out.
 */
static void ctype_canon(const struct sf_lexed *lx, const size_t *ci, size_t n,
			struct strbuf *out)
{
	struct canon c;

	memset(&c, 0, sizeof(c));
	sb_init(&c.sb);
	sb_init(&c.others);

	for (size_t i = 0; i < n; i++) {
		const struct sf_tok *t = ct(lx, ci[i]);
		const char *w = lx->text + t->start;
		size_t len = t->end - t->start;

		if (t->kind == TK_IDENT) {
			canon_word(&c, w, len);
			continue;
		}
		canon_flush(&c);
		if (t->kind == TK_PUNCT && w[0] == '[') {
			size_t j = i + 1;
			while (j < n && !(ct(lx, ci[j])->kind == TK_PUNCT &&
					  lx->text[ct(lx, ci[j])->start] == ']'))
				j++;
			canon_array(&c, lx, ci + i + 1, j - i - 1);
			i = j;
			continue;
		}
		struct strbuf tmp = STRBUF_INIT;
		sb_add(&tmp, w, len);
		canon_part(&c, tmp.buf);
		sb_release(&tmp);
	}
	canon_flush(&c);
	sb_add(out, c.sb.buf, c.sb.len);
	sb_release(&c.sb);
	sb_release(&c.others);
}

/* Two canonical spellings are the same type ("[?]" matches any size). */
static int canon_equal(const char *a, const char *b)
{
	while (*a && *b) {
		if (!strncmp(a, "[?]", 3) && *b == '[') {
			a += 3;
			b = strchr(b, ']');
			if (!b)
				return 0;
			b++;
			continue;
		}
		if (!strncmp(b, "[?]", 3) && *a == '[') {
			return canon_equal(b, a);
		}
		if (*a != *b)
			return 0;
		a++;
		b++;
	}
	return *a == *b;
}

/* Canonical spelling of C text s (all of its code tokens). */
static void canon_text(const char *s, size_t len, struct strbuf *out)
{
	struct sf_lexed lx;

	sf_clex(&lx, s, len);
	size_t *ci = sf_xcalloc(lx.ncode + 1, sizeof(size_t));
	for (size_t i = 0; i < lx.ncode; i++)
		ci[i] = i;
	ctype_canon(&lx, ci, lx.ncode, out);
	free(ci);
	sf_clex_free(&lx);
}

void sf_ctype_canon_member(const struct sf_member *m, struct strbuf *out)
{
	struct strbuf s = STRBUF_INIT;

	sb_addf(&s, "%s %s", m->type_name ? m->type_name : "",
		m->type_suffix ? m->type_suffix : "");
	canon_text(s.buf, s.len, out);
	sb_release(&s);
}

/* Whether word w (n bytes) is one of the space-separated parts of s. */
static int has_part(const char *s, const char *w, size_t n)
{
	while (*s) {
		const char *e = strchr(s, ' ');
		size_t len = e ? (size_t)(e - s) : strlen(s);
		if (len == n && !memcmp(s, w, n))
			return 1;
		s += len + (e != NULL);
	}
	return 0;
}

/*
 * The source spells the model's type once words the DWARF never saw are
 * left out: annotation macros that expand to nothing, such as zlib's
 * `z_const` or the kernel's `__rcu` and `__user`.  Keywords, qualifiers and
 * tag names are never left out, so a changed type still differs.
 */
static int equal_but_annotations(const struct sf_lexed *lx, const size_t *keep,
				 size_t n, const char *model)
{
	static const char *const words[] = {
		"struct", "union", "enum", "int", "char", "short", "long", "signed",
		"unsigned", "float", "double", "void", "_Bool", "bool", "__int128",
		NULL
	};
	size_t *k2 = sf_xcalloc(n + 1, sizeof(size_t));
	size_t n2 = 0, dropped = 0;
	struct strbuf src = STRBUF_INIT;

	for (size_t i = 0; i < n; i++) {
		const struct sf_tok *t = ct(lx, keep[i]);
		const char *w = lx->text + t->start;
		size_t len = t->end - t->start;
		int tag_name = i > 0 && ct(lx, keep[i - 1])->kind == TK_IDENT &&
			       (tok_is(lx, ct(lx, keep[i - 1]), "struct") ||
				tok_is(lx, ct(lx, keep[i - 1]), "union") ||
				tok_is(lx, ct(lx, keep[i - 1]), "enum"));
		if (t->kind == TK_IDENT && !tag_name && !sf_clex_word_in(w, len, words) &&
		    !sf_clex_word_in(w, len, sf_clex_qualifiers) && !has_part(model, w, len)) {
			dropped++;
			continue;
		}
		k2[n2++] = keep[i];
	}
	ctype_canon(lx, k2, n2, &src);
	int eq = dropped && canon_equal(src.buf, model);
	sb_release(&src);
	free(k2);
	return eq;
}

/*
 * Macros being expanded (C11 6.10.3.4: a macro's name met again inside its
 * own expansion is not replaced), innermost last; the depth bound keeps the
 * stack fixed.
 */
#define EXPAND_DEPTH 8
struct expanding {
	const char *name[EXPAND_DEPTH];
	size_t len[EXPAND_DEPTH];
	int n;
};

static int being_expanded(const struct expanding *ex, const char *w, size_t n)
{
	for (int i = 0; i < ex->n; i++)
		if (ex->len[i] == n && !memcmp(ex->name[i], w, n))
			return 1;
	return 0;
}

/*
 * The tokens of s, object-like macros expanded (each name's k-th
 * definition), as text.  A macro is not expanded inside its own expansion,
 * so `#define L L long` gives "L long"; and the text stops growing at `cap`
 * bytes (macros naming others several times each could still double it at
 * every level): a longer spelling is no member type the model compares to.
 */
static void expand_macros(const struct sf_cmacros *ms, const char *s, size_t len,
			  unsigned k, struct expanding *ex, size_t cap,
			  struct strbuf *out)
{
	struct sf_lexed lx;

	sf_clex(&lx, s, len);
	for (size_t ci = 0; ci < lx.ncode && out->len < cap; ci++) {
		const struct sf_tok *t = ct(&lx, ci);
		const char *w = lx.text + t->start;
		size_t n = t->end - t->start;
		const char *v = t->kind == TK_IDENT && ex->n < EXPAND_DEPTH &&
				!being_expanded(ex, w, n) ?
				sf_cmacros_find(ms, w, n, k) : NULL;
		if (v) {
			ex->name[ex->n] = w;
			ex->len[ex->n++] = n;
			expand_macros(ms, v, strlen(v), k, ex, cap, out);
			ex->n--;
		} else {
			sb_add(out, w, n);
			sb_addch(out, ' ');
		}
	}
	sf_clex_free(&lx);
}

/*
 * The source spells the model's type once object-like macros are expanded:
 * `#define redisAtomic _Atomic`, `#define rb_pid_t pid_t`.  A name defined
 * under several #if branches is tried with each of its first definitions.
 */
static int equal_after_macros(const struct sf_lexed *lx, const size_t *keep,
			      size_t n, const char *model, const struct sf_cmacros *macros)
{
	struct strbuf raw = STRBUF_INIT;
	int eq = 0;

	if (!macros || !macros->n)
		return 0;
	for (size_t i = 0; i < n; i++) {
		const struct sf_tok *t = ct(lx, keep[i]);
		sb_add(&raw, lx->text + t->start, t->end - t->start);
		sb_addch(&raw, ' ');
	}
	for (unsigned k = 0; k < 4 && !eq; k++) {
		struct strbuf ex = STRBUF_INIT, can = STRBUF_INIT;
		struct expanding stack = { { NULL }, { 0 }, 0 };
		expand_macros(macros, raw.buf, raw.len, k, &stack,
			      4096 + 4 * raw.len, &ex);
		canon_text(ex.buf, ex.len, &can);
		eq = canon_equal(can.buf, model);
		sb_release(&ex);
		sb_release(&can);
	}
	sb_release(&raw);
	return eq;
}

int sf_ctype_same(const struct sf_lexed *lx, const size_t *keep, size_t n,
		  const char *model, const struct sf_cmacros *macros)
{
	struct strbuf src = STRBUF_INIT;

	ctype_canon(lx, keep, n, &src);
	int eq = canon_equal(src.buf, model) || equal_but_annotations(lx, keep, n, model) ||
		 equal_after_macros(lx, keep, n, model, macros);
	sb_release(&src);
	return eq;
}
