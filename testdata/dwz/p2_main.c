/* p2, first unit: the shared types and its own. */
#include "common.h"

struct p2_only {
	short s;
	union value v;
	char c : 2;
	char d : 5;
	node_t *head;
};

static struct p2_only g;

int main(void)
{
	struct table t = { 0 };
	g.head = t.first;
	return (int)(table_sum(&t) + node_len(g.head) + g.s);
}
