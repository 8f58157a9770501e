/* p1, first unit: uses the shared types and one of its own. */
#include "common.h"

struct p1_only {
	char a;
	struct table *t;
	int b;
	header_t h;
};

static struct p1_only g;

int main(void)
{
	struct table t = { 0 };
	g.t = &t;
	return (int)(table_sum(&t) + node_len(t.first) + g.a);
}
