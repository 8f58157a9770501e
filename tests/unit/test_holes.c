/*
 * test_holes.c - layout/holes.c and layout/rank.c on hand-built models.
 *
 * Each model repeats what the DWARF of the C or C++ declaration in the
 * comment next to it says (gcc 12 / g++ 12, x86_64).  Expected numbers are
 * pahole 1.24's for the same declaration (`pahole -C NAME` on the object),
 * except where a comment says why structfit differs on purpose (C++ bases,
 * overlapping members).  No DWARF is read.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "layout/holes.h"
#include "layout/rank.h"
#include "model/typeset.h"
#include "model_util.h"

/* The size equation of holes.h, checked from the outside as well. */
static void assert_accounts_for_size(const struct sf_layout *l)
{
	assert_false(l->irregular);
	assert_int_equal(8 * l->size,
			 8 * l->sum_members + l->sum_bitfield_bits +
			 8 * l->sum_holes + l->sum_bit_holes +
			 8 * l->padding + l->bit_padding);
}

/* struct st_table (see testdata/example/st_table.c) */
static struct sf_member st_table_m[] = {
	ST_TABLE_MEMBERS
};
static const struct sf_type st_table = TYPE("st_table", SF_KIND_STRUCT, 48, 8,
					    st_table_m);

static void test_st_table(void **state)
{
	struct sf_layout l;

	(void)state;
	sf_layout_compute(&st_table, 64, &l);
	assert_int_equal(l.size, 48);
	assert_int_equal(l.members, 9);
	assert_int_equal(l.nholes, 1);
	assert_int_equal(l.holes[0].offset, 3);
	assert_int_equal(l.holes[0].size, 1);
	assert_int_equal(l.holes[0].after, 2);        /* after size_ind */
	assert_int_equal(l.sum_holes, 1);
	assert_int_equal(l.sum_members, 47);
	assert_int_equal(l.padding, 0);
	assert_int_equal(l.nbit_holes, 0);
	assert_int_equal(l.cachelines, 1);
	assert_int_equal(l.last_cacheline, 48);
	assert_int_equal(sf_layout_waste(&l), 1);
	assert_accounts_for_size(&l);
	sf_layout_release(&l);
}

/* struct bits { char c; int a:3; int b:5; unsigned long long x:40; short s; }; */
static struct sf_member bits_m[] = {
	MEM("c", "char", "", 0, 1, 1, SF_T_INT),
	BITF("a", "int", 0, 4, 8, 3),
	BITF("b", "int", 0, 4, 11, 5),
	BITF("x", "long long unsigned int", 0, 8, 16, 40),
	MEM("s", "short int", "", 8, 2, 2, SF_T_INT),
};
static const struct sf_type bits = TYPE("bits", SF_KIND_STRUCT, 16, 8, bits_m);

static void test_bitfields(void **state)
{
	struct sf_layout l;

	(void)state;
	sf_layout_compute(&bits, 64, &l);
	/* pahole: sum members 3, 48 bits, bit holes 1 (8 bits), padding 6 */
	assert_int_equal(l.members, 5);
	assert_int_equal(l.sum_members, 3);
	assert_int_equal(l.sum_bitfield_bits, 48);
	assert_int_equal(l.nholes, 0);
	assert_int_equal(l.nbit_holes, 1);
	assert_int_equal(l.bit_holes[0].offset, 0);   /* the 8-byte unit */
	assert_int_equal(l.bit_holes[0].bit_offset, 56);
	assert_int_equal(l.bit_holes[0].bits, 8);
	assert_int_equal(l.bit_holes[0].after, 3);    /* after x:40 */
	assert_int_equal(l.padding, 6);
	assert_int_equal(l.bit_padding, 0);
	assert_accounts_for_size(&l);
	sf_layout_release(&l);
}

/* struct bf2 { unsigned a:1; unsigned :0; unsigned b:2; char c; unsigned d:30; }; */
static struct sf_member bf2_m[] = {
	BITF("a", "unsigned int", 0, 4, 0, 1),
	BITF("b", "unsigned int", 4, 4, 0, 2),
	MEM("c", "char", "", 5, 1, 1, SF_T_INT),
	BITF("d", "unsigned int", 8, 4, 0, 30),
};
static const struct sf_type bf2 = TYPE("bf2", SF_KIND_STRUCT, 12, 4, bf2_m);

