/* worker.h - one worker process. */
#ifndef WORKER_H
#define WORKER_H
#include "compat.h"

struct worker {
	char state;
	app_atomic long long jobs;
	app_pid_t pid;
	char flags;
	app_atomic int refs;
};

#endif
