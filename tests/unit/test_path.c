/*
 * test_path.c - lib/path.c: lexical normalisation and the source-root
 * resolver, on a real directory tree made in a temp dir.
 *
 * The oracle is the kernel: realpath(3) of a spelling and of its
 * normalised form name the same file (the tree has no symlinks where that
 * is checked), and the normal form has no ".", ".." or "//" left.  The
 * root is then reached by its real path, through a symlink, as "dir/."
 * and as "dir/", and a file below it must come out relative to it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/path.h"

static char dir[PATH_MAX];   /* the temp tree: DIR/a/b, DIR/c/f.h, DIR/link -> DIR/c */

static void mkpath(const char *rel, int is_dir)
{
	char p[PATH_MAX + 64];

	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	if (is_dir) {
		assert_int_equal(mkdir(p, 0755), 0);
	} else {
		FILE *f = fopen(p, "w");
		assert_non_null(f);
		fclose(f);
	}
}

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "%s/sf-path.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir))
		return -1;
	char real[PATH_MAX];
	if (!realpath(dir, real))
		return -1;
	snprintf(dir, sizeof(dir), "%s", real);
	mkpath("a", 1);
	mkpath("a/b", 1);
	mkpath("c", 1);
	mkpath("c/f.h", 0);
	char target[PATH_MAX + 8], link[PATH_MAX + 8];
	snprintf(target, sizeof(target), "%s/c", dir);
	snprintf(link, sizeof(link), "%s/link", dir);
	return symlink(target, link);
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void assert_normal(const char *norm)
{
	while (!strncmp(norm, "../", 3))   /* a relative path's leading ".." stay */
		norm += 3;
	assert_null(strstr(norm, "//"));
	assert_null(strstr(norm, "/./"));
	assert_null(strstr(norm, "/../"));
	size_t n = strlen(norm);
	assert_false(n >= 2 && !strcmp(norm + n - 2, "/."));
	assert_false(n >= 3 && !strcmp(norm + n - 3, "/.."));
}

static void test_normalize_names_the_same_file(void **state)
{
	static const char *const spellings[] = {
		"%s/c/f.h", "%s/./c/f.h", "%s//c//f.h", "%s/a/../c/f.h",
		"%s/a/b/../../c/./f.h", "%s/a/./b/.././../c/f.h", "%s/c/../c/f.h",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(spellings) / sizeof(spellings[0]); i++) {
		char p[PATH_MAX + 64], r1[PATH_MAX], r2[PATH_MAX];
		snprintf(p, sizeof(p), spellings[i], dir);
		char *norm = sf_path_normalize(p);
		assert_normal(norm);
		assert_non_null(realpath(p, r1));
		assert_non_null(realpath(norm, r2));
		assert_string_equal(r1, r2);
		assert_string_equal(norm, r1);   /* no symlink on the way */
		free(norm);
	}
}

static void test_normalize_relative_keeps_leading_dotdot(void **state)
{
	char cwd[PATH_MAX];

	(void)state;
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	char sub[PATH_MAX + 8];
	snprintf(sub, sizeof(sub), "%s/a/b", dir);
	assert_int_equal(chdir(sub), 0);
	/* from DIR/a/b, "../../c/f.h" and "./../x/../../c/./f.h" are DIR/c/f.h */
	static const char *const rel[] = { "../../c/f.h", "./../b/../../c/./f.h", "../.././c/f.h" };
	for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
		char r1[PATH_MAX], r2[PATH_MAX];
		char *norm = sf_path_normalize(rel[i]);
		assert_normal(norm);
		assert_non_null(realpath(rel[i], r1));
		assert_non_null(realpath(norm, r2));
		assert_string_equal(r1, r2);
		free(norm);
	}
	char *dot = sf_path_normalize("./");
	assert_string_equal(dot, ".");   /* the directory itself */
	free(dot);
	assert_int_equal(chdir(cwd), 0);
}

/* Every spelling of the root shows DIR/c/f.h as "c/f.h", or through the
 * symlink DIR/link as "f.h" when the root is the link. */
