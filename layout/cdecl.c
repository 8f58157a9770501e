/*
 * cdecl.c - a struct's definition in C source, matched against its model
 * (see cdecl.h).
 *
 * Finding the definition: `struct NAME ... {`, or `typedef struct ... {
 * ... } NAME` (an anonymous struct known by its typedef's name), on the
 * line the DWARF's decl_line names, else the only one in the file.
 *
 * Declarations.  The name of a declarator is the last identifier equal to
 * the expected member name that is outside calls, parameter lists,
 * brackets and nested bodies (clex.h's bracket flags); the specifiers are
 * what comes before the `*`/`(` run that leads to it.  Types are compared
 * by ctypes.h.
 *
 * C++ (cdecl.h): the definition is `class|struct [EXPORT_MACRO] NAME
 * [final] [: bases] {` where the scopes around it (read back from each `{`: namespace or
 * class names) make the model's qualified name.  The body is split by
 * split_cxx(): an access label, a member function (its parameter list
 * after a name, then its body - past a constructor's `: a(x), b{y}` - or
 * its `;`), or a declaration up to `;` that is a data member unless a word
 * (static, using, friend, ...) or a nested type's definition says it
 * stays.  Labels and what stays are kept by line (line_kind) for
 * srcpatch.c's relabelling; data members are matched as in C, their
 * initializer cut off before the type is compared.
 *
 * Refusals: sf_cdecl_refuse() fills the caller's struct sf_src_why
 * (srcwhy.h) with the kind and its values (lines, model names, the source
 * text at fault, copied: the lexed file goes before the why is read);
 * report/srcwhy.c words it.  Matching an #if branch on trial sends the
 * refusals to a scratch why, as sf_cdecl_definitions does.
 */
#include "cdecl.h"
#include "ctypes.h"

#include <assert.h>
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/xalloc.h"
#include "tmpl.h"

#define NONE SF_CLEX_NONE

struct sf_src_why *sf_cdecl_refuse(struct sf_cdecl_ctx *x, enum sf_src_refusal kind,
				   uint32_t line, uint32_t line2)
{
	struct sf_src_why *w = x->why;

	memset(w, 0, sizeof(*w));
	w->kind = kind;
	w->path = x->path;
	w->tname = x->tname;
	w->line = line;
	w->line2 = line2;
	return w;
}

int sf_cdecl_refuse_cxx(struct sf_cdecl_ctx *x, struct sf_cxx_why cxx)
{
	sf_cdecl_refuse(x, SF_SRC_CXX, cxx.line, 0)->cxx = cxx;
	return -1;
}

/* Source text s[0..n) into w->text, cut to fit. */
static void keep_text(struct sf_src_why *w, const char *s, size_t n)
{
	if (n > sizeof(w->text) - 1)
		n = sizeof(w->text) - 1;
	memcpy(w->text, s, n);
	w->text[n] = '\0';
}

/* --------------------------------------------- finding the definition */


/*
 * At code token ci, a definition of struct `name`?  Either `struct NAME
 * ... {` or `typedef struct ... { ... } NAME` (an anonymous struct known by
 * its typedef's name).  Sets *open to its `{` and *line to the line the
 * compiler gives it (of NAME, or of `struct` for the typedef form).
 */
static int definition_at(struct sf_lexed *lx, size_t ci, const char *name,
			 size_t *open, uint32_t *line)
{
	if (ct_is(lx, ci, "struct")) {
		size_t k = sf_clex_skip_attributes(lx, ci + 1, lx->ncode);
		if (k >= lx->ncode || !ct_is(lx, k, name))
			return 0;
		*open = sf_clex_skip_attributes(lx, k + 1, lx->ncode);
		*line = ct_line(lx, k);
		return ct_punct(lx, *open, '{');
	}
	if (!ct_is(lx, ci, "typedef"))
		return 0;
	size_t k = sf_clex_skip_attributes(lx, ci + 1, lx->ncode);
	if (!ct_is(lx, k, "struct"))
		return 0;
	size_t o = sf_clex_skip_attributes(lx, k + 1, lx->ncode);
	if (!ct_punct(lx, o, '{'))
		return 0;
	size_t close = sf_clex_matching_brace(lx, o);
	if (close == NONE)
		return 0;
	size_t n = sf_clex_skip_attributes(lx, close + 1, lx->ncode);
	if (!ct_is(lx, n, name) || !(ct_punct(lx, n + 1, ';') || ct_punct(lx, n + 1, ',')))
		return 0;
	*open = o;
	*line = ct_line(lx, k);
	return 1;
}

/* ---------------------------------------------------- C++ definitions */

const char *sf_cdecl_last_name(const char *name)
{
	const char *last = name;
	int angle = 0;

	for (const char *s = name; *s; s++) {
		if (*s == '<')
			angle++;
		else if (*s == '>' && angle)
			angle--;
		else if (!angle && s[0] == ':' && s[1] == ':')
			last = s + 2;
	}
	return last;
}

/*
 * After the class key at ci: the code index of the class's name, past
 * attributes and export macros (`class TINYXML2_LIB XMLPrinter`,
 * `class LEVELDB_EXPORT DB`): the last of a run of identifiers.
 */
static size_t class_name_at(const struct sf_lexed *lx, size_t ci, size_t end)
{
	size_t k = sf_clex_skip_attributes(lx, ci + 1, end);

	while (k < end && ct_ident(lx, k)) {
		size_t n = sf_clex_skip_attributes(lx, k + 1, end);
		if (n >= end || !ct_ident(lx, n) || ct_is(lx, n, "final"))
			break;
		k = n;
	}
	return k;
}

/* The last name of a qualified run `A::B::C` starting at name k: C's index. */
static size_t qualified_end(const struct sf_lexed *lx, size_t k)
{
	while (ct_punct(lx, k + 1, ':') && ct_punct(lx, k + 2, ':') && ct_ident(lx, k + 3))
		k += 3;
	return k;
}

/* The code index one past the bracket group opening at ci (any kind). */
static size_t skip_group(const struct sf_lexed *lx, size_t ci, size_t end)
{
	size_t depth = 0;

	for (; ci < end; ci++) {
		if (ct_punct(lx, ci, '(') || ct_punct(lx, ci, '[') || ct_punct(lx, ci, '{'))
			depth++;
		else if ((ct_punct(lx, ci, ')') || ct_punct(lx, ci, ']') ||
			  ct_punct(lx, ci, '}')) && --depth == 0)
			return ci + 1;
	}
	return end;
}

/*
 * The name the `{` at ci opens a scope of, into out: a namespace's
 * (`namespace a::b {`: "a::b"; an unnamed one "(anonymous namespace)") or
 * a class's (a class template's own name: "Slot"); "" for any other
 * brace.  Read back to the previous `;`, `{` or `}`.
 */
static void scope_name(const struct sf_lexed *lx, size_t ci, struct strbuf *out)
{
	size_t k = ci;
	int angle = 0;

	sb_setlen(out, 0);
	while (k > 0 && !ct_punct(lx, k - 1, ';') && !ct_punct(lx, k - 1, '{') &&
	       !ct_punct(lx, k - 1, '}'))
		k--;
	for (size_t j = k; j < ci; j++) {
		/* a template's parameters (`template <class T> class C {`) name
		 * no scope */
		if (ct_punct(lx, j, '<'))
			angle++;
		else if (ct_punct(lx, j, '>') && angle)
			angle--;
		if (angle || ct_punct(lx, j, '>'))
			continue;
		if (ct_is(lx, j, "namespace")) {
			if (j + 1 == ci)
				sb_adds(out, "(anonymous namespace)");
			for (size_t n = j + 1; n < ci; n++)
				sf_clex_spelled(lx, n, n + 1, out);
			return;
		}
		if ((ct_is(lx, j, "class") || ct_is(lx, j, "struct") ||
		     ct_is(lx, j, "union")) && (j == 0 || !ct_is(lx, j - 1, "enum"))) {
			size_t n = class_name_at(lx, j, ci);
			/* `struct TableBuilder::Rep {`: the scope of Rep */
			for (size_t e = n < ci && ct_ident(lx, n) ? qualified_end(lx, n) : n;
			     n <= e && n < ci; n += 3) {
				if (out->len)
					sb_adds(out, "::");
				sf_clex_spelled(lx, n, n + 1, out);
			}
			return;
		}
	}
}

void sf_cdecl_scope_at(const struct sf_lexed *lx, size_t ci, struct strbuf *out)
{
	struct strbuf name = STRBUF_INIT;
	size_t *len = sf_xcalloc(ci + 2, sizeof(size_t)), depth = 0;

	sb_setlen(out, 0);
	for (size_t k = 0; k < ci; k++) {
		if (ct_punct(lx, k, '{')) {
			len[depth++] = out->len;
			scope_name(lx, k, &name);
			if (name.len) {
				if (out->len)
					sb_adds(out, "::");
				sb_add(out, name.buf, name.len);
			}
		} else if (ct_punct(lx, k, '}') && depth) {
			sb_setlen(out, len[--depth]);
		}
	}
	free(len);
	sb_release(&name);
}

