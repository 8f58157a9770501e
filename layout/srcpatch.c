/*
 * srcpatch.c - rewrite a struct's body in C source text (see srcpatch.h).
 *
 * Tokens.  The whole file is lexed once into `tok[]`: identifiers,
 * numbers, strings, punctuators (one character each: only ; , ( ) [ ] { }
 * : * matter here), comments and whole preprocessor lines.  `code[]` lists
 * the indexes of the tokens that are neither comments nor preprocessor
 * lines; syntax is read over code[], comments are found between two code
 * tokens.  The lexer never fails: an unterminated literal ends at the end of
 * its line, an unterminated comment at the end of the file.
 *
 * Declarations.  In the body every `;` at bracket depth 0 ends one
 * declaration; `,` at depth 0 separates its declarators.  Parentheses get
 * a kind from their neighbours, because a declarator's name must be told
 * apart from everything else that is an identifier:
 *
 *     int (*fn)(int a) __attribute__((aligned(8)))
 *         ^GROUP ^PARAMS ^CALL (attribute or macro call)
 *
 * A `(` followed by `*` groups a declarator; after `)` or `]` it opens a
 * parameter list; after an identifier it is a call (an attribute, or a
 * macro).  The name of a declarator is the last identifier equal to the
 * expected member name that is outside calls, parameter lists, brackets
 * and nested bodies; the specifiers are what comes before the `*`/`(` run
 * that leads to it.
 *
 * Checking.  Declarations are matched, in order, against the model's
 * members: same names, bit-field widths, and types spelled canonically on
 * both sides (`long unsigned int` == `unsigned long`, qualifiers sorted,
 * parameter names dropped, array sizes compared only when the source
 * spells them as a literal).  Anonymous struct/union members are checked
 * recursively against their nested model.
 *
 * Lines.  Declarations sharing a line, plus the comment lines directly
 * above them (no blank line between), form a unit.  Every other line of
 * the body (blank lines, comments that stand apart, _Static_assert) is
 * free.  The new body is the new member order, where each unit whose
 * members stay together in their old order and are not narrowed is copied
 * verbatim, and every other member becomes one line:
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
 */
#include "srcpatch.h"

#include <assert.h>
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"

#define NONE ((size_t)-1)

enum tok_kind {
	TK_IDENT = 0,
	TK_NUM,
	TK_STR,
	TK_PUNCT,
	TK_COMMENT,
	TK_PP,
};

struct tok {
	size_t start, end;       /* bytes [start, end) of the text */
	uint32_t line, end_line; /* 1-based lines of the first and last byte */
	uint8_t kind;
};

/* Parenthesis kinds and the exclusion flags they give the tokens inside. */
enum {
	PK_GROUP = 1,            /* ( of a declarator: (*fn) */
	PK_PARAMS,               /* parameter list */
	PK_CALL,                 /* attribute or macro call */
};
enum {
	FL_CALL = 1 << 0,        /* inside (or the name of) a call */
	FL_PARAMS = 1 << 1,
	FL_BRACKET = 1 << 2,
	FL_BODY = 1 << 3,        /* inside a nested { } */
};

struct lexed {
	const char *text;
	size_t len;
	struct tok *tok;
	size_t ntok, tok_cap;
	size_t *code;            /* indexes into tok[] of code tokens */
	size_t ncode, code_cap;
	size_t *line_start;      /* line_start[l] = offset of line l (1-based) */
	uint32_t nlines;
	size_t line_cap;
	/* per code token, valid inside the declaration last analyzed */
	uint8_t *flags;
	uint8_t *pkind;
	size_t *match;           /* matching bracket (code index) */
};

struct dtor {
	size_t first, last;      /* code indexes, inclusive */
	size_t name;             /* code index of the name; NONE if anonymous */
	uint32_t member;         /* index in the model */
	uint32_t decl;
};

struct decl {
	size_t first, semi;      /* code indexes of the first token and `;` */
	size_t spec_end;         /* one past the last specifier (code index) */
	uint32_t d0, nd;         /* dtors[d0 .. d0 + nd) */
	uint32_t line0, line1;   /* first code line; last line incl. comments */
	size_t post_end;         /* tok index one past its trailing comments */
	int is_assert;
	int has_body;
};

struct unit {
	uint32_t l0, code0, l1;  /* lines: leading comments, first code, last */
	uint32_t decl0, ndecl;
	uint32_t m0, nm;         /* model members m0 .. m0 + nm - 1 */
	int has_assert;
};

struct parse {
	const struct sf_type *t;
	size_t name_ci, open_ci, close_ci; /* code indexes: definition, { and } */
	struct decl *decls;
	size_t ndecls, decl_cap;
	struct dtor *dtors;
	size_t ndtors, dtor_cap;
	uint32_t *dtor_of;       /* model member -> dtors[] index */
	struct unit *units;
	size_t nunits, unit_cap;
};

struct ctx {
	const char *path;
	const char *tname;
	struct lexed lx;
	struct sf_err *err;
};

/* ---------------------------------------------------------------- lexing */

static int is_ident_start(unsigned char ch)
{
	return isalpha(ch) || ch == '_' || ch == '$' || ch >= 0x80;
}

static int is_ident_char(unsigned char ch)
{
	return is_ident_start(ch) || isdigit(ch);
}

static void push_tok(struct lexed *lx, uint8_t kind, size_t start, size_t end,
		     uint32_t line, uint32_t end_line)
{
	SF_GROW(lx->tok, lx->ntok, lx->tok_cap);
	lx->tok[lx->ntok++] = (struct tok){ start, end, line, end_line, kind };
}

/* Skip a block comment starting at i ("/ *"); counts the lines it spans. */
static size_t skip_block_comment(const char *s, size_t n, size_t i,
				 uint32_t *line)
{
	i += 2;
	while (i < n && !(s[i] == '*' && i + 1 < n && s[i + 1] == '/')) {
		if (s[i] == '\n')
			(*line)++;
		i++;
	}
	return i < n ? i + 2 : n;
}

/* A line comment or a preprocessor line: to the end of line, splices too. */
static size_t skip_to_eol(const char *s, size_t n, size_t i, uint32_t *line,
			  int block_comments)
{
	while (i < n && s[i] != '\n') {
		if (s[i] == '\\' && i + 1 < n && s[i + 1] == '\n') {
			(*line)++;
			i += 2;
		} else if (s[i] == '\\' && i + 2 < n && s[i + 1] == '\r' &&
			   s[i + 2] == '\n') {
			(*line)++;
			i += 3;
		} else if (block_comments && s[i] == '/' && i + 1 < n &&
			   s[i + 1] == '*') {
			i = skip_block_comment(s, n, i, line);
		} else {
			i++;
		}
	}
	if (i > 0 && i <= n && s[i - 1] == '\r')
		i--;   /* keep a CR of CRLF out of the token */
	return i;
}

static size_t skip_literal(const char *s, size_t n, size_t i)
{
	char q = s[i++];

	while (i < n && s[i] != q && s[i] != '\n') {
		if (s[i] == '\\' && i + 1 < n && s[i + 1] != '\n')
			i++;
		i++;
	}
	return i < n && s[i] == q ? i + 1 : i;
}

static size_t skip_number(const char *s, size_t n, size_t i)
{
	while (i < n) {
		unsigned char ch = (unsigned char)s[i];
		if ((ch == '+' || ch == '-') && strchr("eEpP", s[i - 1]))
			i++;
		else if (isalnum(ch) || ch == '_' || ch == '.' || ch == '\'')
			i++;
		else
			break;
	}
	return i;
}

