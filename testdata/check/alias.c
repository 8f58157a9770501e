/*
 * alias.c - input of tests/e2e/check.sh: budgets by typedef name, as
 * users write them (Redis's robj, SQLite's Mem): the typedef is declared
 * before the struct it names is defined, so the typedef's DWARF points at
 * a declaration, and a budget on `robj` must still measure the struct.
 */
typedef struct redisObject robj;
typedef struct sqlite3_value Mem;

struct redisObject {
	unsigned type:4;
	unsigned encoding:4;
	unsigned lru:24;
	int refcount;
	void *ptr;
};

struct sqlite3_value {
	double r;
	char flags;
	long n;
};

robj example_robj;
Mem example_mem;
