/*
 * members.c - an aggregate DIE's members and variants to a scratch
 * sf_type (struct xtype).
 *
 * rd_layout() reads the members, bases and Rust variant parts of one
 * aggregate into a per-depth member vector (parallel arrays of what only
 * the layout needs: each member's type, its natural alignment, whether
 * it is a virtual base without an offset), then hands the pure layout
 * inference (virtual bases, incomplete members, packing and alignment:
 * layout/packing.h, layout/infer.h) what the DIEs said.  Laid-out types
 * are cached in their tinfo until the unit ends or is laid out again.
 */
#include "reader_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dwarf.h>

#include "layout/abi.h"
#include "layout/holes.h"
#include "layout/nested.h"
#include "layout/packing.h"
#include "lib/hash.h"
#include "lib/xalloc.h"

/* ---- laying out aggregates --------------------------------------------- */

/* A member's alignment under the ABI (1 when unknown). */
static uint32_t align_of(struct sf_reader *r, struct tinfo *ti, unsigned depth)
{
	if (ti->align_attr)
		return ti->align_attr;
	if (ti->agg && !(ti->agg->flags & TI_DECL)) {
		if (!rd_layout(r, ti->agg, depth + 1))
			return 1;
		return ti->agg->align ? ti->agg->align : 1;
	}
	return ti->align ? ti->align : 1;
}

/*
 * A member type's natural alignment: what it would align to without
 * packed or aligned attributes - for an aggregate the largest natural
 * alignment of its members (pahole's tag__natural_alignment, taking the
 * psABI's alignment of a scalar where pahole takes its size: i386 aligns
 * a double to 4 and the compiler agrees).  1 when unknown.
 */
static uint32_t natural_of(struct sf_reader *r, struct tinfo *ti, unsigned depth)
{
	if (ti->agg && !(ti->agg->flags & TI_DECL)) {
		if (!rd_layout(r, ti->agg, depth + 1))
			return 1;
		return ti->agg->natural ? ti->agg->natural : 1;
	}
	return ti->align ? ti->align : 1;
}

/* The enumerators of the anonymous enum ti, read once per unit (NULL on
 * corrupt input). */
static const struct sf_enum *enumerators(struct sf_reader *r, struct tinfo *ti)
{
	struct sf_die d, c;
	struct uh *uh = ti->unit;
	uint64_t off;
	uint32_t n = 0;

	if (ti->enums)
		return ti->enums;
	if (rd_read_die(r, uh, rd_off_of(ti), &d) < 0)
		return NULL;
	/* count, then fill: no growing array for a list read twice */
	for (off = d.next; d.children;) {
		if (rd_read_die(r, uh, off, &c) < 0)
			return NULL;
		if (c.tag == 0)
			break;
		if (c.tag == DW_TAG_enumerator && n < MAX_MEMBERS)
			n++;
		if (rd_skip_die(r, uh, &c, &off) < 0)
			return NULL;
	}
	struct sf_enum *e = rd_arena_alloc(&r->arena, sizeof(*e));
	struct sf_enumerator *v = rd_arena_alloc(&r->arena, sizeof(*v) * (n ? n : 1));
	uint32_t k = 0;
	unsigned bits = ti->size > 0 && ti->size < 8 ? (unsigned)ti->size * 8 : 64;
	for (off = d.next; d.children && k < n;) {
		if (rd_read_die(r, uh, off, &c) < 0)
			return NULL;
		if (c.tag == 0)
			break;
		if (c.tag == DW_TAG_enumerator) {
			uint64_t x = (c.has & SF_A_CONST_VALUE) ? c.const_value : 0;
			/* a data1..data4 constant of a signed enum holds its
			 * two's complement bits: -1 of an int enum is 0xffffffff */
			if ((ti->flags & TI_SIGNED) && bits < 64 && !(x >> bits) &&
			    (x >> (bits - 1)) & 1)
				x |= ~0ull << bits;
			v[k].name = rd_isec(r, c.name ? c.name : "");
			v[k++].value = x;
		}
		if (rd_skip_die(r, uh, &c, &off) < 0)
			return NULL;
	}
	e->n = k;
	e->v = v;
	ti->enums = e;
	return e;
}

/* Scratch memory for sf_nested_clone(). */
static void *arena_for_clone(void *ctx, size_t n)
{
	return rd_arena_alloc_raw(ctx, n);
}

