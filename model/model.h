/*
 * model.h - the plain type model every part of structfit shares.
 *
 * The loaders (dwarf/, btf/) fill it, model/'s pass infers what they
 * cannot read (sf_model_infer), layout/ computes over it, report/ renders
 * it.  Nothing here knows about DWARF.  A type is a struct, union or class with an array
 * of members; all strings are interned in the owning typeset's string pool
 * and all arrays live in its arena, so a type is never freed on its own.
 *
 *   struct sf_type
 *   +------+------+------+-------+-------+-----------+-----------+----------+
 *   | name | kind | size | align | flags | decl_file | decl_line | members ----> sf_member[nmembers]
 *   +------+------+------+-------+-------+-----------+-----------+----------+
 *
 * Members are in memory order - by offset, a bit-field by its first bit,
 * ties in declaration order - whatever order the source declared them in
 * (rustc reorders fields and its DWARF lists them as declared:
 * SF_TF_REORDERED says so); C++ virtual bases come last.
 *
 * Member offsets are in bytes from the start of the outermost type.  A
 * bit-field's `offset` is the byte offset of its storage unit (a unit of
 * `size` bytes, aligned down to `size`, as pahole shows it) and `bit_offset`
 * counts bits from the start of that unit in memory order (DWARF 4's
 * DW_AT_data_bit_offset minus 8 * offset, whatever the endianness).
 *
 * Anonymous struct/union members keep their inner type in `nested`; their
 * members' offsets are absolute (relative to the outermost type), as pahole
 * prints them.  A member that points to an anonymous struct/union
 * (`struct {...} *parts`) keeps the pointed-to type in `nested` too, flagged
 * SF_MF_POINTEE: that type is not part of the layout, its offsets start at
 * 0, and only the text renderer shows it (pahole prints its body inline).
 * A member whose type is an anonymous enum (or points to one) keeps the
 * enumerators in `enums`, for the same reason.
 *
 * C++ virtual bases sit at the end of the complete object: they are the
 * last members, at the offset the common (Itanium) layout gives them.
 *
 * Enums with data (Rust's, DW_TAG_variant_part) keep their discriminant
 * as an ordinary member flagged SF_MF_DISCR and their variants apart:
 *
 *   sf_type  members ---> [discriminant]          (none: no tag at all)
 *            variants --> sf_variant[nvariants]
 *                           name, discr value, members ---> sf_member[]
 *
 * A variant's members are its payload's fields at offsets from the start
 * of the enum, in memory order (rustc wraps each payload in a struct
 * named for the variant; the reader flattens it).  SF_TF_NICHE: the
 * discriminant has no bytes of its own, it lies inside a field of the
 * variant that has no discriminant value (Option<NonNull<T>>: the null
 * pointer says None).  The bytes no variant and no discriminant use are
 * the enum's waste; each variant's own waste is computed apart, on the
 * variant as a struct of its own (sf_variant_type in holes.h).
 *
 * model/ holds this model and what it infers from itself, pure C with no
 * DWARF, no files and no output (so every piece is unit-tested on
 * hand-built types):
 *   typeset     the set of types read, deduplicated; lookup by name
 *   spelling    one spelling per C type (gcc's `long unsigned int` for
 *               clang's `unsigned long`), by which typeset compares
 *   infer       the pass both loaders call once per aggregate
 *               (sf_model_infer): the room of members the input does not
 *               place, aligned attributes BTF drops, packing and alignment,
 *               data size, empty classes; and what a loader asks first:
 *               virtual bases' offsets, memory order
 *   packing     pahole's packing and alignment rules, the evidence of
 *               containers (through the loader's oracle)
 *   gaps        the one walk that finds holes and padding (pahole's
 *               class__find_holes), for packing and for layout/holes.c
 *   nested, abi anonymous members' copies at their offsets; the psABIs'
 *               scalar alignments
 * layout/ computes over it (holes, ranking, diff, budgets, size classes,
 * the searches, source patches: see each header there).
 */
