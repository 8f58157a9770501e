/*
 * test_dwarf_cxx.c - the DWARF reader on C++ (testdata/reader/cxx.cc,
 * decl_base.cc, widget.cc) with g++ and clang++, DWARF 4 and 5, with and
 * without type units: qualified names, classes, bases, the vtable
 * pointer, empty bases (no bytes), base tail padding reused, virtual
 * bases, static members (never members of a layout), scoped enums, and
 * a base only declared where its derived class is defined (pahole 1.24
 * shows a fake 16-byte hole there; here it is completed from the file
 * that defines it, or flagged incomplete without a hole).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "dwarf/die.h"
#include "layout/holes.h"
#include "test_dwarf_util.h"

struct config {
	const char *cc, *flags, *tag;
};

static const struct config cxx[] = {
	{ "g++", "-g -gdwarf-4", "gxx4" },
	{ "g++", "-g -gdwarf-5", "gxx5" },
	{ "clang++", "-g -gdwarf-4", "clangxx4" },
	{ "clang++", "-g -gdwarf-5", "clangxx5" },
	/* types in type units, referenced by signature */
	{ "g++", "-g -gdwarf-4 -fdebug-types-section", "gxx4tu" },
	{ "g++", "-g -gdwarf-5 -fdebug-types-section", "gxx5tu" },
	{ "clang++", "-g -gdwarf-5 -fdebug-types-section", "clangxx5tu" },
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const char *build(const struct config *c, const char *src, const char *base)
{
	char out[128];

	snprintf(out, sizeof(out), "%s-%s.o", base, c->tag);
	if (td_compile(c->cc, c->flags, src, out) < 0) {
		fprintf(stderr, "note: skipping %s %s (compiler missing)\n", c->cc, c->flags);
		return NULL;
	}
	return td_path(out);
}

static const struct sf_member *with_flag(const struct sf_type *t, unsigned flag, unsigned nth)
{
	for (uint32_t i = 0; i < t->nmembers; i++)
		if ((t->members[i].flags & flag) && nth-- == 0)
			return &t->members[i];
	return NULL;
}

