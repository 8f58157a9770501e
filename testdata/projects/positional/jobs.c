/* jobs.c - the table, by position. */
#include "job.h"

static int twice(int x) { return 2 * x; }
static int inc(int x) { return x + 1; }

struct job jobs[] = {
	{ 'a', 10, 1, twice },
	{ 'b', 20, 2, inc },
	{ 'c', 30, 3, twice },
};
const int njobs = sizeof(jobs) / sizeof(jobs[0]);

job_t spare = { 'z', 99, 0, inc };

#define JOB_STRUCT job
#define JOB_RUN inc
#include "extra.def"
