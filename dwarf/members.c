/*
 * members.c - an aggregate DIE's members and variants to a scratch
 * sf_type (struct xtype).
 *
 * rd_layout() reads the members, bases and Rust variant parts of one
 * aggregate into a per-depth member vector (parallel arrays of what only
 * the layout needs: each member's type, its natural alignment, whether
 * it is a virtual base without an offset), places them in memory order
 * (virtual bases' offsets and the order: model/infer.h), then runs the
 * model's pass (sf_model_infer: room of unknown members, packing and
 * alignment with the evidence of the members' types through
 * struct sf_packing_oracle, data size, empty classes) - the one place a
 * DWARF type's inference happens, as btf/loader.c's does for BTF.
 * Laid-out types are cached in their tinfo until the unit ends or is
 * laid out again.
 */
#include "reader_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dwarf.h>

#include "model/infer.h"
#include "model/nested.h"
#include "model/packing.h"
#include "lib/hash.h"
#include "lib/xalloc.h"

/* ---- layout summaries -------------------------------------------------- */

/* A layout at depth reaches `depth` levels down (r->deepest: the height
 * of the layout under way, so a summary can say how deep it goes). */
static void reach(struct sf_reader *r, unsigned depth)
{
	if (depth > r->deepest)
		r->deepest = depth;
}

/*
 * A member holding a named aggregate by value needs three numbers of its
 * layout: its alignment, natural alignment and data size.  A new struct
 * of a unit holds the same `struct mutex` or `struct list_head` as the
 * last unit's: laying those out again, and all they hold, is half of the
 * members a vmlinux lays out.  So the reader keeps, per fingerprint (as
 * dedup.c keys a type, without a name), those three numbers of every
 * named C aggregate laid out in a unit that showed no packing evidence
 * and met no limit (rd_record_sums), and a member's type with a recorded
 * fingerprint takes them (TI_SUMMED) instead of being laid out.
 *
 * Why that is exact: a layout is a function of the DIEs the fingerprint
 * digests and of the marks of packing evidence on its read set
 * (dedup.c).  A summary is recorded from a unit with no mark at all, and
 * taken only in passes with none so far: the unit's first pass, until it
 * finds evidence - then the unit takes no more summaries, and starts over
 * from nothing if it took one (reader.c, report_tops).  Laying the type
 * out would have found no evidence either: its layout found none where
 * it was recorded, from the same DIEs, with no mark.  The limits: a
 * summary says how many levels of layouts its type's takes (its height,
 * r->deepest), and is taken only where laying it out would call no
 * rd_layout deeper than MAX_LAYOUT_DEPTH - SF_FP_MAX_DEPTH: there the
 * layout neither meets MAX_LAYOUT_DEPTH nor says `unclean`; a cycle and
 * corrupt DWARF have no fingerprint.
 */

/* The key of aggregate ti's summary (0), or -1 when it has none. */
static int sum_key(struct sf_reader *r, const struct tinfo *ti, struct sf_fp *key)
{
	struct uh *uh = ti->unit;
	struct sf_fp def;

	if (!r->fpc || r->only || !sf_lang_is_c(uh->cx.lang) ||
	    (ti->flags & (TI_ANON | TI_DECL | TI_PACKED | TI_UNSIZED)) ||
	    sf_fp_type(r->fpc, &uh->cx, rd_key_of(uh, 0), rd_off_of(ti), r->local_fp, NULL,
		       &def) < 0)
		return -1;
	*key = sf_fp_key(&def, "", NULL, 0, 0, uh->cx.lang, uh->cx.u->addr_size, uh->cx.f->msb,
			 r->elf->machine);
	return 0;
}

/* The slot of key in r->sums: its summary, or the empty slot for it. */
static struct lsum *sum_slot(const struct sf_reader *r, const struct sf_fp *key)
{
	size_t j = key->a & (r->sumcap - 1);

	while ((r->sums[j].key.a | r->sums[j].key.b) &&
	       (r->sums[j].key.a != key->a || r->sums[j].key.b != key->b))
		j = (j + 1) & (r->sumcap - 1);
	return &r->sums[j];
}

static void sum_put(struct sf_reader *r, const struct lsum *s)
{
	if ((r->nsums + 1) * 2 > r->sumcap) {
		struct lsum *old = r->sums;
		size_t oldcap = r->sumcap;
		r->sumcap = oldcap ? oldcap * 2 : 1024;
		r->sums = sf_xcalloc_table(r->sumcap, sizeof(*r->sums));
		for (size_t i = 0; i < oldcap; i++)
			if (old[i].key.a | old[i].key.b)
				*sum_slot(r, &old[i].key) = old[i];
		free(old);
	}
	struct lsum *slot = sum_slot(r, &s->key);
	r->nsums += !(slot->key.a | slot->key.b);
	*slot = *s;
}

