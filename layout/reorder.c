/*
 * reorder.c - placement units, the compiler's placement rule, and the
 * search for the smallest order with the fewest moves (see reorder.h for
 * the definitions).
 *
 * Both searches are breadth-first dynamic programs, one layer per number
 * of units placed.  A state is a key (what is placed, the end offset, and
 * for the moves search the last kept unit) plus a back pointer; all states
 * live in one growable array so an order is read back by following the
 * back pointers from the best final state.  Each new layer is deduplicated
 * by an open-addressed hash table of its keys (struct htab), cleared per
 * layer.  A state is dropped when it can no longer reach the target size
 * (its end plus the bytes still to place, rounded, exceeds the bound) or
 * when it has passed the offset of a pinned unit not yet placed.
 *
 *   states: [layer 0][layer 1 ........][layer 2 ..............] ...
 *                      ^ parent ------------------------'
 *
 * The size search first tries three candidates: the current order, the
 * classic sort by decreasing alignment, and a greedy that fills each gap
 * with the unit leaving the smallest one; a candidate whose size equals
 * the lower bound (all bytes, rounded to the alignment) is optimal and
 * ends the search.  Otherwise the DP keys on "how many units of each shape
 * are placed" (a mixed-radix number, shape s weighing prod(count_t + 1),
 * t < s), which stays small because real structs have few shapes.  The
 * moves search keys on the set of placed units (a bit mask, n <= 12).
 * Both stop at STATE_BUDGET states (the size DP is not even started when
 * the shape vectors alone are far beyond it) and fall back to a bounded
 * local search from the best candidate.
 */
#include "reorder.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "holefill.h"
#include "lib/sort.h"
#include "lib/xalloc.h"

/* States either DP may create before it gives up (48 bytes each, plus
 * the hash slots: about 16 MB at most). */
#define STATE_BUDGET (1u << 18)
#define NO_UNIT UINT32_MAX

static uint64_t round_up(uint64_t x, uint64_t a)
{
	if (a <= 1)
		return x;
	/* alignments are powers of two: a mask, not a division (placement
	 * is the inner loop of every search) */
	if (!(a & (a - 1)))
		return (x + a - 1) & ~(a - 1);
	return (x + a - 1) / a * a;
}

static uint64_t abs_bit(const struct sf_member *m)
{
	return 8 * m->offset + (sf_member_is_bitfield(m) ? m->bit_offset : 0);
}

/* ---- placement rule -------------------------------------------------- */

/* The first offset >= c where unit u may start. */
static uint64_t next_valid(const struct sf_unit *u, uint64_t c)
{
	if (!u->bitfield)
		return round_up(c, u->period);
	assert(u->period >= 1 && u->period <= 64);
	for (uint32_t k = 0; k < u->period; k++)
		if ((u->phases >> ((c + k) % u->period)) & 1)
			return c + k;
	assert(!"bit-field run with no allowed phase");
	return c;
}

uint64_t sf_unit_place(const struct sf_unit *u, uint64_t c)
{
	uint64_t o = next_valid(u, c);

	if (u->pinned && o != u->offset)
		return SF_NO_FIT;
	return o;
}

uint64_t sf_units_finish(const struct sf_units *us, uint64_t end)
{
	if (us->flex != UINT32_MAX)
		end = round_up(end, us->flex_align);
	return round_up(end, us->align);
}

static uint64_t union_size(const struct sf_units *us)
{
	uint64_t max = 0;

	for (size_t i = 0; i < us->n; i++)
		if (us->v[i].size > max)
			max = us->v[i].size;
	return round_up(max, us->align);
}

/* The one placement loop: every search lays orders out through it. */
uint64_t sf_units_end(const struct sf_units *us, const uint32_t *order,
		      uint64_t *by_unit, uint64_t *by_pos)
{
	uint64_t c = 0;

	assert(!us->is_union);
	sf_units_work(us, us->n);
	for (size_t k = 0; k < us->n; k++) {
		const struct sf_unit *u = &us->v[order[k]];
		uint64_t o = sf_unit_place(u, c);
		if (o == SF_NO_FIT)
			return SF_NO_FIT;
		if (by_unit)
			by_unit[order[k]] = o;
		if (by_pos)
			by_pos[k] = o;
		c = o + u->size;
	}
	return c;
}

uint64_t sf_units_place(const struct sf_units *us, const uint32_t *order,
			uint64_t *offsets_out)
{
	if (us->is_union) {
		if (offsets_out)
			for (size_t i = 0; i < us->n; i++)
				offsets_out[i] = 0;
		return union_size(us);
	}
	uint64_t end = sf_units_end(us, order, offsets_out, NULL);
	return end == SF_NO_FIT ? SF_NO_FIT : sf_units_finish(us, end);
}

/* ---- building units ------------------------------------------------- */

/* Insertion sort by absolute bit position, stable (declaration order on
 * ties, e.g. zero-size members); n is a struct's member count. */
static void sort_members(const struct sf_type *t, uint32_t *idx, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		uint32_t x = idx[i];
		uint64_t px = abs_bit(&t->members[x]);
		size_t j = i;
		while (j > 0 && abs_bit(&t->members[idx[j - 1]]) > px) {
			idx[j] = idx[j - 1];
			j--;
		}
		idx[j] = x;
	}
}

/* Does bit-field m share storage or a byte with the run [rs, re) bits? */
static bool joins_run(const struct sf_member *m, uint64_t rs, uint64_t re)
{
	uint64_t us = 8 * m->offset, ue = 8 * (m->offset + m->size);

	if (us < re && ue > rs)
		return true;
	return abs_bit(m) / 8 < (re + 7) / 8;
}

static bool is_pow2(uint64_t x)
{
	return x && !(x & (x - 1));
}

