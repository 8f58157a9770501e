/*
 * test_plan.c - the plan suggest, fit and patch share (layout/plan.h), on
 * hand-built models.
 *
 * The oracle is this file's own C layout rule (each member at the next
 * multiple of its alignment, the size rounded up to the largest one): the
 * types are built with it, a narrowed type is the declarations relaid with
 * it, and the smallest size is the minimum it gives over every permutation
 * of the members (brute force: at most 6 members here).  A proposed order
 * is checked by laying it out with the same rule, its moves by the longest
 * increasing run of old indexes it keeps.  Every refusal is checked by
 * the line report/reasons.c says for it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/model.h"
#include "layout/plan.h"
#include "model/typeset.h"
#include "report/reasons.h"

struct mspec {
	const char *name;
	uint64_t size;      /* == alignment for the scalars used here */
	int tclass;
};

static uint64_t rup(uint64_t x, uint64_t a)
{
	return (x + a - 1) / a * a;
}

/* The C layout of sizes[order[i]] in that order: the struct's size, each
 * member's offset in off[] (indexed by member). */
static uint64_t c_layout(const uint64_t *sizes, const uint32_t *order, size_t n,
			 uint64_t *off)
{
	uint64_t end = 0, al = 1;

	for (size_t i = 0; i < n; i++) {
		uint64_t s = sizes[order[i]];
		end = rup(end, s);
		if (off)
			off[order[i]] = end;
		end += s;
		al = s > al ? s : al;
	}
	return rup(end, al);
}

/* The smallest C size of sizes[0..n) over every order (n <= 6). */
static uint64_t brute_min(const uint64_t *sizes, size_t n)
{
	uint32_t order[8];
	uint64_t best = UINT64_MAX;
	size_t fact = 1;

	for (size_t i = 2; i <= n; i++)
		fact *= i;
	for (size_t k = 0; k < fact; k++) {
		/* the k-th permutation, by the factorial number system */
		uint32_t pool[8];
		size_t left = n, code = k;
		for (size_t i = 0; i < n; i++)
			pool[i] = (uint32_t)i;
		for (size_t i = 0; i < n; i++) {
			size_t j = code % left;
			code /= left;
			order[i] = pool[j];
			memmove(pool + j, pool + j + 1, (left - j - 1) * sizeof(*pool));
			left--;
		}
		uint64_t s = c_layout(sizes, order, n, NULL);
		best = s < best ? s : best;
	}
	return best;
}

/* Longest increasing subsequence of order[0..n): the members kept. */
static size_t kept(const uint32_t *order, size_t n)
{
	size_t len[8], best = 0;

	for (size_t i = 0; i < n; i++) {
		len[i] = 1;
		for (size_t j = 0; j < i; j++)
			if (order[j] < order[i] && len[j] + 1 > len[i])
				len[i] = len[j] + 1;
		best = len[i] > best ? len[i] : best;
	}
	return best;
}

/* A struct of ms[0..n) laid out by c_layout in declaration order. */
static struct sf_type *build(struct sf_typeset *ts, const char *name,
			     const struct mspec *ms, size_t n)
{
	struct sf_type *t = sf_typeset_alloc(ts, sizeof(*t));
	uint64_t sizes[8], off[8];
	uint32_t id[8];

	memset(t, 0, sizeof(*t));
	t->name = name;
	t->kind = SF_KIND_STRUCT;
	t->decl_file = "";
	t->nmembers = (uint32_t)n;
	t->members = sf_typeset_alloc(ts, n * sizeof(struct sf_member));
	memset(t->members, 0, n * sizeof(struct sf_member));
	t->align = 1;
	for (size_t i = 0; i < n; i++) {
		sizes[i] = ms[i].size;
		id[i] = (uint32_t)i;
		t->align = ms[i].size > t->align ? (uint32_t)ms[i].size : t->align;
	}
	t->size = c_layout(sizes, id, n, off);
	for (size_t i = 0; i < n; i++) {
		struct sf_member *m = &t->members[i];
		m->name = ms[i].name;
		m->type_name = ms[i].tclass == SF_T_POINTER ? "void *" : "long";
		m->type_suffix = "";
		m->size = ms[i].size;
		m->align = (uint32_t)ms[i].size;
		m->offset = off[i];
		m->tclass = (uint8_t)ms[i].tclass;
	}
	return t;
}

