/*
 * test_srcpatch.c - rewriting struct bodies in source text
 * (layout/srcpatch.c) and the unified diffs of the result (report/udiff.c,
 * applied back by layout/applydiff.c).
 *
 * Every case hands sf_srcpatch_make() a C source as a string, a model of
 * the struct as the DWARF reader would build it (names, C type spellings,
 * offsets, sizes, bit-fields), and a plan (new member order + narrowings),
 * then checks the exact text produced - or, for a refusal, the message and
 * that nothing was produced.  The diff cases render old -> new, apply the
 * diff back strictly and compare with the new text.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/model.h"
#include "layout/srcpatch.h"
#include "layout/ctorinit.h"
#include "lib/strbuf.h"
#include "layout/applydiff.h"
#include "report/patch.h"
#include "report/srcwhy.h"
#include "report/udiff.h"

/* ---- models ---------------------------------------------------------- */

struct mspec {
	const char *name, *type, *suffix;
	uint64_t offset, size;
	uint32_t bit_offset, bit_size;
	uint8_t tclass;
	uint16_t flags;
};

#define MAXM 32

struct model {
	struct sf_type t;
	struct sf_member m[MAXM];
};

static void build(struct model *mo, const char *name, uint64_t size,
		  uint32_t decl_line, const struct mspec *ms, size_t n)
{
	assert_true(n <= MAXM);
	memset(mo, 0, sizeof(*mo));
	mo->t.name = name;
	mo->t.kind = SF_KIND_STRUCT;
	mo->t.size = size;
	mo->t.align = 8;
	mo->t.decl_file = "test.c";
	mo->t.decl_line = decl_line;
	mo->t.nmembers = (uint32_t)n;
	mo->t.members = mo->m;
	mo->t.addr_size = 8;
	for (size_t i = 0; i < n; i++) {
		mo->m[i].name = ms[i].name;
		mo->m[i].type_name = ms[i].type;
		mo->m[i].type_suffix = ms[i].suffix ? ms[i].suffix : "";
		mo->m[i].offset = ms[i].offset;
		mo->m[i].size = ms[i].size;
		mo->m[i].bit_offset = ms[i].bit_offset;
		mo->m[i].bit_size = ms[i].bit_size;
		mo->m[i].align = (uint32_t)(ms[i].size > 8 ? 8 : ms[i].size ? ms[i].size : 1);
		mo->m[i].tclass = ms[i].tclass;
		mo->m[i].flags = ms[i].flags;
	}
}

/* Run the rewrite; returns 0/-1, text in *out (caller frees), err. */
static int rewrite(const char *src, const struct sf_type *t, const uint32_t *order,
		   const struct sf_srcpatch_narrow *nw, size_t nnw, char **out,
		   struct sf_err *err)
{
	struct strbuf sb = STRBUF_INIT;
	struct sf_srcpatch_plan plan = { order, t->nmembers, nw, nnw, NULL, NULL,
					  &sf_patch_words };
	struct sf_srcpatch_info info;
	struct sf_src_why why;
	err->msg[0] = '\0';
	int rc = sf_srcpatch_make("test.c", src, strlen(src), t, &plan, &sb, &info, &why);
	if (rc < 0) {
		assert_int_equal(sb.len, 0);  /* nothing produced on refusal */
		sf_render_src_why(err, t, &why);   /* worded as cmd/ words it */
	}
	*out = sb_detach(&sb);
	return rc;
}

static void expect_text(const char *src, const struct sf_type *t,
			const uint32_t *order, const struct sf_srcpatch_narrow *nw,
			size_t nnw, const char *want)
{
	char *got;
	struct sf_err err;
	int rc = rewrite(src, t, order, nw, nnw, &got, &err);
	if (rc < 0)
		fail_msg("refused: %s", err.msg);
	if (strcmp(got, want)) {
		print_error("--- want\n%s--- got\n%s---\n", want, got);
		fail();
	}
	free(got);
}

static void expect_refusal(const char *src, const struct sf_type *t,
			   const uint32_t *order, const struct sf_srcpatch_narrow *nw,
			   size_t nnw, const char *needle)
{
	char *got;
	struct sf_err err;
	int rc = rewrite(src, t, order, nw, nnw, &got, &err);
	assert_int_equal(rc, -1);
	if (!strstr(err.msg, needle))
		fail_msg("message '%s' lacks '%s'", err.msg, needle);
	assert_true(!strncmp(err.msg, "test.c: ", 8));
	free(got);
}

/* ---- st_table -------------------------------------------------------- */

static const char st_src[] =
	"typedef unsigned long st_index_t;\n"
	"struct st_hash_type;\n"
	"struct st_table_entry;\n"
	"\n"
	"struct st_table {\n"
	"\tunsigned char entry_power, bin_power, size_ind;\n"
	"\tunsigned int rebuilds_num;\n"
	"\tconst struct st_hash_type *type;\n"
	"\tst_index_t num_entries;\n"
	"\tst_index_t entries_start, entries_bound;\n"
	"\tstruct st_table_entry *entries;\n"
	"};\n"
	"struct st_table example_table;\n";

static const struct mspec st_members[] = {
	{ "entry_power", "unsigned char", "", 0, 1, 0, 0, SF_T_INT, 0 },
	{ "bin_power", "unsigned char", "", 1, 1, 0, 0, SF_T_INT, 0 },
	{ "size_ind", "unsigned char", "", 2, 1, 0, 0, SF_T_INT, 0 },
	{ "rebuilds_num", "unsigned int", "", 4, 4, 0, 0, SF_T_INT, 0 },
	{ "type", "const struct st_hash_type *", "", 8, 8, 0, 0, SF_T_POINTER, 0 },
	{ "num_entries", "st_index_t", "", 16, 8, 0, 0, SF_T_INT, 0 },
	{ "entries_start", "st_index_t", "", 24, 8, 0, 0, SF_T_INT, 0 },
	{ "entries_bound", "st_index_t", "", 32, 8, 0, 0, SF_T_INT, 0 },
	{ "entries", "struct st_table_entry *", "", 40, 8, 0, 0, SF_T_POINTER, 0 },
};

/* The Ruby change: entries_start to one byte, into the hole at 3. */
static void test_st_table_narrow(void **state)
{
	(void)state;
	struct model mo;
	build(&mo, "st_table", 48, 5, st_members, 9);
	uint32_t order[] = { 0, 1, 2, 6, 3, 4, 5, 7, 8 };
	struct sf_srcpatch_narrow nw = { 6, 1 };
	expect_text(st_src, &mo.t, order, &nw, 1,
		"typedef unsigned long st_index_t;\n"
		"struct st_hash_type;\n"
		"struct st_table_entry;\n"
		"\n"
		"struct st_table {\n"
		"\tunsigned char entry_power, bin_power, size_ind;\n"
		"\tunsigned char entries_start; /* 0..255 (was st_index_t): check that every value fits */\n"
		"\tunsigned int rebuilds_num;\n"
		"\tconst struct st_hash_type *type;\n"
		"\tst_index_t num_entries;\n"
		"\tst_index_t entries_bound;\n"
		"\tstruct st_table_entry *entries;\n"
		"};\n"
		"struct st_table example_table;\n");
}

/* A member moving between the chars splits their shared line. */
static void test_shared_line_split(void **state)
{
	(void)state;
	struct model mo;
	build(&mo, "st_table", 48, 5, st_members, 9);
	uint32_t order[] = { 0, 6, 1, 2, 3, 4, 5, 7, 8 };
	struct sf_srcpatch_narrow nw = { 6, 1 };
	expect_text(st_src, &mo.t, order, &nw, 1,
		"typedef unsigned long st_index_t;\n"
		"struct st_hash_type;\n"
		"struct st_table_entry;\n"
		"\n"
		"struct st_table {\n"
		"\tunsigned char entry_power;\n"
		"\tunsigned char entries_start; /* 0..255 (was st_index_t): check that every value fits */\n"
		"\tunsigned char bin_power;\n"
		"\tunsigned char size_ind;\n"
		"\tunsigned int rebuilds_num;\n"
		"\tconst struct st_hash_type *type;\n"
		"\tst_index_t num_entries;\n"
		"\tst_index_t entries_bound;\n"
		"\tstruct st_table_entry *entries;\n"
		"};\n"
		"struct st_table example_table;\n");
}

/*
 * The comment above a shared declaration describes all its members: it
 * stays with the one that does not move.
 */
