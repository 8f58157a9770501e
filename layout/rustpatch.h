/*
 * rustpatch.h - `structfit patch` for a Rust struct: rewrite its body in
 * the source text, field types narrowed and (for a #[repr(C)] struct) the
 * fields in a new order.
 *
 * Only the plain form is rewritten, as rustfmt writes it:
 *
 *   [#[attr]...]
 *   [pub[(...)]] struct NAME {
 *       [// comment | #[attr]]...
 *       [pub[(...)]] field: Type,
 *       ...
 *   }
 *
 * A field carries the comment and attribute lines above it (and the blank
 * lines before those) when it moves.  Anything else - a tuple or generic
 * struct, two fields on a line, a brace inside the body, fields that are
 * not the DWARF's - is refused with the reason; so is a struct declared in
 * more than one place of the text.  Pure text work: the plan comes from
 * the same search `suggest` runs (cmd/patch.c).
 */
#ifndef SF_RUSTPATCH_H
#define SF_RUSTPATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/strbuf.h"
#include "model/model.h"
#include "srcpatch.h"

/* Why a struct's text is not rewritten; report/patch.c words it. */
enum sf_rustpatch_problem {
	SF_RUSTP_DECLARED_TWICE = 1,  /* `struct NAME` more than once in the text */
	SF_RUSTP_DECLARED_NOWHERE,    /* ... or nowhere */
	SF_RUSTP_NOT_A_FIELD,         /* a body line that is not `name: Type,` */
	SF_RUSTP_BRACE_IN_BODY,       /* a brace or ';' inside the body */
	SF_RUSTP_TWO_FIELDS,          /* two fields on one line */
	SF_RUSTP_NO_TYPE,             /* a field with no type */
	SF_RUSTP_TUPLE,               /* a tuple struct: no field names */
	SF_RUSTP_GENERIC,             /* a generic struct */
	SF_RUSTP_NOT_OPEN_LINE,       /* not `struct NAME {` ending its line */
	SF_RUSTP_NO_CLOSE,            /* no closing brace */
	SF_RUSTP_OTHER_FIELDS,        /* not the DWARF's fields (another version?) */
	SF_RUSTP_NOT_POINTER_TUPLE,   /* NonNull: not `struct NAME(*const T);` */
	SF_RUSTP_NOT_RAW_POINTER,     /* NonNull: the field is not a raw pointer alone */
	SF_RUSTP_TUPLE_OF_MANY,       /* NonNull: more than one field */
	SF_RUSTP_SITE_NOT_ONE_ARG,    /* NonNull: a constructing site without one argument */
};

struct sf_rustpatch_refusal {
	enum sf_rustpatch_problem code;
	bool nonnull;                 /* from sf_rustpatch_nonnull (not _make) */
	const char *bare;             /* the struct's name, last path segment
	                               * (points into the caller's name) */
};

/* How many times text declares `struct NAME` (NAME: the last path segment). */
size_t sf_rustpatch_count(const char *text, size_t len, const char *name);

/*
 * Rewrite Rust struct t's definition in text[0..len) per plan (order:
 * the new field order by index of t->members, or NULL to keep the
 * source's - rustc orders a default-representation struct itself;
 * narrow: new widths) and
 * append the whole new text to out.  Returns 0, or -1 with why filled and
 * nothing appended.
 */
int sf_rustpatch_make(const char *text, size_t len,
		      const struct sf_type *t, const struct sf_srcpatch_plan *plan,
		      struct strbuf *out, struct sf_rustpatch_refusal *why);

/*
 * The NonNull niche: tuple struct NAME's one field, `*const T` or `*mut T`,
 * becomes `core::ptr::NonNull<T>`, so an Option of it needs no tag.  Each
 * constructing call `NAME(EXPR)` in text (not in a `//` comment) becomes
 * `NAME(core::ptr::NonNull::new((EXPR) as *mut T).expect("..."))`: checked
 * at run time, since nothing here can see that EXPR is never null (the
 * message is words->null_expect's).  The lines of those sites are
 * appended to sites ("139, 150").  Returns how many sites were rewritten,
 * or -1 with why filled and nothing appended.
 */
long sf_rustpatch_nonnull(const char *text, size_t len, const char *name,
			  const struct sf_patch_words *words, struct strbuf *out,
			  struct strbuf *sites, struct sf_rustpatch_refusal *why);

#endif
