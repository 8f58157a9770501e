/*
 * common.c - loading inputs, finding types, strict option parsing and the
 * one way structfit reports errors ("structfit: FILE: problem", exit 2).
 */
#include "common.h"

#include <assert.h>
#include <errno.h>
#include <fnmatch.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "narrowarg.h"
#include "input/input.h"
#include "layout/plan.h"
#include "layout/public.h"
#include "layout/srcpatch.h"
#include "report/patch.h"
#include "report/srcwhy.h"
#include "lib/nearest.h"
#include "lib/path.h"
#include "report/report.h"
#include "lib/checked.h"
#include "lib/color.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "report/ci.h"
#include "report/reasons.h"
#include "version.h"

/* The last error printed, and the --format the command line asked for,
 * for the error document main() writes after the command returned 2
 * (cmd/ only: one command per process).  No loader reads them: what the
 * loader is told travels in struct sf_common_opts (sf_load_inputs), and
 * input/, dwarf/ and btf/ include nothing of cmd/ (tests/folders.sh). */
static struct sf_err last_error;
static enum sf_format asked_format;
static bool format_asked;

/* The last load that read only some names (-t): what a "did you mean"
 * reads again in full to find the names it did not read. */
static struct {
	const struct sf_typeset *ts;
	const struct sf_common_opts *co;
	char **files;
	int nfiles;
} partial_load;

/* "structfit: LINE" on stderr, the error kept for the document; 2. */
static int print_error(void)
{
	fprintf(stderr, "structfit: %s\n", last_error.msg);
	return SF_EXIT_ERROR;
}

int sf_die_usage(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sf_verror_at(&last_error, NULL, 0, 0, fmt, ap);
	va_end(ap);
	return print_error();
}

int sf_die_at(const char *file, unsigned line, unsigned col, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sf_verror_at(&last_error, file, line, col, fmt, ap);
	va_end(ap);
	return print_error();
}

int sf_die_files(char **files, int nfiles, const char *fmt, ...)
{
	char named[SF_ERR_MAX];
	va_list ap;

	snprintf(named, sizeof(named), "%s%s", files[0], nfiles > 1 ? " ..." : "");
	va_start(ap, fmt);
	sf_verror_at(&last_error, named, 0, 0, fmt, ap);
	va_end(ap);
	return print_error();
}

int sf_die_long(const char *msg)
{
	sf_error(&last_error, "%s", msg);
	fprintf(stderr, "structfit: %s\n", msg);
	return SF_EXIT_ERROR;
}

int sf_report_err(const struct sf_err *err)
{
	if (err->msg[0])
		last_error = *err;
	else
		sf_error(&last_error, "unknown error");
	return print_error();
}

int sf_report_refusal(const struct sf_plan_refusal *why)
{
	struct sf_err err = SF_ERR_INIT;

	sf_plan_refusal_err(why, &err);
	return sf_report_err(&err);
}

int sf_report_src_why(const struct sf_type *t, const struct sf_src_why *why)
{
	struct sf_err err = SF_ERR_INIT;

	if (why->kind == SF_SRC_CXX && !why->read_back) {
		struct strbuf line = STRBUF_INIT;
		sf_render_patch_cxx(&line, why->path, t, &why->cxx);
		int rc = sf_die_long(line.buf);
		sb_release(&line);
		return rc;
	}
	sf_render_src_why(&err, t, why);
	return sf_report_err(&err);
}

struct sf_plan_group *sf_if_groups(const struct sf_srcpatch_block *blk, size_t n)
{
	struct sf_plan_group *g = sf_xcalloc(n + 1, sizeof(*g));

	for (size_t i = 0; i < n; i++)
		g[i] = (struct sf_plan_group){ blk[i].m0, blk[i].nm, !blk[i].other_decls,
					       true };
	return g;
}

int sf_error_document(const char *command)
{
	const struct sf_err *le = &last_error;
	struct sf_ci_error e = {
		.command = command, .tool_version = SF_VERSION,
		.text = le->msg[0] ? le->msg : "unknown error",
		.file = le->file[0] ? le->file : NULL,
		.line = le->line, .col = le->col,
		.problem = le->msg[0] ? sf_err_problem(le) : "unknown error",
	};
	struct strbuf sb = STRBUF_INIT;

	/* nothing asked, or stdout already failed: the stderr line is all */
	if (!format_asked || ferror(stdout))
		return SF_EXIT_ERROR;

	switch (asked_format) {
	case SF_FMT_JSON: sf_render_ci_error_json(&sb, &e); break;
	case SF_FMT_SARIF: sf_render_ci_error_sarif(&sb, &e); break;
	case SF_FMT_JUNIT: sf_render_ci_error_junit(&sb, &e); break;
	case SF_FMT_GITHUB: sf_render_ci_error_github(&sb, &e); break;
	case SF_FMT_MARKDOWN: sf_render_ci_error_markdown(&sb, &e); break;
	default: break;
	}
	/* the status stays 2 whatever; a write error is said as well */
	if (sb.len && (fwrite(sb.buf, 1, sb.len, stdout) != sb.len || fflush(stdout)))
		fprintf(stderr, "structfit: error writing the output: %s\n",
			strerror(errno));
	sb_release(&sb);
	return SF_EXIT_ERROR;
}

static char *show_path(void *root, const char *path)
{
	/* without a root, a path already normal is shown as it is, with no
	 * copy to intern: a vmlinux's 7.6 k types ask 2.4 k times, all but
	 * 30 of its paths normal already (on the serial path to the render) */
	if (!root && sf_path_is_normal(path))
		return NULL;
	return sf_srcroot_show(root, path);
}

