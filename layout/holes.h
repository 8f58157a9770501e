/*
 * holes.h - where a layout wastes bytes: holes, bit holes, padding.
 *
 * sf_layout_compute() records every gap the compiler left in a type -
 * byte holes between members, bit holes inside a bit-field storage unit,
 * trailing padding (bytes and bits), as the model's walk finds them
 * (model/gaps.h: the same walk packing inference asks) - and the summary
 * pahole prints under a struct.  Unions have no holes, only padding when
 * their size exceeds the largest member.
 *
 * The arrays in struct sf_layout are malloc'ed; sf_layout_release() frees
 * them.  Hole offsets are bytes from the start of the outermost type (the
 * model's member offsets are absolute, nested anonymous members included).
 *
 *   struct sf_layout
 *   +---------------------+  holes[nholes]         sorted by offset, each
 *   | summary numbers     |  bit_holes[nbit_holes]  tagged with the index of
 *   | holes ------------------> ...                 the member it follows
 *   | bit_holes ------------->  ...                 (SF_NO_MEMBER: before
 *   | paddings -------------->  {member, padding}   the first member)
 *   | nested ---------------->  {member, sf_layout*} one per anonymous
 *   +---------------------+                          struct/union member,
 *                                                    recursively
 *
 * Counting follows pahole 1.24 (dwarves.c class__find_holes and
 * dwarves_fprintf.c __class__fprintf), so `show` can print what pahole
 * prints:
 *   - `members` counts the type's direct members: a nested anonymous
 *     struct/union is one member, a C++ base is one member, a bit-field is
 *     one member.
 *   - `sum_members` adds the byte size of every member that is not a
 *     bit-field (a nested anonymous struct/union counts with its whole
 *     size); bit-fields go to `sum_bitfield_bits`.  So for a struct,
 *       8*size == 8*sum_members + sum_bitfield_bits + 8*sum_holes
 *                 + sum_bit_holes + 8*padding + bit_padding
 *     unless `irregular` is set.
 *   - Where structfit differs on purpose: pahole leaves C++ bases out of
 *     "sum members" (and then prints "BRAIN FART ALERT"); here a base counts
 *     like any member.  Members that overlap earlier ones (an empty base at
 *     the offset of the next member) count only the bytes no earlier member
 *     covered, and never make a negative hole (pahole prints 65528).
 *     Virtual bases are walked like any member, at the end where the
 *     model puts them (pahole cannot place them and skips them, taking
 *     their bytes for padding).
 *   - A member pointing to an anonymous struct/union (SF_MF_POINTEE) gets
 *     a nested layout of the pointed-to type, from offset 0, for the text
 *     renderer; its holes are not this type's.
 *   - Unions: no holes.  `sum_members` is the size of the largest member
 *     and `padding` what the union has beyond it (pahole prints neither).
 */
#ifndef SF_HOLES_H
#define SF_HOLES_H

#include <stdbool.h>
#include <stdint.h>

#include "model/gaps.h"
#include "model/model.h"

struct sf_member_padding {
	uint32_t member;       /* index of a member whose type is a struct */
	uint64_t padding;      /* that struct's trailing padding (bytes) */
};

struct sf_nested_layout;

struct sf_layout {
	uint64_t size;
	uint32_t align;
	uint32_t members;          /* top-level members, as pahole counts them */
	uint64_t sum_members;      /* bytes, as pahole's "sum members" */
	uint32_t nholes;
	uint64_t sum_holes;
	uint64_t sum_bitfield_bits;
	uint32_t nbit_holes;
	uint64_t sum_bit_holes;
	uint64_t padding;          /* trailing bytes */
	uint32_t bit_padding;      /* trailing bits of the last bit-field unit */
	uint32_t cacheline;        /* the cacheline size used */
	uint64_t cachelines;
	uint64_t last_cacheline;   /* bytes in the last cacheline, 0 if full */
	struct sf_hole *holes;
	struct sf_bit_hole *bit_holes;

