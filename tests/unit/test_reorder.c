/*
 * test_reorder.c - the reorder search against brute force.
 *
 * Random structs of 1..8 placement units (ordinary members of the usual
 * x86_64 sizes, arrays, nested structs, bit-field runs that fill their
 * storage unit; sometimes a struct first; sometimes a pinned member) are
 * laid out here by an independent implementation of the C rule, and every
 * permutation of their units is tried: the search must find the same
 * smallest size and no order of that size may move fewer units.  Pins must
 * hold and bit-field runs must stay together.  Fixed cases check the
 * numbers a reader can verify by hand, and larger structs (beyond the
 * exact limit) check the heuristic's size against the sorted-by-alignment
 * optimum.  With a bound on the moves (sf_reorder_search_max), brute force
 * gives the smallest size within each bound and the fewest moves for it;
 * a struct of int/long pairs, whose fewest moves are known (one per pair
 * of holes), checks the hole filling beyond the exact limit.  #if blocks
 * (sf_units_fix_group with may_move): random structs with one block of
 * 1..3 members, against every permutation of their units laid out member
 * by member, the block pinned when its inner layout depends on where it
 * starts (exact and heuristic search).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "layout/holefill.h"
#include "model/model.h"
#include "layout/reorder.h"
#include "layout/reorgsteps.h"
#include "model/typeset.h"

/* ---- building test types -------------------------------------------- */

/* One unit as the generator sees it: a member, or a run of bit-fields. */
struct gunit {
	uint64_t size, align;   /* bit-field run: size == align == storage */
	int nbits;              /* fields in a run; 0 for an ordinary member */
	int tclass;
	uint64_t offset;        /* filled by gen_layout */
};

static uint64_t rup(uint64_t x, uint64_t a)
{
	return (x + a - 1) / a * a;
}

/* Does a run of nf equal fields filling `size` bytes fit at byte o
 * without any field straddling a storage unit of `size` bytes? */
static int run_fits(uint64_t o, uint64_t size, int nf)
{
	uint64_t bits = 8 * size / (uint64_t)nf, unit = 8 * size;

	for (int f = 0; f < nf; f++) {
		uint64_t s = 8 * o + (uint64_t)f * bits;
		uint64_t e = f == nf - 1 ? 8 * o + 8 * size : s + bits;
		if (s / unit != (e - 1) / unit)
			return 0;
	}
	return 1;
}

/*
 * The placement rule, written independently of layout/: an ordinary
 * member at the next multiple of its alignment, a bit-field run (kept
 * intact, as the search moves it) at the next byte where no field
 * straddles its storage unit.  Returns the size.
 */
static uint64_t gen_layout(struct gunit *g, const int *order, int n, uint64_t *struct_align)
{
	uint64_t c = 0, al = 1;

	for (int k = 0; k < n; k++) {
		struct gunit *u = &g[order[k]];
		if (u->nbits) {
			u->offset = c;
			while (!run_fits(u->offset, u->size, u->nbits))
				u->offset++;
		} else {
			u->offset = rup(c, u->align);
		}
		c = u->offset + u->size;
		al = u->align > al ? u->align : al;
	}
	*struct_align = al;
	return rup(c, al);
}

static const char *const names[] = { "m0", "m1", "m2", "m3", "m4", "m5", "m6",
	"m7", "m8", "m9", "m10", "m11", "m12", "m13", "m14", "m15", "m16",
	"m17", "m18", "m19", "m20", "m21", "m22", "m23", "m24", "m25", "m26",
	"m27", "m28", "m29", "m30", "m31", "m32", "m33", "m34", "m35", "m36",
	"m37", "m38", "m39", "m40", "m41", "m42", "m43", "m44", "m45", "m46",
	"m47", "m48", "m49", "m50", "m51", "m52", "m53", "m54", "m55", "m56",
	"m57", "m58", "m59", "m60", "m61", "m62", "m63", "m64", "m65", "m66",
	"m67", "m68", "m69", "m70", "m71", "m72", "m73", "m74", "m75", "m76",
	"m77", "m78", "m79" };

/*
 * An sf_type for units g[0..n) in that order.  member_unit[i] gets the
 * unit of member i.  Bit-field runs split their storage unit evenly.
 */
static struct sf_type *make_type(struct sf_typeset *ts, struct gunit *g, int n,
				 int *member_unit)
{
	int order[128] = { 0 }, nm = 0;
	uint64_t al;

	for (int i = 0; i < n; i++) {
		order[i] = i;
		nm += g[i].nbits ? g[i].nbits : 1;
	}
	uint64_t size = gen_layout(g, order, n, &al);
	struct sf_type *t = sf_typeset_alloc(ts, sizeof(*t));
	t->name = "t";
	t->kind = SF_KIND_STRUCT;
	t->size = size;
	t->align = (uint32_t)al;
	t->decl_file = "";
	t->nmembers = (uint32_t)nm;
	t->members = sf_typeset_alloc(ts, (size_t)nm * sizeof(struct sf_member));
	t->addr_size = 8;
	int k = 0;
	for (int i = 0; i < n; i++) {
		int nf = g[i].nbits ? g[i].nbits : 1;
		uint32_t bits = (uint32_t)(8 * g[i].size) / (uint32_t)nf;
		for (int f = 0; f < nf; f++, k++) {
			struct sf_member *m = &t->members[k];
			m->name = names[k];
			m->type_name = g[i].nbits ? "unsigned int" : "long";
			m->type_suffix = "";
			m->offset = g[i].nbits ? g[i].offset / g[i].size * g[i].size
					       : g[i].offset;
			m->size = g[i].size;
			m->align = (uint32_t)g[i].align;
			m->tclass = (uint8_t)g[i].tclass;
			if (g[i].nbits) {
				m->flags = SF_MF_BITFIELD;
				m->bit_offset = (uint32_t)(8 * (g[i].offset - m->offset)) +
						(uint32_t)f * bits;
				m->bit_size = f == nf - 1 ? (uint32_t)(8 * g[i].size) - (uint32_t)f * bits
							  : bits;
			}
			member_unit[k] = i;
		}
	}
	return t;
}