/* Sizes, alignment and allowed phases of a bit-field run. */
static void finish_run(const struct sf_units *us, struct sf_unit *u, bool packed)
{
	const struct sf_type *t = us->type;
	uint64_t rs = UINT64_MAX, re = 0, A = 1;

	u->align = 1;
	for (uint32_t k = 0; k < u->count; k++) {
		const struct sf_member *m = &t->members[us->members[u->first + k]];
		uint64_t s = abs_bit(m), e = s + m->bit_size;
		rs = s < rs ? s : rs;
		re = e > re ? e : re;
		A = m->size > A ? m->size : A;
		u->align = m->align > u->align ? m->align : u->align;
	}
	u->offset = rs / 8;
	u->size = (re + 7) / 8 - rs / 8;
	if (packed || !is_pow2(A) || A > 64) {
		/* packed bit-fields may straddle; odd storage: keep it put */
		u->period = 1;
		u->phases = 1;
		u->pinned = u->pinned || (!packed);
		return;
	}
	u->period = (uint32_t)A;
	u->phases = UINT64_C(1) << (u->offset % A);
	for (uint64_t p = 0; p < A; p++) {
		bool ok = true;
		for (uint32_t k = 0; k < u->count && ok; k++) {
			const struct sf_member *m = &t->members[us->members[u->first + k]];
			uint64_t unit_bits = 8 * (m->size ? m->size : 1);
			uint64_t pos = 8 * p + (abs_bit(m) - 8 * u->offset);
			ok = (pos % unit_bits) + m->bit_size <= unit_bits;
		}
		if (ok)
			u->phases |= UINT64_C(1) << p;
	}
}

static void ordinary_unit(struct sf_unit *u, const struct sf_member *m, bool packed)
{
	u->offset = m->offset;
	u->size = m->size;
	u->align = m->align ? m->align : 1;
	u->period = packed ? 1 : u->align;
	u->phases = 1;
}

static bool always_pinned(const struct sf_member *m)
{
	return m->flags & (SF_MF_BASE | SF_MF_VIRTUAL_BASE | SF_MF_VPTR);
}

static void cut_units(struct sf_units *us, const bool *pin, bool packed)
{
	const struct sf_type *t = us->type;
	uint64_t rs = 0, re = 0;

	us->n = 0;
	for (uint32_t k = 0; k < t->nmembers; k++) {
		uint32_t i = us->members[k];
		const struct sf_member *m = &t->members[i];
		struct sf_unit *last = us->n ? &us->v[us->n - 1] : NULL;

		if (i == us->flex)
			continue;
		if (!us->is_union && sf_member_is_bitfield(m) && last &&
		    last->bitfield && joins_run(m, rs, re)) {
			last->count++;
		} else {
			struct sf_unit *u = &us->v[us->n++];
			memset(u, 0, sizeof(*u));
			u->first = k;
			u->count = 1;
			u->bitfield = sf_member_is_bitfield(m) && !us->is_union;
			if (!u->bitfield)
				ordinary_unit(u, m, packed);
			rs = abs_bit(m);
			re = rs;
		}
		if (sf_member_is_bitfield(m)) {
			uint64_t e = abs_bit(m) + m->bit_size;
			re = e > re ? e : re;
		}
		struct sf_unit *u = &us->v[us->n - 1];
		if ((pin && pin[i]) || always_pinned(m))
			u->pinned = true;
	}
	for (size_t j = 0; j < us->n; j++)
		if (us->v[j].bitfield)
			finish_run(us, &us->v[j], packed);
}

/*
 * A bit-field run the compiler put further than the rule says, at a
 * multiple of its storage unit, followed an unnamed `unsigned :0` (which
 * DWARF does not record): the run then starts only at a storage boundary,
 * wherever it goes.  Returns whether that explains where u is.
 */
static bool explain_zero_width(struct sf_unit *u, uint64_t model_off)
{
	if (!u->bitfield || u->period <= 1 || u->offset <= model_off ||
	    u->offset % u->period || u->offset - model_off >= u->period)
		return false;
	u->phases = 1;
	return true;
}

/* Does the current order reproduce the compiler's offsets and size? */
static bool check_model(struct sf_units *us)
{
	const struct sf_type *t = us->type;
	uint32_t *order = sf_xcalloc(us->n ? us->n : 1, sizeof(*order));
	uint64_t *off = sf_xcalloc(us->n ? us->n : 1, sizeof(*off));
	bool ok = true, retry = true;

	for (uint32_t i = 0; i < t->nmembers; i++)
		if (t->members[i].flags & SF_MF_INCOMPLETE)
			ok = false;
	for (size_t i = 0; i < us->n; i++)
		order[i] = (uint32_t)i;
	/* each retry fixes one run after a `:0`, so this ends within n rounds */
	while (ok && retry) {
		retry = false;
		us->model_size = sf_units_place(us, order, off);
		for (size_t i = 0; i < us->n && ok && !us->is_union && !retry; i++) {
			if (off[i] == us->v[i].offset)
				continue;
			retry = explain_zero_width(&us->v[i], off[i]);
			ok = retry;
		}
	}
	if (us->model_size != t->size)
		ok = false;
	free(order);
	free(off);
	return ok;
}

void sf_units_build(const struct sf_type *t, const bool *pin, bool pin_first,
		    struct sf_units *out)
{
	bool packed = t->flags & SF_TF_PACKED;
	uint32_t max_align = 1;

	memset(out, 0, sizeof(*out));
	out->type = t;
	out->is_union = t->kind == SF_KIND_UNION;
	out->flex = UINT32_MAX;
	out->members = sf_xcalloc(t->nmembers ? t->nmembers : 1, sizeof(uint32_t));
	out->v = sf_xcalloc(t->nmembers ? t->nmembers : 1, sizeof(struct sf_unit));
	for (uint32_t i = 0; i < t->nmembers; i++) {
		const struct sf_member *m = &t->members[i];
		out->members[i] = i;
		if (m->align > max_align)
			max_align = m->align;
		if ((m->flags & SF_MF_FLEX_ARRAY) && !out->is_union) {
			out->flex = i;
			out->flex_align = packed ? 1 : (m->align ? m->align : 1);
		}
	}
	sort_members(t, out->members, t->nmembers);
	cut_units(out, pin, packed);
	out->align = t->align ? t->align : (packed ? 1 : max_align);
	if (pin_first && out->n && !out->is_union) {
		const struct sf_member *m = &t->members[out->members[out->v[0].first]];
		if (m->tclass == SF_T_STRUCT || (m->flags & SF_MF_BASE))
			out->v[0].pinned = true;
	}
	out->modeled = check_model(out);
}

