/*
 * gaps.h - the gaps the compiler left in one type, found as pahole finds
 * them (see gaps.c).
 *
 * One walk, two users: the model's own inference asks whether a type has
 * byte holes or trailing padding (sf_type_has_gaps: packing.c's rule),
 * and layout/holes.c builds its pahole-like summary (struct sf_layout)
 * from the same walk's figures and hole lists, so the two can never
 * disagree on what a gap is.
 *
 *   struct sf_gaps
 *   +--------------------------------+
 *   | holes[nholes] ------------------> {offset, size, after}   by offset
 *   | bit_holes[nbit_holes] ----------> {offset, bit_offset, bits, after}
 *   | sum_holes, sum_bit_holes       |  (arrays only when asked to record;
 *   | sum_members, sum_bitfield_bits |   the counts and sums always)
 *   | padding, bit_padding           |
 *   | irregular                      |
 *   +--------------------------------+
 *
 * Offsets are bytes from the start of the outermost type (member offsets
 * in the model are absolute; `base` is where the walked type starts).
 * Each hole is charged to the member before it (`after`; SF_NO_MEMBER in
 * front of the first member, and between an enum's variants).
 */
#ifndef SF_GAPS_H
#define SF_GAPS_H

#include <stdbool.h>
#include <stdint.h>

#include "model.h"

#define SF_NO_MEMBER UINT32_MAX

struct sf_hole {
	uint64_t offset;       /* first byte of the hole */
	uint64_t size;         /* bytes */
	uint32_t after;        /* index of the member before it, or SF_NO_MEMBER */
};

struct sf_bit_hole {
	uint64_t offset;       /* byte offset of the storage unit */
	uint32_t bit_offset;   /* first free bit in that unit */
	uint32_t bits;
	uint32_t after;        /* index of the bit-field before it */
};

struct sf_gaps {
	struct sf_hole *holes;         /* malloc'ed when recorded, else NULL */
	struct sf_bit_hole *bit_holes; /* likewise */
	uint32_t nholes;
	uint32_t nbit_holes;
	uint64_t sum_holes;            /* bytes */
	uint64_t sum_bit_holes;        /* bits */
	uint64_t sum_members;          /* bytes, as pahole's "sum members" */
	uint64_t sum_bitfield_bits;
	uint64_t padding;              /* trailing bytes */
	uint32_t bit_padding;          /* trailing bits of the last unit */
	bool irregular;                /* overlaps, members past the end,
					* sizes clipped (corrupt input) */
};

/*
 * The gaps of t, which starts at absolute offset `base` of the outermost
 * type: a struct or class walked as pahole 1.24's class__find_holes, a
 * union by its largest member, an enum with variants (t->nvariants) by
 * the bytes neither its discriminant nor any variant uses.  With
 * `record` the holes and bit holes are listed in out (free them with
 * sf_gaps_release), else only counted and summed.
 */
void sf_gaps_find(const struct sf_type *t, uint64_t base, bool record, struct sf_gaps *out);

/* Frees what sf_gaps_find recorded. */
void sf_gaps_release(struct sf_gaps *g);

/*
 * Whether t has byte holes or trailing padding (bit holes do not count),
 * as pahole's class__find_holes finds them: packing.c's test.  Allocates
 * nothing.
 */
bool sf_type_has_gaps(const struct sf_type *t);

#endif
