/*
 * arena.c - the DWARF reader's scratch memory and interned strings.
 *
 * Two structures, both per reader:
 *   - the arena: chunks of 64 KiB handed out bump-pointer style and
 *     reset (kept for reuse) after each unit, so a unit's tinfos and
 *     scratch models cost no free() each;
 *   - interned strings: section strings and literals are looked up by
 *     address (each hashed once per reader) and interned into the
 *     reader's output typeset, so comparing spellings is pointer work.
 */
#include "reader_int.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dwarf.h>

#include "lib/hash.h"
#include "lib/xalloc.h"

/* ---- scratch arena ---------------------------------------------------- */

/* Zeroed memory from the arena. */
void *rd_arena_alloc(struct arena *a, size_t n)
{
	void *p = rd_arena_alloc_raw(a, n);

	memset(p, 0, n);
	return p;
}

/* Memory the caller fills at once (member arrays copied in). */
void *rd_arena_alloc_raw(struct arena *a, size_t n)
{
	size_t need = (n + sizeof(max_align_t) - 1) & ~(sizeof(max_align_t) - 1);
	struct chunk *c = a->head;

	if (need < n)
		return sf_xmalloc((size_t)-1);
	if (!c || c->cap - c->used < need) {
		if (a->spare && a->spare->cap >= need) {
			c = a->spare;
			a->spare = c->next;
		} else {
			size_t cap = need > 65536 ? need : 65536;
			c = sf_xmalloc(sizeof(*c) + cap);
			c->cap = cap;
		}
		c->used = 0;
		c->next = a->head;
		a->head = c;
	}
	void *p = (char *)c->data + c->used;
	c->used += need;
	return p;
}

void rd_arena_reset(struct arena *a)
{
	while (a->head) {
		struct chunk *c = a->head;
		a->head = c->next;
		if (c->cap > 65536) {
			free(c);	/* oversized: do not keep */
			continue;
		}
		c->next = a->spare;
		a->spare = c;
	}
}

void rd_arena_free(struct arena *a)
{
	rd_arena_reset(a);
	while (a->spare) {
		struct chunk *c = a->spare;
		a->spare = c->next;
		free(c);
	}
}

char *rd_arena_cat(struct arena *a, const char *x, const char *y, const char *z)
{
	size_t nx = strlen(x), ny = strlen(y), nz = strlen(z);
	char *s = rd_arena_alloc(a, nx + ny + nz + 1);

	memcpy(s, x, nx);
	memcpy(s + nx, y, ny);
	memcpy(s + nx + ny, z, nz);
	return s;
}

/* ---- interned strings ---------------------------------------------------- */

/* The interned copy of a string whose address is stable (section data or
 * a literal): looked up by address, so each is hashed once per reader. */
static const char *isec_slow(struct sf_reader *r, const char *s);

const char *rd_isec(struct sf_reader *r, const char *s)
{
	struct pslot *h = &r->hot[((uintptr_t)s >> 2 ^ (uintptr_t)s >> 11) & 255];

	if (h->k == s)
		return h->v;
	h->k = s;
	h->v = isec_slow(r, s);
	return h->v;
}

/* Where offset off of the dense table's .debug_str starts probing. */
static size_t sslot_home(uint32_t off, size_t cap)
{
	return (size_t)(((uint64_t)off * 0x9E3779B97F4A7C15ull) >> 32) & (cap - 1);
}

/* Double the dense table (and svals with it). */
static void smap_grow(struct sf_reader *r)
{
	size_t ncap = r->scap ? r->scap * 2 : 1024;
	struct sslot *n = sf_xcalloc_table(ncap, sizeof(*n));

	for (size_t i = 0; i < r->scap; i++) {
		if (!r->smap[i].off1)
			continue;
		size_t j = sslot_home(r->smap[i].off1 - 1, ncap);
		while (n[j].off1)
			j = (j + 1) & (ncap - 1);
		n[j] = r->smap[i];
	}
	free(r->smap);
	r->smap = n;
	r->scap = ncap;
	r->svals = sf_xreallocarray(r->svals, ncap, sizeof(*r->svals));
}

