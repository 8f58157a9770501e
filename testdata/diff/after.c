/*
 * after.c - the new build of tests/e2e/diff.sh; see before.c for what
 * changed between the two.  No system header: builds freestanding.
 */

struct grows {
	int id;
	int flags;
	long extra;
};

struct reord {
	long value;
	char tag;
	char kind;
};

struct holey {
	long a;
	char b;
	int c;
};

struct flags {
	unsigned ready : 1;
	unsigned mode : 5;
	unsigned count : 12;
};

struct same {
	void *p;
	int n;
};

struct newone {
	long x;
	long y;
};

struct grows diff_grows;
struct reord diff_reord;
struct holey diff_holey;
struct flags diff_flags;
struct same diff_same;
struct newone diff_newone;
