/*
 * budget.c - the budget-file parser and the evaluation of its rules.
 *
 * Parsing is a byte feeder and a hand-written lexer.  The feeder (struct
 * reader) takes the file one byte at a time, from a FILE or from memory,
 * refuses binary input (a NUL or another control byte) and lines longer
 * than SF_BUDGET_MAX_LINE as soon as it sees them - so a 10 MB line or a
 * 1 GB binary costs 64 KiB, not 1 GB - and hands each complete line to
 * parse_line().  The lexer (struct lexer) walks one line with a cursor and
 * knows every place an error can be reported with its exact column:
 *
 *   "struct st_table  size <= 40  # comment"
 *    ^selector        ^prop ^op ^number  ^ end of the rule
 *
 * Evaluation measures each subject once (sf_layout_compute, then the seven
 * numbers of struct sf_measure) and compares.  Named rules look their types
 * up in the typeset's name table; glob rules share one pass over every
 * type, so N glob rules over T types cost T layouts, not N * T.
 */
#include "budget.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "classes.h"
#include "holes.h"
#include "lib/checked.h"
#include "lib/xalloc.h"

static const char *const prop_names[SF_BP_COUNT] = {
	[SF_BP_SIZE] = "size",       [SF_BP_HOLES] = "holes",
	[SF_BP_PADDING] = "padding", [SF_BP_WASTE] = "waste",
	[SF_BP_MEMBERS] = "members", [SF_BP_CACHELINES] = "cachelines",
	[SF_BP_ALIGN] = "align",     [SF_BP_FITS] = "fits",
	[SF_BP_FORCED] = "forced",
};

static const char *const op_names[] = {
	[SF_BOP_LE] = "<=", [SF_BOP_LT] = "<", [SF_BOP_EQ] = "==",
	[SF_BOP_GE] = ">=", [SF_BOP_GT] = ">",
};

#define PROPS_EXPECTED \
	"size, holes, padding, waste, members, cachelines, align or fits"
#define OPS_EXPECTED "<=, <, ==, >=, >"

const char *sf_bprop_name(enum sf_bprop p)
{
	assert(p < SF_BP_COUNT);
	return prop_names[p];
}

const char *sf_bop_name(enum sf_bop op)
{
	assert(op <= SF_BOP_GT);
	return op_names[op];
}

void sf_bcond_describe(struct strbuf *out, const struct sf_bcond *c)
{
	if (c->prop == SF_BP_FITS) {
		sb_addf(out, "fits %llu", (unsigned long long)c->limit);
		if (c->spec)
			sb_addf(out, " in %s", c->spec);
		return;
	}
	sb_addf(out, "%s %s %llu", sf_bprop_name(c->prop), sf_bop_name(c->op),
		(unsigned long long)c->limit);
}

/* ------------------------------------------------------------ freeing */

static void rule_release(struct sf_brule *r)
{
	free(r->text);
	free(r->glob);
	free(r->glob_file);
	for (uint32_t i = 0; i < r->nterms; i++) {
		free(r->terms[i].name);
		free(r->terms[i].file);
	}
	free(r->terms);
	for (uint32_t i = 0; i < r->nconds; i++) {
		free(r->conds[i].spec);
		sf_classes_release(&r->conds[i].classes);
	}
	free(r->conds);
}

void sf_budget_free(struct sf_budget *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < b->nrules; i++)
		rule_release(&b->rules[i]);
	free(b->rules);
	free(b->path);
	free(b);
}

/* ------------------------------------------------------------ the lexer */

