/*
 * holefill.c - orders of a wanted size that move few units, past the exact
 * searches of reorder.c, and the local search for size.
 *
 * Filling holes starts from the current order.  Each step moves one unit
 * into a gap (a hole after a unit, or the tail padding), the move that
 * makes the struct smallest, then its last unit end earliest.  A unit
 * that a hole follows, moved into another hole, closes both (redisServer's
 * ints between pointers: one move per pair of 4-byte holes), so the steps
 * are as few as the holes allow; the order after k steps moves at most k
 * units, which is what a bound on the moves asks for.  When no single
 * move helps, a short search tries a move or two sideways first (odd-sized
 * members that only fit together).
 *
 *   struct filler { order[k] -> unit at position k, off[k] -> its offset,
 *                   end (of the last unit), period[k], base[k] -> tail[]
 *                   (the suffix tables), mark[k] (table entries from k),
 *                   stop[] (shifted runs), work (budget) }
 *
 * A trial move is priced without laying out the whole struct.  Between
 * where the unit leaves and where it lands, the other units shift by one
 * position; once one of them starts from its old cursor, the rest of that
 * run lies as before.  Past both positions a suffix table answers: the
 * units at positions >= k, started at cursor c, end at tail(k, c mod P)
 * + (c - c mod P), P the largest of their periods (all powers of two), as
 * long as none is pinned.  Between the two positions, a run of units whose
 * periods all divide how far the cursor moved lies shifted by as much
 * (stop[] says where such a run ends), and a move rebuilds only the tables
 * of the positions it changed.  Candidates are the units that fit a gap;
 * only when none of them helps, any unit into any gap.  A budget of unit
 * placements bounds the work on structs of thousands of members.
 *
 * When filling cannot reach the size, the size search's order (units of a
 * shape in their old order) is the other candidate.  Either is then
 * improved by re-inserting units outside the kept subsequence wherever
 * that keeps the size and lengthens it (improve_moves).
 */
#include "holefill.h"

#include <assert.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"

/* Unit placements filling may make (about 0.1 s), and each search past a
 * stall; suggest --max-moves fills once per narrowing candidate. */
#define FILL_WORK (1L << 24)
#define ESCAPE_WORK (1L << 21)
/* Trial placements improve_moves may make: bounds its O(n^3) cost on
 * structs of hundreds of members to a fraction of a second. */
#define MOVES_BUDGET 200000
/* Structs this small also try the size search's order under a bound. */
#define SMALL_UNITS 64
/* Trial placements the local search for size may make. */
#define LOCAL_BUDGET 200000

static void identity(uint32_t *order, size_t n)
{
	for (size_t i = 0; i < n; i++)
		order[i] = (uint32_t)i;
}

/* Move order[from] to position `to` (shifting the others). */
static void move_entry(uint32_t *order, size_t from, size_t to)
{
	uint32_t x = order[from];

	if (from < to)
		memmove(order + from, order + from + 1, (to - from) * sizeof(*order));
	else
		memmove(order + to + 1, order + to, (from - to) * sizeof(*order));
	order[to] = x;
}

static bool is_pow2(uint64_t x)
{
	return x && !(x & (x - 1));
}

/* ---- filling holes --------------------------------------------------- */

/* Periods up to this get suffix tables (larger alignments are rare). */
#define TABLE_PERIOD 64
/* Shifts by multiples of 2^0 .. 2^SHIFT_LEVELS-1 (= TABLE_PERIOD) have
 * stop tables. */
#define SHIFT_LEVELS 7

