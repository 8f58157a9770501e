/*
 * zstream.c - a zlib-compressed section inflated piecewise (zstream.h).
 *
 * ISA-L's inflater (igzip) keeps its state between calls, so a stream can
 * stop anywhere and go on later, at libdeflate's speed (libceph-common's
 * .debug_info: 0.46-0.59 s either way; zlib's inflate takes twice that),
 * and it checks the zlib wrapper and the Adler-32 at the end.
 *
 *   struct sf_zstream
 *   +--------------------------+------+------+----------+-----------+
 *   | st (igzip's, ~85 KiB)    | base | size | have     | span      |
 *   +--------------------------+------+------+----------+-----------+
 *     next_in: the compressed     |            bytes       bytes given
 *     bytes not yet consumed      |            inflated    back
 *                                 v
 *        one anonymous mapping of `size` bytes, rounded up to whole
 *        huge pages and aligned to one (MAP_NORESERVE: untouched pages
 *        cost nothing), advised as huge-page memory
 *
 * Bytes are given back in any order (the runs reading a stream end out
 * of order): `span` lists them, coalesced.  A huge page goes once all its
 * bytes are given back: moved ahead of `have` for the inflater to write
 * into (recycle), else back to the kernel (MADV_DONTNEED).  Either way
 * the range reads as zeros afterwards and stays ours: no pointer into it
 * ever points to other bytes.  A page part of which is still read is
 * kept whole in a big stream (`hold`), while it may yet move ahead; in a
 * small one the small pages given back go at once.  Kept, such pages cost
 * up to one huge page per run being read: librados' 23 MB stream peaked
 * 1.2 MB higher for 3 fewer fresh huge pages of its 25; libceph-common's
 * 154 MB one took 72 fresh huge pages instead of 85 (and of 133 before
 * any page a run gave back moved ahead).
 *
 *   0      released          have       ahead                    size
 *   | zeros |  being read    |  moved pages |  untouched           |
 *
 * The spans are few (the runs read out of order at once), fate[] one byte
 * per huge page: PAGE_WHOLE (as inflated, or held), PAGE_BROKEN (small
 * pages of it went), PAGE_GONE.
 */
#include "zstream.h"

#include <assert.h>
#include <isa-l/igzip_lib.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "lib/xalloc.h"

/* what became of a huge page of the stream (fate[]) */
enum { PAGE_WHOLE, PAGE_BROKEN, PAGE_GONE };

/* bytes given back, [lo, hi) */
struct span {
	uint64_t lo, hi;
};

struct sf_zstream {
	struct inflate_state st;
	const unsigned char *src;	/* the compressed bytes */
	size_t srclen;
	size_t src_dropped;		/* their pages dropped below this */
	int file_backed;
	int hold;			/* keep shared huge pages whole */
	int failed;
	unsigned char *map;		/* the mapping, and its length */
	size_t maplen;
	unsigned char *base;		/* its first huge page */
	uint64_t size, have;
	uint64_t ahead;			/* pages moved ahead of `have` reach this */
	struct span *span;		/* the bytes given back, in order */
	size_t nspan, capspan;
	uint8_t *fate;			/* fate[p]: what became of huge page p */
};

