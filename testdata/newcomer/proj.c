/* testdata/newcomer/proj.c - the project of tests/e2e/newcomer.sh: a few
 * structs with holes, one that a reorder shrinks, one without waste, and
 * a use of the C library's FILE so that its struct _IO_FILE is in the
 * debug info too (--write-budget must leave it out by default). */
#include <stdio.h>

struct inner {          /* 1-byte char, 7-byte hole, pointer: 16 */
	char tag;
	void *p;
};

struct conn {           /* two holes: 24, reorders to 16 */
	char a;
	long b;
	char c;
	int d;
};

struct tight {          /* no waste */
	long x;
	long y;
};

struct inner g_inner;
struct conn g_conn;
struct tight g_tight;

int use_file(FILE *f)
{
	return fgetc(f);
}