static void test_leading_comment_stays(void **state)
{
	(void)state;
	static const char src[] =
		"struct st_table {\n"
		"\tunsigned char entry_power, bin_power, size_ind;\n"
		"\tunsigned int rebuilds_num;\n"
		"\tconst struct st_hash_type *type;\n"
		"\tst_index_t num_entries;\n"
		"\t/* Start and bound index of the entries,\n"
		"\t   both in [0, allocated entries]. */\n"
		"\tst_index_t entries_start, entries_bound;\n"
		"\tstruct st_table_entry *entries;\n"
		"};\n";
	struct model mo;
	build(&mo, "st_table", 48, 1, st_members, 9);
	uint32_t order[] = { 0, 1, 2, 6, 3, 4, 5, 7, 8 };
	struct sf_srcpatch_narrow nw = { 6, 1 };
	expect_text(src, &mo.t, order, &nw, 1,
		"struct st_table {\n"
		"\tunsigned char entry_power, bin_power, size_ind;\n"
		"\tunsigned char entries_start; /* 0..255 (was st_index_t): check that every value fits */\n"
		"\tunsigned int rebuilds_num;\n"
		"\tconst struct st_hash_type *type;\n"
		"\tst_index_t num_entries;\n"
		"\t/* Start and bound index of the entries,\n"
		"\t   both in [0, allocated entries]. */\n"
		"\tst_index_t entries_bound;\n"
		"\tstruct st_table_entry *entries;\n"
		"};\n");
	/* when every member of the declaration moves, it goes with the first */
	uint32_t order2[] = { 6, 7, 0, 1, 2, 3, 4, 5, 8 };
	expect_text(src, &mo.t, order2, NULL, 0,
		"struct st_table {\n"
		"\t/* Start and bound index of the entries,\n"
		"\t   both in [0, allocated entries]. */\n"
		"\tst_index_t entries_start, entries_bound;\n"
		"\tunsigned char entry_power, bin_power, size_ind;\n"
		"\tunsigned int rebuilds_num;\n"
		"\tconst struct st_hash_type *type;\n"
		"\tst_index_t num_entries;\n"
		"\tstruct st_table_entry *entries;\n"
		"};\n");
}

/* The identity plan gives back the file byte for byte. */
static void test_identity(void **state)
{
	(void)state;
	struct model mo;
	build(&mo, "st_table", 48, 5, st_members, 9);
	uint32_t order[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8 };
	expect_text(st_src, &mo.t, order, NULL, 0, st_src);
}

/* ---- comments and attributes ---------------------------------------- */

static const char cm_src[] =
	"#include <stdint.h>\n"
	"struct conn {\n"
	"\t/* the socket; -1 when closed */\n"
	"\tint fd;\n"
	"\n"
	"\t// peer address, network order\n"
	"\tlong addr __attribute__((aligned(8)));   /* 8-aligned on purpose */\n"
	"\tchar state;      /* enum conn_state */\n"
	"\tshort port, /* host order */\n"
	"\t      backlog; /* listen(2) */\n"
	"\t_Alignas(4) char tag[3]; // not NUL-terminated\n"
	"};\n";

static const struct mspec cm_members[] = {
	{ "fd", "int", "", 0, 4, 0, 0, SF_T_INT, SF_MF_SIGNED },
	{ "addr", "long int", "", 8, 8, 0, 0, SF_T_INT, SF_MF_SIGNED | SF_MF_ALIGNED },
	{ "state", "char", "", 16, 1, 0, 0, SF_T_INT, SF_MF_SIGNED },
	{ "port", "short int", "", 18, 2, 0, 0, SF_T_INT, SF_MF_SIGNED },
	{ "backlog", "short int", "", 20, 2, 0, 0, SF_T_INT, SF_MF_SIGNED },
	{ "tag", "char", "[3]", 24, 3, 0, 0, SF_T_ARRAY, SF_MF_ALIGNED },
};

static void test_comments_move_with_members(void **state)
{
	(void)state;
	struct model mo;
	build(&mo, "conn", 32, 2, cm_members, 6);
	/* state, port and tag into the hole after fd; backlog narrowed */
	uint32_t order[] = { 0, 2, 3, 5, 1, 4 };
	struct sf_srcpatch_narrow nw = { 4, 1 };
	expect_text(cm_src, &mo.t, order, &nw, 1,
		"#include <stdint.h>\n"
		"struct conn {\n"
		"\t/* the socket; -1 when closed */\n"
		"\tint fd;\n"
		"\n"
		"\tchar state;      /* enum conn_state */\n"
		"\tshort port; /* host order */\n"
		"\t_Alignas(4) char tag[3]; // not NUL-terminated\n"
		"\t// peer address, network order\n"
		"\tlong addr __attribute__((aligned(8)));   /* 8-aligned on purpose */\n"
		"\tint8_t backlog; /* -128..127 (was short int): check that every value fits */ /* listen(2) */\n"
		"};\n");
}

/*
 * A comment standing after a blank line above a group of members heads
 * the group: when the first member moves, it stays with the members that
 * stay (Redis's "Configuration" above verbosity).  A comment that names
 * the member below it ("the port ..." above port) is that member's, and
 * moves with it.
 */
static const struct mspec grp_members[] = {
	{ "verbosity", "int", "", 0, 4, 0, 0, SF_T_INT, SF_MF_SIGNED },
	{ "a", "long int", "", 8, 8, 0, 0, SF_T_INT, SF_MF_SIGNED },
	{ "port", "int", "", 16, 4, 0, 0, SF_T_INT, SF_MF_SIGNED },
	{ "b", "long int", "", 24, 8, 0, 0, SF_T_INT, SF_MF_SIGNED },
	{ "c", "long int", "", 32, 8, 0, 0, SF_T_INT, SF_MF_SIGNED },
};

static void test_group_heading_stays(void **state)
{
	(void)state;
	static const char heading[] =
		"struct srv {\n"
		"\tint verbosity; /* log level */\n"
		"\tlong a;\n"
		"\n"
		"\t/* Configuration */\n"
		"\tint port;\n"
		"\tlong b;\n"
		"\tlong c;\n"
		"};\n";
	static const char own[] =
		"struct srv {\n"
		"\tint verbosity; /* log level */\n"
		"\tlong a;\n"
		"\n"
		"\t/* The PORT to listen on */\n"
		"\tint port;\n"
		"\tlong b;\n"
		"\tlong c;\n"
		"};\n";
	struct model mo;
	build(&mo, "srv", 40, 1, grp_members, 5);
	uint32_t order[] = { 0, 2, 1, 3, 4 };
	expect_text(heading, &mo.t, order, NULL, 0,
		"struct srv {\n"
		"\tint verbosity; /* log level */\n"
		"\tint port;\n"
		"\tlong a;\n"
		"\n"
		"\t/* Configuration */\n"
		"\tlong b;\n"
		"\tlong c;\n"
		"};\n");
	expect_text(own, &mo.t, order, NULL, 0,
		"struct srv {\n"
		"\tint verbosity; /* log level */\n"
		"\t/* The PORT to listen on */\n"
		"\tint port;\n"
		"\tlong a;\n"
		"\n"
		"\tlong b;\n"
		"\tlong c;\n"
		"};\n");
	/* nothing moves: the file as it was */
	uint32_t id[] = { 0, 1, 2, 3, 4 };
	expect_text(heading, &mo.t, id, NULL, 0, heading);
}

/* Without <stdint.h>, narrowed members get the plain C spellings. */
static void test_narrow_without_stdint(void **state)
{
	(void)state;
	static const char src[] =
		"enum color { RED, GREEN };\n"
		"struct px {\n"
		"    unsigned long count;\n"
		"    enum color c;\n"
		"    long delta;\n"
		"    const struct px *next;\n"
		"};\n";
	static const struct mspec ms[] = {
		{ "count", "long unsigned int", "", 0, 8, 0, 0, SF_T_INT, 0 },
		{ "c", "enum color", "", 8, 4, 0, 0, SF_T_ENUM, 0 },
		{ "delta", "long int", "", 16, 8, 0, 0, SF_T_INT, SF_MF_SIGNED },
		{ "next", "const struct px *", "", 24, 8, 0, 0, SF_T_POINTER, 0 },
	};
	struct model mo;
	build(&mo, "px", 32, 2, ms, 4);
	uint32_t order[] = { 0, 2, 1, 3 };
	struct sf_srcpatch_narrow nw[] = { { 0, 2 }, { 1, 1 }, { 2, 4 }, { 3, 4 } };
	expect_text(src, &mo.t, order, nw, 4,
		"enum color { RED, GREEN };\n"
		"struct px {\n"
		"    unsigned short count; /* 0..65535 (was long unsigned int): check that every value fits */\n"
		"    int delta; /* -2147483648..2147483647 (was long int): check that every value fits */\n"
		"    unsigned char c; /* 0..255 (was enum color): check that every value fits */\n"
		"    unsigned int next; /* index 0..4294967295 (was const struct px *): check that every value fits */\n"
		"};\n");
}

/* ---- bit-fields ------------------------------------------------------ */

static const char bf_src[] =
	"struct bits {\n"
	"\tunsigned int a : 3;   /* mode */\n"
	"\tunsigned int b : 5;\n"
	"\tunsigned int c : 1;\n"
	"\tlong x;\n"
	"\tunsigned char f : 2, g : 4;\n"
	"\tint y;\n"
	"};\n";

static const struct mspec bf_members[] = {
	{ "a", "unsigned int", "", 0, 4, 0, 3, SF_T_INT, SF_MF_BITFIELD },
	{ "b", "unsigned int", "", 0, 4, 3, 5, SF_T_INT, SF_MF_BITFIELD },
	{ "c", "unsigned int", "", 0, 4, 8, 1, SF_T_INT, SF_MF_BITFIELD },
	{ "x", "long int", "", 8, 8, 0, 0, SF_T_INT, SF_MF_SIGNED },
	{ "f", "unsigned char", "", 16, 1, 0, 2, SF_T_INT, SF_MF_BITFIELD },
	{ "g", "unsigned char", "", 16, 1, 2, 4, SF_T_INT, SF_MF_BITFIELD },
	{ "y", "int", "", 20, 4, 0, 0, SF_T_INT, SF_MF_SIGNED },
};

