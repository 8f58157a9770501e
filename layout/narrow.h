/*
 * narrow.h - what a struct becomes if a member gets a narrower type.
 *
 * A narrowing replaces an integer, enum or pointer member by a 1, 2 or 4
 * byte integer (a pointer by a 4-byte index into an arena).  The tool
 * cannot know the values a member holds: it computes what the narrowing
 * buys, and says what range the new width holds so the user can check.
 *
 * sf_type_narrow() makes the narrowed type as the compiler would lay it
 * out with the declarations unchanged (in place); the search then places
 * it optimally with the reorder search of reorder.h.  The result of the
 * search is an array of candidates, best first:
 *
 *   struct sf_narrow_result { size | reorder_size | v -> [sf_narrowing]... }
 *   sf_narrowing = { 1 or 2 (member, from, to), size, saved, moves,
 *                    new offsets, class before/after }
 *
 * Singles: every narrowable member, every width below its size, kept when
 * the struct then gets smaller than the best reordering without it (and
 * not when a wider width of the same member already reaches that size).
 * Pairs: only with size classes and only when no single narrowing moves
 * the struct (plus header) to a smaller class than the best reordering
 * already does; kept when the pair does, with the widest widths that
 * still reach that class.
 *
 * The work is bounded (a count, so the answer is the same on any machine):
 * members are searched largest first, and when the budget runs out the
 * search stops and says so (cut).
 *
 * Order, best first: smaller class after; smaller size; single before
 * pair; wider new widths (less to check); then by what the member's name
 * says it holds (sf_name_role): cached positions and hints (start, hint,
 * cache, last, cursor) first, since a hint that saturates costs time and
 * not correctness; then names that say nothing; then other bounds and
 * indexes (bound, max, pos, idx, end, ...: they grow with the data); exact
 * counts, lengths and capacities (num, nr, n, count, len, size, cap) last,
 * since narrowing one caps the program (Ruby's st_table: entries_start
 * before num_entries, which would cap a hash at 255 entries); a pointer
 * after all of them whatever its name (a `cursor` pointer made an arena
 * index is a design change, not a narrowing: sf_member_role); fewer moves;
 * finally declaration order.  Candidates equal in everything before the
 * names are alternatives, not a ranking (sf_narrowings_tie).
 */
#ifndef SF_NARROW_H
#define SF_NARROW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "classes.h"
#include "model/model.h"
#include "model/typeset.h"

struct sf_narrow_req {
	uint32_t member;       /* index in the type's members */
	uint64_t bytes;        /* new width: 1, 2, 4 (or 8 for wider) */
};

/* Why a member cannot take a width (report/reasons.c words each). */
enum sf_narrow_refusal {
	SF_NARROW_OK = 0,
	SF_NARROW_BITFIELD,         /* already as narrow as its bits */
	SF_NARROW_FLEX_ARRAY,       /* a flexible array member */
	SF_NARROW_COMPILER_MADE,    /* a vtable pointer or a base subobject */
	SF_NARROW_NOT_SCALAR,       /* not an integer, enum, bool or pointer: see
	                             * the member's tclass */
	SF_NARROW_BAD_WIDTH,        /* not 1, 2, 4 or 8 bytes */
	SF_NARROW_NOT_SMALLER,      /* the width is not below the member's size */
};

/* SF_NARROW_OK when member m may be narrowed to `bytes`, else why not. */
enum sf_narrow_refusal sf_narrow_check(const struct sf_member *m, uint64_t bytes);

/* The values `bytes` bytes hold for m's signedness: "0..255", "-128..127". */
void sf_narrow_range(const struct sf_member *m, uint64_t bytes, char *buf, size_t n);

/* The fixed-width type a narrowed m gets, with m's own cv-qualifiers:
 * "uint8_t", "int16_t", "volatile uint16_t", ... */
const char *sf_narrow_type_name(const struct sf_member *m, uint64_t bytes);