/* char a; long b; char c; int d; double e  ->  32 bytes */
static const struct mspec loose[] = {
	{ "a", 1, SF_T_INT }, { "b", 8, SF_T_INT }, { "c", 1, SF_T_INT },
	{ "d", 4, SF_T_INT }, { "e", 8, SF_T_FLOAT },
};
#define NLOOSE 5

static void sizes_of(const struct sf_type *t, uint64_t *sizes)
{
	for (uint32_t i = 0; i < t->nmembers; i++)
		sizes[i] = t->members[i].size;
}

/*
 * Most tests plan one type: `loose` in a fresh typeset, a full search
 * with the leading member pinned; teardown releases the plan.
 */
struct fixture {
	struct sf_typeset *ts;
	struct sf_type *t;
	struct sf_plan_opts o;
	struct sf_plan p;
	struct sf_plan_refusal why;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	f->ts = sf_typeset_new();
	f->t = build(f->ts, "loose", loose, NLOOSE);
	f->o = (struct sf_plan_opts){ .pin_first = true, .search = SF_PLAN_ORDER };
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	sf_plan_release(&f->p);
	sf_typeset_free(f->ts);
	free(f);
	return 0;
}

/* ------------------------------------------------------------ names */

static void test_member_index(void **state)
{
	struct sf_typeset *ts = sf_typeset_new();
	struct sf_type *t = build(ts, "loose", loose, NLOOSE);

	(void)state;
	assert_int_equal(sf_member_index(t, "a"), 0);
	assert_int_equal(sf_member_index(t, "e"), 4);
	assert_int_equal(sf_member_index(t, "f"), -1);
	assert_int_equal(sf_member_index(t, "A"), -1);     /* exact */
	/* an anonymous member has the name "": never named */
	t->members[2].name = "";
	assert_int_equal(sf_member_index(t, ""), -1);
	sf_typeset_free(ts);
}

/* ----------------------------------------------------------- the plan */

/*
 * Each "[TYPE.]MEMBER=BYTES" as cmd/narrowarg.c reads --narrow (its own
 * test checks that reading): the last '=' and the first '.' before it
 * split.  Built here so that layout/'s test needs nothing from cmd/.
 */
static void parse_all(const char *const *args, size_t n, struct sf_narrow_arg *out)
{
	for (size_t i = 0; i < n; i++) {
		const char *arg = args[i], *eq = strrchr(arg, '=');
		assert_non_null(eq);
		const char *dot = memchr(arg, '.', (size_t)(eq - arg));
		out[i].arg = arg;
		out[i].type = dot ? strndup(arg, (size_t)(dot - arg)) : NULL;
		out[i].member = dot ? strndup(dot + 1, (size_t)(eq - dot - 1)) :
				strndup(arg, (size_t)(eq - arg));
		out[i].bytes = strtoull(eq + 1, NULL, 10);
		assert_non_null(out[i].member);
	}
}

static void release_all(struct sf_narrow_arg *a, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(a[i].type);
		free(a[i].member);
	}
}

/* The plan's order laid out by this file's rule: its size; offsets. */
static uint64_t order_size(const struct sf_plan *p, uint64_t *off, uint32_t *order,
			   uint8_t *moved)
{
	uint64_t sizes[8];

	sf_plan_member_order(p, order, moved);
	sizes_of(p->base, sizes);
	return c_layout(sizes, order, p->type->nmembers, off);
}

