/*
 * fingerprint.c - digests of aggregate definitions (see fingerprint.h).
 *
 *   sf_fpcache: (DIE key -> state and fingerprint, per depth) in an
 *               open-addressed table of generation-stamped 16-byte slots
 *               (key, state, the index of its digest); a new unit bumps
 *               the generation instead of clearing the table.  The
 *               digests apart, in the order their slots were made.
 *               A slot being hashed is BUSY: meeting it again is a cycle.
 *               A DIE hashed alike at both depths marks its slot `same`,
 *               and the other depth's slot, when made, copies it (and
 *               shares its digest).  In front, `hot`: copies of the last
 *               slots found DONE, digests included.
 *               And the unit's hash plans (struct fp_plans: fpplan.h).
 *
 * The hash plans are compiled by fpplan.c; the sets of keys laid out
 * (sf_fpset, sf_fpshared) are fpset.c.
 *
 * A digest has two 64-bit lanes, each its own mix of every value fed in
 * (a multiply-xorshift and a multiply-rotate, different constants), so a
 * false match needs both to collide at once.  A DIE is fed as its
 * abbreviation's shape (a digest of the tag, children and the attributes
 * the reader decodes, with their forms where the form changes what is
 * fed), then the values of those attributes in the abbreviation's order,
 * read straight from the DIE's bytes by the plan (no sf_die_read): raw
 * bytes, or constants as the decoder gives them, one word each;
 * strings by length and bytes (or, in `local` mode, by offset); a
 * reference by the digest of what it names, children in order.  A digest
 * is a function of what the reader reads, never of where in the section
 * it sits: equal digests, equal decoded values; a value written in
 * another form at worst costs a match.
 */
#include "fingerprint.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include <dwarf.h>

#include "cursor.h"
#include "fpplan.h"
#include "lib/hash.h"
#include "lib/xalloc.h"

enum { ST_NONE = 0, ST_BUSY, ST_DONE, ST_FAILED };

/* The lookup of a type's digest, inlined where its callers are: each
 * call cost a prologue and an epilogue of six pushes and pops */
#define ALWAYS_INLINE inline __attribute__((always_inline))

/* slots a unit starts with, at most (128 KB).  A vmlinux unit makes 1,717
 * slots on average (5,514 at most; 5.3 M lookups past `hot`, 3.7 M slots
 * made).  The table only grows, but each unit uses a prefix of it: spread
 * over the 16,384 slots (512 KB) a big unit grew it to, nearly every
 * first probe missed the cache.  show -j1 vmlinux, perf: cache_slot 11.6
 * -> 9.4 % of the samples (~2 % of the run), L2 misses (cachegrind, 1 MB)
 * 6.38 -> 5.74 M, at 0.11 G more instructions (probes are longer at the
 * higher load).  A 4,096-slot prefix regrew too often (cache_grow 2 %);
 * a prefetch of a type reference's slot as it is read gained nothing */
#define SMALL_CACHE 8192u

/*
 * A DIE at one depth (the key's bit 61): 16 bytes, four to a cache line.
 * Its digest is apart, fp[fpi] (struct sf_fpcache): read on a DONE hit,
 * written once, while a probe passes over keys only.  With the digest in
 * the slot (32 bytes, two to a line) the first probe's load missed L1 on
 * 4.7 M of 5.3 M lookups and L2 on 0.66 M (cachegrind, show -j1 vmlinux,
 * 32 KB L1, 1 MB L2); now 3.6 M and 0.22 M.  A digest array beside the
 * slots (index for index) made each digest's write a line of its own
 * (3.1 M L1 write misses), the digests in the order made 1 in 4.
 */
struct fpslot {
	uint64_t key;
	uint32_t fpi;           /* its digest's index in fp */
	uint16_t gen;
	uint8_t state;
	uint8_t bits;           /* FP_ANON, FP_SAME */
};
static_assert(sizeof(struct fpslot) == 16, "four slots to a cache line");

enum {
	FP_ANON = 1,            /* an anonymous aggregate or enum (once read) */
	FP_SAME = 2,            /* DONE, and the digest is the same at both depths */
};

/* A hot copy of a DONE slot: its key, bits and digest (32 bytes). */
struct fphot {
	uint64_t key;
	uint8_t anon, same;
	struct sf_fp fp;
};

#define DEPTH_BIT (1ull << 61)

/* What a digest owes its depth (besides -1, none): DEPTH_FREE when the
 * DIE hashes alike at both (a base type, a pointer to a named struct, a
 * typedef of one of those), so the other depth takes it as is. */
enum { DEPTH_FREE = 0, DEPTH_BOUND = 1 };
static_assert(DEPTH_FREE == 0 && DEPTH_BOUND == 1, "hash_rest or's and masks them");

struct plantab;
struct op;

/* in front of the table: the last digests looked up, direct-mapped (8 KB)
 * by the top bits of the key times an odd constant (hot_of) */
#define NHOT_BITS 8
#define NHOT (1u << NHOT_BITS)