int sf_show_paths(struct sf_typeset *ts, const char *root_dir)
{
	struct sf_srcroot root = { NULL, NULL };
	struct sf_err err = SF_ERR_INIT;

	if (root_dir && sf_srcroot_init(&root, root_dir, &err) < 0)
		return sf_report_err(&err);
	sf_typeset_map_decl_files(ts, show_path, root_dir ? &root : NULL);
	sf_srcroot_release(&root);
	return 0;
}

static struct sf_typeset *load_raw(const struct sf_common_opts *co, char **files,
				   int nfiles, const char *const *only, bool quiet);

struct sf_typeset *sf_load_inputs_at(const struct sf_common_opts *co, char **files,
				     int nfiles, const char *const *only, const char *root)
{
	struct sf_typeset *ts = load_raw(co, files, nfiles, only, false);

	if (ts && sf_show_paths(ts, root)) {
		sf_typeset_free(ts);
		return NULL;
	}
	if (ts && only) {
		partial_load.ts = ts;
		partial_load.co = co;
		partial_load.files = files;
		partial_load.nfiles = nfiles;
	}
	return ts;
}

/* The --debug-dir directories exist: 0, or -1 with err naming the bad one. */
static int check_debug_dirs(const struct sf_common_opts *co, struct sf_err *err)
{
	struct stat st;

	for (size_t i = 0; i < co->ndebug_dirs; i++) {
		const char *dir = co->debug_dirs[i];
		if (!*dir)
			return sf_error(err, "--debug-dir: empty directory name");
		if (stat(dir, &st) < 0)
			return sf_error(err, "--debug-dir: %s: %s", dir, strerror(errno));
		if (!S_ISDIR(st.st_mode))
			return sf_error(err, "--debug-dir: %s: not a directory", dir);
	}
	return 0;
}

/* --debug-dir DIR, after the ones before it (DIR points into argv). */
static void add_debug_dir(struct sf_common_opts *co, const char *dir)
{
	co->debug_dirs = sf_xreallocarray(co->debug_dirs, co->ndebug_dirs + 2,
					  sizeof(*co->debug_dirs));
	co->debug_dirs[co->ndebug_dirs++] = dir;
	co->debug_dirs[co->ndebug_dirs] = NULL;
}

/* The most --jobs takes: more threads than that is a typo, not a machine. */
#define MAX_JOBS 1024

/* --jobs N: decimal, 1 to MAX_JOBS; prints the error.  0 or -1. */
static int parse_jobs(const char *arg, unsigned *jobs)
{
	uint64_t v;

	if (sf_parse_decimal(arg, &v) < 0 || v < 1 || v > MAX_JOBS) {
		sf_die_usage("--jobs: '%s' is not a number of threads from 1 to %d", arg, MAX_JOBS);
		return -1;
	}
	*jobs = (unsigned)v;
	return 0;
}

unsigned sf_jobs(const struct sf_common_opts *co)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	return co->jobs ? co->jobs : cpus > 0 ? (unsigned)cpus : 1;
}

/* The loader's one-line notes (files skipped in a directory) on stderr. */
static void print_note(void *arg, const char *line)
{
	(void)arg;
	fprintf(stderr, "structfit: %s\n", line);
}

struct sf_typeset *sf_load_inputs(const struct sf_common_opts *co, char **files,
				  int nfiles, const char *const *only)
{
	return sf_load_inputs_at(co, files, nfiles, only, NULL);
}

/*
 * Debugging switches read from the environment, here, once per load (cmd/
 * is the one place for process state): STRUCTFIT_NO_DEDUP=1 lays out
 * every type of every unit, as structfit did before fingerprints
 * (dwarf/fingerprint.h), the reference tests/e2e/identity.sh compares the
 * default with; STRUCTFIT_DEDUP_NOTE=1 says on stderr what dedup did;
 * STRUCTFIT_TEST_HEURISTIC=1 (sf_test_heuristic) makes the reorder search
 * take its heuristic for the fewest moves even where the exact search
 * runs, so tests/e2e/bounded.sh can compare the two;
 * STRUCTFIT_STREAM_MIN=N inflates a zlib-compressed .debug_info of N
 * bytes or more piecewise (input/zstream.h; default 8 MiB), so that
 * tests/e2e/identity.sh reads small files so too.
 */
static int env_flag(const char *name)
{
	const char *v = getenv(name);

	return v && *v && strcmp(v, "0") != 0;
}

/* A byte count from the environment (0: unset or not a number): 1 is
 * the least stream_min (0 means the default). */
static uint64_t env_bytes(const char *name)
{
	const char *v = getenv(name);
	char *end;
	unsigned long long n = v && *v ? strtoull(v, &end, 10) : 0;

	return v && *v && !*end ? (n ? n : 1) : 0;
}

bool sf_test_heuristic(void)
{
	return env_flag("STRUCTFIT_TEST_HEURISTIC");
}

static struct sf_typeset *load_raw(const struct sf_common_opts *co, char **files,
				   int nfiles, const char *const *only, bool quiet)
{
	struct sf_typeset *ts = sf_typeset_new();
	struct sf_load_opts opts = {
		.threads = co->jobs, .only = only, .debug_dirs = co->debug_dirs,
		.note = quiet ? NULL : print_note,
		.no_dedup = co->no_dedup || env_flag("STRUCTFIT_NO_DEDUP"),
		.dedup_note = env_flag("STRUCTFIT_DEDUP_NOTE"), .summaries = co->summaries,
		.btf_first = co->btf_first, .unit_langs = co->unit_langs,
		.each_def = co->each_def, .each_def_arg = co->each_def_arg,
		.stream_min = env_bytes("STRUCTFIT_STREAM_MIN"),
	};
	struct sf_err err = SF_ERR_INIT;

	if (nfiles <= 0) {
		sf_die_usage("no input FILE given; see --help");
		sf_typeset_free(ts);
		return NULL;
	}
	/* All at once: a C++ base declared in one file and defined in
	 * another is completed whatever the order of the files. */
	if (check_debug_dirs(co, &err) < 0 ||
	    sf_input_load_all(ts, files, nfiles, &opts, &err) < 0) {
		if (!quiet)	/* a hint's reading: its error only means no hint */
			sf_report_err(&err);
		sf_typeset_free(ts);
		return NULL;
	}
	return ts;
}