/* Take aggregate ti's summary, when recorded and of use here. */
static int take_sum(struct sf_reader *r, struct tinfo *ti, unsigned depth)
{
	struct sf_fp key;

	if (!r->nsums || r->sum_off || (ti->flags & TI_LAYING) ||
	    depth > MAX_LAYOUT_DEPTH - SF_FP_MAX_DEPTH || sum_key(r, ti, &key) < 0)
		return 0;
	const struct lsum *s = sum_slot(r, &key);
	/* laying it out here would stay clear of the limits (no layout
	 * deeper than MAX_LAYOUT_DEPTH - SF_FP_MAX_DEPTH: rd_layout) */
	if (!(s->key.a | s->key.b) || depth + s->height > MAX_LAYOUT_DEPTH - SF_FP_MAX_DEPTH)
		return 0;
	reach(r, depth + s->height);
	assert(s->key.a == key.a && s->key.b == key.b);
	ti->align = s->align;
	ti->natural = s->natural;
	ti->dsize = s->dsize;
	ti->pad = s->pad;
	ti->height = (uint8_t)s->height;
	ti->flags |= TI_SUMMED;
	r->sum_used = 1;
	return 1;
}

/* The unit met no limit and no evidence: what its named C aggregates
 * laid out give a member holding them, by fingerprint. */
void rd_record_sums(struct sf_reader *r)
{
	struct lsum s;

	for (size_t j = 0; j < r->nlaid; j++) {
		struct tinfo *ti = r->laidv[j];
		if (!(ti->flags & TI_LAID) || (ti->flags & TI_WAITS) || sum_key(r, ti, &s.key) < 0)
			continue;
		assert(!(ti->flags & TI_PACKED));
		s.align = ti->align;
		s.natural = ti->natural;
		s.dsize = ti->dsize;
		s.height = ti->height;
		s.pad = ti->pad;
		sum_put(r, &s);
	}
}

/* ---- laying out aggregates --------------------------------------------- */

/* ti, an aggregate a member holds by value: laid out, or its summary
 * taken; 0 when it cannot be laid out. */
static int lay_held(struct sf_reader *r, struct tinfo *ti, unsigned depth)
{
	if (ti->flags & (TI_LAID | TI_SUMMED)) {
		reach(r, depth + ti->height);
		return 1;
	}
	return take_sum(r, ti, depth) || rd_layout(r, ti, depth) != NULL;
}