static void test_bit_holes_and_bit_padding(void **state)
{
	struct sf_layout l;

	(void)state;
	sf_layout_compute(&bf2, 64, &l);
	/* pahole: holes 1 (2), bit holes 2 (37 bits), bit_padding 2 */
	assert_int_equal(l.nbit_holes, 2);
	assert_int_equal(l.bit_holes[0].offset, 0);
	assert_int_equal(l.bit_holes[0].bit_offset, 1);
	assert_int_equal(l.bit_holes[0].bits, 31);
	assert_int_equal(l.bit_holes[0].after, 0);
	assert_int_equal(l.bit_holes[1].offset, 4);
	assert_int_equal(l.bit_holes[1].bit_offset, 2);
	assert_int_equal(l.bit_holes[1].bits, 6);
	assert_int_equal(l.bit_holes[1].after, 1);
	assert_int_equal(l.sum_bit_holes, 37);
	assert_int_equal(l.nholes, 1);
	assert_int_equal(l.holes[0].offset, 6);
	assert_int_equal(l.holes[0].size, 2);
	assert_int_equal(l.holes[0].after, 2);
	assert_int_equal(l.sum_members, 1);
	assert_int_equal(l.sum_bitfield_bits, 33);
	assert_int_equal(l.bit_padding, 2);
	assert_int_equal(l.padding, 0);
	assert_accounts_for_size(&l);
	sf_layout_release(&l);
}

/* struct b3 { long l; int x:4; }; */
static struct sf_member b3_m[] = {
	MEM("l", "long int", "", 0, 8, 8, SF_T_INT),
	BITF("x", "int", 8, 4, 0, 4),
};
static const struct sf_type b3 = TYPE("b3", SF_KIND_STRUCT, 16, 8, b3_m);

static void test_trailing_bits_and_bytes(void **state)
{
	struct sf_layout l;

	(void)state;
	sf_layout_compute(&b3, 64, &l);
	assert_int_equal(l.padding, 4);
	assert_int_equal(l.bit_padding, 28);
	assert_int_equal(l.sum_members, 8);
	assert_int_equal(l.sum_bitfield_bits, 4);
	assert_int_equal(sf_layout_waste(&l), 4);
	assert_accounts_for_size(&l);
	sf_layout_release(&l);
}

/*
 * struct anon { int a; union { char c; long l; };
 *               struct { char p; int q; } s2;
 *               struct { char r; long t; }; char fa[]; };
 */
static struct sf_member anon_u_m[] = {
	MEM("c", "char", "", 8, 1, 1, SF_T_INT),
	MEM("l", "long int", "", 8, 8, 8, SF_T_INT),
};
static const struct sf_type anon_u = TYPE("", SF_KIND_UNION, 8, 8, anon_u_m);
static struct sf_member anon_s2_m[] = {
	MEM("p", "char", "", 16, 1, 1, SF_T_INT),
	MEM("q", "int", "", 20, 4, 4, SF_T_INT),
};
static const struct sf_type anon_s2 = TYPE("", SF_KIND_STRUCT, 8, 4, anon_s2_m);
static struct sf_member anon_s3_m[] = {
	MEM("r", "char", "", 24, 1, 1, SF_T_INT),
	MEM("t", "long int", "", 32, 8, 8, SF_T_INT),
};
static const struct sf_type anon_s3 = TYPE("", SF_KIND_STRUCT, 16, 8, anon_s3_m);
static struct sf_member anon_m[] = {
	MEM("a", "int", "", 0, 4, 4, SF_T_INT),
	NEST("", 8, 8, 8, SF_T_UNION, &anon_u),
	NEST("s2", 16, 8, 4, SF_T_STRUCT, &anon_s2),
	NEST("", 24, 16, 8, SF_T_STRUCT, &anon_s3),
	FLAGGED("fa", "char", 40, 0, 1, SF_T_ARRAY, SF_MF_FLEX_ARRAY),
};
static const struct sf_type anon = TYPE("anon", SF_KIND_STRUCT, 40, 8, anon_m);

static void test_nested_anonymous(void **state)
{
	struct sf_layout l;
	const struct sf_layout *n;

	(void)state;
	sf_layout_compute(&anon, 64, &l);
	/* pahole: members 5, sum members 36 (nested ones count whole),
	 * one 4-byte hole; the nested holes are the nested types' own */
	assert_int_equal(l.members, 5);
	assert_int_equal(l.sum_members, 36);
	assert_int_equal(l.nholes, 1);
	assert_int_equal(l.holes[0].offset, 4);
	assert_int_equal(l.holes[0].size, 4);
	assert_int_equal(l.padding, 0);
	assert_int_equal(l.nnested, 3);
	assert_null(sf_layout_nested(&l, 0));

	n = sf_layout_nested(&l, 1);                  /* the union */
	assert_non_null(n);
	assert_int_equal(n->nholes, 0);
	assert_int_equal(n->sum_members, 8);
	assert_int_equal(n->padding, 0);
	assert_int_equal(n->base, 8);

	n = sf_layout_nested(&l, 2);                  /* s2: absolute offsets */
	assert_int_equal(n->nholes, 1);
	assert_int_equal(n->holes[0].offset, 17);
	assert_int_equal(n->holes[0].size, 3);

	n = sf_layout_nested(&l, 3);
	assert_int_equal(n->nholes, 1);
	assert_int_equal(n->holes[0].offset, 25);
	assert_int_equal(n->holes[0].size, 7);
	assert_int_equal(n->padding, 0);
	assert_accounts_for_size(&l);
	sf_layout_release(&l);
}

