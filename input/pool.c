/*
 * pool.c - pools of items on one budget of threads, merged in item order
 * (pool.h).
 *
 * Everything is under the budget's one mutex (items are whole files,
 * members, runs of units or blocks of a report's types: a few hundred
 * hand-outs a run).  A pool's
 * state lives on its owner's stack while sf_pool_run() runs: `next` (the
 * next item to hand out), `merged` (items [0, merged) are merged),
 * `stop` (no item at or past it is handed out or merged), `running`
 * (items being read now, by any thread) and each item's state: WAITING,
 * RUNNING, READ, or LIGHT (read, holding nothing: `light` counts those
 * not merged yet, and the window does not count them).  One thread at a
 * time merges a pool (`merging`); it
 * merges the READ items next in line and looks again after each merge,
 * so an item read meanwhile by another thread is never left behind.
 *
 *   threads->open --> newest pool --> ... --> outermost pool --> NULL
 *                     (seq: its age; a thread inside pool s helps only
 *                      pools whose seq is at least s's)
 *
 * The owner leaves once every item it handed out is read and merged and
 * no thread is merging: nothing touches its state afterwards.  The
 * outermost pool starts the workers and, once it ends, sends them away.
 */
#include "pool.h"

#include <assert.h>
#include <stdint.h>
#include <stdlib.h>

#include "lib/xalloc.h"

enum { WAITING, RUNNING, READ, LIGHT };

struct sf_pool_state {
	const struct sf_pool *p;
	struct sf_pool_state *older;	/* the next pool in threads->open */
	unsigned seq;
	size_t next, merged, stop, window;
	size_t light;			/* LIGHT items in [merged, next) */
	unsigned running;
	uint8_t *item;
	int merging, rc;
};

void sf_threads_init(struct sf_threads *t, unsigned n)
{
	assert(n >= 1);
	t->n = n < SF_POOL_MAX_THREADS ? n : SF_POOL_MAX_THREADS;
	pthread_mutex_init(&t->mu, NULL);
	pthread_cond_init(&t->moved, NULL);
	t->open = NULL;
	t->seq = 0;
	t->nworkers = 0;
	t->done = 0;
}

void sf_threads_release(struct sf_threads *t)
{
	assert(!t->open && !t->nworkers);
	pthread_cond_destroy(&t->moved);
	pthread_mutex_destroy(&t->mu);
}

/* Can s hand out an item now?  (Read ahead and holding something: at
 * most the window.) */
static int available(const struct sf_pool_state *s)
{
	assert(s->light <= s->next - s->merged);
	return s->next < s->stop && s->next - s->merged - s->light < s->window;
}

static int is_read(uint8_t state)
{
	return state == READ || state == LIGHT;
}

/* Is s over: every item it handed out below stop read and merged? */
static int finished(const struct sf_pool_state *s)
{
	return s->merged == s->stop && !s->running && !s->merging;
}

/* The newest pool at least as new as `seq` with an item to hand out. */
static struct sf_pool_state *pick(const struct sf_threads *t, unsigned seq)
{
	for (struct sf_pool_state *s = t->open; s && s->seq >= seq; s = s->older)
		if (available(s))
			return s;
	return NULL;
}

/* Merge the items of s next in line that are read (called holding mu). */
static void merge_ready(struct sf_threads *t, struct sf_pool_state *s)
{
	if (s->merging)
		return;		/* that thread will find these too */
	s->merging = 1;
	while (s->merged < s->stop && is_read(s->item[s->merged])) {
		size_t i = s->merged;
		if (s->item[i] == LIGHT)
			s->light--;
		pthread_mutex_unlock(&t->mu);
		int r = s->p->merge(s->p->arg, i);
		pthread_mutex_lock(&t->mu);
		s->merged = i + 1;
		if (r < 0) {
			s->rc = -1;
			s->stop = s->merged;
		}
		pthread_cond_broadcast(&t->moved);
	}
	s->merging = 0;
}

/* Read the next item of s, then merge what is in line (holding mu). */
static void run_one(struct sf_threads *t, struct sf_pool_state *s)
{
	assert(available(s));
	size_t i = s->next++;
	int in_line = s->merged == i;

	s->item[i] = RUNNING;
	s->running++;
	pthread_mutex_unlock(&t->mu);
	int r = s->p->run(s->p->arg, i, in_line);
	pthread_mutex_lock(&t->mu);
	s->item[i] = r == SF_POOL_LIGHT ? LIGHT : READ;
	s->light += r == SF_POOL_LIGHT;
	s->running--;
	if (r < 0 && s->stop > i + 1)
		s->stop = i + 1;	/* what comes after is not needed */
	merge_ready(t, s);
	pthread_cond_broadcast(&t->moved);
}

/* A worker: items of any pool, until the outermost pool ends. */
static void *work_thread(void *arg)
{
	struct sf_threads *t = arg;

	pthread_mutex_lock(&t->mu);
	while (!t->done) {
		struct sf_pool_state *s = pick(t, 0);
		if (s)
			run_one(t, s);
		else
			pthread_cond_wait(&t->moved, &t->mu);
	}
	pthread_mutex_unlock(&t->mu);
	return NULL;
}

/* The outermost pool: the workers come (as many as can be had). */
static void start_workers(struct sf_threads *t)
{
	while (t->nworkers + 1 < t->n &&
	       pthread_create(&t->worker[t->nworkers], NULL, work_thread, t) == 0)
		t->nworkers++;
}

/* ...and go once it ended (called holding mu, which it releases). */
static void stop_workers(struct sf_threads *t)
{
	unsigned n = t->nworkers;

	t->done = 1;
	pthread_cond_broadcast(&t->moved);
	pthread_mutex_unlock(&t->mu);
	for (unsigned k = 0; k < n; k++)
		pthread_join(t->worker[k], NULL);
	pthread_mutex_lock(&t->mu);
	t->nworkers = 0;
	t->done = 0;
	pthread_mutex_unlock(&t->mu);
}

static void unlink_pool(struct sf_threads *t, struct sf_pool_state *s)
{
	struct sf_pool_state **pp = &t->open;

	while (*pp != s)
		pp = &(*pp)->older;
	*pp = s->older;
}

int sf_pool_run(const struct sf_pool *p)
{
	struct sf_threads *t = p->threads;
	struct sf_pool_state s = { .p = p, .stop = p->n };

	s.item = sf_xcalloc(p->n ? p->n : 1, 1);
	s.window = (p->window_per_thread ? p->window_per_thread :
		    SF_POOL_WINDOW_PER_THREAD) * t->n;
	pthread_mutex_lock(&t->mu);
	int outermost = !t->open;
	s.seq = t->seq++;
	s.older = t->open;
	t->open = &s;
	if (outermost && p->n)
		start_workers(t);
	pthread_cond_broadcast(&t->moved);
	for (;;) {
		struct sf_pool_state *o = pick(t, s.seq);
		if (o)
			run_one(t, o);
		else if (finished(&s))
			break;
		else
			pthread_cond_wait(&t->moved, &t->mu);
	}
	unlink_pool(t, &s);
	if (outermost)
		stop_workers(t);
	else
		pthread_mutex_unlock(&t->mu);
	for (size_t i = s.merged; i < p->n; i++)
		if (is_read(s.item[i]))
			p->drop(p->arg, i);
	free(s.item);
	return s.rc;
}