/* A member's alignment under the ABI (1 when unknown). */
static uint32_t align_of(struct sf_reader *r, struct tinfo *ti, unsigned depth)
{
	if (ti->align_attr)
		return ti->align_attr;
	if (ti->agg && !(ti->agg->flags & TI_DECL)) {
		if (!lay_held(r, ti->agg, depth + 1))
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
		if (!lay_held(r, ti->agg, depth + 1))
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
	SF_GROW(v->incn, v->n, v->incncap);
	SF_GROW(v->vbase_unplaced, v->n, v->vcap);
	SF_GROW(v->natural, v->n, v->natcap);
	SF_GROW(v->ty, v->n, v->tycap);
	memset(&v->m[v->n], 0, sizeof(v->m[0]));
	v->inc[v->n] = NULL;
	v->incn[v->n] = 1;
	v->vbase_unplaced[v->n] = 0;
	v->natural[v->n] = 1;
	v->ty[v->n] = NULL;
	return &v->m[v->n++];
}

void rd_mvec_free(struct mvec *v)
{
	free(v->m);
	free(v->inc);
	free(v->incn);
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

/* "const struct" of "const struct {...}": what goes before the body of
 * a (qualified) anonymous aggregate member. */
static const char *anon_keyword(struct sf_reader *r, const struct tinfo *mt)
{
	const char *brace = strstr(mt->left, " {...}");

	if (!brace || brace == mt->left || !strcmp(mt->left, mt->anon->left))
		return mt->anon->keyword;
	struct strbuf sb = STRBUF_INIT;
	sb_add(&sb, mt->left, (size_t)(brace - mt->left));
	const char *k = rd_icat(r, sb.buf, "", "");	/* by content */
	sb_release(&sb);
	return k;
}

/* The typedefs of a member's type, for pahole -E (model.h). */
static const struct sf_typedef_of *typedef_of(struct sf_reader *r, const struct tinfo *mt)
{
	struct sf_typedef_of *t;

	if (!mt->td)
		return NULL;
	t = rd_arena_alloc(&r->arena, sizeof(*t));
	t->chain = mt->td->chain;
	t->type_name = mt->td->uleft;
	t->type_suffix = mt->td->uright;
	t->enums = mt->td->uenum ? enumerators(r, mt->td->uenum) : NULL;
	return t;
}

static void set_type_of_member(struct sf_reader *r, struct sf_member *m, struct tinfo *mt,
			       struct mvec *v, unsigned depth)
{
	m->tclass = mt->tclass;
	m->tdef = typedef_of(r, mt);
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
		v->incn[v->n - 1] = mt->decl_count ? mt->decl_count : 1;
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
	if (mt->agg && !mt->anon && (mt->agg->flags & (TI_LAID | TI_SUMMED)) &&
	    mt->agg->kind != SF_KIND_UNION)
		sf_member_set_pad(m, mt->agg->pad);
	/* a class laid out here on a base only declared here (g++ writes a
	 * polymorphic class's definition only where its key function is)
	 * has the alignment of what it knows: 1 where the base holds the
	 * vptr.  The member is complete; its alignment and natural
	 * alignment are the definition's, found later by name */
	if (mt->agg && !mt->anon && !mt->align_attr && (mt->agg->flags & TI_WAITS) &&
	    *mt->agg->qname)
		v->inc[v->n - 1] = mt->agg->qname;
	if (mt->anon && !(mt->flags & TI_FLEX)) {
		struct xtype *x = rd_layout(r, mt->anon, depth + 1);
		if (x) {
			m->nested = sf_nested_clone(&x->t, m->offset, depth, MAX_LAYOUT_DEPTH,
						    arena_for_clone, &r->arena);
			m->type_name = anon_keyword(r, mt);
			m->type_suffix = (mt->flags & TI_ARRAY) ? mt->right : rd_empty(r);
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

	m->name = (c->name ? rd_isec(r, c->name) : rd_empty(r));
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
		v->nunplaced += !(c->has & SF_A_MEMBER_LOC);
	}
	set_type_of_member(r, m, bt, v, depth);
	m->tclass = SF_T_STRUCT;
	if (bt->agg && (bt->agg->flags & TI_EMPTY)) {
		m->size = 0;	/* empty base optimization */
		m->flags &= (uint16_t)~SF_MF_TYPE_PAD;	/* none of it is there */
	}
}

/* Member i's type's data size: a base's size without its own tail
 * padding, when its layout is known (C++ may put later data there). */
static uint64_t dsize_of(const struct tinfo *ty)
{
	return ty && ty->agg && (ty->agg->flags & (TI_LAID | TI_SUMMED)) ? ty->agg->dsize
									 : SF_DSIZE_UNKNOWN;
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
	r->nmarks++;
	SF_GROW(r->marked, r->nmarked, r->markcap);
	r->marked[r->nmarked++] = ti;
	if ((ti->flags & TI_LAID) && ti->model) {
		struct sf_type *t = &ti->model->t;
		t->flags |= SF_TF_PACKED;
		if (!ti->align_attr)
			t->align = 1;
		ti->align = t->align;
	}
}

/* What model/packing.c asks of the members' types (struct sf_packing_oracle):
 * ty[i] is member i's type. */
struct member_types {
	struct sf_reader *r;
	struct tinfo *const *ty;
	unsigned depth;
};

static uint32_t packing_witness(void *ctx, uint32_t i)
{
	const struct member_types *mt = ctx;
	const struct tinfo *a = mt->ty[i] ? mt->ty[i]->agg : NULL;

	if (!a || (mt->ty[i]->flags & TI_ARRAY) || !(a->flags & (TI_LAID | TI_SUMMED)) ||
	    a->align_attr)
		return 0;
	return a->natural;
}

static void packing_mark(void *ctx, uint32_t i)
{
	const struct member_types *mt = ctx;

	mark_packed(mt->r, mt->ty[i]->agg);
}

static uint32_t packing_align(void *ctx, uint32_t i)
{
	const struct member_types *mt = ctx;

	if (!mt->ty[i] || !mt->ty[i]->agg || !(mt->ty[i]->agg->flags & TI_PACKED))
		return 0;
	return align_of(mt->r, mt->ty[i], mt->depth);
}

/* The members' indices in memory order (virtual bases last), or NULL
 * when they already are (model/infer.h). */
static uint32_t *memory_order(struct sf_reader *r, const struct sf_member *m, size_t n)
{
	if (sf_in_memory_order(m, n))
		return NULL;
	uint32_t *a = rd_arena_alloc_raw(&r->arena, sizeof(*a) * n);
	uint32_t *b = rd_arena_alloc_raw(&r->arena, sizeof(*b) * n);
	return sf_memory_order(m, n, a, b);
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
		out->name = (c->name ? rd_isec(r, c->name) : rd_empty(r));
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

	vr->name = rd_empty(r);
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
	uint32_t *order = memory_order(r, vr->members, n);
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
		/* only the children read below are decoded: a class's member
		 * functions are most of its children (librados: 361 k of the
		 * 683 k names the decoder read) */
		if (rd_read_die_tags(r, uh, off, SF_FP_LAYOUT_TAGS, &c) < 0)
			return -1;
		if (c.tag == 0)
			break;
		if (v->n >= MAX_MEMBERS) {
			sf_error_at(r->err, uh->cx.f->label, 0, 0,
					"corrupt DWARF (more than %u members at 0x%llx)",
							MAX_MEMBERS, (unsigned long long)d->off);
			r->failed = 1;
			return -1;
		}
		/* static members: DW_AT_external/declaration (DWARF 4),
		 * DW_TAG_variable (DWARF 5) - not part of the layout, nor are
		 * functions or nested types: the children read here are
		 * exactly sf_fp_layout_child's (fingerprint.h), which the
		 * digest hashes (tested in that order: the common case first) */
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

/* The members of aggregate ti, read from its DIE *d into the member
 * vector of this depth (NULL: corrupt DWARF, the reader failed). */
static struct mvec *read_members(struct sf_reader *r, struct tinfo *ti, struct sf_die *d,
				 struct vlist *vl, unsigned depth)
{
	if (rd_read_die(r, ti->unit, rd_off_of(ti), d) < 0)
		return NULL;
	if (!r->mv)
		r->mv = sf_xcalloc(MAX_LAYOUT_DEPTH + 2, sizeof(*r->mv));
	/* deeper layouts use the vectors below this one: it stays put */
	struct mvec *v = &r->mv[depth];
	v->n = 0;
	v->nunplaced = 0;
	ti->flags |= TI_LAYING;
	int rc = collect_members(r, ti->unit, d, v, vl, depth);
	ti->flags &= ~TI_LAYING;
	return rc < 0 ? NULL : v;
}

/* A scratch model of aggregate ti (DIE d), no members yet. */
static struct xtype *new_model(struct sf_reader *r, const struct tinfo *ti,
			       const struct sf_die *d)
{
	struct xtype *x = rd_arena_alloc(&r->arena, sizeof(*x));
	struct sf_type *t = &x->t;
	struct uh *uh = ti->unit;

	x->unit = uh;
	x->file = (d->has & SF_A_DECL_FILE) ? d->decl_file : 0;
	x->forced = (ti->flags & TI_PACKED) != 0;
	t->name = ti->qname;
	t->kind = ti->kind;
	t->size = ti->size;
	t->decl_file = "";
	t->decl_line = d->decl_line;
	t->die_offset = rd_off_of(ti);
	t->unit_name = uh->cx.name ? uh->cx.name : "";
	t->addr_size = uh->cx.u->addr_size;
	if (sf_lang_is_cxx(uh->cx.lang))
		t->flags |= SF_TF_CXX;
	return x;
}

/* Per member: its type's data size when it is a base of known layout
 * (model/infer.h), or NULL when no member is a base. */
static uint64_t *base_dsizes(struct sf_reader *r, const struct sf_member *m,
			     struct tinfo *const *ty, size_t n)
{
	uint64_t *dsize = NULL;

	for (size_t i = 0; i < n; i++) {
		if (!(m[i].flags & SF_MF_BASE))
			continue;
		if (!dsize) {
			dsize = rd_arena_alloc_raw(&r->arena, sizeof(*dsize) * n);
			for (size_t k = 0; k < n; k++)
				dsize[k] = SF_DSIZE_UNKNOWN;
		}
		dsize[i] = dsize_of(ty[i]);
	}
	return dsize;
}

/*
 * The members of v into x, in memory order (rustc reorders fields, its
 * DWARF keeps the declaration's), virtual bases last, where the complete
 * object has them.  Returns each member's type, in that order.
 */
static struct tinfo **place_members(struct sf_reader *r, struct xtype *x, const struct mvec *v)
{
	struct sf_type *t = &x->t;
	size_t n = v->n;

	if (v->nunplaced)
		sf_place_virtual_bases(v->m, n, v->vbase_unplaced, base_dsizes(r, v->m, v->ty, n),
				       t->size);
	t->nmembers = (uint32_t)n;
	t->members = rd_arena_alloc_raw(&r->arena, sizeof(*t->members) * (n ? n : 1));
	x->natural = rd_arena_alloc_raw(&r->arena, sizeof(*x->natural) * (n ? n : 1));
	struct tinfo **ty = rd_arena_alloc_raw(&r->arena, sizeof(*ty) * (n ? n : 1));
	uint32_t *order = memory_order(r, v->m, n);
	for (size_t k = 0; k < n; k++) {
		size_t i = order ? order[k] : k;
		t->members[k] = v->m[i];
		x->natural[k] = v->natural[i];
		ty[k] = v->ty[i];
		if (v->inc[i]) {
			if (!x->inc) {
				x->inc = rd_arena_alloc(&r->arena, sizeof(*x->inc) * n);
				x->incn = rd_arena_alloc(&r->arena, sizeof(*x->incn) * n);
			}
			x->inc[k] = v->inc[i];
			x->incn[k] = v->incn[i];
		}
		if (i != k)
			t->flags |= SF_TF_REORDERED;
	}
	return ty;
}

/* What the DIEs leave out - the room of unknown members, packing and
 * alignment, data size - inferred by the model's pass (model/infer.h),
 * told what the DIEs say of the members' types. */
static void infer_layout(struct sf_reader *r, struct tinfo *ti, struct xtype *x,
			 struct tinfo *const *ty, unsigned depth, struct sf_inferred *got)
{
	struct member_types mt = { r, ty, depth };
	struct sf_packing_oracle o = {
		&mt, packing_witness, packing_mark, packing_align, 0
	};
	struct sf_infer_in in = {
		.natural = x->natural,
		.dsize = base_dsizes(r, x->t.members, ty, x->t.nmembers),
		.align_attr = ti->align_attr,
		.forced = x->forced,
		.incomplete = true,
		.oracle = &o,
	};

	sf_model_infer(&x->t, &in, got);
}

/* rustc states an alignment for every type: only one that differs from
 * the natural alignment was asked for (repr(align)). */
static void mark_rust(struct tinfo *ti, struct sf_type *t)
{
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

/* What a member of type ti needs of the layout x (and of what the pass
 * inferred of it, got): cached in ti. */
static void remember_layout(struct sf_reader *r, struct tinfo *ti, struct xtype *x,
			    const struct sf_inferred *got)
{
	const struct sf_type *t = &x->t;

	if (got->empty)
		ti->flags |= TI_EMPTY;
	ti->align = t->align;
	ti->natural = t->natural_align;
	ti->pad = sf_struct_pad(t);
	ti->dsize = got->dsize;
	ti->model = x;
	ti->flags |= TI_LAID;
	if (x->inc)
		ti->flags |= TI_WAITS;
	if (r->fpc && !r->sum_off) {	/* to record (rd_record_sums) */
		SF_GROW(r->laidv, r->nlaid, r->laidcap);
		r->laidv[r->nlaid++] = ti;
	}
}

/*
 * The layout of aggregate ti: its bases, data members and Rust variant
 * part read from its DIE, in memory order, with what the DIEs leave out
 * inferred - a scratch model in the unit's arena, cached in ti (TI_LAID)
 * with the alignment, natural alignment and data size a member of type
 * ti takes.  The members' aggregate types are laid out first, at
 * depth + 1.
 *
 * NULL when ti is no aggregate definition, is being laid out already (a
 * type holding itself), sits deeper than MAX_LAYOUT_DEPTH, or its DIEs
 * are corrupt (the reader has failed then).  The evidence of its members
 * may mark their types packed (r->repack): the types laid out before
 * took their old alignment, and the caller lays out again those that
 * read a marked type (report_tops, rd_unlay_marked).
 */
struct xtype *rd_layout(struct sf_reader *r, struct tinfo *ti, unsigned depth)
{
	struct sf_die d;
	struct vlist vl = { NULL, 0, 1 };

	if (!(ti->flags & TI_AGG) || (ti->flags & TI_DECL))
		return NULL;
	if (ti->flags & TI_LAID) {
		reach(r, depth + ti->height);
		return ti->model;
	}
	/* a cycle, or deep enough that a fingerprinted type's layout could
	 * meet the limit: this unit's layouts may depend on more than each
	 * type's own DIEs (reader.c, dedup) */
	if ((ti->flags & TI_LAYING) || depth > MAX_LAYOUT_DEPTH - SF_FP_MAX_DEPTH)
		r->unclean = 1;
	if ((ti->flags & TI_LAYING) || depth > MAX_LAYOUT_DEPTH || r->failed)
		return NULL;
	unsigned outer = r->deepest;
	r->deepest = depth;
	struct mvec *v = read_members(r, ti, &d, &vl, depth);
	if (!v) {
		reach(r, outer);
		return NULL;
	}
	struct xtype *x = new_model(r, ti, &d);
	struct tinfo **ty = place_members(r, x, v);
	struct sf_inferred got;
	infer_layout(r, ti, x, ty, depth, &got);
	if (vl.n)
		set_variants(&x->t, &vl);
	if (ti->unit->cx.lang == DW_LANG_Rust)
		mark_rust(ti, &x->t);
	/* a layout cached from a shallower place may hold a deeper tree:
	 * the height saturates (a summary of it is then taken nowhere) */
	assert(r->deepest >= depth);
	ti->height = r->deepest - depth > UINT8_MAX ? UINT8_MAX : (uint8_t)(r->deepest - depth);
	reach(r, outer);
	remember_layout(r, ti, x, &got);
	return x;
}

/* The tinfo of the unit read now in slot j of the map, or NULL. */
static struct tinfo *unit_ti(const struct sf_reader *r, size_t j)
{
	return r->map[j].gen == r->gen ? r->map[j].ti : NULL;
}

/* Forget ti's layout (it is laid out again when next asked). */
static void forget_layout(struct tinfo *ti)
{
	ti->flags &= ~(TI_LAID | TI_WAITS);
	ti->model = NULL;
}

/* Forget every layout of the unit, and what was found packed: the unit
 * starts over from nothing. */
void rd_unlay_all(struct sf_reader *r)
{
	r->nmarked = 0;
	for (size_t j = 0; j < r->mapcap; j++) {
		struct tinfo *ti = unit_ti(r, j);
		if (!ti)
			continue;
		if (ti->flags & TI_LAID)
			forget_layout(ti);
		ti->flags &= ~(TI_SUMMED | TI_PACKED);
	}
}

static int reads_packed(struct sf_reader *r, const struct tinfo *ti, unsigned depth);

/*
 * Forget the layouts whose read set holds a type marked packed (below),
 * the marks kept: laid out again they take the marks in, and the others
 * would come out as they are (a layout is a function of its DIEs and of
 * the marks on its read set: dedup.c).  Every big C++ unit of librados
 * found evidence in its first pass and laid out all its types a second
 * time, its scratch models twice (10.8 k models; now 155).  The tinfos
 * are listed first: an answer may resolve a type, and the map grow.
 */
void rd_unlay_marked(struct sf_reader *r)
{
	struct tinfo **laid = NULL;
	size_t n = 0, cap = 0;

	rd_reads_forget(r);	/* marks came since the last answers */
	for (size_t j = 0; j < r->mapcap; j++) {
		struct tinfo *ti = unit_ti(r, j);
		if (ti)
			ti->flags &= ~TI_SUMMED;
		if (ti && (ti->flags & TI_LAID)) {
			SF_GROW(laid, n, cap);
			laid[n++] = ti;
		}
	}
	for (size_t i = 0; i < n; i++)
		if (reads_packed(r, laid[i], 0))
			forget_layout(laid[i]);
	free(laid);
}

/* ---- what a layout reads: packing evidence and dedup ------------------- */

/*
 * dedup.c re-lays out, of a unit whose types are being skipped, only the
 * types whose layout the packing evidence can change: those whose layout
 * reads a type marked packed.  What rd_layout(ti) reads is ti's DIEs and
 * the layouts of the aggregates it calls rd_layout() on - its members',
 * bases' and variant fields' types held by value (agg: through typedefs,
 * qualifiers, arrays), an anonymous aggregate shown nested (anon), an
 * anonymous aggregate pointed to (pointee) - transitively: the type's
 * "read set".  rd_reads_packed() answers whether the read set holds a
 * TI_PACKED type, following every member's type through those three
 * links (a superset of the calls rd_layout makes: it asks align_of only
 * of types without an alignment attribute, for instance), kept per DIE
 * (r->rp: a type need not be resolved for it) until rd_reads_forget().
 * Where the answer cannot
 * be had cheaply and surely - a cycle, the depth limit, a DIE that cannot
 * be read - it is yes: a type laid out for nothing costs time, a type
 * skipped wrongly a wrong report.
 */

static int agg_reads_packed(struct sf_reader *r, struct uh *uh, uint64_t off, unsigned depth);

/* The same of an aggregate tinfo (or none: not laid out). */
static int reads_packed(struct sf_reader *r, const struct tinfo *ti, unsigned depth)
{
	if (!(ti->flags & TI_AGG) || (ti->flags & TI_DECL))
		return 0;	/* rd_layout reads nothing of it */
	return agg_reads_packed(r, ti->unit, rd_off_of(ti), depth);
}

/* Whether a member of type mt reads a type marked packed. */
static int member_reads_packed(struct sf_reader *r, const struct tinfo *mt, unsigned depth)
{
	return (mt->agg && reads_packed(r, mt->agg, depth + 1)) ||
	       (mt->anon && reads_packed(r, mt->anon, depth + 1)) ||
	       (mt->pointee && reads_packed(r, mt->pointee, depth + 1));
}

/* Whether pointer DIE d (of unit uh) points to an anonymous aggregate
 * (what the member shows: types.c, pointer_type) that reads a type marked
 * packed.  A named or non-aggregate target is not laid out for it. */
static int pointee_reads_packed(struct sf_reader *r, struct uh *uh, const struct sf_die *d,
				unsigned depth)
{
	struct sf_die t;

	if (!(d->has & SF_A_TYPE))
		return 0;
	struct uh *to = d->has & (SF_A_SIG8 | SF_A_ALT) ? NULL : rd_ref_unit(r, uh, d, d->type, 0);
	struct tinfo *ti = to ? rd_cached(r, to, d->type) : NULL;
	if (to && !ti) {
		if (rd_read_die(r, to, d->type, &t) < 0)
			return 1;
		if (!(t.has & SF_A_SIGNATURE) &&
		    ((t.tag != DW_TAG_structure_type && t.tag != DW_TAG_class_type &&
		      t.tag != DW_TAG_union_type && t.tag != DW_TAG_interface_type) || t.name))
			return 0;
	}
	if (!ti)	/* what types.c makes of it, then */
		return member_reads_packed(r, rd_resolve(r, uh, d->off, 0), depth);
	return (ti->flags & TI_ANON) && reads_packed(r, ti, depth + 1);
}

/*
 * Whether the type DW_AT_type of DIE c names reads a type marked packed,
 * for a member of that type.  Resolving it (types.c) would spell every
 * pointer, typedef and struct on the way, which nothing here needs: a
 * type not resolved yet is followed by its DIEs instead - through
 * typedefs, qualifiers and arrays to the aggregate a member of it lays
 * out, and from a pointer to the anonymous aggregate it shows - taking
 * each link rd_resolve() passes on as agg, anon or pointee, and more (a
 * typedef of a pointer to an anonymous struct has no pointee: followed
 * all the same).  What is not plain (type units, the dwz alt file) is
 * resolved.
 */
static int type_reads_packed(struct sf_reader *r, struct uh *uh, const struct sf_die *c,
			     unsigned depth, unsigned chain)
{
	struct sf_die d;

	if (!(c->has & SF_A_TYPE))
		return 0;	/* void */
	if (c->has & (SF_A_SIG8 | SF_A_ALT) || chain > MAX_RESOLVE_DEPTH)
		return member_reads_packed(r, rd_resolve_ref(r, uh, c, 0), depth);
	struct uh *to = rd_ref_unit(r, uh, c, c->type, 0);
	if (!to)
		return 1;
	struct tinfo *ti = rd_cached(r, to, c->type);
	if (ti)
		return member_reads_packed(r, ti, depth);
	if (rd_read_die(r, to, c->type, &d) < 0)
		return 1;
	if (d.has & SF_A_SIGNATURE)
		return member_reads_packed(r, rd_resolve_ref(r, uh, c, 0), depth);
	switch (d.tag) {
	case DW_TAG_structure_type: case DW_TAG_class_type:
	case DW_TAG_union_type: case DW_TAG_interface_type:
		return agg_reads_packed(r, to, c->type, depth + 1);
	case DW_TAG_typedef: case DW_TAG_const_type: case DW_TAG_volatile_type:
	case DW_TAG_restrict_type: case DW_TAG_atomic_type: case DW_TAG_array_type:
		return type_reads_packed(r, to, &d, depth, chain + 1);
	case DW_TAG_pointer_type: case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type:
		/* the pointee shown is the anonymous aggregate pointed to */
		return pointee_reads_packed(r, to, &d, depth);
	default:
		return 0;	/* no aggregate laid out for it (types.c, fill_ti) */
	}
}

/* Whether the children of DIE d - members and bases; below a variant
 * part (nest > 0), its discriminant and its variants' members - read a
 * type marked packed. */
static int children_read_packed(struct sf_reader *r, struct uh *uh, const struct sf_die *d,
				unsigned depth, unsigned nest)
{
	struct sf_die c;
	uint64_t off = d->next;

	while (d->children) {
		/* as collect_members: the member functions only stepped over */
		if (rd_read_die_tags(r, uh, off, SF_FP_LAYOUT_TAGS | (1ull << DW_TAG_variant), &c) < 0)
			return 1;
		if (c.tag == 0)
			return 0;
		int field = c.tag == DW_TAG_inheritance ||
			    (c.tag == DW_TAG_member &&
			     (nest || !(c.has & (SF_A_EXTERNAL | SF_A_DECLARATION))));
		if (field && type_reads_packed(r, uh, &c, depth, 0))
			return 1;
		if ((c.tag == DW_TAG_variant_part || (nest && c.tag == DW_TAG_variant)) &&
		    (nest > 1 || children_read_packed(r, uh, &c, depth, nest + 1)))
			return 1;
		if (r->failed || rd_skip_die(r, uh, &c, &off) < 0)
			return 1;
	}
	return 0;
}

/* The answer slot of the DIE key (made, state 0, when missing; valid
 * until the next call). */
static struct rpslot *rp_slot(struct sf_reader *r, uint64_t key)
{
	if ((r->rpcount + 1) * 2 > r->rpcap) {
		struct rpslot *old = r->rp;
		size_t oldcap = r->rpcap;
		r->rpcap = oldcap ? oldcap * 2 : 1024;
		r->rp = sf_xcalloc(r->rpcap, sizeof(*r->rp));
		for (size_t i = 0; i < oldcap; i++) {
			if (old[i].gen != r->rpgen)
				continue;
			size_t j = sf_offset_slot(old[i].key) & (r->rpcap - 1);
			while (r->rp[j].gen == r->rpgen)
				j = (j + 1) & (r->rpcap - 1);
			r->rp[j] = old[i];
		}
		free(old);
	}
	size_t j = sf_offset_slot(key) & (r->rpcap - 1);
	for (; r->rp[j].gen == r->rpgen; j = (j + 1) & (r->rpcap - 1))
		if (r->rp[j].key == key)
			return &r->rp[j];
	r->rp[j] = (struct rpslot){ key, r->rpgen, RP_NONE };
	r->rpcount++;
	return &r->rp[j];
}

/* With r->rp_hok, whether the aggregate DIE at off of unit uh has the
 * fingerprint of a type marked packed (or none: then maybe). */
static int has_marked_fp(struct sf_reader *r, struct uh *uh, uint64_t off)
{
	struct sf_fp def;

	if (!r->rp_hok)
		return 0;
	if (!sf_lang_is_c(uh->cx.lang) ||
	    sf_fp_type(r->fpc, &uh->cx, rd_key_of(uh, 0), off, r->local_fp, NULL, &def) < 0)
		return 1;
	for (size_t i = 0; i < r->nrp_digs; i++)
		if (r->rp_digs[i].a == def.a && r->rp_digs[i].b == def.b)
			return 1;
	return 0;
}

/* Whether the aggregate DIE at off of unit uh (resolved or not: marks
 * are on resolved ones) reads a type marked packed; answers by DIE. */
static int agg_reads_packed(struct sf_reader *r, struct uh *uh, uint64_t off, unsigned depth)
{
	struct tinfo *ti = rd_cached(r, uh, off);
	struct sf_die d;

	if (ti && (!(ti->flags & TI_AGG) || (ti->flags & TI_DECL)))
		return 0;
	if (ti && (ti->flags & TI_PACKED))
		return 1;
	if (ti) {	/* a type unit's, for a declaration */
		uh = ti->unit;
		off = rd_off_of(ti);
	}
	if (depth > MAX_LAYOUT_DEPTH)
		return 1;
	uint64_t key = rd_key_of(uh, off);
	struct rpslot *s = rp_slot(r, key);
	if (s->state != RP_NONE)
		return s->state != RP_NO;	/* busy (a cycle): yes */
	s->state = RP_BUSY;
	int yes;
	if (rd_read_die(r, uh, off, &d) < 0 || has_marked_fp(r, uh, off))
		yes = 1;
	else if (!ti && (d.has & SF_A_SIGNATURE))
		yes = reads_packed(r, rd_resolve(r, uh, off, 0), depth);
	else if (!ti && (d.has & SF_A_DECLARATION) && !(d.has & SF_A_BYTE_SIZE))
		yes = 0;	/* TI_DECL: not laid out */
	else
		yes = children_read_packed(r, uh, &d, depth, 0);
	rp_slot(r, key)->state = yes ? RP_YES : RP_NO;
	return yes;
}

int rd_reads_packed(struct sf_reader *r, struct uh *uh, uint64_t off)
{
	return agg_reads_packed(r, uh, off, 0);
}

static int fp_cmp(const void *a, const void *b)
{
	const struct sf_fp *x = a, *y = b;

	if (x->a != y->a)
		return x->a < y->a ? -1 : 1;
	return (x->b > y->b) - (x->b < y->b);
}

/* rp_digs and rp_h: the fingerprints of the types marked packed, when
 * they all have one (a C unit's, dedup on). */
static void marked_fps(struct sf_reader *r)
{
	r->nrp_digs = 0;
	r->rp_hok = r->fpc != NULL;
	for (size_t i = 0; i < r->nmarked && r->rp_hok; i++) {
		struct tinfo *ti = r->marked[i];
		struct uh *uh = ti->unit;
		SF_GROW(r->rp_digs, r->nrp_digs, r->rp_digcap);
		r->rp_hok = sf_lang_is_c(uh->cx.lang) &&
			    sf_fp_type(r->fpc, &uh->cx, rd_key_of(uh, 0), rd_off_of(ti),
				       r->local_fp, NULL, &r->rp_digs[r->nrp_digs++]) == 0;
	}
	if (!r->rp_hok)
		return;
	qsort(r->rp_digs, r->nrp_digs, sizeof(*r->rp_digs), fp_cmp);
	struct sf_fp h = { 0x243f6a8885a308d3ull, 0x13198a2e03707344ull };
	for (size_t i = 0; i < r->nrp_digs; i++) {
		h.a = sf_mix64(sf_mix64(h.a ^ r->rp_digs[i].a) + r->rp_digs[i].b);
		h.b = sf_mix64(sf_mix64(h.b + r->rp_digs[i].b) ^ r->rp_digs[i].a);
	}
	r->rp_h = h;
}

void rd_reads_forget(struct sf_reader *r)
{
	if (r->rpcount && r->rp_marks == r->nmarks)
		return;	/* no mark since: the answers stand */
	r->rp_marks = r->nmarks;
	marked_fps(r);
	r->rpcount = 0;
	if (++r->rpgen == 0) {	/* wrapped: stale slots could look current */
		memset(r->rp, 0, r->rpcap * sizeof(*r->rp));
		r->rpgen = 1;
	}
}