int sf_cdecl_in_template(const struct sf_type *t)
{
	return (t->flags & SF_TF_CXX) && t->name && strchr(t->name, '<') != NULL;
}

/*
 * The parameter list of the `template <...>` right before the class key
 * at ci, into x->tp_first/tp_end (tp_end 0 when there is none).
 */
static void template_params(struct sf_cdecl_ctx *x, size_t ci)
{
	const struct sf_lexed *lx = &x->lx;
	size_t k = ci;
	int depth = 0;

	x->tp_first = x->tp_end = 0;
	if (k < 2 || !ct_punct(lx, k - 1, '>'))
		return;
	while (k-- > 0) {
		depth += ct_punct(lx, k, '>') - ct_punct(lx, k, '<');
		if (!depth)
			break;
	}
	if (depth || k == 0 || k == SIZE_MAX || !ct_is(lx, k - 1, "template"))
		return;
	x->tp_first = k + 1;
	x->tp_end = ci - 1;
}

/* Whether code token ci names a parameter of x's template: an identifier
 * that ends a parameter (before its `,`, `=` or the list's end). */
static int is_param(const struct sf_cdecl_ctx *x, size_t ci)
{
	const struct sf_lexed *lx = &x->lx;
	int depth = 0;

	for (size_t k = x->tp_first; k < x->tp_end; k++) {
		depth += ct_punct(lx, k, '<') + ct_punct(lx, k, '(') -
			 ct_punct(lx, k, '>') - ct_punct(lx, k, ')');
		if (depth || !ct_ident(lx, k) ||
		    !(k + 1 == x->tp_end || ct_punct(lx, k + 1, ',') || ct_punct(lx, k + 1, '=')))
			continue;
		const struct sf_tok *a = ct(lx, k), *b = ct(lx, ci);
		if (a->end - a->start == b->end - b->start &&
		    !memcmp(lx->text + a->start, lx->text + b->start, a->end - a->start))
			return 1;
	}
	return 0;
}

/* Whether code tokens [first, end) name a parameter of x's template. */
static int depends(const struct sf_cdecl_ctx *x, size_t first, size_t end)
{
	for (size_t ci = first; x->tp_end && ci < end; ci++)
		if (ct_ident(&x->lx, ci) && is_param(x, ci))
			return 1;
	return 0;
}

uint32_t sf_cdecl_specialized_at(const char *text, size_t len, const struct sf_type *t)
{
	struct sf_lexed lx;
	size_t n = sf_tmpl_name_len(t->name);
	const char *last = sf_cdecl_last_name(t->name);
	uint32_t line = 0;

	if (!n || !t->decl_line)
		return 0;
	char *name = sf_xstrndup(last, n - (size_t)(last - t->name));
	struct strbuf scope = STRBUF_INIT;
	sf_clex(&lx, text, len);
	for (size_t ci = 1; ci + 1 < lx.ncode && !line; ci++) {
		if (!ct_is(&lx, ci, name) || !ct_punct(&lx, ci + 1, '<') ||
		    ct_line(&lx, ci) != t->decl_line ||
		    !(ct_is(&lx, ci - 1, "struct") || ct_is(&lx, ci - 1, "class")))
			continue;
		sf_cdecl_scope_at(&lx, ci, &scope);
		if (scope.len + (scope.len ? 2 : 0) == (size_t)(last - t->name) &&
		    !strncmp(scope.buf, t->name, scope.len))
			line = t->decl_line;
	}
	sb_release(&scope);
	sf_clex_free(&lx);
	free(name);
	return line;
}

/*
 * Where in qual the names k, k + 3, ..., last of a run `A::B` start: qual
 * ends with them, name being its last component; NULL when it does not.
 */
static const char *qualified_tail(const struct sf_lexed *lx, size_t k, size_t last,
				  const char *qual, const char *name)
{
	const char *tail = name;

	if (!ct_is(lx, last, name))
		return NULL;
	for (size_t j = last; j > k; j -= 3) {
		const struct sf_tok *t = ct(lx, j - 3);
		size_t n = t->end - t->start;
		if ((size_t)(tail - qual) < n + 2 || strncmp(tail - 2, "::", 2) ||
		    memcmp(tail - 2 - n, lx->text + t->start, n))
			return NULL;
		tail -= n + 2;
	}
	return tail;
}

/*
 * At code token ci, a C++ definition of class `qual::name`: `class|struct
 * NAME [final] [: bases] {` in the scopes qual names, or the nested class's
 * definition out of its class, `struct Outer::NAME {`.
 */
static int cxx_definition_at(struct sf_lexed *lx, size_t ci, const char *qual,
			     size_t *open, uint32_t *line)
{
	const char *name = sf_cdecl_last_name(qual);

	if (!(ct_is(lx, ci, "class") || ct_is(lx, ci, "struct")) ||
	    (ci > 0 && ct_is(lx, ci - 1, "enum")))
		return 0;
	size_t k = class_name_at(lx, ci, lx->ncode);
	if (k >= lx->ncode || !ct_ident(lx, k))
		return 0;
	size_t last = qualified_end(lx, k);     /* struct Outer::Inner { */
	const char *tail = qualified_tail(lx, k, last, qual, name);
	if (!tail)
		return 0;
	size_t o = sf_clex_skip_attributes(lx, last + 1, lx->ncode);
	if (ct_is(lx, o, "final"))
		o++;
	if (ct_punct(lx, o, ':') && !ct_punct(lx, o + 1, ':'))
		while (o < lx->ncode && !ct_punct(lx, o, '{') && !ct_punct(lx, o, ';'))
			o = ct_punct(lx, o, '(') ? skip_group(lx, o, lx->ncode) : o + 1;
	if (!ct_punct(lx, o, '{'))
		return 0;
	struct strbuf scope = STRBUF_INIT;
	sf_cdecl_scope_at(lx, ci, &scope);
	int ok = (size_t)(tail - qual) == (scope.len ? scope.len + 2 : 0) &&
		 !strncmp(qual, scope.buf, scope.len);
	sb_release(&scope);
	if (!ok)
		return 0;
	*open = o;
	*line = ct_line(lx, last);
	return 1;
}

/* A definition of t at ci, in C's or (for a C++ model) C++'s forms. */
static int def_at(struct sf_lexed *lx, size_t ci, const struct sf_type *t, int cxx,
		  size_t *open, uint32_t *line)
{
	if (cxx && cxx_definition_at(lx, ci, t->name, open, line))
		return 1;
	if (cxx && ct_is(lx, ci, "struct"))
		return 0;        /* in another scope: only the typedef form is C's */
	return definition_at(lx, ci, cxx ? sf_cdecl_last_name(t->name) : t->name,
			     open, line);
}

/*
 * Find the definition of struct t->name: the one the DWARF's decl_line
 * names, else the only one in the file.
 */
static int find_definition(struct sf_cdecl_ctx *x, const struct sf_type *t,
			   struct sf_cstruct *p)
{
	struct sf_lexed *lx = &x->lx;
	size_t nfound = 0, on_line = NONE, any = NONE;
	size_t any_open = NONE, line_open = NONE;

