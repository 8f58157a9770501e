/* main.c - the project's own test. */
#include "conf.h"

int main(void)
{
	struct conf c = { .verbose = 1, .limit = 5, .mode = 2 };
	return c.limit == 5 ? 0 : 1;
}