/* union U5 { char c[5]; int i; };  -> size 8 */
static struct sf_member u5_m[] = {
	MEM("c", "char", "[5]", 0, 5, 1, SF_T_ARRAY),
	MEM("i", "int", "", 0, 4, 4, SF_T_INT),
};
static const struct sf_type u5 = TYPE("U5", SF_KIND_UNION, 8, 4, u5_m);

static void test_union_has_no_holes_only_padding(void **state)
{
	struct sf_layout l;

	(void)state;
	sf_layout_compute(&u5, 64, &l);
	assert_int_equal(l.nholes, 0);
	assert_int_equal(l.nbit_holes, 0);
	assert_int_equal(l.sum_members, 5);
	assert_int_equal(l.padding, 3);
	assert_int_equal(l.members, 2);
	sf_layout_release(&l);
}

/* struct __attribute__((packed)) P { char a; int b; short c; }; */
static struct sf_member P_m[] = {
	MEM("a", "char", "", 0, 1, 1, SF_T_INT),
	MEM("b", "int", "", 1, 4, 4, SF_T_INT),
	MEM("c", "short int", "", 5, 2, 2, SF_T_INT),
};
static const struct sf_type P = TYPE("P", SF_KIND_STRUCT, 7, 1, P_m);

static void test_packed(void **state)
{
	struct sf_layout l;

	(void)state;
	sf_layout_compute(&P, 64, &l);
	assert_int_equal(l.nholes, 0);
	assert_int_equal(l.padding, 0);
	assert_int_equal(l.sum_members, 7);
	assert_int_equal(l.last_cacheline, 7);
	assert_accounts_for_size(&l);
	sf_layout_release(&l);
}

/* struct al { char a; int b __attribute__((aligned(16))); char c; }; */
static struct sf_member al_m[] = {
	MEM("a", "char", "", 0, 1, 1, SF_T_INT),
	FLAGGED("b", "int", 16, 4, 16, SF_T_INT, SF_MF_ALIGNED),
	MEM("c", "char", "", 20, 1, 1, SF_T_INT),
};
static const struct sf_type al = TYPE("al", SF_KIND_STRUCT, 32, 16, al_m);

static void test_forced_alignment(void **state)
{
	struct sf_layout l;

	(void)state;
	sf_layout_compute(&al, 64, &l);
	/* pahole: forced alignments: 1, forced holes: 1, sum forced holes: 15 */
	assert_int_equal(l.nforced_alignments, 1);
	assert_int_equal(l.nforced_holes, 1);
	assert_int_equal(l.sum_forced_holes, 15);
	assert_int_equal(l.sum_holes, 15);
	assert_int_equal(l.padding, 11);
	/* the forced hole is asked for: only the padding is waste */
	assert_int_equal(l.forced_padding, 0);
	assert_int_equal(sf_layout_forced(&l), 15);
	assert_int_equal(sf_layout_waste(&l), 11);
	assert_accounts_for_size(&l);
	sf_layout_release(&l);
}

/* struct empty {}; struct withempty { char a; struct empty e; int b; }; */
static struct sf_member withempty_m[] = {
	MEM("a", "char", "", 0, 1, 1, SF_T_INT),
	MEM("e", "struct empty", "", 1, 0, 1, SF_T_STRUCT),
	MEM("b", "int", "", 4, 4, 4, SF_T_INT),
};
static const struct sf_type withempty = TYPE("withempty", SF_KIND_STRUCT, 8, 4,
					     withempty_m);
static struct sf_member none_m[1];
static const struct sf_type empty = { .name = "empty", .size = 0, .align = 1,
				      .members = none_m, .nmembers = 0 };

static void test_zero_size_types_and_members(void **state)
{
	struct sf_layout l;

	(void)state;
	sf_layout_compute(&withempty, 64, &l);
	assert_int_equal(l.nholes, 1);
	assert_int_equal(l.holes[0].offset, 1);
	assert_int_equal(l.holes[0].size, 3);
	assert_int_equal(l.holes[0].after, 1);        /* pahole: after e */
	assert_int_equal(l.sum_members, 5);
	assert_accounts_for_size(&l);
	sf_layout_release(&l);

	sf_layout_compute(&empty, 64, &l);
	assert_int_equal(l.cachelines, 0);
	assert_int_equal(l.last_cacheline, 0);
	assert_int_equal(l.padding, 0);
	assert_int_equal(l.members, 0);
	assert_accounts_for_size(&l);
	sf_layout_release(&l);
}

