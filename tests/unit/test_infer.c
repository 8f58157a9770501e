/*
 * test_infer.c - model/infer.c and model/packing.c on hand-built models.
 *
 * The inference gets what a loader reads off DWARF or BTF - offsets,
 * sizes, each member type's natural alignment - and must find what the
 * input leaves out.  The oracle is the compiler that builds this test:
 * each C case declares the real struct (packed, aligned, bit-fields,
 * incomplete members) and builds its model from offsetof/sizeof, then
 * compares the inferred alignment and packing with _Alignof.  C++ virtual
 * bases and empty classes cannot be declared in C: their expected offsets
 * are g++ 12's (x86_64) for the declaration in the comment, the same
 * numbers test_dwarf_cxx and tests/e2e/cxx.sh check through DWARF.
 * No DWARF is read.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "model/infer.h"
#include "model/packing.h"
#include "model_util.h"

/* ---- packing from the type's own layout --------------------------------- */

struct __attribute__((packed)) packed_tail {
	short s;
	long long ll;
	char c;
};

struct natural {
	char c;
	int i;
	long long ll;
};

/* packed_inner of testdata/e2e/packed.c: on LP64 its size (12) is no
 * multiple of its widest member's alignment (8) */
struct __attribute__((packed)) packed_inner {
	unsigned long func;
	int depth;
};

/* Set each member's alignment to its type's natural one, as the loaders
 * do before the inference (packing may lower it). */
static void align_members(struct sf_type *t, const uint32_t *natural)
{
	for (uint32_t i = 0; i < t->nmembers; i++)
		t->members[i].align = natural[i];
}

static void test_packed_by_size(void **state)
{
	(void)state;
	struct sf_member m[] = {
		C_MEM(struct packed_tail, s, 2), C_MEM(struct packed_tail, ll, 8),
		C_MEM(struct packed_tail, c, 1),
	};
	struct sf_type t = C_TYPE(SF_KIND_STRUCT, struct packed_tail, m);
	const uint32_t natural[] = { _Alignof(short), _Alignof(long long), 1 };

	align_members(&t, natural);
	sf_infer_packing(&t, natural, 0, 0, NULL);
	assert_true(t.flags & SF_TF_PACKED);
	assert_int_equal(t.align, _Alignof(struct packed_tail));
	assert_int_equal(t.natural_align, _Alignof(long long));

	struct sf_member m2[] = {
		C_MEM(struct packed_inner, func, 8), C_MEM(struct packed_inner, depth, 4),
	};
	struct sf_type t2 = C_TYPE(SF_KIND_STRUCT, struct packed_inner, m2);
	const uint32_t natural2[] = { _Alignof(unsigned long), _Alignof(int) };

	align_members(&t2, natural2);
	sf_infer_packing(&t2, natural2, 0, 0, NULL);
	assert_true(t2.flags & SF_TF_PACKED);
	assert_int_equal(t2.align, _Alignof(struct packed_inner));
}

static void test_natural_not_packed(void **state)
{
	(void)state;
	struct sf_member m[] = {
		C_MEM(struct natural, c, 1), C_MEM(struct natural, i, 4),
		C_MEM(struct natural, ll, 8),
	};
	struct sf_type t = C_TYPE(SF_KIND_STRUCT, struct natural, m);
	const uint32_t natural[] = { 1, _Alignof(int), _Alignof(long long) };

	align_members(&t, natural);
	sf_infer_packing(&t, natural, 0, 0, NULL);
	assert_false(t.flags & (SF_TF_PACKED | SF_TF_ALIGNED));
	assert_int_equal(t.align, _Alignof(struct natural));
}

/* ---- packing shown by a container ---------------------------------------- */

/* Packed, yet its own layout looks natural (size 8, members aligned):
 * only where holds_packed puts it shows it. */
struct __attribute__((packed)) looks_natural {
	int a;
	int b;
};

