/*
 * test_dwarf_pool.c - input/pool.c: items read side by side, merged in
 * item order, whatever the threads.
 *
 * Each item sleeps a pseudo-random while (later items often finish
 * first) and records what it saw.  The oracle is the item order itself:
 * merges must come 0, 1, 2, ... with no gap, never two at once, never
 * more threads running than the budget gives, and what a stop cuts off is
 * dropped, never merged.  A nested pool shares the budget, and an item
 * handed out in line sees every item before it merged, and nothing more
 * merged until it is.  A lone item's nested pool gets the other threads.
 * Items read that hold nothing do not count against the window.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include "input/pool.h"

#define NITEMS 200

struct items {
	struct sf_threads *threads;
	size_t merged[NITEMS];		/* item numbers, in merge order */
	atomic_size_t nmerged;
	uint8_t read[NITEMS], dropped[NITEMS];
	atomic_int running, most_running, merging;
	int fail_merge_at, fail_run_at;		/* -1: never */
	int nested;				/* each item runs a pool of 5 */
	atomic_int nested_bad;			/* nested merges out of order */
	/* what the threads saw wrong (cmocka asserts on the test's thread) */
	atomic_int bad;
};

/* Up to ~200 us, different for each item and round. */
static void nap(size_t i)
{
	struct timespec ts = { 0, (long)((i * 7919u) % 23u) * 10000L };

	nanosleep(&ts, NULL);
}

struct inner {
	size_t next;
	atomic_int *bad;
};

static int inner_run(void *arg, size_t i, int in_line)
{
	(void)arg;
	(void)in_line;
	nap(i + 3);
	return 0;
}

static int inner_merge(void *arg, size_t i)
{
	struct inner *in = arg;

	if (i != in->next++)
		atomic_fetch_add(in->bad, 1);
	return 0;
}

static void inner_drop(void *arg, size_t i)
{
	(void)arg;
	(void)i;
}

static int run(void *arg, size_t i, int in_line)
{
	struct items *it = arg;
	int now = atomic_fetch_add(&it->running, 1) + 1;
	int most = atomic_load(&it->most_running);

	while (now > most && !atomic_compare_exchange_weak(&it->most_running, &most, now))
		;
	/* in line: everything before i is merged, and stays so until i is */
	if (in_line && atomic_load(&it->nmerged) != i)
		atomic_fetch_add(&it->bad, 1);
	nap(i);
	if (in_line && atomic_load(&it->nmerged) != i)
		atomic_fetch_add(&it->bad, 1);
	if (it->nested) {
		struct inner in = { 0, &it->nested_bad };
		struct sf_pool p = { 5, inner_run, inner_merge, inner_drop, &in, it->threads, 0 };
		if (sf_pool_run(&p) != 0 || in.next != 5)
			atomic_fetch_add(&it->bad, 1);
	}
	it->read[i] = 1;
	atomic_fetch_sub(&it->running, 1);
	return (int)i == it->fail_run_at ? -1 : 0;
}

static int merge(void *arg, size_t i)
{
	struct items *it = arg;

	if (atomic_fetch_add(&it->merging, 1) != 0 || !it->read[i])	/* one at a time */
		atomic_fetch_add(&it->bad, 1);
	it->merged[atomic_load(&it->nmerged)] = i;
	atomic_fetch_add(&it->nmerged, 1);
	atomic_fetch_sub(&it->merging, 1);
	return (int)i == it->fail_merge_at || (int)i == it->fail_run_at ? -1 : 0;
}

static void drop(void *arg, size_t i)
{
	struct items *it = arg;

	if (!it->read[i])
		atomic_fetch_add(&it->bad, 1);
	it->dropped[i] = 1;
}

