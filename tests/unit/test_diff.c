/*
 * test_diff.c - layout diffs between two hand-built typesets (no DWARF):
 * a struct that grows, one reordered, one that gains a hole by narrowing a
 * member, one removed, one added, one unchanged.  Holes come from
 * layout/holes.c; the test checks what the diff concludes from them.
 * Then one name with a definition per file, each paired with its own.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "layout/diff.h"
#include "report/diff.h"
#include "model/typeset.h"
#include "lib/xalloc.h"
#include "model_build.h"

static const struct sf_type *mk_at(struct sf_typeset *ts, enum sf_kind kind,
				    const char *name, uint64_t size, uint32_t align,
				    const struct sf_test_mdef *m, size_t n, const char *file,
				    uint32_t line)
{
	const struct sf_test_tdef d = {
		.kind = kind, .name = name, .size = size, .align = align,
		.file = file, .line = line, .origin = "d.o",
	};

	return sf_test_add_type(ts, &d, m, n);
}

static const struct sf_type *mk(struct sf_typeset *ts, enum sf_kind kind,
				 const char *name, uint64_t size, uint32_t align,
				 const struct sf_test_mdef *m, size_t n)
{
	return mk_at(ts, kind, name, size, align, m, n, "d.c", 1);
}

#define MK(ts, name, size, m) \
	mk(ts, SF_KIND_STRUCT, name, size, 8, m, sizeof(m) / sizeof(m[0]))

static const struct sf_test_mdef grows_old[] = {
	{ "a", "int", 0, 4, 4 }, { "b", "int", 4, 4, 4 },
};
static const struct sf_test_mdef grows_new[] = {
	{ "a", "int", 0, 4, 4 }, { "b", "int", 4, 4, 4 }, { "c", "long", 8, 8, 8 },
};
/* char a; long b; char c;  ->  long b; char a; char c; */
static const struct sf_test_mdef reord_old[] = {
	{ "a", "char", 0, 1, 1 }, { "b", "long", 8, 8, 8 }, { "c", "char", 16, 1, 1 },
};
static const struct sf_test_mdef reord_new[] = {
	{ "b", "long", 0, 8, 8 }, { "a", "char", 8, 1, 1 }, { "c", "char", 9, 1, 1 },
};
/* int a; int b; long c;  ->  int a; char b; long c;  (3-byte hole after b) */
static const struct sf_test_mdef hole_old[] = {
	{ "a", "int", 0, 4, 4 }, { "b", "int", 4, 4, 4 }, { "c", "long", 8, 8, 8 },
};
static const struct sf_test_mdef hole_new[] = {
	{ "a", "int", 0, 4, 4 }, { "b", "char", 4, 1, 1 }, { "c", "long", 8, 8, 8 },
};
static const struct sf_test_mdef one[] = { { "x", "long", 0, 8, 8 } };
static const struct sf_test_mdef big[] = { { "x", "long", 0, 8, 8 }, { "y", "char", 8, 1, 1 } };

struct pair {
	struct sf_typeset *old, *new;
};

static int setup(void **state)
{
	struct pair *p = sf_xcalloc(1, sizeof(*p));

	p->old = sf_typeset_new();
	p->new = sf_typeset_new();
	MK(p->old, "grows", 8, grows_old);
	MK(p->new, "grows", 16, grows_new);
	MK(p->old, "reord", 24, reord_old);
	MK(p->new, "reord", 16, reord_new);
	MK(p->old, "hole", 16, hole_old);
	MK(p->new, "hole", 16, hole_new);
	MK(p->old, "gone", 8, one);
	MK(p->new, "newone", 16, big);
	MK(p->old, "same", 8, one);
	MK(p->new, "same", 8, one);
	*state = p;
	return 0;
}

static int teardown(void **state)
{
	struct pair *p = *state;

	sf_typeset_free(p->old);
	sf_typeset_free(p->new);
	free(p);
	return 0;
}

static const struct sf_dmember *find_change(const struct sf_dtype *d,
					    uint8_t change, const char *name)
{
	for (uint32_t i = 0; i < d->nmembers; i++) {
		const struct sf_dmember *m = &d->members[i];
		const char *n = m->new ? m->new->name : m->old->name;
		if (m->change == change && !strcmp(n, name))
			return m;
	}
	return NULL;
}