static void test_srcroot_spellings(void **state)
{
	static const char *const roots[] = { "%s", "%s/", "%s/.", "%s/a/..", "%s//" };
	char p[PATH_MAX + 64], root[PATH_MAX + 64];

	(void)state;
	snprintf(p, sizeof(p), "%s/a/../c/./f.h", dir);
	for (size_t i = 0; i < sizeof(roots) / sizeof(roots[0]); i++) {
		struct sf_srcroot r;
		struct sf_err err = SF_ERR_INIT;
		snprintf(root, sizeof(root), roots[i], dir);
		assert_int_equal(sf_srcroot_init(&r, root, &err), 0);
		char *shown = sf_srcroot_show(&r, p);
		assert_string_equal(shown, "c/f.h");
		free(shown);
		sf_srcroot_release(&r);
	}
	/* the root is the symlink; the path names the real file, and the
	 * other way round */
	struct sf_srcroot r;
	struct sf_err err = SF_ERR_INIT;
	snprintf(root, sizeof(root), "%s/link", dir);
	assert_int_equal(sf_srcroot_init(&r, root, &err), 0);
	char *shown = sf_srcroot_show(&r, p);
	assert_string_equal(shown, "f.h");
	free(shown);
	sf_srcroot_release(&r);
	snprintf(root, sizeof(root), "%s/c", dir);
	snprintf(p, sizeof(p), "%s/link/f.h", dir);
	assert_int_equal(sf_srcroot_init(&r, root, &err), 0);
	shown = sf_srcroot_show(&r, p);
	assert_string_equal(shown, "f.h");
	free(shown);
	sf_srcroot_release(&r);
}

static void test_srcroot_outside_and_missing(void **state)
{
	struct sf_srcroot r;
	struct sf_err err = SF_ERR_INIT;
	char root[PATH_MAX + 64], p[PATH_MAX + 64];

	(void)state;
	snprintf(root, sizeof(root), "%s/a", dir);
	assert_int_equal(sf_srcroot_init(&r, root, &err), 0);
	/* not below: shown normalised, whole */
	snprintf(p, sizeof(p), "%s/a/../c/f.h", dir);
	char *shown = sf_srcroot_show(&r, p);
	char want[PATH_MAX + 64];
	snprintf(want, sizeof(want), "%s/c/f.h", dir);
	assert_string_equal(shown, want);
	free(shown);
	/* a file that does not exist, lexically below: still relative */
	snprintf(p, sizeof(p), "%s/a/gone/x.c", dir);
	shown = sf_srcroot_show(&r, p);
	assert_string_equal(shown, "gone/x.c");
	free(shown);
	/* the root itself is not "below" it */
	shown = sf_srcroot_show(&r, root);
	assert_string_equal(shown, root);
	free(shown);
	/* no decl_file stays empty */
	shown = sf_srcroot_show(&r, "");
	assert_string_equal(shown, "");
	free(shown);
	sf_srcroot_release(&r);

	/* errors: missing, not a directory, empty */
	snprintf(root, sizeof(root), "%s/nosuch", dir);
	assert_int_equal(sf_srcroot_init(&r, root, &err), -1);
	assert_non_null(strstr(err.msg, "source root: No such file or directory"));
	snprintf(root, sizeof(root), "%s/c/f.h", dir);
	assert_int_equal(sf_srcroot_init(&r, root, &err), -1);
	assert_non_null(strstr(err.msg, "source root: not a directory"));
	assert_int_equal(sf_srcroot_init(&r, "", &err), -1);
	assert_non_null(strstr(err.msg, "empty"));
	/* no root: normalise only */
	shown = sf_srcroot_show(NULL, "./x/../y.c");
	assert_string_equal(shown, "y.c");
	free(shown);
}

static void test_below(void **state)
{
	(void)state;
	assert_string_equal(sf_path_below("/r/s/x.c", "/r"), "s/x.c");
	assert_null(sf_path_below("/rs/x.c", "/r"));     /* not a string prefix */
	assert_null(sf_path_below("/r", "/r"));
	assert_null(sf_path_below("r/x.c", "/r"));
	assert_string_equal(sf_path_below("/x.c", "/"), "x.c");
}

/* Shared directories and the home directory (or above it) are too broad
 * to search; a project's own top directory, even right below /, is not. */
static void test_too_broad(void **state)
{
	static const char *const broad[] = { "/", "/tmp", "/var/tmp", "/home", "/usr",
					     "/usr/local", "/opt", "/dev/shm" };
	static const char *const narrow[] = { "/work", "/app", "/tmp/proj", "/home/u/proj",
					      "/usr/src/linux", "/opt/app", "/homework" };

	(void)state;
	for (size_t i = 0; i < sizeof(broad) / sizeof(broad[0]); i++)
		assert_true(sf_path_too_broad(broad[i], NULL));
	for (size_t i = 0; i < sizeof(narrow) / sizeof(narrow[0]); i++)
		assert_false(sf_path_too_broad(narrow[i], "/home/u"));
	assert_true(sf_path_too_broad("/home/u", "/home/u"));      /* the home itself */
	assert_true(sf_path_too_broad("/data", "/data/users/u"));  /* above it */
	assert_true(sf_path_too_broad("/data/users", "/data/users/u"));
	assert_false(sf_path_too_broad("/data/users/u2", "/data/users/u"));
	assert_false(sf_path_too_broad("/data", "relative"));       /* no real home */
	assert_true(sf_path_too_broad("/root", "/root"));
	assert_false(sf_path_too_broad("/root/proj", "/root"));
}