struct sf_fpcache {
	struct fpslot *v;       /* alloc slots; the unit uses the first cap */
	size_t cap, count, alloc;
	/* the digests of the unit's slots, in the order the slots were made
	 * (nfp of them, room for alloc/2): written and read close together,
	 * where an array beside v took a cache line per write */
	struct sf_fp *fp;
	size_t nfp;
	uint16_t gen;
	/* copies of DONE slots of this unit (a key 0: none - no DIE is at
	 * offset 0 - and cleared at a reset, so a hit needs no generation
	 * check): a unit's types looked up again and again (int, the
	 * list_head pointers...) are found without probing the table
	 * (1,700 slots per vmlinux unit, spread over twice that).
	 * Measured on vmlinux (cachegrind): 128 entries, 106 M fewer
	 * instructions than none and 1.1 M more L1 misses; 512, 156 M fewer
	 * but 4.5 M more misses.  Since the lookup is inlined (show -j1):
	 * 64 entries 6.19 G instructions, 128 6.15 G, 256 6.12 G and
	 * best-of-6 user time 0.82 s against 0.85 s.  A digest just made
	 * is not copied here (its second lookup, from the table, is):
	 * most are looked up once - a struct's layout, a parameter list -
	 * and pushed out the copies looked up again (5.513 -> 5.493 G
	 * instructions, 0.4 M fewer L1 misses).  Their keys in an array
	 * apart (2 KB to compare against) gained nothing: show -j1 vmlinux,
	 * perf, ten alternating runs, fp_ref_table and hash_rest 2,518 ->
	 * 2,671 samples */
	struct fphot hot[NHOT];
	/* this unit's hash plans (made on first use, dropped at a reset) */
	struct fp_plans plans;
};

/* Where key's hot copy goes: the top bits of a multiply, which every
 * bit of the key moves (the depth bit, too: the two depths of a DIE
 * apart) - three instructions, where sf_mix64 took six. */
static inline size_t hot_of(uint64_t key)
{
	return (size_t)((key * 0x9e3779b97f4a7c15ull) >> (64 - NHOT_BITS));
}

/* ---- the cache -------------------------------------------------------------- */

struct sf_fpcache *sf_fpcache_new(void)
{
	struct sf_fpcache *c = sf_xcalloc(1, sizeof(*c));

	c->gen = 1;
	return c;
}

void sf_fpcache_free(struct sf_fpcache *c)
{
	if (!c)
		return;
	sf_fpplans_free(&c->plans);
	free(c->v);
	free(c->fp);
	free(c);
}

/* A new generation: every slot stale at once (the hot copies, which
 * have none, stay). */
static void cache_new_gen(struct sf_fpcache *c)
{
	if (++c->gen == 0) {	/* wrapped: stale slots could look current */
		memset(c->v, 0, c->alloc * sizeof(*c->v));
		c->gen = 1;
	}
}

size_t sf_fpcache_fixed(struct sf_fpcache *c, int on)
{
	c->plans.no_fixed = !on;
	return c->plans.nfixed;
}

void sf_fpcache_reset(struct sf_fpcache *c)
{
	/* a table grown for one big unit, used whole, would spread every
	 * later unit's few slots over it: a prefix again (its slots all
	 * stale with the new generation) */
	if (c->cap > SMALL_CACHE)
		c->cap = SMALL_CACHE;
	c->count = c->nfp = 0;
	sf_fpplans_reset(&c->plans);	/* the unit's tables go with it */
	cache_new_gen(c);
	memset(c->hot, 0, sizeof(c->hot));	/* 8 KB, once a unit */
}

/* Where a key's probe starts: by its offset (lib/hash.h), its depth bit
 * and which file left out - the two depths of a DIE side by side. */
static uint64_t slot_of(uint64_t key)
{
	return sf_offset_slot(key & (DEPTH_BIT - 1));
}

/* Put slot x (of the current generation) where a probe for its key in
 * the first cap slots finds it (its digest stays where it is). */
static void cache_place(struct sf_fpcache *c, const struct fpslot *x)
{
	size_t j = slot_of(x->key) & (c->cap - 1);

	while (c->v[j].gen == c->gen)
		j = (j + 1) & (c->cap - 1);
	c->v[j] = *x;
}

/* Twice the slots: within the allocation when it has them (the live
 * slots copied aside, the generation bumped, put back; the hot copies
 * restamped), else in a new one (alloc only grows: what one big unit
 * needed, the next may too - and no page faults again).  The copy aside
 * is made for the grow and freed after it: kept for the next one (half
 * the slots' size) it was a sixth of a big unit's cache, held all run
 * long, 0.2-0.5 MB of each reader at librados' peak. */
static void cache_grow(struct sf_fpcache *c)
{
	size_t ncap = c->cap ? c->cap * 2 : 1024, n = 0;

	if (ncap <= c->alloc) {
		/* not zeroed: written before it is read */
		struct fpslot *spill = sf_xreallocarray(NULL, c->count ? c->count : 1,
							sizeof(*spill));
		for (size_t i = 0; i < c->cap; i++)
			if (c->v[i].gen == c->gen)
				spill[n++] = c->v[i];
		assert(n == c->count && n <= c->alloc / 2);
		cache_new_gen(c);
		c->cap = ncap;
		for (size_t i = 0; i < n; i++) {
			spill[i].gen = c->gen;
			cache_place(c, &spill[i]);
		}
		free(spill);
		return;
	}
	struct fpslot *old = c->v;
	size_t ocap = c->cap;
	c->v = sf_xcalloc_lines(ncap, sizeof(*c->v));	/* four slots a line */
	/* the digests kept (the slots' fpi name them) */
	c->fp = sf_xreallocarray(c->fp, ncap / 2, sizeof(*c->fp));
	c->alloc = c->cap = ncap;
	for (size_t i = 0; i < ocap; i++)
		if (old[i].gen == c->gen)
			cache_place(c, &old[i]);
	free(old);
}

/* The slot of key, made (state NONE) when missing; valid until the next
 * call (the table may grow).  A slot made takes the digest of the same
 * DIE at the other depth when that one is known to be depth-free: both
 * depths probe from one start, so the other is met on the way to the
 * empty slot, at no extra cost.  Inline: fp_ref_table is its one caller
 * (cache_find finds a slot again). */
