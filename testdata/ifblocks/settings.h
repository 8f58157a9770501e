/* memcached-like: the last member is under #ifdef SOCK_COOKIE_ID. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct settings {
	size_t maxbytes;
	int maxconns;
	char *inter;            /* interface to listen on */
	int verbose;
	double factor;          /* chunk size growth factor */
	int chunk_size;
	char prefix_delimiter;
	bool use_cas;
	int backlog;
	char *hash_algorithm;
	int num_threads;
#ifdef SOCK_COOKIE_ID
	uint32_t sock_cookie_id;
#endif
};
