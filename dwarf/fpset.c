/*
 * fpset.c - the sets of fingerprint keys laid out already (see
 * fingerprint.h): sf_fpset, one reader's, and sf_fpshared, one several
 * threads read and add to under a lock, looked up through its parents.
 *
 *   sf_fpset:    open addressing over the 128-bit keys, linear probing
 *                from the key's b word; a slot of two zero words is empty
 *                (sf_fp_key sets a bit of every key); grown at half full
 *   sf_fpshared: an sf_fpset, its mutex and the set it is merged into
 */
#include "fingerprint.h"

#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

#include "lib/xalloc.h"

/* ---- the set of keys laid out ------------------------------------------------ */

struct sf_fpset {
	struct sf_fp *v;
	size_t cap, count;
};

struct sf_fpset *sf_fpset_new(void)
{
	return sf_xcalloc(1, sizeof(struct sf_fpset));
}

void sf_fpset_free(struct sf_fpset *s)
{
	if (!s)
		return;
	free(s->v);
	free(s);
}

static int empty(const struct sf_fp *k)
{
	return !k->a && !k->b;
}

int sf_fpset_has(const struct sf_fpset *s, const struct sf_fp *k)
{
	if (!s || !s->cap)
		return 0;
	for (size_t j = k->b & (s->cap - 1); !empty(&s->v[j]); j = (j + 1) & (s->cap - 1))
		if (s->v[j].a == k->a && s->v[j].b == k->b)
			return 1;
	return 0;
}

void sf_fpset_prefetch(const struct sf_fpset *s, const struct sf_fp *k)
{
	if (s && s->cap)
		__builtin_prefetch(&s->v[k->b & (s->cap - 1)]);
}

static void set_grow(struct sf_fpset *s)
{
	size_t ncap = s->cap ? s->cap * 2 : 1024;
	struct sf_fp *n = sf_xcalloc_table(ncap, sizeof(*n));

	for (size_t i = 0; i < s->cap; i++) {
		if (empty(&s->v[i]))
			continue;
		size_t j = s->v[i].b & (ncap - 1);
		while (!empty(&n[j]))
			j = (j + 1) & (ncap - 1);
		n[j] = s->v[i];
	}
	free(s->v);
	s->v = n;
	s->cap = ncap;
}

void sf_fpset_add(struct sf_fpset *s, const struct sf_fp *k)
{
	assert(!empty(k));
	if ((s->count + 1) * 2 > s->cap)
		set_grow(s);
	size_t j = k->b & (s->cap - 1);
	for (; !empty(&s->v[j]); j = (j + 1) & (s->cap - 1))
		if (s->v[j].a == k->a && s->v[j].b == k->b)
			return;
	s->v[j] = *k;
	s->count++;
}

/* Every key of src into dst. */
static void add_all(struct sf_fpset *dst, const struct sf_fpset *src)
{
	for (size_t i = 0; src && i < src->cap; i++)
		if (!empty(&src->v[i]))
			sf_fpset_add(dst, &src->v[i]);
}

/* ---- shared between threads ---------------------------------------------------- */

struct sf_fpshared {
	pthread_mutex_t mu;
	struct sf_fpset set;
	struct sf_fpshared *parent;
};

struct sf_fpshared *sf_fpshared_new(struct sf_fpshared *parent)
{
	struct sf_fpshared *s = sf_xcalloc(1, sizeof(*s));

	pthread_mutex_init(&s->mu, NULL);
	s->parent = parent;
	return s;
}

void sf_fpshared_free(struct sf_fpshared *s)
{
	if (!s)
		return;
	pthread_mutex_destroy(&s->mu);
	free(s->set.v);
	free(s);
}

int sf_fpshared_has(struct sf_fpshared *s, const struct sf_fp *k)
{
	int hit = 0;

	for (; s && !hit; s = s->parent) {
		pthread_mutex_lock(&s->mu);
		hit = sf_fpset_has(&s->set, k);
		pthread_mutex_unlock(&s->mu);
	}
	return hit;
}

size_t sf_fpshared_count(struct sf_fpshared *s)
{
	pthread_mutex_lock(&s->mu);
	size_t n = s->set.count;
	pthread_mutex_unlock(&s->mu);
	return n;
}

void sf_fpshared_add_shared(struct sf_fpshared *dst, struct sf_fpshared *src)
{
	/* the only place two locks are held, always src's first */
	pthread_mutex_lock(&src->mu);
	sf_fpshared_add_all(dst, &src->set);
	pthread_mutex_unlock(&src->mu);
}

void sf_fpshared_add_keys(struct sf_fpshared *s, const struct sf_fp *k, size_t n)
{
	pthread_mutex_lock(&s->mu);
	for (size_t i = 0; i < n; i++)
		sf_fpset_add(&s->set, &k[i]);
	pthread_mutex_unlock(&s->mu);
}

void sf_fpshared_add_all(struct sf_fpshared *s, const struct sf_fpset *src)
{
	pthread_mutex_lock(&s->mu);
	add_all(&s->set, src);
	pthread_mutex_unlock(&s->mu);
}
