/*
 * test_typeset.c - model/typeset.c on hand-built models: deduplication,
 * variants, and names read the way C reads them.
 *
 * C keeps tags (`struct x`, `union x`) apart from ordinary identifiers
 * (typedef names): glibc has both `union dtv` and `typedef struct {...}
 * dtv`.  Those are two names, never two definitions of one (variants), and
 * a lookup picks the one the spelling means.  No DWARF is read.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "model/typeset.h"

/* A one-member type allocated in ts (members live in its arena). */
static struct sf_type *mk(struct sf_typeset *ts, const char *name, enum sf_kind kind,
			  uint64_t size, uint16_t flags)
{
	struct sf_type *t = sf_typeset_alloc(ts, sizeof(*t));
	struct sf_member *m = sf_typeset_alloc(ts, sizeof(*m));

	m->name = sf_typeset_intern(ts, "x");
	m->type_name = sf_typeset_intern(ts, "long");
	m->type_suffix = sf_typeset_intern(ts, "");
	m->size = size;
	m->align = 8;
	m->tclass = SF_T_INT;
	t->name = sf_typeset_intern(ts, name);
	t->kind = (uint8_t)kind;
	t->flags = flags;
	t->size = size;
	t->align = 8;
	t->decl_file = "";
	t->origin = "t.o";
	t->nmembers = 1;
	t->members = m;
	t->addr_size = 8;
	return t;
}

static void test_tag_and_typedef_are_two_names(void **state)
{
	struct sf_typeset *ts = sf_typeset_new();
	const struct sf_type *found[4];

	(void)state;
	/* union dtv { long c; void *p; }; typedef struct { union dtv d[2]; } dtv; */
	const struct sf_type *u = sf_typeset_add(ts, mk(ts, "dtv", SF_KIND_UNION, 8, 0));
	const struct sf_type *td = sf_typeset_add(ts, mk(ts, "dtv", SF_KIND_STRUCT, 16,
							 SF_TF_TYPEDEF));
	assert_ptr_not_equal(u, td);
	assert_int_equal(sf_typeset_count(ts), 2);
	assert_false(u->flags & SF_TF_VARIANT);
	assert_false(td->flags & SF_TF_VARIANT);

	/* the tag when the spelling says so */
	assert_int_equal(sf_typeset_find(ts, "union dtv", found, 4), 1);
	assert_ptr_equal(found[0], u);
	/* a bare name is the typedef name, as in C */
	assert_int_equal(sf_typeset_find(ts, "dtv", found, 4), 1);
	assert_ptr_equal(found[0], td);
	assert_int_equal(sf_typeset_find(ts, "typedef dtv", found, 4), 1);
	assert_ptr_equal(found[0], td);
	/* no tag `struct dtv`: the typedef'd struct is what that can mean */
	assert_int_equal(sf_typeset_find(ts, "struct dtv", found, 4), 1);
	assert_ptr_equal(found[0], td);
	assert_int_equal(sf_typeset_find_ns(ts, "dtv", 0, found, 4), 1);
	assert_ptr_equal(found[0], u);
	assert_int_equal(sf_typeset_find_ns(ts, "dtv", 1, found, 4), 1);
	assert_ptr_equal(found[0], td);
	sf_typeset_free(ts);
}

/* A name hash made once serves the lookup and the add, as a merge uses
 * them: canonical for templates, one per namespace. */
