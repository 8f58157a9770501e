/*
 * test_dwarf_merge.c - sf_typeset_merge_copy (dwarf/reader.c, merge_into): a
 * set merged into another keeps one of each type, in the order met, with
 * variants flagged, whether its types are copied (small sets, or many
 * duplicates) or its memory taken over (sets of 4 MiB or more with fewer
 * than one duplicate in eight).  Each case is merged both ways and the
 * results compared type by type.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "dwarf/reader.h"
#include "model_build.h"

/* struct NAME { long a; TYPE b; } of size 16 */
static void add_pair(struct sf_typeset *ts, const char *name, const char *type)
{
	const struct sf_test_mdef m[] = {
		{ "a", "long", 0, 8, 8 },
		{ "b", type, 8, 8, 8 },
	};
	const struct sf_test_tdef d = { .kind = SF_KIND_STRUCT, .name = name, .size = 16,
					.align = 8, .file = "m.h", .line = 1, .origin = "m.o",
					.addr_size = 8, .member_tclass = SF_T_INT };

	sf_test_add_type(ts, &d, m, 2);
}

/* The set a loader would have: `first` types s0, s1, ...; then, from a
 * second input, `n` types t0, t1, ... of which every `dup_every`th is
 * s0..'s twin (0: none), and a variant of s1 (another member type). */
static struct sf_typeset *merged(size_t first, size_t n, size_t dup_every)
{
	struct sf_typeset *ts = sf_typeset_new(), *src = sf_typeset_new();
	char name[32];

	for (size_t i = 0; i < first; i++) {
		snprintf(name, sizeof(name), "s%zu", i);
		add_pair(ts, name, "long");
	}
	for (size_t i = 0; i < n; i++) {
		if (dup_every && i % dup_every == 0)
			snprintf(name, sizeof(name), "s%zu", (i / dup_every) % first);
		else
			snprintf(name, sizeof(name), "t%zu", i);
		add_pair(src, name, "long");
	}
	add_pair(src, "s1", "double");
	sf_typeset_merge_copy(ts, src);
	return ts;
}

/* What the merge must give, made type by type: the first input's, then
 * each new one of the second in its order. */
static void assert_merged(const struct sf_typeset *ts, size_t first, size_t n,
			  size_t dup_every)
{
	const struct sf_type *found[4];
	size_t k = 0;
	char name[32];

	for (size_t i = 0; i < first; i++, k++) {
		snprintf(name, sizeof(name), "s%zu", i);
		assert_string_equal(sf_typeset_get(ts, k)->name, name);
		assert_int_equal(!!(sf_typeset_get(ts, k)->flags & SF_TF_VARIANT), i == 1);
	}
	for (size_t i = 0; i < n; i++) {
		if (dup_every && i % dup_every == 0)
			continue;
		snprintf(name, sizeof(name), "t%zu", i);
		assert_string_equal(sf_typeset_get(ts, k)->name, name);
		assert_false(sf_typeset_get(ts, k)->flags & SF_TF_VARIANT);
		assert_int_equal(sf_typeset_find_ns(ts, name, 0, found, 4), 1);
		k++;
	}
	const struct sf_type *v = sf_typeset_get(ts, k++);
	assert_string_equal(v->name, "s1");
	assert_string_equal(v->members[1].type_name, "double");
	assert_true(v->flags & SF_TF_VARIANT);
	assert_int_equal(sf_typeset_count(ts), k);
	assert_int_equal(sf_typeset_find_ns(ts, "s1", 0, found, 4), 2);
	assert_int_equal(sf_typeset_find_ns(ts, "s0", 0, found, 4), 1);
}

/* enough types that the second input's set passes 4 MiB, and as many
 * first ones as duplicates are asked for (a set holds each once) */
enum { BIG = 30000, FIRST = 10000 };

static void test_taken_over(void **state)
{
	(void)state;
	/* one duplicate in ten: taken over */
	struct sf_typeset *ts = merged(FIRST, BIG, 10);
	assert_merged(ts, FIRST, BIG, 10);
	sf_typeset_free(ts);
	/* no duplicate at all */
	ts = merged(FIRST, BIG, 0);
	assert_merged(ts, FIRST, BIG, 0);
	sf_typeset_free(ts);
}

static void test_copied(void **state)
{
	(void)state;
	/* one duplicate in four: copied */
	struct sf_typeset *ts = merged(FIRST, BIG, 4);
	assert_merged(ts, FIRST, BIG, 4);
	sf_typeset_free(ts);
	/* a small set: copied, however few duplicates */
	ts = merged(FIRST, 200, 0);
	assert_merged(ts, FIRST, 200, 0);
	sf_typeset_free(ts);
}

static void test_set_size_decides(void **state)
{
	(void)state;
	/* the BIG sets passed the size past which a set is taken over */
	struct sf_typeset *src = sf_typeset_new();
	char name[32];
	for (size_t i = 0; i < BIG; i++) {
		snprintf(name, sizeof(name), "t%zu", i);
		add_pair(src, name, "long");
	}
	assert_true(sf_typeset_bytes(src) >= (size_t)4 << 20);
	sf_typeset_free(src);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_taken_over),
		cmocka_unit_test(test_copied),
		cmocka_unit_test(test_set_size_decides),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
