/*
 * test_strbuf.c - lib/strbuf.c's column writers against printf.
 *
 * The report writes its columns with sb_addpad ("%-*s") and sb_addu64
 * ("%*" PRIu64) instead of sb_addf, and must stay byte for byte what
 * printf wrote.  The oracle is snprintf itself, over widths around the
 * string's and number's lengths (negative widths too: pahole's spacing
 * goes below zero on long names, and printf then left-justifies) and
 * numbers from 0 to UINT64_MAX, appended after text already there.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "lib/strbuf.h"

static void test_addpad_is_printf_left_justified(void **state)
{
	static const char *const strs[] = { "", " ", "int", "struct list_head *" };
	char want[128];

	(void)state;
	for (size_t k = 0; k < sizeof(strs) / sizeof(strs[0]); k++) {
		for (int w = -24; w <= 24; w++) {
			struct strbuf sb = STRBUF_INIT;
			sb_adds(&sb, "x:");
			sb_addpad(&sb, strs[k], w);
			snprintf(want, sizeof(want), "x:%-*s", w, strs[k]);
			assert_string_equal(sb.buf, want);
			assert_int_equal(sb.len, strlen(want));
			sb_release(&sb);
			/* "%*s" of " ": what the offset comments pad with */
			sb_addpad(&sb, " ", w);
			snprintf(want, sizeof(want), "%*s", w, " ");
			assert_string_equal(sb.buf, want);
			sb_release(&sb);
		}
	}
}

static void test_addu64_is_printf_right_justified(void **state)
{
	static const uint64_t vals[] = {
		0, 1, 9, 10, 99, 100, 12345, 99999, 100000, 4294967295u,
		4294967296u, 10000000000000000000u, UINT64_MAX,
	};
	char want[64];

	(void)state;
	for (size_t k = 0; k < sizeof(vals) / sizeof(vals[0]); k++) {
		for (int w = 0; w <= 24; w++) {
			struct strbuf sb = STRBUF_INIT;
			sb_adds(&sb, "/* ");
			sb_addu64(&sb, vals[k], w);
			snprintf(want, sizeof(want), "/* %*" PRIu64, w, vals[k]);
			assert_string_equal(sb.buf, want);
			assert_int_equal(sb.len, strlen(want));
			sb_release(&sb);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_addpad_is_printf_left_justified),
		cmocka_unit_test(test_addu64_is_printf_right_justified),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
