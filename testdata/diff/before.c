/*
 * before.c - the old build of tests/e2e/diff.sh (`structfit diff`);
 * after.c is the new one.  Between the two:
 *   grows   gains a member at the end        (grows)
 *   reord   the same members, reordered      (shrinks: its hole goes away)
 *   holey   b narrowed from int to char      (same size, gains a hole)
 *   flags   a bit-field widened and moved
 *   gone    removed;  newone  added;  same  unchanged
 * No system header: the file builds freestanding.
 */

struct grows {
	int id;
	int flags;
};

struct reord {
	char tag;
	long value;
	char kind;
};

struct holey {
	long a;
	int b;
	int c;
};

struct flags {
	unsigned ready : 1;
	unsigned mode : 3;
	unsigned count : 12;
};

struct gone {
	long x;
};

struct same {
	void *p;
	int n;
};

struct grows diff_grows;
struct reord diff_reord;
struct holey diff_holey;
struct flags diff_flags;
struct gone diff_gone;
struct same diff_same;