static void random_unit(struct gunit *u, int first)
{
	static const struct { uint64_t size, align; int tclass; } kinds[] = {
		{ 1, 1, SF_T_INT }, { 2, 2, SF_T_INT }, { 4, 4, SF_T_INT },
		{ 8, 8, SF_T_POINTER }, { 8, 8, SF_T_INT }, { 3, 1, SF_T_ARRAY },
		{ 12, 4, SF_T_STRUCT }, { 16, 8, SF_T_STRUCT }, { 16, 16, SF_T_FLOAT },
		{ 6, 2, SF_T_ARRAY }, { 1, 1, SF_T_BOOL }, { 4, 4, SF_T_ENUM },
	};
	int r = rand() % 16;

	memset(u, 0, sizeof(*u));
	if (r >= 12) {
		/* a bit-field run filling one storage unit of 1, 2 or 4 bytes */
		u->size = u->align = (uint64_t)1 << (rand() % 3);
		u->nbits = 2 + rand() % 2;
		u->tclass = SF_T_INT;
		return;
	}
	if (first && rand() % 3 == 0)
		r = 7; /* a struct first: pinned by default */
	u->size = kinds[r].size;
	u->align = kinds[r].align;
	u->tclass = kinds[r].tclass;
}

/* ---- brute force ----------------------------------------------------- */

struct brute {
	uint64_t best_size;
	int best_moves;
	long feasible;
	uint64_t size_by_moves[17];   /* smallest size moving exactly m units */
};

static int lis(const int *p, int n)
{
	int tail[128], len = 0;

	for (int i = 0; i < n; i++) {
		int lo = 0, hi = len;
		while (lo < hi) {
			int mid = (lo + hi) / 2;
			if (tail[mid] < p[i])
				lo = mid + 1;
			else
				hi = mid;
		}
		tail[lo] = p[i];
		if (lo == len)
			len++;
	}
	return len;
}

static void brute_visit(struct gunit *g, const int *p, int n, const bool *pinned,
			const uint64_t *orig, struct brute *b)
{
	uint64_t al, size = gen_layout(g, p, n, &al);

	for (int i = 0; i < n; i++)
		if (pinned[i] && g[i].offset != orig[i])
			return;
	b->feasible++;
	int moves = n - lis(p, n);
	if (size < b->size_by_moves[moves])
		b->size_by_moves[moves] = size;
	if (size < b->best_size || (size == b->best_size && moves < b->best_moves)) {
		b->best_size = size;
		b->best_moves = moves;
	}
}

/* Heap's algorithm over every permutation of p[0..n). */
static void brute_force(struct gunit *g, int n, const bool *pinned, struct brute *b)
{
	int p[16] = { 0 }, c[16] = { 0 }, i = 0;
	uint64_t orig[16] = { 0 };

	for (int k = 0; k < n; k++) {
		p[k] = k;
		orig[k] = g[k].offset;
	}
	b->best_size = UINT64_MAX;
	b->best_moves = 1 << 30;
	b->feasible = 0;
	for (int m = 0; m <= 16; m++)
		b->size_by_moves[m] = UINT64_MAX;
	brute_visit(g, p, n, pinned, orig, b);
	while (i < n) {
		if (c[i] < i) {
			int j = i % 2 ? c[i] : 0, tmp = p[j];
			p[j] = p[i];
			p[i] = tmp;
			brute_visit(g, p, n, pinned, orig, b);
			c[i]++;
			i = 0;
		} else {
			c[i++] = 0;
		}
	}
	for (int k = 0; k < n; k++)
		g[k].offset = orig[k];
}

/* ---- checks on a search result --------------------------------------- */

/* The result's order, laid out independently, keeps pins and its size. */
static void check_result(struct gunit *g, int n, const bool *pinned,
			 const struct sf_units *us, const struct sf_reorder *r)
{
	int p[128] = { 0 };
	uint64_t orig[128], al;
	bool seen[128] = { false };

	assert_int_equal(r->n, (size_t)n);
	for (int k = 0; k < n; k++) {
		assert_true(r->order[k] < (uint32_t)n);
		assert_false(seen[r->order[k]]);
		seen[r->order[k]] = true;
		p[k] = (int)r->order[k];
		orig[k] = g[k].offset;
	}
	uint64_t size = gen_layout(g, p, n, &al);
	assert_int_equal(size, r->size);
	for (int k = 0; k < n; k++) {
		assert_int_equal(g[k].offset, r->offset[k]);
		if (pinned[k])
			assert_int_equal(g[k].offset, orig[k]);
		g[k].offset = orig[k];
	}
	assert_int_equal(r->moves, (uint32_t)(n - lis(p, n)));
	assert_true(r->size <= us->type->size);
}

static uint64_t bitpos(const struct sf_member *m)
{
	return 8 * m->offset + m->bit_offset;
}

/* Fields of one bit-field run stay adjacent in the relayout, at the same
 * bit distances from each other (the run moved as one block). */
static void check_runs_together(const struct sf_type *nt, const int *member_unit_old,
				const struct sf_type *t)
{
	for (uint32_t j = 0; j + 1 < t->nmembers; j++) {
		if (member_unit_old[j] != member_unit_old[j + 1])
			continue;
		uint32_t pa = UINT32_MAX, pb = UINT32_MAX;
		for (uint32_t i = 0; i < nt->nmembers; i++) {
			if (nt->members[i].name == t->members[j].name)
				pa = i;
			if (nt->members[i].name == t->members[j + 1].name)
				pb = i;
		}
		assert_int_equal(pa + 1, pb);
		assert_int_equal(bitpos(&nt->members[pb]) - bitpos(&nt->members[pa]),
				 bitpos(&t->members[j + 1]) - bitpos(&t->members[j]));
	}
}

