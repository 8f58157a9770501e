/*
 * suggest.c - 'structfit suggest': the reorder and the narrowings that make
 * one struct smaller, and the size class it then lands in.
 *
 * Steps: read the struct (and the --header type) from FILE's DWARF; make
 * the plan (layout/plan.h): --pin and --narrow resolved, the narrowings
 * applied in place, and - when the C placement rule reproduces the
 * struct's layout, else nothing is proposed - the smallest order with the
 * fewest moves; search the narrowings from there (layout/narrow.h); lay
 * out the proposals and compute their holes; hand it all to
 * report/suggest.c in one view (the text, the JSON, or the whole HTML
 * page with its captions).  `structfit patch` and `fit --reorder` make
 * the same plan, so patch's diff gives exactly the layout shown here.
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "builtin.h"
#include "common.h"
#include "live.h"
#include "narrowarg.h"
#include "layout/classes.h"
#include "layout/holes.h"
#include "layout/narrow.h"
#include "layout/plan.h"
#include "layout/public.h"
#include "layout/reorder.h"
#include "layout/rust.h"
#include "layout/srcpatch.h"
#include "input/srctree.h"
#include "lib/checked.h"
#include "lib/color.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "report/suggest.h"

static const struct sf_command suggest_command = {
	.name = "suggest",
	.formats = 1u << SF_FMT_TEXT | 1u << SF_FMT_JSON | 1u << SF_FMT_HTML,
	.operands = "FILE...",
	.intro =
	"Propose the member order that makes struct NAME smallest while moving the\n"
	"fewest members, and the narrowings (an integer, enum or pointer member made\n"
	"1, 2 or 4 bytes wide; a pointer becomes a 4-byte index) that make it smaller\n"
	"still, best first, with the size class it lands in.  structfit cannot know\n"
	"the values a member holds: each narrowing says what range the new width\n"
	"holds, and you must check that every value fits.\n",
	.opts = (const struct sf_opt_use[]){
		{ "type", SF_U_SHORT | SF_U_REQUIRED, "the struct: 'st_table', 'struct st_table', "
		  "or a typedef name (-C NAME is the same, as in pahole)", NULL },
		{ "pin", SF_U_MANY, "keep MEMBER at its offset (repeatable)", NULL },
		{ "no-pin-first", 0, NULL, NULL },
		{ "max-moves", 0, "the smallest order that moves at most N members (at least 1), "
		  "for the reorder and each narrowing", NULL },
		{ "narrow", SF_U_MANY, "apply this narrowing first (repeatable); the search goes "
		  "on from there", NULL },
		{ "classes", 0, "size classes: ruby-3.3, jemalloc, glibc, mimalloc, tcmalloc, "
		  "kmalloc, cacheline, or a list 32,64,96", NULL },
		{ "header", 0, "bytes allocated in front of the struct (a number, or the size "
		  "of type NAME): counted for classes", NULL },
		{ "under", SF_U_MANY, "only a definition declared in a file under DIR "
		  "(repeatable): picks one of several same-named", NULL },
		{ "exclude-system", 0, "never a definition from /usr/include or the compilers' "
		  "include directories", NULL },
		{ "source-root", 0, "read the definition where patch finds it under DIR and keep "
		  "its #if blocks whole, as patch does", NULL },
		{ "counts", 0, "instances alive: lines 'TYPE COUNT'; each proposal says the "
		  "bytes it frees at that count (in its size class with --classes)", NULL },
		{ "slabinfo", 0, "instances alive from a kernel's slabinfo (default "
		  "/proc/slabinfo): each proposal says the objects per slab before and after, "
		  "the slabs it frees, and the size the next object per slab needs", NULL },
		{ "slab-map", SF_U_MANY, NULL, NULL },
		{ "verbose", 0, NULL, NULL },
		{ "format", 0, " (current and proposed layouts side by side)", NULL },
		{ "color", 0, NULL, NULL },
		SF_U_INPUTS_HELP_END,
	},
	.outro =
	"A public type (packed, or declared in an installed header or the project's\n"
	"include/ directory) is said so: every proposal changes its ABI or format.\n"
	"Bit-field runs that share storage move together.  Up to 12 members (units)\n"
	"the search is exact; beyond, the size is still minimal when the search fits\n"
	"its budget, and the fewest moves are found by a heuristic (the output says so).\n"
	"Exit status: 0 ok, 2 usage error or unusable input.\n",
};

struct suggest_opts {
	struct sf_common_opts co;
	const char *type;
	struct sf_plan_args plan;  /* --pin, --no-pin-first, --max-moves, --narrow */
	const char *header_arg;
	uint64_t header;
	const char *header_name;  /* when --header names a type */
	struct sf_where where;
	struct sf_live_opts live;
};

