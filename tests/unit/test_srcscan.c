/*
 * test_srcscan.c - finding the code a reorder breaks (layout/srcscan.c):
 * positional initializers, compound literals, offsetof and static_assert
 * of one struct, by tag and typedef names; and generated-file banners.
 *
 * Each case lexes a C source given as a string and checks every place
 * found (line, kind, count, name) against what a reader of the source
 * sees, and that safe code (designated initializers, {0}, pointers,
 * casts, other structs) yields nothing.  test_truth checks the choice of
 * the file to patch (sf_srcdefs_truth) on each verdict: no match, the
 * build's own file, all generated, several plain copies, a .h.in behind
 * its copy in a build directory, a stale amalgamation.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "layout/clex.h"
#include "layout/srcscan.h"

struct found {
	struct sf_use *v;
	size_t n;
};

/* The uses of struct `tag` in src, typedef names collected first. */
static void scan(const char *src, const char *tag, struct found *f)
{
	struct sf_lexed lx;
	struct sf_typenames tn = { tag, NULL, 0, 0, NULL, 0, 0 };

	f->v = NULL;
	f->n = 0;
	sf_clex(&lx, src, strlen(src));
	sf_srcscan_typedefs(&lx, tag, &tn);
	sf_srcscan_uses(&lx, &tn, &f->v, &f->n);
	sf_typenames_release(&tn);
	sf_clex_free(&lx);
}

static void expect_use(const struct found *f, size_t i, uint32_t line,
		       uint8_t kind, uint32_t count, const char *what)
{
	assert_true(i < f->n);
	assert_int_equal(f->v[i].line, line);
	assert_int_equal(f->v[i].kind, kind);
	assert_int_equal(f->v[i].count, count);
	assert_string_equal(f->v[i].what, what);
}

static void test_positional(void **state)
{
	(void)state;
	static const char src[] =
		"struct job { char k; long id; };\n"                  /* 1 */
		"typedef struct job job_t, *job_p;\n"                 /* 2 */
		"static const struct job tab[] = {\n"                 /* 3 */
		"\t{ 'a', 1 },\n"
		"\t{ .k = 'b', .id = 2 },\n"
		"\t[2] = { 'c', 3 },\n"
		"};\n"
		"job_t one = { 'z', 9 }, two = { .k = 1 };\n"          /* 8 */
		"struct job grid[2][2] = { { { 1, 2 }, { 0 } }, { ENTRY(3), { 4, 5 } } };\n" /* 9 */
		"job_p p = 0;\n"                                      /* 10 */
		"struct job *q = &(struct job){ 7, 8 };\n"            /* 11 */
		"int n = sizeof(struct job) + sizeof(job_t);\n"       /* 12 */
		"struct other { char k; } o = { 1 };\n"               /* 13 */
		"struct job f(struct job a, job_t b) { return (const struct job){ .k = a.k }; }\n"
		"job_t flat = { 1, 2 };\n";                           /* 15 */
	struct found f;

	scan(src, "job", &f);
	assert_int_equal(f.n, 6);
	expect_use(&f, 0, 3, SF_USE_POSITIONAL, 2, "tab");
	expect_use(&f, 1, 8, SF_USE_POSITIONAL, 1, "one");
	expect_use(&f, 2, 9, SF_USE_POSITIONAL, 2, "grid");
	expect_use(&f, 3, 9, SF_USE_MACRO, 1, "ENTRY");
	expect_use(&f, 4, 11, SF_USE_LITERAL, 1, "");
	expect_use(&f, 5, 15, SF_USE_POSITIONAL, 1, "flat");
	free(f.v);
}

