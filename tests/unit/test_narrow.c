/*
 * test_narrow.c - the narrowing search on the structs that motivate it.
 *
 * st_table (Ruby): narrowing entries_start 8 -> 1 into the hole at offset
 * 3 takes it from 48 to 40 bytes, and RHash + st_table from 72 to 64:
 * class 80 -> 64 for the classes 64,80.  It must be listed first.
 * _dictkeysobject (CPython): three uint8_t then a uint32_t leave a 1-byte
 * hole.  redisObject (Redis): a bit-field run type:4, encoding:4, lru:24
 * that is never narrowed or split; its pointer as a 4-byte index.  Types
 * are built here with offsets from the C layout rule (computed by this
 * file, not by layout/).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "layout/classes.h"
#include "model/model.h"
#include "layout/narrow.h"
#include "model/typeset.h"
#include "report/reasons.h"

struct mspec {
	const char *name;
	const char *type_name;
	uint64_t size, align;
	int tclass;
	uint16_t flags;
	uint32_t bits;          /* bit-field width, 0 for none */
};

static uint64_t rup(uint64_t x, uint64_t a)
{
	return (x + a - 1) / a * a;
}

/* The SysV C layout of ms[0..n) in declaration order. */
static struct sf_type *build(struct sf_typeset *ts, const char *name,
			     const struct mspec *ms, int n)
{
	struct sf_type *t = sf_typeset_alloc(ts, sizeof(*t));
	uint64_t bit = 0, al = 1;

	t->name = name;
	t->kind = SF_KIND_STRUCT;
	t->decl_file = "";
	t->nmembers = (uint32_t)n;
	t->members = sf_typeset_alloc(ts, (size_t)n * sizeof(struct sf_member));
	for (int i = 0; i < n; i++) {
		struct sf_member *m = &t->members[i];
		uint64_t unit = 8 * ms[i].size;
		m->name = ms[i].name;
		m->type_name = ms[i].type_name;
		m->type_suffix = ms[i].flags & SF_MF_FLEX_ARRAY ? "[]" : "";
		m->size = ms[i].size;
		m->align = (uint32_t)ms[i].align;
		m->tclass = (uint8_t)ms[i].tclass;
		m->flags = ms[i].flags;
		if (ms[i].bits) {
			if (bit / unit != (bit + ms[i].bits - 1) / unit)
				bit = rup(bit, unit);   /* no straddling */
			m->offset = bit / unit * ms[i].size;
			m->bit_offset = (uint32_t)(bit - 8 * m->offset);
			m->bit_size = ms[i].bits;
			m->flags |= SF_MF_BITFIELD;
			bit += ms[i].bits;
		} else {
			bit = rup(bit, 8 * ms[i].align);
			m->offset = bit / 8;
			bit += 8 * ms[i].size;
		}
		al = ms[i].align > al ? ms[i].align : al;
	}
	t->align = (uint32_t)al;
	t->size = rup((bit + 7) / 8, al);
	return t;
}

static const struct mspec st_table[] = {
	{ "entry_power", "unsigned char", 1, 1, SF_T_INT, 0, 0 },
	{ "bin_power", "unsigned char", 1, 1, SF_T_INT, 0, 0 },
	{ "size_ind", "unsigned char", 1, 1, SF_T_INT, 0, 0 },
	{ "rebuilds_num", "unsigned int", 4, 4, SF_T_INT, 0, 0 },
	{ "type", "const struct st_hash_type *", 8, 8, SF_T_POINTER, 0, 0 },
	{ "num_entries", "st_index_t", 8, 8, SF_T_INT, 0, 0 },
	{ "entries_start", "st_index_t", 8, 8, SF_T_INT, 0, 0 },
	{ "entries_bound", "st_index_t", 8, 8, SF_T_INT, 0, 0 },
	{ "entries", "struct st_table_entry *", 8, 8, SF_T_POINTER, 0, 0 },
};

static const char *member_name(const struct sf_type *t, const struct sf_narrowing *nw, int k)
{
	return t->members[nw->member[k]].name;
}

