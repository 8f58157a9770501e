/*
 * narrow.c - the narrowing search (see narrow.h for what it computes).
 *
 * Every candidate is evaluated on a scratch copy of the type: its member
 * array copied into one malloc'ed buffer, the narrowed members given their
 * new size and alignment, then cut into placement units (reorder.h).  The
 * units' offsets are then replaced by the in-place layout (what the
 * compiler does with the declarations unchanged), because that is where a
 * pinned member "stays" once a narrowing is applied.  The reorder search
 * then gives the smallest size and the fewest moves.
 *
 * Cost: one size-only search per (member, width) and per pair of members,
 * and a full search (with moves) only for candidates that save bytes.  On
 * a struct of thousands of members that is thousands of searches of
 * thousands of units: the work is counted (NARROW_WORK) and the search
 * stops where it runs out, the largest members searched first; the result
 * says so (cut, searched of candidates), and what it lists is the best of
 * what was searched, not proven best.
 */
#include "narrow.h"

#include <assert.h>
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/sort.h"
#include "lib/xalloc.h"
#include "holefill.h"
#include "reorder.h"

/* Members the compiler makes (vtable pointers, base subobjects) are not
 * the user's to narrow. */
static bool compiler_made(const struct sf_member *m)
{
	return m->flags & (SF_MF_VPTR | SF_MF_BASE | SF_MF_VIRTUAL_BASE);
}

/* Rust's Box<T> is a struct holding one pointer: an arena index can
 * stand for it as for a pointer or a reference. */
static bool is_rust_box(const struct sf_member *m)
{
	return (m->flags & SF_MF_RUST) && m->tclass == SF_T_STRUCT && m->type_name &&
	       !strncmp(m->type_name, "alloc::boxed::Box<", 18);
}

/* Pointer-like: a 4-byte index into an arena is its only narrowing. */
static bool is_pointer_like(const struct sf_member *m)
{
	return m->tclass == SF_T_POINTER || is_rust_box(m);
}

static bool narrowable_kind(const struct sf_member *m)
{
	return !compiler_made(m) &&
	       (m->tclass == SF_T_INT || m->tclass == SF_T_ENUM ||
		m->tclass == SF_T_BOOL || is_pointer_like(m));
}

enum sf_narrow_refusal sf_narrow_check(const struct sf_member *m, uint64_t bytes)
{
	if (sf_member_is_bitfield(m))
		return SF_NARROW_BITFIELD;
	if (m->flags & SF_MF_FLEX_ARRAY)
		return SF_NARROW_FLEX_ARRAY;
	if (compiler_made(m))
		return SF_NARROW_COMPILER_MADE;
	if (!narrowable_kind(m))
		return SF_NARROW_NOT_SCALAR;
	if (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8)
		return SF_NARROW_BAD_WIDTH;
	if (bytes >= m->size)
		return SF_NARROW_NOT_SMALLER;
	return SF_NARROW_OK;
}

static bool is_signed(const struct sf_member *m)
{
	return m->tclass != SF_T_POINTER && m->tclass != SF_T_BOOL &&
	       (m->flags & SF_MF_SIGNED);
}

void sf_narrow_range(const struct sf_member *m, uint64_t bytes, char *buf, size_t n)
{
	unsigned bits = (unsigned)(8 * bytes);

	assert(bytes >= 1 && bytes <= 8);
	if (is_signed(m)) {
		int64_t hi = (int64_t)((UINT64_C(1) << (bits - 1)) - 1);
		snprintf(buf, n, "%" PRId64 "..%" PRId64, -hi - 1, hi);
	} else {
		uint64_t hi = bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
		snprintf(buf, n, "0..%" PRIu64, hi);
	}
}

/* Whether word w (of length n) is at s, as a whole word. */
static bool word_at(const char *s, const char *w, size_t n)
{
	return !strncmp(s, w, n) && !isalnum((unsigned char)s[n]) && s[n] != '_';
}

/*
 * The cv-qualifiers of member m itself, as bits (1 const, 2 volatile):
 * a narrowing keeps them (`volatile uint x` becomes `volatile uint16_t
 * x`, never a plain one).  A pointer's are those after its last '*'
 * ("char * volatile"); the pointee's ("const char *") are not m's.  A
 * qualifier hidden in a typedef is not seen.
 */