struct holds_packed {
	char c;
	struct looks_natural in;   /* offset 1 */
	int x;                     /* a 3-byte hole before: not packed */
};

/* A loader's view of member types: one aggregate, for member `agg_at`. */
struct fake_loader {
	uint32_t agg_at;
	uint32_t natural;          /* the aggregate's natural alignment */
	int packed;                /* marked packed */
	uint32_t packed_to;        /* its alignment once packed */
	unsigned marks;
};

static uint32_t fake_witness(void *ctx, uint32_t i)
{
	struct fake_loader *f = ctx;

	return i == f->agg_at ? f->natural : 0;
}

static void fake_mark(void *ctx, uint32_t i)
{
	struct fake_loader *f = ctx;

	assert_int_equal(i, f->agg_at);
	f->packed = 1;
	f->marks++;
}

static uint32_t fake_align(void *ctx, uint32_t i)
{
	struct fake_loader *f = ctx;

	return i == f->agg_at && f->packed ? f->packed_to : 0;
}

static void test_packed_shown_by_container(void **state)
{
	(void)state;
	/* on its own: natural, 4-aligned - the DWARF cannot tell more */
	struct sf_member in[] = {
		C_MEM(struct looks_natural, a, 4), C_MEM(struct looks_natural, b, 4),
	};
	struct sf_type tin = C_TYPE(SF_KIND_STRUCT, struct looks_natural, in);
	const uint32_t nin[] = { _Alignof(int), _Alignof(int) };

	align_members(&tin, nin);
	sf_infer_packing(&tin, nin, 0, 0, NULL);
	assert_false(tin.flags & SF_TF_PACKED);
	assert_int_equal(tin.natural_align, _Alignof(int));

	/* holds_packed holds it at offset 1: it is packed */
	struct sf_member m[] = {
		C_MEM(struct holds_packed, c, 1),
		C_MEM(struct holds_packed, in, sizeof(struct looks_natural)),
		C_MEM(struct holds_packed, x, 4),
	};
	struct sf_type t = C_TYPE(SF_KIND_STRUCT, struct holds_packed, m);
	const uint32_t natural[] = { 1, tin.natural_align, _Alignof(int) };
	struct fake_loader f = { 1, tin.natural_align, 0, 1, 0 };
	struct sf_packing_oracle o = { &f, fake_witness, fake_mark, fake_align, 0 };

	align_members(&t, natural);
	m[1].align = tin.align;
	sf_infer_packing(&t, natural, 0, 0, &o);
	assert_int_equal(f.marks, 1);
	assert_false(t.flags & SF_TF_PACKED);
	assert_int_equal(m[1].align, _Alignof(struct looks_natural));
	assert_int_equal(t.align, _Alignof(struct holds_packed));

	/* laid out again with the mark: the compiler's alignment */
	sf_infer_packing(&tin, nin, 0, 1, NULL);
	assert_true(tin.flags & SF_TF_PACKED);
	assert_int_equal(tin.align, _Alignof(struct looks_natural));
}

/* sctp_paddrparams: packed and aligned(4), so it has padding, and the
 * not-packed storage at offset 4 proves nothing */
struct storage {
	long a;
	long b;
};

struct __attribute__((packed, aligned(4))) paddrparams {
	int id;
	struct storage s;          /* offset 4 */
	char c;                    /* then 3 bytes of padding */
};