struct lexer {
	const char *path;
	const char *s;          /* the line, without its newline; not NUL-terminated */
	size_t len;
	size_t pos;
	uint32_t line;
	struct sf_err *err;
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
static size_t name_len(const char *s, size_t len, size_t at)
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

__attribute__((format(printf, 3, 4)))
static int lex_error(const struct lexer *lx, size_t at, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return sf_error(lx->err, "%s:%u:%zu: %s", lx->path, lx->line, at + 1, msg);
}

/* Something that is neither a condition nor the end of the rule. */
static int junk_error(const struct lexer *lx, size_t at)
{
	char tok[32];

	token_at(lx, at, tok, sizeof(tok));
	return lex_error(lx, at, "unexpected '%s': expected a condition (" PROPS_EXPECTED
			 "), 'optional' or the end of the line", tok);
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
	char tok[32];

	if (at_end(lx))
		return lex_error(lx, at, "expected a number after '%s'", what);
	if (!isdigit((unsigned char)lx->s[at])) {
		token_at(lx, at, tok, sizeof(tok));
		return lex_error(lx, at, "expected a number after '%s', found '%s'",
				 what, tok);
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
		if (v > (UINT64_MAX - (uint64_t)d) / base) {
			token_at(lx, at, tok, sizeof(tok));
			return lex_error(lx, at, "number '%s' is too large", tok);
		}
		v = v * base + (uint64_t)d;
	}
	if (i < lx->len && !is_blank(lx->s[i]) && lx->s[i] != '#') {
		token_at(lx, i, tok, sizeof(tok));
		return lex_error(lx, i, "unexpected '%s' after the number %.*s",
				 tok, (int)(i - at), lx->s + at);
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
	char tok[32];

	while (at + n < lx->len && is_op_char(lx->s[at + n]))
		n++;
	if (n == 0) {
		if (at_end(lx))
			return lex_error(lx, at, "expected an operator (" OPS_EXPECTED
					 ") after '%s'", prop);
		token_at(lx, at, tok, sizeof(tok));
		return lex_error(lx, at, "bad operator '%s' after '%s' (expected "
				 OPS_EXPECTED ")", tok, prop);
	}
	for (size_t i = 0; i < sizeof(op_names) / sizeof(op_names[0]); i++) {
		if (strlen(op_names[i]) == n && !memcmp(lx->s + at, op_names[i], n)) {
			*op = (uint8_t)i;
			lx->pos = at + n;
			return 0;
		}
	}
	return lex_error(lx, at, "bad operator '%.*s' (expected " OPS_EXPECTED ")",
			 (int)n, lx->s + at);
}

/* `fits N [in SPEC]`, the word `fits` already read. */
static int parse_fits(struct lexer *lx, struct sf_bcond *c)
{
	struct sf_err why = { "" };

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
		return lex_error(lx, at, "expected size classes after 'in' (a preset "
				 "such as ruby-3.3, or a list such as 32,64,96)");
	c->spec = sf_xstrndup(lx->s + at, n);
	if (sf_classes_parse(c->spec, &c->classes, &why) < 0)
		return lex_error(lx, at, "bad size classes %s", why.msg);
	lx->pos = at + n;
	return 0;
}

static int parse_condition(struct lexer *lx, struct sf_brule *r, size_t at,
			   int prop, size_t cap[1])
{
	struct sf_bcond c = { .prop = (uint8_t)prop, .col = (uint32_t)(at + 1) };

	if (prop == SF_BP_FITS) {
		if (parse_fits(lx, &c) < 0) {
			free(c.spec);
			sf_classes_release(&c.classes);
			return -1;
		}
	} else if (parse_op(lx, prop_names[prop], &c.op) < 0 ||
		   parse_number(lx, op_names[c.op], &c.limit) < 0) {
		return -1;
	}
	SF_GROW(r->conds, r->nconds, cap[0]);
	r->conds[r->nconds++] = c;
	return 0;
}

static int prop_lookup(const struct lexer *lx, size_t at, size_t n)
{
	for (int i = 0; i < SF_BP_COUNT; i++)
		if (word_is(lx, at, n, prop_names[i]))
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
		int prop = prop_lookup(lx, at, w);
		if (prop < 0) {
			size_t j = at + w;
			while (j < lx->len && is_blank(lx->s[j]))
				j++;
			if (j < lx->len && is_op_char(lx->s[j]))
				return lex_error(lx, at, "unknown property '%.*s' "
						 "(expected " PROPS_EXPECTED ")",
						 (int)w, lx->s + at);
			return junk_error(lx, at);
		}
		lx->pos += w;
		if (parse_condition(lx, r, at, prop, &cap) < 0)
			return -1;
	}
	if (r->nconds == 0)
		return lex_error(lx, lx->pos, "expected a condition (" PROPS_EXPECTED
				 ") after the type");
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
			return lex_error(lx, after, "expected a type name after '%s'",
					 sf_kind_name(kind));
		} else {
			kind = -1; /* "struct<...>" or similar: a name of its own */
		}
	}
	size_t at = lx->pos;
	if (at_end(lx) || lx->s[at] == '+')
		return lex_error(lx, at, kind >= 0 ? "expected a type name after '%s'"
				 : "expected a type name%s", kind >= 0 ?
				 sf_kind_name(kind) : "");
	size_t whole = name_len(lx->s, lx->len, at);
	assert(whole > 0);
	size_t n = at_sign(lx->s + at, whole);
	char *file = NULL;
	if (n < whole) {
		if (n == 0)
			return lex_error(lx, at, "expected a type name before '@'");
		if (n + 1 == whole)
			return lex_error(lx, at + whole, "expected a file name after '@'");
		file = sf_xstrndup(lx->s + at + n + 1, whole - n - 1);
	}
	if (sf_name_is_glob(lx->s + at, n)) {
		if (r->nterms || r->is_glob) {
			free(file);
			return lex_error(lx, at, "a pattern cannot be part of a sum");
		}
		r->is_glob = true;
		r->glob_kind = kind;
		r->glob = sf_xstrndup(lx->s + at, n);
		r->glob_file = file;
		r->col = (uint32_t)(start + 1);
	} else {
		if (r->is_glob) {
			free(file);
			return lex_error(lx, start, "a pattern cannot be part of a sum");
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
	if (last && last->bare == last->name &&
	    prop_lookup(lx, last->col - 1, strlen(last->name)) >= 0 &&
	    lx->pos < lx->len && is_op_char(lx->s[lx->pos]))
		return lex_error(lx, last->col - 1, "expected a type name before '%s'",
				 last->name);
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
		      uint32_t line, struct sf_err *err)
{
	struct lexer lx = { b->path, s, len, 0, line, err };
	struct sf_brule r = { .line = line, .glob_kind = -1 };

	/* A UTF-8 byte order mark some editors write is not part of a rule. */
	if (line == 1 && len >= 3 && !memcmp(s, "\xef\xbb\xbf", 3))
		lx.pos = 3;
	skip_blanks(&lx);
	if (at_end(&lx))
		return 0;
	size_t from = lx.pos;
	if (parse_selector(&lx, &r) < 0 || parse_conditions(&lx, &r) < 0) {
		rule_release(&r);
		return -1;
	}
	skip_blanks(&lx);
	assert(at_end(&lx));
	r.text = rule_text(&lx, from, lx.pos);
	SF_GROW(b->rules, b->nrules, b->cap);
	b->rules[b->nrules++] = r;
	return 0;
}

/* ------------------------------------------------------------ reading */

/* Feeds bytes, cuts lines, refuses binary input and endless lines. */
struct reader {
	struct sf_budget *b;
	struct strbuf line;
	uint32_t lineno;
	struct sf_err *err;
};

static int feed_error(struct reader *rd, size_t col, const char *what)
{
	return sf_error(rd->err, "%s:%u:%zu: %s", rd->b->path, rd->lineno, col, what);
}

static int feed(struct reader *rd, unsigned char c)
{
	char what[128];

	if (c == '\n') {
		if (parse_line(rd->b, rd->line.buf, rd->line.len, rd->lineno, rd->err) < 0)
			return -1;
		sb_reset(&rd->line);
		rd->lineno++;
		return 0;
	}
	if (c == 0)
		return feed_error(rd, rd->line.len + 1,
				  "NUL byte: a budget file is text, this looks binary");
	if ((c < 0x20 && !is_blank(c)) || c == 0x7f) {
		snprintf(what, sizeof(what), "control character 0x%02x: a budget "
			 "file is text, this looks binary", c);
		return feed_error(rd, rd->line.len + 1, what);
	}
	if (rd->line.len >= SF_BUDGET_MAX_LINE) {
		snprintf(what, sizeof(what), "line longer than %u bytes",
			 SF_BUDGET_MAX_LINE);
		return feed_error(rd, rd->line.len + 1, what);
	}
	sb_addch(&rd->line, c);
	return 0;
}

static int finish(struct reader *rd)
{
	int rc = 0;

	if (rd->line.len)
		rc = parse_line(rd->b, rd->line.buf, rd->line.len, rd->lineno, rd->err);
	sb_release(&rd->line);
	return rc;
}

static struct sf_budget *budget_new(const char *path)
{
	struct sf_budget *b = sf_xcalloc(1, sizeof(*b));

	b->path = sf_xstrdup(path);
	return b;
}

static int done(struct reader *rd, int rc, struct sf_budget **out)
{
	if (rc < 0) {
		sb_release(&rd->line);
		sf_budget_free(rd->b);
		*out = NULL;
		return -1;
	}
	*out = rd->b;
	return 0;
}

int sf_budget_parse(const char *path, const char *buf, size_t len,
		    struct sf_budget **out, struct sf_err *err)
{
	struct reader rd = { budget_new(path), STRBUF_INIT, 1, err };
	int rc = 0;

	for (size_t i = 0; i < len && rc == 0; i++)
		rc = feed(&rd, (unsigned char)buf[i]);
	if (rc == 0)
		rc = finish(&rd);
	return done(&rd, rc, out);
}

/* Every line of f through the parser; `name` is the budget's path. */
static int load_stream(FILE *f, const char *name, struct sf_budget **out,
		       struct sf_err *err)
{
	struct reader rd = { budget_new(name), STRBUF_INIT, 1, err };
	int rc = 0, c;

	while (rc == 0 && (c = getc(f)) != EOF)
		rc = feed(&rd, (unsigned char)c);
	if (rc == 0 && ferror(f))
		rc = sf_error(err, "%s: %s", name, strerror(errno ? errno : EIO));
	if (rc == 0)
		rc = finish(&rd);
	/* an empty budget checks nothing: a CI gate that silently passes */
	if (rc == 0 && rd.b->nrules == 0)
		rc = sf_error(err, "%s: no rules (an empty budget checks nothing; "
			      "see 'structfit check --help')", name);
	return done(&rd, rc, out);
}

/*
 * Opened without blocking: a FIFO with no writer would otherwise hang
 * open(2) forever.  Once open it reads as usual - a FIFO whose writer
 * never came reads as empty, and the empty budget is refused.
 */
static FILE *open_nonblocking(const char *path)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;

	if (fd < 0)
		return NULL;
	int fl = fcntl(fd, F_GETFL);
	if (fstat(fd, &st) < 0 || fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0) {
		int e = errno;
		close(fd);
		errno = e;
		return NULL;
	}
	if (S_ISDIR(st.st_mode)) {
		close(fd);
		errno = EISDIR;
		return NULL;
	}
	FILE *f = fdopen(fd, "rb");
	if (!f) {
		int e = errno;
		close(fd);
		errno = e;
	}
	return f;
}