/* The interned copy of the string at offset off of the dense table's
 * .debug_str. */
static const char *isec_strp(struct sf_reader *r, uint32_t off)
{
	if ((r->scount + 1) * 4 > r->scap * 3)
		smap_grow(r);
	size_t j = sslot_home(off, r->scap);
	for (; r->smap[j].off1; j = (j + 1) & (r->scap - 1))
		if (r->smap[j].off1 == off + 1)
			return r->svals[r->smap[j].idx];
	assert(r->scount < r->scap);
	const char *v = sf_typeset_intern(r->out, r->sbase + off);
	r->smap[j] = (struct sslot){ off + 1, (uint32_t)r->scount };
	r->svals[r->scount++] = v;
	return v;
}

/* The .debug_str offset of s when it lies in the dense table's section
 * (taken from the reader's file on first use), else -1. */
static int64_t strp_offset(struct sf_reader *r, const char *s)
{
	if (!r->sbase && r->f && r->f->sec[SF_SEC_STR].data &&
	    r->f->sec[SF_SEC_STR].size < UINT32_MAX) {
		r->sbase = (const char *)r->f->sec[SF_SEC_STR].data;
		r->ssize = sec_span(&r->f->sec[SF_SEC_STR]);
	}
	if (!r->sbase || s < r->sbase || s >= r->sbase + r->ssize)
		return -1;
	return s - r->sbase;
}

/* rd_isec past its direct-mapped front. */
static const char *isec_slow(struct sf_reader *r, const char *s)
{
	int64_t off = strp_offset(r, s);

	if (off >= 0)
		return isec_strp(r, (uint32_t)off);
	if ((r->pcount + 1) * 2 > r->pcap) {
		size_t ncap = r->pcap ? r->pcap * 2 : 256;
		struct pslot *n = sf_xcalloc_table(ncap, sizeof(*n));
		for (size_t i = 0; i < r->pcap; i++) {
			if (!r->pmap[i].k)
				continue;
			size_t j = sf_mix64((uintptr_t)r->pmap[i].k) & (ncap - 1);
			while (n[j].k)
				j = (j + 1) & (ncap - 1);
			n[j] = r->pmap[i];
		}
		free(r->pmap);
		r->pmap = n;
		r->pcap = ncap;
	}
	size_t j = sf_mix64((uintptr_t)s) & (r->pcap - 1);
	for (; r->pmap[j].k; j = (j + 1) & (r->pcap - 1))
		if (r->pmap[j].k == s)
			return r->pmap[j].v;
	r->pmap[j].k = s;
	r->pmap[j].v = sf_typeset_intern(r->out, s);
	r->pcount++;
	return r->pmap[j].v;
}

/* parts[0, n) one after the other, interned; *total its length. */
static const char *icat(struct sf_reader *r, const char *const *parts, size_t n, size_t *total_out)
{
	size_t len[5], total = 0;
	char stack[512];

	assert(n <= 5);
	for (size_t i = 0; i < n; i++)
		total += len[i] = strlen(parts[i]);
	char *buf = total < sizeof(stack) ? stack : sf_xmalloc(total + 1);
	for (size_t i = 0, at = 0; i < n; at += len[i], i++)
		memcpy(buf + at, parts[i], len[i]);
	const char *s = sf_typeset_intern_n(r->out, buf, total);
	if (buf != stack)
		free(buf);
	*total_out = total;
	return s;
}

/* x y z, interned. */
const char *rd_icat(struct sf_reader *r, const char *x, const char *y, const char *z)
{
	size_t n;

	return icat(r, (const char *const[]){ x, y, z }, 3, &n);
}

