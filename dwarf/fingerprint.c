/*
 * fingerprint.c - digests of aggregate definitions (see fingerprint.h).
 *
 *   sf_fpcache: (DIE key -> state and fingerprint, per depth) in an
 *               open-addressed table of generation-stamped slots; a new
 *               unit bumps the generation instead of clearing the table.
 *               A slot being hashed is BUSY: meeting it again is a cycle.
 *               A DIE hashed alike at both depths marks its slot `same`,
 *               and the other depth's slot, when made, copies it.
 *   sf_fpset:   open-addressed set of 128-bit keys.
 *
 * A digest has two 64-bit lanes, each its own mix of every value fed in
 * (a multiply-xorshift and a multiply-rotate, different constants), so a
 * false match needs both to collide at once.  Strings are fed by length
 * and bytes, a DIE by its tag, its flags of present attributes and each
 * present value, a reference by the digest of what it names, children in
 * order: a digest is a function of what the reader reads, never of where
 * in the section it sits.
 */
#include "fingerprint.h"

#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <dwarf.h>

#include "lib/hash.h"
#include "lib/xalloc.h"

enum { ST_NONE = 0, ST_BUSY, ST_DONE, ST_FAILED };

/* slots kept from one unit to the next (512 KB) */
#define SMALL_CACHE 16384u

/* A DIE at one depth (the key's bit 61): 32 bytes, two to a cache line. */
struct fpslot {
	uint64_t key;
	uint32_t gen;
	uint8_t state;
	uint8_t anon;           /* an anonymous aggregate or enum (once read) */
	uint8_t same;           /* DONE, and the digest is the same at both depths */
	struct sf_fp fp;
};

#define DEPTH_BIT (1ull << 61)

/* What a digest owes its depth (besides -1, none): DEPTH_FREE when the
 * DIE hashes alike at both (a base type, a pointer to a named struct, a
 * typedef of one of those), so the other depth takes it as is. */
enum { DEPTH_FREE = 0, DEPTH_BOUND = 1 };

struct sf_fpcache {
	struct fpslot *v;
	size_t cap, count;
	uint32_t gen;
};

/* ---- the digest ----------------------------------------------------------- */

static void feed(struct sf_fp *h, uint64_t v)
{
	h->a = (h->a ^ v) * 0xbf58476d1ce4e5b9ull;
	h->a ^= h->a >> 31;
	h->b = (h->b + v) * 0x94d049bb133111ebull;
	h->b = (h->b << 23) | (h->b >> 41);
}

/* set in the one word that feeds a string by its offset: no length is
 * that long; `tag` (which file) holds the two bits above */
#define STR_BIT (1ull << 61)

/* A string of .debug_str by its offset (strs: the section of the unit
 * being hashed, `tag` which file that is - the reader's or its dwz alt
 * file), any other by its bytes. */
static void feed_str(struct sf_fp *h, const struct sf_dwsec *strs, uint64_t tag,
		     const char *s)
{
	if (!s) {
		feed(h, ~0ull);	/* no name is not the empty name */
		return;
	}
	if (strs && (const unsigned char *)s >= strs->data &&
	    (const unsigned char *)s < strs->data + strs->size) {
		uint64_t off = (uint64_t)((const unsigned char *)s - strs->data);
		/* the linker merges .debug_str: one string, one offset; a
		 * string kept twice only costs a match.  One feed: STR_BIT
		 * tells it from a length (below it) and from no name (the
		 * offset bits all set) */
		if (off < STR_BIT - 1) {
			feed(h, STR_BIT | tag | off);
			return;
		}
	}
	size_t n = strlen(s);
	uint64_t w;

	feed(h, n);
	/* a word at a time, into both lanes: one pass over the bytes */
	for (; n >= 8; s += 8, n -= 8) {
		memcpy(&w, s, 8);
		feed(h, w);
	}
	if (n) {
		w = 0;
		memcpy(&w, s, n);
		feed(h, w);
	}
}

static inline void feed_fp(struct sf_fp *h, const struct sf_fp *x)
{
	feed(h, x->a);
	feed(h, x->b);
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
	free(c->v);
	free(c);
}

