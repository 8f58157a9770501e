/*
 * test_json.c - lib/json.c: what it accepts, and the one message (path and
 * problem) of each way a document can be broken.
 *
 * Each bad case is a whole document parsed as one value; the message must
 * name the path inside it and the problem, exactly.  The step-by-step
 * calls are checked on a document shaped like structfit's own (an object
 * whose "types" array is read one element at a time, the arena reset
 * after each).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "lib/json.h"

/* Parse s as one whole document: 0, or -1 with the message in err. */
static int parse(const char *s, char *err, size_t errlen)
{
	struct sf_json_parser jp;
	struct sf_json *v;

	sf_json_init(&jp, s, strlen(s), 8);
	int rc = sf_json_value(&jp, &v) < 0 || sf_json_end(&jp) < 0 ? -1 : 0;
	snprintf(err, errlen, "%s", sf_json_error(&jp));
	sf_json_release(&jp);
	return rc;
}

static void test_good_values(void **state)
{
	static const char *const good[] = {
		"{}", "[]", "0", "-0", "1.5e+3", "-12.25E-2", "\"\"", "null", "true", "false",
		" {\"a\" : [1, {\"b\": null}], \"c\":\"\\u00e9\\ud83d\\ude00\\n\"}\n",
		"\"h\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"",
	};
	char err[512];

	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		int rc = parse(good[i], err, sizeof(err));
		if (rc)
			fail_msg("%s: %s", good[i], err);
	}
}

static void test_values_read_back(void **state)
{
	const char *s = "{\"n\":18446744073709551615,\"m\":-9223372036854775808,"
			"\"x\":\"a\\\"b\\u00e9\\ud83d\\ude00\",\"big\":18446744073709551616,"
			"\"f\":1.0,\"e\":1e3}";
	struct sf_json_parser jp;
	struct sf_json *v;
	uint64_t u;
	int64_t i;

	(void)state;
	sf_json_init(&jp, s, strlen(s), 0);
	assert_int_equal(sf_json_value(&jp, &v), 0);
	assert_int_equal(v->type, SF_JSON_OBJECT);
	assert_int_equal(v->n, 6);
	assert_int_equal(sf_json_u64(sf_json_get(v, "n"), &u), 0);
	assert_true(u == UINT64_MAX);
	assert_int_equal(sf_json_u64(sf_json_get(v, "m"), &u), -1);
	assert_int_equal(sf_json_i64(sf_json_get(v, "m"), &i), 0);
	assert_true(i == INT64_MIN);
	assert_int_equal(sf_json_u64(sf_json_get(v, "big"), &u), -1);
	assert_int_equal(sf_json_u64(sf_json_get(v, "f"), &u), -1);
	assert_int_equal(sf_json_u64(sf_json_get(v, "e"), &u), -1);
	assert_string_equal(sf_json_get(v, "x")->s, "a\"b\xc3\xa9\xf0\x9f\x98\x80");
	assert_int_equal(sf_json_get(v, "x")->n, 9);
	assert_null(sf_json_get(v, "nope"));
	/* the search's starting hint wraps: any order finds every key */
	assert_string_equal(sf_json_get(v, "e")->s, "1e3");
	assert_string_equal(sf_json_get(v, "n")->s, "18446744073709551615");
	assert_string_equal(sf_json_get(v, "e")->s, "1e3");
	assert_string_equal(sf_json_get(v, "f")->s, "1.0");
	assert_null(sf_json_get(v, "nope"));
	assert_string_equal(sf_json_get(v, "m")->s, "-9223372036854775808");
	sf_json_release(&jp);
}

