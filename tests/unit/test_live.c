/*
 * test_live.c - counts files and /proc/slabinfo parsed from bytes
 * (layout/live.c): the values kept, and every error with its file:line;
 * the size bound a slab cache is matched under; the live table.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "layout/live.h"

#define HDR "slabinfo - version: 2.1\n" \
	"# name            <active_objs> <num_objs> <objsize> <objperslab> " \
	"<pagesperslab> : tunables <limit> <batchcount> <sharedfactor> : slabdata " \
	"<active_slabs> <num_slabs> <sharedavail>\n"

static void test_counts(void **state)
{
	static const char text[] = "# counted by hand\n\nst_table 1000000\n"
		"struct RHash   42 # trailing comment\n"
		"ns::C<int, long> 18446744073709551615\n";
	struct sf_counts c;
	struct sf_err err = SF_ERR_INIT;

	(void)state;
	assert_int_equal(sf_counts_parse("c.txt", text, sizeof(text) - 1, &c, &err), 0);
	assert_int_equal(c.n, 3);
	assert_string_equal(c.v[0].name, "st_table");
	assert_int_equal(c.v[0].count, 1000000);
	assert_int_equal(c.v[0].line, 3);
	assert_string_equal(c.v[1].name, "struct RHash");
	assert_int_equal(c.v[1].count, 42);
	assert_string_equal(c.v[2].name, "ns::C<int, long>");
	assert_true(c.v[2].count == UINT64_MAX);
	assert_int_equal(c.v[2].line, 5);
	sf_counts_release(&c);
}

static void counts_error(const char *text, const char *want)
{
	struct sf_counts c;
	struct sf_err err = SF_ERR_INIT;

	assert_int_equal(sf_counts_parse("c.txt", text, strlen(text), &c, &err), -1);
	assert_string_equal(err.msg, want);
	assert_int_equal(c.n, 0);
	assert_null(c.v);
}

static void test_counts_errors(void **state)
{
	(void)state;
	counts_error("st_table 1\nst_table\n", "c.txt:2: expected 'TYPE COUNT', got 'st_table'");
	counts_error("st_table ten\n", "c.txt:1: count 'ten' is not a number");
	counts_error("st_table -1\n", "c.txt:1: count '-1' is not a number");
	counts_error("\n\nst_table 18446744073709551616\n",
		     "c.txt:3: count '18446744073709551616' is past 2^64-1");
}

static void test_slabinfo(void **state)
{
	static const char text[] = HDR
		"ext4_inode_cache  215255 215306   1128   14    4 : tunables    0    0    0 : "
		"slabdata  15379  15379      0\n"
		"kmalloc-64         9024   9024     64   64    1 : tunables    0    0    0 : "
		"slabdata    141    141      0\n";
	struct sf_slabinfo si;
	struct sf_err err = SF_ERR_INIT;

	(void)state;
	assert_int_equal(sf_slabinfo_parse("si", text, sizeof(text) - 1, &si, &err), 0);
	assert_int_equal(si.n, 2);
	assert_string_equal(si.v[0].name, "ext4_inode_cache");
	assert_int_equal(si.v[0].active, 215255);
	assert_int_equal(si.v[0].num, 215306);
	assert_int_equal(si.v[0].objsize, 1128);
	assert_int_equal(si.v[0].objperslab, 14);
	assert_int_equal(si.v[0].pagesperslab, 4);
	assert_int_equal(si.v[0].line, 3);
	assert_string_equal(si.v[1].name, "kmalloc-64");
	assert_int_equal(si.v[1].line, 4);
	sf_slabinfo_release(&si);
}

static void slab_error(const char *text, const char *want)
{
	struct sf_slabinfo si;
	struct sf_err err = SF_ERR_INIT;

	assert_int_equal(sf_slabinfo_parse("si", text, strlen(text), &si, &err), -1);
	assert_string_equal(err.msg, want);
	assert_int_equal(si.n, 0);
}

static void test_slabinfo_errors(void **state)
{
	(void)state;
	slab_error("", "si:1: not a slabinfo file (expected 'slabinfo - version: 2.1')");
	slab_error("name 1 2 3\n", "si:1: not a slabinfo file (expected 'slabinfo - version: 2.1')");
	slab_error("slabinfo - version: 1.1\n", "si:1: slabinfo version 1.1; only 2.1 is read");
	slab_error(HDR "dentry 1 2 192 21\n", "si:3: expected 'name <active_objs> <num_objs> "
		   "<objsize> <objperslab> <pagesperslab> : ...'");
	slab_error(HDR "dentry 1 2 192 21 1 x\n", "si:3: expected 'name <active_objs> "
		   "<num_objs> <objsize> <objperslab> <pagesperslab> : ...'");
	slab_error(HDR "dentry 1 2 19x 21 1 :\n", "si:3: objsize '19x' is not a number");
	slab_error(HDR "dentry 99999999999999999999 2 192 21 1 :\n",
		   "si:3: active_objs '99999999999999999999' is past 2^64-1");
}

static void test_most(void **state)
{
	struct sf_type t = { .name = "x", .size = 1120, .align = 8 };

	(void)state;
	/* 1120 + SLUB's word = 1128, rounded to a cacheline: 1152 */
	assert_int_equal(sf_slab_most(&t), 1152);
	t.size = 192;
	assert_int_equal(sf_slab_most(&t), 256);
	t.size = 4;
	t.align = 4;
	assert_int_equal(sf_slab_most(&t), 64);
	assert_string_equal(sf_slab_tail("task_struct"), "the FPU state");
	assert_null(sf_slab_tail("dentry"));
}

static void test_live_table(void **state)
{
	struct sf_type a = { .name = "a" }, b = { .name = "b" };
	struct sf_live l = { 0 };

	(void)state;
	sf_live_add(&l, &a, 10, NULL);
	sf_live_add(&l, &b, 3, NULL);
	sf_live_add(&l, &a, UINT64_MAX, NULL);
	assert_int_equal(l.n, 2);
	assert_true(sf_live_find(&l, &a)->count == UINT64_MAX);	/* saturated */
	assert_int_equal(sf_live_find(&l, &b)->count, 3);
	assert_null(sf_live_find(NULL, &a));
	sf_live_release(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts),
		cmocka_unit_test(test_counts_errors),
		cmocka_unit_test(test_slabinfo),
		cmocka_unit_test(test_slabinfo_errors),
		cmocka_unit_test(test_most),
		cmocka_unit_test(test_live_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
