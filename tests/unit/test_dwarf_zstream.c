/*
 * test_dwarf_zstream.c - a zlib stream inflated piecewise (input/zstream.h):
 * its bytes as inflated, and which of them go back when a range is
 * dropped (sf_zstream_drop, in any order) or released.  Pages given back
 * read as zeros, so the test sees exactly which went; the data has no
 * zero byte.  A huge page given back whole while bytes are to come moves
 * ahead of the inflater: mincore() sees it there before anything is
 * inflated into it, and the bytes inflated into it are checked.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <cmocka.h>
#include <zlib.h>

#include "input/zstream.h"
#include "lib/xalloc.h"

#define SIZE ((size_t)6 << 20)

static unsigned char byte_at(size_t i)
{
	return (unsigned char)(1 + (i * 7 + i / 4096) % 251);
}

struct zdata {
	unsigned char *src;
	size_t srclen;
};

static struct zdata compressed(void)
{
	unsigned char *raw = sf_xmalloc(SIZE);
	uLongf len = compressBound(SIZE);
	struct zdata z = { sf_xmalloc(len), 0 };

	for (size_t i = 0; i < SIZE; i++)
		raw[i] = byte_at(i);
	assert_int_equal(compress2(z.src, &len, raw, SIZE, 6), Z_OK);
	z.srclen = len;
	free(raw);
	return z;
}

/* Is the page at p in memory? */
static int resident(const unsigned char *p)
{
	unsigned char v = 0;

	assert_int_equal(mincore((void *)p, sf_page_size(), &v), 0);
	return v & 1;
}

#define MIB ((size_t)1 << 20)

/* [lo, hi) of the stream holds its bytes */
static void assert_bytes(const unsigned char *b, size_t lo, size_t hi)
{
	for (size_t i = lo; i < hi; i++)
		if (b[i] != byte_at(i))
			fail_msg("byte %zu: %u, not %u", i, b[i], byte_at(i));
}

static void assert_zeros(const unsigned char *b, size_t lo, size_t hi)
{
	for (size_t i = lo; i < hi; i++)
		if (b[i])
			fail_msg("byte %zu: %u, not 0", i, b[i]);
}

static void test_inflates_in_pieces(void **state)
{
	struct zdata z = compressed();
	struct sf_zstream *s = sf_zstream_new(z.src, z.srclen, SIZE, 0, UINT64_MAX);

	(void)state;
	assert_non_null(s);
	assert_int_equal(sf_zstream_fill(s, 100000), 0);
	assert_true(sf_zstream_have(s) >= 100000);
	assert_bytes(sf_zstream_base(s), 0, (size_t)sf_zstream_have(s));
	assert_int_equal(sf_zstream_fill(s, SIZE), 0);
	assert_int_equal(sf_zstream_have(s), SIZE);
	assert_bytes(sf_zstream_base(s), 0, SIZE);
	sf_zstream_free(s);
	free(z.src);
}

static void test_drop_gives_back_whole_pages_inside(void **state)
{
	struct zdata z = compressed();
	struct sf_zstream *s = sf_zstream_new(z.src, z.srclen, SIZE, 0, UINT64_MAX);
	size_t pg = sf_page_size();
	size_t lo = ((size_t)1 << 20) + 100, hi = ((size_t)3 << 20) + 50;

	(void)state;
	assert_int_equal(sf_zstream_fill(s, SIZE), 0);
	const unsigned char *b = sf_zstream_base(s);
	sf_zstream_drop(s, lo, hi);
	size_t plo = (lo + pg - 1) / pg * pg, phi = hi / pg * pg;
	assert_bytes(b, 0, plo);	/* the part page before it stays */
	assert_zeros(b, plo, phi);
	assert_bytes(b, phi, SIZE);	/* and the part page after it */

	/* released below 4 MiB, then dropped from 0: only [4 MiB, 5 MiB)
	 * goes, what lies below the release is the release's */
	sf_zstream_release(s, (size_t)4 << 20);
	sf_zstream_drop(s, 0, (size_t)5 << 20);
	assert_zeros(b, (size_t)4 << 20, (size_t)5 << 20);
	assert_bytes(b, (size_t)5 << 20, SIZE);

	/* beyond what is inflated: nothing */
	sf_zstream_drop(s, SIZE, SIZE + ((size_t)4 << 20));
	assert_bytes(b, (size_t)5 << 20, SIZE);
	sf_zstream_free(s);
	free(z.src);
}

/* A huge page all given back while bytes are to come moves to the first
 * huge page past them; what the inflater writes there is the stream's. */