static void test_designated_and_zero(void **state)
{
	(void)state;
	static const char src[] =
		"typedef struct { char k; long id; } job_t;\n"
		"job_t a = { .k = 1, .id = 2 };\n"
		"job_t b = { 0 };\n"
		"job_t c = {};\n"
		"job_t d[4] = { 0 };\n"
		"job_t e[] = { { .id = 1 }, [3] = { .k = 2 }, { 0 } };\n"
		"job_t g = { k: 1, id: 2 };\n"
		"job_t *h = (job_t *)0;\n"
		"job_t fn(job_t x);\n";
	struct found f;

	/* an anonymous struct known by its typedef name */
	struct sf_lexed lx;
	struct sf_typenames tn = { NULL, NULL, 0, 0, NULL, 0, 0 };
	sf_clex(&lx, src, strlen(src));
	sf_srcscan_typedefs(&lx, "job_t", &tn);
	assert_int_equal(tn.nplain, 1);
	assert_string_equal(tn.plain[0], "job_t");
	f.v = NULL;
	f.n = 0;
	sf_srcscan_uses(&lx, &tn, &f.v, &f.n);
	assert_int_equal(f.n, 0);
	sf_typenames_release(&tn);
	sf_clex_free(&lx);
	free(f.v);
}

static void test_offsetof_static_assert(void **state)
{
	(void)state;
	static const char src[] =
		"#include <stddef.h>\n"
		"struct msg { char tag; long len; };\n"
		"typedef struct msg msg_t;\n"
		"_Static_assert(offsetof(struct msg, len) == 8, \"wire\");\n"   /* 4 */
		"static_assert(sizeof(msg_t) == 16, \"wire\");\n"               /* 5 */
		"size_t at = __builtin_offsetof(msg_t, len);\n"                 /* 6 */
		"size_t other = offsetof(struct msgs, len);\n"                  /* 7 */
		"_Static_assert(sizeof(long) == 8, \"lp64\");\n"                /* 8 */
		"size_t x = offsetof(struct pair, msg);\n";                     /* 9 */
	struct found f;

	scan(src, "msg", &f);
	assert_int_equal(f.n, 3);
	expect_use(&f, 0, 4, SF_USE_STATIC_ASSERT, 1, "");   /* its offsetof not again */
	expect_use(&f, 1, 5, SF_USE_STATIC_ASSERT, 1, "");
	expect_use(&f, 2, 6, SF_USE_OFFSETOF, 1, "");
	free(f.v);
}

/* Macros that name the type: the tag (Redis's COMMAND_STRUCT), struct TAG, a typedef. */
static void test_macro_names(void **state)
{
	(void)state;
	static const char defs[] =
		"typedef struct cmd cmd_t;\n"
		"#define COMMAND_STRUCT cmd\n"
		"#define CMD_T  struct   cmd \n"
		"#define ALIAS cmd_t\n"
		"#define ALIAS2 ALIAS\n"
		"#define OTHER cmds\n"
		"#define F(x) cmd\n";
	static const char uses[] =
		"struct COMMAND_STRUCT table[] = { { 1, 2 } };\n"     /* 1 */
		"CMD_T one = { 3, 4 };\n"                            /* 2 */
		"ALIAS2 two = { 5, 6 };\n"                           /* 3 */
		"struct OTHER three = { 7, 8 };\n"                   /* 4 */
		"struct F(x) four = { 9 };\n";                       /* 5 */
	struct sf_lexed lx;
	struct sf_typenames tn = { "cmd", NULL, 0, 0, NULL, 0, 0 };
	struct sf_cmacros ms = { NULL, 0, 0 };
	struct found f = { NULL, 0 };

	sf_clex(&lx, defs, strlen(defs));
	sf_cmacros_add(&ms, &lx);
	sf_srcscan_typedefs(&lx, "cmd", &tn);
	sf_clex_free(&lx);
	sf_srcscan_macro_names(&ms, &tn);
	assert_int_equal(tn.ntags, 1);
	assert_string_equal(tn.tags[0], "COMMAND_STRUCT");
	assert_int_equal(tn.nplain, 4);     /* cmd_t, CMD_T, ALIAS, ALIAS2 */

	sf_clex(&lx, uses, strlen(uses));
	sf_srcscan_uses(&lx, &tn, &f.v, &f.n);
	assert_int_equal(f.n, 3);
	expect_use(&f, 0, 1, SF_USE_POSITIONAL, 1, "table");
	expect_use(&f, 1, 2, SF_USE_POSITIONAL, 1, "one");
	expect_use(&f, 2, 3, SF_USE_POSITIONAL, 1, "two");
	free(f.v);
	sf_clex_free(&lx);
	sf_typenames_release(&tn);
	sf_cmacros_release(&ms);
}

