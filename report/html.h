/*
 * html.h - a picture of a layout: one self-contained HTML page with an
 * inline-SVG byte map per type (`show --format html`), a ranked page of the
 * worst offenders linking to their maps (`holes --format html`) and the
 * current and proposed layouts side by side (`suggest --format html`).
 *
 * The page needs no network and no JavaScript: CSS is inline in <head>, the
 * hatch patterns live in one hidden <svg> right after <body>, every map is
 * an inline <svg>.  Like the other renderers, these functions only append
 * to a strbuf and never compute a layout: each type comes with the struct
 * sf_layout that layout/holes.c computed for it.  A caller streams:
 *
 *   sf_render_html_begin(&sb, "structfit: a.o");
 *   for each type t:
 *       sf_layout_compute(t, cacheline, &l);
 *       sf_render_html_type(&sb, t, &l, cacheline);
 *       fwrite(sb.buf, 1, sb.len, stdout); sb_reset(&sb);
 *       sf_layout_release(&l);
 *   sf_render_html_end(&sb);
 *
 * The map: one row per cacheline (`cacheline` bytes wide), each member a
 * coloured box labelled with its name (truncated to fit; the full name is
 * in a <title> tooltip and in the table beside the map), holes and padding
 * hatched and labelled with their size, bit-fields at bit granularity.
 * Members that overlap (unions) are stacked in lanes.  Every box is one SVG
 * <g> carrying data attributes, so tests (and scripts) can read the page:
 *
 *   <g class="member"  data-name="N" data-type="T" data-offset="B" data-size="S"
 *                      [data-bit-offset="b" data-bit-size="n"]>   bit-fields
 *   <g class="hole"        data-offset="B" data-size="S">
 *   <g class="bit-hole"    data-offset="B" data-bit-offset="b" data-bit-size="n">
 *   <g class="padding"     data-offset="B" data-size="S">
 *   <g class="bit-padding" data-offset="B" data-bit-offset="b" data-bit-size="n">
 *
 * (data-offset of a bit-field is its storage unit's byte offset, as in the
 * model.)  Each type's <section class="type"> has data-name, data-size and
 * an id made by html.c's html_anchor(), which the ranked page links to.
 */
#ifndef SF_HTML_H
#define SF_HTML_H

#include "layout/holes.h"
#include "model/model.h"
#include "layout/rank.h"
#include "lib/strbuf.h"

/* <!DOCTYPE html>, <head> with the CSS, <body>, the <h1> title, the legend. */
void sf_render_html_begin(struct strbuf *out, const char *title);

/*
 * One type's section: heading, summary line, byte map and numbers table.
 * `cacheline` is the row width in bytes; 0 means l->cacheline (or 64).
 */
void sf_render_html_type(struct strbuf *out, const struct sf_type *t,
			 const struct sf_layout *l, unsigned cacheline);

/* Closes </body></html> and ends with a newline. */
void sf_render_html_end(struct strbuf *out);

/*
 * `holes --format html`: a table of the ranking (already finished by
 * sf_rank_finish), one row per entry, each type's name a link to
 * #(its anchor).  The caller then renders each entry's map with
 * sf_render_html_type() so the links land.
 */
void sf_render_html_rank(struct strbuf *out, const struct sf_rank *r);

/*
 * `suggest --format html`: current and proposed layout side by side, each
 * with its map and table.  Members of the proposal whose offset or size
 * differ from the member of the same name in the current layout are
 * outlined (class "member moved" / "member narrowed").  `caption` says what
 * the proposal is ("reorder: 48 -> 40 bytes"); NULL for a default.  May be
 * called several times on one page (e.g. reorder, then each narrowing).
 */
void sf_render_html_compare(struct strbuf *out,
			    const struct sf_type *cur, const struct sf_layout *lcur,
			    const struct sf_type *prop, const struct sf_layout *lprop,
			    unsigned cacheline, const char *caption);

#endif
