/*
 * suggest.h - rendering `structfit suggest` and `structfit fit` results.
 *
 * As everywhere in report/, nothing here computes a layout: cmd/ runs the
 * searches of layout/reorder.h and layout/narrow.h, lays out the proposed
 * types and computes their holes (layout/holes.h) and where they land in
 * the size classes (layout/classes.h), and hands everything to these
 * functions in one view struct; they only append text, JSON or HTML to
 * a strbuf.  Hole maps are pahole's text (report/text.c).
 *
 * JSON documents (one per call, ending in a newline; each opens with
 * "schema" and "command", see report.h and doc/structfit.schema.json):
 *
 *   suggest: { name, kind, public, public_why, size, align, header, header_name, classes
 *              (a preset name or the list "64,80"),
 *              class, modeled, applied: [{member, from, to, type, range}],
 *              base_size, reorder: {size, saved, moves, order: [member...],
 *              moved: [{members, from, to}], exact, class},
 *              narrowings: [{member, from, to, type, range, offset, was,
 *              size, saved, moves, class_before, class_after, exact}],
 *              pairs_searched, pairs: [{narrow: [{member, from, to, type,
 *              range, offset}, ...], size, saved, moves, class_before,
 *              class_after, exact}] }
 *            with --counts or --slabinfo and a counted type, "live" at the
 *            top, in reorder and in each narrowing and pair (report/live.h)
 *   fit:     { types: [{name, kind, given (as -t spelt it), size,
 *              declared_size, narrowed: [...], reordered}], overhead, size,
 *              classes, class, rounding_loss, next_lower, to_next_lower,
 *              count, total_bytes, total_rounding_loss, live (with
 *              --counts or --slabinfo: the head of report/live.h and the
 *              step from the declared total to the candidate, "step") }
 *
 * Classes are byte counts; a class that does not exist (above the last
 * class, or no --classes) is null.
 */
#ifndef SF_REPORT_SUGGEST_H
#define SF_REPORT_SUGGEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "layout/classes.h"
#include "layout/holes.h"
#include "layout/live.h"
#include "model/model.h"
#include "layout/narrow.h"
#include "layout/reorder.h"
#include "layout/rust.h"
#include "lib/strbuf.h"

/* An #if block of the definition (cmd/suggest.c read the source). */
struct sf_suggest_ifblock {
	uint32_t if_line, endif_line;
	bool pinned;                           /* stays at its offset */
};

struct sf_suggest_view {
	const struct sf_type *type;            /* as read from the DWARF */
	const struct sf_layout *type_layout;   /* its holes */
	const struct sf_narrow_req *applied;   /* --narrow, in order given */
	size_t napplied;
	const struct sf_type *base;            /* type with them applied in place */
	const struct sf_layout *base_layout;   /* its holes */
	const struct sf_units *units;          /* of base */
	const struct sf_reorder *reorder;      /* of base; NULL when not modeled */
	const struct sf_type *proposed;        /* base in the new order, or NULL */
	const struct sf_layout *proposed_layout;
	const struct sf_narrow_result *narrow; /* NULL when not modeled */
	const struct sf_type *best;            /* narrowing #1 placed, or NULL */
	const struct sf_layout *best_layout;
	const struct sf_classes *classes;      /* NULL: no class lines */
	/* with classes: where header + size lands (layout/classes.h), for the
	 * type and for the reorder (reorder_fit: when modeled), and the class
	 * index of base, of the #[repr(packed)] size and of each niche size */
	const struct sf_fit *type_fit;
	const struct sf_fit *reorder_fit;
	size_t base_class, packed_class;
	const size_t *niche_class;
	uint64_t header;                       /* bytes in front (0: none) */
	const char *header_name;               /* type giving them, or NULL */
	unsigned cacheline;
	/* Rust (layout/rust.h): */
	bool rust;                             /* a Rust struct */
	bool compiler_orders;                  /* default repr: no reorder */
	const struct sf_niche *niches;         /* niche proposals */
	const uint64_t *niche_size;            /* the struct's size with each */
	size_t nniches;
	uint64_t packed_size;                  /* under #[repr(packed)] */
	uint8_t public;                        /* enum sf_public: why its layout
						* is others' too (layout/public.h) */
	/* #if blocks with compiled members, in if_file (none: nifblocks 0) */
	const struct sf_suggest_ifblock *ifblocks;
	size_t nifblocks;
	const char *if_file;
	bool if_kept;                          /* --source-root: the reorder keeps
						* them whole (a line names them) */
	uint64_t if_size;                      /* else: the smallest size with them
						* whole; the text says so (one line)
						* when it is larger than the reorder's */
	/* --counts, --slabinfo: what the live instances cost (NULL: the type
	 * is not counted): today, after the reorder, after each narrowing
	 * (live_narrow[i] for narrow->v[i]) */
	const struct sf_live_cost *live;
	const struct sf_live_step *live_now, *live_reorder, *live_narrow;
};

