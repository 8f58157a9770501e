/*
 * holes.c - holes, bit holes and padding of one type, counted as pahole.
 *
 * The walk is pahole 1.24's class__find_holes(): members are visited in
 * declaration order (which DWARF gives in offset order), tracking in bits
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
 * goes backwards.  Such a layout is flagged `irregular` and is the only
 * case where the size equation in holes.h is not asserted.
 */
#include "holes.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "lib/checked.h"
#include "lib/xalloc.h"
#include "model/typeset.h"

#define DEFAULT_CACHELINE 64u

struct walk {
	const struct sf_type *t;
	uint64_t base;             /* absolute offset of t */
	int64_t last_seen;         /* bits */
	int64_t bf_end;            /* bits */
	int64_t bf_size;           /* bits */
	bool in_bitfield;
	uint32_t last;             /* index of the last member walked */
	size_t hole_cap, bit_hole_cap;
};

/* Bytes as the walk's bit arithmetic takes them: beyond SF_SANE_BYTES
 * (corrupt input) clipped, and the layout irregular. */
static int64_t capped(uint64_t bytes, struct sf_layout *out)
{
	return (int64_t)sf_clip_bytes(bytes, &out->irregular);
}

static int64_t member_rel_offset(const struct walk *w,
				 const struct sf_member *m,
				 struct sf_layout *out)
{
	if (m->offset < w->base) {
		out->irregular = true;   /* a nested member before its parent */
		return 0;
	}
	return capped(m->offset - w->base, out);
}

static void add_hole(struct walk *w, struct sf_layout *out, uint64_t off,
		     uint64_t size)
{
	SF_GROW(out->holes, out->nholes, w->hole_cap);
	out->holes[out->nholes++] = (struct sf_hole){
		.offset = w->base + off, .size = size, .after = w->last,
	};
	out->sum_holes += size;
}

/* A bit hole starting at bit `from`, inside the unit starting at `unit`. */
static void add_bit_hole(struct walk *w, struct sf_layout *out, int64_t unit,
			 int64_t from, uint32_t bits)
{
	if (unit > from || unit < 0)
		unit = from / 8 * 8;
	SF_GROW(out->bit_holes, out->nbit_holes, w->bit_hole_cap);
	out->bit_holes[out->nbit_holes++] = (struct sf_bit_hole){
		.offset = w->base + (uint64_t)unit / 8,
		.bit_offset = (uint32_t)(from - unit),
		.bits = bits,
		.after = w->last,
	};
	out->sum_bit_holes += bits;
}

/*
 * Bits left unused at the end of the current bit-field storage unit before
 * a member starting at bit_start (pahole: "trailing bitfield bits").
 */
static int64_t close_bitfield_unit(struct walk *w, int64_t bit_start,
				   struct sf_layout *out)
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
				struct sf_layout *out)
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
static void walk_member(struct walk *w, uint32_t i, struct sf_layout *out)
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
static void walk_end(struct walk *w, struct sf_layout *out)
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

static void walk_struct(const struct sf_type *t, uint64_t base,
			struct sf_layout *out)
{
	struct walk w = {
		.t = t, .base = base, .bf_end = capped(t->size, out) * 8,
		.last = SF_NO_MEMBER,
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
static void walk_enum(const struct sf_type *t, struct sf_layout *out)
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
			SF_GROW(out->holes, out->nholes, cap);
			out->holes[out->nholes++] = (struct sf_hole){
				.offset = seen, .size = sp[i].start - seen, .after = SF_NO_MEMBER,
			};
			out->sum_holes += sp[i].start - seen;
		}
		if (sp[i].end > seen) {
			out->sum_members += sp[i].end - (sp[i].start > seen ? sp[i].start : seen);
			seen = sp[i].end;
		}
	}
	free(sp);
	out->padding = t->size - seen;
	out->members = t->nmembers + t->nvariants;
}