/* Runs move whole; a run that stays together keeps its shared line. */
static void test_bitfield_runs_kept(void **state)
{
	(void)state;
	struct model mo;
	build(&mo, "bits", 24, 1, bf_members, 7);
	uint32_t order[] = { 0, 1, 2, 4, 5, 6, 3 };
	expect_text(bf_src, &mo.t, order, NULL, 0,
		"struct bits {\n"
		"\tunsigned int a : 3;   /* mode */\n"
		"\tunsigned int b : 5;\n"
		"\tunsigned int c : 1;\n"
		"\tunsigned char f : 2, g : 4;\n"
		"\tint y;\n"
		"\tlong x;\n"
		"};\n");
}

static void test_bitfield_run_split_refused(void **state)
{
	(void)state;
	struct model mo;
	build(&mo, "bits", 24, 1, bf_members, 7);
	uint32_t order[] = { 0, 1, 3, 2, 4, 5, 6 };
	expect_refusal(bf_src, &mo.t, order, NULL, 0,
		       "separates bit-fields 'b' and 'c'");
	struct sf_srcpatch_narrow nw = { 0, 1 };
	uint32_t id[] = { 0, 1, 2, 3, 4, 5, 6 };
	expect_refusal(bf_src, &mo.t, id, &nw, 1, "cannot narrow 'a'");
}

/* The DWARF does not show unnamed bit-fields: refused, not guessed. */
static void test_unnamed_bitfield_refused(void **state)
{
	(void)state;
	static const struct mspec ms[] = {
		{ "a", "unsigned int", "", 0, 4, 0, 3, SF_T_INT, SF_MF_BITFIELD },
		{ "b", "unsigned int", "", 0, 4, 8, 4, SF_T_INT, SF_MF_BITFIELD },
		{ "c", "long int", "", 8, 8, 0, 0, SF_T_INT, SF_MF_SIGNED },
	};
	struct model mo;
	build(&mo, "u", 16, 1, ms, 3);
	uint32_t order[] = { 2, 0, 1 };
	expect_refusal("struct u {\n\tunsigned a : 3;\n\tunsigned : 5;\n"
		       "\tunsigned b : 4;\n\tlong c;\n};\n", &mo.t, order, NULL, 0,
		       "struct u: unnamed bit-field on line 3");
	expect_refusal("struct u {\n\tunsigned a : 3, : 5, b : 4;\n\tlong c;\n};\n",
		       &mo.t, order, NULL, 0, "struct u: unnamed bit-field on line 2");
	expect_refusal("struct u {\n\tunsigned a : 3;\n\tuint32_t : 5;\n"
		       "\tunsigned b : 4;\n\tlong c;\n};\n", &mo.t, order, NULL, 0,
		       "struct u: unnamed bit-field on line 3");
}

static void test_bitfield_width_changed(void **state)
{
	(void)state;
	struct model mo;
	build(&mo, "bits", 24, 1, bf_members, 7);
	mo.m[1].bit_size = 6;
	uint32_t id[] = { 0, 1, 2, 3, 4, 5, 6 };
	expect_refusal(bf_src, &mo.t, id, NULL, 0,
		       "bit-field 'b' (line 3) is 5 bits in the source but 6");
}

/* ---- nested, function pointers, arrays, spellings ---------------------- */

static void test_nested_and_fnptr(void **state)
{
	(void)state;
	static const char src[] =
		"typedef unsigned long st_data_t;\n"
		"struct n {\n"
		"\tchar k;\n"
		"\tunion {\n"
		"\t\tint i;\n"
		"\t\tdouble d;\n"
		"\t};                   /* either */\n"
		"\tint (*compare)(st_data_t a, const void *b);\n"
		"\tchar const *const name;\n"
		"\tunsigned grid[2][N_COLS];\n"
		"\tstruct { short x, y; } pos;\n"
		"};\n";
	static struct sf_member inner[] = {
		{ "i", "int", "", 8, 4, 0, 0, 4, SF_T_INT, SF_MF_SIGNED, NULL, NULL, 0, NULL },
		{ "d", "double", "", 8, 8, 0, 0, 8, SF_T_FLOAT, 0, NULL, NULL, 0, NULL },
	};
	static struct sf_type un = { "", SF_KIND_UNION, 0, 8, 8, 8, "", 0, 2, inner,
				     "", 8, 0, 0, NULL, NULL, NULL, NULL, 0 };
	static const struct mspec ms[] = {
		{ "k", "char", "", 0, 1, 0, 0, SF_T_INT, SF_MF_SIGNED },
		{ "", "union", "", 8, 8, 0, 0, SF_T_UNION, 0 },
		{ "compare", "int (*", ")(st_data_t, const void *)", 16, 8, 0, 0, SF_T_POINTER, 0 },
		{ "name", "const char * const", "", 24, 8, 0, 0, SF_T_POINTER, 0 },
		{ "grid", "unsigned int", "[2][3]", 32, 24, 0, 0, SF_T_ARRAY, 0 },
		{ "pos", "struct", "", 56, 4, 0, 0, SF_T_STRUCT, 0 },
	};
	struct model mo;
	build(&mo, "n", 64, 2, ms, 6);
	mo.m[1].nested = &un;
	uint32_t order[] = { 1, 2, 3, 4, 0, 5 };
	expect_text(src, &mo.t, order, NULL, 0,
		"typedef unsigned long st_data_t;\n"
		"struct n {\n"
		"\tunion {\n"
		"\t\tint i;\n"
		"\t\tdouble d;\n"
		"\t};                   /* either */\n"
		"\tint (*compare)(st_data_t a, const void *b);\n"
		"\tchar const *const name;\n"
		"\tunsigned grid[2][N_COLS];\n"
		"\tchar k;\n"
		"\tstruct { short x, y; } pos;\n"
		"};\n");
	/* the nested union's members are checked too */
	inner[1].name = "dd";
	uint32_t id[] = { 0, 1, 2, 3, 4, 5 };
	expect_refusal(src, &mo.t, id, NULL, 0, "declares 'd' where the build's DWARF has 'dd'");
	inner[1].name = "d";
	/* a literal array size is compared */
	mo.m[4].type_suffix = "[2][5]";
	expect_text(src, &mo.t, id, NULL, 0, src);   /* N_COLS: any size */
	mo.m[4].type_suffix = "[4][3]";
	expect_refusal(src, &mo.t, id, NULL, 0, "is declared 'unsigned grid[2][N_COLS]' but the build's DWARF has 'unsigned int[4][3]'");
}

/* Array sizes spelled with macros and sizeof match any size. */
static void test_array_size_expressions(void **state)
{
	(void)state;
	static const char src[] =
		"struct a {\n"
		"\tchar c;\n"
		"\tunsigned long bits[BITS_TO_LONGS(64)];\n"
		"\tchar buf[sizeof(int) * 2], d;\n"
		"\tvoid (*handlers[4])(int sig);\n"
		"};\n";
	static const struct mspec ms[] = {
		{ "c", "char", "", 0, 1, 0, 0, SF_T_INT, SF_MF_SIGNED },
		{ "bits", "long unsigned int", "[1]", 8, 8, 0, 0, SF_T_ARRAY, 0 },
		{ "buf", "char", "[8]", 16, 8, 0, 0, SF_T_ARRAY, 0 },
		{ "d", "char", "", 24, 1, 0, 0, SF_T_INT, SF_MF_SIGNED },
		{ "handlers", "void (*", "[4])(int)", 32, 32, 0, 0, SF_T_ARRAY, 0 },
	};
	struct model mo;
	build(&mo, "a", 64, 1, ms, 5);
	uint32_t order[] = { 1, 2, 4, 0, 3 };
	expect_text(src, &mo.t, order, NULL, 0,
		"struct a {\n"
		"\tunsigned long bits[BITS_TO_LONGS(64)];\n"
		"\tchar buf[sizeof(int) * 2];\n"
		"\tvoid (*handlers[4])(int sig);\n"
		"\tchar c;\n"
		"\tchar d;\n"
		"};\n");
}

/* Splitting `int *a, b` keeps each declarator's own stars. */
static void test_split_pointer_declarators(void **state)
{
	(void)state;
	static const char src[] =
		"struct p {\n"
		"  char *a, b, **c; // three\n"
		"  long l;\n"
		"};\n";
	static const struct mspec ms[] = {
		{ "a", "char *", "", 0, 8, 0, 0, SF_T_POINTER, 0 },
		{ "b", "char", "", 8, 1, 0, 0, SF_T_INT, SF_MF_SIGNED },
		{ "c", "char * *", "", 16, 8, 0, 0, SF_T_POINTER, 0 },
		{ "l", "long", "", 24, 8, 0, 0, SF_T_INT, SF_MF_SIGNED },
	};
	struct model mo;
	build(&mo, "p", 32, 1, ms, 4);
	uint32_t order[] = { 0, 2, 3, 1 };
	expect_text(src, &mo.t, order, NULL, 0,
		"struct p {\n"
		"  char *a;         // three\n"
		"  char **c;        // three\n"
		"  long l;\n"
		"  char b;          // three\n"
		"};\n");
}

/*
 * A typedef'd anonymous struct, an annotation macro the DWARF never saw
 * (zlib's z_const), and blank lines that keep separating the groups they
 * separated (struct msghdr).
 */
