/*
 * strpack.c - packing a .debug_str: which bytes of a mangled name stay,
 * the index of the dropped ranges, and the whole copy made on a miss
 * (the layout: strpack.h).
 */
#include "dwarf/strpack.h"

#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "lib/xalloc.h"

struct sf_strpack_whole {
	pthread_mutex_t lock;
	_Atomic(const char *) data;   /* NULL until the first miss */
	atomic_uint_fast64_t misses;
	sf_strpack_refill_fn *refill;
	void *arg;
};

/* How many bytes at the end of a mangled name are always kept: the linker
 * also merges short names into tails that are no source name ("strv" in
 * "_Z19ceph_release_to_strv", "setl", "logv"). */
#define KEEP_TAIL 8

/*
 * A C++ name mangled by the Itanium ABI, as its first letter after "_Z"
 * says: a nested name (N), a local one (Z), one of internal linkage (L), a
 * substitution (S), an unscoped source name (its length) or an operator
 * (two lower-case letters).  Not the special names ("_ZT": thunks,
 * vtables; gcc names a thunk's DIE by its mangled name), and not
 * identifiers that merely start so (HotSpot's `_ZAddressBadMask`).
 */
static int dropped_kind(const unsigned char *s, size_t len)
{
	if (len <= KEEP_TAIL + 2 || s[0] != '_' || s[1] != 'Z')
		return 0;
	unsigned char c = s[2];
	return c == 'N' || c == 'Z' || c == 'L' || c == 'S' || (c >= '0' && c <= '9') ||
	       (c >= 'a' && c <= 'z');
}

static int is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

/*
 * "0987654321" over and over: at DESC[x], the digit -x mod 10.  The digit a
 * name of k bytes at the end has right before it ends in k's last digit,
 * which falls by one with each byte forward: a mangled name compared with
 * DESC at the right phase is equal to it exactly where such a length may
 * end.  80 is a multiple of 10 and of the 16 or 8 bytes compared at once.
 */
static const unsigned char DESC[80 + 10 + 16] =
	"0987654321098765432109876543210987654321"
	"0987654321098765432109876543210987654321"
	"0987654321" "0987654321098765";

static uint64_t load64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* Whether the length read from the last one to five digits before s[j]
 * is k (s[j - 1] is a digit, s[j] none). */
static int length_before(const unsigned char *s, size_t j, size_t k)
{
	size_t v = 0, mul = 1;

	for (size_t i = j; i >= 1 && j - i < 5 && is_digit(s[i - 1]); i--) {
		v += (size_t)(s[i - 1] - '0') * mul;
		mul *= 10;
		if (v == k)
			return 1;
	}
	return 0;
}

/*
 * The length of the longest tail of the mangled name s (len bytes) that
 * is a source name behind its length: "<n><n bytes>" at the very end, the
 * n bytes not starting with a digit.  The length is read from the last one
 * to five digits before the name, since an identifier ending in digits may
 * stand right before it ("7v15_2_14list": "list", 4).  0 when none.
 * `avail`: bytes readable from s (at least len + 1).  Sixteen (SSE2) or
 * eight bytes at a time find where a length's last digit may stand
 * (compared with DESC), then each such place is read.
 */
static size_t name_tail(const unsigned char *s, size_t len, size_t avail)
{
	/* s[p] may be the last digit of a length of len - 1 - p */
	size_t phase = (10 - (len - 1) % 10) % 10, p = 0, r = 0;	/* r: p % 80 */

#ifdef __SSE2__
	for (; p + 1 < len && p + 16 <= avail; p += 16, r = r + 16 == 80 ? 0 : r + 16) {
		__m128i eq = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)(s + p)),
					    _mm_loadu_si128((const __m128i *)(const void *)(DESC + phase + r)));
		for (unsigned m = (unsigned)_mm_movemask_epi8(eq); m; m &= m - 1) {
			size_t q = p + (size_t)__builtin_ctz(m);
			if (q + 1 < len && !is_digit(s[q + 1]) &&
			    length_before(s, q + 1, len - 1 - q))
				return len - 1 - q;	/* the first is the longest */
		}
	}
#endif
	for (; p + 1 < len && p + 8 <= avail; p += 8, r = r + 8 == 80 ? 0 : r + 8) {
		uint64_t x = load64(s + p) ^ load64(DESC + phase + r);
		/* a byte of x zero: equal (the high bit also flags some
		 * bytes above one that is zero: each is read again) */
		uint64_t z = (x - 0x0101010101010101ull) & ~x & 0x8080808080808080ull;
		while (z) {
			size_t q = p + (size_t)__builtin_ctzll(z) / 8;
			z &= z - 1;
			if (q + 1 < len && is_digit(s[q]) && !is_digit(s[q + 1]) &&
			    length_before(s, q + 1, len - 1 - q))
				return len - 1 - q;
		}
	}
	for (; p + 1 < len; p++, r = r + 1 == 80 ? 0 : r + 1)
		if (s[p] == DESC[phase + r] && !is_digit(s[p + 1]) &&
		    length_before(s, p + 1, len - 1 - p))
			return len - 1 - p;
	return 0;
}