/* A union's members all start at its start: no holes, only padding. */
static void walk_union(const struct sf_type *t, uint64_t base,
		       struct sf_layout *out)
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

/* The byte hole right in front of member i, 0 if none. */
static uint64_t hole_before(const struct sf_type *t,
			    const struct sf_layout *out, uint32_t i)
{
	uint32_t prev = i ? i - 1 : SF_NO_MEMBER;

	(void)t;
	for (uint32_t h = 0; h < out->nholes; h++)
		if (out->holes[h].after == prev)
			return out->holes[h].size;
	return 0;
}

/* pahole's "forced alignments": members given an explicit alignment. */
static void count_forced_alignments(const struct sf_type *t,
				    struct sf_layout *out)
{
	for (uint32_t i = 0; i < t->nmembers; i++) {
		if (!(t->members[i].flags & SF_MF_ALIGNED))
			continue;
		out->nforced_alignments++;
		uint64_t hole = hole_before(t, out, i);
		if (hole) {
			out->nforced_holes++;
			out->sum_forced_holes += hole;
		}
	}
}

static bool is_struct_kind(const struct sf_type *t)
{
	return t->kind == SF_KIND_STRUCT || t->kind == SF_KIND_CLASS;
}

/*
 * The trailing padding only an alignment asked for on the type makes:
 * without it the size would be the data rounded up to the members' own
 * alignments.  A packed type's alignment is no request for room.
 */
static void count_forced_padding(const struct sf_type *t, struct sf_layout *out)
{
	uint64_t maxa = 1;

	if (!(t->flags & SF_TF_ALIGNED) || (t->flags & SF_TF_PACKED) || t->nvariants ||
	    out->irregular || out->padding > t->size)
		return;
	for (uint32_t i = 0; i < t->nmembers; i++)
		if (!(t->members[i].flags & SF_MF_VIRTUAL_BASE) && t->members[i].align > maxa)
			maxa = t->members[i].align;
	uint64_t end = t->size - out->padding;
	uint64_t natural = end % maxa ? end + (maxa - end % maxa) : end;
	if (natural < end)	/* wrapped: corrupt sizes */
		return;
	if (natural < t->size)
		out->forced_padding = t->size - natural;
	assert(out->forced_padding <= out->padding);
}

/* Trailing padding of a struct, without recording anything else. */
static uint64_t struct_padding(const struct sf_type *t)
{
	struct sf_layout tmp;

	memset(&tmp, 0, sizeof(tmp));
	walk_struct(t, 0, &tmp);
	uint64_t pad = tmp.padding;
	free(tmp.holes);
	free(tmp.bit_holes);
	return pad;
}

/*
 * The struct a member's type is, if pahole would look inside it: an
 * anonymous struct member, or (through the lookup) a "struct NAME" member.
 */
static const struct sf_type *member_struct_type(const struct sf_member *m,
						const struct sf_layout_opts *o)
{
	/* an array of structs is an array to pahole: no note; nor is
	 * what a pointer points to */
	if ((m->type_suffix && m->type_suffix[0]) || (m->flags & SF_MF_POINTEE))
		return NULL;
	if (m->nested)
		return is_struct_kind(m->nested) ? m->nested : NULL;
	if (m->tclass != SF_T_STRUCT || sf_member_is_bitfield(m) || !o->lookup)
		return NULL;
	const struct sf_type *t = o->lookup(o->lookup_ctx, m);
	return t && is_struct_kind(t) ? t : NULL;
}

static void compute_at(const struct sf_type *t, uint64_t base,
		       const struct sf_layout_opts *o, struct sf_layout *out);

static void collect_paddings_and_nested(const struct sf_type *t,
					const struct sf_layout_opts *o,
					struct sf_layout *out)
{
	size_t pad_cap = 0;
	uint32_t nnested = 0;

	for (uint32_t i = 0; i < t->nmembers; i++)
		nnested += t->members[i].nested != NULL;
	if (nnested)
		out->nested = sf_xcalloc(nnested, sizeof(*out->nested));