static void test_typedef_annotations_blank_lines(void **state)
{
	(void)state;
	static const char src[] =
		"#define z_const\n"
		"typedef struct {\n"
		"    void *msg_name;\n"
		"    unsigned msg_namelen;\n"
		"\n"
		"    z_const char *msg_iov;\n"
		"    unsigned long msg_iovlen;\n"
		"\n"
		"    int msg_flags;\n"
		"} msg_t;\n";
	static const struct mspec ms[] = {
		{ "msg_name", "void *", "", 0, 8, 0, 0, SF_T_POINTER, 0 },
		{ "msg_namelen", "unsigned int", "", 8, 4, 0, 0, SF_T_INT, 0 },
		{ "msg_iov", "char *", "", 16, 8, 0, 0, SF_T_POINTER, 0 },
		{ "msg_iovlen", "long unsigned int", "", 24, 8, 0, 0, SF_T_INT, 0 },
		{ "msg_flags", "int", "", 32, 4, 0, 0, SF_T_INT, SF_MF_SIGNED },
	};
	struct model mo;
	build(&mo, "msg_t", 40, 2, ms, 5);
	uint32_t order[] = { 0, 2, 3, 1, 4 };
	expect_text(src, &mo.t, order, NULL, 0,
		"#define z_const\n"
		"typedef struct {\n"
		"    void *msg_name;\n"
		"\n"
		"    z_const char *msg_iov;\n"
		"    unsigned long msg_iovlen;\n"
		"    unsigned msg_namelen;\n"
		"\n"
		"    int msg_flags;\n"
		"} msg_t;\n");
	/* the member between two blank lines moves away: one blank line */
	uint32_t order2[] = { 2, 0, 1, 3, 4 };
	expect_text(src, &mo.t, order2, NULL, 0,
		"#define z_const\n"
		"typedef struct {\n"
		"    z_const char *msg_iov;\n"
		"    void *msg_name;\n"
		"    unsigned msg_namelen;\n"
		"\n"
		"    unsigned long msg_iovlen;\n"
		"\n"
		"    int msg_flags;\n"
		"} msg_t;\n");
	static const char src3[] =
		"struct s {\n"
		"\tchar a;\n"
		"\n"
		"\tlong b;\n"
		"\n"
		"\tchar c;\n"
		"};\n";
	static const struct mspec ms3[] = {
		{ "a", "char", "", 0, 1, 0, 0, SF_T_INT, SF_MF_SIGNED },
		{ "b", "long int", "", 8, 8, 0, 0, SF_T_INT, SF_MF_SIGNED },
		{ "c", "char", "", 16, 1, 0, 0, SF_T_INT, SF_MF_SIGNED },
	};
	struct model m3;
	build(&m3, "s", 24, 1, ms3, 3);
	uint32_t order3[] = { 1, 0, 2 };
	uint8_t moved3[] = { 0, 1, 0 };
	struct sf_srcpatch_plan plan3 = { order3, 3, NULL, 0, moved3, NULL, NULL };
	struct strbuf sb3 = STRBUF_INIT;
	struct sf_src_why why3;
	assert_int_equal(sf_srcpatch_make("test.c", src3, strlen(src3), &m3.t, &plan3,
					  &sb3, NULL, &why3), 0);
	assert_string_equal(sb3.buf, "struct s {\n\tlong b;\n\tchar a;\n\n\tchar c;\n};\n");
	sb_release(&sb3);
	/* a word that replaces the type is not an annotation */
	mo.m[2].type_name = "const char *";
	expect_refusal(src, &mo.t, order, NULL, 0, "member 'msg_iov' (line 6) is declared 'z_const char *msg_iov' but the build's DWARF has 'const char *'");
}

/* CRLF files stay CRLF; the definition is found even if lines moved. */
static void test_crlf_and_moved_definition(void **state)
{
	(void)state;
	static const char src[] =
		"/* moved down by one line since the build */\r\n"
		"struct __packed s {\r\n"
		"\tchar a;\r\n"
		"\tlong b, c;\r\n"
		"};\r\n";
	static const struct mspec ms[] = {
		{ "a", "char", "", 0, 1, 0, 0, SF_T_INT, SF_MF_SIGNED },
		{ "b", "long int", "", 8, 8, 0, 0, SF_T_INT, SF_MF_SIGNED },
		{ "c", "long int", "", 16, 8, 0, 0, SF_T_INT, SF_MF_SIGNED },
	};
	struct model mo;
	build(&mo, "s", 24, 1, ms, 3);
	uint32_t order[] = { 2, 0, 1 };
	struct sf_srcpatch_narrow nw = { 2, 4 };
	expect_text(src, &mo.t, order, &nw, 1,
		"/* moved down by one line since the build */\r\n"
		"struct __packed s {\r\n"
		"\tint c; /* -2147483648..2147483647 (was long int): check that every value fits */\r\n"
		"\tchar a;\r\n"
		"\tlong b;\r\n"
		"};\r\n");
}

/* ---- refusals -------------------------------------------------------- */

static void test_refuse_changed_body(void **state)
{
	(void)state;
	struct model mo;
	uint32_t id[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8 };
	build(&mo, "st_table", 48, 5, st_members, 9);

	mo.m[3].name = "rebuilds";
	expect_refusal(st_src, &mo.t, id, NULL, 0,
		       "line 7 declares 'rebuilds_num' where the build's DWARF has 'rebuilds'");
	build(&mo, "st_table", 48, 5, st_members, 9);
	mo.m[3].type_name = "long unsigned int";
	expect_refusal(st_src, &mo.t, id, NULL, 0,
		       "member 'rebuilds_num' (line 7) is declared 'unsigned int rebuilds_num' "
		       "but the build's DWARF has 'long unsigned int': the source changed "
		       "since the build");
	build(&mo, "st_table", 48, 5, st_members, 8);   /* no `entries` */
	expect_refusal(st_src, &mo.t, id, NULL, 0,
		       "'entries' (line 11) is not a member in the build's DWARF");
	static const struct mspec more[] = {
		{ "extra", "int", "", 48, 4, 0, 0, SF_T_INT, SF_MF_SIGNED },
	};
	struct mspec all[10];
	memcpy(all, st_members, sizeof(st_members));
	all[9] = more[0];
	uint32_t id10[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9 };
	build(&mo, "st_table", 56, 5, all, 10);
	expect_refusal(st_src, &mo.t, id10, NULL, 0,
		       "member 'extra' of the build's DWARF is not in the source");
	build(&mo, "st_tables", 48, 5, st_members, 9);
	expect_refusal(st_src, &mo.t, id, NULL, 0, "no definition of struct st_tables");
}

/*
 * #if blocks: the branch the build compiled is the one that matches; a
 * block with members stays whole (moved or not), one with none is free
 * lines; splitting a block, nesting, or other directives are refused.
 */
static const char cond_src[] =
	"struct c {\n"
	"\tchar a;\n"
	"#ifdef DEBUG\n"
	"\tint magic;\n"
	"#else\n"
	"\tlong magic2; /* x */\n"
	"#endif\n"
	"\tchar b;\n"
	"\tlong d;\n"
	"};\n";

static const struct mspec cond_ms[] = {
	{ "a", "char", "", 0, 1, 0, 0, SF_T_INT, SF_MF_SIGNED },
	{ "magic2", "long int", "", 8, 8, 0, 0, SF_T_INT, SF_MF_SIGNED },
	{ "b", "char", "", 16, 1, 0, 0, SF_T_INT, SF_MF_SIGNED },
	{ "d", "long int", "", 24, 8, 0, 0, SF_T_INT, SF_MF_SIGNED },
};

static void test_conditional_blocks(void **state)
{
	(void)state;
	struct model mo;
	build(&mo, "c", 32, 1, cond_ms, 4);
	/* the block stays whole in place, b moves up to a */
	uint32_t up[] = { 0, 2, 1, 3 };
	expect_text(cond_src, &mo.t, up, NULL, 0,
		    "struct c {\n"
		    "\tchar a;\n"
		    "\tchar b;\n"
		    "#ifdef DEBUG\n"
		    "\tint magic;\n"
		    "#else\n"
		    "\tlong magic2; /* x */\n"
		    "#endif\n"
		    "\tlong d;\n"
		    "};\n");
	/* the block as a whole after a member that moved */
	uint32_t down[] = { 0, 1, 3, 2 };
	expect_text(cond_src, &mo.t, down, NULL, 0,
		    "struct c {\n"
		    "\tchar a;\n"
		    "#ifdef DEBUG\n"
		    "\tint magic;\n"
		    "#else\n"
		    "\tlong magic2; /* x */\n"
		    "#endif\n"
		    "\tlong d;\n"
		    "\tchar b;\n"
		    "};\n");

	struct sf_srcpatch_block *blk;
	size_t n;
	struct sf_src_why why;
	assert_int_equal(sf_srcpatch_blocks("test.c", cond_src, strlen(cond_src), &mo.t,
					    NULL, &blk, &n, &why), 0);
	assert_int_equal(n, 1);
	assert_int_equal(blk[0].m0, 1);
	assert_int_equal(blk[0].nm, 1);
	assert_int_equal(blk[0].if_line, 3);
	assert_int_equal(blk[0].endif_line, 7);
	free(blk);

	/* narrowing a member under #if cuts the block */
	struct sf_srcpatch_narrow nw[] = { { 1, 4 } };
	uint32_t id[] = { 0, 1, 2, 3 };
	expect_refusal(cond_src, &mo.t, id, nw, 1,
		       "the members under the #if on lines 3-7 must stay together");
}

