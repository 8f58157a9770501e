/*
 * live.h (report/) - the sentences about matching slab caches to structs
 * (layout/live.h): one stderr line counting what matched, and with
 * --verbose one line per cache not matched, rejected, or known to add a
 * tail after its struct; and for suggest and fit, what the live instances
 * cost before and after each proposal, in slabs or in size classes.
 */
#ifndef SF_REPORT_LIVE_H
#define SF_REPORT_LIVE_H

#include <stdbool.h>
#include <stddef.h>

#include "layout/live.h"
#include "lib/strbuf.h"

/*
 * Why a counts file or a slabinfo (path) does not parse, into err as
 * "PATH:LINE: problem" (layout/live.h's sf_live_why).  Returns -1.
 */
int sf_render_live_why(struct sf_err *err, const char *path, const struct sf_live_why *why);

/* "structfit: PATH: 312 caches: 95 matched a struct, ..." */
void sf_render_live_summary(struct strbuf *sb, const char *path,
			    const struct sf_slab_match *m, size_t n, bool verbose);
/* "structfit: slab foo_cache: struct foo (X bytes) rejected: ..." per cache
 * not matched, rejected, or matched with a tail. */
void sf_render_live_caches(struct strbuf *sb, const char *path,
			   const struct sf_slab_match *m, size_t n);

/* "structfit: struct X has no count in --counts FILE: no live figures" */
void sf_render_live_uncounted(struct strbuf *sb, const struct sf_type *t,
			      const char *counts_path, const char *slabinfo_path);

/*
 * suggest and fit: what the live instances of a type cost today (`now`,
 * its declared size) and after each proposal (layout/live.h's steps):
 *
 *   text head:  "live: 215,255 objects in slab ext4_inode_cache (objsize
 *                1,128: 14 per 4-page slab, 15,376 slabs, 240.3 MiB); <=
 *                1,088 bytes for 15", then the slot rule the figures follow
 *   text step:  "ext4_inode_cache: 14 -> 15 per 4-page slab: 1,025 fewer
 *                slabs (16.0 MiB) at 215,255 objects; <= 1,024 bytes for 16"
 *                or "at 1,000,000 instances: class 80 -> 64, 80,000,000 ->
 *                64,000,000 bytes (15.3 MiB fewer)"
 * JSON values (the caller writes the key):
 *   JSON head:  {count, source ("slabinfo"|"counts"), slab_cache,
 *                objsize, objperslab, pagesperslab, slot_align, slot_extra,
 *                model_agrees, per_slab, slabs, next_size, class, bytes}
 *   JSON step:  {per_slab_before, per_slab, slabs_before, slabs,
 *                fewer_slabs, next_size, class_before, class, bytes_before,
 *                bytes, fewer_bytes}
 *
 * Slab fields are null for counts; class fields null without classes.
 */
void sf_render_live_head_text(struct strbuf *sb, const struct sf_live_cost *c,
			      const struct sf_live_step *now);
void sf_render_live_step_text(struct strbuf *sb, const char *indent,
			      const struct sf_live_cost *c, const struct sf_live_step *before,
			      const struct sf_live_step *after);
void sf_render_live_head_json(struct strbuf *sb, const struct sf_live_cost *c,
			      const struct sf_live_step *now);
void sf_render_live_step_json(struct strbuf *sb, const struct sf_live_cost *c,
			      const struct sf_live_step *before,
			      const struct sf_live_step *after);

#endif
