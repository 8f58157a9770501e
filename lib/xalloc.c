#include "xalloc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *check(void *p)
{
	if (!p) {
		fputs("structfit: out of memory\n", stderr);
		exit(2);
	}
	return p;
}

void *sf_xmalloc(size_t n)
{
	return check(malloc(n ? n : 1));
}

void *sf_xcalloc(size_t nmemb, size_t size)
{
	return check(calloc(nmemb ? nmemb : 1, size ? size : 1));
}

/* a cache line: what sf_xcalloc_table aligns to */
#define LINE 64u

void *sf_xcalloc_table(size_t nmemb, size_t size)
{
	if ((size && nmemb > SIZE_MAX / size) || nmemb * size > SIZE_MAX - LINE)
		return check(NULL);
	/* aligned_alloc: a size the alignment divides */
	size_t n = (nmemb * size + LINE - 1) & ~(size_t)(LINE - 1);
	void *p = check(aligned_alloc(LINE, n ? n : LINE));

	memset(p, 0, n);
	return p;
}

void *sf_xrealloc(void *p, size_t n)
{
	return check(realloc(p, n ? n : 1));
}

void *sf_xreallocarray(void *p, size_t nmemb, size_t size)
{
	if (size && nmemb > SIZE_MAX / size)
		return check(NULL);
	return sf_xrealloc(p, nmemb * size);
}

char *sf_xstrdup(const char *s)
{
	return check(strdup(s));
}

char *sf_xstrndup(const char *s, size_t n)
{
	return check(strndup(s, n));
}
