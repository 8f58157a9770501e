/*
 * reader.c - build sf_types from the DIEs of a range of units.
 *
 * Per unit, every type DIE that a struct needs is decoded once into a
 * `struct tinfo` (what the type means to a member of that type: its C
 * spelling, size, alignment, class, signedness) and cached by section
 * offset.  Aggregates get a second, lazy stage, `layout()`, that builds
 * their member list; it runs only for types that are reported or that are
 * members by value of one that is (pointers need only a spelling).  All of
 * that lives in a scratch arena reset after each unit:
 *
 *   unit ---> tinfo cache (offset -> tinfo, generation-stamped slots)
 *               tinfo: left/right spelling, size, align, tclass, flags,
 *                      agg -> tinfo of the aggregate giving the layout,
 *                      model -> struct xtype (scratch sf_type + members)
 *
 * A reported type is compared with what the output (and the caller's
 * typeset) already hold; only a new definition is deep-copied into the
 * output typeset, with its strings interned.  So peak memory is the
 * unique types plus one unit's scratch, however many units repeat them.
 *
 * The walk only lists the unit's types to report; they are laid out and
 * reported once it ends (report_tops), because DWARF does not say
 * "packed": a struct whose own layout looks natural may show it is packed
 * only where a later type holds it (mark_packed), and the types laid out
 * before then took its old alignment.  With -t NAME only the named types
 * are laid out, so such evidence from other types of the unit is not
 * seen there.
 *
 * C spelling: a type is two pieces around the member name, left and
 * right: "int (*" + name + ")(void)", "char" + name + "[3][4]".  Pointer,
 * cv-qualifier, array and function DIEs compose those pieces the way C
 * declarators nest.
 *
 * dwz: a compile unit imports partial units (DW_TAG_imported_unit) of its
 * own file or of the alt file, and refers to their DIEs (DW_FORM_ref_addr,
 * DW_FORM_GNU_ref_alt).  A unit handle belongs to one of the two files
 * (uh->cx.f), and tinfo keys carry which.  The types of a partial unit are
 * reported where it is first imported, with the importing unit's language
 * (dwz's partial units have none), once per reader; so an alt file shared
 * by several programs yields only the types this one imports.
 *
 * Qualified names (C++): a pre-pass over a non-C unit records the offset
 * ranges of namespaces and classes, so a DIE's scope is found by offset
 * even when it is referenced before the walk reaches it.
 *
 * Recursion is bounded everywhere (type chains, layout nesting, scopes),
 * so hostile DWARF costs a bounded amount of stack and never loops.
 */
#include "reader.h"

#include <assert.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dwarf.h>

#include "layout/abi.h"
#include "layout/holes.h"
#include "layout/nested.h"
#include "layout/packing.h"
#include "lib/hash.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#define MAX_RESOLVE_DEPTH 200
#define MAX_LAYOUT_DEPTH 100
#define MAX_SCOPE_DEPTH 200
#define MAX_MEMBERS (1u << 24)

/* ---- scratch arena ---------------------------------------------------- */

struct chunk {
	struct chunk *next;
	size_t used, cap;
	max_align_t data[];
};

struct arena {
	struct chunk *head;   /* chunks in use, newest first */
	struct chunk *spare;  /* chunks kept for reuse after a reset */
};

static void *arena_alloc_raw(struct arena *a, size_t n);

/* Zeroed memory from the arena. */
static void *arena_alloc(struct arena *a, size_t n)
{
	void *p = arena_alloc_raw(a, n);

	memset(p, 0, n);
	return p;
}

/* Memory the caller fills at once (member arrays copied in). */
static void *arena_alloc_raw(struct arena *a, size_t n)
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

static void arena_reset(struct arena *a)
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

static void arena_free(struct arena *a)
{
	arena_reset(a);
	while (a->spare) {
		struct chunk *c = a->spare;
		a->spare = c->next;
		free(c);
	}
}

static char *arena_cat(struct arena *a, const char *x, const char *y, const char *z)
{
	size_t nx = strlen(x), ny = strlen(y), nz = strlen(z);
	char *s = arena_alloc(a, nx + ny + nz + 1);

	memcpy(s, x, nx);
	memcpy(s + nx, y, ny);
	memcpy(s + nx + ny, z, nz);
	return s;
}

/* ---- what a type means to a member ------------------------------------ */

enum {
	TI_SIGNED = 1u << 0,
	TI_ALIGNED = 1u << 1,   /* DW_AT_alignment on it or in its typedef chain */
	TI_DECL = 1u << 2,      /* an aggregate only declared here */
	TI_ANON = 1u << 3,      /* an anonymous aggregate definition */
	TI_FLEX = 1u << 4,      /* array of unknown or zero length */
	TI_FUNC = 1u << 5,      /* spelled as a function: right is "(...)" */
	TI_ARRAY = 1u << 6,     /* spelled as an array: right is "[n]..." */
	TI_PTR = 1u << 7,       /* left ends with '*' or '&' */
	TI_BUSY = 1u << 8,      /* being resolved (cycle guard) */
	TI_LAYING = 1u << 9,    /* being laid out (cycle guard) */
	TI_LAID = 1u << 10,
	TI_AGG = 1u << 11,      /* a struct/union/class DIE */
	TI_EMPTY = 1u << 12,    /* C++ empty class (1 byte, no data) */
	TI_PACKED = 1u << 14,   /* packed: a container has it where only a
	                         * packed type can be (see mark_packed) */
	TI_UNSIZED = 1u << 15,  /* rests on a type that could not be resolved
	                         * (a loop, a bad reference, the depth limit):
	                         * its size is unknown, not 0 */
};

struct uh;
struct xtype;

struct tinfo {
	uint64_t key;
	const char *left, *right;
	uint64_t size;
	uint32_t align;         /* scalars; aggregates once laid out */
	uint32_t align_attr;    /* DW_AT_alignment in force, 0 if none */
	uint32_t flags;
	uint8_t tclass;
	uint8_t kind;           /* aggregates: enum sf_kind */
	struct tinfo *agg;      /* the aggregate whose layout this needs */
	struct tinfo *anon;     /* anonymous aggregate shown nested */
	struct tinfo *anon_enum; /* anonymous enum (or array of one) */
	struct tinfo *pointee;  /* a pointer's anonymous aggregate or enum
	                         * (or an array of such pointers) */
	const struct sf_enum *enums; /* anonymous enums, once read */
	uint32_t natural;       /* aggregates once laid out: see sf_type */
	uint64_t dsize;         /* aggregates once laid out: end of the data
	                         * of the non-virtual part (C++ layout) */
	struct xtype *model;
	const char *qname;      /* aggregates, enums, typedefs: bare name */
	const char *keyword;    /* aggregates: "struct", "union", "class" */
	uint64_t rust_elem_size; /* arrays: the element's size (Rust spelling) */
	struct uh *unit;
};

/* A scratch model: the sf_type plus what deep-copying it needs. */
struct xtype {
	struct sf_type t;
	struct uh *unit;
	uint32_t file;          /* DW_AT_decl_file index */
	const char **inc;       /* per member: name of its declared-only type */
	uint32_t *natural;      /* per member: its type's natural alignment */
	uint8_t forced;         /* packed by mark_packed */
};

struct slot {
	uint64_t key;
	uint32_t gen;
	struct tinfo *ti;
};

struct scope {
	uint64_t start, end;
	long parent;
	const char *qname;      /* "" for a scope that adds nothing */
};

/* An opened unit and what is known of its scopes. */
struct uh {
	struct sf_ucx cx;
	int open;
	uint8_t in_alt;         /* a unit of the dwz alt file (cx.f == r->f->alt) */
	int scoped;             /* scope ranges computed */
	struct scope *scopes;
	size_t nscopes, scopecap;
	struct sf_abi abi;
};

/* An abbreviation table of file f at offset off, parsed once per reader. */
struct shared_ab {
	const struct sf_dwfile *f;
	uint64_t off;
	int bad;                /* corrupt: units open it themselves, and fail */
	struct sf_abbrevs ab;
};

struct pend {
	struct sf_type *t;      /* in pending_ts */
	uint32_t n;
	uint32_t *idx;          /* members still incomplete */
	const char **qname;     /* the names of their types */
	uint32_t *natural;      /* per member of t: natural alignment */
	uint8_t forced;         /* packed for where a container has it */
};

/* The members of one aggregate being laid out, with what only the
 * layout needs per member (parallel arrays). */
struct mvec {
	struct sf_member *m;
	const char **inc;
	uint8_t *vbase_unplaced;
	uint32_t *natural;
	struct tinfo **ty;      /* the member's type */
	size_t n, cap, inccap, vcap, natcap, tycap;
};

/* A type the walk found to report, once the whole unit is laid out. */
struct top {
	struct tinfo *ti;
	const char *name;
	int is_typedef;
};

struct sf_pending {
	struct sf_typeset *ts;  /* holds the types and their pend arrays */
	struct pend *pend;
	size_t n, cap;
};

struct sf_reader {
	const struct sf_dwfile *f;
	struct sf_elf *elf;
	struct sf_typeset *out;
	const struct sf_typeset *known;
	const struct sf_pending *held;
	const char *origin;
	const char *const *only;

	struct arena arena;
	struct slot *map;
	size_t mapcap, mapcount;
	uint32_t gen;

	unsigned sig_depth;     /* type units being named from another */
	uint8_t *walked[2];     /* per unit of f, f->alt: partial unit already
	                         * walked where imported (allocated lazily) */
	struct shared_ab **abs; /* partial units' abbrev tables, kept for every
	                         * unit that opens them (each apart: units
	                         * point to them while the array grows) */
	size_t nabs, abscap;
	unsigned import_depth;  /* partial units importing partial units */
	struct uh cur;
	struct uh **others;     /* units the current one refers into */
	size_t nothers, othercap;

	struct mvec *mv;        /* one member vector per layout depth, reused */

	struct sf_typeset *pending_ts;
	struct pend *pend;
	size_t npend, pendcap;

	struct top *tops;       /* this unit's types to report */
	size_t ntops, topcap;
	int repack;             /* a laid-out type was found packed later */

	const struct sf_dwfile *files_file;
	size_t files_unit;      /* unit index + 1 of files_file whose files are loaded */
	struct sf_files files;
	struct strbuf path;

	/* strings: every spelling and name a scratch model holds is interned
	 * in `out` already, so comparing with kept types is pointer work */
	const char **pkeys;     /* stable pointer (section, literal) -> interned */
	const char **pvals;
	size_t pcount, pcap;
	struct strbuf cat;

	/* kept types by (interned) name: chains through out_next */
	struct sf_type **outv;
	uint32_t *out_next;
	size_t nout, outcap, nextcap;
	uint32_t *name_head;    /* slot -> index + 1 of the newest of that name */
	const char **name_key;
	size_t namecap, nnames;

	struct sf_err *err;
	int failed;

	/* what a missing DW_AT_type and an unresolvable reference resolve to:
	 * per reader, not static: readers run in threads (load.c), and a
	 * writable object shared between them is a race waiting for a writer */
	struct tinfo void_ti, bad_ti;
};

static int corrupt(struct sf_reader *r, const struct uh *uh, uint64_t off)
{
	if (!r->failed)
		sf_error(r->err, "%s: corrupt DWARF (bad DIE at %s+0x%llx)",
			 uh ? uh->cx.f->label : r->f->label,
			 uh && uh->cx.u->sect == SF_SEC_TYPES ? ".debug_types" : ".debug_info",
			 (unsigned long long)off);
	r->failed = 1;
	return -1;
}

static int read_die(struct sf_reader *r, struct uh *uh, uint64_t off, struct sf_die *d)
{
	if (sf_die_read(&uh->cx, off, d) < 0)
		return corrupt(r, uh, off);
	return 0;
}

static int skip_die(struct sf_reader *r, struct uh *uh, const struct sf_die *d, uint64_t *next)
{
	if (sf_die_skip(&uh->cx, d, next) < 0)
		return corrupt(r, uh, d->off);
	return 0;
}

/* ---- tinfo cache ------------------------------------------------------- */

static struct tinfo *cache_get(struct sf_reader *r, uint64_t key)
{
	if (!r->mapcap)
		return NULL;
	for (size_t j = sf_mix64(key) & (r->mapcap - 1);; j = (j + 1) & (r->mapcap - 1)) {
		struct slot *s = &r->map[j];
		if (s->gen != r->gen)
			return NULL;
		if (s->key == key)
			return s->ti;
	}
}

static void cache_put(struct sf_reader *r, uint64_t key, struct tinfo *ti)
{
	if ((r->mapcount + 1) * 2 > r->mapcap) {
		size_t ncap = r->mapcap ? r->mapcap * 2 : 256;
		struct slot *n = sf_xcalloc(ncap, sizeof(*n));
		for (size_t i = 0; i < r->mapcap; i++) {
			if (r->map[i].gen != r->gen)
				continue;
			size_t j = sf_mix64(r->map[i].key) & (ncap - 1);
			while (n[j].gen == r->gen && n[j].ti)
				j = (j + 1) & (ncap - 1);
			n[j] = r->map[i];
		}
		free(r->map);
		r->map = n;
		r->mapcap = ncap;
	}
	size_t j = sf_mix64(key) & (r->mapcap - 1);
	while (r->map[j].gen == r->gen && r->map[j].key != key)
		j = (j + 1) & (r->mapcap - 1);
	if (r->map[j].gen != r->gen)
		r->mapcount++;
	r->map[j].key = key;
	r->map[j].gen = r->gen;
	r->map[j].ti = ti;
}

