/*
 * fit.c - 'structfit fit': the size class one type, or the sum of several
 * plus an overhead, lands in; the bytes lost to rounding; how far the next
 * smaller class is; and, with --count, what that costs over N instances.
 *
 * A candidate layout is checked without touching the source: each type's
 * plan (layout/plan.h, the one suggest and patch make) applies the
 * narrowings in place (the declarations unchanged but for the member's
 * type) and, with --reorder, gives its best order's size, exactly what
 * `suggest` proposes.
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "common.h"
#include "live.h"
#include "narrowarg.h"
#include "layout/classes.h"
#include "layout/plan.h"
#include "lib/checked.h"
#include "lib/color.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "report/suggest.h"

static const struct sf_command fit_command = {
	.name = "fit",
	.formats = 1u << SF_FMT_TEXT | 1u << SF_FMT_JSON,
	.operands = "FILE...",
	.intro =
	"The size class that type NAME (or the sum of the types, plus --overhead)\n"
	"lands in, the bytes lost to rounding up to it, and how many bytes must go\n"
	"to reach the next smaller class.\n",
	.opts = (const struct sf_opt_use[]){
		{ "type", SF_U_SHORT | SF_U_REQUIRED, "the type, or types whose sizes add up "
		  "(-t may be repeated): e.g. RHash+st_table; -C is the same", "NAME[+NAME...]" },
		{ "classes", SF_U_REQUIRED, "ruby-3.3, jemalloc, glibc, mimalloc, tcmalloc, "
		  "kmalloc, cacheline, or a list 32,64,96 (required)", NULL },
		{ "overhead", 0, "bytes added to the sum (allocator header, ...)", NULL },
		{ "count", 0, "instances: total memory and bytes lost", NULL },
		{ "narrow", SF_U_MANY, "fit as if member M were BYTES wide (repeatable); TYPE.M "
		  "when several types have an M", NULL },
		{ "reorder", 0, "fit each type in its best member order", NULL },
		{ "counts", 0, "the instances from a file of lines 'TYPE COUNT' (the "
		  "first type of NAME+NAME counted): the bytes the candidate frees in its "
		  "class at that count", NULL },
		{ "slabinfo", 0, "the instances from a kernel's slabinfo (default "
		  "/proc/slabinfo); for one type alone, the objects per slab before and "
		  "after, and the slabs freed", NULL },
		{ "slab-map", SF_U_MANY, NULL, NULL },
		{ "verbose", 0, NULL, NULL },
		{ "format", 0, NULL, NULL },
		{ "color", 0, NULL, NULL },
		SF_U_INPUTS_HELP_END,
	},
	.outro = "Exit status: 0 ok, 2 usage error or unusable input.\n",
};

struct fit_opts {
	struct sf_common_opts co;
	char **names;             /* every NAME, split at '+' */
	size_t nnames;
	uint64_t overhead;
	uint64_t count;
	struct sf_narrow_arg *narrow;
	size_t nnarrow;
	bool reorder;
	struct sf_live_opts live;
};

/* One of fit's own options (sf_parse_options): 0, or nonzero after the
 * message. */
static int take_fit_opt(void *arg, int c, const char *val)
{
	struct fit_opts *o = arg;
	struct sf_err err = SF_ERR_INIT;

	switch (c) {
	case 't':
		return sf_split_names(val, '+', &o->names, &o->nnames);
	case 'o':
		return sf_parse_count("--overhead", val, SF_MAX_BYTES, &o->overhead);
	case 'N':
		if (sf_parse_decimal(val, &o->count) < 0 || o->count == 0)
			return sf_die_usage("--count: '%s' is not a positive number", val);
		return 0;
	case 'n':
		if (sf_narrow_args_add(val, &o->narrow, &o->nnarrow, &err) < 0)
			return sf_report_err(&err);
		return 0;
	case 'r':
		o->reorder = true;
		return 0;
	default:   /* --counts, --slabinfo, --slab-map, --verbose */
		return sf_live_option(&o->live, c, val) < 0;
	}
}

