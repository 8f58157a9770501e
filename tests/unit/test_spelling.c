/*
 * test_spelling.c - model/spelling.c: one spelling per C type.
 *
 * The table is what the compilers write: gcc 12's DW_AT_name of base
 * types and C++ template instances (`long unsigned int`, `Slot<long
 * int>`, `Q<char const*>`, `Q<const S*>`, `Q<int [3]>`) and clang 14's
 * for the same declarations (`unsigned long`, `Slot<long>`, `Q<const
 * char *>`, `Q<const S *>`, `Q<int[3]>`).  gcc's spelling is
 * the canonical one, so each gcc spelling must come out unchanged (the
 * type hashes of gcc-built inputs stay what they were) and each clang
 * spelling must come out as gcc's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "model/spelling.h"

static const struct {
	const char *gcc, *clang;
} table[] = {
	{ "char", "char" },
	{ "signed char", "signed char" },
	{ "unsigned char", "unsigned char" },
	{ "short int", "short" },
	{ "short unsigned int", "unsigned short" },
	{ "int", "int" },
	{ "unsigned int", "unsigned int" },
	{ "long int", "long" },
	{ "long unsigned int", "unsigned long" },
	{ "long long int", "long long" },
	{ "long long unsigned int", "unsigned long long" },
	{ "__int128", "__int128" },
	{ "__int128 unsigned", "unsigned __int128" },
	{ "long double", "long double" },
	{ "const long unsigned int *", "const unsigned long *" },
	{ "volatile short int", "volatile short" },
	{ "long int (*)(short unsigned int, char)", "long (*)(unsigned short, char)" },
	{ "Slot<long int>", "Slot<long>" },
	{ "Slot<short unsigned int>", "Slot<unsigned short>" },
	{ "std::map<int, long unsigned int>", "std::map<int, unsigned long>" },
	{ "Slot<char*>", "Slot<char *>" },
	{ "Pair<int, Slot<long int> >", "Pair<int, Slot<long>>" },
	{ "Ref<long int&>", "Ref<long &>" },
	{ "Q<char const*>", "Q<const char *>" },
	{ "Q<char const* const*>", "Q<const char *const *>" },
	{ "Q<long unsigned int const*>", "Q<const unsigned long *>" },
	{ "Q<int const>", "Q<const int>" },
	{ "Q<int volatile*>", "Q<volatile int *>" },
	{ "Q<const S*>", "Q<const S *>" },
	{ "Q<const Q<long int>*>", "Q<const Q<long> *>" },
	{ "Q<int (*)(char const*, long int)>", "Q<int (*)(const char *, long)>" },
	{ "Q<int [3]>", "Q<int[3]>" },
	{ "Q<char**>", "Q<char **>" },
	{ "struct longer", "struct longer" },
	{ "int32_t", "int32_t" },
	{ "_Bool", "_Bool" },
};

static char *canon(const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	sf_spell_canon(s, &sb);
	return sb_detach(&sb);
}

/* gcc's spelling is canonical already; clang's becomes it. */
static void test_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		char *g = canon(table[i].gcc), *c = canon(table[i].clang);
		assert_string_equal(g, table[i].gcc);
		assert_string_equal(c, table[i].gcc);
		assert_true(sf_spell_eq(table[i].gcc, table[i].clang));
		free(g);
		free(c);
	}
}

/* Types C keeps apart stay apart. */
static void test_distinct(void **state)
{
	(void)state;
	assert_false(sf_spell_eq("char", "signed char"));
	assert_false(sf_spell_eq("char", "unsigned char"));
	assert_false(sf_spell_eq("long int", "long long int"));
	assert_false(sf_spell_eq("long", "unsigned long"));
	assert_false(sf_spell_eq("short", "int"));
	assert_false(sf_spell_eq("double", "long double"));
	assert_false(sf_spell_eq("Slot<long>", "Slot<int>"));
	assert_false(sf_spell_eq("longer", "long"));
	assert_true(sf_spell_eq(NULL, ""));
	assert_true(sf_spell_eq("signed", "int"));
	assert_true(sf_spell_eq("long signed int", "long"));
}

/* A name longer than the buffer the spelling is gathered in (512
 * bytes): every template of the table, eight times over, as one
 * argument list, and one word of 600 letters. */
static void test_long(void **state)
{
	struct strbuf g = STRBUF_INIT, c = STRBUF_INIT;

	(void)state;
	sb_adds(&g, "W<");
	sb_adds(&c, "W<");
	for (int k = 0; k < 8; k++) {
		for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
			if (!strchr(table[i].gcc, '<'))
				continue;
			sb_adds(&g, table[i].gcc);
			sb_adds(&g, ", ");
			sb_adds(&c, table[i].clang);
			sb_adds(&c, ", ");
		}
	}
	sb_adds(&g, "int>");
	sb_adds(&c, "int>");
	assert_true(g.len > 2048);
	char *cg = canon(g.buf), *cc = canon(c.buf);
	assert_string_equal(cg, g.buf);
	assert_string_equal(cc, g.buf);
	free(cg);
	free(cc);
	sb_reset(&g);
	sb_adds(&g, "N<");
	for (int k = 0; k < 600; k++)
		sb_adds(&g, "x");
	sb_adds(&g, ", long>");
	sb_reset(&c);
	sb_adds(&c, g.buf);
	c.buf[c.len - 5] = '\0';	/* "N<xx...x, " */
	c.len -= 5;
	sb_adds(&c, "long int>");
	cg = canon(g.buf);
	assert_string_equal(cg, c.buf);
	free(cg);
	sb_release(&g);
	sb_release(&c);
}

/* Names: only a template's can be spelled two ways. */
static void test_names(void **state)
{
	(void)state;
	assert_true(sf_spell_name_eq("Slot<long>", "Slot<long int>"));
	assert_true(sf_spell_name_eq("conn", "conn"));
	assert_false(sf_spell_name_eq("conn", "Slot<long>"));
	assert_false(sf_spell_name_eq("Slot<long>", "Slot<long long>"));
}

/* The word rule layout/ctypes.c shares. */
static void test_basewords(void **state)
{
	struct sf_basewords bw;

	(void)state;
	memset(&bw, 0, sizeof(bw));
	assert_null(sf_basewords_spell(&bw));
	assert_true(sf_basewords_add(&bw, "unsigned", 8));
	assert_true(sf_basewords_add(&bw, "long", 4));
	assert_false(sf_basewords_add(&bw, "longer", 6));
	assert_string_equal(sf_basewords_spell(&bw), "long unsigned int");
	assert_true(sf_basewords_add(&bw, "long", 4));
	assert_string_equal(sf_basewords_spell(&bw), "long long unsigned int");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_distinct),
		cmocka_unit_test(test_long),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_basewords),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
