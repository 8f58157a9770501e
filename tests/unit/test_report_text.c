/*
 * test_report_text.c - pahole's text format, byte for byte, from models.
 *
 * Each model below is built by hand to match what the DWARF of the C
 * declaration in the comment next to it describes (gcc 12, x86_64); the
 * expected text is what `pahole -C NAME` (dwarves 1.24) prints for that
 * declaration compiled with `gcc -g -c`.  No DWARF is read here: the test
 * checks layout/holes.c and report/text.c together against pahole.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "layout/holes.h"
#include "layout/rank.h"
#include "lib/strbuf.h"
#include "report/report.h"
#include "model_util.h"

static char *render_with(const struct sf_type *t, sf_type_lookup_fn lookup,
			 void *ctx)
{
	struct sf_layout_opts lo = { .cacheline = 64, .lookup = lookup,
				     .lookup_ctx = ctx };
	struct sf_text_opts to = { .cacheline = 64 };
	struct strbuf sb = STRBUF_INIT;
	struct sf_layout l;

	sf_layout_compute_opts(t, &lo, &l);
	sf_render_text_type(&sb, t, &l, &to);
	sf_layout_release(&l);
	return sb_detach(&sb);
}

static void expect_text(const struct sf_type *t, const char *want)
{
	char *got = render_with(t, NULL, NULL);
	assert_string_equal(got, want);
	free(got);
}

/*
 * typedef unsigned long st_index_t;
 * struct st_table {
 *     unsigned char entry_power, bin_power, size_ind;
 *     unsigned int rebuilds_num;
 *     const struct st_hash_type *type;
 *     st_index_t num_entries;
 *     st_index_t entries_start, entries_bound;
 *     struct st_table_entry *entries;
 * };
 */
static struct sf_member st_table_m[] = {
	ST_TABLE_MEMBERS
};
static const struct sf_type st_table = TYPE("st_table", SF_KIND_STRUCT, 48, 8,
					    st_table_m);

static void test_st_table(void **state)
{
	(void)state;
	expect_text(&st_table,
	/* pahole -C st_table */
		"struct st_table {\n"
		"\tunsigned char              entry_power;          /*     0     1 */\n"
		"\tunsigned char              bin_power;            /*     1     1 */\n"
		"\tunsigned char              size_ind;             /*     2     1 */\n"
		"\n"
		"\t/* XXX 1 byte hole, try to pack */\n"
		"\n"
		"\tunsigned int               rebuilds_num;         /*     4     4 */\n"
		"\tconst struct st_hash_type  * type;               /*     8     8 */\n"
		"\tst_index_t                 num_entries;          /*    16     8 */\n"
		"\tst_index_t                 entries_start;        /*    24     8 */\n"
		"\tst_index_t                 entries_bound;        /*    32     8 */\n"
		"\tstruct st_table_entry *    entries;              /*    40     8 */\n"
		"\n"
		"\t/* size: 48, cachelines: 1, members: 9 */\n"
		"\t/* sum members: 47, holes: 1, sum holes: 1 */\n"
		"\t/* last cacheline: 48 bytes */\n"
		"};\n"
	);
}

/* struct bits { char c; int a:3; int b:5; unsigned long long x:40; short s; }; */
static struct sf_member bits_m[] = {
	MEM("c", "char", "", 0, 1, 1, SF_T_INT),
	BITF("a", "int", 0, 4, 8, 3),
	BITF("b", "int", 0, 4, 11, 5),
	BITF("x", "long long unsigned int", 0, 8, 16, 40),
	MEM("s", "short int", "", 8, 2, 2, SF_T_INT),
};
static const struct sf_type bits = TYPE("bits", SF_KIND_STRUCT, 16, 8, bits_m);

static void test_bitfields(void **state)
{
	(void)state;
	expect_text(&bits,
	/* pahole -C bits */
		"struct bits {\n"
		"\tchar                       c;                    /*     0     1 */\n"
		"\n"
		"\t/* Bitfield combined with previous fields */\n"
		"\n"
		"\tint                        a:3;                  /*     0: 8  4 */\n"
		"\tint                        b:5;                  /*     0:11  4 */\n"
		"\tlong long unsigned int     x:40;                 /*     0:16  8 */\n"
		"\n"
		"\t/* XXX 8 bits hole, try to pack */\n"
		"\n"
		"\tshort int                  s;                    /*     8     2 */\n"
		"\n"
		"\t/* size: 16, cachelines: 1, members: 5 */\n"
		"\t/* sum members: 3 */\n"
		"\t/* sum bitfield members: 48 bits, bit holes: 1, sum bit holes: 8 bits */\n"
		"\t/* padding: 6 */\n"
		"\t/* last cacheline: 16 bytes */\n"
		"};\n"
	);
}

/* struct pre { int a:3; char x[3]; }; */
static struct sf_member pre_m[] = {
	BITF("a", "int", 0, 4, 0, 3),
	MEM("x", "char", "[3]", 1, 3, 1, SF_T_ARRAY),
};
static const struct sf_type pre = TYPE("pre", SF_KIND_STRUCT, 4, 4, pre_m);

static void test_bitfield_combined_with_next(void **state)
{
	(void)state;
	expect_text(&pre,
	/* pahole -C pre */
		"struct pre {\n"
		"\tint                        a:3;                  /*     0: 0  4 */\n"
		"\n"
		"\t/* XXX 5 bits hole, try to pack */\n"
		"\t/* Bitfield combined with next fields */\n"
		"\n"
		"\tchar                       x[3];                 /*     1     3 */\n"
		"\n"
		"\t/* size: 4, cachelines: 1, members: 2 */\n"
		"\t/* sum members: 3 */\n"
		"\t/* sum bitfield members: 3 bits, bit holes: 1, sum bit holes: 5 bits */\n"
		"\t/* last cacheline: 4 bytes */\n"
		"};\n"
	);
}

/*
 * struct anon { int a; union { char c; long l; };
 *               struct { char p; int q; } s2;
 *               struct { char r; long t; }; char fa[]; };
 */
static struct sf_member anon_u_m[] = {
	MEM("c", "char", "", 8, 1, 1, SF_T_INT),
	MEM("l", "long int", "", 8, 8, 8, SF_T_INT),
};
static const struct sf_type anon_u = TYPE("", SF_KIND_UNION, 8, 8, anon_u_m);
static struct sf_member anon_s2_m[] = {
	MEM("p", "char", "", 16, 1, 1, SF_T_INT),
	MEM("q", "int", "", 20, 4, 4, SF_T_INT),
};
static const struct sf_type anon_s2 = TYPE("", SF_KIND_STRUCT, 8, 4, anon_s2_m);
static struct sf_member anon_s3_m[] = {
	MEM("r", "char", "", 24, 1, 1, SF_T_INT),
	MEM("t", "long int", "", 32, 8, 8, SF_T_INT),
};
static const struct sf_type anon_s3 = TYPE("", SF_KIND_STRUCT, 16, 8, anon_s3_m);
static struct sf_member anon_m[] = {
	MEM("a", "int", "", 0, 4, 4, SF_T_INT),
	NEST("", 8, 8, 8, SF_T_UNION, &anon_u),
	NEST("s2", 16, 8, 4, SF_T_STRUCT, &anon_s2),
	NEST("", 24, 16, 8, SF_T_STRUCT, &anon_s3),
	{ .name = "fa", .type_name = "char", .type_suffix = "[]", .offset = 40,
	  .size = 0, .align = 1, .tclass = SF_T_ARRAY,
	  .flags = SF_MF_FLEX_ARRAY },
};
static const struct sf_type anon = TYPE("anon", SF_KIND_STRUCT, 40, 8, anon_m);

