/*
 * holes.h - where a layout wastes bytes: holes, bit holes, padding.
 *
 * sf_layout_compute() walks a type's members in offset order and records
 * every gap the compiler left: byte holes between members, bit holes inside
 * a bit-field storage unit, trailing padding (bytes and bits), and the
 * summary pahole prints under a struct.  Unions have no holes, only
 * padding when their size exceeds the largest member.
 *
 * The arrays in struct sf_layout are malloc'ed; sf_layout_release() frees
 * them.  Hole offsets are bytes from the start of the type.
 */
#ifndef SF_HOLES_H
#define SF_HOLES_H

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
};

/* Bytes a layout wastes: holes plus trailing padding. */
static inline uint64_t sf_layout_waste(const struct sf_layout *l)
{
	return l->sum_holes + l->padding;
}

void sf_layout_compute(const struct sf_type *t, unsigned cacheline,
		       struct sf_layout *out);
void sf_layout_release(struct sf_layout *l);

#endif