/* A range [start, end) of the section cut, in its offsets. */
struct sf_strpack_drop {
	uint32_t start, end;
};

struct sf_strpack_build {
	unsigned char *out;          /* the kept bytes: `size` reserved, only
				      * those written ever touched */
	uint64_t kept;
	uint64_t size;               /* the section's */
	uint64_t at;                 /* offset of the next byte fed */
	struct sf_strpack_drop *drops;
	size_t n, cap;
};

static void add_drop(struct sf_strpack_build *b, uint64_t start, uint64_t end)
{
	SF_GROW(b->drops, b->n, b->cap);
	b->drops[b->n++] = (struct sf_strpack_drop){ (uint32_t)start, (uint32_t)end };
}

struct sf_strpack_build *sf_strpack_begin(uint64_t size)
{
	if (!size || size >= UINT32_MAX)
		return NULL;
	struct sf_strpack_build *b = sf_xcalloc(1, sizeof(*b));
	b->out = sf_xmalloc_huge(size);
	b->size = size;
	return b;
}

/* Where in p[from, end) the next string starting "_Z" starts (end when
 * none); p[0] and every byte after a NUL start a string.  It looks for
 * the 'Z', far rarer than the '_' or the NUL. */
static size_t next_z_string(const unsigned char *p, size_t from, size_t end)
{
	for (size_t at = from + 1; at < end;) {
		const unsigned char *z = memchr(p + at, 'Z', end - at);
		if (!z)
			break;
		size_t q = (size_t)(z - p) - 1;
		if (p[q] == '_' && (q == 0 || p[q - 1] == '\0') && q >= from)
			return q;
		at = (size_t)(z - p) + 1;
	}
	return end;
}

/* Append p[from, to) to the kept bytes. */
static void keep(struct sf_strpack_build *b, const unsigned char *p, size_t from, size_t to)
{
	memcpy(b->out + b->kept, p + from, to - from);
	b->kept += to - from;
}

size_t sf_strpack_feed(struct sf_strpack_build *b, const unsigned char *p, size_t n,
		       size_t avail)
{
	const unsigned char *z = n ? memrchr(p, 0, n) : NULL;
	size_t whole = z ? (size_t)(z - p) + 1 : 0, run = 0;

	assert(avail >= n && b->at + n <= b->size);
	/* the strings between two mangled names are kept as they are, in
	 * one copy: only those starting "_Z" are looked at */
	for (size_t s = 0; (s = next_z_string(p, s, whole)) < whole;) {
		/* p[whole - 1] is a NUL */
		size_t e = s + strlen((const char *)p + s);
		if (dropped_kind(p + s, e - s)) {
			size_t tail = name_tail(p + s, e - s, avail - s);
			size_t from = e - (tail > KEEP_TAIL ? tail : KEEP_TAIL);
			keep(b, p, run, s);
			add_drop(b, b->at + s, b->at + from);
			run = from;
		}
		s = e + 1;
	}
	keep(b, p, run, whole);
	b->at += whole;
	return whole;
}

struct crowd {
	struct sf_strpack_piece *pieces;
	size_t n, cap;
};

static void crowd_add(struct crowd *cr, struct sf_strpack_piece q)
{
	SF_GROW(cr->pieces, cr->n, cr->cap);
	cr->pieces[cr->n++] = q;
}

/* The pieces cut of block blk into its record k, drops[i] on being the
 * first drop that ends after the block's start; when they are more than
 * it holds, into the crowd. */
static void block_pieces(const struct sf_strpack_drop *drops, size_t ndrops, size_t i,
			 uint64_t blk, struct sf_strpack_block *k, struct crowd *cr)
{
	uint64_t at = blk << SF_STRPACK_SHIFT, end = at + (1u << SF_STRPACK_SHIFT);
	size_t n = 0, from = cr->n;

	for (size_t j = i; j < ndrops && drops[j].start < end; j++)
		n++;
	k->n = n <= SF_STRPACK_INLINE ? (uint8_t)n : SF_STRPACK_MANY;
	for (size_t j = 0; j < n; j++) {
		const struct sf_strpack_drop *d = &drops[i + j];
		struct sf_strpack_piece q = {
			(uint8_t)((d->start > at ? d->start : at) - at),
			(uint8_t)((d->end < end ? d->end : end) - 1 - at),
		};
		if (k->n == SF_STRPACK_MANY)
			crowd_add(cr, q);
		else
			k->piece[j] = q;
	}
	if (k->n == SF_STRPACK_MANY) {
		uint32_t where[2] = { (uint32_t)from, (uint32_t)n };
		static_assert(sizeof(where) <= sizeof(k->piece), "a crowd's place fits a record");
		memcpy(k->piece, where, sizeof(where));
	}
}

