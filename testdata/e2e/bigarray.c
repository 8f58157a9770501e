/*
 * bigarray.c - array bounds at the edges of their encodings, for
 * tests/e2e/show.sh (64-bit targets only: these arrays do not fit a
 * 32-bit address space).
 *
 * gcc writes the upper bound 4294967295 of `char a[4294967296UL]` as
 * DW_FORM_data4 0xffffffff, the same bits as GNU's old "-1" for a [0]
 * array on 32-bit targets; the reader must take it as the bound it is
 * (a 4 GiB array, no hole), not as [0].  The neighbours one below and one
 * above, and a real [0], keep the other readings honest.
 */

struct big {
	char a[4294967296UL];   /* upper bound 0xffffffff (data4) */
	int tail;
};

struct below {
	char a[4294967295UL];   /* upper bound 0xfffffffe */
	char tail;
};

struct above {
	char a[4294967297UL];   /* upper bound 0x100000000 (data8) */
	char tail;
};

struct zero {
	long n;
	char x[0];              /* GNU zero-length array */
};

struct big *bigs;
struct below *belows;
struct above *aboves;
struct zero zeros;