int sf_budget_load(const char *path, struct sf_budget **out,
		   struct sf_err *err)
{
	if (!strcmp(path, "-"))
		return load_stream(stdin, "<stdin>", out, err);
	FILE *f = open_nonblocking(path);
	if (!f)
		return sf_error(err, "%s: %s", path, strerror(errno));
	int rc = load_stream(f, path, out, err);
	fclose(f);
	return rc;
}

/* ------------------------------------------------------------ measuring */

void sf_measure_type(const struct sf_type *t, struct sf_measure *m)
{
	struct sf_layout l;

	sf_layout_compute(t, SF_BUDGET_CACHELINE, &l);
	m->size = l.size;
	m->holes = l.sum_holes;
	m->padding = l.padding;
	m->forced = sf_layout_forced(&l);
	m->members = l.members;
	m->cachelines = l.cachelines;
	m->align = l.align;
	m->unrepresentable = sf_size_saturated(l.size);
	sf_layout_release(&l);
}

void sf_measure_add(struct sf_measure *acc, const struct sf_measure *m)
{
	acc->size = sf_add_sat(acc->size, m->size);
	acc->holes = sf_add_sat(acc->holes, m->holes);
	acc->padding = sf_add_sat(acc->padding, m->padding);
	acc->forced = sf_add_sat(acc->forced, m->forced);
	acc->members = sf_add_sat(acc->members, m->members);
	if (m->align > acc->align)
		acc->align = m->align;
	acc->cachelines = sf_div_ceil(acc->size, SF_BUDGET_CACHELINE);
	acc->unrepresentable = acc->unrepresentable || m->unrepresentable ||
			       sf_size_saturated(acc->size);
}