static void test_st_table(void **state)
{
	struct sf_typeset *ts = sf_typeset_new();
	struct sf_type *t = build(ts, "st_table", st_table, 9);
	struct sf_classes cls;
	struct sf_classes_refusal cls_why;
	struct sf_narrow_result res;

	(void)state;
	assert_int_equal(t->size, 48);
	assert_int_equal(sf_classes_parse("64,80", &cls, &cls_why), 0);
	struct sf_narrow_opts o = { &cls, 24, 0, NULL, true, 0, false };
	sf_narrow_search(t, &o, &res);

	assert_int_equal(res.reorder_size, 48);
	assert_true(res.n >= 1);
	const struct sf_narrowing *first = &res.v[0];
	assert_int_equal(first->n, 1);
	/* the three st_index_t members tie: entries_start, a start hint that
	 * may lag (Ruby narrowed it), ranks first */
	assert_string_equal(member_name(t, first, 0), "entries_start");
	assert_int_equal(first->from[0], 8);
	assert_int_equal(first->to[0], 1);
	assert_int_equal(first->offset[0], 3);          /* into the hole */
	assert_int_equal(first->size, 40);
	assert_int_equal(first->saved, 8);
	assert_int_equal(24 + t->size, 72);
	assert_int_equal(cls.v[first->class_before], 80);
	assert_int_equal(cls.v[first->class_after], 64);
	assert_int_equal(first->moves, 1);
	assert_true(first->exact);
	assert_false(res.pairs_searched);

	/* then the bound, and the exact count last: narrowing num_entries
	 * caps the table at 255 entries.  All three are alternatives. */
	assert_int_equal(res.n, 3);
	assert_string_equal(member_name(t, &res.v[1], 0), "entries_bound");
	assert_string_equal(member_name(t, &res.v[2], 0), "num_entries");
	assert_true(sf_narrowings_tie(&res.v[0], &res.v[1]));
	assert_true(sf_narrowings_tie(&res.v[0], &res.v[2]));
	struct sf_narrowing other = res.v[0];
	other.size++;
	assert_false(sf_narrowings_tie(&res.v[0], &other));
	char why[256];
	sf_narrow_overflow(&t->members[6], 1, why, sizeof(why));
	assert_string_equal(why, "past 255: saturate and fall back, never wrap "
			    "(it counts or indexes: grows with the data)");
	sf_narrow_overflow(&t->members[4], 4, why, sizeof(why));   /* type: a pointer */
	assert_string_equal(why, "past index 4294967295: the arena must refuse, never wrap");
	sf_narrow_overflow(&t->members[0], 1, why, sizeof(why) - 200);   /* cut, not overrun */
	assert_int_equal(strlen(why), sizeof(why) - 201);
	for (size_t i = 0; i < res.n; i++) {
		assert_int_equal(res.v[i].size, 40);
		assert_int_equal(res.v[i].to[0], 1);
	}
	sf_narrow_release(&res);

	/* --narrow entries_start=1 applied first: nothing more to gain */
	struct sf_narrow_req req = { 6, 1 };
	const struct sf_type *nt = sf_type_narrow(t, &req, 1, ts);
	assert_string_equal(nt->members[6].type_name, "uint8_t");
	assert_int_equal(nt->members[6].offset, 24);     /* in place */
	assert_int_equal(nt->members[7].offset, 32);
	assert_int_equal(nt->size, 48);
	struct sf_narrow_opts o2 = { &cls, 24, 48, NULL, true, 0, false };
	sf_narrow_search(nt, &o2, &res);
	assert_int_equal(res.reorder_size, 40);
	assert_int_equal(res.n, 0);
	assert_true(res.pairs_searched);
	sf_narrow_release(&res);

	sf_classes_release(&cls);
	sf_typeset_free(ts);
}

