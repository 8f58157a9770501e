/* job.h - one entry of the job table. */
#ifndef JOB_H
#define JOB_H

struct job {
	char kind;
	long id;
	char prio;
	int (*run)(int);
};

typedef struct job job_t;

extern struct job jobs[];
extern const int njobs;

#endif