static void test_plan_reorder(void **state)
{
	struct fixture *f = *state;
	struct sf_plan *p = &f->p;
	uint64_t sizes[8], off[8];
	uint32_t order[8];
	uint8_t moved[8];

	sizes_of(f->t, sizes);
	assert_int_equal(f->t->size, 32);
	assert_int_equal(sf_plan_make(f->t, &f->o, f->ts, p, &f->why), 0);
	assert_true(p->modeled);
	assert_ptr_equal(p->base, f->t);         /* no narrowing: the type itself */
	assert_int_equal(p->nreq, 0);
	assert_int_equal(p->size, brute_min(sizes, NLOOSE));
	assert_int_equal(p->size, 24);
	assert_int_equal(sf_plan_new_size(p), p->size);
	assert_int_equal(order_size(p, off, order, moved), p->size);
	size_t nmoved = 0;
	for (size_t i = 0; i < NLOOSE; i++)
		nmoved += moved[i] != 0;
	assert_int_equal(nmoved, p->reorder.moves);
	assert_int_equal(NLOOSE - kept(order, NLOOSE), p->reorder.moves);
	sf_plan_release(p);

	/* the smallest size alone: the same number */
	f->o.search = SF_PLAN_MIN_SIZE;
	assert_int_equal(sf_plan_make(f->t, &f->o, f->ts, p, &f->why), 0);
	assert_int_equal(p->size, brute_min(sizes, NLOOSE));
	assert_int_equal(p->searched, SF_PLAN_MIN_SIZE);
	sf_plan_release(p);

	/* no search: only the (empty) narrowing */
	f->o.search = SF_PLAN_NO_SEARCH;
	assert_int_equal(sf_plan_make(f->t, &f->o, f->ts, p, &f->why), 0);
	assert_true(p->modeled);
	assert_int_equal(p->searched, SF_PLAN_NO_SEARCH);
	assert_int_equal(p->size, 0);
}

static void test_plan_nothing_smaller(void **state)
{
	static const struct mspec tight[] = {
		{ "p", 8, SF_T_POINTER }, { "n", 4, SF_T_INT }, { "c", 1, SF_T_INT },
	};
	struct fixture *f = *state;
	struct sf_type *t = build(f->ts, "tight", tight, 3);
	uint64_t sizes[8], off[8];
	uint32_t order[8];
	uint8_t moved[8];

	sizes_of(t, sizes);
	assert_int_equal(brute_min(sizes, 3), t->size);
	assert_int_equal(sf_plan_make(t, &f->o, f->ts, &f->p, &f->why), 0);
	assert_int_equal(f->p.reorder.moves, 0);
	/* the current order, as the compiler laid it out */
	assert_int_equal(sf_plan_new_size(&f->p), t->size);
	assert_int_equal(order_size(&f->p, off, order, moved), t->size);
	for (uint32_t i = 0; i < 3; i++) {
		assert_int_equal(order[i], i);
		assert_int_equal(moved[i], 0);
	}
}

static void test_plan_narrow_and_pin(void **state)
{
	static const char *const args[] = { "b=2", "loose.d=1" };
	static const char *const pins[] = { "e" };
	struct sf_typeset *ts = sf_typeset_new();
	struct sf_type *t = build(ts, "loose", loose, NLOOSE);
	struct sf_narrow_arg a[2];
	struct sf_plan_refusal why;
	struct sf_plan p;
	uint64_t sizes[8], off[8];
	uint32_t order[8], id[8];
	uint8_t moved[8];

	(void)state;
	parse_all(args, 2, a);
	struct sf_plan_opts o = { pins, 1, a, 2, true, SF_PLAN_ORDER, 0, false };
	assert_int_equal(sf_plan_make(t, &o, ts, &p, &why), 0);
	assert_true(p.modeled);
	assert_int_equal(p.nreq, 2);
	assert_int_equal(p.req[0].member, 1);
	assert_int_equal(p.req[0].bytes, 2);
	assert_int_equal(p.req[1].member, 3);
	assert_int_equal(p.req[1].bytes, 1);
	assert_true(p.pin[4]);
	assert_false(p.pin[0] || p.pin[1] || p.pin[2] || p.pin[3]);

	/* base: the declarations relaid with the new widths, in place */
	sizes_of(t, sizes);
	sizes[1] = 2;
	sizes[3] = 1;
	for (uint32_t i = 0; i < NLOOSE; i++)
		id[i] = i;
	assert_int_equal(p.base->size, c_layout(sizes, id, NLOOSE, off));
	for (uint32_t i = 0; i < NLOOSE; i++)
		assert_int_equal(p.base->members[i].offset, off[i]);
	uint64_t e_at = off[4];

	/* e stays where the narrowed declarations put it; the rest packs */
	assert_int_equal(order_size(&p, off, order, moved), p.size);
	assert_int_equal(off[4], e_at);
	assert_true(p.size <= p.base->size);
	assert_true(p.size >= brute_min(sizes, NLOOSE));
	sf_plan_release(&p);
	release_all(a, 2);
	sf_typeset_free(ts);
}

