/* main.c - the project's own test. */
#include <string.h>
#include "conf.h"

int main(void)
{
	struct conf c = { .verbose = 1, .limit = 5, .mode = 2, .retries = 3 };
	return c.limit + c.retries == 8 && !strcmp(CONF_VERSION, "1.0") ? 0 : 1;
}