static void test_named_with_a_hash_made_once(void **state)
{
	struct sf_typeset *ts = sf_typeset_new();
	struct sf_typeset *other = sf_typeset_new();
	const struct sf_type *found[4];

	(void)state;
	struct sf_type *a = mk(ts, "Slot<long int>", SF_KIND_STRUCT, 8, 0);
	a->hash = sf_type_hash(a);
	uint64_t ha = sf_typeset_name_hash(a);
	assert_int_equal(sf_typeset_find_named(ts, a, ha, found, 4), 0);
	assert_ptr_equal(sf_typeset_add_named(ts, a, ha), a);
	/* the other spelling of the same template: the same hash, found */
	struct sf_type *b = mk(other, "Slot<long>", SF_KIND_STRUCT, 8, 0);
	uint64_t hb = sf_typeset_name_hash(b);
	assert_true(hb == ha);
	assert_int_equal(sf_typeset_find_named(ts, b, hb, found, 4), 1);
	assert_ptr_equal(found[0], a);
	assert_int_equal(sf_typeset_find_ns(ts, "Slot<long>", 0, found, 4), 1);
	/* a typedef of that name hashes apart, and is not found as the tag */
	struct sf_type *td = mk(other, "Slot<long>", SF_KIND_STRUCT, 8, SF_TF_TYPEDEF);
	uint64_t htd = sf_typeset_name_hash(td);
	assert_true(htd != hb);
	assert_int_equal(sf_typeset_find_named(ts, td, htd, found, 4), 0);
	td->hash = sf_type_hash(td);
	assert_ptr_equal(sf_typeset_add_named(ts, td, htd), td);
	assert_int_equal(sf_typeset_find_ns(ts, "Slot<long int>", 1, found, 4), 1);
	assert_ptr_equal(found[0], td);
	/* as sf_typeset_add_hashed, which makes the hash itself */
	struct sf_type *c = mk(ts, "Slot<long>", SF_KIND_STRUCT, 16, 0);
	c->hash = sf_type_hash(c);
	assert_ptr_equal(sf_typeset_add_hashed(ts, c), c);
	assert_int_equal(sf_typeset_find_named(ts, b, hb, found, 4), 2);
	assert_true(c->flags & SF_TF_VARIANT);
	/* every type's name hash read back from the index: the first of a
	 * name, its variant, the typedef, and an anonymous struct */
	sf_typeset_add(ts, mk(ts, "", SF_KIND_STRUCT, 24, 0));
	sf_typeset_add(ts, mk(ts, "plain", SF_KIND_UNION, 8, 0));
	uint64_t all[8];
	assert_int_equal(sf_typeset_count(ts), 5);
	sf_typeset_name_hashes(ts, all);
	for (size_t i = 0; i < sf_typeset_count(ts); i++)
		assert_true(all[i] == sf_typeset_name_hash(sf_typeset_get(ts, i)));
	assert_true(all[0] == all[2]);	/* Slot<long int> and its variant */
	assert_true(all[0] != all[1]);	/* the typedef's */
	sf_typeset_free(other);
	sf_typeset_free(ts);
}

/* The memo's spellings hash as spelling each anew: types of clang's
 * spellings (`unsigned long`, `Slot<unsigned long>`) and gcc's, members
 * repeating one address, added through one memo. */
static void test_spell_memo_hashes_the_same(void **state)
{
	struct sf_typeset *ts = sf_typeset_new(), *plain = sf_typeset_new();
	struct sf_spell_memo *m = sf_spell_memo_new();
	const struct sf_type *found[4];
	const char *names[] = { "Slot<unsigned long>", "Slot<long unsigned int>", "plain",
				"Map<char const*, Slot<unsigned long> >" };
	const char *types[] = { "unsigned long", "Slot<unsigned long>", "long", "const char *" };

	(void)state;
	for (size_t round = 0; round < 2; round++) {
		for (size_t i = 0; i < 4; i++) {
			struct sf_type *t = mk(ts, names[i], SF_KIND_STRUCT, 8 + 8 * i, 0);
			struct sf_type *u = mk(plain, names[i], SF_KIND_STRUCT, 8 + 8 * i, 0);
			t->members[0].type_name = sf_typeset_intern(ts, types[i]);
			u->members[0].type_name = sf_typeset_intern(plain, types[i]);
			assert_true(sf_type_hash_memo(t, m) == sf_type_hash(u));
			sf_typeset_add_memo(ts, t, m);
			sf_typeset_add(plain, u);
			assert_true(t->hash == u->hash);
		}
	}
	/* the two spellings of one template are one name (variants: sizes
	 * differ), found by either spelling, in both sets */
	assert_int_equal(sf_typeset_find_ns(ts, "Slot<unsigned long>", 0, found, 4), 2);
	assert_int_equal(sf_typeset_find_ns(plain, "Slot<long unsigned int>", 0, found, 4), 2);
	assert_int_equal(sf_typeset_count(ts), sf_typeset_count(plain));
	sf_spell_memo_free(m);
	sf_typeset_free(plain);
	sf_typeset_free(ts);
}