static unsigned member_quals(const struct sf_member *m)
{
	const char *s = m->type_name ? m->type_name : "";
	unsigned q = 0;

	if (m->flags & SF_MF_RUST)
		return 0;
	if (m->tclass == SF_T_POINTER) {
		const char *star = strrchr(s, '*');
		if (!star)
			return 0;
		s = star + 1;
	}
	for (;;) {
		while (*s == ' ')
			s++;
		if (word_at(s, "const", 5))
			q |= 1, s += 5;
		else if (word_at(s, "volatile", 8))
			q |= 2, s += 8;
		else
			return q;
	}
}

const char *sf_narrow_type_name(const struct sf_member *m, uint64_t bytes)
{
	/* [qualifiers][signed][width]: static, as the model's strings are */
	static const char *const c[4][2][4] = {
		{ { "uint8_t", "uint16_t", "uint32_t", "uint64_t" },
		  { "int8_t", "int16_t", "int32_t", "int64_t" } },
		{ { "const uint8_t", "const uint16_t", "const uint32_t", "const uint64_t" },
		  { "const int8_t", "const int16_t", "const int32_t", "const int64_t" } },
		{ { "volatile uint8_t", "volatile uint16_t", "volatile uint32_t",
		    "volatile uint64_t" },
		  { "volatile int8_t", "volatile int16_t", "volatile int32_t",
		    "volatile int64_t" } },
		{ { "const volatile uint8_t", "const volatile uint16_t",
		    "const volatile uint32_t", "const volatile uint64_t" },
		  { "const volatile int8_t", "const volatile int16_t",
		    "const volatile int32_t", "const volatile int64_t" } },
	};
	static const char *const ru[] = { "u8", "u16", "u32", "u64" };
	static const char *const rs[] = { "i8", "i16", "i32", "i64" };
	unsigned k = bytes == 1 ? 0 : bytes == 2 ? 1 : bytes == 4 ? 2 : 3;

	if (m->flags & SF_MF_RUST)
		return is_signed(m) ? rs[k] : ru[k];
	return c[member_quals(m)][is_signed(m)][k];
}

static uint32_t max_member_align(const struct sf_type *t)
{
	uint32_t a = 1;

	for (uint32_t i = 0; i < t->nmembers; i++)
		if (t->members[i].align > a)
			a = t->members[i].align;
	return a;
}

/* ---- scratch copies -------------------------------------------------- */

struct scratch {
	struct sf_type t;
	struct sf_member *members;
	struct sf_units us;
};

/* The narrowed copy of t in s->t (offsets still the old ones). */
static void narrow_copy(const struct sf_type *t, const struct sf_narrow_req *req,
			size_t nreq, struct scratch *s)
{
	bool packed = t->flags & SF_TF_PACKED;

	s->t = *t;
	s->members = sf_xcalloc(t->nmembers ? t->nmembers : 1, sizeof(*s->members));
	memcpy(s->members, t->members, t->nmembers * sizeof(*s->members));
	s->t.members = s->members;
	for (size_t k = 0; k < nreq; k++) {
		struct sf_member *m = &s->members[req[k].member];
		assert(req[k].member < t->nmembers);
		assert(req[k].bytes >= 1 && req[k].bytes < m->size);
		m->type_name = sf_narrow_type_name(m, req[k].bytes);
		m->type_suffix = "";
		m->size = req[k].bytes;
		/* an alignment asked for (`__aligned__(64)`) stays in the
		 * source whatever the type: the narrowed member keeps it */
		if (!(m->flags & SF_MF_ALIGNED))
			m->align = packed ? (m->align < req[k].bytes ? m->align
								     : (uint32_t)req[k].bytes)
					  : (uint32_t)req[k].bytes;
		if (is_pointer_like(m))
			m->flags &= (uint16_t)~SF_MF_SIGNED;
		m->tclass = SF_T_INT;
	}
	/* The struct's alignment came from its members unless something
	 * (an attribute, packing) set it: only then does it shrink with them. */
	if (!packed && t->align == max_member_align(t))
		s->t.align = max_member_align(&s->t);
}

/*
 * Units of the narrowed copy, with every unit's offset moved to the
 * in-place layout (pins hold there).  *size_in_place gets its size.
 */
static void scratch_units(const struct sf_type *t, const struct sf_narrow_req *req,
			  size_t nreq, const bool *pin, bool pin_first,
			  struct scratch *s, uint64_t *size_in_place)
{
	narrow_copy(t, req, nreq, s);
	sf_units_build(&s->t, pin, pin_first, &s->us);