/* Structs holding the type by value: their initializers and members. */
static void test_holders(void **state)
{
	(void)state;
	static const char src[] =
		"struct job { char k; long id; };\n"                          /* 1 */
		"struct pool { int n; struct job first, *next, all[2]; };\n"  /* 2 */
		"typedef struct { struct job j; } wrap_t;\n"                  /* 3 */
		"struct ptrs { struct job *p; };\n"                           /* 4 */
		"struct pool a = { 1, { 2, 3 } };\n"                          /* 5 */
		"struct pool b = { .n = 1, .first = { 2, 3 } };\n"            /* 6 */
		"struct pool c = { .first = { .id = 3 }, .all = { { 1, 2 }, { .k = 1 } } };\n"
		"wrap_t d = { { 1, 2 } };\n"                                  /* 8 */
		"struct ptrs e = { 0 }, f = { &(struct job){ .k = 1 } };\n"   /* 9 */
		"_Static_assert(sizeof(wrap_t) == 16, \"\");\n";              /* 10 */
	struct sf_lexed lx;
	struct sf_typenames tn = { "job", NULL, 0, 0, NULL, 0, 0 };
	struct sf_holders h;
	struct found f = { NULL, 0 };

	memset(&h, 0, sizeof(h));
	sf_clex(&lx, src, strlen(src));
	sf_srcscan_holders(&lx, &tn, &h);
	assert_int_equal(h.names.ntags, 1);
	assert_string_equal(h.names.tags[0], "pool");
	assert_int_equal(h.names.nplain, 1);
	assert_string_equal(h.names.plain[0], "wrap_t");
	assert_int_equal(h.nmembers, 3);     /* first, all, j; not next or p */
	assert_string_equal(h.members[0], "first");
	assert_string_equal(h.members[1], "all");
	assert_string_equal(h.members[2], "j");

	sf_srcscan_holder_uses(&lx, &h, &f.v, &f.n);
	assert_int_equal(f.n, 5);
	expect_use(&f, 0, 5, SF_USE_HOLDER, 1, "a");
	expect_use(&f, 1, 8, SF_USE_HOLDER, 1, "d");
	expect_use(&f, 2, 10, SF_USE_STATIC_ASSERT, 1, "holder");
	expect_use(&f, 3, 6, SF_USE_MEMBER, 1, "first");
	expect_use(&f, 4, 7, SF_USE_MEMBER, 1, "all");
	free(f.v);
	f.v = NULL;
	f.n = 0;
	sf_srcscan_uses(&lx, &tn, &f.v, &f.n);
	assert_int_equal(f.n, 0);            /* (struct job){ .k = 1 } is designated */
	free(f.v);
	sf_clex_free(&lx);
	sf_holders_release(&h);
}

static void test_banner(void **state)
{
	(void)state;
	static const struct {
		const char *src;
		int generated;
		uint32_t line;
		const char *phrase;
	} cases[] = {
		{ "/* conf.h - Generated by mkconf. */\nstruct a { int x; };\n", 1, 1,
		  "generated by" },
		{ "#ifndef X\n#define X\n// DO NOT EDIT: made by protoc\n", 1, 3, "do not edit" },
		{ "/*\n** This file is an amalgamation of many separate C source files\n*/\n",
		  1, 1, "amalgamation" },
		{ "/* A hand-written file; the code it describes is generated elsewhere. */\n",
		  0, 0, "" },
		{ "int x;\nint y;\n\"generated by\";\n", 0, 0, "" },
	};
	char big[4096];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sf_lexed lx;
		uint32_t line = 0;
		char phrase[32] = "";
		sf_clex(&lx, cases[i].src, strlen(cases[i].src));
		assert_int_equal(sf_srcscan_banner(&lx, &line, phrase, sizeof(phrase)),
				 cases[i].generated);
		if (cases[i].generated) {
			assert_int_equal(line, cases[i].line);
			assert_string_equal(phrase, cases[i].phrase);
		}
		sf_clex_free(&lx);
	}
	/* a banner past line 20 is not a banner */
	big[0] = '\0';
	for (int i = 0; i < 25; i++)
		strcat(big, "int v;\n");
	strcat(big, "/* generated by hand */\n");
	struct sf_lexed lx;
	uint32_t line;
	char phrase[32];
	sf_clex(&lx, big, strlen(big));
	assert_int_equal(sf_srcscan_banner(&lx, &line, phrase, sizeof(phrase)), 0);
	sf_clex_free(&lx);
}

