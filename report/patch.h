/*
 * patch.h - the words of `structfit patch` around its diff: the header
 * above the diff (or the message --apply prints), and the line saying
 * there is nothing to patch.
 *
 * cmd/patch.c makes the plan (layout/plan.h), finds the source
 * (input/srctree.h) and rewrites it (layout/srcpatch.h, rustpatch.h); it
 * hands the facts here in a view and prints what comes back.  `note`
 * carries the lines found on the way (the source of truth, #if blocks
 * kept whole, the uses searched), each "  ...\n", in the order found.
 */
#ifndef SF_REPORT_PATCH_H
#define SF_REPORT_PATCH_H

#include <stddef.h>
#include <stdint.h>

#include "layout/rust.h"
#include "layout/srcpatch.h"
#include "lib/strbuf.h"
#include "model/model.h"

struct sf_patch_view {
	const struct sf_type *type;                 /* the struct patched */
	const char *rel;                            /* its file, below the source root */
	uint64_t old_size, new_size;
	uint32_t moves;                             /* members moved */
	const struct sf_srcpatch_narrow *narrow;    /* members narrowed */
	size_t nnarrow;
	const struct strbuf *note;                  /* lines found on the way */
};

/*
 * "structfit patch: struct S in F: 48 -> 40 bytes, 2 members moved", a
 * line per narrowing with the range the member must hold, the notes, and
 * for a struct rustc orders, that only the types change.
 */
void sf_render_patch_header(struct strbuf *out, const struct sf_patch_view *v);

/*
 * --niche: newtype `nt` (in rel) made NonNull so its Option needs no tag;
 * `sites` constructing sites (lines listed in `lines`) now check for
 * null.  t and its member are what suggest proposed the niche for.
 */
void sf_render_patch_niche_header(struct strbuf *out, const struct sf_type *t,
				  const char *member, const struct sf_niche *ni,
				  const char *nt, const char *rel, long sites,
				  const char *lines);

/* A note line: the members under an #if (lines if_line-endif_line) stay whole. */
void sf_render_patch_note_if(struct strbuf *out, uint32_t if_line, uint32_t endif_line);

/*
 * Nothing to patch: no smaller order for t (`kept_if`: none once its #if
 * blocks stay in place).  A line for stderr, without "structfit: ".
 */
void sf_render_patch_nothing(struct strbuf *out, const struct sf_type *t, int kept_if);

#endif
