/*
 * srcstore.c - stores to a member, and their rewrite to saturate (see
 * srcstore.h for what counts as a store and when it fits).
 *
 * One pass over the code tokens.  clex gives one-character punctuators,
 * so `->`, `+=`, `++` and `==` are two tokens whose bytes touch: adj()
 * tells them from `- >` or `= =` written apart (which C reads otherwise
 * too).  At each identifier spelling the member after `.` or `->`, the
 * lvalue chain is walked back to its first name (over names, `.`, `->`
 * and `[...]`), then the operator after the member and the token before
 * the chain say what kind of store, if any, it is.
 */
#include "srcstore.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"

#define NONE SF_CLEX_NONE

struct sf_store_range sf_store_range_of(unsigned bytes, bool is_signed)
{
	struct sf_store_range r = { is_signed, 0, 0 };
	unsigned bits = bytes * 8;

	assert(bytes == 1 || bytes == 2 || bytes == 4 || bytes == 8);
	if (is_signed) {
		r.max = (UINT64_C(1) << (bits - 1)) - 1;
		r.min = -(int64_t)r.max - 1;
	} else {
		r.max = bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
	}
	return r;
}

/* Do code tokens ci and ci + 1 touch (one operator of two characters)? */
static bool adj(const struct sf_lexed *lx, size_t ci)
{
	return ci + 1 < lx->ncode && ct(lx, ci)->end == ct(lx, ci + 1)->start;
}

static bool is_punct(const struct sf_lexed *lx, size_t ci, char p)
{
	return ci != NONE && ct_punct(lx, ci, p);
}

/* Is there an `->` ending just before ci (tokens ci-2, ci-1)? */
static bool arrow_before(const struct sf_lexed *lx, size_t ci)
{
	return ci >= 2 && is_punct(lx, ci - 2, '-') && is_punct(lx, ci - 1, '>') &&
	       adj(lx, ci - 2);
}

/*
 * The first code token of the lvalue chain ending at member token mi
 * (after `.` or `->`); *plain says the chain holds only names, `.`, `->`
 * and brackets of names and numbers (evaluating it twice is harmless).
 */
static size_t chain_start(const struct sf_lexed *lx, size_t mi, bool *plain)
{
	size_t ci = mi;

	*plain = true;
	for (;;) {
		size_t op = arrow_before(lx, ci) ? ci - 2 : is_punct(lx, ci - 1, '.') ? ci - 1
										  : NONE;
		if (op == NONE || op == 0)
			return ci;
		size_t prev = op - 1;
		while (is_punct(lx, prev, ']')) {       /* x[i].m, x[i][j]->m */
			int depth = 0;
			size_t k = prev;
			for (;; k--) {
				if (is_punct(lx, k, ']'))
					depth++;
				else if (is_punct(lx, k, '[') && !--depth)
					break;
				else if (ct(lx, k)->kind == TK_PUNCT)
					*plain = false;
				if (!k)
					return ci;
			}
			if (!k)
				return k;
			prev = k - 1;
		}
		if (is_punct(lx, prev, ')')) {          /* f(x)->m, (*p).m */
			*plain = false;
			return prev;
		}
		if (!ct_ident(lx, prev))
			return ci;
		ci = prev;
	}
}

/* The end of an expression starting at ci: the `;` or `,` at depth 0,
 * or the bracket that closes what holds it. */
static size_t expr_end(const struct sf_lexed *lx, size_t ci)
{
	int depth = 0;

	for (; ci < lx->ncode; ci++) {
		const struct sf_tok *t = ct(lx, ci);
		if (t->kind != TK_PUNCT)
			continue;
		char c = lx->text[t->start];
		if (c == '(' || c == '[' || c == '{')
			depth++;
		else if ((c == ')' || c == ']' || c == '}') && !depth--)
			return ci;
		else if ((c == ';' || c == ',') && !depth)
			return ci;
	}
	return lx->ncode;
}