static void test_error_paths(void **state)
{
	static const struct { const char *doc, *msg; } bad[] = {
		{ "", ": expected a value, found the end of the document (truncated?)" },
		{ "{\"types\":[{\"a\":1},{\"b\":", ".types[1].b: expected a value, found the end "
		  "of the document (truncated?)" },
		{ "{\"a\":[1,2", ".a: expected ',' or ']', found the end of the document (truncated?)" },
		{ "{\"a\":\"abc", ".a: a string never ends (truncated?)" },
		{ "{\"a\":1,}", ": expected a key, found '}' (byte 7)" },
		{ "[1,]", "[1]: expected a value, found ']' (byte 3)" },
		{ "{\"a\" 1}", ".a: expected ':', found '1' (byte 5)" },
		{ "{\"a\":01}", ": expected ',' or '}', found '1' (byte 6)" },
		{ "{\"a\":1.}", ".a: a number with no digit after '.' (byte 7)" },
		{ "[1e]", "[0]: a number with no digit in its exponent (byte 3)" },
		{ "[nul]", "[0]: expected a value, found 'n' (byte 1)" },
		{ "[1,fa", "[1]: 'false' cut short by the end of the document (truncated?)" },
		{ "[\"\\x\"]", "[0]: bad escape in a string (byte 3)" },
		{ "[\"\\ud800\"]", "[0]: a lone UTF-16 surrogate in a string (byte 8)" },
		{ "[\"\\udc00\"]", "[0]: a lone UTF-16 surrogate in a string (byte 8)" },
		{ "[\"\\u0000\"]", "[0]: a NUL (\\u0000) in a string" },
		{ "[\"a\tb\"]", "[0]: a control byte 0x09 in a string (byte 3)" },
		{ "[\"\xc0\xaf\"]", "[0]: a string is not valid UTF-8 (byte 2)" },
		{ "[\"\xed\xa0\x80\"]", "[0]: a string is not valid UTF-8 (byte 2)" },
		{ "[\"\xf4\x90\x80\x80\"]", "[0]: a string is not valid UTF-8 (byte 2)" },
		{ "[\"\xe2\x82\"]", "[0]: a string is not valid UTF-8 (byte 2)" },
		{ "[[[[[[[[[1]]]]]]]]]", "[0][0][0][0][0][0][0][0]: nested deeper than 8 levels" },
		{ "{} {}", ": more after the document's end (byte 3)" },
		{ "\x01", ": expected a value, found byte 0x01 (byte 0)" },
	};
	char err[512];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(parse(bad[i].doc, err, sizeof(err)), -1);
		if (strcmp(err, bad[i].msg))
			fail_msg("case %zu: got '%s', want '%s'", i, err, bad[i].msg);
	}
}

/* The top of a document step by step: "types" one element at a time. */
static void test_streaming(void **state)
{
	const char *s = " {\"schema\":\"structfit/1\",\"types\":[\n{\"n\":1},\n{\"n\":2},\n"
			"{\"n\":3}\n],\"x\":[]}\n";
	struct sf_json_parser jp;
	const char *key;
	struct sf_json *v;
	uint64_t sum = 0, u;
	int r, items = 0;

	(void)state;
	sf_json_init(&jp, s, strlen(s), 0);
	assert_int_equal(sf_json_peek(&jp), '{');
	assert_int_equal(sf_json_object_begin(&jp), 0);
	assert_int_equal(sf_json_next_key(&jp, &key), 1);
	assert_string_equal(key, "schema");
	assert_int_equal(sf_json_value(&jp, &v), 0);
	assert_string_equal(v->s, "structfit/1");
	assert_int_equal(sf_json_next_key(&jp, &key), 1);
	assert_string_equal(key, "types");
	sf_json_reset(&jp);
	assert_int_equal(sf_json_array_begin(&jp), 0);
	while ((r = sf_json_next_item(&jp)) == 1) {
		assert_int_equal(sf_json_value(&jp, &v), 0);
		assert_int_equal(sf_json_u64(sf_json_get(v, "n"), &u), 0);
		sum += u;
		items++;
		sf_json_reset(&jp);
	}
	assert_int_equal(r, 0);
	assert_int_equal(items, 3);
	assert_true(sum == 6);
	assert_int_equal(sf_json_next_key(&jp, &key), 1);
	assert_string_equal(key, "x");
	assert_int_equal(sf_json_array_begin(&jp), 0);
	assert_int_equal(sf_json_next_item(&jp), 0);
	assert_int_equal(sf_json_next_key(&jp, &key), 0);
	assert_int_equal(sf_json_end(&jp), 0);
	sf_json_release(&jp);

	/* a truncated array met step by step */
	const char *t = "{\"types\":[{\"n\":1},";
	sf_json_init(&jp, t, strlen(t), 0);
	assert_int_equal(sf_json_object_begin(&jp), 0);
	assert_int_equal(sf_json_next_key(&jp, &key), 1);
	assert_int_equal(sf_json_array_begin(&jp), 0);
	assert_int_equal(sf_json_next_item(&jp), 1);
	assert_int_equal(sf_json_value(&jp, &v), 0);
	assert_int_equal(sf_json_next_item(&jp), 1);
	assert_int_equal(sf_json_value(&jp, &v), -1);
	assert_string_equal(sf_json_error(&jp),
			    ": expected a value, found the end of the document (truncated?)");
	/* the first error stays */
	assert_int_equal(sf_json_next_item(&jp), -1);
	assert_string_equal(sf_json_error(&jp),
			    ": expected a value, found the end of the document (truncated?)");
	sf_json_release(&jp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_values),
		cmocka_unit_test(test_values_read_back),
		cmocka_unit_test(test_error_paths),
		cmocka_unit_test(test_streaming),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