#ifndef SF_MODEL_H
#define SF_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The cacheline a layout is drawn in when nobody says otherwise (-c N
 * changes it for show and holes): 64 bytes, x86-64's and most arm64
 * cores', and pahole's default.  suggest, diff and budgets' `cachelines`
 * count in it.
 */
#define SF_CACHELINE 64u

enum sf_kind {
	SF_KIND_STRUCT = 0,
	SF_KIND_UNION,
	SF_KIND_CLASS,
};

/* What a member's type is once typedefs and cv-qualifiers are stripped. */
enum sf_tclass {
	SF_T_OTHER = 0,
	SF_T_INT,
	SF_T_BOOL,
	SF_T_ENUM,
	SF_T_FLOAT,
	SF_T_POINTER,
	SF_T_STRUCT,
	SF_T_UNION,
	SF_T_ARRAY,
};

enum sf_member_flag {
	SF_MF_BITFIELD = 1 << 0,
	SF_MF_BASE = 1 << 1,         /* C++ base class subobject (pahole: <ancestor>) */
	SF_MF_VIRTUAL_BASE = 1 << 2,
	SF_MF_VPTR = 1 << 3,         /* compiler-made virtual table pointer */
	SF_MF_FLEX_ARRAY = 1 << 4,   /* T x[] or T x[0] at the end */
	SF_MF_SIGNED = 1 << 5,       /* integer/enum type is signed */
	SF_MF_ALIGNED = 1 << 6,      /* DW_AT_alignment on the member or its type */
	SF_MF_INCOMPLETE = 1 << 7,   /* type only declared: size unknown */
	SF_MF_POINTEE = 1 << 8,      /* nested/enums describe the pointed-to type */
	SF_MF_DISCR = 1 << 9,        /* an enum's discriminant (tag) */
	SF_MF_RUST = 1 << 10,        /* of a Rust type: spelled as Rust spells
	                              * (a narrowing says u32, not uint32_t) */
	SF_MF_TYPE_PAD = 1 << 11,    /* type_pad is known (the loader's) */
};

enum sf_type_flag {
	SF_TF_PACKED = 1 << 0,       /* members sit below their natural alignment */
	SF_TF_ALIGNED = 1 << 1,      /* DW_AT_alignment given on the type */
	SF_TF_INCOMPLETE = 1 << 2,   /* a base or member type was never defined */
	SF_TF_VARIANT = 1 << 3,      /* another, different definition has this name */
	SF_TF_CXX = 1 << 4,          /* from a C++ compilation unit */
	SF_TF_DECLARATION = 1 << 5,  /* only declared (never reported as a layout) */
	SF_TF_TYPEDEF = 1 << 6,      /* `typedef struct {...} name;`: name is the typedef's */
	SF_TF_REORDERED = 1 << 7,    /* declared in another order than in memory
	                              * (members are always in memory order) */
	SF_TF_RUST = 1 << 8,         /* from a Rust compilation unit */
	SF_TF_NICHE = 1 << 9,        /* enum whose discriminant lies in a variant's field */
	SF_TF_BTF = 1 << 10,         /* read from BTF: no source location is known */
};

struct sf_type;

/* One enumerator; `value` holds the bits, signed when the member is
 * SF_MF_SIGNED. */
struct sf_enumerator {
	const char *name;
	uint64_t value;
};

struct sf_enum;

/*
 * A member whose type is a typedef (or an array of one): the typedef
 * names down to the first type that is not one ("cv_int2 -> cv_int"),
 * and that type's C spelling, as type_name/type_suffix spell the member's
 * (pahole -E prints the member so).  Not part of the definition.
 */
struct sf_typedef_of {
	const char *chain;
	const char *type_name;
	const char *type_suffix;
	const struct sf_enum *enums; /* an anonymous enum's enumerators (the
	                              * type is "enum {...}"), else NULL */
};

/* The enumerators of an anonymous enum, in declaration order. */
struct sf_enum {
	uint32_t n;
	const struct sf_enumerator *v;
};

