/*
 * packing.c - a type's alignment and packing, inferred from its members.
 *
 * Neither DWARF nor BTF says "packed", and BTF gives no alignment at all:
 * once a loader (dwarf/members.c, btf/loader.c) has placed a type's
 * members, the model's pass (infer.c, sf_model_infer) asks here what its
 * alignment is and whether it is packed, by the rules pahole uses, so the
 * two inputs agree on the same type:
 *
 *   sf_settle_packing       the type's own evidence (its members' offsets,
 *                           its size, DW_AT_alignment)
 *   sf_infer_packing        that, plus the evidence it gives about the
 *                           types it holds (a struct at an offset only a
 *                           packed struct can have); the loader keeps
 *                           the types and marks them, through an oracle
 *   sf_infer_aligned_attrs  the aligned attributes BTF drops
 *
 * Whether a type has gaps is the walk layout/holes.c reports from too
 * (gaps.c).  Pure C over the model.
 */
#include "packing.h"

#include <assert.h>

#include "abi.h"
#include "gaps.h"

uint32_t sf_struct_pad(const struct sf_type *t)
{
	if (t->kind == SF_KIND_UNION)
		return 0;
	/* walked as a struct even with variants, as pahole's note took it */
	struct sf_type s = *t;
	struct sf_gaps g;

	s.nvariants = 0;
	sf_gaps_find(&s, 0, false, &g);
	uint64_t pad = g.padding;
	return pad > UINT32_MAX ? UINT32_MAX : (uint32_t)pad;
}

void sf_member_set_pad(struct sf_member *m, uint32_t pad)
{
	/* an array of structs is an array to pahole: no note, nothing
	 * kept (its element may be known in one unit, not in another) */
	if (m->type_suffix && *m->type_suffix)
		return;
	m->type_pad = pad;
	m->flags |= SF_MF_TYPE_PAD;
}

void sf_member_take_pad(struct sf_member *m, const struct sf_type *t)
{
	m->flags &= (uint16_t)~SF_MF_TYPE_PAD;
	m->type_pad = 0;
	if (t && t->kind != SF_KIND_UNION)
		sf_member_set_pad(m, sf_struct_pad(t));
}

/*
 * Alignment, packing and completeness of a type from its members.
 *
 * DWARF does not say "packed"; the rule is pahole's (dwarves.c,
 * class__infer_packed_attributes), so that the flag reads as pahole's
 * __attribute__((__packed__)): a struct with no byte holes and no
 * padding is packed when a member sits at an offset its type's natural
 * alignment does not divide, when DW_AT_alignment is 1 although a member
 * wants more, or when its size is no multiple of the largest natural
 * alignment.  A union is packed when its size is no multiple of its
 * members' alignment (impossible otherwise); `forced` when a container
 * showed it (mark_packed).  A packed type aligns to 1, as the compiler
 * has it, unless DW_AT_alignment says otherwise; any other type to its
 * most aligned member, whose alignment is the member type's own (1 for a
 * packed struct) - and no more than its offset allows, for a member with
 * the packed attribute of its own in a struct that is not packed.
 *
 * natural[i] is member i's type's natural alignment (the DWARF reader's
 * natural_of).
 */
void sf_settle_packing(struct sf_type *t, const uint32_t *natural, uint32_t align_attr, int forced)
{
	uint32_t maxa = 1, maxn = 1;
	int packed = forced, unaligned = 0;

	t->flags &= (uint16_t)~(SF_TF_PACKED | SF_TF_INCOMPLETE);
	for (uint32_t i = 0; i < t->nmembers; i++) {
		const struct sf_member *m = &t->members[i];
		if (m->flags & SF_MF_INCOMPLETE)
			t->flags |= SF_TF_INCOMPLETE;
		if (m->nested && !(m->flags & SF_MF_POINTEE) &&
		    (m->nested->flags & SF_TF_INCOMPLETE))
			t->flags |= SF_TF_INCOMPLETE;
		/* pahole leaves virtual bases out; incomplete ones are unknown */
		if (m->flags & (SF_MF_INCOMPLETE | SF_MF_VIRTUAL_BASE))
			continue;
		uint32_t n = natural[i] ? natural[i] : 1;
		if (n > maxn)
			maxn = n;
		if (!sf_member_is_bitfield(m) && n > 1 && m->offset % n)
			unaligned = 1;
	}
	t->natural_align = maxn;
	if (!packed && t->kind != SF_KIND_UNION)
		packed = (unaligned || (maxn > 1 && align_attr == 1) || t->size % maxn) &&
			 !sf_type_has_gaps(t);
	for (uint32_t i = 0; i < t->nmembers; i++) {
		struct sf_member *m = &t->members[i];
		if (!packed && t->kind != SF_KIND_UNION && !sf_member_is_bitfield(m) &&
		    m->size && m->align > 1 && m->offset % m->align &&
		    !(m->flags & (SF_MF_INCOMPLETE | SF_MF_VIRTUAL_BASE | SF_MF_ALIGNED)))
			m->align = sf_pow2_divisor(m->offset, m->align);
		if (m->align > maxa)
			maxa = m->align;
	}
	if (!packed && t->kind == SF_KIND_UNION)
		packed = t->size % maxa != 0;
	t->align = packed ? 1 : maxa;
	if (packed)
		t->flags |= SF_TF_PACKED;
	if (align_attr) {
		t->align = align_attr;
		t->flags |= SF_TF_ALIGNED;
	}
}

