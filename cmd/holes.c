/*
 * holes.c - 'structfit holes': rank the types that waste the most bytes.
 *
 * Each type's layout is computed, its few numbers copied into the ranking
 * and the layout released at once, so memory is one entry per type.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "common.h"
#include "live.h"
#include "layout/holes.h"
#include "layout/rank.h"
#include "lib/color.h"
#include "lib/strbuf.h"
#include "report/html.h"
#include "report/report.h"

static const struct sf_command holes_command = {
	.name = "holes",
	.formats = 1u << SF_FMT_TEXT | 1u << SF_FMT_JSON | 1u << SF_FMT_HTML,
	.operands = "FILE...",
	.intro =
	"Rank the structs, unions and classes of FILE by the bytes they waste\n"
	"(holes + trailing padding), one line each.  A 'public' column says why\n"
	"changing a layout breaks others: packed (a wire or file format), installed\n"
	"(its header is under /usr/include or a PREFIX/include), include (in the\n"
	"project's include/ directory, relative to --source-root or the build's).\n",
	.opts = (const struct sf_opt_use[]){
		{ "min-waste", 0, "only types wasting at least N bytes (default 1)", NULL },
		{ "sort", 0, "waste (default), size or name", NULL },
		{ "limit", 0, "at most N lines (N >= 1)", NULL },
		{ "under", SF_U_MANY, NULL, NULL },
		{ "exclude-system", 0, NULL, NULL },
		{ "reorderable", 0, "only types a member reorder shrinks (as suggest finds it, "
		  "leading struct member pinned), with the size it reaches and the bytes it "
		  "saves", NULL },
		{ "counts", 0, "instances alive: lines 'TYPE COUNT' (# comments); adds live and "
		  "live_waste (instances x waste, and live_saves with --reorderable) and ranks "
		  "by live_waste, the types not counted after", NULL },
		{ "slabinfo", 0, "the same from a kernel's slabinfo (default /proc/slabinfo): "
		  "each cache matched to its struct by name (dentry; X_cache, X_cachep -> X; "
		  "X_cache -> X_info) when its object size can hold it", NULL },
		{ "slab-map", SF_U_MANY, NULL, NULL },
		{ "verbose", 0, NULL, NULL },
		{ "format", 0, " (ranking + maps)", NULL },
		{ "cacheline", 0, "cacheline size for the html maps (default 64)", NULL },
		{ "source-root", 0, "show source paths relative to DIR", NULL },
		{ "color", 0, NULL, NULL },
		SF_U_INPUTS_HELP_END,
	},
	.outro = "Exit status: 0 ok, 2 usage error or unusable input.\n",
};

struct holes_opts {
	struct sf_common_opts co;
	struct sf_rank_opts rank;
	struct sf_where where;
	struct sf_live_opts live;
};

/* One of holes's own options (sf_parse_options): 0, or nonzero after the
 * message. */
static int take_holes_opt(void *arg, int c, const char *val)
{
	struct holes_opts *o = arg;
	uint64_t v;

	switch (c) {
	case 'm':
		return sf_parse_count("--min-waste", val, UINT64_MAX, &o->rank.min_waste);
	case 's':
		if (sf_rank_parse_sort(val, &o->rank.sort) < 0)
			return sf_die_usage("--sort: '%s' is not one of waste, size, name", val);
		return 0;
	case 'l':
		if (sf_parse_count("--limit", val, UINT64_MAX, &v) < 0)
			return -1;
		/* 0 rows would be a silent empty answer */
		if (v == 0)
			return sf_die_usage("--limit: 0 lines is no answer; give at "
					    "least 1 (leave --limit out for all)");
		o->rank.limit = (size_t)v;
		return 0;
	case SF_O_REORDERABLE:
		o->rank.reorderable = true;
		return 0;
	case SF_O_UNDER:
	case SF_O_EXCLUDE_SYSTEM:
		sf_where_option(&o->where, c, val);
		return 0;
	default:   /* --counts, --slabinfo, --slab-map, --verbose */
		return sf_live_option(&o->live, c, val) < 0;
	}
}

