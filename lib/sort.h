/*
 * sort.h - a stable sort of an index array by a caller's order.
 *
 * v[0..n) holds indexes into the caller's own table; sf_sort_stable
 * reorders them so that before(ctx, a, b) never holds for an a placed
 * after b, keeping the given order of indexes the order does not tell
 * apart.  Bottom-up merge sort through one scratch array: O(n log n)
 * compares on structs of thousands of members, never quadratic, and the
 * order a stable insertion sort gives.
 *
 * sf_lower_bound_u64 is the search such a sorted table is then read by:
 * the first entry of an ascending uint64_t array not below a key.
 */
#ifndef SF_SORT_H
#define SF_SORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Whether index a goes before index b (a strict order). */
typedef bool (*sf_before_fn)(const void *ctx, uint32_t a, uint32_t b);

/* Sort v[0..n) stably by before; returns the number of merge passes
 * (ceil(log2 n)), what a caller that counts its work counts. */
unsigned sf_sort_stable(uint32_t *v, size_t n, sf_before_fn before, const void *ctx);

/* The index of the first v[i] >= x in ascending v[0..n); n when there is
 * none. */
size_t sf_lower_bound_u64(const uint64_t *v, size_t n, uint64_t x);

#endif
