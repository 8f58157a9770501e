/*
 * reorgsteps.c - a reorder as single moves (reorgsteps.h).
 */
#include "layout/reorgsteps.h"

#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"

/* Where unit u is in cur[0..n). */
static size_t index_of(const uint32_t *cur, size_t n, size_t u)
{
	size_t i = 0;

	while (i < n && cur[i] != u)
		i++;
	return i;
}

/* Move cur's unit u to right after unit d (SF_STEP_START: first); the
 * unit it followed, or SF_STEP_START. */
static size_t move_after(uint32_t *cur, size_t n, size_t u, size_t d)
{
	size_t i = index_of(cur, n, u);
	size_t from = i ? cur[i - 1] : SF_STEP_START;

	memmove(cur + i, cur + i + 1, (n - i - 1) * sizeof(*cur));
	size_t j = d == SF_STEP_START ? 0 : index_of(cur, n - 1, d) + 1;
	memmove(cur + j + 1, cur + j, (n - 1 - j) * sizeof(*cur));
	cur[j] = (uint32_t)u;
	return from;
}

/* The step's order, its units' offsets and size. */
static void snapshot(const struct sf_units *us, const uint32_t *cur, struct sf_reorder *at)
{
	memset(at, 0, sizeof(*at));
	at->n = us->n;
	at->order = sf_xcalloc(us->n ? us->n : 1, sizeof(*at->order));
	at->offset = sf_xcalloc(us->n ? us->n : 1, sizeof(*at->offset));
	memcpy(at->order, cur, us->n * sizeof(*cur));
	at->size = sf_units_place(us, at->order, at->offset);
	at->old_size = at->min_size = at->size;
}

size_t sf_reorg_steps(const struct sf_units *us, const struct sf_reorder *r,
		      struct sf_reorg_step **out)
{
	size_t n = us->n, k = 0;
	uint32_t *cur = sf_xcalloc(n ? n : 1, sizeof(*cur));
	struct sf_reorg_step *s = sf_xcalloc(r->moves ? r->moves : 1, sizeof(*s));

	for (size_t i = 0; i < n; i++)
		cur[i] = (uint32_t)i;
	for (size_t p = 0; p < r->n && p < n && k < r->moves; p++) {
		size_t u = r->order[p];
		size_t d = p ? r->order[p - 1] : SF_STEP_START;
		size_t i = index_of(cur, n, u);
		if (!r->moved[u] || (d == SF_STEP_START ? i == 0 : i && cur[i - 1] == d))
			continue;	/* kept, or in its place already */
		s[k].unit = u;
		s[k].to_after = d;
		s[k].from_after = move_after(cur, n, u, d);
		snapshot(us, cur, &s[k].at);
		k++;
	}
	free(cur);
	*out = s;
	return k;
}

void sf_reorg_steps_free(struct sf_reorg_step *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		sf_reorder_release(&s[i].at);
	free(s);
}