/* sf_path_is_normal(p) says whether sf_path_normalize(p) is p itself,
 * for every path of up to four components drawn from "", ".", "..", "a"
 * and "bc" (empty ones make "//" and a trailing '/'), absolute or not:
 * the normaliser is the oracle. */
static void test_is_normal_agrees_with_normalize(void **state)
{
	static const char *const part[] = { "", ".", "..", "a", "bc" };
	size_t nparts = sizeof(part) / sizeof(part[0]), normal = 0, total = 0;

	(void)state;
	for (int len = 1; len <= 4; len++) {
		size_t combos = 1;
		for (int k = 0; k < len; k++)
			combos *= nparts;
		for (int abs = 0; abs < 2; abs++) {
			for (size_t c = 0; c < combos; c++) {
				char p[64] = "";
				size_t x = c;
				if (abs)
					strcat(p, "/");
				for (int k = 0; k < len; k++, x /= nparts) {
					if (k)
						strcat(p, "/");
					strcat(p, part[x % nparts]);
				}
				char *norm = sf_path_normalize(p);
				bool same = strcmp(norm, p) == 0;
				if (sf_path_is_normal(p) != same)
					fail_msg("\"%s\": normalised \"%s\", is_normal %d", p, norm,
						 sf_path_is_normal(p));
				normal += same;
				total++;
				free(norm);
			}
		}
	}
	/* both answers were met, many times */
	assert_true(normal > 100 && total - normal > 100);
	assert_false(sf_path_is_normal(""));
	assert_true(sf_path_is_normal("/usr/include/stdio.h"));
	assert_false(sf_path_is_normal("./csu/../nptl/descr.h"));
}

/* lib/err.h: the fields, and the line composed from them, cut where one
 * snprintf of the whole line would cut it. */
static void test_err_fields(void **state)
{
	struct sf_err e = SF_ERR_INIT;
	char big[3000], whole[SF_ERR_MAX];

	(void)state;
	sf_error(&e, "--limit: '%s' is not a number", "x");
	assert_string_equal(e.msg, "--limit: 'x' is not a number");
	assert_string_equal(e.file, "");
	assert_int_equal(e.line, 0);
	assert_string_equal(sf_err_problem(&e), e.msg);
	sf_error_at(&e, "a.c", 3, 0, "bad %d", 7);
	assert_string_equal(e.msg, "a.c:3: bad 7");
	assert_string_equal(e.file, "a.c");
	assert_int_equal(e.line, 3);
	assert_int_equal(e.col, 0);
	assert_string_equal(sf_err_problem(&e), "bad 7");
	sf_error_at(&e, "b.txt", 2, 10, "x");
	assert_string_equal(e.msg, "b.txt:2:10: x");
	assert_string_equal(sf_err_problem(&e), "x");
	memset(big, 'p', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	sf_error_at(&e, "f.o", 0, 0, "%s", big);
	memcpy(whole, "f.o: ", 5);
	memcpy(whole + 5, big, sizeof(whole) - 6);
	whole[sizeof(whole) - 1] = '\0';
	assert_string_equal(e.msg, whole);
	assert_int_equal(strlen(sf_err_problem(&e)), SF_ERR_MAX - 1 - 5);
	sf_error_at(&e, big, 0, 0, "lost");
	assert_int_equal(strlen(e.msg), SF_ERR_MAX - 1);
	assert_string_equal(sf_err_problem(&e), "");
}

/* lib/err.h: the line is one line whatever the file or problem quote
 * (an archive member named "!<thin>\n.o", from fuzz_reader); the file
 * field keeps the name as it is. */
static void test_err_is_one_line(void **state)
{
	struct sf_err e = SF_ERR_INIT;

	(void)state;
	sf_error_at(&e, "lib.a(!<thin>\n.o)", 0, 0, "truncated ELF (tab\there, del\x7f)");
	assert_string_equal(e.msg, "lib.a(!<thin>?.o): truncated ELF (tab?here, del?)");
	assert_string_equal(e.file, "lib.a(!<thin>\n.o)");
	assert_string_equal(sf_err_problem(&e), "truncated ELF (tab?here, del?)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_err_fields),
		cmocka_unit_test(test_err_is_one_line),
		cmocka_unit_test(test_normalize_names_the_same_file),
		cmocka_unit_test(test_normalize_relative_keeps_leading_dotdot),
		cmocka_unit_test(test_srcroot_spellings),
		cmocka_unit_test(test_srcroot_outside_and_missing),
		cmocka_unit_test(test_below),
		cmocka_unit_test(test_too_broad),
		cmocka_unit_test(test_is_normal_agrees_with_normalize),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
