/* pool.c - structs that hold a struct job by value. */
#include <stddef.h>
#include "job.h"

struct pool {
	int n;
	struct job first, *next;
};

static int one(int x) { return x; }

struct pool main_pool = { 1, { 'p', 1, 1, one }, NULL };
struct pool named = { .n = 2, .first = { 'q', 2, 2, one } };
struct pool fine = { .n = 3, .first = { .id = 3, .run = one } };
_Static_assert(offsetof(struct pool, next) == 40, "pool layout");
