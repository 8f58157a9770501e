/*
 * cdecl.h - find a struct's definition in C source text and read its body
 * as declarations matched one by one against the model (read from DWARF).
 *
 * sf_cdecl_parse() fills a struct sf_cstruct over an already lexed file
 * (clex.h).  The body is split into declarations (every `;` at bracket
 * depth 0) and those into declarators (`,` at depth 0); each declarator is
 * matched, in order, against the model's members: same names, bit-field
 * widths, and types spelled canonically on both sides (`long unsigned int`
 * == `unsigned long`, qualifiers sorted, parameter names dropped, array
 * sizes compared only when the source spells them as a literal; words the
 * DWARF never saw, such as `__rcu`, may be left out).  Anonymous
 * struct/union members are checked recursively against their nested
 * model.  Anything else - a preprocessor line in the body, a macro that
 * expands to members, a member the model does not have - is a refusal,
 * never a guess: its reason as data in *x->why (srcwhy.h), which
 * report/srcwhy.c words.
 *
 *   struct sf_cstruct
 *   +------------+  decls[ndecls]  one per `;`: its code range, where its
 *   | t, name_ci |                 specifiers end, its declarators
 *   | open/close | dtors[ndtors]   one per member, in source order
 *   | decls -------> dtor_of[m]    model member -> dtors[] index
 *   | dtors -------> units[nunits] source lines that go together
 *   | units      |
 *   +------------+
 *
 * Units.  Declarations sharing a line, plus the comment lines directly
 * above them (no blank line between), form a unit: the rewriter copies a
 * unit verbatim when its members stay together.  Comment lines after a
 * blank line (or the `{`) above a group of declarations that do not name
 * the first one's members head the group: they are not its unit's but free.  An #if ... #endif block
 * whose compiled branch has members is one unit, all its lines: it can
 * only stay whole.  Every other line of the body (blank lines, comments
 * that stand apart) is free.
 */
#ifndef SF_CDECL_H
#define SF_CDECL_H

#include <stddef.h>
#include <stdint.h>

#include "clex.h"
#include "cxxwhy.h"
#include "model/model.h"
#include "srcwhy.h"

struct sf_dtor {
	size_t first, last;      /* code indexes, inclusive */
	size_t name;             /* code index of the name; SF_CLEX_NONE: anonymous */
	uint32_t member;         /* index in the model */
	uint32_t decl;
	size_t init;             /* C++: code index of its default member
	                          * initializer's `=` or `{` (up to last),
	                          * else SF_CLEX_NONE */
	int dependent;           /* C++: its type names a parameter of the
	                          * class template (never compared, never
	                          * narrowed) */
};

struct sf_decl {
	size_t first, semi;      /* code indexes of the first token and `;` */
	size_t spec_end;         /* one past the last specifier (code index) */
	uint32_t d0, nd;         /* dtors[d0 .. d0 + nd) */
	uint32_t line0, line1;   /* first code line; last line incl. comments */
	size_t post_end;         /* tok index one past its trailing comments */
	int is_assert;
	int has_body;
	int block;               /* index in blocks[] of its #if, or -1 */
	uint8_t access;          /* C++: enum sf_access of its section, else 0 */
};

/* C++ access, as the label spells it; SF_ACC_NONE in C. */
enum sf_access {
	SF_ACC_NONE = 0,
	SF_ACC_PUBLIC,
	SF_ACC_PROTECTED,
	SF_ACC_PRIVATE,
};

/* What a line of a C++ body is to the rewriter (sf_cstruct.line_kind). */
enum {
	SF_LINE_FREE = 0,        /* blank, comment, or a data member's */
	SF_LINE_LABEL = 1 << 4,  /* an access label; | its enum sf_access */
	SF_LINE_FIXED = 2 << 4,  /* a declaration that stays; | its access */
};

struct sf_unit {
	uint32_t l0, code0, l1;  /* lines: leading comments, first code, last */
	uint32_t decl0, ndecl;
	uint32_t m0, nm;         /* model members m0 .. m0 + nm - 1 */
	int has_assert;
	int block;               /* an #if block's lines (index in blocks[]), or -1 */
};