static void test_dictkeys(void **state)
{
	static const struct mspec dk[] = {
		{ "dk_refcnt", "Py_ssize_t", 8, 8, SF_T_INT, SF_MF_SIGNED, 0 },
		{ "dk_log2_size", "uint8_t", 1, 1, SF_T_INT, 0, 0 },
		{ "dk_log2_index_bytes", "uint8_t", 1, 1, SF_T_INT, 0, 0 },
		{ "dk_kind", "uint8_t", 1, 1, SF_T_INT, 0, 0 },
		{ "dk_version", "uint32_t", 4, 4, SF_T_INT, 0, 0 },
		{ "dk_usable", "Py_ssize_t", 8, 8, SF_T_INT, SF_MF_SIGNED, 0 },
		{ "dk_nentries", "Py_ssize_t", 8, 8, SF_T_INT, SF_MF_SIGNED, 0 },
		{ "dk_indices", "char", 0, 1, SF_T_ARRAY, SF_MF_FLEX_ARRAY, 0 },
	};
	struct sf_typeset *ts = sf_typeset_new();
	struct sf_type *t = build(ts, "_dictkeysobject", dk, 8);
	struct sf_narrow_result res;
	char buf[64];

	(void)state;
	assert_int_equal(t->size, 32);
	assert_int_equal(t->members[4].offset, 12);     /* after the 1-byte hole */
	struct sf_narrow_opts o = { NULL, 0, 0, NULL, true, 0, false };
	sf_narrow_search(t, &o, &res);
	assert_int_equal(res.reorder_size, 32);
	assert_false(res.pairs_searched);               /* no classes, no pairs */
	assert_int_equal(res.n, 3);
	/* narrowing the first member in place moves nothing */
	assert_string_equal(member_name(t, &res.v[0], 0), "dk_refcnt");
	assert_int_equal(res.v[0].moves, 0);
	for (size_t i = 0; i < res.n; i++) {
		assert_int_equal(res.v[i].size, 24);
		assert_int_equal(res.v[i].saved, 8);
		assert_int_equal(res.v[i].to[0], 1);
		assert_int_equal(res.v[i].class_after, SF_NO_CLASS);
	}
	/* dk_usable goes into the hole */
	assert_string_equal(member_name(t, &res.v[1], 0), "dk_usable");
	assert_int_equal(res.v[1].offset[0], 11);
	assert_int_equal(res.v[1].moves, 1);
	/* Py_ssize_t is signed */
	sf_narrow_range(&t->members[5], 1, buf, sizeof(buf));
	assert_string_equal(buf, "-128..127");
	sf_narrow_range(&t->members[4], 2, buf, sizeof(buf));
	assert_string_equal(buf, "0..65535");

	/* the flexible array stays last once dk_usable is narrowed */
	struct sf_narrow_req req = { 5, 1 };
	const struct sf_type *nt = sf_type_narrow(t, &req, 1, ts);
	assert_int_equal(nt->members[5].offset, 16);
	assert_int_equal(nt->members[6].offset, 24);
	assert_int_equal(nt->members[7].offset, 32);
	assert_int_equal(nt->size, 32);                  /* in place: no gain */
	sf_narrow_release(&res);
	sf_typeset_free(ts);
}

static void test_redis_object(void **state)
{
	static const struct mspec robj[] = {
		{ "type", "unsigned int", 4, 4, SF_T_INT, 0, 4 },
		{ "encoding", "unsigned int", 4, 4, SF_T_INT, 0, 4 },
		{ "lru", "unsigned int", 4, 4, SF_T_INT, 0, 24 },
		{ "refcount", "int", 4, 4, SF_T_INT, SF_MF_SIGNED, 0 },
		{ "ptr", "void *", 8, 8, SF_T_POINTER, 0, 0 },
	};
	struct sf_typeset *ts = sf_typeset_new();
	struct sf_type *t = build(ts, "redisObject", robj, 5);
	struct sf_classes cls;
	struct sf_classes_refusal cls_why;
	struct sf_narrow_result res;

	(void)state;
	assert_int_equal(t->size, 16);
	assert_int_equal(t->members[2].bit_offset, 8);
	assert_int_equal(t->members[3].offset, 4);
	assert_int_equal(sf_classes_parse("12,16", &cls, &cls_why), 0);
	struct sf_narrow_opts o = { &cls, 0, 0, NULL, true, 0, false };
	sf_narrow_search(t, &o, &res);
	/* only the pointer, as a 4-byte index: 12 bytes, 4-byte aligned */
	assert_int_equal(res.n, 1);
	assert_string_equal(member_name(t, &res.v[0], 0), "ptr");
	assert_int_equal(res.v[0].to[0], 4);
	assert_int_equal(res.v[0].size, 12);
	assert_int_equal(cls.v[res.v[0].class_after], 12);
	sf_narrow_release(&res);

	/* the bit-fields cannot be narrowed; refcount can, ptr only to an index */
	struct strbuf sb = STRBUF_INIT;
	assert_int_equal(sf_narrow_check(&t->members[2], 1), SF_NARROW_BITFIELD);
	sf_narrow_refusal_say(&sb, SF_NARROW_BITFIELD, &t->members[2], 1);
	assert_non_null(strstr(sb.buf, "bit-field"));
	assert_int_equal(sf_narrow_check(&t->members[3], 2), SF_NARROW_OK);
	assert_int_equal(sf_narrow_check(&t->members[3], 4), SF_NARROW_NOT_SMALLER);
	sb_reset(&sb);
	sf_narrow_refusal_say(&sb, SF_NARROW_NOT_SMALLER, &t->members[3], 4);
	assert_string_equal(sb.buf, "4 bytes is not smaller than its 4 bytes");
	assert_int_equal(sf_narrow_check(&t->members[3], 3), SF_NARROW_BAD_WIDTH);
	/* a C++ vtable pointer is the compiler's, not the user's */
	struct sf_member vptr = t->members[4];
	vptr.flags |= SF_MF_VPTR;
	assert_int_equal(sf_narrow_check(&vptr, 4), SF_NARROW_COMPILER_MADE);
	sb_reset(&sb);
	sf_narrow_refusal_say(&sb, SF_NARROW_COMPILER_MADE, &vptr, 4);
	assert_non_null(strstr(sb.buf, "made by the compiler"));
	sb_release(&sb);

	/* narrowed in place, the run keeps its bits */
	struct sf_narrow_req req = { 4, 4 };
	const struct sf_type *nt = sf_type_narrow(t, &req, 1, ts);
	assert_int_equal(nt->size, 12);
	assert_int_equal(nt->align, 4);
	assert_int_equal(nt->members[2].bit_offset, 8);
	assert_int_equal(nt->members[2].bit_size, 24);
	assert_int_equal(nt->members[4].offset, 8);
	sf_classes_release(&cls);
	sf_typeset_free(ts);
}