static void test_nested_anonymous(void **state)
{
	(void)state;
	expect_text(&anon,
	/* pahole -C anon */
		"struct anon {\n"
		"\tint                        a;                    /*     0     4 */\n"
		"\n"
		"\t/* XXX 4 bytes hole, try to pack */\n"
		"\n"
		"\tunion {\n"
		"\t\tchar               c;                    /*     8     1 */\n"
		"\t\tlong int           l;                    /*     8     8 */\n"
		"\t};                                               /*     8     8 */\n"
		"\tstruct {\n"
		"\t\tchar               p;                    /*    16     1 */\n"
		"\n"
		"\t\t/* XXX 3 bytes hole, try to pack */\n"
		"\n"
		"\t\tint                q;                    /*    20     4 */\n"
		"\t} s2;                                            /*    16     8 */\n"
		"\tstruct {\n"
		"\t\tchar               r;                    /*    24     1 */\n"
		"\n"
		"\t\t/* XXX 7 bytes hole, try to pack */\n"
		"\n"
		"\t\tlong int           t;                    /*    32     8 */\n"
		"\t};                                               /*    24    16 */\n"
		"\tchar                       fa[];                 /*    40     0 */\n"
		"\n"
		"\t/* size: 40, cachelines: 1, members: 5 */\n"
		"\t/* sum members: 36, holes: 1, sum holes: 4 */\n"
		"\t/* last cacheline: 40 bytes */\n"
		"};\n"
	);
}

/*
 * struct fp { void (*cb)(int); char arr[3][4]; const char *s;
 *             char * const cp; volatile int v; };
 */
static struct sf_member fp_m[] = {
	MEM("cb", "void (*", ")(int)", 0, 8, 8, SF_T_POINTER),
	MEM("arr", "char", "[3][4]", 8, 12, 1, SF_T_ARRAY),
	MEM("s", "const char *", "", 24, 8, 8, SF_T_POINTER),
	MEM("cp", "char *const", "", 32, 8, 8, SF_T_POINTER),
	MEM("v", "volatile int", "", 40, 4, 4, SF_T_INT),
};
static const struct sf_type fp = TYPE("fp", SF_KIND_STRUCT, 48, 8, fp_m);

static void test_type_spellings(void **state)
{
	(void)state;
	expect_text(&fp,
	/* pahole -C fp */
		"struct fp {\n"
		"\tvoid                       (*cb)(int);           /*     0     8 */\n"
		"\tchar                       arr[3][4];            /*     8    12 */\n"
		"\n"
		"\t/* XXX 4 bytes hole, try to pack */\n"
		"\n"
		"\tconst char  *              s;                    /*    24     8 */\n"
		"\tconst char *               cp;                   /*    32     8 */\n"
		"\tvolatile int               v;                    /*    40     4 */\n"
		"\n"
		"\t/* size: 48, cachelines: 1, members: 5 */\n"
		"\t/* sum members: 40, holes: 1, sum holes: 4 */\n"
		"\t/* padding: 4 */\n"
		"\t/* last cacheline: 48 bytes */\n"
		"};\n"
	);
}

/*
 * struct inner { long a; char b; };
 * struct fparr { void (*h[4])(int); char (*pa)[10]; char **pp;
 *   const char **cpp; char *const *pcp;
 *   int (*f2)(const char *, struct inner *, ...); const int ci;
 *   const struct inner *pin; void *vp; const void *cvp; unsigned char uc;
 *   _Bool b; float f; long double ld; char c; };
 */
static struct sf_member fparr_m[] = {
	MEM("h", "void (*", "[4])(int)", 0, 32, 8, SF_T_ARRAY),
	MEM("pa", "char (*", ")[10]", 32, 8, 8, SF_T_POINTER),
	MEM("pp", "char **", "", 40, 8, 8, SF_T_POINTER),
	MEM("cpp", "const char **", "", 48, 8, 8, SF_T_POINTER),
	MEM("pcp", "char *const *", "", 56, 8, 8, SF_T_POINTER),
	MEM("f2", "int (*", ")(const char *, struct inner *, ...)", 64, 8, 8,
	    SF_T_POINTER),
	MEM("ci", "const int", "", 72, 4, 4, SF_T_INT),
	MEM("pin", "const struct inner *", "", 80, 8, 8, SF_T_POINTER),
	MEM("vp", "void *", "", 88, 8, 8, SF_T_POINTER),
	MEM("cvp", "const void *", "", 96, 8, 8, SF_T_POINTER),
	MEM("uc", "unsigned char", "", 104, 1, 1, SF_T_INT),
	MEM("b", "_Bool", "", 105, 1, 1, SF_T_BOOL),
	MEM("f", "float", "", 108, 4, 4, SF_T_FLOAT),
	MEM("ld", "long double", "", 112, 16, 16, SF_T_FLOAT),
	MEM("c", "char", "", 128, 1, 1, SF_T_INT),
};
static const struct sf_type fparr = TYPE("fparr", SF_KIND_STRUCT, 144, 16,
					 fparr_m);

static void test_pointer_spellings_and_force_padding(void **state)
{
	(void)state;
	expect_text(&fparr,
	/* pahole -C fparr */
		"struct fparr {\n"
		"\tvoid                       (*h)(int)[4];         /*     0    32 */\n"
		"\tchar *                     pa;                   /*    32     8 */\n"
		"\tchar * *                   pp;                   /*    40     8 */\n"
		"\tconst char  * *            cpp;                  /*    48     8 */\n"
		"\tchar * const *             pcp;                  /*    56     8 */\n"
		"\t/* --- cacheline 1 boundary (64 bytes) --- */\n"
		"\tint                        (*f2)(const char  *, struct inner *, ...); /*    64     8 */\n"
		"\tconst int                  ci;                   /*    72     4 */\n"
		"\n"
		"\t/* XXX 4 bytes hole, try to pack */\n"
		"\n"
		"\tconst struct inner  *      pin;                  /*    80     8 */\n"
		"\tvoid *                     vp;                   /*    88     8 */\n"
		"\tconst void  *              cvp;                  /*    96     8 */\n"
		"\tunsigned char              uc;                   /*   104     1 */\n"
		"\t_Bool                      b;                    /*   105     1 */\n"
		"\n"
		"\t/* XXX 2 bytes hole, try to pack */\n"
		"\n"
		"\tfloat                      f;                    /*   108     4 */\n"
		"\tlong double                ld;                   /*   112    16 */\n"
		"\t/* --- cacheline 2 boundary (128 bytes) --- */\n"
		"\tchar                       c;                    /*   128     1 */\n"
		"\n"
		"\t/* Force padding: */\n"
		"\tchar                       :8;\n"
		"\tchar                       :8;\n"
		"\tchar                       :8;\n"
		"\tchar                       :8;\n"
		"\tchar                       :8;\n"
		"\tchar                       :8;\n"
		"\tchar                       :8;\n"
		"\tchar                       :8;\n"
		"\tchar                       :8;\n"
		"\tchar                       :8;\n"
		"\tchar                       :8;\n"
		"\tchar                       :8;\n"
		"\tchar                       :8;\n"
		"\tchar                       :8;\n"
		"\tchar                       :8;\n"
		"\n"
		"\t/* size: 144, cachelines: 3, members: 15 */\n"
		"\t/* sum members: 123, holes: 2, sum holes: 6 */\n"
		"\t/* padding: 15 */\n"
		"\t/* last cacheline: 16 bytes */\n"
		"};\n"
	);
}

