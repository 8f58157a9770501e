/*
 * shift.c - input of tests/e2e/diff.sh, built twice: as is and with
 * -DWIDE (b becomes a long).  b then moves and is retyped, and c, d, e
 * only follow it: diff names b once, with its offsets, and c, d, e on one
 * "shifted" line.
 */
struct shift {
	int a;
#ifdef WIDE
	long b;
#else
	int b;
#endif
	long c;
	long d;
	char e;
};

struct shift diff_shift;
