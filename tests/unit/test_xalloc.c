/*
 * test_xalloc.c - sf_drop_pages (lib/xalloc.c): which pages leave, what
 * it returns, and that it refuses a range shorter than asked.  Anonymous
 * private memory reads back as zeros once its pages are dropped, so the
 * test sees exactly which pages went.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_drops_whole_pages_inside),
		cmocka_unit_test(test_refuses_short_ranges),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
