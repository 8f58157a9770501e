/*
 * diff.c - 'structfit diff': compare the layouts of two builds.
 *
 * OLD and NEW are each one artifact or directory, read into a typeset of
 * its own; layout/diff.c matches the types by name and says what changed;
 * report/diff.c renders it.  With -t only the named types are read and
 * compared.  --fail-on-growth turns any type that grew into exit status 1.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "common.h"
#include "layout/diff.h"
#include "lib/color.h"
#include "lib/path.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "report/diff.h"
#include "version.h"

static const struct sf_command diff_command = {
	.name = "diff",
	.formats = 1u << SF_FMT_TEXT | 1u << SF_FMT_JSON | 1u << SF_FMT_GITHUB |
		   1u << SF_FMT_SARIF | 1u << SF_FMT_MARKDOWN,
	.operands = "OLD NEW",
	.intro =
	"Compare the struct layouts of two builds (each an object, library, executable,\n"
	"archive or directory): types added, removed and changed - size, alignment,\n"
	"members added, removed, moved or retyped, holes gained or lost - the types\n"
	"that grew most first.\n",
	.opts = (const struct sf_opt_use[]){
		{ "type", SF_U_SHORT | SF_U_MANY, "only this type (repeatable): 'st_table', "
		  "'struct st_table', a typedef name or a list 'a,b' (-C NAME is the same)", NULL },
		{ "format", 0, "; on exit 2 a document carrying the error", NULL },
		{ "fail-on-growth", 0, NULL, NULL },
		{ "source-root", 0, "show source paths relative to DIR", NULL },
		{ "color", 0, NULL, NULL },
		SF_U_INPUTS_HELP_END,
	},
	.outro =
	"Exit status: 0 ok, 1 a type grew (with --fail-on-growth), 2 usage error or\n"
	"unusable input.\n",
};

struct diff_opts {
	struct sf_common_opts co;
	char **types;             /* -t names, NULL-terminated */
	size_t ntypes;
	bool fail_on_growth;
};

/* One of diff's own options (sf_parse_options): 0, or nonzero after the
 * message. */
static int take_diff_opt(void *arg, int c, const char *val)
{
	struct diff_opts *o = arg;

	if (c == SF_O_FAIL_ON_GROWTH) {
		o->fail_on_growth = true;
		return 0;
	}
	if (sf_split_names(val, ',', &o->types, &o->ntypes) < 0)   /* -t */
		return -1;
	/* NULL-terminated for layout/diff.c */
	o->types = sf_xreallocarray(o->types, o->ntypes + 1, sizeof(*o->types));
	o->types[o->ntypes] = NULL;
	return 0;
}

/* SF_GO_ON, or the exit status (after --help or an error). */
static int parse_diff_opts(int argc, char **argv, struct diff_opts *o)
{
	int st = sf_parse_options(argc, argv, &diff_command, &o->co, take_diff_opt, o);

	if (st != SF_GO_ON)
		return st;
	if (argc - optind != 2)
		return sf_die_usage("diff: expected two inputs, OLD and NEW (got %d); see "
				    "'structfit diff --help'", argc - optind);
	return SF_GO_ON;
}

/* The real path of --source-root (SARIF's SRCROOT), or NULL. */
static char *root_real(const char *dir)
{
	struct sf_srcroot r;
	struct sf_err err = SF_ERR_INIT;

	if (!dir || sf_srcroot_init(&r, dir, &err) < 0)
		return NULL;   /* a bad root was already reported by the loader */
	char *real = r.real;
	r.real = NULL;
	sf_srcroot_release(&r);
	return real;
}

static void render(struct strbuf *out, const struct sf_diff *d,
		   const struct diff_opts *o, const char *old_path,
		   const char *new_path)
{
	char *root = root_real(o->co.source_root);
	struct sf_diff_ci_opts co = { old_path, new_path, SF_VERSION, root,
				      o->fail_on_growth };

	switch (o->co.format) {
	case SF_FMT_JSON: sf_render_diff_json(out, d, old_path, new_path); break;
	case SF_FMT_GITHUB: sf_render_diff_github(out, d, &co); break;
	case SF_FMT_SARIF: sf_render_diff_sarif(out, d, &co); break;
	case SF_FMT_MARKDOWN: sf_render_diff_markdown(out, d, &co); break;
	default: sf_render_diff_text(out, d); break;
	}
	free(root);
}

