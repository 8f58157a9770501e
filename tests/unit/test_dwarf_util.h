/*
 * test_dwarf_util.h - what the DWARF reader tests share: a scratch
 * directory made with mkdtemp and removed afterwards, compiling the C and
 * C++ sources of testdata/reader/ into it with the compilers and targets
 * a case needs, and loading the result.  Only static functions: each
 * test_dwarf_*.c includes it once.
 *
 * Sources are found below $SF_SRCDIR, else the current directory (make
 * runs the tests from the top of the tree), else two levels above the
 * test binary (build/tests/).  A compiler, target or debug file that is
 * missing makes the case skip with a message, except under `make test`
 * (SF_TEST_STRICT=1, set once tests/deps.sh has installed every package
 * the tests need): there nothing may be missing, so it fails.
 */
#ifndef TEST_DWARF_UTIL_H
#define TEST_DWARF_UTIL_H

#include <errno.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input/input.h"
#include "model/model.h"
#include "model/typeset.h"
#include "lib/strbuf.h"

/* not every test file uses every helper */
#define TD_HELPER static __attribute__((unused))

static char td_dir[512];       /* scratch directory of this test binary */
static char td_src[512] = "."; /* top of the source tree */

TD_HELPER int td_rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

TD_HELPER void td_cleanup(void)
{
	if (td_dir[0])
		nftw(td_dir, td_rm_one, 16, FTW_DEPTH | FTW_PHYS);
	td_dir[0] = '\0';
}

/* Make the scratch directory and find the sources; call from main(). */
TD_HELPER void td_init(const char *argv0)
{
	const char *tmp = getenv("TMPDIR");
	const char *src = getenv("SF_SRCDIR");

	snprintf(td_dir, sizeof(td_dir), "%s/sf-dwarf-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(td_dir)) {
		fprintf(stderr, "mkdtemp %s: %s\n", td_dir, strerror(errno));
		exit(1);
	}
	atexit(td_cleanup);
	/* hermetic: no debuginfod server is asked for a stripped input */
	unsetenv("DEBUGINFOD_URLS");
	if (src && *src) {
		snprintf(td_src, sizeof(td_src), "%s", src);
	} else if (access("testdata/reader", F_OK) != 0) {
		/* build/tests/test_dwarf_x -> ../.. */
		const char *slash = strrchr(argv0, '/');
		if (slash)
			snprintf(td_src, sizeof(td_src), "%.*s/../..", (int)(slash - argv0), argv0);
	}
}

/* Run a shell command; its output is kept quiet unless it fails. */
static int td_sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
TD_HELPER int td_sh(const char *fmt, ...)
{
	struct strbuf cmd = STRBUF_INIT;
	va_list ap;

	/* a subshell, so the command's own redirections stay its own */
	sb_adds(&cmd, "( ");
	va_start(ap, fmt);
	sb_vaddf(&cmd, fmt, ap);
	va_end(ap);
	sb_addf(&cmd, " ) >%s/.out 2>&1", td_dir);
	int rc = system(cmd.buf);
	if (rc != 0) {
		struct strbuf show = STRBUF_INIT;
		sb_addf(&show, "cat %s/.out >&2", td_dir);
		fprintf(stderr, "command failed: %s\n", cmd.buf);
		if (system(show.buf) != 0)
			fprintf(stderr, "(no output)\n");
		sb_release(&show);
	}
	sb_release(&cmd);
	return rc;
}

TD_HELPER int td_have(const char *tool)
{
	struct strbuf cmd = STRBUF_INIT;

	sb_addf(&cmd, "command -v %s >/dev/null 2>&1", tool);
	int ok = system(cmd.buf) == 0;
	sb_release(&cmd);
	return ok;
}

/* Path of a file in the scratch directory (a static buffer per call slot). */
TD_HELPER const char *td_path(const char *name)
{
	static char bufs[8][640];
	static unsigned next;
	char *b = bufs[next++ % 8];

	snprintf(b, sizeof(bufs[0]), "%s/%s", td_dir, name);
	return b;
}