static void test_conditional_empty_and_refused(void **state)
{
	(void)state;
	static const char src[] =
		"struct c {\n"
		"\tint a;\n"
		"#ifdef DEBUG\n"
		"\tint magic;\n"
		"#endif\n"
		"\tchar b;\n"
		"};\n";
	static const struct mspec ms[] = {
		{ "a", "int", "", 0, 4, 0, 0, SF_T_INT, SF_MF_SIGNED },
		{ "b", "char", "", 4, 1, 0, 0, SF_T_INT, SF_MF_SIGNED },
	};
	struct model mo;
	build(&mo, "c", 8, 1, ms, 2);
	/* DEBUG was off: the block has no members, its lines are free ones
	 * and stay before the first member after them that does not move
	 * (none: b moved in front of a) */
	uint32_t order[] = { 1, 0 };
	expect_text(src, &mo.t, order, NULL, 0,
		    "struct c {\n"
		    "\tchar b;\n"
		    "\tint a;\n"
		    "#ifdef DEBUG\n"
		    "\tint magic;\n"
		    "#endif\n"
		    "};\n");
	struct sf_srcpatch_block *blk;
	size_t n;
	struct sf_src_why why;
	assert_int_equal(sf_srcpatch_blocks("test.c", src, strlen(src), &mo.t, NULL,
					    &blk, &n, &why), 0);
	assert_int_equal(n, 0);
	free(blk);

	/* a branch with the wrong members: none matches the build */
	static const char wrong[] =
		"struct c {\n"
		"\tint a;\n"
		"#ifdef DEBUG\n"
		"\tint magic;\n"
		"#else\n"
		"\tint other;\n"
		"#endif\n"
		"\tchar b;\n"
		"};\n";
	expect_refusal(wrong, &mo.t, order, NULL, 0,
		       "no branch of the #if on line 3 holds the members");
	static const char nested[] =
		"struct c {\n"
		"\tint a;\n"
		"#ifdef A\n"
		"#ifdef B\n"
		"\tint magic;\n"
		"#endif\n"
		"#endif\n"
		"\tchar b;\n"
		"};\n";
	expect_refusal(nested, &mo.t, order, NULL, 0,
		       "#if nested in the #if on line 3 (line 4)");
	static const char open[] =
		"struct c {\n"
		"\tint a;\n"
		"#ifdef A\n"
		"\tchar b;\n"
		"};\n"
		"#endif\n";
	expect_refusal(open, &mo.t, order, NULL, 0, "the #if on line 3 is not closed");
	static const char src2[] =
		"struct c {\n"
		"\tint a;\n"
		"#define B b\n"
		"\tchar B;\n"
		"};\n";
	expect_refusal(src2, &mo.t, order, NULL, 0, "preprocessor directive inside the body (line 3)");
}

/* Members spelled with object-like macros of the tree read as their expansion. */
static void test_macro_typed_members(void **state)
{
	(void)state;
	static const char src[] =
		"struct m {\n"
		"\tchar c;\n"
		"\tredisAtomic long long n;\n"
		"\trb_pid_t pid;\n"
		"};\n";
	static const char defs[] =
		"#define rb_pid_t pid_t\n"
		"#define redisAtomic _Atomic\n"
		"#define redisAtomic\n"
		"#define F(x) x\n";
	static const struct mspec ms[] = {
		{ "c", "char", "", 0, 1, 0, 0, SF_T_INT, SF_MF_SIGNED },
		{ "n", "_Atomic long long int", "", 8, 8, 0, 0, SF_T_INT, SF_MF_SIGNED },
		{ "pid", "pid_t", "", 16, 4, 0, 0, SF_T_INT, SF_MF_SIGNED },
	};
	struct model mo;
	build(&mo, "m", 24, 1, ms, 3);
	uint32_t order[] = { 1, 2, 0 };
	expect_refusal(src, &mo.t, order, NULL, 0,
		       "member 'n' (line 3) is declared 'redisAtomic long long n'");

	struct sf_lexed lx;
	struct sf_cmacros macros = { NULL, 0, 0 };
	sf_clex(&lx, defs, strlen(defs));
	sf_cmacros_add(&macros, &lx);
	sf_clex_free(&lx);
	assert_int_equal(macros.n, 3);     /* F(x) is function-like */
	assert_string_equal(sf_cmacros_find(&macros, "redisAtomic", 11, 1), "");
	struct sf_srcpatch_plan plan = { order, 3, NULL, 0, NULL, &macros, NULL };
	struct strbuf sb = STRBUF_INIT;
	struct sf_err err = SF_ERR_INIT;
	struct sf_src_why why;
	int rc = sf_srcpatch_make("test.c", src, strlen(src), &mo.t, &plan, &sb, NULL, &why);
	if (rc < 0)
		fail_msg("refused: %s", (sf_render_src_why(&err, &mo.t, &why), err.msg));
	assert_string_equal(sb.buf,
			    "struct m {\n"
			    "\tredisAtomic long long n;\n"
			    "\trb_pid_t pid;\n"
			    "\tchar c;\n"
			    "};\n");
	sb_release(&sb);
	/* a macro naming another type is still a change */
	mo.m[2].type_name = "int";
	assert_int_equal(sf_srcpatch_make("test.c", src, strlen(src), &mo.t, &plan, &sb,
					  NULL, &why), -1);
	assert_int_equal(why.kind, SF_SRC_TYPE_DIFFERS);
	assert_int_equal(why.line, 4);
	assert_string_equal(why.text, "rb_pid_t pid");
	sf_render_src_why(&err, &mo.t, &why);
	assert_non_null(strstr(err.msg, "member 'pid' (line 4) is declared 'rb_pid_t pid'"));
	assert_int_equal(sb.len, 0);
	sb_release(&sb);
	sf_cmacros_release(&macros);
}

static void test_refuse_macro_members(void **state)
{
	(void)state;
	static const char src[] =
		"struct m {\n"
		"\tint a;\n"
		"\tDECLARE_BITMAP(flags, 64);\n"
		"};\n";
	static const struct mspec ms[] = {
		{ "a", "int", "", 0, 4, 0, 0, SF_T_INT, SF_MF_SIGNED },
		{ "flags", "long unsigned int", "[1]", 8, 8, 0, 0, SF_T_ARRAY, 0 },
	};
	struct model mo;
	build(&mo, "m", 16, 1, ms, 2);
	uint32_t order[] = { 1, 0 };
	expect_refusal(src, &mo.t, order, NULL, 0,
		       "'DECLARE_BITMAP' on line 3 is a macro");
	static const char src2[] =
		"struct m {\n"
		"\tint a;\n"
		"\tEXTRA_FIELDS\n"
		"};\n";
	expect_refusal(src2, &mo.t, order, NULL, 0, "'EXTRA_FIELDS' on line 3 is a macro");
	static const char src3[] =
		"struct m {\n"
		"\tint a;\n"
		"\tFIELD(long, flags);\n"
		"};\n";
	expect_refusal(src3, &mo.t, order, NULL, 0, "'FIELD' on line 3 is a macro");
}

static void test_refuse_one_line(void **state)
{
	(void)state;
	static const struct mspec ms[] = {
		{ "a", "char", "", 0, 1, 0, 0, SF_T_INT, SF_MF_SIGNED },
		{ "b", "long int", "", 8, 8, 0, 0, SF_T_INT, SF_MF_SIGNED },
		{ "c", "char", "", 16, 1, 0, 0, SF_T_INT, SF_MF_SIGNED },
	};
	struct model mo;
	build(&mo, "o", 24, 1, ms, 3);
	uint32_t order[] = { 1, 0, 2 };
	expect_refusal("struct o { char a; long b; char c; } g_o;\n", &mo.t, order,
		       NULL, 0, "struct o is defined on one line with other code (line 1)");
	expect_refusal("struct o { char a;\n long b;\n char c; };\n", &mo.t, order,
		       NULL, 0, "defined on one line with other code (line 1)");
	expect_refusal("struct o {\n char a;\n long b;\n char c; };\n", &mo.t, order,
		       NULL, 0, "defined on one line with other code (line 4)");
}

static void test_refuse_bad_plan(void **state)
{
	(void)state;
	struct model mo;
	build(&mo, "st_table", 48, 5, st_members, 9);
	uint32_t dup[] = { 0, 0, 2, 3, 4, 5, 6, 7, 8 };
	expect_refusal(st_src, &mo.t, dup, NULL, 0, "not a permutation");
	uint32_t id[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8 };
	struct sf_srcpatch_narrow odd = { 6, 3 };
	expect_refusal(st_src, &mo.t, id, &odd, 1, "must be 1, 2, 4 or 8 bytes");
	struct sf_srcpatch_narrow wide = { 6, 8 };
	expect_refusal(st_src, &mo.t, id, &wide, 1, "cannot narrow 'entries_start' to 8 "
		       "bytes: the new width is not smaller");
	struct sf_srcpatch_narrow same = { 3, 4 };
	expect_refusal(st_src, &mo.t, id, &same, 1, "not smaller");
	mo.t.kind = SF_KIND_UNION;
	mo.t.flags |= SF_TF_CXX;
	expect_refusal(st_src, &mo.t, id, NULL, 0, "C structs only");
}

/* ---- C++ ------------------------------------------------------------- */

static const char cxx_src[] =
	"namespace net {\n"
	"class C {\n"
	"public:\n"
	"    C() : a_('y'), b_('z'), i_(0) {}\n"
	"    int get() const { return b_; }\n"
	"    static int n;\n"
	"\n"
	"protected:\n"
	"    char a_ = 'x';   // a\n"
	"    double d_{2.5};\n"
	"\n"
	"private:\n"
	"    char b_;\n"
	"    struct Inner { int k; };\n"
	"    int i_ = 3;\n"
	"};\n"
	"}\n";

