/*
 * test_budget.c - the budget parser and rule evaluation on hand-built
 * models (no DWARF): st_table as Ruby had it before the narrowing (48
 * bytes, a 1-byte hole at offset 3), the 24-byte RHash header, and a few
 * small structs for globs.  Every measured value comes from
 * layout/holes.c through sf_measure_type; the tests check it against
 * what the layout says, and check each rule's verdict.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "layout/budget.h"
#include "layout/holes.h"
#include "model/typeset.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "report/check.h"
#include "model_build.h"

/* The parser and the evaluation, their refusals worded as cmd/check.c
 * words them (report/check.h). */
static int parse(const char *path, const char *text, size_t len,
		 struct sf_budget **b, struct sf_err *err)
{
	struct sf_budget_problem why;

	if (sf_budget_parse(path, text, len, b, &why) == 0)
		return 0;
	return sf_budget_problem_err(path, &why, err);
}

static int eval(const struct sf_budget *b, const struct sf_typeset *ts,
		const char *inputs, struct sf_bresult *res, struct sf_err *err)
{
	struct sf_budget_miss miss;

	if (sf_budget_eval(b, ts, inputs, res, &miss) == 0)
		return 0;
	return sf_budget_miss_err(b, &miss, err);
}

static const struct sf_type *mk(struct sf_typeset *ts, enum sf_kind kind,
				 const char *name, uint64_t size, uint32_t align,
				 const struct sf_test_mdef *m, size_t n, uint32_t line)
{
	const struct sf_test_tdef d = {
		.kind = kind, .name = name, .size = size, .align = align,
		.file = "model.c", .line = line, .origin = "model.o",
		.addr_size = 8, .member_tclass = SF_T_INT,
	};

	return sf_test_add_type(ts, &d, m, n);
}

/* rb_a: char then long (7-byte hole); rb_b: long then char (7 padding). */
static const struct sf_test_mdef rb_a_m[] = {
	{ "c", "char", 0, 1, 1 },
	{ "l", "long", 8, 8, 8 },
};
static const struct sf_test_mdef rb_b_m[] = {
	{ "l", "long", 0, 8, 8 },
	{ "c", "char", 8, 1, 1 },
};
static const struct sf_test_mdef u_m[] = {
	{ "i", "int", 0, 4, 4 },
	{ "c", "char", 0, 1, 1 },
};

static struct sf_typeset *model(void)
{
	struct sf_typeset *ts = sf_typeset_new();

	mk(ts, SF_KIND_STRUCT, "st_table", 48, 8, sf_test_st_table_m, 9, 30);
	mk(ts, SF_KIND_STRUCT, "RHash", 24, 8, sf_test_rhash_m, 2, 44);
	mk(ts, SF_KIND_STRUCT, "rb_a", 16, 8, rb_a_m, 2, 50);
	mk(ts, SF_KIND_STRUCT, "rb_b", 16, 8, rb_b_m, 2, 55);
	mk(ts, SF_KIND_UNION, "rb_u", 4, 4, u_m, 2, 60);
	return ts;
}

static struct sf_budget *parse_ok(const char *text)
{
	struct sf_budget *b = NULL;
	struct sf_err err = SF_ERR_INIT;
	int rc = parse("b.txt", text, strlen(text), &b, &err);

	if (rc != 0)
		fail_msg("parse failed: %s", err.msg);
	assert_non_null(b);
	return b;
}

/* Parse must fail with a message starting "b.txt:LINE:COL: " and holding `what`. */
static void parse_bad_n(const char *text, size_t len, unsigned line,
			unsigned col, const char *what)
{
	struct sf_budget *b = (struct sf_budget *)1;
	struct sf_err err = SF_ERR_INIT;
	char prefix[64];

	assert_int_equal(parse("b.txt", text, len, &b, &err), -1);
	assert_null(b);
	snprintf(prefix, sizeof(prefix), "b.txt:%u:%u: ", line, col);
	if (strncmp(err.msg, prefix, strlen(prefix)) || !strstr(err.msg, what))
		fail_msg("got '%s', expected '%s...%s...'", err.msg, prefix, what);
	/* the place is in fields too: the machine formats read them */
	assert_string_equal(err.file, "b.txt");
	assert_int_equal(err.line, line);
	assert_int_equal(err.col, col);
	assert_string_equal(sf_err_problem(&err), err.msg + strlen(prefix));
}

static void parse_bad(const char *text, unsigned line, unsigned col,
		      const char *what)
{
	parse_bad_n(text, strlen(text), line, col, what);
}

/* ------------------------------------------------------------ parsing */

