/*
 * test_dwarf_zstream.c - a zlib stream inflated piecewise (input/zstream.h):
 * its bytes as inflated, and which of them go back when a range is
 * dropped (sf_zstream_drop: whole pages inside the range, nothing below
 * what was released) or released.  Pages given back read as zeros, so the
 * test sees exactly which went; the data has no zero byte.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
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
	struct sf_zstream *s = sf_zstream_new(z.src, z.srclen, SIZE, 0);

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
	struct sf_zstream *s = sf_zstream_new(z.src, z.srclen, SIZE, 0);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_inflates_in_pieces),
		cmocka_unit_test(test_drop_gives_back_whole_pages_inside),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