static void test_random_vs_brute_force(void **state)
{
	(void)state;
	srand(20260202);
	for (int iter = 0; iter < 400; iter++) {
		struct sf_typeset *ts = sf_typeset_new();
		struct gunit g[8];
		int n = 1 + rand() % 8, member_unit[64];
		bool pinned_unit[8] = { false };
		bool pin_member[64] = { false };

		/* two runs in a row would share storage: one run to a compiler */
		for (int i = 0; i < n; i++)
			do
				random_unit(&g[i], i == 0);
			while (i > 0 && g[i].nbits && g[i - 1].nbits);
		struct sf_type *t = make_type(ts, g, n, member_unit);
		/* a user pin now and then */
		if (rand() % 4 == 0) {
			int m = rand() % (int)t->nmembers;
			pin_member[m] = true;
			pinned_unit[member_unit[m]] = true;
		}
		bool pin_first = rand() % 2;
		if (pin_first && g[0].tclass == SF_T_STRUCT && !g[0].nbits)
			pinned_unit[0] = true;

		struct sf_units us;
		sf_units_build(t, pin_member, pin_first, &us);
		assert_true(us.modeled);
		assert_int_equal(us.n, (size_t)n);
		for (int i = 0; i < n; i++)
			assert_int_equal(us.v[i].pinned, pinned_unit[i]);

		struct brute b;
		brute_force(g, n, pinned_unit, &b);
		assert_true(b.feasible > 0);

		struct sf_reorder r;
		sf_reorder_search_max(&us, UINT32_MAX, &r);
		assert_true(r.exact);
		assert_int_equal(r.old_size, t->size);
		assert_int_equal(r.size, b.best_size);
		assert_int_equal(r.moves, (uint32_t)b.best_moves);
		check_result(g, n, pinned_unit, &us, &r);
		if (b.best_size == t->size)
			assert_int_equal(r.moves, 0);

		bool exact;
		assert_int_equal(sf_reorder_min_size(&us, &exact), b.best_size);
		assert_true(exact);

		const struct sf_type *nt = sf_units_relayout(&us, &r, ts);
		assert_int_equal(nt->size, r.size);
		assert_int_equal(nt->nmembers, t->nmembers);
		check_runs_together(nt, member_unit, t);

		sf_reorder_release(&r);
		sf_units_release(&us);
		sf_typeset_free(ts);
	}
}

/* ---- fixed cases ----------------------------------------------------- */

struct spec {
	const char *name;
	uint64_t size, align;
	int tclass;
};

/* A struct from (name, size, align) in declaration order, C layout. */
static struct sf_type *from_spec(struct sf_typeset *ts, const struct spec *s, int n)
{
	struct gunit g[64];
	int mu[64];

	memset(g, 0, sizeof(g));
	for (int i = 0; i < n; i++) {
		g[i].size = s[i].size;
		g[i].align = s[i].align;
		g[i].tclass = s[i].tclass;
	}
	struct sf_type *t = make_type(ts, g, n, mu);
	for (int i = 0; i < n; i++)
		t->members[i].name = s[i].name;
	return t;
}

static void test_char_long_char(void **state)
{
	static const struct spec s[] = {
		{ "a", 1, 1, SF_T_INT }, { "b", 8, 8, SF_T_INT }, { "c", 1, 1, SF_T_INT },
	};
	struct sf_typeset *ts = sf_typeset_new();
	struct sf_type *t = from_spec(ts, s, 3);
	struct sf_units us;
	struct sf_reorder r;
	bool pin[3] = { false, true, false };

	(void)state;
	assert_int_equal(t->size, 24);
	sf_units_build(t, NULL, true, &us);
	sf_reorder_search_max(&us, UINT32_MAX, &r);
	assert_int_equal(r.size, 16);
	assert_int_equal(r.moves, 1);
	sf_reorder_release(&r);
	sf_units_release(&us);

	/* b pinned at 8: c moves next to a, b stays */
	sf_units_build(t, pin, true, &us);
	sf_reorder_search_max(&us, UINT32_MAX, &r);
	assert_int_equal(r.size, 16);
	assert_int_equal(r.offset[1], 8);
	assert_int_equal(r.moves, 1);
	assert_true(r.moved[2]);
	sf_reorder_release(&r);
	sf_units_release(&us);
	sf_typeset_free(ts);
}

/*
 * Members under an #if kept as one pinned unit (sf_units_fix_group):
 * on@0 hits@8 [trace_level@16 trace_id@24] mode@32 misses@40 = 48.  With
 * the block at 16..32 the best is hits, on, mode, block, misses = 40 (the
 * block's inner hole stays); without it, 32.
 */
static void test_fixed_group(void **state)
{
	static const struct spec s[] = {
		{ "on", 1, 1, SF_T_INT }, { "hits", 8, 8, SF_T_INT },
		{ "trace_level", 1, 1, SF_T_INT }, { "trace_id", 8, 8, SF_T_INT },
		{ "mode", 1, 1, SF_T_INT }, { "misses", 8, 8, SF_T_INT },
	};
	struct sf_typeset *ts = sf_typeset_new();
	struct sf_type *t = from_spec(ts, s, 6);
	struct sf_units us;
	struct sf_reorder r;

	(void)state;
	assert_int_equal(t->size, 48);
	sf_units_build(t, NULL, true, &us);
	assert_int_equal(sf_reorder_min_size(&us, &(bool){ false }), 32);
	assert_int_equal(sf_units_fix_group(&us, 2, 2, false), 0);
	assert_int_equal(us.n, 5);
	sf_reorder_search_max(&us, UINT32_MAX, &r);
	assert_int_equal(r.size, 40);
	size_t g = sf_units_of_member(&us, 3);
	assert_int_equal(g, sf_units_of_member(&us, 2));
	assert_int_equal(r.offset[g], 16);
	assert_int_equal(us.v[g].size, 16);
	sf_reorder_release(&r);
	sf_units_release(&us);

	/* members with another between them, or none: refused, unchanged */
	sf_units_build(t, NULL, true, &us);
	assert_int_equal(sf_units_fix_group(&us, 1, 0, false), -1);
	assert_int_equal(sf_units_fix_group(&us, 5, 2, false), -1);   /* past the end */
	assert_int_equal(us.n, 6);
	sf_units_release(&us);
	sf_typeset_free(ts);
}

/* ---- #if blocks that move as one unit -------------------------------- */

/*
 * A random struct of ordinary members (C layout, member by member) with
 * members g0 .. g0 + gn - 1 one block.  Independent of layout/: the block
 * may move when, laid out from every start offset 0..63, its members keep
 * their relative offsets; every permutation of the units (the block one
 * of them) is laid out member by member by the C rule, the block at its
 * offset when it may not move.  The search must find the smallest size
 * and the fewest moves, and its offsets must be the C rule's.
 */