void sf_units_release(struct sf_units *us)
{
	free(us->members);
	free(us->v);
	memset(us, 0, sizeof(*us));
}

/*
 * Whether members m0 .. m0 + nm - 1 of t (in memory order, no bit-field),
 * laid out by the C rule from any offset the first of them may take,
 * keep the relative offsets they have: then the block is one unit of
 * fixed size, placed where its first member goes.
 */
static bool phase_free(const struct sf_type *t, uint32_t m0, uint32_t nm, uint32_t A)
{
	const struct sf_member *f = &t->members[m0];
	uint32_t a1 = f->align ? f->align : 1;

	for (uint64_t phi = 0; phi < A; phi += a1) {
		uint64_t c = phi;
		for (uint32_t k = 0; k < nm; k++) {
			const struct sf_member *m = &t->members[m0 + k];
			uint64_t o = round_up(c, m->align ? m->align : 1);
			if (o - phi != m->offset - f->offset)
				return false;
			c = o + m->size;
		}
	}
	return true;
}

int sf_units_fix_group(struct sf_units *us, uint32_t m0, uint32_t nm, bool may_move)
{
	size_t a = sf_units_of_member(us, m0);
	size_t b = nm ? sf_units_of_member(us, m0 + nm - 1) : SIZE_MAX;
	uint32_t count = 0;
	bool pinned = !may_move, bits = false;

	if (a == SIZE_MAX || b == SIZE_MAX || b < a || us->is_union)
		return -1;
	for (size_t u = a; u <= b; u++) {
		for (uint32_t k = 0; k < us->v[u].count; k++) {
			uint32_t m = us->members[us->v[u].first + k];
			if (m < m0 || m >= m0 + nm)
				return -1;   /* another member lies between them */
			count++;
		}
		pinned = pinned || us->v[u].pinned;
		bits = bits || us->v[u].bitfield;
	}
	if (count != nm)
		return -1;
	struct sf_unit *g = &us->v[a];
	for (size_t u = a + 1; u <= b; u++)
		g->align = us->v[u].align > g->align ? us->v[u].align : g->align;
	g->size = us->v[b].offset + us->v[b].size - g->offset;
	g->count = count;
	/* members in offset order are m0 .. m0 + nm - 1 here (checked above) */
	g->pinned = pinned || bits || (us->type->flags & SF_TF_PACKED) ||
		    !phase_free(us->type, m0, nm, g->align);
	memmove(&us->v[a + 1], &us->v[b + 1], (us->n - b - 1) * sizeof(us->v[0]));
	us->n -= b - a;
	return 0;
}

size_t sf_units_of_member(const struct sf_units *us, uint32_t member)
{
	for (size_t u = 0; u < us->n; u++)
		for (uint32_t k = 0; k < us->v[u].count; k++)
			if (us->members[us->v[u].first + k] == member)
				return u;
	return SIZE_MAX;
}

/* ---- the layered DP machinery ---------------------------------------- */

/*
 * Once no pinned unit is left to place, a smaller end offset is never worse
 * (the placement rule is monotonic), so states then key on what is placed
 * only (cursor = DOMINATED) and keep the smallest end.
 */
#define DOMINATED UINT64_MAX

struct key {
	uint64_t a;        /* what is placed: shape counts or unit mask */
	uint64_t cursor;   /* end offset, or DOMINATED */
	int32_t last;      /* last kept unit, -1 none (moves DP only) */
};

struct state {
	struct key k;
	uint64_t end;      /* end offset (== k.cursor unless DOMINATED) */
	uint32_t parent;   /* index in states[], NO_UNIT for the root */
	uint32_t what;     /* shape or unit placed to get here */
	uint16_t kept;     /* units kept so far (moves DP) */
};

struct states {
	struct state *v;
	size_t n, cap;
};

struct htab {
	uint32_t *slot;    /* state index + 1; 0 empty */
	size_t cap;        /* power of two */
	size_t used;
};

/* splitmix64's finalizer: every input bit reaches the low bits the table
 * indexes with (shape codes differ mostly in high digits). */
static uint64_t mix(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9u;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebu;
	return x ^ (x >> 31);
}

static uint64_t key_hash(const struct key *k)
{
	return mix(mix(k->a) ^ (k->cursor + 0x9e3779b97f4a7c15u) ^
		   ((uint64_t)(uint32_t)k->last << 40));
}

static bool key_eq(const struct key *x, const struct key *y)
{
	return x->a == y->a && x->cursor == y->cursor && x->last == y->last;
}

static void htab_reset(struct htab *h, size_t expect)
{
	size_t cap = 64;

	while (cap < 2 * expect)
		cap *= 2;
	if (cap > h->cap) {
		free(h->slot);
		h->slot = sf_xcalloc(cap, sizeof(*h->slot));
		h->cap = cap;
	} else {
		memset(h->slot, 0, h->cap * sizeof(*h->slot));
	}
	h->used = 0;
}

static void htab_grow(struct htab *h, const struct states *st)
{
	uint32_t *old = h->slot;
	size_t oldcap = h->cap;

	h->cap *= 2;
	h->slot = sf_xcalloc(h->cap, sizeof(*h->slot));
	for (size_t i = 0; i < oldcap; i++) {
		if (!old[i])
			continue;
		size_t j = key_hash(&st->v[old[i] - 1].k) & (h->cap - 1);
		while (h->slot[j])
			j = (j + 1) & (h->cap - 1);
		h->slot[j] = old[i];
	}
	free(old);
}

