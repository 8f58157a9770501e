/*
 * test_dwarf_reader.c - the DWARF reader on C: the C sources of
 * testdata/reader are compiled here, now, with gcc and clang, DWARF 2 to 5, for x86_64, i386,
 * aarch64, 32-bit ARM and two big-endian targets, then loaded with
 * sf_input_load; the model must hold the exact offsets, sizes, bit
 * positions, alignments, flags and C spellings the ABI dictates.
 *
 * The cross targets use clang --target=... -ffreestanding -c, which needs
 * no sysroot; a .o of each also exercises that target's relocations
 * (x86_64 and aarch64 RELA, i386 and ARM REL): every name below comes
 * from a relocated string offset.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "layout/holes.h"
#include "test_dwarf_util.h"

struct config {
	const char *cc;
	const char *flags;
	const char *tag;      /* object file suffix */
};

/* Compilers and targets for a source; LP64 and ILP32 lists. */
static const struct config lp64[] = {
	{ "gcc", "-g -gdwarf-4", "gcc4" },
	{ "gcc", "-g -gdwarf-5", "gcc5" },
	{ "clang", "-g -gdwarf-4", "clang4" },
	{ "clang", "-g -gdwarf-5", "clang5" },
	{ "clang", "--target=aarch64-linux-gnu -ffreestanding -g -gdwarf-4", "a64_4" },
	{ "clang", "--target=aarch64-linux-gnu -ffreestanding -g -gdwarf-5", "a64_5" },
};