static inline struct fpslot *cache_slot(struct sf_fpcache *c, uint64_t key)
{
	const struct fpslot *twin = NULL;

	if ((c->count + 1) * 2 > c->cap)
		cache_grow(c);
	size_t j = slot_of(key) & (c->cap - 1);
	for (; c->v[j].gen == c->gen; j = (j + 1) & (c->cap - 1)) {
		if (c->v[j].key == key)
			return &c->v[j];
		if (c->v[j].key == (key ^ DEPTH_BIT))
			twin = &c->v[j];
	}
	struct fpslot *s = &c->v[j];
	if (twin && (twin->bits & FP_SAME)) {
		assert(twin->state == ST_DONE);
		*s = *twin;	/* and its digest, never written again */
	} else {
		assert(c->nfp < c->alloc / 2);	/* nfp <= count < cap / 2 */
		s->fpi = (uint32_t)c->nfp++;	/* written when DONE */
		s->state = ST_NONE;
		s->bits = 0;
	}
	s->key = key;
	s->gen = c->gen;
	c->count++;
	return s;
}

/* The slot of key, made already, after the table grew. */
static struct fpslot *cache_find(struct sf_fpcache *c, uint64_t key)
{
	size_t j = slot_of(key) & (c->cap - 1);

	while (c->v[j].key != key || c->v[j].gen != c->gen) {
		assert(c->v[j].gen == c->gen);
		j = (j + 1) & (c->cap - 1);
	}
	return &c->v[j];
}

struct walk {
	struct sf_fpcache *c;
	const struct sf_ucx *cx;
	uint64_t tag;
	const struct sf_dwsec *strs;  /* NULL: strings by their bytes */
	const struct sf_fp_scope *scope; /* NULL: names are unscoped (C) */
	struct plantab *pt;           /* the plans of cx's abbreviations */
	const unsigned char *base;    /* cx->base: the unit's offsets count from it */
	uint64_t die_start, end;      /* cx->u's: where its DIEs are */
};

/* ---- hashing DIEs ------------------------------------------------------------ */

/* What hash_die needs of a DIE besides its digest. */
struct dview {
	uint64_t off, next;
	uint64_t type, sibling;
	const char *name;       /* its DW_AT_name, when that names a string */
	uint16_t tag;
	uint8_t children;
	uint8_t has_type, has_sibling, declaration;
};

/* The plan of abbreviation `code` (NULL: the table has none). */
static inline const struct plan *plan_of(struct walk *w, uint64_t code)
{
	const struct plantab *t = w->pt;

	if (code < t->ncode && (t->plans[code].flags & PL_BUILT))
		return &t->plans[code];
	return sf_fpplan_find(&w->c->plans, t, code, w->cx, w->strs != NULL, w->tag);
}

/* n (1..8) raw bytes at r, as one value: equal bytes, equal values. */
static inline uint64_t load_raw(struct rd *r, unsigned n, uint64_t mask)
{
	uint64_t v = 0;

	if ((size_t)(r->end - r->p) < n) {
		r->bad = 1;
		r->p = r->end;
		return 0;
	}
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (r->end - r->p >= 8) {
		/* one load, the bytes past n masked off (still in the unit) */
		memcpy(&v, r->p, 8);
		r->p += n;
		return v & mask;
	}
#endif
	(void)mask;
	memcpy(&v, r->p, n);
	r->p += n;
	return v;
}

/* The string of form `form` at r (NULL when out of range), but for
 * DW_FORM_string (OP_STRING). */
static const char *read_str(const struct sf_ucx *cx, struct rd *r, unsigned form)
{
	unsigned os = cx->u->offset_size;

	assert(form != DW_FORM_string);	/* OP_STRING */
	switch (form) {
	case DW_FORM_strp: return sf_ucx_str(cx, rd_u(r, os));
	case DW_FORM_line_strp: return sec_str(&cx->f->sec[SF_SEC_LINE_STR], rd_u(r, os));
	case DW_FORM_strx: case DW_FORM_GNU_str_index: return sf_ucx_strx(cx, rd_uleb(r));
	case DW_FORM_strx1: return sf_ucx_strx(cx, rd_u(r, 1));
	case DW_FORM_strx2: return sf_ucx_strx(cx, rd_u(r, 2));
	case DW_FORM_strx3: return sf_ucx_strx(cx, rd_u(r, 3));
	case DW_FORM_strx4: return sf_ucx_strx(cx, rd_u(r, 4));
	default: {	/* DW_FORM_GNU_strp_alt, DW_FORM_strp_sup */
		uint64_t off = rd_u(r, os);
		return cx->f->alt ? sec_str(&cx->f->alt->sec[SF_SEC_STR], off) : NULL;
	}
	}
}

/* The index a DW_FORM_strx* at r gives. */
static inline uint64_t read_strx_index(struct rd *r, unsigned form)
{
	switch (form) {
	case DW_FORM_strx1: return rd_u(r, 1);
	case DW_FORM_strx2: return rd_u(r, 2);
	case DW_FORM_strx3: return rd_u(r, 3);
	case DW_FORM_strx4: return rd_u(r, 4);
	default:
		assert(form == DW_FORM_strx || form == DW_FORM_GNU_str_index);
		return rd_uleb(r);
	}
}

/* A block: its length and bytes. */
static void feed_block(struct sf_fp *h, struct rd *r, unsigned n)
{
	uint64_t len = n ? rd_u(r, n) : rd_uleb(r);
	const unsigned char *p = r->p;

	rd_skip(r, len);
	if (!r->bad)
		feed_bytes(h, p, len);
}

/* The length of the DW_FORM_string at r, which it passes (-1 when it
 * does not end in the unit: the decoder fails there too). */
static inline long inline_str(struct rd *r)
{
	const unsigned char *z = r->p < r->end ? memchr(r->p, 0, (size_t)(r->end - r->p)) : NULL;

	if (!z) {
		r->bad = 1;
		r->p = r->end;
		return -1;
	}
	long n = z - r->p;
	r->p = z + 1;
	return n;
}

