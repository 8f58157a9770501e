/* testdata/newcomer/nested.c - structs held by value, for the stale-source
 * check of tests/e2e/newcomer.sh: patching stats changes server's size
 * and offsets, and outer's through server. */
struct stats {
	char kind;
	long total;
	char flag;
	long count;
};

struct server {
	char up;
	struct stats st;
	char down;
	long id;
	struct stats more[2];
};

struct outer {
	char tag;
	struct server srv;
	char end;
};

struct outer g_outer;
