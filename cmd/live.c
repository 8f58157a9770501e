/*
 * live.c (cmd/) - --counts, --slabinfo, --slab-map and --verbose: read the
 * files, parse them (layout/live.c), resolve each counted name to the type
 * -t would pick and each slab cache to its struct, and fill the live table.
 * See live.h.
 */
#include "live.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "lib/file.h"
#include "lib/xalloc.h"
#include "report/live.h"

#define PROC_SLABINFO "/proc/slabinfo"

int sf_live_option(struct sf_live_opts *o, int id, const char *arg)
{
	const char *eq;

	switch (id) {
	case SF_O_COUNTS:
		o->counts_path = arg;
		return 0;
	case SF_O_SLABINFO:
		o->slabinfo_path = arg && *arg ? arg : PROC_SLABINFO;
		return 0;
	case SF_O_VERBOSE:
		o->verbose = true;
		return 0;
	case SF_O_SLAB_MAP:
		eq = strchr(arg, '=');
		if (!eq || eq == arg || !eq[1])
			return sf_die_usage("--slab-map: '%s' is not CACHE=TYPE", arg), -1;
		o->maps = sf_xreallocarray(o->maps, o->nmaps + 1, sizeof(*o->maps));
		/* the cache: a copy cut at '='; the type points into argv */
		o->maps[o->nmaps++] = (struct sf_slab_map){
			sf_xstrndup(arg, (size_t)(eq - arg)), eq + 1 };
		return 0;
	default:
		return 1;	/* not one of these: the command's own */
	}
}

bool sf_live_active(const struct sf_live_opts *o)
{
	return o->counts_path || o->slabinfo_path;
}

/* The whole of path into sb: 0, or 2 after the message. */
static int read_whole(const char *what, const char *path, struct strbuf *sb)
{
	int rc = sf_read_file(path, sb);

	if (rc == SF_FILE_CANNOT_OPEN)
		return sf_die_usage("%s %s: %s", what, path, strerror(errno));
	if (rc < 0)
		return sf_die_usage("%s %s: error reading: %s", what, path, strerror(errno));
	if (!sf_is_text(sb))
		return sf_die_usage("%s %s: not a text file", what, path);
	return 0;
}

/* Each TYPE of the counts file as -t finds it (the largest definition). */
static int resolve_counts(struct sf_live_opts *o, const struct sf_typeset *ts)
{
	for (size_t i = 0; i < o->counts.n; i++) {
		const struct sf_count *c = &o->counts.v[i];
		const struct sf_type **found, *best = NULL;
		if (sf_is_glob(c->name))
			return sf_die_at(o->counts_path, c->line, 0, "'%s' is a glob; name one type",
					 c->name);
		size_t n = sf_select_types(ts, c->name, &found);
		for (size_t k = 0; k < n; k++)
			if (!best || found[k]->size > best->size)
				best = found[k];
		free(found);
		if (!best && o->asked)
			continue;	/* not one of the types asked */
		if (!best)
			return sf_die_at(o->counts_path, c->line, 0,
					 "type '%s' not found in the inputs", c->name);
		sf_live_add(&o->live, best, c->count, NULL);
	}
	return 0;
}

static int load_counts(struct sf_live_opts *o, const struct sf_typeset *ts)
{
	struct strbuf sb = STRBUF_INIT;
	struct sf_err err = SF_ERR_INIT;
	struct sf_live_why why;
	int rc = read_whole("--counts", o->counts_path, &sb);

	if (!rc && sf_counts_parse(sb.buf, sb.len, &o->counts, &why) < 0) {
		sf_render_live_why(&err, o->counts_path, &why);
		rc = sf_report_err(&err);
	}
	sb_release(&sb);
	return rc ? rc : resolve_counts(o, ts);
}

static int load_slabinfo(struct sf_live_opts *o, const struct sf_typeset *ts)
{
	struct strbuf sb = STRBUF_INIT;
	struct sf_err err = SF_ERR_INIT;
	struct sf_live_why why;
	int rc = read_whole("--slabinfo", o->slabinfo_path, &sb);

	if (!rc && sf_slabinfo_parse(sb.buf, sb.len, &o->slabinfo, &why) < 0) {
		sf_render_live_why(&err, o->slabinfo_path, &why);
		rc = sf_report_err(&err);
	}
	sb_release(&sb);
	if (rc)
		return rc;

	struct sf_slab_match *m = sf_xcalloc(o->slabinfo.n ? o->slabinfo.n : 1, sizeof(*m));
	sf_slab_match(&o->slabinfo, ts, o->maps, o->nmaps, m);
	for (size_t i = 0; i < o->slabinfo.n; i++)
		if (m[i].verdict == SF_SLAB_MATCHED)
			sf_live_add(&o->live, m[i].type, m[i].slab->active, m[i].slab);
	if (o->verbose)
		sf_render_live_caches(&sb, o->slabinfo_path, m, o->slabinfo.n);
	/* with the asked types alone, every other cache has no struct: the
	 * summary would count nothing worth saying */
	if (!o->asked)
		sf_render_live_summary(&sb, o->slabinfo_path, m, o->slabinfo.n, o->verbose);
	fputs(sb.buf, stderr);
	sb_release(&sb);
	o->matches = m;
	return 0;
}

int sf_live_load(struct sf_live_opts *o, const struct sf_typeset *ts)
{
	int rc = 0;

	if (o->counts_path)
		rc = load_counts(o, ts);
	if (!rc && o->slabinfo_path)
		rc = load_slabinfo(o, ts);
	return rc;
}

int sf_live_load_asked(struct sf_live_opts *o, const struct sf_typeset *ts)
{
	o->asked = true;
	return sf_live_load(o, ts);
}

/* The first cache whose candidate was t, rejected by size; or NULL. */
static const struct sf_slab_match *rejected(const struct sf_live_opts *o,
					    const struct sf_type *t)
{
	for (size_t i = 0; o->matches && i < o->slabinfo.n; i++)
		if (o->matches[i].type == t && o->matches[i].verdict != SF_SLAB_MATCHED)
			return &o->matches[i];
	return NULL;
}

bool sf_live_cost_for(const struct sf_live_opts *o, const struct sf_type *t,
		      const struct sf_classes *classes, uint64_t header,
		      struct sf_live_cost *c)
{
	const struct sf_live_entry *e = sf_live_find(&o->live, t);
	struct strbuf sb = STRBUF_INIT;

	memset(c, 0, sizeof(*c));
	if (!sf_live_active(o))
		return false;
	if (!e) {
		const struct sf_slab_match *m = rejected(o, t);
		if (m && !o->verbose)	/* --verbose listed it already */
			sf_render_live_caches(&sb, o->slabinfo_path, m, 1);
		sf_render_live_uncounted(&sb, t, o->counts_path, o->slabinfo_path);
		fputs(sb.buf, stderr);
		sb_release(&sb);
		return false;
	}
	c->count = e->count;
	c->slab = e->slab;
	c->classes = classes;
	c->header = header;
	if (e->slab)
		sf_slab_unit_derive(e->slab, t, &c->unit);
	return true;
}

const struct sf_live *sf_live_table(const struct sf_live_opts *o)
{
	return sf_live_active(o) ? &o->live : NULL;
}

void sf_live_opts_release(struct sf_live_opts *o)
{
	for (size_t i = 0; i < o->nmaps; i++)
		free((char *)o->maps[i].cache);
	free(o->maps);
	sf_counts_release(&o->counts);
	sf_slabinfo_release(&o->slabinfo);
	sf_live_release(&o->live);
	free(o->matches);
	memset(o, 0, sizeof(*o));
}
