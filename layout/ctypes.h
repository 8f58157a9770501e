/*
 * ctypes.h - whether the tokens of a member's type in the source name the
 * type the build's DWARF gives the member.
 *
 * Both sides are spelled canonically (ctypes.c) and compared; when they
 * differ, two readings of the source may still make them equal: leaving
 * out words the DWARF never sees (annotation macros that expand to
 * nothing: `z_const`, `__rcu`), or expanding the object-like macros of
 * the source tree (`#define redisAtomic _Atomic`, `#define rb_pid_t
 * pid_t`).  Keywords, qualifiers and tag names are never left out, so a
 * changed type still differs.
 */
#ifndef SF_CTYPES_H
#define SF_CTYPES_H

#include <stddef.h>

#include "clex.h"
#include "lib/strbuf.h"
#include "model/model.h"

/* Canonical spelling of a model member's type (type_name + type_suffix). */
void sf_ctype_canon_member(const struct sf_member *m, struct strbuf *out);

/*
 * Whether code tokens keep[0..n) of lx (a member's type, its name,
 * attributes and parameter names left out) spell `model` (canonical).
 * macros may be NULL.
 */
int sf_ctype_same(const struct sf_lexed *lx, const size_t *keep, size_t n,
		  const char *model, const struct sf_cmacros *macros);

#endif
