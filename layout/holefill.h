/*
 * holefill.h - the reorder searches past the exact ones (reorder.h): an
 * order of a wanted size that moves few units, for structs of more than
 * SF_REORDER_EXACT_MAX units, and the local search for size when the size
 * DP gives up.  Used by reorder.c only.
 */
#ifndef SF_HOLEFILL_H
#define SF_HOLEFILL_H

#include <stdint.h>

#include "reorder.h"

/*
 * Filling holes from the current order, at most max_steps moves: each step
 * moves the one unit into a gap (a hole, or the tail padding) that makes
 * the struct smallest, then its last unit end earliest.  Stops at
 * `target`, after max_steps, or when no move helps.  order[] gets the
 * first order of the smallest size reached; returns that size (SF_NO_FIT
 * when the current order breaks a pin).  It moves at most max_steps units.
 */
uint64_t sf_reorder_fill(const struct sf_units *us, uint64_t target,
			 uint32_t max_steps, uint32_t *order);

/*
 * order[] is an order of size `target` (the size search's).  Replace it by
 * the smallest, then least moving order found that moves at most max_moves
 * units: filled holes; when they do not reach the target, also the given
 * order; each with units re-inserted to lengthen the kept subsequence.
 * Returns its size, SF_NO_FIT (order[] unchanged) when none qualifies.
 */
uint64_t sf_reorder_few_moves(const struct sf_units *us, uint64_t target,
			      uint32_t max_moves, uint32_t *order);

/* Shrink `order` by single moves while one helps; returns its size. */
uint64_t sf_reorder_local_size(const struct sf_units *us, uint32_t *order);

#endif
