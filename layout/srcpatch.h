/*
 * srcpatch.h - rewrite a struct's definition in its source text so that it
 * declares the members in a new order, some of them narrowed.
 *
 * Pure text processing: no DWARF, no file I/O.  The caller hands over the
 * whole source file, the struct's model (read from DWARF at build time),
 * and a plan: the new order of the model's members and a set of
 * narrowings {member, new bytes}.  sf_srcpatch_make() returns the whole new
 * file text; report/udiff.c turns old and new text into a patch.
 *
 * How (clex.h lexes, cdecl.h finds and matches, srcpatch.c rewrites):
 *
 *   1. Lex the file (comments, strings, preprocessor lines are tokens).
 *   2. Find `struct NAME ... {` (NAME on the DWARF decl_line, or the one
 *      definition of NAME in the file), and its matching `}`.
 *   3. Split the body into declarations (`;`) and declarators (`,`), and
 *      match them one by one against the model's members: names, order,
 *      bit-field widths and types (spelled canonically, object-like macros
 *      expanded).  An #if block (one level) is matched by the branch the
 *      build compiled and stays whole.  Anything else - another
 *      preprocessor line in the body, a macro that expands to members, a
 *      member the model does not have - is a refusal, never a guess: its
 *      reason comes back as data (srcwhy.h), which report/srcwhy.c words.
 *   4. Group source lines into units (declarations that share a line, with
 *      the comment lines right above them) and free lines (blank lines,
 *      comments followed by a blank line, _Static_assert).
 *   5. Emit the new body: a unit whose members stay together, in order and
 *      unnarrowed, is copied byte for byte; any other member is written on
 *      a line of its own with its own comments and attributes (a comment
 *      after a shared line goes to each of its members; the comment lines
 *      above it stay with its first member that does not move).  Free
 *      lines stay in front of the first member after them that does not
 *      move.
 *
 * Only the lines between the line of `{` and the line of `}` change.
 *
 * C++ classes and structs (SF_TF_CXX) too: access labels written where
 * the new order needs them, member functions and the like left in place,
 * default member initializers moving with their members (cdecl.h says how
 * the body is read); a refusal particular to C++ comes back as the why's
 * cxx (layout/cxxwhy.h).  Constructors' initializer lists are
 * ctorinit.h's.
 */
#ifndef SF_SRCPATCH_H
#define SF_SRCPATCH_H

#include <stddef.h>
#include <stdint.h>

#include "lib/strbuf.h"
#include "clex.h"
#include "model/model.h"
#include "srcwhy.h"

/* Narrow member `member` (index in t->members) to `bytes` (1, 2, 4, 8). */
struct sf_srcpatch_narrow {
	uint32_t member;
	uint32_t bytes;
};

/*
 * The words a patch writes into the source beside the code it changes:
 * report/patch.c's sf_patch_words fills them (layout/ writes the code,
 * report/ the sentences).  Each appends to out.
 */
struct sf_patch_words {
	/* after a narrowed C member's `;` (m as the build has it; range: the
	 * values its new type holds, "0..255") */
	void (*c_narrowed)(struct strbuf *out, const struct sf_member *m, const char *range);
	/* after a narrowed Rust field's `,`: its old type as the source spells
	 * it (was[0..was_len)) */
	void (*rust_narrowed)(struct strbuf *out, const char *was, size_t was_len,
			      const char *range);
	/* the message of the expect() a NonNull constructor calls (rustpatch.h),
	 * inside its string literal: about newtype `name` */
	void (*null_expect)(struct strbuf *out, const char *name);
};

struct sf_srcpatch_plan {
	/* every index of t->members exactly once: the new declaration order */
	const uint32_t *order;
	uint32_t norder;
	const struct sf_srcpatch_narrow *narrow;
	size_t nnarrow;
	/*
	 * per member, nonzero when it moves (the reorder search's own choice
	 * among equally long kept sequences); NULL: a longest increasing
	 * subsequence of the order is kept
	 */
	const uint8_t *moved;
	/*
	 * object-like macros of the source tree (clex.h), NULL for none: a
	 * member whose type is spelled with one is read with it expanded
	 */
	const struct sf_cmacros *macros;
	/* the comment beside each narrowed member; NULL: none written */
	const struct sf_patch_words *words;
};

struct sf_srcpatch_info {
	uint32_t open_line;      /* line of the struct's `{` (1-based) */
	uint32_t close_line;     /* line of its `}` */
	uint32_t found_line;     /* line of the struct's name in the source */
	int uses_stdint;         /* <stdint.h> or <inttypes.h> included above it */
	uint32_t split_decls;    /* declarations split into one member a line */
};

/*
 * Rewrite t's definition in text[0..len) per plan; append the whole new
 * file text to out.  `path` only names the file in the refusal.  Returns
 * 0, or -1 with *why saying why (nothing appended to out).  `info` may be
 * NULL.
 */
int sf_srcpatch_make(const char *path, const char *text, size_t len,
		     const struct sf_type *t,
		     const struct sf_srcpatch_plan *plan, struct strbuf *out,
		     struct sf_srcpatch_info *info, struct sf_src_why *why);

/*
 * The #if ... #endif blocks in t's definition whose compiled branch has
 * members (model members m0 .. m0 + nm - 1): a plan must keep each one
 * whole, in order, unnarrowed; other_decls when a branch the build did not
 * compile declares something (whose sizes the DWARF does not give).  *out is
 * malloc'ed (NULL when none).  Returns 0, or -1 with *why when the
 * definition cannot be read (the reason sf_srcpatch_make() would give).
 */
struct sf_srcpatch_block {
	uint32_t m0, nm;
	uint32_t if_line, endif_line;
	int other_decls;
};
int sf_srcpatch_blocks(const char *path, const char *text, size_t len,
		       const struct sf_type *t, const struct sf_cmacros *macros,
		       struct sf_srcpatch_block **out, size_t *n,
		       struct sf_src_why *why);

/*
 * C++: whether t's definition in text[0..len) makes it an aggregate (no
 * constructor, no virtual function, no base, every data member public),
 * the only kind a brace list initializes by position: 1 or 0, -1 when
 * the definition cannot be read (or t is C).
 */
int sf_srcpatch_aggregate(const char *path, const char *text, size_t len,
			  const struct sf_type *t, const struct sf_cmacros *macros);

/*
 * The C type a member narrowed to `bytes` gets: "uint8_t", "int16_t", ...
 * with <stdint.h>, else "unsigned char", "short", ...  NULL when bytes is
 * not 1, 2, 4 or 8.
 */
const char *sf_srcpatch_narrow_type(unsigned bytes, int is_signed,
				    int have_stdint);

/* The values `bytes` holds, "0..255" or "-128..127", into buf. */
const char *sf_srcpatch_range(unsigned bytes, int is_signed, char *buf,
			      size_t bufsz);

#endif
