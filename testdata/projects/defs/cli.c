/*
 * redis-cli's `struct config` in miniature (tests/e2e/defs.sh): same name
 * as redis-benchmark's (bench.c), another definition, larger, unchanged
 * between the builds.  The new build also links pool_b.c.
 */
struct config {
	char *hostip;
	int hostport;
	long repeat;
	long interval;
	char *auth;
	char *user;
	int output;
	double latency_history;
};

struct config cli_config;

#ifdef NEWPOOL
#include "pool.h"
#endif

int main(void)
{
#ifdef NEWPOOL
	return (int)((sizeof(cli_config) + pool_b_size()) & 1);
#else
	return (int)(sizeof(cli_config) & 1);
#endif
}