static struct sf_member *mvec_push(struct mvec *v)
{
	SF_GROW(v->m, v->n, v->cap);
	SF_GROW(v->inc, v->n, v->inccap);
	SF_GROW(v->vbase_unplaced, v->n, v->vcap);
	SF_GROW(v->natural, v->n, v->natcap);
	SF_GROW(v->ty, v->n, v->tycap);
	memset(&v->m[v->n], 0, sizeof(v->m[0]));
	v->inc[v->n] = NULL;
	v->vbase_unplaced[v->n] = 0;
	v->natural[v->n] = 1;
	v->ty[v->n] = NULL;
	return &v->m[v->n++];
}

void rd_mvec_free(struct mvec *v)
{
	free(v->m);
	free(v->inc);
	free(v->vbase_unplaced);
	free(v->natural);
	free(v->ty);
}

/* Bit-field position as the model wants it (see model.h). */
static void place_bitfield(struct sf_member *m, const struct sf_die *c, int msb)
{
	uint64_t unit = m->size ? m->size : (c->bit_size + 7) / 8;
	uint64_t loc = (c->has & SF_A_MEMBER_LOC) ? c->member_loc : 0;
	uint64_t dbo;

	/* a unit wider than 2^61 bytes is no storage unit (8 * unit would
	 * wrap to 0 and divide by zero below): place the bits by byte */
	if (!unit || unit > UINT64_MAX / 8)
		unit = 1;
	if (c->has & SF_A_DATA_BIT_OFFSET) {
		dbo = c->data_bit_offset + 8 * loc;
	} else if (c->has & SF_A_BIT_OFFSET) {
		/* DWARF 2/3: bits from the most significant bit of a storage
		 * unit of DW_AT_byte_size bytes at the member location */
		uint64_t bs = (c->has & SF_A_BYTE_SIZE) ? c->byte_size : unit;
		if (msb)
			dbo = 8 * loc + c->bit_offset;
		else if (8 * bs >= c->bit_offset + c->bit_size)
			dbo = 8 * loc + 8 * bs - c->bit_offset - c->bit_size;
		else
			dbo = 8 * loc;
	} else {
		dbo = 8 * loc;
	}
	/* the unit aligned down, as pahole shows it - even when a packed
	 * bit-field straddles into the next unit (bit_offset + bit_size
	 * then exceeds 8 * size) */
	m->offset = dbo / (8 * unit) * unit;
	uint64_t bit = dbo - 8 * m->offset;
	m->bit_offset = (uint32_t)bit;
	m->bit_size = (uint32_t)(c->bit_size > UINT32_MAX ? UINT32_MAX : c->bit_size);
	m->flags |= SF_MF_BITFIELD;
}

static void set_type_of_member(struct sf_reader *r, struct sf_member *m, struct tinfo *mt,
			       struct mvec *v, unsigned depth)
{
	m->tclass = mt->tclass;
	if (mt->flags & TI_SIGNED)
		m->flags |= SF_MF_SIGNED;
	m->type_name = mt->left;
	m->type_suffix = mt->right;
	if (!(mt->flags & (TI_DECL | TI_UNSIZED)) && mt != &r->bad_ti)
		m->align = align_of(r, mt, depth);	/* lays out: TI_ALIGNED known */
	if (mt->flags & TI_ALIGNED)
		m->flags |= SF_MF_ALIGNED;
	if (mt->flags & TI_DECL) {
		m->flags |= SF_MF_INCOMPLETE;
		v->inc[v->n - 1] = mt->agg && *mt->agg->qname ? mt->agg->qname : NULL;
		m->align = 1;
		return;
	}
	if (mt == &r->bad_ti || (mt->flags & TI_UNSIZED)) {
		m->flags |= SF_MF_INCOMPLETE;
		m->align = 1;
		return;
	}
	v->natural[v->n - 1] = natural_of(r, mt, depth);
	v->ty[v->n - 1] = mt;
	if (mt->anon && !(mt->flags & TI_FLEX)) {
		struct xtype *x = rd_layout(r, mt->anon, depth + 1);
		if (x) {
			m->nested = sf_nested_clone(&x->t, m->offset, depth, MAX_LAYOUT_DEPTH,
						    arena_for_clone, &r->arena);
			m->type_name = mt->anon->keyword;
			m->type_suffix = (mt->flags & TI_ARRAY) ? mt->right : rd_isec(r, "");
			if (x->t.flags & SF_TF_INCOMPLETE)
				m->flags |= SF_MF_INCOMPLETE;
		}
	} else if (mt->anon_enum) {
		m->enums = enumerators(r, mt->anon_enum);
	} else if (mt->pointee && (mt->pointee->flags & TI_AGG)) {
		/* the pointed-to type is shown, never part of this layout */
		struct xtype *x = rd_layout(r, mt->pointee, depth + 1);
		if (x) {
			m->nested = &x->t;
			m->flags |= SF_MF_POINTEE;
		}
	} else if (mt->pointee) {
		m->enums = enumerators(r, mt->pointee);
		if (m->enums)
			m->flags |= SF_MF_POINTEE;
	}
}