/*
 * Qualifiers are spelled outermost first (DWARF order), so gcc's
 * "const volatile unsigned int" (DW_TAG_volatile_type over const) is
 * "volatile const unsigned int" in the model.
 *
 * struct inner; typedef int myint;
 * struct ex {
 *	void (*reg)(void (*)(int), char *);
 *	const char *(*getname)(const struct inner *, unsigned long);
 *	int (**pfp)(void);
 *	void (*const cfp)(void);
 *	char *names[4];
 *	char *restrict rp;
 *	volatile int *vp;
 *	int *volatile pv;
 *	const volatile unsigned int cvu;
 *	myint mi;
 *	unsigned long (*arr2[2])(int, ...);
 *	struct inner **ipp;
 *	const myint *cmp;
 *	char **volatile *weird;
 * };
 */
static struct sf_member ex_m[] = {
	MEM("reg", "void (*", ")(void (*)(int), char *)", 0, 8, 8, SF_T_POINTER),
	MEM("getname", "const char *(*",
	    ")(const struct inner *, long unsigned int)", 8, 8, 8, SF_T_POINTER),
	MEM("pfp", "int (**", ")(void)", 16, 8, 8, SF_T_POINTER),
	MEM("cfp", "void (*const", ")(void)", 24, 8, 8, SF_T_POINTER),
	MEM("names", "char *", "[4]", 32, 32, 8, SF_T_ARRAY),
	MEM("rp", "char *restrict", "", 64, 8, 8, SF_T_POINTER),
	MEM("vp", "volatile int *", "", 72, 8, 8, SF_T_POINTER),
	MEM("pv", "int *volatile", "", 80, 8, 8, SF_T_POINTER),
	MEM("cvu", "volatile const unsigned int", "", 88, 4, 4, SF_T_INT),
	MEM("mi", "myint", "", 92, 4, 4, SF_T_INT),
	MEM("arr2", "long unsigned int (*", "[2])(int, ...)", 96, 16, 8,
	    SF_T_ARRAY),
	MEM("ipp", "struct inner **", "", 112, 8, 8, SF_T_POINTER),
	MEM("cmp", "const myint *", "", 120, 8, 8, SF_T_POINTER),
	MEM("weird", "char **volatile *", "", 128, 8, 8, SF_T_POINTER),
};
static const struct sf_type ex = TYPE("ex", SF_KIND_STRUCT, 136, 8, ex_m);

static void test_qualifiers_and_function_pointers(void **state)
{
	(void)state;
	expect_text(&ex,
	/* pahole -C ex */
		"struct ex {\n"
		"\tvoid                       (*reg)(void (*)(int), char *); /*     0     8 */\n"
		"\tconst char  *              (*getname)(const struct inner  *, long unsigned int); /*     8     8 */\n"
		"\tint ()(void) * *           pfp;                  /*    16     8 */\n"
		"\tconst void                 (*cfp)(void);         /*    24     8 */\n"
		"\tchar *                     names[4];             /*    32    32 */\n"
		"\t/* --- cacheline 1 boundary (64 bytes) --- */\n"
		"\tchar * restrict            rp;                   /*    64     8 */\n"
		"\tvolatile int  *            vp;                   /*    72     8 */\n"
		"\tvolatile int *             pv;                   /*    80     8 */\n"
		"\tvolatile const unsigned int   cvu;               /*    88     4 */\n"
		"\tmyint                      mi;                   /*    92     4 */\n"
		"\tlong unsigned int          (*arr2)(int, ...)[2]; /*    96    16 */\n"
		"\tstruct inner * *           ipp;                  /*   112     8 */\n"
		"\tconst myint  *             cmp;                  /*   120     8 */\n"
		"\t/* --- cacheline 2 boundary (128 bytes) --- */\n"
		"\tvolatile char * *  *       weird;                /*   128     8 */\n"
		"\n"
		"\t/* size: 136, cachelines: 3, members: 14 */\n"
		"\t/* last cacheline: 8 bytes */\n"
		"};\n"
	);
}

/* struct big { char a; long b[10]; char c; int d[20]; char e; }; */
static struct sf_member big_m[] = {
	MEM("a", "char", "", 0, 1, 1, SF_T_INT),
	MEM("b", "long int", "[10]", 8, 80, 8, SF_T_ARRAY),
	MEM("c", "char", "", 88, 1, 1, SF_T_INT),
	MEM("d", "int", "[20]", 92, 80, 4, SF_T_ARRAY),
	MEM("e", "char", "", 172, 1, 1, SF_T_INT),
};
static const struct sf_type big = TYPE("big", SF_KIND_STRUCT, 176, 8, big_m);

static void test_cacheline_boundaries(void **state)
{
	(void)state;
	expect_text(&big,
	/* pahole -C big */
		"struct big {\n"
		"\tchar                       a;                    /*     0     1 */\n"
		"\n"
		"\t/* XXX 7 bytes hole, try to pack */\n"
		"\n"
		"\tlong int                   b[10];                /*     8    80 */\n"
		"\t/* --- cacheline 1 boundary (64 bytes) was 24 bytes ago --- */\n"
		"\tchar                       c;                    /*    88     1 */\n"
		"\n"
		"\t/* XXX 3 bytes hole, try to pack */\n"
		"\n"
		"\tint                        d[20];                /*    92    80 */\n"
		"\t/* --- cacheline 2 boundary (128 bytes) was 44 bytes ago --- */\n"
		"\tchar                       e;                    /*   172     1 */\n"
		"\n"
		"\t/* size: 176, cachelines: 3, members: 5 */\n"
		"\t/* sum members: 163, holes: 2, sum holes: 10 */\n"
		"\t/* padding: 3 */\n"
		"\t/* last cacheline: 48 bytes */\n"
		"};\n"
	);
}

/* struct uts { char sysname[65]; char nodename[65]; char release[65]; }; */
static struct sf_member uts_m[] = {
	MEM("sysname", "char", "[65]", 0, 65, 1, SF_T_ARRAY),
	MEM("nodename", "char", "[65]", 65, 65, 1, SF_T_ARRAY),
	MEM("release", "char", "[65]", 130, 65, 1, SF_T_ARRAY),
};
static const struct sf_type uts = TYPE("uts", SF_KIND_STRUCT, 195, 1, uts_m);

static void test_cacheline_boundary_singular(void **state)
{
	(void)state;
	expect_text(&uts,
	/* pahole -C uts */
		"struct uts {\n"
		"\tchar                       sysname[65];          /*     0    65 */\n"
		"\t/* --- cacheline 1 boundary (64 bytes) was 1 byte ago --- */\n"
		"\tchar                       nodename[65];         /*    65    65 */\n"
		"\t/* --- cacheline 2 boundary (128 bytes) was 2 bytes ago --- */\n"
		"\tchar                       release[65];          /*   130    65 */\n"
		"\n"
		"\t/* size: 195, cachelines: 4, members: 3 */\n"
		"\t/* last cacheline: 3 bytes */\n"
		"};\n"
	);
}

/* --cacheline 32 moves the boundaries and the summary. */
static void test_cacheline_parameter(void **state)
{
	struct sf_layout l;
	struct sf_text_opts to = { .cacheline = 32 };
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	sf_layout_compute(&big, 32, &l);
	assert_int_equal(l.cachelines, 6);
	assert_int_equal(l.last_cacheline, 16);
	sf_render_text_type(&sb, &big, &l, &to);
	assert_non_null(strstr(sb.buf, "\t/* --- cacheline 2 boundary (64 bytes) "
				       "was 24 bytes ago --- */\n\tchar "));
	assert_non_null(strstr(sb.buf, "\t/* --- cacheline 5 boundary (160 "
				       "bytes) was 12 bytes ago --- */\n"));
	assert_non_null(strstr(sb.buf, "/* size: 176, cachelines: 6, members: 5 */"));
	assert_non_null(strstr(sb.buf, "/* last cacheline: 16 bytes */"));
	sb_release(&sb);
	sf_layout_release(&l);
}