/*
 * --header BYTES or --header NAME (a type whose size is looked up once
 * the inputs are read).  SF_GO_ON, or SF_EXIT_ERROR after the message.
 */
static int parse_header(struct suggest_opts *o)
{
	const char *arg = o->header_arg;

	if (!arg)
		return SF_GO_ON;
	if (sf_parse_decimal(arg, &o->header) == 0) {
		if (o->header > SF_MAX_BYTES)
			return sf_die_usage("--header: %s bytes is too large", arg);
	} else if (!*arg || strchr("0123456789-+", *arg)) {
		return sf_die_usage("--header: '%s' is not a byte count or a type name", arg);
	} else {
		o->header_name = arg;
	}
	return SF_GO_ON;
}

/* One of suggest's own options (sf_parse_options): 0, or nonzero after
 * the message. */
static int take_suggest_opt(void *arg, int c, const char *val)
{
	struct suggest_opts *o = arg;
	int taken = sf_plan_option(&o->plan, c, val);

	if (taken)
		return taken < 0;
	switch (c) {
	case 't':
		return sf_one_name("suggest", val, &o->type);
	case 'H':
		o->header_arg = val;
		return 0;
	case SF_O_UNDER:
	case SF_O_EXCLUDE_SYSTEM:
		sf_where_option(&o->where, c, val);
		return 0;
	default:   /* --counts, --slabinfo, --slab-map, --verbose */
		return sf_live_option(&o->live, c, val) < 0;
	}
}

/* SF_GO_ON, or the exit status (after --help or an error). */
static int parse_suggest_opts(int argc, char **argv, struct suggest_opts *o)
{
	int st = sf_parse_options(argc, argv, &suggest_command, &o->co, take_suggest_opt, o);

	if (st != SF_GO_ON)
		return st;
	if (!o->type)
		return sf_die_usage("suggest needs -t NAME; see 'structfit suggest --help'");
	if (sf_where_resolve(&o->where, NULL))
		return SF_EXIT_ERROR;
	return parse_header(o);
}

/* Everything computed for the report; owns what the view points to. */
struct suggestion {
	struct sf_plan plan;                  /* --pin, --narrow, the reorder */
	struct sf_layout type_layout;
	struct sf_layout base_layout;         /* when narrowings were applied */
	const struct sf_type *proposed;
	struct sf_layout proposed_layout;
	struct sf_narrow_result narrow;
	const struct sf_type *best;
	struct sf_layout best_layout;
	struct sf_niche niches[SF_NICHE_MAX];
	uint64_t niche_size[SF_NICHE_MAX];
	size_t nniches;
	/* the definition's #if blocks (none: nblk 0), in if_file */
	struct sf_srcpatch_block *blk;
	size_t nblk;
	struct sf_plan_group *groups;
	struct sf_suggest_ifblock *ifv;
	char *if_file;
	uint64_t if_size;                     /* without -R: the size with them whole */
	bool counted;                         /* live: the type's instances */
	struct sf_live_cost live;
	struct sf_live_step live_now, live_reorder;
	struct sf_live_step *live_narrow;     /* per narrow.v[i] */
};

/* The largest file the debug info names that suggest reads for #if blocks. */
#define IF_SOURCE_MAX (64 << 20)

/*
 * The #if blocks of t's definition.  With --source-root, in its source
 * of truth under the root, as patch finds and reads it (input/srctree.h,
 * the tree's macros expanded): a file not found or a definition patch
 * cannot read is an error (2).  Without, in the file the DWARF names,
 * when it can be read and its definition parsed without the tree's
 * macros; otherwise no blocks, and nothing is said.
 */
static int read_if_blocks(const struct sf_type *t, const struct suggest_opts *o,
			  struct suggestion *s)
{
	struct strbuf text = STRBUF_INIT, why = STRBUF_INIT;
	struct sf_src_why swhy;
	struct sf_srctree tree;
	struct sf_source src = { NULL, NULL };
	struct sf_srctruth truth;
	struct sf_source_root root;
	int rc = 0;

