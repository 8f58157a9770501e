/*
 * test_gaps.c - model/gaps.c, the one walk that finds holes and padding,
 * against layout/holes.c's report of it and against a byte count.
 *
 * Types are generated from a fixed seed, laid out by the C rules (x86_64
 * SysV: scalars at their alignment, bit-fields packed into storage units
 * they fit, anonymous structs and unions nested at absolute offsets),
 * then disturbed the ways real input is: packed (members at any offset),
 * gaps an aligned attribute would leave, trailing room, members that
 * overlap or reach past the end, Rust enums with variants.  For each:
 *
 *   - sf_type_has_gaps(t) is what layout/holes.c's sf_layout_compute
 *     says: byte holes or trailing padding (bit holes do not count);
 *   - sf_gaps_find's figures, recorded or not, are the layout's, for t
 *     and for every nested anonymous member at its absolute offset;
 *   - for a regular type with no bit-fields and no variants, the answer
 *     is also the plain fact, counted byte by byte: some byte of the type
 *     that no member covers.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "layout/holes.h"
#include "model/gaps.h"
#include "model_util.h"

#define NCASES 20000
#define MAX_MEMBERS 9
#define MAX_DEPTH 2

/* The generated memory of one case, freed together. */
struct pool {
	void *p[256];
	size_t n;
};

static void *palloc(struct pool *pl, size_t n, size_t size)
{
	assert_true(pl->n < sizeof(pl->p) / sizeof(pl->p[0]));
	void *p = calloc(n ? n : 1, size);
	assert_non_null(p);
	pl->p[pl->n++] = p;
	return p;
}

static void pool_free(struct pool *pl)
{
	for (size_t i = 0; i < pl->n; i++)
		free(pl->p[i]);
	pl->n = 0;
}

struct gen {
	uint64_t seed;
	struct pool pool;
};

/* 0..n-1, from a 64-bit LCG's high bits. */
static uint32_t rnd(struct gen *g, uint32_t n)
{
	g->seed = g->seed * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)((g->seed >> 33) % n);
}

static uint64_t round_up(uint64_t x, uint64_t a)
{
	return (x + a - 1) / a * a;
}

/* Every member offset of t (and of what it nests) moved by delta. */
static void shift(struct sf_type *t, uint64_t delta)
{
	for (uint32_t i = 0; i < t->nmembers; i++) {
		t->members[i].offset += delta;
		if (t->members[i].nested)
			shift((struct sf_type *)t->members[i].nested, delta);
	}
}

static struct sf_type *gen_aggregate(struct gen *g, uint8_t kind, unsigned depth);

/* A scalar of 1, 2, 4 or 8 bytes, aligned to its size unless packed. */
static void gen_scalar(struct gen *g, struct sf_member *m, int packed)
{
	m->size = (uint64_t)1 << rnd(g, 4);
	m->align = packed ? 1 : (uint32_t)m->size;
	m->tclass = SF_T_INT;
	m->type_name = "int";
}

/* One member of a struct at bit position *pos (bits from base): placed,
 * and *pos moved past it. */
static void place_struct_member(struct gen *g, struct sf_member *m, uint64_t *pos,
				int packed, unsigned depth)
{
	uint32_t what = rnd(g, 10);

	m->name = "m";
	m->type_suffix = "";
	if (what < 3) {		/* a bit-field */
		uint64_t unit = (uint64_t)1 << rnd(g, 4);
		uint32_t bits = 1 + rnd(g, (uint32_t)(8 * unit - 1));
		uint64_t at = *pos + rnd(g, 3);		/* now and then a bit hole */
		if (at / (8 * unit) != (at + bits - 1) / (8 * unit))
			at = round_up(at, 8 * unit);
		m->size = unit;
		m->align = (uint32_t)unit;
		m->tclass = SF_T_INT;
		m->type_name = "unsigned int";
		m->offset = at / (8 * unit) * unit;
		m->bit_offset = (uint32_t)(at - 8 * m->offset);
		m->bit_size = bits;
		m->flags |= SF_MF_BITFIELD;
		*pos = at + bits;
		return;
	}
	if (what < 5 && depth < MAX_DEPTH) {	/* an anonymous struct or union */
		struct sf_type *n = gen_aggregate(g, rnd(g, 2) ? SF_KIND_STRUCT : SF_KIND_UNION,
						  depth + 1);
		m->size = n->size;
		m->align = packed ? 1 : n->align;
		m->tclass = n->kind == SF_KIND_UNION ? SF_T_UNION : SF_T_STRUCT;
		m->type_name = "";
		m->nested = n;
	} else {
		gen_scalar(g, m, packed);
	}
	uint64_t off = round_up((*pos + 7) / 8, m->align);
	if (rnd(g, 6) == 0)	/* what an aligned attribute leaves */
		off += 1 + rnd(g, 8);
	m->offset = off;
	if (m->nested)
		shift((struct sf_type *)m->nested, off);
	*pos = 8 * (off + m->size);
}

