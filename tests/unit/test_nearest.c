/*
 * test_nearest.c - "did you mean" (lib/nearest.c): the bounded edit
 * distance against a plain full-table one on random words, and the names
 * kept among 200,000 (a kernel's worth): typos, case, a qualified name's
 * last component, ties in name order, nothing past the bound.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "lib/nearest.h"

/* The optimal-string-alignment distance, case ignored, the whole table. */
static size_t full_distance(const char *a, const char *b)
{
	size_t n = strlen(a), m = strlen(b);
	size_t d[20][20];

	for (size_t i = 0; i <= n; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= m; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= n; i++)
		for (size_t j = 1; j <= m; j++) {
			size_t c = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
			size_t v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (d[i - 1][j - 1] + c < v)
				v = d[i - 1][j - 1] + c;
			if (i > 1 && j > 1 && tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == tolower((unsigned char)b[j - 1]) &&
			    d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[n][m];
}

static void random_word(char *w, size_t max)
{
	size_t n = (size_t)(rand() % (int)max);

	for (size_t i = 0; i < n; i++)
		w[i] = "abcAB_"[rand() % 6];
	w[n] = '\0';
}

static void test_distance_matches_full_table(void **state)
{
	(void)state;
	srand(25);
	for (int round = 0; round < 20000; round++) {
		char a[20], b[20];
		random_word(a, 12);
		random_word(b, 12);
		size_t bound = (size_t)(rand() % 5);
		size_t full = full_distance(a, b);
		size_t got = sf_edit_distance(a, strlen(a), b, strlen(b), bound);
		assert_int_equal(got, full <= bound ? full : bound + 1);
	}
	assert_int_equal(sf_edit_distance("shwo", 4, "show", 4, 1), 1);   /* a swap */
	assert_int_equal(sf_edit_distance("Conn", 4, "conn", 4, 1), 0);   /* case */
}

static void test_nearest_among_many(void **state)
{
	(void)state;
	enum { N = 200000 };
	char (*names)[16] = malloc(sizeof(*names) * N);
	struct sf_nearest near;

	assert_non_null(names);
	/* 200,000 names that are none of them near "inner": "zq" + digits */
	for (size_t i = 0; i < N; i++)
		snprintf(names[i], sizeof(names[i]), "zq%zu", i);
	sf_nearest_init(&near, "innr");
	for (size_t i = 0; i < N; i++)
		sf_nearest_offer(&near, names[i]);
	assert_int_equal(sf_nearest_finish(&near), 0);

	sf_nearest_init(&near, "innr");
	for (size_t i = 0; i < N / 2; i++)
		sf_nearest_offer(&near, names[i]);
	sf_nearest_offer(&near, "inner");
	sf_nearest_offer(&near, "innards");         /* 3 away: past the bound */
	sf_nearest_offer(&near, "inner");           /* offered twice: kept once */
	sf_nearest_offer(&near, "INNR_");
	for (size_t i = N / 2; i < N; i++)
		sf_nearest_offer(&near, names[i]);
	assert_int_equal(sf_nearest_finish(&near), 2);
	assert_string_equal(near.kept[0], "INNR_");
	assert_string_equal(near.kept[1], "inner");
	free(names);
}

static void test_qualified_and_ties(void **state)
{
	(void)state;
	struct sf_nearest near;

	sf_nearest_init(&near, "Conn");
	sf_nearest_offer(&near, "Corn");
	sf_nearest_offer(&near, "net::Conn");        /* last component: 0 */
	sf_nearest_offer(&near, "a::b::Conn<int, long>");
	sf_nearest_offer(&near, "Conn<x>::inner");   /* last component inner */
	assert_int_equal(sf_nearest_finish(&near), 2);
	assert_string_equal(near.kept[0], "a::b::Conn<int, long>");
	assert_string_equal(near.kept[1], "net::Conn");

	/* more ties than kept: the first by name, whatever the order */
	sf_nearest_init(&near, "abcd");
	const char *ties[] = { "abcz", "abcy", "abcx", "abcw", "abcv", "abcu", "abct" };
	for (size_t i = 0; i < 7; i++)
		sf_nearest_offer(&near, ties[i]);
	assert_int_equal(sf_nearest_finish(&near), SF_NEAREST_MAX_KEPT);
	assert_string_equal(near.kept[0], "abct");
	assert_string_equal(near.kept[4], "abcx");

	/* a query longer than any name can be: no suggestion, no work */
	char longq[SF_NEAREST_MAX_QUERY + 2];
	memset(longq, 'a', sizeof(longq) - 1);
	longq[sizeof(longq) - 1] = '\0';
	sf_nearest_init(&near, longq);
	sf_nearest_offer(&near, longq);
	assert_int_equal(sf_nearest_finish(&near), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_distance_matches_full_table),
		cmocka_unit_test(test_nearest_among_many),
		cmocka_unit_test(test_qualified_and_ties),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
