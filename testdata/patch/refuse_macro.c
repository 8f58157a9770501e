/* refuse_macro.c - members that come from a macro: refused. */
#define COUNTERS(prefix) long prefix##_hits; char prefix##_flag

struct stats {
	char state;
	COUNTERS(cache);
	long total;
};

struct stats example_stats;