static void test_parse_issue_example(void **state)
{
	(void)state;
	struct sf_budget *b = parse_ok(
		"# budget for the Ruby VM\n"
		"struct st_table              size <= 40\n"
		"struct RHash + struct st_table   fits 64 in ruby-3.3   # header + table\n"
		"struct rb_shape              holes == 0\n"
		"\n"
		"struct task_struct           size <= 9728  cachelines <= 152\n"
		"struct robj                  padding == 0  align <= 8\n"
		"*                            holes <= 16   # every struct\n");

	assert_int_equal(b->nrules, 6);
	const struct sf_brule *r = &b->rules[0];
	assert_int_equal(r->line, 2);
	assert_int_equal(r->nterms, 1);
	assert_string_equal(r->terms[0].name, "struct st_table");
	assert_string_equal(r->terms[0].bare, "st_table");
	assert_int_equal(r->nconds, 1);
	assert_int_equal(r->conds[0].prop, SF_BP_SIZE);
	assert_int_equal(r->conds[0].op, SF_BOP_LE);
	assert_int_equal(r->conds[0].limit, 40);
	assert_int_equal(r->conds[0].col, 30);
	assert_string_equal(r->text, "struct st_table size <= 40");

	r = &b->rules[1];
	assert_int_equal(r->nterms, 2);
	assert_string_equal(r->terms[1].name, "struct st_table");
	assert_int_equal(r->terms[1].col, 16);
	assert_int_equal(r->conds[0].prop, SF_BP_FITS);
	assert_int_equal(r->conds[0].limit, 64);
	assert_string_equal(r->conds[0].spec, "ruby-3.3");
	assert_int_equal(r->conds[0].classes.n, 5);
	assert_int_equal(r->conds[0].classes.v[0], 40);
	assert_int_equal(r->conds[0].classes.v[4], 640);
	assert_string_equal(r->text, "struct RHash + struct st_table fits 64 in ruby-3.3");

	r = &b->rules[3];
	assert_int_equal(r->line, 6);
	assert_int_equal(r->nconds, 2);
	assert_int_equal(r->conds[1].prop, SF_BP_CACHELINES);
	assert_int_equal(r->conds[1].limit, 152);

	r = &b->rules[5];
	assert_true(r->is_glob);
	assert_int_equal(r->glob_kind, -1);
	assert_string_equal(r->glob, "*");
	assert_int_equal(r->nterms, 0);
	sf_budget_free(b);
}

static void test_parse_forms(void **state)
{
	(void)state;
	struct sf_budget *b = parse_ok(
		"\xef\xbb\xbfst_table size<=0x30 optional\r\n"
		"\tunion rb_u  members>1 waste<4 align>=4 size>2 padding==0\n"
		"struct rb_* holes == 0 optional\n"
		"ns::C<int, long> size <= 8\n"
		"a+b+c fits 100\n"
		"x fits 64 in 32,64,128 # list\n");

	assert_int_equal(b->nrules, 6);
	assert_string_equal(b->rules[0].terms[0].name, "st_table");
	assert_int_equal(b->rules[0].conds[0].limit, 48);
	assert_true(b->rules[0].optional);
	assert_int_equal(b->rules[0].col, 4);   /* after the byte order mark */

	const struct sf_brule *r = &b->rules[1];
	assert_string_equal(r->terms[0].name, "union rb_u");
	assert_int_equal(r->nconds, 5);
	assert_int_equal(r->conds[0].op, SF_BOP_GT);
	assert_int_equal(r->conds[1].op, SF_BOP_LT);
	assert_int_equal(r->conds[2].op, SF_BOP_GE);
	assert_int_equal(r->conds[3].op, SF_BOP_GT);
	assert_int_equal(r->conds[4].op, SF_BOP_EQ);
	assert_false(r->optional);

	r = &b->rules[2];
	assert_true(r->is_glob);
	assert_int_equal(r->glob_kind, SF_KIND_STRUCT);
	assert_string_equal(r->glob, "rb_*");
	assert_true(r->optional);

	assert_string_equal(b->rules[3].terms[0].name, "ns::C<int, long>");
	assert_int_equal(b->rules[4].nterms, 3);
	assert_string_equal(b->rules[4].terms[2].name, "c");
	assert_null(b->rules[4].conds[0].spec);
	assert_int_equal(b->rules[5].conds[0].classes.n, 3);
	sf_budget_free(b);

	/* NAME@FILE: the name without it (what the reader is asked for),
	 * the file kept apart; in a sum and on a glob too */
	b = parse_ok("struct config@redis-benchmark.c size <= 416\n"
		     "x@src/a.h + union y fits 64\n"
		     "struct rb_*@st.c holes == 0\n"
		     "ns::C<a@b>@c.h size <= 1\n");
	assert_string_equal(b->rules[0].terms[0].name, "struct config");
	assert_string_equal(b->rules[0].terms[0].bare, "config");
	assert_string_equal(b->rules[0].terms[0].file, "redis-benchmark.c");
	assert_string_equal(b->rules[1].terms[0].file, "src/a.h");
	assert_null(b->rules[1].terms[1].file);
	assert_string_equal(b->rules[2].glob, "rb_*");
	assert_string_equal(b->rules[2].glob_file, "st.c");
	/* an '@' inside brackets is part of the name */
	assert_string_equal(b->rules[3].terms[0].name, "ns::C<a@b>");
	assert_string_equal(b->rules[3].terms[0].file, "c.h");
	sf_budget_free(b);

	/* Only comments and blank lines: no rules, no error. */
	b = parse_ok("# nothing\n\n   \t\n# more\n");
	assert_int_equal(b->nrules, 0);
	sf_budget_free(b);
}

