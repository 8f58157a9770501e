/*
 * diff.h - renderers for `structfit diff`: a struct sf_diff (layout/diff.h)
 * as text for people or as one JSON document for machines.
 *
 * Text: one block per changed type (a header line, then one indented line
 * per member change, hole gained or lost, alignment, hole and padding
 * totals), one line per added or removed type, and a summary line.  JSON:
 * {"schema","command":"diff","old_input","new_input","changed":[{name, kind,
 * decl_file, decl_line, growth, old:{size, align, holes_count, sum_holes,
 * padding, waste}, new:{...}, reordered, members, holes}],"added":[...],
 * "removed":[...],"summary"}.
 * Both keep the diff's order (changed by growth, added, removed).
 */
#ifndef SF_REPORT_DIFF_H
#define SF_REPORT_DIFF_H

#include "layout/diff.h"
#include <stdbool.h>

#include "lib/err.h"
#include "lib/strbuf.h"

void sf_render_diff_text(struct strbuf *out, const struct sf_diff *d);
void sf_render_diff_json(struct strbuf *out, const struct sf_diff *d,
			 const char *old_label, const char *new_label);

/* "OLD and NEW: type 'NAME' not found" into err, naming both builds
 * ("old" and "new" when a label is NULL); returns -1. */
int sf_diff_missing_err(const char *old_label, const char *new_label,
			const char *name, struct sf_err *err);

/* What the CI formats need besides the diff. */
struct sf_diff_ci_opts {
	const char *old_label, *new_label;
	const char *tool_version;
	const char *root;          /* the source root's real path, or NULL */
	bool fail_on_growth;       /* growth is an error, not a warning */
};

/* A Markdown table (type, change, size, holes, padding, declared) for a
 * pull-request comment or $GITHUB_STEP_SUMMARY, then the summary line. */
void sf_render_diff_markdown(struct strbuf *out, const struct sf_diff *d,
			     const struct sf_diff_ci_opts *o);
/* One workflow command per type (error/warning when it grew, notice
 * otherwise) at its declaration, then the summary line. */
void sf_render_diff_github(struct strbuf *out, const struct sf_diff *d,
			   const struct sf_diff_ci_opts *o);
/* One SARIF 2.1.0 log, one result per type (layout-grew, layout-changed,
 * type-added, type-removed). */
void sf_render_diff_sarif(struct strbuf *out, const struct sf_diff *d,
			  const struct sf_diff_ci_opts *o);

#endif