struct bmember {
	uint64_t size, align, offset;
};

static uint64_t lay_members(struct bmember *m, const int *seq, int ns)
{
	uint64_t c = 0, al = 1;

	for (int k = 0; k < ns; k++) {
		struct bmember *x = &m[seq[k]];
		x->offset = rup(c, x->align);
		c = x->offset + x->size;
		al = x->align > al ? x->align : al;
	}
	return rup(c, al);
}

/* Units as member lists: unit u is members ufirst[u] .. ufirst[u] + ucount[u] - 1. */
struct bcase {
	struct bmember m[12];
	int nm, g0, gn, nu;
	int ufirst[12], ucount[12];
	bool movable;
	uint64_t g_orig;
	uint64_t best;
	int best_moves;
};

static uint64_t lay_units(struct bcase *bc, const int *uorder)
{
	int seq[12], ns = 0;

	for (int k = 0; k < bc->nu; k++)
		for (int j = 0; j < bc->ucount[uorder[k]]; j++)
			seq[ns++] = bc->ufirst[uorder[k]] + j;
	return lay_members(bc->m, seq, ns);
}

static void bcase_visit(struct bcase *bc, const int *p)
{
	struct bmember save[12];

	memcpy(save, bc->m, sizeof(save));
	uint64_t size = lay_units(bc, p);
	bool ok = bc->movable || bc->m[bc->g0].offset == bc->g_orig;
	memcpy(bc->m, save, sizeof(save));
	if (!ok)
		return;
	int moves = bc->nu - lis(p, bc->nu);
	if (size < bc->best || (size == bc->best && moves < bc->best_moves)) {
		bc->best = size;
		bc->best_moves = moves;
	}
}

static void bcase_brute(struct bcase *bc)
{
	int p[12], c[12] = { 0 }, i = 0;

	for (int k = 0; k < bc->nu; k++)
		p[k] = k;
	bc->best = UINT64_MAX;
	bc->best_moves = 1 << 30;
	bcase_visit(bc, p);
	while (i < bc->nu) {
		if (c[i] < i) {
			int j = i % 2 ? c[i] : 0, tmp = p[j];
			p[j] = p[i];
			p[i] = tmp;
			bcase_visit(bc, p);
			c[i]++;
			i = 0;
		} else {
			c[i++] = 0;
		}
	}
}

static void bcase_random(struct bcase *bc)
{
	static const uint64_t shapes[][2] = { { 1, 1 }, { 2, 2 }, { 4, 4 }, { 8, 8 },
					      { 3, 1 }, { 12, 4 }, { 16, 8 }, { 6, 2 } };
	int seq[12];

	bc->nm = 2 + rand() % 7;
	for (int i = 0; i < bc->nm; i++) {
		int s = rand() % 8;
		bc->m[i] = (struct bmember){ shapes[s][0], shapes[s][1], 0 };
		seq[i] = i;
	}
	bc->gn = 1 + rand() % 3;
	bc->gn = bc->gn > bc->nm ? bc->nm : bc->gn;
	bc->g0 = rand() % (bc->nm - bc->gn + 1);
	lay_members(bc->m, seq, bc->nm);
	bc->g_orig = bc->m[bc->g0].offset;
	bc->nu = 0;
	for (int i = 0; i < bc->nm; i++) {
		bc->ufirst[bc->nu] = i;
		bc->ucount[bc->nu] = i == bc->g0 ? bc->gn : 1;
		i += bc->ucount[bc->nu++] - 1;
	}
	bc->movable = true;
	for (uint64_t start = 0; start < 64 && bc->movable; start++) {
		uint64_t c = start, first = 0;
		for (int j = 0; j < bc->gn; j++) {
			const struct bmember *x = &bc->m[bc->g0 + j];
			uint64_t o = rup(c, x->align);
			first = j ? first : o;
			if (o - first != x->offset - bc->g_orig)
				bc->movable = false;
			c = o + x->size;
		}
	}
}

static struct sf_type *bcase_type(struct sf_typeset *ts, const struct bcase *bc)
{
	struct sf_type *t = sf_typeset_alloc(ts, sizeof(*t));
	uint64_t al = 1, end = 0;

	memset(t, 0, sizeof(*t));
	t->name = "t";
	t->kind = SF_KIND_STRUCT;
	t->decl_file = "";
	t->addr_size = 8;
	t->nmembers = (uint32_t)bc->nm;
	t->members = sf_typeset_alloc(ts, (size_t)bc->nm * sizeof(struct sf_member));
	for (int i = 0; i < bc->nm; i++) {
		struct sf_member *m = &t->members[i];
		memset(m, 0, sizeof(*m));
		m->name = names[i];
		m->type_name = "long";
		m->type_suffix = "";
		m->offset = bc->m[i].offset;
		m->size = bc->m[i].size;
		m->align = (uint32_t)bc->m[i].align;
		m->tclass = SF_T_INT;
		al = bc->m[i].align > al ? bc->m[i].align : al;
		end = m->offset + m->size;
	}
	t->align = (uint32_t)al;
	t->size = rup(end, al);
	return t;
}

/* The search's order laid out member by member: its size and offsets. */
static void bcase_check_result(struct bcase *bc, const struct sf_units *us,
			       const struct sf_reorder *r)
{
	int p[12];
	struct bmember save[12];

	memcpy(save, bc->m, sizeof(save));
	for (size_t k = 0; k < us->n; k++)
		p[k] = (int)r->order[k];
	assert_int_equal(lay_units(bc, p), r->size);
	for (size_t u = 0; u < us->n; u++)
		assert_int_equal(bc->m[bc->ufirst[u]].offset, r->offset[u]);
	memcpy(bc->m, save, sizeof(save));
}