/*
 * The state with key k in the current layer: its index, or a new state
 * appended with that key (*fresh set).  SIZE_MAX when over budget.
 */
static size_t htab_get(struct htab *h, struct states *st, const struct key *k,
		       bool *fresh)
{
	if (2 * (h->used + 1) > h->cap)
		htab_grow(h, st);
	size_t j = key_hash(k) & (h->cap - 1);
	while (h->slot[j]) {
		if (key_eq(&st->v[h->slot[j] - 1].k, k)) {
			*fresh = false;
			return h->slot[j] - 1;
		}
		j = (j + 1) & (h->cap - 1);
	}
	if (st->n >= STATE_BUDGET)
		return SIZE_MAX;
	SF_GROW(st->v, st->n, st->cap);
	memset(&st->v[st->n], 0, sizeof(st->v[0]));
	st->v[st->n].k = *k;
	h->slot[j] = (uint32_t)(st->n + 1);
	h->used++;
	*fresh = true;
	return st->n++;
}

struct shape;

/*
 * One run of either DP: its states, the current layer's table, and what
 * expanding a state needs.  The shape DP sets sh/ns, the moves DP
 * max_moves.
 */
struct dp {
	const struct sf_units *us;
	struct states st;
	struct htab h;
	uint64_t bound;        /* a state that cannot end at or below it dies */
	uint64_t total;        /* bytes of all units */
	uint32_t max_moves;    /* moves DP: most units a state may have moved */
	bool *placed;          /* per unit, placed in the state being expanded */
	bool over;             /* STATE_BUDGET reached: no result */
	struct shape *sh;
	size_t ns;
};

static uint64_t total_size(const struct sf_units *us)
{
	uint64_t sum = 0;

	for (size_t u = 0; u < us->n; u++)
		sum += us->v[u].size;
	return sum;
}

static void dp_init(struct dp *d, const struct sf_units *us, uint64_t bound)
{
	struct key root = { 0, 0, -1 };
	bool fresh;

	memset(d, 0, sizeof(*d));
	d->us = us;
	d->bound = bound;
	d->total = total_size(us);
	d->max_moves = UINT32_MAX;
	d->placed = sf_xcalloc(us->n ? us->n : 1, sizeof(bool));
	htab_reset(&d->h, 1);
	htab_get(&d->h, &d->st, &root, &fresh);
	d->st.v[0].parent = NO_UNIT;
}

static void dp_release(struct dp *d)
{
	free(d->placed);
	free(d->st.v);
	free(d->h.slot);
}

/*
 * Reach key k from state `parent` by placing `what`, the unit ending at
 * `end`.  Of two ways to one key the better stays: more kept units, then
 * the smaller end (keys with a cursor fix the end; DOMINATED keys do not).
 */
static void dp_offer(struct dp *d, const struct key *k, uint64_t end,
		     size_t parent, uint32_t what, uint16_t kept)
{
	bool fresh;
	size_t j = htab_get(&d->h, &d->st, k, &fresh);

	if (j == SIZE_MAX) {
		d->over = true;
		return;
	}
	struct state *s = &d->st.v[j];
	if (fresh || kept > s->kept || (kept == s->kept && end < s->end)) {
		s->end = end;
		s->parent = (uint32_t)parent;
		s->what = what;
		s->kept = kept;
	}
}

/*
 * One layer per unit placed: expand(d, i) offers the successors of state
 * i.  Returns where the last layer (every unit placed) begins; its states
 * end at st.n.  States may move while a layer grows: expand copies what
 * it reads before offering.
 */
static size_t dp_run(struct dp *d, void (*expand)(struct dp *, size_t))
{
	size_t begin = 0;

	for (size_t layer = 0; layer < d->us->n && !d->over; layer++) {
		size_t end = d->st.n;
		htab_reset(&d->h, end - begin);
		for (size_t i = begin; i < end && !d->over; i++)
			expand(d, i);
		/* each expansion tries every shape (unit), each try scans the units */
		sf_units_work(d->us, (uint64_t)(end - begin) * (d->ns ? d->ns : d->us->n) *
			      d->us->n);
		begin = end;
	}
	return begin;
}

/* The final state of the smallest size, then the most kept; SIZE_MAX if none. */
static size_t dp_best_final(const struct dp *d, size_t begin)
{
	size_t best = SIZE_MAX;
	uint64_t best_size = SF_NO_FIT;

	for (size_t i = begin; !d->over && i < d->st.n; i++) {
		uint64_t size = sf_units_finish(d->us, d->st.v[i].end);
		if (size < best_size ||
		    (size == best_size && d->st.v[i].kept > d->st.v[best].kept)) {
			best = i;
			best_size = size;
		}
	}
	return best;
}

/* What was placed at each layer on the way to final state `i`. */
static void dp_read_back(const struct dp *d, size_t i, uint32_t *seq)
{
	size_t k = d->us->n;

	for (; d->st.v[i].parent != NO_UNIT; i = d->st.v[i].parent)
		seq[--k] = d->st.v[i].what;
	assert(k == 0);
}

/* Would a state ending at c (having placed `placed` bytes) be dead? */
static bool hopeless(const struct sf_units *us, uint64_t c, uint64_t remaining,
		     uint64_t bound, const bool *placed_unit)
{
	if (sf_units_finish(us, c + remaining) > bound)
		return true;
	for (size_t u = 0; u < us->n; u++)
		if (us->v[u].pinned && !placed_unit[u] && us->v[u].offset < c)
			return true;
	return false;
}

static bool pins_left(const struct sf_units *us, const bool *placed_unit)
{
	for (size_t u = 0; u < us->n; u++)
		if (us->v[u].pinned && !placed_unit[u])
			return true;
	return false;
}

/*
 * Where unit `unit` ends when placed at `end` after `done` bytes (d->placed
 * says which units), or SF_NO_FIT when it cannot go there or the state
 * would be dead.
 */
