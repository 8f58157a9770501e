/*
 * check.c - 'structfit check': gate CI on a budget file of sizeof rules.
 *
 *   check --budget FILE [--format F] ARTIFACT...   evaluate; exit 0 / 1 / 2
 *   check --write-budget FILE [--force] ARTIFACT... pin today's sizes
 *
 * The budget is parsed before any artifact is read, so a typo costs no
 * DWARF reading; when no rule uses a glob, the reader is told which names
 * the rules mention and may skip every other type.
 *
 * --write-budget never leaves a half-written file: the budget goes to a
 * temporary file in the same directory (same filesystem, so the final step
 * is atomic), is flushed to disk, and is then linked to its name - link(2)
 * fails if the name exists, so without --force an existing budget is never
 * replaced, even by a race - or renamed over it with --force.  The bytes
 * go out through lib/file.h's sf_write_all, as patch --apply's do.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "builtin.h"
#include "common.h"
#include "layout/budget.h"
#include "lib/color.h"
#include "lib/path.h"
#include "lib/file.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "report/check.h"
#include "live.h"
#include "version.h"

static const struct sf_command check_command = {
	.name = "check",
	.formats = 1u << SF_FMT_TEXT | 1u << SF_FMT_JSON | 1u << SF_FMT_SARIF |
		   1u << SF_FMT_JUNIT | 1u << SF_FMT_GITHUB | 1u << SF_FMT_MARKDOWN,
	.operands = "ARTIFACT...",
	.intro =
	"Check the layouts in ARTIFACT's DWARF against a budget file, one rule a line:\n"
	"\n"
	"  struct st_table                 size <= 40\n"
	"  struct RHash + struct st_table  fits 64 in ruby-3.3   # one GC slot\n"
	"  struct robj                     padding == 0  align <= 8\n"
	"  struct rb_*                     hole_bytes == 0  optional\n"
	"  *                               hole_bytes <= 16   # every type\n"
	"\n"
	"Properties: size, hole_bytes (bytes in holes; 'holes' is read the same for\n"
	"now, with a note), padding, waste (hole_bytes + padding - forced),\n"
	"forced (bytes an explicit alignment asked for), members, cachelines, align,\n"
	"live_waste (instances alive x waste, with --counts or --slabinfo; a type\n"
	"not counted has none alive);\n"
	"operators <= < == >= >.  'fits N in SPEC': the size class the size rounds\n"
	"up to must be <= N (SPEC: a preset, see 'structfit classes', or a list\n"
	"32,64,96); 'fits N' alone: size <= N.  'A + B' sums types (one allocation\n"
	"holding both); '*' or a glob such as 'struct rb_*' checks every type it\n"
	"matches.  A rule whose type is missing is an error unless the line\n"
	"says 'optional'.  '#' starts a comment.  An empty budget is an error.\n",
	.opts = (const struct sf_opt_use[]){
		{ "budget", SF_U_REQUIRED | SF_U_FORM1, "the budget to check ('-': standard input)",
		  NULL },
		{ "baseline", SF_U_FORM1, "fail only on what grew, or newly broke a rule, since "
		  "the build OLD (an artifact or directory)", NULL },
		{ "format", SF_U_FORM1, "; on exit 2 a document carrying the error", NULL },
		{ "source-root", SF_U_FORM1, "report source paths relative to DIR", NULL },
		{ "counts", SF_U_FORM1, "instances alive per type (lines 'TYPE COUNT'): what "
		  "live_waste multiplies waste by", NULL },
		{ "slabinfo", SF_U_FORM1, "instances alive from a kernel's slabinfo (default "
		  "/proc/slabinfo), for live_waste", NULL },
		{ "slab-map", SF_U_FORM1 | SF_U_MANY, NULL, NULL },
		{ "verbose", SF_U_FORM1, NULL, NULL },
		{ "write-budget", SF_U_REQUIRED | SF_U_FORM2, "write a budget pinning today's "
		  "sizes (size <= now; '-': standard output)", NULL },
		{ "force", SF_U_FORM2, NULL, NULL },
		{ "under", SF_U_FORM2 | SF_U_MANY, "--write-budget: only types declared in a file "
		  "under DIR (repeatable)", NULL },
		{ "exclude-system", SF_U_FORM2, "--write-budget: leave out types declared in "
		  "system headers (always: a budget pins the project's own types)", NULL },
		{ "color", 0, NULL, NULL },
		SF_U_INPUTS_HELP_END,
	},
	.outro =
	"Exit status: 0 every rule holds, 1 a rule is broken, 2 usage error or\n"
	"unusable input (budget file or artifact).\n",
};

struct check_opts {
	struct sf_common_opts co;
	const char *budget;
	const char *write;
	const char *baseline;
	bool force;
	struct sf_live_opts live;
	struct sf_where where;   /* --write-budget's --under, --exclude-system */
};

