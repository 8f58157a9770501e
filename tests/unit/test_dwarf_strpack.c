/*
 * test_dwarf_strpack.c - a .debug_str packed (dwarf/strpack.h): which bytes
 * of each mangled name stay, every offset of the section read back through
 * the pack as the string it names in the section, the whole section
 * inflated again (the refill) exactly once and only when an offset lands
 * in a dropped range, the pack built from pieces of any size the same as
 * from the whole, its bytes let go with its counts kept, and the sections
 * that are not packed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "dwarf/strpack.h"
#include "lib/xalloc.h"

/* The section's strings, and how many bytes of each a pack keeps before
 * its NUL (-1: all of it). */
static const struct {
	const char *s;
	int kept;
} STRS[] = {
	{ "int", -1 },
	{ "plain_name_of_a_member", -1 },
	/* a source name behind its length at the end: kept */
	{ "_ZNK11md_config_t15get_my_sectionsB5cxx11ERK12ConfigValues", 12 },
	/* its length read from the last two digits: "v15_2_1" ends in one */
	{ "_ZN4ceph6buffer7v15_2_113listing_tails", 13 },
	/* no name at the end: the last 8 bytes */
	{ "_ZN5boost6system14error_categoryD2Ev", 8 },
	{ "_Z19ceph_release_to_strv", 8 },
	/* a local static's name, shorter than the tail always kept */
	{ "_ZZN5boost6system6detail15to_std_categoryERKNS0_14error_categoryEE7map_mx_", 8 },
	/* special names and identifiers that merely start so: whole */
	{ "_ZTv0_n24_NSt7__cxx1119basic_ostringstreamIcSt11char_traitsIcESaIcEED0Ev", -1 },
	{ "_ZAddressBadMask", -1 },
	/* too short to drop anything */
	{ "_Z3foov", -1 },
	/* an operator: lower case after _Z */
	{ "_ZdlPvS_21boost_container_new_t", 21 },
	/* a crowd: more dropped pieces in one block than a record holds */
	{ "_ZN3abc3defEv", 8 }, { "_ZN3abc3defEw", 8 }, { "_ZN3abc3defEx", 8 },
	{ "_ZN3abc3defEy", 8 }, { "_ZN3abc3defEz", 8 }, { "_ZN3abc3defEa", 8 },
	{ "_ZN3abc3defEb", 8 }, { "_ZN3abc3defEc", 8 }, { "_ZN3abc3defEd", 8 },
	{ "_ZN3abc3defEe", 8 }, { "_ZN3abc3defEf", 8 }, { "_ZN3abc3defEg", 8 },
	{ "a_name_after_the_crowd", -1 },
};
#define NSTRS (sizeof(STRS) / sizeof(STRS[0]))

struct section {
	unsigned char *bytes;
	size_t size;
	size_t kept;      /* what a pack should keep */
	size_t start[NSTRS];
};

/* The section, its strings repeated `times` over so that it spans many
 * blocks. */
static struct section make_section(unsigned times)
{
	struct section s = { NULL, 0, 0, { 0 } };
	size_t cap = 0;

	for (unsigned t = 0; t < times; t++)
		for (size_t i = 0; i < NSTRS; i++)
			cap += strlen(STRS[i].s) + 1;
	s.bytes = sf_xmalloc(cap);
	for (unsigned t = 0; t < times; t++) {
		for (size_t i = 0; i < NSTRS; i++) {
			size_t n = strlen(STRS[i].s) + 1;
			if (t == 0)
				s.start[i] = s.size;
			memcpy(s.bytes + s.size, STRS[i].s, n);
			s.size += n;
			s.kept += STRS[i].kept < 0 ? n : (size_t)STRS[i].kept + 1;
		}
	}
	return s;
}

struct refill {
	const struct section *sec;
	int calls;
};

static unsigned char *refill(void *arg, uint64_t size)
{
	struct refill *rf = arg;

	rf->calls++;
	assert_int_equal(size, rf->sec->size);
	unsigned char *b = sf_xmalloc(size);
	memcpy(b, rf->sec->bytes, size);
	return b;
}

/* Whether offset off of the section lies in what a pack keeps. */
static int kept_at(const struct section *s, size_t off)
{
	size_t at = 0;

	for (;;) {
		for (size_t i = 0; i < NSTRS; i++) {
			size_t n = strlen(STRS[i].s);
			if (off <= at + n) {
				size_t from = STRS[i].kept < 0 ? at : at + n - (size_t)STRS[i].kept;
				return off >= from;
			}
			at += n + 1;
		}
		assert_true(at < s->size);
	}
}

/* The pack of bytes[0, size) fed `piece` bytes at a time (0: all at once),
 * as the loader feeds what it inflates; refilled through rf. */
static struct sf_strpack *pack(const unsigned char *bytes, size_t size, size_t piece,
			       struct refill *rf, unsigned char **plain)
{
	struct sf_strpack_build *b = sf_strpack_begin(size);
	size_t done = 0, want = piece ? piece : size;

	*plain = NULL;
	if (!b)
		return NULL;
	while (done < size) {
		size_t n = size - done < want ? size - done : want;
		size_t used = sf_strpack_feed(b, bytes + done, n, n);
		assert_true(used <= n);
		if (!used && n == size - done)
			break;	/* no NUL in what is left */
		/* a piece without a whole string comes again, longer */
		want = used ? (piece ? piece : size) : want + piece;
		done += used;
	}
	return sf_strpack_end(b, plain, refill, rf);
}

/* Every offset read back as the section's string; the refill made only
 * once a dropped offset is read. */
