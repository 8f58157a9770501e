/*
 * reader.h - turn the DIEs of a range of units into sf_types (internal to
 * dwarf/; load.c drives it, one reader per thread).
 *
 * A reader writes the types it finds into its own typeset `out`, skipping
 * any type identical to one already in `known` (the caller's typeset, only
 * read while readers run) or already in `out`, so memory grows with unique
 * types only.  Types with a member or base whose type is only declared in
 * their unit (C++ classes whose key function lives elsewhere, clang's
 * -fno-standalone-debug) are held back as "pending": they move to a
 * struct sf_pending that outlives the reader, and sf_pending_finish()
 * looks their missing pieces up by name once every input has been read,
 * then adds them.
 */
#ifndef SF_READER_H
#define SF_READER_H

#include <stddef.h>

#include "die.h"
#include "input/elfobj.h"
#include "fingerprint.h"
#include "model/typeset.h"
#include "lib/err.h"

struct sf_reader;
struct sf_pending;

/* What dedup did (dedup.c): types to report, those skipped as laid out
 * already, units laid out again with the types packing evidence changes
 * un-skipped, units laid out again in full (a limit met). */
struct sf_dedup_counts {
	size_t types, skipped, part_units, full_units;
};

/*
 * `known` and `held` (the pending types of earlier inputs, may be NULL)
 * are only read while readers run: types equal to theirs are not kept
 * again.  `dedup`: skip laying out a type whose fingerprint this reader
 * or one merged before it (through held) laid out (fingerprint.h); 0
 * lays out every type of every unit, the reference the tests compare it
 * with.
 */
struct sf_reader *sf_reader_new(const struct sf_dwfile *f, struct sf_elf *elf,
				struct sf_typeset *out, const struct sf_typeset *known,
				const struct sf_pending *held, const char *origin,
				const char *const *only, int dedup);

/*
 * Read only the units whose language is in langs (0: all; the bits of
 * input.h's sf_load_opts.unit_langs), and call each_def (may be NULL) with
 * each aggregate every unit read defines (sf_load_opts.each_def).
 */
void sf_reader_filter(struct sf_reader *r, uint64_t langs,
		      void (*each_def)(void *arg, const struct sf_type *t), void *arg);

/* Read units [first, last) of the file.  -1 with err set on corrupt DWARF. */
int sf_reader_units(struct sf_reader *r, size_t first, size_t last, struct sf_err *err);

/*
 * Copy the types the reader kept into ts, in the order read, skipping
 * any ts already holds, and free the reader's own typeset (its string
 * pool included: it also holds spellings of types never kept).
 */
void sf_reader_merge(struct sf_reader *r, struct sf_typeset *ts);

/*
 * Copy the types of src that ts lacks into ts, in src's order, with its
 * aliases, and free src: the types one input gave (read on another
 * thread, into a typeset of its own) joining those of the inputs before.
 */
void sf_typeset_merge_copy(struct sf_typeset *ts, struct sf_typeset *src);

/* Held-back types of any number of readers, in the order they came. */
struct sf_pending *sf_pending_new(void);
/* Move r's held-back types to p (call after absorbing r's output). */
void sf_reader_move_pending(struct sf_reader *r, struct sf_pending *p);
/* Move src's held-back types to p, after p's own, and free src. */
void sf_pending_absorb(struct sf_pending *p, struct sf_pending *src);
/*
 * The names p's types still miss in ts (a NULL-terminated array to
 * free(); the strings live as long as p), or NULL when none is missing.
 */
const char **sf_pending_missing(const struct sf_pending *p, const struct sf_typeset *ts);
/* Complete p's types against ts (which by now holds everything read),
 * then against `extra` (may be NULL), add them to ts, and free p. */
void sf_pending_finish(struct sf_pending *p, struct sf_typeset *ts,
		       const struct sf_typeset *extra);
void sf_pending_free(struct sf_pending *p);
/* The dedup counts of the readers moved to p so far. */
struct sf_dedup_counts sf_pending_dedup_counts(const struct sf_pending *p);

/*
 * r has read its units: what reading them took goes (its scratch arena,
 * caches, the last unit's lists), what the merge takes stays (the types,
 * the pending ones, the keys).  A run read beside the ones before it
 * waits to be merged after them.
 */
void sf_reader_done(struct sf_reader *r);
void sf_reader_free(struct sf_reader *r);

/*
 * Fingerprint keys shared between readers (load.c): r also skips a type
 * whose key is in s or its parents - keys of what was merged before r's
 * output will be.  `s` outlives r.
 */
void sf_reader_share_keys(struct sf_reader *r, struct sf_fpshared *s);
/* r's keys join its shared set, and those that mean the same in any file
 * (not by string offset) join `wide` too (may be NULL): call when r's
 * output is merged, in order. */
void sf_reader_publish_keys(struct sf_reader *r, struct sf_fpshared *wide);
/*
 * Runs of one image read at once (load.c): r adds the keys of each unit
 * it ends to `own` as it goes, and also skips a type whose key is in one
 * of the n sets `earlier` - the runs before r's, whose output is merged
 * before r's whether they are still being read or not.  All outlive r.
 */
void sf_reader_share_live(struct sf_reader *r, struct sf_fpshared *own,
			  struct sf_fpshared *const *earlier, size_t n);

/*
 * Waiting for the keys of the runs before r's (load.c): a run still in
 * its first unit has published none, and the types r looked up meanwhile
 * would be laid out twice.  Before a unit's types are looked up, r asks
 * keyless(arg) whether one such run is still keyless; if so it computes
 * every key of the unit first (work that needs no other run's) and then,
 * when `unknown` of them name no type laid out yet (0: nothing to wait
 * for), calls wait(arg, unknown), which returns when it is worth looking
 * them up.
 */
struct sf_reader_await {
	int (*keyless)(void *arg);
	void (*wait)(void *arg, size_t unknown);
	void *arg;
};
void sf_reader_await_keys(struct sf_reader *r, const struct sf_reader_await *a);

/*
 * Each unit r has read but the last of sf_reader_units' range: r calls
 * read(arg, unit index) once it is done with the unit's bytes - nothing
 * r holds points into them afterwards (names are interned, types copied),
 * so its loader may let them go before the run ends (load.c).
 */
void sf_reader_on_unit_read(struct sf_reader *r, void (*read)(void *arg, size_t unit),
			    void *arg);

#endif