static void test_moving_block_vs_brute_force(void **state)
{
	int moved = 0, pinned = 0;

	(void)state;
	srand(20261204);
	for (int iter = 0; iter < 600; iter++) {
		struct sf_typeset *ts = sf_typeset_new();
		struct bcase bc;
		bcase_random(&bc);
		struct sf_type *t = bcase_type(ts, &bc);
		struct sf_units us;
		sf_units_build(t, NULL, false, &us);
		assert_true(us.modeled);
		assert_int_equal(sf_units_fix_group(&us, (uint32_t)bc.g0, (uint32_t)bc.gn, true), 0);
		assert_int_equal(us.n, (size_t)bc.nu);
		assert_int_equal(us.v[bc.g0].pinned, !bc.movable);
		moved += bc.movable && bc.gn > 1;
		pinned += !bc.movable;
		bcase_brute(&bc);
		struct sf_reorder r;
		sf_reorder_search_max(&us, UINT32_MAX, &r);
		assert_true(r.exact);
		assert_int_equal(r.size, bc.best);
		assert_int_equal(r.moves, (uint32_t)bc.best_moves);
		bcase_check_result(&bc, &us, &r);
		bool exact;
		assert_int_equal(sf_reorder_min_size(&us, &exact), bc.best);
		/* the heuristic (beyond the exact limit) keeps the block too */
		us.heuristic = true;
		struct sf_reorder h;
		sf_reorder_search_max(&us, UINT32_MAX, &h);
		assert_int_equal(h.size, bc.best);
		bcase_check_result(&bc, &us, &h);
		sf_reorder_release(&h);
		sf_reorder_release(&r);
		sf_units_release(&us);
		sf_typeset_free(ts);
	}
	/* both kinds of block were drawn */
	assert_true(moved > 50);
	assert_true(pinned > 50);
}

/*
 * memcached-like: ... num_threads@64, then [sock_cookie_id@68] under an
 * #ifdef, 72 bytes.  Pinned, the block leaves 72; moving as one unit, 64.
 * A block {int; long} is not phase-free (its hole depends on where the int
 * lands): pinned even when it may move; {long; int} moves.
 */
static void test_moving_block(void **state)
{
	static const struct spec s[] = {
		{ "maxbytes", 8, 8, SF_T_INT }, { "maxconns", 4, 4, SF_T_INT },
		{ "inter", 8, 8, SF_T_POINTER }, { "verbose", 4, 4, SF_T_INT },
		{ "factor", 8, 8, SF_T_FLOAT }, { "chunk_size", 4, 4, SF_T_INT },
		{ "prefix_delimiter", 1, 1, SF_T_INT }, { "use_cas", 1, 1, SF_T_BOOL },
		{ "backlog", 4, 4, SF_T_INT }, { "hash_algorithm", 8, 8, SF_T_POINTER },
		{ "num_threads", 4, 4, SF_T_INT }, { "sock_cookie_id", 4, 4, SF_T_INT },
	};
	static const struct spec il[] = {
		{ "a", 1, 1, SF_T_INT }, { "n", 4, 4, SF_T_INT }, { "l", 8, 8, SF_T_INT },
		{ "b", 1, 1, SF_T_INT },
	};
	struct sf_typeset *ts = sf_typeset_new();
	struct sf_type *t = from_spec(ts, s, 12);
	struct sf_units us;
	struct sf_reorder r;

	(void)state;
	assert_int_equal(t->size, 72);
	assert_int_equal(t->members[11].offset, 68);
	for (int may_move = 0; may_move < 2; may_move++) {
		sf_units_build(t, NULL, true, &us);
		assert_int_equal(sf_units_fix_group(&us, 11, 1, may_move), 0);
		sf_reorder_search_max(&us, UINT32_MAX, &r);
		assert_int_equal(r.size, may_move ? 64 : 72);
		assert_int_equal(r.moves, may_move ? 1 : 0);
		sf_reorder_release(&r);
		sf_units_release(&us);
	}
	t = from_spec(ts, il, 4);    /* a@0 n@4 l@8 b@16: 24 */
	sf_units_build(t, NULL, true, &us);
	assert_int_equal(sf_units_fix_group(&us, 1, 2, true), 0);
	assert_true(us.v[1].pinned);
	sf_units_release(&us);
	sf_units_build(t, NULL, true, &us);
	assert_int_equal(sf_units_fix_group(&us, 2, 2, true), 0);  /* l@8 b@16 */
	assert_false(us.v[2].pinned);
	assert_int_equal(us.v[2].size, 9);
	assert_int_equal(us.v[2].period, 8);
	sf_reorder_search_max(&us, UINT32_MAX, &r);
	assert_int_equal(r.size, 16);   /* [l@0 b@8] a@9 n@12 */
	sf_reorder_release(&r);
	sf_units_release(&us);
	sf_typeset_free(ts);
}

static void test_st_table_already_optimal(void **state)
{
	static const struct spec s[] = {
		{ "entry_power", 1, 1, SF_T_INT }, { "bin_power", 1, 1, SF_T_INT },
		{ "size_ind", 1, 1, SF_T_INT }, { "rebuilds_num", 4, 4, SF_T_INT },
		{ "type", 8, 8, SF_T_POINTER }, { "num_entries", 8, 8, SF_T_INT },
		{ "entries_start", 8, 8, SF_T_INT }, { "entries_bound", 8, 8, SF_T_INT },
		{ "entries", 8, 8, SF_T_POINTER },
	};
	struct sf_typeset *ts = sf_typeset_new();
	struct sf_type *t = from_spec(ts, s, 9);
	struct sf_units us;
	struct sf_reorder r;

	(void)state;
	assert_int_equal(t->size, 48);
	assert_int_equal(t->members[3].offset, 4);
	sf_units_build(t, NULL, true, &us);
	assert_true(us.modeled);
	sf_reorder_search_max(&us, UINT32_MAX, &r);
	assert_int_equal(r.size, 48);
	assert_int_equal(r.moves, 0);
	for (size_t i = 0; i < r.n; i++)
		assert_int_equal(r.order[i], i);
	sf_reorder_release(&r);
	sf_units_release(&us);
	sf_typeset_free(ts);
}