static void index_lines(struct lexed *lx)
{
	SF_GROW(lx->line_start, 2, lx->line_cap);
	lx->line_start[0] = 0;
	lx->line_start[1] = 0;
	lx->nlines = 1;
	for (size_t i = 0; i < lx->len; i++) {
		if (lx->text[i] == '\n' && i + 1 < lx->len) {
			lx->nlines++;
			SF_GROW(lx->line_start, lx->nlines, lx->line_cap);
			lx->line_start[lx->nlines] = i + 1;
		}
	}
	/* sentinel: the offset one past the last line */
	SF_GROW(lx->line_start, lx->nlines + 1, lx->line_cap);
	lx->line_start[lx->nlines + 1] = lx->len;
}

static void lex(struct lexed *lx, const char *text, size_t len)
{
	const char *s = text;
	size_t i = 0;
	uint32_t line = 1;
	int bol = 1;

	memset(lx, 0, sizeof(*lx));
	lx->text = text;
	lx->len = len;
	index_lines(lx);
	while (i < len) {
		unsigned char ch = (unsigned char)s[i];
		size_t st = i;
		uint32_t sl = line;
		uint8_t kind;

		if (ch == '\n') {
			line++;
			bol = 1;
			i++;
			continue;
		}
		if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\f' ||
		    ch == '\v') {
			i++;
			continue;
		}
		if (ch == '\\' && i + 1 < len && (s[i + 1] == '\n' || s[i + 1] == '\r')) {
			i++;
			continue;     /* a splice: the newline is counted next */
		}
		if (ch == '#' && bol) {
			i = skip_to_eol(s, len, i, &line, 1);
			kind = TK_PP;
		} else if (ch == '/' && i + 1 < len && s[i + 1] == '*') {
			i = skip_block_comment(s, len, i, &line);
			kind = TK_COMMENT;
		} else if (ch == '/' && i + 1 < len && s[i + 1] == '/') {
			i = skip_to_eol(s, len, i, &line, 0);
			kind = TK_COMMENT;
		} else if (ch == '"' || ch == '\'') {
			i = skip_literal(s, len, i);
			kind = TK_STR;
		} else if (is_ident_start(ch)) {
			while (i < len && is_ident_char((unsigned char)s[i]))
				i++;
			kind = TK_IDENT;
		} else if (isdigit(ch) || (ch == '.' && i + 1 < len &&
					   isdigit((unsigned char)s[i + 1]))) {
			i = skip_number(s, len, i + 1);
			kind = TK_NUM;
		} else {
			i++;
			kind = TK_PUNCT;
		}
		if (kind != TK_COMMENT)
			bol = 0;
		push_tok(lx, kind, st, i, sl, line);
		if (kind != TK_COMMENT && kind != TK_PP) {
			SF_GROW(lx->code, lx->ncode, lx->code_cap);
			lx->code[lx->ncode++] = lx->ntok - 1;
		}
	}
	lx->flags = sf_xcalloc(lx->ncode + 1, 1);
	lx->pkind = sf_xcalloc(lx->ncode + 1, 1);
	lx->match = sf_xcalloc(lx->ncode + 1, sizeof(size_t));
}

static void lex_free(struct lexed *lx)
{
	free(lx->tok);
	free(lx->code);
	free(lx->line_start);
	free(lx->flags);
	free(lx->pkind);
	free(lx->match);
	memset(lx, 0, sizeof(*lx));
}

static const struct tok *ct(const struct lexed *lx, size_t ci)
{
	assert(ci < lx->ncode);
	return &lx->tok[lx->code[ci]];
}

static int tok_is(const struct lexed *lx, const struct tok *t, const char *s)
{
	size_t n = strlen(s);
	return t->end - t->start == n && !memcmp(lx->text + t->start, s, n);
}

static int ct_is(const struct lexed *lx, size_t ci, const char *s)
{
	return ci < lx->ncode && tok_is(lx, ct(lx, ci), s);
}

static int ct_punct(const struct lexed *lx, size_t ci, char p)
{
	if (ci >= lx->ncode)
		return 0;
	const struct tok *t = ct(lx, ci);
	return t->kind == TK_PUNCT && lx->text[t->start] == p;
}

static int ct_ident(const struct lexed *lx, size_t ci)
{
	return ci < lx->ncode && ct(lx, ci)->kind == TK_IDENT;
}

/* "line N" of a code token, for messages. */
static uint32_t ct_line(const struct lexed *lx, size_t ci)
{
	return ct(lx, ci)->line;
}

/* ------------------------------------------------------- words of C */

static int word_in(const char *w, size_t n, const char *const *list)
{
	for (; *list; list++)
		if (strlen(*list) == n && !memcmp(*list, w, n))
			return 1;
	return 0;
}

static const char *const qualifiers[] = {
	"const", "volatile", "restrict", "__restrict", "__restrict__",
	"__const", "__volatile__", "__volatile", NULL
};

/* Identifiers whose ( ... ) is an attribute, not a macro making members. */
static const char *const attribute_words[] = {
	"__attribute__", "__attribute", "_Alignas", "alignas", "__declspec",
	"__aligned", "__packed", "__section", "__attribute_used__", NULL
};

static int is_qualifier(const struct lexed *lx, size_t ci)
{
	const struct tok *t = ct(lx, ci);
	return t->kind == TK_IDENT &&
	       word_in(lx->text + t->start, t->end - t->start, qualifiers);
}

static int is_attribute_word(const char *w, size_t n)
{
	return word_in(w, n, attribute_words);
}

/* ------------------------------------------- one declaration's brackets */

/*
 * Give every `(` of code tokens [first, end) its kind, every bracket its
 * match, and every token its exclusion flags.  -1 when brackets do not
 * balance.
 */
static int analyze_brackets(struct lexed *lx, size_t first, size_t end)
{
	size_t stack[256];
	uint8_t kinds[256];
	size_t depth = 0;
	uint8_t cur = 0;

	for (size_t ci = first; ci < end; ci++) {
		const struct tok *t = ct(lx, ci);
		char p = t->kind == TK_PUNCT ? lx->text[t->start] : 0;

		lx->pkind[ci] = 0;
		lx->match[ci] = NONE;
		if (p == '(' || p == '[' || p == '{') {
			uint8_t k = p == '[' ? FL_BRACKET : p == '{' ? FL_BODY : 0;
			if (p == '(') {
				uint8_t pk;
				if (ct_punct(lx, ci + 1, '*') || ct_punct(lx, ci + 1, '^'))
					pk = PK_GROUP;
				else if (ci > first && (ct_punct(lx, ci - 1, ')') ||
							ct_punct(lx, ci - 1, ']')))
					pk = PK_PARAMS;
				else if (ci > first && ct_ident(lx, ci - 1))
					pk = PK_CALL;
				else
					pk = PK_GROUP;
				lx->pkind[ci] = pk;
				k = pk == PK_PARAMS ? FL_PARAMS : pk == PK_CALL ? FL_CALL : 0;
				if (pk == PK_CALL)
					lx->flags[ci - 1] |= FL_CALL;
			}
			if (depth == sizeof(stack) / sizeof(stack[0]))
				return -1;
			lx->flags[ci] = cur | (k & (FL_CALL | FL_PARAMS));
			stack[depth] = ci;
			kinds[depth++] = cur;
			cur |= k;
			continue;
		}
		if (p == ')' || p == ']' || p == '}') {
			if (!depth)
				return -1;
			size_t open = stack[--depth];
			char op = lx->text[ct(lx, open)->start];
			if ((p == ')' && op != '(') || (p == ']' && op != '[') ||
			    (p == '}' && op != '{'))
				return -1;
			lx->match[open] = ci;
			lx->match[ci] = open;
			lx->flags[ci] = cur & (FL_CALL | FL_PARAMS);
			cur = kinds[depth];
			if (lx->pkind[open] == PK_CALL || lx->pkind[open] == PK_PARAMS)
				lx->flags[ci] |= lx->pkind[open] == PK_CALL ? FL_CALL : FL_PARAMS;
			continue;
		}
		lx->flags[ci] = cur;
	}
	return depth ? -1 : 0;
}

