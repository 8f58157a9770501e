/* main.c - the project's own test. */
#include "stats.h"

int main(void)
{
	struct stats s = { .on = 1, .hits = 2, .trace_id = 3, .mode = 4, .misses = 5 };
#ifdef WITH_TRACE
	s.trace_level = 6;
	if (s.trace_level != 6)
		return 1;
#endif
	return s.on + s.hits + s.trace_id + s.mode + s.misses == 15 ? 0 : 1;
}
