/*
 * fpplan.h - the fingerprint's digest steps and hash plans (internal to
 * fingerprint.c and fpplan.c; see fingerprint.h for what a digest is).
 *
 * The digest steps (feed*) are inline here: the plans' shapes are
 * digested with them, and every DIE hashed.  A hash plan is compiled by
 * fpplan.c once per abbreviation and unit and read by fingerprint.c's
 * read_die for every DIE of that abbreviation:
 *
 *   struct plan      the abbreviation's shape digest, its ops (ops[first,
 *                    + nops)) and, when fixed, its fvals and places
 *   struct op        one attribute: skip it, feed its value, keep a reference
 *   struct fval      a fixed plan's value: a masked load at a fixed place
 *   struct plantab   the plans of one abbreviation table, by code
 *   struct fp_plans  a unit's tables, ops and fvals (in sf_fpcache)
 */
#ifndef SF_FPPLAN_H
#define SF_FPPLAN_H

#include <stdint.h>
#include <string.h>

#include "die.h"
#include "fingerprint.h"

static inline void feed(struct sf_fp *h, uint64_t v)
{
	h->a = (h->a ^ v) * 0xbf58476d1ce4e5b9ull;
	h->a ^= h->a >> 31;
	h->b = (h->b + v) * 0x94d049bb133111ebull;
	h->b = (h->b << 23) | (h->b >> 41);
}

/* set in the one word that feeds a string by its offset: no length is
 * that long; `tag` (which file) holds the two bits above */
#define STR_BIT (1ull << 61)

/* n bytes: their length, then a word at a time (into both lanes: one
 * pass over the bytes). */
static inline void feed_bytes(struct sf_fp *h, const void *p, size_t n)
{
	const unsigned char *s = p;
	uint64_t w;

	feed(h, n);
	for (; n >= 8; s += 8, n -= 8) {
		memcpy(&w, s, 8);
		feed(h, w);
	}
	if (n) {
		w = 0;
		memcpy(&w, s, n);
		feed(h, w);
	}
}

/* A string of .debug_str by its offset (strs: the section of the unit
 * being hashed, `tag` which file that is - the reader's or its dwz alt
 * file), any other by its bytes. */
static inline void feed_str(struct sf_fp *h, const struct sf_dwsec *strs, uint64_t tag,
		     const char *s)
{
	if (!s) {
		feed(h, ~0ull);	/* no name is not the empty name */
		return;
	}
	if (strs && (const unsigned char *)s >= strs->data &&
	    (const unsigned char *)s < strs->data + sec_span(strs)) {
		uint64_t off = (uint64_t)((const unsigned char *)s - strs->data);
		/* the linker merges .debug_str: one string, one offset; a
		 * string kept twice only costs a match.  One feed: STR_BIT
		 * tells it from a length (below it) and from no name (the
		 * offset bits all set) */
		if (off < STR_BIT - 1) {
			feed(h, STR_BIT | tag | off);
			return;
		}
	}
	feed_bytes(h, s, strlen(s));
}

/* A digest (a type's, an abbreviation's shape) in one step: each lane
 * takes its own half.  A false match still needs both lanes to collide,
 * each half being a full mix of what the digest covers; and a DIE's
 * chain of multiplies - the digest's cost - is one step shorter per
 * digest fed. */
static inline void feed_fp(struct sf_fp *h, const struct sf_fp *x)
{
	h->a = (h->a ^ x->a) * 0xbf58476d1ce4e5b9ull;
	h->a ^= h->a >> 31;
	h->b = (h->b + x->b) * 0x94d049bb133111ebull;
	h->b = (h->b << 23) | (h->b >> 41);
}

/*
 * What hashing a DIE does with one attribute's bytes, compiled once per
 * abbreviation (struct plan): skip them, feed them as one word (a value),
 * feed them whole (strings, blocks), or keep a reference (DW_AT_type,
 * DW_AT_sibling).
 *
 * A value is fixed-width raw bytes (flags, string offsets: equal bytes
 * are equal values) or a constant as the decoder gives it, zero-extended
 * to 64 bits: so a constant in DW_FORM_data1, data2, udata or
 * implicit_const feeds the same word, and a type gcc wrote with
 * DW_AT_alignment as an implicit constant in one unit and as data1 in the
 * next still matches (a tenth of vmlinux's matches).  The shape fixes
 * which attribute each word is: the fed words are a function of the
 * values, one to one.
 *
 * A plan whose every attribute has a fixed size and is fed as a value, a
 * type or sibling reference, or skipped (a member, a pointer, a base
 * type: nearly every DIE hashed) is compiled a second time, to `struct
 * fval`s: the DIE's bytes at fixed places, masked - read without an op
 * switch (PL_FIXED; read_fixed).  Both read the same words.
 */
enum op_kind {
	OP_SKIP,        /* nothing but its `pre` bytes */
	OP_SKIP_ULEB,
	OP_SKIP_STRING,
	OP_SKIP_BLOCK,  /* a block: its length in n bytes (0: a ULEB128) */
	OP_RAW,         /* n raw bytes, appended as they are */
	OP_CONST,       /* a constant of n bytes, decoded, appended by length */
	OP_CONST1, OP_CONST2, OP_CONST4, /* the same, n 1, 2, 4: the read inlined
	                 * for its width (the common forms) */
	OP_BOUND,       /* the same, DW_AT_upper_bound (die.c is_minus_one) */
	OP_ULEB,        /* a ULEB128, decoded, appended by length */
	OP_SLEB,        /* an SLEB128, the same */
	OP_IMPLICIT,    /* DW_FORM_implicit_const: imm, the same */
	OP_DECL,        /* DW_AT_declaration as DW_FORM_flag: 1 raw byte */
	OP_STRP_LOCAL,  /* a .debug_str offset of n bytes, the string's identity
	                 * in `local` mode (raw) */
	OP_STRP4_LOCAL, /* the same, 4 bytes */
	OP_STRP_ALT_LOCAL, /* the same in the dwz alt file's .debug_str */
	OP_STRX_LOCAL,  /* a string index of form `form`, appended as the
	                 * .debug_str offset it names (all ones: none) */
	OP_STR,         /* a string of form `form`, fed by feed_str */
	OP_STRING,      /* a DW_FORM_string, fed as feed_str feeds it */
	OP_BLOCK,       /* a block (length in n bytes, 0: ULEB128), fed whole */
	OP_TYPE,        /* the DW_AT_type reference: n bytes (0: ULEB128) */
	OP_TYPE4,       /* the same, DW_FORM_ref4 */
	OP_SIBLING,     /* the DW_AT_sibling reference, for skipping only */
};