/* section offsets stay below 2^62: the top bits say which section and file */
static uint64_t key_of(const struct uh *uh, uint64_t off)
{
	assert(off < uh->cx.sect_size && uh->cx.sect_size < (1ull << 62));
	return off | ((uint64_t)uh->cx.u->sect << 63) | ((uint64_t)uh->in_alt << 62);
}

/* The section offset of the DIE a tinfo was made from. */
static uint64_t off_of(const struct tinfo *ti)
{
	return ti->key & ~(3ull << 62);
}

/* ---- interned strings ---------------------------------------------------- */

/* The interned copy of a string whose address is stable (section data or
 * a literal): looked up by address, so each is hashed once per reader. */
static const char *isec(struct sf_reader *r, const char *s)
{
	if ((r->pcount + 1) * 2 > r->pcap) {
		size_t ncap = r->pcap ? r->pcap * 2 : 256;
		const char **nk = sf_xcalloc(ncap, sizeof(*nk));
		const char **nv = sf_xcalloc(ncap, sizeof(*nv));
		for (size_t i = 0; i < r->pcap; i++) {
			if (!r->pkeys[i])
				continue;
			size_t j = sf_mix64((uintptr_t)r->pkeys[i]) & (ncap - 1);
			while (nk[j])
				j = (j + 1) & (ncap - 1);
			nk[j] = r->pkeys[i];
			nv[j] = r->pvals[i];
		}
		free(r->pkeys);
		free(r->pvals);
		r->pkeys = nk;
		r->pvals = nv;
		r->pcap = ncap;
	}
	size_t j = sf_mix64((uintptr_t)s) & (r->pcap - 1);
	for (; r->pkeys[j]; j = (j + 1) & (r->pcap - 1))
		if (r->pkeys[j] == s)
			return r->pvals[j];
	r->pkeys[j] = s;
	r->pvals[j] = sf_typeset_intern(r->out, s);
	r->pcount++;
	return r->pvals[j];
}

/* x y z, interned. */
static const char *icat(struct sf_reader *r, const char *x, const char *y, const char *z)
{
	size_t nx = strlen(x), ny = strlen(y), nz = strlen(z);
	char stack[512];
	char *buf = nx + ny + nz < sizeof(stack) ? stack : sf_xmalloc(nx + ny + nz + 1);

	memcpy(buf, x, nx);
	memcpy(buf + nx, y, ny);
	memcpy(buf + nx + ny, z, nz);
	const char *s = sf_typeset_intern_n(r->out, buf, nx + ny + nz);
	if (buf != stack)
		free(buf);
	return s;
}

/* ---- units ------------------------------------------------------------- */

static void uh_close(struct uh *uh)
{
	if (uh->open)
		sf_ucx_release(&uh->cx);
	free(uh->scopes);
	memset(uh, 0, sizeof(*uh));
}

/*
 * The parsed abbrev table of a partial unit of f (NULL: not one, or
 * corrupt).  dwz's partial units are opened anew from each unit that
 * refers to them, and share a handful of tables.
 */
static const struct sf_abbrevs *partial_abbrevs(struct sf_reader *r, const struct sf_dwfile *f,
						size_t i)
{
	const struct sf_unit *u = &f->units[i];

	if (u->die_tag != DW_TAG_partial_unit)
		return NULL;
	for (size_t k = 0; k < r->nabs; k++)
		if (r->abs[k]->f == f && r->abs[k]->off == u->abbrev_off)
			return r->abs[k]->bad ? NULL : &r->abs[k]->ab;
	struct shared_ab *s = sf_xcalloc(1, sizeof(*s));
	s->f = f;
	s->off = u->abbrev_off;
	s->bad = sf_abbrevs_parse(&s->ab, f, u->abbrev_off) < 0;
	SF_GROW(r->abs, r->nabs, r->abscap);
	r->abs[r->nabs++] = s;
	return s->bad ? NULL : &s->ab;
}

/* Open unit i of f (the reader's file or its alt file). */
static int uh_open(struct sf_reader *r, struct uh *uh, const struct sf_dwfile *f, size_t i)
{
	assert(f == r->f || f == r->f->alt);
	memset(uh, 0, sizeof(*uh));
	const struct sf_abbrevs *ab = partial_abbrevs(r, f, i);
	if ((ab ? sf_ucx_open_shared(&uh->cx, f, i, ab, r->err)
		: sf_ucx_open(&uh->cx, f, i, r->err)) < 0) {
		r->failed = 1;
		return -1;
	}
	uh->open = 1;
	uh->in_alt = f != r->f;
	/* dwz's partial units carry no language: they are read as part of
	 * the unit being read, which imports them */
	if (!uh->cx.lang && uh != &r->cur)
		uh->cx.lang = r->cur.cx.lang;
	uh->abi = sf_abi_for(r->elf->machine, uh->cx.u->addr_size);
	return 0;
}

static int uh_holds(const struct uh *uh, const struct sf_dwfile *f, int sect, uint64_t off)
{
	const struct sf_unit *u = uh->cx.u;

	return uh->cx.f == f && u->sect == sect && u->start <= off && off < u->end;
}

/* The unit of f holding section offset off of sect (the current one, mostly). */
static struct uh *uh_for(struct sf_reader *r, const struct sf_dwfile *f, int sect, uint64_t off)
{
	if (!f)
		return NULL;
	if (uh_holds(&r->cur, f, sect, off))
		return &r->cur;
	for (size_t i = r->nothers; i-- > 0;)
		if (uh_holds(r->others[i], f, sect, off))
			return r->others[i];
	long idx = sf_dwfile_unit_at(f, sect, off);
	if (idx < 0)
		return NULL;
	struct uh *uh = sf_xcalloc(1, sizeof(*uh));
	if (uh_open(r, uh, f, (size_t)idx) < 0) {
		free(uh);
		return NULL;
	}
	SF_GROW(r->others, r->nothers, r->othercap);
	r->others[r->nothers++] = uh;
	return uh;
}

/* ---- scopes (C++ qualified names) --------------------------------------- */

static int is_aggregate_tag(unsigned tag)
{
	return tag == DW_TAG_structure_type || tag == DW_TAG_class_type ||
	       tag == DW_TAG_union_type || tag == DW_TAG_interface_type;
}

static const char *scope_of(struct sf_reader *r, struct uh *uh, uint64_t off);

/* The declaration a DW_AT_specification points to (in the same unit). */
static int spec_of(struct uh *uh, const struct sf_die *d, struct sf_die *spec)
{
	return (d->has & SF_A_SPECIFICATION) && d->specification >= uh->cx.u->die_start &&
	       d->specification < uh->cx.u->end && d->specification != d->off &&
	       sf_die_read(&uh->cx, d->specification, spec) == 0;
}

static const char *die_qname(struct sf_reader *r, struct uh *uh, const struct sf_die *d);
static struct uh *uh_for(struct sf_reader *r, const struct sf_dwfile *f, int sect, uint64_t off);

/* The qualified name of the type a signature stands for, or NULL. */
static const char *sig_qname(struct sf_reader *r, uint64_t sig)
{
	long i = sf_dwfile_sig_unit(r->f, sig);
	struct sf_die d;

	/* type units name each other: a bounded chain, never a loop */
	if (i < 0 || r->sig_depth >= 8)
		return NULL;
	const struct sf_unit *u = &r->f->units[i];
	struct uh *tu = uh_for(r, r->f, u->sect, u->type_die);
	if (!tu || sf_die_read(&tu->cx, u->type_die, &d) < 0)
		return NULL;
	r->sig_depth++;
	const char *q = die_qname(r, tu, &d);
	r->sig_depth--;
	return q;
}

/* Record the ranges of namespaces and named classes below off; *end gets
 * the offset past the null entry closing the list. */
static int scan_scopes(struct sf_reader *r, struct uh *uh, uint64_t off, long parent,
		       unsigned depth, uint64_t *end)
{
	struct sf_die d;

	for (;;) {
		if (read_die(r, uh, off, &d) < 0)
			return -1;
		if (d.tag == 0) {
			*end = d.next;
			return 0;
		}
		int scope = d.children && depth < MAX_SCOPE_DEPTH &&
			    (d.tag == DW_TAG_namespace || d.tag == DW_TAG_module ||
			     is_aggregate_tag(d.tag));
		if (!scope) {
			if (skip_die(r, uh, &d, &off) < 0)
				return -1;
			continue;
		}
		const char *pq = parent >= 0 ? uh->scopes[parent].qname : "";
		const char *name = d.name;
		struct sf_die spec;
		/* an out-of-line definition belongs where it was declared */
		if (spec_of(uh, &d, &spec)) {
			pq = scope_of(r, uh, spec.off);
			if (!name)
				name = spec.name;
		}
		if (!name && d.tag == DW_TAG_namespace)
			name = "(anonymous namespace)";
		/* clang's type units: the enclosing class is an unnamed
		 * declaration that only gives the signature of its own unit */
		const char *full = NULL;
		if (!name && (d.has & SF_A_SIGNATURE))
			full = sig_qname(r, d.sig8);
		SF_GROW(uh->scopes, uh->nscopes, uh->scopecap);
		long me = (long)uh->nscopes++;
		struct scope *s = &uh->scopes[me];
		s->start = d.off;
		s->parent = parent;
		s->qname = full ? full : !name ? pq : *pq ? arena_cat(&r->arena, pq, "::", name) : name;
		if (scan_scopes(r, uh, d.next, me, depth + 1, &off) < 0)
			return -1;
		uh->scopes[me].end = off;
	}
}

static void build_scopes(struct sf_reader *r, struct uh *uh)
{
	struct sf_die d;
	uint64_t end;

	uh->scoped = 1;
	if (sf_lang_is_c(uh->cx.lang) || uh->cx.u->die_start >= uh->cx.u->end)
		return;
	if (read_die(r, uh, uh->cx.u->die_start, &d) < 0 || !d.children)
		return;
	scan_scopes(r, uh, d.next, -1, 0, &end);
}

