/*
 * test_live.c - counts files and /proc/slabinfo parsed from bytes
 * (layout/live.c): the values kept, and every error with its file:line
 * (the problem as data, worded by report/live.c);
 * the size bound a slab cache is matched under; the live table; SLUB's
 * slot rule and the live figures at a size (objects per slab, slabs,
 * bytes in size classes).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "layout/live.h"
#include "report/live.h"

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
	struct sf_live_why why;

	(void)state;
	assert_int_equal(sf_counts_parse(text, sizeof(text) - 1, &c, &why), 0);
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

	struct sf_live_why why;

	assert_int_equal(sf_counts_parse(text, strlen(text), &c, &why), -1);
	assert_int_equal(sf_render_live_why(&err, "c.txt", &why), -1);
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
	struct sf_live_why why;

	(void)state;
	assert_int_equal(sf_slabinfo_parse(text, sizeof(text) - 1, &si, &why), 0);
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

	struct sf_live_why why;

	assert_int_equal(sf_slabinfo_parse(text, strlen(text), &si, &why), -1);
	assert_int_equal(sf_render_live_why(&err, "si", &why), -1);
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
	assert_int_equal(sf_slab_tail("task_struct"), SF_SLAB_TAIL_FPU);
	assert_int_equal(sf_slab_tail("mm_struct"), SF_SLAB_TAIL_CPU_MASKS);
	assert_int_equal(sf_slab_tail("dentry"), SF_SLAB_TAIL_NONE);
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

/* SLUB's slot rule, on caches as the host's /proc/slabinfo shows them. */
static void test_slab_unit(void **state)
{
	struct sf_type t = { .name = "ext4_inode_info", .size = 1120, .align = 8 };
	struct sf_slab s = { .name = "ext4_inode_cache", .active = 215255, .objsize = 1128,
			     .objperslab = 14, .pagesperslab = 4 };
	struct sf_slab_unit u;

	(void)state;
	/* the free pointer outside the object: 8 bytes */
	sf_slab_unit_derive(&s, &t, &u);
	assert_int_equal(u.slab_bytes, 16384);
	assert_int_equal(u.align, 8);
	assert_int_equal(u.extra, 8);
	assert_true(u.agrees);
	assert_int_equal(sf_slab_per(&u, 1120), 14);
	assert_int_equal(sf_slab_per(&u, 1081), 14);	/* 1088 + 8: 1096 */
	assert_int_equal(sf_slab_per(&u, 1080), 15);	/* 1088: 16384 / 1088 */
	assert_int_equal(sf_slab_size_for(&u, 15), 1080);
	assert_int_equal(sf_slab_size_for(&u, 16), 1016);
	assert_int_equal(sf_slab_size_for(&u, 0), 0);
	assert_int_equal(sf_slab_size_for(&u, 100000), 0);

	/* struct pid: 144 bytes in a 192-byte slot: SLAB_HWCACHE_ALIGN */
	t = (struct sf_type){ .name = "pid", .size = 144, .align = 8 };
	s = (struct sf_slab){ .name = "pid", .objsize = 192, .objperslab = 21, .pagesperslab = 1 };
	sf_slab_unit_derive(&s, &t, &u);
	assert_int_equal(u.align, 64);
	assert_int_equal(u.extra, 0);
	assert_true(u.agrees);
	assert_int_equal(sf_slab_per(&u, 128), 32);

	/* a 16-aligned struct rounds to 16, not a free pointer */
	t = (struct sf_type){ .name = "x", .size = 1128, .align = 16 };
	s = (struct sf_slab){ .name = "x", .objsize = 1136, .objperslab = 14, .pagesperslab = 4 };
	sf_slab_unit_derive(&s, &t, &u);
	assert_int_equal(u.align, 16);
	assert_int_equal(u.extra, 0);
	assert_int_equal(sf_slab_slot(&u, 1120), 1120);

	/* task_struct: a tail (the FPU state) after the struct */
	t = (struct sf_type){ .name = "task_struct", .size = 3264, .align = 64 };
	s = (struct sf_slab){ .name = "task_struct", .objsize = 5824, .objperslab = 5,
			      .pagesperslab = 8 };
	sf_slab_unit_derive(&s, &t, &u);
	assert_int_equal(u.align, 64);
	assert_int_equal(u.extra, 5824 - 64 + 8 - 3264);
	assert_int_equal(sf_slab_slot(&u, 3264), 5824);
	assert_true(u.agrees);

	/* a slabinfo the rule does not give (64 KiB pages): said, not hidden */
	t = (struct sf_type){ .name = "d", .size = 192, .align = 8 };
	s = (struct sf_slab){ .name = "d", .objsize = 192, .objperslab = 341, .pagesperslab = 1 };
	sf_slab_unit_derive(&s, &t, &u);
	assert_false(u.agrees);
}

static void test_live_step(void **state)
{
	struct sf_type t = { .name = "ext4_inode_info", .size = 1120, .align = 8 };
	struct sf_slab s = { .name = "ext4_inode_cache", .active = 215255, .objsize = 1128,
			     .objperslab = 14, .pagesperslab = 4 };
	struct sf_live_cost c = { .count = 215255, .slab = &s };
	struct sf_live_step a, b;
	struct sf_classes cl;
	struct sf_classes_refusal why;

	(void)state;
	sf_slab_unit_derive(&s, &t, &c.unit);
	sf_live_step_at(&c, 1120, &a);
	sf_live_step_at(&c, 1080, &b);
	assert_int_equal(a.per, 14);
	assert_int_equal(a.slabs, 15376);	/* ceil(215255 / 14) */
	assert_int_equal(b.per, 15);
	assert_int_equal(b.slabs, 14351);	/* ceil(215255 / 15) */
	assert_int_equal(a.slabs - b.slabs, 1025);
	assert_int_equal(a.next_size, 1080);
	assert_int_equal(b.next_size, 1016);
	assert_int_equal(a.bytes, 215255ull * 1128);

	/* counts in size classes: count x the class of header + size */
	assert_int_equal(sf_classes_parse("64,80", &cl, &why), 0);
	c = (struct sf_live_cost){ .count = 1000000, .classes = &cl, .header = 24 };
	sf_live_step_at(&c, 48, &a);
	sf_live_step_at(&c, 40, &b);
	assert_int_equal(a.bytes, 80000000);
	assert_int_equal(b.bytes, 64000000);
	assert_int_equal(cl.v[b.cls], 64);
	sf_live_step_at(&c, 100, &a);		/* above the last class: the bytes */
	assert_true(a.cls == SF_NO_CLASS);
	assert_int_equal(a.bytes, 124000000);
	c.count = UINT64_MAX;
	sf_live_step_at(&c, 48, &a);
	assert_true(a.bytes == UINT64_MAX);	/* saturated */
	sf_classes_release(&cl);
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
		cmocka_unit_test(test_slab_unit),
		cmocka_unit_test(test_live_step),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
