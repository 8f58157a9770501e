/*
 * reader_int.h - what the files of the DWARF reader share (internal to
 * dwarf/reader*.c, dwarf/arena.c, units.c, types.c, members.c).
 *
 * The reader is one object, `struct sf_reader`, split by what each file
 * computes (see reader.c for the whole picture):
 *
 *   arena.c    scratch memory per unit, interned strings
 *   units.c    opening units (dwz partial and alt units), reading DIEs
 *              with errors reported once, C++ scopes and qualified names
 *   types.c    type DIEs -> struct tinfo (spelling, size, alignment),
 *              cached per unit by DIE
 *   members.c  an aggregate's members and variants -> a scratch sf_type
 *              (what DWARF leaves out: the model's pass, model/infer.h)
 *   reader.c   the walk over units, what is reported and kept, pending
 *              types, the reader's life cycle
 *
 * Functions shared between those files are prefixed rd_.
 */
#ifndef SF_READER_INT_H
#define SF_READER_INT_H

#include <assert.h>
#include <stddef.h>
#include <stdint.h>

#include "fingerprint.h"
#include "reader.h"
#include "model/abi.h"
#include "model/model.h"
#include "lib/strbuf.h"

#define MAX_RESOLVE_DEPTH 200
#define MAX_LAYOUT_DEPTH 100
#define MAX_SCOPE_DEPTH 200
#define MAX_MEMBERS (1u << 24)
/* the tinfo cache slots a unit starts with (types.c, reader.c) */
#define MAP_START 256u
/* from this many units, a reader's fingerprints name strings by offset */
#define LOCAL_FP_UNITS 64

/* ---- scratch arena: chunks reset after each unit ------------------------ */

struct chunk {
	struct chunk *next;
	size_t used, cap;
	max_align_t data[];
};

struct arena {
	struct chunk *head;   /* chunks in use, newest first */
	struct chunk *spare;  /* chunks kept for reuse after a reset */
};

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
	TI_SUMMED = 1u << 13,   /* align, natural, dsize from a layout summary
	                         * of an earlier unit, not laid out (members.c) */
	TI_WAITS = 1u << 16,    /* laid out, and its layout waits for the
	                         * definition of a type only declared in this
	                         * unit (its xtype's inc): its alignment is
	                         * known only then (reader.c, pending types) */
};

struct uh;
struct xtype;

/* What pahole -E prints for a typedef (or an array of one), in the
 * reader's arena: only these have one (a tinfo's pointer to it; its four
 * fields in every tinfo were 24 bytes more of each). */
struct tdspell {
	const char *chain;      /* the typedef names down to a type that is
	                         * not one ("a -> b") */
	const char *uleft, *uright; /* that type's spelling */
	struct tinfo *uenum;    /* that type when an anonymous enum */
};

struct tinfo {
	uint64_t key;
	const char *left, *right;
	uint64_t size;
	uint32_t align;         /* scalars; aggregates once laid out */
	uint32_t align_attr;    /* DW_AT_alignment in force, 0 if none */
	uint32_t flags;
	uint8_t tclass;
	uint8_t kind;           /* aggregates: enum sf_kind */
	uint8_t height;         /* aggregates once laid out: the levels of
	                         * layouts below (members.c, layout summaries) */
	struct tinfo *agg;      /* the aggregate whose layout this needs */
	struct tinfo *anon;     /* anonymous aggregate shown nested */
	struct tinfo *anon_enum; /* anonymous enum (or array of one) */
	struct tinfo *pointee;  /* a pointer's anonymous aggregate or enum
	                         * (or an array of such pointers) */
	const struct sf_enum *enums; /* anonymous enums, once read */
	uint32_t natural;       /* aggregates once laid out: see sf_type */
	uint32_t pad;           /* aggregates once laid out: tail padding
	                         * (sf_struct_pad; a member notes it) */
	uint64_t dsize;         /* aggregates once laid out: end of the data
	                         * of the non-virtual part (C++ layout) */
	struct xtype *model;
	const char *qname;      /* aggregates, enums, typedefs: bare name */
	const struct tdspell *td; /* typedefs and arrays of them, else NULL */
	const char *vattr;      /* vectors: pahole's __vector_size__ attribute */
	const char *keyword;    /* aggregates: "struct", "union", "class" */
	uint64_t rust_elem_size; /* arrays: the element's size (Rust spelling) */
	uint64_t decl_count;    /* an array of an aggregate only declared
	                         * here: its elements (0: not such an array) */
	struct uh *unit;
};