struct sf_zstream *sf_zstream_new(const unsigned char *src, size_t srclen, uint64_t size,
				  int file_backed, uint64_t hold_from)
{
	if (size > SIZE_MAX - 2 * SF_HUGE_PAGE)
		return NULL;
	size_t len = ((size_t)size + 2 * SF_HUGE_PAGE - 1) & ~(SF_HUGE_PAGE - 1);
	void *map = mmap(NULL, len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (map == MAP_FAILED)
		return NULL;
	struct sf_zstream *z = sf_xcalloc(1, sizeof(*z));
	z->map = map;
	z->maplen = len;
	z->base = (unsigned char *)(((uintptr_t)map + SF_HUGE_PAGE - 1) & ~(SF_HUGE_PAGE - 1));
	/* advice only: where refused, 4 KiB pages serve */
	(void)madvise(z->base, len - SF_HUGE_PAGE, MADV_HUGEPAGE);
	z->fate = sf_xcalloc(len / SF_HUGE_PAGE, 1);
	z->src = src;
	z->srclen = srclen;
	z->file_backed = file_backed;
	z->hold = size >= hold_from;
	z->size = size;
	isal_inflate_init(&z->st);
	z->st.crc_flag = ISAL_ZLIB;
	z->st.next_in = (uint8_t *)(uintptr_t)src;
	z->st.avail_in = srclen > UINT32_MAX ? UINT32_MAX : (uint32_t)srclen;
	return z;
}

unsigned char *sf_zstream_base(const struct sf_zstream *z)
{
	return z->base;
}

uint64_t sf_zstream_have(const struct sf_zstream *z)
{
	return z->have;
}

/* The compressed bytes consumed: their whole pages leave the process
 * (read back from the file if ever read again). */
static void drop_consumed(struct sf_zstream *z)
{
	if (!z->file_backed)
		return;
	const unsigned char *from = z->src + z->src_dropped;
	const unsigned char *to = sf_drop_pages(from, z->st.next_in, 64 * sf_page_size() + 1);
	z->src_dropped = (size_t)(to - z->src);
}

/* More input for the inflater when it ate what it was given (a section
 * past 4 GiB compressed is handed over in pieces). */
static void feed(struct sf_zstream *z)
{
	size_t used = (size_t)(z->st.next_in - z->src);
	size_t left = z->srclen - used;

	if (z->st.avail_in == 0 && left)
		z->st.avail_in = left > UINT32_MAX ? UINT32_MAX : (uint32_t)left;
}

/* at most this many bytes of pages given back wait ahead of the inflater
 * (recycle), about two runs' worth (load.c); the rest go back to the
 * kernel.  4 MiB left libceph-common 98 fresh huge pages, 16 MiB 72 */
#define PARK_MAX ((uint64_t)16 << 20)

/* inflate at least this much per call (fewer calls, each one the
 * inflater's setup) */
#define FILL_STEP ((uint64_t)256 << 10)

/* One call of the inflater, for at most `want` more bytes. */
static void inflate_some(struct sf_zstream *z, uint64_t want)
{
	feed(z);
	z->st.next_out = z->base + z->have;
	z->st.avail_out = (uint32_t)want;
	int rc = isal_inflate(&z->st);
	uint64_t got = want - z->st.avail_out;
	int finished = z->st.block_state == ISAL_BLOCK_FINISH;
	int input_left = z->st.avail_in || z->st.next_in != z->src + z->srclen;

	z->have += got;
	/* corrupt: an error, the end too soon, or input gone before it */
	if (rc < 0 || (finished && z->have != z->size) || (!finished && !got && !input_left))
		z->failed = 1;
	drop_consumed(z);
}

/* The size reached: the stream must end there (its checksum checked),
 * not merely have filled the size. */
static void check_end(struct sf_zstream *z)
{
	unsigned char spare[1];

	if (z->failed || z->st.block_state == ISAL_BLOCK_FINISH)
		return;
	feed(z);
	z->st.next_out = spare;
	z->st.avail_out = sizeof(spare);
	int rc = isal_inflate(&z->st);
	if (rc < 0 || z->st.avail_out != sizeof(spare) || z->st.block_state != ISAL_BLOCK_FINISH)
		z->failed = 1;
}

int sf_zstream_fill(struct sf_zstream *z, uint64_t to)
{
	if (to > z->size)
		to = z->size;
	while (!z->failed && z->have < to) {
		uint64_t want = to - z->have < FILL_STEP ? FILL_STEP : to - z->have;
		if (want > z->size - z->have)
			want = z->size - z->have;
		if (want > UINT32_MAX)
			want = UINT32_MAX;
		inflate_some(z, want);
	}
	if (!z->failed && z->have == z->size)
		check_end(z);
	return z->failed ? -1 : 0;
}

/* The first huge page past what is inflated. */
static uint64_t next_page(const struct sf_zstream *z)
{
	return (z->have + SF_HUGE_PAGE - 1) & ~(uint64_t)(SF_HUGE_PAGE - 1);
}

/* Where the next page moved ahead goes: past what is inflated and past
 * the pages moved there already.  At or past the size, none can go. */
static uint64_t park_front(const struct sf_zstream *z)
{
	uint64_t next = next_page(z);

	return z->ahead > next ? z->ahead : next;
}

/*
 * Move huge page [lo, lo + SF_HUGE_PAGE), all given back, to park_front:
 * the inflater writes into it there with no page fault and no page for
 * the kernel to zero (zeroing took a third of libceph-common's samples
 * when its .debug_info was inflated at once).  The place it leaves reads
 * as zeros (MREMAP_DONTUNMAP) and stays ours.  1 moved; 0 not: no bytes
 * are to come there, PARK_MAX bytes wait moved already, or the kernel
 * would not.
 */
static int recycle(struct sf_zstream *z, uint64_t lo)
{
	uint64_t front = park_front(z);

	if (front >= z->size || front - next_page(z) >= PARK_MAX)
		return 0;
	void *to = mremap(z->base + lo, SF_HUGE_PAGE, SF_HUGE_PAGE,
			  MREMAP_MAYMOVE | MREMAP_FIXED | MREMAP_DONTUNMAP, z->base + front);
	if (to == MAP_FAILED)
		return 0;
	z->ahead = front + SF_HUGE_PAGE;
	return 1;
}

/* Add [lo, hi) to the spans given back, which stay sorted, apart and
 * coalesced: [0, released(z)), then the runs read out of order past it. */
static void spans_add(struct sf_zstream *z, uint64_t lo, uint64_t hi)
{
	size_t i = 0, j;

	while (i < z->nspan && z->span[i].hi < lo)
		i++;
	for (j = i; j < z->nspan && z->span[j].lo <= hi; j++) {
		if (z->span[j].lo < lo)
			lo = z->span[j].lo;
		if (z->span[j].hi > hi)
			hi = z->span[j].hi;
	}
	if (j == i) {	/* apart from every span: one more */
		SF_GROW(z->span, z->nspan, z->capspan);
		memmove(z->span + i + 1, z->span + i, (z->nspan - i) * sizeof(*z->span));
		z->nspan++;
	} else {	/* spans [i, j) become one */
		memmove(z->span + i + 1, z->span + j, (z->nspan - j) * sizeof(*z->span));
		z->nspan -= j - i - 1;
	}
	z->span[i] = (struct span){ lo, hi };
	assert(z->nspan == 1 || z->span[0].hi < z->span[1].lo);
}

/* Every byte below this is given back. */
static uint64_t released(const struct sf_zstream *z)
{
	return z->nspan && z->span[0].lo == 0 ? z->span[0].hi : 0;
}

/* Is every byte of [lo, hi) given back? */
static int given_back(const struct sf_zstream *z, uint64_t lo, uint64_t hi)
{
	for (size_t i = 0; i < z->nspan && z->span[i].lo <= lo; i++)
		if (hi <= z->span[i].hi)
			return 1;
	return 0;
}

/* The small pages of [lo, hi) given back go to the kernel. */
static void drop_given(struct sf_zstream *z, uint64_t lo, uint64_t hi)
{
	for (size_t i = 0; i < z->nspan && z->span[i].lo < hi; i++) {
		uint64_t a = z->span[i].lo > lo ? z->span[i].lo : lo;
		uint64_t b = z->span[i].hi < hi ? z->span[i].hi : hi;
		if (a < b)
			(void)sf_drop_pages(z->base + a, z->base + b, 0);
	}
}

/* Huge page p, [a, b) of the stream, after some of its bytes were given
 * back. */
static void page_given(struct sf_zstream *z, uint64_t p, uint64_t a, uint64_t b)
{
	if (!given_back(z, a, b)) {
		/* some bytes are still read: in a big stream the page is kept
		 * whole while it may yet move ahead, else the small pages
		 * given back go now (and the huge page is broken) */
		if (z->fate[p] == PAGE_WHOLE && z->hold && park_front(z) < z->size)
			return;
		z->fate[p] = PAGE_BROKEN;
		drop_given(z, a, b);
		return;
	}
	int whole = z->fate[p] == PAGE_WHOLE && b - a == SF_HUGE_PAGE;
	z->fate[p] = PAGE_GONE;
	if (!whole || !recycle(z, a))
		(void)sf_drop_pages(z->base + a, z->base + b, 0);
}

/* The bytes of [lo, hi) are given back (any of them may have been). */
static void give_back(struct sf_zstream *z, uint64_t lo, uint64_t hi)
{
	if (hi > z->have)
		hi = z->have;
	if (hi <= lo)
		return;
	spans_add(z, lo, hi);
	for (uint64_t p = lo / SF_HUGE_PAGE; p * SF_HUGE_PAGE < hi; p++) {
		uint64_t a = p * SF_HUGE_PAGE;
		uint64_t b = a + SF_HUGE_PAGE < z->size ? a + SF_HUGE_PAGE : z->size;
		if (z->fate[p] != PAGE_GONE)
			page_given(z, p, a, b);
	}
}

void sf_zstream_release(struct sf_zstream *z, uint64_t to)
{
	give_back(z, released(z), to);
}

void sf_zstream_drop(struct sf_zstream *z, uint64_t lo, uint64_t hi)
{
	give_back(z, lo, hi);
}

void sf_zstream_free(struct sf_zstream *z)
{
	if (!z)
		return;
	munmap(z->map, z->maplen);
	free(z->span);
	free(z->fate);
	free(z);
}
