/*
 * test_tmpl.c - layout/tmpl.h: a class template's instantiations found in
 * a typeset, and each laid out in the order planned for another.  The
 * models are hand-built (offsets as gcc gives them on x86_64); the sizes
 * expected are the C rules' (each member at the next multiple of its
 * alignment, the size rounded up to the largest).  And the header's lines
 * report/patch.c words from them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "layout/tmpl.h"
#include "report/patch.h"
#include "model/typeset.h"
#include "model_build.h"

/* A C++ struct of ts: members m[0..n), declared at file:line. */
static const struct sf_type *add_at(struct sf_typeset *ts, const char *name, uint64_t size,
				    uint32_t align, const char *file, uint32_t line,
				    const struct sf_test_mdef *m, size_t n)
{
	const struct sf_test_tdef d = {
		.kind = SF_KIND_STRUCT, .name = name, .size = size, .align = align,
		.file = file, .line = line, .origin = "slot.o", .addr_size = 8,
		.flags = SF_TF_CXX, .member_tclass = SF_T_INT,
		.member_flags = SF_MF_SIGNED,
	};

	return sf_test_add_type(ts, &d, m, n);
}

/* The same, declared in slot.h. */
static const struct sf_type *add(struct sf_typeset *ts, const char *name, uint64_t size,
				 uint32_t align, uint32_t line, const struct sf_test_mdef *m, size_t n)
{
	return add_at(ts, name, size, align, "slot.h", line, m, n);
}

static void test_names(void **state)
{
	(void)state;
	assert_int_equal(sf_tmpl_name_len("Slot<long int>"), 4);
	assert_int_equal(sf_tmpl_name_len("ns::Slot<std::pair<int, int> >"), 8);
	assert_int_equal(sf_tmpl_name_len("net::Conn"), 0);
	assert_int_equal(sf_tmpl_name_len("Box<int>::Node"), 0);
	assert_false(sf_tmpl_nested("ns::Slot<long int>"));
	assert_true(sf_tmpl_nested("Box<int>::Node"));
	assert_false(sf_tmpl_nested("net::Conn"));
}

/*
 * Slot<long int> {char tag; long value; int n;} (24) and Slot<char> (8)
 * of the primary template, Slot<int> of a specialization (another line),
 * Slotted<int> of another template: the order value, n, tag takes the
 * first to 16 and the second to 12.
 */
static void test_instances(void **state)
{
	(void)state;
	struct sf_typeset *ts = sf_typeset_new();
	static const struct sf_test_mdef sl[] = { { "tag", "char", 0, 1, 1 },
		{ "value", "long int", 8, 8, 8 }, { "n", "int", 16, 4, 4 } };
	static const struct sf_test_mdef sc[] = { { "tag", "char", 0, 1, 1 },
		{ "value", "char", 1, 1, 1 }, { "n", "int", 4, 4, 4 } };
	static const struct sf_test_mdef si[] = { { "tag", "char", 0, 1, 1 },
		{ "weight", "double", 8, 8, 8 }, { "mark", "char", 16, 1, 1 } };
	const struct sf_type *t = add(ts, "Slot<long int>", 24, 8, 6, sl, 3);
	const struct sf_type *c = add(ts, "Slot<char>", 8, 4, 6, sc, 3);
	const struct sf_type *i = add(ts, "Slot<int>", 24, 8, 12, si, 3);
	add(ts, "Slotted<int>", 8, 4, 6, sc, 3);
	/* another unit's spelling of the header's directory: checked too */
	const struct sf_type *u = add_at(ts, "Slot<unsigned char>", 8, 4, "/src/./slot.h", 6, sc, 3);
	const struct sf_type **v, **spec;
	size_t nspec;

	assert_int_equal(sf_tmpl_instances(ts, t, &v, &spec, &nspec), 2);
	assert_ptr_equal(v[0], c);
	assert_ptr_equal(v[1], u);
	assert_int_equal(nspec, 1);
	assert_ptr_equal(spec[0], i);

	uint32_t order[] = { 1, 2, 0 };
	struct sf_tmpl_plan pl = { order, NULL, true, NULL, 0 };
	struct sf_tmpl_inst r;
	sf_tmpl_resize(t, &pl, c, ts, &r);
	assert_int_equal(r.state, SF_TMPL_OK);
	assert_int_equal(r.old_size, 8);
	assert_int_equal(r.new_size, 12);
	sf_tmpl_resize(t, &pl, t, ts, &r);
	assert_int_equal(r.new_size, 16);

	/* value's type is the parameter's: no narrowing of it */
	struct sf_srcpatch_narrow nw = { 1, 4 };
	pl.narrow = &nw;
	pl.nnarrow = 1;
	sf_tmpl_resize(t, &pl, c, ts, &r);
	assert_int_equal(r.state, SF_TMPL_NARROW);
	assert_string_equal(r.member, "value");
	/* n's is not: narrowed to 2 bytes in Slot<char> too, value n tag: 1+1, 2, 1 */
	nw = (struct sf_srcpatch_narrow){ 2, 2 };
	sf_tmpl_resize(t, &pl, c, ts, &r);
	assert_int_equal(r.state, SF_TMPL_OK);
	assert_int_equal(r.new_size, 6);
	/* other members: no size */
	sf_tmpl_resize(t, &pl, i, ts, &r);
	assert_int_equal(r.state, SF_TMPL_MEMBERS);

	/* the header's lines (report/patch.c) */
	struct sf_tmpl_inst two[] = { { t, 24, 16, SF_TMPL_OK, NULL }, { c, 8, 12, SF_TMPL_OK, NULL } };
	struct strbuf note = STRBUF_INIT;
	sf_render_patch_tmpl_note(&note, "Slot", two, 2, spec, nspec);
	assert_string_equal(note.buf,
		"  class template Slot: its member declarations give every instantiation its "
		"layout; those in the inputs, before -> after: Slot<long int> 24 -> 16, "
		"Slot<char> 8 -> 12\n"
		"  left as they are, declared by a specialization of their own: Slot<int> "
		"(line 12)\n");
	sb_release(&note);
	free(v);
	free(spec);
	sf_typeset_free(ts);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_instances),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