struct filler {
	const struct sf_units *us;
	uint32_t *order;
	uint64_t *off;            /* by position */
	uint64_t end;             /* of the last unit, or SF_NO_FIT */
	uint64_t *period;         /* [k]: lcm of the periods at positions >= k,
	                           * 0: no table (a pin, or an odd period) */
	size_t *base;             /* [k]: where k's table starts in tail[] */
	uint64_t *tail;           /* [base[k] + r]: where the units at >= k end
	                           * when they start at cursor r < period[k] */
	size_t *mark;             /* [k]: 1 + the table entries of positions >= k
	                           * (where k - 1's table starts) */
	size_t *stop;             /* [t * (n + 1) + j]: the first position >= j
	                           * whose unit a shift by a multiple of 2^t
	                           * may not shift as much (pinned, or a period
	                           * not dividing 2^t); n if none */
	long work;
	uint64_t cost;            /* what it did, for sf_units.work: units laid
	                           * out or tables built, moves priced, and
	                           * units placed one by one while pricing */
};

/* A move: order[from] to position `to`, and what the struct becomes. */
struct move {
	size_t from, to;
	uint64_t size, end;
};

static uint64_t end_at(const struct filler *f, size_t k)
{
	return f->off[k] + f->us->v[f->order[k]].size;
}

/* The cursor before position k in the current layout. */
static uint64_t cursor_before(const struct filler *f, size_t k)
{
	return k ? end_at(f, k - 1) : 0;
}

/*
 * Where the units at positions >= k end when they start at cursor c
 * (period[k] != 0): shifting the start by a multiple of every unit's
 * period shifts every unit by as much.
 */
static uint64_t tail_end(const struct filler *f, size_t k, uint64_t c)
{
	/* a power of two (filler_layout): a mask, not a division */
	assert(is_pow2(f->period[k]));
	uint64_t r = c & (f->period[k] - 1);

	return f->tail[f->base[k] + r] + (c - r);
}

/* Fill f->stop for the positions before `below` (see struct filler). */
static void build_stops(struct filler *f, size_t below)
{
	size_t n = f->us->n, w = n + 1;

	if (below == n)
		for (size_t t = 0; t < SHIFT_LEVELS; t++)
			f->stop[t * w + n] = n;
	for (size_t k = below; k-- > 0;) {
		const struct sf_unit *u = &f->us->v[f->order[k]];
		/* the smallest level whose shifts move u as much */
		size_t level = SHIFT_LEVELS;
		if (!u->pinned && is_pow2(u->period))
			for (level = 0; level < SHIFT_LEVELS &&
			     ((uint64_t)1 << level) < u->period; level++)
				;
		for (size_t t = 0; t < SHIFT_LEVELS; t++)
			f->stop[t * w + k] = level <= t ? f->stop[t * w + k + 1] : k;
	}
}

/* How many units from old position j on (at most `left`) lie `d` bytes
 * from where they lie now when the cursor before j is d bytes off (d != 0,
 * modulo 2^64): each unit's period divides d, so each moves by d. */
static size_t shifted_run(const struct filler *f, size_t j, uint64_t d, size_t left)
{
	size_t t = 0;

	assert(d != 0);
	while (t + 1 < SHIFT_LEVELS && !(d & ((uint64_t)1 << t)))
		t++;
	size_t run = f->stop[t * (f->us->n + 1) + j] - j;
	return run < left ? run : left;
}

/*
 * Lay out the current order and build the suffix tables of the positions
 * before `below` (n: all): the units at positions >= below are in the
 * order the tables were built for, so theirs hold.  The work counted is
 * that of building all of them.
 */