uint64_t sf_bcond_value(const struct sf_bcond *c, const struct sf_measure *m,
			bool *no_class)
{
	*no_class = false;
	switch ((enum sf_bprop)c->prop) {
	case SF_BP_SIZE: return m->size;
	case SF_BP_HOLES: return m->holes;
	case SF_BP_PADDING: return m->padding;
	case SF_BP_WASTE: return m->holes + m->padding - m->forced;
	case SF_BP_FORCED: return m->forced;
	case SF_BP_MEMBERS: return m->members;
	case SF_BP_CACHELINES: return m->cachelines;
	case SF_BP_ALIGN: return m->align;
	case SF_BP_FITS:
		if (!c->spec)
			return m->size;
		size_t i = sf_classes_find(&c->classes, m->size);
		if (i == SF_NO_CLASS) {
			*no_class = true;
			return m->size;
		}
		return c->classes.v[i];
	case SF_BP_COUNT:
		break;
	}
	assert(!"unknown property");
	return 0;
}

bool sf_bcond_holds(const struct sf_bcond *c, uint64_t value, bool no_class)
{
	if (no_class)
		return false;
	switch ((enum sf_bop)c->op) {
	case SF_BOP_LE: return value <= c->limit;
	case SF_BOP_LT: return value < c->limit;
	case SF_BOP_EQ: return value == c->limit;
	case SF_BOP_GE: return value >= c->limit;
	case SF_BOP_GT: return value > c->limit;
	}
	assert(!"unknown operator");
	return false;
}

/* ------------------------------------------------------------ evaluating */

static const char *file_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}


static char *type_display_name(const struct sf_type *t)
{
	struct strbuf sb = STRBUF_INIT;

	sb_addf(&sb, "%s %s", sf_kind_name(t->kind), t->name);
	return sb_detach(&sb);
}

/*
 * Check every condition of rule `ri` on one subject.  `subject` is NULL for
 * a single type (its name is made only if a condition breaks).
 */