static void test_parse_errors(void **state)
{
	(void)state;
	parse_bad("struct a size <= 1\nstruct b sise <= 40\n", 2, 10,
		  "unknown property 'sise'");
	parse_bad("struct a size =< 40\n", 1, 15, "bad operator '=<'");
	parse_bad("struct a size = 40\n", 1, 15, "bad operator '='");
	parse_bad("struct a size != 40\n", 1, 15, "bad operator '!='");
	parse_bad("struct a size 40\n", 1, 15, "bad operator '40'");
	parse_bad("struct a size\n", 1, 14, "expected an operator");
	parse_bad("struct a size <=\n", 1, 17, "expected a number after '<='");
	parse_bad("struct a size <= # no\n", 1, 18, "expected a number after '<='");
	parse_bad("struct a size <= -4\n", 1, 18, "expected a number after '<=', found '-4'");
	parse_bad("struct a size <= 40 junk\n", 1, 21, "unexpected 'junk'");
	parse_bad("struct a size <= 40 ;\n", 1, 21, "unexpected ';'");
	parse_bad("struct a size <= 40kb\n", 1, 20, "unexpected 'kb' after the number 40");
	parse_bad("struct a size <= 99999999999999999999\n", 1, 18, "too large");
	parse_bad("struct a fits\n", 1, 14, "expected a number after 'fits'");
	parse_bad("struct a fits 64 in\n", 1, 20, "expected size classes after 'in'");
	parse_bad("struct a fits 64 in ruby-9\n", 1, 21, "bad size classes");
	parse_bad("struct a fits 64 in 64,32\n", 1, 21, "strictly increasing");
	parse_bad("struct a\n", 1, 9, "expected a condition");
	parse_bad("struct a optional\n", 1, 18, "expected a condition");
	parse_bad("struct\n", 1, 7, "expected a type name after 'struct'");
	parse_bad("size <= 40\n", 1, 1, "expected a type name before 'size'");
	parse_bad("a + size <= 1\n", 1, 5, "expected a type name before 'size'");
	parse_bad("a + + b size <= 1\n", 1, 5, "expected a type name");
	parse_bad("struct a + struct rb_* size <= 1\n", 1, 19,
		  "a pattern cannot be part of a sum");
	parse_bad("rb_* + a size <= 1\n", 1, 8, "a pattern cannot be part of a sum");
	parse_bad("@f size <= 1\n", 1, 1, "expected a type name before '@'");
	parse_bad("struct a@ size <= 1\n", 1, 10, "expected a file name after '@'");
	parse_bad("# ok\nstruct a size <= 1 # fine\n\n\tstruct b holes == 0 x\n",
		  4, 22, "unexpected 'x'");

	/* Binary input: the column of the first NUL or control byte. */
	static const char bin[] = "\x7f" "ELF\x02\x01\x01\0\0\0";
	parse_bad_n(bin, sizeof(bin) - 1, 1, 1, "control character 0x7f");
	static const char nul[] = "struct a size <= 1\nstruct b\0 size <= 2\n";
	parse_bad_n(nul, sizeof(nul) - 1, 2, 9, "NUL byte");

	/* A 10 MB line: refused at the first byte past the limit. */
	size_t big = 10u << 20;
	char *line = sf_xmalloc(big + 1);
	memcpy(line, "struct a ", 9);
	memset(line + 9, 'x', big - 9);
	line[big] = '\n';
	parse_bad_n(line, big + 1, 1, SF_BUDGET_MAX_LINE + 1, "line longer than");
	free(line);
}

/* text fed to the incremental parser cut at `cut` and then a byte at a time */
static int parse_pieces(const char *text, size_t cut, struct sf_budget **b,
			struct sf_err *err)
{
	struct sf_budget_parser *p = sf_budget_parser_new("b.txt");
	struct sf_budget_problem why;
	size_t len = strlen(text);

	if (sf_budget_parser_feed(p, text, cut, &why) < 0)
		goto bad;
	for (size_t i = cut; i < len; i++)
		if (sf_budget_parser_feed(p, text + i, 1, &why) < 0)
			goto bad;
	if (sf_budget_parser_finish(p, b, &why) == 0)
		return 0;
	return sf_budget_problem_err("b.txt", &why, err);
bad:
	sf_budget_parser_free(p);
	*b = NULL;
	return sf_budget_problem_err("b.txt", &why, err);
}

