/*
 * typeset.c - deduplicating type set: arena, string pool, two hash tables.
 *
 * Memory layout:
 *
 *   arena:   chunk -> chunk -> ...   each chunk a header + bump area; every
 *            sf_type, member array and interned string is carved from it.
 *   strings: open-addressed table of (low 32 bits of the hash, index + 1
 *            into strv) slots, load <= 3/4; strv holds the interned
 *            strings in the order interned.  8-byte slots, not 16: the
 *            table is probed at random, mostly to insert (a miss each).
 *            A spelling "struct X" ("class ", "union ", "enum ") shares
 *            its bytes with the name X: X, when it is not interned yet,
 *            is the spelling's tail (strv points into it), and a type's
 *            name is interned through its spelling (intern_type_name).
 *            Every type is named both ways, by its name and by the
 *            members of its type, and C++ names run to kilobytes: such
 *            pairs were 46 % of a libceph-common run's 20 MB of strings.
 *   types:   sf_type* array in insertion order.
 *   by_hash: open-addressed table of (definition hash, type index) slots.
 *   by_name: open-addressed table of (name hash, type index) slots keyed
 *            by name and namespace (the first type of each), used for
 *            lookup and for variant marking.  C keeps tags (`struct x`, `union x`) and
 *            ordinary identifiers (typedef names) apart: `union dtv` and
 *            `typedef struct {...} dtv` are two names, never variants.
 *   next_named: parallel to types[]: index + 1 of the next type with the
 *            same name in the same namespace (0 at the end), so every
 *            definition of a name is reached without scanning the types
 *            in between.
 *
 * Hash tables store index + 1 so that 0 means an empty slot, beside the
 * hash: a probe compares hashes in the slot itself and touches a type
 * only on a match (one cache line per probe, not a pointer chase into
 * the types).  Capacities are powers of two; probing is linear.
 *
 * Two hashes: sf_type_hash() (FNV-1a over a definition) is part of the
 * output - holes ranks ties by it, HTML ids carry it - so it never
 * changes; the pool's and the name table's are lib/hash.h's word-at-a-time
 * hash, which only places slots.  Type names are hashed and compared in
 * their canonical spelling (spelling.h: gcc's, so gcc-built types hash as
 * before), so one header built by gcc and by clang is one definition; the
 * first spelling seen is the one kept and printed.
 */
#include "typeset.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "lib/hash.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "spelling.h"

/*
 * An arena's chunks double from ARENA_FIRST to ARENA_CHUNK: a reader's
 * typesets of a small unit (its pending types, its few new ones) held a
 * 256 KiB chunk each, resident on a huge-page heap, while they waited to
 * be merged (librados: half a megabyte for each run read behind its
 * biggest unit).  A large arena stays at 256 KiB too: the output's
 * typeset, which grows all run long, took 2 MiB chunks that no hole the
 * readers' freed chunks left could hold, so the heap grew past them
 * (show's peak: librados 37.8 -> 36.0 MB, vmlinux 203.5 -> 200.7 MB,
 * the same time; its huge pages come from the heap, main.c).
 */
#define ARENA_FIRST (16u * 1024u)
#define ARENA_CHUNK (256u * 1024u)

/* Type flags that are part of a definition (not of where it was seen). */
#define DEF_FLAGS (SF_TF_PACKED | SF_TF_ALIGNED | SF_TF_INCOMPLETE | SF_TF_TYPEDEF)

struct arena_chunk {
	struct arena_chunk *next;
	size_t used;
	size_t cap;
	max_align_t data[];
};

struct strslot {
	uint32_t hash;          /* low bits of the string's hash: places it */
	uint32_t idx;           /* index + 1 into strv, 0 when empty */
};

/* A slot of by_hash / by_name: idx is a type index + 1, 0 when empty. */
struct tslot {
	uint64_t hash;
	uint32_t idx;
};

struct sf_typeset {
	struct arena_chunk *chunks;
	size_t arena_bytes;

	struct strslot *strs;
	size_t nstrs, strcap;
	const char **strv;      /* nstrs interned strings, strcap * 3/4 room */

	struct sf_type **types;
	uint32_t *next_named;
	size_t ntypes, typecap, nextcap;

	struct tslot *by_hash;
	size_t hashcap;
	struct tslot *by_name;
	size_t namecap;
	size_t nnames;

	/* typedef names of named aggregates (`typedef struct _IO_FILE FILE`):
	 * few (the reader records those asked for), so a plain array */
	struct alias { const char *name, *target; } *aliases;
	size_t naliases, aliascap;
};