/* A reference n bytes wide at p, as a section offset. */
static inline uint64_t fixed_ref(const unsigned char *p, unsigned n, int rel, uint64_t start)
{
	uint64_t v;

	memcpy(&v, p, 8);
	v &= low_bytes(n);
	return rel ? start + v : v;
}

/* The string a fixed plan's DW_AT_name at p names (NULL: none).  Inline:
 * called for nearly every DIE hashed (6 M members in vmlinux), the call
 * was 1 % of the samples. */
static ALWAYS_INLINE const char *fixed_name(const struct sf_ucx *cx, const struct plan *pl,
					    const unsigned char *p)
{
	uint64_t v = fixed_ref(p, pl->name_n, 0, 0);

	if (pl->name_alt)
		return cx->f->alt ? sec_str(&cx->f->alt->sec[SF_SEC_STR], v) : NULL;
	return sf_ucx_str(cx, v);
}

/* Where a fixed plan's place `at` is: counted from p, or - a PL_STRING
 * plan's place after its string (AFTER) - from q. */
static inline __attribute__((always_inline)) const unsigned char *
str_at(unsigned at, const unsigned char *p, const unsigned char *q, int str)
{
	if (!str)	/* a constant where inlined: no place has AFTER */
		return p + at;
	return (at & AFTER ? q : p) + (at & ~AFTER);
}

/* What a fixed plan's DIE names, refers to and where the next starts,
 * read at its places (str_at): inline into both readers, read_fixed
 * passing str 0 (its places plain offsets from p, q == p). */
static inline __attribute__((always_inline)) void fixed_rest(const struct sf_ucx *cx,
							     const struct plan *pl,
							     const unsigned char *p,
							     const unsigned char *q, int str,
							     struct dview *d)
{
	if (pl->name_at != NO_REF) {
		const char *s = fixed_name(cx, pl, str_at(pl->name_at, p, q, str));
		if (s)
			d->name = s;
	}
	if (pl->decl_at != NO_REF)
		d->declaration |= *str_at(pl->decl_at, p, q, str) != 0;
	if (pl->type_at != NO_REF) {
		d->type = fixed_ref(str_at(pl->type_at, p, q, str), pl->type_n, pl->type_rel,
				    cx->u->start);
		d->has_type = 1;
	}
	if (pl->sib_at != NO_REF) {
		d->sibling = fixed_ref(str_at(pl->sib_at, p, q, str), pl->sib_n, pl->sib_rel,
				       cx->u->start);
		d->has_sibling = 1;
	}
	d->next = (uint64_t)(q + pl->size - cx->base);
}

/* read_die by a PL_FIXED plan: the DIE's bytes past its code at p, with
 * 8 bytes to spare in the unit past them (no bound to check). */
static void read_fixed(const struct walk *w, const struct plan *pl, const unsigned char *p,
		       struct sf_fp *h, struct dview *d)
{
	const struct sf_ucx *cx = w->cx;
	/* (no fvals: the array may be none yet, and NULL + 0 is undefined) */
	const struct fval *f = pl->nfv ? &w->c->plans.fvals[pl->ffirst] : NULL;
	const struct fval *fend = f ? f + pl->nfv : NULL;
	struct sf_fp x = *h;	/* in registers: h may alias what is stored */

	for (; f < fend; f++) {
		uint64_t v;

		memcpy(&v, p + f->off, 8);
		feed(&x, (v & f->mask) | f->imm);
	}
	*h = x;
	fixed_rest(cx, pl, p, p, 0, d);
}

/*
 * read_die by a PL_STRING plan: the DIE's bytes past its code at p, the
 * unit's end at end.  1 (nothing fed) when they are too near the end to
 * read without bounds, or its string does not end there: read_ops then.
 */
static __attribute__((noinline)) int read_fixed_str(const struct walk *w, const struct plan *pl,
						    const unsigned char *p, const unsigned char *end,
						    struct sf_fp *h, struct dview *d)
{
	const struct sf_ucx *cx = w->cx;
	const unsigned char *s = p + pl->str_at, *z, *q;

	/* 8 bytes to spare before the string, and after what follows it */
	if ((size_t)(end - p) < (size_t)pl->str_at + 8 ||
	    !(z = memchr(s, 0, (size_t)(end - s))) || (size_t)(end - z - 1) < (size_t)pl->size + 8)
		return 1;
	q = z + 1;
	const struct fval *f = pl->nfv ? &w->c->plans.fvals[pl->ffirst] : NULL;
	for (unsigned i = 0; i < pl->nfv; i++) {
		uint64_t v;

		if (i == pl->nfv_pre)	/* as OP_STRING feeds it */
			feed_bytes(h, s, (size_t)(z - s));
		memcpy(&v, (i < pl->nfv_pre ? p : q) + f[i].off, 8);
		feed(h, (v & f[i].mask) | f[i].imm);
	}
	if (pl->nfv_pre == pl->nfv)
		feed_bytes(h, s, (size_t)(z - s));
	if (pl->str_name)
		d->name = (const char *)s;
	fixed_rest(cx, pl, p, q, 1, d);
	return 0;
}

/*
 * Read the DIE at off by its abbreviation's plan, feeding its shape and
 * the values the reader decodes into h; d gets the rest.  Fails where
 * sf_die_read fails, and on what the plan rejects.  A null entry feeds
 * nothing (tag 0).
 */
static int read_ops(const struct walk *w, const struct plan *pl, const unsigned char *p,
		    struct sf_fp *h, struct dview *d);