static const struct mspec cxx_members[] = {
	{ "a_", "char", "", 0, 1, 0, 0, SF_T_INT, SF_MF_SIGNED },
	{ "d_", "double", "", 8, 8, 0, 0, SF_T_FLOAT, 0 },
	{ "b_", "char", "", 16, 1, 0, 0, SF_T_INT, SF_MF_SIGNED },
	{ "i_", "int", "", 20, 4, 0, 0, SF_T_INT, SF_MF_SIGNED },
};

static void cxx_model(struct model *mo)
{
	build(mo, "net::C", 24, 2, cxx_members, 4);
	mo->t.kind = SF_KIND_CLASS;
	mo->t.flags |= SF_TF_CXX;
}

/* Members keep their access: a label where the new order needs one, the
 * original ones kept where their section still starts, none empty; the
 * default member initializers and comments move with their members;
 * functions, static members and nested types stay. */
static void test_cxx_access_labels(void **state)
{
	(void)state;
	struct model mo;
	cxx_model(&mo);
	uint32_t order[] = { 1, 3, 0, 2 };   /* d_, i_, a_, b_ */
	expect_text(cxx_src, &mo.t, order, NULL, 0,
		"namespace net {\n"
		"class C {\n"
		"public:\n"
		"    C() : a_('y'), b_('z'), i_(0) {}\n"
		"    int get() const { return b_; }\n"
		"    static int n;\n"
		"\n"
		"protected:\n"
		"    double d_{2.5};\n"
		"private:\n"
		"    int i_ = 3;\n"
		"protected:\n"
		"    char a_ = 'x';   // a\n"
		"\n"
		"private:\n"
		"    char b_;\n"
		"    struct Inner { int k; };\n"
		"};\n"
		"}\n");
}

/* A section emptied of its members loses its label; a label the order
 * makes redundant is not written twice. */
static void test_cxx_no_empty_label(void **state)
{
	(void)state;
	static const char src[] =
		"struct S {\n"
		"    char a;\n"
		"private:\n"
		"    double d;\n"
		"public:\n"
		"    char b;\n"
		"};\n";
	static const struct mspec ms[] = {
		{ "a", "char", "", 0, 1, 0, 0, SF_T_INT, SF_MF_SIGNED },
		{ "d", "double", "", 8, 8, 0, 0, SF_T_FLOAT, 0 },
		{ "b", "char", "", 16, 1, 0, 0, SF_T_INT, SF_MF_SIGNED },
	};
	struct model mo;
	build(&mo, "S", 24, 1, ms, 3);
	mo.t.flags |= SF_TF_CXX;
	uint32_t order[] = { 1, 0, 2 };      /* d, a, b */
	expect_text(src, &mo.t, order, NULL, 0,
		"struct S {\n"
		"private:\n"
		"    double d;\n"
		"public:\n"
		"    char a;\n"
		"    char b;\n"
		"};\n");
}

/* The refusals come back as data (layout/cxxwhy.h), with the line. */
static void test_cxx_refusals(void **state)
{
	(void)state;
	static const char src[] =
		"struct S {\n"
		"public: char a;\n"
		"    double d;\n"
		"    char b;\n"
		"};\n";
	static const struct mspec ms[] = {
		{ "a", "char", "", 0, 1, 0, 0, SF_T_INT, SF_MF_SIGNED },
		{ "d", "double", "", 8, 8, 0, 0, SF_T_FLOAT, 0 },
		{ "b", "char", "", 16, 1, 0, 0, SF_T_INT, SF_MF_SIGNED },
	};
	struct model mo;
	build(&mo, "S", 24, 1, ms, 3);
	mo.t.flags |= SF_TF_CXX;
	uint32_t order[] = { 1, 0, 2 };
	struct sf_srcpatch_plan plan = { order, 3, NULL, 0, NULL, NULL, NULL };
	struct sf_srcpatch_info info;
	struct sf_src_why why;
	struct strbuf sb = STRBUF_INIT;
	assert_int_equal(sf_srcpatch_make("t.h", src, strlen(src), &mo.t, &plan, &sb, &info,
					  &why), -1);
	assert_int_equal(why.kind, SF_SRC_CXX);
	assert_int_equal(why.cxx.kind, SF_CXX_LABEL_LINE);
	assert_int_equal(why.cxx.line, 2);
	assert_int_equal(sb.len, 0);
	/* a base the order would move */
	struct model mb;
	static const struct mspec mbs[] = {
		{ "Base", "struct Base", "", 0, 4, 0, 0, SF_T_STRUCT, SF_MF_BASE },
		{ "a", "char", "", 4, 1, 0, 0, SF_T_INT, SF_MF_SIGNED },
	};
	build(&mb, "D", 8, 1, mbs, 2);
	mb.t.flags |= SF_TF_CXX;
	uint32_t swap[] = { 1, 0 };
	struct sf_srcpatch_plan p2 = { swap, 2, NULL, 0, NULL, NULL, NULL };
	static const char dsrc[] = "struct D : Base {\n    char a;\n};\n";
	assert_int_equal(sf_srcpatch_make("d.h", dsrc, strlen(dsrc), &mb.t, &p2, &sb, &info,
					  &why), -1);
	assert_int_equal(why.kind, SF_SRC_CXX);
	assert_int_equal(why.cxx.kind, SF_CXX_FIXED_MOVES);
	assert_string_equal(why.cxx.member, "Base");
	sb_release(&sb);
}

/* Only an aggregate is initialized by position: no constructor, no
 * virtual function, no base, every data member public. */
static void test_cxx_aggregate(void **state)
{
	(void)state;
	struct model mo;
	cxx_model(&mo);
	assert_int_equal(sf_srcpatch_aggregate("c.h", cxx_src, strlen(cxx_src), &mo.t, NULL), 0);
	static const char plain[] = "struct P {\n    char a;\n    double d;\n};\n";
	static const struct mspec ms[] = {
		{ "a", "char", "", 0, 1, 0, 0, SF_T_INT, SF_MF_SIGNED },
		{ "d", "double", "", 8, 8, 0, 0, SF_T_FLOAT, 0 },
	};
	struct model mp;
	build(&mp, "P", 16, 1, ms, 2);
	mp.t.flags |= SF_TF_CXX;
	assert_int_equal(sf_srcpatch_aggregate("p.h", plain, strlen(plain), &mp.t, NULL), 1);
	static const char virt[] =
		"struct P {\n    virtual void f();\n    char a;\n    double d;\n};\n";
	assert_int_equal(sf_srcpatch_aggregate("p.h", virt, strlen(virt), &mp.t, NULL), 0);
	static const char priv[] = "struct P {\n    char a;\nprivate:\n    double d;\n};\n";
	assert_int_equal(sf_srcpatch_aggregate("p.h", priv, strlen(priv), &mp.t, NULL), 0);
	mp.t.flags &= (uint16_t)~SF_TF_CXX;
	assert_int_equal(sf_srcpatch_aggregate("p.h", plain, strlen(plain), &mp.t, NULL), -1);
}

/* A class template's instantiation, or a class nested in one, is known by
 * the arguments in its C++ name (layout/cxxwhy.h): patch refuses it. */
