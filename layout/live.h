/*
 * live.h - how many instances of each type are alive: a counts file, the
 * kernel's /proc/slabinfo, and the matching of slab caches to structs.
 *
 * Both files are parsed from bytes (cmd/ reads them; nothing here does
 * I/O) into plain arrays that own their strings:
 *
 *   counts file:  TYPE COUNT per line, `#` starts a comment, blank lines
 *                 skipped; TYPE as -t spells it ("st_table", "struct
 *                 st_table", "ns::C<int, long>": it runs to the last blank)
 *   slabinfo:     "slabinfo - version: 2.1", the "# name <active_objs> ..."
 *                 header, then `name active num objsize objperslab
 *                 pagesperslab : tunables ... : slabdata ...` per cache
 *
 * A file that does not parse comes back as data, struct sf_live_why (the
 * problem, its line, the column and the word at fault: a bad version, a
 * bad line, a number past 64 bits); report/live.h words it.
 *
 * Matching (sf_slab_match) is pure logic over a typeset: a cache is
 * matched by --slab-map CACHE=TYPE first, then by name - the cache's name
 * itself (dentry), X_cache and X_cachep -> X, X_cache -> X_info (ext4's
 * ext4_inode_cache holds struct ext4_inode_info) - and accepted only when
 * its objsize can hold the struct: sizeof <= objsize <= sizeof rounded up
 * to the struct's alignment (at least 8) plus SLUB's free-pointer word,
 * or rounded up to a cacheline (SLAB_HWCACHE_ALIGN).  A few caches add a
 * tail after the struct (task_struct: the FPU state; mm_struct: CPU
 * masks): for them only the lower bound holds, and the match says so.
 * kmalloc-N and dma-kmalloc-N caches carry no type and are never matched.
 *
 * The live table (struct sf_live) is what the ranking reads: one entry per
 * type, the instances counted for it, and the slab cache they came from
 * (NULL for a counts file).  Types are compared by pointer: the typeset's.
 */
#ifndef SF_LIVE_H
#define SF_LIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/err.h"
#include "model/model.h"
#include "model/typeset.h"
#include "classes.h"

struct sf_count {
	char *name;             /* TYPE as written */
	uint64_t count;
	uint32_t line;
};

struct sf_counts {
	struct sf_count *v;
	size_t n;
};

/* Why a counts file or a slabinfo does not parse (report/live.h words it). */
enum sf_live_problem {
	SF_LIVE_OK = 0,
	SF_LIVE_NOT_NUMBER,     /* field's word is not decimal digits */
	SF_LIVE_PAST_64,        /* field's word is digits past 2^64-1 */
	SF_LIVE_NOT_PAIR,       /* counts: a line of one word (word), no COUNT */
	SF_LIVE_NOT_SLABINFO,   /* no "slabinfo - version: V" first line */
	SF_LIVE_VERSION,        /* a version (word) other than 2.1 */
	SF_LIVE_NOT_CACHE_LINE, /* a cache line without its five numbers */
};

struct sf_live_why {
	enum sf_live_problem problem;
	uint32_t line;                  /* 1-based */
	const char *field;              /* the column: "count", "objsize", ...; or NULL */
	char word[SF_ERR_MAX];          /* the word at fault as written ("" when none) */
};

/* Parse a counts file: 0, or -1 with why. */
int sf_counts_parse(const char *buf, size_t len, struct sf_counts *out,
		    struct sf_live_why *why);
void sf_counts_release(struct sf_counts *c);

struct sf_slab {
	char *name;
	uint64_t active;        /* <active_objs> */
	uint64_t num;           /* <num_objs> */
	uint64_t objsize;
	uint64_t objperslab;
	uint64_t pagesperslab;
	uint32_t line;
};

struct sf_slabinfo {
	struct sf_slab *v;
	size_t n;
};

/* Parse /proc/slabinfo's text (version 2.1): 0, or -1 with why. */
int sf_slabinfo_parse(const char *buf, size_t len, struct sf_slabinfo *out,
		      struct sf_live_why *why);
void sf_slabinfo_release(struct sf_slabinfo *si);

/* --slab-map CACHE=TYPE, as given. */
struct sf_slab_map {
	const char *cache;
	const char *type;
};

enum sf_slab_verdict {
	SF_SLAB_MATCHED = 0,
	SF_SLAB_UNTYPED,        /* kmalloc-N: no one type */
	SF_SLAB_NO_TYPE,        /* no struct by any rule */
	SF_SLAB_TOO_SMALL,      /* objsize < sizeof */
	SF_SLAB_TOO_LARGE,      /* objsize past what the struct explains */
};

enum sf_slab_rule {
	SF_SLAB_BY_NAME = 0,    /* the cache's own name */
	SF_SLAB_BY_CACHE,       /* X_cache, X_cachep -> X */
	SF_SLAB_BY_INFO,        /* X_cache -> X_info */
	SF_SLAB_BY_MAP,         /* --slab-map */
};

