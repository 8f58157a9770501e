/* main.c - first unit of the split DWARF test program. */
#include "common.h"

struct cursor {
	const struct table *t;
	short pos;              /* then 6 bytes of padding */
};

int main(void)
{
	struct table t = { 0 };
	struct cursor c = { &t, 0 };

	return table_count(c.t) + c.pos;
}
