/*
 * srcstore.h - every store to a member, found in a lexed C file, and
 * whether what is stored is shown to fit a narrower width.
 *
 * A narrowing is safe only if every value stored into the member fits the
 * new width.  structfit has a lexer (clex.h), not a compiler: it finds the
 * stores by the member's name and judges the stored value conservatively:
 *
 *   x->m = e;  x.m = e;       SF_STORE_ASSIGN
 *   x->m += e; (any op=)      SF_STORE_COMPOUND
 *   x->m++; --x.m;            SF_STORE_INCDEC
 *   { .m = e, ... }           SF_STORE_INIT (a designated initializer)
 *   &x->m, &x.m               SF_STORE_ADDRESS (stores through the pointer
 *                             cannot be seen)
 *
 * A store fits only when its value is an integer literal (optionally
 * negated, parenthesized, with u/l suffixes) inside the new range; a
 * literal outside it, a call, a variable or any other expression counts as
 * wider, as do compound assignments, ++/-- and taking the address.  The
 * name is matched without the type of x: a member of the same name in
 * another struct is listed too (over-refusing is the safe side).
 *
 * An assignment that is a whole statement (`LHS = e;` after `;`, `{`, `}`
 * or `)`, LHS a chain of names, `->`, `.` and `[...]` without calls or
 * ++/--) can be rewritten to saturate: sf_srcstore_saturate() replaces it
 * by a block that evaluates e once and clamps it to the new range.
 */
#ifndef SF_SRCSTORE_H
#define SF_SRCSTORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clex.h"
#include "lib/strbuf.h"

enum sf_store_kind {
	SF_STORE_ASSIGN = 1,
	SF_STORE_COMPOUND,
	SF_STORE_INCDEC,
	SF_STORE_INIT,
	SF_STORE_ADDRESS,
};

struct sf_store {
	uint32_t line;
	uint8_t kind;             /* enum sf_store_kind */
	bool fits;                /* a literal shown to fit the new range */
	bool rewritable;          /* a whole-statement assignment */
	size_t stmt_start;        /* bytes of the statement (rewritable) */
	size_t rhs_start, rhs_end;  /* bytes of e (ASSIGN, INIT) */
	size_t lhs_end;           /* end of LHS (rewritable) */
	size_t stmt_end;          /* after its ';' (rewritable) */
};

/* The range a narrowed member holds: [min, max] */
struct sf_store_range {
	bool is_signed;
	int64_t min;
	uint64_t max;
};

/* The range of `bytes` (1, 2, 4, 8) bytes, signed or not. */
struct sf_store_range sf_store_range_of(unsigned bytes, bool is_signed);

/* A store found in a file below the source root (input/srctree.c). */
struct sf_srcstore {
	char *rel;
	struct sf_store store;
};

void sf_srcstores_release(struct sf_srcstore *v, size_t n);

/* The stores to members named `member` in lx, appended to *v (*n). */
void sf_srcstore_find(const struct sf_lexed *lx, const char *member,
		      const struct sf_store_range *r, struct sf_store **v, size_t *n);

/*
 * text with each rewritable store of v[0..n) replaced by a clamp to r
 * (`{ unsigned long long sf_v_ = (e); LHS = (T)(sf_v_ > MAX ? MAX : sf_v_); }`,
 * T being `ctype`), into out.  Stores not rewritable are left as they are.
 */
void sf_srcstore_saturate(const char *text, size_t len, const struct sf_store *v,
			  size_t n, const struct sf_store_range *r, const char *ctype,
			  struct strbuf *out);

#endif