	for (size_t ci = 0; ci + 2 < lx->ncode; ci++) {
		size_t open;
		uint32_t line;
		if (!def_at(lx, ci, t, x->cxx, &open, &line))
			continue;
		nfound++;
		if (any == NONE) {
			any = ci;
			any_open = open;
		}
		if (t->decl_line && (line == t->decl_line ||
				     ct_line(lx, open) == t->decl_line) && on_line == NONE) {
			on_line = ci;
			line_open = open;
		}
	}
	if (on_line != NONE) {
		p->name_ci = on_line;
		p->open_ci = line_open;
	} else if (nfound == 1) {
		p->name_ci = any;
		p->open_ci = any_open;
	} else if (nfound == 0) {
		sf_cdecl_refuse(x, SF_SRC_NO_DEFINITION, 0, 0);
		return -1;
	} else {
		sf_cdecl_refuse(x, SF_SRC_NONE_ON_LINE, t->decl_line, 0)->a = nfound;
		return -1;
	}
	template_params(x, p->name_ci);
	p->close_ci = sf_clex_matching_brace(lx, p->open_ci);
	if (p->close_ci == NONE) {
		sf_cdecl_refuse(x, SF_SRC_NO_CLOSE, ct_line(lx, p->open_ci), 0);
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------- body checks */


/* The directive at tok[i] opens, continues or closes block *cur. */
static int add_directive(struct sf_cdecl_ctx *x, struct sf_cstruct *p,
			 size_t i, size_t *cur)
{
	const struct sf_tok *t = &x->lx.tok[i];
	enum sf_pp_kind k = sf_clex_directive(&x->lx, t);
	struct sf_cblock *b = *cur != NONE ? &p->blocks[*cur] : NULL;

	if (k == SF_PP_OTHER) {
		sf_cdecl_refuse(x, SF_SRC_DIRECTIVE, t->line, 0);
		return -1;
	}
	if (k == SF_PP_IF && b) {
		sf_cdecl_refuse(x, SF_SRC_IF_NESTED, b->if_line, t->line);
		return -1;
	}
	if (k != SF_PP_IF && !b) {
		sf_cdecl_refuse(x, SF_SRC_ELSE_NO_IF, t->line, 0);
		return -1;
	}
	if (k == SF_PP_IF) {
		SF_GROW(p->blocks, p->nblocks, p->block_cap);
		b = &p->blocks[p->nblocks];
		memset(b, 0, sizeof(*b));
		b->tok[0] = i;
		b->nbranch = 1;
		b->if_line = t->line;
		*cur = p->nblocks++;
	} else if (k == SF_PP_ENDIF) {
		b->tok[b->nbranch] = i;
		b->endif_line = t->end_line;
		*cur = NONE;
	} else if (b->nbranch == SF_CDECL_MAX_BRANCH || b->has_else) {
		sf_cdecl_refuse(x, SF_SRC_IF_BRANCHES, b->if_line, t->line);
		return -1;
	} else {
		b->tok[b->nbranch++] = i;
		b->has_else = k == SF_PP_ELSE;
	}
	return 0;
}

/*
 * The #if blocks of the body (one level, whole lines); any other
 * preprocessor line is refused.  Then the body's own lines: it must not
 * share its first or last line with other code.
 */
static int check_body_shape(struct sf_cdecl_ctx *x, struct sf_cstruct *p)
{
	const struct sf_lexed *lx = &x->lx;
	const struct sf_tok *open = ct(lx, p->open_ci), *close = ct(lx, p->close_ci);
	size_t cur = NONE;

	for (size_t i = lx->code[p->open_ci] + 1; i < lx->code[p->close_ci]; i++)
		if (lx->tok[i].kind == TK_PP && add_directive(x, p, i, &cur) < 0)
			return -1;
	if (cur != NONE) {
		sf_cdecl_refuse(x, SF_SRC_IF_OPEN, p->blocks[cur].if_line, 0);
		return -1;
	}
	/* `{` ends its line (comments after it must end there too) ... */
	int open_ok = 1;
	for (size_t i = lx->code[p->open_ci] + 1; i < lx->ntok; i++) {
		const struct sf_tok *t = &lx->tok[i];
		if (t->line != open->line)
			break;
		if (t->kind != TK_COMMENT || t->end_line != open->line)
			open_ok = 0;
	}
	/* ... and `}` starts its line. */
	int close_ok = close->line > open->line;
	for (size_t o = lx->line_start[close->line]; close_ok && o < close->start; o++)
		if (lx->text[o] != ' ' && lx->text[o] != '\t')
			close_ok = 0;
	if (!open_ok || !close_ok) {
		sf_cdecl_refuse(x, SF_SRC_ONE_LINE, open_ok ? close->line : open->line, 0);
		return -1;
	}
	return 0;
}

/* ------------------------------------------------- declaration parsing */


/*
 * Whether declaration [first, semi) looks like a macro invocation that
 * makes members: `NAME(...)` alone, or a lone identifier.
 */
static int looks_like_macro(const struct sf_lexed *lx, size_t first, size_t semi)
{
	if (semi == first + 1 && ct_ident(lx, first))
		return 1;
	if (!ct_ident(lx, first) || !ct_punct(lx, first + 1, '('))
		return 0;
	const struct sf_tok *t = ct(lx, first);
	if (sf_clex_is_attribute(lx->text + t->start, t->end - t->start))
		return 0;
	return lx->match[first + 1] == semi - 1;
}

static int macro_error(struct sf_cdecl_ctx *x, size_t ci)
{
	struct sf_src_why *w = sf_cdecl_refuse(x, SF_SRC_MACRO, ct_line(&x->lx, ci), 0);

	sf_clex_text(&x->lx, ci, w->text, SF_CDECL_NAME_MAX);
	return -1;
}

/* Any call of a non-attribute identifier in [first, end): a macro. */
static size_t find_macro_call(const struct sf_lexed *lx, size_t first, size_t end)
{
	for (size_t ci = first; ci + 1 < end; ci++) {
		if (ct_ident(lx, ci) && lx->pkind[ci + 1] == PK_CALL) {
			const struct sf_tok *t = ct(lx, ci);
			if (!sf_clex_is_attribute(lx->text + t->start, t->end - t->start))
				return ci;
		}
	}
	return NONE;
}

/* The last identifier equal to `name` outside calls/params/brackets. */
static size_t find_name(const struct sf_lexed *lx, size_t first, size_t end,
			const char *name)
{
	size_t found = NONE;
	for (size_t ci = first; ci < end; ci++)
		if (!lx->flags[ci] && ct_ident(lx, ci) && ct_is(lx, ci, name))
			found = ci;
	return found;
}

/* The last plain identifier in [first, end) (what the source declares). */
static size_t last_plain_ident(const struct sf_lexed *lx, size_t first, size_t end)
{
	size_t found = NONE;
	for (size_t ci = first; ci < end; ci++)
		if (!lx->flags[ci] && ct_ident(lx, ci) && !sf_clex_is_qualifier(lx, ci))
			found = ci;
	return found;
}

/* Where the declarator holding the name at `name` starts. */
static size_t declarator_start(const struct sf_lexed *lx, size_t first,
			       size_t name)
{
	size_t j = name;
	while (j > first) {
		size_t k = j - 1;
		if (ct_punct(lx, k, '*') || ct_punct(lx, k, '^') || ct_punct(lx, k, '&') ||
		    (ct_punct(lx, k, '(') && lx->pkind[k] == PK_GROUP) ||
		    sf_clex_is_qualifier(lx, k))
			j = k;
		else
			break;
	}
	while (j < name && sf_clex_is_qualifier(lx, j))
		j++;   /* `unsigned const x`: const belongs to the specifiers */
	return j;
}

/*
 * C++ declarations: an `=` starts an initializer (*eq); before one, `<`
 * and `>` open and close template arguments (*angle).  Whether ci was one
 * of those.
 */
static int angle_step(const struct sf_lexed *lx, size_t ci, int *eq, int *angle)
{
	if (ct_punct(lx, ci, '='))
		*eq = 1;
	else if (!*eq && ct_punct(lx, ci, '<'))
		(*angle)++;
	else if (!*eq && ct_punct(lx, ci, '>') && *angle)
		(*angle)--;
	else
		return 0;
	return 1;
}

/* A single `:` at ci (not half of `::`). */
static int lone_colon(const struct sf_lexed *lx, size_t ci)
{
	return ct_punct(lx, ci, ':') && !ct_punct(lx, ci + 1, ':') &&
	       !(ci > 0 && ct_punct(lx, ci - 1, ':'));
}

/* Top-level `:` of a bit-field in [first, end), or NONE. */
static size_t bitfield_colon(const struct sf_lexed *lx, size_t first, size_t end)
{
	for (size_t ci = first; ci < end; ci++)
		if (!lx->flags[ci] && lone_colon(lx, ci))
			return ci;
	return NONE;
}

/* Whether parameter [a, b) ends in a name (DWARF keeps none). */
static size_t param_name(const struct sf_lexed *lx, size_t a, size_t b)
{
	static const char *const kw[] = {
		"int", "char", "short", "long", "signed", "unsigned", "float",
		"double", "void", "_Bool", "bool", NULL
	};
	size_t last = NONE, nwords = 0;

	for (size_t k = a; k < b; k++) {
		if ((ct_punct(lx, k, '(') && lx->pkind[k] != PK_GROUP) ||
		    ct_punct(lx, k, '[')) {
			k = lx->match[k];
			continue;
		}
		if (ct_ident(lx, k) && !sf_clex_is_qualifier(lx, k)) {
			nwords++;
			last = k;
		}
	}
	if (nwords < 2)
		return NONE;
	const struct sf_tok *t = ct(lx, last);
	if (sf_clex_word_in(lx->text + t->start, t->end - t->start, kw))
		return NONE;
	if (last > a && (ct_is(lx, last - 1, "struct") || ct_is(lx, last - 1, "union") ||
			 ct_is(lx, last - 1, "enum")))
		return NONE;
	return last;
}

/*
 * Mark in drop[] (indexed from base) the parameter names of the parameter
 * list opening at `open`, and of the lists nested in it.
 */
static void drop_param_names(const struct sf_lexed *lx, size_t open, uint8_t *drop,
			     size_t base)
{
	size_t close = lx->match[open];
	size_t pstart = open + 1;

	assert(close != NONE && close > open);
	for (size_t ci = open + 1; ci <= close; ci++) {
		if (ci < close && ct_punct(lx, ci, '(') && lx->pkind[ci] == PK_PARAMS) {
			drop_param_names(lx, ci, drop, base);
			ci = lx->match[ci];
			continue;
		}
		if (ci < close && (ct_punct(lx, ci, '[') ||
				   (ct_punct(lx, ci, '(') && lx->pkind[ci] == PK_CALL))) {
			ci = lx->match[ci];
			continue;
		}
		if (ci < close && !ct_punct(lx, ci, ','))
			continue;
		size_t name = param_name(lx, pstart, ci);
		if (name != NONE)
			drop[name - base] = 1;
		pstart = ci + 1;
	}
}

/* C++ words a type's spelling may carry that the comparison leaves out. */
static int cxx_noise(const char *w, size_t n)
{
	static const char *const words[] = {
		"mutable", "typename", "class", "struct", "union", "enum", NULL
	};
	return sf_clex_word_in(w, n, words);
}

/*
 * C++: keep[0..n) without what the comparison leaves out - `[[...]]`,
 * elaborated and storage words, qualifiers (`std::`, `::`), template
 * arguments.  Returns the new n.
 */
static size_t cxx_type_tokens(const struct sf_lexed *lx, size_t *keep, size_t n)
{
	size_t o = 0;
	int angle = 0, attr = 0;

	for (size_t i = 0; i < n; i++) {
		size_t ci = keep[i];
		const struct sf_tok *t = ct(lx, ci);
		if (ct_punct(lx, ci, '[') && i + 1 < n && ct_punct(lx, keep[i + 1], '[') && !attr) {
			attr = 2;
			i++;
			continue;
		}
		if (attr) {
			attr -= ct_punct(lx, ci, ']');
			continue;
		}
		if (ct_punct(lx, ci, '<') || (ct_punct(lx, ci, '>') && angle)) {
			angle += ct_punct(lx, ci, '<') ? 1 : -1;
			continue;
		}
		if (angle || ct_punct(lx, ci, ':') ||
		    (t->kind == TK_IDENT && i + 1 < n && ct_punct(lx, keep[i + 1], ':')) ||
		    (t->kind == TK_IDENT && cxx_noise(lx->text + t->start, t->end - t->start)))
			continue;
		keep[o++] = ci;
	}
	return o;
}

/* Past the template arguments at s (`<...>`, nested), else s. */
static const char *past_args(const char *s)
{
	int angle = 0;
	const char *q = s;

	if (*q != '<')
		return s;
	for (; *q; q++) {
		angle += (*q == '<') - (*q == '>');
		if (!angle)
			return q + 1;
	}
	return s;
}

/* Text s without C++'s qualifiers, template arguments and elaborated words. */
static void cxx_strip(const char *s, struct strbuf *out)
{
	static const char anon[] = "(anonymous namespace)";
	const size_t na = sizeof(anon) - 1;
	int angle = 0;

	while (*s) {
		if (!strncmp(s, anon, na) && s[na] == ':' && s[na + 1] == ':') {
			s += na + 2;   /* a qualifier as the compilers name it */
			continue;
		}
		if (*s == '<' || (*s == '>' && angle)) {
			angle += *s++ == '<' ? 1 : -1;
			continue;
		}
		if (angle || *s == ':') {
			s++;
			continue;
		}
		if (isalpha((unsigned char)*s) || *s == '_') {
			const char *e = s;
			while (isalnum((unsigned char)*e) || *e == '_')
				e++;
			const char *q = past_args(e);   /* MemPoolT<120>::Item */
			if (!(q[0] == ':' && q[1] == ':') && !cxx_noise(s, (size_t)(e - s)))
				sb_add(out, s, (size_t)(e - s));
			s = e;
			continue;
		}
		sb_addch(out, *s++);
	}
}

/* The canonical spelling of m's type as cxx_type_tokens leaves the source's. */
static void cxx_canon_member(const struct sf_member *m, struct strbuf *out)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	struct sf_member c = *m;

	cxx_strip(m->type_name, &a);
	cxx_strip(m->type_suffix ? m->type_suffix : "", &b);
	c.type_name = a.buf;
	c.type_suffix = b.buf;
	sf_ctype_canon_member(&c, out);
	sb_release(&a);
	sb_release(&b);
}

/*
 * Check declarator [first, end) of a declaration starting at dfirst whose
 * specifiers end at spec_end, against model member m.
 */
static int check_type(struct sf_cdecl_ctx *x, size_t dfirst, size_t spec_end,
		      size_t first, size_t end, size_t name,
		      const struct sf_member *m)
{
	struct sf_lexed *lx = &x->lx;
	struct strbuf mod = STRBUF_INIT;
	size_t n = 0, span = end - dfirst;
	size_t *keep = sf_xcalloc(span + 1, sizeof(size_t));
	uint8_t *drop = sf_xcalloc(span + 1, 1);
	size_t colon = bitfield_colon(lx, first, end);
	int rc = 0;

	for (size_t ci = first; ci < end; ci++)
		if (ct_punct(lx, ci, '(') && lx->pkind[ci] == PK_PARAMS) {
			drop_param_names(lx, ci, drop, dfirst);
			ci = lx->match[ci];
		}
	for (size_t ci = dfirst; ci < end; ci++) {
		if (ci >= spec_end && ci < first)
			continue;      /* another declarator of the declaration */
		/* attributes go; a macro call in an array size stays (as "[?]") */
		if (ci == name || drop[ci - dfirst] ||
		    ((lx->flags[ci] & FL_CALL) && !(lx->flags[ci] & FL_BRACKET)))
			continue;
		if (colon != NONE && ci >= colon)
			break;
		keep[n++] = ci;
	}
	if (x->cxx) {
		n = cxx_type_tokens(lx, keep, n);
		cxx_canon_member(m, &mod);
	} else {
		sf_ctype_canon_member(m, &mod);
	}
	if (!sf_ctype_same(lx, keep, n, mod.buf, x->macros)) {
		struct strbuf said = STRBUF_INIT;
		sf_clex_spelled(lx, dfirst, spec_end, &said);
		sb_addch(&said, ' ');
		sf_clex_spelled(lx, first, end, &said);
		struct sf_src_why *w = sf_cdecl_refuse(x, SF_SRC_TYPE_DIFFERS,
						       ct_line(lx, name), 0);
		w->name = m->name;
		w->name2 = m->type_name;
		w->suffix = m->type_suffix ? m->type_suffix : "";
		keep_text(w, said.buf, said.len);
		sb_release(&said);
		rc = -1;
	}
	free(keep);
	free(drop);
	sb_release(&mod);
	return rc;
}

static int check_bitfield(struct sf_cdecl_ctx *x, size_t first, size_t end, size_t name,
			  const struct sf_member *m)
{
	struct sf_lexed *lx = &x->lx;
	size_t colon = bitfield_colon(lx, first, end);

	if ((colon != NONE) != sf_member_is_bitfield(m)) {
		struct sf_src_why *w = sf_cdecl_refuse(x, SF_SRC_BITFIELD_DIFFERS,
						       ct_line(lx, name), 0);
		w->name = m->name;
		w->a = colon != NONE;
		return -1;
	}
	if (colon != NONE && colon + 2 == end && ct(lx, colon + 1)->kind == TK_NUM) {
		char num[32];
		unsigned long w = strtoul(sf_clex_text(lx, colon + 1, num, sizeof(num)), NULL, 0);
		if (w != m->bit_size) {
			struct sf_src_why *y = sf_cdecl_refuse(x, SF_SRC_BITS_DIFFER,
							       ct_line(lx, name), 0);
			y->name = m->name;
			y->a = w;
			y->b = m->bit_size;
			return -1;
		}
	}
	return 0;
}

static void add_dtor(struct sf_cstruct *p, size_t first, size_t last, size_t name,
		     uint32_t member)
{
	SF_GROW(p->dtors, p->ndtors, p->dtor_cap);
	p->dtors[p->ndtors++] = (struct sf_dtor){ first, last, name, member,
					       (uint32_t)p->ndecls, NONE, 0 };
}

static int match_body(struct sf_cdecl_ctx *x, struct sf_cstruct *p, size_t open, size_t close,
		      const struct sf_type *model, int record);

/* Model member mi has no declaration in the source. */
static int mismatch_missing(struct sf_cdecl_ctx *x, const struct sf_type *model,
			    uint32_t mi)
{
	sf_cdecl_refuse(x, SF_SRC_MEMBER_MISSING, 0, 0)->name = model->members[mi].name;
	return -1;
}

/*
 * Whether declarator chunk [a, b) is an unnamed bit-field (`unsigned : 4`,
 * `, : 0`): a `:` with no name before it.  In the first chunk the words
 * before the `:` are then all type: one word, or ending in a C base type.
 */
static int unnamed_bitfield(const struct sf_lexed *lx, size_t a, size_t b, int first)
{
	static const char *const base[] = {
		"int", "char", "short", "long", "signed", "unsigned", "_Bool", "bool",
		NULL
	};
	size_t colon = bitfield_colon(lx, a, b), words = 0, last = NONE;

	if (colon == NONE)
		return 0;
	for (size_t ci = a; ci < colon; ci++)
		if (!lx->flags[ci] && ct_ident(lx, ci) && !sf_clex_is_qualifier(lx, ci)) {
			words++;
			last = ci;
		}
	if (!first || words == 0)
		return words == 0;
	const struct sf_tok *t = ct(lx, last);
	return words == 1 || sf_clex_word_in(lx->text + t->start, t->end - t->start, base);
}

/*
 * The body of a nested struct/union member (its `{` at open_body) against
 * its own model; then the declaration's bracket analysis, which the nested
 * walk overwrote, is redone.
 */
static int check_nested(struct sf_cdecl_ctx *x, struct sf_cstruct *p, size_t first,
			size_t semi, size_t open_body, const struct sf_member *m)
{
	if (!m->nested)
		return 0;
	assert(ct_punct(&x->lx, open_body, '{'));
	if (match_body(x, p, open_body, x->lx.match[open_body], m->nested, 0) < 0)
		return -1;
	sf_clex_brackets(&x->lx, first, semi);
	return 0;
}

/* One declaration being matched: its record and where its parts are. */
struct decl_walk {
	struct sf_decl d;
	const struct sf_type *model;
	size_t open_body;        /* `{` of a nested body, or NONE */
	size_t after_body;       /* first code index after that body (or first) */
	int ndecl;               /* declarators matched so far */
	int record;              /* fill p->decls/p->dtors */
};

/* Declarator [chunk, end) is one more than the model has members. */
static int extra_declarator(struct sf_cdecl_ctx *x, size_t chunk, size_t end,
			    size_t cstart)
{
	size_t extra = last_plain_ident(&x->lx, chunk, end);
	struct sf_src_why *w = sf_cdecl_refuse(x, SF_SRC_NOT_A_MEMBER,
					       ct_line(&x->lx, cstart), 0);

	if (extra != NONE)
		sf_clex_text(&x->lx, extra, w->text, SF_CDECL_NAME_MAX);
	return -1;
}

/* An anonymous struct/union member *mi: a body, no declarator. */
static int match_anonymous(struct sf_cdecl_ctx *x, struct sf_cstruct *p,
			   struct decl_walk *w, uint32_t *mi)
{
	const struct sf_member *m = &w->model->members[*mi];
	size_t first = w->d.first, semi = w->d.semi;