void sf_fpcache_reset(struct sf_fpcache *c)
{
	/* a table grown for one big unit, kept, would spread every later
	 * unit's few slots over megabytes: start small again */
	if (c->cap > SMALL_CACHE) {
		free(c->v);
		c->v = NULL;
		c->cap = 0;
	}
	c->count = 0;
	if (++c->gen == 0) {	/* wrapped: stale slots could look current */
		memset(c->v, 0, c->cap * sizeof(*c->v));
		c->gen = 1;
	}
}

/* Where a key's probe starts: by its offset (lib/hash.h), its depth bit
 * and which file left out - the two depths of a DIE side by side. */
static uint64_t slot_of(uint64_t key)
{
	return sf_offset_slot(key & (DEPTH_BIT - 1));
}

static void cache_grow(struct sf_fpcache *c)
{
	size_t ncap = c->cap ? c->cap * 2 : 1024;
	struct fpslot *n = sf_xcalloc(ncap, sizeof(*n));

	for (size_t i = 0; i < c->cap; i++) {
		if (c->v[i].gen != c->gen)
			continue;
		size_t j = slot_of(c->v[i].key) & (ncap - 1);
		while (n[j].gen == c->gen)
			j = (j + 1) & (ncap - 1);
		n[j] = c->v[i];
	}
	free(c->v);
	c->v = n;
	c->cap = ncap;
}

/* The slot of key, made (state NONE) when missing; valid until the next
 * call (the table may grow).  A slot made takes the digest of the same
 * DIE at the other depth when that one is known to be depth-free: both
 * depths probe from one start, so the other is met on the way to the
 * empty slot, at no extra cost. */
static struct fpslot *cache_slot(struct sf_fpcache *c, uint64_t key)
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
	if (twin && twin->same) {
		assert(twin->state == ST_DONE);
		c->v[j] = *twin;
	} else {
		memset(&c->v[j], 0, sizeof(c->v[j]));
	}
	c->v[j].key = key;
	c->v[j].gen = c->gen;
	c->count++;
	return &c->v[j];
}

/* ---- hashing DIEs ------------------------------------------------------------ */

struct walk {
	struct sf_fpcache *c;
	const struct sf_ucx *cx;
	uint64_t tag;
	const struct sf_dwsec *strs;  /* NULL: strings by their bytes */
	const struct sf_fp_scope *scope; /* NULL: names are unscoped (C) */
};

static int fp_ref(struct walk *w, uint64_t off, int depth_kind, unsigned depth,
		  struct sf_fp *out, int *anon);
static int hash_scoped_children(struct walk *w, const struct sf_die *d, int depth_kind,
				unsigned depth, struct sf_fp *h, int bound, int free_children);
static int hash_die(struct walk *w, const struct sf_die *d, int depth_kind, unsigned depth,
		    struct sf_fp *h);

/* Hash child c of a DIE at depth into h, and set *off past it: hash_die's
 * result, or -1. */
static inline int hash_child(struct walk *w, const struct sf_die *c, int depth_kind,
			     unsigned depth, struct sf_fp *h, uint64_t *off)
{
	int rc = hash_die(w, c, depth_kind, depth + 1, h);

	return rc < 0 || sf_die_skip(w->cx, c, off) < 0 ? -1 : rc;
}

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
static int fp_target(struct walk *w, unsigned tag, int depth_kind, uint64_t target,
		     unsigned depth, struct sf_fp *out)
{
	int anon, rc;

	if (tag == DW_TAG_subroutine_type || tag == DW_TAG_formal_parameter)
		/* the same spelling at either depth */
		return fp_ref(w, target, FP_SPELL, depth, out, &anon) < 0 ? -1 : DEPTH_FREE;
	if (!is_pointer(tag))
		return fp_ref(w, target, depth_kind, depth, out, &anon);
	if ((rc = fp_ref(w, target, FP_SPELL, depth, out, &anon)) < 0)
		return -1;
	/* only an anonymous target's layout is read, and it differs from
	 * its spelling only when that target is bound */
	if (depth_kind == FP_LAYOUT && anon &&
	    fp_ref(w, target, FP_LAYOUT, depth, out, &anon) < 0)
		return -1;
	return anon && rc == DEPTH_BOUND ? DEPTH_BOUND : DEPTH_FREE;
}

/* Does the reader qualify a DIE of this tag by its scope (rd_die_qname)? */
static int named_by_scope(unsigned tag)
{
	return is_aggregate(tag) || tag == DW_TAG_enumeration_type || tag == DW_TAG_typedef;
}