/* SF_GO_ON, or the exit status (after --help or an error). */
static int parse_fit_opts(int argc, char **argv, struct fit_opts *o)
{
	int st = sf_parse_options(argc, argv, &fit_command, &o->co, take_fit_opt, o);

	if (st != SF_GO_ON)
		return st;
	if (!o->nnames)
		return sf_die_usage("fit needs -t NAME; see 'structfit fit --help'");
	if (!o->co.have_classes)
		return sf_die_usage("fit needs --classes SPEC (a preset such as ruby-3.3, "
				    "or a list 32,64,96)");
	if (o->count && sf_live_active(&o->live))
		return sf_die_usage("fit: --count and --counts/--slabinfo both give the "
				    "instances; give one");
	return SF_GO_ON;
}

/*
 * The item for type t: its plan (layout/plan.h) with the narrowings that
 * belong to it, in place or, with --reorder, in the best order.
 */
static int make_item(const struct fit_opts *o, const struct sf_type *t, const char *name,
		     struct sf_typeset *arena, struct sf_plan *p, struct sf_fit_item *it)
{
	struct sf_narrow_arg *mine = sf_xcalloc(o->nnarrow + 1, sizeof(*mine));
	struct sf_plan_opts po = {
		.pin_first = true,
		.search = o->reorder ? SF_PLAN_MIN_SIZE : SF_PLAN_NO_SEARCH,
	};
	struct sf_plan_refusal why;

	for (size_t k = 0; k < o->nnarrow; k++)
		if (sf_narrow_arg_applies(&o->narrow[k], t))
			mine[po.nnarrow++] = o->narrow[k];
	po.narrow = mine;
	int rc = sf_plan_make(t, &po, arena, p, &why);
	if (rc < 0)
		sf_report_refusal(&why);
	free(mine);    /* after the message: why points into it */
	if (rc < 0)
		return -1;
	*it = (struct sf_fit_item){ name, t->size, p->base->size, t, p->req, p->nreq, false };
	if (!o->reorder)
		return 0;
	if (!p->modeled)
		return sf_die_usage("--reorder: %s %s: its layout is not what the C rules "
				    "give for its members (attributes?)",
				    sf_type_kind_name(t), t->name), -1;
	if (p->size != SF_NO_FIT && p->size < it->size) {
		it->size = p->size;
		it->reordered = true;
	}
	return 0;
}

/*
 * --counts, --slabinfo: the first type counted gives the instances (one
 * allocation of the sum per instance); a slab's unit holds one struct, so
 * it counts only for one type without overhead, classes otherwise.
 */
static bool live_cost(const struct fit_opts *o, const struct sf_type *const *types,
		      struct sf_live_cost *c)
{
	size_t i = 0;

	while (i + 1 < o->nnames && !sf_live_find(&o->live.live, types[i]))
		i++;
	if (!sf_live_cost_for(&o->live, types[i], &o->co.classes, 0, c))
		return false;
	if (o->nnames > 1 || o->overhead)
		c->slab = NULL;
	return true;
}

static int render(const struct fit_opts *o, const struct sf_fit_item *items,
		  const struct sf_fit *f, const struct sf_type *const *types)
{
	struct strbuf sb = STRBUF_INIT;
	struct sf_fit_view v = { items, o->nnames, o->overhead, &o->co.classes, f, o->count,
				 NULL, NULL, NULL };
	struct sf_live_cost c;
	struct sf_live_step declared, candidate;
	uint64_t total = o->overhead;

	if (live_cost(o, types, &c)) {
		for (size_t i = 0; i < o->nnames; i++)
			total = sf_add_sat(total, items[i].declared_size);
		sf_live_step_at(&c, total, &declared);
		sf_live_step_at(&c, f->size, &candidate);
		v.live = &c;
		v.live_declared = &declared;
		v.live_candidate = &candidate;
		v.count = c.count;
		uint64_t each = f->index == SF_NO_CLASS ? f->size : f->cls;
		if (sf_size_saturated(sf_mul_sat(c.count, sf_add_sat(each, total))))
			return sf_die_usage("%llu instances: the total overflows 64 bits",
					    (unsigned long long)c.count);
	}

	if (o->co.format == SF_FMT_JSON)
		sf_render_fit_json(&sb, &v);
	else
		sf_render_fit_text(&sb, &v);
	int bad = sf_write_output(&sb, o->co.format == SF_FMT_TEXT, o->co.color, SF_PAINT_FIT);
	sb_release(&sb);
	return bad ? SF_EXIT_ERROR : SF_EXIT_OK;
}