static uint64_t dp_advance(struct dp *d, uint32_t unit, uint64_t end, uint64_t done)
{
	const struct sf_unit *u = &d->us->v[unit];
	uint64_t o = sf_unit_place(u, end);

	if (o == SF_NO_FIT)
		return SF_NO_FIT;
	uint64_t c = o + u->size;
	d->placed[unit] = true;
	bool dead = hopeless(d->us, c, d->total - done - u->size, d->bound, d->placed);
	d->placed[unit] = false;
	return dead ? SF_NO_FIT : c;
}

/* ---- smallest size: DP over shape counts ------------------------------ */

struct shape {
	uint32_t first_unit;   /* a representative (the pinned unit if pinned) */
	uint32_t count;
	uint64_t weight;       /* mixed-radix place value */
	uint32_t *units;       /* its units, increasing */
};

static bool same_shape(const struct sf_unit *a, const struct sf_unit *b)
{
	return !a->pinned && !b->pinned && a->size == b->size &&
	       a->period == b->period && a->bitfield == b->bitfield &&
	       (!a->bitfield || a->phases == b->phases);
}

/*
 * Group units into shapes; returns how many.  *codes gets the number of
 * distinct "how many of each shape" vectors (UINT64_MAX on overflow): the
 * size DP has at least that many states to visit in the worst case.
 */
static size_t make_shapes(const struct sf_units *us, struct shape *sh, uint64_t *codes)
{
	size_t ns = 0;
	uint64_t weight = 1;

	for (size_t u = 0; u < us->n; u++) {
		size_t s;
		for (s = 0; s < ns; s++)
			if (same_shape(&us->v[sh[s].first_unit], &us->v[u]))
				break;
		if (s == ns) {
			sh[ns].first_unit = (uint32_t)u;
			sh[ns].count = 0;
			sh[ns].units = sf_xcalloc(us->n, sizeof(uint32_t));
			ns++;
		}
		sh[s].units[sh[s].count++] = (uint32_t)u;
	}
	*codes = 1;
	for (size_t s = 0; s < ns; s++) {
		sh[s].weight = weight;
		if (weight > UINT64_MAX / (sh[s].count + 1)) {
			*codes = UINT64_MAX;
			break;
		}
		weight *= sh[s].count + 1;
		*codes = weight;
	}
	return ns;
}

static uint32_t used_of(const struct shape *sh, uint64_t code)
{
	return (uint32_t)((code / sh->weight) % (sh->count + 1));
}

static uint64_t placed_bytes(const struct sf_units *us, const struct shape *sh,
			     size_t ns, uint64_t code, bool *placed_unit)
{
	uint64_t sum = 0;

	memset(placed_unit, 0, us->n * sizeof(bool));
	for (size_t s = 0; s < ns; s++) {
		uint32_t k = used_of(&sh[s], code);
		sum += (uint64_t)k * us->v[sh[s].first_unit].size;
		for (uint32_t j = 0; j < k; j++)
			placed_unit[sh[s].units[j]] = true;
	}
	return sum;
}

/* Successors of state i: the next unit of each shape not used up. */
static void shape_expand(struct dp *d, size_t i)
{
	const struct key k = d->st.v[i].k;
	const uint64_t end = d->st.v[i].end;
	uint64_t done = placed_bytes(d->us, d->sh, d->ns, k.a, d->placed);

	for (size_t s = 0; s < d->ns && !d->over; s++) {
		uint32_t used = used_of(&d->sh[s], k.a);
		if (used == d->sh[s].count)
			continue;
		uint32_t unit = d->sh[s].units[used];
		uint64_t c = dp_advance(d, unit, end, done);
		if (c == SF_NO_FIT)
			continue;
		d->placed[unit] = true;
		bool dom = !pins_left(d->us, d->placed);
		d->placed[unit] = false;
		struct key nk = { k.a + d->sh[s].weight, dom ? DOMINATED : c, -1 };
		dp_offer(d, &nk, c, i, (uint32_t)s, 0);
	}
}

/* The shapes of final state `best` read back, each shape's units handed
 * out in increasing index. */
static void shapes_to_order(const struct dp *d, size_t best, uint32_t *order)
{
	size_t n = d->us->n;
	uint32_t *seq = sf_xcalloc(n ? n : 1, sizeof(*seq));
	uint32_t *next = sf_xcalloc(d->ns ? d->ns : 1, sizeof(*next));

	dp_read_back(d, best, seq);
	for (size_t p = 0; p < n; p++)
		order[p] = d->sh[seq[p]].units[next[seq[p]]++];
	free(seq);
	free(next);
}

/*
 * Smallest size of any order, at most `bound`; fills order[] with one such
 * order (units of a shape in increasing index).  Returns SF_NO_FIT when no
 * order fits the bound, 0 with *over_budget when the DP gave up.
 */
static uint64_t shape_dp(const struct sf_units *us, uint64_t bound,
			 uint32_t *order, bool *over_budget)
{
	struct dp d;
	uint64_t codes, best = SF_NO_FIT;

	dp_init(&d, us, bound);
	d.sh = sf_xcalloc(us->n ? us->n : 1, sizeof(*d.sh));
	d.ns = make_shapes(us, d.sh, &codes);
	/* Far more shape vectors than the budget: the DP would only give up
	 * after a long time (real structs rarely get here: kernel ones do). */
	*over_budget = codes > 64 * (uint64_t)STATE_BUDGET;
	if (!*over_budget) {
		size_t begin = dp_run(&d, shape_expand);
		size_t b = dp_best_final(&d, begin);
		*over_budget = d.over;
		if (b != SIZE_MAX) {
			best = sf_units_finish(us, d.st.v[b].end);
			shapes_to_order(&d, b, order);
		}
	}
	for (size_t s = 0; s < d.ns; s++)
		free(d.sh[s].units);
	free(d.sh);
	dp_release(&d);
	return *over_budget ? 0 : best;
}