static void test_struct_first_pinned(void **state)
{
	/* { struct RBasic basic; char x; long y; char z; }: 40 -> 32, basic stays */
	static const struct spec s[] = {
		{ "basic", 16, 8, SF_T_STRUCT }, { "x", 1, 1, SF_T_INT },
		{ "y", 8, 8, SF_T_INT }, { "z", 1, 1, SF_T_INT },
	};
	struct sf_typeset *ts = sf_typeset_new();
	struct sf_type *t = from_spec(ts, s, 4);
	struct sf_units us;
	struct sf_reorder r;

	(void)state;
	assert_int_equal(t->size, 40);
	sf_units_build(t, NULL, true, &us);
	assert_true(us.v[0].pinned);
	sf_reorder_search_max(&us, UINT32_MAX, &r);
	assert_int_equal(r.size, 32);
	assert_int_equal(r.order[0], 0);
	assert_int_equal(r.offset[0], 0);
	sf_reorder_release(&r);
	sf_units_release(&us);

	sf_units_build(t, NULL, false, &us);
	assert_false(us.v[0].pinned);
	sf_units_release(&us);
	sf_typeset_free(ts);
}

static void test_redis_robj_bitfields(void **state)
{
	/* struct redisObject { unsigned type:4, encoding:4, lru:24; int refcount; void *ptr; } */
	struct sf_typeset *ts = sf_typeset_new();
	struct sf_type *t = sf_typeset_alloc(ts, sizeof(*t));
	static const struct { const char *name; uint64_t off, size; uint32_t bo, bs, al; } m[] = {
		{ "type", 0, 4, 0, 4, 4 }, { "encoding", 0, 4, 4, 4, 4 },
		{ "lru", 0, 4, 8, 24, 4 }, { "refcount", 4, 4, 0, 0, 4 },
		{ "ptr", 8, 8, 0, 0, 8 },
	};
	struct sf_units us;
	struct sf_reorder r;

	(void)state;
	t->name = "redisObject";
	t->size = 16;
	t->align = 8;
	t->nmembers = 5;
	t->decl_file = "";
	t->members = sf_typeset_alloc(ts, 5 * sizeof(struct sf_member));
	for (int i = 0; i < 5; i++) {
		t->members[i].name = m[i].name;
		t->members[i].type_name = "unsigned int";
		t->members[i].type_suffix = "";
		t->members[i].offset = m[i].off;
		t->members[i].size = m[i].size;
		t->members[i].bit_offset = m[i].bo;
		t->members[i].bit_size = m[i].bs;
		t->members[i].align = m[i].al;
		t->members[i].tclass = i == 4 ? SF_T_POINTER : SF_T_INT;
		t->members[i].flags = m[i].bs ? SF_MF_BITFIELD : 0;
	}
	sf_units_build(t, NULL, true, &us);
	assert_true(us.modeled);
	assert_int_equal(us.n, 3);
	assert_int_equal(us.v[0].count, 3);
	assert_int_equal(us.v[0].size, 4);
	sf_reorder_search_max(&us, UINT32_MAX, &r);
	assert_int_equal(r.size, 16);
	assert_int_equal(r.moves, 0);
	sf_reorder_release(&r);
	sf_units_release(&us);
	sf_typeset_free(ts);
}

/* Beyond the exact limit: plain members without pins; sorting by alignment
 * leaves no hole, so the optimum is the sum of sizes rounded up. */
static void test_heuristic_large(void **state)
{
	(void)state;
	srand(7);
	for (int iter = 0; iter < 40; iter++) {
		struct sf_typeset *ts = sf_typeset_new();
		struct gunit g[40];
		int n = 13 + rand() % 24, mu[64];
		uint64_t sum = 0, al = 1;

		for (int i = 0; i < n; i++) {
			do
				random_unit(&g[i], 0);
			while (g[i].nbits);
			sum += g[i].size;
			al = g[i].align > al ? g[i].align : al;
		}
		struct sf_type *t = make_type(ts, g, n, mu);
		struct sf_units us;
		struct sf_reorder r;
		sf_units_build(t, NULL, false, &us);
		assert_true(us.modeled);
		sf_reorder_search_max(&us, UINT32_MAX, &r);
		assert_int_equal(r.size, rup(sum, al));
		bool pinned[40] = { false };
		check_result(g, n, pinned, &us, &r);
		if (r.size == t->size)
			assert_int_equal(r.moves, 0);
		else
			assert_true(r.moves > 0);
		sf_reorder_release(&r);
		sf_units_release(&us);
		sf_typeset_free(ts);
	}
}

/* A flexible array member stays last, at its alignment after the rest. */
static void test_flex_array_last(void **state)
{
	static const struct spec s[] = {
		{ "len", 1, 1, SF_T_INT }, { "cap", 8, 8, SF_T_INT },
		{ "tag", 2, 2, SF_T_INT }, { "data", 0, 4, SF_T_ARRAY },
	};
	struct sf_typeset *ts = sf_typeset_new();
	struct sf_type *t = from_spec(ts, s, 4);
	struct sf_units us;
	struct sf_reorder r;

	(void)state;
	t->members[3].flags = SF_MF_FLEX_ARRAY;
	assert_int_equal(t->size, 24);          /* len@0 cap@8 tag@16 data@20 */
	assert_int_equal(t->members[3].offset, 20);
	sf_units_build(t, NULL, true, &us);
	assert_true(us.modeled);
	assert_int_equal(us.n, 3);
	sf_reorder_search_max(&us, UINT32_MAX, &r);
	/* 16: len@0 tag@2 cap@8 data@16 (one move: cap) */
	assert_int_equal(r.size, 16);
	assert_int_equal(r.moves, 1);
	const struct sf_type *nt = sf_units_relayout(&us, &r, ts);
	assert_string_equal(nt->members[3].name, "data");
	uint64_t end = 0;
	for (int i = 0; i < 3; i++)
		if (nt->members[i].offset + nt->members[i].size > end)
			end = nt->members[i].offset + nt->members[i].size;
	assert_int_equal(nt->members[3].offset, rup(end, 4));
	assert_true(nt->members[3].offset <= r.size);
	sf_reorder_release(&r);
	sf_units_release(&us);
	sf_typeset_free(ts);
}

/* Too many shapes for the size DP, and a pin that makes the lower bound
 * unreachable: the local search must still return a valid smaller order. */
