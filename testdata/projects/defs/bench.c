/*
 * redis-benchmark's `struct config` in miniature (tests/e2e/defs.sh): the
 * benchmark program's own config, which the new build (-DGROW) makes
 * bigger.  redis-cli has a different, larger `struct config` (cli.c), so a
 * diff that compares only the largest definition misses this growth.
 */
#include "pool.h"

struct config {
	int numclients;
	long requests;
#ifdef GROW
	long liveclients;       /* the new build's member */
#endif
	char *hostip;
	int hostport;
};

struct config bench_config;

int main(void)
{
	return (int)((sizeof(bench_config) + pool_size()) & 1);
}
