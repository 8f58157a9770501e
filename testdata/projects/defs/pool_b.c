/* Another file's stringpool_t, only in the new build (tests/e2e/defs.sh):
 * an added definition, not growth of pool_a.c's. */
#include "pool.h"

typedef struct {
	char *strings[64];
	int n;
	int cap;
} stringpool_t;

stringpool_t pool_b;

unsigned long pool_b_size(void)
{
	return sizeof(pool_b);
}