	for (uint32_t i = 0; i < t->nmembers; i++) {
		const struct sf_member *m = &t->members[i];
		if (m->nested) {
			struct sf_nested_layout *n = &out->nested[out->nnested++];
			n->member = i;
			/* a pointed-to type has its own offsets, from 0 */
			compute_at(m->nested, (m->flags & SF_MF_POINTEE) ? 0 : m->offset,
				   o, &n->layout);
		}
		/* pahole notes inner padding only under struct members */
		if (!is_struct_kind(t))
			continue;
		const struct sf_type *mt = member_struct_type(m, o);
		if (!mt)
			continue;
		uint64_t pad = m->nested ? sf_layout_nested(out, i)->padding
					 : struct_padding(mt);
		if (!pad)
			continue;
		SF_GROW(out->paddings, out->npaddings, pad_cap);
		out->paddings[out->npaddings++] =
			(struct sf_member_padding){ .member = i, .padding = pad };
		out->sum_paddings += pad;
	}
	assert(out->nnested == nnested);
}

static void check_invariants(const struct sf_type *t,
			     const struct sf_layout *out)
{
	assert(out->padding <= t->size);
	if (out->irregular)
		return;     /* broken input: only promise no negative numbers */
	assert(out->sum_holes <= t->size);
	if (is_struct_kind(t)) {
		assert(8 * t->size == 8 * out->sum_members +
		       out->sum_bitfield_bits + 8 * out->sum_holes +
		       out->sum_bit_holes + 8 * out->padding +
		       out->bit_padding);
	} else {
		assert(out->sum_members + out->padding == t->size);
		assert(out->nholes == 0 && out->nbit_holes == 0);
	}
	for (uint32_t i = 1; i < out->nholes; i++)
		assert(out->holes[i - 1].offset < out->holes[i].offset);
}

static void compute_at(const struct sf_type *t, uint64_t base,
		       const struct sf_layout_opts *o, struct sf_layout *out)
{
	unsigned cl = o->cacheline ? o->cacheline : DEFAULT_CACHELINE;

	memset(out, 0, sizeof(*out));
	out->size = t->size;
	out->align = t->align;
	out->members = t->nmembers;
	out->cacheline = cl;
	out->cachelines = sf_div_ceil(t->size, cl);
	out->last_cacheline = t->size % cl;
	out->base = base;

	if (t->nvariants)
		walk_enum(t, out);
	else if (is_struct_kind(t))
		walk_struct(t, base, out);
	else
		walk_union(t, base, out);
	if (!t->nvariants)	/* enum holes follow no member */
		count_forced_alignments(t, out);
	count_forced_padding(t, out);
	collect_paddings_and_nested(t, o, out);
	check_invariants(t, out);
}

/* Each variant of the enum t as a struct of its own, laid out with l's
 * cacheline, into l->variants. */
static void compute_variants(const struct sf_type *t, struct sf_layout *l)
{
	l->nvariants = t->nvariants;
	l->variants = sf_xcalloc(t->nvariants, sizeof(*l->variants));
	for (uint32_t k = 0; k < t->nvariants; k++) {
		struct sf_variant_layout *v = &l->variants[k];
		v->members = sf_variant_type(t, k, &v->type);
		sf_layout_compute(&v->type, l->cacheline, &v->layout);
	}
}

void sf_layout_compute_opts(const struct sf_type *t,
			    const struct sf_layout_opts *o,
			    struct sf_layout *out)
{
	assert(t && o && out);
	compute_at(t, 0, o, out);
	if (t->nvariants)
		compute_variants(t, out);
}

void sf_layout_compute(const struct sf_type *t, unsigned cacheline,
		       struct sf_layout *out)
{
	struct sf_layout_opts o = { .cacheline = cacheline };

	sf_layout_compute_opts(t, &o, out);
}

