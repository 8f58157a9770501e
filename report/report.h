/*
 * report.h - renderers for `show` and `holes`: pahole-like text and JSON.
 *
 * report/ holds the renderers, and only them: each takes what layout/
 * computed and appends text to a strbuf.
 *   text.c, spelling.c   pahole 1.24's text, its spelling of declarations
 *   json.c               show's and holes' JSON (one schema, report.h)
 *   html.c, svgmap.c     the HTML page and each type's SVG byte map
 *   suggest.c, rank.c, diff.c, check.c
 *                        the other commands' text, JSON and HTML
 *   ci.c                 SARIF, JUnit, GitHub annotations, Markdown
 *   paint.c              colour for a terminal
 *   udiff.c              unified diffs (applied back by layout/applydiff.c)
 *
 * report/ never computes a layout: every renderer takes a type together
 * with the struct sf_layout that layout/holes.c computed for it (and the
 * ranking that layout/rank.c built), and only appends text to a strbuf.
 * Nothing here prints or allocates beyond the strbuf, so a caller streams:
 *
 *   struct strbuf sb = STRBUF_INIT;
 *   for each type t:
 *       sf_layout_compute(t, cacheline, &l);
 *       sf_render_text_type(&sb, t, &l, &opts);   // or sf_render_json_type
 *       fwrite(sb.buf, 1, sb.len, stdout); sb_reset(&sb);
 *       sf_layout_release(&l);
 *
 * so memory stays proportional to one type even for a kernel's 50,000.
 *
 * Text (sf_render_text_type) is byte for byte what pahole 1.24 prints for
 * one type, from "struct NAME {" to the closing summary comment and "};",
 * ending in a newline.  pahole prints types back to back, with no blank
 * line between them, so a caller matching pahole adds nothing.  For the
 * "XXX last struct has N bytes of padding" notes under members of named
 * struct types, compute the layout with sf_layout_compute_opts() and
 * sf_layout_lookup_in_typeset (layout/holes.h).
 *
 * JSON for show is one document {"types":[T,T,...]} written in three
 * steps: begin, one call per type, end.  struct sf_json_stream remembers
 * whether a comma is due; zero it (or use SF_JSON_STREAM_INIT) first.
 */
#ifndef SF_REPORT_H
#define SF_REPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "layout/holes.h"
#include "model/model.h"
#include "layout/rank.h"
#include "lib/strbuf.h"

struct sf_text_opts {
	unsigned cacheline;     /* bytes; 0 means the layout's (they must agree) */
	bool show_origin;       /* add a "structfit: from ORIGIN" comment */
	/* pahole's own switches (structfit pahole): */
	bool pahole_only;       /* no structfit notes: pahole's text alone */
	bool hex;               /* --hex: offsets and sizes as %#x */
	bool quiet;             /* -q: no comments, offsets or summary */
	bool no_aligned;        /* --suppress_aligned_attribute */
	bool no_packed;         /* --suppress_packed */
	bool no_force_padding;  /* --suppress_force_paddings */
	bool rel_offset;        /* -r: nested members' offsets from their container */
	bool decl_info;         /* -I: where the type was read, before it */
	/* -E: a member's typedefs said and a struct/union it holds by value
	 * printed inline, its definition and layout from expand_find (NAME
	 * as "struct x", "union x", "class x" or "typedef x"; NULL when not
	 * known: the member prints as without -E).  The caller lays it out;
	 * the renderer releases *out after printing it. */
	bool expand;
	const struct sf_type *(*expand_find)(void *ctx, const char *name,
					     struct sf_layout *out);
	void *expand_ctx;
};

/*
 * One type in pahole's text format (see top comment); o may be NULL.
 * structfit's own notes (variant, incomplete, origin) are comment lines
 * just before the closing brace, so a pahole diff stays one line.  A type
 * flagged SF_TF_TYPEDEF prints as `typedef struct {...} NAME;`.
 */
void sf_render_text_type(struct strbuf *out, const struct sf_type *t,
			 const struct sf_layout *l,
			 const struct sf_text_opts *o);

/*
 * Append `text` (output of sf_render_text_type) to out, with ANSI colours
 * per line when `on`: holes red, padding yellow, cachelines blue, offsets
 * dim.  Removing the colour codes gives back `text` exactly.
 */
void sf_render_text_colorize(struct strbuf *out, const char *text, size_t len,
			     bool on);

/*
 * Colour for the other commands' text (report/paint.c): `text` as it is
 * when !on; else each line in the colour of what it says.  Removing the
 * colour codes gives back `text` exactly.
 */
enum sf_paint_style {
	SF_PAINT_HOLES,
	SF_PAINT_SUGGEST,
	SF_PAINT_FIT,
	SF_PAINT_CHECK,
	SF_PAINT_DIFF,
	SF_PAINT_PATCH,
	SF_PAINT_CLASSES,
};

void sf_paint(struct strbuf *out, const char *text, size_t len, bool on,
	      enum sf_paint_style style);

/*
 * Every JSON document structfit writes is one object of one vocabulary,
 * described by doc/structfit.schema.json: it opens with
 * {"schema":"structfit/1","command":"CMD", and a type is always named by
 * "name" (bare: "st_table") and "kind" ("struct", "union", "class");
 * "holes" is always an array of holes, their number "holes_count", their
 * bytes "sum_holes"; "waste" is always holes + padding (sum_holes +
 * padding), and bytes lost to a size class's rounding "rounding_loss";
 * "classes" names a class set (a preset, or the list "64,80") and
 * "class" is the byte size of one class (null: none).
 */
#define SF_JSON_SCHEMA "structfit/1"

/* "1,000,000" (report/live.c) */
void sf_add_thousands(struct strbuf *out, uint64_t n);
/* "76.3 MiB", "512 B": bytes in binary units, one decimal above 1 KiB. */
void sf_add_bytes_human(struct strbuf *out, uint64_t bytes);

/* '{"schema":"structfit/1","command":"CMD",' - the caller goes on. */
void sf_json_doc_open(struct strbuf *out, const char *command);

struct sf_json_stream {
	size_t ntypes;          /* types written so far */
};
#define SF_JSON_STREAM_INIT { 0 }

void sf_render_json_begin(struct strbuf *out, struct sf_json_stream *js);
void sf_render_json_type(struct strbuf *out, struct sf_json_stream *js,
			 const struct sf_type *t, const struct sf_layout *l);
/* Closes the document and ends it with a newline. */
void sf_render_json_end(struct strbuf *out, struct sf_json_stream *js);

/*
 * The `holes` ranking (already filtered, sorted and truncated by
 * sf_rank_finish()).  Text: a header line, then one line per type:
 * waste, size, holes, padding, type ("struct NAME"), decl_file:decl_line.
 * JSON: {"types":[{name,kind,size,waste,holes,sum_holes,padding,
 * decl_file,decl_line,origin,variant,typedef}]}, one object per line.
 */
void sf_render_rank_text(struct strbuf *out, const struct sf_rank *r);
/* Why the ranking is empty, from its options, for the one-line error:
 * "no type wastes at least 1000 bytes (--min-waste 1000)". */
void sf_render_rank_empty(struct strbuf *out, const struct sf_rank_opts *o);
void sf_render_rank_json(struct strbuf *out, const struct sf_rank *r);

#endif