	memset(&tree, 0, sizeof(tree));
	memset(&root, 0, sizeof(root));
	if ((t->flags & SF_TF_RUST) || !t->decl_file || !*t->decl_file)
		return 0;
	if (!o->co.source_root) {
		struct stat st;
		/* a path from the debug info: a regular file of sane size only
		 * (never a FIFO or /dev/zero that the read would wait on) */
		if (stat(t->decl_file, &st) == 0 && S_ISREG(st.st_mode) &&
		    st.st_size <= IF_SOURCE_MAX &&
		    sf_source_read(t->decl_file, &text, &why) == 0 &&
		    sf_srcpatch_blocks(t->decl_file, text.buf, text.len, t, NULL, &s->blk,
				       &s->nblk, &swhy) < 0)
			s->nblk = 0;
		s->if_file = sf_xstrdup(t->decl_file);
	} else if (sf_source_root(t, o->co.source_root, &root, &why) ||
		   sf_srctree_locate(t, &root, &tree, &src, &truth, &why)) {
		rc = sf_die_long(why.buf);
	} else {
		sf_source_to_truth(&src, &tree, &truth);
		if (sf_source_read(src.path, &text, &why))
			rc = sf_die_long(why.buf);
		else if (sf_srcpatch_blocks(src.path, text.buf, text.len, t, &tree.macros,
					    &s->blk, &s->nblk, &swhy) < 0)
			rc = sf_report_src_why(t, &swhy);
		s->if_file = sf_xstrdup(src.rel);
	}
	sf_srctree_release(&tree);
	sf_source_release(&src);
	sf_source_root_release(&root);
	sb_release(&text);
	sb_release(&why);
	return rc ? -1 : 0;
}

/* The smallest size patch's plan reaches with the blocks whole, or 0. */
static uint64_t size_with_blocks(const struct sf_type *t, const struct sf_plan_opts *po,
				 struct suggestion *s, struct sf_typeset *arena)
{
	struct sf_plan_refusal why;
	struct sf_plan p;
	uint64_t size = 0;

	if (sf_plan_make_grouped(t, po, s->groups, s->nblk, arena, &p, &why) == 0 &&
	    p.modeled && p.reorder.size != SF_NO_FIT)
		size = sf_plan_new_size(&p);
	sf_plan_release(&p);
	return size;
}

/* The view's list of blocks, each pinned or moving as the plan made it. */
static void list_blocks(struct suggestion *s)
{
	s->ifv = sf_xcalloc(s->nblk + 1, sizeof(*s->ifv));
	for (size_t i = 0; i < s->nblk; i++)
		s->ifv[i] = (struct sf_suggest_ifblock){ s->blk[i].if_line,
							 s->blk[i].endif_line,
							 s->groups[i].pinned };
}

/* Rust: the Options that a NonNull would make as small as their pointer. */
static void compute_niches(const struct sf_type *t, struct suggestion *s,
			   struct sf_typeset *ts)
{
	size_t n = sf_rust_niches(t, ts, s->niches, SF_NICHE_MAX);

	s->nniches = n < SF_NICHE_MAX ? n : SF_NICHE_MAX;
	for (size_t i = 0; i < s->nniches; i++)
		s->niche_size[i] = sf_plan_size_with(&s->plan, s->niches[i].member,
						     s->niches[i].to, ts);
}

/*
 * The plan (layout/plan.h: the one patch writes), then what suggest adds:
 * the reorder laid out, the narrowing search from the plan's base and its
 * best proposal placed.  -1 after a message (a --pin or --narrow refused).
 */
static int compute(const struct sf_type *t, const struct suggest_opts *o,
		   struct suggestion *s, struct sf_typeset *arena)
{
	struct sf_plan_opts po;
	struct sf_plan *p = &s->plan;
	struct sf_plan_refusal why;