/* ---- fewest moves ---------------------------------------------------- */

size_t sf_order_kept(const uint32_t *order, size_t n, bool *kept_out)
{
	/* patience sorting: tail[l] = position of the smallest end of an
	 * increasing run of length l + 1; prev[] links a run back */
	size_t *tail = sf_xcalloc(n + 1, sizeof(*tail));
	size_t *prev = sf_xcalloc(n + 1, sizeof(*prev));
	size_t len = 0;

	for (size_t i = 0; i < n; i++) {
		size_t lo = 0, hi = len;
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;
			if (order[tail[mid]] < order[i])
				lo = mid + 1;
			else
				hi = mid;
		}
		prev[i] = lo ? tail[lo - 1] : SIZE_MAX;
		tail[lo] = i;
		if (lo == len)
			len++;
	}
	if (kept_out) {
		for (size_t i = 0; i < n; i++)
			kept_out[order[i]] = false;
		for (size_t i = len ? tail[len - 1] : SIZE_MAX; i != SIZE_MAX; i = prev[i])
			kept_out[order[i]] = true;
	}
	free(tail);
	free(prev);
	return len;
}

/*
 * Successors of state i: any unit not placed, kept when it extends the
 * increasing run of kept units, moved when the moves allowed are not
 * used up.
 */
static void moves_expand(struct dp *d, size_t i)
{
	const struct sf_units *us = d->us;
	const struct state cur = d->st.v[i];
	uint64_t done = 0;
	uint32_t depth = 0;

	for (size_t u = 0; u < us->n; u++) {
		d->placed[u] = (cur.k.a >> u) & 1;
		done += d->placed[u] ? us->v[u].size : 0;
		depth += d->placed[u];
	}
	for (uint32_t u = 0; u < us->n && !d->over; u++) {
		if (d->placed[u])
			continue;
		uint64_t c = dp_advance(d, u, cur.end, done);
		if (c == SF_NO_FIT)
			continue;
		uint64_t a = cur.k.a | (UINT64_C(1) << u);
		if ((int32_t)u > cur.k.last) {
			struct key keep = { a, c, (int32_t)u };
			dp_offer(d, &keep, c, i, u, (uint16_t)(cur.kept + 1));
		}
		if (depth + 1 - cur.kept <= d->max_moves) {
			struct key move = { a, c, cur.k.last };
			dp_offer(d, &move, c, i, u, cur.kept);
		}
	}
}

/*
 * Exact: over all orders of size at most `bound` that move at most
 * max_moves units, the smallest size, then the most kept units.  Fills
 * order[]; returns false when over budget or no order qualifies.
 */
static bool moves_dp(const struct sf_units *us, uint64_t bound, uint32_t max_moves,
		     uint32_t *order)
{
	struct dp d;

	assert(us->n <= SF_REORDER_EXACT_MAX);
	dp_init(&d, us, bound);
	d.max_moves = max_moves;
	size_t best = dp_best_final(&d, dp_run(&d, moves_expand));
	if (best != SIZE_MAX)
		dp_read_back(&d, best, order);
	dp_release(&d);
	return best != SIZE_MAX;
}

/* ---- the search ------------------------------------------------------ */

static void identity(uint32_t *order, size_t n)
{
	for (size_t i = 0; i < n; i++)
		order[i] = (uint32_t)i;
}

/* What a unit's alignment demands, for sorting: a bit-field run that may
 * start anywhere demands nothing. */
static uint64_t demand(const struct sf_unit *u)
{
	if (u->bitfield && u->period < 64 &&
	    u->phases == (UINT64_C(1) << u->period) - 1)
		return 1;
	return u->period;
}

/* Does unit x sort before unit y in the classic candidate: pinned at
 * offset 0 first, then decreasing alignment, then decreasing size? */
static bool sorts_before(const struct sf_unit *x, const struct sf_unit *y)
{
	bool px = x->pinned && x->offset == 0;
	bool py = y->pinned && y->offset == 0;

	if (px != py)
		return px;
	if (demand(x) != demand(y))
		return demand(x) > demand(y);
	return x->size > y->size;
}

/*
 * The classic candidate: units pinned at offset 0 first, then the others
 * by decreasing alignment, then decreasing size, then old order.  With no
 * other pin and ordinary members it leaves no hole at all.  A stable merge
 * sort (bottom-up, through tmp): O(n log n) on structs of thousands of
 * members, and the order a stable insertion sort gives.
 */
static bool unit_sorts_before(const void *ctx, uint32_t a, uint32_t b)
{
	const struct sf_units *us = ctx;

	return sorts_before(&us->v[a], &us->v[b]);
}

static void sorted_order(const struct sf_units *us, uint32_t *order)
{
	identity(order, us->n);
	unsigned passes = sf_sort_stable(order, us->n, unit_sorts_before, us);
	/* the work a pass of n merges costs, as the search counts it */
	sf_units_work(us, (uint64_t)passes * us->n);
}

/*
 * The unpinned units grouped by shape for greedy_order: units of one
 * shape place alike, so only the first unused of each is a candidate.
 *   groups: [first unit index of each group]; units: the groups' units,
 *   increasing within a group (start[g] .. start[g + 1]); next[g]: its
 *   first unused; pinned: the pinned units, increasing.
 */
struct greedy_groups {
	uint32_t *units, *start, *next, *pinned;
	size_t ng, np;
};