/*
 * A struct or union of up to MAX_MEMBERS members at offset 0, laid out by
 * the C rules, sometimes packed and sometimes with room at the end.
 */
static struct sf_type *gen_aggregate(struct gen *g, uint8_t kind, unsigned depth)
{
	struct sf_type *t = palloc(&g->pool, 1, sizeof(*t));
	uint32_t n = rnd(g, MAX_MEMBERS + 1);
	int packed = rnd(g, 5) == 0;
	uint64_t end = 0;
	uint32_t align = 1;

	t->name = "";
	t->kind = kind;
	t->members = palloc(&g->pool, n, sizeof(*t->members));
	t->nmembers = n;
	uint64_t pos = 0;
	for (uint32_t i = 0; i < n; i++) {
		struct sf_member *m = &t->members[i];
		uint64_t p = kind == SF_KIND_UNION ? 0 : pos;
		place_struct_member(g, m, &p, packed, depth);
		if (kind == SF_KIND_UNION && m->nested)
			shift((struct sf_type *)m->nested, (uint64_t)0 - m->offset);
		if (kind == SF_KIND_UNION) {	/* every member at the start */
			m->offset = 0;
			if (sf_member_is_bitfield(m))
				m->bit_offset = 0;
			p = sf_member_is_bitfield(m) ? m->bit_size : 8 * m->size;
		}
		pos = p;
		if ((p + 7) / 8 > end)
			end = (p + 7) / 8;
		if (m->align > align)
			align = m->align;
	}
	t->align = packed ? 1 : align;
	t->natural_align = align;
	t->size = round_up(end, t->align) + (rnd(g, 5) == 0 ? rnd(g, 9) : 0);
	return t;
}

/* Model order: by offset, then by first bit (an insertion sort). */
static void sort_members(struct sf_type *t)
{
	for (uint32_t i = 1; i < t->nmembers; i++) {
		struct sf_member m = t->members[i];
		uint32_t k = i;
		while (k > 0 && (t->members[k - 1].offset > m.offset ||
				 (t->members[k - 1].offset == m.offset &&
				  t->members[k - 1].bit_offset > m.bit_offset))) {
			t->members[k] = t->members[k - 1];
			k--;
		}
		t->members[k] = m;
	}
}

/* What corrupt or unusual input does: a member moved (overlaps, holes
 * out of nowhere), a size cut short (members past the end). */
static void disturb(struct gen *g, struct sf_type *t)
{
	uint32_t what = rnd(g, 10);

	if (what == 0 && t->nmembers && t->kind != SF_KIND_UNION) {
		struct sf_member *m = &t->members[rnd(g, t->nmembers)];
		if (!m->nested)
			m->offset = rnd(g, (uint32_t)t->size + 4);
		sort_members(t);
	} else if (what == 1 && t->size) {
		t->size = rnd(g, (uint32_t)t->size);
	}
}

/* A Rust enum: a discriminant and variants whose fields lie anywhere in
 * the enum (a struct to the model, with variants). */
static struct sf_type *gen_enum(struct gen *g)
{
	struct sf_type *t = palloc(&g->pool, 1, sizeof(*t));
	uint32_t nv = 1 + rnd(g, 3);