/* One of check's own options (sf_parse_options): 0, or nonzero after the
 * message. */
static int take_check_opt(void *arg, int c, const char *val)
{
	struct check_opts *o = arg;

	if (c == 'b')
		o->budget = val;
	else if (c == 'w')
		o->write = val;
	else if (c == SF_O_BASELINE)
		o->baseline = val;
	else if (c == SF_O_FORCE)
		o->force = true;
	else if (c == SF_O_UNDER || c == SF_O_EXCLUDE_SYSTEM)
		sf_where_option(&o->where, c, val);
	else   /* --counts, --slabinfo, --slab-map, --verbose */
		return sf_live_option(&o->live, c, val) < 0;
	return 0;
}

/* SF_GO_ON, or the exit status (after --help or an error). */
static int parse_check_opts(int argc, char **argv, struct check_opts *o)
{
	int st = sf_parse_options(argc, argv, &check_command, &o->co, take_check_opt, o);

	if (st != SF_GO_ON)
		return st;
	if (!o->budget == !o->write)
		return sf_die_usage("check: give either --budget FILE or --write-budget "
				   "FILE; see 'structfit check --help'");
	if (o->write && (o->co.format_set || o->co.source_root || o->baseline))
		return sf_die_usage("check: --format, --source-root and --baseline go "
				   "with --budget, not --write-budget");
	if (o->write && sf_live_active(&o->live))
		return sf_die_usage("check: --counts and --slabinfo go with --budget, not "
				   "--write-budget");
	if (o->force && !o->write)
		return sf_die_usage("check: --force goes with --write-budget");
	if (sf_where_active(&o->where) && !o->write)
		return sf_die_usage("check: --under and --exclude-system go with "
				    "--write-budget (a budget's rules say which types they check)");
	/* a budget pins the project's own types unless told otherwise */
	if (o->write)
		o->where.exclude_system = true;
	if (optind >= argc)
		return sf_die_usage("check: no ARTIFACT given; see 'structfit check "
				   "--help'");
	return SF_GO_ON;
}

/* "a.o", "a.o and b.o", "a.o, b.o, c.o" */
static char *join_inputs(char **files, int n)
{
	struct strbuf sb = STRBUF_INIT;

	for (int i = 0; i < n; i++) {
		if (i)
			sb_adds(&sb, n == 2 ? " and " : ", ");
		sb_adds(&sb, files[i]);
	}
	return sb_detach(&sb);
}

static void render(struct strbuf *out, const struct sf_bresult *res,
		   const struct check_opts *o, const struct sf_srcroot *root)
{
	/* "-" is standard input: no file to point at */
	char *budget_file = root->real && strcmp(o->budget, "-") ?
		sf_srcroot_show(root, o->budget) : NULL;
	struct sf_check_opts ro = { SF_VERSION, root->real, budget_file };

	switch (o->co.format) {
	case SF_FMT_JSON: sf_render_check_json(out, res, &ro); break;
	case SF_FMT_SARIF: sf_render_check_sarif(out, res, &ro); break;
	case SF_FMT_JUNIT: sf_render_check_junit(out, res, &ro); break;
	case SF_FMT_GITHUB: sf_render_check_github(out, res, &ro); break;
	case SF_FMT_MARKDOWN: sf_render_check_markdown(out, res, &ro); break;
	default: sf_render_check_text(out, res, &ro); break;
	}
	free(budget_file);
}

/*
 * The budget over the base build, every rule made optional for the time
 * (a type the base build lacks is new, not an error): what --baseline
 * subtracts.  -1 when the base build cannot be read (reported).
 */
