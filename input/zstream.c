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
 *   | st (igzip's, ~85 KiB)    | base | size | have     | released  |
 *   +--------------------------+------+------+----------+-----------+
 *     next_in: the compressed     |            bytes       bytes below
 *     bytes not yet consumed      |            inflated    given back
 *                                 v
 *        one anonymous mapping of `size` bytes, rounded up to whole
 *        huge pages and aligned to one (MAP_NORESERVE: untouched pages
 *        cost nothing), advised as huge-page memory
 *
 * Bytes released go by whole pages: whole huge pages move ahead of
 * `have`, for the inflater to write into (recycle), the rest goes back to
 * the kernel (MADV_DONTNEED).  Either way the range released reads as
 * zeros afterwards and stays ours: no pointer into it ever points to
 * other bytes.
 *
 *   0      released          have       ahead                    size
 *   | zeros |  being read    |  moved pages |  untouched           |
 */
#include "zstream.h"

#include <isa-l/igzip_lib.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "lib/xalloc.h"

struct sf_zstream {
	struct inflate_state st;
	const unsigned char *src;	/* the compressed bytes */
	size_t srclen;
	size_t src_dropped;		/* their pages dropped below this */
	int file_backed;
	int failed;
	unsigned char *map;		/* the mapping, and its length */
	size_t maplen;
	unsigned char *base;		/* its first huge page */
	uint64_t size, have, released;
	uint64_t ahead;			/* pages moved ahead of `have` reach this */
};

struct sf_zstream *sf_zstream_new(const unsigned char *src, size_t srclen, uint64_t size,
				  int file_backed)
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
	z->src = src;
	z->srclen = srclen;
	z->file_backed = file_backed;
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

/*
 * Move the pages of [lo, lo + len) (whole huge pages of bytes given back)
 * to where the inflater writes next: it writes into them there, with no
 * page fault and no page for the kernel to zero (which took a third of
 * libceph-common's samples when it was inflated at once).  The range left
 * behind reads as zeros (MREMAP_DONTUNMAP), and stays ours.  How many
 * bytes were moved (0: the kernel would not).
 */
static uint64_t recycle(struct sf_zstream *z, uint64_t lo, uint64_t len)
{
	uint64_t front = (z->have + SF_HUGE_PAGE - 1) & ~(uint64_t)(SF_HUGE_PAGE - 1);
	uint64_t room = z->maplen - SF_HUGE_PAGE;	/* from base to the mapping's end */

	if (front < z->ahead)
		front = z->ahead;
	if (front >= room)
		return 0;
	if (len > room - front)
		len = room - front;
	void *to = mremap(z->base + lo, (size_t)len, (size_t)len,
			  MREMAP_MAYMOVE | MREMAP_FIXED | MREMAP_DONTUNMAP, z->base + front);
	if (to == MAP_FAILED)
		return 0;
	z->ahead = front + len;
	return len;
}

void sf_zstream_release(struct sf_zstream *z, uint64_t to)
{
	size_t pg = sf_page_size();

	if (to > z->have)
		to = z->have;
	uint64_t lo = (z->released + pg - 1) & ~(uint64_t)(pg - 1);
	uint64_t hi = to & ~(uint64_t)(pg - 1);
	if (hi <= lo)
		return;
	/* whole huge pages move ahead, the rest goes back to the kernel */
	uint64_t hlo = (lo + SF_HUGE_PAGE - 1) & ~(uint64_t)(SF_HUGE_PAGE - 1);
	uint64_t hhi = hi & ~(uint64_t)(SF_HUGE_PAGE - 1);
	uint64_t moved = hhi > hlo ? recycle(z, hlo, hhi - hlo) : 0;
	if (moved) {
		(void)sf_drop_pages(z->base + lo, z->base + hlo, 0);
		lo = hlo + moved;
	}
	(void)sf_drop_pages(z->base + lo, z->base + hi, 0);
	z->released = hi;
}

void sf_zstream_drop(struct sf_zstream *z, uint64_t lo, uint64_t hi)
{
	/* below `released` the pages may have moved ahead (recycle) */
	if (lo < z->released)
		lo = z->released;
	if (hi > z->have)
		hi = z->have;
	if (hi > lo)
		(void)sf_drop_pages(z->base + lo, z->base + hi, 0);
}

void sf_zstream_free(struct sf_zstream *z)
{
	if (!z)
		return;
	munmap(z->map, z->maplen);
	free(z);
}
