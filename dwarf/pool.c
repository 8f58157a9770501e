/*
 * pool.c - a pool of threads over items, merged in item order (pool.h).
 *
 * State, under one mutex: `next` (the next item to hand out), `merged`
 * (items [0, merged) are merged), `stop` (no item at or past it is
 * handed out or merged), and each item's state: WAITING, RUNNING, READ.
 * One thread at a time merges (`merging`); it merges the READ items next
 * in line and looks again after each merge, so an item read meanwhile by
 * another thread is never left behind.  Threads wait (`moved`) only when
 * they are a window ahead of the merge.
 */
#include "pool.h"

#include <assert.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "lib/xalloc.h"

#define MAX_POOL_THREADS 64
/* items a pool reads ahead of the oldest unmerged one, per thread */
#define WINDOW_PER_THREAD 8

enum { WAITING, RUNNING, READ };

struct state {
	const struct sf_pool *p;
	pthread_mutex_t mu;
	pthread_cond_t moved;	/* merged or stop moved */
	size_t next, merged, stop, window;
	uint8_t *item;
	int merging, rc;
};

void sf_threads_init(struct sf_threads *t, unsigned n)
{
	assert(n >= 1);
	t->n = n;
	atomic_init(&t->spare, n - 1);
}

/* Up to `want` threads of the budget (maybe none). */
static unsigned take_threads(struct sf_threads *t, unsigned want)
{
	unsigned have = atomic_load(&t->spare), got;

	do {
		got = want < have ? want : have;
	} while (got && !atomic_compare_exchange_weak(&t->spare, &have, have - got));
	return got;
}

static void give_threads(struct sf_threads *t, unsigned n)
{
	atomic_fetch_add(&t->spare, n);
}

/* Merge the items next in line that are read (called holding mu). */
static void merge_ready(struct state *s)
{
	if (s->merging)
		return;		/* that thread will find these too */
	s->merging = 1;
	while (s->merged < s->stop && s->item[s->merged] == READ) {
		size_t i = s->merged;
		pthread_mutex_unlock(&s->mu);
		int r = s->p->merge(s->p->arg, i);
		pthread_mutex_lock(&s->mu);
		s->merged = i + 1;
		if (r < 0) {
			s->rc = -1;
			s->stop = s->merged;
		}
		pthread_cond_broadcast(&s->moved);
	}
	s->merging = 0;
}

/* One thread of a pool: take the next item until none is left. */
static void work(struct state *s)
{
	pthread_mutex_lock(&s->mu);
	for (;;) {
		while (s->next < s->stop && s->next >= s->merged + s->window)
			pthread_cond_wait(&s->moved, &s->mu);
		if (s->next >= s->stop)
			break;
		size_t i = s->next++;
		s->item[i] = RUNNING;
		pthread_mutex_unlock(&s->mu);
		int r = s->p->run(s->p->arg, i);
		pthread_mutex_lock(&s->mu);
		s->item[i] = READ;
		if (r < 0 && s->stop > i + 1) {
			s->stop = i + 1;	/* what comes after is not needed */
			pthread_cond_broadcast(&s->moved);
		}
		merge_ready(s);
	}
	pthread_mutex_unlock(&s->mu);
}

static void *work_thread(void *arg)
{
	struct state *s = arg;

	work(s);
	give_threads(s->p->threads, 1);
	return NULL;
}

int sf_pool_run(const struct sf_pool *p)
{
	pthread_t tid[MAX_POOL_THREADS];
	size_t want = p->n > MAX_POOL_THREADS ? MAX_POOL_THREADS - 1 : p->n ? p->n - 1 : 0;
	unsigned got = take_threads(p->threads, (unsigned)want), started = 0;
	struct state s = { .p = p, .stop = p->n };

	s.item = sf_xcalloc(p->n ? p->n : 1, 1);
	s.window = (size_t)WINDOW_PER_THREAD * (got + 1);
	pthread_mutex_init(&s.mu, NULL);
	pthread_cond_init(&s.moved, NULL);
	for (unsigned k = 0; k < got; k++)
		started += pthread_create(&tid[started], NULL, work_thread, &s) == 0;
	give_threads(p->threads, got - started);	/* none to be had: fewer threads */
	work(&s);
	for (unsigned k = 0; k < started; k++)
		pthread_join(tid[k], NULL);
	assert(s.merged == s.stop);
	for (size_t i = s.merged; i < p->n; i++)
		if (s.item[i] == READ)
			p->drop(p->arg, i);
	pthread_cond_destroy(&s.moved);
	pthread_mutex_destroy(&s.mu);
	free(s.item);
	return s.rc;
}