static int read_die(struct walk *w, uint64_t off, struct sf_fp *h, struct dview *d)
{
	if (off < w->die_start || off >= w->end)
		return -1;
	const unsigned char *p = w->base + off, *end = w->base + w->end;
	uint64_t code = *p++;
	if (code >= 0x80) {	/* codes nearly all fit in one byte */
		struct rd r = { p - 1, end, 0, 0 };
		code = rd_uleb(&r);
		if (r.bad)
			return -1;
		p = r.p;
	}
	d->off = off;
	if (code == 0) {	/* every field defined: a type may refer to one */
		memset(d, 0, sizeof(*d));
		d->off = off;
		d->next = (uint64_t)(p - w->base);
		return 0;
	}
	const struct plan *pl = plan_of(w, code);
	if (!pl || (pl->flags & PL_REJECT))
		return -1;
	d->tag = pl->tag;
	d->children = pl->children;
	d->has_type = d->has_sibling = 0;
	d->name = NULL;
	d->declaration = (pl->flags & PL_DECL) != 0;
	feed_fp(h, &pl->shape);
	if ((pl->flags & (PL_FIXED | PL_STRING)) == PL_FIXED &&
	    (size_t)(end - p) >= (size_t)pl->size + 8) {
		read_fixed(w, pl, p, h, d);
		return 0;
	}
	if ((pl->flags & PL_STRING) && read_fixed_str(w, pl, p, end, h, d) == 0)
		return 0;
	return read_ops(w, pl, p, h, d);
}

/* A DW_AT_name's string s (NULL: it names none) read by an op that
 * reads one (is_name). */
static inline void set_name(struct dview *d, int is_name, const char *s)
{
	if (is_name && s)
		d->name = s;
}

/*
 * OP_STRX_LOCAL: a string by its index into .debug_str_offsets, fed as
 * its .debug_str offset (*v), as OP_STRP_LOCAL's is.  -1 when no digest
 * can be made: an index out of range gives all ones, which here names a
 * string.  Inlined: read_ops' hot loop.
 */
static ALWAYS_INLINE int strx_local(const struct walk *w, struct rd *r, const struct op *o,
				    struct dview *d, uint64_t *v)
{
	unsigned os = w->cx->u->offset_size;
	uint64_t off = sf_ucx_stroff(w->cx, read_strx_index(r, o->form));
	const char *s = sf_ucx_str(w->cx, off);

	set_name(d, o->name, s);
	/* a strp out of range names none, as all ones does */
	*v = s ? off : ~0ull >> (64 - 8 * os);
	return !s && *v < w->strs->size ? -1 : 0;
}

/* OP_STRING: an inline string's bytes fed as feed_str feeds them, without
 * strlen.  Inlined: read_ops' hot loop. */
static ALWAYS_INLINE void feed_inline_str(struct rd *r, struct sf_fp *h, struct dview *d,
					  int is_name)
{
	const unsigned char *p = r->p;
	long n = inline_str(r);

	if (n >= 0) {
		set_name(d, is_name, (const char *)p);
		feed_bytes(h, p, (size_t)n);
	}
}

/* read_die past the DIE's code at p, op by op. */
static __attribute__((noinline)) int read_ops(const struct walk *w, const struct plan *pl,
					      const unsigned char *p, struct sf_fp *h,
					      struct dview *d)
{
	const struct sf_ucx *cx = w->cx;
	struct rd r = { p, w->base + w->end, cx->f->msb, 0 };
	unsigned os = cx->u->offset_size;
	const struct op *o = pl->nops ? &w->c->plans.ops[pl->first] : NULL;
	const struct op *oend = o ? o + pl->nops : NULL;
	for (; o < oend; o++) {
		uint64_t v;
		const char *s;

		rd_skip(&r, o->pre);
		/* the ops feeding a value break out of the switch */
		switch (o->kind) {
		case OP_SKIP:
			continue;
		case OP_SKIP_ULEB:
			rd_uleb(&r);
			continue;
		case OP_SKIP_STRING:
			inline_str(&r);
			continue;
		case OP_SKIP_BLOCK:
			v = o->n ? rd_u(&r, o->n) : rd_uleb(&r);
			rd_skip(&r, v);
			continue;
		case OP_RAW:
			v = load_raw(&r, o->n, o->imm);
			break;
		case OP_CONST:
			v = rd_u(&r, o->n);
			break;
		case OP_CONST1:
			v = rd_u(&r, 1);
			break;
		case OP_CONST2:
			v = rd_u(&r, 2);
			break;
		case OP_CONST4:
			v = rd_u(&r, 4);
			break;
		case OP_BOUND:
			v = rd_u(&r, o->n);
			if (v == (1ull << (8 * o->n)) - 1)
				v = ~0ull;
			break;
		case OP_ULEB:
			v = rd_uleb(&r);
			break;
		case OP_SLEB:
			v = (uint64_t)rd_sleb(&r);
			break;
		case OP_IMPLICIT:
			v = o->imm;
			break;
		case OP_DECL:
			v = rd_u(&r, 1);
			d->declaration |= v != 0;
			break;
		case OP_STRP_LOCAL:
			v = rd_u(&r, os);
			set_name(d, o->name, sf_ucx_str(cx, v));
			break;
		case OP_STRP4_LOCAL:
			v = rd_u(&r, 4);
			set_name(d, o->name, sf_ucx_str(cx, v));
			break;
		case OP_STRP_ALT_LOCAL:
			v = rd_u(&r, os);
			set_name(d, o->name,
				 cx->f->alt ? sec_str(&cx->f->alt->sec[SF_SEC_STR], v) : NULL);
			break;
		case OP_STRX_LOCAL:
			if (strx_local(w, &r, o, d, &v) < 0)
				return -1;
			break;
		case OP_STRING:
			feed_inline_str(&r, h, d, o->name);
			continue;
		case OP_STR:
			s = read_str(cx, &r, o->form);
			set_name(d, o->name, s);
			feed_str(h, w->strs, w->tag, s);
			continue;
		case OP_BLOCK:
			feed_block(h, &r, o->n);
			continue;
		case OP_TYPE:
			v = o->n ? rd_u(&r, o->n) : rd_uleb(&r);
			d->type = o->rel ? cx->u->start + v : v;
			d->has_type = 1;
			continue;
		case OP_TYPE4:
			d->type = cx->u->start + rd_u(&r, 4);
			d->has_type = 1;
			continue;
		default:
			assert(o->kind == OP_SIBLING);
			v = o->n ? rd_u(&r, o->n) : rd_uleb(&r);
			d->sibling = o->rel ? cx->u->start + v : v;
			d->has_sibling = 1;
			continue;
		}
		feed(h, v);
	}
	if (r.bad)
		return -1;
	d->next = (uint64_t)(r.p - w->base);
	return 0;
}