static void filler_layout(struct filler *f, size_t below)
{
	const struct sf_units *us = f->us;
	size_t n = us->n;

	assert(below <= n);
	f->end = sf_units_end(us, f->order, NULL, f->off);
	if (below == n) {
		f->period[n] = 1;
		f->base[n] = 0;
		f->tail[0] = 0;
		f->mark[n] = 1;
	}
	size_t used = f->mark[below];
	for (size_t k = below; k-- > 0;) {
		const struct sf_unit *u = &us->v[f->order[k]];
		uint64_t next = f->period[k + 1];
		/* periods are powers of two (alignments, storage units), so
		 * their lcm is the largest */
		bool ok = next && !u->pinned && is_pow2(u->period) &&
			  u->period <= TABLE_PERIOD;
		f->period[k] = !ok ? 0 : next > u->period ? next : u->period;
		if (f->period[k]) {
			f->base[k] = used;
			for (uint64_t r = 0; r < f->period[k]; r++)
				f->tail[used + r] = tail_end(f, k + 1,
							     sf_unit_place(u, r) + u->size);
			used += f->period[k];
		}
		f->mark[k] = used;
	}
	f->work -= (long)(n + f->mark[0] - 1);
	f->cost += n + f->mark[0] - 1;
	build_stops(f, below);
}

/* The cursor after the unit at old position j is placed at c (counted
 * as work), or SF_NO_FIT. */
static uint64_t step(struct filler *f, size_t j, uint64_t c)
{
	const struct sf_unit *u = &f->us->v[f->order[j]];
	uint64_t o = sf_unit_place(u, c);

	f->work--;
	f->cost++;
	return o == SF_NO_FIT ? SF_NO_FIT : o + u->size;
}

/*
 * Where the last unit ends once order[from] moved to position `to`, or
 * SF_NO_FIT.  Between the two positions the other units shift by one
 * position; once one of them starts from its old cursor, the rest of
 * that run lies as before.  After them, the suffix table answers.
 */
static uint64_t end_after_move(struct filler *f, size_t from, size_t to)
{
	size_t lo = from < to ? from : to, hi = from < to ? to : from, k = lo;
	uint64_t c = cursor_before(f, lo);

	f->cost += 4;

	while (k <= hi && c != SF_NO_FIT) {
		/* the unit at new position k was at old position j */
		size_t j = k == to ? from : from < to ? k + 1 : k - 1;
		if (k != to && c == cursor_before(f, j)) {
			c = end_at(f, from < to ? to : from - 1);
			k = from < to ? to : hi + 1;
			continue;
		}
		/* a run whose periods all divide the offset lies shifted by it:
		 * priced at once, counted as the steps it saves */
		size_t run = k == to ? 0 :
			     shifted_run(f, j, c - cursor_before(f, j),
					 from < to ? to - k : hi + 1 - k);
		if (run) {
			c = end_at(f, j + run - 1) + (c - cursor_before(f, j));
			f->work -= (long)run;
			k += run;
			continue;
		}
		c = step(f, j, c);
		k++;
	}
	if (c == SF_NO_FIT || f->period[k])
		return c == SF_NO_FIT ? c : tail_end(f, k, c);
	for (; k < f->us->n && c != SF_NO_FIT; k++) {
		if (c == cursor_before(f, k))
			return f->end;
		c = step(f, k, c);
	}
	return c;
}

/* The gap after position p, [*lo, *hi): a hole, or the tail padding. */
static bool gap_after(const struct filler *f, size_t p, uint64_t *lo, uint64_t *hi)
{
	*lo = end_at(f, p);
	*hi = p + 1 < f->us->n ? f->off[p + 1] : sf_units_finish(f->us, f->end);
	return *hi > *lo;
}

/* Price moving each candidate unit into the gap after p; keep the best. */
static void try_gap(struct filler *f, size_t p, bool any, struct move *best)
{
	const struct sf_units *us = f->us;
	uint64_t lo, hi;

	if (!gap_after(f, p, &lo, &hi))
		return;
	f->cost += us->n / 4;   /* the scan for units that fit */
	for (size_t from = 0; from < us->n && f->work > 0; from++) {
		const struct sf_unit *u = &us->v[f->order[from]];
		if (from == p || from == p + 1 || u->pinned)
			continue;
		/* does not fit the gap as it is: a unit larger than the gap
		 * never does (the cheap test first: most units are) */
		if (!any && (u->size > hi - lo || sf_unit_place(u, lo) + u->size > hi))
			continue;
		size_t to = from > p ? p + 1 : p;
		uint64_t e = end_after_move(f, from, to);
		if (e == SF_NO_FIT)
			continue;
		uint64_t s = sf_units_finish(us, e);
		if (s < best->size || (s == best->size && e < best->end)) {
			best->from = from;
			best->to = to;
			best->size = s;
			best->end = e;
		}
	}
}

