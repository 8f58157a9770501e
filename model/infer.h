/*
 * infer.h - where members are, when the input does not say it all
 * (see infer.c).
 *
 * A loader translates what its input states (DWARF DIEs, BTF ids) into a
 * model type; what the input leaves out is inferred here, the same way
 * for every input.  Two kinds of help:
 *
 *   - while the loader places the members (DWARF only needs them): a C++
 *     virtual base's offset in the complete object, the members' memory
 *     order;
 *   - once they are placed, the pass (sf_model_infer, at the end of this
 *     header): the room of a member whose type is unknown, the aligned
 *     attributes BTF drops, packing and alignment (packing.h), the data
 *     size and emptiness a holder of the type needs.  Both loaders call
 *     it, and nothing else of that, at the same point of a type's load.
 *
 * Pure functions over sf_type and sf_member arrays: no loader handle (a
 * loader answers the packing evidence's questions through an oracle).
 */
#ifndef SF_INFER_H
#define SF_INFER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model.h"
#include "packing.h"

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

/* A C++ empty class: one byte (or its alignas), nothing but bases of no
 * size. */
int sf_is_empty_class(const struct sf_type *t);

/* Whether m[0..n) is in memory order (virtual bases last). */
int sf_in_memory_order(const struct sf_member *m, size_t n);

/*
 * The indices of m[0..n) in memory order (virtual bases last; stable),
 * sorted in a or b (both of n entries): the one returned.
 */
uint32_t *sf_memory_order(const struct sf_member *m, size_t n, uint32_t *a, uint32_t *b);

/*
 * ---- the pass: what a loaded type leaves to the model --------------------
 *
 * Both loaders call sf_model_infer once per aggregate, when its members are
 * placed in memory order (dwarf/members.c, dwarf/reader.c's held-back C++
 * types, btf/loader.c), so DWARF and BTF types take the same steps in the
 * same order:
 *
 *   1. the room of members of unknown type, bases cut to what follows them
 *      (sf_fit_to_neighbours);
 *   2. the aligned attributes an input without them dropped (BTF:
 *      sf_infer_aligned_attrs, pahole's guess);
 *   3. packing and alignment, from the type's own members and from the
 *      evidence it gives about the types it holds (sf_infer_packing,
 *      through the loader's oracle);
 *   4. its data size and whether it is an empty C++ class, what a type
 *      holding it as a base needs (sf_data_size, sf_is_empty_class).
 *
 * What the model does not hold of the members' types comes in `in`.
 */
struct sf_infer_in {
	const uint32_t *natural;   /* per member: its type's natural alignment */
	const uint64_t *dsize;     /* per member: its type's data size where it is a
				    * base of known layout, else SF_DSIZE_UNKNOWN;
				    * NULL: no member is */
	uint32_t align_attr;       /* the alignment the input states for the
				    * type (DW_AT_alignment), 0 none */
	uint32_t guess_aligned;    /* the input drops aligned attributes (BTF):
				    * pahole's guess at them with this cacheline
				    * (align_attr 0 then); 0: the input keeps them */
	bool forced;               /* a container showed the type packed */
	bool incomplete;           /* members of unknown type take the room up to
				    * the next (a held-back type's are completed) */
	const struct sf_packing_oracle *oracle; /* the members' types, for the
				    * packing evidence; NULL: none sought.  Its
				    * aligned_hidden is guess_aligned != 0 */
};

/* What a holder of the type needs that the type itself does not keep. */
struct sf_inferred {
	uint64_t dsize;            /* data size: what a derived class may not
				    * overlap (sf_data_size) */
	bool empty;                /* a C++ empty class: no room as a base */
};

/* Steps 1-4 on t (whose members are in memory order); out may be NULL
 * when the caller needs no more than t. */
void sf_model_infer(struct sf_type *t, const struct sf_infer_in *in, struct sf_inferred *out);

#endif
