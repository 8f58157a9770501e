/*
 * packing.c - a type's alignment and packing, inferred from its members.
 *
 * Neither DWARF nor BTF says "packed", and BTF gives no alignment at all:
 * both loaders (dwarf/members.c, btf/loader.c) lay out a type's members
 * and then ask here what its alignment is and whether it is packed, by
 * the rule pahole uses, so the two inputs agree on the same type.
 * Pure C over the model.
 */
#include "packing.h"

#include "holes.h"

/* The largest power of two dividing x (x > 0), at most cap. */
static uint32_t pow2_dividing(uint64_t x, uint32_t cap)
{
	uint64_t a = x & (~x + 1);

	return a > cap ? cap : (uint32_t)a;
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
			 !sf_layout_has_gaps(t);
	for (uint32_t i = 0; i < t->nmembers; i++) {
		struct sf_member *m = &t->members[i];
		if (!packed && t->kind != SF_KIND_UNION && !sf_member_is_bitfield(m) &&
		    m->size && m->align > 1 && m->offset % m->align &&
		    !(m->flags & (SF_MF_INCOMPLETE | SF_MF_VIRTUAL_BASE | SF_MF_ALIGNED)))
			m->align = pow2_dividing(m->offset, m->align);
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