/* cmd/ reads a budget in pieces: any cut gives what the whole text gives */
static void test_parse_in_pieces(void **state)
{
	static const char good[] = "# budget\nstruct st_table  size <= 40\n\n"
				   "RHash + st_table fits 64 in 40,80  # slot\nrb_*  holes == 0";
	static const char bad[] = "struct st_table size <= 40\nRHash size <= 0x\n";
	struct sf_budget *whole = parse_ok(good), *b;
	struct sf_err err = SF_ERR_INIT, want = SF_ERR_INIT;

	(void)state;
	assert_int_equal(whole->nrules, 3);
	assert_int_equal(parse("b.txt", bad, strlen(bad), &b, &want), -1);
	for (size_t cut = 0; cut <= strlen(good); cut++) {
		assert_int_equal(parse_pieces(good, cut, &b, &err), 0);
		assert_string_equal(b->path, "b.txt");
		assert_int_equal(b->nrules, whole->nrules);
		for (size_t r = 0; r < b->nrules; r++) {
			assert_string_equal(b->rules[r].text, whole->rules[r].text);
			assert_int_equal(b->rules[r].line, whole->rules[r].line);
		}
		sf_budget_free(b);
	}
	for (size_t cut = 0; cut <= strlen(bad); cut++) {
		assert_int_equal(parse_pieces(bad, cut, &b, &err), -1);
		assert_null(b);
		assert_string_equal(err.msg, want.msg);
	}
	assert_string_equal(want.msg, "b.txt:2:16: unexpected 'x' after the number 0");
	/* nothing but blanks and comments: a budget of no rule (cmd/ refuses it) */
	assert_int_equal(parse_pieces("# only\n\n", 3, &b, &err), 0);
	assert_int_equal(b->nrules, 0);
	sf_budget_free(b);
	sf_budget_free(whole);
}

static void test_describe(void **state)
{
	(void)state;
	struct sf_budget *b = parse_ok("a holes >= 3 fits 64 in ruby-3.3 fits 7 "
				       "hole_bytes < 9\n");
	struct strbuf sb = STRBUF_INIT;

	sf_bcond_describe(&sb, &b->rules[0].conds[0]);
	sb_adds(&sb, "|");
	sf_bcond_describe(&sb, &b->rules[0].conds[1]);
	sb_adds(&sb, "|");
	sf_bcond_describe(&sb, &b->rules[0].conds[2]);
	sb_adds(&sb, "|");
	sf_bcond_describe(&sb, &b->rules[0].conds[3]);
	/* the deprecated `holes` is hole_bytes, marked for check's note */
	assert_string_equal(sb.buf, "hole_bytes >= 3|fits 64 in ruby-3.3|fits 7|"
			    "hole_bytes < 9");
	assert_true(b->rules[0].conds[0].old_holes);
	assert_false(b->rules[0].conds[3].old_holes);
	assert_int_equal(b->rules[0].conds[0].prop, b->rules[0].conds[3].prop);
	sb_release(&sb);
	sf_budget_free(b);
}

/* ------------------------------------------------------------ measuring */

static void test_measure_matches_layout(void **state)
{
	(void)state;
	struct sf_typeset *ts = model();
	const struct sf_type *t[4];
	struct sf_measure m, sum = { 0 };
	struct sf_layout l;

	assert_int_equal(sf_typeset_find(ts, "st_table", t, 4), 1);
	sf_measure_type(t[0], &m);
	sf_layout_compute(t[0], 64, &l);
	assert_int_equal(m.size, l.size);
	assert_int_equal(m.holes, l.sum_holes);
	assert_int_equal(m.padding, l.padding);
	assert_int_equal(m.members, l.members);
	assert_int_equal(m.cachelines, l.cachelines);
	assert_int_equal(m.align, l.align);
	/* and what that layout is: 48 bytes, the 1-byte hole after size_ind */
	assert_int_equal(m.size, 48);
	assert_int_equal(m.holes, 1);
	assert_int_equal(l.nholes, 1);
	assert_int_equal(l.holes[0].offset, 3);
	assert_int_equal(m.members, 9);
	sf_layout_release(&l);

	sf_measure_add(&sum, &m);
	assert_int_equal(sf_typeset_find(ts, "struct RHash", t + 1, 3), 1);
	sf_measure_type(t[1], &m);
	assert_int_equal(m.size, 24);
	sf_measure_add(&sum, &m);
	assert_int_equal(sum.size, 72);
	assert_int_equal(sum.members, 11);
	assert_int_equal(sum.holes, 1);
	assert_int_equal(sum.cachelines, 2);   /* 72 bytes span two lines */
	assert_int_equal(sum.align, 8);
	sf_typeset_free(ts);
}