/*
 * A gap before the first member (DWARF that leaves a member out, as some
 * compilers do for hidden fields): a hole charged to no member.
 */
static struct sf_member late_m[] = {
	MEM("a", "int", "", 4, 4, 4, SF_T_INT),
};
static const struct sf_type late = TYPE("late", SF_KIND_STRUCT, 8, 4, late_m);

static void test_hole_before_first_member(void **state)
{
	struct sf_layout l;

	(void)state;
	sf_layout_compute(&late, 64, &l);
	assert_int_equal(l.nholes, 1);
	assert_int_equal(l.holes[0].offset, 0);
	assert_int_equal(l.holes[0].size, 4);
	assert_int_equal(l.holes[0].after, SF_NO_MEMBER);
	assert_accounts_for_size(&l);
	sf_layout_release(&l);
}

/*
 * struct Empty {}; struct Base { int b; char bc; };
 * struct D1 : Empty { int x; char y; };        size 8
 * struct D2 : Base { char z; long w; };        size 24
 * struct M : Base, Empty { Empty e2; short s; };  size 12
 * pahole 1.24 leaves bases out of "sum members" (then prints "BRAIN FART
 * ALERT") and shows a 65528-byte hole in M (the empty base sits at offset
 * 0, under Base).  structfit counts a base like a member and only the bytes
 * no earlier member covered, so the numbers add up to the size.
 */
static struct sf_member d1_m[] = {
	FLAGGED("", "struct Empty", 0, 1, 1, SF_T_STRUCT, SF_MF_BASE),
	MEM("x", "int", "", 0, 4, 4, SF_T_INT),
	MEM("y", "char", "", 4, 1, 1, SF_T_INT),
};
static const struct sf_type d1 = TYPE("D1", SF_KIND_STRUCT, 8, 4, d1_m);
static struct sf_member d2_m[] = {
	FLAGGED("", "struct Base", 0, 8, 4, SF_T_STRUCT, SF_MF_BASE),
	MEM("z", "char", "", 8, 1, 1, SF_T_INT),
	MEM("w", "long int", "", 16, 8, 8, SF_T_INT),
};
static const struct sf_type d2 = TYPE("D2", SF_KIND_STRUCT, 24, 8, d2_m);
static struct sf_member m_m[] = {
	FLAGGED("", "struct Base", 0, 8, 4, SF_T_STRUCT, SF_MF_BASE),
	FLAGGED("", "struct Empty", 0, 1, 1, SF_T_STRUCT, SF_MF_BASE),
	MEM("e2", "struct Empty", "", 8, 1, 1, SF_T_STRUCT),
	MEM("s", "short int", "", 10, 2, 2, SF_T_INT),
};
static const struct sf_type mm = TYPE("M", SF_KIND_STRUCT, 12, 4, m_m);

static void test_cxx_bases(void **state)
{
	struct sf_layout l;

	(void)state;
	sf_layout_compute(&d1, 64, &l);
	assert_int_equal(l.members, 3);               /* pahole: 3 */
	assert_int_equal(l.nholes, 0);
	assert_int_equal(l.padding, 3);               /* pahole: 3 */
	assert_int_equal(l.sum_members, 5);           /* pahole: 5 */
	assert_true(l.irregular);                     /* x overlaps the base */
	sf_layout_release(&l);

	sf_layout_compute(&d2, 64, &l);
	assert_int_equal(l.nholes, 1);                /* pahole: 1 of 7 */
	assert_int_equal(l.holes[0].offset, 9);
	assert_int_equal(l.holes[0].size, 7);
	assert_int_equal(l.sum_members, 17);          /* pahole: 9 */
	assert_int_equal(l.padding, 0);
	assert_accounts_for_size(&l);
	sf_layout_release(&l);

	sf_layout_compute(&mm, 64, &l);
	assert_int_equal(l.members, 4);
	assert_int_equal(l.nholes, 1);                /* pahole: 3, sum 65538 */
	assert_int_equal(l.holes[0].offset, 9);
	assert_int_equal(l.holes[0].size, 1);
	assert_int_equal(l.holes[0].after, 2);
	assert_int_equal(l.sum_members, 11);
	assert_int_equal(l.padding, 0);
	assert_true(l.irregular);
	sf_layout_release(&l);
}

/*
 * struct VB : virtual Base { char q; };  size 24: the virtual base has no
 * fixed offset in DWARF; pahole skips it (padding 15) and so do we, while
 * still counting it as a member (pahole: members 3).
 */