	if (!w->d.has_body || w->ndecl ||
	    last_plain_ident(&x->lx, w->after_body, semi) != NONE)
		return mismatch_missing(x, w->model, *mi);
	w->d.spec_end = semi;   /* the whole declaration is its text */
	if (w->record)
		add_dtor(p, first, semi - 1, NONE, *mi);
	if (check_nested(x, p, first, semi, w->open_body, m) < 0)
		return -1;
	(*mi)++;
	w->ndecl++;
	return 0;
}

/*
 * Declarator [chunk, end) (its declaration's part from cstart) does not
 * name member m: say what it is instead.
 */
static int name_not_found(struct sf_cdecl_ctx *x, const struct decl_walk *w,
			  size_t cstart, size_t chunk, size_t end, uint32_t mi)
{
	const struct sf_lexed *lx = &x->lx;

	if (unnamed_bitfield(lx, chunk, end, w->ndecl == 0)) {
		sf_cdecl_refuse(x, SF_SRC_UNNAMED_BITFIELD, ct_line(lx, chunk), 0);
		return -1;
	}
	size_t mac = find_macro_call(lx, cstart, end);
	if (mac != NONE)
		return macro_error(x, mac);
	size_t got = last_plain_ident(lx, chunk, end);
	if (got == NONE)
		return mismatch_missing(x, w->model, mi);
	struct sf_src_why *y = sf_cdecl_refuse(x, SF_SRC_DECLARES_OTHER, ct_line(lx, got), 0);

	sf_clex_text(lx, got, y->text, SF_CDECL_NAME_MAX);
	y->name = w->model->members[mi].name;
	return -1;
}

/* C++: where declarator [chunk, end)'s default member initializer starts
 * (its `=`, or the `{` of `x{3}`), else end. */
static size_t init_start(const struct sf_lexed *lx, size_t chunk, size_t end)
{
	for (size_t ci = chunk; ci < end; ci++)
		if (!lx->flags[ci] && (ct_punct(lx, ci, '=') ||
				       (ct_punct(lx, ci, '{') && ci > chunk &&
					(ct_ident(lx, ci - 1) || ct_punct(lx, ci - 1, ']')))))
			return ci;
	return end;
}

/* Named declarator [chunk, end) against member *mi. */
static int match_named(struct sf_cdecl_ctx *x, struct sf_cstruct *p,
		       struct decl_walk *w, size_t cstart, size_t chunk,
		       size_t end, uint32_t *mi)
{
	struct sf_lexed *lx = &x->lx;
	const struct sf_member *m = &w->model->members[*mi];
	size_t first = w->d.first, full = end;
	if (x->cxx)
		end = init_start(lx, chunk, end);
	size_t name = find_name(lx, chunk, end, m->name);

	if (name == NONE)
		return name_not_found(x, w, cstart, chunk, end, *mi);
	size_t dstart = w->ndecl ? chunk : declarator_start(lx, chunk, name);
	if (!w->ndecl) {
		w->d.spec_end = dstart;
		if (dstart == first)
			return macro_error(x, first);
	}
	if (check_bitfield(x, dstart, end, name, m) < 0)
		return -1;
	int dep = depends(x, first, end);
	if (!w->d.has_body && !dep &&
	    check_type(x, first, w->d.spec_end, dstart, end, name, m) < 0) {
		size_t mac = find_macro_call(lx, first, end);
		return mac != NONE ? macro_error(x, mac) : -1;
	}
	if (w->record)
		add_dtor(p, dstart, full - 1, name, *mi);
	if (w->record && full != end)
		p->dtors[p->ndtors - 1].init = end;
	if (w->record)
		p->dtors[p->ndtors - 1].dependent = dep;
	if (w->d.has_body &&
	    check_nested(x, p, first, w->d.semi, w->open_body, m) < 0)
		return -1;
	(*mi)++;
	w->ndecl++;
	return 0;
}

/* C++: whether the `{` at ci opens a struct/union/class/enum body (not a
 * brace initializer `x{3}`): after the keyword, or its tag. */
static int tag_body(const struct sf_lexed *lx, size_t first, size_t ci)
{
	size_t k = ci;
	if (k > first && ct_ident(lx, k - 1) && !ct_is(lx, k - 1, "struct") &&
	    !ct_is(lx, k - 1, "union") && !ct_is(lx, k - 1, "class") && !ct_is(lx, k - 1, "enum"))
		k--;
	return k > first && (ct_is(lx, k - 1, "struct") || ct_is(lx, k - 1, "union") ||
			     ct_is(lx, k - 1, "class") || ct_is(lx, k - 1, "enum"));
}

/* Where a nested body opens: the specifiers run at least to its `}`. */
static void find_body(const struct sf_lexed *lx, struct decl_walk *w, int cxx)
{
	w->open_body = NONE;
	w->after_body = w->d.first;
	for (size_t ci = w->d.first; ci < w->d.semi; ci++)
		if (ct_punct(lx, ci, '{') && (!cxx || tag_body(lx, w->d.first, ci))) {
			w->d.has_body = 1;
			w->open_body = ci;
			w->after_body = lx->match[ci] + 1;
			return;
		}
}

/* The declarators of w's declaration (`,` at depth 0), from member *mi. */
static int match_declarators(struct sf_cdecl_ctx *x, struct sf_cstruct *p,
			     struct decl_walk *w, uint32_t *mi)
{
	const struct sf_lexed *lx = &x->lx;
	size_t chunk = w->after_body;   /* where the next declarator may start */
	size_t cstart = w->d.first;