/* No single narrowing crosses a class: pairs are searched. */
static void test_pairs(void **state)
{
	static const struct mspec three[] = {
		{ "a", "int", 4, 4, SF_T_INT, SF_MF_SIGNED, 0 },
		{ "b", "int", 4, 4, SF_T_INT, SF_MF_SIGNED, 0 },
		{ "c", "int", 4, 4, SF_T_INT, SF_MF_SIGNED, 0 },
	};
	struct sf_typeset *ts = sf_typeset_new();
	struct sf_type *t = build(ts, "three", three, 3);
	struct sf_classes cls;
	struct sf_classes_refusal cls_why;
	struct sf_narrow_result res;

	(void)state;
	assert_int_equal(t->size, 12);
	assert_int_equal(sf_classes_parse("8,12", &cls, &cls_why), 0);
	struct sf_narrow_opts o = { &cls, 0, 0, NULL, true, 0, false };
	sf_narrow_search(t, &o, &res);
	assert_true(res.pairs_searched);
	assert_int_equal(res.n, 3);                     /* (a,b) (a,c) (b,c) */
	for (size_t i = 0; i < res.n; i++) {
		assert_int_equal(res.v[i].n, 2);
		assert_int_equal(res.v[i].size, 8);
		/* the widest widths that reach class 8: 2 and 2, not 1 */
		assert_int_equal(res.v[i].to[0], 2);
		assert_int_equal(res.v[i].to[1], 2);
		assert_int_equal(cls.v[res.v[i].class_after], 8);
	}
	assert_string_equal(member_name(t, &res.v[0], 0), "a");
	assert_string_equal(member_name(t, &res.v[0], 1), "b");
	assert_int_equal(res.v[0].moves, 0);
	sf_narrow_release(&res);
	sf_classes_release(&cls);
	sf_typeset_free(ts);
}

static void test_pin_after_narrowing(void **state)
{
	/* { char a; long b; long c; }: c pinned at its in-place offset */
	static const struct mspec s[] = {
		{ "a", "char", 1, 1, SF_T_INT, SF_MF_SIGNED, 0 },
		{ "b", "long", 8, 8, SF_T_INT, SF_MF_SIGNED, 0 },
		{ "c", "long", 8, 8, SF_T_INT, SF_MF_SIGNED, 0 },
	};
	struct sf_typeset *ts = sf_typeset_new();
	struct sf_type *t = build(ts, "pinned", s, 3);
	bool pin[3] = { false, false, true };
	struct sf_narrow_result res;

	(void)state;
	assert_int_equal(t->size, 24);
	struct sf_narrow_opts o = { NULL, 0, 0, pin, true, 0, false };
	sf_narrow_search(t, &o, &res);
	/* b -> 4: a@0 b@4 c@8 = 16 (c's in-place offset is 8) */
	assert_true(res.n >= 1);
	for (size_t i = 0; i < res.n; i++)
		if (!strcmp(member_name(t, &res.v[i], 0), "b") && res.v[i].to[0] == 4)
			assert_int_equal(res.v[i].size, 16);
	sf_narrow_release(&res);
	sf_typeset_free(ts);
}

