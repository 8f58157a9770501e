/*
 * gaps.c - holes, bit holes and padding of one type, counted as pahole.
 *
 * The walk is pahole 1.24's class__find_holes(): members are visited in
 * the model's order (memory order), tracking in bits
 *
 *   last_seen        the first bit after everything seen so far
 *   in_bitfield      whether the previous member was a bit-field
 *   bf_end, bf_size  end and size (bits) of the current bit-field storage
 *                    unit, so a following member can tell the unused bits
 *                    of that unit (a bit hole) from the bytes after it
 *
 * Each gap found in front of a member is charged to the member before it
 * (SF_NO_MEMBER for a gap in front of the first one), the way pahole
 * prints "XXX N bytes hole" under the member it follows.  All positions are
 * relative to the type being walked (`base` is subtracted), so the same walk
 * serves nested anonymous structs whose member offsets are absolute.
 *
 * Unlike pahole, overlapping members never produce negative holes: a gap
 * is only counted when a member starts after last_seen, and last_seen never
 * goes backwards.  Such a layout is flagged `irregular` (layout/holes.h
 * asserts its size equation only for regular ones).
 *
 * The model's inference (packing.c) and layout/holes.c share this walk:
 * the first asks only whether there is a gap (nothing recorded, nothing
 * allocated), the second records the holes for its report.
 */
#include "gaps.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "lib/checked.h"
#include "lib/xalloc.h"

struct walk {
	const struct sf_type *t;
	uint64_t base;             /* absolute offset of t */
	int64_t last_seen;         /* bits */
	int64_t bf_end;            /* bits */
	int64_t bf_size;           /* bits */
	bool in_bitfield;
	uint32_t last;             /* index of the last member walked */
	bool record;               /* list the holes, not only count them */
	size_t hole_cap, bit_hole_cap;
};

/* Bytes as the walk's bit arithmetic takes them: beyond SF_SANE_BYTES
 * (corrupt input) clipped, and the layout irregular. */
static int64_t capped(uint64_t bytes, struct sf_gaps *out)
{
	return (int64_t)sf_clip_bytes(bytes, &out->irregular);
}

static int64_t member_rel_offset(const struct walk *w,
				 const struct sf_member *m,
				 struct sf_gaps *out)
{
	if (m->offset < w->base) {
		out->irregular = true;   /* a nested member before its parent */
		return 0;
	}
	return capped(m->offset - w->base, out);
}

static void add_hole(struct walk *w, struct sf_gaps *out, uint64_t off,
		     uint64_t size)
{
	if (w->record) {
		SF_GROW(out->holes, out->nholes, w->hole_cap);
		out->holes[out->nholes] = (struct sf_hole){
			.offset = w->base + off, .size = size, .after = w->last,
		};
	}
	out->nholes++;
	out->sum_holes += size;
}

/* A bit hole starting at bit `from`, inside the unit starting at `unit`. */
static void add_bit_hole(struct walk *w, struct sf_gaps *out, int64_t unit,
			 int64_t from, uint32_t bits)
{
	if (unit > from || unit < 0)
		unit = from / 8 * 8;
	if (w->record) {
		SF_GROW(out->bit_holes, out->nbit_holes, w->bit_hole_cap);
		out->bit_holes[out->nbit_holes] = (struct sf_bit_hole){
			.offset = w->base + (uint64_t)unit / 8,
			.bit_offset = (uint32_t)(from - unit),
			.bits = bits,
			.after = w->last,
		};
	}
	out->nbit_holes++;
	out->sum_bit_holes += bits;
}

/*
 * Bits left unused at the end of the current bit-field storage unit before
 * a member starting at bit_start (pahole: "trailing bitfield bits").
 */
static int64_t close_bitfield_unit(struct walk *w, int64_t bit_start,
				   struct sf_gaps *out)
{
	if (!w->in_bitfield)
		return 0;
	int64_t unit_end = bit_start < w->bf_end ? bit_start : w->bf_end;
	if (unit_end < w->last_seen) {
		out->irregular = true;   /* starts inside bits already seen */
		return 0;
	}
	int64_t bits = unit_end - w->last_seen;
	w->last_seen = unit_end;
	return bits;
}

/* The storage unit of a bit-field grows the current unit or starts one. */
static void track_bitfield_unit(struct walk *w, const struct sf_member *m,
				int64_t unit_start, int64_t bit_end,
				struct sf_gaps *out)
{
	int64_t unit_bits = capped(m->size, out) * 8;