static void test_whole_diff(void **state)
{
	struct pair *p = *state;
	struct sf_diff d;
	const char *missing = NULL;

	assert_int_equal(sf_diff_compute(p->old, p->new, NULL, &d, &missing), 0);
	assert_int_equal(d.compared, 6);
	assert_int_equal(d.nchanged, 3);
	assert_int_equal(d.nadded, 1);
	assert_int_equal(d.nremoved, 1);
	assert_int_equal(d.ngrown, 1);
	assert_int_equal(d.growth, 8 + 0 - 8);
	assert_int_equal(d.n, 5);

	/* changed by growth, then added, then removed */
	assert_string_equal(d.types[0].new->name, "grows");
	assert_string_equal(d.types[1].new->name, "hole");
	assert_string_equal(d.types[2].new->name, "reord");
	assert_int_equal(d.types[3].status, SF_D_ADDED);
	assert_string_equal(d.types[3].new->name, "newone");
	assert_null(d.types[3].old);
	assert_int_equal(d.types[3].growth, 16);
	assert_int_equal(d.types[4].status, SF_D_REMOVED);
	assert_string_equal(d.types[4].old->name, "gone");
	assert_int_equal(d.types[4].growth, -8);

	const struct sf_dtype *g = &d.types[0];
	assert_int_equal(g->status, SF_D_CHANGED);
	assert_int_equal(g->growth, 8);
	assert_int_equal(g->nmembers, 1);
	assert_non_null(find_change(g, SF_MC_ADDED, "c"));
	assert_false(g->reordered);
	assert_int_equal(g->nholes, 0);

	const struct sf_dtype *h = &d.types[1];
	assert_int_equal(h->growth, 0);
	assert_int_equal(h->old_nholes, 0);
	assert_int_equal(h->new_nholes, 1);
	assert_int_equal(h->new_sum_holes, 3);
	assert_int_equal(h->nholes, 1);
	assert_true(h->holes[0].gained);
	assert_int_equal(h->holes[0].offset, 5);
	assert_int_equal(h->holes[0].size, 3);
	assert_string_equal(h->holes[0].after, "b");
	const struct sf_dmember *rt = find_change(h, SF_MC_RETYPED, "b");
	assert_non_null(rt);
	assert_string_equal(rt->old->type_name, "int");
	assert_string_equal(rt->new->type_name, "char");
	assert_null(find_change(h, SF_MC_MOVED, "b"));
	assert_int_equal(h->nmembers, 1);

	const struct sf_dtype *r = &d.types[2];
	assert_int_equal(r->growth, -8);
	assert_true(r->reordered);
	assert_int_equal(r->nmembers, 3);
	const struct sf_dmember *mv = find_change(r, SF_MC_MOVED, "a");
	assert_non_null(mv);
	assert_int_equal(mv->old->offset, 0);
	assert_int_equal(mv->new->offset, 8);
	assert_non_null(find_change(r, SF_MC_MOVED, "b"));
	assert_non_null(find_change(r, SF_MC_MOVED, "c"));
	/* old: 7-byte hole after a; new: none (6 bytes of padding instead) */
	assert_int_equal(r->old_sum_holes, 7);
	assert_int_equal(r->new_sum_holes, 0);
	assert_int_equal(r->old_padding, 7);
	assert_int_equal(r->new_padding, 6);
	assert_int_equal(r->nholes, 1);
	assert_false(r->holes[0].gained);
	assert_string_equal(r->holes[0].after, "a");
	/* member changes are listed in layout order */
	assert_string_equal(r->members[0].new->name, "b");
	assert_string_equal(r->members[2].new->name, "c");
	sf_diff_release(&d);
}

static void test_only(void **state)
{
	struct pair *p = *state;
	struct sf_diff d;
	const char *missing = NULL;
	const char *only[] = { "struct hole", "same", "gone", NULL };
	struct sf_diff_opts o = { only };
	struct sf_err err = SF_ERR_INIT;

	assert_int_equal(sf_diff_compute(p->old, p->new, &o, &d, &missing), 0);
	assert_int_equal(d.compared, 3);
	assert_int_equal(d.n, 2);
	assert_int_equal(d.ngrown, 0);
	assert_string_equal(d.types[0].new->name, "hole");
	assert_int_equal(d.types[1].status, SF_D_REMOVED);
	sf_diff_release(&d);

	const char *bad[] = { "same", "nosuch", NULL };
	o.only = bad;
	assert_int_equal(sf_diff_compute(p->old, p->new, &o, &d, &missing), -1);
	assert_string_equal(missing, "nosuch");
	assert_int_equal(sf_diff_missing_err("a.o", "b.o", missing, &err), -1);
	assert_string_equal(err.msg, "a.o and b.o: type 'nosuch' not found");
}

static void test_identical(void **state)
{
	struct pair *p = *state;
	struct sf_diff d;
	const char *missing = NULL;

	assert_int_equal(sf_diff_compute(p->old, p->old, NULL, &d, &missing), 0);
	assert_int_equal(d.n, 0);
	assert_int_equal(d.compared, 5);
	sf_diff_release(&d);
}