char *sf_bare_name(const char *name)
{
	static const char *const prefixes[] = { "struct ", "union ", "class " };

	while (*name == ' ' || *name == '\t')
		name++;
	for (size_t i = 0; i < 3; i++) {
		size_t n = strlen(prefixes[i]);
		if (!strncmp(name, prefixes[i], n)) {
			name += n;
			break;
		}
	}
	while (*name == ' ')
		name++;
	size_t n = strlen(name);
	while (n && (name[n - 1] == ' ' || name[n - 1] == '\t'))
		n--;
	return sf_xstrndup(name, n);
}

static void join_files(struct strbuf *sb, char **files, int nfiles)
{
	for (int i = 0; i < nfiles; i++) {
		if (i)
			sb_adds(sb, nfiles == 2 ? " and " : ", ");
		sb_adds(sb, files[i]);
	}
}

const struct sf_type *sf_find_type(const struct sf_typeset *ts,
				   const char *name, char **files, int nfiles)
{
	return sf_find_type_where(ts, name, files, nfiles, NULL);
}

/* Keep the types of found[0..n) `where` keeps; how many are left. */
static size_t filter_where(const struct sf_type **found, size_t n,
			   const struct sf_where *where)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (sf_where_keeps(where, found[i]))
			found[k++] = found[i];
	return k;
}

const struct sf_type *sf_find_type_where(const struct sf_typeset *ts, const char *name,
					 char **files, int nfiles,
					 const struct sf_where *where)
{
	const struct sf_type **found;
	size_t n = sf_select_types(ts, name, &found);
	size_t all = n;

	if (n && where && sf_where_active(where))
		n = filter_where(found, n, where);
	if (n == 0) {
		struct strbuf sb = STRBUF_INIT, w = STRBUF_INIT;
		join_files(&sb, files, nfiles);
		if (all) {
			sf_where_describe(&w, where);
			sf_die_at(sb.buf, 0, 0, "type '%s' is declared only %s (%s:%u)", name,
				     w.buf, found[0]->decl_file, found[0]->decl_line);
		} else {
			sf_die_at(sb.buf, 0, 0, "type '%s' not found", name);
			sf_hint_similar_types(ts, name);
		}
		sb_release(&sb);
		sb_release(&w);
		free(found);
		return NULL;
	}
	const struct sf_type *best = found[0];
	for (size_t i = 1; i < n; i++) {
		if (strcmp(found[i]->name, best->name) && sf_is_glob(name)) {
			sf_die_usage("-t '%s' matches %s and %s (and maybe more); "
				     "name one type", name, best->name, found[i]->name);
			free(found);
			return NULL;
		}
		if (found[i]->size > best->size)
			best = found[i];
	}
	if (n > 1)
		fprintf(stderr, "structfit: note: %zu differing definitions of '%s'; "
			"using the largest (%llu bytes, %s:%u)\n", n, name,
			(unsigned long long)best->size, best->decl_file,
			best->decl_line);
	free(found);
	return best;
}

/* ---- did you mean ---------------------------------------------------------- */

static int glob_kind_ok(const char *name, const struct sf_type *t);

/* Offer every named type of ts that name's kind word (if any) allows. */
static void offer_types(struct sf_nearest *near, const struct sf_typeset *ts,
			const char *name)
{
	for (size_t i = 0; i < sf_typeset_count(ts); i++) {
		const struct sf_type *t = sf_typeset_get(ts, i);
		if (t->name[0] && glob_kind_ok(name, t))
			sf_nearest_offer(near, t->name);
	}
}

void sf_hint_similar_types(const struct sf_typeset *ts, const char *name)
{
	struct sf_typeset *all = NULL;
	struct sf_nearest near;
	struct strbuf sb = STRBUF_INIT;
	char *bare = sf_bare_name(name);

	if (sf_is_glob(name)) {
		free(bare);
		return;
	}
	/* read with -t's names only: the others are read now, quietly
	 * (an error then only means no hint) */
	if (ts == partial_load.ts && partial_load.co) {
		const struct sf_common_opts *co = partial_load.co;
		all = load_raw(co, partial_load.files, partial_load.nfiles, NULL, true);
		if (all)
			ts = all;
	}
	sf_nearest_init(&near, bare);
	offer_types(&near, ts, name);
	size_t n = sf_nearest_finish(&near);
	/* each as it was asked for: "struct con" -> "struct conn" */
	const char *names[SF_NEAREST_MAX_KEPT];
	char *spelt[SF_NEAREST_MAX_KEPT];
	size_t kind = (size_t)(strstr(name, bare) - name);
	for (size_t i = 0; i < n; i++) {
		struct strbuf w = STRBUF_INIT;
		sb_addf(&w, "%.*s%s", (int)kind, name, near.kept[i]);
		names[i] = spelt[i] = sb_detach(&w);
	}
	sf_similar_say(&sb, "type", names, n);
	fputs(sb.buf, stderr);
	for (size_t i = 0; i < n; i++)
		free(spelt[i]);
	sb_release(&sb);
	sf_typeset_free(all);
	free(bare);
}