/* ------------------------------------------------ canonical type spelling */

/*
 * A type spelled as a list of words and punctuators, canonical so that two
 * spellings of the same C type compare equal: within each run of words the
 * qualifiers come first (sorted), then the base type in one spelling
 * ("unsigned long" for "long unsigned int"), then the other words in their
 * order.  Array sizes are "[N]", "[]" (also for [0]) or "[?]" when the
 * source spells them with anything but a literal.
 */
struct canon {
	struct strbuf sb;        /* parts separated by ' ' */
	unsigned quals;          /* bit i: qualifiers[i] (canonical subset) */
	int nlong, nshort, nint, nchar, nsigned, nunsigned, nbool, nvoid;
	int nfloat, ndouble, nint128;
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
	int any_int = c->nlong || c->nshort || c->nint || c->nchar ||
		      c->nsigned || c->nunsigned || c->nint128;
	if (c->nbool)
		canon_part(c, "_Bool");
	else if (c->nvoid)
		canon_part(c, "void");
	else if (c->nfloat)
		canon_part(c, "float");
	else if (c->ndouble)
		canon_part(c, c->nlong ? "long double" : "double");
	else if (any_int) {
		if (c->nchar) {
			canon_part(c, c->nunsigned ? "unsigned char" :
				      c->nsigned ? "signed char" : "char");
		} else {
			if (c->nunsigned)
				canon_part(c, "unsigned");
			canon_part(c, c->nint128 ? "__int128" :
				      c->nshort ? "short" : c->nlong >= 2 ? "long long" :
				      c->nlong ? "long" : "int");
		}
	}
	if (c->others.len)
		canon_part(c, c->others.buf);
	sb_reset(&c->others);
	c->quals = 0;
	c->nlong = c->nshort = c->nint = c->nchar = c->nsigned = 0;
	c->nunsigned = c->nbool = c->nvoid = c->nfloat = c->ndouble = 0;
	c->nint128 = 0;
}

static void canon_word(struct canon *c, const char *w, size_t n)
{
	static const char *const ignored[] = {
		"__extension__", "__signed__", "__signed", NULL
	};
	if (word_in(w, n, qualifiers)) {
		/* const, __const -> 1; volatile, __volatile(__) -> 2; restrict -> 4 */
		const char *base = w[0] == '_' ? w + 2 : w;
		c->quals |= base[0] == 'c' ? 1u : base[0] == 'v' ? 2u : 4u;
		return;
	}
#define W(s) (n == sizeof(s) - 1 && !memcmp(w, s, n))
	if (W("long")) c->nlong++;
	else if (W("short")) c->nshort++;
	else if (W("int")) c->nint++;
	else if (W("char")) c->nchar++;
	else if (W("signed")) c->nsigned++;
	else if (W("unsigned")) c->nunsigned++;
	else if (W("_Bool") || W("bool")) c->nbool++;
	else if (W("void")) c->nvoid++;
	else if (W("float")) c->nfloat++;
	else if (W("double")) c->ndouble++;
	else if (W("__int128")) c->nint128++;
	else if (word_in(w, n, ignored)) {
		if (w[2] == 's')
			c->nsigned++;
	} else {
		if (c->others.len)
			sb_addch(&c->others, ' ');
		sb_add(&c->others, w, n);
	}
#undef W
}