static void check_cxx(const struct sf_typeset *ts, const char *what)
{
	const struct sf_type *t;
	const struct sf_member *m;

	fprintf(stderr, "  C++: %s\n", what);
	t = td_type(ts, "geo::Empty");
	assert_non_null(t);
	assert_int_equal(t->size, 1);
	assert_int_equal(t->nmembers, 0);
	assert_true(t->flags & SF_TF_CXX);

	/* a vtable pointer first, then the data */
	t = td_type(ts, "geo::Shape");
	assert_non_null(t);
	assert_int_equal(t->size, 16);
	assert_int_equal(t->align, 8);
	m = with_flag(t, SF_MF_VPTR, 0);
	assert_non_null(m);
	assert_int_equal(m->offset, 0);
	assert_int_equal(m->size, 8);
	assert_int_equal(strncmp(m->name, "_vptr", 5), 0);
	assert_int_equal(m->tclass, SF_T_POINTER);
	assert_int_equal(td_member(t, "id")->offset, 8);

	/* Tagged : Empty, Shape - the empty base takes no byte, and tag sits
	 * in Shape's tail padding: Shape covers 12 bytes, no hole before tag */
	t = td_type(ts, "geo::Tagged");
	assert_non_null(t);
	assert_int_equal(t->size, 24);
	assert_int_equal(t->nmembers, 4);
	m = with_flag(t, SF_MF_BASE, 0);
	assert_string_equal(m->name, "geo::Empty");
	assert_int_equal(m->offset, 0);
	assert_int_equal(m->size, 0);
	m = with_flag(t, SF_MF_BASE, 1);
	assert_string_equal(m->name, "geo::Shape");
	assert_non_null(strstr(m->type_name, "geo::Shape"));
	assert_int_equal(m->offset, 0);
	assert_int_equal(m->size, 12);
	assert_int_equal(m->align, 8);
	assert_int_equal(m->tclass, SF_T_STRUCT);
	assert_int_equal(td_member(t, "tag")->offset, 12);
	assert_int_equal(td_member(t, "count")->offset, 16);
	struct sf_layout l;
	sf_layout_compute(t, 64, &l);
	assert_int_equal(l.nholes, 1);	/* only the real one, after tag */
	assert_int_equal(l.holes[0].offset, 13);
	assert_int_equal(l.holes[0].size, 3);
	sf_layout_release(&l);

	/* a virtual base lives after the non-virtual part */
	t = td_type(ts, "geo::Virt");
	assert_non_null(t);
	assert_int_equal(t->size, 32);
	m = with_flag(t, SF_MF_VIRTUAL_BASE, 0);
	assert_non_null(m);
	assert_true(m->flags & SF_MF_BASE);
	assert_string_equal(m->name, "geo::Shape");
	assert_int_equal(m->offset, 16);
	assert_int_equal(m->size, 16);
	assert_int_equal(td_member(t, "v")->offset, 8);
	/* the last member, where the complete object has it: its bytes are
	 * the Shape subobject's, not padding; the waste is the 7 bytes after v */
	assert_ptr_equal(m, &t->members[t->nmembers - 1]);
	sf_layout_compute(t, 64, &l);
	assert_int_equal(l.nholes, 1);
	assert_int_equal(l.holes[0].offset, 9);
	assert_int_equal(l.holes[0].size, 7);
	assert_int_equal(l.padding, 0);
	sf_layout_release(&l);

	/* templates as the compiler names them ("short int" or "short") */
	t = td_type_prefix(ts, "geo::Buf<short");
	assert_non_null(t);
	assert_int_equal(t->size, 8);
	assert_string_equal(td_member(t, "data")->type_suffix, "[3]");
	assert_int_equal(td_member(t, "len")->offset, 6);

	/* a nested class and a static member that is no member of the layout */
	t = td_type(ts, "geo::Outer");
	assert_non_null(t);
	assert_int_equal(t->nmembers, 2);
	assert_null(td_member(t, "counter"));
	assert_string_equal(td_member(t, "in")->type_name, "struct geo::Outer::Inner");
	assert_int_equal(td_member(t, "in")->align, 8);
	assert_int_equal(td_member(t, "x")->offset, 16);
	t = td_type(ts, "geo::Outer::Inner");
	assert_non_null(t);
	assert_int_equal(t->size, 16);
	assert_int_equal(td_member(t, "d")->offset, 8);

	t = td_type(ts, "class geo::Priv");
	assert_non_null(t);
	assert_int_equal(t->kind, SF_KIND_CLASS);
	assert_int_equal(t->nmembers, 2);
	assert_int_equal(td_member(t, "open")->offset, 8);

	/* enum class Color : unsigned char */
	t = td_type(ts, "geo::Paint");
	assert_non_null(t);
	assert_int_equal(t->size, 4);
	m = td_member(t, "c");
	assert_int_equal(m->size, 1);
	assert_int_equal(m->tclass, SF_T_ENUM);
	assert_false(m->flags & SF_MF_SIGNED);
	assert_string_equal(m->type_name, "enum geo::Color");
	assert_int_equal(td_member(t, "s")->offset, 2);
}

static void test_cxx_layouts(void **state)
{
	int done = 0;

	(void)state;
	for (size_t i = 0; i < N(cxx); i++) {
		const char *o = build(&cxx[i], "cxx.cc", "cxx");
		if (!o)
			continue;
		struct sf_typeset *ts = td_load(o);
		assert_non_null(ts);
		check_cxx(ts, cxx[i].tag);
		sf_typeset_free(ts);
		done++;
	}
	if (!done)
		td_skip("no configuration compiled");
}

/* With type units or without, the same types come out. */
static void test_type_units_same_types(void **state)
{
	const char *plain = build(&cxx[0], "cxx.cc", "cxx");
	const char *tu = build(&cxx[4], "cxx.cc", "cxx");

	(void)state;
	if (!plain || !tu)
		td_skip("cxx.cc did not compile");
	struct sf_typeset *a = td_load(plain), *b = td_load(tu);
	assert_non_null(a);
	assert_non_null(b);
	assert_int_equal(sf_typeset_count(a), sf_typeset_count(b));
	for (size_t i = 0; i < sf_typeset_count(a); i++) {
		const struct sf_type *x = sf_typeset_get(a, i);
		const struct sf_type *y = td_type(b, x->name);
		assert_non_null(y);
		assert_true(sf_type_equal(x, y));
	}
	sf_typeset_free(a);
	sf_typeset_free(b);
}

/* ---- a base only declared in the unit of its derived class --------------- */

