/*
 * live.c - counts files and /proc/slabinfo parsed from bytes, slab caches
 * matched to structs, and the live table the ranking reads (live.h).
 *
 * Both parsers walk the buffer line by line and split each line into
 * blank-separated words in place of a copy (a line is at most a few
 * hundred bytes; a slabinfo a few hundred lines), so the only allocations
 * are the arrays kept and their names.  The slab unit (live.h) is a
 * handful of integers derived per cache when suggest or fit asks.
 */
#include "live.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "lib/checked.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#define MAX_WORDS 32
#define MAX_LINE 4096

/* One line of buf split into words (pointers into a copy). */
struct line {
	char text[MAX_LINE];
	char *w[MAX_WORDS];
	size_t nw;
};

/* Next line of buf[*pos..len) into ln, `#` comment cut when cut_comment;
 * false at the end.  A line too long is kept cut (the parser refuses it
 * through its words). */
static bool next_line(const char *buf, size_t len, size_t *pos, struct line *ln,
		      bool cut_comment)
{
	if (*pos >= len)
		return false;
	const char *p = buf + *pos, *nl = memchr(p, '\n', len - *pos);
	size_t n = nl ? (size_t)(nl - p) : len - *pos;

	*pos += n + (nl != NULL);
	if (n >= MAX_LINE)
		n = MAX_LINE - 1;
	memcpy(ln->text, p, n);
	ln->text[n] = '\0';
	if (cut_comment && (p = strchr(ln->text, '#')) != NULL)
		ln->text[p - ln->text] = '\0';
	ln->nw = 0;
	for (char *s = ln->text; *s;) {
		while (*s == ' ' || *s == '\t' || *s == '\r')
			*s++ = '\0';
		if (!*s)
			break;
		if (ln->nw == MAX_WORDS)
			break;
		ln->w[ln->nw++] = s;
		while (*s && *s != ' ' && *s != '\t' && *s != '\r')
			s++;
	}
	return true;
}

/* The problem p on line `line`, about the word s (may be NULL) of the
 * column `field` (may be NULL), into why.  Returns -1. */
static int problem(struct sf_live_why *why, enum sf_live_problem p, uint32_t line,
		   const char *field, const char *s)
{
	why->problem = p;
	why->line = line;
	why->field = field;
	why->word[0] = '\0';
	if (s) {
		size_t n = strlen(s);
		if (n > sizeof(why->word) - 1)
			n = sizeof(why->word) - 1;
		memcpy(why->word, s, n);
		why->word[n] = '\0';
	}
	return -1;
}

/* A count: decimal digits that fit 64 bits; why says which when not. */
static int parse_number(uint32_t line, const char *what, const char *s, uint64_t *out,
			struct sf_live_why *why)
{
	if (sf_parse_decimal(s, out) == 0)
		return 0;
	if (strspn(s, "0123456789") == strlen(s) && *s)
		return problem(why, SF_LIVE_PAST_64, line, what, s);
	return problem(why, SF_LIVE_NOT_NUMBER, line, what, s);
}

int sf_counts_parse(const char *buf, size_t len, struct sf_counts *out,
		    struct sf_live_why *why)
{
	struct line ln;
	size_t pos = 0, alloc = 0;
	uint32_t lineno = 0;

	memset(out, 0, sizeof(*out));
	while (next_line(buf, len, &pos, &ln, true)) {
		uint64_t v;
		lineno++;
		if (!ln.nw)
			continue;
		if (ln.nw < 2) {
			sf_counts_release(out);
			return problem(why, SF_LIVE_NOT_PAIR, lineno, NULL, ln.w[0]);
		}
		if (parse_number(lineno, "count", ln.w[ln.nw - 1], &v, why) < 0) {
			sf_counts_release(out);
			return -1;
		}
		/* TYPE: the words before the count, one blank between them */
		struct strbuf name = STRBUF_INIT;
		for (size_t i = 0; i + 1 < ln.nw; i++)
			sb_addf(&name, "%s%s", i ? " " : "", ln.w[i]);
		SF_GROW(out->v, out->n, alloc);
		out->v[out->n++] = (struct sf_count){ sb_detach(&name), v, lineno };
	}
	return 0;
}

