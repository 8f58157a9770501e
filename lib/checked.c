/*
 * checked.c - saturating size arithmetic (see checked.h): the one place a
 * sum of sizes is checked for overflow.
 */
#include "checked.h"

#include <assert.h>
#include <errno.h>
#include <stdlib.h>

uint64_t sf_add_sat(uint64_t a, uint64_t b)
{
	uint64_t sum;

	if (a == SF_SIZE_SAT || b == SF_SIZE_SAT || __builtin_add_overflow(a, b, &sum))
		return SF_SIZE_SAT;
	return sum;
}

uint64_t sf_mul_sat(uint64_t a, uint64_t b)
{
	uint64_t prod;

	if (!a || !b)
		return 0;
	if (a == SF_SIZE_SAT || b == SF_SIZE_SAT || __builtin_mul_overflow(a, b, &prod))
		return SF_SIZE_SAT;
	return prod;
}

uint64_t sf_div_ceil(uint64_t a, uint64_t d)
{
	assert(d > 0);
	/* not (a + d - 1) / d: that is what wrapped to 0 cachelines */
	return a / d + (a % d != 0);
}

uint64_t sf_round_up_sat(uint64_t a, uint64_t m)
{
	assert(m > 0);
	uint64_t rem = a % m;

	return rem ? sf_add_sat(a, m - rem) : a;
}

uint64_t sf_clip_bytes(uint64_t bytes, bool *clipped)
{
	if (bytes <= SF_SANE_BYTES)
		return bytes;
	if (clipped)
		*clipped = true;
	return SF_SANE_BYTES;
}

uint64_t sf_bits_of(uint64_t bytes)
{
	return sf_clip_bytes(bytes, NULL) * 8;
}

bool sf_size_saturated(uint64_t v)
{
	return v == SF_SIZE_SAT;
}

int sf_parse_decimal(const char *s, uint64_t *out)
{
	char *end;

	/* strtoull would take a sign or leading blanks */
	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}
