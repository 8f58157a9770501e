/*
 * reorg.h - the words of pahole's -R (structfit pahole): each move of
 * --show_reorg_steps and -V (layout/reorgsteps.h), the header of the final
 * struct, and the saving after it, as pahole 1.24 words them
 * (dwarves_reorganize.c, class__move_member; pahole.c, do_reorg).
 */
#ifndef SF_REPORT_REORG_H
#define SF_REPORT_REORG_H

#include <stdint.h>

#include "layout/reorgsteps.h"
#include "lib/strbuf.h"

/* "/\* Moving 'm' from after 'p' to after 'd' *\/\n" (a bit-field run:
 * "bitfield('first' ... 'last')"; "the start" where no unit is before). */
void sf_render_reorg_step(struct strbuf *out, const struct sf_units *us,
			  const struct sf_reorg_step *s);
/* "/\* Final reorganized struct: *\/\n" */
void sf_render_reorg_final(struct strbuf *out);
/* "   /\* saved N bytes[ and M cachelines]! *\/\n", after the closing "};". */
void sf_render_reorg_saved(struct strbuf *out, uint64_t saved, uint64_t cachelines);

#endif