	size_t n = s->us.n;
	uint32_t *order = sf_xcalloc(n ? n : 1, sizeof(*order));
	uint64_t *off = sf_xcalloc(n ? n : 1, sizeof(*off));
	bool *pinned = sf_xcalloc(n ? n : 1, sizeof(*pinned));
	for (size_t u = 0; u < n; u++) {
		order[u] = (uint32_t)u;
		pinned[u] = s->us.v[u].pinned;
		s->us.v[u].pinned = false;
	}
	uint64_t size = sf_units_place(&s->us, order, off);
	assert(size != SF_NO_FIT);
	for (size_t u = 0; u < n; u++) {
		s->us.v[u].pinned = pinned[u];
		s->us.v[u].offset = off[u];
	}
	if (size_in_place)
		*size_in_place = size;
	free(order);
	free(off);
	free(pinned);
}

static void scratch_release(struct scratch *s)
{
	sf_units_release(&s->us);
	free(s->members);
}

const struct sf_type *sf_type_narrow(const struct sf_type *t,
				     const struct sf_narrow_req *req, size_t nreq,
				     struct sf_typeset *arena)
{
	struct scratch s;
	struct sf_reorder r;
	uint64_t size;

	scratch_units(t, req, nreq, NULL, false, &s, &size);
	/* the in-place layout, as a reorder result in the old order */
	memset(&r, 0, sizeof(r));
	r.n = s.us.n;
	r.size = size;
	r.order = sf_xcalloc(r.n ? r.n : 1, sizeof(*r.order));
	r.offset = sf_xcalloc(r.n ? r.n : 1, sizeof(*r.offset));
	for (size_t u = 0; u < r.n; u++) {
		r.order[u] = (uint32_t)u;
		r.offset[u] = s.us.v[u].offset;
	}
	/* relayout shifts members by (new - old) offset: give it the old ones */
	struct sf_units old;
	sf_units_build(&s.t, NULL, false, &old);
	const struct sf_type *nt = sf_units_relayout(&old, &r, arena);
	/* its members point into s.members' strings, which live in t's typeset
	 * or are static: copying the array (done by relayout) is enough */
	sf_units_release(&old);
	free(r.order);
	free(r.offset);
	scratch_release(&s);
	return nt;
}

/* ---- the search ------------------------------------------------------ */

struct ctx {
	const struct sf_type *t;
	const struct sf_narrow_opts *o;
	uint64_t orig;
	size_t class_before;       /* of the struct as it is (reported) */
	size_t base_class;         /* of the best reordering: to beat */
	struct sf_narrow_result *out;
	size_t cap;
	uint64_t used;             /* work the searches did (NARROW_WORK) */
};

/*
 * The work the search may do, counted (not timed: the same input gives
 * the same answer on any machine) by the searches underneath in unit
 * placements and like steps (reorder.h's sf_units.work).  Searched
 * candidates stop once it is spent.  About a second on a 2020s core;
 * structs of a few hundred members seldom reach it.
 */
#define NARROW_WORK (UINT64_C(1) << 28)

/* Whether another search may start; false (and the result marked cut)
 * once the budget is spent. */
static bool may_search(struct ctx *c)
{
	if (c->used >= NARROW_WORK)
		c->out->cut = true;
	return !c->out->cut;
}

static size_t class_of(const struct ctx *c, uint64_t size)
{
	if (!c->o->classes)
		return SF_NO_CLASS;
	return sf_classes_find(c->o->classes, c->o->header + size);
}

/* The moves a placement may make: UINT32_MAX for any number. */
static uint32_t max_moves(const struct sf_narrow_opts *o)
{
	return o->max_moves ? o->max_moves : UINT32_MAX;
}

static bool bounded(const struct sf_narrow_opts *o)
{
	return max_moves(o) != UINT32_MAX;
}

/*
 * The smallest size of us's orders within the moves allowed, to choose the
 * candidates: beyond the exact search, what filling holes reaches (the
 * full search runs for the candidates kept).
 */
static uint64_t best_size(const struct sf_units *us, const struct sf_narrow_opts *o)
{
	struct sf_reorder r;

	if (!bounded(o))
		return sf_reorder_min_size(us, NULL);
	if (us->n > SF_REORDER_EXACT_MAX && !us->is_union) {
		uint32_t *order = sf_xcalloc(us->n, sizeof(*order));
		uint64_t size = sf_reorder_fill(us, 0, max_moves(o), order);
		free(order);
		return size;
	}
	sf_reorder_search_max(us, max_moves(o), &r);
	uint64_t size = r.size;
	sf_reorder_release(&r);
	return size;
}

