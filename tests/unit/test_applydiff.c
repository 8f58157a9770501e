/*
 * test_applydiff.c - the strict application of a unified diff
 * (layout/applydiff.c): what it gives for diffs written here by hand to
 * diff(1)'s format, and each refusal, by its line, with nothing produced.
 * (The diffs structfit renders are applied back in test_srcpatch.c.)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "layout/applydiff.h"
#include "report/udiff.h"

static const char old_text[] = "1\n2\n3\n4\n5\n6\n7\n8\n9\n";

/* Apply diff to old; the result or the refusal's line in *msg. */
static int apply(const char *old, const char *diff, struct strbuf *out, const char **msg)
{
	static struct sf_err err;
	struct sf_udiff_refusal why;

	err.msg[0] = '\0';
	int rc = sf_udiff_apply(old, strlen(old), diff, strlen(diff), out, &why);
	if (rc < 0)
		sf_udiff_refusal_err("f.c", &why, &err);
	*msg = err.msg;
	return rc;
}

static void gives(const char *old, const char *diff, const char *want)
{
	struct strbuf out = STRBUF_INIT;
	const char *msg;

	if (apply(old, diff, &out, &msg) < 0)
		fail_msg("refused: %s", msg);
	assert_string_equal(out.buf, want);
	sb_release(&out);
}

static void refused(const char *old, const char *diff, const char *want)
{
	struct strbuf out = STRBUF_INIT;
	const char *msg;

	sb_adds(&out, "kept");
	assert_int_equal(apply(old, diff, &out, &msg), -1);
	assert_string_equal(msg, want);
	assert_string_equal(out.buf, "kept");   /* nothing appended */
	sb_release(&out);
}

static void test_applies(void **state)
{
	(void)state;
	/* git's header lines before "---" are skipped */
	gives(old_text, "diff --git a/f.c b/f.c\nindex 1..2 100644\n--- a/f.c\n+++ b/f.c\n"
	      "@@ -2,3 +2,3 @@\n 2\n-3\n+three\n 4\n", "1\n2\nthree\n4\n5\n6\n7\n8\n9\n");
	/* two hunks, a blank line between them; counts left out mean 1 */
	gives(old_text, "--- a/f.c\n+++ b/f.c\n@@ -1 +1 @@\n-1\n+one\n\n"
	      "@@ -8,2 +8,3 @@\n 8\n+8.5\n 9\n", "one\n2\n3\n4\n5\n6\n7\n8\n8.5\n9\n");
	/* an empty context line (its blank dropped by an editor) */
	gives("a\n\nb\n", "--- a/f.c\n+++ b/f.c\n@@ -1,3 +1,3 @@\n a\n\n-b\n+c\n", "a\n\nc\n");
	/* the last line without '\n', on each side */
	gives("a\nb", "--- a/f.c\n+++ b/f.c\n@@ -1,2 +1,2 @@\n a\n-b\n"
	      "\\ No newline at end of file\n+c\n", "a\nc\n");
	gives("a\nb\n", "--- a/f.c\n+++ b/f.c\n@@ -2 +2 @@\n-b\n+c\n"
	      "\\ No newline at end of file\n", "a\nc");
	/* into an empty file, and down to one */
	gives("", "--- a/f.c\n+++ b/f.c\n@@ -0,0 +1,2 @@\n+x\n+y\n", "x\ny\n");
	gives("x\n", "--- a/f.c\n+++ b/f.c\n@@ -1 +0,0 @@\n-x\n", "");
}

static void test_refusals(void **state)
{
	(void)state;
	refused(old_text, "junk\n", "f.c: not a unified diff");
	refused(old_text, "--- a/f.c\nno plus line\n", "f.c: not a unified diff");
	static const char *const bad_headers[] = {
		"@@ -x +1 @@", "@@ -1,2 +1,2", "@@ -1, +1 @@", "@@ 1 +1 @@", "@@ -1 1 @@",
		"@@ - 1 +1 @@", "not a hunk",
	};
	for (size_t i = 0; i < sizeof(bad_headers) / sizeof(bad_headers[0]); i++) {
		char diff[128];
		snprintf(diff, sizeof(diff), "--- a/f.c\n+++ b/f.c\n%s\n-1\n+x\n", bad_headers[i]);
		refused(old_text, diff, "f.c: hunk 1 does not apply (bad hunk header)");
	}
	refused(old_text, "--- a/f.c\n+++ b/f.c\n@@ -0,1 +0,1 @@\n-1\n+x\n",
		"f.c: hunk 1 does not apply (bad line number)");
	refused(old_text, "--- a/f.c\n+++ b/f.c\n@@ -5 +5 @@\n-5\n+x\n@@ -2 +2 @@\n-2\n+y\n",
		"f.c: hunk 2 does not apply (out of order or past the end)");
	refused(old_text, "--- a/f.c\n+++ b/f.c\n@@ -20 +20 @@\n-20\n+x\n",
		"f.c: hunk 1 does not apply (out of order or past the end)");
	refused(old_text, "--- a/f.c\n+++ b/f.c\n@@ -1,2 +1,2 @@\n 1\n*2\n",
		"f.c: hunk 1 does not apply (bad line in hunk)");
	refused(old_text, "--- a/f.c\n+++ b/f.c\n@@ -1,2 +1,2 @@\n 0\n-2\n+x\n",
		"f.c: hunk 1 does not apply (context differs)");
	refused(old_text, "--- a/f.c\n+++ b/f.c\n@@ -1,2 +1,2 @@\n 1\n-3\n+x\n",
		"f.c: hunk 1 does not apply (removed line differs)");
	/* a line that ends in the old text is not one without '\n' */
	refused(old_text, "--- a/f.c\n+++ b/f.c\n@@ -9 +9 @@\n-9\n\\ No newline at end of file\n+x\n",
		"f.c: hunk 1 does not apply (removed line differs)");
	refused(old_text, "--- a/f.c\n+++ b/f.c\n@@ -8,2 +8,2 @@\n-8\n+x\n",
		"f.c: hunk 1 does not apply (line counts differ from its header)");
	/* past the end of the old text inside a hunk */
	refused("1\n", "--- a/f.c\n+++ b/f.c\n@@ -1,2 +1,2 @@\n 1\n 2\n",
		"f.c: hunk 1 does not apply (context differs)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_applies),
		cmocka_unit_test(test_refusals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