/* Where the DIE after d at its level starts, as sf_die_skip says (by a
 * sane DW_AT_sibling, else past its subtree); `end` is that subtree's
 * end when hashing walked it already (0 if not). */
static int next_of(const struct walk *w, const struct dview *d, uint64_t end, uint64_t *next)
{
	if (!d->children) {
		*next = d->next;
		return 0;
	}
	if (d->has_sibling && d->sibling > d->off && d->sibling <= w->cx->u->end) {
		*next = d->sibling;
		return 0;
	}
	if (end) {
		*next = end;
		return 0;
	}
	struct sf_die x = { .off = d->off, .next = d->next, .tag = d->tag,
			    .children = d->children };
	return sf_die_skip(w->cx, &x, next);
}

static inline int fp_ref(struct walk *w, uint64_t off, int depth_kind, unsigned depth,
			 struct sf_fp *out, int *anon);
static int fp_ref_layout(struct walk *w, uint64_t off, unsigned depth, struct sf_fp *out);

static int is_aggregate(unsigned tag)
{
	return tag == DW_TAG_structure_type || tag == DW_TAG_class_type ||
	       tag == DW_TAG_union_type || tag == DW_TAG_interface_type;
}

static int is_pointer(unsigned tag)
{
	return tag == DW_TAG_pointer_type || tag == DW_TAG_reference_type ||
	       tag == DW_TAG_rvalue_reference_type || tag == DW_TAG_ptr_to_member_type;
}

static int in_unit(const struct sf_ucx *cx, uint64_t off)
{
	return off >= cx->u->die_start && off < cx->u->end;
}

/*
 * The fingerprint of the type a DIE of tag `tag` refers to.  Behind a
 * pointer only its spelling counts, unless it is an anonymous aggregate
 * or enum, whose body pahole prints; a function type only spells its
 * return and parameter types.  Everything else passes its depth on.
 * Returns -1, DEPTH_FREE or DEPTH_BOUND (fp_ref) for what the referring
 * DIE's digest gets from here.
 */
static ALWAYS_INLINE int fp_target(struct walk *w, unsigned tag, int depth_kind,
				   uint64_t target, unsigned depth, struct sf_fp *out)
{
	/* the same spelling at either depth; a member (most lookups) is
	 * neither that nor a pointer */
	int spelled = 0, pointer = 0, anon, rc;

	if (tag != DW_TAG_member) {
		spelled = tag == DW_TAG_subroutine_type || tag == DW_TAG_formal_parameter;
		pointer = !spelled && is_pointer(tag);
	}

	/* one lookup, inlined once (this is every member's type) */
	rc = fp_ref(w, target, spelled || pointer ? FP_SPELL : depth_kind, depth, out, &anon);
	if (rc < 0 || !pointer)
		return rc < 0 ? -1 : spelled ? DEPTH_FREE : rc;
	/* only an anonymous target's layout is read, and it differs from
	 * its spelling only when that target is bound */
	if (depth_kind == FP_LAYOUT && anon && fp_ref_layout(w, target, depth, out) < 0)
		return -1;
	return anon && rc == DEPTH_BOUND ? DEPTH_BOUND : DEPTH_FREE;
}

/* Does the reader qualify a DIE of this tag by its scope (rd_die_qname)? */
static int named_by_scope(unsigned tag)
{
	return is_aggregate(tag) || tag == DW_TAG_enumeration_type || tag == DW_TAG_typedef;
}

/* The scope a named type DIE is spelled in, fed after its attributes (w
 * has a scope hook); 0, or -1 when the hook cannot tell. */
static int feed_scope(struct sf_fp *h, const struct walk *w, const struct dview *d)
{
	struct sf_fp sc;

	if (!d->name || !named_by_scope(d->tag))
		return 0;
	if (w->scope->digest(w->scope->ctx, d->off, &sc) < 0)
		return -1;
	feed_fp(h, &sc);
	return 0;
}

static_assert(DW_TAG_member < 64 && DW_TAG_inheritance < 64 && DW_TAG_variant_part < 64,
	      "SF_FP_LAYOUT_TAGS holds every tag");

/*
 * In a scoped unit, step over the child of an aggregate at *off when its
 * layout does not read it (sf_fp_layout_child), as the layout does: 1,
 * *off past it; 0 when it is read (or a null entry); -1 on corrupt
 * DWARF.  Read as sf_die_read_tags reads (only a member decoded: a
 * class's member functions are most of its children), never by its
 * plan: what hashing it would reject (a DW_AT_specification...) does not
 * matter when the layout does not read it.
 */
static int skip_unread_child(struct walk *w, uint64_t *off)
{
	struct sf_die x;

	if (sf_die_read_tags(w->cx, *off, SF_FP_LAYOUT_TAGS, &x) < 0)
		return -1;
	if (x.tag == 0 || sf_fp_layout_child(&x))
		return 0;
	return sf_die_skip(w->cx, &x, off) < 0 ? -1 : 1;
}

static int is_anon(const struct dview *t)
{
	return !t->name && !t->declaration &&
	       (is_aggregate(t->tag) || t->tag == DW_TAG_enumeration_type);
}