/*
 * Whether what a case needs must be there: `make test` sets
 * SF_TEST_STRICT=1 after installing BUILD_PKGS and TEST_PKGS, so a missing
 * compiler or debug file, or a fixture that does not compile, is a defect
 * there, not a reason to skip.
 */
TD_HELPER int td_strict(void)
{
	const char *s = getenv("SF_TEST_STRICT");

	return s && *s && strcmp(s, "0") != 0;
}

/* Skip the current case saying why (printf-style), or fail it when strict. */
#define td_skip(...)                                                      \
	do {                                                              \
		if (td_strict())                                          \
			fail_msg(__VA_ARGS__);                            \
		fprintf(stderr, "note: skipped: ");                       \
		fprintf(stderr, __VA_ARGS__);                             \
		fputc('\n', stderr);                                      \
		skip();                                                   \
	} while (0)

/*
 * Compile testdata/reader/SRC with `cc flags` into the scratch directory
 * as OUT.  Returns 0, or -1 when the compiler is missing or refuses (the
 * caller skips); when strict (td_strict) that fails the case here instead.
 * The command is quiet unless it fails.
 */
TD_HELPER int td_compile(const char *cc, const char *flags, const char *src, const char *out)
{
	char tool[64];

	snprintf(tool, sizeof(tool), "%s", cc);
	tool[strcspn(tool, " ")] = '\0';
	if (!td_have(tool)) {
		if (td_strict())
			fail_msg("%s is not installed (make test installs it)", tool);
		return -1;
	}
	if (access(td_path(out), F_OK) == 0)
		return 0;	/* built by an earlier case */
	if (td_sh("%s %s -c -o %s %s/testdata/reader/%s", cc, flags, td_path(out), td_src,
		  src) == 0)
		return 0;
	if (td_strict())
		fail_msg("%s %s cannot compile testdata/reader/%s", cc, flags, src);
	return -1;
}

/* Load paths with n threads; fails the test on an error. */
TD_HELPER struct sf_typeset *td_load_n(const char *const *paths, int n, unsigned threads)
{
	struct sf_typeset *ts = sf_typeset_new();
	struct sf_load_opts opts = { .threads = threads };
	struct sf_err err = SF_ERR_INIT;

	if (sf_input_load_all(ts, (char *const *)paths, n, &opts, &err) < 0) {
		fprintf(stderr, "load failed: %s\n", err.msg);
		sf_typeset_free(ts);
		return NULL;
	}
	return ts;
}

TD_HELPER struct sf_typeset *td_load(const char *path)
{
	const char *paths[1] = { path };

	return td_load_n(paths, 1, 1);
}

/* The load error for path ("" when it loaded). */
TD_HELPER const char *td_load_error(const char *path, struct sf_err *err)
{
	struct sf_typeset *ts = sf_typeset_new();
	struct sf_load_opts opts = { .threads = 1 };

	err->msg[0] = '\0';
	int rc = sf_input_load(ts, path, &opts, err);
	sf_typeset_free(ts);
	if (rc == 0)
		err->msg[0] = '\0';
	return err->msg;
}

/* The one type called name (NULL if none or several). */
TD_HELPER const struct sf_type *td_type(const struct sf_typeset *ts, const char *name)
{
	const struct sf_type *found[2];

	return sf_typeset_find(ts, name, found, 2) == 1 ? found[0] : NULL;
}

TD_HELPER const struct sf_member *td_member(const struct sf_type *t, const char *name)
{
	for (uint32_t i = 0; t && i < t->nmembers; i++)
		if (!strcmp(t->members[i].name, name))
			return &t->members[i];
	return NULL;
}

/* A type by name prefix ("geo::Buf<": compilers spell templates apart). */
TD_HELPER const struct sf_type *td_type_prefix(const struct sf_typeset *ts, const char *prefix)
{
	for (size_t i = 0; i < sf_typeset_count(ts); i++) {
		const struct sf_type *t = sf_typeset_get(ts, i);
		if (!strncmp(t->name, prefix, strlen(prefix)))
			return t;
	}
	return NULL;
}

#endif