void sf_hint_similar_command(const char *arg, const char *const *commands, size_t n)
{
	struct sf_nearest near;
	struct strbuf sb = STRBUF_INIT;

	sf_nearest_init(&near, arg);
	for (size_t i = 0; i < n; i++)
		sf_nearest_offer(&near, commands[i]);
	size_t k = sf_nearest_finish(&near);
	sf_similar_say(&sb, "command", near.kept, k);
	fputs(sb.buf, stderr);
	sb_release(&sb);
}

/* ---- --under DIR, --exclude-system ---------------------------------------- */

void sf_where_option(struct sf_where *w, int id, const char *arg)
{
	assert(id == SF_O_UNDER || id == SF_O_EXCLUDE_SYSTEM);
	if (id == SF_O_EXCLUDE_SYSTEM) {
		w->exclude_system = true;
		return;
	}
	w->args = sf_xreallocarray(w->args, w->nargs + 1, sizeof(*w->args));
	w->args[w->nargs++] = arg;
}

bool sf_where_active(const struct sf_where *w)
{
	return w && (w->nargs || w->exclude_system);
}

/* Add `spelling` (a new string) to w's spellings, once. */
static void add_spelling(struct sf_where *w, char *spelling)
{
	for (size_t i = 0; i < w->ndirs; i++)
		if (!strcmp(w->dirs[i], spelling)) {
			free(spelling);
			return;
		}
	w->dirs = sf_xreallocarray(w->dirs, w->ndirs + 1, sizeof(*w->dirs));
	w->dirs[w->ndirs++] = spelling;
}

/* DIR as decl_file spells it under root: "" for the root itself. */
static char *shown_dir(const struct sf_srcroot *root, const char *abs)
{
	if (root && (!strcmp(abs, root->logical) || !strcmp(abs, root->real)))
		return sf_xstrdup("");
	return sf_srcroot_show(root, abs);
}

/* --under DIR that is no directory: said in the option's words ("--under
 * lib: no such directory (looked for in /home/me/proj)"); false when DIR
 * is one (or stat says something else, which sf_srcroot_init words). */
static bool under_missing(const char *dir)
{
	struct stat st;
	char *cwd;

	if (!dir[0]) {
		sf_die_usage("--under: an empty directory name");
		return true;
	}
	if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
		sf_die_usage("--under %s: not a directory", dir);
		return true;
	}
	if (stat(dir, &st) == 0 || errno != ENOENT)
		return false;
	if (dir[0] != '/' && (cwd = getcwd(NULL, 0)) != NULL) {
		sf_die_usage("--under %s: no such directory (looked for in %s)", dir, cwd);
		free(cwd);
	} else {
		sf_die_usage("--under %s: no such directory", dir);
	}
	return true;
}

int sf_where_resolve(struct sf_where *w, const char *source_root)
{
	struct sf_srcroot root = { NULL, NULL };
	struct sf_err err = SF_ERR_INIT;

	if (!w->nargs)
		return 0;
	if (source_root && sf_srcroot_init(&root, source_root, &err) < 0)
		return sf_report_err(&err);
	for (size_t i = 0; i < w->nargs; i++) {
		struct sf_srcroot d;
		if (under_missing(w->args[i])) {
			sf_srcroot_release(&root);
			return SF_EXIT_ERROR;
		}
		if (sf_srcroot_init(&d, w->args[i], &err) < 0) {
			sf_srcroot_release(&root);
			return sf_die_usage("--under %s", err.msg);
		}
		/* both spellings: the compiler may have seen either */
		add_spelling(w, shown_dir(source_root ? &root : NULL, d.logical));
		add_spelling(w, shown_dir(source_root ? &root : NULL, d.real));
		sf_srcroot_release(&d);
	}
	sf_srcroot_release(&root);
	return 0;
}

bool sf_where_keeps(const struct sf_where *w, const struct sf_type *t)
{
	if (!w)
		return true;
	if (w->exclude_system && sf_path_is_system(t->decl_file))
		return false;
	if (!w->nargs)
		return true;
	for (size_t i = 0; i < w->ndirs; i++)
		if (sf_path_under(t->decl_file, w->dirs[i]))
			return true;
	return false;
}

void sf_where_describe(struct strbuf *sb, const struct sf_where *w)
{
	if (w && w->nargs) {
		sb_adds(sb, "outside --under ");
		for (size_t i = 0; i < w->nargs; i++)
			sb_addf(sb, "%s%s", i ? ", " : "", w->args[i]);
	}
	if (w && w->exclude_system)
		sb_addf(sb, "%sin system headers (--exclude-system)", w->nargs ? " or " : "");
}

void sf_where_release(struct sf_where *w)
{
	for (size_t i = 0; i < w->ndirs; i++)
		free(w->dirs[i]);
	free(w->dirs);
	free(w->args);
	memset(w, 0, sizeof(*w));
}

static const char *const format_names[] = {
	[SF_FMT_TEXT] = "text", [SF_FMT_JSON] = "json",
	[SF_FMT_HTML] = "html", [SF_FMT_SARIF] = "sarif",
	[SF_FMT_JUNIT] = "junit", [SF_FMT_GITHUB] = "github",
	[SF_FMT_MARKDOWN] = "markdown",
};

#define NFORMATS (sizeof(format_names) / sizeof(format_names[0]))

const char *sf_format_name(enum sf_format f)
{
	return (size_t)f < NFORMATS ? format_names[f] : "?";
}

/* --format FMT among the allowed ones; remembered for the error document. */
static int parse_format(const char *s, unsigned allowed_mask, enum sf_format *out)
{
	for (size_t i = 0; i < NFORMATS; i++) {
		if ((allowed_mask & (1u << i)) && !strcmp(s, format_names[i])) {
			*out = (enum sf_format)i;
			asked_format = *out;
			format_asked = true;
			return 0;
		}
	}
	return -1;
}

/* "--format: 'x' is not one of text, json, html": the allowed ones, in
 * the order of enum sf_format. */