static void eval_subject(struct sf_bresult *res, uint32_t ri,
			 const struct sf_type *t, const char *subject,
			 const struct sf_measure *m)
{
	const struct sf_brule *r = &res->budget->rules[ri];
	bool broke = false;

	for (uint32_t ci = 0; ci < r->nconds; ci++) {
		bool no_class;
		uint64_t v = sf_bcond_value(&r->conds[ci], m, &no_class);
		res->nchecks++;
		/* a size past 64 bits proves nothing: no condition holds on it */
		if (!m->unrepresentable && sf_bcond_holds(&r->conds[ci], v, no_class))
			continue;
		broke = true;
		SF_GROW(res->fails, res->nfails, res->cap);
		res->fails[res->nfails++] = (struct sf_bfail){
			.rule = ri, .cond = ci, .type = t,
			.subject = subject ? sf_xstrdup(subject) : type_display_name(t),
			.value = v, .size = m->size, .no_class = no_class,
			.unrepresentable = m->unrepresentable,
			.def_file = (t->flags & SF_TF_VARIANT) && !subject ?
				    sf_xstrdup(file_name(t->decl_file)) : NULL,
		};
	}
	res->stats[ri].checked++;
	if (broke)
		res->stats[ri].failed++;
}

static bool reportable(const struct sf_type *t)
{
	return t->name[0] && !(t->flags & SF_TF_DECLARATION);
}

/* Is `path` FILE or does it end in "/FILE"? */
static bool declared_in(const char *path, const char *file)
{
	size_t n = strlen(path), m = strlen(file);

	if (m > n || strcmp(path + n - m, file))
		return false;
	return m == n || path[n - m - 1] == '/' || file[0] == '/';
}

/* Keep the v[0..n) declared in `file` (NULL: all); how many are left. */
static size_t only_in(const struct sf_type **v, size_t n, const char *file)
{
	size_t k = 0;

	if (!file)
		return n;
	for (size_t i = 0; i < n; i++)
		if (declared_in(v[i]->decl_file, file))
			v[k++] = v[i];
	return k;
}

/* "type 'struct x' not found in INPUTS", or, with @FILE and definitions
 * elsewhere, where they are. */
static void not_found_what(char *what, size_t size, const struct sf_typeset *ts,
			   const struct sf_bterm *term, const char *inputs);

/* Every definition of `name` (declarations dropped); free() the array. */
static size_t find_defs(const struct sf_typeset *ts, const char *name,
			const struct sf_type ***out)
{
	const struct sf_type *small[16];
	size_t n = sf_typeset_find(ts, name, small, 16);
	const struct sf_type **v = sf_xcalloc(n ? n : 1, sizeof(*v));

	if (n > 16)
		sf_typeset_find(ts, name, v, n);
	else
		memcpy(v, small, n * sizeof(*v));
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (reportable(v[i]))
			v[k++] = v[i];
	*out = v;
	return k;
}

/* `what` is the problem ("type 'X' not found in a.o"), said at the rule. */
static int not_found(const struct sf_budget *b, const struct sf_brule *r,
		     uint32_t col, const char *what, struct sf_err *err)
{
	return sf_error(err, "%s:%u:%u: %s (add 'optional' to the rule if it may "
			"be absent)", b->path, r->line, col, what);
}

static int eval_single(struct sf_bresult *res, uint32_t ri,
		       const struct sf_typeset *ts, const char *inputs,
		       struct sf_err *err)
{
	const struct sf_brule *r = &res->budget->rules[ri];
	const struct sf_type **defs;
	size_t n = find_defs(ts, r->terms[0].name, &defs);

	n = only_in(defs, n, r->terms[0].file);

	/* each definition of the name, not only the largest: two programs'
	 * `struct config` each have their own size */
	for (size_t i = 0; i < n; i++) {
		struct sf_measure m;
		sf_measure_type(defs[i], &m);
		eval_subject(res, ri, defs[i], NULL, &m);
	}
	free(defs);
	if (n == 0 && !r->optional) {
		char what[1200];
		not_found_what(what, sizeof(what), ts, &r->terms[0], inputs);
		return not_found(res->budget, r, r->terms[0].col, what, err);
	}
	res->stats[ri].skipped = n == 0;
	return 0;
}

static const struct sf_type *largest(const struct sf_type **defs, size_t n)
{
	const struct sf_type *best = defs[0];

	for (size_t i = 1; i < n; i++)
		if (defs[i]->size > best->size)
			best = defs[i];
	return best;
}

/* A sum: each term's largest definition, measured as one object. */
static int eval_sum(struct sf_bresult *res, uint32_t ri,
		    const struct sf_typeset *ts, const char *inputs,
		    struct sf_err *err)
{
	const struct sf_brule *r = &res->budget->rules[ri];
	struct sf_measure acc = { 0 };
	struct strbuf subject = STRBUF_INIT;
	const struct sf_type *first = NULL;