struct sf_slab_match {
	const struct sf_slab *slab;
	const struct sf_type *type;     /* the candidate (NULL: none) */
	uint8_t verdict;                /* enum sf_slab_verdict */
	uint8_t rule;                   /* enum sf_slab_rule, when type */
	bool tail;                      /* a cache known to add a tail */
	uint64_t most;                  /* the largest objsize accepted */
};

/* The largest objsize a cache of t may have (no tail). */
uint64_t sf_slab_most(const struct sf_type *t);
/* What a cache known to add a tail after its struct adds (report/ words it). */
enum sf_slab_tail {
	SF_SLAB_TAIL_NONE = 0,
	SF_SLAB_TAIL_FPU,               /* task_struct: the FPU state */
	SF_SLAB_TAIL_CPU_MASKS,         /* mm_struct: the CPU masks */
};
enum sf_slab_tail sf_slab_tail(const char *cache);

/* Match every cache of si: out[i] for si->v[i]. */
void sf_slab_match(const struct sf_slabinfo *si, const struct sf_typeset *ts,
		   const struct sf_slab_map *maps, size_t nmaps,
		   struct sf_slab_match *out);

/*
 * A slab cache's allocation unit, as SLUB lays an object out (mm/slub.c,
 * calculate_sizes): the struct rounded up to the word, the bytes the cache
 * adds after it (SLUB's free pointer when it may not overlap the object: a
 * constructor or SLAB_TYPESAFE_BY_RCU; a tail such as task_struct's FPU
 * state; debug metadata), the whole rounded up to the cache's alignment:
 *
 *   slot(S) = round_up(round_up(S, 8) + extra, align)
 *   objects per slab = floor(pagesperslab x 4096 / slot)
 *
 * /proc/slabinfo's objsize is the slot (SLUB prints s->size), so extra and
 * align are derived from objsize against the struct's sizeof: align is the
 * struct's (at least 8); extra the fewest bytes that give objsize; when
 * that is more than a free pointer and objsize is a multiple of a
 * cacheline, the cache is taken as SLAB_HWCACHE_ALIGN (align 64).
 * Limits: the slab's order (pagesperslab) is held fixed, where SLUB would
 * pick the order again for another size (calculate_order); 4 KiB pages are
 * assumed; red zones and KASAN metadata count as a fixed extra.  `agrees`
 * says whether the model gives the cache's objperslab at today's sizeof:
 * when not, the figures are the model's.
 */
struct sf_slab_unit {
	uint64_t pages;         /* pagesperslab */
	uint64_t slab_bytes;    /* pages x 4096 */
	uint64_t align;
	uint64_t extra;
	bool agrees;
};

#define SF_SLAB_PAGE 4096

void sf_slab_unit_derive(const struct sf_slab *s, const struct sf_type *t,
			 struct sf_slab_unit *u);
/* The slot a struct of `size` bytes takes. */
uint64_t sf_slab_slot(const struct sf_slab_unit *u, uint64_t size);
/* Objects per slab at sizeof == size (0: the slot exceeds the slab). */
uint64_t sf_slab_per(const struct sf_slab_unit *u, uint64_t size);
/* The largest sizeof that gives at least `per` objects a slab; 0: none. */
uint64_t sf_slab_size_for(const struct sf_slab_unit *u, uint64_t per);

/*
 * What live instances cost at one size of their type: with a slab unit,
 * the objects per slab, the slabs the count fills and the size the next
 * object per slab needs; in bytes, count x (the class header + size lands
 * in, or header + size itself without classes or above the last class).
 * Products saturate at 2^64-1.
 */
struct sf_live_cost {
	uint64_t count;
	const struct sf_slab *slab;         /* NULL: counted from a counts file */
	struct sf_slab_unit unit;           /* when slab */
	const struct sf_classes *classes;   /* NULL: bytes at header + size */
	uint64_t header;
};

struct sf_live_step {
	uint64_t size;          /* sizeof */
	uint64_t per;           /* objects per slab (slab only) */
	uint64_t slabs;         /* ceil(count / per) (slab only) */
	uint64_t next_size;     /* largest sizeof for per + 1 objects; 0: none */
	size_t cls;             /* class index of header + size, SF_NO_CLASS */
	uint64_t bytes;         /* count x what one instance takes */
};

void sf_live_step_at(const struct sf_live_cost *c, uint64_t size, struct sf_live_step *out);

struct sf_live_entry {
	const struct sf_type *type;
	uint64_t count;                 /* saturates at UINT64_MAX */
	const struct sf_slab *slab;     /* the cache counted, or NULL */
};

struct sf_live {
	struct sf_live_entry *v;
	size_t n;
	size_t alloc;
};

/* Count n more instances of t (from slab, or NULL). */
void sf_live_add(struct sf_live *l, const struct sf_type *t, uint64_t n,
		 const struct sf_slab *slab);
/* t's entry, or NULL when nothing counted it (l may be NULL). */
const struct sf_live_entry *sf_live_find(const struct sf_live *l,
					 const struct sf_type *t);
void sf_live_release(struct sf_live *l);

#endif