/* Whether t's layout can show what its members' types are: not where
 * t is packed itself, nor where an aligned attribute is in play. */
static int shows_member_packing(const struct sf_type *t, int aligned_hidden)
{
	if ((t->kind != SF_KIND_UNION && (t->flags & SF_TF_PACKED)) ||
	    (t->flags & SF_TF_ALIGNED))
		return 0;
	/* an aligned attribute makes holes and padding in a packed struct
	 * too: where the input cannot say which struct has one, a struct
	 * with gaps (sctp_paddrparams: packed, aligned(4), 1 byte of
	 * padding) proves nothing about what it holds */
	if (aligned_hidden && t->kind != SF_KIND_UNION && sf_type_has_gaps(t))
		return 0;
	for (uint32_t i = 0; i < t->nmembers; i++)
		if (t->members[i].flags & SF_MF_ALIGNED)
			return 0;
	return 1;
}

/*
 * pahole's type__check_structs_at_unnatural_alignments and
 * union__infer_packed_attributes: a struct that is not packed, yet holds
 * a struct or union at an offset that type's natural alignment does not
 * divide - or a union whose size it does not divide - shows that type is
 * packed, though its own layout may look natural (packed_inner on
 * ILP32: size 8, members aligned, at offset 1 in holds_packed).
 * Returns whether a member's alignment changed.
 */
static int find_packed_members(struct sf_type *t, const struct sf_packing_oracle *o)
{
	int changed = 0;

	if (!shows_member_packing(t, o->aligned_hidden))
		return 0;
	for (uint32_t i = 0; i < t->nmembers; i++) {
		const struct sf_member *m = &t->members[i];
		if (sf_member_is_bitfield(m) || (m->flags & (SF_MF_INCOMPLETE | SF_MF_VIRTUAL_BASE)))
			continue;
		uint32_t natural = o->witness(o->ctx, i);
		uint64_t where = t->kind == SF_KIND_UNION ? t->size : m->offset;
		if (natural > 1 && where % natural)
			o->mark_packed(o->ctx, i);
	}
	for (uint32_t i = 0; i < t->nmembers; i++) {
		struct sf_member *m = &t->members[i];
		if (m->flags & (SF_MF_ALIGNED | SF_MF_INCOMPLETE))
			continue;
		uint32_t a = o->packed_align(o->ctx, i);
		if (a && a != m->align) {
			m->align = a;
			changed = 1;
		}
	}
	return changed;
}

void sf_infer_packing(struct sf_type *t, const uint32_t *natural, uint32_t align_attr,
		      int forced, const struct sf_packing_oracle *o)
{
	sf_settle_packing(t, natural, align_attr, forced);
	if (o && find_packed_members(t, o))
		sf_settle_packing(t, natural, align_attr, forced);
}

/*
 * pahole's guess (btf_loader.c, class__infer_alignment) at an aligned
 * attribute BTF cannot carry: a member at an even offset further from
 * the end of the one before than its natural alignment explains had its
 * alignment raised - to the power of two above that distance, or to the
 * cacheline when it sits on one.  The type's own size is read the same
 * way against the end of its last member.  0: nothing to infer.
 */
static uint32_t infer_alignment(uint64_t offset, uint32_t natural, uint64_t end_before,
				uint32_t cacheline)
{
	if (offset <= end_before || offset % 2 || offset - end_before >= (1u << 31))
		return 0;
	uint32_t delta = (uint32_t)(offset - end_before);
	uint64_t a = 1;
	while (a <= delta)
		a <<= 1;
	if (a <= natural)
		return 0;
	if (a < cacheline && cacheline % a == 0 && offset % cacheline == 0)
		a = cacheline;
	return (uint32_t)a;
}

uint32_t sf_infer_aligned_attrs(struct sf_type *t, const uint32_t *natural, uint32_t cacheline)
{
	uint64_t end = 0;
	uint32_t maxn = 1;

	assert(cacheline > 0);
	for (uint32_t i = 0; i < t->nmembers; i++) {
		struct sf_member *m = &t->members[i];
		if (natural[i] > maxn)
			maxn = natural[i];
		if (m->flags & SF_MF_INCOMPLETE)
			continue;
		uint32_t a = infer_alignment(m->offset, natural[i], end, cacheline);
		if (!m->size) {
			/* pahole skips an empty member (struct sched_statistics
			 * without CONFIG_SCHEDSTATS, ____cacheline_aligned) and
			 * gives the attribute to the next one; its own alignment
			 * is kept unflagged, so the layout reads as the C rules
			 * place it (suggest, fit) and the text stays pahole's */
			if (a > m->align)
				m->align = a;
			continue;
		}
		if (a) {
			m->align = a;
			m->flags |= SF_MF_ALIGNED;
		}
		end = m->offset + m->size;
	}
	return infer_alignment(t->size, maxn, end, cacheline);
}
