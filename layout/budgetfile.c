/*
 * budgetfile.c - reading a budget file into rules (the evaluation is
 * budget.c's).
 *
 * A byte feeder and a hand-written lexer, over memory: no file is read
 * here (cmd/check.c reads the file and hands it over in pieces).  The
 * feeder (struct sf_budget_parser) takes the pieces one byte at a time,
 * refuses binary input (a NUL or another control byte) and lines longer
 * than SF_BUDGET_MAX_LINE as soon as it sees them - so a reader that stops
 * at the first refusal pays 64 KiB for a 10 MB line or a 1 GB binary, not
 * 1 GB - and hands each complete line to parse_line().  The lexer (struct
 * lexer) walks one line with a cursor and knows every place an error can
 * be reported with its exact column:
 *
 *   "struct st_table  size <= 40  # comment"
 *    ^selector        ^prop ^op ^number  ^ end of the rule
 *
 * A refusal is data (struct sf_budget_problem: a code, the place, the
 * words and tokens it names); report/check.c makes the sentence.
 */
#include "budget_int.h"

#include <assert.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "classes.h"
#include "lib/checked.h"
#include "lib/xalloc.h"

/* ------------------------------------------------------------ the lexer */

struct lexer {
	const char *s;          /* the line, without its newline; not NUL-terminated */
	size_t len;
	size_t pos;
	uint32_t line;
	struct sf_budget_problem *why;
};