/* The best single move into a gap, if one makes the struct smaller or
 * its end earlier. */
static bool best_move(struct filler *f, bool any, struct move *m)
{
	m->from = SIZE_MAX;
	m->size = sf_units_finish(f->us, f->end);
	m->end = f->end;
	for (size_t p = 0; p < f->us->n && f->work > 0; p++)
		try_gap(f, p, any, m);
	return m->from != SIZE_MAX;
}

/* ---- when no single move helps --------------------------------------- */

/* Moves in a row a stall may try: 3 when a few gaps are left. */
#define ESCAPE_DEPTH 3

/* A few moves in a row, and what the struct is after them. */
struct path {
	struct move m[ESCAPE_DEPTH];
	size_t n;
	uint64_t size, end;
};

static bool path_better(const struct path *p, uint64_t size, uint64_t end, size_t n)
{
	return size < p->size || (size == p->size && end < p->end) ||
	       (size == p->size && end == p->end && n < p->n);
}

static size_t count_gaps(const struct filler *f)
{
	size_t g = 0;
	uint64_t lo, hi;

	for (size_t p = 0; p < f->us->n; p++)
		g += gap_after(f, p, &lo, &hi);
	return g;
}

/* Is the unit at position k next to a gap (before or after it)? */
static bool borders_gap(const struct filler *f, size_t k)
{
	uint64_t lo, hi;

	return gap_after(f, k, &lo, &hi) || (k > 0 && gap_after(f, k - 1, &lo, &hi));
}

/* The positions a move changes are at most this one's; after it, the
 * suffix tables hold. */
static size_t move_changes_below(const struct move *m)
{
	return (m->from > m->to ? m->from : m->to) + 1;
}

static void apply(struct filler *f, const struct move *m)
{
	move_entry(f->order, m->from, m->to);
	filler_layout(f, move_changes_below(m));
}

static void undo(struct filler *f, const struct move *m)
{
	move_entry(f->order, m->to, m->from);
	filler_layout(f, move_changes_below(m));
}

/*
 * Every unit next to a gap moved into every gap, as the last move of the
 * path (priced) and, with depth left, as one more step before it: the
 * odd-sized members that leave 1 to 3 bytes each and only fit together
 * (Redis's four char[41] ids and an int) need two or three moves of which
 * none helps alone.  best keeps the best path.
 */
static void explore(struct filler *f, size_t depth, struct path *cur, struct path *best)
{
	uint64_t lo, hi;
	/* which units border a gap: the same for every p (undo restores) */
	bool *borders = sf_xcalloc(f->us->n ? f->us->n : 1, sizeof(bool));

	for (size_t k = 0; k < f->us->n; k++)
		borders[k] = borders_gap(f, k);
	for (size_t p = 0; p < f->us->n && f->work > 0; p++) {
		if (!gap_after(f, p, &lo, &hi))
			continue;
		for (size_t from = 0; from < f->us->n && f->work > 0; from++) {
			if (from == p || from == p + 1 || f->us->v[f->order[from]].pinned ||
			    !borders[from])
				continue;
			struct move m = { from, from > p ? p + 1 : p, 0, 0 };
			m.end = end_after_move(f, m.from, m.to);
			if (m.end == SF_NO_FIT)
				continue;
			m.size = sf_units_finish(f->us, m.end);
			cur->m[cur->n++] = m;
			if (path_better(best, m.size, m.end, cur->n)) {
				*best = *cur;
				best->size = m.size;
				best->end = m.end;
			}
			if (depth > 1) {
				apply(f, &m);
				explore(f, depth - 1, cur, best);
				undo(f, &m);
			}
			cur->n--;
		}
	}
	free(borders);
}