void sf_counts_release(struct sf_counts *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->v[i].name);
	free(c->v);
	memset(c, 0, sizeof(*c));
}

/* One cache line: name and five numbers, then ':' (or the line's end). */
static int slab_line(uint32_t lineno, const struct line *ln, struct sf_slab *s,
		     struct sf_live_why *why)
{
	static const char *const what[] = { "active_objs", "num_objs", "objsize",
					    "objperslab", "pagesperslab" };
	uint64_t *v[] = { &s->active, &s->num, &s->objsize, &s->objperslab,
			  &s->pagesperslab };

	if (ln->nw < 6 || (ln->nw > 6 && strcmp(ln->w[6], ":")))
		return problem(why, SF_LIVE_NOT_CACHE_LINE, lineno, NULL, NULL);
	for (size_t i = 0; i < 5; i++)
		if (parse_number(lineno, what[i], ln->w[1 + i], v[i], why) < 0)
			return -1;
	s->name = sf_xstrdup(ln->w[0]);
	s->line = lineno;
	return 0;
}

int sf_slabinfo_parse(const char *buf, size_t len, struct sf_slabinfo *out,
		      struct sf_live_why *why)
{
	struct line ln;
	size_t pos = 0, alloc = 0;
	uint32_t lineno = 1;

	memset(out, 0, sizeof(*out));
	if (!next_line(buf, len, &pos, &ln, false) || ln.nw != 4 ||
	    strcmp(ln.w[0], "slabinfo") || strcmp(ln.w[1], "-") ||
	    strcmp(ln.w[2], "version:"))
		return problem(why, SF_LIVE_NOT_SLABINFO, 1, NULL, NULL);
	if (strcmp(ln.w[3], "2.1"))
		return problem(why, SF_LIVE_VERSION, 1, NULL, ln.w[3]);
	while (next_line(buf, len, &pos, &ln, false)) {
		struct sf_slab s;
		lineno++;
		if (!ln.nw || ln.w[0][0] == '#')
			continue;
		if (slab_line(lineno, &ln, &s, why) < 0) {
			sf_slabinfo_release(out);
			return -1;
		}
		SF_GROW(out->v, out->n, alloc);
		out->v[out->n++] = s;
	}
	return 0;
}

void sf_slabinfo_release(struct sf_slabinfo *si)
{
	for (size_t i = 0; i < si->n; i++)
		free(si->v[i].name);
	free(si->v);
	memset(si, 0, sizeof(*si));
}

/* ------------------------------------------------------------ matching */

/* SLUB's free pointer, put after the object when it may not overlap it
 * (a constructor, SLAB_TYPESAFE_BY_RCU) */
#define SLUB_WORD 8
#define CACHELINE 64

uint64_t sf_slab_most(const struct sf_type *t)
{
	uint64_t align = t->align > 8 ? t->align : 8;
	uint64_t by_align = sf_add_sat(sf_round_up_sat(t->size, align), SLUB_WORD);
	uint64_t by_line = sf_round_up_sat(sf_add_sat(t->size, SLUB_WORD), CACHELINE);

	return by_align > by_line ? by_align : by_line;
}

enum sf_slab_tail sf_slab_tail(const char *cache)
{
	static const struct {
		const char *cache;
		enum sf_slab_tail tail;
	} tails[] = {
		/* arch_task_struct_size: the struct, then the FPU registers */
		{ "task_struct", SF_SLAB_TAIL_FPU },
		/* mm_cache_init: the struct, then cpumask_size() and mm_cid */
		{ "mm_struct", SF_SLAB_TAIL_CPU_MASKS },
	};

	for (size_t i = 0; i < sizeof(tails) / sizeof(tails[0]); i++)
		if (!strcmp(cache, tails[i].cache))
			return tails[i].tail;
	return SF_SLAB_TAIL_NONE;
}

static bool untyped(const char *name)
{
	const char *p = !strncmp(name, "dma-", 4) ? name + 4 : name;

	/* kmalloc-64, kmalloc-rcl-64, kmalloc-cg-64: a size, not a type */
	return !strncmp(p, "kmalloc-", 8);
}

