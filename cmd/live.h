/*
 * live.h (cmd/) - the options that count live instances (--counts FILE,
 * --slabinfo[=FILE], --slab-map CACHE=TYPE, --verbose): the files read,
 * parsed (layout/live.h), the caches matched to the loaded types, and the
 * live table holes, suggest, fit and check read.
 *
 * Usage: sf_live_option() for each such option, then after loading the
 * inputs sf_live_load() (prints the matching's one stderr line, and with
 * --verbose every cache not matched), then o->live, then
 * sf_live_opts_release().
 */
#ifndef SF_CMD_LIVE_H
#define SF_CMD_LIVE_H

#include <stdbool.h>
#include <stddef.h>

#include "layout/live.h"
#include "model/typeset.h"

struct sf_live_opts {
	const char *counts_path;        /* --counts FILE, or NULL */
	const char *slabinfo_path;      /* --slabinfo, or NULL */
	struct sf_slab_map *maps;       /* --slab-map, pointing into argv */
	size_t nmaps;
	bool verbose;
	bool asked;                     /* suggest, fit: only the asked types
	                                 * are loaded (sf_live_load_asked) */
	/* sf_live_load's */
	struct sf_counts counts;
	struct sf_slabinfo slabinfo;
	struct sf_live live;
	struct sf_slab_match *matches;  /* per slabinfo cache */
};

/* Take one of the options above (its SF_O_* id): 0, -1 after the
 * one-line message, or 1 when id is none of them (a command's default:
 * branch hands every id it does not know here). */
int sf_live_option(struct sf_live_opts *o, int id, const char *arg);
/* Whether any count was asked for. */
bool sf_live_active(const struct sf_live_opts *o);
/* Read, parse and match: 0, or 2 after "structfit: FILE:LINE: problem". */
int sf_live_load(struct sf_live_opts *o, const struct sf_typeset *ts);
/*
 * suggest and fit, whose inputs are read for the asked types alone: names
 * of the counts file not loaded are skipped, and no summary line is
 * printed (sf_live_cost_for says what was not counted).  0, or 2 after
 * the message.
 */
int sf_live_load_asked(struct sf_live_opts *o, const struct sf_typeset *ts);
/*
 * What t's live instances cost (layout/live.h), with classes (or NULL) and
 * header for counts: true, or false when nothing was asked or nothing
 * counted t (then one stderr line says so: no count, or the cache that
 * was rejected by size and why).
 */
bool sf_live_cost_for(const struct sf_live_opts *o, const struct sf_type *t,
		      const struct sf_classes *classes, uint64_t header,
		      struct sf_live_cost *c);
/* The live table, or NULL when nothing was asked. */
const struct sf_live *sf_live_table(const struct sf_live_opts *o);
void sf_live_opts_release(struct sf_live_opts *o);

#endif
