/*
 * test_classes.c - size-class presets, SPEC parsing and class lookup.
 *
 * Presets are checked against the published lists (DESIGN.md, the
 * allocators' sources) and, for glibc, against its rounding formula applied
 * to every request size below the mmap threshold.  Bad SPECs must be
 * rejected with a message that names the problem.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "layout/classes.h"
#include "report/reasons.h"

static void load(const char *spec, struct sf_classes *c)
{
	struct sf_classes_refusal why;

	assert_int_equal(sf_classes_parse(spec, c, &why), 0);
}

static void expect_prefix(const char *spec, const uint64_t *want, size_t n)
{
	struct sf_classes c;

	load(spec, &c);
	assert_true(c.n >= n);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(c.v[i], want[i]);
	sf_classes_release(&c);
}

static void test_presets_sorted(void **state)
{
	(void)state;
	assert_int_equal(sf_classes_npresets(), 7);
	for (size_t i = 0; i < sf_classes_npresets(); i++) {
		struct sf_classes c;
		sf_classes_preset(i, &c);
		assert_non_null(c.name);
		assert_int_equal(c.preset, (int)i);
		assert_string_equal(c.name, sf_classes_preset_name(i));
		assert_true(strlen(sf_classes_source(&c)) > 10);
		assert_true(c.n >= 2);
		assert_true(c.v[0] > 0);
		for (size_t k = 1; k < c.n; k++)
			assert_true(c.v[k - 1] < c.v[k]);
		sf_classes_release(&c);
	}
}

static void test_preset_values(void **state)
{
	static const uint64_t ruby[] = { 40, 80, 160, 320, 640 };
	static const uint64_t kmalloc[] = { 8, 16, 32, 64, 96, 128, 192, 256, 512,
					    1024, 2048, 4096, 8192 };
	static const uint64_t cache[] = { 64, 128 };
	static const uint64_t jem[] = { 8, 16, 32, 48, 64, 80, 96, 112, 128, 160,
		192, 224, 256, 320, 384, 448, 512, 640, 768, 896, 1024, 1280 };
	static const uint64_t mim[] = { 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112,
		128, 160, 192, 224, 256, 320 };
	static const uint64_t tcm[] = { 8, 16, 32, 48, 64, 80, 96, 112, 128, 144, 160 };
	struct sf_classes c;

	(void)state;
	load("ruby-3.3", &c);
	assert_int_equal(c.n, 5);
	sf_classes_release(&c);
	expect_prefix("ruby-3.3", ruby, 5);
	load("kmalloc", &c);
	assert_int_equal(c.n, 13);
	sf_classes_release(&c);
	expect_prefix("kmalloc", kmalloc, 13);
	load("cacheline", &c);
	assert_int_equal(c.n, 2);
	sf_classes_release(&c);
	expect_prefix("cacheline", cache, 2);
	expect_prefix("jemalloc", jem, sizeof(jem) / sizeof(jem[0]));
	expect_prefix("mimalloc", mim, sizeof(mim) / sizeof(mim[0]));
	expect_prefix("tcmalloc", tcm, sizeof(tcm) / sizeof(tcm[0]));

	/* jemalloc: the last small class and the first large one */
	load("jemalloc", &c);
	size_t i = sf_classes_find(&c, 14000);
	assert_int_equal(c.v[i], 14336);
	assert_int_equal(c.v[i + 1], 16384);
	assert_int_equal(c.v[i + 2], 20480);
	sf_classes_release(&c);

	/* mimalloc: four bins per doubling up to 128 KiB */
	load("mimalloc", &c);
	assert_int_equal(c.v[c.n - 1], 128 * 1024);
	assert_int_equal(c.v[sf_classes_find(&c, 1025)], 1280);
	sf_classes_release(&c);
}

