/*
 * test_xalloc.c - sf_drop_pages (lib/xalloc.c): which pages leave, what
 * it returns, and that it refuses a range shorter than asked.  Anonymous
 * private memory reads back as zeros once its pages are dropped, so the
 * test sees exactly which pages went.  And sf_xmalloc_huge: the whole
 * huge pages inside a large block are advised (the kernel lists the
 * advice as "hg" among a mapping's VmFlags in /proc/self/smaps).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <sys/mman.h>
#include <cmocka.h>

#include "lib/xalloc.h"

enum { NPAGES = 16 };

/* NPAGES pages, page i filled with the byte i + 1 */
static unsigned char *filled_pages(size_t pg)
{
	void *p = mmap(NULL, NPAGES * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);

	assert_true(p != MAP_FAILED);
	for (size_t i = 0; i < NPAGES; i++)
		memset((unsigned char *)p + i * pg, (int)(i + 1), pg);
	return p;
}

/* a bit per page: set where the page still holds its bytes */
static unsigned kept_pages(const unsigned char *p, size_t pg)
{
	unsigned kept = 0;

	for (size_t i = 0; i < NPAGES; i++)
		if (p[i * pg] == i + 1 && p[i * pg + pg - 1] == i + 1)
			kept |= 1u << i;
		else
			assert_int_equal(p[i * pg], 0);	/* dropped: zeros */
	return kept;
}

static void test_drops_whole_pages_inside(void **state)
{
	(void)state;
	size_t pg = sf_page_size();
	unsigned char *p = filled_pages(pg);

	/* from inside page 1 to inside page 10: pages 2..9 go */
	const void *end = sf_drop_pages(p + pg + 1, p + 10 * pg + 5, 0);
	assert_ptr_equal(end, p + 10 * pg);
	assert_int_equal(kept_pages(p, pg), 0xffffu & ~0x3fcu);
	munmap(p, NPAGES * pg);
}

static void test_refuses_short_ranges(void **state)
{
	(void)state;
	size_t pg = sf_page_size();
	unsigned char *p = filled_pages(pg);

	/* four whole pages, five asked for: nothing goes */
	assert_ptr_equal(sf_drop_pages(p, p + 4 * pg, 5 * pg), p);
	/* no whole page inside */
	assert_ptr_equal(sf_drop_pages(p + 1, p + 2 * pg - 1, 0), p + 1);
	/* empty and reversed ranges */
	assert_ptr_equal(sf_drop_pages(p + pg, p + pg, 0), p + pg);
	assert_ptr_equal(sf_drop_pages(p + 3 * pg, p + pg, 0), p + 3 * pg);
	assert_int_equal(kept_pages(p, pg), 0xffffu);
	/* exactly as many as asked: they go */
	assert_ptr_equal(sf_drop_pages(p, p + 4 * pg, 4 * pg), p + 4 * pg);
	assert_int_equal(kept_pages(p, pg), 0xfff0u);
	munmap(p, NPAGES * pg);
}

/* The VmFlags of the mapping holding address a: 1 if they say "hg"
 * (MADV_HUGEPAGE), 0 if not, -1 when smaps cannot say. */
static int advised_huge(const void *a)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[512];
	int in = 0, hg = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2) {
			in = (uintptr_t)a >= lo && (uintptr_t)a < hi;
			continue;
		}
		if (in && !strncmp(line, "VmFlags:", 8)) {
			hg = strstr(line, " hg") != NULL;
			break;
		}
	}
	fclose(f);
	return hg;
}

static void test_huge_blocks_advised_inside(void **state)
{
	(void)state;
	size_t n = 3 * SF_HUGE_PAGE + 12345;
	unsigned char *p = sf_xmalloc_huge(n);
	uintptr_t first = ((uintptr_t)p + SF_HUGE_PAGE - 1) & ~(uintptr_t)(SF_HUGE_PAGE - 1);

	memset(p, 0xa5, n);	/* every byte ours */
	int hg = advised_huge((const void *)first);
	if (hg < 0)
		skip();	/* no /proc/self/smaps VmFlags: nothing to read */
	assert_int_equal(hg, 1);
	assert_int_equal(advised_huge((const void *)(first + SF_HUGE_PAGE)), 1);
	assert_int_equal(p[n - 1], 0xa5);
	free(p);

#ifdef __GLIBC__
	/* and it takes what it asks, no more: an aligned block took up to
	 * 2 MiB beside it (here mapped apart, counted in hblkhd) */
	size_t before = mallinfo2().hblkhd;
	p = sf_xmalloc_huge(n);
	assert_true(mallinfo2().hblkhd - before <= n + 2 * sf_page_size());
	free(p);
#endif

	/* below a huge page: a plain block, no advice asked */
	unsigned char *q = sf_xmalloc_huge(SF_HUGE_PAGE / 2);
	memset(q, 1, SF_HUGE_PAGE / 2);
	free(q);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_drops_whole_pages_inside),
		cmocka_unit_test(test_refuses_short_ranges),
		cmocka_unit_test(test_huge_blocks_advised_inside),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