/* The scope a named type DIE is spelled in (w has a scope hook); 0, or
 * -1 when the hook cannot tell. */
static int feed_scope(struct sf_fp *h, const struct walk *w, const struct sf_die *d)
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

static int is_anon(const struct sf_die *t)
{
	return !t->name && !(t->has & SF_A_DECLARATION) &&
	       (is_aggregate(t->tag) || t->tag == DW_TAG_enumeration_type);
}

/* The values of d's attributes the reader decodes (sf_die), references
 * left to the caller. */
static void feed_attrs(struct sf_fp *h, const struct walk *w, const struct sf_die *d)
{
	/* few feeds, each packing fields without overlap: a feed is a
	 * serial chain of multiplies, the digest's main cost per DIE */
	assert(d->has2 < 256);
	/* DW_AT_sibling only says where the next DIE is */
	feed(h, ((uint64_t)(d->has & ~SF_A_SIBLING) << 32) | ((uint64_t)d->tag << 16) |
		 ((uint64_t)d->has2 << 8) | d->children);
	feed_str(h, w->strs, w->tag, d->name);
	feed(h, d->byte_size);
	feed(h, ((uint64_t)d->encoding << 32) | d->decl_line);
	if (d->has & SF_A_BIT_SIZE)
		feed(h, d->bit_size);
	if (d->has & SF_A_DATA_BIT_OFFSET)
		feed(h, d->data_bit_offset);
	if (d->has & SF_A_BIT_OFFSET)
		feed(h, d->bit_offset);
	if (d->has & SF_A_MEMBER_LOC)
		feed(h, d->member_loc);
	if (d->has & SF_A_ALIGNMENT)
		feed(h, d->alignment);
	if (d->has & SF_A_COUNT)
		feed(h, d->count);
	if (d->has & SF_A_UPPER_BOUND)
		feed(h, (uint64_t)d->upper_bound);
	if (d->has & SF_A_LOWER_BOUND)
		feed(h, (uint64_t)d->lower_bound);
	if (d->has & SF_A_VIRTUALITY)
		feed(h, d->virtuality);
	if (d->has & SF_A_CONST_VALUE)
		feed(h, d->const_value);
	if (d->has2 & SF_A2_DISCR_VALUE)
		feed(h, d->discr_value);
}

/*
 * Hash the DIE d (already read) and what it reaches into h: its
 * attributes, the type it refers to, its children in order.  At FP_SPELL
 * an aggregate's or enum's children are left out (a spelling does not
 * read them), and a named enum's always: only an anonymous one's
 * enumerators are shown (the kernel's enums run to thousands).
 * Returns -1, DEPTH_FREE or DEPTH_BOUND (fp_ref).
 */
static int hash_die(struct walk *w, const struct sf_die *d, int depth_kind, unsigned depth,
		    struct sf_fp *h)
{
	struct sf_fp sub;
	struct sf_die c;
	int bound = DEPTH_FREE, rc;

	if (depth > SF_FP_MAX_DEPTH ||
	    (d->has & (SF_A_SIGNATURE | SF_A_SIG8 | SF_A_ALT | SF_A_SPECIFICATION)) ||
	    (d->has2 & (SF_A2_IMPORT | SF_A2_IMPORT_ALT)))
		return -1;
	feed_attrs(h, w, d);
	if (d->has & SF_A_TYPE) {
		if (!in_unit(w->cx, d->type) ||
		    (rc = fp_target(w, d->tag, depth_kind, d->type, depth + 1, &sub)) < 0)
			return -1;
		bound |= rc;
		feed_fp(h, &sub);
	}
	if (!d->children || (d->tag == DW_TAG_enumeration_type && d->name))
		return bound;	/* no children read, at either depth */
	if (is_aggregate(d->tag) || d->tag == DW_TAG_enumeration_type) {
		/* the spelling leaves them out, the layout reads them */
		if (depth_kind == FP_SPELL)
			return DEPTH_BOUND;
		bound = DEPTH_BOUND;
	}
	/* a function type's parameters: the same spellings at either depth */
	int free_children = d->tag == DW_TAG_subroutine_type;
	if (free_children)
		depth_kind = FP_SPELL;
	if (w->scope)
		return hash_scoped_children(w, d, depth_kind, depth, h, bound, free_children);
	for (uint64_t off = d->next;;) {
		if (sf_die_read(w->cx, off, &c) < 0)
			return -1;
		if (c.tag == 0)
			break;
		if ((rc = hash_child(w, &c, depth_kind, depth, h, &off)) < 0)
			return -1;
		bound |= free_children ? 0 : rc;
	}
	feed(h, 0);	/* end of the children */
	return bound;
}

