/*
 * checked.h - size arithmetic that cannot wrap.
 *
 * Sizes, offsets and their sums come from the input, and a hostile or
 * corrupt input states any 64-bit value (a struct of 2^64-1 bytes).  Added
 * or rounded up with plain uint64_t arithmetic they wrap to small numbers,
 * and a small number passes every budget.  Every such sum in layout/, fit
 * and suggest goes through these instead: a result that does not fit in 64
 * bits saturates to SF_SIZE_SAT, and SF_SIZE_SAT stands for "not
 * representable" (a real object of 2^64-1 bytes cannot exist: compilers
 * stop at PTRDIFF_MAX), which callers report and every budget rule fails.
 */
#ifndef SF_CHECKED_H
#define SF_CHECKED_H

#include <stdbool.h>
#include <stdint.h>

/* The saturated value: a size or sum of 2^64-1 bytes or more. */
#define SF_SIZE_SAT UINT64_MAX

/* a + b, or SF_SIZE_SAT when that does not fit (or either already is). */
uint64_t sf_add_sat(uint64_t a, uint64_t b);
/* a * b, or SF_SIZE_SAT when that does not fit (or either already is, b > 0). */
uint64_t sf_mul_sat(uint64_t a, uint64_t b);
/* a / d rounded up (the cachelines a size spans); never wraps.  d > 0. */
uint64_t sf_div_ceil(uint64_t a, uint64_t d);
/* The smallest multiple of m >= a, or SF_SIZE_SAT when that does not fit.
 * m > 0. */
uint64_t sf_round_up_sat(uint64_t a, uint64_t m);
/*
 * The most bytes a size or an offset is taken at face value: 2^56 (64 PiB).
 * More only comes from corrupt input (compilers stop at PTRDIFF_MAX, and
 * no machine addresses 2^56 bytes); clipped there, a bit position (x 8)
 * and a sum of a few of them fit in an int64_t.  Where a layout is
 * computed (layout/holes.c) a clipped number marks it irregular.
 */
#define SF_SANE_BYTES ((uint64_t)1 << 56)
/* bytes, or SF_SANE_BYTES when more - then *clipped is set (if given). */
uint64_t sf_clip_bytes(uint64_t bytes, bool *clipped);
/* The bit position of byte offset `bytes`, clipped as sf_clip_bytes: never wraps. */
uint64_t sf_bits_of(uint64_t bytes);
/* Whether v is the saturated, not representable value. */
bool sf_size_saturated(uint64_t v);

/*
 * A number as a user writes it on a command line: the whole string,
 * decimal digits only ("010" is ten, never octal; no sign, blank or 0x),
 * refused rather than wrapped past 2^64-1.  0, or -1 (s NULL too).
 */
int sf_parse_decimal(const char *s, uint64_t *out);

#endif