/* A scratch model: the sf_type plus what deep-copying it needs. */
struct xtype {
	struct sf_type t;
	struct uh *unit;
	uint32_t file;          /* DW_AT_decl_file index */
	const char **inc;       /* per member: name of its declared-only type,
	                         * or of a type held by value whose layout
	                         * waits for one (TI_WAITS: the member is
	                         * complete, its alignment is not) */
	uint64_t *incn;         /* with inc: how many of it (an array's
	                         * elements; 1 for the type itself) */
	uint32_t *natural;      /* per member: its type's natural alignment */
	uint8_t forced;         /* packed by mark_packed */
};

struct slot {
	uint64_t key;
	uint32_t gen;
	struct tinfo *ti;
};

struct scope {
	uint64_t end;           /* (its start is uh->starts[i]) */
	long parent;
	/* its qualified name is made when first asked for (scope_qname):
	 * most scopes are structs that hold no type, never asked, and their
	 * names made at once took 9 MB of libceph-common's scratch */
	const char *name;       /* its own part; NULL: it adds nothing */
	const char *prefix;     /* where it was declared, if not its parent */
	const char *qname;      /* NULL until made; "" for a scope that adds nothing */
	size_t qlen;            /* strlen(qname), once made */
	struct sf_fp digest;    /* sf_fp_str(qname), once digested (dedup) */
	int digested;
};

/* An opened unit and what is known of its scopes. */
struct uh {
	struct sf_ucx cx;
	int open;
	uint8_t in_alt;         /* a unit of the dwz alt file (cx.f == r->f->alt) */
	int scoped;             /* scope ranges computed */
	struct scope *scopes;
	uint64_t *starts;       /* scope i's first offset, apart from scopes[]:
	                         * the binary search of scope_index reads 8
	                         * bytes a step, not a line of scopes[] */
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
	uint32_t *idx;          /* members still incomplete, or waiting
	                         * for their type's alignment (xtype.inc) */
	const char **qname;     /* the names of their types */
	uint64_t *count;        /* how many of it each holds (arrays) */
	uint32_t *natural;      /* per member of t: natural alignment */
	uint8_t forced;         /* packed for where a container has it */
};

/* rd_reads_packed's answers, by DIE key (members.c). */
enum { RP_NONE, RP_BUSY, RP_NO, RP_YES };
struct rpslot {
	uint64_t key;
	uint32_t gen;
	uint8_t state;
};

/* What a member needs of an aggregate held by value, laid out in an
 * earlier unit: keyed by its fingerprint (members.c, layout summaries). */
struct lsum {
	struct sf_fp key;       /* both words 0: an empty slot */
	uint64_t dsize;
	uint32_t align, natural;
	uint32_t height;        /* the levels of layouts below it */
	uint32_t pad;           /* its tail padding (tinfo.pad) */
};

/* The members of one aggregate being laid out, with what only the
 * layout needs per member (parallel arrays). */
struct mvec {
	struct sf_member *m;
	const char **inc;
	uint64_t *incn;         /* with inc: elements of it (xtype's incn) */
	uint8_t *vbase_unplaced;
	uint32_t *natural;
	struct tinfo **ty;      /* the member's type */
	size_t n, cap, inccap, incncap, vcap, natcap, tycap;
	size_t nunplaced;       /* virtual bases without an offset */
};

/* A type the walk found to report, once the whole unit is laid out.
 * With dedup, a C struct's DIE is resolved only once known not to be
 * skipped (dedup.c): ti is NULL until then, uh and off say where it is
 * and name is its DW_AT_name as read. */