static void group_units(const struct sf_units *us, struct greedy_groups *g)
{
	size_t n = us->n ? us->n : 1;
	uint32_t *of = sf_xcalloc(n, sizeof(*of));   /* group of each unit */
	uint32_t *rep = sf_xcalloc(n, sizeof(*rep)); /* a unit of each group */
	uint32_t *count = sf_xcalloc(n + 1, sizeof(*count));

	g->units = sf_xcalloc(n, sizeof(uint32_t));
	g->start = sf_xcalloc(n + 1, sizeof(uint32_t));
	g->next = sf_xcalloc(n + 1, sizeof(uint32_t));
	g->pinned = sf_xcalloc(n, sizeof(uint32_t));
	g->ng = g->np = 0;
	for (size_t u = 0; u < us->n; u++) {
		if (us->v[u].pinned) {
			g->pinned[g->np++] = (uint32_t)u;
			continue;
		}
		size_t k;
		for (k = 0; k < g->ng && !same_shape(&us->v[rep[k]], &us->v[u]); k++)
			;
		if (k == g->ng)
			rep[g->ng++] = (uint32_t)u;
		of[u] = (uint32_t)k;
		count[k]++;
	}
	for (size_t k = 0; k < g->ng; k++)
		g->start[k + 1] = g->start[k] + count[k];
	for (size_t k = 0; k < g->ng; k++)
		g->next[k] = g->start[k];
	for (size_t u = 0; u < us->n; u++)
		if (!us->v[u].pinned)
			g->units[g->next[of[u]]++] = (uint32_t)u;
	for (size_t k = 0; k < g->ng; k++)
		g->next[k] = g->start[k];
	free(of);
	free(rep);
	free(count);
}

static void groups_release(struct greedy_groups *g)
{
	free(g->units);
	free(g->start);
	free(g->next);
	free(g->pinned);
}

/* The greedy's pick at cursor c: a pinned unit whose offset has come
 * (the first), else the best first-unused of a shape; SIZE_MAX if none. */
static size_t greedy_pick(const struct sf_units *us, const struct greedy_groups *g,
			  const bool *used, uint64_t c)
{
	size_t best = SIZE_MAX;
	uint64_t best_gap = UINT64_MAX;

	for (size_t i = 0; i < g->np; i++) {
		const struct sf_unit *x = &us->v[g->pinned[i]];
		if (!used[g->pinned[i]] && next_valid(x, c) == x->offset)
			return g->pinned[i];
	}
	for (size_t k = 0; k < g->ng; k++) {
		if (g->next[k] == g->start[k + 1])
			continue;
		size_t u = g->units[g->next[k]];
		const struct sf_unit *x = &us->v[u];
		uint64_t gap = next_valid(x, c) - c;
		const struct sf_unit *b = best == SIZE_MAX ? NULL : &us->v[best];
		/* the old scan by unit index kept the first of equals */
		if (!b || gap < best_gap ||
		    (gap == best_gap && (demand(x) > demand(b) ||
		     (demand(x) == demand(b) && (x->size > b->size ||
		      (x->size == b->size && u < best)))))) {
			best = u;
			best_gap = gap;
		}
	}
	return best;
}

/*
 * The gap-filling candidate: at each step, a pinned unit whose offset has
 * come; else the unit that leaves the smallest gap, preferring larger
 * alignment, then size, then old order.  Handles members whose alignment
 * exceeds their size (__aligned__(64) locks) that sorting cannot.  Only
 * the first unused unit of each shape is looked at: O(n * shapes).
 */
static void greedy_order(const struct sf_units *us, uint32_t *order)
{
	bool *used = sf_xcalloc(us->n ? us->n : 1, sizeof(bool));
	struct greedy_groups g;
	size_t lowest = 0;      /* every unit below it is used */
	uint64_t c = 0;

	group_units(us, &g);
	sf_units_work(us, us->n * (g.ng + g.np + 1));
	for (size_t k = 0; k < us->n; k++) {
		size_t best = greedy_pick(us, &g, used, c);
		while (used[lowest])
			lowest++;
		if (best == SIZE_MAX)   /* only pinned units left, none due: give up */
			best = lowest;
		used[best] = true;
		if (!us->v[best].pinned) {
			/* the group's first unused is best itself, or (giving up)
			 * best is its group's first unused: both advance it */
			for (size_t j = 0; j < g.ng; j++)
				if (g.next[j] < g.start[j + 1] && g.units[g.next[j]] == best)
					g.next[j]++;
		}
		order[k] = (uint32_t)best;
		c = next_valid(&us->v[best], c) + us->v[best].size;
	}
	groups_release(&g);
	free(used);
}

/* Smallest size and an order reaching it (never above the current one). */
static uint64_t smallest(const struct sf_units *us, uint32_t *order, bool *exact)
{
	uint32_t *cand = sf_xcalloc(us->n ? us->n : 1, sizeof(*cand));
	uint64_t best, s, lower = sf_units_finish(us, total_size(us));
	bool over = false;

	identity(order, us->n);
	best = sf_units_place(us, order, NULL);
	*exact = true;
	if (us->is_union || best == lower)
		goto out;
	for (int pass = 0; pass < 2 && best > lower; pass++) {
		if (pass == 0)
			sorted_order(us, cand);
		else
			greedy_order(us, cand);
		s = sf_units_place(us, cand, NULL);
		if (s < best) {
			best = s;
			memcpy(order, cand, us->n * sizeof(*order));
		}
	}
	if (best == lower)
		goto out;       /* nothing can be smaller than the bytes to place */
	s = shape_dp(us, best, cand, &over);
	if (!over) {
		if (s < best) {
			best = s;
			memcpy(order, cand, us->n * sizeof(*order));
		}
		goto out;
	}
	/* too many shapes for the DP: improve the best order locally */
	*exact = false;
	if (best != SF_NO_FIT)
		best = sf_reorder_local_size(us, order);
out:
	free(cand);
	return best;
}

uint64_t sf_reorder_min_size(const struct sf_units *us, bool *exact)
{
	uint32_t *order = sf_xcalloc(us->n ? us->n : 1, sizeof(*order));
	bool ex;
	uint64_t s = smallest(us, order, &ex);

	free(order);
	if (exact)
		*exact = ex;
	return s;
}

/*
 * Exact fewest moves (up to SF_REORDER_EXACT_MAX units) for an order of
 * size `target`, or, with fewer moves allowed than units, the smallest
 * size within them: bounded by what filling holes reaches in max_moves
 * steps (an order of that size exists, so the DP finds one at least as
 * small).  False when the DP cannot run or gives up.
 */