/* union U { char c; int i; struct { char a; long b; } s; }; */
static struct sf_member U_s_m[] = {
	MEM("a", "char", "", 0, 1, 1, SF_T_INT),
	MEM("b", "long int", "", 8, 8, 8, SF_T_INT),
};
static const struct sf_type U_s = TYPE("", SF_KIND_STRUCT, 16, 8, U_s_m);
static struct sf_member U_m[] = {
	MEM("c", "char", "", 0, 1, 1, SF_T_INT),
	MEM("i", "int", "", 0, 4, 4, SF_T_INT),
	NEST("s", 0, 16, 8, SF_T_STRUCT, &U_s),
};
static const struct sf_type U = TYPE("U", SF_KIND_UNION, 16, 8, U_m);

static void test_union(void **state)
{
	(void)state;
	expect_text(&U,
	/* pahole -C U */
		"union U {\n"
		"\tchar                       c;                  /*     0     1 */\n"
		"\tint                        i;                  /*     0     4 */\n"
		"\tstruct {\n"
		"\t\tchar               a;                  /*     0     1 */\n"
		"\n"
		"\t\t/* XXX 7 bytes hole, try to pack */\n"
		"\n"
		"\t\tlong int           b;                  /*     8     8 */\n"
		"\t} s;                                           /*     0    16 */\n"
		"};\n"
	);
}

/* union UF { int i; char fa[0]; }; */
static struct sf_member UF_m[] = {
	MEM("i", "int", "", 0, 4, 4, SF_T_INT),
	MEM("fa", "char", "[0]", 0, 0, 1, SF_T_ARRAY),
};
static const struct sf_type UF = TYPE("UF", SF_KIND_UNION, 4, 4, UF_m);

static void test_union_zero_length_array(void **state)
{
	(void)state;
	expect_text(&UF,
	/* pahole -C UF */
		"union UF {\n"
		"\tint                        i;                  /*     0     4 */\n"
		"\tchar                       fa[0];              /*     0     0 */\n"
		"};\n"
	);
}

/* struct __attribute__((packed)) P { char a; int b; short c; }; */
static struct sf_member P_m[] = {
	MEM("a", "char", "", 0, 1, 1, SF_T_INT),
	MEM("b", "int", "", 1, 4, 4, SF_T_INT),
	MEM("c", "short int", "", 5, 2, 2, SF_T_INT),
};
static struct sf_type P = TYPE("P", SF_KIND_STRUCT, 7, 1, P_m);

static void test_packed(void **state)
{
	(void)state;
	P.flags = SF_TF_PACKED;
	expect_text(&P,
	/* pahole -C P */
		"struct P {\n"
		"\tchar                       a;                    /*     0     1 */\n"
		"\tint                        b;                    /*     1     4 */\n"
		"\tshort int                  c;                    /*     5     2 */\n"
		"\n"
		"\t/* size: 7, cachelines: 1, members: 3 */\n"
		"\t/* last cacheline: 7 bytes */\n"
		"} __attribute__((__packed__));\n"
	);
}

/* struct al { char a; int b __attribute__((aligned(16))); char c; }; */
static struct sf_member al_m[] = {
	MEM("a", "char", "", 0, 1, 1, SF_T_INT),
	{ .name = "b", .type_name = "int", .type_suffix = "", .offset = 16,
	  .size = 4, .align = 16, .tclass = SF_T_INT, .flags = SF_MF_ALIGNED },
	MEM("c", "char", "", 20, 1, 1, SF_T_INT),
};
static struct sf_type al = TYPE("al", SF_KIND_STRUCT, 32, 16, al_m);

static void test_forced_alignment(void **state)
{
	(void)state;
	al.flags = SF_TF_ALIGNED;
	expect_text(&al,
	/* pahole -C al */
		"struct al {\n"
		"\tchar                       a;                    /*     0     1 */\n"
		"\n"
		"\t/* XXX 15 bytes hole, try to pack */\n"
		"\n"
		"\tint                        b __attribute__((__aligned__(16))); /*    16     4 */\n"
		"\tchar                       c;                    /*    20     1 */\n"
		"\n"
		"\t/* size: 32, cachelines: 1, members: 3 */\n"
		"\t/* sum members: 6, holes: 1, sum holes: 15 */\n"
		"\t/* padding: 11 */\n"
		"\t/* forced alignments: 1, forced holes: 1, sum forced holes: 15 */\n"
		"\t/* last cacheline: 32 bytes */\n"
		"} __attribute__((__aligned__(16)));\n"
	);
}

/* struct empty {}; struct withempty { char a; struct empty e; int b; }; */
static struct sf_member withempty_m[] = {
	MEM("a", "char", "", 0, 1, 1, SF_T_INT),
	MEM("e", "struct empty", "", 1, 0, 1, SF_T_STRUCT),
	MEM("b", "int", "", 4, 4, 4, SF_T_INT),
};
static const struct sf_type withempty = TYPE("withempty", SF_KIND_STRUCT, 8, 4,
					     withempty_m);

static void test_zero_size_member(void **state)
{
	(void)state;
	expect_text(&withempty,
	/* pahole -C withempty */
		"struct withempty {\n"
		"\tchar                       a;                    /*     0     1 */\n"
		"\tstruct empty               e;                    /*     1     0 */\n"
		"\n"
		"\t/* XXX 3 bytes hole, try to pack */\n"
		"\n"
		"\tint                        b;                    /*     4     4 */\n"
		"\n"
		"\t/* size: 8, cachelines: 1, members: 3 */\n"
		"\t/* sum members: 5, holes: 1, sum holes: 3 */\n"
		"\t/* last cacheline: 8 bytes */\n"
		"};\n"
	);
}

/* struct bf2 { unsigned a:1; unsigned :0; unsigned b:2; char c; unsigned d:30; }; */
static struct sf_member bf2_m[] = {
	BITF("a", "unsigned int", 0, 4, 0, 1),
	BITF("b", "unsigned int", 4, 4, 0, 2),
	MEM("c", "char", "", 5, 1, 1, SF_T_INT),
	BITF("d", "unsigned int", 8, 4, 0, 30),
};
static const struct sf_type bf2 = TYPE("bf2", SF_KIND_STRUCT, 12, 4, bf2_m);

static void test_bit_holes_and_force_alignment(void **state)
{
	(void)state;
	expect_text(&bf2,
	/* pahole -C bf2 */
		"struct bf2 {\n"
		"\tunsigned int               a:1;                  /*     0: 0  4 */\n"
		"\n"
		"\t/* XXX 31 bits hole, try to pack */\n"
		"\n"
		"\t/* Force alignment to the next boundary: */\n"
		"\tunsigned int               :0;\n"
		"\n"
		"\tunsigned int               b:2;                  /*     4: 0  4 */\n"
		"\n"
		"\t/* XXX 6 bits hole, try to pack */\n"
		"\t/* Bitfield combined with next fields */\n"
		"\n"
		"\tchar                       c;                    /*     5     1 */\n"
		"\n"
		"\t/* XXX 2 bytes hole, try to pack */\n"
		"\n"
		"\tunsigned int               d:30;                 /*     8: 0  4 */\n"
		"\n"
		"\t/* size: 12, cachelines: 1, members: 4 */\n"
		"\t/* sum members: 1, holes: 1, sum holes: 2 */\n"
		"\t/* sum bitfield members: 33 bits, bit holes: 2, sum bit holes: 37 bits */\n"
		"\t/* bit_padding: 2 bits */\n"
		"\t/* last cacheline: 12 bytes */\n"
		"};\n"
	);
}