	for (uint32_t i = 0; i < r->nterms; i++) {
		const struct sf_type **defs;
		size_t n = find_defs(ts, r->terms[i].name, &defs);
		n = only_in(defs, n, r->terms[i].file);
		if (n == 0) {
			free(defs);
			sb_release(&subject);
			if (r->optional) {
				res->stats[ri].skipped = true;
				return 0;
			}
			char what[1200];
			not_found_what(what, sizeof(what), ts, &r->terms[i], inputs);
			return not_found(res->budget, r, r->terms[i].col, what, err);
		}
		const struct sf_type *t = largest(defs, n);
		free(defs);
		struct sf_measure m;
		sf_measure_type(t, &m);
		sf_measure_add(&acc, &m);
		sb_addf(&subject, "%s%s %s", i ? " + " : "", sf_kind_name(t->kind), t->name);
		if (!first)
			first = t;
	}
	eval_subject(res, ri, first, subject.buf, &acc);
	sb_release(&subject);
	return 0;
}

static void not_found_what(char *what, size_t size, const struct sf_typeset *ts,
			   const struct sf_bterm *term, const char *inputs)
{
	const struct sf_type **defs;
	size_t n = term->file ? find_defs(ts, term->name, &defs) : 0;

	if (!term->file)
		defs = NULL;
	if (n == 0) {
		snprintf(what, size, "type '%s%s%s' not found in %s", term->name,
			 term->file ? "@" : "", term->file ? term->file : "", inputs);
	} else {
		struct strbuf sb = STRBUF_INIT;
		for (size_t i = 0; i < n && i < 4; i++)
			sb_addf(&sb, "%s%s:%u", i ? ", " : "", defs[i]->decl_file,
				defs[i]->decl_line);
		snprintf(what, size, "no definition of '%s' in %s is declared in a file "
			 "'%s' (it is declared at %s%s)", term->name, inputs, term->file,
			 sb.buf, n > 4 ? ", ..." : "");
		sb_release(&sb);
	}
	free(defs);
}

static bool glob_matches(const struct sf_brule *r, const struct sf_type *t)
{
	assert(r->is_glob);
	if (r->glob_kind >= 0 && t->kind != r->glob_kind)
		return false;
	if (r->glob_file && !declared_in(t->decl_file, r->glob_file))
		return false;
	return fnmatch(r->glob, t->name, 0) == 0;
}

/* One pass over every type for all glob rules at once. */
static void eval_globs(struct sf_bresult *res, const struct sf_typeset *ts)
{
	const struct sf_budget *b = res->budget;
	size_t n = sf_typeset_count(ts);

	for (size_t i = 0; i < n; i++) {
		const struct sf_type *t = sf_typeset_get(ts, i);
		struct sf_measure m;
		bool measured = false;
		if (!reportable(t))
			continue;
		for (size_t ri = 0; ri < b->nrules; ri++) {
			if (!b->rules[ri].is_glob || !glob_matches(&b->rules[ri], t))
				continue;
			if (!measured) {
				sf_measure_type(t, &m);
				measured = true;
			}
			eval_subject(res, (uint32_t)ri, t, NULL, &m);
		}
	}
}

static int fail_cmp(const void *a, const void *b)
{
	const struct sf_bfail *x = a, *y = b;
	int c;

	if (x->rule != y->rule)
		return x->rule < y->rule ? -1 : 1;
	if ((c = strcmp(x->subject, y->subject)) != 0)
		return c;
	if ((c = strcmp(x->type->decl_file, y->type->decl_file)) != 0)
		return c;
	if (x->type->decl_line != y->type->decl_line)
		return x->type->decl_line < y->type->decl_line ? -1 : 1;
	if (x->type->size != y->type->size)
		return x->type->size < y->type->size ? -1 : 1;
	return (x->cond > y->cond) - (x->cond < y->cond);
}

int sf_budget_eval(const struct sf_budget *b, const struct sf_typeset *ts,
		   const char *inputs, struct sf_bresult *out,
		   struct sf_err *err)
{
	memset(out, 0, sizeof(*out));
	out->budget = b;
	out->stats = sf_xcalloc(b->nrules ? b->nrules : 1, sizeof(*out->stats));
	eval_globs(out, ts);
	for (size_t ri = 0; ri < b->nrules; ri++) {
		const struct sf_brule *r = &b->rules[ri];
		int rc = 0;
		if (r->is_glob) {
			if (out->stats[ri].checked == 0 && !r->optional) {
				char what[700];
				snprintf(what, sizeof(what), "no type in %s matches '%s%s%s'",
					 inputs,
					 r->glob_kind >= 0 ? sf_kind_name(r->glob_kind) : "",
					 r->glob_kind >= 0 ? " " : "", r->glob);
				rc = not_found(b, r, r->col, what, err);
			}
			out->stats[ri].skipped = out->stats[ri].checked == 0;
		} else if (r->nterms == 1) {
			rc = eval_single(out, (uint32_t)ri, ts, inputs, err);
		} else {
			rc = eval_sum(out, (uint32_t)ri, ts, inputs, err);
		}
		if (rc < 0) {
			sf_bresult_release(out);
			return -1;
		}
		out->nbroken += out->stats[ri].failed != 0;
		out->nskipped += out->stats[ri].skipped;
	}
	if (out->nfails > 1)
		qsort(out->fails, out->nfails, sizeof(*out->fails), fail_cmp);
	return 0;
}

