/*
 * nearest.c - the nearest names to a mistyped one (nearest.h): a bounded
 * edit distance over three rows of the dynamic-programming table (the
 * row before the previous one is for a swap of two neighbours), and the
 * few best names kept by distance, then by name.
 */
#include "nearest.h"

#include <ctype.h>
#include <stdbool.h>
#include <string.h>

static size_t min2(size_t a, size_t b)
{
	return a < b ? a : b;
}

static bool same_letter(char a, char b)
{
	return tolower((unsigned char)a) == tolower((unsigned char)b);
}

size_t sf_edit_distance(const char *a, size_t alen, const char *b, size_t blen,
			size_t bound)
{
	size_t rows[3][SF_NEAREST_MAX_QUERY + 1];
	size_t *pp = rows[0], *prev = rows[1], *cur = rows[2];

	if (alen > SF_NEAREST_MAX_QUERY ||
	    (alen > blen ? alen - blen : blen - alen) > bound)
		return bound + 1;
	for (size_t i = 0; i <= alen; i++)
		prev[i] = i;
	/* row j: b's first j letters against a's first i */
	for (size_t j = 1; j <= blen; j++) {
		size_t row_min = cur[0] = j;
		for (size_t i = 1; i <= alen; i++) {
			size_t cost = !same_letter(a[i - 1], b[j - 1]);
			size_t d = min2(min2(prev[i] + 1, cur[i - 1] + 1), prev[i - 1] + cost);
			if (i > 1 && j > 1 && same_letter(a[i - 1], b[j - 2]) &&
			    same_letter(a[i - 2], b[j - 1]))
				d = min2(d, pp[i - 2] + 1);
			cur[i] = d;
			row_min = min2(row_min, d);
		}
		if (row_min > bound)
			return bound + 1;   /* every later row is at least as far */
		size_t *t = pp;
		pp = prev;
		prev = cur;
		cur = t;
	}
	return min2(prev[alen], bound + 1);
}

/* The last component of a qualified name, without its template arguments:
 * "a::b::C<int>" -> "C" (*len 1); the name itself when it has none. */
static const char *last_component(const char *name, size_t *len)
{
	const char *start = name, *end = NULL;
	int depth = 0;

	for (const char *p = name; *p; p++) {
		if (*p == '<' || *p == '(') {
			if (depth++ == 0 && !end)
				end = p;
		} else if ((*p == '>' || *p == ')') && depth > 0) {
			depth--;
		} else if (depth == 0 && p[0] == ':' && p[1] == ':') {
			start = p + 2;
			end = NULL;
			p++;
		}
	}
	if (!end || end < start)
		end = start + strlen(start);
	*len = (size_t)(end - start);
	return start;
}

void sf_nearest_init(struct sf_nearest *n, const char *query)
{
	memset(n, 0, sizeof(*n));
	n->qlen = strlen(query);
	if (n->qlen > SF_NEAREST_MAX_QUERY) {
		n->qlen = 0;    /* too long to be a typo of anything */
		return;
	}
	memcpy(n->query, query, n->qlen);
	n->bound = n->qlen / 3 > 1 ? n->qlen / 3 : 1;
	n->best = n->bound + 1;
}

/* Keep name at the best distance: the MAX_KEPT first by name, once each. */
static void keep(struct sf_nearest *n, const char *name)
{
	size_t worst = 0;

	for (size_t i = 0; i < n->nkept; i++) {
		if (!strcmp(n->kept[i], name))
			return;
		if (strcmp(n->kept[i], n->kept[worst]) > 0)
			worst = i;
	}
	if (n->nkept < SF_NEAREST_MAX_KEPT)
		n->kept[n->nkept++] = name;
	else if (strcmp(name, n->kept[worst]) < 0)
		n->kept[worst] = name;
}

void sf_nearest_offer(struct sf_nearest *n, const char *name)
{
	size_t len = strlen(name), clen;

	if (!n->qlen || !len)
		return;
	size_t d = sf_edit_distance(n->query, n->qlen, name, len, n->bound);
	const char *last = last_component(name, &clen);
	if (last != name || clen != len)
		d = min2(d, sf_edit_distance(n->query, n->qlen, last, clen, n->bound));
	if (d > n->bound)
		return;
	if (d < n->best) {
		n->best = d;
		n->bound = d;   /* nothing farther is of interest now */
		n->nkept = 0;
	}
	keep(n, name);
}

size_t sf_nearest_finish(struct sf_nearest *n)
{
	/* at most MAX_KEPT: an insertion sort */
	for (size_t i = 1; i < n->nkept; i++)
		for (size_t j = i; j > 0 && strcmp(n->kept[j - 1], n->kept[j]) > 0; j--) {
			const char *t = n->kept[j];
			n->kept[j] = n->kept[j - 1];
			n->kept[j - 1] = t;
		}
	return n->nkept;
}
