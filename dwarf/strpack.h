/*
 * strpack.h - a .debug_str without the mangled names no layout reads.
 *
 * Three quarters of a C++ library's .debug_str are mangled linkage names
 * (librados: 9.0 of 11.7 MB, 78 k "_Z..." strings), and structfit reads
 * none of them: it reads names of types, members, scopes and enumerators.
 * A pack keeps the section's other strings where the decoder finds them
 * by their offsets, and of each mangled name only what a name may share:
 * the linker merges a string into the tail of a longer one, so a type
 * named `ConfigValues` may live at the end of
 * "_ZNK11md_config_t15get_my_sectionsB5cxx11ERK12ConfigValues".  Such a
 * tail is a source name behind its length, so a pack keeps the longest
 * tail "<n><n bytes>" of each mangled name (on librados every name that
 * points into a mangled string), and always its last 8 bytes ("strv" in
 * "_Z19ceph_release_to_strv").  "_ZT..." strings (thunks, vtables) are
 * kept whole: gcc names its thunks' DIEs so.
 *
 * Memory: the kept bytes in the section's order, and an index of the
 * dropped ranges:
 *
 *   data   [kept string][kept string][tail][kept string]...   (kept bytes)
 *   blocks per block of 2^SF_STRPACK_SHIFT original bytes: the kept bytes
 *          before the block (where its first kept byte lands in data), and
 *          the dropped pieces inside it
 *   crowd  the pieces of the blocks that have more than a record holds
 *
 * An offset is found by its block's record alone (one cache line; two
 * separate reads, block and drop, cost a quarter of the decoder's time
 * on librados).  An offset that lands in a dropped range (a name
 * sharing more than the kept tail; never seen on the libraries measured)
 * is still answered: the first such lookup has the section inflated
 * again, whole, through the loader's callback, and every later one reads
 * that copy.  librados: 11.7 MB -> 3.4 MB kept + 0.7 MB of index (one
 * 16-byte record per 256 bytes; per 128, the index was twice that, for
 * no time measured).
 *
 * A pack is read-only once built and is shared by the reader threads; the
 * whole copy is made once, under a lock.
 */
#ifndef SF_STRPACK_H
#define SF_STRPACK_H

#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define SF_STRPACK_SHIFT 8	/* at most 8: a piece's bounds are bytes */

/* Bytes [lo, hi] of a block were cut. */
struct sf_strpack_piece {
	uint8_t lo, hi;
};

/* A block's record: `base`, the kept bytes before the block (where its
 * first kept byte lands in data), and the pieces cut inside it, in order.
 * The blocks of more pieces than a record holds (83 of 45.6 k on
 * librados, 874 of 251 k on libceph-common, a fifth of libjvm's, whose
 * mangled names are short) have n SF_STRPACK_MANY and their pieces in
 * `crowd`: piece[] then holds two uint32_t, where they start there and
 * how many.  A lookup reads one record of 16 bytes. */
#define SF_STRPACK_INLINE 5
#define SF_STRPACK_MANY 0xff

struct sf_strpack_block {
	uint32_t base;
	uint8_t n;
	struct sf_strpack_piece piece[SF_STRPACK_INLINE];
};

struct sf_strpack_whole;

struct sf_strpack {
	const char *data;            /* the kept bytes */
	uint64_t kept;               /* bytes at data */
	uint64_t size;               /* the section's own size */
	const struct sf_strpack_block *blocks;  /* [size >> SHIFT] + 1 */
	const struct sf_strpack_piece *crowd;
	uint32_t ndrops;             /* mangled names dropped */
	struct sf_strpack_whole *whole;  /* the copy made on a miss */
};

/* The whole section again, inflated into a buffer of `size` bytes the
 * pack then owns (free()), or NULL when that fails. */
typedef unsigned char *sf_strpack_refill_fn(void *arg, uint64_t size);

/*
 * A pack is built from the section's bytes as they are inflated, piece by
 * piece, so that the whole section is never held:
 *   sf_strpack_begin(size)   NULL when it cannot be packed (4 GiB or more)
 *   sf_strpack_feed(b, p, n, avail)  takes the whole strings at the front
 *                            of p[0, n) and says how many bytes they are:
 *                            the rest (a string cut off) comes again at
 *                            the front of the next piece; `avail` >= n
 *                            bytes may be read at p
 *   sf_strpack_end(b, &plain, refill, arg)  the pack, or NULL: *plain is
 *                            then the section's bytes as they were when
 *                            nothing was dropped (the caller's to free),
 *                            or NULL when the pieces did not make the
 *                            section (its last byte no NUL)
 *   sf_strpack_abort(b)      when the section turned out corrupt
 * `refill(arg)` must stay callable while the pack lives.
 */