/* First index in base->fails at or after (rule, subject): they are sorted. */
static size_t lower_bound(const struct sf_bresult *base, uint32_t rule,
			  const char *subject)
{
	size_t lo = 0, hi = base->nfails;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct sf_bfail *f = &base->fails[mid];
		int c = f->rule != rule ? (f->rule < rule ? -1 : 1) :
			strcmp(f->subject, subject);
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Is cur no worse than old under the condition's operator? */
static bool no_worse(const struct sf_bcond *c, uint64_t cur, uint64_t old)
{
	switch ((enum sf_bop)c->op) {
	case SF_BOP_LT: case SF_BOP_LE: return cur <= old;
	case SF_BOP_GT: case SF_BOP_GE: return cur >= old;
	default: return cur == old;
	}
}

/* Two builds' failures of one subject are the same definition's: for a
 * name with several, the one declared in a file of the same name (the
 * base build's types are gone by now: its def_file was kept). */
static bool same_definition(const struct sf_bfail *a, const struct sf_bfail *b)
{
	if (!a->def_file || !b->def_file)
		return true;
	return !strcmp(a->def_file, b->def_file);
}

static bool known_in(const struct sf_bresult *base, const struct sf_bresult *r,
		     const struct sf_bfail *f)
{
	const struct sf_bcond *c = &r->budget->rules[f->rule].conds[f->cond];

	for (size_t i = lower_bound(base, f->rule, f->subject); i < base->nfails; i++) {
		const struct sf_bfail *o = &base->fails[i];
		if (o->rule != f->rule || strcmp(o->subject, f->subject))
			break;
		if (o->cond == f->cond && !!o->no_class == !!f->no_class &&
		    same_definition(o, f) &&
		    (f->no_class ? f->size <= o->size : no_worse(c, f->value, o->value)))
			return true;
	}
	return false;
}

void sf_bresult_drop_known(struct sf_bresult *r, const struct sf_bresult *base)
{
	size_t k = 0;

	assert(r->budget == base->budget);
	for (size_t i = 0; i < r->nfails; i++) {
		if (known_in(base, r, &r->fails[i])) {
			free(r->fails[i].subject);
		free(r->fails[i].def_file);
			r->nknown++;
		} else {
			r->fails[k++] = r->fails[i];
		}
	}
	r->nfails = k;
	/* each rule's failed subjects again, from what is left (sorted by
	 * rule, then subject) */
	r->nbroken = 0;
	for (size_t ri = 0; ri < r->budget->nrules; ri++)
		r->stats[ri].failed = 0;
	for (size_t i = 0; i < k; i++) {
		const struct sf_bfail *f = &r->fails[i];
		if (i == 0 || f->rule != r->fails[i - 1].rule ||
		    strcmp(f->subject, r->fails[i - 1].subject) ||
		    f->type != r->fails[i - 1].type)
			r->stats[f->rule].failed++;
	}
	for (size_t ri = 0; ri < r->budget->nrules; ri++)
		r->nbroken += r->stats[ri].failed != 0;
}

void sf_bresult_release(struct sf_bresult *r)
{
	for (size_t i = 0; i < r->nfails; i++) {
		free(r->fails[i].subject);
		free(r->fails[i].def_file);
	}
	free(r->fails);
	free(r->stats);
	memset(r, 0, sizeof(*r));
}

const char **sf_budget_wanted(const struct sf_budget *b)
{
	size_t n = 0, k = 0;

	for (size_t i = 0; i < b->nrules; i++) {
		if (b->rules[i].is_glob)
			return NULL;
		n += b->rules[i].nterms;
	}
	const char **v = sf_xcalloc(n + 1, sizeof(*v));
	for (size_t i = 0; i < b->nrules; i++)
		for (uint32_t j = 0; j < b->rules[i].nterms; j++)
			v[k++] = b->rules[i].terms[j].bare;
	assert(k == n);
	return v;
}

/* ------------------------------------------------------------ pinning */

static int type_name_cmp(const void *a, const void *b)
{
	const struct sf_type *x = *(const struct sf_type *const *)a;
	const struct sf_type *y = *(const struct sf_type *const *)b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	return (x->size < y->size) - (x->size > y->size); /* largest first */
}

/* Whether the parser reads `name` back as the same single name. */
static bool round_trips(const char *name)
{
	size_t n = strlen(name);

	if (name_len(name, n, 0) != n || sf_name_is_glob(name, n))
		return false;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)name[i] < 0x20 || name[i] == 0x7f)
			return false;
	return true;
}

