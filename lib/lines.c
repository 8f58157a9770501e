/*
 * lines.c - a text cut into lines that point into it (see lines.h).
 */
#include "lines.h"

#include <string.h>

#include "xalloc.h"

static void push(struct sf_lines *out, const char *s, size_t len)
{
	SF_GROW(out->v, out->n, out->cap);
	out->v[out->n++] = (struct sf_line){ s, len };
}

void sf_lines_split(const char *text, size_t len, struct sf_lines *out)
{
	size_t start = 0;

	memset(out, 0, sizeof(*out));
	for (const char *nl; start < len &&
	     (nl = memchr(text + start, '\n', len - start)) != NULL;) {
		size_t end = (size_t)(nl - text) + 1;
		push(out, text + start, end - start);
		start = end;
	}
	if (start < len)
		push(out, text + start, len - start);
}

bool sf_line_eq(const struct sf_line *a, const struct sf_line *b)
{
	return a->len == b->len && !memcmp(a->s, b->s, a->len);
}

bool sf_line_has_eol(const struct sf_line *l)
{
	return l->len && l->s[l->len - 1] == '\n';
}