/*
 * No single move makes the struct smaller or its end earlier: look for a
 * few moves in a row that do, within `steps`, when few gaps are left (the
 * search grows as their square to the depth).  Fills *best; false if none.
 */
static bool escape(struct filler *f, uint32_t steps, struct path *best)
{
	struct path cur = { .n = 0 };
	size_t gaps = count_gaps(f);
	size_t depth = gaps <= 4 ? ESCAPE_DEPTH : gaps <= 12 ? 2 : 0;

	long left = f->work;

	if (depth > steps)
		depth = steps;
	best->n = 0;
	best->size = sf_units_finish(f->us, f->end);
	best->end = f->end;
	f->work = left < ESCAPE_WORK ? left : ESCAPE_WORK;
	if (depth >= 2)
		explore(f, depth, &cur, best);
	f->work = left - ((left < ESCAPE_WORK ? left : ESCAPE_WORK) - f->work);
	return best->n > 0;
}

uint64_t sf_reorder_fill(const struct sf_units *us, uint64_t target,
			 uint32_t max_steps, uint32_t *order)
{
	size_t n = us->n ? us->n : 1;
	struct filler f = { us, sf_xcalloc(n, sizeof(uint32_t)),
			    sf_xcalloc(n, sizeof(uint64_t)), 0,
			    sf_xcalloc(n + 1, sizeof(uint64_t)),
			    sf_xcalloc(n + 1, sizeof(size_t)),
			    sf_xcalloc((n + 1) * TABLE_PERIOD, sizeof(uint64_t)),
			    sf_xcalloc(n + 1, sizeof(size_t)),
			    sf_xcalloc((n + 1) * SHIFT_LEVELS, sizeof(size_t)),
			    FILL_WORK, 0 };
	uint64_t best = SF_NO_FIT;
	uint32_t step = 0;

	assert(!us->is_union);
	identity(f.order, us->n);
	filler_layout(&f, us->n);
	memcpy(order, f.order, us->n * sizeof(*order));
	if (f.end != SF_NO_FIT)
		best = sf_units_finish(us, f.end);
	while (f.end != SF_NO_FIT && step < max_steps && best > target && f.work > 0) {
		struct path p = { .n = 1 };
		if (!best_move(&f, false, &p.m[0]) && !best_move(&f, true, &p.m[0]) &&
		    !escape(&f, max_steps - step, &p))
			break;
		for (size_t i = 0; i < p.n; i++)
			apply(&f, &p.m[i]);
		step += (uint32_t)p.n;
		uint64_t size = sf_units_finish(us, f.end);
		if (size < best) {
			best = size;
			memcpy(order, f.order, us->n * sizeof(*order));
		}
	}
	sf_units_work(us, f.cost);
	free(f.order);
	free(f.off);
	free(f.period);
	free(f.base);
	free(f.tail);
	free(f.stop);
	free(f.mark);
	return best;
}

/* ---- fewer moves at a given size ------------------------------------- */

/*
 * run[i]: the longest increasing run of v[0..n) ending at v[i] (rise) or,
 * with rise false, starting at v[i].  Patience sorting, O(n log n);
 * tail[] is scratch of n + 1 entries.
 */
static void runs_at(const uint32_t *v, size_t n, bool rise, uint32_t *run, uint32_t *tail)
{
	size_t len = 0;

	for (size_t s = 0; s < n; s++) {
		size_t i = rise ? s : n - 1 - s;
		/* starting at v[i] = ending at v[i] in the reversed sequence
		 * of complemented values */
		uint32_t x = rise ? v[i] : UINT32_MAX - v[i];
		size_t lo = 0, hi = len;
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;
			if (tail[mid] < x)
				lo = mid + 1;
			else
				hi = mid;
		}
		tail[lo] = x;
		if (lo == len)
			len++;
		run[i] = (uint32_t)(lo + 1);
	}
}