/*
 * hash_die's loop over d's children in a scoped unit (C's stays as plain
 * as it was: the digest's hottest loop): a named type among them gets its
 * scope, and of an aggregate's only those its layout reads are hashed,
 * the others stepped over alike (sf_fp_layout_child).  Never inlined:
 * in hash_die, its second decoder cost every C run 0.3 % (vmlinux).
 */
__attribute__((noinline))
static int hash_scoped_children(struct walk *w, const struct sf_die *d, int depth_kind,
				unsigned depth, struct sf_fp *h, int bound, int free_children)
{
	int filter = is_aggregate(d->tag), rc;
	struct sf_die c;

	for (uint64_t off = d->next;;) {
		/* a class's member functions are most of its children: only
		 * stepped over (read as far as that needs) */
		if ((filter ? sf_die_read_tags(w->cx, off, SF_FP_LAYOUT_TAGS, &c)
			    : sf_die_read(w->cx, off, &c)) < 0)
			return -1;
		if (c.tag == 0)
			break;
		if (filter && !sf_fp_layout_child(&c)) {
			if (sf_die_skip(w->cx, &c, &off) < 0)
				return -1;
			continue;
		}
		if (feed_scope(h, w, &c) < 0 ||
		    (rc = hash_child(w, &c, depth_kind, depth, h, &off)) < 0)
			return -1;
		if (!free_children)
			bound |= rc;
	}
	feed(h, 0);	/* end of the children */
	return bound;
}

/* The fingerprint of the type DIE at off, at depth_kind, cached; *anon
 * whether it is an anonymous aggregate or enum.  Returns -1 (none),
 * DEPTH_FREE (the digest is the same at the other depth: nothing on the
 * way depends on it) or DEPTH_BOUND. */
static int fp_ref(struct walk *w, uint64_t off, int depth_kind, unsigned depth,
		  struct sf_fp *out, int *anon)
{
	uint64_t key = off | w->tag | (depth_kind == FP_LAYOUT ? DEPTH_BIT : 0);
	struct fpslot *s = cache_slot(w->c, key);
	struct sf_die d;

	assert(off < DEPTH_BIT);
	*anon = s->anon;
	if (s->state == ST_DONE) {
		*out = s->fp;
		return s->same ? DEPTH_FREE : DEPTH_BOUND;
	}
	if (s->state != ST_NONE || depth > SF_FP_MAX_DEPTH)
		return -1;	/* a cycle, or known to have none */
	s->state = ST_BUSY;
	struct sf_fp h = { 0x243f6a8885a308d3ull, 0x13198a2e03707344ull };
	size_t cap = w->c->cap;
	/* the scope of a named type: fed here, for a DIE reached by
	 * reference, and by hash_die for one hashed as a child */
	int rc = sf_die_read(w->cx, off, &d) < 0 || (w->scope && feed_scope(&h, w, &d) < 0)
		 ? -1 : hash_die(w, &d, depth_kind, depth, &h);
	if (w->c->cap != cap)
		s = cache_slot(w->c, key);	/* the table grew: slots moved */
	assert(s->key == key && s->state == ST_BUSY);
	s->state = rc < 0 ? ST_FAILED : ST_DONE;
	s->same = rc == DEPTH_FREE;
	s->anon = *anon = rc >= 0 && is_anon(&d);
	s->fp = h;
	*out = h;
	return rc;
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
	struct walk w = { c, cx, tag, local ? &cx->f->sec[SF_SEC_STR] : NULL, scope };
	int anon;

	if (!in_unit(cx, off))
		return -1;
	return fp_ref(&w, off, FP_LAYOUT, 0, out, &anon) < 0 ? -1 : 0;
}

