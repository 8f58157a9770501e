/*
 * lines.h - a text cut into lines, without copying it.
 *
 *   struct sf_lines { v -> [sf_line {s, len}]... | n | cap }
 *
 * Each sf_line points into the text and keeps its '\n'; the last one may
 * have none (a file without a final newline).  Two lines are equal when
 * their bytes are (a CR of CRLF is part of the line).  Used by the diff
 * renderer (report/udiff.c) and the strict diff application
 * (layout/applydiff.c), which must cut text the same way.
 */
#ifndef SF_LINES_H
#define SF_LINES_H

#include <stdbool.h>
#include <stddef.h>

struct sf_line {
	const char *s;
	size_t len;     /* bytes, '\n' included when present */
};

struct sf_lines {
	struct sf_line *v;   /* NULL for an empty text */
	size_t n, cap;
};

/* Cut text[0..len) into *out (free out->v). */
void sf_lines_split(const char *text, size_t len, struct sf_lines *out);

bool sf_line_eq(const struct sf_line *a, const struct sf_line *b);

/* Whether the line ends in '\n' (only the last line of a text may not). */
bool sf_line_has_eol(const struct sf_line *l);

#endif