static void test_operators(void **state)
{
	(void)state;
	struct sf_bcond c = { .prop = SF_BP_SIZE, .limit = 40 };
	static const struct { uint8_t op; bool below, at, above; } want[] = {
		{ SF_BOP_LE, true, true, false },
		{ SF_BOP_LT, true, false, false },
		{ SF_BOP_EQ, false, true, false },
		{ SF_BOP_GE, false, true, true },
		{ SF_BOP_GT, false, false, true },
	};

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		c.op = want[i].op;
		assert_int_equal(sf_bcond_holds(&c, 39, false), want[i].below);
		assert_int_equal(sf_bcond_holds(&c, 40, false), want[i].at);
		assert_int_equal(sf_bcond_holds(&c, 41, false), want[i].above);
	}
	c.op = SF_BOP_LE;
	assert_false(sf_bcond_holds(&c, 1, true));   /* no class never fits */
}

/* ------------------------------------------------------------ evaluating */

static void eval_ok(const char *text, struct sf_typeset *ts,
		    struct sf_budget **b, struct sf_bresult *res)
{
	struct sf_err err = SF_ERR_INIT;

	*b = parse_ok(text);
	if (eval(*b, ts, "model.o", res, &err) != 0)
		fail_msg("eval failed: %s", err.msg);
}

/* The model of a later build: st_table grew from 48 to 56 bytes (its 9
 * members kept, 8 bytes of padding more), rb_a and RHash unchanged, and a
 * new rb_n that the base build lacks. */
static struct sf_typeset *grown_model(void)
{
	struct sf_typeset *ts = sf_typeset_new();

	mk(ts, SF_KIND_STRUCT, "st_table", 56, 8, sf_test_st_table_m, 9, 30);
	mk(ts, SF_KIND_STRUCT, "RHash", 24, 8, sf_test_rhash_m, 2, 44);
	mk(ts, SF_KIND_STRUCT, "rb_a", 16, 8, rb_a_m, 2, 50);
	mk(ts, SF_KIND_STRUCT, "rb_n", 16, 8, rb_a_m, 2, 65);
	return ts;
}

/* --baseline: a failure the base build had, no worse, is dropped; what
 * grew, or fails only now, stays; stats and nbroken are recounted. */
static void test_baseline_drops_known(void **state)
{
	static const char text[] =
		"struct st_table size <= 40\n"      /* 48 then 56: grew, stays */
		"struct st_table members >= 12\n"   /* 9 then 9: known */
		"struct rb_a holes == 0\n"          /* 7 then 7: known */
		"struct RHash size <= 16\n"         /* 24 then 24: known */
		"struct rb_n holes == 0 optional\n" /* only now: stays */
		"struct st_table padding <= 0\n";   /* 0 then 8: newly broken */
	struct sf_typeset *base_ts = model(), *cur_ts = grown_model();
	struct sf_budget *b = parse_ok(text);
	struct sf_bresult base, cur;
	struct sf_err err = SF_ERR_INIT;

	(void)state;
	assert_int_equal(eval(b, base_ts, "base.o", &base, &err), 0);
	assert_int_equal(eval(b, cur_ts, "cur.o", &cur, &err), 0);
	assert_int_equal(base.nfails, 4);
	assert_int_equal(cur.nfails, 6);
	sf_bresult_drop_known(&cur, &base);
	assert_int_equal(cur.nknown, 3);
	assert_int_equal(cur.nfails, 3);
	assert_int_equal(cur.nbroken, 3);
	const uint32_t left[] = { 0, 4, 5 };
	for (size_t i = 0; i < 3; i++)
		assert_int_equal(cur.fails[i].rule, left[i]);
	assert_int_equal(cur.fails[0].value, 56);
	const uint32_t failed[] = { 1, 0, 0, 0, 1, 1 };
	for (size_t i = 0; i < 6; i++)
		assert_int_equal(cur.stats[i].failed, failed[i]);

	/* the other way round: everything the old build breaks is no worse
	 * than in the grown one, and st_table shrank: nothing new */
	struct sf_bresult back, all;
	assert_int_equal(eval(b, base_ts, "base.o", &back, &err), 0);
	assert_int_equal(eval(b, cur_ts, "cur.o", &all, &err), 0);
	sf_bresult_drop_known(&back, &all);
	assert_int_equal(back.nfails, 0);
	assert_int_equal(back.nbroken, 0);
	assert_int_equal(back.nknown, 4);

	/* >=: fewer members than the base build had is worse, not known */
	struct sf_budget *b2 = parse_ok("struct st_table members >= 12\n");
	struct sf_typeset *fewer = sf_typeset_new();
	mk(fewer, SF_KIND_STRUCT, "st_table", 48, 8, sf_test_st_table_m, 8, 30);
	struct sf_bresult b2base, b2cur;
	assert_int_equal(eval(b2, base_ts, "base.o", &b2base, &err), 0);
	assert_int_equal(eval(b2, fewer, "cur.o", &b2cur, &err), 0);
	sf_bresult_drop_known(&b2cur, &b2base);
	assert_int_equal(b2cur.nfails, 1);
	assert_int_equal(b2cur.nknown, 0);
	assert_int_equal(b2cur.fails[0].value, 8);

	sf_bresult_release(&b2cur);
	sf_bresult_release(&b2base);
	sf_budget_free(b2);
	sf_typeset_free(fewer);
	sf_bresult_release(&back);
	sf_bresult_release(&all);
	sf_bresult_release(&cur);
	sf_bresult_release(&base);
	sf_budget_free(b);
	sf_typeset_free(cur_ts);
	sf_typeset_free(base_ts);
}

