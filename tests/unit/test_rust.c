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
#include "layout/rustpatch.h"
#include "report/patch.h"
#include "lib/strbuf.h"
#include "model_util.h"

static struct sf_member codeptr_m[] = { RUST_MEM("__0", "*const u8", 0, 8, 8, SF_T_POINTER) };
static struct sf_member codeptrnn_m[] = {
	RUST_MEM("pointer", "core::ptr::non_null::NonNull<u8>", 0, 8, 8, SF_T_STRUCT),
};
static struct sf_member tag_m[] = { RUST_MEM("<discriminant>", "u64", 0, 8, 8, SF_T_INT) };
static struct sf_member some_m[] = { RUST_MEM("__0", "yjit::CodePtr", 8, 8, 8, SF_T_STRUCT) };
static struct sf_member somenn_m[] = { RUST_MEM("__0", "yjit::CodePtrNN", 0, 8, 8, SF_T_STRUCT) };
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
	RUST_MEM("d", "core::option::Option<yjit::CodePtr>", 0, 16, 8, SF_T_STRUCT),
	RUST_MEM("b", "u64", 16, 8, 8, SF_T_INT),
	RUST_MEM("e", "core::option::Option<yjit::CodePtrNN>", 24, 8, 8, SF_T_STRUCT),
	RUST_MEM("c", "u16", 32, 2, 2, SF_T_INT),
	RUST_MEM("a", "u8", 34, 1, 1, SF_T_INT),
};

static struct sf_typeset *yjit(void)
{
	static struct sf_type codeptr = RUST_TYPE("yjit::CodePtr", 8, codeptr_m, 0);
	static struct sf_type codeptrnn = RUST_TYPE("yjit::CodePtrNN", 8, codeptrnn_m, 0);
	static struct sf_type opt = RUST_TYPE("core::option::Option<yjit::CodePtr>", 16, tag_m, 0);
	static struct sf_type optnn = RUST_TYPE("core::option::Option<yjit::CodePtrNN>", 8,
						tag_m, SF_TF_NICHE);
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
	struct sf_type block = RUST_TYPE("yjit::Block", 40, block_m, SF_TF_REORDERED);
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
	struct sf_type block = RUST_TYPE("yjit::Block", 40, block_m, SF_TF_REORDERED);

	/* 16 + 8 + 8 + 2 + 1 */
	assert_int_equal(sf_rust_packed_size(&block), 35);
	assert_true(sf_rust_compiler_orders(&block));
	block.flags &= (uint16_t)~SF_TF_REORDERED;
	assert_false(sf_rust_compiler_orders(&block));
}

/* #[repr(C)] struct Header { tag: u8, len: u64, id: u32 } */
static struct sf_member header_m[] = {
	RUST_MEM("tag", "u8", 0, 1, 1, SF_T_INT),
	RUST_MEM("len", "u64", 8, 8, 8, SF_T_INT),
	RUST_MEM("id", "u32", 16, 4, 4, SF_T_INT),
};

static const char header_src[] =
	"use std::ptr::NonNull;\n"
	"#[repr(C)]\n"
	"pub struct Header {\n"
	"    tag: u8,\n"
	"    // bytes that follow\n"
	"    len: u64,\n"
	"    pub(crate) id: u32\n"
	"}\n"
	"pub struct Tup(*const u8);\n";

/* sf_rustpatch_make on "h.rs", its refusal worded into err */
static int rust_make(const char *text, size_t len, const struct sf_type *t,
		     const struct sf_srcpatch_plan *plan, struct strbuf *out,
		     struct sf_err *err)
{
	struct sf_rustpatch_refusal why;

	if (sf_rustpatch_make(text, len, t, plan, out, &why) == 0)
		return 0;
	return sf_rustpatch_refusal_err("h.rs", &why, err);
}

static void test_rustpatch_reorder_and_narrow(void **state)
{
	(void)state;
	struct sf_type t = RUST_TYPE("yjit::Header", 24, header_m, 0);
	const uint32_t order[] = { 0, 2, 1 };
	const struct sf_srcpatch_narrow nw[] = { { 1, 2 } };
	struct sf_srcpatch_plan plan = { order, 3, nw, 1, NULL, NULL, &sf_patch_words };
	struct strbuf out = STRBUF_INIT;
	struct sf_err err = SF_ERR_INIT;

	assert_int_equal(rust_make(header_src, strlen(header_src), &t, &plan,
					   &out, &err), 0);
	/* id moves up (gaining its comma), len follows with its comment */
	assert_string_equal(out.buf,
		"use std::ptr::NonNull;\n"
		"#[repr(C)]\n"
		"pub struct Header {\n"
		"    tag: u8,\n"
		"    pub(crate) id: u32,\n"
		"    // bytes that follow\n"
		"    len: u16, // structfit: was u64; holds 0..65535 now: check every value fits\n"
		"}\n"
		"pub struct Tup(*const u8);\n");
	sb_release(&out);
	/* order NULL: rustc orders the fields, the source keeps its order */
	plan.order = NULL;
	assert_int_equal(rust_make(header_src, strlen(header_src), &t, &plan,
					   &out, &err), 0);
	assert_non_null(strstr(out.buf, "    tag: u8,\n    // bytes that follow\n    len: u16,"));
	sb_release(&out);
}

static void test_rustpatch_refusals(void **state)
{
	(void)state;
	struct sf_type tup = RUST_TYPE("yjit::Tup", 8, codeptr_m, 0);
	struct sf_type other = RUST_TYPE("yjit::Header", 24, block_m, 0);
	const uint32_t order[] = { 0, 1, 2, 3, 4 };
	struct sf_srcpatch_plan plan = { order, 1, NULL, 0, NULL, NULL, NULL };
	struct strbuf out = STRBUF_INIT;
	struct sf_err err = SF_ERR_INIT;

	assert_int_equal(rust_make(header_src, strlen(header_src), &tup, &plan,
					   &out, &err), -1);
	assert_non_null(strstr(err.msg, "a tuple struct"));
	/* fields that are not the DWARF's: another version of the source */
	plan.norder = 5;
	assert_int_equal(rust_make(header_src, strlen(header_src), &other,
					   &plan, &out, &err), -1);
	assert_non_null(strstr(err.msg, "not the ones the DWARF has"));
	assert_int_equal(out.len, 0);
	assert_int_equal(sf_rustpatch_count(header_src, strlen(header_src), "a::Header"), 1);
	assert_int_equal(sf_rustpatch_count(header_src, strlen(header_src), "Head"), 0);
	sb_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_niche_of_a_newtype_over_a_raw_pointer),
		cmocka_unit_test(test_packed_and_order),
		cmocka_unit_test(test_rustpatch_reorder_and_narrow),
		cmocka_unit_test(test_rustpatch_refusals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