static uint64_t hash_bytes(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	/* FNV-1a, 64 bit: sf_type_hash()'s, whose values the output shows
	 * (see above): byte by byte, and never to change. */
	for (size_t i = 0; i < n; i++) {
		h ^= b[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

#define HASH_INIT 0xcbf29ce484222325ull

/* hash_bytes() of s and its NUL, in one pass (no strlen first). */
static uint64_t hash_str(uint64_t h, const char *s)
{
	const unsigned char *b = (const unsigned char *)(s ? s : "");

	do {
		h ^= *b;
		h *= 0x100000001b3ull;
	} while (*b++);
	return h;
}

static uint64_t hash_u64(uint64_t h, uint64_t v)
{
	return hash_bytes(h, &v, sizeof(v));
}

struct hash_sink {
	struct sf_spell_sink base;
	uint64_t h;
};

static void hash_emit(struct sf_spell_sink *sink, const char *p, size_t n)
{
	struct hash_sink *hs = (struct hash_sink *)sink;

	hs->h = hash_bytes(hs->h, p, n);
}

/*
 * hash_str() of the canonical spelling of type name s (spelling.h),
 * hashed piece by piece as it is spelled, with no copy: gcc's spelling is
 * the canonical one, so a gcc-built type hashes as it did before
 * spellings were canonical.
 */
static uint64_t hash_spell(uint64_t h, const char *s)
{
	struct hash_sink hs = { { hash_emit, 0 }, h };

	sf_spell_canon_to(s, &hs.base);
	return hash_bytes(hs.h, "", 1);
}

/*
 * The memo: open addressing by the string's address, each slot the
 * address and its canonical spelling (the same address when the string
 * is canonical already, as gcc's spellings are; else a copy of ours,
 * listed in `own` to free).
 */
struct memo_slot {
	const char *key;
	const char *canon;
};

struct sf_spell_memo {
	struct memo_slot *slot;
	size_t cap, n;
	char **own;
	size_t nown, owncap;
	struct strbuf sb;
};

struct sf_spell_memo *sf_spell_memo_new(void)
{
	struct sf_spell_memo *m = sf_xcalloc(1, sizeof(*m));

	sb_init(&m->sb);
	return m;
}

void sf_spell_memo_free(struct sf_spell_memo *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->nown; i++)
		free(m->own[i]);
	free(m->own);
	free(m->slot);
	sb_release(&m->sb);
	free(m);
}

static size_t memo_home(const char *key, size_t cap)
{
	return (size_t)sf_mix64((uintptr_t)key) & (cap - 1);
}

static void memo_grow(struct sf_spell_memo *m)
{
	size_t ncap = m->cap ? m->cap * 2 : 1024;
	struct memo_slot *n = sf_xcalloc(ncap, sizeof(*n));

	for (size_t i = 0; i < m->cap; i++) {
		if (!m->slot[i].key)
			continue;
		size_t j = memo_home(m->slot[i].key, ncap);
		while (n[j].key)
			j = (j + 1) & (ncap - 1);
		n[j] = m->slot[i];
	}
	free(m->slot);
	m->slot = n;
	m->cap = ncap;
}

/* The canonical spelling of s (not NULL), made once per address. */
static const char *memo_canon(struct sf_spell_memo *m, const char *s)
{
	if ((m->n + 1) * 2 > m->cap)
		memo_grow(m);
	size_t j = memo_home(s, m->cap);
	for (; m->slot[j].key; j = (j + 1) & (m->cap - 1))
		if (m->slot[j].key == s)
			return m->slot[j].canon;
	sb_reset(&m->sb);
	sf_spell_canon(s, &m->sb);
	const char *canon = s;
	if (strcmp(m->sb.buf, s) != 0) {
		SF_GROW(m->own, m->nown, m->owncap);
		canon = m->own[m->nown++] = sf_xstrndup(m->sb.buf, m->sb.len);
	}
	m->slot[j] = (struct memo_slot){ s, canon };
	m->n++;
	return canon;
}

/* hash_spell(h, s), the spelling from m when there is one. */
static uint64_t hash_spell_m(uint64_t h, const char *s, struct sf_spell_memo *m)
{
	/* hash_str hashes the NUL too, as hash_spell does after the spelling */
	return m && s ? hash_str(h, memo_canon(m, s)) : hash_spell(h, s);
}

struct sf_typeset *sf_typeset_new(void)
{
	return sf_xcalloc(1, sizeof(struct sf_typeset));
}

void sf_typeset_free(struct sf_typeset *ts)
{
	if (!ts)
		return;
	for (struct arena_chunk *c = ts->chunks, *n; c; c = n) {
		n = c->next;
		free(c);
	}
	free(ts->strs);
	free(ts->strv);
	free(ts->types);
	free(ts->next_named);
	free(ts->by_hash);
	free(ts->by_name);
	free(ts->aliases);
	free(ts);
}

void *sf_typeset_alloc(struct sf_typeset *ts, size_t size)
{
	size_t need = (size + sizeof(max_align_t) - 1) & ~(sizeof(max_align_t) - 1);
	struct arena_chunk *c = ts->chunks;

	if (need < size)
		return sf_xmalloc((size_t)-1);
	if (!c || c->cap - c->used < need) {
		size_t chunk = ts->arena_bytes < ARENA_FIRST ? ARENA_FIRST
			       : ts->arena_bytes < ARENA_CHUNK ? ts->arena_bytes : ARENA_CHUNK;
		size_t cap = need > chunk ? need : chunk;
		c = sf_xmalloc(sizeof(*c) + cap);
		c->cap = cap;
		c->used = 0;
		/* A large block goes behind the current chunk so the
		 * current one keeps filling. */
		if (ts->chunks && need > chunk) {
			c->next = ts->chunks->next;
			ts->chunks->next = c;
		} else {
			c->next = ts->chunks;
			ts->chunks = c;
		}
		ts->arena_bytes += sizeof(*c) + cap;
	}
	void *p = (char *)c->data + c->used;
	c->used += need;
	assert(c->used <= c->cap);
	memset(p, 0, size);
	return p;
}

static void strs_grow(struct sf_typeset *ts)
{
	size_t ncap = ts->strcap ? ts->strcap * 2 : 1024;
	struct strslot *n = sf_xcalloc_table(ncap, sizeof(*n));

	/* idx is 32 bits, and so is the hash that places a slot */
	if (ncap > UINT32_MAX)
		sf_xmalloc((size_t)-1);
	for (size_t i = 0; i < ts->strcap; i++) {
		if (!ts->strs[i].idx)
			continue;
		size_t j = ts->strs[i].hash & (ncap - 1);
		while (n[j].idx)
			j = (j + 1) & (ncap - 1);
		n[j] = ts->strs[i];
	}
	free(ts->strs);
	ts->strs = n;
	ts->strcap = ncap;
	ts->strv = sf_xreallocarray(ts->strv, ncap / 4 * 3, sizeof(*ts->strv));
}

/* The interned string equal to s[0, n), hashed h, or NULL and *slot the
 * empty slot where it goes. */
static const char *find_str(const struct sf_typeset *ts, const char *s, size_t n, uint32_t h,
			    size_t *slot)
{
	size_t j = h & (ts->strcap - 1);

	for (; ts->strs[j].idx; j = (j + 1) & (ts->strcap - 1)) {
		if (ts->strs[j].hash != h)
			continue;
		const char *c = ts->strv[ts->strs[j].idx - 1];
		if (strncmp(c, s, n) == 0 && c[n] == '\0')
			return c;
	}
	*slot = j;
	return NULL;
}

/* c, NUL-terminated and living as long as ts, is the interned copy of its
 * bytes from now on; it goes in slot j, hashed h. */
static void add_str(struct sf_typeset *ts, size_t j, uint32_t h, const char *c)
{
	assert(ts->nstrs < ts->strcap / 4 * 3 && !ts->strs[j].idx);
	ts->strv[ts->nstrs] = c;
	ts->strs[j].hash = h;
	ts->strs[j].idx = (uint32_t)++ts->nstrs;
}

/* The length of the keyword and space a type's spelling starts with
 * ("struct X": 7), or 0. */
static size_t keyword_len(const char *s, size_t n)
{
	static const struct {
		const char *word;
		size_t len;
	} kw[] = { { "struct ", 7 }, { "class ", 6 }, { "union ", 6 }, { "enum ", 5 } };

	for (size_t i = 0; i < sizeof(kw) / sizeof(kw[0]); i++)
		if (n > kw[i].len && s[0] == kw[i].word[0] && !memcmp(s, kw[i].word, kw[i].len))
			return kw[i].len;
	return 0;
}

const char *sf_typeset_intern_n(struct sf_typeset *ts, const char *s, size_t n)
{
	uint32_t h = (uint32_t)sf_hash_bytes(0, s, n);
	size_t j;

	/* room for the string and its tail */
	if ((ts->nstrs + 2) * 4 > ts->strcap * 3)
		strs_grow(ts);
	const char *found = find_str(ts, s, n, h, &j);
	if (found)
		return found;
	char *copy = sf_typeset_alloc(ts, n + 1);
	memcpy(copy, s, n);
	copy[n] = '\0';
	add_str(ts, j, h, copy);
	size_t k = keyword_len(copy, n);
	if (k) {
		uint32_t th = (uint32_t)sf_hash_bytes(0, copy + k, n - k);
		if (!find_str(ts, copy + k, n - k, th, &j))
			add_str(ts, j, th, copy + k);
	}
	return copy;
}

const char *sf_typeset_intern_type_name(struct sf_typeset *ts, enum sf_kind kind,
					const char *name)
{
	const char *kw = sf_kind_name(kind);
	size_t nk = strlen(kw), n = strlen(name);

	if (!n)		/* anonymous: "struct " has no tail */
		return sf_typeset_intern_n(ts, "", 0);
	char stack[512];
	char *buf = nk + 1 + n < sizeof(stack) ? stack : sf_xmalloc(nk + 1 + n);
	memcpy(buf, kw, nk);
	buf[nk] = ' ';
	memcpy(buf + nk + 1, name, n);
	(void)sf_typeset_intern_n(ts, buf, nk + 1 + n);
	if (buf != stack)
		free(buf);
	return sf_typeset_intern_n(ts, name, n);
}

const char *sf_typeset_intern(struct sf_typeset *ts, const char *s)
{
	return sf_typeset_intern_n(ts, s ? s : "", s ? strlen(s) : 0);
}

const struct sf_enum *sf_enum_copy(struct sf_typeset *ts, const struct sf_enum *src, bool intern)
{
	struct sf_enum *e = sf_typeset_alloc(ts, sizeof(*e));
	struct sf_enumerator *v = sf_typeset_alloc(ts, sizeof(*v) * (src->n ? src->n : 1));

	for (uint32_t k = 0; k < src->n; k++) {
		v[k].name = intern ? sf_typeset_intern(ts, src->v[k].name) : src->v[k].name;
		v[k].value = src->v[k].value;
	}
	e->n = src->n;
	e->v = v;
	return e;
}

const struct sf_typedef_of *sf_typedef_of_copy(struct sf_typeset *ts,
					       const struct sf_typedef_of *src, bool intern)
{
	struct sf_typedef_of *t = sf_typeset_alloc(ts, sizeof(*t));

	*t = *src;
	if (intern) {
		t->chain = sf_typeset_intern(ts, src->chain);
		t->type_name = sf_typeset_intern(ts, src->type_name);
		t->type_suffix = sf_typeset_intern(ts, src->type_suffix);
	}
	if (src->enums)
		t->enums = sf_enum_copy(ts, src->enums, intern);
	return t;
}

static uint64_t hash_members(uint64_t h, const struct sf_member *ms, uint32_t n,
			     unsigned depth, struct sf_spell_memo *m);

static uint64_t hash_type_into(uint64_t h, const struct sf_type *t, unsigned depth,
			       struct sf_spell_memo *m)
{
	h = hash_spell_m(h, t->name, m);
	h = hash_u64(h, t->kind);
	h = hash_u64(h, t->size);
	h = hash_u64(h, t->align);
	h = hash_u64(h, t->flags & DEF_FLAGS);
	h = hash_u64(h, t->nmembers);
	h = hash_members(h, t->members, t->nmembers, depth, m);
	h = hash_u64(h, t->nvariants);
	for (uint32_t i = 0; i < t->nvariants; i++) {
		const struct sf_variant *v = &t->variants[i];
		h = hash_str(h, v->name);
		h = hash_u64(h, v->has_discr_value ? v->discr_value : ~0ull);
		h = hash_u64(h, v->nmembers);
		h = hash_members(h, v->members, v->nmembers, depth, m);
	}
	return h;
}

static uint64_t hash_members(uint64_t h, const struct sf_member *ms, uint32_t n,
			     unsigned depth, struct sf_spell_memo *memo)
{
	for (uint32_t i = 0; i < n; i++) {
		const struct sf_member *m = &ms[i];
		h = hash_str(h, m->name);
		h = hash_spell_m(h, m->type_name, memo);
		h = hash_spell_m(h, m->type_suffix, memo);
		h = hash_u64(h, m->offset);
		h = hash_u64(h, m->size);
		h = hash_u64(h, ((uint64_t)m->bit_offset << 32) | m->bit_size);
		h = hash_u64(h, ((uint64_t)m->align << 32) |
				(uint16_t)(m->flags & ~SF_MF_TYPE_PAD));
		if (m->nested && depth < 64)
			h = hash_type_into(h, m->nested, depth + 1, memo);
		if (m->enums) {
			h = hash_u64(h, m->enums->n);
			for (uint32_t k = 0; k < m->enums->n; k++) {
				h = hash_str(h, m->enums->v[k].name);
				h = hash_u64(h, m->enums->v[k].value);
			}
		}
	}
	return h;
}

uint64_t sf_type_hash(const struct sf_type *t)
{
	return sf_type_hash_memo(t, NULL);
}

uint64_t sf_type_hash_memo(const struct sf_type *t, struct sf_spell_memo *m)
{
	/* a summary stands for a definition whose members are not here */
	if (t->summary)
		return t->summary->def_hash;
	return hash_type_into(HASH_INIT, t, 0, m);
}

static int str_eq(const char *a, const char *b)
{
	return a == b || strcmp(a ? a : "", b ? b : "") == 0;
}

static int enums_equal(const struct sf_enum *a, const struct sf_enum *b)
{
	if (a == b)
		return 1;
	if (!a || !b || a->n != b->n)
		return 0;
	for (uint32_t k = 0; k < a->n; k++)
		if (a->v[k].value != b->v[k].value || !str_eq(a->v[k].name, b->v[k].name))
			return 0;
	return 1;
}

static int members_equal(const struct sf_member *xs, const struct sf_member *ys,
			 uint32_t n, unsigned depth);

static int type_equal_depth(const struct sf_type *a, const struct sf_type *b,
			    unsigned depth)
{
	if (a == b)
		return 1;
	if (depth > 64 || a->kind != b->kind || a->size != b->size ||
	    a->align != b->align || a->nmembers != b->nmembers ||
	    a->nvariants != b->nvariants ||
	    (a->flags & DEF_FLAGS) != (b->flags & DEF_FLAGS) ||
	    !sf_spell_eq(a->name, b->name))
		return 0;
	for (uint32_t i = 0; i < a->nvariants; i++) {
		const struct sf_variant *v = &a->variants[i], *w = &b->variants[i];
		if (v->has_discr_value != w->has_discr_value ||
		    v->discr_value != w->discr_value || v->nmembers != w->nmembers ||
		    !str_eq(v->name, w->name) ||
		    !members_equal(v->members, w->members, v->nmembers, depth))
			return 0;
	}
	return members_equal(a->members, b->members, a->nmembers, depth);
}

static int members_equal(const struct sf_member *xs, const struct sf_member *ys,
			 uint32_t n, unsigned depth)
{
	for (uint32_t i = 0; i < n; i++) {
		const struct sf_member *x = &xs[i], *y = &ys[i];
		if (x->offset != y->offset || x->size != y->size ||
		    x->bit_offset != y->bit_offset ||
		    x->bit_size != y->bit_size || x->align != y->align ||
		    ((x->flags ^ y->flags) & (uint16_t)~SF_MF_TYPE_PAD) ||
		    x->type_pad != y->type_pad || !str_eq(x->name, y->name) ||
		    !sf_spell_eq(x->type_name, y->type_name) ||
		    !sf_spell_eq(x->type_suffix, y->type_suffix))
			return 0;
		if (!x->nested != !y->nested || !enums_equal(x->enums, y->enums))
			return 0;
		if (x->nested && !type_equal_depth(x->nested, y->nested, depth + 1))
			return 0;
	}
	return 1;
}

int sf_type_equal(const struct sf_type *a, const struct sf_type *b)
{
	/* a summary (holes document) is the definition its hash names: equal
	 * to the full type or the summary of the same definition */
	if (a->summary || b->summary)
		return a->kind == b->kind && a->size == b->size && sf_spell_eq(a->name, b->name) &&
		       sf_type_hash(a) == sf_type_hash(b);
	return type_equal_depth(a, b, 0);
}

static void rehash_types(struct sf_typeset *ts)
{
	size_t ncap = ts->hashcap ? ts->hashcap * 2 : 1024;
	struct tslot *n = sf_xcalloc_table(ncap, sizeof(*n));

	for (size_t i = 0; i < ts->hashcap; i++) {
		if (!ts->by_hash[i].idx)
			continue;
		size_t j = ts->by_hash[i].hash & (ncap - 1);
		while (n[j].idx)
			j = (j + 1) & (ncap - 1);
		n[j] = ts->by_hash[i];
	}
	free(ts->by_hash);
	ts->by_hash = n;
	ts->hashcap = ncap;
}

/* The namespace a type's name lives in: 1 for typedef names, 0 for tags. */
static int name_ns(const struct sf_type *t)
{
	return (t->flags & SF_TF_TYPEDEF) != 0;
}

/* Names hash canonically (spelling.h): `Slot<long>` finds `Slot<long int>`.
 * Only a template's name has a spelling to make canonical. */
static uint64_t name_hash_m(const char *name, int ns, struct sf_spell_memo *m)
{
	if (!name || !strchr(name, '<'))
		return sf_hash_bytes((uint64_t)ns, name ? name : "", name ? strlen(name) : 0);
	if (m) {
		const char *canon = memo_canon(m, name);
		return sf_hash_bytes((uint64_t)ns, canon, strlen(canon));
	}
	struct strbuf c = STRBUF_INIT;
	sf_spell_canon(name, &c);
	uint64_t h = sf_hash_bytes((uint64_t)ns, c.buf, c.len);
	sb_release(&c);
	return h;
}

static uint64_t name_hash(const char *name, int ns)
{
	return name_hash_m(name, ns, NULL);
}

static void rehash_names(struct sf_typeset *ts)
{
	size_t ncap = ts->namecap ? ts->namecap * 2 : 1024;
	struct tslot *n = sf_xcalloc_table(ncap, sizeof(*n));

	for (size_t i = 0; i < ts->namecap; i++) {
		if (!ts->by_name[i].idx)
			continue;
		size_t j = ts->by_name[i].hash & (ncap - 1);
		while (n[j].idx)
			j = (j + 1) & (ncap - 1);
		n[j] = ts->by_name[i];
	}
	free(ts->by_name);
	ts->by_name = n;
	ts->namecap = ncap;
}

/* Index + 1 of the first type named `name` in namespace ns, whose
 * name_hash is h, or 0. */
static uint32_t first_named_h(const struct sf_typeset *ts, const char *name, int ns,
			      uint64_t h)
{
	if (!ts->namecap)
		return 0;
	size_t j = h & (ts->namecap - 1);
	for (; ts->by_name[j].idx; j = (j + 1) & (ts->namecap - 1)) {
		if (ts->by_name[j].hash != h)
			continue;
		const struct sf_type *t = ts->types[ts->by_name[j].idx - 1];
		if (name_ns(t) == ns && sf_spell_name_eq(t->name, name))
			return ts->by_name[j].idx;
	}
	return 0;
}

/* Index + 1 of the first type named `name` in namespace ns, or 0. */
static uint32_t first_named(const struct sf_typeset *ts, const char *name, int ns)
{
	return ts->namecap ? first_named_h(ts, name, ns, name_hash(name, ns)) : 0;
}

/* Index type idx (1-based) under its name, whose name_hash is h. */
static void index_name(struct sf_typeset *ts, uint32_t idx, uint64_t h)
{
	if ((ts->nnames + 1) * 2 > ts->namecap)
		rehash_names(ts);
	size_t j = h & (ts->namecap - 1);
	while (ts->by_name[j].idx)
		j = (j + 1) & (ts->namecap - 1);
	ts->by_name[j] = (struct tslot){ h, idx };
	ts->nnames++;
}

/* Append type idx (1-based) to the chain of its name and flag them all. */
static void chain_variant(struct sf_typeset *ts, uint32_t first, uint32_t idx)
{
	uint32_t i = first;

	for (;;) {
		ts->types[i - 1]->flags |= SF_TF_VARIANT;
		if (!ts->next_named[i - 1])
			break;
		i = ts->next_named[i - 1];
	}
	ts->next_named[i - 1] = idx;
	ts->types[idx - 1]->flags |= SF_TF_VARIANT;
}

const struct sf_type *sf_typeset_add(struct sf_typeset *ts, struct sf_type *t)
{
	return sf_typeset_add_memo(ts, t, NULL);
}

const struct sf_type *sf_typeset_add_memo(struct sf_typeset *ts, struct sf_type *t,
					  struct sf_spell_memo *m)
{
	t->hash = sf_type_hash_memo(t, m);
	return sf_typeset_add_named(ts, t, name_hash_m(t->name, name_ns(t), m));
}

uint64_t sf_typeset_name_hash(const struct sf_type *t)
{
	return name_hash(t->name, name_ns(t));
}

void sf_typeset_name_hashes(const struct sf_typeset *ts, uint64_t *out)
{
	/* a named type is the first of its name (indexed under the hash) or
	 * on that one's chain of variants; the others have no name */
	for (size_t i = 0; i < ts->ntypes; i++) {
		const struct sf_type *t = ts->types[i];
		out[i] = t->name && t->name[0] ? 0 : sf_typeset_name_hash(t);
	}
	for (size_t j = 0; j < ts->namecap; j++)
		for (uint32_t k = ts->by_name[j].idx; k; k = ts->next_named[k - 1])
			out[k - 1] = ts->by_name[j].hash;
}

const struct sf_type *sf_typeset_add_hashed(struct sf_typeset *ts, struct sf_type *t)
{
	/* hashed once: a template's name is made canonical to hash
	 * (libceph-common: 5 % of show's samples, twice per name) */
	return sf_typeset_add_named(ts, t, sf_typeset_name_hash(t));
}

const struct sf_type *sf_typeset_add_named(struct sf_typeset *ts, struct sf_type *t,
					   uint64_t name_h)
{
	if ((ts->ntypes + 1) * 2 > ts->hashcap)
		rehash_types(ts);

	size_t j = t->hash & (ts->hashcap - 1);
	for (; ts->by_hash[j].idx; j = (j + 1) & (ts->hashcap - 1)) {
		if (ts->by_hash[j].hash != t->hash)
			continue;
		struct sf_type *o = ts->types[ts->by_hash[j].idx - 1];
		if (sf_type_equal(o, t))
			return o;
	}

	if (ts->ntypes >= UINT32_MAX - 1)
		return sf_xmalloc((size_t)-1); /* 4 billion types: out of memory */
	SF_GROW(ts->types, ts->ntypes, ts->typecap);
	SF_GROW(ts->next_named, ts->ntypes, ts->nextcap);
	ts->next_named[ts->ntypes] = 0;
	ts->types[ts->ntypes++] = t;
	ts->by_hash[j] = (struct tslot){ t->hash, (uint32_t)ts->ntypes };

	/* Anonymous types are never looked up by name nor variants. */
	if (t->name && t->name[0]) {
		uint32_t first = first_named_h(ts, t->name, name_ns(t), name_h);
		if (first) {
			chain_variant(ts, first, (uint32_t)ts->ntypes);
		} else {
			index_name(ts, (uint32_t)ts->ntypes, name_h);
		}
	}
	return t;
}

const struct sf_type *sf_typeset_find_same(const struct sf_typeset *ts,
					   const struct sf_type *t)
{
	if (!ts->hashcap)
		return NULL;
	for (size_t j = t->hash & (ts->hashcap - 1); ts->by_hash[j].idx;
	     j = (j + 1) & (ts->hashcap - 1)) {
		const struct sf_type *o = ts->types[ts->by_hash[j].idx - 1];
		if (ts->by_hash[j].hash == t->hash && sf_type_equal(o, t))
			return o;
	}
	return NULL;
}

static struct sf_member *copy_members(struct sf_typeset *ts, const struct sf_member *ms,
				      uint32_t n, unsigned depth);

static struct sf_type *copy_type(struct sf_typeset *ts, const struct sf_type *t,
				 unsigned depth)
{
	struct sf_type *c = sf_typeset_alloc(ts, sizeof(*c));

	assert(depth <= 64);
	*c = *t;
	c->name = sf_typeset_intern_type_name(ts, (enum sf_kind)t->kind, t->name);
	c->decl_file = sf_typeset_intern(ts, t->decl_file);
	c->origin = t->origin ? sf_typeset_intern(ts, t->origin) : NULL;
	c->comp_dir = t->comp_dir ? sf_typeset_intern(ts, t->comp_dir) : NULL;
	c->unit_name = t->unit_name ? sf_typeset_intern(ts, t->unit_name) : NULL;
	c->members = copy_members(ts, t->members, t->nmembers, depth);
	if (t->nvariants) {
		c->variants = sf_typeset_alloc(ts, t->nvariants * sizeof(*c->variants));
		for (uint32_t i = 0; i < t->nvariants; i++) {
			c->variants[i] = t->variants[i];
			c->variants[i].name = sf_typeset_intern(ts, t->variants[i].name);
			c->variants[i].members = copy_members(ts, t->variants[i].members,
							      t->variants[i].nmembers, depth);
		}
	}
	if (t->summary) {
		struct sf_summary *s = sf_typeset_alloc(ts, sizeof(*s));
		*s = *t->summary;
		c->summary = s;
	}
	return c;
}

static struct sf_member *copy_members(struct sf_typeset *ts, const struct sf_member *ms,
				      uint32_t n, unsigned depth)
{
	struct sf_member *c = n ? sf_typeset_alloc(ts, n * sizeof(*c)) : NULL;

	for (uint32_t i = 0; i < n; i++) {
		const struct sf_member *m = &ms[i];
		c[i] = *m;
		c[i].name = sf_typeset_intern(ts, m->name);
		c[i].type_name = sf_typeset_intern(ts, m->type_name);
		c[i].type_suffix = sf_typeset_intern(ts, m->type_suffix);
		if (m->tdef)
			c[i].tdef = sf_typedef_of_copy(ts, m->tdef, true);
		if (m->nested)
			c[i].nested = copy_type(ts, m->nested, depth + 1);
		if (m->enums)
			c[i].enums = sf_enum_copy(ts, m->enums, true);
	}
	return c;
}

struct sf_type *sf_typeset_copy_type(struct sf_typeset *ts, const struct sf_type *t)
{
	return copy_type(ts, t, 0);
}

/* Record name -> target once; both strings outlive the typeset's use. */
static void add_alias(struct sf_typeset *ts, const char *name, const char *target)
{
	for (size_t i = 0; i < ts->naliases; i++)
		if (!strcmp(ts->aliases[i].name, name) &&
		    !strcmp(ts->aliases[i].target, target))
			return;
	if (ts->naliases == ts->aliascap) {
		ts->aliascap = ts->aliascap ? 2 * ts->aliascap : 8;
		ts->aliases = sf_xreallocarray(ts->aliases, ts->aliascap,
					       sizeof(*ts->aliases));
	}
	ts->aliases[ts->naliases++] = (struct alias){ name, target };
}

void sf_typeset_add_alias(struct sf_typeset *ts, const char *name, const char *target)
{
	assert(name && target);
	if (!*name || !*target || !strcmp(name, target))
		return;
	add_alias(ts, sf_typeset_intern(ts, name), sf_typeset_intern(ts, target));
}

void sf_typeset_copy_aliases(struct sf_typeset *dst, const struct sf_typeset *src)
{
	for (size_t i = 0; i < src->naliases; i++)
		sf_typeset_add_alias(dst, src->aliases[i].name, src->aliases[i].target);
}

const char *sf_typeset_alias_target(const struct sf_typeset *ts, const char *name)
{
	for (size_t i = 0; i < ts->naliases; i++)
		if (!strcmp(ts->aliases[i].name, name))
			return ts->aliases[i].target;
	return NULL;
}

void sf_typeset_absorb(struct sf_typeset *dst, struct sf_typeset *src)
{
	sf_typeset_absorb_named(dst, src, NULL);
}

void sf_typeset_absorb_named(struct sf_typeset *dst, struct sf_typeset *src,
			     const uint64_t *name_h)
{
	/* Types keep pointing into src's arena: hand its chunks over. */
	struct arena_chunk *last = src->chunks;

	while (last && last->next)
		last = last->next;
	if (last) {
		last->next = dst->chunks;
		dst->chunks = src->chunks;
		/* keep the chunk with most room at the head: dst's old head */
		src->chunks = NULL;
	}
	dst->arena_bytes += src->arena_bytes;
	for (size_t i = 0; i < src->ntypes; i++) {
		struct sf_type *t = src->types[i];
		t->flags &= (uint16_t)~SF_TF_VARIANT;	/* no part of the hash */
		/* src hashed it, unchanged since */
		sf_typeset_add_named(dst, t, name_h ? name_h[i] : sf_typeset_name_hash(t));
	}
	/* the strings live in src's arena, now dst's */
	for (size_t i = 0; i < src->naliases; i++)
		add_alias(dst, src->aliases[i].name, src->aliases[i].target);
	sf_typeset_free(src);
}

size_t sf_typeset_count(const struct sf_typeset *ts)
{
	return ts->ntypes;
}

const struct sf_type *sf_typeset_get(const struct sf_typeset *ts, size_t i)
{
	assert(i < ts->ntypes);
	return ts->types[i];
}

/* Namespaces a looked-up name may be in. */
enum { NS_TAG = 1, NS_TYPEDEF = 2 };

/*
 * "struct x" -> kind STRUCT, "x"; "typedef x" -> the typedef namespace
 * only; no prefix -> kind -1.
 */
static const char *split_kind(const char *name, int *kind, int *typedef_only)
{
	static const struct {
		const char *prefix;
		int kind;
	} prefixes[] = {
		{ "struct ", SF_KIND_STRUCT },
		{ "union ", SF_KIND_UNION },
		{ "class ", SF_KIND_CLASS },
		{ "typedef ", -1 },
	};

	while (*name == ' ' || *name == '\t')
		name++;
	*kind = -1;
	*typedef_only = 0;
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		size_t n = strlen(prefixes[i].prefix);
		if (strncmp(name, prefixes[i].prefix, n) == 0) {
			*kind = prefixes[i].kind;
			*typedef_only = prefixes[i].kind < 0;
			name += n;
			while (*name == ' ')
				name++;
			break;
		}
	}
	return name;
}

static int kind_matches(int want, int have)
{
	/* C++ "struct" and "class" differ only in default access. */
	if (want < 0 || want == have)
		return 1;
	return want != SF_KIND_UNION && have != SF_KIND_UNION;
}

/* The types of chain `first` whose kind matches, counted; up to max stored. */
static size_t collect_chain(const struct sf_typeset *ts, uint32_t first, int kind,
			    const struct sf_type **out, size_t max, size_t found)
{
	for (uint32_t i = first; i; i = ts->next_named[i - 1]) {
		const struct sf_type *t = ts->types[i - 1];
		if (!kind_matches(kind, t->kind))
			continue;
		if (found < max)
			out[found] = t;
		found++;
	}
	return found;
}

size_t sf_typeset_find_ns(const struct sf_typeset *ts, const char *name, int is_typedef,
			  const struct sf_type **out, size_t max)
{
	return collect_chain(ts, first_named(ts, name, is_typedef != 0), -1, out, max, 0);
}

size_t sf_typeset_find_named(const struct sf_typeset *ts, const struct sf_type *t,
			     uint64_t name_h, const struct sf_type **out, size_t max)
{
	return collect_chain(ts, first_named_h(ts, t->name, name_ns(t), name_h), -1, out, max, 0);
}

static size_t find_depth(const struct sf_typeset *ts, const char *name,
			 const struct sf_type **out, size_t max, unsigned depth);

size_t sf_typeset_find(const struct sf_typeset *ts, const char *name,
		       const struct sf_type **out, size_t max)
{
	return find_depth(ts, name, out, max, 0);
}

static size_t find_depth(const struct sf_typeset *ts, const char *name,
			 const struct sf_type **out, size_t max, unsigned depth)
{
	int kind, typedef_only;
	const char *bare = split_kind(name, &kind, &typedef_only);
	size_t n = strlen(bare);

	while (n && (bare[n - 1] == ' ' || bare[n - 1] == '\t'))
		n--;
	/* a copy only to cut trailing blanks: the layout's lookups (every
	 * struct-typed member of a report) have none */
	char *copy = bare[n] ? sf_xstrndup(bare, n) : NULL;
	const char *key = copy ? copy : bare;
	/*
	 * As C reads a name: "union x" is a tag, a bare "x" is the typedef
	 * name when there is one.  Either falls back on the other namespace
	 * when its own has nothing, so "x" still finds `struct x` and
	 * "struct x_t" a `typedef struct {...} x_t`.
	 */
	int order[2] = { NS_TAG, NS_TYPEDEF };
	if (typedef_only)
		order[0] = NS_TYPEDEF, order[1] = 0;
	else if (kind < 0)
		order[0] = NS_TYPEDEF, order[1] = NS_TAG;
	size_t found = 0;
	for (int k = 0; k < 2 && !found && order[k]; k++)
		found = collect_chain(ts, first_named(ts, key, order[k] == NS_TYPEDEF),
				      kind, out, max, 0);
	/* a typedef of a named aggregate: its tag (chains end: depth 8) */
	const char *target = found || kind >= 0 ? NULL : sf_typeset_alias_target(ts, key);
	if (target && depth < 8)
		found = find_depth(ts, target, out, max, depth + 1);
	free(copy);
	return found;
}

void sf_typeset_map_decl_files(struct sf_typeset *ts,
				char *(*fn)(void *ctx, const char *path), void *ctx)
{
	/* decl_file strings are interned, so most types share a few pointers:
	 * a small direct-mapped cache keeps fn to about once per file. */
	enum { NCACHE = 256 };
	const char *from[NCACHE] = { NULL }, *to[NCACHE] = { NULL };

	for (size_t i = 0; i < ts->ntypes; i++) {
		struct sf_type *t = ts->types[i];
		if (!t->decl_file || !t->decl_file[0])
			continue;
		size_t slot = ((uintptr_t)t->decl_file >> 3) % NCACHE;
		if (from[slot] != t->decl_file) {
			char *mapped = fn(ctx, t->decl_file);
			from[slot] = t->decl_file;
			to[slot] = mapped ? sf_typeset_intern(ts, mapped) : t->decl_file;
			free(mapped);
		}
		t->decl_file = to[slot];
	}
}

size_t sf_typeset_bytes(const struct sf_typeset *ts)
{
	return ts->arena_bytes + ts->strcap * sizeof(struct strslot) +
	       ts->strcap / 4 * 3 * sizeof(const char *) +
	       ts->typecap * sizeof(void *) + ts->nextcap * sizeof(uint32_t) +
	       (ts->hashcap + ts->namecap) * sizeof(struct tslot);
}

const char *sf_kind_name(enum sf_kind kind)
{
	switch (kind) {
	case SF_KIND_STRUCT: return "struct";
	case SF_KIND_UNION: return "union";
	case SF_KIND_CLASS: return "class";
	}
	return "struct";
}

const char *sf_type_kind_name(const struct sf_type *t)
{
	return t->nvariants || (t->summary && t->summary->is_enum)
	       ? "enum" : sf_kind_name((enum sf_kind)t->kind);
}

/* A `*` or `?` outside brackets makes a name a glob: "yjit::*" is one,
 * "Option<*const u8>" is not. */
bool sf_name_is_glob(const char *s, size_t n)
{
	int depth = 0;

	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (c == '<' || c == '(' || c == '[' || c == '{')
			depth++;
		else if ((c == '>' || c == ')' || c == ']' || c == '}') && depth > 0)
			depth--;
		else if (depth == 0 && (c == '*' || c == '?'))
			return true;
	}
	return false;
}