static void add_member(struct sf_reader *r, struct uh *uh, const struct sf_die *c,
		       struct mvec *v, unsigned depth)
{
	struct tinfo *mt = rd_resolve_ref(r, uh, c, 0);
	struct sf_member *m = mvec_push(v);

	m->name = rd_isec(r, c->name ? c->name : "");
	m->size = mt->size;
	if (c->has & SF_A_BIT_SIZE) {
		place_bitfield(m, c, uh->cx.f->msb);
	} else {
		m->offset = (c->has & SF_A_MEMBER_LOC) ? c->member_loc : 0;
		if (mt->flags & TI_FLEX) {
			m->flags |= SF_MF_FLEX_ARRAY;
			m->size = 0;
		}
	}
	set_type_of_member(r, m, mt, v, depth);
	/* rustc states every member's alignment: only one that differs
	 * from the type's own was asked for */
	if ((c->has & SF_A_ALIGNMENT) &&
	    (uh->cx.lang != DW_LANG_Rust || c->alignment != m->align)) {
		m->align = (uint32_t)c->alignment;
		m->flags |= SF_MF_ALIGNED;
	}
	if ((c->has & SF_A_ARTIFICIAL) && !strncmp(m->name, "_vptr", 5))
		m->flags |= SF_MF_VPTR;
}

static void add_base(struct sf_reader *r, struct uh *uh, const struct sf_die *c,
		     struct mvec *v, unsigned depth)
{
	struct tinfo *bt = rd_resolve_ref(r, uh, c, 0);
	struct sf_member *m = mvec_push(v);

	m->name = bt->agg && *bt->agg->qname ? bt->agg->qname : bt->left;
	m->flags |= SF_MF_BASE;
	m->size = bt->size;
	m->offset = (c->has & SF_A_MEMBER_LOC) ? c->member_loc : 0;
	if (c->has & SF_A_VIRTUALITY && c->virtuality) {
		m->flags |= SF_MF_VIRTUAL_BASE;
		/* its offset lives in the vtable: placed after the rest */
		v->vbase_unplaced[v->n - 1] = !(c->has & SF_A_MEMBER_LOC);
	}
	set_type_of_member(r, m, bt, v, depth);
	m->tclass = SF_T_STRUCT;
	if (bt->agg && (bt->agg->flags & TI_EMPTY))
		m->size = 0;	/* empty base optimization */
}

static uint64_t align_up(uint64_t x, uint32_t a)
{
	return a > 1 ? (x + a - 1) / a * a : x;
}

/* Where the data of member m ends; a base's own tail padding left out
 * when its layout is known (C++ may put later data there). */
static uint64_t data_end(const struct sf_member *m, const struct tinfo *ty)
{
	uint64_t size = m->size;

	if ((m->flags & SF_MF_BASE) && ty && ty->agg && (ty->agg->flags & TI_LAID) &&
	    ty->agg->dsize < size)
		size = ty->agg->dsize;
	if (sf_member_is_bitfield(m))
		size = ((uint64_t)m->bit_offset + m->bit_size + 7) / 8;
	return m->offset + size;
}

/*
 * DWARF gives a virtual base's offset as an expression that reads the
 * vtable: it depends on the most derived type.  In the complete object,
 * gcc's and clang's (Itanium ABI) layout puts the virtual bases after the
 * non-virtual part, in declaration order, each at the end of what comes
 * before rounded up to its alignment.  That end is taken with the bases'
 * full sizes, or - when a virtual base would then not fit in the type -
 * with their data only (the ABI reuses the tail padding of non-POD bases).
 */