static void test_aligned_attribute_no_evidence(void **state)
{
	(void)state;
	struct sf_member m[] = {
		C_MEM(struct paddrparams, id, 4), C_MEM(struct paddrparams, s, sizeof(struct storage)),
		C_MEM(struct paddrparams, c, 1),
	};
	struct sf_type t = C_TYPE(SF_KIND_STRUCT, struct paddrparams, m);
	const uint32_t natural[] = { _Alignof(int), _Alignof(struct storage), 1 };
	struct fake_loader f = { 1, _Alignof(struct storage), 0, 1, 0 };
	struct sf_packing_oracle o = { &f, fake_witness, fake_mark, fake_align, 0 };

	/* DWARF states the attribute (DW_AT_alignment 4) */
	align_members(&t, natural);
	sf_infer_packing(&t, natural, _Alignof(struct paddrparams), 0, &o);
	assert_true(t.flags & SF_TF_ALIGNED);
	assert_int_equal(t.align, _Alignof(struct paddrparams));
	assert_int_equal(f.marks, 0);

	/* BTF drops it: the padding (a gap) must still prove nothing */
	struct sf_type t2 = C_TYPE(SF_KIND_STRUCT, struct paddrparams, m);
	o.aligned_hidden = 1;
	align_members(&t2, natural);
	sf_infer_packing(&t2, natural, 0, 0, &o);
	assert_int_equal(f.marks, 0);
	/* marked, storage would align to 1: the compiler says otherwise */
	assert_true(_Alignof(struct storage) > 1);
}

/* ---- aligned attributes BTF drops ----------------------------------------- */

struct cacheline_member {
	int a;
	int b __attribute__((aligned(64)));
};

static void test_aligned_attrs_inferred(void **state)
{
	(void)state;
	struct sf_member m[] = {
		C_MEM(struct cacheline_member, a, 4), C_MEM(struct cacheline_member, b, 4),
	};
	struct sf_type t = C_TYPE(SF_KIND_STRUCT, struct cacheline_member, m);
	const uint32_t natural[] = { _Alignof(int), _Alignof(int) };

	align_members(&t, natural);
	uint32_t attr = sf_infer_aligned_attrs(&t, natural, 64);
	assert_true(m[1].flags & SF_MF_ALIGNED);
	assert_int_equal(m[1].align, 64);
	assert_false(m[0].flags & SF_MF_ALIGNED);
	sf_infer_packing(&t, natural, attr, 0, NULL);
	assert_int_equal(t.align, _Alignof(struct cacheline_member));

	/* nothing to infer in a natural layout */
	struct sf_member n[] = {
		C_MEM(struct natural, c, 1), C_MEM(struct natural, i, 4), C_MEM(struct natural, ll, 8),
	};
	struct sf_type tn = C_TYPE(SF_KIND_STRUCT, struct natural, n);
	const uint32_t nn[] = { 1, _Alignof(int), _Alignof(long long) };
	align_members(&tn, nn);
	assert_int_equal(sf_infer_aligned_attrs(&tn, nn, 64), 0);
	for (uint32_t i = 0; i < tn.nmembers; i++)
		assert_false(n[i].flags & SF_MF_ALIGNED);
}

/* ---- the pass both loaders call ------------------------------------------- */

/* The same declaration as DWARF states it (the member's aligned attribute
 * given) and as BTF does (dropped: the pass guesses it, as pahole does)
 * reads the same after sf_model_infer; what a holder needs comes out. */