static struct sf_member vb_m[] = {
	FLAGGED("", "struct Base", 0, 8, 4, SF_T_STRUCT, SF_MF_VIRTUAL_BASE),
	FLAGGED("_vptr.VB", "int (**", 0, 8, 8, SF_T_POINTER, SF_MF_VPTR),
	MEM("q", "char", "", 8, 1, 1, SF_T_INT),
};
static struct sf_type vb = TYPE("VB", SF_KIND_STRUCT, 24, 8, vb_m);

static void test_virtual_base_is_skipped(void **state)
{
	struct sf_layout l;

	(void)state;
	vb_m[1].type_suffix = ")(void)";
	sf_layout_compute(&vb, 64, &l);
	assert_int_equal(l.members, 3);
	assert_int_equal(l.nholes, 0);
	assert_int_equal(l.padding, 15);
	assert_int_equal(l.sum_members, 9);
	sf_layout_release(&l);
}

/* Nonsense from a broken input must not crash nor go negative. */
static struct sf_member bad_m[] = {
	MEM("a", "long int", "", 0, 8, 8, SF_T_INT),
	MEM("b", "long int", "", 12, 8, 8, SF_T_INT),   /* past the end */
	MEM("c", "char", "", 2, 1, 1, SF_T_INT),        /* goes backwards */
};
static const struct sf_type bad = TYPE("bad", SF_KIND_STRUCT, 16, 8, bad_m);
static struct sf_member far_m[] = {
	MEM("a", "char", "", 0, 1, 1, SF_T_INT),
	MEM("b", "char", "", 1000, 1, 1, SF_T_INT),    /* far past the end */
	BITF("c", "int", 4000, 4, 30, 7),               /* and a bit-field */
};
static const struct sf_type far = TYPE("far", SF_KIND_STRUCT, 4, 1, far_m);
static struct sf_member bad_nested_in_m[] = {
	MEM("x", "int", "", 0, 4, 4, SF_T_INT),          /* before its parent */
};
static const struct sf_type bad_nested_in = TYPE("", SF_KIND_STRUCT, 4, 4,
						 bad_nested_in_m);
static struct sf_member bad_nested_m[] = {
	MEM("a", "int", "", 0, 4, 4, SF_T_INT),
	NEST("", 4, 4, 4, SF_T_STRUCT, &bad_nested_in),
};
static const struct sf_type bad_nested = TYPE("bn", SF_KIND_STRUCT, 8, 4,
					      bad_nested_m);

/* fuzz_reader: a bit-field whose storage unit is 1.6 GB; its trailing
 * bits (2^34) were cut to 32 bits and the size equation asserted */
static struct sf_member huge_unit_m[] = {
	MEM("a", "int16_t", "", 0, 2, 2, SF_T_INT),
	MEM("b", "int64_t", "", 8, 8, 8, SF_T_INT),
	BITF("c", "int", 0, 1610612737, 253, 96),
};
static const struct sf_type huge_unit = TYPE("hu", SF_KIND_STRUCT, 4211081240u, 8,
					     huge_unit_m);

static void test_broken_models(void **state)
{
	struct sf_layout l;

	(void)state;
	sf_layout_compute(&bad, 64, &l);
	assert_true(l.irregular);
	assert_int_equal(l.nholes, 1);
	assert_int_equal(l.holes[0].offset, 8);
	assert_int_equal(l.holes[0].size, 4);
	assert_int_equal(l.padding, 0);               /* not 16 - 20 */
	sf_layout_release(&l);

	sf_layout_compute(&far, 64, &l);
	assert_true(l.irregular);
	assert_int_equal(l.padding, 0);
	assert_int_equal(l.bit_padding, 0);
	sf_layout_release(&l);

	sf_layout_compute(&bad_nested, 64, &l);
	assert_true(sf_layout_nested(&l, 1)->irregular);
	assert_int_equal(l.padding, 0);
	sf_layout_release(&l);

	sf_layout_compute(&huge_unit, 64, &l);
	assert_true(l.irregular);
	assert_int_equal(l.bit_padding, 0);
	sf_layout_release(&l);
}