struct top {
	struct tinfo *ti;
	struct uh *uh;
	uint64_t off;
	const char *name;       /* bare (the DIE's) when the walk listed a C++
	                         * type: qualified only once resolved */
	struct sf_fp key;       /* its fingerprint key (reader.c, dedup_tops), */
	uint8_t keyed;          /* ... when it has one */
	uint8_t skip;           /* laid out already: not again */
	uint8_t is_typedef;
	uint8_t bare;
	uint8_t asked;          /* reported only when -t names it (wanted):
	                         * laid out all the same, for the evidence it
	                         * may show (reader.c, want_top) */
};

/* A top new to the output, where it goes in the unit's report (reader.c,
 * order_tops): where it is declared (interned path, line) and its place
 * in the walk.  Apart from struct top, which every type of a unit has
 * (56 bytes, was 88 with these: librados' biggest unit's array 1.8 MB). */
struct fresh {
	const struct top *tp;
	const char *file;
	uint32_t line;
	uint32_t seq;
};

struct sf_pending {
	struct sf_typeset *ts;  /* holds the types and their pend arrays */
	struct pend *pend;
	size_t n, cap;
	struct sf_dedup_counts counts; /* summed over the readers merged */
};

struct sf_reader {
	/* canonical spellings of out's strings, for adding types to it
	 * (model/typeset.h: they stay at their addresses while out lives) */
	struct sf_spell_memo *memo;
	const struct sf_dwfile *f;
	struct sf_elf *elf;
	struct sf_typeset *out;
	const struct sf_typeset *known;
	const struct sf_pending *held;
	const char *origin;
	const char *const *only;
	uint64_t langs;         /* the units' languages read (0: all;
	                         * sf_load_opts.unit_langs) */
	void (*each_def)(void *arg, const struct sf_type *t);
	void *each_def_arg;     /* sf_load_opts.each_def */

	struct arena arena;
	struct slot *map;       /* the tinfo cache (types.c): mapalloc slots, */
	size_t mapcap, mapcount; /* of which the first mapcap in use, this */
	size_t mapalloc;        /* unit's mapcount of them (reader.c, end_unit) */
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
	struct fresh *fresh;    /* those new to the output, in report order */
	size_t nfresh, freshcap;
	int repack;             /* a laid-out type was found packed later */

	/* dedup (fpc NULL: off): the keys of the types this reader laid out
	 * in clean units, and whether this unit came near a limit that makes
	 * a layout depend on more than the type's own DIEs (reader.c) */
	struct sf_fpcache *fpc;
	struct sf_fpset *laid;
	struct sf_fpshared *shared; /* keys of earlier runs (may be NULL) */
	struct sf_fpset *shared_seen; /* those of them asked for already (dedup.c) */
	struct sf_fpshared *live;       /* where this run adds its units' keys */
	struct sf_fpshared *const *earlier; /* the live keys of the runs before */
	size_t nearlier;
	struct sf_reader_await await;   /* before looking keys up (reader.h) */
	void (*unit_read)(void *, size_t); /* each unit read (reader.h) */
	void *unit_read_arg;
	struct sf_fp *newkeys;          /* a unit's keys recorded, for `live` */
	size_t newcap;
	int unclean;
	int local_fp;           /* keys name strings by offset: this file's only */
	struct lsum *sums;      /* layout summaries (members.c) */
	size_t nsums, sumcap;
	struct rpslot *rp;      /* rd_reads_packed's answers, until forgotten */
	size_t rpcap, rpcount;
	uint32_t rpgen;
	struct tinfo **marked;  /* the types marked packed (mark_packed) */
	size_t nmarked, markcap;
	struct sf_fp *rp_digs;  /* their fingerprints, sorted, when all of */
	size_t nrp_digs, rp_digcap; /* them have one (C): then an answer is */
	struct sf_fp rp_h;      /* yes for one of those too, and rp_h sums */
	int rp_hok;             /* the set up (dedup.c's memo of answers) */
	struct sf_fpset *nocs;  /* (key, rp_h) of skipped types answered no */
	uint64_t nmarks, rp_marks; /* marks made (mark_packed) and units
	                         * ended, and their count when the answers
	                         * were begun: at another, they are stale */
	struct tinfo **laidv;   /* the unit's aggregates laid out, to record */
	size_t nlaid, laidcap;
	unsigned deepest;       /* the deepest layout depth reached, with what
	                         * the layouts taken as they were reach */
	int sum_used;           /* this unit's passes took a summary */
	int sum_off;            /* ... and take none: evidence was met */
	struct sf_dedup_counts counts;

