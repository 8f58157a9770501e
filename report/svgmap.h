/*
 * svgmap.h - inside report/: the parts of one type's picture that
 * report/html.c puts on its page (see html.h for the page's contract).
 */
#ifndef SF_SVGMAP_H
#define SF_SVGMAP_H

#include "layout/holes.h"
#include "model/model.h"
#include "lib/strbuf.h"

/*
 * The summary line, the byte map (an inline <svg>, one row per
 * `cacheline` bytes; left out with a note when it would need more rows
 * than any real struct) and the numbers table of t laid out as l.  With
 * `against` (a compare's current type), members whose offset or size
 * differ from its member of the same name are outlined.
 */
void sf_svgmap_draw(struct strbuf *sb, const struct sf_type *t,
		    const struct sf_layout *l, unsigned cacheline,
		    const struct sf_type *against);

/* "struct NAME", escaped for HTML ("(anonymous)" for no name). */
void sf_svgmap_type_title(struct strbuf *sb, const struct sf_type *t);

/* The legend's swatches: a colour per kind of member, the hatches. */
void sf_svgmap_legend(struct strbuf *sb);

#endif