struct op {
	uint64_t imm;   /* OP_RAW: the low n bytes' mask; OP_IMPLICIT: the value */
	uint16_t form;  /* OP_STR */
	uint8_t kind;
	uint8_t pre;    /* bytes skipped first (attributes not hashed, of
	                 * fixed size): one op less to dispatch for each */
	uint8_t n;
	uint8_t name;   /* OP_STR, OP_STRP_*: it is DW_AT_name */
	uint8_t rel;    /* OP_TYPE, OP_SIBLING: unit-relative (not ref_addr) */
};

/* A value a fixed plan feeds: the 8 bytes `off` bytes past the DIE's
 * code, masked, or'd with imm (an implicit constant: mask 0). */
struct fval {
	uint64_t mask, imm;
	uint64_t off;
};

/* where a fixed plan's DIE has no reference */
#define NO_REF 0xffu

/* the bytes after the code a fixed plan reads at most (fval.off) */
#define FIXED_MAX 120u

/* a place in a fixed plan's DIE past its DW_FORM_string (offset | AFTER) */
#define AFTER 0x80u

enum {
	PL_BUILT = 1,
	PL_REJECT = 2,  /* no digest: a reference the unit cannot vouch for
	                 * (signature, specification, import, alt file,
	                 * discriminant), a form hashing does not take
	                 * (DW_FORM_indirect) or one the decoder fails on */
	PL_DECL = 4,    /* DW_AT_declaration as DW_FORM_flag_present */
	PL_FIXED = 8,   /* read by its fvals (read_fixed) */
	PL_STRING = 16, /* the same, with a DW_FORM_string (read_fixed_str) */
};

/*
 * One abbreviation, ready to hash DIEs: its shape (tag, children, the
 * (attribute, form) pairs the reader decodes - a constant's form left
 * out, its value says it all - and the unit's widths) digested once, fed
 * ahead of each DIE's values; then its ops.
 */
struct plan {
	struct sf_fp shape;
	uint32_t first, nops;   /* into sf_fpcache.ops */
	uint16_t tag;
	uint8_t children;
	uint8_t flags;
	/* PL_FIXED: its fvals, the DIE's size past its code, and where its
	 * references are (NO_REF: none), how wide, unit-relative or not */
	uint32_t ffirst;        /* into sf_fpcache.fvals */
	uint8_t nfv, size;      /* (PL_STRING: size past the string) */
	uint8_t str_at, str_name, nfv_pre; /* PL_STRING: where it starts, whether
	                         * it is DW_AT_name, the fvals before it */
	uint8_t type_at, type_n, type_rel;
	uint8_t sib_at, sib_n, sib_rel;
	uint8_t name_at, name_n, name_alt; /* DW_AT_name's offset, if fed */
	uint8_t decl_at;        /* DW_AT_declaration as DW_FORM_flag */
};

/* The plans of one abbreviation table as one unit reads it (the widths
 * of its forms are the unit's), indexed by abbreviation code when the
 * codes are dense (they nearly always run 1..N), else like the table. */
struct plantab {
	const struct sf_abbrevs *ab;
	const struct sf_unit *u;
	int local;
	size_t ncode;           /* by code: codes below it; 0: by index */
	struct plan *plans;
	size_t cap;
};

/* A unit's hash plans: per abbreviation table the unit reads through
 * (one or two), one `struct plan` per abbreviation, made when first met;
 * their ops and fvals in one array each.  Dropped at a unit's end
 * (sf_fpplans_reset), the memory kept. */
struct fp_plans {
	struct plantab *tabs;
	size_t ntabs, tabcap;
	struct op *ops;
	size_t nops, opcap;
	struct fval *fvals;     /* the fixed plans' (ops' twins) */
	size_t nfvals, fvalcap;
	unsigned skip;          /* plan_build: bytes to skip before the next op */
	int no_fixed;           /* tests: no plan made fixed (sf_fpcache_fixed) */
	size_t nfixed;          /* plans made fixed, ever */
};

static inline uint64_t low_bytes(unsigned n)
{
	return n >= 8 ? ~0ull : (1ull << (8 * n)) - 1;
}

/* The plans of the table cx decodes with (`local`: strings by offset),
 * made on first use in this unit. */
struct plantab *sf_fpplans_for(struct fp_plans *c, const struct sf_ucx *cx, int local);
/* The plan of abbreviation `code` of t, made when missing (NULL: the
 * table has no such code); cx the unit, `tag` which file it is. */
const struct plan *sf_fpplan_find(struct fp_plans *c, const struct plantab *t, uint64_t code,
				  const struct sf_ucx *cx, int local, uint64_t tag);
/* A unit ends: its plans go, their memory stays. */
static inline void sf_fpplans_reset(struct fp_plans *c)
{
	c->ntabs = 0;
	c->nops = 0;
	c->nfvals = 0;
}
void sf_fpplans_free(struct fp_plans *c);

#endif
