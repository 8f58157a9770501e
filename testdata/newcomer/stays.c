/* testdata/newcomer/stays.c - a reorder whose one move keeps its member's
 * offset: total's declaration goes last, b and c move up into its hole,
 * total itself stays at offset 8 (tests/e2e/newcomer.sh). */
#include <stddef.h>

struct stays {
	char a;
	long total;
	char b;
	int c;
};

/* the order suggest proposes, for the compiler's offsets */
struct stays_new {
	char a;
	char b;
	int c;
	long total;
};

struct stays g_stays;
struct stays_new g_stays_new;
