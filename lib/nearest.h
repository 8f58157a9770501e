/*
 * nearest.h - "did you mean": the names nearest to one a user mistyped.
 *
 * A struct sf_nearest is offered every candidate name once and keeps the
 * ones at the smallest distance seen so far:
 *
 *   sf_nearest { query (lower-cased copy), bound, best, kept[] -> names }
 *
 * The distance is the edit distance (insert, delete, substitute, swap two
 * neighbours) with case ignored, taken on the whole name and, for a
 * qualified C++ or Rust name (`net::Conn`, `a::b::C<int>`), on its last
 * component as well: `Conn` finds `net::Conn` at distance 0.  A name
 * farther than bound (a third of the query, at least 1) is no suggestion.
 *
 * The work is bounded for a kernel's 100,000 names: a candidate whose
 * length differs from the query's by more than the bound is passed over
 * without a look at its letters, the bound shrinks to the best distance
 * found, and each comparison stops at the first row of the table past the
 * bound.  kept[] points into the caller's strings (which must outlive
 * it), sorted and without repeats by sf_nearest_finish.
 */
#ifndef SF_NEAREST_H
#define SF_NEAREST_H

#include <stddef.h>

/* The longest query compared: a longer one gets no suggestion. */
#define SF_NEAREST_MAX_QUERY 256
/* The most names kept at the best distance. */
#define SF_NEAREST_MAX_KEPT 5

struct sf_nearest {
	char query[SF_NEAREST_MAX_QUERY + 1];
	size_t qlen;
	size_t bound;           /* the largest distance still of interest */
	size_t best;            /* the smallest distance offered so far */
	const char *kept[SF_NEAREST_MAX_KEPT];
	size_t nkept;
	size_t more;            /* names at best not kept (past MAX_KEPT) */
};

void sf_nearest_init(struct sf_nearest *n, const char *query);
/* Offer one name (a string that outlives n). */
void sf_nearest_offer(struct sf_nearest *n, const char *name);
/* Sort the kept names, drop repeats; how many there are. */
size_t sf_nearest_finish(struct sf_nearest *n);

/* The bounded edit distance of a and b, case ignored: a value > bound
 * (bound + 1) once it is known to exceed bound. */
size_t sf_edit_distance(const char *a, size_t alen, const char *b, size_t blen,
			size_t bound);

#endif