/* Run NITEMS items on `threads` threads; returns the pool's status. */
static int run_items(struct items *it, unsigned threads)
{
	static struct sf_threads t;

	sf_threads_init(&t, threads);
	it->threads = &t;
	struct sf_pool p = { NITEMS, run, merge, drop, it, &t, 0 };
	int rc = sf_pool_run(&p);
	assert_int_equal(atomic_load(&it->bad), 0);
	/* no pool left open, the workers gone */
	assert_null(t.open);
	assert_int_equal(t.nworkers, 0);
	sf_threads_release(&t);
	return rc;
}

static void init(struct items *it)
{
	memset(it, 0, sizeof(*it));
	it->fail_merge_at = it->fail_run_at = -1;
}

static void test_merged_in_order(void **state)
{
	(void)state;
	for (unsigned threads = 1; threads <= 4; threads++) {
		struct items it;
		init(&it);
		assert_int_equal(run_items(&it, threads), 0);
		assert_int_equal(it.nmerged, NITEMS);
		for (size_t i = 0; i < NITEMS; i++)
			assert_int_equal(it.merged[i], i);
		/* never more than the budget at once */
		assert_true(it.most_running <= (int)threads);
	}
}

static void test_merge_failure_stops(void **state)
{
	(void)state;
	for (unsigned threads = 1; threads <= 4; threads++) {
		struct items it;
		init(&it);
		it.fail_merge_at = 57;
		assert_int_equal(run_items(&it, threads), -1);
		/* 0..57 merged in order, the failing one last; nothing after */
		assert_int_equal(it.nmerged, 58);
		for (size_t i = 0; i < 58; i++)
			assert_int_equal(it.merged[i], i);
		for (size_t i = 0; i < NITEMS; i++)
			assert_int_equal(it.dropped[i], i > 57 && it.read[i]);
	}
}

static void test_run_failure_stops_handing_out(void **state)
{
	(void)state;
	for (unsigned threads = 1; threads <= 4; threads++) {
		struct items it;
		init(&it);
		it.fail_run_at = 30;
		assert_int_equal(run_items(&it, threads), -1);
		assert_int_equal(it.nmerged, 31);
		/* at most a window of items read past it */
		size_t past = 0;
		for (size_t i = 31; i < NITEMS; i++)
			past += it.read[i];
		assert_true(past <= SF_POOL_WINDOW_PER_THREAD * threads);
	}
}

static void test_nested_pools_share_the_budget(void **state)
{
	(void)state;
	for (unsigned threads = 1; threads <= 4; threads++) {
		struct items it;
		init(&it);
		it.nested = 1;
		assert_int_equal(run_items(&it, threads), 0);
		assert_int_equal(it.nmerged, NITEMS);
		for (size_t i = 0; i < NITEMS; i++)
			assert_int_equal(it.merged[i], i);
		assert_int_equal(atomic_load(&it.nested_bad), 0);
	}
}

static void test_no_items(void **state)
{
	struct items it;

	(void)state;
	init(&it);
	struct sf_threads t;
	sf_threads_init(&t, 3);
	struct sf_pool p = { 0, run, merge, drop, &it, &t, 0 };
	assert_int_equal(sf_pool_run(&p), 0);
	assert_int_equal(it.nmerged, 0);
	assert_null(t.open);
	sf_threads_release(&t);
}

/* Whether *flag is set within 5 s (polled every millisecond): an item
 * that waits for what another thread must do meanwhile. */
static int wait_for(atomic_int *flag)
{
	struct timespec ms = { 0, 1000000L };

	for (int k = 0; k < 5000 && !atomic_load(flag); k++)
		nanosleep(&ms, NULL);
	return atomic_load(flag);
}

/* A pool's item whose nested pool has many items, begun while the other
 * thread reads the pool's other item: that thread joins the nested pool
 * once free (a large image in a directory gets every thread). */
struct lone {
	struct sf_threads *t;
	pthread_t owner;	/* the nested pool's (set before it starts) */
	atomic_int entered, helped, timed_out;
};