static const struct config ilp32[] = {
	{ "clang", "--target=i386-linux-gnu -ffreestanding -g -gdwarf-4", "i386_4" },
	{ "clang", "--target=i386-linux-gnu -ffreestanding -g -gdwarf-5", "i386_5" },
	{ "clang", "--target=armv7-linux-gnueabihf -ffreestanding -g -gdwarf-4", "arm_4" },
	{ "clang", "--target=armv7-linux-gnueabihf -ffreestanding -g -gdwarf-5", "arm_5" },
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* Compile src for c into "<base>-<tag>.o"; NULL (and a note) if impossible. */
static const char *build(const struct config *c, const char *src, const char *base)
{
	char out[128];

	snprintf(out, sizeof(out), "%s-%s.o", base, c->tag);
	if (td_compile(c->cc, c->flags, src, out) < 0) {
		fprintf(stderr, "note: skipping %s %s (compiler or target missing)\n", c->cc, c->flags);
		return NULL;
	}
	return td_path(out);
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/* ---- st_table (issue 2) ----------------------------------------------- */

static const char *const st_names[9] = {
	"entry_power", "bin_power", "size_ind", "rebuilds_num", "type",
	"num_entries", "entries_start", "entries_bound", "entries",
};

static void check_st_table(const struct sf_typeset *ts, const char *path, unsigned ptr)
{
	const struct sf_type *t = td_type(ts, "st_table");
	/* LP64: 48 bytes; ILP32: 28.  The 1-byte hole is at 3 on both. */
	const uint64_t off64[9] = { 0, 1, 2, 4, 8, 16, 24, 32, 40 };
	const uint64_t off32[9] = { 0, 1, 2, 4, 8, 12, 16, 20, 24 };
	const uint64_t *off = ptr == 8 ? off64 : off32;

	assert_non_null(t);
	assert_int_equal(t->kind, SF_KIND_STRUCT);
	assert_int_equal(t->size, ptr == 8 ? 48 : 28);
	assert_int_equal(t->align, ptr);
	assert_int_equal(t->addr_size, ptr);
	assert_int_equal(t->nmembers, 9);
	assert_string_equal(t->origin, path);
	assert_true(ends_with(t->decl_file, "testdata/reader/st_table.c"));
	assert_int_equal(t->decl_line, 13);
	assert_int_equal(t->flags & (SF_TF_PACKED | SF_TF_INCOMPLETE | SF_TF_CXX), 0);
	for (int i = 0; i < 9; i++) {
		const struct sf_member *m = &t->members[i];
		assert_string_equal(m->name, st_names[i]);
		assert_int_equal(m->offset, off[i]);
		assert_int_equal(m->size, i < 3 ? 1 : i == 3 ? 4 : ptr);
		assert_int_equal(m->align, i < 3 ? 1 : i == 3 ? 4 : ptr);
		assert_int_equal(m->bit_size, 0);
		assert_null(m->nested);
		assert_int_equal(m->flags & SF_MF_SIGNED, 0);
		assert_string_equal(m->type_suffix, "");
	}
	assert_string_equal(t->members[0].type_name, "unsigned char");
	assert_string_equal(t->members[3].type_name, "unsigned int");
	assert_string_equal(t->members[4].type_name, "const struct st_hash_type *");
	assert_string_equal(t->members[5].type_name, "st_index_t");
	assert_string_equal(t->members[8].type_name, "struct st_table_entry *");
	assert_int_equal(t->members[0].tclass, SF_T_INT);
	assert_int_equal(t->members[4].tclass, SF_T_POINTER);
	assert_int_equal(t->members[5].tclass, SF_T_INT);
	assert_int_equal(t->members[8].tclass, SF_T_POINTER);

	struct sf_layout l;
	sf_layout_compute(t, 64, &l);
	assert_int_equal(l.members, 9);
	assert_int_equal(l.nholes, 1);
	assert_int_equal(l.holes[0].offset, 3);
	assert_int_equal(l.holes[0].size, 1);
	assert_int_equal(l.padding, 0);
	sf_layout_release(&l);

	/* the RHash header in front: 24 + 48 = 72 (12 + 28 on ILP32) */
	const struct sf_type *h = td_type(ts, "RHash");
	const struct sf_type *w = td_type(ts, "rhash_with_table");
	assert_non_null(h);
	assert_non_null(w);
	assert_int_equal(h->size, 3 * ptr);
	assert_int_equal(w->size, 3 * ptr + t->size);
	assert_string_equal(w->members[1].type_name, "struct st_table");
	assert_int_equal(w->members[1].offset, 3 * ptr);
	assert_int_equal(w->members[1].tclass, SF_T_STRUCT);
	assert_int_equal(w->members[1].align, ptr);
	assert_string_equal(td_member(td_type(ts, "RBasic"), "klass")->type_name, "const VALUE");
}

static void st_table_on(const struct config *cs, size_t n, unsigned ptr)
{
	int done = 0;

	for (size_t i = 0; i < n; i++) {
		const char *o = build(&cs[i], "st_table.c", "st_table");
		if (!o)
			continue;
		struct sf_typeset *ts = td_load(o);
		assert_non_null(ts);
		check_st_table(ts, o, ptr);
		sf_typeset_free(ts);
		done++;
	}
	if (!done)
		td_skip("no configuration compiled");
}

static void test_st_table_lp64(void **state)
{
	(void)state;
	st_table_on(lp64, N(lp64), 8);
}

static void test_st_table_ilp32(void **state)
{
	static const struct config m32 = { "gcc", "-m32 -g", "gcc_m32" };

	(void)state;
	st_table_on(ilp32, N(ilp32), 4);
	if (td_compile(m32.cc, m32.flags, "st_table.c", "st_table-gcc_m32.o") == 0)
		st_table_on(&m32, 1, 4);
	else
		fprintf(stderr, "note: gcc -m32 unavailable (no gcc-multilib): i386 checked with clang only\n");
}

/* ---- ABI alignment rules ------------------------------------------------ */

struct abi_expect {
	const char *flags, *tag;
	uint64_t off[5], size[5];
	uint32_t align[5];
	uint64_t total;
	uint32_t talign;
	uint64_t ptrs_size;
	int char_signed;
};

static void test_abi_alignment(void **state)
{
	static const struct abi_expect cases[] = {
		/* x86_64: long double is 16 bytes, 16-aligned */
		{ "-g", "x86_64", { 0, 8, 16, 24, 32 }, { 1, 8, 8, 1, 16 }, { 1, 8, 8, 1, 16 },
		  48, 16, 24, 1 },
		/* i386: double, long long and long double align to 4 in structs */
		{ "--target=i386-linux-gnu -ffreestanding -g", "i386", { 0, 4, 12, 20, 24 },
		  { 1, 8, 8, 1, 12 }, { 1, 4, 4, 1, 4 }, 36, 4, 12, 1 },
		{ "--target=aarch64-linux-gnu -ffreestanding -g", "aarch64", { 0, 8, 16, 24, 32 },
		  { 1, 8, 8, 1, 16 }, { 1, 8, 8, 1, 16 }, 48, 16, 24, 0 },
		/* ARM EABI: 8-aligned double and long long, long double = double */
		{ "--target=armv7-linux-gnueabihf -ffreestanding -g", "arm", { 0, 8, 16, 24, 32 },
		  { 1, 8, 8, 1, 8 }, { 1, 8, 8, 1, 8 }, 40, 8, 12, 0 },
	};
	static const char *const names[5] = { "c", "d", "ll", "c2", "ld" };
	int done = 0;

	(void)state;
	for (size_t i = 0; i < N(cases); i++) {
		const struct abi_expect *e = &cases[i];
		struct config c = { "clang", e->flags, e->tag };
		const char *o = build(&c, "abi.c", "abi");
		if (!o)
			continue;
		struct sf_typeset *ts = td_load(o);
		assert_non_null(ts);
		const struct sf_type *t = td_type(ts, "abi_mix");
		assert_non_null(t);
		assert_int_equal(t->size, e->total);
		assert_int_equal(t->align, e->talign);
		assert_int_equal(t->flags & SF_TF_PACKED, 0);
		for (int k = 0; k < 5; k++) {
			const struct sf_member *m = td_member(t, names[k]);
			assert_non_null(m);
			assert_int_equal(m->offset, e->off[k]);
			assert_int_equal(m->size, e->size[k]);
			assert_int_equal(m->align, e->align[k]);
		}
		assert_int_equal(td_member(t, "d")->tclass, SF_T_FLOAT);
		assert_int_equal(td_member(t, "ld")->tclass, SF_T_FLOAT);
		assert_int_equal(td_member(t, "ll")->tclass, SF_T_INT);
		assert_true(td_member(t, "ll")->flags & SF_MF_SIGNED);
		/* plain char is signed on x86, unsigned on ARM */
		assert_int_equal(!!(td_member(t, "c")->flags & SF_MF_SIGNED), e->char_signed);

		const struct sf_type *p = td_type(ts, "abi_ptrs");
		assert_non_null(p);
		assert_int_equal(p->size, e->ptrs_size);
		assert_int_equal(td_member(p, "p")->size, e->ptrs_size == 24 ? 8 : 4);
		assert_int_equal(td_member(p, "b")->tclass, SF_T_BOOL);
		sf_typeset_free(ts);
		done++;
	}
	if (!done)
		td_skip("no configuration compiled");
}

/* ---- bit-fields ----------------------------------------------------------- */

struct bf_expect {
	const char *name;
	uint64_t offset, size;
	uint32_t bit_offset, bit_size;
};

static void check_bits(const struct sf_typeset *ts, const char *what)
{
	/* offsets in memory order: the same for every encoding and byte order */
	static const struct bf_expect bits[] = {
		{ "a", 0, 4, 0, 3 }, { "b", 0, 4, 3, 5 }, { "c", 0, 4, 8, 9 },
		{ "d", 0, 4, 17, 7 }, { "e", 3, 1, 0, 0 }, { "f", 4, 2, 0, 4 },
		{ "g", 8, 8, 0, 40 }, { "h", 13, 1, 0, 1 },
	};
	static const struct bf_expect packed[] = {
		{ "c", 0, 1, 0, 0 }, { "x", 0, 4, 8, 20 }, { "y", 0, 4, 28, 12 },
	};
	const struct sf_type *t = td_type(ts, "bits");
	const struct sf_type *p = td_type(ts, "packed_bits");

	fprintf(stderr, "  bit-fields: %s\n", what);
	assert_non_null(t);
	assert_int_equal(t->size, 16);
	assert_int_equal(t->align, 8);
	assert_int_equal(t->nmembers, N(bits));
	for (size_t i = 0; i < N(bits); i++) {
		const struct sf_member *m = &t->members[i];
		assert_string_equal(m->name, bits[i].name);
		assert_int_equal(m->offset, bits[i].offset);
		assert_int_equal(m->size, bits[i].size);
		assert_int_equal(m->bit_offset, bits[i].bit_offset);
		assert_int_equal(m->bit_size, bits[i].bit_size);
		assert_int_equal(!!(m->flags & SF_MF_BITFIELD), bits[i].bit_size != 0);
	}
	assert_true(td_member(t, "d")->flags & SF_MF_SIGNED);
	assert_false(td_member(t, "a")->flags & SF_MF_SIGNED);
	assert_int_equal(td_member(t, "h")->tclass, SF_T_BOOL);

	assert_non_null(p);
	assert_int_equal(p->size, 5);
	assert_int_equal(p->align, 1);
	assert_true(p->flags & SF_TF_PACKED);
	for (size_t i = 0; i < N(packed); i++) {
		const struct sf_member *m = &p->members[i];
		assert_string_equal(m->name, packed[i].name);
		assert_int_equal(m->offset, packed[i].offset);
		assert_int_equal(m->bit_offset, packed[i].bit_offset);
		assert_int_equal(m->bit_size, packed[i].bit_size);
	}
}

static void test_bitfields_every_encoding(void **state)
{
	/* DWARF 2/3: DW_AT_bit_offset from the MSB; 4/5: DW_AT_data_bit_offset.
	 * s390x and powerpc64 are big-endian: the old encoding flips there. */
	static const struct config cs[] = {
		{ "gcc", "-g -gdwarf-2", "gcc2" },
		{ "gcc", "-g -gdwarf-3", "gcc3" },
		{ "gcc", "-g -gdwarf-4", "gcc4" },
		{ "gcc", "-g -gdwarf-5", "gcc5" },
		{ "clang", "-g -gdwarf-3", "clang3" },
		{ "clang", "-g -gdwarf-5", "clang5" },
		{ "clang", "--target=s390x-linux-gnu -ffreestanding -g -gdwarf-3", "s390x3" },
		{ "clang", "--target=s390x-linux-gnu -ffreestanding -g -gdwarf-5", "s390x5" },
		{ "clang", "--target=powerpc64-linux-gnu -ffreestanding -g -gdwarf-3", "ppc64_3" },
		{ "clang", "--target=aarch64-linux-gnu -ffreestanding -g -gdwarf-4", "a64_4" },
	};
	int done = 0;

	(void)state;
	for (size_t i = 0; i < N(cs); i++) {
		const char *o = build(&cs[i], "bitfields.c", "bitfields");
		if (!o)
			continue;
		struct sf_typeset *ts = td_load(o);
		assert_non_null(ts);
		check_bits(ts, cs[i].tag);
		sf_typeset_free(ts);
		done++;
	}
	if (!done)
		td_skip("no configuration compiled");
}

/* ---- packing, alignment, enums -------------------------------------------- */

static void check_layout(const struct sf_typeset *ts)
{
	const struct sf_type *t = td_type(ts, "packed1");
	assert_non_null(t);
	assert_int_equal(t->size, 7);
	assert_int_equal(t->align, 1);
	assert_true(t->flags & SF_TF_PACKED);
	assert_int_equal(td_member(t, "i")->offset, 1);
	assert_int_equal(td_member(t, "i")->align, 4);	/* natural, not effective */
	assert_int_equal(td_member(t, "s")->offset, 5);

	/* #pragma pack(2): the 1-byte hole before i makes it "not packed"
	 * by pahole's rule (pahole prints no packed attribute for it); the
	 * alignment is the compiler's, 2, from where i sits */
	t = td_type(ts, "packed2");
	assert_non_null(t);
	assert_int_equal(t->size, 6);
	assert_int_equal(t->align, 2);
	assert_false(t->flags & SF_TF_PACKED);
	assert_int_equal(td_member(t, "i")->offset, 2);
	assert_int_equal(td_member(t, "i")->align, 2);

	/* a packed member at offset 1, no holes, no padding: DWARF cannot
	 * tell this from a packed struct, and pahole's rule marks it packed
	 * (pahole prints __packed__); aligned to 1 either way, as the
	 * compiler has it */
	t = td_type(ts, "has_packed");
	assert_non_null(t);
	assert_int_equal(t->size, 8);
	assert_int_equal(t->align, 1);
	assert_true(t->flags & SF_TF_PACKED);
	assert_int_equal(td_member(t, "p")->offset, 1);
	assert_int_equal(td_member(t, "p")->align, 1);

	t = td_type(ts, "aligned_member");	/* _Alignas(16) on a member */
	assert_non_null(t);
	assert_int_equal(t->size, 32);
	assert_int_equal(t->align, 16);
	assert_int_equal(td_member(t, "x")->offset, 16);
	assert_int_equal(td_member(t, "x")->align, 16);
	assert_true(td_member(t, "x")->flags & SF_MF_ALIGNED);
	assert_false(td_member(t, "c")->flags & SF_MF_ALIGNED);
	assert_false(t->flags & SF_TF_PACKED);

	t = td_type(ts, "aligned_type");	/* aligned(64) on the type */
	assert_non_null(t);
	assert_int_equal(t->size, 64);
	assert_int_equal(t->align, 64);
	assert_true(t->flags & SF_TF_ALIGNED);

	t = td_type(ts, "aligned_typedef");	/* aligned(8) on a typedef */
	assert_non_null(t);
	assert_int_equal(t->size, 16);
	assert_int_equal(td_member(t, "x")->offset, 8);
	assert_int_equal(td_member(t, "x")->align, 8);
	assert_true(td_member(t, "x")->flags & SF_MF_ALIGNED);
	assert_string_equal(td_member(t, "x")->type_name, "aligned_int");

	t = td_type(ts, "enums");
	assert_non_null(t);
	assert_int_equal(t->size, 8);
	assert_int_equal(td_member(t, "s")->size, 1);
	assert_int_equal(td_member(t, "s")->tclass, SF_T_ENUM);
	assert_false(td_member(t, "s")->flags & SF_MF_SIGNED);
	assert_string_equal(td_member(t, "s")->type_name, "enum small_enum");
	assert_int_equal(td_member(t, "c")->offset, 1);
	assert_int_equal(td_member(t, "n")->offset, 4);
	assert_int_equal(td_member(t, "n")->size, 4);
	assert_true(td_member(t, "n")->flags & SF_MF_SIGNED);
}

static void test_packed_aligned_enums(void **state)
{
	int done = 0;

	(void)state;
	for (size_t i = 0; i < 4; i++) {
		const char *o = build(&lp64[i], "layout.c", "layout");
		if (!o)
			continue;
		struct sf_typeset *ts = td_load(o);
		assert_non_null(ts);
		check_layout(ts);
		sf_typeset_free(ts);
		done++;
	}
	if (!done)
		td_skip("no configuration compiled");
}

/* ---- member shapes and spellings ------------------------------------------ */

static void check_shapes(const struct sf_typeset *ts)
{
	const struct sf_type *t = td_type(ts, "shapes");
	const struct sf_member *m;

	assert_non_null(t);
	assert_int_equal(t->size, 120);
	assert_int_equal(t->nmembers, 12);

	m = td_member(t, "matrix");
	assert_int_equal(m->offset, 0);
	assert_int_equal(m->size, 48);
	assert_int_equal(m->tclass, SF_T_ARRAY);
	assert_string_equal(m->type_name, "int");
	assert_string_equal(m->type_suffix, "[3][4]");

	/* a named member of an anonymous struct type: shown nested */
	m = td_member(t, "inner");
	assert_int_equal(m->offset, 48);
	assert_int_equal(m->size, 16);
	assert_int_equal(m->align, 8);
	assert_string_equal(m->type_name, "struct");
	assert_non_null(m->nested);
	assert_int_equal(m->nested->nmembers, 2);
	assert_int_equal(m->nested->size, 16);
	assert_int_equal(td_member(m->nested, "tag")->offset, 48);	/* absolute */
	assert_int_equal(td_member(m->nested, "value")->offset, 56);

	/* an anonymous union member */
	m = td_member(t, "");
	assert_non_null(m);
	assert_int_equal(m->offset, 64);
	assert_int_equal(m->size, 4);
	assert_int_equal(m->tclass, SF_T_UNION);
	assert_string_equal(m->type_name, "union");
	assert_non_null(m->nested);
	assert_int_equal(m->nested->kind, SF_KIND_UNION);
	assert_int_equal(td_member(m->nested, "i")->offset, 64);
	assert_int_equal(td_member(m->nested, "f")->offset, 64);
	assert_int_equal(td_member(m->nested, "f")->tclass, SF_T_FLOAT);

	m = td_member(t, "cvs");
	assert_int_equal(m->offset, 68);
	assert_int_equal(m->size, 2);
	assert_non_null(strstr(m->type_name, "const"));
	assert_non_null(strstr(m->type_name, "volatile"));
	assert_non_null(strstr(m->type_name, "short"));

	m = td_member(t, "name");	/* typedef of a typedef of a pointer */
	assert_int_equal(m->offset, 72);
	assert_int_equal(m->size, 8);
	assert_int_equal(m->tclass, SF_T_POINTER);
	assert_string_equal(m->type_name, "name_t");

	m = td_member(t, "callback");
	assert_int_equal(m->offset, 80);
	assert_int_equal(m->tclass, SF_T_POINTER);
	assert_string_equal(m->type_name, "void (*");
	assert_string_equal(m->type_suffix, ")(int, const char *)");

	m = td_member(t, "table");
	assert_int_equal(m->offset, 88);
	assert_string_equal(m->type_name, "int (*");
	assert_string_equal(m->type_suffix, ")[4]");

	m = td_member(t, "fixed");
	assert_int_equal(m->offset, 96);
	assert_string_equal(m->type_name, "char * const");

	m = td_member(t, "pair");	/* a typedef'd struct: by name, not nested */
	assert_int_equal(m->offset, 104);
	assert_int_equal(m->size, 8);
	assert_int_equal(m->align, 4);
	assert_int_equal(m->tclass, SF_T_STRUCT);
	assert_string_equal(m->type_name, "anon_pair_t");
	assert_null(m->nested);

	m = td_member(t, "pts");	/* an array of an anonymous struct */
	assert_int_equal(m->offset, 112);
	assert_int_equal(m->size, 4);
	assert_int_equal(m->tclass, SF_T_ARRAY);
	assert_string_equal(m->type_suffix, "[2]");
	assert_non_null(m->nested);
	assert_int_equal(td_member(m->nested, "x")->offset, 112);

	m = td_member(t, "flag");
	assert_int_equal(m->offset, 116);
	assert_int_equal(m->tclass, SF_T_BOOL);

	m = td_member(t, "tail");
	assert_int_equal(m->offset, 117);
	assert_int_equal(m->size, 0);
	assert_true(m->flags & SF_MF_FLEX_ARRAY);
	assert_string_equal(m->type_suffix, "[]");

	t = td_type(ts, "zero_len");
	assert_non_null(t);
	m = td_member(t, "data");
	assert_int_equal(m->offset, 4);
	assert_int_equal(m->size, 0);
	assert_true(m->flags & SF_MF_FLEX_ARRAY);
	assert_string_equal(m->type_suffix, "[0]");

	/* typedef struct { ... } anon_pair_t: reported by the typedef's name */
	t = td_type(ts, "anon_pair_t");
	assert_non_null(t);
	assert_true(t->flags & SF_TF_TYPEDEF);
	assert_int_equal(t->kind, SF_KIND_STRUCT);
	assert_int_equal(t->size, 8);
	assert_int_equal(t->nmembers, 2);
}

static void test_shapes_and_spellings(void **state)
{
	int done = 0;

	(void)state;
	for (size_t i = 0; i < 4; i++) {
		const char *o = build(&lp64[i], "shapes.c", "shapes");
		if (!o)
			continue;
		struct sf_typeset *ts = td_load(o);
		assert_non_null(ts);
		check_shapes(ts);
		sf_typeset_free(ts);
		done++;
	}
	if (!done)
		td_skip("no configuration compiled");
}

/* ---- names, enumerators, pointed-to types, packing shown by a container -- */

static void check_names(const struct sf_typeset *ts, unsigned ptr)
{
	const struct sf_type *found[4];

	/* `union dtv` and the typedef `dtv`: two names, no variants */
	assert_int_equal(sf_typeset_find(ts, "union dtv", found, 4), 1);
	assert_int_equal(found[0]->kind, SF_KIND_UNION);
	assert_false(found[0]->flags & (SF_TF_VARIANT | SF_TF_TYPEDEF));
	assert_int_equal(sf_typeset_find(ts, "dtv", found, 4), 1);
	assert_int_equal(found[0]->kind, SF_KIND_STRUCT);
	assert_true(found[0]->flags & SF_TF_TYPEDEF);
	assert_false(found[0]->flags & SF_TF_VARIANT);
	assert_int_equal(found[0]->size, 2 * ptr);
	assert_int_equal(sf_typeset_find(ts, "typedef dtv", found, 4), 1);
	assert_true(found[0]->flags & SF_TF_TYPEDEF);

	const struct sf_type *t = td_type(ts, "holder");
	assert_non_null(t);
	const struct sf_member *m = td_member(t, "e");
	assert_non_null(m->enums);
	assert_int_equal(m->enums->n, 3);
	assert_string_equal(m->enums->v[0].name, "H_NEG");
	assert_int_equal((int64_t)m->enums->v[0].value, -2);
	assert_string_equal(m->enums->v[1].name, "H_ZERO");
	assert_int_equal(m->enums->v[1].value, 0xffffffffffffffffull);
	assert_int_equal(m->enums->v[2].value, 0x7fffffff);
	assert_true(m->flags & SF_MF_SIGNED);
	assert_false(m->flags & SF_MF_POINTEE);
	m = td_member(t, "u");
	assert_non_null(m->enums);
	assert_int_equal(m->enums->n, 2);
	assert_int_equal(m->enums->v[1].value, 0x80000000u);
	assert_false(m->flags & SF_MF_SIGNED);

	/* the pointed-to anonymous struct, offsets from 0, not in the layout */
	m = td_member(t, "parts");
	assert_true(m->flags & SF_MF_POINTEE);
	assert_non_null(m->nested);
	assert_int_equal(m->size, ptr);
	assert_int_equal(m->nested->nmembers, 2);
	assert_int_equal(m->nested->members[0].offset, 0);
	assert_int_equal(m->nested->members[1].offset, ptr);
	assert_false(t->flags & SF_TF_INCOMPLETE);
	struct sf_layout l;
	sf_layout_compute(t, 64, &l);
	assert_int_equal(l.nholes, ptr == 8);	/* after e on LP64 only */
	assert_int_equal(l.npaddings, 0);	/* the pointee's padding is not ours */
	sf_layout_release(&l);

	/* pinner: packed, so aligned to 1 whatever its own layout shows */
	t = td_type(ts, "pinner");
	assert_non_null(t);
	assert_int_equal(t->size, ptr + 4);
	assert_int_equal(t->align, 1);
	assert_true(t->flags & SF_TF_PACKED);
	t = td_type(ts, "pholder");
	assert_non_null(t);
	assert_int_equal(td_member(t, "in")->offset, 1);
	assert_int_equal(td_member(t, "in")->align, 1);
	assert_int_equal(t->align, 4);
	assert_false(t->flags & SF_TF_PACKED);
}

static void test_names_enums_pointees(void **state)
{
	int done = 0;

	(void)state;
	for (size_t i = 0; i < N(lp64); i++) {
		const char *o = build(&lp64[i], "names.c", "names");
		if (!o)
			continue;
		struct sf_typeset *ts = td_load(o);
		assert_non_null(ts);
		check_names(ts, 8);
		sf_typeset_free(ts);
		done++;
	}
	for (size_t i = 0; i < N(ilp32); i++) {
		const char *o = build(&ilp32[i], "names.c", "names");
		if (!o)
			continue;
		struct sf_typeset *ts = td_load(o);
		assert_non_null(ts);
		check_names(ts, 4);
		sf_typeset_free(ts);
		done++;
	}
	if (!done)
		td_skip("no configuration compiled");
}

/* ---- several units: deduplication, variants, threads ----------------------- */

static size_t index_of(const struct sf_typeset *ts, const char *name)
{
	for (size_t i = 0; i < sf_typeset_count(ts); i++)
		if (!strcmp(sf_typeset_get(ts, i)->name, name))
			return i;
	return (size_t)-1;
}

/*
 * Packing evidence met after the types that read the packed struct were
 * laid out (testdata/reader/relayout.c): those are laid out again and
 * take its alignment of 1, by value and through a typedef of an array;
 * a struct that reads nothing of it keeps its own.  With and without
 * dedup (its full path lays the unit out the same way), and with -t
 * naming one of them only.
 */
static void check_relayout(const struct sf_typeset *ts)
{
	const struct sf_type *pk = td_type(ts, "pk"), *user = td_type(ts, "user");
	const struct sf_type *user_td = td_type(ts, "user_td"), *plain = td_type(ts, "plain");
	const struct sf_type *holder = td_type(ts, "holder");

	assert_int_equal(pk->align, 1);
	assert_int_equal(pk->natural_align, 4);
	assert_true(pk->flags & SF_TF_PACKED);
	assert_int_equal(user->align, 1);
	assert_int_equal(user_td->align, 1);
	assert_int_equal(user_td->size, 16);
	assert_int_equal(plain->align, 8);
	assert_int_equal(plain->size, 16);
	assert_int_equal(holder->align, 4);
	assert_int_equal(holder->members[1].offset, 1);
	assert_int_equal(holder->members[2].offset, 12);
}

/* path loaded on one thread: only the types `only` names (NULL: all),
 * every struct of every unit laid out when no_dedup */
static struct sf_typeset *load_with(const char *path, const char *const *only, int no_dedup)
{
	struct sf_typeset *ts = sf_typeset_new();
	struct sf_load_opts opts = { .threads = 1, .only = only, .no_dedup = no_dedup };
	struct sf_err err = SF_ERR_INIT;
	char *paths[1] = { (char *)path };

	assert_int_equal(sf_input_load_all(ts, paths, 1, &opts, &err), 0);
	return ts;
}

static void test_evidence_lays_readers_out_again(void **state)
{
	int done = 0;

	(void)state;
	for (size_t i = 0; i < 4; i++) {
		const char *o = build(&lp64[i], "relayout.c", "relayout");
		if (!o)
			continue;
		for (int dedup = 0; dedup < 2; dedup++) {
			struct sf_typeset *ts = load_with(o, NULL, !dedup);
			assert_non_null(ts);
			check_relayout(ts);
			sf_typeset_free(ts);
		}
		/* -t user: the block show prints for it, though holder, which
		 * shows pk packed, is not asked for */
		static const char *const only[] = { "user", NULL };
		struct sf_typeset *ts = load_with(o, only, 0);
		assert_int_equal(sf_typeset_count(ts), 1);
		assert_int_equal(td_type(ts, "user")->align, 1);
		sf_typeset_free(ts);
		done++;
	}
	if (!done)
		td_skip("no configuration compiled");
}

static void test_units_dedup_and_variants(void **state)
{
	(void)state;
	if (!td_have("gcc"))
		td_skip("gcc is not installed");
	assert_int_equal(td_sh("gcc -g -fPIC -shared -nostdlib -o %s %s/testdata/reader/multi_a.c "
			       "%s/testdata/reader/multi_b.c %s/testdata/reader/st_table.c",
			       td_path("libmulti.so"), td_src, td_src, td_src), 0);
	for (unsigned threads = 1; threads <= 3; threads++) {
		const char *p[1] = { td_path("libmulti.so") };
		struct sf_typeset *ts = td_load_n(p, 1, threads);
		const struct sf_type *found[4];
		assert_non_null(ts);
		/* shared_node is in both units, identical: kept once */
		assert_int_equal(sf_typeset_find(ts, "shared_node", found, 4), 1);
		assert_false(found[0]->flags & SF_TF_VARIANT);
		/* config differs between the units: both kept, both marked */
		assert_int_equal(sf_typeset_find(ts, "struct config", found, 4), 2);
		assert_true(found[0]->flags & SF_TF_VARIANT);
		assert_true(found[1]->flags & SF_TF_VARIANT);
		assert_int_not_equal(found[0]->size, found[1]->size);
		/* unit order (multi_a, multi_b, st_table), whatever the threads */
		size_t ia = index_of(ts, "only_a"), ib = index_of(ts, "only_b");
		size_t ist = index_of(ts, "st_table");
		assert_true(ia < ib);
		assert_true(ib < ist);
		assert_true(ist < sf_typeset_count(ts));
		sf_typeset_free(ts);
	}
}

/* The biggest separate debug file around (libc6-dbg), or NULL. */
static const char *biggest_debug_file(void)
{
	static char best[600];
	off_t best_size = 0;
	FILE *f = popen("find /usr/lib/debug/.build-id -name '*.debug' -size +1M 2>/dev/null", "r");
	char line[600];

	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		struct stat st;
		line[strcspn(line, "\n")] = '\0';
		if (stat(line, &st) == 0 && st.st_size > best_size && st.st_size < (64 << 20)) {
			best_size = st.st_size;
			snprintf(best, sizeof(best), "%s", line);
		}
	}
	pclose(f);
	return best_size ? best : NULL;
}

static void test_threads_same_result(void **state)
{
	const char *path = biggest_debug_file();
	struct sf_typeset *one, *many;

	(void)state;
	if (!path)
		td_skip("no /usr/lib/debug file (libc6-dbg)");
	const char *p[1] = { path };
	one = td_load_n(p, 1, 1);
	many = td_load_n(p, 1, 4);
	assert_non_null(one);
	assert_non_null(many);
	assert_true(sf_typeset_count(one) > 10);
	assert_int_equal(sf_typeset_count(one), sf_typeset_count(many));
	for (size_t i = 0; i < sf_typeset_count(one); i++) {
		const struct sf_type *a = sf_typeset_get(one, i), *b = sf_typeset_get(many, i);
		assert_string_equal(a->name, b->name);
		assert_true(sf_type_equal(a, b));
		assert_string_equal(a->decl_file, b->decl_file);
	}
	sf_typeset_free(one);
	sf_typeset_free(many);
}

/* ---- the `only` filter ---------------------------------------------------- */

static void test_only_filter(void **state)
{
	const char *const only[] = { "rhash_with_table", NULL };
	struct sf_load_opts opts = { .threads = 1, .only = only };
	struct sf_err err;

	(void)state;
	const char *o = build(&lp64[0], "st_table.c", "st_table");
	if (!o)
		td_skip("st_table.c did not compile");
	struct sf_typeset *ts = sf_typeset_new();
	assert_int_equal(sf_input_load(ts, o, &opts, &err), 0);
	assert_int_equal(sf_typeset_count(ts), 1);
	const struct sf_type *w = td_type(ts, "rhash_with_table");
	assert_non_null(w);
	/* the types it holds were still laid out for it */
	assert_int_equal(w->size, 72);
	assert_int_equal(w->align, 8);
	sf_typeset_free(ts);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_st_table_lp64),
		cmocka_unit_test(test_st_table_ilp32),
		cmocka_unit_test(test_abi_alignment),
		cmocka_unit_test(test_bitfields_every_encoding),
		cmocka_unit_test(test_packed_aligned_enums),
		cmocka_unit_test(test_names_enums_pointees),
		cmocka_unit_test(test_shapes_and_spellings),
		cmocka_unit_test(test_evidence_lays_readers_out_again),
		cmocka_unit_test(test_units_dedup_and_variants),
		cmocka_unit_test(test_threads_same_result),
		cmocka_unit_test(test_only_filter),
	};

	(void)argc;
	td_init(argv[0]);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