	const struct sf_dwfile *files_file;
	size_t files_unit;      /* unit index + 1 of files_file whose files are loaded */
	struct sf_files files;
	struct strbuf path;
	struct strbuf qbuf;     /* a listed top's qualified name, which
	                         * rd_resolve_top asserts it resolves to */
	struct sf_strmemo *strmemo; /* the units' memo of .debug_str lookups,
	                         * made when the section is packed */

	/* strings: every spelling and name a scratch model holds is interned
	 * in `out` already, so comparing with kept types is pointer work */
	struct pslot { const char *k, *v; } *pmap; /* stable pointer (section,
	                         * literal) -> interned */
	size_t pcount, pcap;
	/* the same for strings inside one .debug_str (the first the reader
	 * interns from), denser: a slot is the string's offset + 1 and the
	 * index of its interned copy in svals, 8 bytes where pmap's are 16,
	 * so vmlinux's ~49 k names fit in 512 KiB (load <= 3/4), not 2 MiB */
	const char *sbase;
	uint64_t ssize;
	struct sslot { uint32_t off1, idx; } *smap;
	size_t scount, scap;
	const char **svals;     /* scount of them, in the order interned */
	struct pslot hot[256];  /* the last pointers looked up, direct-mapped
	                         * in front of pmap ("", "?", int, ...) */
	const char *s_empty, *s_unknown; /* "" and "?" interned, once looked
	                         * up (rd_empty, rd_unknown): every tinfo starts
	                         * as them (types.c, new_ti) */
	struct spell { const char *x, *y, *z, *v, *tail; } *spells; /* x y z of
	                         * stable pieces -> interned (rd_spell); a
	                         * spelled name's has its tail (rd_spell_name) */
	size_t nspells, spellcap;
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

/* section offsets stay below 2^62: the top bits say which section and file */
static inline uint64_t rd_key_of(const struct uh *uh, uint64_t off)
{
	assert(off < uh->cx.sect_size && uh->cx.sect_size < (1ull << 62));
	return off | ((uint64_t)uh->cx.u->sect << 63) | ((uint64_t)uh->in_alt << 62);
}

/* The section offset of the DIE a tinfo was made from. */
static inline uint64_t rd_off_of(const struct tinfo *ti)
{
	return ti->key & ~(3ull << 62);
}

/* ---- shared between the reader's files --------------------------------- */

/* arena.c */
void *rd_arena_alloc(struct arena *a, size_t n);
void *rd_arena_alloc_raw(struct arena *a, size_t n);
void rd_arena_reset(struct arena *a);
void rd_arena_free(struct arena *a);
char *rd_arena_cat(struct arena *a, const char *x, const char *y, const char *z);
const char *rd_isec(struct sf_reader *r, const char *s);
const char *rd_icat(struct sf_reader *r, const char *x, const char *y, const char *z);
const char *rd_spell(struct sf_reader *r, const char *x, const char *y, const char *z);
/* The spelling "kw scope::name" ("kw name" when scope is ""), kw
 * "struct" or the like, interned before its tail, the name
 * "scope::name", *tail: so that the two share their bytes (typeset.h).
 * Memoized as rd_spell is when scope is "" (a scope's name is scratch). */
const char *rd_spell_name(struct sf_reader *r, const char *kw, const char *scope,
			  const char *name, const char **tail);
/* rd_isec(r, "") and rd_isec(r, "?"), without the lookup after the first. */
static inline const char *rd_empty(struct sf_reader *r)
{
	return r->s_empty ? r->s_empty : (r->s_empty = rd_isec(r, ""));
}
static inline const char *rd_unknown(struct sf_reader *r)
{
	return r->s_unknown ? r->s_unknown : (r->s_unknown = rd_isec(r, "?"));
}
void rd_strings_forget(struct sf_reader *r);

/* units.c */
int rd_corrupt(struct sf_reader *r, const struct uh *uh, uint64_t off);
void rd_uh_close(struct uh *uh);
int rd_uh_open_parsed(struct sf_reader *r, struct uh *uh, const struct sf_dwfile *f, size_t i,
		      struct sf_abbrevs *own);
struct uh *rd_uh_for(struct sf_reader *r, const struct sf_dwfile *f, int sect, uint64_t off);
const char *rd_die_qname(struct sf_reader *r, struct uh *uh, const struct sf_die *d);
/* rd_die_qname of d, a type spelled "kw name" (kw "struct", "enum"...),
 * and that spelling, *spelled: interned together (rd_spell_name); NULL,
 * *spelled untouched, when d has no name. */
const char *rd_die_qname_spelled(struct sf_reader *r, struct uh *uh, const struct sf_die *d,
				 const char *kw, const char **spelled);
const char *rd_die_qname_into(struct sf_reader *r, struct uh *uh, uint64_t off,
			      const char *name, struct strbuf *sb);
int rd_scope_digest(struct sf_reader *r, struct uh *uh, uint64_t off, struct sf_fp *out);

/* types.c */
struct uh *rd_ref_unit(struct sf_reader *r, struct uh *uh, const struct sf_die *d,
			   uint64_t off, int alt);
struct tinfo *rd_resolve_ref(struct sf_reader *r, struct uh *uh, const struct sf_die *d,
				 unsigned depth);
struct tinfo *rd_resolve(struct sf_reader *r, struct uh *uh, uint64_t off, unsigned depth);
struct tinfo *rd_cached(struct sf_reader *r, struct uh *uh, uint64_t off);

/* dedup.c */
/* Whether report_tops skips types laid out already: a fingerprint cache.
 * With -t too: every type is laid out, for the evidence it may show,
 * and only those -t names are reported (reader.c, want_top). */
static inline int rd_dedup_on(const struct sf_reader *r)
{
	return r->fpc != NULL;
}
/* The languages whose types get keys: C and C++ (dedup.c says why). */
static inline int rd_dedup_lang(unsigned lang)
{
	return sf_lang_is_c(lang) || sf_lang_is_cxx(lang);
}
int rd_dedup_tops(struct sf_reader *r);
/* Resolve top i, found by the walk only (ti NULL); 0, or -1 when it is
 * no aggregate after all. */
int rd_resolve_top(struct sf_reader *r, size_t i);
void rd_dedup_off(struct sf_reader *r);
size_t rd_dedup_unskip(struct sf_reader *r);
void rd_record_tops(struct sf_reader *r, int evidence);

/* members.c */
void rd_mvec_free(struct mvec *v);
struct xtype *rd_layout(struct sf_reader *r, struct tinfo *ti, unsigned depth);
void rd_unlay_all(struct sf_reader *r);
void rd_unlay_marked(struct sf_reader *r);
/* Whether laying out the aggregate DIE at off of unit uh reads the layout
 * of a type marked packed (itself included): its "read set" (members.c);
 * answers kept until rd_reads_forget(), which a new mark makes stale. */
int rd_reads_packed(struct sf_reader *r, struct uh *uh, uint64_t off);
void rd_reads_forget(struct sf_reader *r);
void rd_record_sums(struct sf_reader *r);

/* Read or skip a DIE of unit uh; a corrupt one fails the reader (once
 * reported).  Inline: every DIE the reader visits goes through them. */
static inline int rd_read_die(struct sf_reader *r, struct uh *uh, uint64_t off,
			      struct sf_die *d)
{
	if (sf_die_read(&uh->cx, off, d) < 0)
		return rd_corrupt(r, uh, off);
	return 0;
}

/* rd_read_die for a DIE of a tag in `tags` (1 << DW_TAG_x, below 64); any
 * other is read only as far as stepping over it needs (sf_die_read_tags). */
static inline int rd_read_die_tags(struct sf_reader *r, struct uh *uh, uint64_t off,
				   uint64_t tags, struct sf_die *d)
{
	if (sf_die_read_tags(&uh->cx, off, tags, d) < 0)
		return rd_corrupt(r, uh, off);
	return 0;
}

static inline int rd_skip_die(struct sf_reader *r, struct uh *uh, const struct sf_die *d,
			      uint64_t *next)
{
	if (sf_die_skip(&uh->cx, d, next) < 0)
		return rd_corrupt(r, uh, d->off);
	return 0;
}

#endif