static void test_model_pass(void **state)
{
	(void)state;
	struct sf_member dm[] = {
		C_MEM(struct cacheline_member, a, 4), C_MEM(struct cacheline_member, b, 4),
	};
	struct sf_member bm[] = {
		C_MEM(struct cacheline_member, a, 4), C_MEM(struct cacheline_member, b, 4),
	};
	struct sf_type dt = C_TYPE(SF_KIND_STRUCT, struct cacheline_member, dm);
	struct sf_type bt = C_TYPE(SF_KIND_STRUCT, struct cacheline_member, bm);
	const uint32_t natural[] = { _Alignof(int), _Alignof(int) };
	struct sf_inferred dgot, bgot;

	align_members(&dt, natural);
	align_members(&bt, natural);
	/* DWARF: DW_AT_alignment 64 on b */
	dm[1].align = 64;
	dm[1].flags |= SF_MF_ALIGNED;
	struct sf_infer_in din = { .natural = natural, .incomplete = true };
	sf_model_infer(&dt, &din, &dgot);
	/* BTF: nothing said */
	struct sf_infer_in bin = { .natural = natural, .guess_aligned = 64, .incomplete = true };
	sf_model_infer(&bt, &bin, &bgot);
	for (int k = 0; k < 2; k++) {
		const struct sf_type *t = k ? &bt : &dt;
		assert_int_equal(t->align, _Alignof(struct cacheline_member));
		assert_int_equal(t->natural_align, _Alignof(int));
		assert_false(t->flags & SF_TF_PACKED);
		assert_int_equal(t->members[1].align, 64);
		assert_true(t->members[1].flags & SF_MF_ALIGNED);
		assert_false(t->members[0].flags & SF_MF_ALIGNED);
	}
	/* data: up to b's end, the padding after it is not */
	assert_int_equal(dgot.dsize, offsetof(struct cacheline_member, b) + 4);
	assert_int_equal(bgot.dsize, dgot.dsize);
	assert_false(dgot.empty);

	/* the container's evidence goes through the oracle: holds_packed
	 * holds looks_natural at offset 1 */
	struct sf_member m[] = {
		C_MEM(struct holds_packed, c, 1),
		C_MEM(struct holds_packed, in, sizeof(struct looks_natural)),
		C_MEM(struct holds_packed, x, 4),
	};
	struct sf_type t = C_TYPE(SF_KIND_STRUCT, struct holds_packed, m);
	const uint32_t hn[] = { 1, _Alignof(int), _Alignof(int) };
	struct fake_loader f = { 1, _Alignof(int), 0, 1, 0 };
	struct sf_packing_oracle o = { &f, fake_witness, fake_mark, fake_align, 0 };
	struct sf_infer_in hin = { .natural = hn, .incomplete = true, .oracle = &o };
	align_members(&t, hn);
	sf_model_infer(&t, &hin, NULL);
	assert_int_equal(f.marks, 1);
	assert_int_equal(m[1].align, _Alignof(struct looks_natural));
	assert_int_equal(t.align, _Alignof(struct holds_packed));

	/* an empty C++ class is one only from a C++ unit */
	struct sf_type e = { .name = "E", .kind = SF_KIND_STRUCT, .size = 1, .align = 1,
			     .decl_file = "", .nmembers = 0, .members = NULL };
	struct sf_infer_in ein = { .natural = NULL };
	struct sf_inferred egot;
	sf_model_infer(&e, &ein, &egot);
	assert_false(egot.empty);
	e.flags |= SF_TF_CXX;
	sf_model_infer(&e, &ein, &egot);
	assert_true(egot.empty);
	assert_int_equal(egot.dsize, 0);
}

/* ---- bit-fields ------------------------------------------------------------ */

struct bits {
	unsigned a : 3;
	unsigned b : 5;
	char c;
	unsigned d : 20;
};