/* The largest struct/union/class called exactly name, or NULL. */
static const struct sf_type *find_struct(const struct sf_typeset *ts, const char *name)
{
	const struct sf_type *found[16];
	size_t n = sf_typeset_find(ts, name, found, 16);
	const struct sf_type *best = NULL;

	for (size_t i = 0; i < n && i < 16; i++) {
		const struct sf_type *t = found[i];
		if (t->kind != SF_KIND_STRUCT && t->kind != SF_KIND_UNION &&
		    t->kind != SF_KIND_CLASS)
			continue;
		if (!best || t->size > best->size)
			best = t;
	}
	return best;
}

/* name without `suffix` plus `add`, looked up; NULL when name lacks it. */
static const struct sf_type *by_suffix(const struct sf_typeset *ts, const char *name,
				       const char *suffix, const char *add)
{
	size_t n = strlen(name), k = strlen(suffix);

	if (n <= k || strcmp(name + n - k, suffix))
		return NULL;
	char *s = sf_xmalloc(n - k + strlen(add) + 1);
	memcpy(s, name, n - k);
	strcpy(s + n - k, add);
	const struct sf_type *t = find_struct(ts, s);
	free(s);
	return t;
}

/* The candidates for one cache, by the rules in live.h's order: --slab-map
 * alone when it names the cache; how many (at most 4). */
static size_t candidates(const struct sf_typeset *ts, const char *name,
			 const struct sf_slab_map *maps, size_t nmaps,
			 const struct sf_type **t, uint8_t *rule)
{
	size_t n = 0;

	for (size_t i = nmaps; i-- > 0;)	/* the last one given wins */
		if (!strcmp(maps[i].cache, name)) {
			rule[0] = SF_SLAB_BY_MAP;
			t[0] = find_struct(ts, maps[i].type);
			return t[0] != NULL;
		}
	if ((t[n] = find_struct(ts, name)) != NULL)
		rule[n++] = SF_SLAB_BY_NAME;
	if ((t[n] = by_suffix(ts, name, "_cachep", "")) != NULL)
		rule[n++] = SF_SLAB_BY_CACHE;
	if ((t[n] = by_suffix(ts, name, "_cache", "")) != NULL)
		rule[n++] = SF_SLAB_BY_CACHE;
	/* ext4_inode_cache holds ext4_inode_info, not the on-disk ext4_inode */
	if ((t[n] = by_suffix(ts, name, "_cache", "_info")) != NULL)
		rule[n++] = SF_SLAB_BY_INFO;
	return n;
}

/* Whether s can hold t: m's verdict, tail and bound. */
static void judge(const struct sf_slab *s, const struct sf_type *t, uint8_t rule,
		  struct sf_slab_match *m)
{
	m->type = t;
	m->rule = rule;
	m->tail = sf_slab_tail(s->name) != SF_SLAB_TAIL_NONE;
	m->most = m->tail ? UINT64_MAX : sf_slab_most(t);
	if (s->objsize < t->size)
		m->verdict = SF_SLAB_TOO_SMALL;
	else if (s->objsize > m->most)
		m->verdict = SF_SLAB_TOO_LARGE;
	else
		m->verdict = SF_SLAB_MATCHED;
}

/* The first candidate the objsize accepts; else the first one, rejected. */
static void match_one(const struct sf_slab *s, const struct sf_typeset *ts,
		      const struct sf_slab_map *maps, size_t nmaps,
		      struct sf_slab_match *m)
{
	const struct sf_type *t[4];
	uint8_t rule[4];
	size_t n;

	memset(m, 0, sizeof(*m));
	m->slab = s;
	if (untyped(s->name)) {
		m->verdict = SF_SLAB_UNTYPED;
		return;
	}
	n = candidates(ts, s->name, maps, nmaps, t, rule);
	if (!n) {
		m->verdict = SF_SLAB_NO_TYPE;
		return;
	}
	for (size_t i = 0; i < n; i++) {
		judge(s, t[i], rule[i], m);
		if (m->verdict == SF_SLAB_MATCHED)
			return;
	}
	judge(s, t[0], rule[0], m);
}

void sf_slab_match(const struct sf_slabinfo *si, const struct sf_typeset *ts,
		   const struct sf_slab_map *maps, size_t nmaps,
		   struct sf_slab_match *out)
{
	for (size_t i = 0; i < si->n; i++)
		match_one(&si->v[i], ts, maps, nmaps, &out[i]);
}