static void place_virtual_bases(struct sf_member *m, size_t n, const uint8_t *unplaced,
				struct tinfo *const *ty, uint64_t tsize)
{
	uint64_t full = 0, data = 0, need = 0;

	for (size_t i = 0; i < n; i++) {
		if (unplaced[i]) {
			need = align_up(need, m[i].align) + m[i].size;
			continue;
		}
		if (m[i].offset + m[i].size > full)
			full = m[i].offset + m[i].size;
		if (data_end(&m[i], ty[i]) > data)
			data = data_end(&m[i], ty[i]);
	}
	uint64_t end = full + need <= tsize ? full : data;
	for (size_t i = 0; i < n; i++) {
		if (!unplaced[i])
			continue;
		m[i].offset = align_up(end, m[i].align);
		/* corrupt sizes: keep it inside the type */
		if (m[i].offset > tsize || m[i].size > tsize - m[i].offset)
			m[i].offset = tsize > m[i].size ? tsize - m[i].size : 0;
		end = m[i].offset + m[i].size;
	}
}

/*
 * Offsets of the members, sorted, each with how many members of nonzero
 * size start there: the next member after any offset is a binary search
 * away, so a type with a million members costs n log n, not n^2.
 */
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
		size_t lo = 0, hi = o->n;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (o->off[mid] < m->offset)
				lo = mid + 1;
			else
				hi = mid;
		}
		o->sized[lo]++;
	}
}