/*
 * "structfit: FILE: max + wide: the size is not representable ...": a sum
 * past 64 bits (lib/checked.h saturated it) has no class and no waste.
 */
static void unrepresentable(const struct fit_opts *o, char **files, int nfiles)
{
	struct strbuf what = STRBUF_INIT;

	for (size_t i = 0; i < o->nnames; i++)
		sb_addf(&what, "%s%s", i ? " + " : "", o->names[i]);
	if (o->overhead)
		sb_addf(&what, " + %llu bytes", (unsigned long long)o->overhead);
	sf_die_files(files, nfiles, "%s: the size is not representable (2^64-1 bytes or more)",
		     what.buf);
	sb_release(&what);
}

static int run_fit(struct fit_opts *o, char **files, int nfiles)
{
	const char **only = sf_only_names((const char *const *)o->names, o->nnames);
	struct sf_typeset *ts = sf_load_inputs(&o->co, files, nfiles, only);
	const struct sf_type **types = sf_xcalloc(o->nnames, sizeof(*types));
	struct sf_fit_item *items = sf_xcalloc(o->nnames, sizeof(*items));
	struct sf_plan *plans = sf_xcalloc(o->nnames, sizeof(*plans));
	struct sf_plan_refusal why;
	int status = SF_EXIT_ERROR;
	uint64_t total = o->overhead;
	struct sf_fit f;

	sf_free_only_names(only);
	if (!ts || sf_live_load_asked(&o->live, ts))
		goto out;
	for (size_t i = 0; i < o->nnames; i++)
		if (!(types[i] = sf_find_type(ts, o->names[i], files, nfiles)))
			goto out;
	if (sf_plan_check_narrowings(types, o->nnames, o->narrow, o->nnarrow, &why) < 0) {
		sf_report_refusal(&why);
		goto out;
	}
	for (size_t i = 0; i < o->nnames; i++) {
		if (make_item(o, types[i], o->names[i], ts, &plans[i], &items[i]) < 0)
			goto out;
		total = sf_add_sat(total, items[i].size);
	}
	if (sf_size_saturated(total)) {
		unrepresentable(o, files, nfiles);
		goto out;
	}
	sf_classes_fit(&o->co.classes, total, &f);
	uint64_t each = f.index == SF_NO_CLASS ? total : f.cls;
	if (sf_size_saturated(sf_mul_sat(o->count, each))) {
		sf_die_usage("--count %llu: the total overflows 64 bits",
			     (unsigned long long)o->count);
		goto out;
	}
	status = render(o, items, &f, types);
out:
	for (size_t i = 0; i < o->nnames; i++)
		sf_plan_release(&plans[i]);
	free(plans);
	free(items);
	free(types);
	sf_typeset_free(ts);
	return status;
}

int cmd_fit(int argc, char **argv)
{
	struct fit_opts o = { .co = SF_COMMON_OPTS };
	int status = parse_fit_opts(argc, argv, &o);

	if (status == SF_GO_ON)
		status = run_fit(&o, argv + optind, argc - optind);
	sf_common_opts_release(&o.co);
	for (size_t i = 0; i < o.nnames; i++)
		free(o.names[i]);
	free(o.names);
	sf_narrow_args_free(o.narrow, o.nnarrow);
	sf_live_opts_release(&o.live);
	return status;
}