static void test_variants_within_a_namespace(void **state)
{
	struct sf_typeset *ts = sf_typeset_new();
	const struct sf_type *found[4];

	(void)state;
	/* two struct tags `conf` that differ: variants; a bare name with no
	 * typedef of that name finds the tags */
	const struct sf_type *a = sf_typeset_add(ts, mk(ts, "conf", SF_KIND_STRUCT, 8, 0));
	const struct sf_type *b = sf_typeset_add(ts, mk(ts, "conf", SF_KIND_STRUCT, 16, 0));
	assert_true(a->flags & SF_TF_VARIANT);
	assert_true(b->flags & SF_TF_VARIANT);
	assert_int_equal(sf_typeset_find(ts, "conf", found, 4), 2);
	assert_int_equal(sf_typeset_find(ts, "struct conf", found, 4), 2);
	assert_int_equal(sf_typeset_find(ts, "union conf", found, 4), 0);
	assert_int_equal(sf_typeset_find(ts, "typedef conf", found, 4), 0);
	/* blanks after a name (a -t argument) are not part of it */
	assert_int_equal(sf_typeset_find(ts, "struct conf \t ", found, 4), 2);
	assert_int_equal(sf_typeset_find(ts, "conf ", found, 4), 2);
	assert_int_equal(sf_typeset_find(ts, "con", found, 4), 0);

	/* an identical definition is the one already there */
	assert_ptr_equal(sf_typeset_add(ts, mk(ts, "conf", SF_KIND_STRUCT, 8, 0)), a);

	/* two typedef names `conf` that differ: variants of each other,
	 * and nothing to do with the tags */
	const struct sf_type *c = sf_typeset_add(ts, mk(ts, "conf", SF_KIND_STRUCT, 24,
							SF_TF_TYPEDEF));
	assert_false(c->flags & SF_TF_VARIANT);
	const struct sf_type *d = sf_typeset_add(ts, mk(ts, "conf", SF_KIND_STRUCT, 32,
							SF_TF_TYPEDEF));
	assert_true(c->flags & SF_TF_VARIANT);
	assert_true(d->flags & SF_TF_VARIANT);
	assert_int_equal(sf_typeset_find(ts, "conf", found, 4), 2);
	assert_true(found[0]->flags & SF_TF_TYPEDEF);
	assert_true(found[1]->flags & SF_TF_TYPEDEF);
	assert_int_equal(sf_typeset_find(ts, "struct conf", found, 4), 2);
	assert_false(found[0]->flags & SF_TF_TYPEDEF);
	assert_int_equal(sf_typeset_count(ts), 4);
	sf_typeset_free(ts);
}

/* Absorbing keeps the namespaces apart too (readers on several threads). */
static void test_absorb_keeps_namespaces(void **state)
{
	struct sf_typeset *dst = sf_typeset_new(), *src = sf_typeset_new();
	const struct sf_type *found[4];

	(void)state;
	sf_typeset_add(dst, mk(dst, "dtv", SF_KIND_UNION, 8, 0));
	sf_typeset_add(src, mk(src, "dtv", SF_KIND_STRUCT, 16, SF_TF_TYPEDEF));
	sf_typeset_absorb(dst, src);
	assert_int_equal(sf_typeset_count(dst), 2);
	for (size_t i = 0; i < 2; i++)
		assert_false(sf_typeset_get(dst, i)->flags & SF_TF_VARIANT);
	assert_int_equal(sf_typeset_find(dst, "union dtv", found, 4), 1);
	assert_int_equal(found[0]->kind, SF_KIND_UNION);
	sf_typeset_free(dst);
}