	t->name = "E";
	t->kind = SF_KIND_STRUCT;
	t->size = 8 + 8 * rnd(g, 4);
	t->align = 8;
	t->nmembers = rnd(g, 2);
	t->members = palloc(&g->pool, 1, sizeof(*t->members));
	if (t->nmembers) {
		gen_scalar(g, &t->members[0], 0);
		t->members[0].name = "<discriminant>";
		t->members[0].type_suffix = "";
		t->members[0].flags = SF_MF_DISCR;
	}
	t->variants = palloc(&g->pool, nv, sizeof(*t->variants));
	t->nvariants = nv;
	for (uint32_t v = 0; v < nv; v++) {
		struct sf_variant *vr = &t->variants[v];
		vr->name = "V";
		vr->nmembers = rnd(g, 4);
		vr->members = palloc(&g->pool, vr->nmembers, sizeof(*vr->members));
		for (uint32_t i = 0; i < vr->nmembers; i++) {
			struct sf_member *m = &vr->members[i];
			gen_scalar(g, m, 0);
			m->name = "f";
			m->type_suffix = "";
			m->offset = round_up(rnd(g, (uint32_t)t->size), m->align);
			if (m->offset + m->size > t->size)
				m->offset = t->size - m->size;
		}
	}
	return t;
}

/* The plain fact, for a type without bit-fields or variants: a byte of
 * it that no (top-level) member covers. */
static int uncovered_byte(const struct sf_type *t, uint64_t base)
{
	uint8_t *seen = calloc(t->size + 1, 1);
	int found = 0;

	assert_non_null(seen);
	for (uint32_t i = 0; i < t->nmembers; i++) {
		const struct sf_member *m = &t->members[i];
		uint64_t from = m->offset - base;
		for (uint64_t b = from; b < from + m->size && b < t->size; b++)
			seen[b] = 1;
	}
	for (uint64_t b = 0; b < t->size; b++)
		found |= !seen[b];
	free(seen);
	return found;
}

static int has_bitfield(const struct sf_type *t)
{
	for (uint32_t i = 0; i < t->nmembers; i++)
		if (sf_member_is_bitfield(&t->members[i]))
			return 1;
	return 0;
}

/* The walk's figures are the layout's, recorded or only counted. */
static void assert_same_figures(const struct sf_type *t, uint64_t base,
				const struct sf_layout *l)
{
	struct sf_gaps g, c;

	sf_gaps_find(t, base, true, &g);
	sf_gaps_find(t, base, false, &c);
	assert_null(c.holes);
	assert_null(c.bit_holes);
	assert_int_equal(g.nholes, l->nholes);
	assert_int_equal(c.nholes, l->nholes);
	assert_int_equal(g.sum_holes, l->sum_holes);
	assert_int_equal(c.sum_holes, l->sum_holes);
	assert_int_equal(g.nbit_holes, l->nbit_holes);
	assert_int_equal(c.nbit_holes, l->nbit_holes);
	assert_int_equal(c.sum_bit_holes, l->sum_bit_holes);
	assert_int_equal(c.sum_members, l->sum_members);
	assert_int_equal(c.sum_bitfield_bits, l->sum_bitfield_bits);
	assert_int_equal(c.padding, l->padding);
	assert_int_equal(c.bit_padding, l->bit_padding);
	assert_int_equal(c.irregular, l->irregular);
	for (uint32_t i = 0; i < l->nholes; i++) {
		assert_int_equal(g.holes[i].offset, l->holes[i].offset);
		assert_int_equal(g.holes[i].size, l->holes[i].size);
		assert_int_equal(g.holes[i].after, l->holes[i].after);
	}
	for (uint32_t i = 0; i < l->nbit_holes; i++) {
		assert_int_equal(g.bit_holes[i].offset, l->bit_holes[i].offset);
		assert_int_equal(g.bit_holes[i].bit_offset, l->bit_holes[i].bit_offset);
		assert_int_equal(g.bit_holes[i].bits, l->bit_holes[i].bits);
		assert_int_equal(g.bit_holes[i].after, l->bit_holes[i].after);
	}
	sf_gaps_release(&g);
	/* each nested anonymous member, at its absolute offset */
	for (uint32_t i = 0; i < t->nmembers; i++)
		if (t->members[i].nested)
			assert_same_figures(t->members[i].nested, t->members[i].offset,
					    sf_layout_nested(l, i));
}

