/*
 * clex.h - a C lexer for rewriting source text: tokens with their byte
 * ranges and lines, never a preprocessed view.
 *
 * sf_clex() lexes a whole file once into tok[]: identifiers, numbers,
 * strings, punctuators (one character each: only ; , ( ) [ ] { } : *
 * matter to the callers), comments and whole preprocessor lines (splices
 * included).  code[] lists the indexes of the tokens that are neither
 * comments nor preprocessor lines; syntax is read over code[] (a "code
 * index" ci is an index into code[]), and comments are found between two
 * code tokens.  The lexer never fails: an unterminated literal ends at the
 * end of its line, an unterminated comment at the end of the file.
 *
 *   struct sf_lexed
 *   +-------------+   tok[ntok]         every token, in text order
 *   | text, len   |   code[ncode]  ---> indexes into tok[]
 *   | line_start  |   line_start[l]     offset of line l (1-based), with a
 *   | flags/pkind |                     sentinel at nlines + 1
 *   | match       |   per code token: bracket analysis of the declaration
 *   +-------------+   last given to sf_clex_brackets()
 *
 * Bracket analysis: a `(` gets a kind from its neighbours, because a
 * declarator's name must be told apart from every other identifier:
 *
 *     int (*fn)(int a) __attribute__((aligned(8)))
 *         ^GROUP ^PARAMS ^CALL (attribute or macro call)
 *
 * A `(` followed by `*` groups a declarator; after `)` or `]` it opens a
 * parameter list; after an identifier it is a call (an attribute, or a
 * macro).  Every token then carries the FL_* flags of what encloses it.
 */
#ifndef SF_CLEX_H
#define SF_CLEX_H

#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "lib/strbuf.h"

#define SF_CLEX_NONE ((size_t)-1)

enum tok_kind {
	TK_IDENT = 0,
	TK_NUM,
	TK_STR,
	TK_PUNCT,
	TK_COMMENT,
	TK_PP,
};

struct sf_tok {
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

struct sf_lexed {
	const char *text;
	size_t len;
	struct sf_tok *tok;
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

/* Lex text[0..len) into lx (which need not be initialized). */
void sf_clex(struct sf_lexed *lx, const char *text, size_t len);
void sf_clex_free(struct sf_lexed *lx);

/* ---- code tokens: ci is an index into lx->code[] ---- */

static inline const struct sf_tok *ct(const struct sf_lexed *lx, size_t ci)
{
	assert(ci < lx->ncode);
	return &lx->tok[lx->code[ci]];
}

static inline int tok_is(const struct sf_lexed *lx, const struct sf_tok *t, const char *s)
{
	size_t n = strlen(s);
	return t->end - t->start == n && !memcmp(lx->text + t->start, s, n);
}

static inline int ct_is(const struct sf_lexed *lx, size_t ci, const char *s)
{
	return ci < lx->ncode && tok_is(lx, ct(lx, ci), s);
}

static inline int ct_punct(const struct sf_lexed *lx, size_t ci, char p)
{
	if (ci >= lx->ncode)
		return 0;
	const struct sf_tok *t = ct(lx, ci);
	return t->kind == TK_PUNCT && lx->text[t->start] == p;
}

static inline int ct_ident(const struct sf_lexed *lx, size_t ci)
{
	return ci < lx->ncode && ct(lx, ci)->kind == TK_IDENT;
}

/* "line N" of a code token, for messages. */
static inline uint32_t ct_line(const struct sf_lexed *lx, size_t ci)
{
	return ct(lx, ci)->line;
}

/* Text of code token ci as a NUL-terminated string in buf (cut to fit). */
const char *sf_clex_text(const struct sf_lexed *lx, size_t ci, char *buf,
			 size_t bufsz);

/* Code tokens [a, b) as written, blanks and comments as one space. */
void sf_clex_spelled(const struct sf_lexed *lx, size_t a, size_t b,
		     struct strbuf *out);

/* ---- words of C ---- */

/* Whether w (n bytes) is one of the NULL-terminated list. */
int sf_clex_word_in(const char *w, size_t n, const char *const *list);

/* const, volatile, restrict and their GNU spellings; NULL-terminated. */
extern const char *const sf_clex_qualifiers[];

int sf_clex_is_qualifier(const struct sf_lexed *lx, size_t ci);

/* Identifiers whose ( ... ) is an attribute, not a macro making members. */
int sf_clex_is_attribute(const char *w, size_t n);

/* What preprocessor token t is: a conditional's part, or another directive. */
enum sf_pp_kind {
	SF_PP_OTHER = 0,         /* #define, #pragma, #include, ... */
	SF_PP_IF,                /* #if, #ifdef, #ifndef */
	SF_PP_ELIF,              /* #elif, #elifdef, #elifndef */
	SF_PP_ELSE,
	SF_PP_ENDIF,
};
enum sf_pp_kind sf_clex_directive(const struct sf_lexed *lx, const struct sf_tok *t);

/* ---- brackets ---- */

/*
 * Give every `(` of code tokens [first, end) its kind, every bracket its
 * match, and every token its exclusion flags.  -1 when brackets do not
 * balance.
 */
int sf_clex_brackets(struct sf_lexed *lx, size_t first, size_t end);

/* Code index of the `}` matching the `{` at open, or SF_CLEX_NONE. */
size_t sf_clex_matching_brace(const struct sf_lexed *lx, size_t open);

/*
 * Skip attributes (`__attribute__((...))`, `__packed`, `[[...]]`) from ci; returns
 * the next code index (end when one does not close before end).
 */
size_t sf_clex_skip_attributes(const struct sf_lexed *lx, size_t ci, size_t end);

/* ---- object-like macros ---- */

/*
 * `#define NAME VALUE` lines (not function-like ones), VALUE as written.
 * A name may be defined more than once (under different #if branches):
 * each definition is kept, in the order added.
 */
struct sf_cmacro {
	char *name;
	char *value;
};

struct sf_cmacros {
	struct sf_cmacro *v;
	size_t n, cap;
};

/* Add the object-like macros lx defines. */
void sf_cmacros_add(struct sf_cmacros *ms, const struct sf_lexed *lx);

/* The k-th definition of w (n bytes), else its last one; NULL: none. */
const char *sf_cmacros_find(const struct sf_cmacros *ms, const char *w,
			    size_t n, unsigned k);

void sf_cmacros_release(struct sf_cmacros *ms);

#endif