	int angle = 0, init = 0;     /* C++: inside <...>; in an initializer */

	for (size_t ci = chunk; ci <= w->d.semi; ci++) {
		if (x->cxx && ci < w->d.semi && !lx->flags[ci])
			angle_step(lx, ci, &init, &angle);
		if (ci < w->d.semi && !(ct_punct(lx, ci, ',') && !lx->flags[ci] && !angle))
			continue;
		init = 0;
		if (*mi >= w->model->nmembers)
			return extra_declarator(x, chunk, ci, cstart);
		if (!w->model->members[*mi].name[0])
			return match_anonymous(x, p, w, mi);
		if (match_named(x, p, w, cstart, chunk, ci, mi) < 0)
			return -1;
		chunk = ci + 1;
		cstart = ci + 1;
	}
	return 0;
}

/*
 * One declaration [first, semi) against the model from member *mi on.
 * When `record`, fills p->decls/p->dtors.
 */
static int match_decl(struct sf_cdecl_ctx *x, struct sf_cstruct *p, size_t first,
		      size_t semi, const struct sf_type *model, uint32_t *mi,
		      int record)
{
	struct sf_lexed *lx = &x->lx;
	struct decl_walk w = {
		{ first, semi, first, (uint32_t)p->ndtors, 0, ct_line(lx, first),
		  ct_line(lx, semi), 0, 0, 0, -1, 0 },
		model, NONE, first, 0, record
	};

	if (sf_clex_brackets(lx, first, semi) < 0) {
		sf_cdecl_refuse(x, SF_SRC_UNBALANCED, ct_line(lx, first), 0);
		return -1;
	}
	if (ct_is(lx, first, "_Static_assert") || ct_is(lx, first, "static_assert")) {
		w.d.is_assert = 1;
		w.d.spec_end = semi;
	} else {
		if (looks_like_macro(lx, first, semi))
			return macro_error(x, first);
		find_body(lx, &w, x->cxx);
		if (match_declarators(x, p, &w, mi) < 0)
			return -1;
	}
	if (record) {
		w.d.nd = (uint32_t)(p->ndtors - w.d.d0);
		w.d.block = p->cur_block;
		w.d.access = p->cur_access;
		SF_GROW(p->decls, p->ndecls, p->decl_cap);
		p->decls[p->ndecls++] = w.d;
	}
	return 0;
}

/* The block (and *branch in it) holding tok[ti], or -1. */
static int block_of(const struct sf_cstruct *p, size_t ti, uint32_t *branch)
{
	*branch = 0;	/* set on every path: gcc -O3 cannot see the callers test b first */
	for (size_t b = 0; b < p->nblocks; b++) {
		const struct sf_cblock *k = &p->blocks[b];
		if (ti <= k->tok[0] || ti >= k->tok[k->nbranch])
			continue;
		while (*branch + 1 < k->nbranch && k->tok[*branch + 1] < ti)
			(*branch)++;
		return (int)b;
	}
	return -1;
}

/*
 * The declarations of a body: [first[i], semi[i]) code tokens, semi[i]
 * the `;` (or, for a C++ member function's body, its `}`).  kind[i]: a
 * data member's declaration, one that stays (C++), or an access label.
 */
enum { DK_DATA = 0, DK_FIXED, DK_LABEL };

struct decl_list {
	size_t *first, *semi;
	uint8_t *kind;
	size_t n, cap, cap2, cap3;
	size_t rest;             /* code tokens after the last `;`, or close */
};

static void push_decl(struct decl_list *dl, size_t first, size_t semi, uint8_t kind)
{
	SF_GROW(dl->first, dl->n, dl->cap);
	SF_GROW(dl->semi, dl->n, dl->cap2);
	SF_GROW(dl->kind, dl->n, dl->cap3);
	dl->first[dl->n] = first;
	dl->kind[dl->n] = kind;
	dl->semi[dl->n++] = semi;
}

static void split_decls(const struct sf_lexed *lx, size_t open, size_t close,
			struct decl_list *dl)
{
	size_t first = open + 1;
	int depth = 0;

