/*
 * test_dwarf_btf.c - the BTF loader (btf/) on BTF no compiler emits.
 *
 * Each case builds its BTF at test time with libbpf's writer API
 * (btf__new_empty, btf__add_*), writes the raw bytes to the scratch
 * directory and loads them through sf_input_load, the path every command
 * takes.  The expected values are the definitions the case wrote (sizes,
 * bit offsets), not structfit's output: kind_flag bit-fields, the same
 * BTF in the other byte order, 64-bit enums; and hostile shapes, which
 * must load, or fail with one line, never crash or loop: a typedef loop,
 * a struct holding itself, 400 nested anonymous structs, a 10,000-deep
 * pointer chain, 65,535 members of a forward-declared type.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include <bpf/btf.h>

#include "test_dwarf_util.h"

/* Write btf's raw bytes (in the byte order it is set to) to NAME. */
static const char *write_btf(struct btf *btf, const char *name)
{
	uint32_t size = 0;
	const void *raw = btf__raw_data(btf, &size);
	const char *path = td_path(name);
	FILE *f = fopen(path, "wb");

	assert_non_null(raw);
	assert_non_null(f);
	assert_int_equal(fwrite(raw, 1, size, f), size);
	assert_int_equal(fclose(f), 0);
	return path;
}

/*
 * struct bits { unsigned int a:3, b:7; unsigned long long c:40; short d; }
 * as kind_flag BTF: bit offsets 0, 3, 10, and d at byte 8.
 */
static struct btf *bits_btf(void)
{
	struct btf *btf = btf__new_empty();
	int u32 = btf__add_int(btf, "unsigned int", 4, 0);
	int u64 = btf__add_int(btf, "long long unsigned int", 8, 0);
	int s16 = btf__add_int(btf, "short int", 2, BTF_INT_SIGNED);
	int big = btf__add_enum64(btf, "big", 8, false);

	btf__add_enum64_value(btf, "BIG_HIGH", 1ull << 40);
	btf__add_struct(btf, "bits", 24);
	btf__add_field(btf, "a", u32, 0, 3);
	btf__add_field(btf, "b", u32, 3, 7);
	btf__add_field(btf, "c", u64, 10, 40);
	btf__add_field(btf, "d", s16, 64, 0);
	btf__add_field(btf, "e", big, 128, 0);
	return btf;
}

static void check_bits(const struct sf_typeset *ts)
{
	const struct sf_type *t = td_type(ts, "bits");

	assert_non_null(t);
	assert_int_equal(t->size, 24);
	assert_int_equal(t->nmembers, 5);
	assert_int_equal(t->align, 8);
	assert_true(t->flags & SF_TF_BTF);
	assert_string_equal(t->decl_file, "");
	assert_int_equal(t->decl_line, 0);
	const struct sf_member *a = td_member(t, "a"), *b = td_member(t, "b"),
			       *c = td_member(t, "c"), *d = td_member(t, "d"),
			       *e = td_member(t, "e");
	assert_int_equal(a->offset, 0);
	assert_int_equal(a->bit_offset, 0);
	assert_int_equal(a->bit_size, 3);
	assert_int_equal(b->bit_offset, 3);
	assert_int_equal(b->bit_size, 7);
	/* a 40-bit field of an 8-byte unit: the unit at 0, 10 bits in */
	assert_int_equal(c->offset, 0);
	assert_int_equal(c->size, 8);
	assert_int_equal(c->bit_offset, 10);
	assert_int_equal(c->bit_size, 40);
	assert_int_equal(d->offset, 8);
	assert_int_equal(d->bit_size, 0);
	assert_true(d->flags & SF_MF_SIGNED);
	assert_string_equal(d->type_name, "short int");
	assert_int_equal(e->offset, 16);
	assert_int_equal(e->size, 8);
	assert_string_equal(e->type_name, "enum big");
}

static void test_bitfields_and_enum64(void **state)
{
	(void)state;
	struct btf *btf = bits_btf();
	struct sf_typeset *ts = td_load(write_btf(btf, "bits.btf"));

	assert_non_null(ts);
	check_bits(ts);
	sf_typeset_free(ts);
	btf__free(btf);
}

/* The same BTF, big-endian: libbpf swaps it, the model is the same. */
static void test_other_byte_order(void **state)
{
	(void)state;
	struct btf *btf = bits_btf();

	assert_int_equal(btf__set_endianness(btf, BTF_BIG_ENDIAN), 0);
	const char *path = write_btf(btf, "bits-be.btf");
	FILE *f = fopen(path, "rb");
	unsigned char magic[2];
	assert_int_equal(fread(magic, 1, 2, f), 2);
	fclose(f);
	assert_int_equal(magic[0], 0xeb);	/* really written big-endian */
	struct sf_typeset *ts = td_load(path);
	assert_non_null(ts);
	check_bits(ts);
	sf_typeset_free(ts);
	btf__free(btf);
}

