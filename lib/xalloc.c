#include "xalloc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

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

/* A zeroed table of nmemb * size bytes, its zeros written (see
 * xalloc.h); aligned to `line` bytes when not 0. */
static void *table(size_t nmemb, size_t size, size_t line)
{
	if ((size && nmemb > SIZE_MAX / size) || nmemb * size > SIZE_MAX - 64)
		return check(NULL);
	size_t n = nmemb * size;
	void *p;

	if (line) {
		/* aligned_alloc takes a size the alignment divides */
		n = n ? (n + line - 1) / line * line : line;
		p = check(aligned_alloc(line, n));
	} else {
		p = sf_xmalloc_huge(n);	/* a big table: huge pages */
	}
	memset(p, 0, n);
	return p;
}

void *sf_xcalloc_table(size_t nmemb, size_t size)
{
	return table(nmemb, size, 0);
}

void *sf_xcalloc_lines(size_t nmemb, size_t size)
{
	return table(nmemb, size, 64);
}

void *sf_xmalloc_huge(size_t n)
{
	if (n < SF_HUGE_PAGE)
		return sf_xmalloc(n);
	void *p = check(malloc(n));
	/* the whole huge pages inside the block; advice only: where it is
	 * refused, 4 KiB pages serve as before */
	uintptr_t lo = ((uintptr_t)p + SF_HUGE_PAGE - 1) & ~(uintptr_t)(SF_HUGE_PAGE - 1);
	uintptr_t hi = ((uintptr_t)p + n) & ~(uintptr_t)(SF_HUGE_PAGE - 1);
	if (hi > lo)
		(void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
	return p;
}

size_t sf_page_size(void)
{
	long pg = sysconf(_SC_PAGESIZE);

	return pg > 0 ? (size_t)pg : 4096;
}

const void *sf_drop_pages(const void *lo, const void *hi, size_t least)
{
	uintptr_t mask = (uintptr_t)sf_page_size() - 1;
	uintptr_t a = ((uintptr_t)lo + mask) & ~mask, b = (uintptr_t)hi & ~mask;

	if ((uintptr_t)hi <= (uintptr_t)lo || b <= a || b - a < least)
		return lo;
	(void)madvise((void *)a, b - a, MADV_DONTNEED);
	return (const unsigned char *)lo + (b - (uintptr_t)lo);
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
