/*
 * test_public.c - layout/public.c: which types are a public interface.
 *
 * The system directories are checked against the compilers themselves:
 * every directory `cc -E -v` lists in its "#include <...>" search list
 * (gcc's, and clang's when installed) must count as a system directory,
 * and a header found there (stddef.h, stdio.h) is an installed one.  The
 * rest are the rules of public.h on paths built to tell them apart:
 * a project that lives below some "include" directory, a file named
 * include.h, include/ inside the project and outside it, packed types.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout/public.h"
#include "report/reasons.h"

static struct sf_type type_at(const char *decl_file, const char *comp_dir, uint16_t flags)
{
	struct sf_type t;

	memset(&t, 0, sizeof(t));
	t.name = "s";
	t.decl_file = decl_file;
	t.comp_dir = comp_dir;
	t.flags = flags;
	return t;
}

static enum sf_public public_of(const char *decl_file, const char *comp_dir)
{
	struct sf_type t = type_at(decl_file, comp_dir, 0);

	return sf_type_public(&t);
}

/*
 * The directories `cc -E -v` searches for <...>; returns how many were
 * checked (0 when the compiler is not installed).
 */
static int check_search_list(const char *cc)
{
	char cmd[128], line[4096];
	int in_list = 0, n = 0;

	snprintf(cmd, sizeof(cmd), "echo | %s -E -v -x c - 2>&1 >/dev/null", cc);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(line, sizeof(line), p)) {
		line[strcspn(line, "\n")] = '\0';
		if (strstr(line, "#include <...> search starts here")) {
			in_list = 1;
			continue;
		}
		if (strstr(line, "End of search list"))
			in_list = 0;
		if (!in_list || line[0] != ' ')
			continue;
		char path[4200];
		/* a directory of the list and a header in it */
		snprintf(path, sizeof(path), "%s/x.h", line + 1);
		if (!sf_path_is_system(path))
			fail_msg("%s searches %s, not taken for a system directory", cc, line + 1);
		assert_int_equal(public_of(path, "/tmp/proj"), SF_PUBLIC_INSTALLED);
		n++;
	}
	pclose(p);
	return n;
}

static void test_compilers_search_lists_are_system(void **state)
{
	(void)state;
	int gcc = check_search_list("gcc");
	assert_true(gcc >= 2);          /* gcc's own include and /usr/include */
	int clang = check_search_list("clang");
	/* under make test clang is installed (TEST_PKGS); elsewhere it may not be */
	if (getenv("SF_TEST_STRICT"))
		assert_true(clang >= 2);
	else if (!clang)
		printf("test_public: clang not installed, its search list not checked\n");
}

static void test_project_paths(void **state)
{
	(void)state;
	/* the project's include/ directory, relative (a source root) or absolute */
	assert_int_equal(public_of("include/ruby/st.h", "/b/ruby"), SF_PUBLIC_INCLUDE);
	assert_int_equal(public_of("/b/ruby/include/ruby/st.h", "/b/ruby"), SF_PUBLIC_INCLUDE);
	assert_int_equal(public_of("/b/ruby/include/ruby/st.h", "/b/ruby/"), SF_PUBLIC_INCLUDE);
	assert_int_equal(public_of("lib/include/api.h", NULL), SF_PUBLIC_INCLUDE);
	/* private: src/, a file called include.h, a directory includes/ */
	assert_int_equal(public_of("/b/ruby/st.c", "/b/ruby"), SF_PUBLIC_NO);
	assert_int_equal(public_of("/b/ruby/src/include.h", "/b/ruby"), SF_PUBLIC_NO);
	assert_int_equal(public_of("/b/ruby/includes/x.h", "/b/ruby"), SF_PUBLIC_NO);
	assert_int_equal(public_of("src/x.h", ""), SF_PUBLIC_NO);
	/* a project living below a directory named include: only its own
	 * directories count */
	assert_int_equal(public_of("/home/include/proj/src/x.h", "/home/include/proj"),
			 SF_PUBLIC_NO);
	assert_int_equal(public_of("/home/include/proj/include/x.h", "/home/include/proj"),
			 SF_PUBLIC_INCLUDE);
	/* comp_dir is a string prefix, not a directory prefix */
	assert_int_equal(public_of("/b/rubyx/include/x.h", "/b/ruby"), SF_PUBLIC_INSTALLED);
	/* unknown location (BTF) */
	assert_int_equal(public_of("", NULL), SF_PUBLIC_NO);
	assert_int_equal(public_of(NULL, NULL), SF_PUBLIC_NO);
}

static void test_installed_outside_the_project(void **state)
{
	(void)state;
	/* a header installed into a prefix the build points at with -I */
	assert_int_equal(public_of("/tmp/prefix/include/lib.h", "/tmp/proj"),
			 SF_PUBLIC_INSTALLED);
	assert_int_equal(public_of("/opt/x/include/sub/lib.h", NULL), SF_PUBLIC_INSTALLED);
	assert_int_equal(public_of("/usr/include/stdio.h", "/usr/include"), SF_PUBLIC_INSTALLED);
	assert_int_equal(public_of("../include/lib.h", NULL), SF_PUBLIC_INSTALLED);
	/* another project's private file */
	assert_int_equal(public_of("/tmp/other/src/lib.h", "/tmp/proj"), SF_PUBLIC_NO);
}

static void test_packed_is_a_format(void **state)
{
	(void)state;
	struct sf_type t = type_at("/b/p/src/wire.c", "/b/p", SF_TF_PACKED);
	assert_int_equal(sf_type_public(&t), SF_PUBLIC_PACKED);
	t.flags = SF_TF_ALIGNED;
	assert_int_equal(sf_type_public(&t), SF_PUBLIC_NO);
	/* packed wins over the header: the stronger reason */
	t = type_at("/usr/include/x.h", "/b/p", SF_TF_PACKED);
	assert_int_equal(sf_type_public(&t), SF_PUBLIC_PACKED);
	assert_string_equal(sf_public_word(SF_PUBLIC_PACKED), "packed");
	assert_string_equal(sf_public_word(SF_PUBLIC_NO), "");
	assert_non_null(strstr(sf_public_why(SF_PUBLIC_INCLUDE), "include/"));
}

static void test_path_under(void **state)
{
	(void)state;
	assert_true(sf_path_under("src/a.h", "src"));
	assert_true(sf_path_under("src/a.h", "src/"));
	assert_true(sf_path_under("src", "src"));
	assert_false(sf_path_under("srcx/a.h", "src"));
	assert_false(sf_path_under("/src/a.h", "src"));
	assert_true(sf_path_under("/usr/include/a.h", "/usr/include"));
	assert_true(sf_path_under("/usr/include/a.h", "/"));
	assert_false(sf_path_under("/usr/includes/a.h", "/usr/include"));
	/* "" is the source root: every relative path */
	assert_true(sf_path_under("a.h", ""));
	assert_false(sf_path_under("/a.h", ""));
	assert_false(sf_path_under("", ""));
	assert_false(sf_path_is_system("/usr/includes/a.h"));
	assert_false(sf_path_is_system("/home/me/usr/include/a.h"));
	assert_true(sf_path_is_system("/usr/lib/gcc/x86_64-linux-gnu/12/include/stddef.h"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compilers_search_lists_are_system),
		cmocka_unit_test(test_project_paths),
		cmocka_unit_test(test_installed_outside_the_project),
		cmocka_unit_test(test_packed_is_a_format),
		cmocka_unit_test(test_path_under),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