static void test_over_budget_fallback(void **state)
{
	struct gunit g[40];
	int n = 36, mu[64];
	struct sf_typeset *ts = sf_typeset_new();
	bool pin[64] = { false }, pinned_unit[40] = { false };

	(void)state;
	memset(g, 0, sizeof(g));
	for (int i = 0; i < n; i++) {
		/* alternate odd-sized byte arrays and 8-aligned structs: every
		 * member its own shape, lots of holes */
		g[i].size = i % 2 ? (uint64_t)(i / 2 + 1) * 8 : (uint64_t)(i / 2) * 2 + 1;
		g[i].align = i % 2 ? 8 : 1;
		g[i].tclass = i % 2 ? SF_T_STRUCT : SF_T_ARRAY;
	}
	struct sf_type *t = make_type(ts, g, n, mu);
	pin[5] = pinned_unit[5] = true;
	struct sf_units us;
	struct sf_reorder r;
	sf_units_build(t, pin, false, &us);
	assert_true(us.modeled);
	sf_reorder_search_max(&us, UINT32_MAX, &r);
	assert_false(r.exact);
	assert_true(r.size < t->size);
	check_result(g, n, pinned_unit, &us, &r);
	sf_reorder_release(&r);
	sf_units_release(&us);
	sf_typeset_free(ts);
}

static void test_order_kept(void **state)
{
	uint32_t o[] = { 0, 4, 1, 2, 3 };
	bool kept[5];

	(void)state;
	assert_int_equal(sf_order_kept(o, 5, kept), 4);
	assert_false(kept[4]);
	assert_true(kept[0] && kept[1] && kept[2] && kept[3]);
}

/* ---- a bound on the moves -------------------------------------------- */

/* Every bound N on random structs of up to 8 units: the smallest size an
 * order moving at most N units reaches, and the fewest moves for it, as
 * brute force finds them. */
static void test_max_moves_vs_brute_force(void **state)
{
	(void)state;
	srand(20261203);
	for (int iter = 0; iter < 200; iter++) {
		struct sf_typeset *ts = sf_typeset_new();
		struct gunit g[8];
		int n = 2 + rand() % 7, member_unit[64];
		bool pinned_unit[8] = { false };

		for (int i = 0; i < n; i++)
			do
				random_unit(&g[i], i == 0);
			while (i > 0 && g[i].nbits && g[i - 1].nbits);
		struct sf_type *t = make_type(ts, g, n, member_unit);
		struct sf_units us;
		sf_units_build(t, NULL, false, &us);
		assert_true(us.modeled);
		struct brute b;
		brute_force(g, n, pinned_unit, &b);
		for (uint32_t N = 1; N < (uint32_t)n; N++) {
			uint64_t want = UINT64_MAX;
			uint32_t want_moves = 0;
			for (uint32_t m = 0; m <= N; m++)
				if (b.size_by_moves[m] < want) {
					want = b.size_by_moves[m];
					want_moves = m;
				}
			struct sf_reorder r;
			sf_reorder_search_max(&us, N, &r);
			assert_true(r.exact);
			assert_int_equal(r.size, want);
			assert_int_equal(r.moves, want_moves);
			assert_true(r.moves <= N);
			assert_int_equal(r.min_size, b.best_size);
			check_result(g, n, pinned_unit, &us, &r);
			sf_reorder_release(&r);
		}
		sf_units_release(&us);
		sf_typeset_free(ts);
	}
}

/*
 * k pairs of { int; long; }: every int is followed by a 4-byte hole, 16k
 * bytes.  Without holes it is 12k (rounded to 8).  The ints must end up
 * side by side in pairs; two ints were never adjacent, so each pair needs
 * a unit that moved (an int beside another, or the long between them),
 * and one moved unit makes one pair: k/2 moves at least, and moving every
 * second int next to the one before reaches it.  Each move closes two
 * holes at most: within N moves the struct is 8N bytes smaller at best,
 * which the same moves reach.
 */
static struct sf_type *int_long_pairs(struct sf_typeset *ts, struct gunit *g, int k)
{
	int mu[200];

	memset(g, 0, (size_t)(2 * k) * sizeof(*g));
	for (int i = 0; i < 2 * k; i++) {
		g[i].size = g[i].align = i % 2 ? 8 : 4;
		g[i].tclass = SF_T_INT;
	}
	return make_type(ts, g, 2 * k, mu);
}

static void test_pairs_of_holes_exact(void **state)
{
	struct gunit g[8];
	struct sf_typeset *ts = sf_typeset_new();
	struct sf_type *t = int_long_pairs(ts, g, 4);
	bool pinned[8] = { false };
	struct sf_units us;
	struct sf_reorder r;
	struct brute b;

	(void)state;
	assert_int_equal(t->size, 64);
	sf_units_build(t, NULL, false, &us);
	brute_force(g, 8, pinned, &b);
	assert_int_equal(b.best_size, 48);
	assert_int_equal(b.best_moves, 2);
	sf_reorder_search_max(&us, UINT32_MAX, &r);
	assert_true(r.exact);
	assert_int_equal(r.size, 48);
	assert_int_equal(r.moves, 2);
	check_result(g, 8, pinned, &us, &r);
	sf_reorder_release(&r);
	/* filling holes alone finds the same */
	uint32_t order[8];
	assert_int_equal(sf_reorder_fill(&us, 48, UINT32_MAX, order), 48);
	assert_int_equal(8 - sf_order_kept(order, 8, NULL), 2);
	sf_units_release(&us);
	sf_typeset_free(ts);
}

static void test_pairs_of_holes_heuristic(void **state)
{
	enum { K = 40 };              /* 80 units: far beyond the exact limit */
	struct gunit g[2 * K];
	struct sf_typeset *ts = sf_typeset_new();
	struct sf_type *t = int_long_pairs(ts, g, K);
	bool pinned[2 * K] = { false };
	struct sf_units us;
	struct sf_reorder r;

	(void)state;
	assert_int_equal(t->size, 16 * K);
	sf_units_build(t, NULL, false, &us);
	assert_true(us.modeled);
	sf_reorder_search_max(&us, UINT32_MAX, &r);
	assert_false(r.exact);
	assert_int_equal(r.size, 12 * K);
	assert_int_equal(r.moves, K / 2);
	check_result(g, 2 * K, pinned, &us, &r);
	sf_reorder_release(&r);
	for (uint32_t N = 1; N <= K / 2 + 2; N += 3) {
		uint64_t want = N < K / 2 ? 16 * K - 8 * N : 12 * K;
		sf_reorder_search_max(&us, N, &r);
		assert_int_equal(r.size, want);
		assert_int_equal(r.min_size, 12 * K);
		assert_true(r.moves <= N);
		assert_int_equal(r.moves, N < K / 2 ? N : K / 2);
		check_result(g, 2 * K, pinned, &us, &r);
		sf_reorder_release(&r);
	}
	sf_units_release(&us);
	sf_typeset_free(ts);
}