bool sf_layout_has_gaps(const struct sf_type *t)
{
	struct sf_layout tmp;

	memset(&tmp, 0, sizeof(tmp));
	if (t->nvariants)
		walk_enum(t, &tmp);
	else if (is_struct_kind(t))
		walk_struct(t, 0, &tmp);
	else
		walk_union(t, 0, &tmp);
	free(tmp.holes);
	free(tmp.bit_holes);
	return tmp.nholes || tmp.padding;
}

static bool shares_bytes(const struct sf_member *m, const struct sf_variant *v)
{
	for (uint32_t i = 0; i < v->nmembers; i++) {
		const struct sf_member *f = &v->members[i];
		if (f->offset < m->offset + m->size && m->offset < f->offset + f->size)
			return true;
	}
	return false;
}

struct sf_member *sf_variant_type(const struct sf_type *t, uint32_t k,
				  struct sf_type *vt)
{
	assert(k < t->nvariants);
	const struct sf_variant *v = &t->variants[k];
	size_t n = (size_t)t->nmembers + v->nmembers, o = 0;
	struct sf_member *ms = sf_xcalloc(n ? n : 1, sizeof(*ms));
	uint32_t i = 0, j = 0;

	/* both lists are in memory order: merge them; a niche discriminant
	 * is left out of the variant whose field holds it */
	while (i < t->nmembers || j < v->nmembers) {
		const struct sf_member *d = i < t->nmembers ? &t->members[i] : NULL;
		if (d && shares_bytes(d, v)) {
			i++;
			continue;
		}
		if (d && (j >= v->nmembers || d->offset <= v->members[j].offset)) {
			ms[o++] = *d;
			i++;
		} else {
			ms[o++] = v->members[j++];
		}
	}
	*vt = *t;
	vt->name = v->name;
	vt->kind = SF_KIND_STRUCT;
	vt->nvariants = 0;
	vt->variants = NULL;
	vt->nmembers = (uint32_t)o;
	vt->members = ms;
	return ms;
}

void sf_layout_release(struct sf_layout *l)
{
	for (uint32_t i = 0; i < l->nnested; i++)
		sf_layout_release(&l->nested[i].layout);
	for (uint32_t k = 0; k < l->nvariants; k++) {
		sf_layout_release(&l->variants[k].layout);
		free(l->variants[k].members);
	}
	free(l->variants);
	free(l->holes);
	free(l->bit_holes);
	free(l->paddings);
	free(l->nested);
	memset(l, 0, sizeof(*l));
}

const struct sf_layout *sf_layout_nested(const struct sf_layout *l,
					 uint32_t member)
{
	for (uint32_t i = 0; i < l->nnested; i++)
		if (l->nested[i].member == member)
			return &l->nested[i].layout;
	return NULL;
}

/*
 * "struct NAME" or "class NAME" and nothing else: not a typedef of one
 * (pahole only looks inside a member whose DWARF type is the struct
 * itself), not a pointer, not an array.
 */
static const char *plain_struct_name(const struct sf_member *m)
{
	static const char *const prefixes[] = { "struct ", "class " };
	const char *n = m->type_name;

	if (!n || (m->type_suffix && m->type_suffix[0]))
		return NULL;
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		size_t len = strlen(prefixes[i]);
		if (strncmp(n, prefixes[i], len) == 0) {
			n += len;
			return *n && !strpbrk(n, "*&[( ") ? n : NULL;
		}
	}
	return NULL;
}

const struct sf_type *sf_layout_lookup_in_typeset(void *typeset,
						  const struct sf_member *m)
{
	const struct sf_type *found[8];

	/* the kind prefix, if any, lets the typeset rule out unions */
	if (!plain_struct_name(m))
		return NULL;
	size_t n = sf_typeset_find(typeset, m->type_name, found, 8);
	if (n > 8)
		n = 8;
	for (size_t i = 0; i < n; i++)
		if (found[i]->size == m->size &&
		    !(found[i]->flags & SF_TF_DECLARATION))
			return found[i];
	return NULL;
}