/* A definition: "gen" for a banner, a file under a build dir is generated by its path. */
static struct sf_srcdef def(const char *rel, int matches, const char *banner)
{
	struct sf_srcdef d = { (char *)rel, 5, matches, "", 0, "" };

	if (banner) {
		snprintf(d.banner, sizeof(d.banner), "%s", banner);
		d.banner_line = 1;
	} else {
		sf_srcscan_build_dir(rel, d.build_dir, sizeof(d.build_dir));
	}
	return d;
}

static void test_truth(void **state)
{
	struct sf_srctruth v;
	(void)state;

	/* nothing matches: rel itself (srcpatch says why) */
	struct sf_srcdef none[] = { def("a.h", 0, NULL) };
	sf_srcdefs_truth(none, 1, "a.h", &v);
	assert_int_equal(v.verdict, SF_TRUTH_NO_MATCH);
	assert_null(v.truth);

	/* the one plain definition, the build's own */
	struct sf_srcdef one[] = { def("a.h", 1, NULL), def("b.h", 0, NULL) };
	sf_srcdefs_truth(one, 2, "a.h", &v);
	assert_int_equal(v.verdict, SF_TRUTH_FOUND);
	assert_ptr_equal(v.truth, &one[0]);
	assert_ptr_equal(v.self, &one[0]);

	/* every copy generated */
	struct sf_srcdef gen[] = { def("gen/conf.h", 1, "do not edit") };
	sf_srcdefs_truth(gen, 1, "gen/conf.h", &v);
	assert_int_equal(v.verdict, SF_TRUTH_ALL_GENERATED);

	/* two plain copies, neither the build's: refused; the build's one: it */
	struct sf_srcdef two[] = { def("old/c.h", 1, NULL), def("src/c.h", 1, NULL),
				   def("bld/c.h", 1, NULL) };
	assert_true(sf_srcdef_generated(&two[2]));
	assert_string_equal(two[2].build_dir, "bld/");
	sf_srcdefs_truth(two, 3, "bld/c.h", &v);
	assert_int_equal(v.verdict, SF_TRUTH_SEVERAL);
	sf_srcdefs_truth(two, 3, "src/c.h", &v);
	assert_int_equal(v.verdict, SF_TRUTH_FOUND);
	assert_ptr_equal(v.truth, &two[1]);

	/* a template and the copy the build makes of it in its directory */
	struct sf_srcdef tpl[] = { def("build/conf.h", 1, NULL), def("src/conf.h.in", 1, NULL) };
	sf_srcdefs_truth(tpl, 2, "build/conf.h", &v);
	assert_int_equal(v.verdict, SF_TRUTH_FOUND);
	assert_ptr_equal(v.truth, &tpl[1]);
	assert_ptr_equal(v.self, &tpl[0]);

	/* an amalgamation next to the header it copies: a stale copy */
	struct sf_srcdef am[] = { def("all.c", 1, "amalgamation"), def("rec.h", 1, NULL) };
	sf_srcdefs_truth(am, 2, "rec.h", &v);
	assert_int_equal(v.verdict, SF_TRUTH_STALE);
	assert_null(v.truth);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_positional),
		cmocka_unit_test(test_designated_and_zero),
		cmocka_unit_test(test_offsetof_static_assert),
		cmocka_unit_test(test_macro_names),
		cmocka_unit_test(test_holders),
		cmocka_unit_test(test_banner),
		cmocka_unit_test(test_truth),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
