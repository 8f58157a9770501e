/*
 * live.h (report/) - the sentences about matching slab caches to structs
 * (layout/live.h): one stderr line counting what matched, and with
 * --verbose one line per cache not matched, rejected, or known to add a
 * tail after its struct.
 */
#ifndef SF_REPORT_LIVE_H
#define SF_REPORT_LIVE_H

#include <stdbool.h>
#include <stddef.h>

#include "layout/live.h"
#include "lib/strbuf.h"

/* "structfit: PATH: 312 caches: 95 matched a struct, ..." */
void sf_render_live_summary(struct strbuf *sb, const char *path,
			    const struct sf_slab_match *m, size_t n, bool verbose);
/* "structfit: slab foo_cache: struct foo (X bytes) rejected: ..." per cache
 * not matched, rejected, or matched with a tail. */
void sf_render_live_caches(struct strbuf *sb, const char *path,
			   const struct sf_slab_match *m, size_t n);

#endif