static void test_bitfields(void **state)
{
	(void)state;
	/* as gcc's DWARF reads in the model, out of order: a and b in the
	 * storage unit at 0, c at 1, d (20 bits do not fit after c) in the
	 * unit at 4 */
	struct sf_member m[] = {
		{ .name = "d", .type_name = "unsigned int", .type_suffix = "", .offset = 4,
		  .size = 4, .bit_offset = 0, .bit_size = 20, .align = 4, .flags = SF_MF_BITFIELD },
		{ .name = "a", .type_name = "unsigned int", .type_suffix = "", .offset = 0,
		  .size = 4, .bit_offset = 0, .bit_size = 3, .align = 4, .flags = SF_MF_BITFIELD },
		C_MEM(struct bits, c, 1),
		{ .name = "b", .type_name = "unsigned int", .type_suffix = "", .offset = 0,
		  .size = 4, .bit_offset = 3, .bit_size = 5, .align = 4, .flags = SF_MF_BITFIELD },
	};
	uint32_t a[4], b[4];

	assert_false(sf_in_memory_order(m, 4));
	uint32_t *order = sf_memory_order(m, 4, a, b);
	const char *want[] = { "a", "b", "c", "d" };
	for (int i = 0; i < 4; i++)
		assert_string_equal(m[order[i]].name, want[i]);

	struct sf_member s[4];
	for (int i = 0; i < 4; i++)
		s[i] = m[order[i]];
	assert_true(sf_in_memory_order(s, 4));
	struct sf_type t = C_TYPE(SF_KIND_STRUCT, struct bits, s);
	const uint32_t natural[] = { 4, 4, 1, 4 };
	sf_infer_packing(&t, natural, 0, 0, NULL);
	assert_false(t.flags & SF_TF_PACKED);
	assert_int_equal(t.align, _Alignof(struct bits));
	/* a bit-field's data ends with its last bit's byte: 20 bits from 4 */
	assert_int_equal(sf_member_data_end(&s[3], SF_DSIZE_UNKNOWN), 4 + (20 + 7) / 8);
	assert_int_equal(sf_member_data_end(&s[2], SF_DSIZE_UNKNOWN), offsetof(struct bits, c) + 1);
}

/* ---- incomplete members ------------------------------------------------------ */

struct opaque {
	char x[16];
};

struct holds_opaque {
	int a;
	struct opaque o;           /* only declared in the unit read */
	int b;                     /* right after o: no padding between */
};

static void test_incomplete_room(void **state)
{
	(void)state;
	struct sf_member m[] = {
		C_MEM(struct holds_opaque, a, 4), C_MEM(struct holds_opaque, o, 0),
		C_MEM(struct holds_opaque, b, 4),
	};
	struct sf_type t = C_TYPE(SF_KIND_STRUCT, struct holds_opaque, m);

	m[1].flags = SF_MF_INCOMPLETE;
	sf_fit_to_neighbours(&t, 1);
	/* the room up to b: the type's size, as no padding follows it */
	assert_int_equal(offsetof(struct holds_opaque, b),
			 offsetof(struct holds_opaque, o) + sizeof(struct opaque));
	assert_int_equal(m[1].size, sizeof(struct opaque));
	assert_int_equal(m[0].size, 4);

	/* last member: up to the end of the type */
	struct sf_member last[] = { C_MEM(struct holds_opaque, a, 4), C_MEM(struct holds_opaque, o, 0) };
	struct sf_type tl = C_TYPE(SF_KIND_STRUCT, struct holds_opaque, last);
	last[1].flags = SF_MF_INCOMPLETE;
	sf_fit_to_neighbours(&tl, 1);
	assert_int_equal(last[1].size, sizeof(struct holds_opaque) - offsetof(struct holds_opaque, o));

	/* `incomplete` 0 (a pending type finished later): left alone */
	struct sf_member keep[] = { C_MEM(struct holds_opaque, a, 4), C_MEM(struct holds_opaque, o, 0) };
	struct sf_type tk = C_TYPE(SF_KIND_STRUCT, struct holds_opaque, keep);
	keep[1].flags = SF_MF_INCOMPLETE;
	sf_fit_to_neighbours(&tk, 0);
	assert_int_equal(keep[1].size, 0);
}

