/*
 * xalloc.h - allocation that never returns NULL.
 *
 * lib/ holds what every folder uses and that knows nothing of types:
 * xalloc.c (checked allocation), strbuf.c (strings), err.c (the error
 * line), checked.c (sizes and numbers that cannot wrap), lines.c (a text
 * cut into lines), path.c (source paths), color.c (terminal colour),
 * hash.h (the tables' mixer).
 *
 * Out of memory is not something structfit can work around: like git's
 * xmalloc, these print "structfit: out of memory" and exit with status 2.
 * Every allocation in the tree goes through them, so every allocation is
 * checked in exactly one place.
 */
#ifndef SF_XALLOC_H
#define SF_XALLOC_H

#include <stddef.h>

void *sf_xmalloc(size_t n);
void *sf_xcalloc(size_t nmemb, size_t size);
/*
 * Zeroed memory for a table probed at random (open addressing), its
 * zeros written now.  calloc() hands back a fresh mapping untouched: a
 * probe then reads a page first, which maps the shared zero page, and the
 * first store into it takes a second, copy-on-write fault that flushes
 * the TLB of every core the process runs on (an interrupt each: 2.8 % of
 * the CPU of a two-thread vmlinux show).  Written first, a page faults
 * once, into a page of its own.
 */
void *sf_xcalloc_table(size_t nmemb, size_t size);
/*
 * The same, aligned to a cache line (64 bytes; freed by free()): malloc
 * aligns to 16 only (a large block starts 16 bytes into its page), so
 * half the 32-byte slots of the fingerprint cache lay across two lines,
 * and a probe or a write of one missed twice.  Only where measured: every
 * table aligned so cost 0.7 MB more peak memory on vmlinux (aligned_alloc
 * splits heap blocks) for no fewer misses than this one alone.
 */
void *sf_xcalloc_lines(size_t nmemb, size_t size);
/*
 * n bytes for a large block written whole soon after (an inflated
 * section, an arena's chunk), freed by free(): from 2 MiB on, the whole
 * 2 MiB pages inside it advised to the kernel as huge-page memory
 * (MADV_HUGEPAGE, which transparent huge pages honour in their default
 * "madvise" mode), so that writing it faults once per 2 MiB, not once
 * per 4 KiB page.  A page fault costs about 10 us on the paravirtualised
 * machines measured (libceph-common's 235 MB of inflated DWARF: 58 k
 * faults, a fifth of show's CPU).  Smaller blocks are sf_xmalloc's.
 * Not aligned to 2 MiB: aligned_alloc splits heap blocks around each
 * one, and the pieces held peak memory (libceph-common 204 -> 195 MB,
 * librados 58.7 -> 56.4 MB, vmlinux 207 -> 203 MB without).  Where the
 * heap is huge-page memory already (cmd/main.c's tuned malloc, every
 * large input) that costs nothing; elsewhere a 2 MiB block mostly holds
 * no whole huge page (libceph-common with malloc untuned: 19 k -> 28 k
 * faults, the wall time within its noise).
 */
#define SF_HUGE_PAGE ((size_t)2 << 20)
void *sf_xmalloc_huge(size_t n);
/* The system's page size (4096 where sysconf cannot say). */
size_t sf_page_size(void);
/*
 * Give the whole pages of [lo, hi) back to the kernel (MADV_DONTNEED)
 * when they come to at least `least` bytes: memory nothing reads or
 * writes any more -- a private file mapping, read back from the file if
 * touched again, or anonymous memory, zeros if touched again.  Advice
 * only: where refused the pages stay.  Returns where the dropped pages
 * end (hi rounded down to a page), or lo when none were dropped.  Each
 * call costs a TLB flush (tens of microseconds on the paravirtualised
 * machines measured), so callers drop in batches.
 */
const void *sf_drop_pages(const void *lo, const void *hi, size_t least);
void *sf_xrealloc(void *p, size_t n);
/* realloc to nmemb * size, failing (not wrapping) on overflow */
void *sf_xreallocarray(void *p, size_t nmemb, size_t size);
char *sf_xstrdup(const char *s);
char *sf_xstrndup(const char *s, size_t n);

/* Grow array `a` (of `cap` elements) so that index `n` fits. */
#define SF_GROW(a, n, cap)                                                   \
	do {                                                                 \
		if ((size_t)(n) >= (cap)) {                                  \
			size_t sf_nc_ = (cap) ? (cap) * 2 : 16;              \
			while (sf_nc_ <= (size_t)(n))                        \
				sf_nc_ *= 2;                                 \
			(a) = sf_xreallocarray((a), sf_nc_, sizeof(*(a)));   \
			(cap) = sf_nc_;                                      \
		}                                                            \
	} while (0)

#endif