/* Scratch of improve_moves: the order without one unit and its runs. */
struct lis_scratch {
	uint32_t *rest, *up, *down, *tail, *left;
};

/*
 * The first position `to` (from 0 up, `from` excepted) where moving
 * order[from] makes the kept subsequence longer than `best` and the size
 * at most `target`, or SIZE_MAX; *tried counts the positions looked at,
 * as the trial-by-trial loop did.  The kept run grows exactly when the
 * moved unit x joins a run: the longest increasing run before `to` ending
 * below x, plus x, plus the longest after it starting above x, is longer
 * than best (the order without x has no run longer than best).  Only
 * those positions are laid out.
 */
static size_t first_better(const struct sf_units *us, uint64_t target, uint32_t *order,
			   size_t from, size_t best, struct lis_scratch *w, size_t *tried)
{
	size_t n = us->n, m = n - 1;
	uint32_t x = order[from];

	memcpy(w->rest, order, from * sizeof(*order));
	memcpy(w->rest + from, order + from + 1, (m - from) * sizeof(*order));
	runs_at(w->rest, m, true, w->up, w->tail);
	runs_at(w->rest, m, false, w->down, w->tail);
	/* two runs of patience sorting, the prefix, the marks */
	uint64_t lg = 1;
	while (((uint64_t)1 << lg) < m)
		lg++;
	sf_units_work(us, (2 * lg + 2) * (uint64_t)m);
	/* left[to]: the longest run of rest[0..to) ending below x */
	w->left[0] = 0;
	for (size_t i = 0; i < m; i++)
		w->left[i + 1] = w->rest[i] < x && w->up[i] > w->left[i] ? w->up[i] : w->left[i];
	/* right: the longest run of rest[to..m) starting above x, from the end */
	uint32_t right = 0;
	size_t found = SIZE_MAX;
	for (size_t to = n; to-- > 0;) {
		if (to < m && w->rest[to] > x && w->down[to] > right)
			right = w->down[to];
		if (to != from && w->left[to] + 1 + right > best)
			w->tail[to] = 1;   /* tail[] is free again: marks */
		else
			w->tail[to] = 0;
	}
	for (size_t to = 0; to < n && found == SIZE_MAX; to++) {
		if (to == from || !w->tail[to])
			continue;
		move_entry(order, from, to);
		if (sf_units_place(us, order, NULL) <= target)
			found = to;
		move_entry(order, to, from);
	}
	*tried = found == SIZE_MAX ? n - 1 : found + (found < from);
	return found;
}

/*
 * Re-insert units outside the kept run wherever that keeps the size at
 * most `target` and lengthens the kept run, until none does: the first
 * such (unit, position) in order each time, within MOVES_BUDGET trials
 * (a trial: one unit at one position).
 */
static void improve_moves(const struct sf_units *us, uint64_t target, uint32_t *order)
{
	size_t n = us->n ? us->n : 1;
	bool *kept = sf_xcalloc(n, sizeof(bool));
	struct lis_scratch w = {
		sf_xcalloc(n, sizeof(uint32_t)), sf_xcalloc(n, sizeof(uint32_t)),
		sf_xcalloc(n, sizeof(uint32_t)), sf_xcalloc(n + 1, sizeof(uint32_t)),
		sf_xcalloc(n + 1, sizeof(uint32_t)),
	};
	size_t best = sf_order_kept(order, us->n, kept);
	bool improved = true;
	long budget = MOVES_BUDGET;

	while (improved && best < us->n && budget > 0) {
		improved = false;
		for (size_t from = 0; from < us->n && !improved && budget > 0; from++) {
			if (kept[order[from]])
				continue;
			size_t tried;
			size_t to = first_better(us, target, order, from, best, &w, &tried);
			budget -= (long)tried;
			if (to == SIZE_MAX)
				continue;
			move_entry(order, from, to);
			size_t len = sf_order_kept(order, us->n, kept);
			assert(len == best + 1);
			best = len;
			improved = true;
		}
	}
	free(kept);
	free(w.rest);
	free(w.up);
	free(w.down);
	free(w.tail);
	free(w.left);
}