static void check_button(const struct sf_typeset *ts, int complete)
{
	const struct sf_type *t = td_type(ts, "Button");
	const struct sf_member *base;
	struct sf_layout l;

	assert_non_null(t);
	assert_int_equal(t->size, 24);
	base = with_flag(t, SF_MF_BASE, 0);
	assert_non_null(base);
	assert_string_equal(base->name, "Widget");
	assert_int_equal(base->offset, 0);
	/* known or inferred, the base runs up to label: never a fake hole */
	assert_int_equal(base->size, 16);
	assert_int_equal(td_member(t, "label")->offset, 16);
	sf_layout_compute(t, 64, &l);
	assert_int_equal(l.nholes, 0);
	sf_layout_release(&l);
	if (complete) {
		assert_false(t->flags & SF_TF_INCOMPLETE);
		assert_false(base->flags & SF_MF_INCOMPLETE);
		assert_int_equal(base->align, 8);
		assert_int_equal(t->align, 8);
	} else {
		assert_true(t->flags & SF_TF_INCOMPLETE);
		assert_true(base->flags & SF_MF_INCOMPLETE);
	}
}

static void test_declared_only_base(void **state)
{
	static const struct config cs[] = {
		{ "g++", "-g", "gxx" },
		{ "clang++", "-g", "clangxx" },
	};
	int done = 0;

	(void)state;
	for (size_t i = 0; i < N(cs); i++) {
		const char *a = build(&cs[i], "decl_base.cc", "decl_base");
		const char *b = build(&cs[i], "widget.cc", "widget");
		if (!a || !b)
			continue;
		/* alone: incomplete, no hole */
		struct sf_typeset *ts = td_load(a);
		assert_non_null(ts);
		assert_null(td_type(ts, "Widget"));
		check_button(ts, 0);
		sf_typeset_free(ts);

		/* with the file defining Widget, in either order */
		const char *ab[2] = { a, b }, *ba[2] = { b, a };
		ts = td_load_n(ab, 2, 1);
		assert_non_null(ts);
		assert_int_equal(td_type(ts, "Widget")->size, 16);
		check_button(ts, 1);
		sf_typeset_free(ts);
		ts = td_load_n(ba, 2, 2);
		assert_non_null(ts);
		check_button(ts, 1);
		sf_typeset_free(ts);

		/* asking for Button only still finds the definition of its base */
		const char *const only[] = { "Button", NULL };
		struct sf_load_opts opts = { .threads = 1, .only = only };
		struct sf_err err;
		ts = sf_typeset_new();
		assert_int_equal(sf_input_load_all(ts, (char *const *)ab, 2, &opts, &err), 0);
		assert_int_equal(sf_typeset_count(ts), 1);
		check_button(ts, 1);
		sf_typeset_free(ts);

		/* a directory holding both */
		char dir[64];
		snprintf(dir, sizeof(dir), "both-%s", cs[i].tag);
		assert_int_equal(td_sh("mkdir -p %s && cp %s %s %s/", td_path(dir), a, b, td_path(dir)), 0);
		ts = td_load(td_path(dir));
		assert_non_null(ts);
		check_button(ts, 1);
		sf_typeset_free(ts);
		done++;
	}
	if (!done)
		td_skip("no configuration compiled");
}

/* Every C++ language code of DWARF 5's table, the two after libdwarf
 * 20210528's dwarf.h (0x2a, 0x2b) too; C and Objective-C are not C++. */
static void test_cxx_language_codes(void **state)
{
	static const unsigned cxx[] = { 0x04, 0x11, 0x19, 0x1a, 0x21, 0x2a, 0x2b };
	static const unsigned other[] = { 0x01, 0x02, 0x0c, 0x10, 0x1c, 0x1d, 0x2c };

	(void)state;
	for (size_t i = 0; i < sizeof(cxx) / sizeof(cxx[0]); i++) {
		assert_true(sf_lang_is_cxx(cxx[i]));
		assert_false(sf_lang_is_c(cxx[i]));
	}
	for (size_t i = 0; i < sizeof(other) / sizeof(other[0]); i++)
		assert_false(sf_lang_is_cxx(other[i]));
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cxx_layouts),
		cmocka_unit_test(test_type_units_same_types),
		cmocka_unit_test(test_declared_only_base),
		cmocka_unit_test(test_cxx_language_codes),
	};

	(void)argc;
	td_init(argv[0]);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
