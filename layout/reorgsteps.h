/*
 * reorgsteps.h - a reorder (reorder.h) as a sequence of single moves, for
 * pahole's --show_reorg_steps and -R -V: "move unit u from after unit p
 * to after unit d", each leaving a valid order whose layout the caller
 * can draw (sf_units_relayout).
 *
 * The units moved are the reorder's (outside the kept subsequence: the
 * fewest moves), taken in their new order: each goes right after the
 * unit before it in the new order - a kept unit, or one moved already -
 * or to the start when it is first there.  Every unit placed so far is
 * then in its new relative order, so after the last move the order is
 * the reorder's.  Pure: no words (report/ words a step).
 */
#ifndef SF_REORGSTEPS_H
#define SF_REORGSTEPS_H

#include <stddef.h>
#include <stdint.h>

#include "layout/reorder.h"

#define SF_STEP_START SIZE_MAX   /* "after" nothing: the start */

struct sf_reorg_step {
	size_t unit;           /* the unit moved */
	size_t from_after;     /* the unit it followed (SF_STEP_START: none) */
	size_t to_after;       /* the unit it follows now (SF_STEP_START: none) */
	struct sf_reorder at;  /* the order after this move: order, offset
	                        * (per unit), size (SF_NO_FIT: a pinned unit
	                        * cannot sit there - not drawn) */
};

/*
 * The moves from us's current order to r's, in *out (malloc'ed, each
 * step's `at` too: sf_reorg_steps_free); returns how many (0: r moves
 * nothing).
 */
size_t sf_reorg_steps(const struct sf_units *us, const struct sf_reorder *r,
		      struct sf_reorg_step **out);
void sf_reorg_steps_free(struct sf_reorg_step *s, size_t n);

#endif