	for (size_t ci = open + 1; ci < close; ci++) {
		if (ct_punct(lx, ci, '(') || ct_punct(lx, ci, '[') || ct_punct(lx, ci, '{'))
			depth++;
		else if (ct_punct(lx, ci, ')') || ct_punct(lx, ci, ']') ||
			 ct_punct(lx, ci, '}'))
			depth--;
		if (depth || !ct_punct(lx, ci, ';'))
			continue;
		if (ci > first)      /* else a stray `;` */
			push_decl(dl, first, ci, DK_DATA);
		first = ci + 1;
	}
	dl->rest = first;
}

/* A `(` at ci that opens a function's parameters: after a name that is
 * not an operator word or attribute, and not a declarator's `(*f)`. */
static int fn_paren(const struct sf_lexed *lx, size_t ci, size_t first)
{
	static const char *const not_fn[] = {
		"decltype", "sizeof", "alignof", "noexcept", "typeof",
		"__typeof__", "__typeof", "static_assert", "_Static_assert", NULL
	};
	if (ci == first || !ct_ident(lx, ci - 1) || ct_punct(lx, ci + 1, '*') ||
	    ct_punct(lx, ci + 1, '^') || ct_punct(lx, ci + 1, '&'))
		return 0;
	const struct sf_tok *t = ct(lx, ci - 1);
	return !sf_clex_word_in(lx->text + t->start, t->end - t->start, not_fn) &&
	       !sf_clex_is_attribute(lx->text + t->start, t->end - t->start);
}

/* The last token of a function body opening at `{` ci (its `;` after). */
static size_t body_end(const struct sf_lexed *lx, size_t ci, size_t close)
{
	size_t e = skip_group(lx, ci, close) - 1;
	return ct_punct(lx, e + 1, ';') && e + 1 < close ? e + 1 : e;
}

/* A constructor's `: a(x), b{y} {...}` from its `:` at ci: the body's end. */
static size_t mem_init_end(const struct sf_lexed *lx, size_t ci, size_t close)
{
	size_t k = ci + 1;

	for (;;) {
		while (k < close && !ct_punct(lx, k, '(') && !ct_punct(lx, k, '{'))
			k++;
		if (k >= close)
			return close;
		k = skip_group(lx, k, close);
		while (ct_punct(lx, k, '.'))
			k++;         /* a pack expansion's ... */
		if (!ct_punct(lx, k, ','))
			break;
		k++;
	}
	return ct_punct(lx, k, '{') ? body_end(lx, k, close) : k;
}

/*
 * The last token of the C++ member declaration from i: its `;`, or the
 * `}` of a member function's body (*fn set for a function).
 */
static size_t cxx_decl_end(const struct sf_lexed *lx, size_t i, size_t close, int *fn)
{
	int eq = 0, angle = 0;

	*fn = 0;
	for (size_t j = i; j < close;) {
		if (!eq && ct_is(lx, j, "operator")) {
			*fn = 1;
			j = ct_punct(lx, j + 1, '(') ? skip_group(lx, j + 1, close) : j + 1;
			while (j < close && !ct_punct(lx, j, '('))
				j++;
			continue;
		}
		if (ct_punct(lx, j, ';'))
			return j;
		if (!angle_step(lx, j, &eq, &angle) && *fn && !eq && !angle &&
		    lone_colon(lx, j))
			return mem_init_end(lx, j, close);
		if (ct_punct(lx, j, '(') && !eq && !angle && fn_paren(lx, j, i))
			*fn = 1;
		if (ct_punct(lx, j, '{') && *fn && !eq)
			return body_end(lx, j, close);
		if (ct_punct(lx, j, '(') || ct_punct(lx, j, '[') || ct_punct(lx, j, '{'))
			j = skip_group(lx, j, close);
		else
			j++;
	}
	return close;
}

/* What a C++ declaration [first, semi) that is no function is. */
static uint8_t cxx_kind(const struct sf_lexed *lx, size_t first, size_t semi)
{
	static const char *const fixed[] = {
		"static", "using", "typedef", "friend", "template", "static_assert",
		"_Static_assert", "constexpr", "inline", "thread_local", "extern",
		"namespace", NULL
	};
	size_t k = sf_clex_skip_attributes(lx, first, semi);

	for (size_t j = k; j < semi && !ct_punct(lx, j, '='); j++) {
		const struct sf_tok *t = ct(lx, j);
		if (ct_punct(lx, j, '{'))
			break;
		if (t->kind == TK_IDENT &&
		    sf_clex_word_in(lx->text + t->start, t->end - t->start, fixed))
			return DK_FIXED;
	}
	if (!(ct_is(lx, k, "class") || ct_is(lx, k, "struct") || ct_is(lx, k, "union") ||
	      ct_is(lx, k, "enum")))
		return DK_DATA;
	/* a nested type's definition or declaration, with no declarator */
	size_t n = sf_clex_skip_attributes(lx, k + 1, semi);
	if (ct_is(lx, k, "enum") && (ct_is(lx, n, "class") || ct_is(lx, n, "struct")))
		return DK_FIXED;
	if (!ct_ident(lx, n) && !ct_is(lx, k, "enum"))
		return DK_DATA;      /* an anonymous struct or union member */
	if (n + 1 == semi)
		return DK_FIXED;
	for (size_t j = n; j < semi; j++)
		if (ct_punct(lx, j, '{'))
			return skip_group(lx, j, semi) == semi ? DK_FIXED : DK_DATA;
	return DK_DATA;
}

/* The C++ body's declarations, labels and members that stay included. */
static void split_cxx(const struct sf_lexed *lx, size_t open, size_t close,
		      struct decl_list *dl)
{
	size_t i = open + 1;

