/*
 * budgetmsg.c - the sentences for a refused budget: a line the parser
 * would not read (struct sf_budget_problem) and a rule that found nothing
 * (struct sf_budget_miss), both from layout/budget.h.
 *
 * Each is a switch over the code, composed in a 512-byte line (a longer
 * one is cut) and said at the budget's PATH:LINE:COL through
 * lib/err.h, so the machine formats get the place as fields.
 */
#include "check.h"
#include "reasons.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define PROPS_EXPECTED \
	"size, hole_bytes, padding, waste, members, cachelines, align, live_waste or fits"
#define OPS_EXPECTED "<=, <, ==, >=, >"

__attribute__((format(printf, 4, 5)))
static void say(char *buf, size_t size, int *done, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	*done = 1;
}

/* Binary input and long lines: the feeder's refusals. */
static void feed_words(const struct sf_budget_problem *p, char *m, size_t n, int *done)
{
	switch (p->code) {
	case SF_BPR_NUL:
		say(m, n, done, "NUL byte: a budget file is text, this looks binary");
		break;
	case SF_BPR_CONTROL:
		say(m, n, done, "control character 0x%02x: a budget file is text, this "
		    "looks binary", p->byte);
		break;
	case SF_BPR_LONG_LINE:
		say(m, n, done, "line longer than %u bytes", SF_BUDGET_MAX_LINE);
		break;
	default:
		break;
	}
}

/* Conditions: properties, operators, numbers, size classes. */
static void cond_words(const struct sf_budget_problem *p, char *m, size_t n, int *done)
{
	struct sf_err why = SF_ERR_INIT;
	struct sf_classes_refusal cr;

	switch (p->code) {
	case SF_BPR_JUNK:
		say(m, n, done, "unexpected '%s': expected a condition (" PROPS_EXPECTED
		    "), 'optional' or the end of the line", p->tok);
		break;
	case SF_BPR_NO_NUMBER:
		say(m, n, done, "expected a number after '%s'", p->word);
		break;
	case SF_BPR_NOT_NUMBER:
		say(m, n, done, "expected a number after '%s', found '%s'", p->word, p->tok);
		break;
	case SF_BPR_NUMBER_TOO_LARGE:
		say(m, n, done, "number '%s' is too large", p->tok);
		break;
	case SF_BPR_AFTER_NUMBER:
		say(m, n, done, "unexpected '%s' after the number %s", p->tok, p->text);
		break;
	case SF_BPR_NO_OPERATOR:
		say(m, n, done, "expected an operator (" OPS_EXPECTED ") after '%s'", p->word);
		break;
	case SF_BPR_BAD_OPERATOR_AFTER:
		say(m, n, done, "bad operator '%s' after '%s' (expected " OPS_EXPECTED ")",
		    p->tok, p->word);
		break;
	case SF_BPR_BAD_OPERATOR:
		say(m, n, done, "bad operator '%s' (expected " OPS_EXPECTED ")", p->text);
		break;
	case SF_BPR_NO_CLASSES:
		say(m, n, done, "expected size classes after 'in' (a preset such as "
		    "ruby-3.3, or a list such as 32,64,96)");
		break;
	case SF_BPR_BAD_CLASSES:
		cr = p->classes;
		cr.spec = p->text;
		sf_classes_refusal_err(&cr, &why);
		say(m, n, done, "bad size classes %s", why.msg);
		break;
	case SF_BPR_UNKNOWN_PROPERTY:
		say(m, n, done, "unknown property '%s' (expected " PROPS_EXPECTED ")", p->text);
		break;
	case SF_BPR_NO_CONDITION:
		say(m, n, done, "expected a condition (" PROPS_EXPECTED ") after the type");
		break;
	default:
		break;
	}
}

/* Selectors: type names, @FILE, patterns. */
static void selector_words(const struct sf_budget_problem *p, char *m, size_t n,
			   int *done)
{
	switch (p->code) {
	case SF_BPR_NO_NAME_AFTER:
		say(m, n, done, "expected a type name after '%s'", p->word);
		break;
	case SF_BPR_NO_NAME:
		say(m, n, done, "expected a type name");
		break;
	case SF_BPR_NO_NAME_BEFORE_AT:
		say(m, n, done, "expected a type name before '@'");
		break;
	case SF_BPR_NO_FILE_AFTER_AT:
		say(m, n, done, "expected a file name after '@'");
		break;
	case SF_BPR_PATTERN_IN_SUM:
		say(m, n, done, "a pattern cannot be part of a sum");
		break;
	case SF_BPR_NO_NAME_BEFORE:
		say(m, n, done, "expected a type name before '%s'", p->text);
		break;
	default:
		break;
	}
}

int sf_budget_problem_err(const char *path, const struct sf_budget_problem *p,
			  struct sf_err *err)
{
	char msg[512];
	int done = 0;

	feed_words(p, msg, sizeof(msg), &done);
	if (!done)
		cond_words(p, msg, sizeof(msg), &done);
	if (!done)
		selector_words(p, msg, sizeof(msg), &done);
	assert(done);
	return sf_error_at(err, path, p->line, p->col, "%s", done ? msg : "");
}

/* What a term found nothing of: "type 'X@F' not found in INPUTS", or,
 * when its name is defined in other files, where. */
static void term_missing(char *what, size_t size, const struct sf_bterm *term,
			 const struct sf_budget_miss *m)
{
	if (m->ndefs == 0) {
		snprintf(what, size, "type '%s%s%s' not found in %s", term->name,
			 term->file ? "@" : "", term->file ? term->file : "", m->inputs);
		return;
	}
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < m->ndefs && i < SF_BUDGET_MISS_DEFS; i++)
		sb_addf(&sb, "%s%s:%u", i ? ", " : "", m->defs[i]->decl_file,
			m->defs[i]->decl_line);
	snprintf(what, size, "no definition of '%s' in %s is declared in a file "
		 "'%s' (it is declared at %s%s)", term->name, m->inputs, term->file,
		 sb.buf, m->ndefs > SF_BUDGET_MISS_DEFS ? ", ..." : "");
	sb_release(&sb);
}

int sf_budget_miss_err(const struct sf_budget *b, const struct sf_budget_miss *m,
		       struct sf_err *err)
{
	const struct sf_brule *r = &b->rules[m->rule];
	char what[1200];
	uint32_t col = r->col;

	assert(m->rule < b->nrules);
	if (m->term < 0) {
		snprintf(what, 700, "no type in %s matches '%s%s%s'", m->inputs,
			 r->glob_kind >= 0 ? sf_kind_name(r->glob_kind) : "",
			 r->glob_kind >= 0 ? " " : "", r->glob);
	} else {
		assert((uint32_t)m->term < r->nterms);
		term_missing(what, sizeof(what), &r->terms[m->term], m);
		col = r->terms[m->term].col;
	}
	return sf_error_at(err, b->path, r->line, col, "%s (add 'optional' to the rule "
			   "if it may be absent)", what);
}
