/*
 * reorder.h - the member order that makes a struct smallest, moving the
 * fewest members.
 *
 * A struct is cut into placement units (struct sf_units), in the order of
 * their current offsets: one unit per ordinary member, one per run of
 * bit-fields that share storage (they must move together, or the compiler
 * would pack them differently), and the flexible array member, which stays
 * last and is not a unit.  A unit knows where it may start: an ordinary
 * member at a multiple of its alignment; a bit-field run at any byte
 * offset where none of its fields would straddle its own storage unit
 * (a set of allowed phases modulo the largest storage unit).  A pinned
 * unit must stay at its current offset.
 *
 *   struct sf_units { type | members -> [member index by offset]...
 *                     v -> [unit]...  unit = {first, count (into members),
 *                     offset, size, align, period, phases, pinned} }
 *
 * The layout of an order is what a C compiler does: each unit goes to the
 * first allowed offset at or after the end of the previous one; the size is
 * that end rounded up to the struct's alignment.  For ordinary members this
 * is exact; for bit-field runs it is an upper bound (the compiler may pack
 * a run into a neighbour's last byte), so a proposed size is never too
 * small.  sf_units_build() checks that the current order reproduces the
 * compiler's offsets and size; when it does not (attributes the model does
 * not know, C++ tail-padding reuse), the type is not modeled and nothing is
 * proposed for it.
 *
 * "Moves" are defined on the unit order: the units of the longest common
 * subsequence of the old order and the new one (the longest increasing run
 * of old indexes in the new order) stay; every other unit moved.  So
 * moving one member from the end into a hole is one move, however many
 * members shift behind it, and a patch that only moves the moved units'
 * declarations produces the new order.
 *
 * The search (sf_reorder_search_max) returns, among the orders of smallest
 * size, one with the fewest moves:
 *   - smallest size: the current order, the sort by alignment and a
 *     gap-filling greedy are tried first, and one that reaches the lower
 *     bound (every byte placed, rounded up to the alignment) is optimal.
 *     Otherwise a dynamic program over "how many units of each shape are
 *     placed" (units of equal size, alignment and phases are
 *     interchangeable; a pinned unit is a shape of its own) and the end
 *     offset: exact for any number of units while it stays under a state
 *     budget (it does for most real structs); beyond the budget, a local
 *     search (move one unit anywhere while that shrinks the struct) from
 *     the best candidate, and the result is marked inexact.
 *   - fewest moves: for up to SF_REORDER_EXACT_MAX units, a dynamic program
 *     over (set of units placed, end offset, last kept unit) maximizing the
 *     kept units among orders of the smallest size: exact.  Beyond, a
 *     heuristic, marked inexact (holefill.h): from the current order, one
 *     unit at a time moves into a hole (a small member into a hole, a
 *     member followed by a hole into another hole: one move closes two),
 *     the move that shrinks the struct most, until the size is reached;
 *     then units outside the kept subsequence are re-inserted wherever
 *     that keeps the size and lengthens it.  Only when filling holes
 *     cannot reach the size: units of one shape fill that shape's slots of
 *     the size search's order, re-inserted the same way.
 *   - within at most N moves (sf_reorder_search_max): the smallest size an
 *     order moving at most N units reaches, then the fewest moves; exact
 *     up to SF_REORDER_EXACT_MAX units (the same dynamic program, states
 *     with more than N units moved dropped), else the hole filling stopped
 *     after N steps (each step moves one unit at most).
 * A bit-field run the compiler placed at a storage boundary later than
 * the rule says followed an unnamed `:0` (absent from DWARF): it is then
 * kept to storage boundaries wherever it goes.
 * When no order is smaller than the current one, the result is the current
 * order with no moves: a layout that is not smaller is never proposed.
 */
#ifndef SF_REORDER_H
#define SF_REORDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "model/typeset.h"

#define SF_REORDER_EXACT_MAX 12
#define SF_NO_FIT UINT64_MAX

struct sf_unit {
	uint32_t first;        /* first entry of sf_units.members */
	uint32_t count;        /* members in the unit (> 1: a bit-field run) */
	uint64_t offset;       /* current offset, bytes */
	uint64_t size;         /* bytes it occupies */
	uint32_t align;        /* what it adds to the struct's alignment */
	uint32_t period;       /* placement: offset % period ... */
	uint64_t phases;       /* ... must be a set bit of phases */
	bool pinned;
	bool bitfield;
};