/*
 * An #if ... #endif block in the body (not nested).  Its branches are
 * [tok[k], tok[k + 1]) of tok[]; the build compiled one of them (or none:
 * `active` == nbranch for an #if with no #else whose members are absent),
 * found by matching each branch against the model.
 */
#define SF_CDECL_MAX_BRANCH 32
struct sf_cblock {
	size_t tok[SF_CDECL_MAX_BRANCH + 1]; /* #if, each #elif/#else, #endif */
	uint32_t nbranch;
	int has_else;
	uint32_t if_line, endif_line;
	uint32_t active;
	uint32_t m0, nm;         /* the active branch's members in the model */
	int other_decls;         /* a branch the build did not compile declares
	                          * something (its sizes are unknown here) */
};

struct sf_cstruct {
	const struct sf_type *t;
	size_t name_ci, open_ci, close_ci; /* code indexes: definition, { and } */
	struct sf_decl *decls;
	size_t ndecls, decl_cap;
	struct sf_dtor *dtors;
	size_t ndtors, dtor_cap;
	uint32_t *dtor_of;       /* model member -> dtors[] index */
	struct sf_unit *units;
	size_t nunits, unit_cap;
	struct sf_cblock *blocks;
	size_t nblocks, block_cap;
	int cur_block;           /* while matching: the block being recorded */
	/* C++ only (NULL / 0 in C) */
	int cxx;
	uint8_t default_access;  /* private for `class`, public for `struct` */
	uint8_t cur_access;      /* while matching: the section's */
	uint8_t *line_kind;      /* per line of the file: SF_LINE_* | access */
	uint32_t label_line;     /* a label's line (its indent), else 0 */
	uint32_t nlabels;
	int has_ctor;            /* declares a constructor (not an aggregate) */
	int virtual_fn;          /* declares a virtual function (not an aggregate) */
};

struct sf_cdecl_ctx {
	const char *path;        /* the file, as refusals name it */
	const char *tname;       /* the struct, as refusals name it */
	struct sf_lexed lx;
	struct sf_src_why *why;  /* where a refusal goes (the caller's) */
	const struct sf_cmacros *macros;   /* may be NULL */
	int cxx;                 /* set by sf_cdecl_parse from the model */
	size_t tp_first, tp_end; /* C++: the parameters of the class template
	                          * being read, code tokens [tp_first, tp_end)
	                          * inside `template <...>` (tp_end 0: none) */
};

/* The longest identifier a refusal quotes (a longer one is cut). */
#define SF_CDECL_NAME_MAX 128

/*
 * A refusal: *x->why cleared, then its kind, file, struct and lines set;
 * returns x->why for the caller to add the kind's other values.
 */
struct sf_src_why *sf_cdecl_refuse(struct sf_cdecl_ctx *x, enum sf_src_refusal kind,
				   uint32_t line, uint32_t line2);
/* A C++ refusal (cxxwhy.h) into *x->why; returns -1. */
int sf_cdecl_refuse_cxx(struct sf_cdecl_ctx *x, struct sf_cxx_why cxx);

/*
 * Find t's definition in x->lx (the one on t->decl_line, else the only
 * one), check the body's shape and match it against t.  Returns 0, or -1
 * with *x->why saying why.  p is always initialized: release it with
 * sf_cdecl_free() either way.
 */
int sf_cdecl_parse(struct sf_cdecl_ctx *x, const struct sf_type *t,
		   struct sf_cstruct *p);
void sf_cdecl_free(struct sf_cstruct *p);

/*
 * Every definition of struct t->name in x->lx, and whether its body
 * matches t (the same struct, or another one that shares its name).
 * Fills out[0 .. max) and returns how many there are.
 */
struct sf_cdecl_def {
	uint32_t line;
	int matches;
};
size_t sf_cdecl_definitions(struct sf_cdecl_ctx *x, const struct sf_type *t,
			    struct sf_cdecl_def *out, size_t max);

/* The namespaces and classes around code token ci of lx, outermost
 * first: "net::Conn" (a `namespace {` is "(anonymous namespace)"). */
void sf_cdecl_scope_at(const struct sf_lexed *lx, size_t ci, struct strbuf *out);

#endif