/* typedef a_t -> b_t -> a_t, a member of that type, and a struct that
 * holds itself: loaded, the members incomplete, nothing loops. */
static void test_loops(void **state)
{
	(void)state;
	struct btf *btf = btf__new_empty();
	int i32 = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	/* ids: i32 = 1, a_t = 2, b_t = 3, loop = 4 */
	assert_int_equal(btf__add_typedef(btf, "a_t", 3), 2);
	assert_int_equal(btf__add_typedef(btf, "b_t", 2), 3);
	assert_int_equal(btf__add_struct(btf, "loop", 8), 4);
	btf__add_field(btf, "x", i32, 0, 0);
	btf__add_field(btf, "looped", 2, 32, 0);
	assert_int_equal(btf__add_struct(btf, "self", 16), 5);
	btf__add_field(btf, "n", i32, 0, 0);
	btf__add_field(btf, "me", 5, 64, 0);
	struct sf_err err = SF_ERR_INIT;
	struct sf_typeset *ts = sf_typeset_new();
	int rc = sf_input_load(ts, write_btf(btf, "loops.btf"), NULL, &err);
	if (rc == 0) {
		const struct sf_type *t = td_type(ts, "loop");
		assert_non_null(t);
		assert_true(td_member(t, "looped")->flags & SF_MF_INCOMPLETE);
		/* the unknown member covers the room up to the end, no hole */
		assert_int_equal(td_member(t, "looped")->size, 4);
		assert_non_null(td_type(ts, "self"));
	} else {
		/* libbpf may refuse the loop: then one line naming the file */
		assert_non_null(strstr(err.msg, "loops.btf: "));
		assert_null(strchr(err.msg, '\n'));
	}
	sf_typeset_free(ts);
	btf__free(btf);
}

/* 400 anonymous structs nested by value, a 10,000-deep pointer chain and
 * 65,535 members of a declared-only struct: bounded, and quick. */
static void test_deep_and_wide(void **state)
{
	(void)state;
	struct btf *btf = btf__new_empty();
	int i32 = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	int inner = btf__add_struct(btf, NULL, 4);
	btf__add_field(btf, "leaf", i32, 0, 0);
	for (int k = 0; k < 400; k++) {
		int outer = btf__add_struct(btf, NULL, 4);
		btf__add_field(btf, NULL, inner, 0, 0);
		inner = outer;
	}
	btf__add_struct(btf, "deep", 4);
	btf__add_field(btf, "d", inner, 0, 0);
	int p = i32;
	for (int k = 0; k < 10000; k++)
		p = btf__add_ptr(btf, p);
	btf__add_struct(btf, "chain", 8);
	btf__add_field(btf, "p", p, 0, 0);
	int fwd = btf__add_fwd(btf, "opaque", BTF_FWD_STRUCT);
	btf__add_struct(btf, "wide", 65535);
	for (int k = 0; k < 65535; k++)
		btf__add_field(btf, NULL, fwd, 8 * (uint32_t)k, 0);

	struct sf_typeset *ts = td_load(write_btf(btf, "deep.btf"));
	assert_non_null(ts);
	const struct sf_type *deep = td_type(ts, "deep");
	assert_non_null(deep);
	assert_int_equal(deep->size, 4);
	const struct sf_type *chain = td_type(ts, "chain");
	assert_non_null(chain);
	assert_int_equal(chain->members[0].size, 8);
	const struct sf_type *wide = td_type(ts, "wide");
	assert_non_null(wide);
	assert_int_equal(wide->nmembers, 65535);
	/* each incomplete member gets the byte up to the next one */
	assert_int_equal(wide->members[100].size, 1);
	assert_true(wide->flags & SF_TF_INCOMPLETE);
	sf_typeset_free(ts);
	btf__free(btf);
}

/* A BTF with types but no struct or union is said so, not printed empty. */
static void test_no_struct(void **state)
{
	(void)state;
	struct btf *btf = btf__new_empty();
	btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	const char *path = write_btf(btf, "ints.btf");
	struct sf_err err;
	char want[800];

	snprintf(want, sizeof(want), "%s: no struct or union in its BTF", path);
	assert_string_equal(td_load_error(path, &err), want);
	btf__free(btf);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bitfields_and_enum64),
		cmocka_unit_test(test_other_byte_order),
		cmocka_unit_test(test_loops),
		cmocka_unit_test(test_deep_and_wide),
		cmocka_unit_test(test_no_struct),
	};

	(void)argc;
	td_init(argv[0]);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
