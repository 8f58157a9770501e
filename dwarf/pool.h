/*
 * pool.h - read items side by side, take their results in item order
 * (internal to dwarf/: load.c's inputs, archive members and unit runs).
 *
 * Items [0, n) are handed out by a shared counter to whichever thread is
 * free: run(i) reads item i into a place of its own, on any thread;
 * merge(i) takes its result, in item order, one item at a time, on
 * whichever thread finds it next in line, as soon as every item before it
 * is merged.  So what comes out is in item order whatever the number of
 * threads, and a bounded window of items read ahead of the merge bounds
 * memory.
 *
 * Pools nest (an archive found in a directory, a large image in an
 * archive) and share one budget, struct sf_threads: a pool takes what
 * threads it can get when it starts and each gives itself back when it
 * ends, so nested pools never run more than the budget's threads together.
 */
#ifndef SF_POOL_H
#define SF_POOL_H

#include <stdatomic.h>
#include <stddef.h>

/* The threads of one load: N, and how many more may still start. */
struct sf_threads {
	unsigned n;
	atomic_uint spare;
};

/* n threads in all: the caller's and n - 1 more. */
void sf_threads_init(struct sf_threads *t, unsigned n);

struct sf_pool {
	size_t n;				/* items */
	/* read item i: < 0 says the items after it are not needed */
	int (*run)(void *arg, size_t i);
	/* take item i's result: < 0 stops the pool (nothing after it is
	 * handed out or merged) */
	int (*merge)(void *arg, size_t i);
	/* free the result of an item read past a stop, never merged */
	void (*drop)(void *arg, size_t i);
	void *arg;
	struct sf_threads *threads;
};

/*
 * Read and merge every item, on the calling thread and what the budget
 * spares.  0, or -1 when a merge failed (what it failed with is the
 * merge's to keep).
 */
int sf_pool_run(const struct sf_pool *p);

#endif