static void bad_format(const char *arg, unsigned allowed_mask)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < NFORMATS; i++)
		if (allowed_mask & (1u << i))
			sb_addf(&sb, "%s%s", sb.len ? ", " : "", format_names[i]);
	sf_die_usage("--format: '%s' is not one of %s", arg, sb.buf);
	sb_release(&sb);
}

static int parse_color(const char *arg, enum sf_color_mode *out)
{
	if (sf_color_parse(arg, out) < 0)
		return sf_die_usage("--color: '%s' is not one of auto, always, never", arg), -1;
	return 0;
}

/* Parse a cacheline size: a power of two from 8 to 65536. */
static int parse_cacheline(const char *arg, unsigned *out)
{
	uint64_t v;

	if (sf_parse_decimal(arg, &v) < 0 || v < 8 || v > 65536 || (v & (v - 1))) {
		sf_die_usage("--cacheline: '%s' is not a power of two from 8 to 65536", arg);
		return -1;
	}
	*out = (unsigned)v;
	return 0;
}

static void release_classes(struct sf_common_opts *co)
{
	if (co->have_classes)
		sf_classes_release(&co->classes);
	co->have_classes = false;
}

/* --classes SPEC; a later one replaces an earlier one. */
static int parse_classes(const char *spec, struct sf_common_opts *co)
{
	struct sf_err err = SF_ERR_INIT;
	struct sf_classes_refusal why;

	release_classes(co);
	if (sf_classes_parse(spec, &co->classes, &why) < 0) {
		sf_classes_refusal_err(&why, &err);
		return sf_die_usage("--classes: %s", err.msg), -1;
	}
	co->have_classes = true;
	return 0;
}

void sf_common_opts_release(struct sf_common_opts *co)
{
	free(co->debug_dirs);
	co->debug_dirs = NULL;
	co->ndebug_dirs = 0;
	release_classes(co);
}

int sf_parse_count(const char *opt, const char *arg, uint64_t max, uint64_t *out)
{
	if (sf_parse_decimal(arg, out) == 0 && *out <= max)
		return 0;
	/* the two bounds there are: any count, or a byte count */
	assert(max == UINT64_MAX || max == SF_MAX_BYTES);
	if (max == UINT64_MAX)
		sf_die_usage("%s: '%s' is not a non-negative number", opt, arg);
	else
		sf_die_usage("%s: '%s' is not a byte count below 2^48", opt, arg);
	return -1;
}

/* --max-moves N: decimal, 1 .. 2^32-2.  0, or -1 after the message. */
static int parse_max_moves(const char *arg, uint32_t *out)
{
	uint64_t n;

	if (sf_parse_decimal(arg, &n) < 0 || n == 0 || n >= UINT32_MAX)
		return sf_die_usage("--max-moves: '%s' is not a number of moves from 1 to %lu",
				    arg, (unsigned long)UINT32_MAX - 1), -1;
	*out = (uint32_t)n;
	return 0;
}

int sf_plan_option(struct sf_plan_args *a, int id, const char *arg)
{
	struct sf_err err = SF_ERR_INIT;

	switch (id) {
	case 'p':
		a->pins = sf_xreallocarray(a->pins, a->npins + 1, sizeof(*a->pins));
		a->pins[a->npins++] = arg;
		return 1;
	case SF_O_NO_PIN_FIRST:
		a->no_pin_first = true;
		return 1;
	case SF_O_MAX_MOVES:
		return parse_max_moves(arg, &a->max_moves) < 0 ? -1 : 1;
	case 'n':
		if (sf_narrow_args_add(arg, &a->narrow, &a->nnarrow, &err) < 0)
			return sf_report_err(&err), -1;
		return 1;
	default:
		return 0;
	}
}

void sf_plan_args_opts(const struct sf_plan_args *a, struct sf_plan_opts *po)
{
	*po = (struct sf_plan_opts){
		(const char *const *)a->pins, a->npins, a->narrow, a->nnarrow,
		!a->no_pin_first, SF_PLAN_ORDER, a->max_moves, sf_test_heuristic(),
	};
}

void sf_plan_args_release(struct sf_plan_args *a)
{
	free(a->pins);
	sf_narrow_args_free(a->narrow, a->nnarrow);
	memset(a, 0, sizeof(*a));
}

/* NULL-terminated bare names for the reader, or NULL for all types. */
const char **sf_only_names(const char *const *types, size_t ntypes)
{
	if (!ntypes)
		return NULL;
	const char **only = sf_xcalloc(ntypes + 1, sizeof(*only));
	for (size_t i = 0; i < ntypes; i++)
		only[i] = sf_bare_name(types[i]);
	return only;
}

void sf_free_only_names(const char **only)
{
	for (size_t i = 0; only && only[i]; i++)
		free((char *)only[i]);
	free(only);
}

/*
 * "--so" abbreviates more than one of g's long options: "holes: ambiguous
 * option '--so' (could be --sort or --source-root)", as git says it.
 * False when it does not (an unknown option).
 */
static bool ambiguous(const struct sf_getopt *g, const char *opt)
{
	size_t n = strcspn(opt + 2, "="), k = 0;
	struct strbuf sb = STRBUF_INIT;
	const struct option *last = NULL;

	for (const struct option *o = g->longopts; o->name; o++) {
		if (strncmp(o->name, opt + 2, n) ||
		    (last && last->val == o->val))    /* --color and --colour */
			continue;
		sb_addf(&sb, "%s--%s", k ? ", " : "", o->name);
		last = o;
		k++;
	}
	if (k > 1) {
		/* "a or b", "a, b or c" */
		char *comma = strrchr(sb.buf, ',');
		sf_die_usage("%s: ambiguous option '%.*s' (could be %.*s or%s); see "
			     "'structfit %s --help'", g->cmd, (int)(n + 2), opt,
			     (int)(comma - sb.buf), sb.buf, comma + 1, g->cmd);
	}
	sb_release(&sb);
	return k > 1;
}