static void test_rule_text_without_comment(void **state)
{
	/* '<' in a condition is no bracket: the comment after it never leaks */
	struct sf_budget *b = parse_ok("*   holes <= 16  # no <struct> hides more\n"
				       "struct st_table size<48#tight\n"
				       "struct a<int, b> size <= 8  # a template\n");

	(void)state;
	assert_int_equal(b->nrules, 3);
	assert_string_equal(b->rules[0].text, "* holes <= 16");
	assert_string_equal(b->rules[1].text, "struct st_table size<48");
	assert_string_equal(b->rules[2].text, "struct a<int, b> size <= 8");
	sf_budget_free(b);
}

static void test_eval_named_and_sum(void **state)
{
	(void)state;
	struct sf_typeset *ts = model();
	struct sf_budget *b;
	struct sf_bresult res;

	eval_ok("struct st_table size <= 40\n"               /* 48: broken */
		"struct st_table size <= 48 holes == 1 waste < 2\n"
		"struct RHash + struct st_table fits 64 in ruby-3.3\n" /* 72 -> 80 */
		"RHash + st_table fits 80 in ruby-3.3 size == 72\n"
		"st_table fits 40 in 32,40,48\n"                  /* 48 -> 48 */
		"st_table fits 47\n"                              /* 48 > 47 */
		"st_table + st_table + st_table + st_table + st_table + "
		"st_table + st_table + st_table + st_table + st_table + "
		"st_table + st_table + st_table + st_table fits 640 in ruby-3.3\n"
		"struct st_table members >= 9 cachelines == 1 align == 8 padding == 0\n",
		ts, &b, &res);

	assert_int_equal(res.nbroken, 5);
	assert_int_equal(res.nskipped, 0);
	assert_int_equal(res.nfails, 5);
	assert_int_equal(res.nchecks, 1 + 3 + 1 + 2 + 1 + 1 + 1 + 4);
	for (size_t i = 0; i < b->nrules; i++)
		assert_int_equal(res.stats[i].checked, 1);

	const struct sf_bfail *f = &res.fails[0];
	assert_int_equal(f->rule, 0);
	assert_string_equal(f->subject, "struct st_table");
	assert_int_equal(f->value, 48);
	assert_int_equal(f->type->decl_line, 30);

	f = &res.fails[1];
	assert_int_equal(f->rule, 2);
	assert_string_equal(f->subject, "struct RHash + struct st_table");
	assert_int_equal(f->size, 72);
	assert_int_equal(f->value, 80);
	assert_false(f->no_class);
	assert_string_equal(f->type->name, "RHash");   /* points at the first term */

	f = &res.fails[2];
	assert_int_equal(f->rule, 4);
	assert_int_equal(f->value, 48);

	f = &res.fails[3];
	assert_int_equal(f->rule, 5);
	assert_int_equal(f->value, 48);

	f = &res.fails[4];
	assert_int_equal(f->rule, 6);
	assert_int_equal(f->size, 14 * 48);
	assert_true(f->no_class);   /* 672 bytes: above ruby-3.3's 640 */
	sf_bresult_release(&res);
	sf_budget_free(b);
	sf_typeset_free(ts);
}

/* live_waste = instances alive x waste; a sum counts as its first term;
 * a type not counted has none alive. */