/* Returns whether t had gaps (to count both answers); *bytes counts the
 * types checked byte by byte too. */
static int check_type(const struct sf_type *t, unsigned *bytes)
{
	struct sf_layout l;

	sf_layout_compute(t, 64, &l);
	int gaps = sf_type_has_gaps(t);
	assert_int_equal(gaps, l.nholes > 0 || l.padding > 0);
	assert_same_figures(t, 0, &l);
	/* (a member past the end, or overlapping, may make a hole the
	 * bytes do not show: pahole's rule, and such a layout is irregular) */
	if (!t->nvariants && !has_bitfield(t) && !l.irregular) {
		assert_int_equal(gaps, uncovered_byte(t, 0));
		++*bytes;
	}
	sf_layout_release(&l);
	return gaps;
}

static void test_generated_types(void **state)
{
	struct gen g = { .seed = 20261203 };
	unsigned with = 0, without = 0, irregular = 0, bitfields = 0, bytes = 0;

	(void)state;
	for (unsigned k = 0; k < NCASES; k++) {
		struct sf_type *t;
		uint32_t what = rnd(&g, 20);
		if (what == 0) {
			t = gen_enum(&g);
		} else {
			t = gen_aggregate(&g, what < 4 ? SF_KIND_UNION : SF_KIND_STRUCT, 0);
			disturb(&g, t);
		}
		if (check_type(t, &bytes))
			with++;
		else
			without++;
		struct sf_gaps c;
		sf_gaps_find(t, 0, false, &c);
		irregular += c.irregular;
		bitfields += has_bitfield(t);
		pool_free(&g.pool);
	}
	/* the sample holds every case, not a few */
	assert_true(with > NCASES / 10);
	assert_true(without > NCASES / 10);
	assert_true(irregular > NCASES / 100);
	assert_true(bitfields > NCASES / 10);
	assert_true(bytes > NCASES / 10);
	print_message("%u types: %u with gaps, %u without, %u irregular, %u with bit-fields, "
		      "%u counted byte by byte\n", NCASES, with, without, irregular, bitfields, bytes);
}

/* Hand-made: which gaps count (pahole's class__find_holes). */
static void test_what_counts(void **state)
{
	/* struct { char a; int b; }: a 3-byte hole */
	struct sf_member hole_m[] = {
		MEM("a", "char", "", 0, 1, 1, SF_T_INT),
		MEM("b", "int", "", 4, 4, 4, SF_T_INT),
	};
	struct sf_type hole = TYPE("h", SF_KIND_STRUCT, 8, 4, hole_m);
	/* struct { unsigned a:3; }: 29 bits of bit padding, no byte gap */
	struct sf_member bits_m[] = { BITF("a", "unsigned int", 0, 4, 0, 3) };
	struct sf_type bits = TYPE("b", SF_KIND_STRUCT, 4, 4, bits_m);
	/* union { char c; int i; } of 8 bytes (aligned(8)): 4 bytes padding */
	struct sf_member un_m[] = {
		MEM("c", "char", "", 0, 1, 1, SF_T_INT),
		MEM("i", "int", "", 0, 4, 4, SF_T_INT),
	};
	struct sf_type un = TYPE("u", SF_KIND_UNION, 8, 8, un_m);
	struct sf_gaps g;

	(void)state;
	assert_true(sf_type_has_gaps(&hole));
	sf_gaps_find(&hole, 0, true, &g);
	assert_int_equal(g.nholes, 1);
	assert_int_equal(g.holes[0].offset, 1);
	assert_int_equal(g.holes[0].size, 3);
	assert_int_equal(g.holes[0].after, 0);
	sf_gaps_release(&g);

	assert_false(sf_type_has_gaps(&bits));
	sf_gaps_find(&bits, 0, false, &g);
	assert_int_equal(g.bit_padding, 29);
	assert_int_equal(g.padding, 0);

	assert_true(sf_type_has_gaps(&un));
	un.size = 4;
	assert_false(sf_type_has_gaps(&un));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_what_counts),
		cmocka_unit_test(test_generated_types),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
