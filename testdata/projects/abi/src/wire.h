/* A message header as it travels on the wire: packed, so its bytes are
 * the protocol and no member may move or narrow. */
#ifndef WIRE_H
#define WIRE_H

#include <stdint.h>

struct wire_hdr {
	uint8_t type;
	uint64_t len;
	uint8_t flags;
	uint32_t seq;
} __attribute__((packed));

#endif