void sf_render_suggest_text(struct strbuf *out, const struct sf_suggest_view *v);
void sf_render_suggest_json(struct strbuf *out, const struct sf_suggest_view *v);
/*
 * The report part of `suggest --format html`: a verdict (<p class="verdict"
 * data-verdict="change|nothing|unmodeled">), a table of every proposal best
 * first (<tr class="proposal" data-kind="reorder|narrowing|pair|niche|packed"
 * data-size data-saved data-class-before data-class-after data-range>, with
 * the range each narrowing holds and "class 80 -> 64"), and the text
 * report without its hole maps (<pre class="report">), so the page carries
 * every fact the text does.  The maps are report/html.c's.
 */
void sf_render_suggest_html_report(struct strbuf *out, const struct sf_suggest_view *v);
/*
 * `suggest --format html`, the whole page: begun and ended (report/html.h),
 * the report part above, then today's layout beside the reorder
 * (v->proposed) and beside narrowing #1 (v->best), each with a caption
 * giving the sizes, moves and classes; today's layout alone when neither.
 */
void sf_render_suggest_html_page(struct strbuf *out, const struct sf_suggest_view *v);

struct sf_fit_item {
	const char *name;                      /* as given with -t */
	uint64_t declared_size;                /* sizeof as read */
	uint64_t size;                         /* after --narrow / --reorder */
	const struct sf_type *type;            /* for the narrowed members */
	const struct sf_narrow_req *narrowed;  /* applied to this type */
	size_t nnarrowed;
	bool reordered;                        /* --reorder changed the size */
};

struct sf_fit_view {
	const struct sf_fit_item *items;
	size_t nitems;
	uint64_t overhead;
	const struct sf_classes *classes;
	const struct sf_fit *fit;              /* of the total */
	uint64_t count;                        /* instances; 0 when not given */
	/* --counts, --slabinfo: the live cost of the declared total and of
	 * the candidate (NULL: no count) */
	const struct sf_live_cost *live;
	const struct sf_live_step *live_declared, *live_candidate;
};

void sf_render_fit_text(struct strbuf *out, const struct sf_fit_view *v);
void sf_render_fit_json(struct strbuf *out, const struct sf_fit_view *v);

/*
 * `structfit classes`: one preset or list (its name, source, and classes,
 * long arithmetic runs shortened to "a, b, ..., z (every S)"), a table of
 * presets (name, count, first .. last, source), or JSON
 * {"presets":[{classes (the name), source, sizes:[...]}]} for n class sets.
 */
void sf_render_classes_text(struct strbuf *out, const struct sf_classes *c);
void sf_render_classes_list_text(struct strbuf *out, const struct sf_classes *all,
				 size_t n);
void sf_render_classes_json(struct strbuf *out, const struct sf_classes *all, size_t n);

#endif