/* Whether code tokens [a, b) are an integer literal within r. */
static bool literal_fits(const struct sf_lexed *lx, size_t a, size_t b,
			 const struct sf_store_range *r)
{
	while (b - a >= 3 && is_punct(lx, a, '(') && is_punct(lx, b - 1, ')'))
		a++, b--;
	bool neg = b - a == 2 && is_punct(lx, a, '-');
	if (neg)
		a++;
	if (b - a != 1 || ct(lx, a)->kind != TK_NUM)
		return false;
	char buf[64], *end;
	sf_clex_text(lx, a, buf, sizeof(buf));
	errno = 0;
	unsigned long long v = strtoull(buf, &end, 0);
	if (errno || end == buf || strspn(end, "uUlL") != strlen(end))
		return false;   /* floats, character literals, garbage */
	if (neg)
		return v == 0 || (r->is_signed && v <= (unsigned long long)INT64_MAX + 1 &&
				  -(int64_t)(v - 1) - 1 >= r->min);
	return v <= r->max;
}

/* The compound operator (+=, <<=, ...) starting at ci, as its length
 * before the `=`; 0 if none. */
static size_t compound_op(const struct sf_lexed *lx, size_t ci)
{
	static const char ops[] = "+-*/%&|^";

	if (ci >= lx->ncode || ct(lx, ci)->kind != TK_PUNCT)
		return 0;
	char c = lx->text[ct(lx, ci)->start];
	if (strchr(ops, c) && adj(lx, ci) && is_punct(lx, ci + 1, '=') &&
	    !(adj(lx, ci + 1) && is_punct(lx, ci + 2, '=')))
		return 1;
	if ((c == '<' || c == '>') && adj(lx, ci) && is_punct(lx, ci + 1, c) &&
	    adj(lx, ci + 1) && is_punct(lx, ci + 2, '='))
		return 2;
	return 0;
}

static bool incdec_at(const struct sf_lexed *lx, size_t ci)
{
	return ci + 1 < lx->ncode && (is_punct(lx, ci, '+') || is_punct(lx, ci, '-')) &&
	       adj(lx, ci) && ct_punct(lx, ci + 1, lx->text[ct(lx, ci)->start]);
}

/* May a statement start after code token ci? */
static bool statement_boundary(const struct sf_lexed *lx, size_t ci)
{
	return ci == NONE || is_punct(lx, ci, ';') || is_punct(lx, ci, '{') ||
	       is_punct(lx, ci, '}') || is_punct(lx, ci, ')') || ct_is(lx, ci, "else");
}

static void add(struct sf_store **v, size_t *n, const struct sf_store *s)
{
	*v = sf_xreallocarray(*v, *n + 1, sizeof(**v));
	(*v)[(*n)++] = *s;
}

/* An assignment `LHS = e` with LHS from code token `start` to `mi`. */
static void assignment(const struct sf_lexed *lx, size_t start, size_t mi, bool plain,
		       const struct sf_store_range *r, struct sf_store *s)
{
	size_t a = mi + 2, b = expr_end(lx, a);

	s->kind = SF_STORE_ASSIGN;
	if (a >= lx->ncode)
		return;
	s->rhs_start = ct(lx, a)->start;
	s->rhs_end = b < lx->ncode ? ct(lx, b)->start : lx->len;
	s->fits = b > a && literal_fits(lx, a, b, r);
	if (plain && b < lx->ncode && is_punct(lx, b, ';') &&
	    statement_boundary(lx, start ? start - 1 : NONE)) {
		s->rewritable = true;
		s->stmt_start = ct(lx, start)->start;
		s->lhs_end = ct(lx, mi)->end;
		s->stmt_end = ct(lx, b)->end;
	}
}