/* One refusal of sf_plan_make: its line. */
static void refused(const struct sf_type *t, struct sf_typeset *ts,
		    const char *const *pins, size_t npins,
		    const char *const *args, size_t nargs, const char *want)
{
	struct sf_narrow_arg a[4];
	struct sf_err err = SF_ERR_INIT;
	struct sf_plan_refusal why;
	struct sf_plan p;

	parse_all(args, nargs, a);
	struct sf_plan_opts o = { pins, npins, a, nargs, true, SF_PLAN_ORDER, 0, false };
	assert_int_equal(sf_plan_make(t, &o, ts, &p, &why), -1);
	assert_int_not_equal(why.kind, SF_PLAN_REFUSED_NOTHING);
	assert_int_equal(sf_plan_refusal_err(&why, &err), -1);
	assert_string_equal(err.msg, want);
	sf_plan_release(&p);
	release_all(a, nargs);
}

static void test_plan_refusals(void **state)
{
	struct sf_typeset *ts = sf_typeset_new();
	struct sf_type *t = build(ts, "loose", loose, NLOOSE);
	static const char *const nosuch_pin[] = { "a", "zz" };

	(void)state;
	refused(t, ts, nosuch_pin, 2, NULL, 0, "--pin: struct loose has no member 'zz'");
	refused(t, ts, NULL, 0, (const char *const[]){ "zz=1" }, 1,
		"--narrow zz=1: struct loose has no member 'zz'");
	refused(t, ts, NULL, 0, (const char *const[]){ "b=3" }, 1,
		"--narrow b=3: the new width must be 1, 2, 4 or 8 bytes");
	refused(t, ts, NULL, 0, (const char *const[]){ "d=4" }, 1,
		"--narrow d=4: 4 bytes is not smaller than its 4 bytes");
	refused(t, ts, NULL, 0, (const char *const[]){ "e=4" }, 1,
		"--narrow e=4: it is a floating-point number; only integers, enums, "
		"bools and pointers can be narrowed");
	refused(t, ts, NULL, 0, (const char *const[]){ "b=4", "b=2" }, 2,
		"--narrow b=2: 'b' is narrowed twice");
	refused(t, ts, NULL, 0, (const char *const[]){ "b=4", "loose.b=2" }, 2,
		"--narrow loose.b=2: 'b' is narrowed twice");
	refused(t, ts, NULL, 0, (const char *const[]){ "other.b=4" }, 1,
		"--narrow other.b=4: 'other' is not struct loose");
	/* a pin is checked before any narrowing */
	refused(t, ts, nosuch_pin, 2, (const char *const[]){ "zz=1" }, 1,
		"--pin: struct loose has no member 'zz'");
	sf_typeset_free(ts);
}

static void test_plan_not_modeled(void **state)
{
	struct fixture *f = *state;
	struct sf_type *t = f->t;

	/* __attribute__((packed)): b right after a, no padding anywhere */
	uint64_t at = 0;
	for (uint32_t i = 0; i < NLOOSE; i++) {
		t->members[i].offset = at;
		at += t->members[i].size;
	}
	t->size = at;
	t->align = 1;
	assert_int_equal(sf_plan_make(t, &f->o, f->ts, &f->p, &f->why), 0);
	assert_false(f->p.modeled);
	assert_int_equal(f->p.searched, SF_PLAN_NO_SEARCH);   /* nothing proposed */
}

/* ------------------------------------------------- fit's sum of types */

