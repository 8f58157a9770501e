/* One file's stringpool_t, in both builds (tests/e2e/defs.sh). */
#include "pool.h"

typedef struct {
	char *buf;
	int used;
} stringpool_t;

stringpool_t pool_a;

unsigned long pool_size(void)
{
	return sizeof(pool_a);
}