/* Absorbing takes src's hashes as they are (sf_typeset_add_hashed): each
 * is still the hash computed from the type, and an equal type is kept once. */
static void test_absorb_keeps_hashes(void **state)
{
	struct sf_typeset *dst = sf_typeset_new(), *src = sf_typeset_new();

	(void)state;
	sf_typeset_add(dst, mk(dst, "a", SF_KIND_STRUCT, 8, 0));
	sf_typeset_add(src, mk(src, "a", SF_KIND_STRUCT, 8, 0));
	sf_typeset_add(src, mk(src, "b", SF_KIND_UNION, 4, 0));
	sf_typeset_absorb(dst, src);
	assert_int_equal(sf_typeset_count(dst), 2);
	for (size_t i = 0; i < 2; i++) {
		const struct sf_type *t = sf_typeset_get(dst, i);
		assert_true(t->hash == sf_type_hash(t));
	}
	assert_string_equal(sf_typeset_get(dst, 1)->name, "b");
	sf_typeset_free(dst);
}

/*
 * typedef struct _IO_FILE FILE; typedef FILE F2;  "FILE" and "F2" find
 * struct _IO_FILE; a type really called FILE wins over the alias; a kind
 * prefix ("struct FILE") never follows one; a cycle ends.
 */
static void test_typedef_alias(void **state)
{
	struct sf_typeset *ts = sf_typeset_new(), *src = sf_typeset_new();
	const struct sf_type *found[4];

	(void)state;
	const struct sf_type *io = sf_typeset_add(ts, mk(ts, "_IO_FILE", SF_KIND_STRUCT, 216, 0));
	assert_int_equal(sf_typeset_find(ts, "FILE", found, 4), 0);
	sf_typeset_add_alias(src, "FILE", "_IO_FILE");
	sf_typeset_add_alias(src, "FILE", "_IO_FILE");      /* once */
	sf_typeset_add_alias(src, "F2", "FILE");
	sf_typeset_absorb(ts, src);
	assert_int_equal(sf_typeset_find(ts, "FILE", found, 4), 1);
	assert_ptr_equal(found[0], io);
	assert_int_equal(sf_typeset_find(ts, "typedef FILE", found, 4), 1);
	assert_int_equal(sf_typeset_find(ts, "F2", found, 4), 1);
	assert_ptr_equal(found[0], io);
	assert_int_equal(sf_typeset_find(ts, "struct FILE", found, 4), 0);
	assert_string_equal(sf_typeset_alias_target(ts, "FILE"), "_IO_FILE");

	const struct sf_type *own = sf_typeset_add(ts, mk(ts, "FILE", SF_KIND_STRUCT, 8,
							  SF_TF_TYPEDEF));
	assert_int_equal(sf_typeset_find(ts, "FILE", found, 4), 1);
	assert_ptr_equal(found[0], own);

	sf_typeset_add_alias(ts, "A", "B");
	sf_typeset_add_alias(ts, "B", "A");
	assert_int_equal(sf_typeset_find(ts, "A", found, 4), 0);
	sf_typeset_free(ts);
}

/* Enumerators are part of a definition: different values, different types. */
static void test_enumerators_in_identity(void **state)
{
	struct sf_typeset *ts = sf_typeset_new();
	static const struct sf_enumerator v1[] = { { "A", 0 }, { "B", 1 } };
	static const struct sf_enumerator v2[] = { { "A", 0 }, { "B", 2 } };
	static const struct sf_enum e1 = { 2, v1 }, e1b = { 2, v1 }, e2 = { 2, v2 };

	(void)state;
	struct sf_type *a = mk(ts, "with_enum", SF_KIND_STRUCT, 8, 0);
	struct sf_type *b = mk(ts, "with_enum", SF_KIND_STRUCT, 8, 0);
	struct sf_type *c = mk(ts, "with_enum", SF_KIND_STRUCT, 8, 0);
	a->members[0].enums = &e1;
	b->members[0].enums = &e1b;
	c->members[0].enums = &e2;
	assert_true(sf_type_equal(a, b));
	assert_int_equal(sf_type_hash(a), sf_type_hash(b));
	assert_false(sf_type_equal(a, c));
	assert_ptr_equal(sf_typeset_add(ts, a), a);
	assert_ptr_equal(sf_typeset_add(ts, b), a);
	assert_ptr_equal(sf_typeset_add(ts, c), c);
	assert_true(a->flags & SF_TF_VARIANT);
	sf_typeset_free(ts);
}