static int eval_baseline(struct sf_budget *b, const struct check_opts *o,
			 const char **wanted, struct sf_bresult *base)
{
	char *path = (char *)o->baseline;
	struct sf_typeset *ts = sf_load_inputs(&o->co, &path, 1, wanted);
	struct sf_err err = SF_ERR_INIT;
	struct sf_budget_miss miss;
	/* the same counts, matched to the base build's types (no lines on
	 * stderr a second time) */
	struct sf_live_opts live = {
		.counts_path = o->live.counts_path, .slabinfo_path = o->live.slabinfo_path,
		.maps = o->live.maps, .nmaps = o->live.nmaps,
	};
	int rc = 0;

	if (!ts)
		return -1;
	if (sf_live_active(&live) && sf_live_load_asked(&live, ts)) {
		sf_typeset_free(ts);
		return -1;
	}
	bool *optional = sf_xcalloc(b->nrules ? b->nrules : 1, sizeof(*optional));
	for (size_t i = 0; i < b->nrules; i++) {
		optional[i] = b->rules[i].optional;
		b->rules[i].optional = true;
	}
	if (sf_budget_eval_live(b, ts, sf_live_table(&live), o->baseline, base, &miss) < 0)
		rc = (sf_budget_miss_err(b, &miss, &err), sf_report_err(&err), -1);
	for (size_t i = 0; i < b->nrules; i++)
		b->rules[i].optional = optional[i];
	free(optional);
	/* the result keeps no pointer into the base build's counts */
	base->live = NULL;
	live.maps = NULL;	/* the caller's */
	live.nmaps = 0;
	sf_live_opts_release(&live);
	sf_typeset_free(ts);
	return rc;
}

/*
 * After a rule's type was not found: the types nearest to the first named
 * term of a rule that is not optional and finds no type, the one
 * sf_budget_eval stopped at (rules are evaluated in order).
 */
static void hint_missing(const struct sf_budget *b, const struct sf_typeset *ts)
{
	for (size_t i = 0; i < b->nrules; i++) {
		const struct sf_brule *r = &b->rules[i];
		if (r->optional || r->is_glob)
			continue;
		for (uint32_t j = 0; j < r->nterms; j++)
			if (!r->terms[j].file && !sf_typeset_find(ts, r->terms[j].name, NULL, 0)) {
				sf_hint_similar_types(ts, r->terms[j].name);
				return;
			}
	}
}

/* The verdict of the budget over the inputs (minus the baseline's), into
 * res, whose failures point into *tsp (free it after res); -1 on an error
 * (reported). */
static int evaluate(struct sf_budget *b, struct check_opts *o,
		    char **files, int nfiles, struct sf_bresult *res,
		    struct sf_typeset **tsp)
{
	const char **wanted = sf_budget_wanted(b);
	struct sf_typeset *ts = sf_load_inputs_at(&o->co, files, nfiles, wanted, o->co.source_root);
	struct sf_bresult base;
	struct sf_err err = SF_ERR_INIT;
	struct sf_budget_miss miss;
	int rc = -1;

	if (!ts)
		goto out;
	/* named types alone were read: a counted name not among them is
	 * skipped, as in suggest */
	if (sf_live_active(&o->live) &&
	    (wanted ? sf_live_load_asked(&o->live, ts) : sf_live_load(&o->live, ts)))
		goto out;
	char *inputs = join_inputs(files, nfiles);
	if (sf_budget_eval_live(b, ts, sf_live_table(&o->live), inputs, res, &miss) < 0) {
		sf_budget_miss_err(b, &miss, &err);
		sf_report_err(&err);
		hint_missing(b, ts);
	} else if (o->baseline && eval_baseline(b, o, wanted, &base) < 0) {
		sf_bresult_release(res);
	} else {
		if (o->baseline) {
			sf_bresult_drop_known(res, &base);
			sf_bresult_release(&base);
		}
		rc = 0;
	}
	free(inputs);
out:
	free(wanted);
	if (rc < 0)
		sf_typeset_free(ts);
	else
		*tsp = ts;
	return rc;
}

/* ------------------------------------------------------------ --budget */

/*
 * Opened without blocking: a FIFO with no writer would otherwise hang
 * open(2) forever.  Once open it reads as usual - a FIFO whose writer
 * never came reads as empty, and the empty budget is refused.  -1 with
 * errno set (EISDIR for a directory).
 */