/*
 * getopt_long's complaint (run with opterr = 0 and optstring starting with
 * ':') as structfit's one line on stderr; returns 2.
 */
static int bad_option(const struct sf_getopt *g, int c, char **argv)
{
	const char *cmd = g->cmd, *opt = argv[optind - 1];

	if (c == '?' && !optopt && !strncmp(opt, "--", 2) && ambiguous(g, opt))
		return SF_EXIT_ERROR;
	if (c == ':')
		return sf_die_usage("%s: option '%s' needs a value", cmd, opt);
	if (optopt && strncmp(opt, "--", 2))
		return sf_die_usage("%s: unknown option '-%c'; see 'structfit %s --help'",
				    cmd, optopt, cmd);
	return sf_die_usage("%s: unknown option '%s'; see 'structfit %s --help'",
			    cmd, opt, cmd);
}

/* ------------------------------------------------------------ options */

#define ALL "show holes suggest fit classes check diff patch"
#define TEXT_CMDS ALL
/* every command that reads inputs: --debug-dir and --jobs are taken by
 * sf_getopt_next */
#define INPUT_CMDS "show holes suggest fit check diff patch"

/*
 * Letters are taken once: -c is the cacheline (pahole's -c), -k the size
 * classes, -n a narrowing, -l a limit, -s a sort key, -R the source root.
 * A row without help is an alias, left out of the printed table.
 */
const struct sf_option sf_options[] = {
	{ 't', "type", required_argument, "NAME", "show suggest fit diff patch",
	  "a type: 'st_table', 'struct st_table', a typedef name, a glob 'rb_*' "
	  "or a list 'a,b' (one type for suggest and patch); -C NAME is the same "
	  "(pahole's spelling)" },
	{ 'f', "format", required_argument, "FMT", "show holes suggest fit classes check diff",
	  "output format" },
	{ 'c', "cacheline", required_argument, "N", "show holes",
	  "cacheline size in bytes (default 64)" },
	{ SF_O_ORIGIN, "origin", no_argument, NULL, "show",
	  "name the file each type was read from" },
	{ SF_O_COLOR, "color", optional_argument, "WHEN", TEXT_CMDS,
	  "colour text output: auto (default: on a terminal, unless NO_COLOR is set or "
	  "TERM=dumb), always, never" },
	{ SF_O_COLOR, "colour", optional_argument, "WHEN", TEXT_CMDS, NULL },
	{ 'm', "min-waste", required_argument, "N", "holes",
	  "only types wasting at least N bytes" },
	{ 's', "sort", required_argument, "KEY", "holes", "waste, size or name" },
	{ 'l', "limit", required_argument, "N", "holes", "at most N types" },
	{ SF_O_REORDERABLE, "reorderable", no_argument, NULL, "holes",
	  "only types a member reorder shrinks, with the bytes it saves" },
	{ SF_O_UNDER, "under", required_argument, "DIR", "holes suggest check",
	  "only types declared in a file under DIR (repeatable)" },
	{ SF_O_EXCLUDE_SYSTEM, "exclude-system", no_argument, NULL, "holes suggest check",
	  "leave out types declared under /usr/include and the compilers' include "
	  "directories" },
	{ SF_O_COUNTS, "counts", required_argument, "FILE", "holes suggest fit check",
	  "instances alive per type: lines 'TYPE COUNT' (# comments); holes ranks "
	  "by live_waste (instances x waste), suggest and fit say the bytes each "
	  "change frees at that count" },
	{ SF_O_SLABINFO, "slabinfo", optional_argument, "FILE", "holes suggest fit check",
	  "instances alive from a kernel's slabinfo (default /proc/slabinfo), each "
	  "cache matched to its struct by name and object size; suggest and fit say "
	  "the objects per slab before and after each change" },
	{ SF_O_SLAB_MAP, "slab-map", required_argument, "CACHE=TYPE", "holes suggest fit check",
	  "the struct a slab cache holds, where its name does not say "
	  "(filp=file; repeatable)" },
	{ SF_O_VERBOSE, "verbose", no_argument, NULL, "holes suggest fit check",
	  "list each slab cache not matched, or rejected by its object size" },
	{ 'p', "pin", required_argument, "MEMBER", "suggest patch",
	  "keep MEMBER at its offset" },
	{ SF_O_NO_PIN_FIRST, "no-pin-first", no_argument, NULL, "suggest patch",
	  "let a leading struct member (C-style base) move" },
	{ SF_O_MAX_MOVES, "max-moves", required_argument, "N", "suggest patch",
	  "the smallest order that moves at most N members (N >= 1)" },
	{ 'n', "narrow", required_argument, "M=BYTES", "suggest fit patch",
	  "member M as if BYTES wide" },
	{ 'k', "classes", required_argument, "SPEC", "suggest fit",
	  "size classes: a preset (see 'structfit classes') or a list 32,64,96" },
	{ 'H', "header", required_argument, "NAME|BYTES", "suggest",
	  "bytes allocated in front of the struct" },
	{ 'o', "overhead", required_argument, "BYTES", "fit",
	  "bytes added to the sum" },
	{ 'N', "count", required_argument, "N", "fit", "number of instances" },
	{ 'r', "reorder", no_argument, NULL, "fit",
	  "each type in its best member order" },
	{ 'b', "budget", required_argument, "FILE", "check", "the budget to check" },
	{ 'w', "write-budget", required_argument, "FILE", "check",
	  "write a budget pinning today's sizes" },
	{ SF_O_FORCE, "force", no_argument, NULL, "check",
	  "let --write-budget replace an existing FILE" },
	{ 'R', "source-root", required_argument, "DIR", "show holes suggest check diff patch",
	  "the source tree; paths are shown relative to it" },
	{ SF_O_BASELINE, "baseline", required_argument, "OLD", "check",
	  "fail only on what grew since the OLD build" },
	{ SF_O_DEBUG_DIR, "debug-dir", required_argument, "DIR", INPUT_CMDS,
	  "look for the separate debug files of stripped inputs under DIR first "
	  "(repeatable; then /usr/lib/debug)" },
	{ 'j', "jobs", required_argument, "N", INPUT_CMDS,
	  "read the inputs on N threads (default: one per online CPU); the output "
	  "is the same whatever N" },
	{ SF_O_FAIL_ON_GROWTH, "fail-on-growth", no_argument, NULL, "diff",
	  "exit 1 when a type grew" },
	{ SF_O_APPLY, "apply", no_argument, NULL, "patch",
	  "write the files in place instead of printing the diff" },
	{ SF_O_ALLOW_ABI_CHANGE, "allow-abi-change", no_argument, NULL, "patch",
	  "patch a public type (installed or include/ header, packed) all the same" },
	{ SF_O_NICHE, "niche", required_argument, "MEMBER", "patch",
	  "Rust: make the raw pointer in MEMBER's Option a NonNull (suggest's niche)" },
	{ SF_O_ALLOW_LAYOUT_USES, "allow-layout-uses", no_argument, NULL, "patch",
	  "patch even though positional initializers, offsetof or static_assert "
	  "depend on the layout (the header names each place)" },
	{ SF_O_SATURATE, "saturate", no_argument, NULL, "patch",
	  "rewrite each store to a narrowed member that may not fit (a call, a "
	  "variable, a wide literal) to clamp at the new maximum" },
	{ SF_O_ALLOW_TRUNCATION, "allow-truncation", no_argument, NULL, "patch",
	  "narrow even though stores may not fit (the header lists each one)" },
	{ SF_O_ALLOW_INIT_ORDER, "allow-init-order", no_argument, NULL, "patch",
	  "C++: reorder even though a constructor's member initializer reads a "
	  "member whose order relative to it changes (the header lists those that "
	  "now run before what they read)" },
	{ 'h', "help", no_argument, NULL, ALL, "this help" },
	{ 0, NULL, 0, NULL, NULL, NULL },
};

