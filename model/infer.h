/*
 * infer.h - where members are, when the input does not say it all
 * (see infer.c).
 *
 * A loader translates what its input states (DWARF DIEs, BTF ids) into a
 * model type; what the input leaves out is inferred here, the same way
 * for every input: a C++ virtual base's offset in the complete object,
 * the room of a member whose type is unknown, the members' memory order,
 * an empty C++ class.  Packing and alignment are model/packing.h.
 * Pure functions over sf_type and sf_member arrays: no loader handle.
 */
#ifndef SF_INFER_H
#define SF_INFER_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"

/* A type's data size is not known (see sf_member_data_end). */
#define SF_DSIZE_UNKNOWN UINT64_MAX

/*
 * Where member m's data ends: a bit-field's last byte, a base's data with
 * its own tail padding left out (dsize: the data size of the base's type,
 * SF_DSIZE_UNKNOWN when it is not known or m is no base), else m's size.
 * Saturates instead of wrapping (corrupt offsets).
 */
uint64_t sf_member_data_end(const struct sf_member *m, uint64_t dsize);

/*
 * Give the virtual bases of m[0..n) that have no offset (unplaced[i])
 * the offset the Itanium C++ ABI gives them in the complete object of
 * tsize bytes.  dsize[i]: member i's type's data size (NULL: none known).
 */
void sf_place_virtual_bases(struct sf_member *m, size_t n, const uint8_t *unplaced,
			    const uint64_t *dsize, uint64_t tsize);

/*
 * The end of the data of t's non-virtual part: what a derived class may
 * not overlap.  dsize as for sf_place_virtual_bases, per member of t.
 */
uint64_t sf_data_size(const struct sf_type *t, const uint64_t *dsize);

/*
 * The members whose type is unknown (SF_MF_INCOMPLETE, not nested) get
 * the room up to the next member, when `incomplete`; a base whose tail
 * padding holds later members is cut to end where they start (always).
 */
void sf_fit_to_neighbours(struct sf_type *t, int incomplete);

/* A C++ empty class: one byte, nothing but bases of no size. */
int sf_is_empty_class(const struct sf_type *t);

/* Whether m[0..n) is in memory order (virtual bases last). */
int sf_in_memory_order(const struct sf_member *m, size_t n);

/*
 * The indices of m[0..n) in memory order (virtual bases last; stable),
 * sorted in a or b (both of n entries): the one returned.
 */
uint32_t *sf_memory_order(const struct sf_member *m, size_t n, uint32_t *a, uint32_t *b);

#endif