struct sf_units {
	const struct sf_type *type;
	uint32_t *members;     /* member indexes in offset order (flex excluded) */
	struct sf_unit *v;
	size_t n;
	uint32_t align;        /* the struct's alignment */
	bool is_union;
	uint32_t flex;         /* flexible array member index, or UINT32_MAX */
	uint32_t flex_align;
	bool modeled;          /* the current order reproduces the compiler's layout */
	uint64_t model_size;   /* size of the current order under the model */
	bool heuristic;        /* tests only: the fewest moves by the heuristic
	                        * even where the exact search runs */
	uint64_t *work;        /* when set, the searches add the unit placements
	                        * (and like steps) they make: a caller bounding
	                        * many searches counts them here (narrow.c) */
};

/* Count w steps of work on us (when it counts). */
static inline void sf_units_work(const struct sf_units *us, uint64_t w)
{
	if (us->work)
		*us->work += w;
}

/*
 * Cut t into units.  pin[i] (may be NULL) pins member i; pin_first pins the
 * first member when it is a struct (C-style inheritance) or a C++ base.
 * C++ bases and vtable pointers are always pinned.
 */
void sf_units_build(const struct sf_type *t, const bool *pin, bool pin_first,
		    struct sf_units *out);
void sf_units_release(struct sf_units *us);

/*
 * Make the units of members m0 .. m0 + nm - 1 (consecutive in memory) one
 * unit: members under an #if in the source, which must stay whole and in
 * their order.  With may_move the unit moves like any other, placed where
 * the C rule puts its first member (period: that member's alignment; size:
 * the block's span), when that is exact: no bit-field among them, not
 * packed, no member of it pinned, and the block's inner layout the same
 * from every offset its first member may take (phase_free: a block that
 * starts with its most aligned member always is; {int; long} is not, as
 * its inner hole depends on where it starts).  Otherwise it is pinned at
 * its offset.  -1 (nothing changed) when other members lie among them.
 */
int sf_units_fix_group(struct sf_units *us, uint32_t m0, uint32_t nm, bool may_move);

/* The unit that member i belongs to, or SIZE_MAX (flexible array). */
size_t sf_units_of_member(const struct sf_units *us, uint32_t member);

/*
 * Lay the units out in `order` (n unit indexes): offsets_out[u] (may be
 * NULL) gets each unit's offset.  Returns the struct size, or SF_NO_FIT if
 * a pinned unit cannot sit at its offset in that order.
 */
uint64_t sf_units_place(const struct sf_units *us, const uint32_t *order,
			uint64_t *offsets_out);

/*
 * The placement rule underneath (structs, not unions): where unit u goes
 * when the struct so far ends at c (SF_NO_FIT: u is pinned elsewhere);
 * the end of the last unit of `order`, by_unit[u] and by_pos[k] (either
 * may be NULL) getting the offsets; and the size of a struct whose last
 * unit ends at `end`.
 */
uint64_t sf_unit_place(const struct sf_unit *u, uint64_t c);
uint64_t sf_units_end(const struct sf_units *us, const uint32_t *order,
		      uint64_t *by_unit, uint64_t *by_pos);
uint64_t sf_units_finish(const struct sf_units *us, uint64_t end);

struct sf_reorder {
	uint64_t size;         /* smallest size found (within max_moves) */
	uint64_t old_size;     /* size of the current order (model) */
	uint64_t min_size;     /* smallest size found with any number of moves */
	uint32_t max_moves;    /* the bound searched under (UINT32_MAX: none) */
	size_t n;              /* units */
	uint32_t *order;       /* the new order: unit indexes */
	uint64_t *offset;      /* per unit: its offset in the new order */
	bool *moved;           /* per unit: outside the kept subsequence */
	uint32_t moves;
	bool exact;            /* both size and moves are proven minimal */
};

/*
 * The search among orders that move at most max_moves units (UINT32_MAX:
 * any): the smallest
 * size they reach (size; min_size keeps the unbounded one), the fewest
 * moves for it.  size is SF_NO_FIT when no such order keeps the pins
 * (only when the current order cannot: after a narrowing).
 */
void sf_reorder_search_max(const struct sf_units *us, uint32_t max_moves,
			   struct sf_reorder *r);
void sf_reorder_release(struct sf_reorder *r);

/* Just the smallest size (cheaper: no moves); *exact set when proven. */
uint64_t sf_reorder_min_size(const struct sf_units *us, bool *exact);

/* Length of the longest increasing subsequence of order[0..n): the kept units. */
size_t sf_order_kept(const uint32_t *order, size_t n, bool *kept_out);

/*
 * The type laid out in the new order, for rendering: members in their new
 * order with their new offsets (bit-fields and anonymous struct/union
 * members shifted along), size and alignment from the model.  Allocated in
 * `arena`'s memory (not added to it as a type).
 */
const struct sf_type *sf_units_relayout(const struct sf_units *us,
					const struct sf_reorder *r,
					struct sf_typeset *arena);

#endif