/*
 * Beyond the exact limit with bit-field runs, arrays and odd sizes: where
 * the size DP proves the smallest size, the moves heuristic reaches it,
 * and the order is what an independent layout says; with a bound, no
 * more moves than allowed, never a larger size than the current one, and
 * (structs this small try every candidate under a bound) the unbounded
 * answer when it fits the bound.
 */
static void test_heuristic_reaches_exact_size(void **state)
{
	(void)state;
	srand(4242);
	for (int iter = 0; iter < 60; iter++) {
		struct sf_typeset *ts = sf_typeset_new();
		struct gunit g[30];
		int n = 13 + rand() % 14, mu[200];
		bool pinned[30] = { false };

		for (int i = 0; i < n; i++)
			do
				random_unit(&g[i], 0);
			while (i > 0 && g[i].nbits && g[i - 1].nbits);
		struct sf_type *t = make_type(ts, g, n, mu);
		struct sf_units us;
		struct sf_reorder r;
		bool exact;
		sf_units_build(t, NULL, false, &us);
		assert_true(us.modeled);
		uint64_t min = sf_reorder_min_size(&us, &exact);
		sf_reorder_search_max(&us, UINT32_MAX, &r);
		if (exact)
			assert_int_equal(r.size, min);
		assert_true(r.size <= t->size);
		check_result(g, n, pinned, &us, &r);
		uint32_t unbounded = r.moves;
		sf_reorder_release(&r);
		uint32_t N = 1 + (uint32_t)rand() % 4;
		sf_reorder_search_max(&us, N, &r);
		assert_true(r.moves <= N);
		assert_true(r.size <= t->size);
		if (unbounded <= N)
			assert_int_equal(r.size, r.min_size);
		check_result(g, n, pinned, &us, &r);
		sf_reorder_release(&r);
		sf_units_release(&us);
		sf_typeset_free(ts);
	}
}

/*
 * pahole -S's moves (layout/reorgsteps.h): one per unit the reorder
 * moves, each order a permutation, the last the reorder's own.
 */
static void test_steps_reach_the_order(void **state)
{
	(void)state;
	srand(20261204);
	for (int iter = 0; iter < 300; iter++) {
		struct sf_typeset *ts = sf_typeset_new();
		struct gunit g[8];
		int n = 1 + rand() % 8, member_unit[64];
		for (int i = 0; i < n; i++)
			do
				random_unit(&g[i], i == 0);
			while (i > 0 && g[i].nbits && g[i - 1].nbits);
		struct sf_type *t = make_type(ts, g, n, member_unit);
		struct sf_units us;
		struct sf_reorder r;
		struct sf_reorg_step *s;
		sf_units_build(t, NULL, false, &us);
		sf_reorder_search_max(&us, UINT32_MAX, &r);
		size_t k = sf_reorg_steps(&us, &r, &s);
		assert_int_equal(k, r.moves);
		for (size_t i = 0; i < k; i++) {
			bool seen[8] = { false };
			assert_true(r.moved[s[i].unit]);
			for (size_t j = 0; j < us.n; j++) {
				assert_false(seen[s[i].at.order[j]]);
				seen[s[i].at.order[j]] = true;
			}
		}
		if (k) {
			assert_memory_equal(s[k - 1].at.order, r.order, us.n * sizeof(*r.order));
			assert_int_equal(s[k - 1].at.size, r.size);
		}
		sf_reorg_steps_free(s, k);
		sf_reorder_release(&r);
		sf_units_release(&us);
		sf_typeset_free(ts);
	}
}

/* char a; long b; char c: one move, c after a (or b to the start) */
static void test_steps_char_long_char(void **state)
{
	static const struct spec sp[] = {
		{ "a", 1, 1, SF_T_INT }, { "b", 8, 8, SF_T_INT }, { "c", 1, 1, SF_T_INT },
	};
	struct sf_typeset *ts = sf_typeset_new();
	struct sf_type *t = from_spec(ts, sp, 3);
	struct sf_units us;
	struct sf_reorder r;
	struct sf_reorg_step *s;

	(void)state;
	sf_units_build(t, NULL, false, &us);
	sf_reorder_search_max(&us, UINT32_MAX, &r);
	assert_int_equal(sf_reorg_steps(&us, &r, &s), 1);
	if (s[0].unit == 2) {
		assert_int_equal(s[0].from_after, 1);
		assert_int_equal(s[0].to_after, 0);
	} else {
		assert_int_equal(s[0].unit, 1);
		assert_int_equal(s[0].from_after, 0);
		assert_int_equal(s[0].to_after, SF_STEP_START);
	}
	assert_int_equal(s[0].at.size, 16);
	sf_reorg_steps_free(s, 1);
	sf_reorder_release(&r);
	sf_units_release(&us);
	sf_typeset_free(ts);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order_kept),
		cmocka_unit_test(test_char_long_char),
		cmocka_unit_test(test_fixed_group),
		cmocka_unit_test(test_st_table_already_optimal),
		cmocka_unit_test(test_struct_first_pinned),
		cmocka_unit_test(test_redis_robj_bitfields),
		cmocka_unit_test(test_random_vs_brute_force),
		cmocka_unit_test(test_heuristic_large),
		cmocka_unit_test(test_flex_array_last),
		cmocka_unit_test(test_over_budget_fallback),
		cmocka_unit_test(test_max_moves_vs_brute_force),
		cmocka_unit_test(test_moving_block_vs_brute_force),
		cmocka_unit_test(test_moving_block),
		cmocka_unit_test(test_steps_reach_the_order),
		cmocka_unit_test(test_steps_char_long_char),
		cmocka_unit_test(test_pairs_of_holes_exact),
		cmocka_unit_test(test_pairs_of_holes_heuristic),
		cmocka_unit_test(test_heuristic_reaches_exact_size),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
