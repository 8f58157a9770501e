/*
 * diff.h - renderers for `structfit diff`: a struct sf_diff (layout/diff.h)
 * as text for people or as one JSON document for machines.
 *
 * Text: one block per changed type (a header line, then one indented line
 * per member change, hole gained or lost, alignment, hole and padding
 * totals), one line per added or removed type, and a summary line.  JSON:
 * {"old","new","changed":[...],"added":[...],"removed":[...],"summary"}.
 * Both keep the diff's order (changed by growth, added, removed).
 */
#ifndef SF_REPORT_DIFF_H
#define SF_REPORT_DIFF_H

#include "layout/diff.h"
#include "lib/strbuf.h"

void sf_render_diff_text(struct strbuf *out, const struct sf_diff *d);
void sf_render_diff_json(struct strbuf *out, const struct sf_diff *d,
			 const char *old_label, const char *new_label);

#endif