/* Hash the type d refers to, if any, into h (depth: d's).  Returns -1,
 * DEPTH_FREE or DEPTH_BOUND (fp_ref).  Inlined into hash_rest's loop
 * over a type's children: a call for each member's type cost 12 pushes
 * and pops. */
static ALWAYS_INLINE int hash_type(struct walk *w, const struct dview *d, int depth_kind,
				   unsigned depth, struct sf_fp *h)
{
	struct sf_fp sub;
	int rc;

	if (!d->has_type)
		return DEPTH_FREE;
	if (d->type < w->die_start || d->type >= w->end ||	/* out of the unit */
	    (rc = fp_target(w, d->tag, depth_kind, d->type, depth + 1, &sub)) < 0)
		return -1;
	feed_fp(h, &sub);
	return rc;
}

/*
 * Hash what the DIE d (read, its attributes fed into h, at most
 * SF_FP_MAX_DEPTH deep) reaches: the type it refers to, its children in
 * order.  At FP_SPELL an aggregate's or enum's children are left out (a
 * spelling does not read them), and a named enum's always: only an
 * anonymous one's enumerators are shown (the kernel's enums run to
 * thousands).  *end gets the end of d's subtree when its children were
 * hashed (0 if not).  Returns -1, DEPTH_FREE or DEPTH_BOUND (fp_ref).
 */
static int hash_rest(struct walk *w, const struct dview *d, int depth_kind, unsigned depth,
		     struct sf_fp *h, uint64_t *end)
{
	int bound, rc;

	*end = 0;
	if ((bound = hash_type(w, d, depth_kind, depth, h)) < 0)
		return -1;
	if (!d->children || (d->tag == DW_TAG_enumeration_type && d->name))
		return bound;	/* no children read, at either depth */
	if (is_aggregate(d->tag) || d->tag == DW_TAG_enumeration_type) {
		/* the spelling leaves them out, the layout reads them */
		if (depth_kind == FP_SPELL)
			return DEPTH_BOUND;
		bound = DEPTH_BOUND;
	}
	/* a function type's parameters: the same spellings at either depth
	 * (what they return binds nothing: `keep` masks it off) */
	int free_children = d->tag == DW_TAG_subroutine_type;
	int keep = free_children ? 0 : DEPTH_BOUND;
	if (free_children)
		depth_kind = FP_SPELL;
	/* in a scoped unit, of an aggregate's children only those its
	 * layout reads are hashed (sf_fp_layout_child).  The loop's tests
	 * in locals: read_die may write through w, so w->scope would be
	 * loaded again for every child */
	const int scoped = w->scope != NULL;
	const int filter = scoped && is_aggregate(d->tag);
	const int too_deep = depth + 1 > SF_FP_MAX_DEPTH;
	for (uint64_t off = d->next;;) {
		struct dview c;
		uint64_t cend;

		if (filter && (rc = skip_unread_child(w, &off)) != 0) {
			if (rc < 0)
				return -1;
			continue;	/* stepped over, as the layout does */
		}
		if (read_die(w, off, h, &c) < 0)
			return -1;
		if (scoped && c.tag != 0 && feed_scope(h, w, &c) < 0)
			return -1;
		if (c.tag == 0) {
			feed(h, 0);	/* the end of the children */
			*end = c.next;
			return bound;
		}
		if (too_deep)
			return -1;
		if (!c.children) {
			/* a member, an enumerator, a parameter: its type is
			 * all there is to it (no call into hash_rest) */
			rc = hash_type(w, &c, depth_kind, depth + 1, h);
			off = c.next;
		} else if ((rc = hash_rest(w, &c, depth_kind, depth + 1, h, &cend)) >= 0 &&
			   next_of(w, &c, cend, &off) < 0) {
			rc = -1;
		}
		if (rc < 0)
			return -1;
		bound |= rc & keep;	/* rc: DEPTH_FREE or DEPTH_BOUND */
	}
}

/* A named struct, class or union: spelled by its name alone. */
static int named_aggregate(const struct dview *d)
{
	return d->name && is_aggregate(d->tag);
}

/*
 * The spelling (FP_SPELL) of a named struct, class or union d reached
 * by reference, in place of what read_die fed into h: its tag, name and
 * scope, and nothing else - all that a pointer, a parameter or a typedef
 * spelled through it reads of it (types.c: pointer_type reads the
 * target's left and right spellings and its FUNC, ARRAY, PTR and ANON
 * flags, which for a named aggregate are "struct NAME", "" and none).  So
 * a pointer to `struct device` hashes alike in a unit that defines the
 * struct and in one that only declares it (or declares it on another
 * line), and the structs holding one are laid out once, not once for
 * each: vmlinux, show -j1, 1,343 more of 645,224 types skipped and
 * rd_layout called 43,374 -> 33,147 times, the same output.  Its layout
 * (FP_LAYOUT) is all of it, as before.  The two differ, so a named
 * aggregate is never depth-free (fp_ref_table: a declaration, childless,
 * would be).
 */
static int spell_named_aggregate(struct walk *w, const struct dview *d, struct sf_fp *h)
{
	struct sf_fp n = { 0x9216d5d98979fb1bull, 0xd1310ba698dfb5acull };

	feed(&n, d->tag);
	feed_str(&n, w->strs, w->tag, d->name);
	if (w->scope && feed_scope(&n, w, d) < 0)
		return -1;
	*h = n;
	return DEPTH_BOUND;
}

/* fp_ref past its hot slot: the table, and hashing the DIE when it is
 * not there. */