/* struct inner { long a; char b; }; struct outer { struct inner i; char c; }; */
static void test_padding_of_member_structs_from_typeset(void **state)
{
	struct sf_typeset *ts = sf_typeset_new();
	struct sf_type *inner = sf_typeset_alloc(ts, sizeof(*inner));
	struct sf_member *im = sf_typeset_alloc(ts, 2 * sizeof(*im));
	struct sf_member om[2] = {
		MEM("i", "struct inner", "", 0, 16, 8, SF_T_STRUCT),
		MEM("c", "char", "", 16, 1, 1, SF_T_INT),
	};
	struct sf_type outer = TYPE("outer", SF_KIND_STRUCT, 24, 8, om);
	struct sf_layout_opts o = { .cacheline = 64,
				    .lookup = sf_layout_lookup_in_typeset,
				    .lookup_ctx = ts };
	struct sf_layout l;

	(void)state;
	im[0] = (struct sf_member)MEM("a", "long int", "", 0, 8, 8, SF_T_INT);
	im[1] = (struct sf_member)MEM("b", "char", "", 8, 1, 1, SF_T_INT);
	*inner = (struct sf_type){ .name = sf_typeset_intern(ts, "inner"),
				   .kind = SF_KIND_STRUCT, .size = 16,
				   .align = 8, .decl_file = "", .origin = "",
				   .members = im, .nmembers = 2 };
	sf_typeset_add(ts, inner);

	sf_layout_compute_opts(&outer, &o, &l);
	assert_int_equal(l.npaddings, 1);             /* pahole: paddings: 1 */
	assert_int_equal(l.paddings[0].member, 0);
	assert_int_equal(l.paddings[0].padding, 7);
	assert_int_equal(l.sum_paddings, 7);
	assert_int_equal(l.padding, 7);
	sf_layout_release(&l);

	/* a pointer, a typedef or a union is not looked into (as pahole) */
	om[0].type_name = "inner";              /* typedef struct ... inner */
	sf_layout_compute_opts(&outer, &o, &l);
	assert_int_equal(l.npaddings, 0);
	sf_layout_release(&l);
	om[0].type_name = "struct inner *";
	sf_layout_compute_opts(&outer, &o, &l);
	assert_int_equal(l.npaddings, 0);
	sf_layout_release(&l);
	om[0].type_name = "union inner";
	sf_layout_compute_opts(&outer, &o, &l);
	assert_int_equal(l.npaddings, 0);
	sf_layout_release(&l);
	sf_typeset_free(ts);
}

/* ---- ranking ----------------------------------------------------------- */

static struct sf_type rank_types[5];

static void make_rank_types(void)
{
	static const struct { const char *name; uint64_t size; uint32_t line; }
	spec[] = {
		{ "b", 40, 1 }, { "a", 40, 2 }, { "c", 16, 3 }, { "a", 24, 4 },
		{ "d", 100, 5 },
	};
	static struct sf_member pad_m[5][1];

	/* one member of 8 bytes at 0: waste is size - 8 */
	for (size_t i = 0; i < 5; i++) {
		pad_m[i][0] = (struct sf_member)MEM("x", "long int", "", 0, 8, 8,
						    SF_T_INT);
		rank_types[i] = (struct sf_type){
			.name = spec[i].name, .kind = SF_KIND_STRUCT,
			.size = spec[i].size, .align = 8, .decl_file = "r.c",
			.decl_line = spec[i].line, .origin = "r.o",
			.members = pad_m[i], .nmembers = 1,
		};
	}
}

static void ranked(const struct sf_rank_opts *o, struct sf_rank *r)
{
	sf_rank_init(r, o);
	for (size_t i = 0; i < 5; i++) {
		struct sf_layout l;
		sf_layout_compute(&rank_types[i], 64, &l);
		sf_rank_add(r, &rank_types[i], &l);
		sf_layout_release(&l);
	}
	sf_rank_finish(r);
}

static void test_rank_orders(void **state)
{
	struct sf_rank_opts o = { .sort = SF_RANK_BY_WASTE };
	struct sf_rank r;

	(void)state;
	make_rank_types();
	ranked(&o, &r);
	assert_int_equal(r.n, 5);
	/* waste 92 (d), then the two 32s by name (a before b), 16, 8 */
	assert_string_equal(r.v[0].type->name, "d");
	assert_int_equal(r.v[0].waste, 92);
	assert_int_equal(r.v[0].padding, 92);
	assert_string_equal(r.v[1].type->name, "a");
	assert_int_equal(r.v[1].size, 40);
	assert_string_equal(r.v[2].type->name, "b");
	assert_int_equal(r.v[3].waste, 16);
	assert_string_equal(r.v[4].type->name, "c");
	sf_rank_release(&r);

	o.sort = SF_RANK_BY_NAME;
	ranked(&o, &r);
	/* the two "a": larger first */
	assert_string_equal(r.v[0].type->name, "a");
	assert_int_equal(r.v[0].size, 40);
	assert_string_equal(r.v[1].type->name, "a");
	assert_int_equal(r.v[1].size, 24);
	assert_string_equal(r.v[4].type->name, "d");
	sf_rank_release(&r);

	o.sort = SF_RANK_BY_SIZE;
	ranked(&o, &r);
	assert_int_equal(r.v[0].size, 100);
	assert_string_equal(r.v[1].type->name, "a");   /* 40: a before b */
	assert_string_equal(r.v[2].type->name, "b");
	assert_int_equal(r.v[4].size, 16);
	sf_rank_release(&r);
}

