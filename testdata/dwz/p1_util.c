/* p1, second unit: the shared types again (dwz: a partial unit). */
#include "common.h"

long table_sum(const struct table *t)
{
	return t->hdr.level + t->lo + (long)t->slots[1][1].i;
}

long node_len(const node_t *n)
{
	long k = 0;
	for (; n; n = n->next)
		k++;
	return k;
}
