/* msg.h - a message header as it goes on the wire. */
#ifndef MSG_H
#define MSG_H
#include <stddef.h>

struct msg {
	char tag;
	long len;
	char flags;
};

_Static_assert(sizeof(struct msg) == 24, "the wire header is 24 bytes");

#endif