static void test_rank_filters(void **state)
{
	struct sf_rank_opts o = { .sort = SF_RANK_BY_WASTE, .min_waste = 16 };
	struct sf_rank r;

	(void)state;
	make_rank_types();
	ranked(&o, &r);
	assert_int_equal(r.n, 4);                     /* c wastes 8 */
	assert_int_equal(r.v[3].waste, 16);
	sf_rank_release(&r);

	o.limit = 2;
	ranked(&o, &r);
	assert_int_equal(r.n, 2);
	assert_string_equal(r.v[1].type->name, "a");
	sf_rank_release(&r);

	o = (struct sf_rank_opts){ .min_waste = 1000 };
	ranked(&o, &r);
	assert_int_equal(r.n, 0);
	sf_rank_release(&r);
}

static void test_rank_parse_sort(void **state)
{
	enum sf_rank_sort s = SF_RANK_BY_WASTE;

	(void)state;
	assert_int_equal(sf_rank_parse_sort("size", &s), 0);
	assert_int_equal(s, SF_RANK_BY_SIZE);
	assert_int_equal(sf_rank_parse_sort("name", &s), 0);
	assert_int_equal(s, SF_RANK_BY_NAME);
	assert_int_equal(sf_rank_parse_sort("waste", &s), 0);
	assert_int_equal(s, SF_RANK_BY_WASTE);
	assert_int_equal(sf_rank_parse_sort("Waste", &s), -1);
	assert_int_equal(sf_rank_parse_sort("", &s), -1);
	assert_int_equal(sf_rank_parse_sort(NULL, &s), -1);
}

/*
 * A union member whose offset + size does not fit in 64 bits (corrupt
 * input: offset 2^64 - 3, 8 bytes) reaches past the end: the sum
 * saturates and the layout is irregular.  It wrapped to 5 before, read
 * as a union using 5 of its 16 bytes with 11 bytes of padding.
 */
static struct sf_member wrap_u[] = {
	MEM("i", "int", "", 0, 4, 4, SF_T_INT),
	MEM("far", "long", "", UINT64_MAX - 2, 8, 8, SF_T_INT),
};

static void test_union_end_saturates(void **state)
{
	(void)state;
	struct sf_type t = TYPE("wrap", SF_KIND_UNION, 16, 8, wrap_u);
	struct sf_layout l;

	sf_layout_compute(&t, 64, &l);
	assert_true(l.irregular);
	assert_int_equal(l.padding, 0);
	assert_int_equal(l.sum_members, 16);
	sf_layout_release(&l);
}

/*
 * Rust: enum Shape { Circle(f64), Rect { w: u32, h: u32 }, Empty } as
 * rustc 1.95 lays it out (x86_64, offsets from its DWARF and offset_of!):
 * a u32 tag at 0; Circle's f64 at 8, Rect's w at 4 and h at 8.  Every
 * byte is used by some variant: the enum wastes nothing all variants
 * share, while each variant leaves bytes unused.
 */
static struct sf_member shape_tag[] = {
	FLAGGED("<discriminant>", "u32", 0, 4, 4, SF_T_INT, SF_MF_DISCR),
};
static struct sf_member shape_circle[] = { MEM("__0", "f64", "", 8, 8, 8, SF_T_FLOAT) };
static struct sf_member shape_rect[] = {
	MEM("w", "u32", "", 4, 4, 4, SF_T_INT),
	MEM("h", "u32", "", 8, 4, 4, SF_T_INT),
};
static struct sf_variant shape_v[] = {
	{ .name = "Circle", .discr_value = 0, .has_discr_value = true,
	  .nmembers = N(shape_circle), .members = shape_circle },
	{ .name = "Rect", .discr_value = 1, .has_discr_value = true,
	  .nmembers = N(shape_rect), .members = shape_rect },
	{ .name = "Empty", .discr_value = 2, .has_discr_value = true },
};

