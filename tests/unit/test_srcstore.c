/*
 * test_srcstore.c - the stores to a member (layout/srcstore.c) and their
 * rewrite to saturate.
 *
 * Each case lexes a C source given as a string and checks every store
 * found (line, kind, fits, rewritable) against what a reader of the source
 * sees: assignments through -> and ., op=, ++/-- before and after, a
 * designated initializer, the address taken; reads, comparisons (==, <=,
 * >=) and other members yield nothing.  A literal fits only inside the new
 * range (0..255, -128..127).  The rewrite keeps everything but the
 * whole-statement stores that may not fit, and evaluates the value once.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "layout/clex.h"
#include "layout/srcstore.h"

struct found {
	struct sf_store *v;
	size_t n;
};

static void scan(const char *src, const char *member, unsigned bytes, bool sign,
		 struct found *f)
{
	struct sf_lexed lx;
	struct sf_store_range r = sf_store_range_of(bytes, sign);

	f->v = NULL;
	f->n = 0;
	sf_clex(&lx, src, strlen(src));
	sf_srcstore_find(&lx, member, &r, &f->v, &f->n);
	sf_clex_free(&lx);
}

static void test_kinds(void **state)
{
	static const char src[] =
		"void f(struct t *p, struct t s, int v)\n"     /* 1 */
		"{\n"
		"\tp->m = v;\n"                                 /* 3 */
		"\ts.m = 7;\n"                                  /* 4 */
		"\tp->m += 2;\n"                                /* 5 */
		"\tp->m <<= 1;\n"                               /* 6 */
		"\tp->m++;\n"                                   /* 7 */
		"\t--s.m;\n"                                    /* 8 */
		"\tg(&p->m);\n"                                 /* 9 */
		"\tif (p->m == 3 || p->m <= 4 || p->m >= 5 || p->m != 6) h(p->m);\n"
		"\tp->other = 1; q = p->m & 1; r = a & p->m;\n" /* 11 */
		"}\n"
		"struct t x = { .m = 300, .other = 1 };\n"      /* 13 */
		"struct t y = { .other = 2, .m = 255 };\n";     /* 14 */
	struct found f;

	(void)state;
	scan(src, "m", 1, false, &f);
	assert_int_equal(f.n, 9);
	static const struct { uint32_t line; uint8_t kind; bool fits, rew; } want[] = {
		{ 3, SF_STORE_ASSIGN, false, true },
		{ 4, SF_STORE_ASSIGN, true, true },
		{ 5, SF_STORE_COMPOUND, false, false },
		{ 6, SF_STORE_COMPOUND, false, false },
		{ 7, SF_STORE_INCDEC, false, false },
		{ 8, SF_STORE_INCDEC, false, false },
		{ 9, SF_STORE_ADDRESS, false, false },
		{ 13, SF_STORE_INIT, false, false },
		{ 14, SF_STORE_INIT, true, false },
	};
	for (size_t i = 0; i < f.n && i < 9; i++) {
		assert_int_equal(f.v[i].line, want[i].line);
		assert_int_equal(f.v[i].kind, want[i].kind);
		assert_int_equal(f.v[i].fits, want[i].fits);
		assert_int_equal(f.v[i].rewritable, want[i].rew);
	}
	free(f.v);
}

/* What fits: literals in range, with suffixes, parentheses, a sign. */
static void test_literals(void **state)
{
	static const struct { const char *src; unsigned bytes; bool sign, fits; } c[] = {
		{ "p->m = 255u;", 1, false, true },
		{ "p->m = 256;", 1, false, false },
		{ "p->m = 0xff;", 1, false, true },
		{ "p->m = (10UL);", 1, false, true },
		{ "p->m = -1;", 1, false, false },
		{ "p->m = -128;", 1, true, true },
		{ "p->m = -129;", 1, true, false },
		{ "p->m = 127;", 1, true, true },
		{ "p->m = 65535;", 2, false, true },
		{ "p->m = 1.5;", 4, false, false },
		{ "p->m = 'a';", 1, false, false },
		{ "p->m = n + 1;", 4, false, false },
		{ "p->m = get();", 4, false, false },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct found f;
		scan(c[i].src, "m", c[i].bytes, c[i].sign, &f);
		assert_int_equal(f.n, 1);
		if (f.v[0].fits != c[i].fits)
			fail_msg("%s: fits %d", c[i].src, f.v[0].fits);
		free(f.v);
	}
}

/* Only a whole statement with a plain lvalue can be rewritten. */
static void test_rewritable(void **state)
{
	static const struct { const char *src; bool rew; } c[] = {
		{ "{ p->m = v; }", true },
		{ "if (x) p->m = v;", true },
		{ "else a[i].b->m = v;", true },
		{ "x = p->m = v;", false },
		{ "f(p->m = v);", false },
		{ "get(p)->m = v;", false },
		{ "a[i++].m = v;", false },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct found f;
		scan(c[i].src, "m", 1, false, &f);
		assert_int_equal(f.n, 1);
		if (f.v[0].rewritable != c[i].rew)
			fail_msg("%s: rewritable %d", c[i].src, f.v[0].rewritable);
		free(f.v);
	}
}

static void saturate(const char *src, unsigned bytes, bool sign, const char *ctype,
		     const char *want)
{
	struct sf_lexed lx;
	struct sf_store_range r = sf_store_range_of(bytes, sign);
	struct found f = { NULL, 0 };
	struct strbuf out = STRBUF_INIT;

	sf_clex(&lx, src, strlen(src));
	sf_srcstore_find(&lx, "m", &r, &f.v, &f.n);
	sf_srcstore_saturate(src, strlen(src), f.v, f.n, &r, ctype, &out);
	assert_string_equal(out.buf, want);
	sb_release(&out);
	sf_clex_free(&lx);
	free(f.v);
}

static void test_saturate(void **state)
{
	(void)state;
	saturate("void f(struct t *p, long v) {\n\tp->m = next(v);\n\tp->m = 0;\n\tp->m++;\n}\n",
		 1, false, "unsigned char",
		 "void f(struct t *p, long v) {\n"
		 "\t{ unsigned long long sf_v_ = (unsigned long long)(next(v)); "
		 "p->m = (unsigned char)(sf_v_ > 255u ? 255u : sf_v_); }\n"
		 "\tp->m = 0;\n\tp->m++;\n}\n");
	saturate("s.m = v;", 2, true, "short",
		 "{ long long sf_v_ = (long long)(v); s.m = (short)(sf_v_ > 32767 ? 32767 : "
		 "sf_v_ < -32768 ? -32768 : sf_v_); }");
	saturate("x = p->m = v;", 1, false, "unsigned char", "x = p->m = v;");
}

static void test_range(void **state)
{
	(void)state;
	struct sf_store_range r = sf_store_range_of(4, true);
	assert_int_equal(r.max, 2147483647);
	assert_true(r.min == -2147483648LL);
	r = sf_store_range_of(4, false);
	assert_true(r.max == 4294967295u);
	assert_int_equal(r.min, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_literals),
		cmocka_unit_test(test_rewritable),
		cmocka_unit_test(test_saturate),
		cmocka_unit_test(test_range),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