	if (read_if_blocks(t, o, s) < 0)
		return -1;
	s->groups = sf_if_groups(s->blk, s->nblk);
	sf_plan_args_opts(&o->plan, &po);
	if (sf_plan_make_grouped(t, &po, s->groups, o->co.source_root ? s->nblk : 0, arena,
				 p, &why) < 0)
		return sf_report_refusal(&why), -1;
	sf_layout_compute(t, SF_CACHELINE, &s->type_layout);
	if (p->nreq)
		sf_layout_compute(p->base, SF_CACHELINE, &s->base_layout);
	if (!p->modeled)
		return 0;
	if (t->flags & SF_TF_RUST)
		compute_niches(t, s, arena);
	/* rustc orders a default-representation struct itself */
	if (p->reorder.size < p->base->size && !sf_rust_compiler_orders(t)) {
		s->proposed = sf_units_relayout(&p->units, &p->reorder, arena);
		sf_layout_compute(s->proposed, SF_CACHELINE, &s->proposed_layout);
		if (s->nblk && !o->co.source_root)
			s->if_size = size_with_blocks(t, &po, s, arena);
	}
	if (s->nblk)
		list_blocks(s);
	struct sf_narrow_opts no = {
		o->co.have_classes ? &o->co.classes : NULL, o->header, t->size, p->pin,
		p->pin_first, o->plan.max_moves, p->heuristic,
	};
	sf_narrow_search(p->base, &no, &s->narrow);
	if (s->narrow.n) {
		s->best = sf_plan_place(p, &s->narrow.v[0], arena);
		if (s->best)
			sf_layout_compute(s->best, SF_CACHELINE, &s->best_layout);
	}
	return 0;
}

/* What each proposal does to the live instances (layout/live.h). */
static void compute_live(const struct sf_type *t, const struct suggest_opts *o,
			 struct suggestion *s)
{
	s->counted = sf_live_cost_for(&o->live, t, o->co.have_classes ? &o->co.classes : NULL,
				      o->header, &s->live);
	if (!s->counted)
		return;
	sf_live_step_at(&s->live, t->size, &s->live_now);
	if (!s->plan.modeled)
		return;
	sf_live_step_at(&s->live, s->plan.reorder.size < s->plan.base->size ?
			s->plan.reorder.size : s->plan.base->size, &s->live_reorder);
	s->live_narrow = sf_xcalloc(s->narrow.n ? s->narrow.n : 1, sizeof(*s->live_narrow));
	for (size_t i = 0; i < s->narrow.n; i++)
		sf_live_step_at(&s->live, s->narrow.v[i].size, &s->live_narrow[i]);
}

static void release(struct suggestion *s)
{
	free(s->live_narrow);
	sf_layout_release(&s->type_layout);
	sf_layout_release(&s->base_layout);
	if (s->plan.modeled)
		sf_narrow_release(&s->narrow);
	sf_plan_release(&s->plan);
	if (s->proposed)
		sf_layout_release(&s->proposed_layout);
	if (s->best)
		sf_layout_release(&s->best_layout);
	free(s->blk);
	free(s->groups);
	free(s->ifv);
	free(s->if_file);
}

/* Where header + each size the report shows lands (layout/classes.h). */
struct class_lines {
	struct sf_fit type, reorder;
	size_t base, packed, niche[SF_NICHE_MAX];
};

static void classes_of(const struct sf_type *t, const struct suggest_opts *o,
		       const struct suggestion *s, struct class_lines *c)
{
	const struct sf_classes *cl = &o->co.classes;

	memset(c, 0, sizeof(*c));
	if (!o->co.have_classes)
		return;
	/* header + t->size was refused above when it wraps; the others are
	 * no larger, but saturate all the same */
	sf_classes_fit(cl, o->header + t->size, &c->type);
	if (s->plan.modeled)
		sf_classes_fit(cl, sf_add_sat(o->header, s->plan.reorder.size), &c->reorder);
	c->base = sf_classes_find(cl, sf_add_sat(o->header, s->plan.base->size));
	c->packed = sf_classes_find(cl, sf_add_sat(o->header, sf_rust_packed_size(t)));
	for (size_t i = 0; i < s->nniches; i++)
		c->niche[i] = sf_classes_find(cl, sf_add_sat(o->header, s->niche_size[i]));
}

