/*
 * infer.c - what a loader cannot read off its input, and the pass that
 * infers it.
 *
 * Both loaders (dwarf/members.c, btf/loader.c) build a type's members
 * from what the input states and call here for what it does not.  While
 * placing the members (DWARF needs these):
 *
 *   - a C++ virtual base's offset: DWARF gives it as an expression that
 *     reads the vtable, so the Itanium ABI's placement is redone here
 *     (sf_place_virtual_bases);
 *   - memory order: rustc's DWARF keeps the declaration's order, not the
 *     layout's (sf_memory_order: a stable merge sort of indices).
 *
 * Once they are placed, the pass sf_model_infer (at the end) is the one
 * entry point, the same steps in the same order for DWARF and BTF:
 *
 *   - the room of a member whose type is unknown (declared only, or not
 *     resolvable): up to the next member (sf_fit_to_neighbours), found by
 *     binary search in one sorted array of the distinct member offsets,
 *     each with how many members of nonzero size start there (`struct
 *     offsets`), so a million members cost n log n;
 *   - the aligned attributes an input drops, packing and alignment
 *     (packing.c);
 *   - the data size (sf_data_size) and an empty C++ class
 *     (sf_is_empty_class), which takes no room as a base.
 *
 * Every sum of offsets and sizes saturates (lib/checked.h): the input
 * states any 64-bit value.  Pure C over the model.
 */
#include "infer.h"

#include <assert.h>
#include <stdlib.h>

#include "lib/checked.h"
#include "lib/sort.h"
#include "lib/xalloc.h"
#include "packing.h"

/* x rounded up to a multiple of a (no rounding for a <= 1); saturates. */
static uint64_t align_to(uint64_t x, uint32_t a)
{
	return a > 1 ? sf_round_up_sat(x, a) : x;
}

uint64_t sf_member_data_end(const struct sf_member *m, uint64_t dsize)
{
	uint64_t size = m->size;

	if ((m->flags & SF_MF_BASE) && dsize < size)
		size = dsize;
	if (sf_member_is_bitfield(m))
		size = ((uint64_t)m->bit_offset + m->bit_size + 7) / 8;
	return sf_add_sat(m->offset, size);
}

static uint64_t dsize_at(const uint64_t *dsize, size_t i)
{
	return dsize ? dsize[i] : SF_DSIZE_UNKNOWN;
}

/*
 * In the complete object, gcc's and clang's (Itanium ABI) layout puts the
 * virtual bases after the non-virtual part, in declaration order, each at
 * the end of what comes before rounded up to its alignment.  That end is
 * taken with the bases' full sizes, or - when a virtual base would then
 * not fit in the type - with their data only (the ABI reuses the tail
 * padding of non-POD bases).
 */
void sf_place_virtual_bases(struct sf_member *m, size_t n, const uint8_t *unplaced,
			    const uint64_t *dsize, uint64_t tsize)
{
	uint64_t full = 0, data = 0, need = 0;
	size_t first = 0;

	while (first < n && !unplaced[first])
		first++;
	if (first == n)
		return;		/* nearly every type: nothing to place */
	for (size_t i = 0; i < n; i++) {
		if (unplaced[i]) {
			need = sf_add_sat(align_to(need, m[i].align), m[i].size);
			continue;
		}
		uint64_t end = sf_add_sat(m[i].offset, m[i].size);
		uint64_t dend = sf_member_data_end(&m[i], dsize_at(dsize, i));
		if (end > full)
			full = end;
		if (dend > data)
			data = dend;
	}
	uint64_t end = sf_add_sat(full, need) <= tsize ? full : data;
	for (size_t i = 0; i < n; i++) {
		if (!unplaced[i])
			continue;
		m[i].offset = align_to(end, m[i].align);
		/* corrupt sizes: keep it inside the type */
		if (m[i].offset > tsize || m[i].size > tsize - m[i].offset)
			m[i].offset = tsize > m[i].size ? tsize - m[i].size : 0;
		end = sf_add_sat(m[i].offset, m[i].size);
	}
}