/* ------------------------------------------------------------ slab unit */

/* The fewest bytes e (a multiple of 8) with round_up(r8 + e, a) == o, for
 * o a multiple of a and o >= r8. */
static uint64_t min_extra(uint64_t o, uint64_t r8, uint64_t a)
{
	uint64_t lo = o - a + 8;

	return lo > r8 ? sf_round_up_sat(lo - r8, 8) : 0;
}

void sf_slab_unit_derive(const struct sf_slab *s, const struct sf_type *t,
			 struct sf_slab_unit *u)
{
	uint64_t r8 = sf_round_up_sat(t->size, 8), o = s->objsize;
	uint64_t a = t->align > 8 ? t->align : 8;

	u->pages = s->pagesperslab;
	u->slab_bytes = sf_mul_sat(s->pagesperslab, SF_SLAB_PAGE);
	if (o < r8 || o % 8) {
		/* not a SLUB slot for this struct: the model keeps the bytes */
		u->align = 8;
		u->extra = o > r8 ? o - r8 : 0;
	} else {
		if (o % a)
			a = 8;
		u->align = a;
		u->extra = min_extra(o, r8, a);
		/* more than a free pointer: a cacheline-aligned cache? */
		if (u->extra > SLUB_WORD && a < CACHELINE && o % CACHELINE == 0 &&
		    min_extra(o, r8, CACHELINE) <= SLUB_WORD) {
			u->align = CACHELINE;
			u->extra = min_extra(o, r8, CACHELINE);
		}
	}
	u->agrees = sf_slab_per(u, t->size) == s->objperslab;
}

uint64_t sf_slab_slot(const struct sf_slab_unit *u, uint64_t size)
{
	return sf_round_up_sat(sf_add_sat(sf_round_up_sat(size, 8), u->extra), u->align);
}

uint64_t sf_slab_per(const struct sf_slab_unit *u, uint64_t size)
{
	uint64_t slot = sf_slab_slot(u, size);

	return slot ? u->slab_bytes / slot : 0;
}

uint64_t sf_slab_size_for(const struct sf_slab_unit *u, uint64_t per)
{
	if (!per || !u->align)
		return 0;
	uint64_t x = u->slab_bytes / per / u->align * u->align;

	if (x <= u->extra)
		return 0;
	return (x - u->extra) / 8 * 8;
}

void sf_live_step_at(const struct sf_live_cost *c, uint64_t size, struct sf_live_step *out)
{
	uint64_t each = sf_add_sat(c->header, size);

	memset(out, 0, sizeof(*out));
	out->size = size;
	out->cls = SF_NO_CLASS;
	if (c->slab) {
		out->per = sf_slab_per(&c->unit, size);
		if (out->per)
			out->slabs = c->count / out->per + (c->count % out->per != 0);
		out->next_size = sf_slab_size_for(&c->unit, sf_add_sat(out->per, 1));
		/* a slab holds objects alone: no header, no class */
		each = sf_slab_slot(&c->unit, size);
	} else if (c->classes) {
		out->cls = sf_classes_find(c->classes, each);
		if (out->cls != SF_NO_CLASS)
			each = c->classes->v[out->cls];
	}
	out->bytes = sf_mul_sat(c->count, each);
}

/* ------------------------------------------------------------ live table */

void sf_live_add(struct sf_live *l, const struct sf_type *t, uint64_t n,
		 const struct sf_slab *slab)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].type == t) {
			l->v[i].count = sf_add_sat(l->v[i].count, n);
			if (!l->v[i].slab)
				l->v[i].slab = slab;
			return;
		}
	SF_GROW(l->v, l->n, l->alloc);
	l->v[l->n++] = (struct sf_live_entry){ t, n, slab };
}

const struct sf_live_entry *sf_live_find(const struct sf_live *l,
					 const struct sf_type *t)
{
	for (size_t i = 0; l && i < l->n; i++)
		if (l->v[i].type == t)
			return &l->v[i];
	return NULL;
}

void sf_live_release(struct sf_live *l)
{
	free(l->v);
	memset(l, 0, sizeof(*l));
}