static void test_check_narrowings(void **state)
{
	static const struct mspec other[] = {
		{ "a", 8, SF_T_INT }, { "x", 4, SF_T_INT },
	};
	struct sf_typeset *ts = sf_typeset_new();
	const struct sf_type *types[3] = {
		build(ts, "loose", loose, NLOOSE), build(ts, "other", other, 2), NULL,
	};
	struct sf_narrow_arg a[3];
	struct sf_err err = SF_ERR_INIT;
	struct sf_plan_refusal why;

	(void)state;
	types[2] = types[0];   /* loose+other+loose: one type twice is no conflict */

	parse_all((const char *const[]){ "x=1", "other.a=1", "loose.b=2" }, 3, a);
	assert_int_equal(sf_plan_check_narrowings(types, 3, a, 3, &why), 0);
	assert_true(sf_narrow_arg_applies(&a[0], types[1]));
	assert_false(sf_narrow_arg_applies(&a[0], types[0]));
	assert_true(sf_narrow_arg_applies(&a[1], types[1]));
	assert_false(sf_narrow_arg_applies(&a[1], types[0]));   /* TYPE says not */
	assert_true(sf_narrow_arg_applies(&a[2], types[0]));
	release_all(a, 3);
	/* struct NAME is the type's name too */
	parse_all((const char *const[]){ "struct other.a=1" }, 1, a);
	assert_true(sf_narrow_arg_applies(&a[0], types[1]));
	assert_int_equal(sf_plan_check_narrowings(types, 3, a, 1, &why), 0);
	release_all(a, 1);

	struct { const char *args[3]; size_t n; const char *want; } bad[] = {
		{ { "a=1" }, 1, "--narrow a=1: both loose and other have a member 'a'; "
				"write TYPE.a" },
		{ { "zz=1" }, 1, "--narrow zz=1: no member 'zz' in the -t types" },
		{ { "other.b=1" }, 1, "--narrow other.b=1: no member 'b' in other" },
		{ { "x=3" }, 1, "--narrow x=3: the new width must be 1, 2, 4 or 8 bytes" },
		{ { "x=1", "other.x=2" }, 2, "--narrow other.x=2: 'x' is narrowed twice" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		parse_all(bad[i].args, bad[i].n, a);
		assert_int_equal(sf_plan_check_narrowings(types, 3, a, bad[i].n, &why), -1);
		assert_int_equal(sf_plan_refusal_err(&why, &err), -1);
		assert_string_equal(err.msg, bad[i].want);
		release_all(a, bad[i].n);
	}
	sf_typeset_free(ts);
}

/* ------------------------------------------- suggest's placed proposals */

static void test_place_and_size_with(void **state)
{
	struct fixture *f = *state;
	uint64_t sizes[8], off[8];
	uint32_t id[8];

	assert_int_equal(sf_plan_make(f->t, &f->o, f->ts, &f->p, &f->why), 0);
	/* b as 1 byte: placed in its best order */
	struct sf_narrowing nw = { .n = 1, .member = { 1 }, .from = { 8 }, .to = { 1 } };
	const struct sf_type *placed = sf_plan_place(&f->p, &nw, f->ts);
	sizes_of(f->t, sizes);
	sizes[1] = 1;
	assert_non_null(placed);
	assert_int_equal(placed->size, brute_min(sizes, NLOOSE));
	/* a C struct keeps its order when only asked for the size with it */
	for (uint32_t i = 0; i < NLOOSE; i++)
		id[i] = i;
	assert_int_equal(sf_plan_size_with(&f->p, 1, 1, f->ts),
			 c_layout(sizes, id, NLOOSE, off));
}

/*
 * Groups (an #if block in the source) move as one pinned unit: long a;
 * char b; [long c; char e;] char d = 32 with c..e pinned at 16..25 stays
 * 32 (the group ends at 25), where the free search reaches 24.  A group
 * whose edge cuts a bit-field run is refused by name.
 */
static void test_plan_groups(void **state)
{
	static const struct mspec ms[] = {
		{ "a", 8, SF_T_INT }, { "b", 1, SF_T_INT }, { "c", 8, SF_T_INT },
		{ "e", 1, SF_T_INT }, { "d", 1, SF_T_INT },
	};
	struct sf_typeset *ts = sf_typeset_new();
	struct sf_type *t = build(ts, "g", ms, 5);
	struct sf_plan_opts o = { NULL, 0, NULL, 0, true, SF_PLAN_ORDER, 0, false };
	struct sf_plan_group g = { 2, 2, false, false };
	struct sf_err err = SF_ERR_INIT;
	struct sf_plan_refusal why;
	struct sf_plan p;

	(void)state;
	assert_int_equal(t->size, 32);
	assert_int_equal(sf_plan_make(t, &o, ts, &p, &why), 0);
	assert_int_equal(p.size, 24);
	sf_plan_release(&p);
	assert_int_equal(sf_plan_make_grouped(t, &o, &g, 1, ts, &p, &why), 0);
	assert_int_equal(p.size, 32);
	size_t u = sf_units_of_member(&p.units, 2);
	assert_int_equal(u, sf_units_of_member(&p.units, 3));
	assert_true(p.units.v[u].pinned);
	assert_int_equal(p.reorder.offset[u], 16);
	sf_plan_release(&p);

	/* unsigned x:3 (in the group), y:5 (outside): one storage unit */
	t->members[0].flags = SF_MF_BITFIELD;
	t->members[0].size = 4;
	t->members[0].align = 4;
	t->members[0].bit_size = 3;
	t->members[0].name = "x";
	t->members[1] = t->members[0];
	t->members[1].name = "y";
	t->members[1].bit_offset = 3;
	t->members[1].bit_size = 5;
	t->members[2].offset = 8;
	t->members[3].offset = 16;
	t->members[4].offset = 17;
	t->size = 24;
	t->align = 8;
	g = (struct sf_plan_group){ 0, 1, false, false };
	assert_int_equal(sf_plan_make_grouped(t, &o, &g, 1, ts, &p, &why), -1);
	assert_int_equal(why.kind, SF_PLAN_GROUP_SPLIT);
	assert_int_equal(sf_plan_refusal_err(&why, &err), -1);
	assert_string_equal(err.msg, "struct g: members 'x' .. 'x' cannot move as one block: "
			    "a bit-field storage unit spans its edge");
	sf_plan_release(&p);
	sf_typeset_free(ts);
}

/*
 * --max-moves in the plan: { int; long; } four times is 64 bytes, 48 with
 * the ints paired (two moves: each pair needs one); one move allowed
 * pairs two ints: 56.  The member order the plan gives, laid out by
 * c_layout, has that size, and at most that many members moved.
 */
static void test_plan_max_moves(void **state)
{
	static const struct mspec ms[] = {
		{ "a", 4, SF_T_INT }, { "b", 8, SF_T_INT }, { "c", 4, SF_T_INT },
		{ "d", 8, SF_T_INT }, { "e", 4, SF_T_INT }, { "f", 8, SF_T_INT },
		{ "g", 4, SF_T_INT }, { "h", 8, SF_T_INT },
	};
	static const uint64_t want[] = { 64, 56, 48, 48 };
	struct sf_typeset *ts = sf_typeset_new();
	struct sf_type *t = build(ts, "pairs", ms, 8);
	struct sf_plan_refusal why;
	uint64_t sizes[8];

	(void)state;
	for (size_t i = 0; i < 8; i++)
		sizes[i] = ms[i].size;
	assert_int_equal(t->size, 64);
	for (uint32_t n = 1; n <= 3; n++) {
		struct sf_plan_opts o = { NULL, 0, NULL, 0, true, SF_PLAN_ORDER, n, false };
		struct sf_plan p;
		uint32_t order[8];
		uint8_t moved[8];
		assert_int_equal(sf_plan_make(t, &o, ts, &p, &why), 0);
		assert_int_equal(p.size, want[n]);
		assert_int_equal(sf_plan_new_size(&p), want[n]);
		assert_int_equal(p.reorder.min_size, 48);
		assert_true(p.reorder.moves <= n);
		sf_plan_member_order(&p, order, moved);
		assert_int_equal(c_layout(sizes, order, 8, NULL), want[n]);
		unsigned nmoved = 0;
		for (size_t i = 0; i < 8; i++)
			nmoved += moved[i];
		assert_int_equal(nmoved, p.reorder.moves);
		sf_plan_release(&p);
	}
	sf_typeset_free(ts);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_member_index),
		cmocka_unit_test(test_plan_groups),
		cmocka_unit_test_setup_teardown(test_plan_reorder, setup, teardown),
		cmocka_unit_test_setup_teardown(test_plan_nothing_smaller, setup, teardown),
		cmocka_unit_test(test_plan_narrow_and_pin),
		cmocka_unit_test(test_plan_refusals),
		cmocka_unit_test_setup_teardown(test_plan_not_modeled, setup, teardown),
		cmocka_unit_test(test_check_narrowings),
		cmocka_unit_test(test_plan_max_moves),
		cmocka_unit_test_setup_teardown(test_place_and_size_with, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
