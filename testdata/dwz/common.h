/*
 * common.h - types shared by the two dwz test programs (p1, p2), each
 * built from two units, so that dwz finds them in several units of one
 * file (single-file dwz: partial units) and in both files (dwz -m: the
 * common alt file).  Structs, unions, typedefs, anonymous members,
 * bit-fields, arrays, pointers to each other and an enum.
 */
#ifndef DWZ_COMMON_H
#define DWZ_COMMON_H

#include <stdint.h>

enum colour { RED, GREEN = 5, BLUE };

struct node;
typedef struct node node_t;

struct node {
	char tag;               /* 7-byte hole after */
	node_t *next;
	uint16_t flags;
	enum colour colour;
	double weight;
	char name[13];
};

typedef struct {
	unsigned kind : 3;
	unsigned live : 1;
	unsigned long long gen : 40;
	short level;
	unsigned char mark[3];
} header_t;

union value {
	long i;
	double d;
	char bytes[12];
	struct node *n;
};

struct table {
	header_t hdr;
	union {                 /* anonymous union */
		struct node *first;
		uintptr_t raw;
	};
	struct {                /* anonymous struct */
		uint8_t lo, hi;
		uint32_t span;
	};
	union value slots[4][2];
	int (*hash)(const char *key, unsigned len);
	const volatile int *counters[3];
	char trailer;
};

long table_sum(const struct table *t);
long node_len(const node_t *n);

#endif
