/*
 * test_cmd_narrowarg.c - --narrow [TYPE.]MEMBER=BYTES as cmd/narrowarg.c
 * reads it for suggest, fit and patch: the split at the last '=' and the
 * first '.', decimal widths only, and the one line a bad argument gets.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cmd/narrowarg.h"

static void test_parse_narrow(void **state)
{
	struct sf_narrow_arg a;
	struct sf_err err = SF_ERR_INIT;

	(void)state;
	assert_int_equal(sf_narrow_arg_parse("entries_start=1", &a, &err), 0);
	assert_null(a.type);
	assert_string_equal(a.member, "entries_start");
	assert_int_equal(a.bytes, 1);
	assert_string_equal(a.arg, "entries_start=1");
	sf_narrow_arg_release(&a);

	assert_int_equal(sf_narrow_arg_parse("st_table.entries_start=04", &a, &err), 0);
	assert_string_equal(a.type, "st_table");
	assert_string_equal(a.member, "entries_start");
	assert_int_equal(a.bytes, 4);            /* decimal, never octal */
	sf_narrow_arg_release(&a);

	/* the last '=' splits: a name cannot hold one, the width cannot */
	assert_int_equal(sf_narrow_arg_parse("struct x.m=2", &a, &err), 0);
	assert_string_equal(a.type, "struct x");
	assert_string_equal(a.member, "m");
	sf_narrow_arg_release(&a);

	static const char *const bad[] = {
		"m", "=1", "m=", "m=-1", "m=+1", "m= 1", "m=0x1", "m=1b",
		"m=99999999999999999999999",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char want[128];
		snprintf(want, sizeof(want), "--narrow: '%s' is not MEMBER=BYTES", bad[i]);
		assert_int_equal(sf_narrow_arg_parse(bad[i], &a, &err), -1);
		assert_string_equal(err.msg, want);
		assert_null(a.member);           /* nothing to release */
	}
}

/* the array the commands grow: a bad argument leaves it as it was */
static void test_args_add(void **state)
{
	struct sf_narrow_arg *v = NULL;
	struct sf_err err = SF_ERR_INIT;
	size_t n = 0;

	(void)state;
	assert_int_equal(sf_narrow_args_add("a=1", &v, &n, &err), 0);
	assert_int_equal(sf_narrow_args_add("t.b=2", &v, &n, &err), 0);
	assert_int_equal(sf_narrow_args_add("c", &v, &n, &err), -1);
	assert_string_equal(err.msg, "--narrow: 'c' is not MEMBER=BYTES");
	assert_int_equal(n, 2);
	assert_string_equal(v[0].member, "a");
	assert_null(v[0].type);
	assert_string_equal(v[1].type, "t");
	assert_string_equal(v[1].member, "b");
	assert_int_equal(v[1].bytes, 2);
	sf_narrow_args_free(v, n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_narrow),
		cmocka_unit_test(test_args_add),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