/* struct b3 { long l; int x:4; }; */
static struct sf_member b3_m[] = {
	MEM("l", "long int", "", 0, 8, 8, SF_T_INT),
	BITF("x", "int", 8, 4, 0, 4),
};
static const struct sf_type b3 = TYPE("b3", SF_KIND_STRUCT, 16, 8, b3_m);

static void test_bit_padding(void **state)
{
	(void)state;
	expect_text(&b3,
	/* pahole -C b3 */
		"struct b3 {\n"
		"\tlong int                   l;                    /*     0     8 */\n"
		"\tint                        x:4;                  /*     8: 0  4 */\n"
		"\n"
		"\t/* size: 16, cachelines: 1, members: 2 */\n"
		"\t/* padding: 4 */\n"
		"\t/* bit_padding: 28 bits */\n"
		"\t/* last cacheline: 16 bytes */\n"
		"};\n"
	);
}

/* struct inner { long a; char b; }; struct outer { struct inner i; char c; };
 * struct e1 { int x; struct inner last; }; */
static struct sf_member inner_m[] = {
	MEM("a", "long int", "", 0, 8, 8, SF_T_INT),
	MEM("b", "char", "", 8, 1, 1, SF_T_INT),
};
static const struct sf_type inner = TYPE("inner", SF_KIND_STRUCT, 16, 8,
					 inner_m);
static struct sf_member outer_m[] = {
	MEM("i", "struct inner", "", 0, 16, 8, SF_T_STRUCT),
	MEM("c", "char", "", 16, 1, 1, SF_T_INT),
};
static const struct sf_type outer = TYPE("outer", SF_KIND_STRUCT, 24, 8,
					 outer_m);
static struct sf_member e1_m[] = {
	MEM("x", "int", "", 0, 4, 4, SF_T_INT),
	MEM("last", "struct inner", "", 8, 16, 8, SF_T_STRUCT),
};
static const struct sf_type e1 = TYPE("e1", SF_KIND_STRUCT, 24, 8, e1_m);

static const struct sf_type *find_inner(void *ctx, const struct sf_member *m)
{
	(void)ctx;
	return strcmp(m->type_name, "struct inner") == 0 ? &inner : NULL;
}

static void test_member_struct_padding(void **state)
{
	(void)state;
	char *got = render_with(&outer, find_inner, NULL);
	assert_string_equal(got,
	/* pahole -C outer */
		"struct outer {\n"
		"\tstruct inner               i;                    /*     0    16 */\n"
		"\n"
		"\t/* XXX last struct has 7 bytes of padding */\n"
		"\n"
		"\tchar                       c;                    /*    16     1 */\n"
		"\n"
		"\t/* size: 24, cachelines: 1, members: 2 */\n"
		"\t/* padding: 7 */\n"
		"\t/* paddings: 1, sum paddings: 7 */\n"
		"\t/* last cacheline: 24 bytes */\n"
		"};\n"
	);
	free(got);
	got = render_with(&e1, find_inner, NULL);
	assert_string_equal(got,
	/* pahole -C e1 */
		"struct e1 {\n"
		"\tint                        x;                    /*     0     4 */\n"
		"\n"
		"\t/* XXX 4 bytes hole, try to pack */\n"
		"\n"
		"\tstruct inner               last;                 /*     8    16 */\n"
		"\n"
		"\t/* XXX last struct has 7 bytes of padding */\n"
		"\n"
		"\t/* size: 24, cachelines: 1, members: 2 */\n"
		"\t/* sum members: 20, holes: 1, sum holes: 4 */\n"
		"\t/* paddings: 1, sum paddings: 7 */\n"
		"\t/* last cacheline: 24 bytes */\n"
		"};\n"
	);
	free(got);
}

/*
 * struct nest2 { char a; struct { char b; struct { char c; long d; } in; } mid;
 *                union { int u; struct { char x; short y; } s; }; };
 */
static struct sf_member nest2_in_m[] = {
	MEM("c", "char", "", 16, 1, 1, SF_T_INT),
	MEM("d", "long int", "", 24, 8, 8, SF_T_INT),
};
static const struct sf_type nest2_in = TYPE("", SF_KIND_STRUCT, 16, 8,
					    nest2_in_m);
static struct sf_member nest2_mid_m[] = {
	MEM("b", "char", "", 8, 1, 1, SF_T_INT),
	NEST("in", 16, 16, 8, SF_T_STRUCT, &nest2_in),
};
static const struct sf_type nest2_mid = TYPE("", SF_KIND_STRUCT, 24, 8,
					     nest2_mid_m);
static struct sf_member nest2_s_m[] = {
	MEM("x", "char", "", 32, 1, 1, SF_T_INT),
	MEM("y", "short int", "", 34, 2, 2, SF_T_INT),
};
static const struct sf_type nest2_s = TYPE("", SF_KIND_STRUCT, 4, 2, nest2_s_m);
static struct sf_member nest2_u_m[] = {
	MEM("u", "int", "", 32, 4, 4, SF_T_INT),
	NEST("s", 32, 4, 2, SF_T_STRUCT, &nest2_s),
};
static const struct sf_type nest2_u = TYPE("", SF_KIND_UNION, 4, 4, nest2_u_m);
static struct sf_member nest2_m[] = {
	MEM("a", "char", "", 0, 1, 1, SF_T_INT),
	NEST("mid", 8, 24, 8, SF_T_STRUCT, &nest2_mid),
	NEST("", 32, 4, 4, SF_T_UNION, &nest2_u),
};
static const struct sf_type nest2 = TYPE("nest2", SF_KIND_STRUCT, 40, 8,
					 nest2_m);

static void test_nested_two_levels(void **state)
{
	(void)state;
	expect_text(&nest2,
	/* pahole -C nest2 */
		"struct nest2 {\n"
		"\tchar                       a;                    /*     0     1 */\n"
		"\n"
		"\t/* XXX 7 bytes hole, try to pack */\n"
		"\n"
		"\tstruct {\n"
		"\t\tchar               b;                    /*     8     1 */\n"
		"\n"
		"\t\t/* XXX 7 bytes hole, try to pack */\n"
		"\n"
		"\t\tstruct {\n"
		"\t\t\tchar       c;                    /*    16     1 */\n"
		"\n"
		"\t\t\t/* XXX 7 bytes hole, try to pack */\n"
		"\n"
		"\t\t\tlong int   d;                    /*    24     8 */\n"
		"\t\t} in;                                    /*    16    16 */\n"
		"\t} mid;                                           /*     8    24 */\n"
		"\tunion {\n"
		"\t\tint                u;                    /*    32     4 */\n"
		"\t\tstruct {\n"
		"\t\t\tchar       x;                    /*    32     1 */\n"
		"\n"
		"\t\t\t/* XXX 1 byte hole, try to pack */\n"
		"\n"
		"\t\t\tshort int  y;                    /*    34     2 */\n"
		"\t\t} s;                                     /*    32     4 */\n"
		"\t};                                               /*    32     4 */\n"
		"\n"
		"\t/* size: 40, cachelines: 1, members: 3 */\n"
		"\t/* sum members: 29, holes: 1, sum holes: 7 */\n"
		"\t/* padding: 4 */\n"
		"\t/* last cacheline: 40 bytes */\n"
		"};\n"
	);
}