/* "KIND NAME[@FILE]  size <= SIZE", the names padded to `width`. */
static void pin_rule(struct strbuf *out, const struct sf_type *t, const char *file,
		     size_t width)
{
	size_t start = out->len;

	sb_addf(out, "%s %s", sf_kind_name(t->kind), t->name);
	if (file)
		sb_addf(out, "@%s", file);
	size_t w = out->len - start;
	sb_addchars(out, ' ', w < width ? width - w + 2 : 2);
	sb_addf(out, "size <= %llu\n", (unsigned long long)t->size);
}

/* Is `tail` (a tail of d's path) also a tail of another file among v[0..n)? */
static bool tail_shared(const struct sf_type *const *v, size_t n, const struct sf_type *d,
			const char *tail)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(v[i]->decl_file, d->decl_file) && declared_in(v[i]->decl_file, tail))
			return true;
	return false;
}

/*
 * How FILE is written after '@' for d among v[0..n): the shortest tail of
 * its path, whole components, that no other file of theirs ends in (its
 * file name, else "src/x.c", ...), so the rule reads the same whatever
 * source root a later check shows paths under; NULL when the budget could
 * not read it back (unknown, or blanks, '+', '#', '@').
 */
static const char *file_spelling(const struct sf_type *const *v, size_t n,
				 const struct sf_type *d)
{
	const char *path = d->decl_file, *tail = file_name(path);

	while (tail > path && tail_shared(v, n, d, tail)) {
		tail--;                         /* onto the '/' before it */
		while (tail > path && tail[-1] != '/')
			tail--;
	}
	if (!*tail || strpbrk(tail, " \t+#@<>()[]{}"))
		return NULL;
	return tail;
}

/*
 * Differing definitions of one name (v[0..n), largest first): one rule
 * per declaring file, `NAME@FILE`, each pinning its largest definition
 * (#ifdef variants of one header cannot be told apart: they share it).
 * False, with nothing written, when some file cannot be written.
 */
static bool pin_each_file(struct strbuf *out, const struct sf_type *const *v, size_t n,
			  size_t width, size_t *rules)
{
	for (size_t i = 0; i < n; i++)
		if (!file_spelling(v, n, v[i]))
			return false;
	for (size_t i = 0; i < n; i++) {
		bool seen = false;
		for (size_t p = 0; p < i && !seen; p++)
			seen = !strcmp(v[p]->decl_file, v[i]->decl_file);
		if (seen)
			continue;       /* its file's largest was pinned (sorted) */
		pin_rule(out, v[i], file_spelling(v, n, v[i]), width);
		(*rules)++;
	}
	return true;
}

size_t sf_budget_pin(struct strbuf *out, const struct sf_typeset *ts,
		     const char *inputs)
{
	size_t n = sf_typeset_count(ts), k = 0, width = 0, rules = 0;
	const struct sf_type **v = sf_xcalloc(n ? n : 1, sizeof(*v));

	for (size_t i = 0; i < n; i++) {
		const struct sf_type *t = sf_typeset_get(ts, i);
		if (reportable(t))
			v[k++] = t;
	}
	qsort(v, k, sizeof(*v), type_name_cmp);
	sb_addf(out, "# structfit budget: the sizes of the types in %s, pinned\n"
		"# by 'structfit check --write-budget'.  A rule that breaks fails\n"
		"# 'structfit check'; lower a limit when its struct shrinks.\n", inputs);
	for (size_t i = 0; i < k; i++) {
		size_t w = strlen(sf_kind_name(v[i]->kind)) + 1 + strlen(v[i]->name);
		if (w > width && w <= 48)
			width = w;
	}
	for (size_t i = 0, j; i < k; i = j) {
		/* v[i..j): the definitions of one name, largest first */
		for (j = i + 1; j < k && !strcmp(v[j]->name, v[i]->name) &&
			     v[j]->kind == v[i]->kind; j++)
			;
		const struct sf_type *t = v[i];
		if (!round_trips(t->name)) {
			sb_addf(out, "# skipped, name not writable in a budget: %s %s\n",
				sf_kind_name(t->kind), t->name);
			continue;
		}
		if (j - i > 1 && pin_each_file(out, v + i, j - i, width, &rules))
			continue;
		pin_rule(out, t, NULL, width);
		rules++;
	}
	free(v);
	return rules;
}