/*
 * Add "struct NAME" (or "typedef NAME") for t to the list, once.  The
 * model's kind, not the user's word: a Rust enum is looked up as the
 * struct the model holds ("enum NAME" would not be found).
 */
static void push_spelling(char ***v, size_t *n, const struct sf_type *t)
{
	struct strbuf sb = STRBUF_INIT;

	sb_addf(&sb, "%s %s",
		(t->flags & SF_TF_TYPEDEF) ? "typedef" : sf_kind_name((enum sf_kind)t->kind), t->name);
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*v)[i], sb.buf)) {
			sb_release(&sb);
			return;
		}
	*v = sf_xreallocarray(*v, *n + 2, sizeof(**v));
	(*v)[(*n)++] = sb_detach(&sb);
	(*v)[*n] = NULL;
}

/*
 * The -t names layout/diff.c compares, NULL-terminated: a name found in
 * either build as is; a glob ('rb_*') as every type it matches in either
 * build (itself when none, so the diff says it is not found).
 */
static char **expand_names(const struct diff_opts *o, const struct sf_typeset *old_ts,
			   const struct sf_typeset *new_ts, size_t *n)
{
	char **v = sf_xcalloc(1, sizeof(*v));

	*n = 0;
	for (size_t i = 0; i < o->ntypes; i++) {
		const char *name = o->types[i];
		size_t before = *n;
		if (sf_is_glob(name) && !sf_typeset_find(old_ts, name, NULL, 0) &&
		    !sf_typeset_find(new_ts, name, NULL, 0)) {
			const struct sf_typeset *sets[2] = { old_ts, new_ts };
			for (int k = 0; k < 2; k++) {
				const struct sf_type **found;
				size_t nf = sf_select_types(sets[k], name, &found);
				for (size_t j = 0; j < nf; j++)
					push_spelling(&v, n, found[j]);
				free(found);
			}
		}
		if (*n == before) {
			v = sf_xreallocarray(v, *n + 2, sizeof(*v));
			v[(*n)++] = sf_xstrdup(name);
			v[*n] = NULL;
		}
	}
	return v;
}

static int run_diff(const struct diff_opts *o, char *old_path, char *new_path)
{
	const char **only = sf_only_names((const char *const *)o->types, o->ntypes);
	struct sf_typeset *old_ts = sf_load_inputs_at(&o->co, &old_path, 1, only, o->co.source_root);
	struct sf_typeset *new_ts = old_ts ? sf_load_inputs_at(&o->co, &new_path, 1, only,
							  o->co.source_root) : NULL;
	int status = SF_EXIT_ERROR;

	sf_free_only_names(only);
	if (old_ts && new_ts) {
		struct sf_diff d;
		struct sf_err err = SF_ERR_INIT;
		size_t nnames = 0;
		char **names = o->ntypes ? expand_names(o, old_ts, new_ts, &nnames) : NULL;
		struct sf_diff_opts dopts = { (const char *const *)names };
		const char *missing = NULL;
		int rc = sf_diff_compute(old_ts, new_ts, &dopts, &d, &missing);
		if (rc < 0)
			sf_diff_missing_err(old_path, new_path, missing, &err);
		for (size_t i = 0; i < nnames; i++)
			free(names[i]);
		free(names);
		if (rc < 0) {
			status = sf_report_err(&err);
		} else {
			struct strbuf out = STRBUF_INIT;
			render(&out, &d, o, old_path, new_path);
			status = sf_write_output(&out, o->co.format == SF_FMT_TEXT, o->co.color,
						 SF_PAINT_DIFF) ? SF_EXIT_ERROR :
				 o->fail_on_growth && d.ngrown ? SF_EXIT_FINDING :
				 SF_EXIT_OK;
			sb_release(&out);
			sf_diff_release(&d);
		}
	}
	sf_typeset_free(old_ts);
	sf_typeset_free(new_ts);
	return status;
}

int cmd_diff(int argc, char **argv)
{
	struct diff_opts o = { .co = SF_COMMON_OPTS };
	int status = parse_diff_opts(argc, argv, &o);

	if (status == SF_GO_ON)
		status = run_diff(&o, argv[optind], argv[optind + 1]);

	for (size_t i = 0; i < o.ntypes; i++)
		free(o.types[i]);
	free(o.types);
	sf_common_opts_release(&o.co);
	return status;
}