static bool exact_moves(const struct sf_units *us, uint64_t target,
			uint32_t max_moves, uint32_t *order)
{
	uint32_t scratch[SF_REORDER_EXACT_MAX + 1];
	uint64_t bound;

	if (us->n > SF_REORDER_EXACT_MAX || us->heuristic)
		return false;
	if (moves_dp(us, target, max_moves, order))
		return true;
	if (max_moves >= us->n)
		return false;
	bound = sf_reorder_fill(us, target, max_moves, scratch);
	return bound != SF_NO_FIT && moves_dp(us, bound, max_moves, order);
}

/* Offsets, moved units and their count for r->order; its size. */
static uint64_t settle(const struct sf_units *us, struct sf_reorder *r)
{
	bool *kept = sf_xcalloc(r->n ? r->n : 1, sizeof(bool));
	uint64_t size = sf_units_place(us, r->order, r->offset);
	size_t k = sf_order_kept(r->order, r->n, kept);

	for (size_t u = 0; u < r->n; u++)
		r->moved[u] = !kept[u];
	r->moves = (uint32_t)(r->n - k);
	free(kept);
	return size;
}

void sf_reorder_search_max(const struct sf_units *us, uint32_t max_moves,
			   struct sf_reorder *r)
{
	size_t n = us->n;
	bool exact;

	memset(r, 0, sizeof(*r));
	r->n = n;
	r->max_moves = max_moves;
	r->order = sf_xcalloc(n ? n : 1, sizeof(*r->order));
	r->offset = sf_xcalloc(n ? n : 1, sizeof(*r->offset));
	r->moved = sf_xcalloc(n ? n : 1, sizeof(*r->moved));
	identity(r->order, n);
	r->old_size = sf_units_place(us, r->order, NULL);
	r->min_size = r->size = smallest(us, r->order, &exact);
	if (r->size == SF_NO_FIT) {
		/* pins cannot all be honoured (only after a narrowing) */
		r->exact = exact;
		return;
	}
	if (r->size < r->old_size || r->old_size == SF_NO_FIT) {
		if (exact_moves(us, r->size, max_moves, r->order)) {
			/* the DP saw every order of a size up to its bound */
			exact = true;
		} else {
			exact = false;
			if (sf_reorder_few_moves(us, r->size, max_moves, r->order) == SF_NO_FIT)
				identity(r->order, n);
		}
	}
	r->exact = exact;
	uint64_t size = settle(us, r);
	assert(r->moves <= max_moves || size == SF_NO_FIT);
	assert(size == SF_NO_FIT || max_moves < n || size <= r->size);
	r->size = size;
	if (size != SF_NO_FIT && size < r->min_size)
		r->min_size = size;
}

void sf_reorder_release(struct sf_reorder *r)
{
	free(r->order);
	free(r->offset);
	free(r->moved);
	memset(r, 0, sizeof(*r));
}

/* ---- the new layout as a type ---------------------------------------- */

static const struct sf_type *shift_nested(const struct sf_type *t, int64_t delta,
					  struct sf_typeset *arena);

static void shift_member(struct sf_member *m, int64_t delta, struct sf_typeset *arena)
{
	if (sf_member_is_bitfield(m) && m->size) {
		uint64_t bit = abs_bit(m) + (uint64_t)(8 * delta);
		m->offset = bit / 8 / m->size * m->size;
		m->bit_offset = (uint32_t)(bit - 8 * m->offset);
	} else {
		m->offset = (uint64_t)((int64_t)m->offset + delta);
	}
	/* a pointed-to type has offsets of its own */
	if (m->nested && !(m->flags & SF_MF_POINTEE))
		m->nested = shift_nested(m->nested, delta, arena);
}

/* A copy of an anonymous member's type with absolute offsets shifted. */
static const struct sf_type *shift_nested(const struct sf_type *t, int64_t delta,
					  struct sf_typeset *arena)
{
	struct sf_type *nt = sf_typeset_alloc(arena, sizeof(*nt));

	*nt = *t;
	nt->members = sf_typeset_alloc(arena, (t->nmembers ? t->nmembers : 1) *
				       sizeof(struct sf_member));
	for (uint32_t i = 0; i < t->nmembers; i++) {
		nt->members[i] = t->members[i];
		shift_member(&nt->members[i], delta, arena);
	}
	return nt;
}

const struct sf_type *sf_units_relayout(const struct sf_units *us,
					const struct sf_reorder *r,
					struct sf_typeset *arena)
{
	const struct sf_type *t = us->type;
	struct sf_type *nt = sf_typeset_alloc(arena, sizeof(*nt));
	uint32_t k = 0;
	uint64_t end = 0;

	assert(r->n == us->n && r->size != SF_NO_FIT);
	*nt = *t;
	nt->size = r->size;
	nt->align = us->align;
	nt->members = sf_typeset_alloc(arena, (t->nmembers ? t->nmembers : 1) *
				       sizeof(struct sf_member));
	for (size_t p = 0; p < us->n; p++) {
		const struct sf_unit *u = &us->v[r->order[p]];
		int64_t delta = (int64_t)r->offset[r->order[p]] - (int64_t)u->offset;
		for (uint32_t j = 0; j < u->count; j++) {
			struct sf_member *m = &nt->members[k++];
			*m = t->members[us->members[u->first + j]];
			if (!us->is_union)
				shift_member(m, delta, arena);
		}
		if (r->offset[r->order[p]] + u->size > end)
			end = r->offset[r->order[p]] + u->size;
	}
	if (us->flex != UINT32_MAX) {
		struct sf_member *m = &nt->members[k++];
		*m = t->members[us->flex];
		m->offset = round_up(end, us->flex_align);
	}
	assert(k == t->nmembers);
	nt->nmembers = k;
	return nt;
}