/* Whether the space-separated list has word w. */
static int has_word(const char *list, const char *w)
{
	size_t n = strlen(w);

	for (const char *p = list; (p = strstr(p, w)) != NULL; p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return 1;
	return 0;
}

const struct sf_option *sf_option_row(const struct sf_option *table, const char *name)
{
	for (const struct sf_option *o = table ? table : sf_options; o->name; o++)
		if (!strcmp(o->name, name))
			return o;
	return NULL;
}

static void add_row(struct sf_getopt *g, size_t *nl, size_t *ns,
		    const struct sf_option *o)
{
	assert(*nl < SF_MAX_OPTS);
	/* the command's own list must agree with the table's */
	assert(has_word(o->commands, g->cmd));
	g->longopts[(*nl)++] = (struct option){ o->name, o->has_arg, NULL, o->id };
	if (o->id >= 256 || strchr(g->optstring, o->id))
		return;
	g->optstring[(*ns)++] = (char)o->id;
	if (o->has_arg != no_argument)
		g->optstring[(*ns)++] = ':';
	if (o->has_arg == optional_argument)	/* pahole's -j[N] */
		g->optstring[(*ns)++] = ':';
	if (o->id == 't' && g->table == sf_options)
		memcpy(g->optstring + *ns, "C:", 2), *ns += 2;
}

/* Whether the command's option list names `name`. */
static int lists(const struct sf_command *command, const char *name)
{
	for (const struct sf_opt_use *u = command->opts; u->name || u->help; u++)
		if (u->name && !strcmp(u->name, name))
			return 1;
	return 0;
}

void sf_getopt_init(struct sf_getopt *g, const struct sf_command *command,
		    struct sf_common_opts *co)
{
	size_t nl = 0, ns = 1;

	memset(g, 0, sizeof(*g));
	g->cmd = command->name;
	g->command = command;
	g->table = command->table ? command->table : sf_options;
	g->co = co;
	co->formats = command->formats;
	/* --format is an option of the command when it takes formats */
	assert(lists(command, "format") == (command->formats != 0));
	g->status = SF_GO_ON;
	g->optstring[0] = ':';   /* a missing value is ':', not '?' */
	for (const struct sf_option *o = g->table; o->name; o++) {
		/* an alias row (no help) comes with the row of its id */
		const struct sf_option *main_row = o;
		while (!main_row->help && main_row > g->table && main_row[-1].id == o->id)
			main_row--;
		int listed = lists(command, main_row->name);
		/* the table's commands and the command's list say the same */
		assert(listed == has_word(o->commands, g->cmd));
		if (listed)
			add_row(g, &nl, &ns, o);
	}
	for (const struct sf_opt_use *u = command->opts; u->name || u->help; u++)
		assert(!u->name || sf_option_row(g->table, u->name));
	assert(ns < sizeof(g->optstring));
}

/* --help: the command's usage on stdout (main() checks the write). */
static void print_usage(const struct sf_getopt *g)
{
	struct strbuf sb = STRBUF_INIT;

	sf_usage(&sb, g->command);
	fwrite(sb.buf, 1, sb.len, stdout);
	sb_release(&sb);
}

/*
 * Option c if it is one of the shared ones: 1 taken, -1 taken but bad
 * (reported), 0 the command's own.
 */
static int take_shared(struct sf_getopt *g, int c, const char *arg)
{
	struct sf_common_opts *co = g->co;
	int rc = 0;

	if (g->table != sf_options)   /* its own letters: only --help */
		return c == 'h' ? (print_usage(g), 1) : 0;
	switch (c) {
	case SF_O_DEBUG_DIR:
		add_debug_dir(co, arg);
		return 1;
	case 'j':
		rc = parse_jobs(arg, &co->jobs);
		break;
	case 'h':
		print_usage(g);
		return 1;
	case 'f':
		if (parse_format(arg, co->formats, &co->format) < 0) {
			bad_format(arg, co->formats);
			return -1;
		}
		co->format_set = true;
		return 1;
	case 'c':
		rc = parse_cacheline(arg, &co->cacheline);
		break;
	case SF_O_COLOR:
		rc = parse_color(arg, &co->color);
		break;
	case 'R':
		co->source_root = arg;
		break;
	case 'k':
		rc = parse_classes(arg, co);
		break;
	default:
		return 0;
	}
	return rc < 0 ? -1 : 1;
}

int sf_getopt_next(struct sf_getopt *g, int argc, char **argv)
{
	int c, shared;

	if (g->status != SF_GO_ON)
		return -1;
	opterr = 0;   /* bad_option says it in one line */
	do {
		c = getopt_long(argc, argv, g->optstring, g->longopts, NULL);
		if (c == -1)
			return -1;
		if (c == '?' || c == ':') {
			g->status = bad_option(g, c, argv);
			return -1;
		}
		shared = take_shared(g, c, optarg);
	} while (shared > 0 && c != 'h');
	if (shared)   /* --help, or a bad value */
		g->status = shared > 0 ? SF_EXIT_OK : SF_EXIT_ERROR;
	return shared ? -1 : c == 'C' && g->table == sf_options ? 't' : c;
}

int sf_parse_options(int argc, char **argv, const struct sf_command *command,
		     struct sf_common_opts *co, sf_take_fn *take, void *o)
{
	struct sf_getopt g;
	int c;

	sf_getopt_init(&g, command, co);
	while ((c = sf_getopt_next(&g, argc, argv)) != -1) {
		assert(take);   /* a command with options of its own takes them */
		if (take(o, c, optarg))
			return SF_EXIT_ERROR;
	}
	return g.status;
}

/* ------------------------------------------------------------ type names */

int sf_is_glob(const char *name)
{
	return strpbrk(name, "*?[") != NULL;
}

static int push_name(const char *p, size_t n, char ***v, size_t *count,
		     const char *arg)
{
	while (n && (*p == ' ' || *p == '\t'))
		p++, n--;
	while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
		n--;
	if (!n)
		return sf_die_usage("-t '%s': an empty type name", arg), -1;
	*v = sf_xreallocarray(*v, *count + 1, sizeof(**v));
	(*v)[(*count)++] = sf_xstrndup(p, n);
	return 0;
}

int sf_split_names(const char *arg, char sep, char ***v, size_t *n)
{
	int depth = 0;
	const char *start = arg;

	/* Commas inside <...>, (...) or [...] belong to a C++ name. */
	for (const char *p = arg;; p++) {
		if (*p == '<' || *p == '(' || *p == '[')
			depth++;
		else if ((*p == '>' || *p == ')' || *p == ']') && depth > 0)
			depth--;
		else if ((*p == sep && depth == 0) || *p == '\0') {
			if (push_name(start, (size_t)(p - start), v, n, arg) < 0)
				return -1;
			if (!*p)
				return 0;
			start = p + 1;
		}
	}
}

static int glob_kind_ok(const char *name, const struct sf_type *t)
{
	if (!strncmp(name, "struct ", 7))
		return t->kind != SF_KIND_UNION;
	if (!strncmp(name, "union ", 6))
		return t->kind == SF_KIND_UNION;
	if (!strncmp(name, "class ", 6))
		return t->kind != SF_KIND_UNION;
	return 1;
}

size_t sf_select_types(const struct sf_typeset *ts, const char *name,
		       const struct sf_type ***out)
{
	size_t n = sf_typeset_find(ts, name, NULL, 0);

	*out = NULL;
	if (n) {
		*out = sf_xcalloc(n, sizeof(**out));
		return sf_typeset_find(ts, name, *out, n);
	}
	if (!sf_is_glob(name))
		return 0;
	char *pat = sf_bare_name(name);
	for (size_t i = 0; i < sf_typeset_count(ts); i++) {
		const struct sf_type *t = sf_typeset_get(ts, i);
		if (!t->name[0] || !glob_kind_ok(name, t) || fnmatch(pat, t->name, 0))
			continue;
		*out = sf_xreallocarray((void *)*out, n + 1, sizeof(**out));
		(*out)[n++] = t;
	}
	free(pat);
	return n;
}

int sf_one_name(const char *cmd, const char *arg, const char **slot)
{
	char **v = NULL;
	size_t n = 0;

	if (sf_split_names(arg, ',', &v, &n) < 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
	if (*slot || n != 1)
		return sf_die_usage("%s takes one -t NAME", cmd), -1;
	*slot = arg;
	return 0;
}

int sf_write_output(const struct strbuf *sb, bool text, enum sf_color_mode color,
		    enum sf_paint_style style)
{
	struct strbuf painted = STRBUF_INIT;
	const struct strbuf *w = sb;

	if (text && sf_color_for_fd(color, STDOUT_FILENO)) {
		sf_paint(&painted, sb->buf, sb->len, true, style);
		w = &painted;
	}
	errno = 0;
	int bad = fwrite(w->buf, 1, w->len, stdout) != w->len || fflush(stdout) ||
		  ferror(stdout);
	int e = errno ? errno : EIO;
	sb_release(&painted);
	if (bad)
		return sf_die_usage("error writing the output: %s", strerror(e)), -1;
	return 0;
}