static int fp_ref_table(struct walk *w, uint64_t key, unsigned depth, struct sf_fp *out,
			int *anon)
{
	struct fpslot *s = cache_slot(w->c, key);
	struct fphot *hot = &w->c->hot[hot_of(key)];
	/* what the key holds (fp_ref): fewer arguments to pass */
	uint64_t off = key & (DEPTH_BIT - 1);	/* the tag is the bits above */
	int depth_kind = key & DEPTH_BIT ? FP_LAYOUT : FP_SPELL;
	struct dview d;
	uint64_t end;

	*anon = s->bits & FP_ANON;
	if (s->state == ST_DONE) {
		hot->key = key;
		hot->anon = *anon;
		hot->same = s->bits & FP_SAME;
		hot->fp = *out = w->c->fp[s->fpi];
		return hot->same ? DEPTH_FREE : DEPTH_BOUND;
	}
	if (s->state != ST_NONE || depth > SF_FP_MAX_DEPTH)
		return -1;	/* a cycle, or known to have none */
	s->state = ST_BUSY;
	struct sf_fp h = { 0x243f6a8885a308d3ull, 0x13198a2e03707344ull };
	size_t cap = w->c->cap;
	/* a null entry (corrupt: a type reference to one) hashes as 0; the
	 * scope of a named type is fed here, for a DIE reached by reference,
	 * and by hash_rest for one hashed as a child */
	int rc = read_die(w, off, &h, &d) < 0 ? -1 :
		 d.tag == 0 ? (feed(&h, 0), DEPTH_FREE) :
		 depth_kind == FP_SPELL && named_aggregate(&d) ? spell_named_aggregate(w, &d, &h) :
		 w->scope && feed_scope(&h, w, &d) < 0 ? -1 :
		 /* a pointer, a typedef, a base type: hash_rest's first step
		  * is all there is (no call) */
		 !d.children ? hash_type(w, &d, depth_kind, depth, &h) :
		 hash_rest(w, &d, depth_kind, depth, &h, &end);
	if (rc == DEPTH_FREE && named_aggregate(&d))
		rc = DEPTH_BOUND;	/* its spelling is not its layout */
	if (w->c->cap != cap)
		s = cache_find(w->c, key);	/* the table grew: slots moved */
	assert(s->key == key && s->state == ST_BUSY);
	s->state = rc < 0 ? ST_FAILED : ST_DONE;
	*anon = rc >= 0 && is_anon(&d);
	s->bits = (uint8_t)((rc == DEPTH_FREE ? FP_SAME : 0) | (*anon ? FP_ANON : 0));
	/* h was just fed a lane at a time (8-byte stores): copied by one
	 * 16-byte load, that load would wait for both stores to reach the
	 * cache (no store-to-load forwarding across two stores) */
	uint64_t ha = h.a, hb = h.b;
	__asm__("" : "+r"(ha), "+r"(hb));	/* keeps them two 8-byte loads */
	struct sf_fp *fp = &w->c->fp[s->fpi];
	fp->a = out->a = ha;
	fp->b = out->b = hb;
	return rc;
}

/* The fingerprint of the type DIE at off, at depth_kind, cached; *anon
 * whether it is an anonymous aggregate or enum.  Returns -1 (none),
 * DEPTH_FREE (the digest is the same at the other depth: nothing on the
 * way depends on it) or DEPTH_BOUND.  Inline up to the hot slot. */
static inline int fp_ref(struct walk *w, uint64_t off, int depth_kind, unsigned depth,
			 struct sf_fp *out, int *anon)
{
	uint64_t key = off | w->tag | (depth_kind == FP_LAYOUT ? DEPTH_BIT : 0);
	const struct fphot *hot = &w->c->hot[hot_of(key)];

	assert(key != 0);	/* a hot copy's key 0 is none */
	if (hot->key == key) {
		*anon = hot->anon;
		*out = hot->fp;
		return hot->same ? DEPTH_FREE : DEPTH_BOUND;
	}
	return fp_ref_table(w, key, depth, out, anon);
}

/* fp_ref at FP_LAYOUT, out of line: a pointer's anonymous target. */
static int fp_ref_layout(struct walk *w, uint64_t off, unsigned depth, struct sf_fp *out)
{
	int anon;

	return fp_ref(w, off, FP_LAYOUT, depth, out, &anon);
}

struct sf_fp sf_fp_str(const char *s)
{
	struct sf_fp h = { 0xa4093822299f31d0ull, 0x082efa98ec4e6c89ull };

	feed_str(&h, NULL, 0, s);
	return h;
}

int sf_fp_type(struct sf_fpcache *c, const struct sf_ucx *cx, uint64_t tag, uint64_t off,
	       int local, const struct sf_fp_scope *scope, struct sf_fp *out)
{
	struct walk w = { c, cx, tag, local ? &cx->f->sec[SF_SEC_STR] : NULL, scope, NULL,
			  cx->base, cx->u->die_start, cx->u->end };
	int anon;

	if (!in_unit(cx, off))
		return -1;
	/* every offset looked up is in the unit: none reaches the key's
	 * depth bit, nor (tag) the bits above */
	assert(cx->u->end <= DEPTH_BIT && !(tag & (DEPTH_BIT | (DEPTH_BIT - 1))));
	w.pt = sf_fpplans_for(&c->plans, cx, local);
	return fp_ref(&w, off, FP_LAYOUT, 0, out, &anon) < 0 ? -1 : 0;
}

struct sf_fp sf_fp_key(const struct sf_fp *def, const char *name,
		       const struct sf_dwsec *strs, uint64_t tag, int is_typedef,
		       unsigned lang, unsigned addr_size, int msb, unsigned machine)
{
	struct sf_fp h = { 0x452821e638d01377ull, 0xbe5466cf34e90c6cull };

	feed_fp(&h, def);
	feed_str(&h, strs, tag, name);	/* a C name: no strlen (645 K in vmlinux) */
	feed(&h, ((uint64_t)(is_typedef != 0) << 40) | ((uint64_t)(msb != 0) << 32) |
		 ((uint64_t)(addr_size & 0xff) << 16) | (lang & 0xffff));
	feed(&h, machine);
	h.a |= 1;	/* never the empty key */
	return h;
}
