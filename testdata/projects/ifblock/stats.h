/* stats.h - per-connection counters. */
#ifndef STATS_H
#define STATS_H

struct stats {
	char on;
	long hits;
#ifdef WITH_TRACE
	char trace_level;
	long trace_id;
#else
	long trace_id;
#endif
	char mode;
	long misses;
};

#endif