/* SF_NO_FIT also when the budget is spent (out->cut). */
static uint64_t min_size_of(struct ctx *c, const struct sf_narrow_req *req,
			    size_t nreq)
{
	struct scratch s;

	if (!may_search(c))
		return SF_NO_FIT;
	c->out->searched += nreq == 1;
	scratch_units(c->t, req, nreq, c->o->pin, c->o->pin_first, &s, NULL);
	s.us.work = &c->used;
	uint64_t size = best_size(&s.us, c->o);
	scratch_release(&s);
	return size;
}

/* Full search for one candidate; appends it to the result. */
static void record(struct ctx *c, const struct sf_narrow_req *req, size_t nreq)
{
	struct scratch s;
	struct sf_reorder r;

	if (!may_search(c))
		return;
	scratch_units(c->t, req, nreq, c->o->pin, c->o->pin_first, &s, NULL);
	s.us.work = &c->used;
	s.us.heuristic = c->o->heuristic;
	sf_reorder_search_max(&s.us, max_moves(c->o), &r);
	if (r.size != SF_NO_FIT) {
		SF_GROW(c->out->v, c->out->n, c->cap);
		struct sf_narrowing *nw = &c->out->v[c->out->n++];
		memset(nw, 0, sizeof(*nw));
		nw->n = (uint32_t)nreq;
		for (size_t k = 0; k < nreq; k++) {
			nw->member[k] = req[k].member;
			nw->from[k] = c->t->members[req[k].member].size;
			nw->to[k] = req[k].bytes;
			size_t u = sf_units_of_member(&s.us, req[k].member);
			assert(u != SIZE_MAX);
			nw->offset[k] = r.offset[u];
		}
		nw->size = r.size;
		nw->saved = c->orig > r.size ? c->orig - r.size : 0;
		nw->moves = r.moves;
		nw->exact = r.exact;
		nw->class_before = c->class_before;
		nw->class_after = class_of(c, r.size);
	}
	sf_reorder_release(&r);
	scratch_release(&s);
}

/* Widths to try for m, widest first; returns how many. */
static size_t widths_of(const struct sf_member *m, uint64_t *w)
{
	static const uint64_t all[] = { 8, 4, 2, 1 };
	size_t n = 0;

	if (!narrowable_kind(m) || sf_member_is_bitfield(m) ||
	    (m->flags & SF_MF_FLEX_ARRAY))
		return 0;
	for (size_t i = 0; i < 4; i++) {
		if (all[i] >= m->size)
			continue;
		if (is_pointer_like(m) && all[i] != 4)
			continue;   /* a pointer becomes a 4-byte index */
		w[n++] = all[i];
	}
	return n;
}

/* Members by decreasing size, then declaration order: when the budget
 * runs out, the members narrowing saves most on were searched. */
static bool member_larger(const void *ctx, uint32_t a, uint32_t b)
{
	const struct sf_type *t = ctx;

	return t->members[a].size > t->members[b].size;
}

static uint32_t *by_size(const struct sf_type *t)
{
	uint32_t n = t->nmembers;
	uint32_t *v = sf_xcalloc(n ? n : 1, sizeof(*v));

	for (uint32_t i = 0; i < n; i++)
		v[i] = i;
	sf_sort_stable(v, n, member_larger, t);
	return v;
}

/* Every (member, width) a candidate: out->candidates counts them. */
static void count_candidates(struct ctx *c)
{
	for (uint32_t i = 0; i < c->t->nmembers; i++) {
		uint64_t w[4];
		c->out->candidates += widths_of(&c->t->members[i], w);
	}
}

static void search_singles(struct ctx *c)
{
	const struct sf_type *t = c->t;
	uint32_t *order = by_size(t);

	count_candidates(c);
	for (uint32_t k = 0; k < t->nmembers && !c->out->cut; k++) {
		uint32_t i = order[k];
		uint64_t w[4], best = c->out->reorder_size;
		size_t nw = widths_of(&t->members[i], w);
		for (size_t j = 0; j < nw && !c->out->cut; j++) {
			struct sf_narrow_req req = { i, w[j] };
			uint64_t size = min_size_of(c, &req, 1);
			/* keep it if it beats both no narrowing and a wider width */
			if (size == SF_NO_FIT || size >= best)
				continue;
			best = size;
			record(c, &req, 1);
		}
	}
	free(order);
}