/* struct arrnest { char c; struct { char x; int y; } arr[2]; long z; }; */
static struct sf_member arrnest_in_m[] = {
	MEM("x", "char", "", 4, 1, 1, SF_T_INT),
	MEM("y", "int", "", 8, 4, 4, SF_T_INT),
};
static const struct sf_type arrnest_in = TYPE("", SF_KIND_STRUCT, 8, 4,
					      arrnest_in_m);
static struct sf_member arrnest_m[] = {
	MEM("c", "char", "", 0, 1, 1, SF_T_INT),
	{ .name = "arr", .type_name = "struct", .type_suffix = "[2]",
	  .offset = 4, .size = 16, .align = 4, .tclass = SF_T_ARRAY,
	  .nested = &arrnest_in },
	MEM("z", "long int", "", 24, 8, 8, SF_T_INT),
};
static const struct sf_type arrnest = TYPE("arrnest", SF_KIND_STRUCT, 32, 8,
					   arrnest_m);

static void test_array_of_anonymous_structs(void **state)
{
	(void)state;
	expect_text(&arrnest,
	/* pahole -C arrnest */
		"struct arrnest {\n"
		"\tchar                       c;                    /*     0     1 */\n"
		"\n"
		"\t/* XXX 3 bytes hole, try to pack */\n"
		"\n"
		"\tstruct {\n"
		"\t\tchar               x;                    /*     4     1 */\n"
		"\n"
		"\t\t/* XXX 3 bytes hole, try to pack */\n"
		"\n"
		"\t\tint                y;                    /*     8     4 */\n"
		"\t} arr[2]; /*     4    16 */\n"
		"\n"
		"\t/* XXX 4 bytes hole, try to pack */\n"
		"\n"
		"\tlong int                   z;                    /*    24     8 */\n"
		"\n"
		"\t/* size: 32, cachelines: 1, members: 3 */\n"
		"\t/* sum members: 25, holes: 2, sum holes: 7 */\n"
		"\t/* last cacheline: 32 bytes */\n"
		"};\n"
	);
}

/*
 * struct na { char c; struct { int a; } __attribute__((aligned(16))) s;
 *   union { long x; char y; } __attribute__((aligned(32))) u2;
 *   struct { char q; } s3 __attribute__((aligned(8)));
 *   struct __attribute__((packed)) { char p; int r; } pk; };
 * (gcc puts DW_AT_alignment on s, u2 and s3, and on the types of s, u2)
 */
static struct sf_member na_s_m[] = { MEM("a", "int", "", 16, 4, 4, SF_T_INT) };
static struct sf_type na_s = TYPE("", SF_KIND_STRUCT, 16, 16, na_s_m);
static struct sf_member na_u_m[] = {
	MEM("x", "long int", "", 32, 8, 8, SF_T_INT),
	MEM("y", "char", "", 32, 1, 1, SF_T_INT),
};
static struct sf_type na_u = TYPE("", SF_KIND_UNION, 32, 32, na_u_m);
static struct sf_member na_s3_m[] = { MEM("q", "char", "", 64, 1, 1, SF_T_INT) };
static const struct sf_type na_s3 = TYPE("", SF_KIND_STRUCT, 1, 1, na_s3_m);
static struct sf_member na_pk_m[] = {
	MEM("p", "char", "", 65, 1, 1, SF_T_INT),
	MEM("r", "int", "", 66, 4, 4, SF_T_INT),
};
static struct sf_type na_pk = TYPE("", SF_KIND_STRUCT, 5, 1, na_pk_m);
static struct sf_member na_m[] = {
	MEM("c", "char", "", 0, 1, 1, SF_T_INT),
	{ .name = "s", .type_name = "struct", .type_suffix = "", .offset = 16,
	  .size = 16, .align = 16, .tclass = SF_T_STRUCT, .nested = &na_s,
	  .flags = SF_MF_ALIGNED },
	{ .name = "u2", .type_name = "union", .type_suffix = "", .offset = 32,
	  .size = 32, .align = 32, .tclass = SF_T_UNION, .nested = &na_u,
	  .flags = SF_MF_ALIGNED },
	{ .name = "s3", .type_name = "struct", .type_suffix = "", .offset = 64,
	  .size = 1, .align = 8, .tclass = SF_T_STRUCT, .nested = &na_s3,
	  .flags = SF_MF_ALIGNED },
	NEST("pk", 65, 5, 1, SF_T_STRUCT, &na_pk),
};
static struct sf_type na = TYPE("na", SF_KIND_STRUCT, 96, 32, na_m);

static void test_nested_attributes(void **state)
{
	(void)state;
	na_s.flags = SF_TF_ALIGNED;
	na_u.flags = SF_TF_ALIGNED;
	na_pk.flags = SF_TF_PACKED;
	na.flags = SF_TF_ALIGNED;
	expect_text(&na,
	/* pahole -C na */
		"struct na {\n"
		"\tchar                       c;                    /*     0     1 */\n"
		"\n"
		"\t/* XXX 15 bytes hole, try to pack */\n"
		"\n"
		"\tstruct {\n"
		"\t\tint                a;                    /*    16     4 */\n"
		"\t} __attribute__((__aligned__(16))) s __attribute__((__aligned__(16)));            /*    16    16 */\n"
		"\n"
		"\t/* XXX last struct has 12 bytes of padding */\n"
		"\n"
		"\tunion {\n"
		"\t\tlong int           x;                    /*    32     8 */\n"
		"\t\tchar               y;                    /*    32     1 */\n"
		"\t} u2 __attribute__((__aligned__(32)));           /*    32    32 */\n"
		"\t/* --- cacheline 1 boundary (64 bytes) --- */\n"
		"\tstruct {\n"
		"\t\tchar               q;                    /*    64     1 */\n"
		"\t} s3 __attribute__((__aligned__(8)));            /*    64     1 */\n"
		"\tstruct {\n"
		"\t\tchar               p;                    /*    65     1 */\n"
		"\t\tint                r;                    /*    66     4 */\n"
		"\t} __attribute__((__packed__)) pk;                /*    65     5 */\n"
		"\n"
		"\t/* size: 96, cachelines: 2, members: 5 */\n"
		"\t/* sum members: 55, holes: 1, sum holes: 15 */\n"
		"\t/* padding: 26 */\n"
		"\t/* paddings: 1, sum paddings: 12 */\n"
		"\t/* forced alignments: 3, forced holes: 1, sum forced holes: 15 */\n"
		"\t/* last cacheline: 32 bytes */\n"
		"} __attribute__((__aligned__(32)));\n"
	);
}

/*
 * The kernel's DECLARE_FLEX_ARRAY inside a union: pahole prints "[0]" for
 * a flexible array anywhere below a union, even as the last member of a
 * struct in it.
 * struct fx { int n; union {
 *   struct { struct { } __empty_ptr; void *ptr[]; };
 *   struct { struct { } __empty_v; long v[]; }; }; };
 */
static struct sf_member fx_none_m[1];
static const struct sf_type fx_empty = { .name = "", .kind = SF_KIND_STRUCT,
					 .size = 0, .align = 1,
					 .members = fx_none_m, .nmembers = 0 };
