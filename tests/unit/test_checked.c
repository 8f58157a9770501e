/*
 * test_checked.c - lib/checked.c against 128-bit arithmetic.
 *
 * The oracle is the compiler's unsigned __int128: the exact sum, product
 * and rounded quotient, saturated by hand at 2^64-1.  Checked on the edges
 * (0, 1, 2^63, 2^64-2, 2^64-1 and their neighbours, the cachelines of the
 * hostile struct of 2^64-1 bytes) and on a fixed-seed pseudo-random sample
 * biased toward the top bits, where wrapping happens.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "lib/checked.h"

typedef unsigned __int128 u128;

static uint64_t sat(u128 v)
{
	return v >= (u128)UINT64_MAX ? UINT64_MAX : (uint64_t)v;
}

static const uint64_t edges[] = {
	0, 1, 2, 7, 8, 63, 64, 65, 4096, UINT32_MAX, (uint64_t)1 << 32,
	(uint64_t)1 << 56, ((uint64_t)1 << 63) - 1, (uint64_t)1 << 63,
	((uint64_t)1 << 63) + 1, UINT64_MAX - 64, UINT64_MAX - 2,
	UINT64_MAX - 1, UINT64_MAX,
};
#define NEDGES (sizeof(edges) / sizeof(edges[0]))

/* xorshift64*: a fixed sequence, so a failure repeats */
static uint64_t next(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1DULL;
}

static void check_pair(uint64_t a, uint64_t b)
{
	assert_int_equal(sf_add_sat(a, b), sat((u128)a + b));
	assert_int_equal(sf_mul_sat(a, b),
			 a && b ? sat((u128)a * b) : 0);
	if (b) {
		assert_int_equal(sf_div_ceil(a, b), (uint64_t)(((u128)a + b - 1) / b));
		assert_int_equal(sf_round_up_sat(a, b), sat(((u128)a + b - 1) / b * b));
	}
}

static void test_edges_against_int128(void **state)
{
	(void)state;
	for (size_t i = 0; i < NEDGES; i++)
		for (size_t j = 0; j < NEDGES; j++)
			check_pair(edges[i], edges[j]);
}

static void test_random_against_int128(void **state)
{
	uint64_t s = 0x9E3779B97F4A7C15ULL;

	(void)state;
	for (int i = 0; i < 200000; i++) {
		uint64_t a = next(&s), b = next(&s);
		/* half the time small operands, so sums that fit are tried too */
		if (i & 1)
			a >>= next(&s) % 64, b >>= next(&s) % 64;
		check_pair(a, b);
	}
}

/* The numbers of issue 11: what wrapped before is now saturated or exact. */
static void test_hostile_struct_numbers(void **state)
{
	(void)state;
	/* struct max (2^64-1 bytes) + struct wide (16): wrapped to 15 */
	assert_true(sf_size_saturated(sf_add_sat(UINT64_MAX, 16)));
	/* 2^63 + 2^63 wrapped to 0 */
	assert_true(sf_size_saturated(sf_add_sat((uint64_t)1 << 63, (uint64_t)1 << 63)));
	/* cachelines of 2^64-1 bytes: (size + 63) / 64 wrapped to 0 */
	assert_int_equal(sf_div_ceil(UINT64_MAX, 64), (uint64_t)1 << 58);
	assert_false(sf_size_saturated(UINT64_MAX - 1));
	assert_false(sf_size_saturated(sf_add_sat(UINT64_MAX - 17, 16)));
}

/* Bit positions: exact (the __int128 product) up to 2^56 bytes, clipped
 * there beyond - never the wrapped product, never more than 2^59. */
static void test_bits_clipped(void **state)
{
	uint64_t s = 0x243F6A8885A308D3ULL;

	(void)state;
	for (int i = 0; i < 200000 + (int)NEDGES; i++) {
		uint64_t b = i < (int)NEDGES ? edges[i] : next(&s) >> (next(&s) % 64);
		bool clipped = false;
		u128 exact = (u128)b * 8;
		if (b <= SF_SANE_BYTES) {
			assert_true(sf_bits_of(b) == (uint64_t)exact);
			assert_true(sf_clip_bytes(b, &clipped) == b);
			assert_false(clipped);
		} else {
			assert_true(sf_bits_of(b) == (uint64_t)SF_SANE_BYTES * 8);
			assert_true(sf_clip_bytes(b, &clipped) == SF_SANE_BYTES);
			assert_true(clipped);
			assert_true((u128)sf_bits_of(b) < exact);
		}
	}
	/* 2^61 bytes wrapped to bit 0: now after any sane offset */
	assert_true(sf_bits_of((uint64_t)1 << 61) > sf_bits_of(4096));
	assert_true(sf_clip_bytes(1, NULL) == 1);
}

/* Numbers on a command line: printf's decimal of a value reads back as it;
 * anything else (a sign, a blank, hex, past 2^64-1) is refused. */
static void test_parse_decimal(void **state)
{
	static const uint64_t values[] = { 0, 1, 10, 255, 4294967296ULL, UINT64_MAX };
	static const char *const bad[] = {
		NULL, "", "-1", "+1", " 1", "\t1", "1 ", "0x10", "1e3", "12a",
		"18446744073709551616", "99999999999999999999999",
	};
	char buf[32];
	uint64_t v;

	(void)state;
	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		snprintf(buf, sizeof(buf), "%llu", (unsigned long long)values[i]);
		assert_int_equal(sf_parse_decimal(buf, &v), 0);
		assert_true(v == values[i]);
	}
	assert_int_equal(sf_parse_decimal("010", &v), 0);
	assert_int_equal(v, 10);   /* never octal */
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		v = 7;
		assert_int_equal(sf_parse_decimal(bad[i], &v), -1);
		assert_int_equal(v, 7);   /* untouched */
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_edges_against_int128),
		cmocka_unit_test(test_random_against_int128),
		cmocka_unit_test(test_hostile_struct_numbers),
		cmocka_unit_test(test_bits_clipped),
		cmocka_unit_test(test_parse_decimal),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