/* Members of an anonymous union are matched by their own names. */
static void test_anonymous_members(void **state)
{
	(void)state;
	struct sf_typeset *a = sf_typeset_new(), *b = sf_typeset_new();
	static const struct sf_test_mdef u1[] = { { "i", "int", 8, 4, 4 }, { "p", "void *", 8, 8, 8 } };
	static const struct sf_test_mdef u2[] = { { "i", "long", 8, 8, 8 }, { "p", "void *", 8, 8, 8 } };
	struct sf_typeset *sets[2] = { a, b };

	for (int s = 0; s < 2; s++) {
		const struct sf_type *u = mk(sets[s], SF_KIND_UNION, "", 8, 8,
					     s ? u2 : u1, 2);
		struct sf_type *t = sf_typeset_alloc(sets[s], sizeof(*t));
		t->name = sf_typeset_intern(sets[s], "outer");
		t->size = 16;
		t->align = 8;
		t->decl_file = t->origin = sf_typeset_intern(sets[s], "");
		t->nmembers = 2;
		t->members = sf_typeset_alloc(sets[s], 2 * sizeof(*t->members));
		t->members[0] = (struct sf_member){ .name = "tag", .type_name = "int",
			.type_suffix = "", .offset = 0, .size = 4, .align = 4 };
		t->members[1] = (struct sf_member){ .name = "", .type_name = "union",
			.type_suffix = "", .offset = 8, .size = 8, .align = 8, .nested = u };
		sf_typeset_add(sets[s], t);
	}
	struct sf_diff d;
	const char *missing = NULL;
	assert_int_equal(sf_diff_compute(a, b, NULL, &d, &missing), 0);
	assert_int_equal(d.n, 1);
	assert_string_equal(d.types[0].new->name, "outer");
	assert_int_equal(d.types[0].nmembers, 1);
	assert_int_equal(d.types[0].members[0].change, SF_MC_RETYPED);
	assert_string_equal(d.types[0].members[0].new->name, "i");
	sf_diff_release(&d);
	sf_typeset_free(a);
	sf_typeset_free(b);
}

/*
 * Two programs' `struct config` (bench.c's small, cli.c's large): bench's
 * grows, cli's stays, another file's definition appears.  Each is paired
 * with its own; the largest-only pairing of old would see no growth and a
 * false one.  A second case moves bench's struct down its file (file
 * pairing) and builds in another tree (file-name pairing).
 */
static void test_same_name_definitions(void **state)
{
	(void)state;
	struct sf_typeset *a = sf_typeset_new(), *b = sf_typeset_new();
	struct sf_diff d;
	const char *missing = NULL;
	const struct sf_type *bench_old, *bench_new, *other;

	bench_old = mk_at(a, SF_KIND_STRUCT, "config", 8, 4, grows_old, 2, "/p/bench.c", 9);
	mk_at(a, SF_KIND_STRUCT, "config", 24, 8, reord_old, 3, "/p/cli.c", 5);
	bench_new = mk_at(b, SF_KIND_STRUCT, "config", 16, 8, grows_new, 3, "/p/bench.c", 9);
	mk_at(b, SF_KIND_STRUCT, "config", 24, 8, reord_old, 3, "/p/cli.c", 5);
	other = mk_at(b, SF_KIND_STRUCT, "config", 8, 8, one, 1, "/p/other.c", 2);
	assert_int_equal(sf_diff_compute(a, b, NULL, &d, &missing), 0);
	assert_int_equal(d.n, 2);
	assert_int_equal(d.types[0].status, SF_D_CHANGED);
	assert_ptr_equal(d.types[0].old, bench_old);
	assert_ptr_equal(d.types[0].new, bench_new);
	assert_int_equal(d.types[0].growth, 8);
	assert_int_equal(d.types[1].status, SF_D_ADDED);
	assert_ptr_equal(d.types[1].new, other);
	assert_true(d.types[1].definition);
	assert_int_equal(d.ngrown, 1);
	assert_int_equal(d.growth, 8);
	sf_diff_release(&d);
	sf_typeset_free(b);

	/* bench's moved to line 30, the new build in another tree */
	b = sf_typeset_new();
	bench_new = mk_at(b, SF_KIND_STRUCT, "config", 16, 8, grows_new, 3, "/q/bench.c", 30);
	mk_at(b, SF_KIND_STRUCT, "config", 24, 8, reord_old, 3, "/q/cli.c", 5);
	assert_int_equal(sf_diff_compute(a, b, NULL, &d, &missing), 0);
	assert_int_equal(d.n, 1);
	assert_ptr_equal(d.types[0].old, bench_old);
	assert_ptr_equal(d.types[0].new, bench_new);
	sf_diff_release(&d);
	sf_typeset_free(b);

	/* one definition left on each side: paired whatever the files */
	b = sf_typeset_new();
	mk_at(b, SF_KIND_STRUCT, "config", 24, 8, reord_old, 3, "/p/cli.c", 5);
	bench_new = mk_at(b, SF_KIND_STRUCT, "config", 16, 8, grows_new, 3, "/p/renamed.c", 1);
	assert_int_equal(sf_diff_compute(a, b, NULL, &d, &missing), 0);
	assert_int_equal(d.n, 1);
	assert_int_equal(d.types[0].status, SF_D_CHANGED);
	assert_ptr_equal(d.types[0].new, bench_new);
	sf_diff_release(&d);
	sf_typeset_free(b);
	sf_typeset_free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_whole_diff, setup, teardown),
		cmocka_unit_test_setup_teardown(test_only, setup, teardown),
		cmocka_unit_test_setup_teardown(test_identical, setup, teardown),
		cmocka_unit_test(test_anonymous_members),
		cmocka_unit_test(test_same_name_definitions),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
