/* main.c - the project's own test: every job runs as its table says. */
#include <stdio.h>
#include "job.h"

extern job_t spare, blank;

static int neg(int x) { return -x; }

int main(void)
{
	struct job extra = (struct job){ .run = neg, .kind = 'd' };
	long sum = 0;

	for (int i = 0; i < njobs; i++)
		sum += jobs[i].id * jobs[i].run(jobs[i].prio);
	sum += spare.run(spare.prio) + extra.run(1) + blank.id;
	if (sum != 10 * 2 + 20 * 3 + 30 * 6 + 1 - 1 || extra.kind != 'd') {
		fprintf(stderr, "designated: sum %ld\n", sum);
		return 1;
	}
	return 0;
}