static bool any_single_crosses(const struct ctx *c)
{
	for (size_t k = 0; k < c->out->n; k++)
		if (c->out->v[k].class_after < c->base_class)
			return true;
	return false;
}

/* The widest pair of widths for (a, b) reaching class `cls`. */
static void best_pair(struct ctx *c, uint32_t a, uint32_t b, size_t cls)
{
	uint64_t wa[4], wb[4];
	size_t na = widths_of(&c->t->members[a], wa);
	size_t nb = widths_of(&c->t->members[b], wb);
	struct sf_narrow_req best[2];
	uint64_t best_width = 0;

	for (size_t i = 0; i < na; i++) {
		for (size_t j = 0; j < nb; j++) {
			struct sf_narrow_req req[2] = { { a, wa[i] }, { b, wb[j] } };
			if (wa[i] + wb[j] <= best_width)
				continue;
			uint64_t size = min_size_of(c, req, 2);
			if (size != SF_NO_FIT && class_of(c, size) <= cls) {
				best_width = wa[i] + wb[j];
				best[0] = req[0];
				best[1] = req[1];
			}
		}
	}
	if (best_width == 0) {
		assert(c->out->cut);   /* the narrowest pair crossed: only the budget stops it */
		return;
	}
	record(c, best, 2);
}

static void search_pairs(struct ctx *c)
{
	const struct sf_type *t = c->t;

	for (uint32_t a = 0; a < t->nmembers && !c->out->cut; a++) {
		uint64_t wa[4];
		size_t na = widths_of(&t->members[a], wa);
		for (uint32_t b = a + 1; na && b < t->nmembers && !c->out->cut; b++) {
			uint64_t wb[4];
			size_t nb = widths_of(&t->members[b], wb);
			if (!nb)
				continue;
			/* narrowest first: if even that does not cross, nothing does */
			struct sf_narrow_req req[2] = { { a, wa[na - 1] }, { b, wb[nb - 1] } };
			uint64_t size = min_size_of(c, req, 2);
			if (size == SF_NO_FIT)
				continue;
			size_t cls = class_of(c, size);
			if (size < c->out->reorder_size && cls < c->base_class)
				best_pair(c, a, b, cls);
		}
	}
}

/* Is one of name's words (split on '_' and lower-to-upper case changes,
 * compared without case) in words[]? */
static bool name_has_word(const char *name, const char *const *words, size_t nwords)
{
	char tok[64];
	size_t k = 0;

	for (const char *p = name;; p++) {
		bool boundary = !*p || *p == '_' ||
				(k && isupper((unsigned char)*p) &&
				 islower((unsigned char)p[-1]));
		if (boundary && k) {
			tok[k] = '\0';
			for (size_t w = 0; w < nwords; w++)
				if (!strcmp(tok, words[w]))
					return true;
			k = 0;
		}
		if (!*p)
			break;
		if (*p != '_' && k < sizeof(tok) - 1)
			tok[k++] = (char)tolower((unsigned char)*p);
	}
	return false;
}

bool sf_name_counts(const char *name)
{
	static const char *const words[] = {
		"num", "nr", "n", "count", "cnt", "len", "length", "size", "sz",
		"bound", "max", "cap", "capa", "capacity", "total", "limit",
		"bytes", "used", "alloc", "allocated",
	};

	return name_has_word(name, words, sizeof(words) / sizeof(words[0]));
}

bool sf_name_indexes(const char *name)
{
	static const char *const words[] = {
		"start", "begin", "end", "pos", "position", "idx", "index",
		"off", "offset", "head", "tail", "cursor",
	};

	return name_has_word(name, words, sizeof(words) / sizeof(words[0]));
}

bool sf_name_grows(const char *name)
{
	return sf_name_counts(name) || sf_name_indexes(name);
}

/* Exact counts, lengths and capacities: narrowing one caps the program. */
static bool name_exact_count(const char *name)
{
	static const char *const words[] = {
		"num", "nr", "n", "count", "cnt", "len", "length", "size", "sz",
		"cap", "capa", "capacity",
	};

	return name_has_word(name, words, sizeof(words) / sizeof(words[0]));
}

/* Cached positions and hints: a value that lags behind (saturates) costs
 * time, not correctness (Ruby's entries_start). */