static void test_eval_live_waste(void **state)
{
	(void)state;
	struct sf_typeset *ts = model();
	struct sf_budget *b = parse_ok("struct rb_a live_waste <= 6999\n"   /* 1000 x 7 */
				       "struct rb_a + struct rb_b live_waste <= 14000\n"
				       "struct rb_b live_waste == 0\n"
				       "* live_waste <= 7000\n");
	struct sf_live live = { 0 };
	const struct sf_type *found[4];
	struct sf_bresult res;
	struct sf_budget_miss miss;
	uint32_t k;

	assert_int_equal(sf_typeset_find(ts, "rb_a", found, 4), 1);
	sf_live_add(&live, found[0], 1000, NULL);
	assert_non_null(sf_budget_live_rule(b, &k));
	assert_int_equal(k, 0);
	assert_int_equal(sf_budget_eval_live(b, ts, &live, "x.o", &res, &miss), 0);
	/* rule 0: 7000 > 6999; rule 1: 1000 x (7 + 7) = 14000 holds; rule 2:
	 * rb_b not counted, 0; rule 3: rb_a's 7000 holds */
	assert_int_equal(res.nfails, 1);
	assert_int_equal(res.fails[0].rule, 0);
	assert_int_equal(res.fails[0].value, 7000);
	sf_bresult_release(&res);
	/* without counts none is alive: every live_waste is 0 */
	assert_int_equal(sf_budget_eval(b, ts, "x.o", &res, &miss), 0);
	assert_int_equal(res.nfails, 0);
	sf_bresult_release(&res);
	sf_live_release(&live);
	sf_budget_free(b);
	sf_typeset_free(ts);
}

static void test_eval_globs(void **state)
{
	(void)state;
	struct sf_typeset *ts = model();
	struct sf_budget *b;
	struct sf_bresult res;

	eval_ok("* holes <= 0\n"          /* st_table (1) and rb_a (7) break */
		"struct rb_* padding == 0\n" /* rb_b (7) breaks; rb_u is a union */
		"rb_?? size >= 1 optional\n"  /* never matches: rb_ + two chars */
		"union * size == 4\n"
		"rb_* align == 8\n",          /* rb_u (4) breaks */
		ts, &b, &res);
	assert_int_equal(res.stats[0].checked, 5);
	assert_int_equal(res.stats[0].failed, 2);
	assert_int_equal(res.stats[1].checked, 2);
	assert_int_equal(res.stats[1].failed, 1);
	assert_int_equal(res.stats[2].checked, 0);
	assert_true(res.stats[2].skipped);
	assert_int_equal(res.stats[3].checked, 1);
	assert_int_equal(res.stats[3].failed, 0);
	assert_int_equal(res.stats[4].checked, 3);
	assert_int_equal(res.nbroken, 3);
	assert_int_equal(res.nfails, 4);
	/* sorted by rule, then name */
	assert_string_equal(res.fails[0].subject, "struct rb_a");
	assert_int_equal(res.fails[0].value, 7);
	assert_string_equal(res.fails[1].subject, "struct st_table");
	assert_int_equal(res.fails[1].value, 1);
	assert_string_equal(res.fails[2].subject, "struct rb_b");
	assert_int_equal(res.fails[2].value, 7);
	assert_string_equal(res.fails[3].subject, "union rb_u");
	assert_int_equal(res.fails[3].value, 4);
	sf_bresult_release(&res);
	sf_budget_free(b);
	sf_typeset_free(ts);
}

/* A type or glob that finds nothing: an error unless optional. */
static void test_eval_not_found(void **state)
{
	(void)state;
	struct sf_typeset *ts = model();
	struct sf_budget *b;
	struct sf_bresult res;
	struct sf_err err = SF_ERR_INIT;

	b = parse_ok("st_table size <= 48\nstruct  nosuch size <= 1\n");
	assert_int_equal(eval(b, ts, "model.o", &res, &err), -1);
	assert_string_equal(err.msg, "b.txt:2:1: type 'struct nosuch' not found in "
			    "model.o (add 'optional' to the rule if it may be absent)");
	sf_budget_free(b);

	b = parse_ok("RHash + nosuch fits 64\n");
	assert_int_equal(eval(b, ts, "model.o", &res, &err), -1);
	assert_non_null(strstr(err.msg, "b.txt:1:9: type 'nosuch' not found"));
	sf_budget_free(b);

	b = parse_ok("union st_table size <= 48\n");   /* a struct, not a union */
	assert_int_equal(eval(b, ts, "model.o", &res, &err), -1);
	sf_budget_free(b);

	b = parse_ok("\n  struct zz_* size <= 48\n");
	assert_int_equal(eval(b, ts, "model.o", &res, &err), -1);
	assert_string_equal(err.msg, "b.txt:2:3: no type in model.o matches 'struct zz_*' "
			    "(add 'optional' to the rule if it may be absent)");
	sf_budget_free(b);

	eval_ok("nosuch size <= 1 optional\n"
		"RHash + nosuch fits 64 optional\n"
		"zz_* holes == 0 optional\n"
		"st_table size <= 1\n", ts, &b, &res);
	assert_int_equal(res.nskipped, 3);
	assert_int_equal(res.nbroken, 1);
	assert_true(res.stats[0].skipped && res.stats[1].skipped && res.stats[2].skipped);
	assert_false(res.stats[3].skipped);
	sf_bresult_release(&res);
	sf_budget_free(b);
	sf_typeset_free(ts);
}