	w->in_bitfield = true;
	if (bit_end > w->bf_end || unit_bits > w->bf_size) {
		w->bf_size = unit_bits;
		w->bf_end = unit_start + unit_bits;
		/* a field that borrowed bits of the previous unit ends in
		 * the next one */
		if (bit_end > w->bf_end)
			w->bf_end += unit_bits;
	}
}

/* One member of a struct: the gaps in front of it, then its own bits. */
static void walk_member(struct walk *w, uint32_t i, struct sf_gaps *out)
{
	const struct sf_member *m = &w->t->members[i];
	bool bitfield = sf_member_is_bitfield(m);
	int64_t rel = member_rel_offset(w, m, out);
	int64_t bit_start = rel * 8 + (bitfield ? m->bit_offset : 0);
	int64_t bit_end = bit_start +
		(bitfield ? (int64_t)m->bit_size : capped(m->size, out) * 8);
	/* where a bit hole would start, and the unit it is in */
	int64_t bh_from = w->last_seen, bh_unit = w->bf_end - w->bf_size;
	int64_t bit_holes = close_bitfield_unit(w, bit_start, out);
	int64_t byte_holes = 0;
	int64_t hole_at = w->last_seen / 8;

	if (bitfield) {
		int64_t unit_start = rel * 8;
		/* bytes between the last member and this unit, unless the
		 * field reaches back into a unit already begun */
		if (w->last_seen < unit_start && unit_start <= bit_start) {
			byte_holes = rel - w->last_seen / 8;
			w->last_seen = unit_start;
		}
		if (bit_holes == 0) {
			bh_from = w->last_seen;
			bh_unit = unit_start;
		}
		if (bit_start >= w->last_seen)
			bit_holes += bit_start - w->last_seen;
		else
			out->irregular = true;
	} else if (bit_start >= w->last_seen) {
		byte_holes = bit_start / 8 - w->last_seen / 8;
	} else {
		out->irregular = true;   /* overlaps what came before */
	}

	if (bit_holes > UINT32_MAX) {
		out->irregular = true;   /* no storage unit is that wide */
		bit_holes = 0;
	}
	if (bit_holes > 0)
		add_bit_hole(w, out, bh_unit, bh_from, (uint32_t)bit_holes);
	if (byte_holes > 0)
		add_hole(w, out, (uint64_t)hole_at, (uint64_t)byte_holes);

	if (bitfield) {
		out->sum_bitfield_bits += m->bit_size;
	} else {
		/* only bytes no earlier member covered, so that an empty
		 * base under the next member is not counted twice */
		int64_t from = bit_start > w->last_seen ? bit_start : w->last_seen;
		if (bit_end > from)
			out->sum_members += (uint64_t)(bit_end - from) / 8;
	}

	if (bit_end > w->last_seen)
		w->last_seen = bit_end;
	else if (bit_end < w->last_seen)
		out->irregular = true;

	if (bitfield) {
		track_bitfield_unit(w, m, rel * 8, bit_end, out);
	} else {
		w->in_bitfield = false;
		w->bf_size = 0;
		w->bf_end = bit_end;
	}
	w->last = i;
}

/* Trailing bits of the last storage unit and trailing bytes. */
static void walk_end(struct walk *w, struct sf_gaps *out)
{
	int64_t size_bits = capped(w->t->size, out) * 8;

	if (w->in_bitfield) {
		int64_t unit_end = size_bits < w->bf_end ? size_bits : w->bf_end;
		if (unit_end - w->last_seen > UINT32_MAX) {
			/* a bit-field's storage unit of gigabytes */
			out->irregular = true;
		} else if (unit_end >= w->last_seen) {
			out->bit_padding = (uint32_t)(unit_end - w->last_seen);
			w->last_seen = unit_end;
		} else {
			out->irregular = true;
		}
	}
	if (w->last_seen <= size_bits)
		out->padding = w->t->size - (uint64_t)(w->last_seen / 8);
	else
		out->irregular = true;   /* a member reaches past the end */
}

static void walk_struct(const struct sf_type *t, uint64_t base, bool record,
			struct sf_gaps *out)
{
	struct walk w = {
		.t = t, .base = base, .bf_end = capped(t->size, out) * 8,
		.last = SF_NO_MEMBER, .record = record,
	};

