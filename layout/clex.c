/*
 * clex.c - the C lexer and bracket analysis of clex.h.
 *
 * One pass over the text; each token records its byte range and the lines
 * of its first and last byte, so the callers can copy source lines and
 * comments verbatim.  A `#` that starts a line (after blanks or comments)
 * begins a preprocessor token that runs to the end of the line, through
 * splices and block comments.  Nothing is ever expanded: the callers decide
 * what a macro means.
 */
#include "clex.h"

#include <ctype.h>
#include <stdlib.h>

#include "lib/xalloc.h"

#define NONE SF_CLEX_NONE

/* ---------------------------------------------------------------- lexing */

static int is_ident_start(unsigned char ch)
{
	return isalpha(ch) || ch == '_' || ch == '$' || ch >= 0x80;
}

static int is_ident_char(unsigned char ch)
{
	return is_ident_start(ch) || isdigit(ch);
}

static void push_tok(struct sf_lexed *lx, uint8_t kind, size_t start, size_t end,
		     uint32_t line, uint32_t end_line)
{
	SF_GROW(lx->tok, lx->ntok, lx->tok_cap);
	lx->tok[lx->ntok++] = (struct sf_tok){ start, end, line, end_line, kind };
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

static void index_lines(struct sf_lexed *lx)
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

void sf_clex(struct sf_lexed *lx, const char *text, size_t len)
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

void sf_clex_free(struct sf_lexed *lx)
{
	free(lx->tok);
	free(lx->code);
	free(lx->line_start);
	free(lx->flags);
	free(lx->pkind);
	free(lx->match);
	memset(lx, 0, sizeof(*lx));
}

/* ------------------------------------------------------- words of C */

int sf_clex_word_in(const char *w, size_t n, const char *const *list)
{
	for (; *list; list++)
		if (strlen(*list) == n && !memcmp(*list, w, n))
			return 1;
	return 0;
}

const char *const sf_clex_qualifiers[] = {
	"const", "volatile", "restrict", "__restrict", "__restrict__",
	"__const", "__volatile__", "__volatile", NULL
};

/* Identifiers whose ( ... ) is an attribute, not a macro making members. */
static const char *const attribute_words[] = {
	"__attribute__", "__attribute", "_Alignas", "alignas", "__declspec",
	"__aligned", "__packed", "__section", "__attribute_used__", NULL
};

int sf_clex_is_qualifier(const struct sf_lexed *lx, size_t ci)
{
	const struct sf_tok *t = ct(lx, ci);
	return t->kind == TK_IDENT &&
	       sf_clex_word_in(lx->text + t->start, t->end - t->start, sf_clex_qualifiers);
}

/* Whether w[0..n) ends with suffix. */
static int ends_with(const char *w, size_t n, const char *suffix)
{
	size_t k = strlen(suffix);
	return n >= k && !memcmp(w + n - k, suffix, k);
}

int sf_clex_is_attribute(const char *w, size_t n)
{
	/* clang's thread-safety annotations of data members, as projects
	 * spell their macros: GUARDED_BY(mu), ABSL_PT_GUARDED_BY(mu),
	 * ACQUIRED_AFTER(a) */
	return sf_clex_word_in(w, n, attribute_words) || ends_with(w, n, "GUARDED_BY") ||
	       ends_with(w, n, "ACQUIRED_AFTER") || ends_with(w, n, "ACQUIRED_BEFORE");
}

/* ------------------------------------------- one declaration's brackets */

/*
 * Give every `(` of code tokens [first, end) its kind, every bracket its
 * match, and every token its exclusion flags.  -1 when brackets do not
 * balance.
 */
int sf_clex_brackets(struct sf_lexed *lx, size_t first, size_t end)
{
	size_t stack[256];
	uint8_t kinds[256];
	size_t depth = 0;
	uint8_t cur = 0;

	for (size_t ci = first; ci < end; ci++) {
		const struct sf_tok *t = ct(lx, ci);
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

/*
 * Skip attributes (`__attribute__((...))`, `__packed`) from ci; returns
 * the next code index.
 */
size_t sf_clex_skip_attributes(const struct sf_lexed *lx, size_t ci, size_t end)
{
	while (ci + 1 < end && (ct_ident(lx, ci) || ct_punct(lx, ci, '['))) {
		size_t open = ci + 1;
		if (ct_punct(lx, ci, '[')) {
			/* [[...]] (C23, C++11); a lone [ is not an attribute */
			if (!ct_punct(lx, ci + 1, '['))
				break;
			open = ci;
		} else {
			const struct sf_tok *t = ct(lx, ci);
			if (!sf_clex_is_attribute(lx->text + t->start, t->end - t->start))
				break;
			if (!ct_punct(lx, ci + 1, '(')) {
				ci++;   /* a bare attribute macro */
				continue;
			}
		}
		char o = lx->text[ct(lx, open)->start], c = o == '[' ? ']' : ')';
		size_t j = open, depth = 0;
		for (; j < end; j++) {
			if (ct_punct(lx, j, o))
				depth++;
			else if (ct_punct(lx, j, c) && --depth == 0)
				break;
		}
		if (j >= end)
			return end;
		ci = j + 1;
	}
	return ci;
}

/* Code index of the `}` matching the `{` at open, or NONE. */
size_t sf_clex_matching_brace(const struct sf_lexed *lx, size_t open)
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

enum sf_pp_kind sf_clex_directive(const struct sf_lexed *lx, const struct sf_tok *t)
{
	static const char *const opens[] = { "if", "ifdef", "ifndef", NULL };
	static const char *const branches[] = {
		"elif", "else", "elifdef", "elifndef", NULL
	};
	size_t i = t->start + 1;
	while (i < t->end && (lx->text[i] == ' ' || lx->text[i] == '\t'))
		i++;
	size_t j = i;
	while (j < t->end && isalpha((unsigned char)lx->text[j]))
		j++;
	if (sf_clex_word_in(lx->text + i, j - i, opens))
		return SF_PP_IF;
	if (sf_clex_word_in(lx->text + i, j - i, branches))
		return j - i == 4 && !memcmp(lx->text + i, "else", 4) ? SF_PP_ELSE : SF_PP_ELIF;
	if (j - i == 5 && !memcmp(lx->text + i, "endif", 5))
		return SF_PP_ENDIF;
	return SF_PP_OTHER;
}

/* Text of code token ci as a NUL-terminated string in buf. */
const char *sf_clex_text(const struct sf_lexed *lx, size_t ci, char *buf,
			   size_t bufsz)
{
	const struct sf_tok *t = ct(lx, ci);
	size_t n = t->end - t->start;
	if (n >= bufsz)
		n = bufsz - 1;
	memcpy(buf, lx->text + t->start, n);
	buf[n] = '\0';
	return buf;
}

/* Code tokens [a, b) as written, blanks and comments as one space. */
void sf_clex_spelled(const struct sf_lexed *lx, size_t a, size_t b, struct strbuf *out)
{
	for (size_t ci = a; ci < b; ci++) {
		const struct sf_tok *t = ct(lx, ci);
		if (ci > a && ct(lx, ci - 1)->end != t->start)
			sb_addch(out, ' ');
		sb_add(out, lx->text + t->start, t->end - t->start);
	}
}

/* ----------------------------------------------------- object-like macros */

/* NAME and VALUE of `#define NAME VALUE` in preprocessor token t, or 0. */
static int object_macro(const struct sf_lexed *lx, const struct sf_tok *t,
			size_t *name, size_t *nlen, size_t *value)
{
	const char *s = lx->text;
	size_t i = t->start + 1, e = t->end;

	while (i < e && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (e - i < 6 || memcmp(s + i, "define", 6))
		return 0;
	i += 6;
	if (i >= e || (s[i] != ' ' && s[i] != '\t'))
		return 0;
	while (i < e && (s[i] == ' ' || s[i] == '\t'))
		i++;
	*name = i;
	while (i < e && is_ident_char((unsigned char)s[i]))
		i++;
	*nlen = i - *name;
	if (!*nlen || (i < e && s[i] == '('))
		return 0;    /* function-like */
	*value = i;
	return 1;
}

void sf_cmacros_add(struct sf_cmacros *ms, const struct sf_lexed *lx)
{
	for (size_t i = 0; i < lx->ntok; i++) {
		const struct sf_tok *t = &lx->tok[i];
		size_t name, nlen, value;
		if (t->kind != TK_PP || !object_macro(lx, t, &name, &nlen, &value))
			continue;
		SF_GROW(ms->v, ms->n, ms->cap);
		ms->v[ms->n].name = sf_xstrndup(lx->text + name, nlen);
		char *v = sf_xstrndup(lx->text + value, t->end - value);
		for (char *p = v; *p; p++)       /* splices: one line */
			if (*p == '\\' && (p[1] == '\n' || p[1] == '\r'))
				*p = ' ';
		ms->v[ms->n++].value = v;
	}
}

const char *sf_cmacros_find(const struct sf_cmacros *ms, const char *w,
			    size_t n, unsigned k)
{
	const char *found = NULL;

	for (size_t i = 0; i < ms->n; i++) {
		if (strlen(ms->v[i].name) != n || memcmp(ms->v[i].name, w, n))
			continue;
		found = ms->v[i].value;
		if (k-- == 0)
			break;
	}
	return found;
}

void sf_cmacros_release(struct sf_cmacros *ms)
{
	for (size_t i = 0; i < ms->n; i++) {
		free(ms->v[i].name);
		free(ms->v[i].value);
	}
	free(ms->v);
	memset(ms, 0, sizeof(*ms));
}