/* Every block's record, over the drops, sorted and disjoint. */
static void index_blocks(struct sf_strpack *p, const struct sf_strpack_drop *drops,
			 size_t ndrops, struct sf_strpack_block *blocks)
{
	uint64_t nblocks = (p->size >> SF_STRPACK_SHIFT) + 1, dropped = 0;
	struct crowd cr = { NULL, 0, 0 };
	size_t i = 0;

	for (uint64_t blk = 0; blk < nblocks; blk++) {
		uint64_t at = blk << SF_STRPACK_SHIFT;
		/* drops wholly before the block count whole */
		while (i < ndrops && drops[i].end <= at) {
			dropped += drops[i].end - drops[i].start;
			i++;
		}
		uint64_t part = i < ndrops && drops[i].start < at ? at - drops[i].start : 0;
		memset(&blocks[blk], 0, sizeof(blocks[blk]));
		blocks[blk].base = (uint32_t)(at - dropped - part);
		block_pieces(drops, ndrops, i, blk, &blocks[blk], &cr);
	}
	p->crowd = cr.pieces;
}

const char *sf_strpack_crowded(const struct sf_strpack *p, uint64_t off)
{
	const struct sf_strpack_block *k = &p->blocks[off >> SF_STRPACK_SHIFT];
	uint32_t where[2];

	assert(k->n == SF_STRPACK_MANY);
	memcpy(where, k->piece, sizeof(where));
	return sf_strpack_in_block(p, off, k->base, p->crowd + where[0], where[1]);
}

static void build_free(struct sf_strpack_build *b)
{
	free(b->drops);
	free(b);
}

void sf_strpack_abort(struct sf_strpack_build *b)
{
	free(b->out);
	build_free(b);
}

struct sf_strpack *sf_strpack_end(struct sf_strpack_build *b, unsigned char **plain,
				  sf_strpack_refill_fn *refill, void *arg)
{
	*plain = NULL;
	if (b->at != b->size) {	/* not all fed, or no NUL at the end */
		sf_strpack_abort(b);
		return NULL;
	}
	if (!b->n) {		/* nothing dropped: the bytes as they were */
		*plain = b->out;
		build_free(b);
		return NULL;
	}
	struct sf_strpack *p = sf_xcalloc(1, sizeof(*p));
	uint64_t nblocks = (b->size >> SF_STRPACK_SHIFT) + 1;
	struct sf_strpack_block *blocks = sf_xreallocarray(NULL, nblocks, sizeof(*blocks));
	p->data = sf_xrealloc(b->out, b->kept);
	p->kept = b->kept;
	p->size = b->size;
	p->ndrops = (uint32_t)b->n;
	index_blocks(p, b->drops, b->n, blocks);
	p->blocks = blocks;
	build_free(b);
	p->whole = sf_xcalloc(1, sizeof(*p->whole));
	pthread_mutex_init(&p->whole->lock, NULL);
	p->whole->refill = refill;
	p->whole->arg = arg;
	return p;
}

void sf_strpack_let_go(struct sf_strpack *p)
{
	free((void *)atomic_exchange(&p->whole->data, NULL));
	free((void *)p->blocks);
	free((void *)p->crowd);
	free((void *)p->data);
	p->blocks = NULL;
	p->crowd = NULL;
	p->data = NULL;
}

void sf_strpack_free(struct sf_strpack *p)
{
	if (!p)
		return;
	sf_strpack_let_go(p);
	pthread_mutex_destroy(&p->whole->lock);
	free(p->whole);
	free(p);
}

const char *sf_strpack_miss(const struct sf_strpack *p, uint64_t off)
{
	struct sf_strpack_whole *w = p->whole;
	const char *d = atomic_load_explicit(&w->data, memory_order_acquire);

	atomic_fetch_add_explicit(&w->misses, 1, memory_order_relaxed);
	if (!d) {
		pthread_mutex_lock(&w->lock);
		d = atomic_load_explicit(&w->data, memory_order_relaxed);
		if (!d) {
			d = (const char *)w->refill(w->arg, p->size);
			atomic_store_explicit(&w->data, d, memory_order_release);
		}
		pthread_mutex_unlock(&w->lock);
	}
	return d ? d + off : NULL;
}

uint64_t sf_strpack_misses(const struct sf_strpack *p)
{
	return atomic_load_explicit(&p->whole->misses, memory_order_relaxed);
}
