/*
 * test_sort.c - sf_sort_stable (lib/sort.c) against a stable insertion
 * sort, the order it must give, on random index arrays with many ties.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "lib/sort.h"

static bool key_less(const void *ctx, uint32_t a, uint32_t b)
{
	const unsigned *key = ctx;

	return key[a] < key[b];
}

static void insertion_sort(uint32_t *v, size_t n, const unsigned *key)
{
	for (size_t i = 1; i < n; i++) {
		uint32_t x = v[i];
		size_t j = i;
		while (j > 0 && key[x] < key[v[j - 1]]) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = x;
	}
}

static void test_matches_insertion_sort(void **state)
{
	(void)state;
	srand(29);
	for (int round = 0; round < 500; round++) {
		size_t n = (size_t)(rand() % 300);
		unsigned key[300];
		uint32_t got[300], want[300];
		for (size_t i = 0; i < n; i++) {
			key[i] = (unsigned)(rand() % 7);   /* many ties */
			got[i] = want[i] = (uint32_t)i;
		}
		unsigned passes = sf_sort_stable(got, n, key_less, key);
		insertion_sort(want, n, key);
		assert_memory_equal(got, want, n * sizeof(*got));
		unsigned log2n = 0;
		while (((size_t)1 << log2n) < n)
			log2n++;
		assert_int_equal(passes, log2n);
	}
}

static void test_empty_and_one(void **state)
{
	(void)state;
	unsigned key[1] = { 5 };
	uint32_t v[1] = { 0 };
	assert_int_equal(sf_sort_stable(v, 0, key_less, key), 0);
	assert_int_equal(sf_sort_stable(v, 1, key_less, key), 0);
	assert_int_equal(v[0], 0);
}

/* Against a linear scan: random ascending arrays with runs of equal
 * entries, every key from below the first to past the last. */
static void test_lower_bound_matches_scan(void **state)
{
	(void)state;
	uint64_t v[40];

	srand(7);
	for (size_t n = 0; n <= 40; n++) {
		uint64_t at = 3;
		for (size_t i = 0; i < n; i++) {
			at += (uint64_t)(rand() % 3);        /* 0: a run of equal keys */
			v[i] = at;
		}
		for (uint64_t x = 0; x <= at + 2; x++) {
			size_t want = 0;
			while (want < n && v[want] < x)
				want++;
			assert_int_equal(sf_lower_bound_u64(v, n, x), want);
		}
	}
	assert_int_equal(sf_lower_bound_u64(NULL, 0, 5), 0);
	const uint64_t top[] = { 1, UINT64_MAX };
	assert_int_equal(sf_lower_bound_u64(top, 2, UINT64_MAX), 1);
	assert_int_equal(sf_lower_bound_u64(top, 2, UINT64_MAX - 1), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_matches_insertion_sort),
		cmocka_unit_test(test_empty_and_one),
		cmocka_unit_test(test_lower_bound_matches_scan),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
