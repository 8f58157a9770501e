/*
 * srcwhy.h - why a struct's C (or C++) source is not read or not
 * rewritten, as data: layout/cdecl.c and layout/srcpatch.c fill it,
 * report/srcwhy.c words it ("PATH: struct NAME: problem"), cmd/ prints it.
 *
 *   struct sf_src_why { kind, the file and the struct named,
 *                       lines, numbers, model names, source text at fault,
 *                       a C++ refusal (cxxwhy.h), read_back }
 *
 * sf_src_why_stale() is cmd/'s question: does the refusal say the file
 * changed since the build (a struct held by value gone stale)?
 *
 * Which fields a kind fills is said beside it; the others are 0 / NULL /
 * "".  Names (tname, name, name2, suffix) point into the model and the
 * caller's strings, which outlive the why; the source text is copied
 * (the lexed file is gone when the why is read).
 */
#ifndef SF_SRCWHY_H
#define SF_SRCWHY_H

#include <stdint.h>

#include "cxxwhy.h"
#include "lib/err.h"

enum sf_src_refusal {
	SF_SRC_NONE = 0,
	SF_SRC_CXX,              /* a C++ refusal: cxx */
	/* finding the definition (cdecl.c) */
	SF_SRC_NO_DEFINITION,    /* none in the file */
	SF_SRC_NONE_ON_LINE,     /* a definitions, none on line (the build's) */
	SF_SRC_NO_CLOSE,         /* no `}` for the `{` on line */
	/* the body's shape */
	SF_SRC_DIRECTIVE,        /* a directive other than #if & co. on line */
	SF_SRC_IF_NESTED,        /* an #if (line2) inside the #if on line */
	SF_SRC_ELSE_NO_IF,       /* #else/#elif/#endif on line, no #if open */
	SF_SRC_IF_BRANCHES,      /* the #if on line: too many branches, or one
	                          * after #else (line2) */
	SF_SRC_IF_OPEN,          /* the #if on line not closed in the body */
	SF_SRC_ONE_LINE,         /* the body shares line with other code */
	/* the declarations against the model */
	SF_SRC_MACRO,            /* text on line is a macro making members */
	SF_SRC_TYPE_DIFFERS,     /* member name (line) declared text, the
	                          * DWARF has name2 suffix */
	SF_SRC_BITFIELD_DIFFERS, /* member name (line): a bit-field in the
	                          * source (a = 1) or in the DWARF (a = 0) only */
	SF_SRC_BITS_DIFFER,      /* bit-field name (line): a bits in the source,
	                          * b in the DWARF */
	SF_SRC_MEMBER_MISSING,   /* the DWARF's member name ("" anonymous) is
	                          * not in the source */
	SF_SRC_NOT_A_MEMBER,     /* text (line) is not a member in the DWARF */
	SF_SRC_UNNAMED_BITFIELD, /* an unnamed bit-field on line */
	SF_SRC_DECLARES_OTHER,   /* line declares text where the DWARF has name */
	SF_SRC_UNBALANCED,       /* unbalanced brackets in the declaration on line */
	SF_SRC_DIRECTIVE_IN_DECL,/* a directive (line2) inside the declaration
	                          * on line */
	SF_SRC_NO_BRANCH,        /* no branch of the #if on line matches */
	SF_SRC_NOT_A_DECL,       /* line holds something not a declaration */
	/* the rewrite (srcpatch.c) */
	SF_SRC_ASSERT_MOVES,     /* line mixes _Static_assert with members that move */
	SF_SRC_COMMENT_ENDS,     /* a comment ends on line before a member that moves */
	SF_SRC_NARROW,           /* member name cannot be narrowed to a bytes:
	                          * b is an enum sf_src_narrow */
	SF_SRC_BITFIELDS_SPLIT,  /* the order separates bit-fields name and
	                          * name2 that share a storage unit */
	SF_SRC_ORDER_COUNT,      /* the order has a members, the struct b */
	SF_SRC_NOT_PERMUTATION,  /* the order is not a permutation */
	SF_SRC_NO_SUCH_MEMBER,   /* a narrowing of member #a */
	SF_SRC_ANONYMOUS,        /* the struct has no name to find */
	SF_SRC_NOT_C_STRUCT,     /* a kind_name (union, class) */
	SF_SRC_CXX_BASES,        /* a C struct with C++ bases */
};

/* Why a member cannot be narrowed (SF_SRC_NARROW's b). */
enum sf_src_narrow {
	SF_SRC_NARROW_WIDTH = 1, /* the width is not 1, 2, 4 or 8 */
	SF_SRC_NARROW_BITFIELD,
	SF_SRC_NARROW_TYPE,      /* not an integer, enum, bool or pointer */
	SF_SRC_NARROW_ARRAY,
	SF_SRC_NARROW_NOT_SMALLER,
	SF_SRC_NARROW_ALIGNED,   /* an explicit alignment */
};

/* The longest source text a why keeps (a message is cut shorter). */
#define SF_SRC_TEXT_MAX SF_ERR_MAX

struct sf_src_why {
	enum sf_src_refusal kind;
	const char *path;        /* the file, as the caller named it */
	const char *tname;       /* the struct's name */
	const char *kind_name;   /* SF_SRC_NOT_C_STRUCT: "union", "class" */
	uint32_t line, line2;    /* lines of the file */
	uint64_t a, b;           /* numbers, per kind */
	const char *name, *name2, *suffix;  /* model names, per kind */
	char text[SF_SRC_TEXT_MAX];         /* source text at fault */
	struct sf_cxx_why cxx;   /* SF_SRC_CXX */
	int read_back;           /* found reading the rewritten text back: a
	                          * bug of the rewriter, nothing written */
};

/* Whether why says the source changed since the build: the file no
 * longer declares what the build's DWARF has. */
static inline int sf_src_why_stale(const struct sf_src_why *why)
{
	switch (why->kind) {
	case SF_SRC_NO_DEFINITION:
	case SF_SRC_TYPE_DIFFERS:
	case SF_SRC_BITFIELD_DIFFERS:
	case SF_SRC_BITS_DIFFER:
	case SF_SRC_MEMBER_MISSING:
	case SF_SRC_NOT_A_MEMBER:
	case SF_SRC_DECLARES_OTHER:
		return 1;
	default:
		return 0;
	}
}

#endif