static bool is_blank(int c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

static bool is_word_char(int c)
{
	return isalnum((unsigned char)c) || c == '_';
}

static bool is_op_char(int c)
{
	return c == '<' || c == '>' || c == '=' || c == '!' || c == '~';
}

static void skip_blanks(struct lexer *lx)
{
	while (lx->pos < lx->len && is_blank(lx->s[lx->pos]))
		lx->pos++;
}

/* End of the rule: end of line or a comment. */
static bool at_end(const struct lexer *lx)
{
	return lx->pos >= lx->len || lx->s[lx->pos] == '#';
}

static size_t word_len(const struct lexer *lx, size_t at)
{
	size_t i = at;

	if (i >= lx->len || !(isalpha((unsigned char)lx->s[i]) || lx->s[i] == '_'))
		return 0;
	while (i < lx->len && is_word_char(lx->s[i]))
		i++;
	return i - at;
}

static bool word_is(const struct lexer *lx, size_t at, size_t n, const char *w)
{
	return strlen(w) == n && !memcmp(lx->s + at, w, n);
}

/*
 * Length of a type name at `at`: up to a blank, `+` or `#` outside
 * brackets, so that `ns::C<int, long>` and `(anonymous namespace)::T`
 * are one name.
 */
size_t sf_budget_name_len(const char *s, size_t len, size_t at)
{
	int depth = 0;
	size_t i;

	for (i = at; i < len; i++) {
		char c = s[i];
		if (c == '<' || c == '(' || c == '[' || c == '{')
			depth++;
		else if ((c == '>' || c == ')' || c == ']' || c == '}') && depth > 0)
			depth--;
		else if (depth == 0 && (is_blank(c) || c == '+' || c == '#'))
			break;
	}
	return i - at;
}

/* The token at `at` for a message: up to a blank, at most 24 bytes. */
static void token_at(const struct lexer *lx, size_t at, char *buf, size_t bufsz)
{
	size_t n = 0;

	assert(bufsz > 4);
	while (at + n < lx->len && !is_blank(lx->s[at + n]) && n < 24)
		n++;
	bool more = at + n < lx->len && !is_blank(lx->s[at + n]);
	if (n > bufsz - 4)
		n = bufsz - 4;
	memcpy(buf, lx->s + at, n);
	strcpy(buf + n, more ? "..." : "");
}

/* Refuse the line with `code` at `at` (0-based); the caller adds what
 * the problem names.  Always -1. */
static int refuse(const struct lexer *lx, size_t at, enum sf_bproblem code)
{
	struct sf_budget_problem *why = lx->why;

	memset(why, 0, sizeof(*why));
	why->code = code;
	why->line = lx->line;
	why->col = (uint32_t)(at + 1);
	return -1;
}

/* The same, naming the token at tok_at. */
static int refuse_tok(const struct lexer *lx, size_t at, enum sf_bproblem code,
		      size_t tok_at)
{
	refuse(lx, at, code);
	token_at(lx, tok_at, lx->why->tok, sizeof(lx->why->tok));
	return -1;
}

/* The same, naming the n bytes of the line at from (cut to fit). */
static int refuse_text(const struct lexer *lx, size_t at, enum sf_bproblem code,
		       size_t from, size_t n)
{
	refuse(lx, at, code);
	if (n > sizeof(lx->why->text) - 1)
		n = sizeof(lx->why->text) - 1;
	memcpy(lx->why->text, lx->s + from, n);
	lx->why->text[n] = 0;
	return -1;
}

/* Something that is neither a condition nor the end of the rule. */
static int junk_error(const struct lexer *lx, size_t at)
{
	return refuse_tok(lx, at, SF_BPR_JUNK, at);
}

/* ------------------------------------------------------------ numbers */

static int hex_digit(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* A decimal or 0x number after `what`, ending at a blank, `#` or the end. */
static int parse_number(struct lexer *lx, const char *what, uint64_t *out)
{
	skip_blanks(lx);
	size_t at = lx->pos;

	if (at_end(lx)) {
		refuse(lx, at, SF_BPR_NO_NUMBER);
		lx->why->word = what;
		return -1;
	}
	if (!isdigit((unsigned char)lx->s[at])) {
		refuse_tok(lx, at, SF_BPR_NOT_NUMBER, at);
		lx->why->word = what;
		return -1;
	}
	unsigned base = 10;
	size_t i = at;
	if (lx->s[i] == '0' && i + 2 < lx->len &&
	    (lx->s[i + 1] == 'x' || lx->s[i + 1] == 'X') &&
	    hex_digit(lx->s[i + 2]) >= 0) {
		base = 16;
		i += 2;
	}
	uint64_t v = 0;
	for (; i < lx->len; i++) {
		int d = base == 16 ? hex_digit(lx->s[i]) :
			(isdigit((unsigned char)lx->s[i]) ? lx->s[i] - '0' : -1);
		if (d < 0)
			break;
		if (v > (UINT64_MAX - (uint64_t)d) / base)
			return refuse_tok(lx, at, SF_BPR_NUMBER_TOO_LARGE, at);
		v = v * base + (uint64_t)d;
	}
	if (i < lx->len && !is_blank(lx->s[i]) && lx->s[i] != '#') {
		refuse_text(lx, i, SF_BPR_AFTER_NUMBER, at, i - at);
		token_at(lx, i, lx->why->tok, sizeof(lx->why->tok));
		return -1;
	}
	lx->pos = i;
	*out = v;
	return 0;
}

/* ------------------------------------------------------------ conditions */

static int parse_op(struct lexer *lx, const char *prop, uint8_t *op)
{
	skip_blanks(lx);
	size_t at = lx->pos, n = 0;

	while (at + n < lx->len && is_op_char(lx->s[at + n]))
		n++;
	if (n == 0) {
		if (at_end(lx))
			refuse(lx, at, SF_BPR_NO_OPERATOR);
		else
			refuse_tok(lx, at, SF_BPR_BAD_OPERATOR_AFTER, at);
		lx->why->word = prop;
		return -1;
	}
	for (size_t i = 0; i <= SF_BOP_GT; i++) {
		const char *name = sf_bop_name((enum sf_bop)i);
		if (strlen(name) == n && !memcmp(lx->s + at, name, n)) {
			*op = (uint8_t)i;
			lx->pos = at + n;
			return 0;
		}
	}
	return refuse_text(lx, at, SF_BPR_BAD_OPERATOR, at, n);
}

/* `fits N [in SPEC]`, the word `fits` already read. */
static int parse_fits(struct lexer *lx, struct sf_bcond *c)
{
	struct sf_classes_refusal why;

	c->op = SF_BOP_LE;
	if (parse_number(lx, "fits", &c->limit) < 0)
		return -1;
	size_t save = lx->pos;
	skip_blanks(lx);
	size_t w = word_len(lx, lx->pos);
	if (!word_is(lx, lx->pos, w, "in")) {
		lx->pos = save;
		return 0;
	}
	lx->pos += w;
	skip_blanks(lx);
	size_t at = lx->pos, n = 0;
	while (at + n < lx->len && !is_blank(lx->s[at + n]) && lx->s[at + n] != '#')
		n++;
	if (n == 0)
		return refuse(lx, at, SF_BPR_NO_CLASSES);
	c->spec = sf_xstrndup(lx->s + at, n);
	if (sf_classes_parse(c->spec, &c->classes, &why) < 0) {
		refuse_text(lx, at, SF_BPR_BAD_CLASSES, at, n);
		lx->why->classes = why;
		lx->why->classes.spec = NULL;   /* c->spec goes with the rule */
		return -1;
	}
	lx->pos = at + n;
	return 0;
}

static int parse_condition(struct lexer *lx, struct sf_brule *r, size_t at,
			   int prop, bool old, size_t cap[1])
{
	struct sf_bcond c = { .prop = (uint8_t)prop, .col = (uint32_t)(at + 1),
			      .old_holes = old };

	if (prop == SF_BP_FITS) {
		if (parse_fits(lx, &c) < 0) {
			free(c.spec);
			sf_classes_release(&c.classes);
			return -1;
		}
	} else if (parse_op(lx, old ? "holes" : sf_bprop_name(prop), &c.op) < 0 ||
		   parse_number(lx, sf_bop_name(c.op), &c.limit) < 0) {
		return -1;
	}
	SF_GROW(r->conds, r->nconds, cap[0]);
	r->conds[r->nconds++] = c;
	return 0;
}

/* The property word at `at`; `holes` is hole_bytes's deprecated spelling
 * (*old set). */
static int prop_lookup(const struct lexer *lx, size_t at, size_t n, bool *old)
{
	*old = word_is(lx, at, n, "holes");
	if (*old)
		return SF_BP_HOLES;
	for (int i = 0; i < SF_BP_COUNT; i++)
		if (word_is(lx, at, n, sf_bprop_name((enum sf_bprop)i)))
			return i;
	return -1;
}

static int parse_conditions(struct lexer *lx, struct sf_brule *r)
{
	size_t cap = 0;

	for (;;) {
		skip_blanks(lx);
		if (at_end(lx))
			break;
		size_t at = lx->pos, w = word_len(lx, at);
		if (w == 0)
			return junk_error(lx, at);
		if (word_is(lx, at, w, "optional")) {
			r->optional = true;
			lx->pos += w;
			continue;
		}
		bool old;
		int prop = prop_lookup(lx, at, w, &old);
		if (prop < 0) {
			size_t j = at + w;
			while (j < lx->len && is_blank(lx->s[j]))
				j++;
			if (j < lx->len && is_op_char(lx->s[j]))
				return refuse_text(lx, at, SF_BPR_UNKNOWN_PROPERTY, at, w);
			return junk_error(lx, at);
		}
		lx->pos += w;
		if (parse_condition(lx, r, at, prop, old, &cap) < 0)
			return -1;
	}
	if (r->nconds == 0)
		return refuse(lx, lx->pos, SF_BPR_NO_CONDITION);
	return 0;
}

/* ------------------------------------------------------------ selectors */

static int kind_word(const struct lexer *lx, size_t at, size_t n)
{
	if (word_is(lx, at, n, "struct"))
		return SF_KIND_STRUCT;
	if (word_is(lx, at, n, "union"))
		return SF_KIND_UNION;
	if (word_is(lx, at, n, "class"))
		return SF_KIND_CLASS;
	return -1;
}

/* Where the '@' of NAME@FILE is in the n bytes of s (outside brackets),
 * or n: C and C++ names never hold one. */
static size_t at_sign(const char *s, size_t n)
{
	int depth = 0;

	for (size_t i = 0; i < n; i++) {
		if (s[i] == '<' || s[i] == '(' || s[i] == '[' || s[i] == '{')
			depth++;
		else if ((s[i] == '>' || s[i] == ')' || s[i] == ']' || s[i] == '}') && depth > 0)
			depth--;
		else if (s[i] == '@' && depth == 0)
			return i;
	}
	return n;
}

/* One `[kind] NAME[@FILE]`; a glob is kept in the rule, a name as a term. */
static int parse_term(struct lexer *lx, struct sf_brule *r, size_t *cap)
{
	size_t start = lx->pos, w = word_len(lx, start);
	int kind = w ? kind_word(lx, start, w) : -1;

	if (kind >= 0) {
		size_t after = start + w;
		if (after < lx->len && is_blank(lx->s[after])) {
			lx->pos = after;
			skip_blanks(lx);
		} else if (after >= lx->len || lx->s[after] == '#' ||
			   lx->s[after] == '+') {
			refuse(lx, after, SF_BPR_NO_NAME_AFTER);
			lx->why->word = sf_kind_name(kind);
			return -1;
		} else {
			kind = -1; /* "struct<...>" or similar: a name of its own */
		}
	}
	size_t at = lx->pos;
	if (at_end(lx) || lx->s[at] == '+') {
		refuse(lx, at, kind >= 0 ? SF_BPR_NO_NAME_AFTER : SF_BPR_NO_NAME);
		lx->why->word = kind >= 0 ? sf_kind_name(kind) : NULL;
		return -1;
	}
	size_t whole = sf_budget_name_len(lx->s, lx->len, at);
	assert(whole > 0);
	size_t n = at_sign(lx->s + at, whole);
	char *file = NULL;
	if (n < whole) {
		if (n == 0)
			return refuse(lx, at, SF_BPR_NO_NAME_BEFORE_AT);
		if (n + 1 == whole)
			return refuse(lx, at + whole, SF_BPR_NO_FILE_AFTER_AT);
		file = sf_xstrndup(lx->s + at + n + 1, whole - n - 1);
	}
	if (sf_name_is_glob(lx->s + at, n)) {
		if (r->nterms || r->is_glob) {
			free(file);
			return refuse(lx, at, SF_BPR_PATTERN_IN_SUM);
		}
		r->is_glob = true;
		r->glob_kind = kind;
		r->glob = sf_xstrndup(lx->s + at, n);
		r->glob_file = file;
		r->col = (uint32_t)(start + 1);
	} else {
		if (r->is_glob) {
			free(file);
			return refuse(lx, start, SF_BPR_PATTERN_IN_SUM);
		}
		struct strbuf sb = STRBUF_INIT;
		if (kind >= 0)
			sb_addf(&sb, "%s ", sf_kind_name(kind));
		size_t prefix = sb.len;
		sb_add(&sb, lx->s + at, n);
		SF_GROW(r->terms, r->nterms, *cap);
		struct sf_bterm *t = &r->terms[r->nterms++];
		t->name = sb_detach(&sb);
		t->bare = t->name + prefix;
		t->file = file;
		t->col = (uint32_t)(start + 1);
	}
	lx->pos = at + whole;
	return 0;
}

static int parse_selector(struct lexer *lx, struct sf_brule *r)
{
	size_t cap = 0;

	r->glob_kind = -1;
	r->col = (uint32_t)(lx->pos + 1);
	for (;;) {
		if (parse_term(lx, r, &cap) < 0)
			return -1;
		skip_blanks(lx);
		if (lx->pos >= lx->len || lx->s[lx->pos] != '+')
			break;
		lx->pos++;
		skip_blanks(lx);
	}
	/* "size <= 40" with no type: the last name read was a property. */
	const struct sf_bterm *last = r->nterms ? &r->terms[r->nterms - 1] : NULL;
	bool old;
	if (last && last->bare == last->name &&
	    prop_lookup(lx, last->col - 1, strlen(last->name), &old) >= 0 &&
	    lx->pos < lx->len && is_op_char(lx->s[lx->pos]))
		return refuse_text(lx, last->col - 1, SF_BPR_NO_NAME_BEFORE,
				   last->col - 1, strlen(last->name));
	return 0;
}

/*
 * The rule as written, from..to (where parsing stopped: the end of the
 * line or its '#' comment), blank runs made one space.  Where the parser
 * stopped, not a scan for '#': "holes <= 16  # note" has a '<' that a
 * bracket count would take for a template's.
 */
static char *rule_text(const struct lexer *lx, size_t from, size_t to)
{
	struct strbuf sb = STRBUF_INIT;

	assert(to <= lx->len);
	for (size_t i = from; i < to; i++) {
		if (is_blank(lx->s[i])) {
			if (sb.len && sb.buf[sb.len - 1] != ' ')
				sb_addch(&sb, ' ');
		} else {
			sb_addch(&sb, lx->s[i]);
		}
	}
	while (sb.len && sb.buf[sb.len - 1] == ' ')
		sb_setlen(&sb, sb.len - 1);
	return sb_detach(&sb);
}

static int parse_line(struct sf_budget *b, const char *s, size_t len,
		      uint32_t line, struct sf_budget_problem *why)
{
	struct lexer lx = { s, len, 0, line, why };
	struct sf_brule r = { .line = line, .glob_kind = -1 };

	/* A UTF-8 byte order mark some editors write is not part of a rule. */
	if (line == 1 && len >= 3 && !memcmp(s, "\xef\xbb\xbf", 3))
		lx.pos = 3;
	skip_blanks(&lx);
	if (at_end(&lx))
		return 0;
	size_t from = lx.pos;
	if (parse_selector(&lx, &r) < 0 || parse_conditions(&lx, &r) < 0) {
		sf_brule_release(&r);
		return -1;
	}
	skip_blanks(&lx);
	assert(at_end(&lx));
	r.text = rule_text(&lx, from, lx.pos);
	SF_GROW(b->rules, b->nrules, b->cap);
	b->rules[b->nrules++] = r;
	return 0;
}

/* ------------------------------------------------------------ feeding */

/* Takes bytes, cuts lines, refuses binary input and endless lines. */
struct sf_budget_parser {
	struct sf_budget *b;
	struct strbuf line;
	uint32_t lineno;
	bool failed;            /* a feed said -1: nothing more is taken */
};

static int feed_error(struct sf_budget_parser *p, enum sf_bproblem code, unsigned byte,
		      struct sf_budget_problem *why)
{
	memset(why, 0, sizeof(*why));
	why->code = code;
	why->line = p->lineno;
	why->col = (uint32_t)(p->line.len + 1);
	why->byte = byte;
	return -1;
}

static int feed(struct sf_budget_parser *p, unsigned char c,
		struct sf_budget_problem *why)
{
	if (c == '\n') {
		if (parse_line(p->b, p->line.buf, p->line.len, p->lineno, why) < 0)
			return -1;
		sb_reset(&p->line);
		p->lineno++;
		return 0;
	}
	if (c == 0)
		return feed_error(p, SF_BPR_NUL, c, why);
	if ((c < 0x20 && !is_blank(c)) || c == 0x7f)
		return feed_error(p, SF_BPR_CONTROL, c, why);
	if (p->line.len >= SF_BUDGET_MAX_LINE)
		return feed_error(p, SF_BPR_LONG_LINE, c, why);
	sb_addch(&p->line, c);
	return 0;
}

struct sf_budget_parser *sf_budget_parser_new(const char *path)
{
	struct sf_budget_parser *p = sf_xcalloc(1, sizeof(*p));

	p->b = sf_xcalloc(1, sizeof(*p->b));
	p->b->path = sf_xstrdup(path);
	sb_init(&p->line);
	p->lineno = 1;
	return p;
}

int sf_budget_parser_feed(struct sf_budget_parser *p, const char *buf, size_t len,
			  struct sf_budget_problem *why)
{
	assert(!p->failed);
	for (size_t i = 0; i < len; i++)
		if (feed(p, (unsigned char)buf[i], why) < 0) {
			p->failed = true;
			return -1;
		}
	return 0;
}

void sf_budget_parser_free(struct sf_budget_parser *p)
{
	if (!p)
		return;
	sb_release(&p->line);
	sf_budget_free(p->b);
	free(p);
}

int sf_budget_parser_finish(struct sf_budget_parser *p, struct sf_budget **out,
			    struct sf_budget_problem *why)
{
	int rc = 0;

	assert(!p->failed);
	if (p->line.len)
		rc = parse_line(p->b, p->line.buf, p->line.len, p->lineno, why);
	*out = NULL;
	if (rc == 0) {
		*out = p->b;
		p->b = NULL;
	}
	sf_budget_parser_free(p);
	return rc;
}

int sf_budget_parse(const char *path, const char *buf, size_t len,
		    struct sf_budget **out, struct sf_budget_problem *why)
{
	struct sf_budget_parser *p = sf_budget_parser_new(path);

	if (sf_budget_parser_feed(p, buf, len, why) < 0) {
		sf_budget_parser_free(p);
		*out = NULL;
		return -1;
	}
	return sf_budget_parser_finish(p, out, why);
}