static int render(const struct sf_type *t, const struct suggest_opts *o,
		  const struct suggestion *s)
{
	struct strbuf sb = STRBUF_INIT;
	struct class_lines c;

	classes_of(t, o, s, &c);
	struct sf_suggest_view v = {
		.type = t, .type_layout = &s->type_layout,
		.applied = s->plan.req, .napplied = s->plan.nreq, .base = s->plan.base,
		.base_layout = s->plan.nreq ? &s->base_layout : &s->type_layout,
		.units = s->plan.modeled ? &s->plan.units : NULL,
		.reorder = s->plan.modeled ? &s->plan.reorder : NULL,
		.proposed = s->proposed, .proposed_layout = &s->proposed_layout,
		.narrow = s->plan.modeled ? &s->narrow : NULL,
		.best = s->best, .best_layout = &s->best_layout,
		.classes = o->co.have_classes ? &o->co.classes : NULL,
		.type_fit = &c.type, .reorder_fit = &c.reorder, .base_class = c.base,
		.packed_class = c.packed, .niche_class = c.niche,
		.header = o->header, .header_name = o->header_name, .cacheline = SF_CACHELINE,
		.rust = t->flags & SF_TF_RUST, .compiler_orders = sf_rust_compiler_orders(t),
		.niches = s->niches, .niche_size = s->niche_size, .nniches = s->nniches,
		.packed_size = sf_rust_packed_size(t),
		.public = (uint8_t)sf_type_public(t),
		.ifblocks = s->ifv, .nifblocks = s->ifv ? s->nblk : 0, .if_file = s->if_file,
		.if_kept = o->co.source_root != NULL, .if_size = s->if_size,
		.live = s->counted ? &s->live : NULL, .live_now = &s->live_now,
		.live_reorder = &s->live_reorder, .live_narrow = s->live_narrow,
	};

	if (o->co.format == SF_FMT_JSON)
		sf_render_suggest_json(&sb, &v);
	else if (o->co.format == SF_FMT_HTML)
		sf_render_suggest_html_page(&sb, &v);
	else
		sf_render_suggest_text(&sb, &v);
	int bad = sf_write_output(&sb, o->co.format == SF_FMT_TEXT, o->co.color,
				  SF_PAINT_SUGGEST);
	sb_release(&sb);
	return bad ? SF_EXIT_ERROR : SF_EXIT_OK;
}

static int run_suggest(struct suggest_opts *o0, char **files, int nfiles)
{
	struct suggest_opts o = *o0;
	const char *names[2] = { o.type, o.header_name };
	const char **only = sf_only_names(names, o.header_name ? 2 : 1);
	struct sf_typeset *ts = sf_load_inputs(&o0->co, files, nfiles, only);
	struct suggestion s;
	int status = SF_EXIT_ERROR;

	sf_free_only_names(only);
	memset(&s, 0, sizeof(s));
	if (!ts)
		return SF_EXIT_ERROR;
	const struct sf_type *t = sf_find_type_where(ts, o.type, files, nfiles, &o.where);
	if (!t)
		goto out;
	if (t->flags & SF_TF_RUST) {
		/* niches need the enums and newtypes its members name */
		sf_typeset_free(ts);
		ts = sf_load_inputs(&o0->co, files, nfiles, NULL);
		if (!ts || !(t = sf_find_type_where(ts, o.type, files, nfiles, &o.where)))
			goto out;
	}
	if (o.header_name) {
		const struct sf_type *h = sf_find_type(ts, o.header_name, files, nfiles);
		if (!h)
			goto out;
		o.header = h->size;
		o.header_name = h->name;
	}
	/* classes of header + size: a sum past 64 bits would wrap to a small
	 * class (lib/checked.h), so it is said instead */
	if ((o.header || o.co.have_classes) && sf_size_saturated(sf_add_sat(o.header, t->size))) {
		sf_die_at(files[0], 0, 0,
			  "%s%s%s: the size is not representable (2^64-1 bytes or more)",
			  t->name, o.header ? " + header " : "",
			  o.header ? (o.header_name ? o.header_name : o.header_arg) : "");
		goto out;
	}
	if (t->kind != SF_KIND_STRUCT && t->kind != SF_KIND_CLASS &&
	    t->kind != SF_KIND_UNION) {
		sf_die_at(files[0], 0, 0, "'%s' is not a struct, union or class", o.type);
		goto out;
	}
	if (!t->nmembers) {
		sf_die_at(files[0], 0, 0, "%s %s has no members", sf_type_kind_name(t),
			     t->name);
		goto out;
	}
	/* loaded into the caller's options, which release it */
	if (sf_live_load_asked(&o0->live, ts))
		goto out;
	o.live = o0->live;
	if (compute(t, &o, &s, ts) == 0) {
		compute_live(t, &o, &s);
		status = render(t, &o, &s);
	}
out:
	release(&s);
	sf_typeset_free(ts);
	return status;
}

int cmd_suggest(int argc, char **argv)
{
	struct suggest_opts o = { .co = SF_COMMON_OPTS };
	int status = parse_suggest_opts(argc, argv, &o);

	if (status == SF_GO_ON)
		status = run_suggest(&o, argv + optind, argc - optind);
	sf_common_opts_release(&o.co);
	sf_plan_args_release(&o.plan);
	sf_where_release(&o.where);
	sf_live_opts_release(&o.live);
	return status;
}