static void test_page_given_back_moves_ahead(void **state)
{
	struct zdata z = compressed();
	struct sf_zstream *s = sf_zstream_new(z.src, z.srclen, SIZE, 0, UINT64_MAX);

	(void)state;
	assert_int_equal(sf_zstream_fill(s, 3 * MIB), 0);
	uint64_t have = sf_zstream_have(s);
	assert_true(have >= 3 * MIB && have <= 4 * MIB);
	const unsigned char *b = sf_zstream_base(s);
	assert_false(resident(b + 4 * MIB));	/* nothing there yet */
	sf_zstream_drop(s, 0, 2 * MIB);
	assert_zeros(b, 0, 2 * MIB);
	assert_true(resident(b + 4 * MIB));	/* the page moved there */
	assert_bytes(b, 2 * MIB, have);
	assert_int_equal(sf_zstream_fill(s, SIZE), 0);
	assert_bytes(b, 2 * MIB, SIZE);
	/* with no byte to come, a page given back goes to the kernel (asked
	 * before it is read: reading it maps the zero page) */
	sf_zstream_drop(s, 2 * MIB, 4 * MIB);
	assert_false(resident(b + 2 * MIB));
	assert_zeros(b, 2 * MIB, 4 * MIB);
	assert_bytes(b, 4 * MIB, SIZE);
	sf_zstream_free(s);
	free(z.src);
}

/* Ranges given back out of order, sharing a page: no byte outside them
 * ever changes; in a small stream the small pages inside go at once. */
static void test_out_of_order_small(void **state)
{
	struct zdata z = compressed();
	struct sf_zstream *s = sf_zstream_new(z.src, z.srclen, SIZE, 0, UINT64_MAX);
	size_t pg = sf_page_size();
	size_t mid = 2 * MIB + 100, end = 4 * MIB + 50;

	(void)state;
	assert_int_equal(sf_zstream_fill(s, 5 * MIB), 0);
	const unsigned char *b = sf_zstream_base(s);
	sf_zstream_drop(s, mid, end);
	size_t plo = (mid + pg - 1) / pg * pg, phi = end / pg * pg;
	assert_bytes(b, 0, plo);
	assert_zeros(b, plo, phi);
	assert_bytes(b, phi, (size_t)sf_zstream_have(s));
	sf_zstream_drop(s, 0, mid);
	assert_zeros(b, 0, phi);
	assert_bytes(b, phi, (size_t)sf_zstream_have(s));
	/* page 0 moved ahead (to 6 MiB: past the size, so it went), page 1
	 * was broken: either way all reads as zeros, and the rest inflates */
	assert_int_equal(sf_zstream_fill(s, SIZE), 0);
	assert_bytes(b, phi, SIZE);
	sf_zstream_free(s);
	free(z.src);
}

/* In a stream that holds pages (as a big one does) a page part of which
 * is still read keeps its bytes, all of them, until the rest is given
 * back; then it moves ahead. */
static void test_held_pages(void **state)
{
	struct zdata z = compressed();
	struct sf_zstream *s = sf_zstream_new(z.src, z.srclen, SIZE, 0, SIZE);

	(void)state;
	assert_int_equal(sf_zstream_fill(s, 3 * MIB), 0);
	uint64_t have = sf_zstream_have(s);
	assert_true(have >= 3 * MIB && have < 4 * MIB);
	const unsigned char *b = sf_zstream_base(s);
	sf_zstream_drop(s, MIB, 2 * MIB + 100);
	assert_bytes(b, 0, have);		/* pages 0 and 1 are held */
	assert_false(resident(b + 4 * MIB));
	sf_zstream_drop(s, 0, MIB);		/* page 0 is all given back */
	assert_true(resident(b + 4 * MIB));	/* and moved ahead */
	assert_zeros(b, 0, 2 * MIB);
	assert_bytes(b, 2 * MIB, have);	/* page 1 still is held */
	/* page 1 given back as far as it is inflated: with no room left
	 * ahead (page 0 waits at [4, 6) MiB, the size) it is held no more,
	 * its small pages given back go */
	sf_zstream_release(s, have);
	assert_false(resident(b + 2 * MIB));
	assert_zeros(b, 0, 2 * MIB + 100);
	assert_int_equal(sf_zstream_fill(s, SIZE), 0);
	assert_bytes(b, 4 * MIB, SIZE);
	/* with no byte to come, a page part of which is read is not held:
	 * its small pages given back go at once */
	sf_zstream_drop(s, 4 * MIB, 5 * MIB + 100);
	assert_zeros(b, 4 * MIB, 5 * MIB);
	assert_bytes(b, 5 * MIB + 100, SIZE);
	sf_zstream_free(s);
	free(z.src);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_inflates_in_pieces),
		cmocka_unit_test(test_drop_gives_back_whole_pages_inside),
		cmocka_unit_test(test_page_given_back_moves_ahead),
		cmocka_unit_test(test_out_of_order_small),
		cmocka_unit_test(test_held_pages),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