static size_t spell_hash(const char *x, const char *y, const char *z)
{
	return sf_mix64((uintptr_t)x ^ sf_mix64((uintptr_t)y ^ sf_mix64((uintptr_t)z)));
}

/* The memo's slot of pieces x y z, of a spelling (named 0: rd_spell) or
 * a spelled name (1: rd_spell_name); empty (v NULL) when not made yet. */
static struct spell *spell_slot(struct sf_reader *r, const char *x, const char *y, const char *z,
				int named)
{
	if ((r->nspells + 1) * 2 > r->spellcap) {
		size_t ncap = r->spellcap ? r->spellcap * 2 : 1024;
		struct spell *n = sf_xcalloc_table(ncap, sizeof(*n));
		for (size_t i = 0; i < r->spellcap; i++) {
			if (!r->spells[i].v)
				continue;
			size_t j = spell_hash(r->spells[i].x, r->spells[i].y, r->spells[i].z) & (ncap - 1);
			while (n[j].v)
				j = (j + 1) & (ncap - 1);
			n[j] = r->spells[i];
		}
		free(r->spells);
		r->spells = n;
		r->spellcap = ncap;
	}
	size_t j = spell_hash(x, y, z) & (r->spellcap - 1);
	for (; r->spells[j].v; j = (j + 1) & (r->spellcap - 1))
		if (r->spells[j].x == x && r->spells[j].y == y && r->spells[j].z == z &&
		    (r->spells[j].tail != NULL) == named)
			break;
	return &r->spells[j];
}

/*
 * rd_icat of pieces whose addresses are stable for the reader's output
 * (interned strings, literals, section data), memoized by address: a
 * spelling such as "struct list_head *" is made once per reader, not once
 * per unit (each unit resolves the same headers' types again).
 */
const char *rd_spell(struct sf_reader *r, const char *x, const char *y, const char *z)
{
	struct spell *s = spell_slot(r, x, y, z, 0);

	if (!s->v) {
		*s = (struct spell){ x, y, z, rd_icat(r, x, y, z), NULL };
		r->nspells++;
	}
	return s->v;
}

/* The spelling "kw scope::name", and its tail the name, *tail: the
 * spelling interned first, so that a new name is its tail. */
static const char *spell_name(struct sf_reader *r, const char *kw, const char *scope,
			      const char *name, const char **tail)
{
	size_t n, k = strlen(kw) + 1;
	const char *v = *scope ? icat(r, (const char *const[]){ kw, " ", scope, "::", name }, 5, &n)
			       : icat(r, (const char *const[]){ kw, " ", name }, 3, &n);

	*tail = sf_typeset_intern_n(r->out, v + k, n - k);
	return v;
}

const char *rd_spell_name(struct sf_reader *r, const char *kw, const char *scope,
			  const char *name, const char **tail)
{
	/* a scope's name lives in the unit's scratch (units.c): its address
	 * is no key past the unit */
	if (*scope)
		return spell_name(r, kw, scope, name, tail);
	struct spell *s = spell_slot(r, kw, "", name, 1);
	if (!s->v) {
		const char *t;
		const char *v = spell_name(r, kw, "", name, &t);
		*s = (struct spell){ kw, "", name, v, t };
		r->nspells++;
	}
	*tail = s->tail;
	return s->v;
}

/* Forget the interned strings' maps: their values live in r->out, which
 * is going (merged, or freed on an error). */
void rd_strings_forget(struct sf_reader *r)
{
	memset(r->hot, 0, sizeof(r->hot));
	r->s_empty = r->s_unknown = NULL;
	free(r->pmap);
	r->pmap = NULL;
	r->pcount = r->pcap = 0;
	free(r->smap);
	r->smap = NULL;
	free(r->svals);
	r->svals = NULL;
	r->scount = r->scap = 0;
	r->sbase = NULL;
	r->ssize = 0;
	free(r->spells);
	r->spells = NULL;
	r->nspells = r->spellcap = 0;
}