static void check_pack(const struct section *s, const struct sf_strpack *p, struct refill *rf)
{
	assert_int_equal(p->size, s->size);
	assert_int_equal(p->kept, s->kept);
	for (size_t off = 0; off < s->size; off++) {
		if (!kept_at(s, off))
			continue;
		assert_string_equal(sf_strpack_at(p, off), (const char *)s->bytes + off);
	}
	assert_int_equal(rf->calls, 0);
	assert_int_equal(sf_strpack_misses(p), 0);
	for (size_t off = 0; off < s->size; off++)
		assert_string_equal(sf_strpack_at(p, off), (const char *)s->bytes + off);
	assert_int_equal(rf->calls, 1);
	assert_true(sf_strpack_misses(p) > 0);
}

/* Built from the whole section (piece 0) or from pieces
 * of a few bytes to a page: the same pack.  The crowd of 12 short names
 * fills blocks past what a record holds. */
static void test_pack(void **state)
{
	(void)state;
	struct section s = make_section(40);
	static const size_t pieces[] = { 0, 1, 7, 64, 100, 4096 };

	for (size_t k = 0; k < sizeof(pieces) / sizeof(pieces[0]); k++) {
		struct refill rf = { &s, 0 };
		unsigned char *plain = (unsigned char *)"not set";
		struct sf_strpack *p = pack(s.bytes, s.size, pieces[k], &rf, &plain);
		assert_non_null(p);
		assert_null(plain);
		check_pack(&s, p, &rf);
		sf_strpack_free(p);
	}
	free(s.bytes);
}

/* The memo answers as the pack does, hit or not, and forgets a pack it
 * was not made for. */
static void test_memo(void **state)
{
	(void)state;
	struct section s = make_section(8);
	struct refill rf = { &s, 0 };
	unsigned char *plain;
	struct sf_strpack *p = pack(s.bytes, s.size, 0, &rf, &plain);
	struct sf_strpack *q = pack(s.bytes, s.size, 0, &rf, &plain);
	struct sf_strmemo *m = sf_xcalloc(1, sizeof(*m));

	for (int round = 0; round < 2; round++)
		for (size_t i = 0; i < NSTRS; i++) {
			size_t off = s.start[i] + (STRS[i].kept < 0 ? 0 :
				     strlen(STRS[i].s) - (size_t)STRS[i].kept);
			const char *a = sf_strpack_memo_at(p, m, off);
			assert_ptr_equal(a, sf_strpack_at(p, off));
			assert_ptr_equal(sf_strpack_memo_at(q, m, off), sf_strpack_at(q, off));
			assert_ptr_equal(m->pack, q);
		}
	assert_int_equal(rf.calls, 0);
	free(m);
	sf_strpack_free(p);
	sf_strpack_free(q);
	free(s.bytes);
}

/* Let go once every unit is read: the bytes, the index and the refilled
 * copy are given back, and the counts the note prints stay. */
static void test_let_go(void **state)
{
	(void)state;
	struct section s = make_section(8);
	struct refill rf = { &s, 0 };
	unsigned char *plain;
	struct sf_strpack *p = pack(s.bytes, s.size, 0, &rf, &plain);

	check_pack(&s, p, &rf);	/* refilled: the copy is there too */
	uint64_t misses = sf_strpack_misses(p);
	sf_strpack_let_go(p);
	assert_null(p->data);
	assert_null(p->blocks);
	assert_null(p->crowd);
	assert_int_equal(p->size, s.size);
	assert_int_equal(p->kept, s.kept);
	unsigned cut = 0;
	for (size_t i = 0; i < NSTRS; i++)
		cut += STRS[i].kept >= 0;
	assert_int_equal(p->ndrops, 8 * cut);
	assert_int_equal(sf_strpack_misses(p), misses);
	sf_strpack_let_go(p);	/* again: nothing left to give */
	sf_strpack_free(p);
	free(s.bytes);
}

/* Nothing to drop (C): no pack, the bytes as they were. */
static void test_nothing_to_drop(void **state)
{
	(void)state;
	static const char sec[] = "int\0struct_name\0_Z3foov\0_ZAddressBadMask\0";
	unsigned char *plain;
	struct sf_strpack *p = pack((const unsigned char *)sec, sizeof(sec) - 1, 0, NULL, &plain);

	assert_null(p);
	assert_non_null(plain);
	assert_memory_equal(plain, sec, sizeof(sec) - 1);
	free(plain);
}

/* A section that does not end in a NUL, or of 4 GiB or more: no pack and
 * no bytes (the caller inflates it whole). */
static void test_not_packable(void **state)
{
	(void)state;
	static const char sec[] = "_ZN5boost6system14error_categoryD2Ev\0unterminated";
	unsigned char *plain = (unsigned char *)"not set";

	assert_null(pack((const unsigned char *)sec, sizeof(sec) - 1, 0, NULL, &plain));
	assert_null(plain);
	assert_null(sf_strpack_begin(UINT32_MAX));
	assert_null(sf_strpack_begin(0));
}

/* A build given up (the stream turned out corrupt) frees what it held. */
static void test_abort(void **state)
{
	(void)state;
	struct section s = make_section(2);
	struct sf_strpack_build *b = sf_strpack_begin(s.size);

	assert_int_equal(sf_strpack_feed(b, s.bytes, s.size / 2, s.size / 2) > 0, 1);
	sf_strpack_abort(b);
	free(s.bytes);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pack),
		cmocka_unit_test(test_memo),
		cmocka_unit_test(test_let_go),
		cmocka_unit_test(test_nothing_to_drop),
		cmocka_unit_test(test_not_packable),
		cmocka_unit_test(test_abort),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