/*
 * t with each request applied (checked by the caller), laid out in place:
 * same member order, the narrowed members with the new size, alignment and
 * a fixed-width type name, every member after them at its new offset.
 * Memory from `arena`.
 */
const struct sf_type *sf_type_narrow(const struct sf_type *t,
				     const struct sf_narrow_req *req, size_t nreq,
				     struct sf_typeset *arena);

struct sf_narrow_opts {
	const struct sf_classes *classes; /* NULL: no classes, no pairs */
	uint64_t header;                  /* bytes in front of the struct */
	uint64_t orig_size;               /* sizeof before any narrowing */
	const bool *pin;                  /* per member (may be NULL) */
	bool pin_first;
	uint32_t max_moves;               /* placements move at most this
	                                   * many units; 0 or UINT32_MAX: any */
	bool heuristic;                   /* tests only: sf_units.heuristic */
};

struct sf_narrowing {
	uint32_t n;                /* 1, or 2 for a pair */
	uint32_t member[2];
	uint64_t from[2], to[2];   /* bytes */
	uint64_t offset[2];        /* where the narrowed member goes */
	uint64_t size;             /* struct size, placed optimally */
	uint64_t saved;            /* orig_size - size */
	uint32_t moves;            /* of the optimal placement */
	size_t class_before;       /* of header + orig_size; SF_NO_CLASS */
	size_t class_after;        /* of header + size */
	bool exact;                /* placement proven optimal */
};

struct sf_narrow_result {
	uint64_t reorder_size;     /* best size without a further narrowing */
	struct sf_narrowing *v;
	size_t n;
	bool pairs_searched;
	size_t candidates;         /* (member, width) singles there are */
	size_t searched;           /* of them, searched before the budget ran out */
	bool cut;                  /* the work budget ran out: not every
	                            * candidate searched, the list not proven */
};

/*
 * Search the narrowings of t (which may already carry narrowings applied
 * with sf_type_narrow).  Members pinned by o->pin stay at their offsets.
 */
void sf_narrow_search(const struct sf_type *t, const struct sf_narrow_opts *o,
		      struct sf_narrow_result *out);
void sf_narrow_release(struct sf_narrow_result *r);

/* Does a member's name say it counts or bounds something? (ranking) */
bool sf_name_counts(const char *name);

/* Does it say it is an index or a position (start, pos, idx, head, ...)? */
bool sf_name_indexes(const char *name);

/* Either: its values grow with the data. */
bool sf_name_grows(const char *name);

/* What a member's name says it holds, in ranking order (best first). */
enum sf_name_role {
	SF_ROLE_HINT,    /* a cached position or hint: may saturate */
	SF_ROLE_PLAIN,   /* the name says nothing */
	SF_ROLE_GROWS,   /* a bound or an index: grows with the data */
	SF_ROLE_COUNT,   /* an exact count, length or capacity: a cap */
	SF_ROLE_DESIGN,  /* a pointer (or Box): an arena index in its place is
	                  * a design change, whatever its name says */
};
enum sf_name_role sf_name_role(const char *name);
/* A member's role: SF_ROLE_DESIGN for a pointer-like member (patch never
 * narrows one), else what its name says (sf_name_role). */
enum sf_name_role sf_member_role(const struct sf_member *m);

/* Do x and y save the same bytes the same way (same class, size, arity and
 * widths), so that only their names order them?  Then they are
 * alternatives. */
bool sf_narrowings_tie(const struct sf_narrowing *x, const struct sf_narrowing *y);

/* What the code must do when a value does not fit a narrowed member (the
 * sentence is report/reasons.c's sf_narrow_overflow). */
enum sf_narrow_overflow_kind {
	SF_OVERFLOW_INDEX,      /* pointer-like, now an arena index: refuse */
	SF_OVERFLOW_GROWS,      /* its name counts or indexes: saturate, fall back */
	SF_OVERFLOW_RANGE,      /* any other value: refuse or saturate where stored */
};
enum sf_narrow_overflow_kind sf_narrow_overflow_kind(const struct sf_member *m);

#endif
