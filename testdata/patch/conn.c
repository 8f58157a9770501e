/*
 * conn.c - a struct with everything `structfit patch` must carry along
 * when it moves members: comments above and after members, attributes,
 * a bit-field run declared on two lines, declarations sharing a line, a
 * function pointer, and <stdint.h> (so narrowed members get uint8_t...).
 */
#include <stdint.h>

struct conn_peer;

struct conn {
	/* set once the peer has closed its side */
	_Bool closed;
	uint64_t bytes_in, bytes_out;	/* counters, never reset */
	unsigned int kind : 3,		/* enum conn_kind */
		     urgent : 1;	/* urgent data pending */
	struct conn_peer *peer __attribute__((aligned(8)));
	char tag[5];			// not NUL-terminated

	double rtt;			/* smoothed, in seconds */
	short port;			/* host order */
	int (*on_close)(struct conn *c, int why);
	uint16_t flags;
};

/* Redis's robj: the bit-field run moves as one unit. */
struct robj {
	int refcount;
	void *ptr;			/* the value */
	unsigned type : 4, encoding : 4;
	unsigned lru : 24;		/* LRU time or LFU data */
};

struct conn example_conn;
struct robj example_robj;