uint64_t sf_data_size(const struct sf_type *t, const uint64_t *dsize)
{
	uint64_t end = 0;

	for (uint32_t i = 0; i < t->nmembers; i++) {
		uint64_t e = sf_member_data_end(&t->members[i], dsize_at(dsize, i));
		if (!(t->members[i].flags & SF_MF_VIRTUAL_BASE) && e > end)
			end = e;
	}
	return end;
}

/* The distinct offsets of a type's members, sorted, each with how many
 * members of nonzero size start there. */
struct offsets {
	uint64_t *off;
	uint32_t *sized;
	size_t n;
};

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Index of the first distinct offset >= x (o->n if none). */
static size_t offsets_at(const struct offsets *o, uint64_t x)
{
	return sf_lower_bound_u64(o->off, o->n, x);
}

/* Index of the first distinct offset > x (o->n if none). */
static size_t offsets_after(const struct offsets *o, uint64_t x)
{
	return x == UINT64_MAX ? o->n : offsets_at(o, x + 1);
}

static void offsets_build(const struct sf_type *t, struct offsets *o)
{
	uint64_t *all = sf_xcalloc(t->nmembers ? t->nmembers : 1, sizeof(*all));

	for (uint32_t i = 0; i < t->nmembers; i++)
		all[i] = t->members[i].offset;
	qsort(all, t->nmembers, sizeof(*all), cmp_u64);
	o->off = all;
	o->n = 0;
	for (uint32_t i = 0; i < t->nmembers; i++)
		if (!o->n || all[o->n - 1] != all[i])
			all[o->n++] = all[i];
	o->sized = sf_xcalloc(o->n ? o->n : 1, sizeof(*o->sized));
	for (uint32_t i = 0; i < t->nmembers; i++) {
		const struct sf_member *m = &t->members[i];
		if (!m->size)
			continue;
		size_t k = offsets_at(o, m->offset);
		assert(k < o->n && o->off[k] == m->offset);
		o->sized[k]++;
	}
}

static void offsets_free(struct offsets *o)
{
	free(o->off);
	free(o->sized);
}

static int needs_offsets(const struct sf_type *t)
{
	for (uint32_t i = 0; i < t->nmembers; i++)
		if (t->members[i].flags & (SF_MF_INCOMPLETE | SF_MF_BASE))
			return 1;
	return 0;
}

static int is_unknown_room(const struct sf_member *m)
{
	return (m->flags & SF_MF_INCOMPLETE) && !m->nested;
}

/* Where the next member after offset `at` starts (t->size if none, and
 * never beyond it). */
static uint64_t next_start(const struct sf_type *t, const struct offsets *o, size_t k)
{
	return k < o->n && o->off[k] < t->size ? o->off[k] : t->size;
}

/* An unknown member's room: up to the next member - none when another
 * member of some size starts where it does (that one covers the bytes). */
static void fit_unknown(const struct sf_type *t, struct offsets *o, struct sf_member *m)
{
	size_t k = offsets_after(o, m->offset);
	uint64_t next = next_start(t, o, k);
	size_t here = k ? k - 1 : 0;
	int shared = o->n && o->off[here] == m->offset && o->sized[here] > 0;

	m->size = shared || next < m->offset ? 0 : next - m->offset;
	if (m->size && o->n)
		o->sized[here]++;
}

/* A base whose tail padding holds later members ends where they start. */
static void cut_base(const struct sf_type *t, const struct offsets *o, struct sf_member *m)
{
	uint64_t next = next_start(t, o, offsets_after(o, m->offset));

	if (next > m->offset && next - m->offset < m->size) {
		m->size = next - m->offset;
		/* no longer the struct's size: its padding holds others */
		m->flags &= (uint16_t)~SF_MF_TYPE_PAD;
	}
}

/*
 * An unknown member's room is an upper bound: it can hide a hole but never
 * invents one.  One sort of the offsets serves both passes.
 */
void sf_fit_to_neighbours(struct sf_type *t, int incomplete)
{
	struct offsets o;

	if (t->kind == SF_KIND_UNION || !needs_offsets(t)) {
		for (uint32_t i = 0; incomplete && i < t->nmembers; i++) {
			struct sf_member *m = &t->members[i];
			if (is_unknown_room(m))
				m->size = t->size > m->offset ? t->size - m->offset : 0;
		}
		return;
	}
	offsets_build(t, &o);
	for (uint32_t i = 0; incomplete && i < t->nmembers; i++)
		if (is_unknown_room(&t->members[i]))
			fit_unknown(t, &o, &t->members[i]);
	for (uint32_t i = 0; i < t->nmembers; i++)
		if ((t->members[i].flags & SF_MF_BASE) && t->members[i].size)
			cut_base(t, &o, &t->members[i]);
	offsets_free(&o);
}

