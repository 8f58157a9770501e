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

#include "lib/xalloc.h"

/* States either DP may create before it gives up (48 bytes each, plus
 * the hash slots: about 16 MB at most). */
#define STATE_BUDGET (1u << 18)
#define NO_UNIT UINT32_MAX

static uint64_t round_up(uint64_t x, uint64_t a)
{
	if (a <= 1)
		return x;
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

/* Where u goes when the struct so far ends at c, or SF_NO_FIT (pin). */
static uint64_t place_unit(const struct sf_unit *u, uint64_t c)
{
	uint64_t o = next_valid(u, c);

	if (u->pinned && o != u->offset)
		return SF_NO_FIT;
	return o;
}

/* The struct's size when its last unit ends at `end`. */
static uint64_t finish(const struct sf_units *us, uint64_t end)
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

uint64_t sf_units_place(const struct sf_units *us, const uint32_t *order,
			uint64_t *offsets_out)
{
	uint64_t c = 0;

	if (us->is_union) {
		if (offsets_out)
			for (size_t i = 0; i < us->n; i++)
				offsets_out[i] = 0;
		return union_size(us);
	}
	for (size_t k = 0; k < us->n; k++) {
		const struct sf_unit *u = &us->v[order[k]];
		uint64_t o = place_unit(u, c);
		if (o == SF_NO_FIT)
			return SF_NO_FIT;
		if (offsets_out)
			offsets_out[order[k]] = o;
		c = o + u->size;
	}
	return finish(us, c);
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

int sf_units_fix_group(struct sf_units *us, uint32_t m0, uint32_t nm)
{
	size_t a = sf_units_of_member(us, m0);
	size_t b = nm ? sf_units_of_member(us, m0 + nm - 1) : SIZE_MAX;
	uint32_t count = 0;

	if (a == SIZE_MAX || b == SIZE_MAX || b < a || us->is_union)
		return -1;
	for (size_t u = a; u <= b; u++)
		for (uint32_t k = 0; k < us->v[u].count; k++) {
			uint32_t m = us->members[us->v[u].first + k];
			if (m < m0 || m >= m0 + nm)
				return -1;   /* another member lies between them */
			count++;
		}
	if (count != nm)
		return -1;
	struct sf_unit *g = &us->v[a];
	for (size_t u = a + 1; u <= b; u++)
		g->align = us->v[u].align > g->align ? us->v[u].align : g->align;
	g->size = us->v[b].offset + us->v[b].size - g->offset;
	g->count = count;
	g->pinned = true;
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
	bool kept_this;    /* the unit placed here is kept */
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

/* Would a state ending at c (having placed `placed` bytes) be dead? */
static bool hopeless(const struct sf_units *us, uint64_t c, uint64_t remaining,
		     uint64_t bound, const bool *placed_unit)
{
	if (finish(us, c + remaining) > bound)
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
static size_t make_shapes(const struct sf_units *us, struct shape *sh,
			  uint32_t *shape_of, uint64_t *codes)
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
		shape_of[u] = (uint32_t)s;
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

static uint64_t total_size(const struct sf_units *us)
{
	uint64_t sum = 0;

	for (size_t u = 0; u < us->n; u++)
		sum += us->v[u].size;
	return sum;
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

/*
 * Smallest size of any order, at most `bound`; fills order[] with one such
 * order (units of a shape in increasing index).  Returns SF_NO_FIT when no
 * order fits the bound, 0 with *over_budget when the DP gave up.
 */
static uint64_t shape_dp(const struct sf_units *us, uint64_t bound,
			 uint32_t *order, bool *over_budget)
{
	struct shape *sh = sf_xcalloc(us->n, sizeof(*sh));
	uint32_t *shape_of = sf_xcalloc(us->n, sizeof(*shape_of));
	bool *placed = sf_xcalloc(us->n, sizeof(bool));
	struct states st = { NULL, 0, 0 };
	struct htab h = { NULL, 0, 0 };
	uint64_t total = total_size(us), best = SF_NO_FIT;
	size_t best_i = SIZE_MAX, layer_begin = 0, layer_end;
	uint64_t codes;
	long ns = (long)make_shapes(us, sh, shape_of, &codes);

	/* Far more shape vectors than the budget: the DP would only give up
	 * after a long time (real structs rarely get here: kernel ones do). */
	*over_budget = codes > 64 * (uint64_t)STATE_BUDGET;
	if (!*over_budget) {
		struct key root = { 0, 0, -1 };
		bool fresh;
		htab_reset(&h, 1);
		htab_get(&h, &st, &root, &fresh);
		st.v[0].parent = NO_UNIT;
	}
	for (size_t layer = 0; layer < us->n && !*over_budget; layer++) {
		layer_end = st.n;
		htab_reset(&h, layer_end - layer_begin);
		for (size_t i = layer_begin; i < layer_end && !*over_budget; i++) {
			struct key k = st.v[i].k;
			uint64_t end = st.v[i].end;
			uint64_t done = placed_bytes(us, sh, (size_t)ns, k.a, placed);
			for (long s = 0; s < ns; s++) {
				uint32_t used = used_of(&sh[s], k.a);
				if (used == sh[s].count)
					continue;
				uint32_t unit = sh[s].units[used];
				const struct sf_unit *u = &us->v[unit];
				uint64_t o = place_unit(u, end);
				if (o == SF_NO_FIT)
					continue;
				uint64_t c = o + u->size;
				placed[unit] = true;
				bool dead = hopeless(us, c, total - done - u->size, bound, placed);
				bool dom = !pins_left(us, placed);
				placed[unit] = false;
				if (dead)
					continue;
				struct key nk = { k.a + sh[s].weight, dom ? DOMINATED : c, -1 };
				bool fresh;
				size_t j = htab_get(&h, &st, &nk, &fresh);
				if (j == SIZE_MAX) {
					*over_budget = true;
					break;
				}
				if (fresh || c < st.v[j].end) {
					st.v[j].end = c;
					st.v[j].parent = (uint32_t)i;
					st.v[j].what = (uint32_t)s;
				}
			}
		}
		layer_begin = layer_end;
	}
	if (!*over_budget) {
		for (size_t i = layer_begin; i < st.n; i++) {
			uint64_t size = finish(us, st.v[i].end);
			if (size < best) {
				best = size;
				best_i = i;
			}
		}
		if (us->n == 0)
			best = finish(us, 0);
	}
	if (best_i != SIZE_MAX) {
		/* read the shapes back, then hand out each shape's units in order */
		uint32_t *seq = sf_xcalloc(us->n, sizeof(*seq));
		uint32_t *next = sf_xcalloc((size_t)ns, sizeof(*next));
		size_t k = us->n;
		for (size_t i = best_i; st.v[i].parent != NO_UNIT; i = st.v[i].parent)
			seq[--k] = st.v[i].what;
		assert(k == 0);
		for (size_t p = 0; p < us->n; p++)
			order[p] = sh[seq[p]].units[next[seq[p]]++];
		free(seq);
		free(next);
	}
	for (long s = 0; s < ns; s++)
		free(sh[s].units);
	free(sh);
	free(shape_of);
	free(placed);
	free(st.v);
	free(h.slot);
	return best;
}

/* ---- fallbacks: local search ---------------------------------------- */

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

/* Trial placements a local search may make (see improve_moves). */
#define LOCAL_BUDGET 200000

/* Shrink `order` by single moves while one helps; returns its size. */
static uint64_t local_search_size(const struct sf_units *us, uint32_t *order)
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
 * Exact: over all orders of size `target`, the most kept units.  Fills
 * order[]; returns false when over budget or no order has that size.
 */
static bool moves_dp(const struct sf_units *us, uint64_t target, uint32_t *order)
{
	struct states st = { NULL, 0, 0 };
	struct htab h = { NULL, 0, 0 };
	bool *placed = sf_xcalloc(us->n ? us->n : 1, sizeof(bool));
	uint64_t total = total_size(us);
	size_t layer_begin = 0, layer_end, best_i = SIZE_MAX;
	bool over = false, fresh;
	struct key root = { 0, 0, -1 };

	assert(us->n <= SF_REORDER_EXACT_MAX);
	htab_reset(&h, 1);
	htab_get(&h, &st, &root, &fresh);
	st.v[0].parent = NO_UNIT;
	for (size_t layer = 0; layer < us->n && !over; layer++) {
		layer_end = st.n;
		htab_reset(&h, layer_end - layer_begin);
		for (size_t i = layer_begin; i < layer_end && !over; i++) {
			struct state cur = st.v[i];
			uint64_t done = 0;
			for (size_t u = 0; u < us->n; u++) {
				placed[u] = (cur.k.a >> u) & 1;
				done += placed[u] ? us->v[u].size : 0;
			}
			for (uint32_t u = 0; u < us->n && !over; u++) {
				if (placed[u])
					continue;
				uint64_t o = place_unit(&us->v[u], cur.end);
				if (o == SF_NO_FIT)
					continue;
				uint64_t c = o + us->v[u].size;
				placed[u] = true;
				bool dead = hopeless(us, c, total - done - us->v[u].size,
						     target, placed);
				placed[u] = false;
				if (dead)
					continue;
				/* keep u (if it extends the increasing run) or move it */
				for (int keep = 1; keep >= 0; keep--) {
					if (keep && (int32_t)u < cur.k.last)
						continue;
					struct key nk = { cur.k.a | (UINT64_C(1) << u), c,
							  keep ? (int32_t)u : cur.k.last };
					uint16_t kept = (uint16_t)(cur.kept + keep);
					size_t j = htab_get(&h, &st, &nk, &fresh);
					if (j == SIZE_MAX) {
						over = true;
						break;
					}
					if (fresh || st.v[j].kept < kept) {
						st.v[j].end = c;
						st.v[j].parent = (uint32_t)i;
						st.v[j].what = u;
						st.v[j].kept = kept;
						st.v[j].kept_this = keep;
					}
				}
			}
		}
		layer_begin = layer_end;
	}
	for (size_t i = layer_begin; !over && i < st.n; i++) {
		if (finish(us, st.v[i].end) != target)
			continue;
		if (best_i == SIZE_MAX || st.v[i].kept > st.v[best_i].kept)
			best_i = i;
	}
	if (best_i != SIZE_MAX) {
		size_t k = us->n;
		for (size_t i = best_i; st.v[i].parent != NO_UNIT; i = st.v[i].parent)
			order[--k] = st.v[i].what;
		assert(k == 0);
	}
	free(placed);
	free(st.v);
	free(h.slot);
	return best_i != SIZE_MAX;
}

/* Trial placements improve_moves may make: bounds its O(n^3) cost on
 * structs of hundreds of members to a fraction of a second. */
#define MOVES_BUDGET 200000

/*
 * Heuristic: re-insert units outside the kept run wherever that keeps the
 * size at `target` and lengthens the kept run, until none does.
 */
static void improve_moves(const struct sf_units *us, uint64_t target, uint32_t *order)
{
	bool *kept = sf_xcalloc(us->n, sizeof(bool));
	size_t best = sf_order_kept(order, us->n, kept);
	bool improved = true;
	long budget = MOVES_BUDGET;

	while (improved && best < us->n && budget > 0) {
		improved = false;
		for (size_t from = 0; from < us->n && !improved && budget > 0; from++) {
			if (kept[order[from]])
				continue;
			for (size_t to = 0; to < us->n && !improved; to++) {
				if (to == from)
					continue;
				move_entry(order, from, to);
				budget--;
				if (sf_units_place(us, order, NULL) <= target) {
					size_t k = sf_order_kept(order, us->n, NULL);
					if (k > best) {
						best = sf_order_kept(order, us->n, kept);
						improved = true;
						continue;
					}
				}
				move_entry(order, to, from);
			}
		}
	}
	free(kept);
}

static void identity(uint32_t *order, size_t n);

/* Where the last unit of `order` ends (before rounding), or SF_NO_FIT. */
static uint64_t place_end(const struct sf_units *us, const uint32_t *order,
			  uint64_t *offsets_out)
{
	uint64_t c = 0;

	for (size_t k = 0; k < us->n; k++) {
		const struct sf_unit *u = &us->v[order[k]];
		uint64_t o = place_unit(u, c);
		if (o == SF_NO_FIT)
			return SF_NO_FIT;
		if (offsets_out)
			offsets_out[k] = o;
		c = o + u->size;
	}
	return c;
}

/*
 * Heuristic from the other end: starting from the current order, move one
 * unit at a time into a gap (right after a unit that padding follows), each
 * time the move that brings the end forward the most, until the struct
 * reaches `target`.  Few moves when a few members fill a few holes, which
 * is the common case the shape order's reshuffle misses.  Fills order[]
 * and returns true when it reaches the target within the budget.
 */
static bool moves_by_filling(const struct sf_units *us, uint64_t target, uint32_t *order)
{
	uint64_t *off = sf_xcalloc(us->n ? us->n : 1, sizeof(*off));
	uint64_t end;
	long budget = MOVES_BUDGET;

	identity(order, us->n);
	end = place_end(us, order, off);
	while (end != SF_NO_FIT && finish(us, end) > target && budget > 0) {
		uint64_t best = end;
		size_t bf = 0, bt = 0;
		for (size_t p = 0; p + 1 < us->n; p++) {
			if (off[p + 1] == off[p] + us->v[order[p]].size)
				continue;       /* no gap after position p */
			for (size_t from = 0; from < us->n && budget > 0; from++) {
				if (from == p || from == p + 1 || us->v[order[from]].pinned)
					continue;
				size_t to = from > p ? p + 1 : p;
				move_entry(order, from, to);
				budget--;
				uint64_t e = place_end(us, order, NULL);
				if (e < best) {
					best = e;
					bf = from;
					bt = to;
				}
				move_entry(order, to, from);
			}
		}
		if (best >= end)
			break;
		move_entry(order, bf, bt);
		end = place_end(us, order, off);
	}
	free(off);
	return end != SF_NO_FIT && finish(us, end) <= target;
}

/* Beyond the exact limit: the better of the shape order re-inserted
 * (improve_moves) and the holes filled from the current order. */
static void heuristic_moves(const struct sf_units *us, uint64_t target, uint32_t *order)
{
	uint32_t *alt = sf_xcalloc(us->n ? us->n : 1, sizeof(*alt));

	improve_moves(us, target, order);
	if (moves_by_filling(us, target, alt)) {
		improve_moves(us, target, alt);
		if (sf_order_kept(alt, us->n, NULL) > sf_order_kept(order, us->n, NULL))
			memcpy(order, alt, us->n * sizeof(*order));
	}
	free(alt);
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

/*
 * The classic candidate: units pinned at offset 0 first, then the others
 * by decreasing alignment, then decreasing size, then old order.  With no
 * other pin and ordinary members it leaves no hole at all.
 */
static void sorted_order(const struct sf_units *us, uint32_t *order)
{
	identity(order, us->n);
	for (size_t i = 1; i < us->n; i++) {
		uint32_t x = order[i];
		const struct sf_unit *ux = &us->v[x];
		size_t j = i;
		while (j > 0) {
			const struct sf_unit *up = &us->v[order[j - 1]];
			bool px = ux->pinned && ux->offset == 0;
			bool pp = up->pinned && up->offset == 0;
			bool before = px != pp ? px :
				      demand(ux) != demand(up) ? demand(ux) > demand(up) :
				      ux->size > up->size;
			if (!before)
				break;
			order[j] = order[j - 1];
			j--;
		}
		order[j] = x;
	}
}

/*
 * The gap-filling candidate: at each step, a pinned unit whose offset has
 * come; else the unit that leaves the smallest gap, preferring larger
 * alignment, then size, then old order.  Handles members whose alignment
 * exceeds their size (__aligned__(64) locks) that sorting cannot.
 */
static void greedy_order(const struct sf_units *us, uint32_t *order)
{
	bool *used = sf_xcalloc(us->n ? us->n : 1, sizeof(bool));
	uint64_t c = 0;

	for (size_t k = 0; k < us->n; k++) {
		size_t best = SIZE_MAX;
		uint64_t best_gap = UINT64_MAX;
		for (size_t u = 0; u < us->n; u++) {
			const struct sf_unit *x = &us->v[u];
			if (used[u])
				continue;
			uint64_t o = next_valid(x, c);
			if (x->pinned) {
				if (o == x->offset) {
					best = u;
					break;
				}
				continue;
			}
			uint64_t gap = o - c;
			const struct sf_unit *b = best == SIZE_MAX ? NULL : &us->v[best];
			if (!b || gap < best_gap ||
			    (gap == best_gap && (demand(x) > demand(b) ||
			     (demand(x) == demand(b) && x->size > b->size)))) {
				best = u;
				best_gap = gap;
			}
		}
		if (best == SIZE_MAX)   /* only pinned units left, none due: give up */
			best = 0;
		while (used[best])
			best++;
		used[best] = true;
		order[k] = (uint32_t)best;
		c = next_valid(&us->v[best], c) + us->v[best].size;
	}
	free(used);
}

/* Smallest size and an order reaching it (never above the current one). */
static uint64_t smallest(const struct sf_units *us, uint32_t *order, bool *exact)
{
	uint32_t *cand = sf_xcalloc(us->n ? us->n : 1, sizeof(*cand));
	uint64_t best, s, lower = finish(us, total_size(us));
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
		best = local_search_size(us, order);
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

void sf_reorder_search(const struct sf_units *us, struct sf_reorder *r)
{
	size_t n = us->n;
	bool exact;

	memset(r, 0, sizeof(*r));
	r->n = n;
	r->order = sf_xcalloc(n ? n : 1, sizeof(*r->order));
	r->offset = sf_xcalloc(n ? n : 1, sizeof(*r->offset));
	r->moved = sf_xcalloc(n ? n : 1, sizeof(*r->moved));
	identity(r->order, n);
	r->old_size = sf_units_place(us, r->order, NULL);
	r->size = smallest(us, r->order, &exact);
	if (r->size == SF_NO_FIT) {
		/* pins cannot all be honoured (only after a narrowing) */
		r->exact = exact;
		return;
	}
	if (r->size < r->old_size || r->old_size == SF_NO_FIT) {
		if (n <= SF_REORDER_EXACT_MAX && moves_dp(us, r->size, r->order)) {
			/* exact */
		} else {
			exact = false;
			heuristic_moves(us, r->size, r->order);
		}
	}
	r->exact = exact;
	uint64_t s = sf_units_place(us, r->order, r->offset);
	assert(s == r->size);
	(void)s;
	bool *kept = sf_xcalloc(n ? n : 1, sizeof(bool));
	size_t k = sf_order_kept(r->order, n, kept);
	for (size_t u = 0; u < n; u++)
		r->moved[u] = !kept[u];
	r->moves = (uint32_t)(n - k);
	free(kept);
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