	/* pahole's "XXX last struct has N bytes of padding" / "paddings:" */
	uint32_t npaddings;
	uint64_t sum_paddings;
	struct sf_member_padding *paddings;
	/* pahole's "forced alignments:" (members with SF_MF_ALIGNED) */
	uint32_t nforced_alignments;
	uint32_t nforced_holes;
	uint64_t sum_forced_holes;
	/* trailing padding there only because the type's alignment was
	 * asked for (aligned(64), _Alignas, #[repr(align)]): what the size
	 * is beyond the data rounded up to the members' own alignment */
	uint64_t forced_padding;
	/* layouts of nested anonymous struct/union members, in member order */
	uint32_t nnested;
	struct sf_nested_layout *nested;
	/* an enum with data (t->nvariants > 0): each variant as the struct it
	 * is in memory (sf_variant_type) with its own layout, same cacheline;
	 * renderers show them and never lay them out themselves */
	uint32_t nvariants;
	struct sf_variant_layout *variants;
	uint64_t base;             /* offset of this type in the outermost one */
	bool irregular;            /* overlaps or members past the end seen */
};

struct sf_nested_layout {
	uint32_t member;           /* index in the parent type's members */
	struct sf_layout layout;
};

struct sf_variant_layout {
	struct sf_type type;       /* the variant as a struct (sf_variant_type) */
	struct sf_member *members; /* type's members, owned */
	struct sf_layout layout;
};

/*
 * Optional: the definition of a member's named struct type, so that the
 * layout can tell the padding inside it (pahole's "last struct has N bytes
 * of padding").  Return NULL when unknown.
 */
typedef const struct sf_type *(*sf_type_lookup_fn)(void *ctx,
						   const struct sf_member *m);

struct sf_layout_opts {
	unsigned cacheline;        /* 0 means 64 */
	sf_type_lookup_fn lookup;  /* may be NULL */
	void *lookup_ctx;
};

/* Bytes of holes and padding an explicit alignment asked for. */
static inline uint64_t sf_layout_forced(const struct sf_layout *l)
{
	return l->sum_forced_holes + l->forced_padding;
}

/* Bytes a layout wastes: holes plus trailing padding, less what an
 * explicit alignment asked for (that is a choice, not waste; pahole's
 * "forced" figures). */
static inline uint64_t sf_layout_waste(const struct sf_layout *l)
{
	return l->sum_holes + l->padding - sf_layout_forced(l);
}

/* Layout of t with no lookup of member types (cacheline 0 means 64). */
void sf_layout_compute(const struct sf_type *t, unsigned cacheline,
		       struct sf_layout *out);
void sf_layout_compute_opts(const struct sf_type *t,
			    const struct sf_layout_opts *o,
			    struct sf_layout *out);
void sf_layout_release(struct sf_layout *l);

/*
 * Variant k of the enum t as a struct of its own, for a layout and a
 * rendering of what that variant holds: the discriminant (left out where
 * it is a niche inside one of the variant's fields) and the variant's
 * members in memory order, under the variant's name, with t's size.
 * Returns the malloc'ed member array (free it when vt is done).
 *
 * sf_layout_compute on t itself (an enum: t->nvariants > 0) counts as
 * holes and padding only the bytes that neither the discriminant nor any
 * variant uses: the waste all variants share.
 */
struct sf_member *sf_variant_type(const struct sf_type *t, uint32_t k,
				  struct sf_type *vt);

/* The nested layout of member index `member`, or NULL. */
const struct sf_layout *sf_layout_nested(const struct sf_layout *l,
					 uint32_t member);

/*
 * A sf_type_lookup_fn over a struct sf_typeset (pass the typeset as ctx):
 * finds members typed "struct NAME" / "class NAME" (not typedefs, pointers
 * or arrays, as pahole), preferring a definition of the member's size.
 */
const struct sf_type *sf_layout_lookup_in_typeset(void *typeset,
						  const struct sf_member *m);

/* The padding at the end of struct t (0 for none): what a member of
 * type t notes as "last struct has N bytes of padding". */
uint64_t sf_layout_struct_padding(const struct sf_type *t);

#endif