/* A spelling "struct X" and the name X share their bytes when X is new,
 * in either order of need: the name as the spelling's tail. */
static void test_spelling_and_name_share_bytes(void **state)
{
	struct sf_typeset *ts = sf_typeset_new();
	char name[700], spelled[720];

	(void)state;
	const char *s = sf_typeset_intern(ts, "struct ns::X<int>");
	assert_ptr_equal(sf_typeset_intern(ts, "ns::X<int>"), s + 7);
	const char *e = sf_typeset_intern(ts, "enum color");
	assert_ptr_equal(sf_typeset_intern(ts, "color"), e + 5);
	/* a name interned first keeps its own bytes, and stays the one copy */
	const char *y = sf_typeset_intern(ts, "Y");
	const char *cy = sf_typeset_intern(ts, "class Y");
	assert_string_equal(cy + 6, "Y");
	assert_ptr_not_equal(cy + 6, y);
	assert_ptr_equal(sf_typeset_intern(ts, "Y"), y);
	/* a type's name goes in through its spelling */
	const char *u = sf_typeset_intern_type_name(ts, SF_KIND_UNION, "u_t");
	assert_string_equal(u, "u_t");
	assert_ptr_equal(sf_typeset_intern(ts, "union u_t"), u - 6);
	assert_ptr_equal(sf_typeset_intern_type_name(ts, SF_KIND_CLASS, "ns::X<int>"),
			 sf_typeset_intern(ts, "ns::X<int>"));
	assert_ptr_equal(sf_typeset_intern_type_name(ts, SF_KIND_STRUCT, ""),
			 sf_typeset_intern(ts, ""));
	/* no keyword, or a keyword and nothing after it: no tail */
	const char *kw = sf_typeset_intern(ts, "struct ");
	assert_ptr_not_equal(sf_typeset_intern(ts, ""), kw + 7);
	const char *st = sf_typeset_intern(ts, "structure");
	assert_ptr_not_equal(sf_typeset_intern(ts, "ure"), st + 6);
	/* longer than the stack buffer of intern_type_name */
	memset(name, 'n', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	const char *long_name = sf_typeset_intern_type_name(ts, SF_KIND_STRUCT, name);
	snprintf(spelled, sizeof(spelled), "struct %s", name);
	assert_ptr_equal(sf_typeset_intern(ts, spelled), long_name - 7);
	/* through the table's growth: every tail found again */
	const char *tails[3000];
	for (int i = 0; i < 3000; i++) {
		snprintf(spelled, sizeof(spelled), "struct s%d", i);
		tails[i] = sf_typeset_intern(ts, spelled) + 7;
	}
	for (int i = 0; i < 3000; i++) {
		snprintf(name, sizeof(name), "s%d", i);
		assert_ptr_equal(sf_typeset_intern(ts, name), tails[i]);
	}
	sf_typeset_free(ts);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tag_and_typedef_are_two_names),
		cmocka_unit_test(test_named_with_a_hash_made_once),
		cmocka_unit_test(test_spell_memo_hashes_the_same),
		cmocka_unit_test(test_variants_within_a_namespace),
		cmocka_unit_test(test_absorb_keeps_namespaces),
		cmocka_unit_test(test_absorb_keeps_hashes),
		cmocka_unit_test(test_enumerators_in_identity),
		cmocka_unit_test(test_typedef_alias),
		cmocka_unit_test(test_spelling_and_name_share_bytes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
