/*
 * test_rust.c - layout/rust.c on hand-built models: which Options a
 * NonNull would shrink, what #[repr(packed)] gives, and which structs
 * rustc orders itself.
 *
 * The models repeat what rustc 1.95's DWARF says for testdata/rust/yjit.rs
 * (x86_64): CodePtr(*const u8), CodePtrNN(NonNull<u8>), Option<CodePtr>
 * 16 bytes with a u64 tag, Option<CodePtrNN> 8 bytes (a niche), Block's
 * fields d b e c a at 0 16 24 32 34.  tests/e2e/rust.sh checks the same
 * against the compiler.  No DWARF is read.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "layout/rust.h"

#define N(a) ((uint32_t)(sizeof(a) / sizeof((a)[0])))
#define MEM(n, ty, off, sz, al, tc) \
	{ .name = n, .type_name = ty, .type_suffix = "", .offset = off, .size = sz, \
	  .align = al, .tclass = tc, .flags = SF_MF_RUST }
#define TYPE(n, sz, arr, fl) \
	{ .name = n, .kind = SF_KIND_STRUCT, .size = sz, .align = 8, .decl_file = "", \
	  .nmembers = N(arr), .members = arr, .origin = "t", .addr_size = 8, \
	  .flags = SF_TF_RUST | (fl) }

static struct sf_member codeptr_m[] = { MEM("__0", "*const u8", 0, 8, 8, SF_T_POINTER) };
static struct sf_member codeptrnn_m[] = {
	MEM("pointer", "core::ptr::non_null::NonNull<u8>", 0, 8, 8, SF_T_STRUCT),
};
static struct sf_member tag_m[] = { MEM("<discriminant>", "u64", 0, 8, 8, SF_T_INT) };
static struct sf_member some_m[] = { MEM("__0", "yjit::CodePtr", 8, 8, 8, SF_T_STRUCT) };
static struct sf_member somenn_m[] = { MEM("__0", "yjit::CodePtrNN", 0, 8, 8, SF_T_STRUCT) };
static struct sf_variant opt_v[] = {
	{ .name = "None", .discr_value = 0, .has_discr_value = true },
	{ .name = "Some", .discr_value = 1, .has_discr_value = true, .nmembers = 1,
	  .members = some_m },
};
static struct sf_variant optnn_v[] = {
	{ .name = "None", .discr_value = 0, .has_discr_value = true },
	{ .name = "Some", .nmembers = 1, .members = somenn_m },
};
static struct sf_member block_m[] = {
	MEM("d", "core::option::Option<yjit::CodePtr>", 0, 16, 8, SF_T_STRUCT),
	MEM("b", "u64", 16, 8, 8, SF_T_INT),
	MEM("e", "core::option::Option<yjit::CodePtrNN>", 24, 8, 8, SF_T_STRUCT),
	MEM("c", "u16", 32, 2, 2, SF_T_INT),
	MEM("a", "u8", 34, 1, 1, SF_T_INT),
};

static struct sf_typeset *yjit(void)
{
	static struct sf_type codeptr = TYPE("yjit::CodePtr", 8, codeptr_m, 0);
	static struct sf_type codeptrnn = TYPE("yjit::CodePtrNN", 8, codeptrnn_m, 0);
	static struct sf_type opt = TYPE("core::option::Option<yjit::CodePtr>", 16, tag_m, 0);
	static struct sf_type optnn = TYPE("core::option::Option<yjit::CodePtrNN>", 8, tag_m,
					   SF_TF_NICHE);
	struct sf_typeset *ts = sf_typeset_new();

	opt.nvariants = N(opt_v);
	opt.variants = opt_v;
	optnn.nvariants = N(optnn_v);
	optnn.variants = optnn_v;
	sf_typeset_add(ts, &codeptr);
	sf_typeset_add(ts, &codeptrnn);
	sf_typeset_add(ts, &opt);
	sf_typeset_add(ts, &optnn);
	return ts;
}

static void test_niche_of_a_newtype_over_a_raw_pointer(void **state)
{
	(void)state;
	struct sf_typeset *ts = yjit();
	struct sf_type block = TYPE("yjit::Block", 40, block_m, SF_TF_REORDERED);
	struct sf_niche n[4];

	/* d's Option is tagged and its CodePtr holds a raw pointer; e's is
	 * already a niche */
	assert_int_equal(sf_rust_niches(&block, ts, n, 4), 1);
	assert_int_equal(n[0].member, 0);
	assert_string_equal(n[0].option, "core::option::Option<yjit::CodePtr>");
	assert_string_equal(n[0].payload, "yjit::CodePtr");
	assert_string_equal(n[0].pointer, "*const u8");
	assert_int_equal(n[0].from, 16);
	assert_int_equal(n[0].to, 8);
	/* a C struct gets no Rust proposals */
	block.flags &= (uint16_t)~SF_TF_RUST;
	assert_int_equal(sf_rust_niches(&block, ts, n, 4), 0);
	sf_typeset_free(ts);
}

static void test_packed_and_order(void **state)
{
	(void)state;
	struct sf_type block = TYPE("yjit::Block", 40, block_m, SF_TF_REORDERED);

	/* 16 + 8 + 8 + 2 + 1 */
	assert_int_equal(sf_rust_packed_size(&block), 35);
	assert_true(sf_rust_compiler_orders(&block));
	block.flags &= (uint16_t)~SF_TF_REORDERED;
	assert_false(sf_rust_compiler_orders(&block));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_niche_of_a_newtype_over_a_raw_pointer),
		cmocka_unit_test(test_packed_and_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