/* An array size: "[3]", "[]" for nothing or 0, "[?]" for an expression. */
static void canon_array(struct canon *c, const struct lexed *lx,
			const size_t *ci, size_t n)
{
	char buf[48];

	if (n == 0) {
		canon_part(c, "[]");
		return;
	}
	if (n == 1 && ct(lx, ci[0])->kind == TK_NUM) {
		const struct tok *t = ct(lx, ci[0]);
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
static void canon_tokens(const struct lexed *lx, const size_t *ci, size_t n,
			 struct strbuf *out)
{
	struct canon c;

	memset(&c, 0, sizeof(c));
	sb_init(&c.sb);
	sb_init(&c.others);

	for (size_t i = 0; i < n; i++) {
		const struct tok *t = ct(lx, ci[i]);
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

/* Canonical spelling of a model member's type (type_name + type_suffix). */
static void canon_model_type(const struct sf_member *m, struct strbuf *out)
{
	struct strbuf s = STRBUF_INIT;
	struct lexed lx;

	sb_addf(&s, "%s %s", m->type_name ? m->type_name : "",
		m->type_suffix ? m->type_suffix : "");
	lex(&lx, s.buf, s.len);
	size_t *ci = sf_xcalloc(lx.ncode + 1, sizeof(size_t));
	for (size_t i = 0; i < lx.ncode; i++)
		ci[i] = i;
	canon_tokens(&lx, ci, lx.ncode, out);
	free(ci);
	lex_free(&lx);
	sb_release(&s);
}

/* --------------------------------------------- finding the definition */

/*
 * Skip attributes (`__attribute__((...))`, `__packed`) from ci; returns
 * the next code index.
 */
static size_t skip_attributes(struct lexed *lx, size_t ci, size_t end)
{
	while (ci + 1 < end && ct_ident(lx, ci)) {
		const struct tok *t = ct(lx, ci);
		if (!is_attribute_word(lx->text + t->start, t->end - t->start))
			break;
		if (!ct_punct(lx, ci + 1, '(')) {
			ci++;   /* a bare attribute macro */
			continue;
		}
		int depth = 0;
		size_t j = ci + 1;
		for (; j < end; j++) {
			if (ct_punct(lx, j, '('))
				depth++;
			else if (ct_punct(lx, j, ')') && --depth == 0)
				break;
		}
		if (j >= end)
			return end;
		ci = j + 1;
	}
	return ci;
}

/* Code index of the `}` matching the `{` at open, or NONE. */
static size_t matching_brace(const struct lexed *lx, size_t open)
{
	size_t depth = 0;
	for (size_t ci = open; ci < lx->ncode; ci++) {
		if (ct_punct(lx, ci, '{'))
			depth++;
		else if (ct_punct(lx, ci, '}') && --depth == 0)
			return ci;
	}
	return NONE;
}

/*
 * At code token ci, a definition of struct `name`?  Either `struct NAME
 * ... {` or `typedef struct ... { ... } NAME` (an anonymous struct known by
 * its typedef's name).  Sets *open to its `{` and *line to the line the
 * compiler gives it (of NAME, or of `struct` for the typedef form).
 */
static int definition_at(struct lexed *lx, size_t ci, const char *name,
			 size_t *open, uint32_t *line)
{
	if (ct_is(lx, ci, "struct")) {
		size_t k = skip_attributes(lx, ci + 1, lx->ncode);
		if (k >= lx->ncode || !ct_is(lx, k, name))
			return 0;
		*open = skip_attributes(lx, k + 1, lx->ncode);
		*line = ct_line(lx, k);
		return ct_punct(lx, *open, '{');
	}
	if (!ct_is(lx, ci, "typedef"))
		return 0;
	size_t k = skip_attributes(lx, ci + 1, lx->ncode);
	if (!ct_is(lx, k, "struct"))
		return 0;
	size_t o = skip_attributes(lx, k + 1, lx->ncode);
	if (!ct_punct(lx, o, '{'))
		return 0;
	size_t close = matching_brace(lx, o);
	if (close == NONE)
		return 0;
	size_t n = skip_attributes(lx, close + 1, lx->ncode);
	if (!ct_is(lx, n, name) || !(ct_punct(lx, n + 1, ';') || ct_punct(lx, n + 1, ',')))
		return 0;
	*open = o;
	*line = ct_line(lx, k);
	return 1;
}

/*
 * Find the definition of struct t->name: the one the DWARF's decl_line
 * names, else the only one in the file.
 */
static int find_definition(struct ctx *x, const struct sf_type *t,
			   struct parse *p)
{
	struct lexed *lx = &x->lx;
	size_t nfound = 0, on_line = NONE, any = NONE;
	size_t any_open = NONE, line_open = NONE;

	for (size_t ci = 0; ci + 2 < lx->ncode; ci++) {
		size_t open;
		uint32_t line;
		if (!definition_at(lx, ci, t->name, &open, &line))
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
		return sf_error(x->err, "%s: no definition of struct %s (the source "
				"changed since the build?)", x->path, t->name);
	} else {
		return sf_error(x->err, "%s: %zu definitions of struct %s and none "
				"on line %u where the build saw it", x->path, nfound,
				t->name, t->decl_line);
	}
	p->close_ci = matching_brace(lx, p->open_ci);
	if (p->close_ci == NONE)
		return sf_error(x->err, "%s: struct %s: no closing brace for the "
				"'{' on line %u", x->path, t->name,
				ct_line(lx, p->open_ci));
	return 0;
}

/* ------------------------------------------------------- body checks */

static int is_conditional_directive(const struct lexed *lx, const struct tok *t)
{
	static const char *const cond[] = {
		"if", "ifdef", "ifndef", "elif", "else", "endif", "elifdef",
		"elifndef", NULL
	};
	size_t i = t->start + 1;
	while (i < t->end && (lx->text[i] == ' ' || lx->text[i] == '\t'))
		i++;
	size_t j = i;
	while (j < t->end && isalpha((unsigned char)lx->text[j]))
		j++;
	return word_in(lx->text + i, j - i, cond);
}

/* Refuse preprocessor lines in the body, and bodies sharing lines. */
static int check_body_shape(struct ctx *x, const struct parse *p)
{
	const struct lexed *lx = &x->lx;
	const struct tok *open = ct(lx, p->open_ci), *close = ct(lx, p->close_ci);

	for (size_t i = lx->code[p->open_ci] + 1; i < lx->code[p->close_ci]; i++) {
		const struct tok *t = &lx->tok[i];
		if (t->kind != TK_PP)
			continue;
		if (is_conditional_directive(lx, t))
			return sf_error(x->err, "%s: struct %s: members under #if/#ifdef "
					"(line %u); structfit does not rewrite "
					"conditional members", x->path, x->tname, t->line);
		return sf_error(x->err, "%s: struct %s: preprocessor directive inside "
				"the body (line %u); structfit does not rewrite it",
				x->path, x->tname, t->line);
	}
	/* `{` ends its line (comments after it must end there too) ... */
	int open_ok = 1;
	for (size_t i = lx->code[p->open_ci] + 1; i < lx->ntok; i++) {
		const struct tok *t = &lx->tok[i];
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
	if (!open_ok || !close_ok)
		return sf_error(x->err, "%s: struct %s is defined on one line with "
				"other code (line %u); put its members on lines of "
				"their own first", x->path, x->tname,
				open_ok ? close->line : open->line);
	return 0;
}

/* ------------------------------------------------- declaration parsing */

/* Text of code token ci as a NUL-terminated string in buf. */
static const char *ct_text(const struct lexed *lx, size_t ci, char *buf,
			   size_t bufsz)
{
	const struct tok *t = ct(lx, ci);
	size_t n = t->end - t->start;
	if (n >= bufsz)
		n = bufsz - 1;
	memcpy(buf, lx->text + t->start, n);
	buf[n] = '\0';
	return buf;
}

/*
 * Whether declaration [first, semi) looks like a macro invocation that
 * makes members: `NAME(...)` alone, or a lone identifier.
 */
static int looks_like_macro(const struct lexed *lx, size_t first, size_t semi)
{
	if (semi == first + 1 && ct_ident(lx, first))
		return 1;
	if (!ct_ident(lx, first) || !ct_punct(lx, first + 1, '('))
		return 0;
	const struct tok *t = ct(lx, first);
	if (is_attribute_word(lx->text + t->start, t->end - t->start))
		return 0;
	return lx->match[first + 1] == semi - 1;
}

static int macro_error(struct ctx *x, size_t ci)
{
	char name[128];
	return sf_error(x->err, "%s: struct %s: '%s' on line %u is a macro; "
			"members that come from macros cannot be moved",
			x->path, x->tname, ct_text(&x->lx, ci, name, sizeof(name)),
			ct_line(&x->lx, ci));
}

/* Any call of a non-attribute identifier in [first, end): a macro. */
static size_t find_macro_call(const struct lexed *lx, size_t first, size_t end)
{
	for (size_t ci = first; ci + 1 < end; ci++) {
		if (ct_ident(lx, ci) && lx->pkind[ci + 1] == PK_CALL) {
			const struct tok *t = ct(lx, ci);
			if (!is_attribute_word(lx->text + t->start, t->end - t->start))
				return ci;
		}
	}
	return NONE;
}

/* The last identifier equal to `name` outside calls/params/brackets. */
static size_t find_name(const struct lexed *lx, size_t first, size_t end,
			const char *name)
{
	size_t found = NONE;
	for (size_t ci = first; ci < end; ci++)
		if (!lx->flags[ci] && ct_ident(lx, ci) && ct_is(lx, ci, name))
			found = ci;
	return found;
}

/* The last plain identifier in [first, end) (what the source declares). */
static size_t last_plain_ident(const struct lexed *lx, size_t first, size_t end)
{
	size_t found = NONE;
	for (size_t ci = first; ci < end; ci++)
		if (!lx->flags[ci] && ct_ident(lx, ci) && !is_qualifier(lx, ci))
			found = ci;
	return found;
}

/* Where the declarator holding the name at `name` starts. */
static size_t declarator_start(const struct lexed *lx, size_t first,
			       size_t name)
{
	size_t j = name;
	while (j > first) {
		size_t k = j - 1;
		if (ct_punct(lx, k, '*') || ct_punct(lx, k, '^') ||
		    (ct_punct(lx, k, '(') && lx->pkind[k] == PK_GROUP) ||
		    is_qualifier(lx, k))
			j = k;
		else
			break;
	}
	while (j < name && is_qualifier(lx, j))
		j++;   /* `unsigned const x`: const belongs to the specifiers */
	return j;
}

/* Top-level `:` of a bit-field in [first, end), or NONE. */
static size_t bitfield_colon(const struct lexed *lx, size_t first, size_t end)
{
	for (size_t ci = first; ci < end; ci++)
		if (!lx->flags[ci] && ct_punct(lx, ci, ':'))
			return ci;
	return NONE;
}

/* Whether parameter [a, b) ends in a name (DWARF keeps none). */
static size_t param_name(const struct lexed *lx, size_t a, size_t b)
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
		if (ct_ident(lx, k) && !is_qualifier(lx, k)) {
			nwords++;
			last = k;
		}
	}
	if (nwords < 2)
		return NONE;
	const struct tok *t = ct(lx, last);
	if (word_in(lx->text + t->start, t->end - t->start, kw))
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
static void drop_param_names(const struct lexed *lx, size_t open, uint8_t *drop,
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

/* Code tokens [a, b) as written, blanks and comments as one space. */
static void spelled(const struct lexed *lx, size_t a, size_t b, struct strbuf *out)
{
	for (size_t ci = a; ci < b; ci++) {
		const struct tok *t = ct(lx, ci);
		if (ci > a && ct(lx, ci - 1)->end != t->start)
			sb_addch(out, ' ');
		sb_add(out, lx->text + t->start, t->end - t->start);
	}
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
 * `z_const` or the kernel's `__rcu` and `__user`.  Keywords, qualifiers
 * and tag names are never left out, so a changed type still differs.
 */
static int equal_but_annotations(const struct lexed *lx, const size_t *keep,
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
		const struct tok *t = ct(lx, keep[i]);
		const char *w = lx->text + t->start;
		size_t len = t->end - t->start;
		int tag_name = i > 0 && ct(lx, keep[i - 1])->kind == TK_IDENT &&
			       (tok_is(lx, ct(lx, keep[i - 1]), "struct") ||
				tok_is(lx, ct(lx, keep[i - 1]), "union") ||
				tok_is(lx, ct(lx, keep[i - 1]), "enum"));
		if (t->kind == TK_IDENT && !tag_name && !word_in(w, len, words) &&
		    !word_in(w, len, qualifiers) && !has_part(model, w, len)) {
			dropped++;
			continue;
		}
		k2[n2++] = keep[i];
	}
	canon_tokens(lx, k2, n2, &src);
	int eq = dropped && canon_equal(src.buf, model);
	sb_release(&src);
	free(k2);
	return eq;
}

/*
 * Check declarator [first, end) of a declaration starting at dfirst whose
 * specifiers end at spec_end, against model member m.
 */
static int check_type(struct ctx *x, size_t dfirst, size_t spec_end,
		      size_t first, size_t end, size_t name,
		      const struct sf_member *m)
{
	struct lexed *lx = &x->lx;
	struct strbuf src = STRBUF_INIT, mod = STRBUF_INIT;
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
	canon_tokens(lx, keep, n, &src);
	canon_model_type(m, &mod);
	if (!canon_equal(src.buf, mod.buf) && !equal_but_annotations(lx, keep, n, mod.buf)) {
		struct strbuf said = STRBUF_INIT;
		spelled(lx, dfirst, spec_end, &said);
		sb_addch(&said, ' ');
		spelled(lx, first, end, &said);
		rc = sf_error(x->err, "%s: struct %s: member '%s' (line %u) is declared "
			      "'%s' but the build's DWARF has '%s%s': the source "
			      "changed since the build", x->path, x->tname, m->name,
			      ct_line(lx, name), said.buf, m->type_name,
			      m->type_suffix ? m->type_suffix : "");
		sb_release(&said);
	}
	free(keep);
	free(drop);
	sb_release(&src);
	sb_release(&mod);
	return rc;
}

static int check_bitfield(struct ctx *x, size_t first, size_t end, size_t name,
			  const struct sf_member *m)
{
	struct lexed *lx = &x->lx;
	size_t colon = bitfield_colon(lx, first, end);

	if ((colon != NONE) != sf_member_is_bitfield(m))
		return sf_error(x->err, "%s: struct %s: member '%s' (line %u) is %sa "
				"bit-field in the source but %sin the build's DWARF: "
				"the source changed since the build", x->path, x->tname,
				m->name, ct_line(lx, name), colon != NONE ? "" : "not ",
				colon != NONE ? "not " : "");
	if (colon != NONE && colon + 2 == end && ct(lx, colon + 1)->kind == TK_NUM) {
		char num[32];
		unsigned long w = strtoul(ct_text(lx, colon + 1, num, sizeof(num)), NULL, 0);
		if (w != m->bit_size)
			return sf_error(x->err, "%s: struct %s: bit-field '%s' (line %u) "
					"is %lu bits in the source but %u in the build's "
					"DWARF: the source changed since the build", x->path,
					x->tname, m->name, ct_line(lx, name), w, m->bit_size);
	}
	return 0;
}

static void add_dtor(struct parse *p, size_t first, size_t last, size_t name,
		     uint32_t member)
{
	SF_GROW(p->dtors, p->ndtors, p->dtor_cap);
	p->dtors[p->ndtors++] = (struct dtor){ first, last, name, member,
					       (uint32_t)p->ndecls };
}

static int match_body(struct ctx *x, struct parse *p, size_t open, size_t close,
		      const struct sf_type *model, int record);

/* Model member mi has no declaration in the source. */
static int mismatch_missing(struct ctx *x, const struct sf_type *model,
			    uint32_t mi)
{
	return sf_error(x->err, "%s: struct %s: member '%s' of the build's DWARF "
			"is not in the source (the source changed since the build, "
			"or the member comes from a macro)", x->path, x->tname,
			model->members[mi].name[0] ? model->members[mi].name :
			"(anonymous)");
}

/*
 * Whether declarator chunk [a, b) is an unnamed bit-field (`unsigned : 4`,
 * `, : 0`): a `:` with no name before it.  In the first chunk the words
 * before the `:` are then all type: one word, or ending in a C base type.
 */
static int unnamed_bitfield(const struct lexed *lx, size_t a, size_t b, int first)
{
	static const char *const base[] = {
		"int", "char", "short", "long", "signed", "unsigned", "_Bool", "bool",
		NULL
	};
	size_t colon = bitfield_colon(lx, a, b), words = 0, last = NONE;

	if (colon == NONE)
		return 0;
	for (size_t ci = a; ci < colon; ci++)
		if (!lx->flags[ci] && ct_ident(lx, ci) && !is_qualifier(lx, ci)) {
			words++;
			last = ci;
		}
	if (!first || words == 0)
		return words == 0;
	const struct tok *t = ct(lx, last);
	return words == 1 || word_in(lx->text + t->start, t->end - t->start, base);
}

/*
 * The body of a nested struct/union member (its `{` at open_body) against
 * its own model; then the declaration's bracket analysis, which the nested
 * walk overwrote, is redone.
 */
static int check_nested(struct ctx *x, struct parse *p, size_t first,
			size_t semi, size_t open_body, const struct sf_member *m)
{
	if (!m->nested)
		return 0;
	assert(ct_punct(&x->lx, open_body, '{'));
	if (match_body(x, p, open_body, x->lx.match[open_body], m->nested, 0) < 0)
		return -1;
	analyze_brackets(&x->lx, first, semi);
	return 0;
}

/*
 * One declaration [first, semi) against the model from member *mi on.
 * When `record`, fills p->decls/p->dtors.
 */
static int match_decl(struct ctx *x, struct parse *p, size_t first, size_t semi,
		      const struct sf_type *model, uint32_t *mi, int record)
{
	struct lexed *lx = &x->lx;
	struct decl d = { first, semi, first, (uint32_t)p->ndtors, 0,
			  ct_line(lx, first), ct_line(lx, semi), 0, 0, 0 };
	char buf[128];

	if (analyze_brackets(lx, first, semi) < 0)
		return sf_error(x->err, "%s: struct %s: unbalanced brackets in the "
				"declaration on line %u", x->path, x->tname,
				ct_line(lx, first));
	if (ct_is(lx, first, "_Static_assert") || ct_is(lx, first, "static_assert")) {
		d.is_assert = 1;
		goto done;
	}
	if (looks_like_macro(lx, first, semi))
		return macro_error(x, first);
	/* A nested body: the specifiers run at least to its `}`. */
	size_t after_body = first, open_body = NONE;
	for (size_t ci = first; ci < semi; ci++)
		if (ct_punct(lx, ci, '{')) {
			d.has_body = 1;
			open_body = ci;
			after_body = lx->match[ci] + 1;
			break;
		}
	size_t chunk = after_body;   /* where the first declarator may start */
	size_t cstart = first;
	int ndecl = 0;
	for (size_t ci = chunk; ci <= semi; ci++) {
		if (ci < semi && !(ct_punct(lx, ci, ',') && !lx->flags[ci]))
			continue;
		if (*mi >= model->nmembers) {
			size_t extra = last_plain_ident(lx, chunk, ci);
			return sf_error(x->err, "%s: struct %s: '%s' (line %u) is not a "
					"member in the build's DWARF: the source changed "
					"since the build", x->path, x->tname,
					extra != NONE ? ct_text(lx, extra, buf, sizeof(buf)) : "?",
					ct_line(lx, cstart));
		}
		const struct sf_member *m = &model->members[*mi];
		if (!m->name[0]) {
			/* anonymous struct/union member: a body, no declarator */
			if (!d.has_body || ndecl || last_plain_ident(lx, after_body, semi) != NONE)
				return mismatch_missing(x, model, *mi);
			d.spec_end = semi;   /* the whole declaration is its text */
			if (record)
				add_dtor(p, first, semi - 1, NONE, *mi);
			if (check_nested(x, p, first, semi, open_body, m) < 0)
				return -1;
			(*mi)++;
			ndecl++;
			break;
		}
		size_t name = find_name(lx, chunk, ci, m->name);
		if (name == NONE && unnamed_bitfield(lx, chunk, ci, ndecl == 0))
			return sf_error(x->err, "%s: struct %s: unnamed bit-field on line %u; "
					"structfit does not rewrite structs with those (the "
					"DWARF does not show them)", x->path, x->tname,
					ct_line(lx, chunk));
		if (name == NONE) {
			size_t mac = find_macro_call(lx, cstart, ci);
			if (mac != NONE)
				return macro_error(x, mac);
			size_t got = last_plain_ident(lx, chunk, ci);
			if (got == NONE)
				return mismatch_missing(x, model, *mi);
			return sf_error(x->err, "%s: struct %s: line %u declares '%s' where "
					"the build's DWARF has '%s': the source changed "
					"since the build", x->path, x->tname,
					ct_line(lx, got), ct_text(lx, got, buf, sizeof(buf)),
					m->name);
		}
		size_t dstart = ndecl ? chunk : declarator_start(lx, chunk, name);
		if (!ndecl) {
			d.spec_end = dstart;
			if (dstart == first)
				return macro_error(x, first);
		}
		if (check_bitfield(x, dstart, ci, name, m) < 0)
			return -1;
		if (!d.has_body &&
		    check_type(x, first, d.spec_end, dstart, ci, name, m) < 0) {
			size_t mac = find_macro_call(lx, first, ci);
			if (mac != NONE)
				return macro_error(x, mac);
			return -1;
		}
		if (record)
			add_dtor(p, dstart, ci - 1, name, *mi);
		if (d.has_body && check_nested(x, p, first, semi, open_body, m) < 0)
			return -1;
		(*mi)++;
		ndecl++;
		chunk = ci + 1;
		cstart = ci + 1;
	}
done:
	if (record) {
		d.nd = (uint32_t)(p->ndtors - d.d0);
		if (d.is_assert)
			d.spec_end = semi;
		SF_GROW(p->decls, p->ndecls, p->decl_cap);
		p->decls[p->ndecls++] = d;
	}
	return 0;
}

/*
 * Match the declarations between code tokens open and close (a `{` and its
 * `}`) against model's members.  With record, the top level: decls and
 * dtors are kept in p.  A NULL model is a no-op.
 */
static int match_body(struct ctx *x, struct parse *p, size_t open, size_t close,
		      const struct sf_type *model, int record)
{
	struct lexed *lx = &x->lx;
	uint32_t mi = 0;
	size_t first = open + 1;
	int depth = 0;

	if (!model)
		return 0;
	for (size_t ci = open + 1; ci < close; ci++) {
		if (ct_punct(lx, ci, '(') || ct_punct(lx, ci, '[') || ct_punct(lx, ci, '{'))
			depth++;
		else if (ct_punct(lx, ci, ')') || ct_punct(lx, ci, ']') ||
			 ct_punct(lx, ci, '}'))
			depth--;
		if (depth || !ct_punct(lx, ci, ';'))
			continue;
		if (ci == first) {   /* a stray `;` */
			first = ci + 1;
			continue;
		}
		if (match_decl(x, p, first, ci, model, &mi, record) < 0)
			return -1;
		first = ci + 1;
	}
	if (first < close) {
		analyze_brackets(lx, first, close);
		if (ct_ident(lx, first))
			return macro_error(x, first);
		return sf_error(x->err, "%s: struct %s: line %u holds something that "
				"is not a declaration", x->path, x->tname,
				ct_line(lx, first));
	}
	if (mi < model->nmembers)
		return mismatch_missing(x, model, mi);
	return 0;
}

/* --------------------------------------------------------- line units */

/* Extend each declaration to the comments that follow it on its `;` line. */
static void find_trailing_comments(const struct lexed *lx, struct parse *p)
{
	for (size_t i = 0; i < p->ndecls; i++) {
		struct decl *d = &p->decls[i];
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
static uint8_t *classify_lines(const struct lexed *lx, const struct parse *p)
{
	uint8_t *lk = sf_xcalloc(lx->nlines + 2, 1);
	for (size_t i = lx->code[p->open_ci] + 1; i < lx->code[p->close_ci]; i++) {
		const struct tok *t = &lx->tok[i];
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

static void build_units(const struct lexed *lx, struct parse *p)
{
	uint8_t *lk = classify_lines(lx, p);
	uint32_t open_line = ct_line(lx, p->open_ci);
	uint32_t prev_end = open_line;   /* last line claimed so far */
	uint32_t m = 0;

	for (size_t i = 0; i < p->ndecls; i++) {
		struct decl *d = &p->decls[i];
		if (p->nunits && d->line0 <= p->units[p->nunits - 1].l1) {
			struct unit *u = &p->units[p->nunits - 1];
			u->ndecl++;
			u->nm += d->nd;
			u->has_assert |= d->is_assert;
			if (d->line1 > u->l1)
				u->l1 = d->line1;
		} else {
			uint32_t l0 = d->line0;
			while (l0 - 1 > prev_end && lk[l0 - 1] == 1)
				l0--;
			SF_GROW(p->units, p->nunits, p->unit_cap);
			p->units[p->nunits++] = (struct unit){
				l0, d->line0, d->line1, (uint32_t)i, 1, m, d->nd,
				d->is_assert };
		}
		m += d->nd;
		prev_end = p->units[p->nunits - 1].l1;
	}
	free(lk);
}

/* Pointers and bools narrow to unsigned integers, whatever their flags. */
static int narrow_signed(const struct sf_member *m)
{
	return m->tclass != SF_T_POINTER && m->tclass != SF_T_BOOL &&
	       (m->flags & SF_MF_SIGNED);
}

/* ---------------------------------------------------------- emitting */

struct emit {
	struct ctx *x;
	const struct parse *p;
	const struct sf_type *t;
	const struct sf_srcpatch_plan *plan;
	const uint32_t *narrow_to;   /* per member: new bytes, 0 = unchanged */
	const uint8_t *kept;         /* per member: stays in place (not moved) */
	const char *eol;
	int have_stdint;
	struct strbuf *out;
	uint32_t split;
	int last_blank;              /* the last lines emitted were a blank block */
};

static void emit_lines(struct emit *e, uint32_t l0, uint32_t l1)
{
	const struct lexed *lx = &e->x->lx;
	assert(l0 <= l1 && l1 <= lx->nlines);
	sb_add(e->out, lx->text + lx->line_start[l0],
	       lx->line_start[l1 + 1] - lx->line_start[l0]);
}

static void emit_range(struct emit *e, size_t from, size_t to)
{
	sb_add(e->out, e->x->lx.text + from, to - from);
}

/* Visual column of text offset o on its line (tabs every 8). */
static size_t visual_col(const struct lexed *lx, size_t o)
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
	const struct lexed *lx = &e->x->lx;
	for (size_t i = from; i < to; i++) {
		const struct tok *t = &lx->tok[i];
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
	const struct lexed *lx = &e->x->lx;
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

static void decl_comments(const struct lexed *lx, const struct decl *d,
			  const struct dtor *d0, size_t lower, struct dcomments *c)
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
static void dtor_trailing(const struct lexed *lx, const struct parse *p,
			  const struct decl *d, uint32_t k, size_t *from, size_t *to)
{
	const struct dtor *dt = &p->dtors[d->d0 + k];
	*from = lx->code[dt->last] + 1;
	*to = k + 1 < d->nd ? lx->code[p->dtors[d->d0 + k + 1].first] : d->post_end;
}

/* Whether a declaration's only comments are after its `;`, all on one line. */
static int shares_trailing(const struct lexed *lx, const struct decl *d)
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
	const struct lexed *lx = &e->x->lx;
	emit_range(e, ct(lx, a)->start, ct(lx, b)->end);
}

static void emit_range_comment(struct emit *e, const struct sf_member *m,
			       unsigned bytes)
{
	char range[64];
	struct strbuf was = STRBUF_INIT;

	sf_srcpatch_range(bytes, narrow_signed(m), range, sizeof(range));
	sb_addf(&was, "%s%s", m->type_name, m->type_suffix ? m->type_suffix : "");
	/* a type spelling never holds a comment end, but be sure */
	for (char *s = strstr(was.buf, "*/"); s; s = strstr(s, "*/"))
		s[1] = ' ';
	sb_addf(e->out, " /* %s%s (was %s): check that every value fits */",
		m->tclass == SF_T_POINTER ? "index " : "", range, was.buf);
	sb_release(&was);
}

/* A narrowed member: qualifiers, attributes, new type, name. */
static void emit_narrowed(struct emit *e, const struct decl *d,
			  const struct dtor *dt, const struct sf_member *m,
			  unsigned bytes)
{
	struct lexed *lx = &e->x->lx;
	const char *ty = sf_srcpatch_narrow_type(bytes, narrow_signed(m), e->have_stdint);

	analyze_brackets(lx, d->first, d->semi);
	/* attributes of the specifiers, then their qualifiers (not for a
	 * pointer: those qualify what it points to) */
	for (size_t ci = d->first; ci < d->spec_end; ci++) {
		if (ct_ident(lx, ci) && ci + 1 < d->spec_end && lx->pkind[ci + 1] == PK_CALL) {
			emit_code_span(e, ci, lx->match[ci + 1]);
			sb_addch(e->out, ' ');
			ci = lx->match[ci + 1];
		} else if (m->tclass != SF_T_POINTER && !lx->flags[ci] &&
			   is_qualifier(lx, ci)) {
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
			if (is_qualifier(lx, ci)) {
				emit_code_span(e, ci, ci);
				sb_addch(e->out, ' ');
			}
	}
	sb_addf(e->out, "%s ", ty);
	emit_code_span(e, dt->name, dt->name);
	/* attributes after the name */
	for (size_t ci = dt->name + 1; ci <= dt->last; ci++)
		if (ct_ident(lx, ci) && ci + 1 <= dt->last && lx->pkind[ci + 1] == PK_CALL) {
			sb_addch(e->out, ' ');
			emit_code_span(e, ci, lx->match[ci + 1]);
			ci = lx->match[ci + 1];
		}
	sb_addch(e->out, ';');
	emit_range_comment(e, m, bytes);
}

/* Comment tokens strictly inside code span [a, b]: for narrowed members. */
static void emit_inner_comments(struct emit *e, size_t a, size_t b, int *first)
{
	const struct lexed *lx = &e->x->lx;
	if (a > b)
		return;
	emit_comments(e, lx->code[a] + 1, lx->code[b], first);
}

/* The unit holding member m, or NULL. */
static const struct unit *unit_of(const struct parse *p, uint32_t m)
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
static uint32_t lead_owner(const struct emit *e, const struct unit *u)
{
	for (uint32_t i = 0; i < u->nm; i++)
		if (e->kept[u->m0 + i])
			return u->m0 + i;
	return u->m0;
}

/* One member on a line of its own. */
static int emit_piece(struct emit *e, uint32_t member)
{
	const struct lexed *lx = &e->x->lx;
	const struct parse *p = e->p;
	const struct dtor *dt = &p->dtors[p->dtor_of[member]];
	const struct decl *d = &p->decls[dt->decl];
	const struct unit *u = unit_of(p, member);
	uint32_t k = (uint32_t)(p->dtor_of[member] - d->d0);
	struct dcomments dc;
	size_t tf, tt;
	int first = 1;

	assert(u);
	if (u->has_assert)
		return sf_error(e->x->err, "%s: struct %s: line %u mixes _Static_assert "
				"with members that must move", e->x->path, e->x->tname,
				u->code0);
	/* a comment that runs into the first code line cannot be split off */
	size_t ft = lx->code[d->first];
	for (size_t i = lx->code[p->open_ci]; i < ft; i++)
		if (lx->tok[i].kind == TK_COMMENT && lx->tok[i].line < d->line0 &&
		    lx->tok[i].end_line == d->line0 && dt->decl == u->decl0)
			return sf_error(e->x->err, "%s: struct %s: a comment ends on line %u "
					"before a member that must move; put it on lines "
					"of its own", e->x->path, e->x->tname, d->line0);
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
		const struct dtor *d0 = &p->dtors[d->d0];
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

static size_t free_blocks(const struct lexed *lx, const struct parse *p,
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
static int unit_intact(const struct emit *e, const struct unit *u, uint32_t pos)
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
static int blank_lines(const struct lexed *lx, uint32_t l0, uint32_t l1)
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
	const struct lexed *lx = &e->x->lx;
	for (size_t i = 0; i < nfb; i++) {
		if (done[i] || anchor[i] != anchor_member)
			continue;
		done[i] = 1;
		int blank = blank_lines(lx, fb[i].l0, fb[i].l1);
		if (blank && e->last_blank)
			continue;
		emit_lines(e, fb[i].l0, fb[i].l1);
		e->last_blank = blank;
	}
}

static int emit_body(struct emit *e)
{
	const struct lexed *lx = &e->x->lx;
	const struct parse *p = e->p;
	struct free_block *fb;
	size_t nfb = free_blocks(lx, p, &fb);
	uint32_t *anchor = sf_xcalloc(nfb + 1, sizeof(uint32_t));
	uint8_t *done = sf_xcalloc(nfb + 1, 1);
	int rc = 0;

	for (size_t i = 0; i < nfb; i++)
		anchor[i] = free_anchor(e, &fb[i]);
	for (uint32_t pos = 0; pos < e->plan->norder && rc == 0;) {
		uint32_t m = e->plan->order[pos];
		const struct unit *u = unit_of(p, m);
		assert(u);
		if (m == u->m0 && unit_intact(e, u, pos)) {
			for (uint32_t k = 0; k < u->nm; k++)
				emit_free_before(e, fb, anchor, done, nfb, u->m0 + k);
			emit_lines(e, u->l0, u->l1);
			e->last_blank = 0;
			pos += u->nm;
			continue;
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

static int check_narrowable(struct ctx *x, const struct sf_member *m,
			    unsigned bytes)
{
	const char *why = NULL;

	if (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8)
		why = "the new width must be 1, 2, 4 or 8 bytes";
	else if (sf_member_is_bitfield(m))
		why = "it is a bit-field";
	else if (m->tclass != SF_T_INT && m->tclass != SF_T_ENUM &&
		 m->tclass != SF_T_BOOL && m->tclass != SF_T_POINTER)
		why = "only integers, enums, bools and pointers can be narrowed";
	else if (m->type_suffix && m->type_suffix[0] && m->tclass != SF_T_POINTER)
		why = "it is an array";
	else if (bytes >= m->size)
		why = "the new width is not smaller";
	else if (m->flags & SF_MF_ALIGNED)
		why = "it has an explicit alignment";
	if (why)
		return sf_error(x->err, "%s: struct %s: cannot narrow '%s' to %u "
				"bytes: %s", x->path, x->tname, m->name, bytes, why);
	return 0;
}

/*
 * Bit-fields that share a storage unit must stay adjacent and in order:
 * the compiler packs them by declaration order.
 */
static int check_bitfield_runs(struct ctx *x, const struct sf_type *t,
			       const uint32_t *pos_of)
{
	for (uint32_t i = 0; i + 1 < t->nmembers; i++) {
		const struct sf_member *a = &t->members[i], *b = &t->members[i + 1];
		if (!sf_member_is_bitfield(a) || !sf_member_is_bitfield(b))
			continue;
		int shares = b->offset < a->offset + a->size &&
			     a->offset < b->offset + b->size;
		if (shares && pos_of[i + 1] != pos_of[i] + 1)
			return sf_error(x->err, "%s: struct %s: the new order separates "
					"bit-fields '%s' and '%s' that share a storage "
					"unit", x->path, x->tname, a->name, b->name);
	}
	return 0;
}

static int check_plan(struct ctx *x, const struct sf_type *t,
		      const struct sf_srcpatch_plan *plan, uint32_t *narrow_to)
{
	uint32_t *pos_of;
	int rc = 0;

	if (plan->norder != t->nmembers)
		return sf_error(x->err, "%s: struct %s: the new order has %u members, "
				"the struct %u", x->path, x->tname, plan->norder,
				t->nmembers);
	pos_of = sf_xmalloc((t->nmembers + 1) * sizeof(uint32_t));
	for (uint32_t i = 0; i < t->nmembers; i++)
		pos_of[i] = UINT32_MAX;
	for (uint32_t i = 0; i < plan->norder && rc == 0; i++) {
		uint32_t m = plan->order[i];
		if (m >= t->nmembers || pos_of[m] != UINT32_MAX)
			rc = sf_error(x->err, "%s: struct %s: the new order is not a "
				      "permutation of the members", x->path, x->tname);
		else
			pos_of[m] = i;
	}
	for (size_t i = 0; i < plan->nnarrow && rc == 0; i++) {
		const struct sf_srcpatch_narrow *n = &plan->narrow[i];
		if (n->member >= t->nmembers)
			rc = sf_error(x->err, "%s: struct %s: narrowing of member #%u, "
				      "which does not exist", x->path, x->tname, n->member);
		else if (check_narrowable(x, &t->members[n->member], n->bytes) == 0)
			narrow_to[n->member] = n->bytes;
		else
			rc = -1;
	}
	if (rc == 0)
		rc = check_bitfield_runs(x, t, pos_of);
	free(pos_of);
	return rc;
}

static int check_model(struct ctx *x, const struct sf_type *t)
{
	if (!t->name || !t->name[0])
		return sf_error(x->err, "%s: an anonymous struct cannot be found in "
				"the source", x->path);
	if (t->kind != SF_KIND_STRUCT || (t->flags & SF_TF_CXX))
		return sf_error(x->err, "%s: %s %s: patch rewrites C structs only",
				x->path, sf_type_kind_name(t), t->name);
	for (uint32_t i = 0; i < t->nmembers; i++)
		if (t->members[i].flags & (SF_MF_BASE | SF_MF_VIRTUAL_BASE | SF_MF_VPTR))
			return sf_error(x->err, "%s: struct %s has C++ bases; patch "
					"rewrites C structs only", x->path, t->name);
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
static int includes_stdint(const struct lexed *lx, size_t before)
{
	size_t end = lx->code[before];
	for (size_t i = 0; i < end; i++) {
		const struct tok *t = &lx->tok[i];
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
		    strstr(line, "\"stdint.h\""))
			return 1;
	}
	return 0;
}

static void parse_free(struct parse *p)
{
	free(p->decls);
	free(p->dtors);
	free(p->dtor_of);
	free(p->units);
	memset(p, 0, sizeof(*p));
}

/* Find, check and analyze t's definition in x's text. */
static int parse_struct(struct ctx *x, const struct sf_type *t, struct parse *p)
{
	memset(p, 0, sizeof(*p));
	p->t = t;
	if (find_definition(x, t, p) < 0 || check_body_shape(x, p) < 0 ||
	    match_body(x, p, p->open_ci, p->close_ci, t, 1) < 0)
		return -1;
	assert(p->ndtors == t->nmembers);
	p->dtor_of = sf_xmalloc((t->nmembers + 1) * sizeof(uint32_t));
	for (size_t i = 0; i < p->ndtors; i++)
		p->dtor_of[p->dtors[i].member] = (uint32_t)i;
	find_trailing_comments(&x->lx, p);
	build_units(&x->lx, p);
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
static int verify_result(struct ctx *x, const struct strbuf *out,
			 const struct sf_type *t,
			 const struct sf_srcpatch_plan *plan,
			 const uint32_t *narrow_to, int have_stdint)
{
	struct sf_member *members;
	struct sf_type e = expected_model(t, plan, narrow_to, have_stdint, &members);
	struct sf_err err2 = { "" };
	struct ctx y = { x->path, x->tname, { 0 }, &err2 };
	struct parse p2;

	lex(&y.lx, out->buf, out->len);
	int rc = parse_struct(&y, &e, &p2);
	if (rc < 0)
		rc = sf_error(x->err, "%s: struct %s: internal error: the rewritten "
			      "struct does not read back (%s); nothing written",
			      x->path, x->tname, err2.msg);
	parse_free(&p2);
	lex_free(&y.lx);
	free(members);
	return rc;
}

static const char *detect_eol(const struct lexed *lx, uint32_t line)
{
	size_t e = lx->line_start[line + 1];
	return e >= 2 && lx->text[e - 1] == '\n' && lx->text[e - 2] == '\r' ?
	       "\r\n" : "\n";
}

int sf_srcpatch_make(const char *path, const char *text, size_t len,
		     const struct sf_type *t,
		     const struct sf_srcpatch_plan *plan, struct strbuf *out,
		     struct sf_srcpatch_info *info, struct sf_err *err)
{
	struct ctx x = { path, t->name, { 0 }, err };
	struct parse p;
	struct strbuf res = STRBUF_INIT;
	uint32_t *narrow_to;
	int rc;

	if (check_model(&x, t) < 0)
		return -1;
	narrow_to = sf_xcalloc(t->nmembers + 1, sizeof(uint32_t));
	if (check_plan(&x, t, plan, narrow_to) < 0) {
		free(narrow_to);
		return -1;
	}
	lex(&x.lx, text, len);
	rc = parse_struct(&x, t, &p);
	if (rc == 0) {
		uint32_t open_line = ct_line(&x.lx, p.open_ci);
		uint32_t close_line = ct_line(&x.lx, p.close_ci);
		uint8_t *kept = kept_members(plan, t->nmembers);
		struct emit e = { &x, &p, t, plan, narrow_to, kept,
				  detect_eol(&x.lx, open_line),
				  includes_stdint(&x.lx, p.name_ci), &res, 0, 0 };

		emit_range(&e, 0, x.lx.line_start[open_line + 1]);
		rc = emit_body(&e);
		if (rc == 0) {
			emit_range(&e, x.lx.line_start[close_line], len);
			rc = verify_result(&x, &res, t, plan, narrow_to, e.have_stdint);
		}
		if (rc == 0 && info) {
			info->open_line = open_line;
			info->close_line = close_line;
			info->found_line = ct_line(&x.lx, p.name_ci);
			info->uses_stdint = e.have_stdint;
			info->split_decls = e.split;
		}
		free(kept);
	}
	if (rc == 0)
		sb_add(out, res.buf, res.len);
	sb_release(&res);
	parse_free(&p);
	lex_free(&x.lx);
	free(narrow_to);
	return rc;
}
