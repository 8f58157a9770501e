/*
 * fuzz_budget.c - libFuzzer target: the bytes are a budget file for
 * `structfit check --budget`.
 *
 * Parsed with sf_budget_parse (layout/budget.h) and, when it parses,
 * evaluated over a small hand-built typeset (Ruby's st_table before the
 * narrowing, RHash, a union, a C++ class with a template name, and a
 * struct whose members run past its end, as hostile DWARF can make) and
 * rendered in every format `check` has.  An error must be one line
 * "PATH:LINE:COL: problem" or "PATH: problem".
 *
 * Build and run: tests/fuzz.sh (make fuzz).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout/budget.h"
#include "model/typeset.h"
#include "lib/err.h"
#include "lib/strbuf.h"
#include "report/check.h"
#include "tests/unit/model_build.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define BUDGET_PATH "fuzz.budget"

static void mk(struct sf_typeset *ts, enum sf_kind kind, const char *name,
	       uint64_t size, uint32_t align, const struct sf_test_mdef *m, size_t n)
{
	const struct sf_test_tdef d = {
		.kind = kind, .name = name, .size = size, .align = align,
		.file = "fuzz.c", .line = 7, .origin = "fuzz.o", .addr_size = 8,
		.member_tclass = SF_T_INT,
	};

	sf_test_add_type(ts, &d, m, n);
}

static const struct sf_test_mdef u_m[] = {
	{ "i", "int", 0, 4, 4 },
	{ "d", "double", 0, 8, 8 },
};

static const struct sf_test_mdef tmpl_m[] = {
	{ "c", "char", 0, 1, 1 },
	{ "p", "void *", 8, 8, 8 },
};

/* what a hostile object can make: members past the end, a huge size */
static const struct sf_test_mdef broken_m[] = {
	{ "a", "long", 0, 8, 8 },
	{ "past", "long", 1u << 20, 8, 8 },
	{ "huge", "char", UINT64_MAX - 4, 16, 1 },
};

static struct sf_typeset *model(void)
{
	struct sf_typeset *ts = sf_typeset_new();

	mk(ts, SF_KIND_STRUCT, "st_table", 48, 8, sf_test_st_table_m, 9);
	mk(ts, SF_KIND_STRUCT, "RHash", 24, 8, sf_test_rhash_m, 2);
	mk(ts, SF_KIND_UNION, "num", 8, 8, u_m, 2);
	mk(ts, SF_KIND_CLASS, "ns::C<int, long>", 16, 8, tmpl_m, 2);
	mk(ts, SF_KIND_STRUCT, "rb_broken", 8, 8, broken_m, 3);
	mk(ts, SF_KIND_STRUCT, "rb_huge", UINT64_MAX, 1, NULL, 0);
	mk(ts, SF_KIND_STRUCT, "", 4, 4, u_m, 1);
	return ts;
}

static void check_message(const struct sf_err *err)
{
	size_t len = strnlen(err->msg, sizeof(err->msg));

	if (len == sizeof(err->msg) || len == 0 || strchr(err->msg, '\n') ||
	    strncmp(err->msg, BUDGET_PATH ":", strlen(BUDGET_PATH ":")) != 0) {
		fprintf(stderr, "fuzz_budget: bad error message: '%.*s'\n",
			(int)len, err->msg);
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sf_budget *b = NULL;
	struct sf_err err;
	struct sf_budget_problem why;
	struct sf_budget_miss miss;

	err.msg[0] = '\0';
	if (sf_budget_parse(BUDGET_PATH, (const char *)data, size, &b, &why) < 0) {
		sf_budget_problem_err(BUDGET_PATH, &why, &err);
		check_message(&err);
		return 0;
	}

	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < b->nrules; i++)
		for (uint32_t k = 0; k < b->rules[i].nconds; k++)
			sf_bcond_describe(&sb, &b->rules[i].conds[k]);
	free(sf_budget_wanted(b));

	struct sf_typeset *ts = model();
	struct sf_bresult res;
	err.msg[0] = '\0';
	if (sf_budget_eval(b, ts, "fuzz.o", &res, &miss) == 0) {
		struct sf_check_opts o = { .tool_version = "0", .source_root = "/src" };
		sf_render_check_text(&sb, &res, &o);
		sf_render_check_json(&sb, &res, &o);
		sf_render_check_sarif(&sb, &res, &o);
		sf_render_check_junit(&sb, &res, &o);
		sf_render_check_github(&sb, &res, &o);
		sf_render_check_markdown(&sb, &res, &o);
		/* --baseline against the same build: every failure is known */
		struct sf_bresult again;
		if (sf_budget_eval(b, ts, "fuzz.o", &again, &miss) == 0) {
			size_t n = again.nfails;
			sf_bresult_drop_known(&again, &res);
			if (again.nfails != 0 || again.nknown != n || again.nbroken != 0)
				abort();
			sf_bresult_release(&again);
		}
		sf_bresult_release(&res);
	} else {
		sf_budget_miss_err(b, &miss, &err);
		check_message(&err);
	}
	sb_reset(&sb);
	struct sf_budget_pins pins;
	sf_budget_pins_make(ts, &pins);
	sf_render_budget_pins(&sb, &pins, "fuzz.o");
	sf_budget_pins_release(&pins);
	sb_release(&sb);
	sf_typeset_free(ts);
	sf_budget_free(b);
	return 0;
}