/* The store at member token mi, if any (kind 0: a read). */
static void store_at(const struct sf_lexed *lx, size_t mi, const struct sf_store_range *r,
		     struct sf_store *s)
{
	memset(s, 0, sizeof(*s));
	s->line = ct_line(lx, mi);
	bool dot = is_punct(lx, mi - 1, '.');
	bool eq = is_punct(lx, mi + 1, '=') && !(adj(lx, mi + 1) && is_punct(lx, mi + 2, '='));
	if (dot && (mi < 2 || is_punct(lx, mi - 2, '{') || is_punct(lx, mi - 2, ','))) {
		if (!eq)
			return;   /* `{ .m }`? not a store */
		size_t a = mi + 2, b = expr_end(lx, a);
		s->kind = SF_STORE_INIT;
		s->fits = a < lx->ncode && b > a && literal_fits(lx, a, b, r);
		return;
	}
	bool plain;
	size_t start = chain_start(lx, mi, &plain);
	size_t before = start ? start - 1 : NONE;
	if (eq)
		assignment(lx, start, mi, plain, r, s);
	else if (compound_op(lx, mi + 1))
		s->kind = SF_STORE_COMPOUND;
	else if (incdec_at(lx, mi + 1) || (before != NONE && before >= 1 && incdec_at(lx, before - 1)))
		s->kind = SF_STORE_INCDEC;
	else if (is_punct(lx, before, '&') && !(before >= 1 && adj(lx, before - 1) &&
						  is_punct(lx, before - 1, '&')) &&
		 !(before >= 1 && (ct_ident(lx, before - 1) || ct(lx, before - 1)->kind == TK_NUM ||
				   is_punct(lx, before - 1, ')') || is_punct(lx, before - 1, ']'))))
		s->kind = SF_STORE_ADDRESS;
}

void sf_srcstore_find(const struct sf_lexed *lx, const char *member,
		      const struct sf_store_range *r, struct sf_store **v, size_t *n)
{
	for (size_t ci = 1; ci < lx->ncode; ci++) {
		if (!ct_is(lx, ci, member) || ct(lx, ci)->kind != TK_IDENT)
			continue;
		if (!is_punct(lx, ci - 1, '.') && !arrow_before(lx, ci))
			continue;
		struct sf_store s;
		store_at(lx, ci, r, &s);
		if (s.kind)
			add(v, n, &s);
	}
}

void sf_srcstore_saturate(const char *text, size_t len, const struct sf_store *v,
			  size_t n, const struct sf_store_range *r, const char *ctype,
			  struct strbuf *out)
{
	size_t at = 0;

	for (size_t i = 0; i < n; i++) {
		const struct sf_store *s = &v[i];
		if (!s->rewritable || s->fits)
			continue;
		assert(s->stmt_start >= at && s->stmt_end <= len);
		sb_add(out, text + at, s->stmt_start - at);
		/* e evaluated once, into the widest type of its signedness;
		 * the cast says the narrowing is meant (-Wconversion) */
		if (r->is_signed)
			sb_addf(out, "{ long long sf_v_ = (long long)(%.*s); %.*s = (%s)(sf_v_ > %" PRIu64
				" ? %" PRIu64 " : sf_v_ < %" PRId64 " ? %" PRId64 " : sf_v_); }",
				(int)(s->rhs_end - s->rhs_start), text + s->rhs_start,
				(int)(s->lhs_end - s->stmt_start), text + s->stmt_start, ctype,
				r->max, r->max, r->min, r->min);
		else
			sb_addf(out, "{ unsigned long long sf_v_ = (unsigned long long)(%.*s); %.*s = (%s)(sf_v_ > %"
				PRIu64 "u ? %" PRIu64 "u : sf_v_); }",
				(int)(s->rhs_end - s->rhs_start), text + s->rhs_start,
				(int)(s->lhs_end - s->stmt_start), text + s->stmt_start, ctype,
				r->max, r->max);
		at = s->stmt_end;
	}
	sb_add(out, text + at, len - at);
}

void sf_srcstores_release(struct sf_srcstore *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].rel);
	free(v);
}