	while (i < close) {
		if (ct_punct(lx, i, ';')) {
			i++;
			continue;
		}
		if ((ct_is(lx, i, "public") || ct_is(lx, i, "protected") ||
		     ct_is(lx, i, "private")) && lone_colon(lx, i + 1)) {
			push_decl(dl, i, i + 1, DK_LABEL);
			i += 2;
			continue;
		}
		int fn;
		size_t e = cxx_decl_end(lx, i, close, &fn);
		if (e >= close)
			break;
		push_decl(dl, i, e, fn ? DK_FIXED : cxx_kind(lx, i, e));
		i = e + 1;
	}
	dl->rest = i;
}

/* A directive inside declaration [first, semi] (never a whole line of its own). */
static int directive_inside(struct sf_cdecl_ctx *x, size_t first, size_t semi)
{
	const struct sf_lexed *lx = &x->lx;

	for (size_t i = lx->code[first]; i < lx->code[semi]; i++)
		if (lx->tok[i].kind == TK_PP) {
			sf_cdecl_refuse(x, SF_SRC_DIRECTIVE_IN_DECL, ct_line(lx, first),
					lx->tok[i].line);
			return -1;
		}
	return 0;
}

/* A C++ refusal, as data for report/ (x->why->cxx). */
static int cxx_refuse(struct sf_cdecl_ctx *x, enum sf_cxx_refusal kind, uint32_t line)
{
	return sf_cdecl_refuse_cxx(x, (struct sf_cxx_why){ kind, line, NULL, 0, 0 });
}

/* Whether code token ci is alone on its line with the one after it. */
static int alone_on_line(const struct sf_lexed *lx, size_t first, size_t last)
{
	uint32_t l = ct_line(lx, first);
	return (first == 0 || ct(lx, first - 1)->end_line < l) &&
	       (last + 1 >= lx->ncode || ct_line(lx, last + 1) > ct(lx, last)->end_line);
}

/*
 * A top-level C++ access label or declaration that stays, dl[i]: its lines
 * marked in p->line_kind, a label's access made the current one.
 */
static int note_fixed(struct sf_cdecl_ctx *x, struct sf_cstruct *p,
		      const struct decl_list *dl, size_t i)
{
	const struct sf_lexed *lx = &x->lx;
	size_t first = dl->first[i], last = dl->semi[i];

	if (dl->kind[i] == DK_LABEL) {
		if (!alone_on_line(lx, first, last))
			return cxx_refuse(x, SF_CXX_LABEL_LINE, ct_line(lx, first));
		p->cur_access = ct_is(lx, first, "public") ? SF_ACC_PUBLIC :
				ct_is(lx, first, "protected") ? SF_ACC_PROTECTED :
				SF_ACC_PRIVATE;
		p->line_kind[ct_line(lx, first)] = SF_LINE_LABEL | p->cur_access;
		if (!p->label_line)
			p->label_line = ct_line(lx, first);
		p->nlabels++;
		return 0;
	}
	for (uint32_t l = ct_line(lx, first); l <= ct(lx, last)->end_line; l++)
		p->line_kind[l] = SF_LINE_FIXED | p->cur_access;
	/* what makes it no aggregate: a constructor, a virtual function */
	size_t k = first;
	while (k < last && (ct_is(lx, k, "explicit") || ct_is(lx, k, "constexpr") ||
			    ct_is(lx, k, "inline") || ct_is(lx, k, "virtual")))
		p->virtual_fn |= ct_is(lx, k++, "virtual");
	if (ct_is(lx, k, sf_cdecl_last_name(x->tname)) && ct_punct(lx, k + 1, '('))
		p->has_ctor = 1;
	return 0;
}

/* Declarations dl[a, e) against the model from *mi. */
static int match_decls(struct sf_cdecl_ctx *x, struct sf_cstruct *p,
		       const struct decl_list *dl, size_t a, size_t e,
		       const struct sf_type *model, uint32_t *mi, int record)
{
	for (size_t i = a; i < e; i++) {
		if (dl->kind[i] == DK_LABEL)
			return cxx_refuse(x, SF_CXX_LABEL_IN_IF, ct_line(&x->lx, dl->first[i]));
		if (dl->kind[i] == DK_DATA &&
		    match_decl(x, p, dl->first[i], dl->semi[i], model, mi, record) < 0)
			return -1;
	}
	return 0;
}

/*
 * Block b, whose declarations start at dl[*i]: the first branch that
 * matches the model from *mi is the one the build compiled (an #if with
 * no #else may have compiled nothing).  Recorded like the body around it.
 */
static int match_block(struct sf_cdecl_ctx *x, struct sf_cstruct *p,
		       const struct decl_list *dl, size_t *i, int b,
		       const struct sf_type *model, uint32_t *mi, int record)
{
	struct sf_cblock *k = &p->blocks[b];
	size_t start[SF_CDECL_MAX_BRANCH + 2], e = *i;
	struct sf_src_why quiet, *loud = x->why;
	uint32_t br;

	for (uint32_t j = 0; j <= k->nbranch; j++) {
		start[j] = e;
		while (j < k->nbranch && e < dl->n &&
		       block_of(p, x->lx.code[dl->first[e]], &br) == b && br == j)
			e++;
	}
	start[k->nbranch + 1] = e;
	k->active = UINT32_MAX;
	x->why = &quiet;
	for (uint32_t j = 0; j <= k->nbranch && k->active == UINT32_MAX; j++) {
		uint32_t trial = *mi;
		if (j == k->nbranch && k->has_else)
			break;
		if (match_decls(x, p, dl, start[j], start[j + 1], model, &trial, 0) == 0)
			k->active = j;
	}
	x->why = loud;
	if (k->active == UINT32_MAX) {
		sf_cdecl_refuse(x, SF_SRC_NO_BRANCH, k->if_line, 0);
		return -1;
	}
	for (uint32_t j = 0; j < k->nbranch; j++)
		if (j != k->active && start[j + 1] > start[j])
			k->other_decls = 1;
	k->m0 = *mi;
	p->cur_block = b;
	int rc = match_decls(x, p, dl, start[k->active], start[k->active + 1], model,
			     mi, record);
	p->cur_block = -1;
	k->nm = *mi - k->m0;
	*i = e;
	return rc;
}

/*
 * Match the declarations between code tokens open and close (a `{` and its
 * `}`) against model's members.  With record, the top level: decls and
 * dtors are kept in p, and the #if blocks are the top level's.  A NULL
 * model is a no-op.
 */
static int match_body(struct sf_cdecl_ctx *x, struct sf_cstruct *p, size_t open, size_t close,
		      const struct sf_type *model, int record)
{
	struct sf_lexed *lx = &x->lx;
	struct decl_list dl;
	uint32_t mi = 0, br;
	int rc = 0;

	if (!model)
		return 0;
	memset(&dl, 0, sizeof(dl));
	if (x->cxx)
		split_cxx(lx, open, close, &dl);
	else
		split_decls(lx, open, close, &dl);
	for (size_t i = 0; i < dl.n && rc == 0;) {
		int b = open == p->open_ci ? block_of(p, lx->code[dl.first[i]], &br) : -1;
		if (dl.kind[i] != DK_DATA && b < 0) {
			if (open == p->open_ci && record)
				rc = note_fixed(x, p, &dl, i);
			i++;
			continue;
		}
		rc = directive_inside(x, dl.first[i], dl.semi[i]);
		if (rc == 0 && b >= 0)
			rc = match_block(x, p, &dl, &i, b, model, &mi, record);
		else if (rc == 0)
			rc = match_decl(x, p, dl.first[i], dl.semi[i], model, &mi, record),
			i++;
	}
	size_t first = dl.rest;
	free(dl.first);
	free(dl.semi);
	free(dl.kind);
	if (rc < 0)
		return -1;
	if (first < close) {
		sf_clex_brackets(lx, first, close);
		if (ct_ident(lx, first))
			return macro_error(x, first);
		sf_cdecl_refuse(x, SF_SRC_NOT_A_DECL, ct_line(lx, first), 0);
		return -1;
	}
	if (mi < model->nmembers)
		return mismatch_missing(x, model, mi);
	return 0;
}

/* --------------------------------------------------------- line units */

/* Extend each declaration to the comments that follow it on its `;` line. */
static void find_trailing_comments(const struct sf_lexed *lx, struct sf_cstruct *p)
{
	for (size_t i = 0; i < p->ndecls; i++) {
		struct sf_decl *d = &p->decls[i];
		size_t ti = lx->code[d->semi] + 1;
		uint32_t semi_line = ct_line(lx, d->semi);
		d->line1 = semi_line;
		while (ti < lx->ntok && lx->tok[ti].kind == TK_COMMENT &&
		       lx->tok[ti].line == semi_line) {
			if (lx->tok[ti].end_line > d->line1)
				d->line1 = lx->tok[ti].end_line;
			ti++;
		}
		d->post_end = ti;
	}
}

/* Per line of the body: 0 blank, 1 only comments, 2 code. */
static uint8_t *classify_lines(const struct sf_lexed *lx, const struct sf_cstruct *p)
{
	uint8_t *lk = sf_xcalloc(lx->nlines + 2, 1);
	for (size_t i = lx->code[p->open_ci] + 1; i < lx->code[p->close_ci]; i++) {
		const struct sf_tok *t = &lx->tok[i];
		if (t->kind == TK_COMMENT) {
			for (uint32_t l = t->line; l <= t->end_line; l++)
				if (!lk[l])
					lk[l] = 1;
		} else {
			lk[t->line] = 2;
		}
	}
	return lk;
}

/*
 * A new unit for declaration i whose lines run code0..l1, extended up over
 * the comment lines right above it that no earlier unit claimed.
 */
static void add_unit(struct sf_cstruct *p, const uint8_t *lk, uint32_t prev_end,
		     uint32_t code0, uint32_t l1, size_t i, uint32_t m)
{
	const struct sf_decl *d = &p->decls[i];
	uint32_t l0 = code0;

	while (l0 - 1 > prev_end && lk[l0 - 1] == 1)
		l0--;
	SF_GROW(p->units, p->nunits, p->unit_cap);
	p->units[p->nunits++] = (struct sf_unit){
		l0, code0, l1, (uint32_t)i, 1, m, d->nd, d->is_assert, d->block };
}

/*
 * Does the comment text of lines [l0, l1) name `name` (len bytes): a word
 * of it (split at '_', 3 letters or more) starting a word of the comment,
 * any case?  "peer address, network order" names addr.
 */
static bool comment_names(const struct sf_lexed *lx, uint32_t l0, uint32_t l1,
			  const char *name, size_t len)
{
	const char *c = lx->text + lx->line_start[l0];
	size_t n = lx->line_start[l1] - lx->line_start[l0];

	for (size_t w = 0; w < len;) {
		size_t e = w;
		while (e < len && name[e] != '_')
			e++;
		for (size_t i = 0; e - w >= 3 && i + (e - w) <= n; i++)
			if ((i == 0 || !isalnum((unsigned char)c[i - 1])) &&
			    !strncasecmp(c + i, name + w, e - w))
				return true;
		w = e + 1;
	}
	return false;
}

/*
 * Whether unit u's comment lines (above declaration i) head a group of
 * members rather than describe the first: they stand after a blank line
 * (or the `{`), another declaration follows on the next line, and they do
 * not name the first declaration's members.  A heading is left free, so
 * it stays in front of the members that stay (srcpatch.c): Redis's
 * "Configuration" above verbosity and twenty more settings must not leave
 * with verbosity when only verbosity moves.
 */
static bool heads_group(const struct sf_lexed *lx, const struct sf_cstruct *p,
			const uint8_t *lk, uint32_t open_line, size_t i,
			const struct sf_unit *u)
{
	const struct sf_decl *d = &p->decls[i];

	if (u->l0 == u->code0 || d->block >= 0 || u->ndecl != 1)
		return false;
	if (u->l0 - 1 != open_line && lk[u->l0 - 1] != 0)
		return false;
	if (i + 1 >= p->ndecls || p->decls[i + 1].line0 != d->line1 + 1 ||
	    p->decls[i + 1].block >= 0)
		return false;
	for (uint32_t k = 0; k < d->nd; k++) {
		size_t nm = p->dtors[d->d0 + k].name;
		if (nm == SF_CLEX_NONE)
			continue;
		const struct sf_tok *t = &lx->tok[lx->code[nm]];
		if (comment_names(lx, u->l0, u->code0, lx->text + t->start, t->end - t->start))
			return false;
	}
	return true;
}

static void build_units(const struct sf_lexed *lx, struct sf_cstruct *p)
{
	uint8_t *lk = classify_lines(lx, p);
	uint32_t open_line = ct_line(lx, p->open_ci);
	uint32_t prev_end = open_line;   /* last line claimed so far */
	uint32_t m = 0;

	for (size_t i = 0; i < p->ndecls; i++) {
		struct sf_decl *d = &p->decls[i];
		struct sf_unit *last = p->nunits ? &p->units[p->nunits - 1] : NULL;
		int same_block = d->block >= 0 && last && last->block == d->block;
		if (d->block >= 0 && !same_block) {
			/* an #if block: all its lines, one unit */
			const struct sf_cblock *k = &p->blocks[d->block];
			add_unit(p, lk, prev_end, k->if_line, k->endif_line, i, m);
		} else if (last && (same_block || d->line0 <= last->l1)) {
			last->ndecl++;
			last->nm += d->nd;
			last->has_assert |= d->is_assert;
			if (d->line1 > last->l1)
				last->l1 = d->line1;
		} else {
			add_unit(p, lk, prev_end, d->line0, d->line1, i, m);
			struct sf_unit *u = &p->units[p->nunits - 1];
			if (heads_group(lx, p, lk, open_line, i, u))
				u->l0 = u->code0;
		}
		m += d->nd;
		prev_end = p->units[p->nunits - 1].l1;
	}
	free(lk);
}

void sf_cdecl_free(struct sf_cstruct *p)
{
	free(p->decls);
	free(p->dtors);
	free(p->dtor_of);
	free(p->units);
	free(p->blocks);
	free(p->line_kind);
	memset(p, 0, sizeof(*p));
}

/* Find, check and analyze t's definition in x's text. */
/* A C++ body's lines: comments right above a declaration that stays go
 * with it; no data member may share a line with one. */
static int cxx_lines(struct sf_cdecl_ctx *x, struct sf_cstruct *p)
{
	const struct sf_lexed *lx = &x->lx;
	uint8_t *lk = classify_lines(lx, p);
	uint32_t open_line = ct_line(lx, p->open_ci);
	int rc = 0;

	for (uint32_t l = ct_line(lx, p->close_ci); l > open_line + 1; l--)
		if ((p->line_kind[l] & 0xf0) == SF_LINE_FIXED && lk[l - 1] == 1 &&
		    !p->line_kind[l - 1])
			p->line_kind[l - 1] = p->line_kind[l];
	for (size_t i = 0; i < p->nunits && rc == 0; i++)
		for (uint32_t l = p->units[i].l0; l <= p->units[i].l1 && rc == 0; l++)
			if (p->line_kind[l] && p->units[i].block < 0)
				rc = cxx_refuse(x, SF_CXX_SHARED_LINE, l);
	free(lk);
	return rc;
}

/* C++: the class's default access and the per-line kinds to fill. */
static void cxx_start(struct sf_cdecl_ctx *x, const struct sf_type *t, struct sf_cstruct *p)
{
	x->cxx = p->cxx = (t->flags & SF_TF_CXX) != 0;
	if (!p->cxx)
		return;
	p->line_kind = sf_xcalloc(x->lx.nlines + 2, 1);
}

int sf_cdecl_parse(struct sf_cdecl_ctx *x, const struct sf_type *t, struct sf_cstruct *p)
{
	memset(p, 0, sizeof(*p));
	p->t = t;
	p->cur_block = -1;
	cxx_start(x, t, p);
	if (find_definition(x, t, p) < 0)
		return -1;
	if (p->cxx)
		p->default_access = p->cur_access = ct_is(&x->lx, p->name_ci, "class") ?
			SF_ACC_PRIVATE : SF_ACC_PUBLIC;
	if (check_body_shape(x, p) < 0 ||
	    match_body(x, p, p->open_ci, p->close_ci, t, 1) < 0)
		return -1;
	assert(p->ndtors == t->nmembers);
	p->dtor_of = sf_xmalloc((t->nmembers + 1) * sizeof(uint32_t));
	for (size_t i = 0; i < p->ndtors; i++)
		p->dtor_of[p->dtors[i].member] = (uint32_t)i;
	find_trailing_comments(&x->lx, p);
	build_units(&x->lx, p);
	return p->cxx ? cxx_lines(x, p) : 0;
}

size_t sf_cdecl_definitions(struct sf_cdecl_ctx *x, const struct sf_type *t,
			    struct sf_cdecl_def *out, size_t max)
{
	struct sf_lexed *lx = &x->lx;
	struct sf_src_why quiet, *loud = x->why;
	size_t n = 0;