/* Two differing definitions of one name: each is checked. */
static void test_eval_variants(void **state)
{
	(void)state;
	struct sf_typeset *ts = model();
	struct sf_budget *b;
	struct sf_bresult res;

	mk(ts, SF_KIND_STRUCT, "st_table", 56, 8, sf_test_st_table_m, 9, 99);
	eval_ok("st_table size <= 48\nRHash + st_table size == 80\n", ts, &b, &res);
	assert_int_equal(res.stats[0].checked, 2);
	assert_int_equal(res.stats[0].failed, 1);
	assert_int_equal(res.fails[0].value, 56);
	assert_int_equal(res.fails[0].type->decl_line, 99);
	/* a sum takes the largest definition: 24 + 56 */
	assert_int_equal(res.stats[1].failed, 0);
	sf_bresult_release(&res);
	sf_budget_free(b);
	sf_typeset_free(ts);
}

static void test_wanted(void **state)
{
	(void)state;
	struct sf_budget *b = parse_ok("struct a size <= 1\nb + union c fits 8\n");
	const char **w = sf_budget_wanted(b);

	assert_non_null(w);
	assert_string_equal(w[0], "a");
	assert_string_equal(w[1], "b");
	assert_string_equal(w[2], "c");
	assert_null(w[3]);
	free(w);
	sf_budget_free(b);
	b = parse_ok("struct a size <= 1\n* holes == 0\n");
	assert_null(sf_budget_wanted(b));
	sf_budget_free(b);
}

/* --write-budget's text parses back, holds today and breaks on growth. */
static void test_pin_round_trip(void **state)
{
	(void)state;
	struct sf_typeset *ts = model();
	struct strbuf sb = STRBUF_INIT;
	struct sf_budget *b;
	struct sf_bresult res;
	struct sf_err err = SF_ERR_INIT;

	mk(ts, SF_KIND_STRUCT, "st_table", 56, 8, sf_test_st_table_m, 9, 99); /* variant */
	mk(ts, SF_KIND_STRUCT, "", 8, 8, rb_b_m, 1, 1);              /* anonymous */
	mk(ts, SF_KIND_CLASS, "ns::C<int, long>", 8, 8, rb_b_m, 1, 7);
	struct sf_budget_pins pins;
	sf_budget_pins_make(ts, &pins);
	assert_int_equal(pins.rules, 6);
	sf_render_budget_pins(&sb, &pins, "model.o");
	sf_budget_pins_release(&pins);
	assert_true(!strncmp(sb.buf, "# structfit budget: the sizes of the types in model.o,", 54));
	assert_non_null(strstr(sb.buf, "struct st_table"));
	assert_non_null(strstr(sb.buf, "size <= 56\n"));
	assert_null(strstr(sb.buf, "size <= 48\n"));
	assert_non_null(strstr(sb.buf, "class ns::C<int, long>"));
	assert_int_equal(parse("pin", sb.buf, sb.len, &b, &err), 0);
	assert_int_equal(b->nrules, 6);
	assert_int_equal(eval(b, ts, "model.o", &res, &err), 0);
	assert_int_equal(res.nbroken, 0);
	assert_int_equal(res.nchecks, 7);   /* st_table twice: both definitions */
	sf_bresult_release(&res);

	/* the next build: rb_a grew by 8 bytes */
	struct sf_typeset *ts2 = model();
	static const struct sf_test_mdef grown[] = {
		{ "c", "char", 0, 1, 1 }, { "l", "long", 8, 8, 8 }, { "m", "long", 16, 8, 8 },
	};
	mk(ts2, SF_KIND_STRUCT, "rb_a", 24, 8, grown, 3, 50);
	mk(ts2, SF_KIND_CLASS, "ns::C<int, long>", 8, 8, rb_b_m, 1, 7);
	assert_int_equal(eval(b, ts2, "model.o", &res, &err), 0);
	assert_int_equal(res.nbroken, 1);
	assert_string_equal(res.fails[0].subject, "struct rb_a");
	assert_int_equal(res.fails[0].value, 24);
	assert_int_equal(b->rules[res.fails[0].rule].conds[0].limit, 16);
	sf_bresult_release(&res);
	sf_budget_free(b);
	sb_release(&sb);
	sf_typeset_free(ts2);
	sf_typeset_free(ts);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_issue_example),
		cmocka_unit_test(test_parse_forms),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_parse_in_pieces),
		cmocka_unit_test(test_describe),
		cmocka_unit_test(test_measure_matches_layout),
		cmocka_unit_test(test_operators),
		cmocka_unit_test(test_eval_named_and_sum),
		cmocka_unit_test(test_eval_live_waste),
		cmocka_unit_test(test_eval_globs),
		cmocka_unit_test(test_eval_not_found),
		cmocka_unit_test(test_eval_variants),
		cmocka_unit_test(test_wanted),
		cmocka_unit_test(test_pin_round_trip),
		cmocka_unit_test(test_baseline_drops_known),
		cmocka_unit_test(test_rule_text_without_comment),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