static void test_incomplete_never_invents(void **state)
{
	(void)state;
	/* another member of some size starts where it does: that one has
	 * the bytes, the unknown one gets none */
	struct sf_member m[] = {
		{ .name = "u", .type_name = "struct u", .type_suffix = "", .offset = 0,
		  .size = 0, .align = 1, .flags = SF_MF_INCOMPLETE },
		{ .name = "x", .type_name = "long", .type_suffix = "", .offset = 0, .size = 8, .align = 8 },
	};
	struct sf_type t = { .name = "s", .kind = SF_KIND_STRUCT, .size = 8, .align = 8,
			     .decl_file = "", .nmembers = 2, .members = m };
	sf_fit_to_neighbours(&t, 1);
	assert_int_equal(m[0].size, 0);

	/* corrupt: the next member starts past the type's end - the room
	 * stops at the end */
	struct sf_member c[] = {
		{ .name = "u", .type_name = "struct u", .type_suffix = "", .offset = 4,
		  .size = 0, .align = 1, .flags = SF_MF_INCOMPLETE },
		{ .name = "x", .type_name = "int", .type_suffix = "", .offset = 100, .size = 4, .align = 4 },
	};
	struct sf_type tc = { .name = "c", .kind = SF_KIND_STRUCT, .size = 16, .align = 4,
			      .decl_file = "", .nmembers = 2, .members = c };
	sf_fit_to_neighbours(&tc, 1);
	assert_int_equal(c[0].size, 12);

	/* a union: the room is the union's */
	struct sf_member u[] = {
		{ .name = "u", .type_name = "struct u", .type_suffix = "", .offset = 0,
		  .size = 0, .align = 1, .flags = SF_MF_INCOMPLETE },
		{ .name = "x", .type_name = "int", .type_suffix = "", .offset = 0, .size = 4, .align = 4 },
	};
	struct sf_type tu = { .name = "u", .kind = SF_KIND_UNION, .size = 24, .align = 4,
			      .decl_file = "", .nmembers = 2, .members = u };
	sf_fit_to_neighbours(&tu, 1);
	assert_int_equal(u[0].size, 24);
}

/* ---- C++: virtual bases, empty classes -------------------------------------- */

/*
 * struct A { virtual ~A(); int x; };          sizeof 16, data ends at 12
 * struct V { int v; };
 * struct D : A, virtual V { char c; };        sizeof 24: c at 12, V at 16
 * struct B { virtual void f(); char b; };     sizeof 16, data ends at 9
 * struct Vc { char z; };
 * struct C : B, virtual Vc { };               sizeof 16: Vc at 9 (B's tail)
 */
static void test_virtual_bases(void **state)
{
	(void)state;
	struct sf_member d[] = {
		{ .name = "A", .type_name = "A", .type_suffix = "", .offset = 0, .size = 16,
		  .align = 8, .flags = SF_MF_BASE },
		{ .name = "V", .type_name = "V", .type_suffix = "", .offset = 0, .size = 4,
		  .align = 4, .flags = SF_MF_BASE | SF_MF_VIRTUAL_BASE },
		{ .name = "c", .type_name = "char", .type_suffix = "", .offset = 12, .size = 1, .align = 1 },
	};
	const uint8_t dun[] = { 0, 1, 0 };
	const uint64_t ddsize[] = { 12, 4, SF_DSIZE_UNKNOWN };

	sf_place_virtual_bases(d, 3, dun, ddsize, 24);
	assert_int_equal(d[1].offset, 16);
	uint32_t a[3], b[3];
	uint32_t *order = sf_memory_order(d, 3, a, b);
	assert_string_equal(d[order[0]].name, "A");
	assert_string_equal(d[order[1]].name, "c");
	assert_string_equal(d[order[2]].name, "V");	/* virtual bases last */

	struct sf_member c[] = {
		{ .name = "B", .type_name = "B", .type_suffix = "", .offset = 0, .size = 16,
		  .align = 8, .flags = SF_MF_BASE },
		{ .name = "Vc", .type_name = "Vc", .type_suffix = "", .offset = 0, .size = 1,
		  .align = 1, .flags = SF_MF_BASE | SF_MF_VIRTUAL_BASE },
	};
	const uint8_t cun[] = { 0, 1 };
	const uint64_t cdsize[] = { 9, 1 };
	struct sf_type tc = { .name = "C", .kind = SF_KIND_STRUCT, .size = 16, .align = 8,
			      .decl_file = "", .nmembers = 2, .members = c };

	sf_place_virtual_bases(c, 2, cun, cdsize, 16);
	assert_int_equal(c[1].offset, 9);
	/* B is cut where Vc starts in its tail; C's own data ends with B's */
	sf_fit_to_neighbours(&tc, 1);
	assert_int_equal(c[0].size, 9);
	assert_int_equal(sf_data_size(&tc, cdsize), 9);

	/* corrupt sizes: a virtual base bigger than the type stays inside */
	struct sf_member h[] = {
		{ .name = "H", .type_name = "H", .type_suffix = "", .offset = 0,
		  .size = UINT64_MAX - 1, .align = 8, .flags = SF_MF_BASE | SF_MF_VIRTUAL_BASE },
	};
	const uint8_t hun[] = { 1 };
	sf_place_virtual_bases(h, 1, hun, NULL, 16);
	assert_int_equal(h[0].offset, 0);
}