/* Rank the types `where` keeps; how many it kept (ranked or not). */
static size_t rank_all(struct sf_rank *r, const struct sf_typeset *ts,
		       unsigned cacheline, const struct sf_where *where)
{
	size_t kept = 0;

	for (size_t i = 0; i < sf_typeset_count(ts); i++) {
		const struct sf_type *t = sf_typeset_get(ts, i);
		struct sf_layout l;

		if (!sf_where_keeps(where, t))
			continue;
		kept++;
		if (t->summary) {	/* from a holes document: its numbers */
			sf_rank_add_summary(r, t);
			continue;
		}
		sf_layout_compute(t, cacheline, &l);
		sf_rank_add(r, t, &l);
		sf_layout_release(&l);
	}
	sf_rank_finish(r);
	return kept;
}

static void render_html(struct strbuf *sb, const struct sf_rank *r,
			unsigned cacheline)
{
	sf_render_html_begin(sb, "structfit holes");
	sf_render_html_rank(sb, r);
	for (size_t i = 0; i < r->n; i++) {
		struct sf_layout l;

		sf_layout_compute(r->v[i].type, cacheline, &l);
		sf_render_html_type(sb, r->v[i].type, &l, cacheline);
		sf_layout_release(&l);
	}
	sf_render_html_end(sb);
}

/* Rank and write the types of ts: the exit status. */
static int rank_and_write(struct holes_opts *o, const struct sf_typeset *ts,
			  int argc, char **argv)
{
	struct sf_rank rank;
	struct strbuf sb = STRBUF_INIT;

	o->rank.live = sf_live_table(&o->live);
	sf_rank_init(&rank, &o->rank);
	if (!rank_all(&rank, ts, o->co.cacheline, &o->where) && sf_where_active(&o->where)) {
		/* the filter left nothing: said, never an empty table */
		sf_where_describe(&sb, &o->where);
		sf_die_files(argv + optind, argc - optind, "every type is declared %s", sb.buf);
		sb_release(&sb);
		sf_rank_release(&rank);
		return SF_EXIT_ERROR;
	}
	/* a filter asked for that leaves nothing is an error naming it
	 * (README), never an empty table; a build in which no type wastes a
	 * byte at the default --min-waste 1 is an answer: the renderers say
	 * so, exit 0 */
	if (!rank.n && (o->rank.min_waste > 1 || o->rank.reorderable)) {
		sf_render_rank_empty(&sb, &o->rank);
		sf_die_files(argv + optind, argc - optind, "%s", sb.buf);
		sb_release(&sb);
		sf_rank_release(&rank);
		return SF_EXIT_ERROR;
	}
	if (!rank.n && o->co.format == SF_FMT_TEXT) {
		sf_render_rank_empty(&sb, &o->rank);	/* "no type wastes a byte" */
		sb_addch(&sb, '\n');
	} else if (o->co.format == SF_FMT_JSON)
		sf_render_rank_json(&sb, &rank);
	else if (o->co.format == SF_FMT_HTML)
		render_html(&sb, &rank, o->co.cacheline);
	else
		sf_render_rank_text(&sb, &rank);
	int bad = sf_write_output(&sb, o->co.format == SF_FMT_TEXT, o->co.color,
				  SF_PAINT_HOLES);
	sb_release(&sb);
	sf_rank_release(&rank);
	return bad ? SF_EXIT_ERROR : SF_EXIT_OK;
}

int cmd_holes(int argc, char **argv)
{
	struct holes_opts o = {
		.co = SF_COMMON_OPTS,
		.rank = { .sort = SF_RANK_BY_WASTE, .min_waste = 1 },
	};
	int r = sf_parse_options(argc, argv, &holes_command, &o.co, take_holes_opt, &o);

	if (r != SF_GO_ON || (r = sf_where_resolve(&o.where, o.co.source_root)) != 0) {
		sf_where_release(&o.where);
		sf_common_opts_release(&o.co);
		sf_live_opts_release(&o.live);
		return r;
	}
	if (!o.rank.reorderable)	/* a reorder needs the members */
		o.co.summaries = true;
	struct sf_typeset *ts = sf_load_inputs_at(&o.co, argv + optind, argc - optind, NULL,
						  o.co.source_root);
	r = !ts ? SF_EXIT_ERROR : sf_live_load(&o.live, ts);
	if (!r)
		r = rank_and_write(&o, ts, argc, argv);
	sf_typeset_free(ts);
	sf_where_release(&o.where);
	sf_common_opts_release(&o.co);
	sf_live_opts_release(&o.live);
	return r;
}