static struct sf_member fx_a_m[] = {
	NEST("__empty_ptr", 8, 0, 1, SF_T_STRUCT, &fx_empty),
	{ .name = "ptr", .type_name = "void *", .type_suffix = "[]",
	  .offset = 8, .size = 0, .align = 8, .tclass = SF_T_ARRAY,
	  .flags = SF_MF_FLEX_ARRAY },
};
static const struct sf_type fx_a = TYPE("", SF_KIND_STRUCT, 0, 8, fx_a_m);
static struct sf_member fx_b_m[] = {
	NEST("__empty_v", 8, 0, 1, SF_T_STRUCT, &fx_empty),
	{ .name = "v", .type_name = "long int", .type_suffix = "[]",
	  .offset = 8, .size = 0, .align = 8, .tclass = SF_T_ARRAY,
	  .flags = SF_MF_FLEX_ARRAY },
};
static const struct sf_type fx_b = TYPE("", SF_KIND_STRUCT, 0, 8, fx_b_m);
static struct sf_member fx_u_m[] = {
	NEST("", 8, 0, 8, SF_T_STRUCT, &fx_a),
	NEST("", 8, 0, 8, SF_T_STRUCT, &fx_b),
};
static const struct sf_type fx_u = TYPE("", SF_KIND_UNION, 0, 8, fx_u_m);
static struct sf_member fx_m[] = {
	MEM("n", "int", "", 0, 4, 4, SF_T_INT),
	NEST("", 8, 0, 8, SF_T_UNION, &fx_u),
};
static const struct sf_type fx = TYPE("fx", SF_KIND_STRUCT, 8, 8, fx_m);

static void test_flexible_arrays_below_a_union(void **state)
{
	(void)state;
	expect_text(&fx,
	/* pahole -C fx */
		"struct fx {\n"
		"\tint                        n;                    /*     0     4 */\n"
		"\n"
		"\t/* XXX 4 bytes hole, try to pack */\n"
		"\n"
		"\tunion {\n"
		"\t\tstruct {\n"
		"\t\t\tstruct {\n"
		"\t\t\t} __empty_ptr;                   /*     8     0 */\n"
		"\t\t\tvoid *     ptr[0];               /*     8     0 */\n"
		"\t\t};                                       /*     8     0 */\n"
		"\t\tstruct {\n"
		"\t\t\tstruct {\n"
		"\t\t\t} __empty_v;                     /*     8     0 */\n"
		"\t\t\tlong int   v[0];                 /*     8     0 */\n"
		"\t\t};                                       /*     8     0 */\n"
		"\t};                                               /*     8     0 */\n"
		"\n"
		"\t/* size: 8, cachelines: 1, members: 2 */\n"
		"\t/* sum members: 4, holes: 1, sum holes: 4 */\n"
		"\t/* last cacheline: 8 bytes */\n"
		"};\n"
	);
}

/* struct onlyflex { char fa[0]; }; struct zmid { int a; char z[0]; int b; }; */
static struct sf_member onlyflex_m[] = {
	{ .name = "fa", .type_name = "char", .type_suffix = "[0]", .offset = 0,
	  .size = 0, .align = 1, .tclass = SF_T_ARRAY,
	  .flags = SF_MF_FLEX_ARRAY },
};
static const struct sf_type onlyflex = TYPE("onlyflex", SF_KIND_STRUCT, 0, 1,
					    onlyflex_m);
static struct sf_member zmid_m[] = {
	MEM("a", "int", "", 0, 4, 4, SF_T_INT),
	MEM("z", "char", "[0]", 4, 0, 1, SF_T_ARRAY),
	MEM("b", "int", "", 4, 4, 4, SF_T_INT),
};
static const struct sf_type zmid = TYPE("zmid", SF_KIND_STRUCT, 8, 4, zmid_m);

static void test_zero_length_arrays(void **state)
{
	(void)state;
	expect_text(&onlyflex,
	/* pahole -C onlyflex */
		"struct onlyflex {\n"
		"\tchar                       fa[0];                /*     0     0 */\n"
		"\n"
		"\t/* size: 0, cachelines: 0, members: 1 */\n"
		"};\n"
	);
	expect_text(&zmid,
	/* pahole -C zmid */
		"struct zmid {\n"
		"\tint                        a;                    /*     0     4 */\n"
		"\tchar                       z[0];                 /*     4     0 */\n"
		"\tint                        b;                    /*     4     4 */\n"
		"\n"
		"\t/* size: 8, cachelines: 1, members: 3 */\n"
		"\t/* last cacheline: 8 bytes */\n"
		"};\n"
	);
}

/* struct lng { char a; struct inner bigarray[10];
 *              char very_long_member_name_here_for_test; }; */
static struct sf_member lng_m[] = {
	MEM("a", "char", "", 0, 1, 1, SF_T_INT),
	MEM("bigarray", "struct inner", "[10]", 8, 160, 8, SF_T_ARRAY),
	MEM("very_long_member_name_here_for_test", "char", "", 168, 1, 1,
	    SF_T_INT),
};
static const struct sf_type lng = TYPE("lng", SF_KIND_STRUCT, 176, 8, lng_m);

static void test_long_names_and_skipped_cachelines(void **state)
{
	(void)state;
	expect_text(&lng,
	/* pahole -C lng */
		"struct lng {\n"
		"\tchar                       a;                    /*     0     1 */\n"
		"\n"
		"\t/* XXX 7 bytes hole, try to pack */\n"
		"\n"
		"\tstruct inner               bigarray[10];         /*     8   160 */\n"
		"\t/* --- cacheline 2 boundary (128 bytes) was 40 bytes ago --- */\n"
		"\tchar                       very_long_member_name_here_for_test; /*   168     1 */\n"
		"\n"
		"\t/* size: 176, cachelines: 3, members: 3 */\n"
		"\t/* sum members: 162, holes: 1, sum holes: 7 */\n"
		"\t/* padding: 7 */\n"
		"\t/* last cacheline: 48 bytes */\n"
		"};\n"
	);
}

/* struct pre2 { long double x; char c; }; */
static struct sf_member pre2_m[] = {
	MEM("x", "long double", "", 0, 16, 16, SF_T_FLOAT),
	MEM("c", "char", "", 16, 1, 1, SF_T_INT),
};
static const struct sf_type pre2 = TYPE("pre2", SF_KIND_STRUCT, 32, 16, pre2_m);

static void test_force_padding(void **state)
{
	(void)state;
	expect_text(&pre2,
	/* pahole -C pre2 */
		"struct pre2 {\n"
		"\tlong double                x;                    /*     0    16 */\n"
		"\tchar                       c;                    /*    16     1 */\n"
		"\n"
		"\t/* Force padding: */\n"
		"\tchar                       :8;\n"
		"\tchar                       :8;\n"
		"\tchar                       :8;\n"
		"\tchar                       :8;\n"
		"\tchar                       :8;\n"
		"\tchar                       :8;\n"
		"\tchar                       :8;\n"
		"\tchar                       :8;\n"
		"\tchar                       :8;\n"
		"\tchar                       :8;\n"
		"\tchar                       :8;\n"
		"\tchar                       :8;\n"
		"\tchar                       :8;\n"
		"\tchar                       :8;\n"
		"\tchar                       :8;\n"
		"\n"
		"\t/* size: 32, cachelines: 1, members: 2 */\n"
		"\t/* padding: 15 */\n"
		"\t/* last cacheline: 32 bytes */\n"
		"};\n"
	);
}

/*
 * struct Base { int b; char bc; };  struct D2 : Base { char z; long w; };
 * (g++).  pahole 1.24 prints the same, except that it leaves the base out of
 * "sum members" (9) and then complains "BRAIN FART ALERT! 24 bytes != 9
 * (member bytes) + ..."; structfit counts the base: 8 + 1 + 8 = 17.
 */