/* Index of the first distinct offset > x (o->n if none). */
static size_t offsets_after(const struct offsets *o, uint64_t x)
{
	size_t lo = 0, hi = o->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (o->off[mid] <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
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

/*
 * An incomplete member gets the room up to the next member: an upper
 * bound that can hide a hole but never invents one (`incomplete`).  A
 * base whose tail padding holds later members covers only up to them
 * (always).  One sort of the offsets serves both.
 */
void rd_fit_to_neighbours(struct sf_type *t, int incomplete)
{
	struct offsets o;

	if (t->kind == SF_KIND_UNION || !needs_offsets(t)) {
		for (uint32_t i = 0; incomplete && i < t->nmembers; i++) {
			struct sf_member *m = &t->members[i];
			if ((m->flags & SF_MF_INCOMPLETE) && !m->nested)
				m->size = t->size > m->offset ? t->size - m->offset : 0;
		}
		return;
	}
	offsets_build(t, &o);
	for (uint32_t i = 0; incomplete && i < t->nmembers; i++) {
		struct sf_member *m = &t->members[i];
		if (!(m->flags & SF_MF_INCOMPLETE) || m->nested)
			continue;
		size_t k = offsets_after(&o, m->offset);
		uint64_t next = k < o.n ? o.off[k] : t->size;
		/* another member of some size starts here too: this one
		 * cannot be the one covering the bytes */
		size_t here = k ? k - 1 : 0;
		int shared = o.n && o.off[here] == m->offset && o.sized[here] > 0;
		m->size = shared || next < m->offset ? 0 : next - m->offset;
		if (m->size && o.n)
			o.sized[here]++;
	}
	for (uint32_t i = 0; i < t->nmembers; i++) {
		struct sf_member *m = &t->members[i];
		if (!(m->flags & SF_MF_BASE) || !m->size)
			continue;
		size_t k = offsets_after(&o, m->offset);
		uint64_t next = k < o.n ? o.off[k] : t->size;
		if (next < m->offset + m->size && next > m->offset)
			m->size = next - m->offset;
	}
	offsets_free(&o);
}

/*
 * ti is packed: a container holds it where only a packed type can be.
 * Its model and alignment change; the types laid out before took the old
 * alignment, so the unit is laid out again (report_tops).
 */
static void mark_packed(struct sf_reader *r, struct tinfo *ti)
{
	if (ti->flags & TI_PACKED)
		return;
	ti->flags |= TI_PACKED;
	r->repack = 1;
	if ((ti->flags & TI_LAID) && ti->model) {
		struct sf_type *t = &ti->model->t;
		t->flags |= SF_TF_PACKED;
		if (!ti->align_attr)
			t->align = 1;
		ti->align = t->align;
	}
}

/*
 * pahole's type__check_structs_at_unnatural_alignments and
 * union__infer_packed_attributes: a struct that is not packed, yet holds
 * a struct or union at an offset that type's natural alignment does not
 * divide - or a union whose size it does not divide - shows that type is
 * packed, though its own layout may look natural (packed_inner on
 * ILP32: size 8, members aligned, at offset 1 in holds_packed).  ty[i] is
 * member i's type.  Returns whether a member's alignment changed.
 *
 * Not where an aligned attribute is in play: it makes holes and padding
 * in a packed struct too (sctp_paddrparams is packed and aligned(4), so
 * its 1 byte of padding proves nothing about __kernel_sockaddr_storage at
 * offset 4), and a type with DW_AT_alignment has that alignment, packed
 * or not.
 */
static int find_packed_members(struct sf_reader *r, struct sf_type *t,
			       struct tinfo *const *ty, unsigned depth)
{
	int changed = 0;

	if ((t->kind != SF_KIND_UNION && (t->flags & SF_TF_PACKED)) ||
	    (t->flags & SF_TF_ALIGNED))
		return 0;
	for (uint32_t i = 0; i < t->nmembers; i++)
		if (t->members[i].flags & SF_MF_ALIGNED)
			return 0;
	for (uint32_t i = 0; i < t->nmembers; i++) {
		const struct sf_member *m = &t->members[i];
		struct tinfo *a = ty[i] ? ty[i]->agg : NULL;
		if (!a || (ty[i]->flags & TI_ARRAY) || !(a->flags & TI_LAID) ||
		    a->align_attr || sf_member_is_bitfield(m) ||
		    (m->flags & (SF_MF_INCOMPLETE | SF_MF_VIRTUAL_BASE)))
			continue;
		uint64_t where = t->kind == SF_KIND_UNION ? t->size : m->offset;
		if (a->natural > 1 && where % a->natural)
			mark_packed(r, a);
	}
	for (uint32_t i = 0; i < t->nmembers; i++) {
		struct sf_member *m = &t->members[i];
		if (!ty[i] || !ty[i]->agg || !(ty[i]->agg->flags & TI_PACKED) ||
		    (m->flags & (SF_MF_ALIGNED | SF_MF_INCOMPLETE)))
			continue;
		uint32_t a = align_of(r, ty[i], depth);
		if (a != m->align) {
			m->align = a;
			changed = 1;
		}
	}
	return changed;
}

int rd_is_empty_class(const struct sf_type *t)
{
	if (t->kind == SF_KIND_UNION || t->size != 1)
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

/*
 * The members' indices in memory order (virtual bases last), or NULL
 * when they already are: a merge sort, stable and n log n for hostile
 * member counts.
 */
static uint32_t *offset_order(struct sf_reader *r, const struct sf_member *m, size_t n)
{
	size_t i;

	for (i = 1; i < n; i++)
		if (!member_before(&m[i - 1], i - 1, &m[i], i))
			break;
	if (i >= n)
		return NULL;
	uint32_t *a = rd_arena_alloc_raw(&r->arena, sizeof(*a) * n);
	uint32_t *b = rd_arena_alloc_raw(&r->arena, sizeof(*b) * n);
	for (i = 0; i < n; i++)
		a[i] = (uint32_t)i;
	for (size_t w = 1; w < n; w *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * w) {
			size_t mid = lo + w < n ? lo + w : n;
			size_t hi = mid + w < n ? mid + w : n;
			size_t p = lo, q = mid, o = lo;
			while (p < mid && q < hi)
				b[o++] = member_before(&m[a[q]], a[q], &m[a[p]], a[p]) ? a[q++] : a[p++];
			while (p < mid)
				b[o++] = a[p++];
			while (q < hi)
				b[o++] = a[q++];
		}
		uint32_t *tmp = a;
		a = b;
		b = tmp;
	}
	return a;
}

/* The variants of the aggregate being laid out (arena memory). */
struct vlist {
	struct sf_variant *v;
	uint32_t n;
	uint32_t natural;       /* the largest natural alignment of their fields */
};

/*
 * One member of a variant: rustc wraps a variant's payload in a struct
 * named for the variant, at offset 0 - its fields are the variant's
 * members, moved to offsets in the enum.  Anything else is one member.
 * Returns how many members it wrote to out (NULL: only count).
 */
static uint32_t variant_fields(struct sf_reader *r, struct uh *uh, const struct sf_die *c,
			       struct sf_member *out, uint32_t *natural, unsigned depth)
{
	struct tinfo *mt = rd_resolve_ref(r, uh, c, 0);
	uint64_t loc = (c->has & SF_A_MEMBER_LOC) ? c->member_loc : 0;
	struct xtype *x = uh->cx.lang == DW_LANG_Rust && (mt->flags & TI_AGG) && !mt->anon
			? rd_layout(r, mt->agg, depth + 1) : NULL;

	if (x) {
		for (uint32_t i = 0; out && i < x->t.nmembers; i++) {
			out[i] = x->t.members[i];
			out[i].offset = loc + x->t.members[i].offset < loc ? UINT64_MAX
				      : loc + x->t.members[i].offset;
		}
		if (x->t.natural_align > *natural)
			*natural = x->t.natural_align;
		return x->t.nmembers;
	}
	if (out) {
		memset(out, 0, sizeof(*out));
		out->name = rd_isec(r, c->name ? c->name : "");
		out->type_name = mt->left;
		out->type_suffix = mt->right;
		out->offset = loc;
		out->size = mt->size;
		out->tclass = mt->tclass;
		out->align = (mt->flags & (TI_DECL | TI_UNSIZED)) || mt == &r->bad_ti
			   ? 1 : align_of(r, mt, depth);
		if (mt->flags & TI_SIGNED)
			out->flags |= SF_MF_SIGNED;
		if (out->align > *natural)
			*natural = out->align;
	}
	return 1;
}

/* The members of one DW_TAG_variant, in memory order, into vr. */
static int read_variant(struct sf_reader *r, struct uh *uh, const struct sf_die *d,
			struct sf_variant *vr, uint32_t *natural, unsigned depth)
{
	struct sf_die c;
	uint32_t n = 0;

	vr->name = rd_isec(r, "");
	vr->has_discr_value = (d->has2 & SF_A2_DISCR_VALUE) != 0;
	vr->discr_value = d->discr_value;
	/* count, then fill */
	for (int fill = 0; fill < 2; fill++) {
		uint64_t off = d->next;
		uint32_t k = 0;
		if (fill)
			vr->members = rd_arena_alloc(&r->arena, sizeof(*vr->members) * (n ? n : 1));
		while (d->children) {
			if (rd_read_die(r, uh, off, &c) < 0)
				return -1;
			if (c.tag == 0)
				break;
			if (c.tag == DW_TAG_member) {
				if (!*vr->name && c.name)
					vr->name = rd_isec(r, c.name);
				uint32_t got = variant_fields(r, uh, &c, NULL, natural, depth);
				if (fill && k + got <= n)
					variant_fields(r, uh, &c, vr->members + k, natural, depth);
				if (got > MAX_MEMBERS - k)
					return rd_corrupt(r, uh, c.off);
				k += got;
			}
			if (r->failed || rd_skip_die(r, uh, &c, &off) < 0)
				return -1;
		}
		if (fill && k != n)
			return rd_corrupt(r, uh, d->off);
		n = k;
	}
	vr->nmembers = n;
	uint32_t *order = offset_order(r, vr->members, n);
	if (order) {
		struct sf_member *sorted = rd_arena_alloc_raw(&r->arena, sizeof(*sorted) * n);
		for (uint32_t i = 0; i < n; i++)
			sorted[i] = vr->members[order[i]];
		vr->members = sorted;
	}
	return 0;
}

/*
 * DW_TAG_variant_part: its DW_TAG_member child is the discriminant (a
 * member of the enum itself), its DW_TAG_variant children the variants.
 */
static int read_variant_part(struct sf_reader *r, struct uh *uh, const struct sf_die *d,
			     struct mvec *v, struct vlist *vl, unsigned depth)
{
	struct sf_die c;
	uint64_t off = d->next;
	uint32_t n = 0;

	for (off = d->next; d->children;) {
		if (rd_read_die(r, uh, off, &c) < 0)
			return -1;
		if (c.tag == 0)
			break;
		n += c.tag == DW_TAG_variant && n < MAX_MEMBERS;
		if (rd_skip_die(r, uh, &c, &off) < 0)
			return -1;
	}
	struct sf_variant *all = rd_arena_alloc(&r->arena, sizeof(*all) * (vl->n + n + 1));
	if (vl->n)
		memcpy(all, vl->v, sizeof(*all) * vl->n);
	vl->v = all;
	for (off = d->next; d->children;) {
		if (rd_read_die(r, uh, off, &c) < 0)
			return -1;
		if (c.tag == 0)
			break;
		if (c.tag == DW_TAG_member && n && !(c.has & SF_A_DECLARATION)) {
			add_member(r, uh, &c, v, depth);
			struct sf_member *m = &v->m[v->n - 1];
			m->flags |= SF_MF_DISCR;
			if (!*m->name)
				m->name = rd_isec(r, "<discriminant>");
		} else if (c.tag == DW_TAG_variant && n) {
			if (read_variant(r, uh, &c, &vl->v[vl->n], &vl->natural, depth) < 0)
				return -1;
			vl->n++;
			n--;
		}
		if (r->failed || rd_skip_die(r, uh, &c, &off) < 0)
			return -1;
	}
	return 0;
}

static int collect_members(struct sf_reader *r, struct uh *uh, const struct sf_die *d,
			   struct mvec *v, struct vlist *vl, unsigned depth)
{
	struct sf_die c;
	uint64_t off = d->next;

	while (d->children) {
		if (rd_read_die(r, uh, off, &c) < 0)
			return -1;
		if (c.tag == 0)
			break;
		if (v->n >= MAX_MEMBERS) {
			sf_error(r->err, "%s: corrupt DWARF (more than %u members at 0x%llx)",
				 uh->cx.f->label, MAX_MEMBERS, (unsigned long long)d->off);
			r->failed = 1;
			return -1;
		}
		/* static members: DW_AT_external/declaration (DWARF 4),
		 * DW_TAG_variable (DWARF 5) - not part of the layout */
		if (c.tag == DW_TAG_member && !(c.has & (SF_A_EXTERNAL | SF_A_DECLARATION)))
			add_member(r, uh, &c, v, depth);
		else if (c.tag == DW_TAG_inheritance)
			add_base(r, uh, &c, v, depth);
		else if (c.tag == DW_TAG_variant_part &&
			 read_variant_part(r, uh, &c, v, vl, depth) < 0)
			return -1;
		if (r->failed || rd_skip_die(r, uh, &c, &off) < 0)
			return -1;
	}
	return 0;
}

/* Does member m share a byte with any member of variant vr? */
static int overlaps_variant(const struct sf_member *m, const struct sf_variant *vr)
{
	for (uint32_t i = 0; i < vr->nmembers; i++) {
		const struct sf_member *f = &vr->members[i];
		if (f->offset < m->offset + m->size && m->offset < f->offset + f->size)
			return 1;
	}
	return 0;
}

/* Attach the variants; a discriminant inside a variant's field is a niche. */
static void set_variants(struct sf_type *t, const struct vlist *vl)
{
	t->variants = vl->v;
	t->nvariants = vl->n;
	if (vl->natural > t->natural_align)
		t->natural_align = vl->natural;
	for (uint32_t i = 0; i < t->nmembers; i++) {
		if (!(t->members[i].flags & SF_MF_DISCR))
			continue;
		for (uint32_t k = 0; k < vl->n; k++)
			if (overlaps_variant(&t->members[i], &vl->v[k]))
				t->flags |= SF_TF_NICHE;
	}
}

struct xtype *rd_layout(struct sf_reader *r, struct tinfo *ti, unsigned depth)
{
	struct sf_die d;

	if (!(ti->flags & TI_AGG) || (ti->flags & TI_DECL))
		return NULL;
	if (ti->flags & TI_LAID)
		return ti->model;
	if ((ti->flags & TI_LAYING) || depth > MAX_LAYOUT_DEPTH || r->failed)
		return NULL;
	struct uh *uh = ti->unit;
	if (rd_read_die(r, uh, rd_off_of(ti), &d) < 0)
		return NULL;
	if (!r->mv)
		r->mv = sf_xcalloc(MAX_LAYOUT_DEPTH + 2, sizeof(*r->mv));
	struct mvec *vp = &r->mv[depth];
	vp->n = 0;
	ti->flags |= TI_LAYING;
	struct vlist vl = { NULL, 0, 1 };
	int rc = collect_members(r, uh, &d, vp, &vl, depth);
	ti->flags &= ~TI_LAYING;
	if (rc < 0)
		return NULL;
	struct mvec v = *vp;

	struct xtype *x = rd_arena_alloc(&r->arena, sizeof(*x));
	struct sf_type *t = &x->t;
	x->unit = uh;
	x->file = (d.has & SF_A_DECL_FILE) ? d.decl_file : 0;
	t->name = ti->qname;
	t->kind = ti->kind;
	t->size = ti->size;
	t->decl_file = "";
	t->decl_line = d.decl_line;
	t->addr_size = uh->cx.u->addr_size;
	if (sf_lang_is_cxx(uh->cx.lang))
		t->flags |= SF_TF_CXX;
	place_virtual_bases(v.m, v.n, v.vbase_unplaced, v.ty, t->size);
	t->nmembers = (uint32_t)v.n;
	t->members = rd_arena_alloc_raw(&r->arena, sizeof(*t->members) * (v.n ? v.n : 1));
	x->natural = rd_arena_alloc_raw(&r->arena, sizeof(*x->natural) * (v.n ? v.n : 1));
	struct tinfo **ty = rd_arena_alloc_raw(&r->arena, sizeof(*ty) * (v.n ? v.n : 1));
	/* in memory order (rustc reorders fields, its DWARF keeps the
	 * declaration's), virtual bases last, where the complete object
	 * has them */
	uint32_t *order = offset_order(r, v.m, v.n);
	for (size_t k = 0; k < v.n; k++) {
		size_t i = order ? order[k] : k;
		t->members[k] = v.m[i];
		x->natural[k] = v.natural[i];
		ty[k] = v.ty[i];
		if (v.inc[i]) {
			if (!x->inc)
				x->inc = rd_arena_alloc(&r->arena, sizeof(*x->inc) * v.n);
			x->inc[k] = v.inc[i];
		}
	}
	for (size_t k = 0; order && k < v.n; k++)
		if (order[k] != k)
			t->flags |= SF_TF_REORDERED;
	x->forced = (ti->flags & TI_PACKED) != 0;
	rd_fit_to_neighbours(t, 1);
	sf_settle_packing(t, x->natural, ti->align_attr, (ti->flags & TI_PACKED) != 0);
	if (find_packed_members(r, t, ty, depth))
		sf_settle_packing(t, x->natural, ti->align_attr, (ti->flags & TI_PACKED) != 0);
	if (vl.n)
		set_variants(t, &vl);
	if (uh->cx.lang == DW_LANG_Rust) {
		t->flags |= SF_TF_RUST;
		for (uint32_t i = 0; i < t->nmembers; i++)
			t->members[i].flags |= SF_MF_RUST;
		for (uint32_t k = 0; k < t->nvariants; k++)
			for (uint32_t i = 0; i < t->variants[k].nmembers; i++)
				t->variants[k].members[i].flags |= SF_MF_RUST;
		if (ti->align_attr && ti->align_attr != t->natural_align)
			ti->flags |= TI_ALIGNED;
		else
			t->flags &= (uint16_t)~SF_TF_ALIGNED;
	}
	if (rd_is_empty_class(t) && (t->flags & SF_TF_CXX))
		ti->flags |= TI_EMPTY;
	ti->align = t->align;
	ti->natural = t->natural_align;
	ti->dsize = 0;
	for (uint32_t i = 0; i < t->nmembers; i++)
		if (!(t->members[i].flags & SF_MF_VIRTUAL_BASE) &&
		    data_end(&t->members[i], ty[i]) > ti->dsize)
			ti->dsize = data_end(&t->members[i], ty[i]);
	ti->model = x;
	ti->flags |= TI_LAID;
	return x;
}

/* Forget every layout of the unit (kept: what was found packed). */
void rd_unlay_all(struct sf_reader *r)
{
	for (size_t j = 0; j < r->mapcap; j++) {
		struct tinfo *ti = r->map[j].gen == r->gen ? r->map[j].ti : NULL;
		if (ti && (ti->flags & TI_LAID)) {
			ti->flags &= ~TI_LAID;
			ti->model = NULL;
		}
	}
}