struct sf_member {
	const char *name;        /* "" when anonymous */
	const char *type_name;   /* C spelling before the name: "unsigned char",
	                          * "const struct st_hash_type *", "void (*" */
	const char *type_suffix; /* after the name: "[3][4]", ")(int)", or "" */
	uint64_t offset;
	uint64_t size;           /* bytes of the member's type; 0 for x[] */
	uint32_t bit_offset;     /* bit-fields only */
	uint32_t bit_size;       /* 0 unless a bit-field */
	uint32_t align;          /* alignment of the member under the ABI */
	uint8_t tclass;          /* enum sf_tclass */
	uint16_t flags;          /* enum sf_member_flag */
	const struct sf_type *nested; /* anonymous struct/union, else NULL */
	const struct sf_enum *enums;  /* anonymous enum's enumerators, else NULL */
	uint32_t type_pad;       /* SF_MF_TYPE_PAD: the tail padding of the
	                          * struct the member's type is, as the loader
	                          * laid that struct out (pahole's "last struct
	                          * has N bytes of padding"): the member's
	                          * own, never looked up by name among the
	                          * types reported, whose answer depended on
	                          * what else was asked */
	const struct sf_typedef_of *tdef; /* the type's typedefs, else NULL */
};

/* One variant of an enum with data (see above). */
struct sf_variant {
	const char *name;        /* "Some", "Rect"; "" when unnamed */
	uint64_t discr_value;    /* the discriminant's value for it */
	bool has_discr_value;    /* false: the default variant (any other value) */
	uint32_t nmembers;
	struct sf_member *members;
};

/*
 * A type read from a `holes` document (input/jsondoc.c): the ranking's
 * numbers as the build gave them, and no members.  Only `holes` ranks
 * such a type; its definition's identity is def_hash, the hash the
 * build's typeset gave it (sf_type_hash returns it).
 */
struct sf_summary {
	uint64_t waste, sum_holes, padding, forced;
	uint32_t nholes;
	uint8_t public;          /* enum sf_public (layout/public.h) */
	bool is_enum;            /* an enum with data in the build */
	uint64_t def_hash;
};

struct sf_type {
	const char *name;        /* "" when anonymous; C++ names qualified */
	uint8_t kind;            /* enum sf_kind */
	uint16_t flags;          /* enum sf_type_flag */
	uint64_t size;
	uint32_t align;
	uint32_t natural_align;  /* what align would be without packed/aligned
	                          * attributes: the largest of the members' types'
	                          * own alignments (pahole's natural alignment) */
	const char *decl_file;   /* "" when unknown */
	uint32_t decl_line;
	uint32_t nmembers;
	struct sf_member *members;
	const char *origin;      /* artifact it was read from: "a.o", "lib.a(x.o)" */
	uint8_t addr_size;       /* pointer size of the ABI it was compiled for */
	uint64_t hash;           /* of the definition, for deduplication */
	uint32_t nvariants;      /* enums with data, else 0 */
	struct sf_variant *variants;
	const char *comp_dir;    /* DW_AT_comp_dir of the unit it was read from
	                          * (the build's directory: what "the project"
	                          * is when no source root is given); NULL or ""
	                          * when unknown (BTF).  Not part of the
	                          * definition: identical types of units built
	                          * in two directories keep the first one's */
	const struct sf_summary *summary; /* read from a holes document, else NULL */
	/* where the definition kept was read (pahole -I): its unit's
	 * DW_AT_name ("" when unknown, BTF) and its DIE's section offset.
	 * Not part of the definition: identical ones keep the first's */
	const char *unit_name;
	uint64_t die_offset;
};

static inline bool sf_member_is_bitfield(const struct sf_member *m)
{
	return m->bit_size != 0;
}

const char *sf_kind_name(enum sf_kind kind);
/* What the user calls t: "enum" for an enum with data (a struct to the model). */
const char *sf_type_kind_name(const struct sf_type *t);

#endif