static void test_cxx_template(void **state)
{
	(void)state;
	static const struct mspec ms[] = {
		{ "a", "char", "", 0, 1, 0, 0, SF_T_INT, SF_MF_SIGNED },
	};
	static const struct { const char *name; int cxx, in; } cases[] = {
		{ "Slot<long int>", 1, 1 }, { "ns::Box<int>::Node", 1, 1 },
		{ "net::Conn", 1, 0 }, { "Slot", 1, 0 }, { "Slot<long int>", 0, 0 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct model mp;
		build(&mp, cases[i].name, 1, 1, ms, 1);
		if (cases[i].cxx)
			mp.t.flags |= SF_TF_CXX;
		assert_int_equal(sf_cdecl_in_template(&mp.t), cases[i].in);
	}
}

/* A C++ struct {char n[0]; long n[1]; <third> n[2];}: 24 bytes, the third
 * member (char or int) at 16. */
static void char_long_model(struct model *mo, const char *name, uint32_t line,
			    const char *const n[3], const char *third)
{
	const struct mspec ms[] = {
		{ n[0], "char", "", 0, 1, 0, 0, SF_T_INT, SF_MF_SIGNED },
		{ n[1], "long int", "", 8, 8, 0, 0, SF_T_INT, SF_MF_SIGNED },
		{ n[2], third, "", 16, strcmp(third, "char") ? 4 : 1, 0, 0, SF_T_INT,
		  SF_MF_SIGNED },
	};

	build(mo, name, 24, line, ms, 3);
	mo->t.flags |= SF_TF_CXX;
}

/*
 * A class template's source (cmd/patchtmpl.c reads it under the
 * template's name): the primary template's members move, `T value`
 * matched by name whatever the instantiation's type; a narrowing of it is
 * refused; the explicit specialization is found on its own line.  A
 * default member initializer stays with a narrowed member.
 */
static void test_cxx_template_source(void **state)
{
	(void)state;
	static const char src[] =
		"template <class T, int N = 4> struct Slot {\n"
		"\tchar tag;\n"
		"\tT value;\n"
		"\tint n = N;\n"
		"};\n"
		"template <> struct Slot<int> {\n"
		"\tchar tag;\n"
		"\tdouble weight;\n"
		"};\n"
		"template <class T> struct Slot<T *> { T *p; };\n";
	struct model mo;
	struct sf_err err = SF_ERR_INIT;
	uint32_t order[] = { 1, 2, 0 };
	char *out;

	char_long_model(&mo, "Slot", 1, (const char *[]){ "tag", "value", "n" }, "int");
	assert_int_equal(rewrite(src, &mo.t, order, NULL, 0, &out, &err), 0);
	assert_non_null(strstr(out, "\tT value;\n\tint n = N;\n\tchar tag;\n};\n"));
	free(out);
	struct sf_srcpatch_narrow nw = { 1, 4 };
	assert_int_equal(rewrite(src, &mo.t, order, &nw, 1, &out, &err), -1);
	assert_string_equal(err.msg, "test.c:3: struct Slot: 'value' has a type that depends "
			    "on a template parameter: its width differs between instantiations, "
			    "it is never narrowed");
	free(out);
	nw = (struct sf_srcpatch_narrow){ 2, 2 };
	assert_int_equal(rewrite(src, &mo.t, order, &nw, 1, &out, &err), 0);
	assert_non_null(strstr(out, "\tint16_t n = N; /* -32768..32767 (was int)") ||
			strstr(out, "\tshort n = N; /* -32768..32767 (was int)"));
	free(out);

	mo.t.name = "Slot<int>";
	mo.t.decl_line = 6;
	assert_int_equal(sf_cdecl_specialized_at(src, strlen(src), &mo.t), 6);
	mo.t.name = "Slot<long int>";
	mo.t.decl_line = 1;
	assert_int_equal(sf_cdecl_specialized_at(src, strlen(src), &mo.t), 0);
	mo.t.name = "ns::Slot<int>";
	mo.t.decl_line = 6;
	assert_int_equal(sf_cdecl_specialized_at(src, strlen(src), &mo.t), 0);
	mo.t.name = "Slot<char*>";     /* the partial specialization's */
	mo.t.decl_line = 10;
	assert_int_equal(sf_cdecl_specialized_at(src, strlen(src), &mo.t), 10);
}

/* One constructor list of t in src put in the order pos gives: it reads `want`. */
static void expect_one_list(const char *src, const struct sf_type *t, const uint32_t *pos,
			    const char *want)
{
	struct strbuf sb = STRBUF_INIT;
	struct sf_ctor_read *rd = NULL;
	size_t nrd = 0;

	assert_int_equal(sf_ctorinit_rewrite(src, strlen(src), t, pos, &sb, &rd, &nrd), 1);
	assert_non_null(strstr(sb.buf, want));
	assert_int_equal(nrd, 0);
	free(rd);
	sb_release(&sb);
}

/*
 * An export macro between the class key and the name (`class
 * TINYXML2_LIB XMLPrinter`, `class LEVELDB_EXPORT DB`): the definition is
 * found, and its in-class constructor is the class's (the scope is the
 * name's, not the macro's).
 */
static void test_cxx_export_macro(void **state)
{
	(void)state;
	static const char src[] =
		"#define EXPORT_API\n"
		"namespace ns {\n"
		"class EXPORT_API Conn final {\n"
		"public:\n"
		"\tConn() : a(1), b(2), c(3) {}\n"
		"\tchar a;\n"
		"\tlong b;\n"
		"\tchar c;\n"
		"};\n"
		"}\n";
	struct model mo;
	struct sf_err err = SF_ERR_INIT;
	uint32_t order[] = { 1, 0, 2 }, pos[] = { 1, 0, 2 };
	char *out;

	char_long_model(&mo, "ns::Conn", 3, (const char *[]){ "a", "b", "c" }, "char");
	assert_int_equal(rewrite(src, &mo.t, order, NULL, 0, &out, &err), 0);
	assert_non_null(strstr(out, "\tlong b;\n\tchar a;\n\tchar c;\n};\n"));
	free(out);
	expect_one_list(src, &mo.t, pos, "\tConn() : b(2), a(1), c(3) {}\n");
}

/*
 * A nested class defined out of its class (leveldb's `struct
 * TableBuilder::Rep {` in table_builder.cc): found, and its in-class
 * constructor is its own.
 */
static void test_cxx_out_of_class(void **state)
{
	(void)state;
	static const char src[] =
		"namespace ns {\n"
		"class Outer {\n"
		"\tstruct Rep;\n"
		"};\n"
		"struct Outer::Rep {\n"
		"\tRep() : a(1), b(2), c(3) {}\n"
		"\tchar a;\n"
		"\tlong b;\n"
		"\tchar c;\n"
		"};\n"
		"}\n";
	struct model mo;
	struct sf_err err = SF_ERR_INIT;
	uint32_t order[] = { 1, 0, 2 }, pos[] = { 1, 0, 2 };
	char *out;

	char_long_model(&mo, "ns::Outer::Rep", 5, (const char *[]){ "a", "b", "c" }, "char");
	assert_int_equal(rewrite(src, &mo.t, order, NULL, 0, &out, &err), 0);
	assert_non_null(strstr(out, "struct Outer::Rep {\n\tRep() : a(1), b(2), c(3) {}\n"
				 "\tlong b;\n\tchar a;\n\tchar c;\n};\n"));
	free(out);
	expect_one_list(src, &mo.t, pos, "\tRep() : b(2), a(1), c(3) {}\n");
	mo.t.name = "ns::Other::Rep";    /* another class's Rep: not this one */
	assert_int_equal(rewrite(src, &mo.t, order, NULL, 0, &out, &err), -1);
	free(out);
}

/*
 * leveldb's shapes: a thread-safety annotation after a member's name
 * (`port::CondVar cv_ GUARDED_BY(mutex_);`: no member function), and a
 * member whose type the DWARF names inside an anonymous namespace
 * (`enum (anonymous namespace)::It::Direction` for the source's
 * `Direction`).
 */
static void test_cxx_annotations(void **state)
{
	(void)state;
	static const char src[] =
		"namespace {\n"
		"class It {\n"
		"\tenum Direction { kF, kR };\n"
		"\tchar a GUARDED_BY(mu_);\n"
		"\tlong b ABSL_PT_GUARDED_BY(mu_);\n"
		"\tDirection d;\n"
		"};\n"
		"}\n";
	static const struct mspec ms[] = {
		{ "a", "char", "", 0, 1, 0, 0, SF_T_INT, SF_MF_SIGNED },
		{ "b", "long int", "", 8, 8, 0, 0, SF_T_INT, SF_MF_SIGNED },
		{ "d", "enum (anonymous namespace)::It::Direction", "", 16, 4, 0, 0, SF_T_ENUM, 0 },
	};
	struct model mo;
	struct sf_err err = SF_ERR_INIT;
	uint32_t order[] = { 1, 0, 2 };
	char *out;

	build(&mo, "(anonymous namespace)::It", 24, 2, ms, 3);
	mo.t.flags |= SF_TF_CXX;
	mo.t.kind = SF_KIND_CLASS;
	assert_int_equal(rewrite(src, &mo.t, order, NULL, 0, &out, &err), 0);
	assert_non_null(strstr(out, "\tlong b ABSL_PT_GUARDED_BY(mu_);\n\tchar a GUARDED_BY(mu_);\n"
				 "\tDirection d;\n"));
	free(out);
}

/* Constructor initializer lists (layout/ctorinit.h): in the class and out
 * of line, put in the new order; bases keep their slots; a read of a
 * member whose order relative to the reader changes is reported. */
static void test_cxx_ctor_lists(void **state)
{
	(void)state;
	struct model mo;
	cxx_model(&mo);
	uint32_t pos[] = { 2, 0, 3, 1 };     /* d_, i_, a_, b_ */
	static const char src[] =
		"namespace net {\n"
		"C::C(int v)\n"
		"    : Base(v), a_('y'),\n"
		"      d_(v * 2.0), b_(a_), i_{v} {}\n"
		"}\n"
		"other::C::C() : a_(1), d_(2) {}\n";
	struct strbuf out = STRBUF_INIT;
	struct sf_ctor_read *rd = NULL;
	size_t nrd = 0;
	assert_int_equal(sf_ctorinit_rewrite(src, strlen(src), &mo.t, pos, &out, &rd, &nrd), 1);
	assert_string_equal(out.buf,
		"namespace net {\n"
		"C::C(int v)\n"
		"    : Base(v), d_(v * 2.0),\n"
		"      i_{v}, a_('y'), b_(a_) {}\n"
		"}\n"
		"other::C::C() : a_(1), d_(2) {}\n");
	assert_int_equal(nrd, 0);    /* b_ reads a_: both move, a_ still first */
	sb_release(&out);
	/* d_ reads a_, and now runs before it */
	static const char src2[] = "namespace net { C::C() : a_(1), d_(a_ + 1.0) {} }\n";
	sf_ctorinit_rewrite(src2, strlen(src2), &mo.t, pos, &out, &rd, &nrd);
	assert_string_equal(out.buf, "namespace net { C::C() : d_(a_ + 1.0), a_(1) {} }\n");
	assert_int_equal(nrd, 1);
	assert_int_equal(rd[0].member, 1);
	assert_int_equal(rd[0].reads, 0);
	assert_int_equal(rd[0].now_before, 1);
	free(rd);
	sb_release(&out);
}

/* ---- helpers --------------------------------------------------------- */

static void test_types_and_ranges(void **state)
{
	(void)state;
	char buf[64];
	assert_string_equal(sf_srcpatch_narrow_type(1, 0, 1), "uint8_t");
	assert_string_equal(sf_srcpatch_narrow_type(2, 1, 1), "int16_t");
	assert_string_equal(sf_srcpatch_narrow_type(4, 0, 1), "uint32_t");
	assert_string_equal(sf_srcpatch_narrow_type(1, 0, 0), "unsigned char");
	assert_string_equal(sf_srcpatch_narrow_type(2, 0, 0), "unsigned short");
	assert_string_equal(sf_srcpatch_narrow_type(1, 1, 0), "signed char");
	assert_string_equal(sf_srcpatch_narrow_type(8, 1, 1), "int64_t");
	assert_string_equal(sf_srcpatch_narrow_type(8, 0, 0), "unsigned long long");
	assert_null(sf_srcpatch_narrow_type(3, 0, 0));
	assert_string_equal(sf_srcpatch_range(1, 0, buf, sizeof(buf)), "0..255");
	assert_string_equal(sf_srcpatch_range(1, 1, buf, sizeof(buf)), "-128..127");
	assert_string_equal(sf_srcpatch_range(2, 0, buf, sizeof(buf)), "0..65535");
	assert_string_equal(sf_srcpatch_range(4, 1, buf, sizeof(buf)),
			    "-2147483648..2147483647");
}

/* ---- unified diffs --------------------------------------------------- */

static void diff_roundtrip(const char *a, const char *b, const char *want)
{
	struct strbuf d = STRBUF_INIT, res = STRBUF_INIT;
	struct sf_err err = SF_ERR_INIT;
	struct sf_udiff_refusal why;

	sf_udiff_render(&d, "src/x.c", a, strlen(a), b, strlen(b), 3);
	if (want && strcmp(d.buf, want)) {
		print_error("--- want\n%s--- got\n%s---\n", want, d.buf);
		fail();
	}
	if (sf_udiff_apply(a, strlen(a), d.buf, d.len, &res, &why) < 0)
		fail_msg("apply: %s", (sf_udiff_refusal_err("src/x.c", &why, &err), err.msg));
	assert_string_equal(res.buf, b);
	sb_release(&d);
	sb_release(&res);
}

static void test_udiff_st_table(void **state)
{
	(void)state;
	struct model mo;
	build(&mo, "st_table", 48, 5, st_members, 9);
	uint32_t order[] = { 0, 1, 2, 6, 3, 4, 5, 7, 8 };
	struct sf_srcpatch_narrow nw = { 6, 1 };
	char *nt;
	struct sf_err err;
	assert_int_equal(rewrite(st_src, &mo.t, order, &nw, 1, &nt, &err), 0);
	diff_roundtrip(st_src, nt,
		"--- a/src/x.c\n"
		"+++ b/src/x.c\n"
		"@@ -4,10 +4,11 @@\n"
		" \n"
		" struct st_table {\n"
		" \tunsigned char entry_power, bin_power, size_ind;\n"
		"+\tunsigned char entries_start; /* 0..255 (was st_index_t): check that every value fits */\n"
		" \tunsigned int rebuilds_num;\n"
		" \tconst struct st_hash_type *type;\n"
		" \tst_index_t num_entries;\n"
		"-\tst_index_t entries_start, entries_bound;\n"
		"+\tst_index_t entries_bound;\n"
		" \tstruct st_table_entry *entries;\n"
		" };\n"
		" struct st_table example_table;\n");
	free(nt);
}

static void test_udiff_edges(void **state)
{
	(void)state;
	struct strbuf d = STRBUF_INIT;
	/* equal texts: no diff at all */
	assert_int_equal(sf_udiff_render(&d, "f", "a\n", 2, "a\n", 2, 3), 0);
	assert_int_equal(d.len, 0);
	/* two changes far apart: two hunks; close together: one */
	diff_roundtrip("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n",
		       "1\nX\n3\n4\n5\n6\n7\n8\n9\n10\nY\n12\n",
		       "--- a/src/x.c\n+++ b/src/x.c\n"
		       "@@ -1,5 +1,5 @@\n 1\n-2\n+X\n 3\n 4\n 5\n"
		       "@@ -8,5 +8,5 @@\n 8\n 9\n 10\n-11\n+Y\n 12\n");
	diff_roundtrip("1\n2\n3\n4\n5\n6\n7\n8\n",
		       "1\nX\n3\n4\n5\n6\nY\n8\n",
		       "--- a/src/x.c\n+++ b/src/x.c\n"
		       "@@ -1,8 +1,8 @@\n 1\n-2\n+X\n 3\n 4\n 5\n 6\n-7\n+Y\n 8\n");
	/* no newline at the end, on either side */
	diff_roundtrip("a\nb", "a\nc",
		       "--- a/src/x.c\n+++ b/src/x.c\n@@ -1,2 +1,2 @@\n a\n-b\n"
		       "\\ No newline at end of file\n+c\n\\ No newline at end of file\n");
	diff_roundtrip("a\nb", "a\nb\n", NULL);
	/* insertion into and deletion down to an empty file */
	diff_roundtrip("", "x\ny\n", "--- a/src/x.c\n+++ b/src/x.c\n@@ -0,0 +1,2 @@\n+x\n+y\n");
	diff_roundtrip("x\n", "", "--- a/src/x.c\n+++ b/src/x.c\n@@ -1 +0,0 @@\n-x\n");
	sb_release(&d);
}

/* sf_udiff_apply on a file "f", its refusal worded into err */
static int apply_f(const char *old, size_t oldlen, const char *diff, size_t difflen,
		   struct strbuf *out, struct sf_err *err)
{
	struct sf_udiff_refusal why;

	if (sf_udiff_apply(old, oldlen, diff, difflen, out, &why) == 0)
		return 0;
	return sf_udiff_refusal_err("f", &why, err);
}

static void test_udiff_apply_strict(void **state)
{
	(void)state;
	struct strbuf out = STRBUF_INIT;
	struct sf_err err = SF_ERR_INIT;
	const char *diff = "--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n 1\n-2\n+X\n 3\n";
	assert_int_equal(apply_f("1\n2\n3\n", 6, diff, strlen(diff), &out, &err), 0);
	assert_string_equal(out.buf, "1\nX\n3\n");
	sb_reset(&out);
	/* the file changed under the patch: refused, nothing produced */
	assert_int_equal(apply_f("1\n2b\n3\n", 7, diff, strlen(diff), &out, &err), -1);
	assert_string_equal(err.msg, "f: hunk 1 does not apply (removed line differs)");
	assert_int_equal(out.len, 0);
	assert_int_equal(apply_f("0\n2\n3\n", 6, diff, strlen(diff), &out, &err), -1);
	assert_string_equal(err.msg, "f: hunk 1 does not apply (context differs)");
	const char *bad = "--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n 1\n-2\n";
	assert_int_equal(apply_f("1\n2\n3\n", 6, bad, strlen(bad), &out, &err), -1);
	assert_string_equal(err.msg, "f: hunk 1 does not apply (line counts differ from its header)");
	assert_int_equal(apply_f("1\n", 2, "junk\n", 5, &out, &err), -1);
	assert_string_equal(err.msg, "f: not a unified diff");
	sb_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_st_table_narrow),
		cmocka_unit_test(test_shared_line_split),
		cmocka_unit_test(test_identity),
		cmocka_unit_test(test_leading_comment_stays),
		cmocka_unit_test(test_comments_move_with_members),
		cmocka_unit_test(test_group_heading_stays),
		cmocka_unit_test(test_narrow_without_stdint),
		cmocka_unit_test(test_bitfield_runs_kept),
		cmocka_unit_test(test_bitfield_run_split_refused),
		cmocka_unit_test(test_unnamed_bitfield_refused),
		cmocka_unit_test(test_bitfield_width_changed),
		cmocka_unit_test(test_nested_and_fnptr),
		cmocka_unit_test(test_array_size_expressions),
		cmocka_unit_test(test_split_pointer_declarators),
		cmocka_unit_test(test_typedef_annotations_blank_lines),
		cmocka_unit_test(test_crlf_and_moved_definition),
		cmocka_unit_test(test_refuse_changed_body),
		cmocka_unit_test(test_conditional_blocks),
		cmocka_unit_test(test_conditional_empty_and_refused),
		cmocka_unit_test(test_macro_typed_members),
		cmocka_unit_test(test_refuse_macro_members),
		cmocka_unit_test(test_refuse_one_line),
		cmocka_unit_test(test_refuse_bad_plan),
		cmocka_unit_test(test_cxx_access_labels),
		cmocka_unit_test(test_cxx_no_empty_label),
		cmocka_unit_test(test_cxx_refusals),
		cmocka_unit_test(test_cxx_ctor_lists),
		cmocka_unit_test(test_cxx_aggregate),
		cmocka_unit_test(test_cxx_template),
		cmocka_unit_test(test_cxx_template_source),
		cmocka_unit_test(test_cxx_export_macro),
		cmocka_unit_test(test_cxx_annotations),
		cmocka_unit_test(test_cxx_out_of_class),
		cmocka_unit_test(test_types_and_ranges),
		cmocka_unit_test(test_udiff_st_table),
		cmocka_unit_test(test_udiff_edges),
		cmocka_unit_test(test_udiff_apply_strict),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
