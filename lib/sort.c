/*
 * sort.c - sf_sort_stable (see sort.h): bottom-up merge sort of an index
 * array, ping-ponging between v and one scratch array of n indexes; runs
 * of width w are merged into runs of 2w until one run is left.
 */
#include "sort.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

/* Merge the runs [lo, mid) and [mid, hi) of src into dst; on a tie the
 * left run's index goes first (stability). */
static void merge_runs(const uint32_t *src, uint32_t *dst, size_t lo, size_t mid,
		       size_t hi, sf_before_fn before, const void *ctx)
{
	size_t i = lo, j = mid, k = lo;

	while (i < mid && j < hi)
		dst[k++] = before(ctx, src[j], src[i]) ? src[j++] : src[i++];
	while (i < mid)
		dst[k++] = src[i++];
	while (j < hi)
		dst[k++] = src[j++];
}

unsigned sf_sort_stable(uint32_t *v, size_t n, sf_before_fn before, const void *ctx)
{
	uint32_t *tmp = sf_xcalloc(n ? n : 1, sizeof(*tmp));
	uint32_t *src = v, *dst = tmp;
	unsigned passes = 0;

	for (size_t w = 1; w < n; w *= 2, passes++) {
		for (size_t lo = 0; lo < n; lo += 2 * w) {
			size_t mid = lo + w < n ? lo + w : n;
			size_t hi = lo + 2 * w < n ? lo + 2 * w : n;
			merge_runs(src, dst, lo, mid, hi, before, ctx);
		}
		uint32_t *x = src;
		src = dst;
		dst = x;
	}
	if (src != v)
		memcpy(v, src, n * sizeof(*v));
	free(tmp);
	return passes;
}

size_t sf_lower_bound_u64(const uint64_t *v, size_t n, uint64_t x)
{
	size_t lo = 0, hi = n;

	/* invariant: every entry below lo is < x, every one from hi is >= x */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}
