/*
 * zstream.h - a zlib-compressed section inflated piecewise, in order, its
 * bytes given back once read (input/zstream.c).
 *
 * libceph-common's .debug_info inflates to 154 MB, held whole while its
 * units were read when inflated at once.  Read from a stream, only the
 * units being read and those inflated ahead of them take memory:
 *
 *   base                                                     base + size
 *   |  given back  |   inflated, being read   |  not yet: no memory   |
 *   +--------------+--------------------------+-----------------------+
 *   0           released                     have                  size
 *
 * (the pages given back move past `have`, for the inflater to write into
 * them there, while it has bytes to come.)
 *
 * The section keeps one address range for its whole life (reserved when
 * the stream starts, never moved), so every section offset has one
 * address, as when it is inflated at once: the DIE decoder reads it
 * unchanged, and no pointer into it can ever point to other bytes.  Pages
 * given back read as zeros.  The compressed bytes' pages, when they are
 * a file's, leave the process as they are consumed.  Not thread-safe:
 * the caller serialises fills and releases.
 */
#ifndef SF_ZSTREAM_H
#define SF_ZSTREAM_H

#include <stddef.h>
#include <stdint.h>

struct sf_zstream;

/*
 * A stream inflating the zlib stream src[0, srclen) to `size` bytes.
 * file_backed: src lies in a private mapping of a file (its pages may be
 * dropped).  hold_from: from this size on, a huge page part of which is
 * still read is kept whole until the rest is given back (sf_zstream_drop).
 * NULL when the address range cannot be had.
 */
struct sf_zstream *sf_zstream_new(const unsigned char *src, size_t srclen, uint64_t size,
				  int file_backed, uint64_t hold_from);
/* Where the inflated bytes live: `size` bytes, those below have valid. */
unsigned char *sf_zstream_base(const struct sf_zstream *z);
/* Bytes inflated so far. */
uint64_t sf_zstream_have(const struct sf_zstream *z);
/*
 * Inflate until at least `to` bytes (at most the size) are there.  0, or
 * -1 when the stream is corrupt: not zlib, a bad block, more or fewer
 * bytes than the size, a wrong checksum (checked at its end).
 */
int sf_zstream_fill(struct sf_zstream *z, uint64_t to);
/* Nothing reads the bytes below `to` any more: their memory goes back. */
void sf_zstream_release(struct sf_zstream *z, uint64_t to);
/*
 * Nothing reads the bytes of [lo, hi) any more, though bytes beside them
 * may still be read, and some of them may have been given back before.
 * A huge page goes once all its bytes are given back, to be written
 * again further on while the stream has bytes to come; in a small stream
 * the small pages inside the range go at once.  Pages gone read as
 * zeros; no byte outside what was given back ever changes.
 */
void sf_zstream_drop(struct sf_zstream *z, uint64_t lo, uint64_t hi);
void sf_zstream_free(struct sf_zstream *z);

#endif