static void test_enum_variants(void **state)
{
	(void)state;
	struct sf_type t = TYPE("yjit::Shape", SF_KIND_STRUCT, 16, 8, shape_tag);
	struct sf_layout l, vl;
	struct sf_type vt;

	t.nvariants = N(shape_v);
	t.variants = shape_v;
	sf_layout_compute(&t, 64, &l);
	assert_int_equal(l.nholes, 0);
	assert_int_equal(l.padding, 0);
	assert_int_equal(l.sum_members, 16);
	assert_int_equal(l.members, 4);
	/* the enum's layout carries each variant's, for the renderers: the
	 * same numbers as below, where each variant is laid out by hand */
	assert_int_equal(l.nvariants, 3);
	assert_string_equal(l.variants[0].type.name, "Circle");
	assert_int_equal(l.variants[0].layout.nholes, 1);
	assert_int_equal(l.variants[0].layout.holes[0].offset, 4);
	assert_int_equal(l.variants[1].layout.padding, 4);
	assert_int_equal(l.variants[2].layout.padding, 12);
	sf_layout_release(&l);
	assert_int_equal(l.nvariants, 0);
	/* laid out with the enum's cacheline */
	sf_layout_compute(&t, 8, &l);
	assert_int_equal(l.variants[0].layout.cacheline, 8);
	assert_int_equal(l.variants[0].layout.cachelines, 2);
	sf_layout_release(&l);

	/* Circle: the tag, a 4-byte hole, the f64 */
	struct sf_member *ms = sf_variant_type(&t, 0, &vt);
	assert_string_equal(vt.name, "Circle");
	assert_int_equal(vt.nmembers, 2);
	sf_layout_compute(&vt, 64, &vl);
	assert_int_equal(vl.nholes, 1);
	assert_int_equal(vl.holes[0].offset, 4);
	assert_int_equal(vl.sum_holes, 4);
	assert_int_equal(vl.padding, 0);
	assert_accounts_for_size(&vl);
	sf_layout_release(&vl);
	free(ms);
	/* Rect: the tag, w, h, 4 bytes of padding; Empty: the tag and 12 */
	ms = sf_variant_type(&t, 1, &vt);
	sf_layout_compute(&vt, 64, &vl);
	assert_int_equal(vl.nholes, 0);
	assert_int_equal(vl.padding, 4);
	sf_layout_release(&vl);
	free(ms);
	ms = sf_variant_type(&t, 2, &vt);
	sf_layout_compute(&vt, 64, &vl);
	assert_int_equal(vl.padding, 12);
	sf_layout_release(&vl);
	free(ms);
}

/* Option<NonNull<u8>>: the u64 "tag" is the pointer itself (a niche), so
 * Some holds only the pointer and None only the tag's bytes. */
static struct sf_member opt_tag[] = {
	FLAGGED("<discriminant>", "u64", 0, 8, 8, SF_T_INT, SF_MF_DISCR),
};
static struct sf_member opt_some[] = { MEM("__0", "yjit::CodePtrNN", "", 0, 8, 8, SF_T_STRUCT) };
static struct sf_variant opt_v[] = {
	{ .name = "None", .discr_value = 0, .has_discr_value = true },
	{ .name = "Some", .nmembers = N(opt_some), .members = opt_some },
};

static void test_enum_niche(void **state)
{
	(void)state;
	struct sf_type t = TYPE("Option<CodePtrNN>", SF_KIND_STRUCT, 8, 8, opt_tag);
	struct sf_layout l;
	struct sf_type vt;

	t.nvariants = N(opt_v);
	t.variants = opt_v;
	sf_layout_compute(&t, 64, &l);
	assert_int_equal(sf_layout_waste(&l), 0);
	sf_layout_release(&l);
	struct sf_member *ms = sf_variant_type(&t, 1, &vt);
	assert_int_equal(vt.nmembers, 1);
	assert_string_equal(vt.members[0].name, "__0");
	free(ms);
	ms = sf_variant_type(&t, 0, &vt);
	assert_int_equal(vt.nmembers, 1);
	assert_string_equal(vt.members[0].name, "<discriminant>");
	free(ms);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_st_table),
		cmocka_unit_test(test_bitfields),
		cmocka_unit_test(test_bit_holes_and_bit_padding),
		cmocka_unit_test(test_trailing_bits_and_bytes),
		cmocka_unit_test(test_nested_anonymous),
		cmocka_unit_test(test_union_has_no_holes_only_padding),
		cmocka_unit_test(test_packed),
		cmocka_unit_test(test_forced_alignment),
		cmocka_unit_test(test_zero_size_types_and_members),
		cmocka_unit_test(test_hole_before_first_member),
		cmocka_unit_test(test_cxx_bases),
		cmocka_unit_test(test_virtual_base_is_skipped),
		cmocka_unit_test(test_broken_models),
		cmocka_unit_test(test_padding_of_member_structs_from_typeset),
		cmocka_unit_test(test_rank_orders),
		cmocka_unit_test(test_rank_filters),
		cmocka_unit_test(test_rank_parse_sort),
		cmocka_unit_test(test_union_end_saturates),
		cmocka_unit_test(test_enum_variants),
		cmocka_unit_test(test_enum_niche),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