static int lone_inner_run(void *arg, size_t i, int in_line)
{
	struct lone *l = arg;

	(void)in_line;
	atomic_fetch_add(&l->entered, 1);
	if (i == 0) {
		/* the first item waits for another thread to help */
		if (!wait_for(&l->helped))
			atomic_store(&l->timed_out, 1);
		return 0;
	}
	nap(i);
	if (!pthread_equal(pthread_self(), l->owner))
		atomic_store(&l->helped, 1);
	return 0;
}

static int lone_inner_merge(void *arg, size_t i)
{
	(void)arg;
	(void)i;
	return 0;
}

static int lone_run(void *arg, size_t i, int in_line)
{
	struct lone *l = arg;
	struct sf_pool p = { 40, lone_inner_run, lone_inner_merge, inner_drop, l, l->t, 0 };

	if (i == 1) {
		/* the other thread is busy here when the nested pool begins */
		struct timespec ts = { 0, 20 * 1000000L };
		nanosleep(&ts, NULL);
		return 0;
	}
	assert_true(in_line);
	/* the owner takes the first item as it starts the pool, holding the
	 * budget's lock: item 0 runs on this thread */
	l->owner = pthread_self();
	return sf_pool_run(&p);
}

static void test_nested_pool_gets_every_thread(void **state)
{
	struct sf_threads t;
	struct lone l = { .t = &t };

	(void)state;
	sf_threads_init(&t, 2);
	struct sf_pool p = { 2, lone_run, lone_inner_merge, inner_drop, &l, &t, 0 };
	assert_int_equal(sf_pool_run(&p), 0);
	assert_int_equal(atomic_load(&l.entered), 40);
	assert_int_equal(atomic_load(&l.timed_out), 0);
	assert_int_equal(atomic_load(&l.helped), 1);
	sf_threads_release(&t);
}

/* Items that hold nothing once read (SF_POOL_LIGHT) do not fill the
 * window: item 0 waits for item 6 while the other thread goes through
 * the light items 1-5 (a window of 2 would have stopped it after item
 * 1); a heavy item past the window (7) still waits for the merge. */
struct lightly {
	atomic_int six_ran, seven_early, zero_done, timed_out;
};

static int light_run(void *arg, size_t i, int in_line)
{
	struct lightly *l = arg;

	(void)in_line;
	if (i == 0) {
		if (!wait_for(&l->six_ran))
			atomic_store(&l->timed_out, 1);
		/* time for an item 7 handed out too early to show */
		struct timespec settle = { 0, 20 * 1000000L };
		nanosleep(&settle, NULL);
		atomic_store(&l->zero_done, 1);
		return 0;
	}
	if (i == 6)
		atomic_store(&l->six_ran, 1);
	if (i == 7 && !atomic_load(&l->zero_done))
		atomic_store(&l->seven_early, 1);
	return i >= 1 && i <= 5 ? SF_POOL_LIGHT : 0;
}

static void test_light_items_leave_the_window(void **state)
{
	struct sf_threads t;
	struct lightly l = { 0 };

	(void)state;
	sf_threads_init(&t, 2);
	struct sf_pool p = { 10, light_run, lone_inner_merge, inner_drop, &l, &t, 1 };
	assert_int_equal(sf_pool_run(&p), 0);
	assert_int_equal(atomic_load(&l.timed_out), 0);
	assert_int_equal(atomic_load(&l.six_ran), 1);
	assert_int_equal(atomic_load(&l.seven_early), 0);
	sf_threads_release(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_merged_in_order),
		cmocka_unit_test(test_merge_failure_stops),
		cmocka_unit_test(test_run_failure_stops_handing_out),
		cmocka_unit_test(test_nested_pools_share_the_budget),
		cmocka_unit_test(test_no_items),
		cmocka_unit_test(test_nested_pool_gets_every_thread),
		cmocka_unit_test(test_light_items_leave_the_window),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