struct sf_fp sf_fp_key(const struct sf_fp *def, const char *name, int is_typedef,
		       unsigned lang, unsigned addr_size, int msb, unsigned machine)
{
	struct sf_fp h = { 0x452821e638d01377ull, 0xbe5466cf34e90c6cull };

	feed_fp(&h, def);
	feed_str(&h, NULL, 0, name);
	feed(&h, ((uint64_t)(is_typedef != 0) << 40) | ((uint64_t)(msb != 0) << 32) |
		 ((uint64_t)(addr_size & 0xff) << 16) | (lang & 0xffff));
	feed(&h, machine);
	h.a |= 1;	/* never the empty key */
	return h;
}

/* ---- the set of keys laid out ------------------------------------------------ */

struct sf_fpset {
	struct sf_fp *v;
	size_t cap, count;
};

struct sf_fpset *sf_fpset_new(void)
{
	return sf_xcalloc(1, sizeof(struct sf_fpset));
}

void sf_fpset_free(struct sf_fpset *s)
{
	if (!s)
		return;
	free(s->v);
	free(s);
}

static int empty(const struct sf_fp *k)
{
	return !k->a && !k->b;
}

int sf_fpset_has(const struct sf_fpset *s, const struct sf_fp *k)
{
	if (!s || !s->cap)
		return 0;
	for (size_t j = k->b & (s->cap - 1); !empty(&s->v[j]); j = (j + 1) & (s->cap - 1))
		if (s->v[j].a == k->a && s->v[j].b == k->b)
			return 1;
	return 0;
}

static void set_grow(struct sf_fpset *s)
{
	size_t ncap = s->cap ? s->cap * 2 : 1024;
	struct sf_fp *n = sf_xcalloc(ncap, sizeof(*n));

	for (size_t i = 0; i < s->cap; i++) {
		if (empty(&s->v[i]))
			continue;
		size_t j = s->v[i].b & (ncap - 1);
		while (!empty(&n[j]))
			j = (j + 1) & (ncap - 1);
		n[j] = s->v[i];
	}
	free(s->v);
	s->v = n;
	s->cap = ncap;
}

void sf_fpset_add(struct sf_fpset *s, const struct sf_fp *k)
{
	assert(!empty(k));
	if ((s->count + 1) * 2 > s->cap)
		set_grow(s);
	size_t j = k->b & (s->cap - 1);
	for (; !empty(&s->v[j]); j = (j + 1) & (s->cap - 1))
		if (s->v[j].a == k->a && s->v[j].b == k->b)
			return;
	s->v[j] = *k;
	s->count++;
}

void sf_fpset_add_all(struct sf_fpset *dst, const struct sf_fpset *src)
{
	for (size_t i = 0; src && i < src->cap; i++)
		if (!empty(&src->v[i]))
			sf_fpset_add(dst, &src->v[i]);
}

size_t sf_fpset_count(const struct sf_fpset *s)
{
	return s ? s->count : 0;
}

/* ---- shared between threads ---------------------------------------------------- */

struct sf_fpshared {
	pthread_mutex_t mu;
	struct sf_fpset set;
	struct sf_fpshared *parent;
};

struct sf_fpshared *sf_fpshared_new(struct sf_fpshared *parent)
{
	struct sf_fpshared *s = sf_xcalloc(1, sizeof(*s));

	pthread_mutex_init(&s->mu, NULL);
	s->parent = parent;
	return s;
}

void sf_fpshared_free(struct sf_fpshared *s)
{
	if (!s)
		return;
	pthread_mutex_destroy(&s->mu);
	free(s->set.v);
	free(s);
}

int sf_fpshared_has(struct sf_fpshared *s, const struct sf_fp *k)
{
	int hit = 0;

	for (; s && !hit; s = s->parent) {
		pthread_mutex_lock(&s->mu);
		hit = sf_fpset_has(&s->set, k);
		pthread_mutex_unlock(&s->mu);
	}
	return hit;
}

void sf_fpshared_add_shared(struct sf_fpshared *dst, struct sf_fpshared *src)
{
	/* the only place two locks are held, always src's first */
	pthread_mutex_lock(&src->mu);
	sf_fpshared_add_all(dst, &src->set);
	pthread_mutex_unlock(&src->mu);
}

void sf_fpshared_add_all(struct sf_fpshared *s, const struct sf_fpset *src)
{
	pthread_mutex_lock(&s->mu);
	sf_fpset_add_all(&s->set, src);
	pthread_mutex_unlock(&s->mu);
}