static struct sf_member base_m[] = {
	MEM("b", "int", "", 0, 4, 4, SF_T_INT),
	MEM("bc", "char", "", 4, 1, 1, SF_T_INT),
};
static const struct sf_type base = TYPE("Base", SF_KIND_STRUCT, 8, 4, base_m);
static struct sf_member d2_m[] = {
	{ .name = "", .type_name = "struct Base", .type_suffix = "",
	  .offset = 0, .size = 8, .align = 4, .tclass = SF_T_STRUCT,
	  .flags = SF_MF_BASE },
	MEM("z", "char", "", 8, 1, 1, SF_T_INT),
	MEM("w", "long int", "", 16, 8, 8, SF_T_INT),
};
static const struct sf_type d2 = TYPE("D2", SF_KIND_STRUCT, 24, 8, d2_m);

static const struct sf_type *find_base(void *ctx, const struct sf_member *m)
{
	(void)ctx;
	return strcmp(m->type_name, "struct Base") == 0 ? &base : NULL;
}

static void test_cxx_ancestor(void **state)
{
	(void)state;
	char *got = render_with(&d2, find_base, NULL);
	assert_string_equal(got,
		"struct D2 : Base {\n"
		"\t/* struct Base                <ancestor>; */     /*     0     8 */\n"
		"\n"
		"\t/* XXX last struct has 3 bytes of padding */\n"
		"\n"
		"\tchar                       z;                    /*     8     1 */\n"
		"\n"
		"\t/* XXX 7 bytes hole, try to pack */\n"
		"\n"
		"\tlong int                   w;                    /*    16     8 */\n"
		"\n"
		"\t/* size: 24, cachelines: 1, members: 3 */\n"
		"\t/* sum members: 17, holes: 1, sum holes: 7 */\n"
		"\t/* paddings: 1, sum paddings: 3 */\n"
		"\t/* last cacheline: 24 bytes */\n"
		"};\n");
	free(got);
}

/* typedef struct { int a; char b; } tdef_t;   (as `pahole -C tdef_t`) */
static struct sf_member tdef_m[] = {
	MEM("a", "int", "", 0, 4, 4, SF_T_INT),
	MEM("b", "char", "", 4, 1, 1, SF_T_INT),
};
static struct sf_type tdef = TYPE("tdef_t", SF_KIND_STRUCT, 8, 4, tdef_m);

static void test_typedef_named_struct(void **state)
{
	(void)state;
	tdef.flags = SF_TF_TYPEDEF;
	expect_text(&tdef,
	/* pahole -C tdef_t */
		"typedef struct {\n"
		"\tint                        a;                    /*     0     4 */\n"
		"\tchar                       b;                    /*     4     1 */\n"
		"\n"
		"\t/* size: 8, cachelines: 1, members: 2 */\n"
		"\t/* padding: 3 */\n"
		"\t/* last cacheline: 8 bytes */\n"
		"} tdef_t;\n"
	);
}

/* structfit's own notes for variants, incomplete types and the origin. */
static void test_structfit_notes(void **state)
{
	struct sf_type t = b3;
	struct sf_layout l;
	struct sf_text_opts to = { .cacheline = 64, .show_origin = true };
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	t.flags = SF_TF_VARIANT | SF_TF_INCOMPLETE;
	sf_layout_compute(&t, 64, &l);
	sf_render_text_type(&sb, &t, &l, &to);
	assert_non_null(strstr(sb.buf,
		"\t/* last cacheline: 16 bytes */\n"
		"\t/* structfit: one of several differing definitions of this name */\n"
		"\t/* structfit: incomplete: a base or member type is only "
		"declared, its size is unknown */\n"
		"\t/* structfit: from t.o */\n"
		"};\n"));
	sb_release(&sb);
	sf_layout_release(&l);
}

/*
 * A gap before the first member (DWARF that leaves a hidden member out):
 * pahole prints the hole comment right after the opening brace.
 */
static struct sf_member late_m[] = {
	MEM("a", "int", "", 4, 4, 4, SF_T_INT),
};
static const struct sf_type late = TYPE("late", SF_KIND_STRUCT, 8, 4, late_m);

static void test_hole_before_first_member(void **state)
{
	(void)state;
	expect_text(&late,
		"struct late {\n"
		"\n"
		"\t/* XXX 4 bytes hole, try to pack */\n"
		"\n"
		"\tint                        a;                    /*     4     4 */\n"
		"\n"
		"\t/* size: 8, cachelines: 1, members: 1 */\n"
		"\t/* sum members: 4, holes: 1, sum holes: 4 */\n"
		"\t/* last cacheline: 8 bytes */\n"
		"};\n");
}

/* The `holes` table: numbers right-aligned, type column padded. */
static void test_rank_text(void **state)
{
	struct sf_rank_opts o = { .sort = SF_RANK_BY_WASTE };
	const struct sf_type *types[] = { &st_table, &b3, &U, &anon_u, &tdef };
	struct strbuf sb = STRBUF_INIT;
	struct sf_rank r;
	struct sf_type lined = b3;

	(void)state;
	lined.decl_line = 23;
	types[1] = &lined;
	tdef.flags = SF_TF_TYPEDEF;
	sf_rank_init(&r, &o);
	for (size_t i = 0; i < 5; i++) {
		struct sf_layout l;
		sf_layout_compute(types[i], 64, &l);
		sf_rank_add(&r, types[i], &l);
		sf_layout_release(&l);
	}
	sf_rank_finish(&r);
	sf_render_rank_text(&sb, &r);
	assert_string_equal(sb.buf,
		"waste  size  holes  padding  type               declared\n"
		"    4    16      0        4  struct b3          t.c:23\n"
		"    3     8      0        3  typedef tdef_t     t.c\n"
		"    1    48      1        0  struct st_table    t.c\n"
		"    0     8      0        0  union <anonymous>  t.c\n"
		"    0    16      0        0  union U            t.c\n");
	sb_release(&sb);
	sf_rank_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_st_table),
		cmocka_unit_test(test_bitfields),
		cmocka_unit_test(test_bitfield_combined_with_next),
		cmocka_unit_test(test_nested_anonymous),
		cmocka_unit_test(test_type_spellings),
		cmocka_unit_test(test_pointer_spellings_and_force_padding),
		cmocka_unit_test(test_qualifiers_and_function_pointers),
		cmocka_unit_test(test_cacheline_boundaries),
		cmocka_unit_test(test_cacheline_parameter),
		cmocka_unit_test(test_cacheline_boundary_singular),
		cmocka_unit_test(test_union),
		cmocka_unit_test(test_union_zero_length_array),
		cmocka_unit_test(test_packed),
		cmocka_unit_test(test_forced_alignment),
		cmocka_unit_test(test_zero_size_member),
		cmocka_unit_test(test_bit_holes_and_force_alignment),
		cmocka_unit_test(test_bit_padding),
		cmocka_unit_test(test_member_struct_padding),
		cmocka_unit_test(test_nested_two_levels),
		cmocka_unit_test(test_array_of_anonymous_structs),
		cmocka_unit_test(test_nested_attributes),
		cmocka_unit_test(test_flexible_arrays_below_a_union),
		cmocka_unit_test(test_zero_length_arrays),
		cmocka_unit_test(test_long_names_and_skipped_cachelines),
		cmocka_unit_test(test_force_padding),
		cmocka_unit_test(test_cxx_ancestor),
		cmocka_unit_test(test_typedef_named_struct),
		cmocka_unit_test(test_structfit_notes),
		cmocka_unit_test(test_hole_before_first_member),
		cmocka_unit_test(test_rank_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