/* "ns::Outer" for a DIE at off inside namespace ns and class Outer. */
static const char *scope_of(struct sf_reader *r, struct uh *uh, uint64_t off)
{
	if (!uh->scoped)
		build_scopes(r, uh);
	size_t lo = 0, hi = uh->nscopes;
	while (lo < hi) {	/* last scope starting before off */
		size_t mid = lo + (hi - lo) / 2;
		if (uh->scopes[mid].start < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (long i = (long)lo - 1; i >= 0; i = uh->scopes[i].parent)
		if (off < uh->scopes[i].end)
			return uh->scopes[i].qname;
	return "";
}

static const char *qualify(struct sf_reader *r, struct uh *uh, uint64_t off, const char *name);

/* A type DIE's qualified name, from its declaration when it has one; NULL if anonymous. */
static const char *die_qname(struct sf_reader *r, struct uh *uh, const struct sf_die *d)
{
	struct sf_die spec;

	if (spec_of(uh, d, &spec) && (d->name || spec.name))
		return qualify(r, uh, spec.off, d->name ? d->name : spec.name);
	return d->name ? qualify(r, uh, d->off, d->name) : NULL;
}

static const char *qualify(struct sf_reader *r, struct uh *uh, uint64_t off, const char *name)
{
	if (sf_lang_is_c(uh->cx.lang))
		return isec(r, name);
	const char *scope = scope_of(r, uh, off);
	return *scope ? icat(r, scope, "::", name) : isec(r, name);
}

/* ---- resolving type DIEs ------------------------------------------------ */

static struct tinfo *resolve(struct sf_reader *r, struct uh *uh, uint64_t off, unsigned depth);

/*
 * The unit a reference of d lands in: d's own file, or with `alt` the
 * alt file's .debug_info.  NULL (and the reader failed)
 * for a reference into an alt file this file does not name.
 */
static struct uh *ref_unit(struct sf_reader *r, struct uh *uh, const struct sf_die *d,
			   uint64_t off, int alt)
{
	if (!alt)
		return uh_for(r, uh->cx.f, uh->cx.u->sect, off);
	if (!uh->cx.f->alt) {
		if (!r->failed)
			sf_error(r->err, "%s: DIE at 0x%llx refers to a dwz alt file, but %s "
				 "names none (no .gnu_debugaltlink or .debug_sup)", uh->cx.f->label,
				 (unsigned long long)d->off, uh->in_alt ? "the alt file" : "the file");
		r->failed = 1;
		return NULL;
	}
	return uh_for(r, uh->cx.f->alt, SF_SEC_INFO, off);
}

/* The type a DIE's DW_AT_type names (void when it has none). */
static struct tinfo *resolve_ref(struct sf_reader *r, struct uh *uh, const struct sf_die *d,
				 unsigned depth)
{
	if (d->has & SF_A_SIG8) {
		long i = sf_dwfile_sig_unit(r->f, d->sig8);
		if (i < 0)
			return &r->bad_ti;
		const struct sf_unit *u = &r->f->units[i];
		struct uh *tu = uh_for(r, r->f, u->sect, u->type_die);
		return tu ? resolve(r, tu, u->type_die, depth + 1) : &r->bad_ti;
	}
	if (d->has & SF_A_TYPE) {
		struct uh *to = ref_unit(r, uh, d, d->type, (d->has & SF_A_ALT) != 0);
		return to ? resolve(r, to, d->type, depth + 1) : &r->bad_ti;
	}
	return &r->void_ti;
}

static struct tinfo *new_ti(struct sf_reader *r, struct uh *uh, uint64_t off)
{
	struct tinfo *ti = arena_alloc(&r->arena, sizeof(*ti));

	ti->key = key_of(uh, off);
	ti->unit = uh;
	ti->left = isec(r, "?");
	ti->right = isec(r, "");
	ti->qname = ti->right;
	cache_put(r, ti->key, ti);
	return ti;
}

/* Copy what a typedef or cv-qualifier passes through from its target. */
static void inherit(const struct sf_reader *r, struct tinfo *ti, const struct tinfo *t)
{
	ti->size = t->size;
	ti->align = t->align;
	ti->align_attr = t->align_attr;
	ti->tclass = t->tclass;
	ti->agg = t->agg;
	ti->flags |= t->flags & (TI_SIGNED | TI_ALIGNED | TI_DECL | TI_FLEX |
				 TI_UNSIZED);
	if (t == &r->bad_ti)
		ti->flags |= TI_UNSIZED;
}

static void base_type(struct sf_reader *r, struct uh *uh, struct tinfo *ti,
		      const struct sf_die *d)
{
	enum sf_abi_kind k = SF_ABI_INT;

	ti->left = isec(r, d->name ? d->name : "?");
	ti->size = (d->has & SF_A_BYTE_SIZE) ? d->byte_size
		 : (d->has & SF_A_BIT_SIZE) ? (d->bit_size + 7) / 8 : 0;
	switch (d->encoding) {
	case DW_ATE_boolean:
		ti->tclass = SF_T_BOOL;
		break;
	case DW_ATE_float: case DW_ATE_decimal_float: case DW_ATE_imaginary_float:
		ti->tclass = SF_T_FLOAT;
		k = SF_ABI_FLOAT;
		break;
	case DW_ATE_complex_float:
		ti->tclass = SF_T_FLOAT;
		k = SF_ABI_COMPLEX;
		break;
	case DW_ATE_signed: case DW_ATE_signed_char: case DW_ATE_signed_fixed:
		ti->tclass = SF_T_INT;
		ti->flags |= TI_SIGNED;
		break;
	case DW_ATE_unsigned: case DW_ATE_unsigned_char: case DW_ATE_unsigned_fixed:
	case DW_ATE_UTF:
		ti->tclass = SF_T_INT;
		break;
	case DW_ATE_address:
		ti->tclass = SF_T_POINTER;
		k = SF_ABI_POINTER;
		break;
	default:
		ti->tclass = SF_T_OTHER;
	}
	ti->align = sf_abi_align(uh->abi, k, ti->size);
}

static void pointer_type(struct sf_reader *r, struct uh *uh, struct tinfo *ti,
			 const struct sf_die *d, const char *sym, unsigned depth)
{
	struct tinfo *t = resolve_ref(r, uh, d, depth);

	if (t->flags & (TI_FUNC | TI_ARRAY)) {
		ti->left = icat(r, t->left, " (", sym);
		ti->right = icat(r, ")", t->right, "");
	} else if (*t->right || (t->flags & TI_PTR)) {
		/* pointer to pointer (to function): "void (**", "char **" */
		ti->left = icat(r, t->left, sym, "");
		ti->right = t->right;
	} else {
		ti->left = icat(r, t->left, " ", sym);
	}
	/* pahole prints the body of an anonymous type pointed to directly */
	if (*sym == '*' && !sym[1] && (t->flags & TI_ANON))
		ti->pointee = t;
	ti->flags |= TI_PTR;
	ti->tclass = SF_T_POINTER;
	ti->size = (d->has & SF_A_BYTE_SIZE) ? d->byte_size : uh->cx.u->addr_size;
	ti->align = sf_abi_align(uh->abi, SF_ABI_POINTER, ti->size);
}

static void cv_type(struct sf_reader *r, struct uh *uh, struct tinfo *ti,
		    const struct sf_die *d, const char *word, unsigned depth)
{
	struct tinfo *t = resolve_ref(r, uh, d, depth);

	inherit(r, ti, t);
	/* after a '*' the qualifier binds to the pointer: "char * const" */
	if ((t->flags & TI_PTR) || t->right[0] == ')') {
		ti->left = icat(r, t->left, " ", word);
		ti->right = t->right;
	} else {
		ti->left = icat(r, word, " ", t->left);
		ti->right = t->right;
		ti->flags |= t->flags & (TI_ARRAY | TI_FUNC);
	}
}

static void typedef_type(struct sf_reader *r, struct uh *uh, struct tinfo *ti,
			 const struct sf_die *d, unsigned depth)
{
	struct tinfo *t = resolve_ref(r, uh, d, depth);

	inherit(r, ti, t);
	ti->qname = die_qname(r, uh, d);
	if (!ti->qname)
		ti->qname = isec(r, "?");
	ti->left = ti->qname;
	if (d->has & SF_A_ALIGNMENT) {
		ti->align_attr = (uint32_t)d->alignment;
		ti->flags |= TI_ALIGNED;
	}
}

static void aggregate_type(struct sf_reader *r, struct uh *uh, struct tinfo *ti,
			   const struct sf_die *d)
{
	const char *name = die_qname(r, uh, d);

	ti->flags |= TI_AGG;
	ti->agg = ti;
	ti->kind = d->tag == DW_TAG_union_type ? SF_KIND_UNION
		 : d->tag == DW_TAG_class_type ? SF_KIND_CLASS : SF_KIND_STRUCT;
	ti->tclass = ti->kind == SF_KIND_UNION ? SF_T_UNION : SF_T_STRUCT;
	ti->keyword = ti->kind == SF_KIND_UNION ? "union"
		    : ti->kind == SF_KIND_CLASS ? "class" : "struct";
	ti->qname = name ? name : isec(r, "");
	ti->keyword = isec(r, ti->keyword);
	ti->left = name ? icat(r, ti->keyword, " ", name) : icat(r, ti->keyword, " {...}", "");
	ti->size = d->byte_size;
	if ((d->has & SF_A_DECLARATION) && !(d->has & SF_A_BYTE_SIZE))
		ti->flags |= TI_DECL;
	else if (!name)
		ti->flags |= TI_ANON, ti->anon = ti;
	if (d->has & SF_A_ALIGNMENT) {
		ti->align_attr = (uint32_t)d->alignment;
		/* rustc states every type's alignment: only one beyond the
		 * natural alignment was asked for (layout() decides) */
		if (uh->cx.lang != DW_LANG_Rust)
			ti->flags |= TI_ALIGNED;
	}
}

static void enum_type(struct sf_reader *r, struct uh *uh, struct tinfo *ti,
		      const struct sf_die *d, unsigned depth)
{
	struct tinfo *under = (d->has & (SF_A_TYPE | SF_A_ALT)) ? resolve_ref(r, uh, d, depth) : NULL;

	const char *name = die_qname(r, uh, d);
	ti->qname = name ? name : isec(r, "");
	ti->left = name ? icat(r, "enum ", name, "") : isec(r, "enum {...}");
	if (!name && !(d->has & SF_A_DECLARATION))
		ti->flags |= TI_ANON, ti->anon_enum = ti;
	ti->tclass = SF_T_ENUM;
	ti->size = (d->has & SF_A_BYTE_SIZE) ? d->byte_size : under ? under->size : 0;
	if (under ? (under->flags & TI_SIGNED) != 0
		  : d->encoding == DW_ATE_signed || d->encoding == DW_ATE_signed_char)
		ti->flags |= TI_SIGNED;
	ti->align = under && under->align ? under->align
				  : sf_abi_align(uh->abi, SF_ABI_INT, ti->size);
}

static void add_dim(struct strbuf *dims, int known, uint64_t n)
{
	char digits[24];
	size_t i = sizeof(digits);

	sb_addch(dims, '[');
	if (known) {
		do
			digits[--i] = (char)('0' + n % 10);
		while ((n /= 10));
		sb_add(dims, digits + i, sizeof(digits) - i);
	}
	sb_addch(dims, ']');
}

/* "[3][4]" from the subrange children; *nelem 0 when a bound is unknown. */
static int array_dims(struct sf_reader *r, struct uh *uh, const struct sf_die *d,
		      struct strbuf *dims, uint64_t *nelem, int *zero)
{
	struct sf_die c;
	uint64_t off = d->next;

	*nelem = 1;
	*zero = 0;
	if (!d->children)
		return 0;
	for (;;) {
		if (read_die(r, uh, off, &c) < 0)
			return -1;
		if (c.tag == 0)
			return 0;
		if (c.tag == DW_TAG_subrange_type || c.tag == DW_TAG_enumeration_type) {
			int known = 1;
			uint64_t n = 0;
			if (c.has & SF_A_COUNT)
				n = c.count;
			else if ((c.has & SF_A_UPPER_BOUND) && c.upper_bound != -1)
				n = (uint64_t)(c.upper_bound - ((c.has & SF_A_LOWER_BOUND) ? c.lower_bound : 0)) + 1;
			else if (c.has & SF_A_UPPER_BOUND)
				n = 0;	/* GNU "[0]" spelled as upper bound -1 (die.c) */
			else
				known = 0;
			add_dim(dims, known, n);
			if (!known || n == 0)
				*zero = 1;
			*nelem = (n && *nelem <= UINT64_MAX / n) ? *nelem * n : (n ? UINT64_MAX : 0);
		}
		if (skip_die(r, uh, &c, &off) < 0)
			return -1;
	}
}

static void array_type(struct sf_reader *r, struct uh *uh, struct tinfo *ti,
		       const struct sf_die *d, unsigned depth)
{
	struct tinfo *e = resolve_ref(r, uh, d, depth);
	struct strbuf dims = STRBUF_INIT;
	uint64_t nelem;
	int zero;

	if (array_dims(r, uh, d, &dims, &nelem, &zero) < 0) {
		sb_release(&dims);
		return;
	}
	if (!dims.len)
		sb_adds(&dims, "[]");
	ti->left = e->left;
	ti->right = icat(r, dims.buf, e->right, "");
	ti->rust_elem_size = e->size;
	sb_release(&dims);
	ti->flags |= TI_ARRAY | (e->flags & (TI_SIGNED | TI_ALIGNED | TI_DECL));
	ti->tclass = SF_T_ARRAY;
	ti->agg = e->agg;
	ti->anon = e->anon;
	ti->anon_enum = e->anon_enum;
	ti->pointee = e->pointee;
	ti->align = e->align;
	ti->align_attr = e->align_attr;
	if (d->has & SF_A_BYTE_SIZE)
		ti->size = d->byte_size;
	else if (e->size && nelem > UINT64_MAX / e->size)
		ti->size = UINT64_MAX;
	else
		ti->size = e->size * nelem;
	if (zero && !(d->has & SF_A_BYTE_SIZE)) {
		ti->flags |= TI_FLEX;
		ti->size = 0;
	}
	if (d->has & SF_A_VECTOR)
		ti->align = sf_abi_align(uh->abi, SF_ABI_VECTOR, ti->size);
}

static void function_type(struct sf_reader *r, struct uh *uh, struct tinfo *ti,
			  const struct sf_die *d, unsigned depth)
{
	struct tinfo *ret = resolve_ref(r, uh, d, depth);
	struct strbuf sb = STRBUF_INIT;
	struct sf_die c;
	uint64_t off = d->next;
	int n = 0;

	sb_addch(&sb, '(');
	while (d->children) {
		if (read_die(r, uh, off, &c) < 0)
			break;
		if (c.tag == 0)
			break;
		if (c.tag == DW_TAG_formal_parameter) {
			struct tinfo *p = resolve_ref(r, uh, &c, depth);
			sb_adds(&sb, n++ ? ", " : "");
			sb_adds(&sb, p->left);
			sb_adds(&sb, p->right);
		} else if (c.tag == DW_TAG_unspecified_parameters) {
			/* C's unprototyped "int (*f)()" says only this; alone
			 * in C++ (the vtable's "int (**)(void)") pahole
			 * prints (void) */
			if (n)
				sb_adds(&sb, ", ...");
			else if (sf_lang_is_c(uh->cx.lang) && !(d->has & SF_A_PROTOTYPED))
				n++;
		}
		if (skip_die(r, uh, &c, &off) < 0)
			break;
	}
	/* an empty list is (void) when prototyped - C++ always is */
	if (!n && ((d->has & SF_A_PROTOTYPED) || !sf_lang_is_c(uh->cx.lang)))
		sb_adds(&sb, "void");
	sb_addch(&sb, ')');
	ti->left = ret->left;
	ti->right = icat(r, sb.buf, ret->right, "");
	sb_release(&sb);
	ti->flags |= TI_FUNC;
	ti->tclass = SF_T_OTHER;
	/* a Go func value is a pointer-sized subroutine type: its own
	 * DW_AT_byte_size wins over "a function has no size" */
	if (d->has & SF_A_BYTE_SIZE) {
		ti->size = d->byte_size;
		ti->align = sf_abi_align(uh->abi, SF_ABI_POINTER, ti->size);
	}
}

static void member_ptr_type(struct sf_reader *r, struct uh *uh, struct tinfo *ti,
			    const struct sf_die *d, unsigned depth)
{
	struct tinfo *t = resolve_ref(r, uh, d, depth);

	if (t->flags & TI_FUNC) {
		ti->left = icat(r, t->left, " (::*", "");
		ti->right = icat(r, ")", t->right, "");
	} else {
		ti->left = icat(r, t->left, " ::*", "");
	}
	ti->tclass = SF_T_OTHER;
	ti->size = (d->has & SF_A_BYTE_SIZE) ? d->byte_size
		 : (uint64_t)uh->cx.u->addr_size * ((t->flags & TI_FUNC) ? 2 : 1);
	ti->align = sf_abi_align(uh->abi, SF_ABI_POINTER, uh->cx.u->addr_size);
}

static void fill_ti(struct sf_reader *r, struct uh *uh, struct tinfo *ti,
		    const struct sf_die *d, unsigned depth)
{
	switch (d->tag) {
	case DW_TAG_base_type:
		base_type(r, uh, ti, d);
		break;
	case DW_TAG_pointer_type:
		pointer_type(r, uh, ti, d, "*", depth);
		break;
	case DW_TAG_reference_type:
		pointer_type(r, uh, ti, d, "&", depth);
		break;
	case DW_TAG_rvalue_reference_type:
		pointer_type(r, uh, ti, d, "&&", depth);
		break;
	case DW_TAG_const_type:
		cv_type(r, uh, ti, d, "const", depth);
		break;
	case DW_TAG_volatile_type:
		cv_type(r, uh, ti, d, "volatile", depth);
		break;
	case DW_TAG_restrict_type:
		cv_type(r, uh, ti, d, "restrict", depth);
		break;
	case DW_TAG_atomic_type:
		cv_type(r, uh, ti, d, "_Atomic", depth);
		break;
	case DW_TAG_typedef:
		typedef_type(r, uh, ti, d, depth);
		break;
	case DW_TAG_structure_type: case DW_TAG_class_type:
	case DW_TAG_union_type: case DW_TAG_interface_type:
		aggregate_type(r, uh, ti, d);
		break;
	case DW_TAG_enumeration_type:
		enum_type(r, uh, ti, d, depth);
		break;
	case DW_TAG_array_type:
		array_type(r, uh, ti, d, depth);
		break;
	case DW_TAG_subroutine_type:
		function_type(r, uh, ti, d, depth);
		break;
	case DW_TAG_ptr_to_member_type:
		member_ptr_type(r, uh, ti, d, depth);
		break;
	case DW_TAG_unspecified_type:
		ti->left = isec(r, d->name ? d->name : "void");
		ti->size = d->byte_size;
		ti->align = sf_abi_align(uh->abi, SF_ABI_POINTER, ti->size);
		break;
	default:
		/* a kind of type C has no word for (Ada, Fortran...) */
		ti->left = isec(r, d->name ? d->name : "?");
		ti->size = d->byte_size;
		ti->align = sf_abi_align(uh->abi, SF_ABI_INT, ti->size);
	}
}

/*
 * Rust spells types its own way, and rustc names most of them in the
 * DWARF: "*const u8", "&yjit::Block", "[u8; 4]", a struct by its path
 * with no keyword ("core::option::Option<yjit::CodePtr>").
 */
static void rust_spelling(struct sf_reader *r, struct tinfo *ti, const struct sf_die *d)
{
	char n[24];

	switch (d->tag) {
	case DW_TAG_pointer_type: case DW_TAG_reference_type:
		if (d->name) {
			ti->left = isec(r, d->name);
			ti->right = isec(r, "");
		}
		break;
	case DW_TAG_structure_type: case DW_TAG_union_type: case DW_TAG_class_type:
	case DW_TAG_enumeration_type:
		if (*ti->qname)
			ti->left = ti->qname;
		break;
	case DW_TAG_array_type:
		if (ti->flags & TI_FLEX)
			break;
		snprintf(n, sizeof(n), "%llu", (unsigned long long)(ti->size / (ti->rust_elem_size ? ti->rust_elem_size : 1)));
		ti->left = icat(r, "[", ti->left, icat(r, "; ", n, "]"));
		ti->right = isec(r, "");
		ti->flags &= ~TI_ARRAY;
		break;
	}
}

static struct tinfo *resolve(struct sf_reader *r, struct uh *uh, uint64_t off, unsigned depth)
{
	struct tinfo *ti = cache_get(r, key_of(uh, off));
	struct sf_die d;

	if (ti)
		return (ti->flags & TI_BUSY) ? &r->bad_ti : ti;
	if (depth > MAX_RESOLVE_DEPTH || r->failed)
		return &r->bad_ti;
	if (read_die(r, uh, off, &d) < 0)
		return &r->bad_ti;
	/* a declaration standing for a definition in a type unit */
	if (d.has & SF_A_SIGNATURE) {
		long i = sf_dwfile_sig_unit(r->f, d.sig8);
		if (i >= 0) {
			const struct sf_unit *u = &r->f->units[i];
			struct uh *tu = uh_for(r, r->f, u->sect, u->type_die);
			if (tu && tu != uh) {
				ti = resolve(r, tu, u->type_die, depth + 1);
				cache_put(r, key_of(uh, off), ti);
				return ti;
			}
		}
	}
	ti = new_ti(r, uh, off);
	ti->flags |= TI_BUSY;
	fill_ti(r, uh, ti, &d, depth);
	if (uh->cx.lang == DW_LANG_Rust)
		rust_spelling(r, ti, &d);
	ti->flags &= ~TI_BUSY;
	return ti;
}

/* ---- laying out aggregates --------------------------------------------- */

static struct xtype *layout(struct sf_reader *r, struct tinfo *ti, unsigned depth);

/* A member's alignment under the ABI (1 when unknown). */
static uint32_t align_of(struct sf_reader *r, struct tinfo *ti, unsigned depth)
{
	if (ti->align_attr)
		return ti->align_attr;
	if (ti->agg && !(ti->agg->flags & TI_DECL)) {
		if (!layout(r, ti->agg, depth + 1))
			return 1;
		return ti->agg->align ? ti->agg->align : 1;
	}
	return ti->align ? ti->align : 1;
}

/*
 * A member type's natural alignment: what it would align to without
 * packed or aligned attributes - for an aggregate the largest natural
 * alignment of its members (pahole's tag__natural_alignment, taking the
 * psABI's alignment of a scalar where pahole takes its size: i386 aligns
 * a double to 4 and the compiler agrees).  1 when unknown.
 */
static uint32_t natural_of(struct sf_reader *r, struct tinfo *ti, unsigned depth)
{
	if (ti->agg && !(ti->agg->flags & TI_DECL)) {
		if (!layout(r, ti->agg, depth + 1))
			return 1;
		return ti->agg->natural ? ti->agg->natural : 1;
	}
	return ti->align ? ti->align : 1;
}

/* The enumerators of the anonymous enum ti, read once per unit (NULL on
 * corrupt input). */
static const struct sf_enum *enumerators(struct sf_reader *r, struct tinfo *ti)
{
	struct sf_die d, c;
	struct uh *uh = ti->unit;
	uint64_t off;
	uint32_t n = 0;

	if (ti->enums)
		return ti->enums;
	if (read_die(r, uh, off_of(ti), &d) < 0)
		return NULL;
	/* count, then fill: no growing array for a list read twice */
	for (off = d.next; d.children;) {
		if (read_die(r, uh, off, &c) < 0)
			return NULL;
		if (c.tag == 0)
			break;
		if (c.tag == DW_TAG_enumerator && n < MAX_MEMBERS)
			n++;
		if (skip_die(r, uh, &c, &off) < 0)
			return NULL;
	}
	struct sf_enum *e = arena_alloc(&r->arena, sizeof(*e));
	struct sf_enumerator *v = arena_alloc(&r->arena, sizeof(*v) * (n ? n : 1));
	uint32_t k = 0;
	unsigned bits = ti->size > 0 && ti->size < 8 ? (unsigned)ti->size * 8 : 64;
	for (off = d.next; d.children && k < n;) {
		if (read_die(r, uh, off, &c) < 0)
			return NULL;
		if (c.tag == 0)
			break;
		if (c.tag == DW_TAG_enumerator) {
			uint64_t x = (c.has & SF_A_CONST_VALUE) ? c.const_value : 0;
			/* a data1..data4 constant of a signed enum holds its
			 * two's complement bits: -1 of an int enum is 0xffffffff */
			if ((ti->flags & TI_SIGNED) && bits < 64 && !(x >> bits) &&
			    (x >> (bits - 1)) & 1)
				x |= ~0ull << bits;
			v[k].name = isec(r, c.name ? c.name : "");
			v[k++].value = x;
		}
		if (skip_die(r, uh, &c, &off) < 0)
			return NULL;
	}
	e->n = k;
	e->v = v;
	ti->enums = e;
	return e;
}

/* Scratch memory for sf_nested_clone(). */
static void *arena_for_clone(void *ctx, size_t n)
{
	return arena_alloc_raw(ctx, n);
}


static struct sf_member *mvec_push(struct mvec *v)
{
	SF_GROW(v->m, v->n, v->cap);
	SF_GROW(v->inc, v->n, v->inccap);
	SF_GROW(v->vbase_unplaced, v->n, v->vcap);
	SF_GROW(v->natural, v->n, v->natcap);
	SF_GROW(v->ty, v->n, v->tycap);
	memset(&v->m[v->n], 0, sizeof(v->m[0]));
	v->inc[v->n] = NULL;
	v->vbase_unplaced[v->n] = 0;
	v->natural[v->n] = 1;
	v->ty[v->n] = NULL;
	return &v->m[v->n++];
}

static void mvec_free(struct mvec *v)
{
	free(v->m);
	free(v->inc);
	free(v->vbase_unplaced);
	free(v->natural);
	free(v->ty);
}

/* Bit-field position as the model wants it (see model.h). */
static void place_bitfield(struct sf_member *m, const struct sf_die *c, int msb)
{
	uint64_t unit = m->size ? m->size : (c->bit_size + 7) / 8;
	uint64_t loc = (c->has & SF_A_MEMBER_LOC) ? c->member_loc : 0;
	uint64_t dbo;

	/* a unit wider than 2^61 bytes is no storage unit (8 * unit would
	 * wrap to 0 and divide by zero below): place the bits by byte */
	if (!unit || unit > UINT64_MAX / 8)
		unit = 1;
	if (c->has & SF_A_DATA_BIT_OFFSET) {
		dbo = c->data_bit_offset + 8 * loc;
	} else if (c->has & SF_A_BIT_OFFSET) {
		/* DWARF 2/3: bits from the most significant bit of a storage
		 * unit of DW_AT_byte_size bytes at the member location */
		uint64_t bs = (c->has & SF_A_BYTE_SIZE) ? c->byte_size : unit;
		if (msb)
			dbo = 8 * loc + c->bit_offset;
		else if (8 * bs >= c->bit_offset + c->bit_size)
			dbo = 8 * loc + 8 * bs - c->bit_offset - c->bit_size;
		else
			dbo = 8 * loc;
	} else {
		dbo = 8 * loc;
	}
	/* the unit aligned down, as pahole shows it - even when a packed
	 * bit-field straddles into the next unit (bit_offset + bit_size
	 * then exceeds 8 * size) */
	m->offset = dbo / (8 * unit) * unit;
	uint64_t bit = dbo - 8 * m->offset;
	m->bit_offset = (uint32_t)bit;
	m->bit_size = (uint32_t)(c->bit_size > UINT32_MAX ? UINT32_MAX : c->bit_size);
	m->flags |= SF_MF_BITFIELD;
}

static void set_type_of_member(struct sf_reader *r, struct sf_member *m, struct tinfo *mt,
			       struct mvec *v, unsigned depth)
{
	m->tclass = mt->tclass;
	if (mt->flags & TI_SIGNED)
		m->flags |= SF_MF_SIGNED;
	m->type_name = mt->left;
	m->type_suffix = mt->right;
	if (!(mt->flags & (TI_DECL | TI_UNSIZED)) && mt != &r->bad_ti)
		m->align = align_of(r, mt, depth);	/* lays out: TI_ALIGNED known */
	if (mt->flags & TI_ALIGNED)
		m->flags |= SF_MF_ALIGNED;
	if (mt->flags & TI_DECL) {
		m->flags |= SF_MF_INCOMPLETE;
		v->inc[v->n - 1] = mt->agg && *mt->agg->qname ? mt->agg->qname : NULL;
		m->align = 1;
		return;
	}
	if (mt == &r->bad_ti || (mt->flags & TI_UNSIZED)) {
		m->flags |= SF_MF_INCOMPLETE;
		m->align = 1;
		return;
	}
	v->natural[v->n - 1] = natural_of(r, mt, depth);
	v->ty[v->n - 1] = mt;
	if (mt->anon && !(mt->flags & TI_FLEX)) {
		struct xtype *x = layout(r, mt->anon, depth + 1);
		if (x) {
			m->nested = sf_nested_clone(&x->t, m->offset, depth, MAX_LAYOUT_DEPTH,
						    arena_for_clone, &r->arena);
			m->type_name = mt->anon->keyword;
			m->type_suffix = (mt->flags & TI_ARRAY) ? mt->right : isec(r, "");
			if (x->t.flags & SF_TF_INCOMPLETE)
				m->flags |= SF_MF_INCOMPLETE;
		}
	} else if (mt->anon_enum) {
		m->enums = enumerators(r, mt->anon_enum);
	} else if (mt->pointee && (mt->pointee->flags & TI_AGG)) {
		/* the pointed-to type is shown, never part of this layout */
		struct xtype *x = layout(r, mt->pointee, depth + 1);
		if (x) {
			m->nested = &x->t;
			m->flags |= SF_MF_POINTEE;
		}
	} else if (mt->pointee) {
		m->enums = enumerators(r, mt->pointee);
		if (m->enums)
			m->flags |= SF_MF_POINTEE;
	}
}

static void add_member(struct sf_reader *r, struct uh *uh, const struct sf_die *c,
		       struct mvec *v, unsigned depth)
{
	struct tinfo *mt = resolve_ref(r, uh, c, 0);
	struct sf_member *m = mvec_push(v);

	m->name = isec(r, c->name ? c->name : "");
	m->size = mt->size;
	if (c->has & SF_A_BIT_SIZE) {
		place_bitfield(m, c, uh->cx.f->msb);
	} else {
		m->offset = (c->has & SF_A_MEMBER_LOC) ? c->member_loc : 0;
		if (mt->flags & TI_FLEX) {
			m->flags |= SF_MF_FLEX_ARRAY;
			m->size = 0;
		}
	}
	set_type_of_member(r, m, mt, v, depth);
	/* rustc states every member's alignment: only one that differs
	 * from the type's own was asked for */
	if ((c->has & SF_A_ALIGNMENT) &&
	    (uh->cx.lang != DW_LANG_Rust || c->alignment != m->align)) {
		m->align = (uint32_t)c->alignment;
		m->flags |= SF_MF_ALIGNED;
	}
	if ((c->has & SF_A_ARTIFICIAL) && !strncmp(m->name, "_vptr", 5))
		m->flags |= SF_MF_VPTR;
}

static void add_base(struct sf_reader *r, struct uh *uh, const struct sf_die *c,
		     struct mvec *v, unsigned depth)
{
	struct tinfo *bt = resolve_ref(r, uh, c, 0);
	struct sf_member *m = mvec_push(v);

	m->name = bt->agg && *bt->agg->qname ? bt->agg->qname : bt->left;
	m->flags |= SF_MF_BASE;
	m->size = bt->size;
	m->offset = (c->has & SF_A_MEMBER_LOC) ? c->member_loc : 0;
	if (c->has & SF_A_VIRTUALITY && c->virtuality) {
		m->flags |= SF_MF_VIRTUAL_BASE;
		/* its offset lives in the vtable: placed after the rest */
		v->vbase_unplaced[v->n - 1] = !(c->has & SF_A_MEMBER_LOC);
	}
	set_type_of_member(r, m, bt, v, depth);
	m->tclass = SF_T_STRUCT;
	if (bt->agg && (bt->agg->flags & TI_EMPTY))
		m->size = 0;	/* empty base optimization */
}

static uint64_t align_up(uint64_t x, uint32_t a)
{
	return a > 1 ? (x + a - 1) / a * a : x;
}

/* Where the data of member m ends; a base's own tail padding left out
 * when its layout is known (C++ may put later data there). */
static uint64_t data_end(const struct sf_member *m, const struct tinfo *ty)
{
	uint64_t size = m->size;

	if ((m->flags & SF_MF_BASE) && ty && ty->agg && (ty->agg->flags & TI_LAID) &&
	    ty->agg->dsize < size)
		size = ty->agg->dsize;
	if (sf_member_is_bitfield(m))
		size = ((uint64_t)m->bit_offset + m->bit_size + 7) / 8;
	return m->offset + size;
}

/*
 * DWARF gives a virtual base's offset as an expression that reads the
 * vtable: it depends on the most derived type.  In the complete object,
 * gcc's and clang's (Itanium ABI) layout puts the virtual bases after the
 * non-virtual part, in declaration order, each at the end of what comes
 * before rounded up to its alignment.  That end is taken with the bases'
 * full sizes, or - when a virtual base would then not fit in the type -
 * with their data only (the ABI reuses the tail padding of non-POD bases).
 */
static void place_virtual_bases(struct sf_member *m, size_t n, const uint8_t *unplaced,
				struct tinfo *const *ty, uint64_t tsize)
{
	uint64_t full = 0, data = 0, need = 0;

	for (size_t i = 0; i < n; i++) {
		if (unplaced[i]) {
			need = align_up(need, m[i].align) + m[i].size;
			continue;
		}
		if (m[i].offset + m[i].size > full)
			full = m[i].offset + m[i].size;
		if (data_end(&m[i], ty[i]) > data)
			data = data_end(&m[i], ty[i]);
	}
	uint64_t end = full + need <= tsize ? full : data;
	for (size_t i = 0; i < n; i++) {
		if (!unplaced[i])
			continue;
		m[i].offset = align_up(end, m[i].align);
		/* corrupt sizes: keep it inside the type */
		if (m[i].offset > tsize || m[i].size > tsize - m[i].offset)
			m[i].offset = tsize > m[i].size ? tsize - m[i].size : 0;
		end = m[i].offset + m[i].size;
	}
}

/*
 * Offsets of the members, sorted, each with how many members of nonzero
 * size start there: the next member after any offset is a binary search
 * away, so a type with a million members costs n log n, not n^2.
 */
struct offsets {
	uint64_t *off;
	uint32_t *sized;
	size_t n;
};

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void offsets_build(const struct sf_type *t, struct offsets *o)
{
	uint64_t *all = sf_xcalloc(t->nmembers ? t->nmembers : 1, sizeof(*all));

	for (uint32_t i = 0; i < t->nmembers; i++)
		all[i] = t->members[i].offset;
	qsort(all, t->nmembers, sizeof(*all), cmp_u64);
	o->off = all;
	o->n = 0;
	for (uint32_t i = 0; i < t->nmembers; i++)
		if (!o->n || all[o->n - 1] != all[i])
			all[o->n++] = all[i];
	o->sized = sf_xcalloc(o->n ? o->n : 1, sizeof(*o->sized));
	for (uint32_t i = 0; i < t->nmembers; i++) {
		const struct sf_member *m = &t->members[i];
		if (!m->size)
			continue;
		size_t lo = 0, hi = o->n;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (o->off[mid] < m->offset)
				lo = mid + 1;
			else
				hi = mid;
		}
		o->sized[lo]++;
	}
}

/* Index of the first distinct offset > x (o->n if none). */
static size_t offsets_after(const struct offsets *o, uint64_t x)
{
	size_t lo = 0, hi = o->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (o->off[mid] <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void offsets_free(struct offsets *o)
{
	free(o->off);
	free(o->sized);
}

static int needs_offsets(const struct sf_type *t)
{
	for (uint32_t i = 0; i < t->nmembers; i++)
		if (t->members[i].flags & (SF_MF_INCOMPLETE | SF_MF_BASE))
			return 1;
	return 0;
}

/*
 * An incomplete member gets the room up to the next member: an upper
 * bound that can hide a hole but never invents one (`incomplete`).  A
 * base whose tail padding holds later members covers only up to them
 * (always).  One sort of the offsets serves both.
 */
static void fit_to_neighbours(struct sf_type *t, int incomplete)
{
	struct offsets o;

	if (t->kind == SF_KIND_UNION || !needs_offsets(t)) {
		for (uint32_t i = 0; incomplete && i < t->nmembers; i++) {
			struct sf_member *m = &t->members[i];
			if ((m->flags & SF_MF_INCOMPLETE) && !m->nested)
				m->size = t->size > m->offset ? t->size - m->offset : 0;
		}
		return;
	}
	offsets_build(t, &o);
	for (uint32_t i = 0; incomplete && i < t->nmembers; i++) {
		struct sf_member *m = &t->members[i];
		if (!(m->flags & SF_MF_INCOMPLETE) || m->nested)
			continue;
		size_t k = offsets_after(&o, m->offset);
		uint64_t next = k < o.n ? o.off[k] : t->size;
		/* another member of some size starts here too: this one
		 * cannot be the one covering the bytes */
		size_t here = k ? k - 1 : 0;
		int shared = o.n && o.off[here] == m->offset && o.sized[here] > 0;
		m->size = shared || next < m->offset ? 0 : next - m->offset;
		if (m->size && o.n)
			o.sized[here]++;
	}
	for (uint32_t i = 0; i < t->nmembers; i++) {
		struct sf_member *m = &t->members[i];
		if (!(m->flags & SF_MF_BASE) || !m->size)
			continue;
		size_t k = offsets_after(&o, m->offset);
		uint64_t next = k < o.n ? o.off[k] : t->size;
		if (next < m->offset + m->size && next > m->offset)
			m->size = next - m->offset;
	}
	offsets_free(&o);
}

/*
 * ti is packed: a container holds it where only a packed type can be.
 * Its model and alignment change; the types laid out before took the old
 * alignment, so the unit is laid out again (report_tops).
 */
static void mark_packed(struct sf_reader *r, struct tinfo *ti)
{
	if (ti->flags & TI_PACKED)
		return;
	ti->flags |= TI_PACKED;
	r->repack = 1;
	if ((ti->flags & TI_LAID) && ti->model) {
		struct sf_type *t = &ti->model->t;
		t->flags |= SF_TF_PACKED;
		if (!ti->align_attr)
			t->align = 1;
		ti->align = t->align;
	}
}

/*
 * pahole's type__check_structs_at_unnatural_alignments and
 * union__infer_packed_attributes: a struct that is not packed, yet holds
 * a struct or union at an offset that type's natural alignment does not
 * divide - or a union whose size it does not divide - shows that type is
 * packed, though its own layout may look natural (packed_inner on
 * ILP32: size 8, members aligned, at offset 1 in holds_packed).  ty[i] is
 * member i's type.  Returns whether a member's alignment changed.
 *
 * Not where an aligned attribute is in play: it makes holes and padding
 * in a packed struct too (sctp_paddrparams is packed and aligned(4), so
 * its 1 byte of padding proves nothing about __kernel_sockaddr_storage at
 * offset 4), and a type with DW_AT_alignment has that alignment, packed
 * or not.
 */
static int find_packed_members(struct sf_reader *r, struct sf_type *t,
			       struct tinfo *const *ty, unsigned depth)
{
	int changed = 0;

	if ((t->kind != SF_KIND_UNION && (t->flags & SF_TF_PACKED)) ||
	    (t->flags & SF_TF_ALIGNED))
		return 0;
	for (uint32_t i = 0; i < t->nmembers; i++)
		if (t->members[i].flags & SF_MF_ALIGNED)
			return 0;
	for (uint32_t i = 0; i < t->nmembers; i++) {
		const struct sf_member *m = &t->members[i];
		struct tinfo *a = ty[i] ? ty[i]->agg : NULL;
		if (!a || (ty[i]->flags & TI_ARRAY) || !(a->flags & TI_LAID) ||
		    a->align_attr || sf_member_is_bitfield(m) ||
		    (m->flags & (SF_MF_INCOMPLETE | SF_MF_VIRTUAL_BASE)))
			continue;
		uint64_t where = t->kind == SF_KIND_UNION ? t->size : m->offset;
		if (a->natural > 1 && where % a->natural)
			mark_packed(r, a);
	}
	for (uint32_t i = 0; i < t->nmembers; i++) {
		struct sf_member *m = &t->members[i];
		if (!ty[i] || !ty[i]->agg || !(ty[i]->agg->flags & TI_PACKED) ||
		    (m->flags & (SF_MF_ALIGNED | SF_MF_INCOMPLETE)))
			continue;
		uint32_t a = align_of(r, ty[i], depth);
		if (a != m->align) {
			m->align = a;
			changed = 1;
		}
	}
	return changed;
}

static int is_empty_class(const struct sf_type *t)
{
	if (t->kind == SF_KIND_UNION || t->size != 1)
		return 0;
	for (uint32_t i = 0; i < t->nmembers; i++)
		if (!(t->members[i].flags & SF_MF_BASE) || t->members[i].size)
			return 0;
	return 1;
}

/* Where a member's data starts, as (byte, bit) - a bit-field's storage
 * unit may begin before the member declared ahead of it. */
static void member_start(const struct sf_member *m, uint64_t *byte, uint32_t *bit)
{
	uint64_t b = m->offset + m->bit_offset / 8;

	*byte = b < m->offset ? UINT64_MAX : b;
	*bit = m->bit_offset % 8;
}

static int member_before(const struct sf_member *a, size_t ia,
			 const struct sf_member *b, size_t ib)
{
	int va = (a->flags & SF_MF_VIRTUAL_BASE) != 0, vb = (b->flags & SF_MF_VIRTUAL_BASE) != 0;
	uint64_t ba, bb;
	uint32_t ta, tb;

	if (va != vb)
		return vb;
	member_start(a, &ba, &ta);
	member_start(b, &bb, &tb);
	if (ba != bb)
		return ba < bb;
	if (ta != tb)
		return ta < tb;
	return ia < ib;	/* stable: unions, empty members keep their order */
}

/*
 * The members' indices in memory order (virtual bases last), or NULL
 * when they already are: a merge sort, stable and n log n for hostile
 * member counts.
 */
static uint32_t *offset_order(struct sf_reader *r, const struct sf_member *m, size_t n)
{
	size_t i;

	for (i = 1; i < n; i++)
		if (!member_before(&m[i - 1], i - 1, &m[i], i))
			break;
	if (i >= n)
		return NULL;
	uint32_t *a = arena_alloc_raw(&r->arena, sizeof(*a) * n);
	uint32_t *b = arena_alloc_raw(&r->arena, sizeof(*b) * n);
	for (i = 0; i < n; i++)
		a[i] = (uint32_t)i;
	for (size_t w = 1; w < n; w *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * w) {
			size_t mid = lo + w < n ? lo + w : n;
			size_t hi = mid + w < n ? mid + w : n;
			size_t p = lo, q = mid, o = lo;
			while (p < mid && q < hi)
				b[o++] = member_before(&m[a[q]], a[q], &m[a[p]], a[p]) ? a[q++] : a[p++];
			while (p < mid)
				b[o++] = a[p++];
			while (q < hi)
				b[o++] = a[q++];
		}
		uint32_t *tmp = a;
		a = b;
		b = tmp;
	}
	return a;
}

/* The variants of the aggregate being laid out (arena memory). */
struct vlist {
	struct sf_variant *v;
	uint32_t n;
	uint32_t natural;       /* the largest natural alignment of their fields */
};

/*
 * One member of a variant: rustc wraps a variant's payload in a struct
 * named for the variant, at offset 0 - its fields are the variant's
 * members, moved to offsets in the enum.  Anything else is one member.
 * Returns how many members it wrote to out (NULL: only count).
 */
static uint32_t variant_fields(struct sf_reader *r, struct uh *uh, const struct sf_die *c,
			       struct sf_member *out, uint32_t *natural, unsigned depth)
{
	struct tinfo *mt = resolve_ref(r, uh, c, 0);
	uint64_t loc = (c->has & SF_A_MEMBER_LOC) ? c->member_loc : 0;
	struct xtype *x = uh->cx.lang == DW_LANG_Rust && (mt->flags & TI_AGG) && !mt->anon
			? layout(r, mt->agg, depth + 1) : NULL;

	if (x) {
		for (uint32_t i = 0; out && i < x->t.nmembers; i++) {
			out[i] = x->t.members[i];
			out[i].offset = loc + x->t.members[i].offset < loc ? UINT64_MAX
				      : loc + x->t.members[i].offset;
		}
		if (x->t.natural_align > *natural)
			*natural = x->t.natural_align;
		return x->t.nmembers;
	}
	if (out) {
		memset(out, 0, sizeof(*out));
		out->name = isec(r, c->name ? c->name : "");
		out->type_name = mt->left;
		out->type_suffix = mt->right;
		out->offset = loc;
		out->size = mt->size;
		out->tclass = mt->tclass;
		out->align = (mt->flags & (TI_DECL | TI_UNSIZED)) || mt == &r->bad_ti
			   ? 1 : align_of(r, mt, depth);
		if (mt->flags & TI_SIGNED)
			out->flags |= SF_MF_SIGNED;
		if (out->align > *natural)
			*natural = out->align;
	}
	return 1;
}

/* The members of one DW_TAG_variant, in memory order, into vr. */
static int read_variant(struct sf_reader *r, struct uh *uh, const struct sf_die *d,
			struct sf_variant *vr, uint32_t *natural, unsigned depth)
{
	struct sf_die c;
	uint32_t n = 0;

	vr->name = isec(r, "");
	vr->has_discr_value = (d->has2 & SF_A2_DISCR_VALUE) != 0;
	vr->discr_value = d->discr_value;
	/* count, then fill */
	for (int fill = 0; fill < 2; fill++) {
		uint64_t off = d->next;
		uint32_t k = 0;
		if (fill)
			vr->members = arena_alloc(&r->arena, sizeof(*vr->members) * (n ? n : 1));
		while (d->children) {
			if (read_die(r, uh, off, &c) < 0)
				return -1;
			if (c.tag == 0)
				break;
			if (c.tag == DW_TAG_member) {
				if (!*vr->name && c.name)
					vr->name = isec(r, c.name);
				uint32_t got = variant_fields(r, uh, &c, NULL, natural, depth);
				if (fill && k + got <= n)
					variant_fields(r, uh, &c, vr->members + k, natural, depth);
				if (got > MAX_MEMBERS - k)
					return corrupt(r, uh, c.off);
				k += got;
			}
			if (r->failed || skip_die(r, uh, &c, &off) < 0)
				return -1;
		}
		if (fill && k != n)
			return corrupt(r, uh, d->off);
		n = k;
	}
	vr->nmembers = n;
	uint32_t *order = offset_order(r, vr->members, n);
	if (order) {
		struct sf_member *sorted = arena_alloc_raw(&r->arena, sizeof(*sorted) * n);
		for (uint32_t i = 0; i < n; i++)
			sorted[i] = vr->members[order[i]];
		vr->members = sorted;
	}
	return 0;
}

/*
 * DW_TAG_variant_part: its DW_TAG_member child is the discriminant (a
 * member of the enum itself), its DW_TAG_variant children the variants.
 */
static int read_variant_part(struct sf_reader *r, struct uh *uh, const struct sf_die *d,
			     struct mvec *v, struct vlist *vl, unsigned depth)
{
	struct sf_die c;
	uint64_t off = d->next;
	uint32_t n = 0;

	for (off = d->next; d->children;) {
		if (read_die(r, uh, off, &c) < 0)
			return -1;
		if (c.tag == 0)
			break;
		n += c.tag == DW_TAG_variant && n < MAX_MEMBERS;
		if (skip_die(r, uh, &c, &off) < 0)
			return -1;
	}
	struct sf_variant *all = arena_alloc(&r->arena, sizeof(*all) * (vl->n + n + 1));
	if (vl->n)
		memcpy(all, vl->v, sizeof(*all) * vl->n);
	vl->v = all;
	for (off = d->next; d->children;) {
		if (read_die(r, uh, off, &c) < 0)
			return -1;
		if (c.tag == 0)
			break;
		if (c.tag == DW_TAG_member && n && !(c.has & SF_A_DECLARATION)) {
			add_member(r, uh, &c, v, depth);
			struct sf_member *m = &v->m[v->n - 1];
			m->flags |= SF_MF_DISCR;
			if (!*m->name)
				m->name = isec(r, "<discriminant>");
		} else if (c.tag == DW_TAG_variant && n) {
			if (read_variant(r, uh, &c, &vl->v[vl->n], &vl->natural, depth) < 0)
				return -1;
			vl->n++;
			n--;
		}
		if (r->failed || skip_die(r, uh, &c, &off) < 0)
			return -1;
	}
	return 0;
}

static int collect_members(struct sf_reader *r, struct uh *uh, const struct sf_die *d,
			   struct mvec *v, struct vlist *vl, unsigned depth)
{
	struct sf_die c;
	uint64_t off = d->next;

	while (d->children) {
		if (read_die(r, uh, off, &c) < 0)
			return -1;
		if (c.tag == 0)
			break;
		if (v->n >= MAX_MEMBERS) {
			sf_error(r->err, "%s: corrupt DWARF (more than %u members at 0x%llx)",
				 uh->cx.f->label, MAX_MEMBERS, (unsigned long long)d->off);
			r->failed = 1;
			return -1;
		}
		/* static members: DW_AT_external/declaration (DWARF 4),
		 * DW_TAG_variable (DWARF 5) - not part of the layout */
		if (c.tag == DW_TAG_member && !(c.has & (SF_A_EXTERNAL | SF_A_DECLARATION)))
			add_member(r, uh, &c, v, depth);
		else if (c.tag == DW_TAG_inheritance)
			add_base(r, uh, &c, v, depth);
		else if (c.tag == DW_TAG_variant_part &&
			 read_variant_part(r, uh, &c, v, vl, depth) < 0)
			return -1;
		if (r->failed || skip_die(r, uh, &c, &off) < 0)
			return -1;
	}
	return 0;
}

/* Does member m share a byte with any member of variant vr? */
static int overlaps_variant(const struct sf_member *m, const struct sf_variant *vr)
{
	for (uint32_t i = 0; i < vr->nmembers; i++) {
		const struct sf_member *f = &vr->members[i];
		if (f->offset < m->offset + m->size && m->offset < f->offset + f->size)
			return 1;
	}
	return 0;
}

/* Attach the variants; a discriminant inside a variant's field is a niche. */
static void set_variants(struct sf_type *t, const struct vlist *vl)
{
	t->variants = vl->v;
	t->nvariants = vl->n;
	if (vl->natural > t->natural_align)
		t->natural_align = vl->natural;
	for (uint32_t i = 0; i < t->nmembers; i++) {
		if (!(t->members[i].flags & SF_MF_DISCR))
			continue;
		for (uint32_t k = 0; k < vl->n; k++)
			if (overlaps_variant(&t->members[i], &vl->v[k]))
				t->flags |= SF_TF_NICHE;
	}
}

static struct xtype *layout(struct sf_reader *r, struct tinfo *ti, unsigned depth)
{
	struct sf_die d;

	if (!(ti->flags & TI_AGG) || (ti->flags & TI_DECL))
		return NULL;
	if (ti->flags & TI_LAID)
		return ti->model;
	if ((ti->flags & TI_LAYING) || depth > MAX_LAYOUT_DEPTH || r->failed)
		return NULL;
	struct uh *uh = ti->unit;
	if (read_die(r, uh, off_of(ti), &d) < 0)
		return NULL;
	if (!r->mv)
		r->mv = sf_xcalloc(MAX_LAYOUT_DEPTH + 2, sizeof(*r->mv));
	struct mvec *vp = &r->mv[depth];
	vp->n = 0;
	ti->flags |= TI_LAYING;
	struct vlist vl = { NULL, 0, 1 };
	int rc = collect_members(r, uh, &d, vp, &vl, depth);
	ti->flags &= ~TI_LAYING;
	if (rc < 0)
		return NULL;
	struct mvec v = *vp;

	struct xtype *x = arena_alloc(&r->arena, sizeof(*x));
	struct sf_type *t = &x->t;
	x->unit = uh;
	x->file = (d.has & SF_A_DECL_FILE) ? d.decl_file : 0;
	t->name = ti->qname;
	t->kind = ti->kind;
	t->size = ti->size;
	t->decl_file = "";
	t->decl_line = d.decl_line;
	t->addr_size = uh->cx.u->addr_size;
	if (sf_lang_is_cxx(uh->cx.lang))
		t->flags |= SF_TF_CXX;
	place_virtual_bases(v.m, v.n, v.vbase_unplaced, v.ty, t->size);
	t->nmembers = (uint32_t)v.n;
	t->members = arena_alloc_raw(&r->arena, sizeof(*t->members) * (v.n ? v.n : 1));
	x->natural = arena_alloc_raw(&r->arena, sizeof(*x->natural) * (v.n ? v.n : 1));
	struct tinfo **ty = arena_alloc_raw(&r->arena, sizeof(*ty) * (v.n ? v.n : 1));
	/* in memory order (rustc reorders fields, its DWARF keeps the
	 * declaration's), virtual bases last, where the complete object
	 * has them */
	uint32_t *order = offset_order(r, v.m, v.n);
	for (size_t k = 0; k < v.n; k++) {
		size_t i = order ? order[k] : k;
		t->members[k] = v.m[i];
		x->natural[k] = v.natural[i];
		ty[k] = v.ty[i];
		if (v.inc[i]) {
			if (!x->inc)
				x->inc = arena_alloc(&r->arena, sizeof(*x->inc) * v.n);
			x->inc[k] = v.inc[i];
		}
	}
	for (size_t k = 0; order && k < v.n; k++)
		if (order[k] != k)
			t->flags |= SF_TF_REORDERED;
	x->forced = (ti->flags & TI_PACKED) != 0;
	fit_to_neighbours(t, 1);
	sf_settle_packing(t, x->natural, ti->align_attr, (ti->flags & TI_PACKED) != 0);
	if (find_packed_members(r, t, ty, depth))
		sf_settle_packing(t, x->natural, ti->align_attr, (ti->flags & TI_PACKED) != 0);
	if (vl.n)
		set_variants(t, &vl);
	if (uh->cx.lang == DW_LANG_Rust) {
		t->flags |= SF_TF_RUST;
		for (uint32_t i = 0; i < t->nmembers; i++)
			t->members[i].flags |= SF_MF_RUST;
		for (uint32_t k = 0; k < t->nvariants; k++)
			for (uint32_t i = 0; i < t->variants[k].nmembers; i++)
				t->variants[k].members[i].flags |= SF_MF_RUST;
		if (ti->align_attr && ti->align_attr != t->natural_align)
			ti->flags |= TI_ALIGNED;
		else
			t->flags &= (uint16_t)~SF_TF_ALIGNED;
	}
	if (is_empty_class(t) && (t->flags & SF_TF_CXX))
		ti->flags |= TI_EMPTY;
	ti->align = t->align;
	ti->natural = t->natural_align;
	ti->dsize = 0;
	for (uint32_t i = 0; i < t->nmembers; i++)
		if (!(t->members[i].flags & SF_MF_VIRTUAL_BASE) &&
		    data_end(&t->members[i], ty[i]) > ti->dsize)
			ti->dsize = data_end(&t->members[i], ty[i]);
	ti->model = x;
	ti->flags |= TI_LAID;
	return x;
}

/* Forget every layout of the unit (kept: what was found packed). */
static void unlay_all(struct sf_reader *r)
{
	for (size_t j = 0; j < r->mapcap; j++) {
		struct tinfo *ti = r->map[j].gen == r->gen ? r->map[j].ti : NULL;
		if (ti && (ti->flags & TI_LAID)) {
			ti->flags &= ~TI_LAID;
			ti->model = NULL;
		}
	}
}

/* ---- output -------------------------------------------------------------- */

/* The path DW_AT_decl_file idx of unit uh names (valid until the next call). */
static const char *srcfile(struct sf_reader *r, struct uh *uh, uint32_t idx)
{
	if (r->files_unit != uh->cx.unit_index + 1 || r->files_file != uh->cx.f) {
		sf_files_release(&r->files);
		r->files_file = uh->cx.f;
		r->files_unit = uh->cx.unit_index + 1;
		if (sf_ucx_files(&uh->cx, &r->files) < 0)
			sf_files_release(&r->files);	/* corrupt: no names */
	}
	return sf_files_path(&r->files, idx, &r->path);
}

static const struct sf_enum *copy_enums(struct sf_typeset *ts, const struct sf_enum *src,
					int interned)
{
	struct sf_enum *e = sf_typeset_alloc(ts, sizeof(*e));
	struct sf_enumerator *v = sf_typeset_alloc(ts, sizeof(*v) * (src->n ? src->n : 1));

	for (uint32_t k = 0; k < src->n; k++) {
		v[k].name = interned ? src->v[k].name : sf_typeset_intern(ts, src->v[k].name);
		v[k].value = src->v[k].value;
	}
	e->n = src->n;
	e->v = v;
	return e;
}

/* The variants of src in ts's arena (their members have no nested types). */
static struct sf_variant *copy_variants(struct sf_typeset *ts, const struct sf_type *src,
					int interned)
{
	struct sf_variant *v = sf_typeset_alloc(ts, sizeof(*v) * src->nvariants);

	for (uint32_t k = 0; k < src->nvariants; k++) {
		const struct sf_variant *s = &src->variants[k];
		v[k] = *s;
		v[k].name = interned ? s->name : sf_typeset_intern(ts, s->name);
		v[k].members = sf_typeset_alloc(ts, sizeof(*v[k].members) * (s->nmembers ? s->nmembers : 1));
		for (uint32_t i = 0; i < s->nmembers; i++) {
			struct sf_member *m = &v[k].members[i];
			*m = s->members[i];
			m->nested = NULL;
			m->enums = NULL;
			if (!interned) {
				m->name = sf_typeset_intern(ts, m->name);
				m->type_name = sf_typeset_intern(ts, m->type_name);
				m->type_suffix = sf_typeset_intern(ts, m->type_suffix);
			}
		}
	}
	return v;
}

/*
 * Copy a scratch type into ts's arena.  Strings are interned unless they
 * already are (`interned`: the reader's own output pool).
 */
static struct sf_type *deep_copy(struct sf_typeset *ts, const struct sf_type *src,
				 const char *decl_file, const char *origin, int interned,
				 unsigned depth)
{
	struct sf_type *t = sf_typeset_alloc(ts, sizeof(*t));

	*t = *src;
	t->name = interned ? src->name : sf_typeset_intern(ts, src->name);
	t->decl_file = sf_typeset_intern(ts, decl_file);
	t->origin = origin;
	t->members = sf_typeset_alloc(ts, sizeof(*t->members) * (src->nmembers ? src->nmembers : 1));
	for (uint32_t i = 0; i < src->nmembers; i++) {
		const struct sf_member *s = &src->members[i];
		struct sf_member *m = &t->members[i];
		*m = *s;
		if (!interned) {
			m->name = sf_typeset_intern(ts, s->name);
			m->type_name = sf_typeset_intern(ts, s->type_name);
			m->type_suffix = sf_typeset_intern(ts, s->type_suffix);
		}
		m->nested = s->nested && depth < MAX_LAYOUT_DEPTH
			  ? deep_copy(ts, s->nested, "", origin, interned, depth + 1) : NULL;
		if (s->enums)
			m->enums = copy_enums(ts, s->enums, interned);
	}
	if (src->nvariants)
		t->variants = copy_variants(ts, src, interned);
	return t;
}

/* Is a type equal to t among those this reader kept?  (by interned name) */
static int have_out(const struct sf_reader *r, const struct sf_type *t)
{
	if (!r->namecap)
		return 0;
	size_t j = sf_mix64((uintptr_t)t->name) & (r->namecap - 1);
	for (; r->name_key[j]; j = (j + 1) & (r->namecap - 1)) {
		if (r->name_key[j] != t->name)
			continue;
		for (uint32_t i = r->name_head[j]; i; i = r->out_next[i - 1])
			if (sf_type_equal(r->outv[i - 1], t))
				return 1;
		return 0;
	}
	return 0;
}

static void index_out(struct sf_reader *r, struct sf_type *t)
{
	if ((r->nnames + 1) * 2 > r->namecap) {
		size_t ncap = r->namecap ? r->namecap * 2 : 1024;
		const char **nk = sf_xcalloc(ncap, sizeof(*nk));
		uint32_t *nh = sf_xcalloc(ncap, sizeof(*nh));
		for (size_t i = 0; i < r->namecap; i++) {
			if (!r->name_key[i])
				continue;
			size_t j = sf_mix64((uintptr_t)r->name_key[i]) & (ncap - 1);
			while (nk[j])
				j = (j + 1) & (ncap - 1);
			nk[j] = r->name_key[i];
			nh[j] = r->name_head[i];
		}
		free(r->name_key);
		free(r->name_head);
		r->name_key = nk;
		r->name_head = nh;
		r->namecap = ncap;
	}
	SF_GROW(r->outv, r->nout, r->outcap);
	SF_GROW(r->out_next, r->nout, r->nextcap);
	r->outv[r->nout] = t;
	size_t j = sf_mix64((uintptr_t)t->name) & (r->namecap - 1);
	while (r->name_key[j] && r->name_key[j] != t->name)
		j = (j + 1) & (r->namecap - 1);
	if (!r->name_key[j]) {
		r->name_key[j] = t->name;
		r->nnames++;
	}
	r->out_next[r->nout] = r->name_head[j];
	r->name_head[j] = (uint32_t)++r->nout;
}

/* Is a type equal to t already in ts? */
static int have(const struct sf_typeset *ts, const struct sf_type *t)
{
	const struct sf_type *found[8];
	int td = (t->flags & SF_TF_TYPEDEF) != 0;
	size_t n = sf_typeset_find_ns(ts, t->name, td, found, 8);

	if (n > 8) {
		const struct sf_type **all = sf_xcalloc(n, sizeof(*all));
		n = sf_typeset_find_ns(ts, t->name, td, all, n);
		int hit = 0;
		for (size_t i = 0; i < n && !hit; i++)
			hit = sf_type_equal(all[i], t);
		free(all);
		return hit;
	}
	for (size_t i = 0; i < n; i++)
		if (sf_type_equal(found[i], t))
			return 1;
	return 0;
}

/* Whether `only` names this type: literally, or as a glob ('rb_*'). */
static int wanted(const struct sf_reader *r, const char *name)
{
	if (!r->only)
		return 1;
	for (size_t i = 0; r->only[i]; i++)
		if (!strcmp(r->only[i], name) ||
		    (strpbrk(r->only[i], "*?[") && !fnmatch(r->only[i], name, 0)))
			return 1;
	return 0;
}

/* Whether `only` names this very name (no glob). */
static int named(const struct sf_reader *r, const char *name)
{
	for (size_t i = 0; r->only && r->only[i]; i++)
		if (!strcmp(r->only[i], name))
			return 1;
	return 0;
}

static void hold_pending(struct sf_reader *r, const struct sf_type *t, const struct xtype *x)
{
	if (!r->pending_ts)
		r->pending_ts = sf_typeset_new();
	if (have(r->pending_ts, t) || (r->held && r->held->ts && have(r->held->ts, t)))
		return;
	struct sf_typeset *pts = r->pending_ts;
	struct sf_type *copy = deep_copy(pts, t, srcfile(r, x->unit, x->file),
					 sf_typeset_intern(pts, r->origin), 0, 0);
	sf_typeset_add(pts, copy);

	SF_GROW(r->pend, r->npend, r->pendcap);
	struct pend *p = &r->pend[r->npend++];
	memset(p, 0, sizeof(*p));
	p->t = copy;
	for (uint32_t i = 0; x->inc && i < t->nmembers; i++)
		p->n += x->inc[i] != NULL;
	p->idx = sf_typeset_alloc(pts, sizeof(*p->idx) * (p->n ? p->n : 1));
	p->qname = sf_typeset_alloc(pts, sizeof(*p->qname) * (p->n ? p->n : 1));
	p->natural = sf_typeset_alloc(pts, sizeof(*p->natural) * (t->nmembers ? t->nmembers : 1));
	memcpy(p->natural, x->natural, sizeof(*p->natural) * t->nmembers);
	p->forced = x->forced;
	for (uint32_t i = 0, k = 0; x->inc && i < t->nmembers; i++) {
		if (!x->inc[i])
			continue;
		p->idx[k] = i;
		p->qname[k++] = sf_typeset_intern(pts, x->inc[i]);
	}
}

/* Report the aggregate ti under `name` (laid out by report_tops). */
static void add_top(struct sf_reader *r, struct tinfo *ti, const char *name, int is_typedef)
{
	struct xtype *x = layout(r, ti, 0);
	if (!x)
		return;
	struct sf_type t = x->t;
	t.name = name;
	if (is_typedef)
		t.flags |= SF_TF_TYPEDEF;
	if (t.flags & SF_TF_INCOMPLETE) {
		hold_pending(r, &t, x);
		return;
	}
	if (have_out(r, &t) || (r->known && have(r->known, &t)))
		return;
	struct sf_type *copy = deep_copy(r->out, &t, srcfile(r, x->unit, x->file),
					 isec(r, r->origin), 1, 0);
	if (sf_typeset_add(r->out, copy) == copy)
		index_out(r, copy);
}

static void want_top_always(struct sf_reader *r, struct tinfo *ti, const char *name,
			    int is_typedef);

/* The aggregate ti is to be reported under `name` once the unit is read. */
static void want_top(struct sf_reader *r, struct tinfo *ti, const char *name, int is_typedef)
{
	if (!*name || !wanted(r, name))
		return;
	want_top_always(r, ti, name, is_typedef);
}

static void want_top_always(struct sf_reader *r, struct tinfo *ti, const char *name,
			    int is_typedef)
{
	SF_GROW(r->tops, r->ntops, r->topcap);
	r->tops[r->ntops++] = (struct top){ ti, name, is_typedef };
}

/*
 * Lay out every type the unit reports, then report them.  A type found
 * packed only where a later one holds it (mark_packed) changes the
 * alignment of the types laid out before: the unit is laid out again
 * then, a few times at most (each pass finds a new packed type or ends).
 */
static void report_tops(struct sf_reader *r)
{
	for (int pass = 0; pass < 4 && !r->failed; pass++) {
		r->repack = 0;
		for (size_t i = 0; i < r->ntops && !r->failed; i++)
			layout(r, r->tops[i].ti, 0);
		if (!r->repack)
			break;
		unlay_all(r);
	}
	for (size_t i = 0; i < r->ntops && !r->failed; i++)
		add_top(r, r->tops[i].ti, r->tops[i].name, r->tops[i].is_typedef);
	r->ntops = 0;
}

/* ---- walking units ------------------------------------------------------- */

static void top_aggregate(struct sf_reader *r, struct uh *uh, const struct sf_die *d)
{
	if (d->has & (SF_A_DECLARATION | SF_A_SIGNATURE))
		return;
	struct tinfo *ti = resolve(r, uh, d->off, 0);
	if (ti->flags & TI_AGG)
		want_top(r, ti, ti->qname, 0);
}

/* typedef struct { ... } name_t;  (pahole prints these by the typedef name) */
static void top_typedef(struct sf_reader *r, struct uh *uh, const struct sf_die *d)
{
	if (!d->name || !(d->has & SF_A_TYPE) || (d->has & SF_A_SIG8))
		return;
	struct uh *to = ref_unit(r, uh, d, d->type, (d->has & SF_A_ALT) != 0);
	if (!to)
		return;
	struct tinfo *t = resolve(r, to, d->type, 0);
	if ((t->flags & TI_AGG) && (t->flags & TI_ANON)) {
		want_top(r, t, die_qname(r, uh, d), 1);
		return;
	}
	/*
	 * `typedef struct _IO_FILE FILE` with -t FILE: report the aggregate
	 * under its own name, and tell the typeset FILE stands for it.
	 */
	struct tinfo *a = t->agg;
	const char *name = r->only ? die_qname(r, uh, d) : NULL;
	if (!name || !a || !(a->flags & TI_AGG) || (a->flags & TI_ANON) ||
	    !a->qname || !*a->qname || !named(r, name))
		return;
	sf_typeset_add_alias(r->out, name, a->qname);
	if (!(a->flags & TI_DECL))
		want_top_always(r, a, a->qname, 0);
}

static int walk(struct sf_reader *r, struct uh *uh, uint64_t off, unsigned depth, uint64_t *end);

/*
 * DW_TAG_imported_unit: the partial unit's types are the importer's.
 * Each partial unit is walked once per reader (the types are laid out
 * once, and dwz's import chains may repeat or loop).
 */
static int walk_import(struct sf_reader *r, struct uh *uh, const struct sf_die *d)
{
	struct sf_die pd;
	uint64_t end;

	if (!(d->has2 & SF_A2_IMPORT))
		return 0;
	struct uh *pu = ref_unit(r, uh, d, d->import, (d->has2 & SF_A2_IMPORT_ALT) != 0);
	if (!pu)
		return r->failed ? -1 : corrupt(r, uh, d->off);
	const struct sf_unit *u = pu->cx.u;
	if (d->import != u->die_start)
		return corrupt(r, uh, d->off);	/* must name the unit's DIE */
	int which = pu->in_alt;
	if (!r->walked[which])
		r->walked[which] = sf_xcalloc(pu->cx.f->nunits, 1);
	if (r->walked[which][pu->cx.unit_index] || r->import_depth >= MAX_SCOPE_DEPTH)
		return 0;
	r->walked[which][pu->cx.unit_index] = 1;
	if (read_die(r, pu, u->die_start, &pd) < 0)
		return -1;
	if (!pd.children)
		return 0;
	r->import_depth++;
	int rc = walk(r, pu, pd.next, 0, &end);
	r->import_depth--;
	return rc;
}

/* Every type definition in the list of DIEs starting at off. */
static int walk(struct sf_reader *r, struct uh *uh, uint64_t off, unsigned depth, uint64_t *end)
{
	struct sf_die d;
	int scoped = !sf_lang_is_c(uh->cx.lang);

	while (!r->failed) {
		if (read_die(r, uh, off, &d) < 0)
			return -1;
		if (d.tag == 0) {
			*end = d.next;
			return 0;
		}
		int descend = 0;
		switch (d.tag) {
		case DW_TAG_structure_type: case DW_TAG_class_type:
		case DW_TAG_union_type: case DW_TAG_interface_type:
			top_aggregate(r, uh, &d);
			/* C++ nested classes; inside a Rust struct only the
			 * structs rustc makes for an enum's variants, shown
			 * within the enum */
			descend = scoped && uh->cx.lang != DW_LANG_Rust;
			break;
		case DW_TAG_namespace: case DW_TAG_module:	/* gfortran's modules */
			descend = 1;
			break;
		case DW_TAG_typedef:
			top_typedef(r, uh, &d);
			break;
		case DW_TAG_imported_unit:
			if (walk_import(r, uh, &d) < 0)
				return -1;
			break;
		}
		if (descend && d.children && depth < MAX_SCOPE_DEPTH) {
			if (walk(r, uh, d.next, depth + 1, &off) < 0)
				return -1;
		} else if (skip_die(r, uh, &d, &off) < 0) {
			return -1;
		}
	}
	return -1;
}

static void end_unit(struct sf_reader *r)
{
	for (size_t i = 0; i < r->nothers; i++) {
		uh_close(r->others[i]);
		free(r->others[i]);
	}
	r->nothers = 0;
	r->ntops = 0;
	uh_close(&r->cur);
	sf_files_release(&r->files);
	r->files_unit = 0;
	r->files_file = NULL;
	arena_reset(&r->arena);
	r->gen++;
	r->mapcount = 0;
	if (r->gen == 0) {	/* wrapped: stale slots could look current */
		memset(r->map, 0, r->mapcap * sizeof(*r->map));
		r->gen = 1;
	}
}

static int read_unit(struct sf_reader *r, size_t i)
{
	struct sf_die d;
	uint64_t end;

	const struct sf_unit *u = &r->f->units[i];
	/* dwz: a partial unit is read where a compile unit imports it (a
	 * file of partial units only, an alt file given itself, is read
	 * unit by unit) */
	if (u->die_tag == DW_TAG_partial_unit && r->f->ncompile)
		return 0;
	if (uh_open(r, &r->cur, r->f, i) < 0)
		return -1;
	int rc = 0;
	if (u->unit_type != DW_UT_skeleton && u->die_start < u->end) {
		rc = read_die(r, &r->cur, u->die_start, &d);
		if (rc == 0 && d.children)
			rc = walk(r, &r->cur, d.next, 0, &end);
		if (rc == 0)
			report_tops(r);
	}
	end_unit(r);
	return r->failed ? -1 : rc;
}

int sf_reader_units(struct sf_reader *r, size_t first, size_t last, struct sf_err *err)
{
	r->err = err;
	for (size_t i = first; i < last && i < r->f->nunits; i++)
		if (read_unit(r, i) < 0)
			return -1;
	return 0;
}

/* ---- pending types ------------------------------------------------------- */

/* The one size and alignment the complete definitions named qname agree
 * on in ts, or NULL (none, or differing ones). */
static const struct sf_type *definition(const struct sf_typeset *ts, const char *qname)
{
	const struct sf_type *found[16];
	/* a member's or base's type is named by its tag */
	size_t n = ts ? sf_typeset_find_ns(ts, qname, 0, found, 16) : 0;
	const struct sf_type *b = NULL;

	for (size_t i = 0; i < n && i < 16; i++) {
		if (found[i]->flags & SF_TF_INCOMPLETE)
			continue;
		if (b && (b->size != found[i]->size || b->align != found[i]->align))
			return NULL;
		b = found[i];
	}
	return b;
}

static void complete_member(const struct sf_typeset *ts, const struct sf_typeset *extra,
			    struct sf_member *m, uint32_t *natural, const char *qname)
{
	const struct sf_type *b = definition(ts, qname);

	if (!b)
		b = definition(extra, qname);
	if (!b)
		return;
	m->size = (m->flags & SF_MF_BASE) && is_empty_class(b) ? 0 : b->size;
	m->align = b->align;
	*natural = b->natural_align ? b->natural_align : b->align;
	m->flags &= (uint16_t)~SF_MF_INCOMPLETE;
}


struct sf_pending *sf_pending_new(void)
{
	return sf_xcalloc(1, sizeof(struct sf_pending));
}

void sf_reader_move_pending(struct sf_reader *r, struct sf_pending *p)
{
	if (!r->pending_ts)
		return;
	/* the records point into pending_ts's arena, which absorb hands over */
	if (!p->ts)
		p->ts = sf_typeset_new();
	sf_typeset_absorb(p->ts, r->pending_ts);
	r->pending_ts = NULL;
	for (size_t k = 0; k < r->npend; k++) {
		SF_GROW(p->pend, p->n, p->cap);
		p->pend[p->n++] = r->pend[k];
	}
	r->npend = 0;
}

const char **sf_pending_missing(const struct sf_pending *p, const struct sf_typeset *ts)
{
	const char **names = NULL;
	size_t n = 0, cap = 0;

	for (size_t k = 0; k < p->n; k++) {
		const struct pend *q = &p->pend[k];
		for (uint32_t j = 0; j < q->n; j++) {
			if (definition(ts, q->qname[j]))
				continue;
			int dup = 0;
			for (size_t i = 0; i < n && !dup; i++)
				dup = !strcmp(names[i], q->qname[j]);
			if (dup)
				continue;
			SF_GROW(names, n + 1, cap);
			names[n++] = q->qname[j];
			names[n] = NULL;
		}
	}
	return names;
}

void sf_pending_finish(struct sf_pending *p, struct sf_typeset *ts,
		       const struct sf_typeset *extra)
{
	for (size_t k = 0; k < p->n; k++) {
		struct pend *q = &p->pend[k];
		struct sf_type *t = q->t;
		for (uint32_t j = 0; j < q->n; j++)
			complete_member(ts, extra, &t->members[q->idx[j]],
					&q->natural[q->idx[j]], q->qname[j]);
		fit_to_neighbours(t, 0);
		sf_settle_packing(t, q->natural, (t->flags & SF_TF_ALIGNED) ? t->align : 0, q->forced);
		t->flags &= (uint16_t)~SF_TF_VARIANT;
		sf_typeset_add(ts, deep_copy(ts, t, t->decl_file,
					     sf_typeset_intern(ts, t->origin), 0, 0));
	}
	sf_pending_free(p);
}

void sf_pending_free(struct sf_pending *p)
{
	if (!p)
		return;
	sf_typeset_free(p->ts);
	free(p->pend);
	free(p);
}

/* ---- life cycle ----------------------------------------------------------- */

struct sf_reader *sf_reader_new(const struct sf_dwfile *f, struct sf_elf *elf,
				struct sf_typeset *out, const struct sf_typeset *known,
				const struct sf_pending *held, const char *origin,
				const char *const *only)
{
	struct sf_reader *r = sf_xcalloc(1, sizeof(*r));

	r->f = f;
	r->elf = elf;
	r->out = out;
	r->known = known;
	r->held = held;
	r->origin = origin;
	r->only = only;
	r->gen = 1;
	r->void_ti = (struct tinfo){ .left = "void", .right = "", .qname = "void" };
	r->bad_ti = (struct tinfo){ .left = "?", .right = "", .qname = "?" };
	sb_init(&r->path);
	sb_init(&r->cat);
	return r;
}

void sf_reader_merge(struct sf_reader *r, struct sf_typeset *ts)
{
	for (size_t i = 0; i < sf_typeset_count(r->out); i++) {
		const struct sf_type *t = sf_typeset_get(r->out, i);
		if (have(ts, t))
			continue;	/* another thread's run had it first */
		struct sf_type *copy = deep_copy(ts, t, t->decl_file,
						 sf_typeset_intern(ts, t->origin), 0, 0);
		copy->flags &= (uint16_t)~SF_TF_VARIANT;
		sf_typeset_add(ts, copy);
	}
	sf_typeset_copy_aliases(ts, r->out);
	/* the interned strings point into out: forget them with it */
	free(r->pkeys);
	free(r->pvals);
	r->pkeys = r->pvals = NULL;
	r->pcount = r->pcap = 0;
	sf_typeset_free(r->out);
	r->out = NULL;
}

void sf_reader_free(struct sf_reader *r)
{
	if (!r)
		return;
	end_unit(r);
	sf_typeset_free(r->out);	/* not merged: an error stopped the load */
	sf_files_release(&r->files);
	sb_release(&r->path);
	sb_release(&r->cat);
	free(r->pkeys);
	free(r->pvals);
	free(r->outv);
	free(r->out_next);
	free(r->name_head);
	free(r->name_key);
	arena_free(&r->arena);
	free(r->others);
	free(r->walked[0]);
	free(r->walked[1]);
	for (size_t k = 0; k < r->nabs; k++) {
		sf_abbrevs_release(&r->abs[k]->ab);
		free(r->abs[k]);
	}
	free(r->abs);
	for (size_t i = 0; r->mv && i < MAX_LAYOUT_DEPTH + 2; i++)
		mvec_free(&r->mv[i]);
	free(r->mv);
	free(r->map);
	free(r->pend);
	free(r->tops);
	sf_typeset_free(r->pending_ts);
	free(r);
}