/* glibc: every request below 128 KiB lands on its usable chunk size. */
static void test_glibc_formula(void **state)
{
	struct sf_classes c;

	(void)state;
	load("glibc", &c);
	assert_int_equal(c.v[0], 24);
	for (uint64_t req = 1; req < 128 * 1024 - 8; req++) {
		uint64_t chunk = (req + 8 + 15) & ~UINT64_C(15);
		if (chunk < 32)
			chunk = 32;
		size_t i = sf_classes_find(&c, req);
		assert_true(i != SF_NO_CLASS);
		assert_int_equal(c.v[i], chunk - 8);
	}
	sf_classes_release(&c);
}

static void expect_error(const char *spec, const char *needle)
{
	struct sf_classes c = { 0 };
	struct sf_err err = SF_ERR_INIT;
	struct sf_classes_refusal why;

	assert_int_equal(sf_classes_parse(spec, &c, &why), -1);
	assert_ptr_equal(why.spec, spec);
	assert_int_equal(sf_classes_refusal_err(&why, &err), -1);
	if (!strstr(err.msg, needle))
		fail_msg("'%s': got '%s', expected '%s'", spec, err.msg, needle);
	assert_null(c.v);
}

static void test_parse_lists(void **state)
{
	struct sf_classes c;

	(void)state;
	load("32,64,96", &c);
	assert_int_equal(c.n, 3);
	assert_int_equal(c.v[2], 96);
	assert_string_equal(c.name, "list");
	assert_int_equal(c.preset, SF_CLASSES_LIST);
	assert_string_equal(sf_classes_source(&c), "user list");
	sf_classes_release(&c);
	load(" 40 , 80 ", &c);
	assert_int_equal(c.n, 2);
	assert_int_equal(c.v[1], 80);
	sf_classes_release(&c);
	load("64", &c);
	assert_int_equal(c.n, 1);
	sf_classes_release(&c);

	expect_error("", "empty");
	expect_error("   ", "empty");
	expect_error("32,,64", "empty item");
	expect_error("32,64,", "empty item");
	expect_error(",32", "empty item");
	expect_error("64,32", "strictly increasing (32 after 64)");
	expect_error("32,32", "strictly increasing");
	expect_error("0,32", "0 bytes");
	expect_error("32,x4", "'x4' is not");
	expect_error("32,-4", "'-4' is not");
	expect_error("32,4k", "'4k' is not");
	expect_error("jemaloc", "'jemaloc': unknown preset (known: ruby-3.3, jemalloc, "
		     "glibc, mimalloc, tcmalloc, kmalloc, cacheline) and not a list like 32,64,96");
	expect_error("99999999999999999999999", "too large");
}

static void test_fit(void **state)
{
	struct sf_classes c;
	struct sf_fit f;

	(void)state;
	load("ruby-3.3", &c);
	sf_classes_fit(&c, 72, &f);             /* RHash + st_table, before */
	assert_int_equal(f.cls, 80);
	assert_int_equal(f.waste, 8);
	assert_true(f.has_lower);
	assert_int_equal(f.lower, 40);
	assert_int_equal(f.to_next_lower, 32);
	sf_classes_fit(&c, 40, &f);             /* exactly the first class */
	assert_int_equal(f.index, 0);
	assert_int_equal(f.waste, 0);
	assert_false(f.has_lower);
	sf_classes_fit(&c, 700, &f);            /* above every class */
	assert_int_equal(f.index, SF_NO_CLASS);
	assert_true(f.has_lower);
	assert_int_equal(f.lower, 640);
	assert_int_equal(f.to_next_lower, 60);
	sf_classes_release(&c);

	load("64,80", &c);
	sf_classes_fit(&c, 72, &f);
	assert_int_equal(f.cls, 80);
	assert_int_equal(f.to_next_lower, 8);
	sf_classes_fit(&c, 64, &f);
	assert_int_equal(f.cls, 64);
	assert_int_equal(f.index, 0);
	sf_classes_release(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_presets_sorted),
		cmocka_unit_test(test_preset_values),
		cmocka_unit_test(test_glibc_formula),
		cmocka_unit_test(test_parse_lists),
		cmocka_unit_test(test_fit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
