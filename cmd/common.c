/*
 * common.c - loading inputs, finding types, strict option parsing and the
 * one way structfit reports errors ("structfit: FILE: problem", exit 2).
 */
#include "common.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "dwarf/dwarf.h"
#include "lib/path.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "report/ci.h"
#include "version.h"

/* The last error line printed, for sf_error_document (cmd/ only). */
static char last_error[1024];

int sf_die_usage(const char *fmt, ...)
{
	va_list ap;

	fputs("structfit: ", stderr);
	va_start(ap, fmt);
	vsnprintf(last_error, sizeof(last_error), fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s\n", last_error);
	return SF_EXIT_ERROR;
}

int sf_report_err(const struct sf_err *err)
{
	snprintf(last_error, sizeof(last_error), "%s",
		 err->msg[0] ? err->msg : "unknown error");
	fprintf(stderr, "structfit: %s\n", last_error);
	return SF_EXIT_ERROR;
}

int sf_error_document(enum sf_format format, const char *command)
{
	struct sf_ci_error e = { .command = command, .tool_version = SF_VERSION };
	struct strbuf sb = STRBUF_INIT;
	char buf[sizeof(last_error)];

	sf_ci_error_parse(&e, last_error[0] ? last_error : "unknown error", buf,
			  sizeof(buf));
	switch (format) {
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
	return sf_srcroot_show(root, path);
}

int sf_show_paths(struct sf_typeset *ts, const char *root_dir)
{
	struct sf_srcroot root = { NULL, NULL };
	struct sf_err err = { "" };

	if (root_dir && sf_srcroot_init(&root, root_dir, &err) < 0)
		return sf_report_err(&err);
	sf_typeset_map_decl_files(ts, show_path, root_dir ? &root : NULL);
	sf_srcroot_release(&root);
	return 0;
}

static struct sf_typeset *load_raw(char **files, int nfiles,
				   const char *const *only);

struct sf_typeset *sf_load_inputs_at(char **files, int nfiles,
				     const char *const *only, const char *root)
{
	struct sf_typeset *ts = load_raw(files, nfiles, only);

	if (ts && sf_show_paths(ts, root)) {
		sf_typeset_free(ts);
		return NULL;
	}
	return ts;
}

struct sf_typeset *sf_load_inputs(char **files, int nfiles,
				  const char *const *only)
{
	return sf_load_inputs_at(files, nfiles, only, NULL);
}

static struct sf_typeset *load_raw(char **files, int nfiles,
				   const char *const *only)
{
	struct sf_typeset *ts = sf_typeset_new();
	struct sf_load_opts opts = { .threads = 0, .only = only };
	struct sf_err err = { "" };

	if (nfiles <= 0) {
		sf_die_usage("no input FILE given; see --help");
		sf_typeset_free(ts);
		return NULL;
	}
	/* All at once: a C++ base declared in one file and defined in
	 * another is completed whatever the order of the files. */
	if (sf_dwarf_load_all(ts, files, nfiles, &opts, &err) < 0) {
		sf_report_err(&err);
		sf_typeset_free(ts);
		return NULL;
	}
	return ts;
}

const char *sf_bare_name(const char *name, char *buf, size_t bufsz)
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
	snprintf(buf, bufsz, "%s", name);
	for (size_t n = strlen(buf); n && (buf[n - 1] == ' ' || buf[n - 1] == '\t'); n--)
		buf[n - 1] = '\0';
	return buf;
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
	const struct sf_type *found[64];
	size_t n = sf_typeset_find(ts, name, found, 64);

	if (n == 0) {
		struct strbuf sb = STRBUF_INIT;
		join_files(&sb, files, nfiles);
		sf_die_usage("%s: type '%s' not found", sb.buf, name);
		sb_release(&sb);
		return NULL;
	}
	const struct sf_type *best = found[0];
	size_t shown = n < 64 ? n : 64;
	for (size_t i = 1; i < shown; i++)
		if (found[i]->size > best->size)
			best = found[i];
	if (n > 1)
		fprintf(stderr, "structfit: note: %zu differing definitions of '%s'; "
			"using the largest (%llu bytes, %s:%u)\n", n, name,
			(unsigned long long)best->size, best->decl_file,
			best->decl_line);
	return best;
}

int sf_parse_u64(const char *s, uint64_t *out)
{
	char *end;

	if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
		return -1;
	errno = 0;
	/* base 10 always: "010" is ten, as a user means it, never octal */
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

int sf_parse_format(const char *s, unsigned allowed_mask, enum sf_format *out)
{
	static const char *const names[] = {
		[SF_FMT_TEXT] = "text", [SF_FMT_JSON] = "json",
		[SF_FMT_HTML] = "html", [SF_FMT_SARIF] = "sarif",
		[SF_FMT_JUNIT] = "junit", [SF_FMT_GITHUB] = "github",
		[SF_FMT_MARKDOWN] = "markdown",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if ((allowed_mask & (1u << i)) && !strcmp(s, names[i])) {
			*out = (enum sf_format)i;
			return 0;
		}
	}
	return -1;
}

void sf_print_usage(FILE *f, const char *usage)
{
	fputs(usage, f);
}

/* Parse a cacheline size: a power of two from 8 to 65536. */
int sf_parse_cacheline(const char *arg, unsigned *out)
{
	uint64_t v;

	if (sf_parse_u64(arg, &v) < 0 || v < 8 || v > 65536 || (v & (v - 1))) {
		sf_die_usage("--cacheline: '%s' is not a power of two from 8 to 65536", arg);
		return -1;
	}
	*out = (unsigned)v;
	return 0;
}

/* NULL-terminated bare names for the reader, or NULL for all types. */
const char **sf_only_names(const char *const *types, size_t ntypes)
{
	if (!ntypes)
		return NULL;
	const char **only = sf_xcalloc(ntypes + 1, sizeof(*only));
	for (size_t i = 0; i < ntypes; i++) {
		char buf[1024];
		only[i] = sf_xstrdup(sf_bare_name(types[i], buf, sizeof(buf)));
	}
	return only;
}

void sf_free_only_names(const char **only)
{
	for (size_t i = 0; only && only[i]; i++)
		free((char *)only[i]);
	free(only);
}


int sf_bad_option(const char *cmd, int c, char **argv)
{
	const char *opt = argv[optind - 1];

	if (c == ':')
		return sf_die_usage("%s: option '%s' needs a value", cmd, opt);
	if (optopt && strncmp(opt, "--", 2))
		return sf_die_usage("%s: unknown option '-%c'; see 'structfit %s --help'",
				    cmd, optopt, cmd);
	return sf_die_usage("%s: unknown option '%s'; see 'structfit %s --help'",
			    cmd, opt, cmd);
}