struct sf_strpack_build;
struct sf_strpack_build *sf_strpack_begin(uint64_t size);
size_t sf_strpack_feed(struct sf_strpack_build *b, const unsigned char *p, size_t n,
		       size_t avail);
struct sf_strpack *sf_strpack_end(struct sf_strpack_build *b, unsigned char **plain,
				  sf_strpack_refill_fn *refill, void *arg);
void sf_strpack_abort(struct sf_strpack_build *b);
void sf_strpack_free(struct sf_strpack *p);
/* Give the kept bytes, the index and any copy back once nothing looks a
 * string up any more (every unit read); the counts stay for the note. */
void sf_strpack_let_go(struct sf_strpack *p);

/* The string at original offset off, which lies in a dropped range. */
const char *sf_strpack_miss(const struct sf_strpack *p, uint64_t off);
/* How many lookups missed the kept bytes (0 while none). */
uint64_t sf_strpack_misses(const struct sf_strpack *p);

/* sf_strpack_at for a block of SF_STRPACK_MANY pieces. */
const char *sf_strpack_crowded(const struct sf_strpack *p, uint64_t off);

/* The string at offset off of a block of kept bytes before it `base` and
 * cut pieces q[0, n). */
static inline const char *sf_strpack_in_block(const struct sf_strpack *p, uint64_t off,
					      uint64_t base, const struct sf_strpack_piece *q,
					      unsigned n)
{
	unsigned r = (unsigned)(off & ((1u << SF_STRPACK_SHIFT) - 1));
	uint64_t c = base + r;

	for (unsigned i = 0; i < n && q[i].lo <= r; i++) {
		if (r <= q[i].hi)
			return sf_strpack_miss(p, off);
		c -= (unsigned)(q[i].hi - q[i].lo) + 1;
	}
	return p->data + c;
}

/* The string at original offset off of the packed section (off below
 * p->size). */
static inline const char *sf_strpack_at(const struct sf_strpack *p, uint64_t off)
{
	assert(p->blocks);	/* not let go */
	const struct sf_strpack_block *k = &p->blocks[off >> SF_STRPACK_SHIFT];

	if (k->n == SF_STRPACK_MANY)
		return sf_strpack_crowded(p, off);
	return sf_strpack_in_block(p, off, k->base, k->piece, k->n);
}

/*
 * A reader thread's memo of the strings it looked up last (librados: 985 k
 * lookups of 20 k strings): a hit reads one entry of a table that stays
 * in the cache, not a block record of a 0.7 MB index.  Direct-mapped by
 * offset; an entry is the offset + 1 (0: empty) and where the string is
 * in the pack's data.  Lookups that miss the kept bytes are not kept.
 */
#define SF_STRMEMO_BITS 12	/* 32 KiB: 2^15 held 256 KiB a reader,
				 * and runs read wait to be merged with
				 * theirs, for no time measured (2^12 to
				 * 2^16) */

struct sf_strmemo {
	const struct sf_strpack *pack;   /* whose offsets the entries are */
	struct {
		uint32_t off1, pos;
	} e[1u << SF_STRMEMO_BITS];
};

static inline const char *sf_strpack_memo_at(const struct sf_strpack *p, struct sf_strmemo *m,
					     uint64_t off)
{
	if (m->pack != p) {
		memset(m->e, 0, sizeof(m->e));
		m->pack = p;
	}
	uint32_t o = (uint32_t)off;	/* a pack is smaller than 4 GiB */
	size_t h = (uint32_t)(o * 0x9e3779b1u) >> (32 - SF_STRMEMO_BITS);
	if (m->e[h].off1 == o + 1)
		return p->data + m->e[h].pos;
	const char *s = sf_strpack_at(p, off);
	if (s >= p->data && s < p->data + p->kept) {
		m->e[h].off1 = o + 1;
		m->e[h].pos = (uint32_t)(s - p->data);
	}
	return s;
}

#endif
