/* memcached-like: two blocks, one of two pointers, one int at the end. */
#include <stdint.h>

struct conn {
	int sfd;
	short state;
	char *rcurr;
	int rsize;
#ifdef TLS
	void *ssl;
	char *ssl_wbuf;         /* write buffer for SSL */
#endif
	char noreply;
	double last_cmd_time;
#ifdef PROXY
	int proxy_id;
#endif
};