static uint32_t moves_of(const uint32_t *order, size_t n)
{
	return (uint32_t)(n - sf_order_kept(order, n, NULL));
}

/* One candidate order, its size and moves. */
struct cand {
	uint32_t *order;
	uint64_t size;
	uint32_t moves;
};

/* Improve c's moves at its size; take it into *best if it is allowed and
 * better (smaller, then fewer moves). */
static void consider(const struct sf_units *us, struct cand *c, uint32_t max_moves,
		     struct cand *best)
{
	if (c->size == SF_NO_FIT)
		return;
	improve_moves(us, c->size, c->order);
	c->moves = moves_of(c->order, us->n);
	if (c->moves > max_moves)
		return;
	if (best->size == SF_NO_FIT || c->size < best->size ||
	    (c->size == best->size && c->moves < best->moves)) {
		memcpy(best->order, c->order, us->n * sizeof(*c->order));
		best->size = c->size;
		best->moves = c->moves;
	}
}

uint64_t sf_reorder_few_moves(const struct sf_units *us, uint64_t target,
			      uint32_t max_moves, uint32_t *order)
{
	size_t n = us->n ? us->n : 1;
	struct cand best = { sf_xcalloc(n, sizeof(uint32_t)), SF_NO_FIT, 0 };
	struct cand c = { sf_xcalloc(n, sizeof(uint32_t)), SF_NO_FIT, 0 };

	/* holes filled until the size is reached, or as many as the bound
	 * allows; under a bound, more steps and the size search's order are
	 * tried only on small structs (they move more units, improve_moves
	 * seldom brings them under the bound, and suggest --max-moves
	 * searches once per narrowing candidate) */
	bool small = us->n <= SMALL_UNITS;

	c.size = sf_reorder_fill(us, target, max_moves, c.order);
	consider(us, &c, max_moves, &best);
	if (small && max_moves != UINT32_MAX && (c.size == SF_NO_FIT || c.size > target)) {
		/* more steps may move fewer units once improved */
		c.size = sf_reorder_fill(us, target, UINT32_MAX, c.order);
		consider(us, &c, max_moves, &best);
	}
	if ((max_moves == UINT32_MAX || small) && (c.size == SF_NO_FIT || c.size > target)) {
		/* filling fell short: the size search's order */
		memcpy(c.order, order, us->n * sizeof(*order));
		c.size = sf_units_place(us, order, NULL);
		consider(us, &c, max_moves, &best);
	}
	if (best.size != SF_NO_FIT)
		memcpy(order, best.order, us->n * sizeof(*order));
	free(best.order);
	free(c.order);
	return best.size;
}

/* ---- local search for size ------------------------------------------- */

uint64_t sf_reorder_local_size(const struct sf_units *us, uint32_t *order)
{
	uint64_t best = sf_units_place(us, order, NULL);
	bool improved = true;
	long budget = LOCAL_BUDGET;

	while (improved && budget > 0) {
		improved = false;
		for (size_t from = 0; from < us->n && !improved && budget > 0; from++) {
			if (us->v[order[from]].pinned)
				continue;
			for (size_t to = 0; to < us->n && !improved; to++) {
				if (to == from)
					continue;
				move_entry(order, from, to);
				budget--;
				uint64_t s = sf_units_place(us, order, NULL);
				if (s < best) {
					best = s;
					improved = true;
				} else {
					move_entry(order, to, from);
				}
			}
		}
	}
	return best;
}
