/* p2, second unit: the shared types again. */
#include "common.h"

long table_sum(const struct table *t)
{
	return t->hdr.kind + t->hi + t->span;
}

long node_len(const node_t *n)
{
	return n ? 1 + node_len(n->next) : 0;
}