	/* virtual bases too: the model puts them last, where the complete
	 * object has them, so their bytes are not taken for padding */
	for (uint32_t i = 0; i < t->nmembers; i++)
		walk_member(&w, i, out);
	walk_end(&w, out);
}

/* One byte range an enum uses: its discriminant or a variant's field. */
struct span {
	uint64_t start, end;
};

static int cmp_span(const void *a, const void *b)
{
	const struct span *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

static struct span member_span(const struct sf_member *m, uint64_t size)
{
	uint64_t len = sf_member_is_bitfield(m)
		     ? ((uint64_t)m->bit_offset + m->bit_size + 7) / 8 : m->size;
	uint64_t start = m->offset < size ? m->offset : size;
	uint64_t end = len > size - start ? size : start + len;

	return (struct span){ start, end };
}

/*
 * An enum with variants: a byte is used when the discriminant or any
 * variant's field covers it; the bytes none uses are the enum's holes
 * and padding - waste every variant shares.  Holes follow no member
 * (SF_NO_MEMBER): they lie between fields of different variants.
 */
static void walk_enum(const struct sf_type *t, bool record, struct sf_gaps *out)
{
	size_t n = t->nmembers, k = 0, cap = 0;

	for (uint32_t v = 0; v < t->nvariants; v++)
		n += t->variants[v].nmembers;
	struct span *sp = sf_xcalloc(n ? n : 1, sizeof(*sp));
	for (uint32_t i = 0; i < t->nmembers; i++)
		sp[k++] = member_span(&t->members[i], t->size);
	for (uint32_t v = 0; v < t->nvariants; v++)
		for (uint32_t i = 0; i < t->variants[v].nmembers; i++)
			sp[k++] = member_span(&t->variants[v].members[i], t->size);
	assert(k == n);
	qsort(sp, n, sizeof(*sp), cmp_span);
	uint64_t seen = 0;
	for (size_t i = 0; i < n; i++) {
		if (sp[i].start > seen) {
			if (record) {
				SF_GROW(out->holes, out->nholes, cap);
				out->holes[out->nholes] = (struct sf_hole){
					.offset = seen, .size = sp[i].start - seen,
					.after = SF_NO_MEMBER,
				};
			}
			out->nholes++;
			out->sum_holes += sp[i].start - seen;
		}
		if (sp[i].end > seen) {
			out->sum_members += sp[i].end - (sp[i].start > seen ? sp[i].start : seen);
			seen = sp[i].end;
		}
	}
	free(sp);
	out->padding = t->size - seen;
}

/* A union's members all start at its start: no holes, only padding. */
static void walk_union(const struct sf_type *t, uint64_t base,
		       struct sf_gaps *out)
{
	uint64_t covered = 0;

	for (uint32_t i = 0; i < t->nmembers; i++) {
		const struct sf_member *m = &t->members[i];
		uint64_t rel = m->offset >= base ? m->offset - base : 0;
		uint64_t end = sf_add_sat(rel, sf_member_is_bitfield(m)
			? ((uint64_t)m->bit_offset + m->bit_size + 7) / 8 : m->size);
		if (sf_member_is_bitfield(m))
			out->sum_bitfield_bits += m->bit_size;
		if (end > covered)
			covered = end;
	}
	if (covered > t->size) {
		out->irregular = true;
		covered = t->size;
	}
	out->sum_members = covered;
	out->padding = t->size - covered;
}

void sf_gaps_find(const struct sf_type *t, uint64_t base, bool record, struct sf_gaps *out)
{
	assert(t && out);
	memset(out, 0, sizeof(*out));
	if (t->nvariants)
		walk_enum(t, record, out);
	else if (t->kind == SF_KIND_STRUCT || t->kind == SF_KIND_CLASS)
		walk_struct(t, base, record, out);
	else
		walk_union(t, base, out);
	assert(record || (!out->holes && !out->bit_holes));
}

void sf_gaps_release(struct sf_gaps *g)
{
	free(g->holes);
	free(g->bit_holes);
	g->holes = NULL;
	g->bit_holes = NULL;
}

bool sf_type_has_gaps(const struct sf_type *t)
{
	struct sf_gaps g;

	sf_gaps_find(t, 0, false, &g);
	return g.nholes || g.padding;
}
