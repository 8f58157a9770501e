/*
 * shared.h - one struct included by dup_a.c, dup_b.c and dup_c.c: the same
 * definition in three compilation units must be reported once.
 */
#ifndef SHARED_H
#define SHARED_H

struct shared_rec {
	char tag;          /* then a 7-byte hole on LP64 */
	void *payload;
	unsigned short len;
};

#endif