	struct sf_member *v;
	struct sf_type dt;

	sf_cdecl_declared(t, &dt, &v, NULL);
	t = &dt;
	x->why = &quiet;
	x->cxx = (t->flags & SF_TF_CXX) != 0;
	for (size_t ci = 0; ci + 2 < lx->ncode; ci++) {
		struct sf_cstruct p;
		size_t open;
		uint32_t line;
		if (!def_at(lx, ci, t, x->cxx, &open, &line))
			continue;
		memset(&p, 0, sizeof(p));
		template_params(x, ci);
		p.t = t;
		p.cur_block = -1;
		p.name_ci = ci;
		p.open_ci = open;
		p.close_ci = sf_clex_matching_brace(lx, open);
		int ok = p.close_ci != NONE && check_body_shape(x, &p) == 0 &&
			 match_body(x, &p, open, p.close_ci, t, 0) == 0;
		if (n < max)
			out[n] = (struct sf_cdecl_def){ line, ok };
		n++;
		sf_cdecl_free(&p);
	}
	free(v);
	x->why = loud;
	return n;
}

void sf_cdecl_declared(const struct sf_type *t, struct sf_type *out,
		       struct sf_member **v, uint32_t *map)
{
	const uint16_t undeclared = SF_MF_BASE | SF_MF_VIRTUAL_BASE | SF_MF_VPTR;
	uint32_t n = 0;

	*out = *t;
	*v = NULL;
	for (uint32_t i = 0; i < t->nmembers; i++)
		if (t->members[i].flags & undeclared) {
			*v = sf_xcalloc(t->nmembers + 1, sizeof(**v));
			break;
		}
	for (uint32_t i = 0; i < t->nmembers; i++) {
		int keep = !(t->members[i].flags & undeclared);
		if (map)
			map[i] = keep ? n : UINT32_MAX;
		if (keep && *v)
			(*v)[n] = t->members[i];
		n += keep;
	}
	if (*v) {
		out->members = *v;
		out->nmembers = n;
	}
}
