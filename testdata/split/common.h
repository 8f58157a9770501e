/*
 * common.h - types shared by the two units of the split DWARF test
 * program (tests/e2e/splitdwarf.sh): each unit's .dwo defines them again,
 * and the report must show them once, as the plain build does.
 */
#ifndef SPLIT_COMMON_H
#define SPLIT_COMMON_H

struct entry {
	char kind;              /* then a 7-byte hole on LP64 */
	const char *key;
	unsigned short len;
	unsigned flags : 3;
	unsigned live : 1;
};

struct table {
	struct entry *slots;
	unsigned char shift;    /* then a 3-byte hole */
	int count;
	long long stamp;
};

int table_count(const struct table *t);

#endif
