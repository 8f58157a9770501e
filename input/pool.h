/*
 * pool.h - read items side by side, take their results in item order:
 * the one ordered thread pool (input/: load.c's inputs, archive members
 * and unit runs; cmd/show.c: a large report rendered in blocks, written
 * in order).
 *
 * Items [0, n) are handed out one at a time to whichever thread is free:
 * run(i) reads item i into a place of its own, on any thread; merge(i)
 * takes its result, in item order, one item at a time, on whichever
 * thread finds it next in line, as soon as every item before it is
 * merged.  So what comes out is in item order whatever the number of
 * threads, and a bounded window of items read ahead of the merge bounds
 * memory.
 *
 * Pools nest (an archive found in a directory, a large image in an
 * archive) and share one budget, struct sf_threads: N threads in all, the
 * caller's and N - 1 workers that the outermost pool starts and ends.
 * The pools running are a list, newest first; a free thread takes an
 * item from the newest pool that has one to hand out, so a large image
 * found late in a directory gets every thread, not just the one that
 * opened it.  A thread inside a pool (its owner waiting for its last
 * items, or one a window ahead of the merge) only helps pools newer than
 * that one: their items cannot wait for it, so no thread ever waits for
 * itself.
 */
#ifndef SF_POOL_H
#define SF_POOL_H

#include <pthread.h>
#include <stddef.h>

#define SF_POOL_MAX_THREADS 64
/*
 * Items a pool reads ahead of the oldest unmerged one, per thread: while
 * one thread opens a large file (inflating its sections is not split),
 * the others go on through the small files after it.  What is read ahead
 * waits in memory: this bounds it.
 */
#define SF_POOL_WINDOW_PER_THREAD 32
/* run()'s answer for an item read that holds nothing (struct sf_pool) */
#define SF_POOL_LIGHT 1

struct sf_pool_state;

/* The threads of one load: N, and the pools running on them. */
struct sf_threads {
	unsigned n;
	pthread_mutex_t mu;		/* guards this and every pool's state */
	pthread_cond_t moved;		/* an item read or merged, a pool come or gone */
	struct sf_pool_state *open;	/* the pools running, newest first */
	unsigned seq;			/* pools begun so far: their age */
	unsigned nworkers;		/* workers running (0 outside a pool) */
	int done;			/* the outermost pool ended: workers leave */
	pthread_t worker[SF_POOL_MAX_THREADS];
};

/* n threads in all: the caller's and n - 1 workers, while a pool runs. */
void sf_threads_init(struct sf_threads *t, unsigned n);
void sf_threads_release(struct sf_threads *t);

struct sf_pool {
	size_t n;				/* items */
	/*
	 * Read item i: < 0 says the items after it are not needed;
	 * SF_POOL_LIGHT that it holds nothing while it waits for its merge,
	 * so it does not count against the window (a run of a streamed
	 * section whose bytes all lie inside the unit of a run before it:
	 * librados' 6.5 MB unit left three such runs, which filled the
	 * window while one thread read that unit and the other waited).
	 * in_line: every item before i was merged when i was handed out, so
	 * nothing is merged until i is: i may be read straight into where
	 * merges go.
	 */
	int (*run)(void *arg, size_t i, int in_line);
	/* take item i's result: < 0 stops the pool (nothing after it is
	 * handed out or merged) */
	int (*merge)(void *arg, size_t i);
	/* free the result of an item read past a stop, never merged */
	void (*drop)(void *arg, size_t i);
	void *arg;
	struct sf_threads *threads;
	/* items read ahead of the merge, per thread; 0: the default,
	 * SF_POOL_WINDOW_PER_THREAD */
	size_t window_per_thread;
};

/*
 * Read and merge every item, on the calling thread and the budget's
 * workers.  0, or -1 when a merge failed (what it failed with is the
 * merge's to keep).  One outermost pool at a time per budget.
 */
int sf_pool_run(const struct sf_pool *p);

#endif