int sf_is_empty_class(const struct sf_type *t)
{
	/* one byte, or what alignas asks of it: HotSpot's StackObj is an
	 * empty class of 4 bytes, aligned 4, that takes no room as a base
	 * (CodeOffsets' _values sits at its offset 0) */
	bool sized = t->size == 1 ||
		     ((t->flags & SF_TF_ALIGNED) && t->align == t->size);
	if (t->kind == SF_KIND_UNION || !sized)
		return 0;
	for (uint32_t i = 0; i < t->nmembers; i++)
		if (!(t->members[i].flags & SF_MF_BASE) || t->members[i].size)
			return 0;
	return 1;
}

/* Where a member's data starts, as (byte, bit) - a bit-field's storage
 * unit may begin before the member declared ahead of it. */
static void member_start(const struct sf_member *m, uint64_t *byte, uint32_t *bit)
{
	uint64_t b = m->offset + m->bit_offset / 8;

	*byte = b < m->offset ? UINT64_MAX : b;
	*bit = m->bit_offset % 8;
}

static int member_before(const struct sf_member *a, size_t ia,
			 const struct sf_member *b, size_t ib)
{
	int va = (a->flags & SF_MF_VIRTUAL_BASE) != 0, vb = (b->flags & SF_MF_VIRTUAL_BASE) != 0;
	uint64_t ba, bb;
	uint32_t ta, tb;

	if (va != vb)
		return vb;
	member_start(a, &ba, &ta);
	member_start(b, &bb, &tb);
	if (ba != bb)
		return ba < bb;
	if (ta != tb)
		return ta < tb;
	return ia < ib;	/* stable: unions, empty members keep their order */
}

int sf_in_memory_order(const struct sf_member *m, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (!member_before(&m[i - 1], i - 1, &m[i], i))
			return 0;
	return 1;
}

/* One pass of the merge sort: runs of w from src merged into dst. */
static void merge_runs(const struct sf_member *m, size_t n, size_t w,
		       const uint32_t *src, uint32_t *dst)
{
	for (size_t lo = 0; lo < n; lo += 2 * w) {
		size_t mid = lo + w < n ? lo + w : n;
		size_t hi = mid + w < n ? mid + w : n;
		size_t p = lo, q = mid, o = lo;
		while (p < mid && q < hi)
			dst[o++] = member_before(&m[src[q]], src[q], &m[src[p]], src[p])
				 ? src[q++] : src[p++];
		while (p < mid)
			dst[o++] = src[p++];
		while (q < hi)
			dst[o++] = src[q++];
	}
}

/* Bottom-up merge sort: stable and n log n for hostile member counts. */
uint32_t *sf_memory_order(const struct sf_member *m, size_t n, uint32_t *a, uint32_t *b)
{
	for (size_t i = 0; i < n; i++)
		a[i] = (uint32_t)i;
	for (size_t w = 1; w < n; w *= 2) {
		merge_runs(m, n, w, a, b);
		uint32_t *tmp = a;
		a = b;
		b = tmp;
	}
	return a;
}

void sf_model_infer(struct sf_type *t, const struct sf_infer_in *in, struct sf_inferred *out)
{
	uint32_t align_attr = in->align_attr;

	assert(t && in && (in->natural || !t->nmembers));
	assert(!in->guess_aligned || !in->align_attr);
	assert(!in->oracle || in->oracle->aligned_hidden == (in->guess_aligned != 0));
	sf_fit_to_neighbours(t, in->incomplete);
	if (in->guess_aligned)
		align_attr = sf_infer_aligned_attrs(t, in->natural, in->guess_aligned);
	sf_infer_packing(t, in->natural, align_attr, in->forced, in->oracle);
	if (!out)
		return;
	out->dsize = sf_data_size(t, in->dsize);
	out->empty = (t->flags & SF_TF_CXX) && sf_is_empty_class(t);
}