static bool name_hint(const char *name)
{
	static const char *const words[] = {
		"start", "hint", "cache", "cached", "last", "cursor",
	};

	return name_has_word(name, words, sizeof(words) / sizeof(words[0]));
}

enum sf_name_role sf_name_role(const char *name)
{
	/* a count word wins: "cached_len" is a length, and ranking a
	 * member too late costs less than capping it unsaid */
	if (name_exact_count(name))
		return SF_ROLE_COUNT;
	if (name_hint(name))
		return SF_ROLE_HINT;
	if (sf_name_grows(name))
		return SF_ROLE_GROWS;
	return SF_ROLE_PLAIN;
}

enum sf_name_role sf_member_role(const struct sf_member *m)
{
	return is_pointer_like(m) ? SF_ROLE_DESIGN : sf_name_role(m->name);
}

bool sf_narrowings_tie(const struct sf_narrowing *x, const struct sf_narrowing *y)
{
	uint64_t wx = x->to[0] + (x->n > 1 ? x->to[1] : 0);
	uint64_t wy = y->to[0] + (y->n > 1 ? y->to[1] : 0);

	return x->class_after == y->class_after && x->size == y->size &&
	       x->n == y->n && wx == wy;
}

enum sf_narrow_overflow_kind sf_narrow_overflow_kind(const struct sf_member *m)
{
	if (is_pointer_like(m))
		return SF_OVERFLOW_INDEX;
	return sf_name_grows(m->name) ? SF_OVERFLOW_GROWS : SF_OVERFLOW_RANGE;
}

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

static int compare(const struct sf_narrowing *x, const struct sf_narrowing *y,
		   const struct sf_type *t)
{
	int r;

	if ((r = cmp_u64(x->class_after, y->class_after)))
		return r;
	if ((r = cmp_u64(x->size, y->size)))
		return r;
	if ((r = cmp_u64(x->n, y->n)))
		return r;
	uint64_t wx = x->to[0] + (x->n > 1 ? x->to[1] : 0);
	uint64_t wy = y->to[0] + (y->n > 1 ? y->to[1] : 0);
	if ((r = cmp_u64(wy, wx)))
		return r;
	/* a value that outgrows its width is a bug no test finds; a move is
	 * only an edit: what the names say ranks before moves (hints first,
	 * exact counts, then pointers last: a pair counts as its riskier
	 * member) */
	uint64_t rx = 0, ry = 0;
	for (uint32_t k = 0; k < x->n; k++) {
		uint64_t q = sf_member_role(&t->members[x->member[k]]);
		rx = q > rx ? q : rx;
	}
	for (uint32_t k = 0; k < y->n; k++) {
		uint64_t q = sf_member_role(&t->members[y->member[k]]);
		ry = q > ry ? q : ry;
	}
	if ((r = cmp_u64(rx, ry)))
		return r;
	if ((r = cmp_u64(x->moves, y->moves)))
		return r;
	if ((r = cmp_u64(x->member[0], y->member[0])))
		return r;
	return cmp_u64(x->n > 1 ? x->member[1] : 0, y->n > 1 ? y->member[1] : 0);
}

/* Insertion sort: lists are short, and it needs the type as context. */
static void rank(struct sf_narrowing *v, size_t n, const struct sf_type *t)
{
	for (size_t i = 1; i < n; i++) {
		struct sf_narrowing x = v[i];
		size_t j = i;
		while (j > 0 && compare(&x, &v[j - 1], t) < 0) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = x;
	}
}

void sf_narrow_search(const struct sf_type *t, const struct sf_narrow_opts *o,
		      struct sf_narrow_result *out)
{
	struct ctx c = { t, o, o->orig_size ? o->orig_size : t->size, 0, 0, out, 0, 0 };
	struct sf_units us;

	memset(out, 0, sizeof(*out));
	c.class_before = class_of(&c, c.orig);
	sf_units_build(t, o->pin, o->pin_first, &us);
	us.work = &c.used;
	out->reorder_size = best_size(&us, o);
	if (out->reorder_size == SF_NO_FIT)
		out->reorder_size = t->size;
	sf_units_release(&us);
	c.base_class = class_of(&c, out->reorder_size);

	search_singles(&c);
	if (o->classes && !any_single_crosses(&c)) {
		out->pairs_searched = true;
		search_pairs(&c);
	}
	rank(out->v, out->n, t);
}

void sf_narrow_release(struct sf_narrow_result *r)
{
	free(r->v);
	memset(r, 0, sizeof(*r));
}