static void test_name_counts(void **state)
{
	(void)state;
	assert_true(sf_name_counts("num_entries"));
	assert_true(sf_name_counts("entries_bound"));
	assert_true(sf_name_counts("itemCount"));
	assert_true(sf_name_counts("len"));
	assert_false(sf_name_counts("entries_start"));
	assert_false(sf_name_counts("dk_refcnt"));
	assert_false(sf_name_counts("numeric"));
	assert_false(sf_name_counts(""));
}

static void test_name_indexes(void **state)
{
	(void)state;
	assert_true(sf_name_indexes("entries_start"));
	assert_true(sf_name_indexes("readPos"));
	assert_true(sf_name_indexes("head"));
	assert_true(sf_name_indexes("tail_idx"));
	assert_true(sf_name_indexes("bufOffset"));
	assert_false(sf_name_indexes("startup"));
	assert_false(sf_name_indexes("heading"));
	assert_false(sf_name_indexes("flags"));
	assert_true(sf_name_grows("entries_start"));
	assert_true(sf_name_grows("num_entries"));
	assert_false(sf_name_grows("mode"));
}

/* Hints first, exact counts last; a count word wins over a hint word. */
static void test_name_role(void **state)
{
	(void)state;
	assert_int_equal(sf_name_role("entries_start"), SF_ROLE_HINT);
	assert_int_equal(sf_name_role("last_used_hint"), SF_ROLE_HINT);
	assert_int_equal(sf_name_role("cursor"), SF_ROLE_HINT);
	assert_int_equal(sf_name_role("lookupCache"), SF_ROLE_HINT);
	assert_int_equal(sf_name_role("mode"), SF_ROLE_PLAIN);
	assert_int_equal(sf_name_role("startup"), SF_ROLE_PLAIN);
	assert_int_equal(sf_name_role("entries_bound"), SF_ROLE_GROWS);
	assert_int_equal(sf_name_role("tail_idx"), SF_ROLE_GROWS);
	assert_int_equal(sf_name_role("num_entries"), SF_ROLE_COUNT);
	assert_int_equal(sf_name_role("nr_pages"), SF_ROLE_COUNT);
	assert_int_equal(sf_name_role("n_items"), SF_ROLE_COUNT);
	assert_int_equal(sf_name_role("itemCount"), SF_ROLE_COUNT);
	assert_int_equal(sf_name_role("buf_len"), SF_ROLE_COUNT);
	assert_int_equal(sf_name_role("capacity"), SF_ROLE_COUNT);
	assert_int_equal(sf_name_role("cached_len"), SF_ROLE_COUNT);
	assert_int_equal(sf_name_role(""), SF_ROLE_PLAIN);
}

/* A pointer is never a hint, whatever its name: an arena index in its place
 * is a design change, ranked after every narrowing that saves as much. */
static void test_pointer_role(void **state)
{
	static const struct mspec cv[] = {
		{ "hits", "long", 8, 8, SF_T_INT, 0, 0 },
		{ "cursor", "char *", 8, 8, SF_T_POINTER, 0, 0 },
		{ "tag", "char", 1, 1, SF_T_INT, 0, 0 },
	};
	struct sf_typeset *ts = sf_typeset_new();
	struct sf_type *t = build(ts, "cv", cv, 3);
	struct sf_narrow_result res;
	struct sf_narrow_opts o = { NULL, 0, 0, NULL, true, 0, false };

	(void)state;
	assert_int_equal(sf_name_role("cursor"), SF_ROLE_HINT);
	assert_int_equal(sf_member_role(&t->members[1]), SF_ROLE_DESIGN);
	assert_int_equal(sf_member_role(&t->members[0]), SF_ROLE_PLAIN);
	sf_narrow_search(t, &o, &res);
	/* hits 8 -> 4 and cursor 8 -> 4 each take 24 to 16: hits first */
	assert_true(res.n >= 2);
	assert_string_equal(member_name(t, &res.v[0], 0), "hits");
	assert_int_equal(res.v[0].to[0], 4);
	assert_string_equal(member_name(t, &res.v[1], 0), "cursor");
	assert_int_equal(res.v[1].size, res.v[0].size);
	assert_true(sf_narrowings_tie(&res.v[0], &res.v[1]));
	sf_narrow_release(&res);
	sf_typeset_free(ts);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_st_table),
		cmocka_unit_test(test_dictkeys),
		cmocka_unit_test(test_redis_object),
		cmocka_unit_test(test_pairs),
		cmocka_unit_test(test_pin_after_narrowing),
		cmocka_unit_test(test_name_counts),
		cmocka_unit_test(test_name_role),
		cmocka_unit_test(test_pointer_role),
		cmocka_unit_test(test_name_indexes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
