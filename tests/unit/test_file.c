/*
 * test_file.c - lib/file.c and lib/walk.c on a real tree made in a temp
 * dir: a file written with sf_write_all reads back byte for byte (a
 * 200 KiB one: more than one piece of the reader), a missing file is
 * SF_FILE_CANNOT_OPEN, a NUL byte is not text; the walker visits names in
 * sorted order (or the walk's own), enters only the directories its
 * callback asks for, passes an unopenable directory to cannot_open and
 * stops on a negative return.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/file.h"
#include "lib/walk.h"

static char dir[PATH_MAX];

static void put(const char *rel, const char *text, size_t len)
{
	char p[PATH_MAX + 64];

	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(sf_write_all(fd, text, len), 0);
	assert_int_equal(close(fd), 0);
}

static void sub(const char *rel)
{
	char p[PATH_MAX + 64];

	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	assert_int_equal(mkdir(p, 0755), 0);
}

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/sf-test-file-XXXXXX");
	assert_non_null(mkdtemp(dir));
	sub("b");
	sub("b/deep");
	sub(".hidden");
	sub("locked");
	put("a.c", "int a;\n", 7);
	put("b/x.h", "x", 1);
	put("b/deep/y.h", "y", 1);
	put(".hidden/z.c", "z", 1);
	put("nul.bin", "a\0b", 3);
	char p[PATH_MAX + 64];
	snprintf(p, sizeof(p), "%s/locked", dir);
	chmod(p, 0);
	return 0;
}

static int teardown(void **state)
{
	char cmd[2 * PATH_MAX + 64];

	(void)state;
	snprintf(cmd, sizeof(cmd), "chmod -R u+rwx '%s' && rm -rf '%s'", dir, dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void test_read_back(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	char p[PATH_MAX + 64];
	size_t n = 200 << 10;
	char *big = malloc(n);

	(void)state;
	assert_non_null(big);
	for (size_t i = 0; i < n; i++)
		big[i] = (char)('a' + i % 26);
	put("big.txt", big, n);
	snprintf(p, sizeof(p), "%s/big.txt", dir);
	assert_int_equal(sf_read_file(p, &sb), 0);
	assert_int_equal(sb.len, n);
	assert_memory_equal(sb.buf, big, n);
	assert_true(sf_is_text(&sb));
	sb_reset(&sb);
	snprintf(p, sizeof(p), "%s/nul.bin", dir);
	assert_int_equal(sf_read_file(p, &sb), 0);
	assert_int_equal(sb.len, 3);
	assert_false(sf_is_text(&sb));
	sb_reset(&sb);
	snprintf(p, sizeof(p), "%s/none", dir);
	assert_int_equal(sf_read_file(p, &sb), SF_FILE_CANNOT_OPEN);
	unlink(p);
	snprintf(p, sizeof(p), "%s/big.txt", dir);
	unlink(p);
	sb_release(&sb);
	free(big);
}

struct seen {
	char list[512];
	int stop_at_x;
	int unopened;
};

static int visit(void *arg, const struct sf_walk_entry *e)
{
	struct seen *s = arg;

	if (e->name[0] == '.')
		return SF_WALK_SKIP;
	snprintf(s->list + strlen(s->list), sizeof(s->list) - strlen(s->list), "%s%s:%u ",
		 e->rel, S_ISDIR(e->st.st_mode) ? "/" : "", e->depth);
	if (s->stop_at_x && !strcmp(e->name, "x.h"))
		return -7;
	return SF_WALK_DESCEND;
}

static int unopened(void *arg, const char *d, int errnum)
{
	struct seen *s = arg;

	(void)d;
	(void)errnum;
	s->unopened++;
	return 0;
}

static int reverse(const char *a, const char *b)
{
	return strcmp(b, a);
}

static void test_walk(void **state)
{
	struct seen s = { "", 0, 0 };
	struct sf_walk w = { .visit = visit, .cannot_open = unopened, .arg = &s };

	(void)state;
	assert_int_equal(sf_walk_dir(dir, &w), 0);
	/* root may open locked/ anyway */
	if (getuid() != 0)
		assert_int_equal(s.unopened, 1);
	assert_string_equal(s.list, "a.c:0 b/:0 b/deep/:1 b/deep/y.h:2 b/x.h:1 locked/:0 "
			    "nul.bin:0 ");
	memset(&s, 0, sizeof(s));
	w.order = reverse;
	assert_int_equal(sf_walk_dir(dir, &w), 0);
	assert_string_equal(s.list, "nul.bin:0 locked/:0 b/:0 b/x.h:1 b/deep/:1 b/deep/y.h:2 "
			    "a.c:0 ");
	memset(&s, 0, sizeof(s));
	s.stop_at_x = 1;
	assert_int_equal(sf_walk_dir(dir, &w), -7);
	assert_string_equal(s.list, "nul.bin:0 locked/:0 b/:0 b/x.h:1 ");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_back),
		cmocka_unit_test(test_walk),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
