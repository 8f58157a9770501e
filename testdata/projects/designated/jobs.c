/* jobs.c - the table, by member name. */
#include "job.h"

static int twice(int x) { return 2 * x; }
static int inc(int x) { return x + 1; }

struct job jobs[] = {
	{ .kind = 'a', .id = 10, .prio = 1, .run = twice },
	{ .kind = 'b', .id = 20, .prio = 2, .run = inc },
	[2] = { .run = twice, .id = 30, .prio = 3, .kind = 'c' },
};
const int njobs = sizeof(jobs) / sizeof(jobs[0]);

job_t spare = { .kind = 'z', .id = 99, .run = inc };
job_t blank = { 0 };