/*
 * struct E {};              sizeof 1: an empty class
 * struct F : E {};          sizeof 1: E takes no room (empty base), F is empty too
 * struct G : E { char g; }; not empty
 */
static void test_empty_class(void **state)
{
	(void)state;
	struct sf_type e = { .name = "E", .kind = SF_KIND_STRUCT, .size = 1, .align = 1,
			     .decl_file = "", .nmembers = 0, .members = NULL };
	struct sf_member fm[] = {
		{ .name = "E", .type_name = "E", .type_suffix = "", .offset = 0, .size = 0,
		  .align = 1, .flags = SF_MF_BASE },
	};
	struct sf_type f = { .name = "F", .kind = SF_KIND_STRUCT, .size = 1, .align = 1,
			     .decl_file = "", .nmembers = 1, .members = fm };
	struct sf_member gm[] = {
		fm[0],
		{ .name = "g", .type_name = "char", .type_suffix = "", .offset = 0, .size = 1, .align = 1 },
	};
	struct sf_type g = { .name = "G", .kind = SF_KIND_STRUCT, .size = 1, .align = 1,
			     .decl_file = "", .nmembers = 2, .members = gm };
	struct sf_type u = e;
	/* alignas(4): four bytes, still empty (HotSpot's StackObj); four
	 * bytes without the attribute are not known to be */
	struct sf_type a4 = e, n4 = e;

	a4.size = a4.align = 4;
	a4.flags = SF_TF_ALIGNED;
	n4.size = n4.align = 4;
	u.kind = SF_KIND_UNION;
	assert_true(sf_is_empty_class(&a4));
	assert_false(sf_is_empty_class(&n4));
	assert_true(sf_is_empty_class(&e));
	assert_true(sf_is_empty_class(&f));
	assert_false(sf_is_empty_class(&g));
	assert_false(sf_is_empty_class(&u));
}

/* ---- saturation ----------------------------------------------------------------- */

static void test_data_end_saturates(void **state)
{
	(void)state;
	struct sf_member m = { .name = "m", .type_name = "t", .type_suffix = "",
			       .offset = UINT64_MAX - 4, .size = 8, .align = 1 };

	/* not (2^64 - 5 + 8) mod 2^64 = 3 */
	assert_int_equal(sf_member_data_end(&m, SF_DSIZE_UNKNOWN), UINT64_MAX);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_packed_by_size),
		cmocka_unit_test(test_natural_not_packed),
		cmocka_unit_test(test_packed_shown_by_container),
		cmocka_unit_test(test_aligned_attribute_no_evidence),
		cmocka_unit_test(test_aligned_attrs_inferred),
		cmocka_unit_test(test_model_pass),
		cmocka_unit_test(test_bitfields),
		cmocka_unit_test(test_incomplete_room),
		cmocka_unit_test(test_incomplete_never_invents),
		cmocka_unit_test(test_virtual_bases),
		cmocka_unit_test(test_empty_class),
		cmocka_unit_test(test_data_end_saturates),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
