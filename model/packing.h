/*
 * packing.h - alignment and packing of a laid-out type, inferred from
 * its members and from the containers that hold it (see packing.c).
 * The loaders reach these through the pass (infer.h, sf_model_infer); a
 * loader implements struct sf_packing_oracle, the pass's questions about
 * the types a type holds.
 */
#ifndef SF_PACKING_H
#define SF_PACKING_H

#include <stdint.h>

#include "model.h"

/*
 * Set t->align, t->natural_align and the SF_TF_PACKED, SF_TF_ALIGNED and
 * SF_TF_INCOMPLETE flags of t from its members.  natural[i] is member
 * i's type's natural alignment; align_attr the alignment the input gives
 * the type (0 if none); `forced` that a container showed it is packed.
 */
/* Member m holds a t by value (t laid out, or NULL: unknown): note t's
 * tail padding in m (SF_MF_TYPE_PAD), a struct's only. */
void sf_member_take_pad(struct sf_member *m, const struct sf_type *t);

/* The tail padding of struct t as a member notes it (0 for a union). */
uint32_t sf_struct_pad(const struct sf_type *t);

/* Member m holds a struct whose tail padding is pad (a loader's summary). */
void sf_member_set_pad(struct sf_member *m, uint32_t pad);

void sf_settle_packing(struct sf_type *t, const uint32_t *natural, uint32_t align_attr,
		       int forced);

/*
 * What the packing evidence needs to know of a member's type, from the
 * loader that holds it (ctx).  i indexes t->members.
 */
struct sf_packing_oracle {
	void *ctx;
	/* When member i's type is a struct or union (not an array of one)
	 * that is laid out and has no aligned attribute - where a container
	 * puts it can show it packed - its natural alignment; else 0. */
	uint32_t (*witness)(void *ctx, uint32_t i);
	/* A container showed member i's type packed: mark it so. */
	void (*mark_packed)(void *ctx, uint32_t i);
	/* Member i's type's alignment when that type is packed (marked by
	 * now, here or before), 0 when it is not. */
	uint32_t (*packed_align)(void *ctx, uint32_t i);
	/* The input may drop aligned attributes (BTF): a gap in a struct
	 * then proves nothing about what it holds. */
	int aligned_hidden;
};

/*
 * sf_settle_packing, then the evidence of t's members: a member type at
 * an offset only a packed type can have is marked packed (o->mark_packed),
 * and members whose type is packed take its alignment - t is settled
 * again when one changed.  o NULL: no evidence, settle only.
 */
void sf_infer_packing(struct sf_type *t, const uint32_t *natural, uint32_t align_attr,
		      int forced, const struct sf_packing_oracle *o);

/*
 * pahole's guess at the aligned attributes an input without them (BTF)
 * dropped: members' are set and flagged SF_MF_ALIGNED, the type's is
 * returned (0 for none).  natural[i] as for sf_settle_packing; cacheline
 * the one pahole assumes (64).
 */
uint32_t sf_infer_aligned_attrs(struct sf_type *t, const uint32_t *natural, uint32_t cacheline);

#endif