static int open_nonblocking(const char *path)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;

	if (fd < 0)
		return -1;
	int fl = fcntl(fd, F_GETFL);
	if (fstat(fd, &st) < 0 || fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0 ||
	    S_ISDIR(st.st_mode)) {
		int e = S_ISDIR(st.st_mode) ? EISDIR : errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

/*
 * Every byte of fd through the budget parser, a piece at a time: the
 * parser refuses binary input or an endless line at the first bad byte,
 * and reading stops there, so a 1 GB binary costs one piece.
 */
static int read_budget(int fd, const char *name, struct sf_budget **out,
		       struct sf_err *err)
{
	enum { PIECE = 65536 };
	struct sf_budget_parser *p = sf_budget_parser_new(name);
	struct sf_budget_problem why;
	char *buf = sf_xmalloc(PIECE);
	ssize_t n;

	while ((n = read(fd, buf, PIECE)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || sf_budget_parser_feed(p, buf, (size_t)n, &why) < 0) {
			if (n < 0)
				sf_error_at(err, name, 0, 0, "%s", strerror(errno ? errno : EIO));
			else
				sf_budget_problem_err(name, &why, err);
			free(buf);
			sf_budget_parser_free(p);
			return -1;
		}
	}
	free(buf);
	if (sf_budget_parser_finish(p, out, &why) < 0)
		return sf_budget_problem_err(name, &why, err);
	/* an empty budget checks nothing: a CI gate that silently passes */
	if ((*out)->nrules == 0) {
		sf_budget_free(*out);
		*out = NULL;
		return sf_error_at(err, name, 0, 0, "no rules (an empty budget checks nothing; "
				"see 'structfit check --help')");
	}
	return 0;
}

/* The budget file at path ("-": standard input, named "<stdin>"). */
static int load_budget(const char *path, struct sf_budget **out, struct sf_err *err)
{
	if (!strcmp(path, "-"))
		return read_budget(STDIN_FILENO, "<stdin>", out, err);
	int fd = open_nonblocking(path);
	if (fd < 0)
		return sf_error_at(err, path, 0, 0, "%s", strerror(errno));
	int rc = read_budget(fd, path, out, err);
	close(fd);
	return rc;
}

/* The budget's deprecation notes on stderr, "structfit: " first. */
static void print_budget_notes(const struct sf_budget *b)
{
	struct strbuf sb = STRBUF_INIT;

	sf_render_budget_notes(&sb, b);
	if (sb.len)
		fprintf(stderr, "structfit: %s", sb.buf);
	sb_release(&sb);
}

/* live_waste without counts: "BUDGET:LINE:COL: ..." and 2; else 0. */
static int need_counts(const struct sf_budget *b, const struct check_opts *o)
{
	uint32_t k;
	const struct sf_brule *r = sf_budget_live_rule(b, &k);

	if (!r || sf_live_active(&o->live))
		return 0;
	return sf_die_at(o->budget, r->line, r->conds[k].col, "live_waste needs the "
			 "instances alive: give --counts FILE or --slabinfo[=FILE]");
}

static int run_check(struct check_opts *o, char **files, int nfiles)
{
	struct sf_budget *b;
	struct sf_err err = SF_ERR_INIT;
	struct sf_srcroot root = { NULL, NULL };
	struct sf_bresult res;
	struct sf_typeset *ts = NULL;

	if (o->co.source_root && sf_srcroot_init(&root, o->co.source_root, &err) < 0)
		return sf_report_err(&err);
	if (load_budget(o->budget, &b, &err) < 0) {
		sf_srcroot_release(&root);
		return sf_report_err(&err);
	}
	print_budget_notes(b);
	int status = SF_EXIT_ERROR;
	if (need_counts(b, o) == 0 && evaluate(b, o, files, nfiles, &res, &ts) == 0) {
		struct strbuf out = STRBUF_INIT;
		render(&out, &res, o, &root);
		status = sf_write_output(&out, o->co.format == SF_FMT_TEXT, o->co.color,
					 SF_PAINT_CHECK) ? SF_EXIT_ERROR :
			 res.nbroken ? SF_EXIT_FINDING : SF_EXIT_OK;
		sb_release(&out);
		sf_bresult_release(&res);
		sf_typeset_free(ts);
	}
	sf_budget_free(b);
	sf_srcroot_release(&root);
	return status;
}

/* ------------------------------------------------------------ --write-budget */

/* "dir/.budget.XXXXXX" next to path, so rename(2) stays on one filesystem. */
static char *temp_name(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	const char *slash = strrchr(path, '/');

	if (slash)
		sb_add(&sb, path, (size_t)(slash - path) + 1);
	sb_addf(&sb, ".%s.XXXXXX", slash ? slash + 1 : path);
	return sb_detach(&sb);
}

/* Put tmp in place of path: link (refuses an existing path) or rename. */
static int install(const char *tmp, const char *path, bool force)
{
	if (force)
		return rename(tmp, path) < 0 ?
			sf_die_at(path, 0, 0, "%s", strerror(errno)) : 0;
	if (link(tmp, path) == 0) {
		unlink(tmp);
		return 0;
	}
	if (errno == EEXIST)
		return sf_die_at(path, 0, 0, "exists; use --force to replace it");
	/* A filesystem without hard links: check, then rename. */
	if (errno == EPERM || errno == ENOTSUP || errno == EOPNOTSUPP ||
	    errno == ENOSYS || errno == EMLINK) {
		struct stat st;
		if (lstat(path, &st) == 0)
			return sf_die_at(path, 0, 0, "exists; use --force to replace it");
		return rename(tmp, path) < 0 ?
			sf_die_at(path, 0, 0, "%s", strerror(errno)) : 0;
	}
	return sf_die_at(path, 0, 0, "%s", strerror(errno));
}

static int write_atomically(const char *path, const struct strbuf *text, bool force)
{
	struct stat st;

	if (!force && lstat(path, &st) == 0)
		return sf_die_at(path, 0, 0, "exists; use --force to replace it");
	if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return sf_die_at(path, 0, 0, "is a directory");
	char *tmp = temp_name(path);
	int fd = mkstemp(tmp);
	if (fd < 0) {
		int rc = sf_die_at(path, 0, 0,
				"cannot create a temporary file next to it: %s",
				   strerror(errno));
		free(tmp);
		return rc;
	}
	/* mkstemp makes 0600; a budget is an ordinary file: 0666 & ~umask */
	mode_t mask = umask(0);
	umask(mask);
	int rc = 0;
	if (fchmod(fd, 0666 & ~mask) < 0 || sf_write_all(fd, text->buf, text->len) < 0 ||
	    fsync(fd) < 0)
		rc = sf_die_at(tmp, 0, 0, "%s", strerror(errno));
	if (close(fd) < 0 && rc == 0)
		rc = sf_die_at(tmp, 0, 0, "%s", strerror(errno));
	if (rc == 0)
		rc = install(tmp, path, force);
	if (rc != 0)
		unlink(tmp);
	free(tmp);
	return rc;
}

static bool keeps(const void *where, const struct sf_type *t)
{
	return sf_where_keeps(where, t);
}

static int run_write(const struct check_opts *o, char **files, int nfiles)
{
	struct sf_typeset *ts = sf_load_inputs(&o->co, files, nfiles, NULL);

	if (!ts)
		return SF_EXIT_ERROR;
	char *inputs = join_inputs(files, nfiles);
	struct strbuf text = STRBUF_INIT;
	struct strbuf why = STRBUF_INIT;
	struct sf_budget_pins pins;
	sf_budget_pins_make_kept(ts, keeps, &o->where, &pins);
	sf_where_describe(&why, &o->where);
	pins.dropped_why = why.buf;
	sf_render_budget_pins(&text, &pins, inputs);
	size_t n = pins.rules;
	int status = SF_EXIT_OK;
	if (!pins.n) {
		/* nothing left to pin: said, never an empty budget */
		status = sf_die_files(files, nfiles, "every type is declared %s", why.buf);
	} else if (!strcmp(o->write, "-")) {
		/* the budget is the output; the count goes to stderr */
		if (sf_write_output(&text, false, SF_COLOR_NEVER, SF_PAINT_CHECK))
			status = SF_EXIT_ERROR;
		else
			fprintf(stderr, "structfit: %zu rule%s pinning today's sizes\n",
				n, n == 1 ? "" : "s");
	} else if (write_atomically(o->write, &text, o->force) != 0) {
		status = SF_EXIT_ERROR;
	} else {
		printf("%s: %zu rule%s pinning today's sizes\n", o->write, n,
		       n == 1 ? "" : "s");
	}
	sf_budget_pins_release(&pins);
	sb_release(&why);
	sb_release(&text);
	free(inputs);
	sf_typeset_free(ts);
	return status;
}

int cmd_check(int argc, char **argv)
{
	struct check_opts o = { .co = SF_COMMON_OPTS };
	int r = parse_check_opts(argc, argv, &o);

	if (r == SF_GO_ON && (r = sf_where_resolve(&o.where, NULL)) == 0)
		r = o.write ? run_write(&o, argv + optind, argc - optind) :
			run_check(&o, argv + optind, argc - optind);
	sf_where_release(&o.where);
	sf_common_opts_release(&o.co);
	sf_live_opts_release(&o.live);
	return r;
}
