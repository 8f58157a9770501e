/*
 * live.c (report/) - slab matching worded (see live.h).  Every cache is
 * in exactly one of the summary's counts: matched, a kmalloc size class,
 * no struct of its name, or rejected by size.
 */
#include "live.h"

#include <inttypes.h>

#include "report.h"

static const char *rule_word(uint8_t rule)
{
	switch (rule) {
	case SF_SLAB_BY_NAME: return "by its name";
	case SF_SLAB_BY_CACHE: return "by its name less _cache";
	case SF_SLAB_BY_INFO: return "by its name, _cache read as _info";
	default: return "by --slab-map";
	}
}

void sf_render_live_summary(struct strbuf *sb, const char *path,
			    const struct sf_slab_match *m, size_t n, bool verbose)
{
	size_t count[SF_SLAB_TOO_LARGE + 1] = { 0 };

	for (size_t i = 0; i < n; i++)
		count[m[i].verdict]++;
	sb_addf(sb, "structfit: %s: %zu %s: %zu matched a struct, %zu kmalloc size "
		"classes (no type), %zu with no struct of their name, %zu rejected by "
		"size%s\n", path, n, n == 1 ? "cache" : "caches", count[SF_SLAB_MATCHED],
		count[SF_SLAB_UNTYPED], count[SF_SLAB_NO_TYPE],
		count[SF_SLAB_TOO_SMALL] + count[SF_SLAB_TOO_LARGE],
		verbose ? "" : " (--verbose lists them)");
}

static void one_cache(struct strbuf *sb, const char *path, const struct sf_slab_match *m)
{
	const struct sf_slab *s = m->slab;
	const struct sf_type *t = m->type;

	sb_addf(sb, "structfit: slab %s (%s:%u): ", s->name, path, s->line);
	switch (m->verdict) {
	case SF_SLAB_UNTYPED:
		sb_adds(sb, "a kmalloc size class, objects of any type: not matched\n");
		return;
	case SF_SLAB_NO_TYPE:
		sb_addf(sb, "no struct of its name (--slab-map %s=TYPE names one)\n", s->name);
		return;
	default:
		break;
	}
	sb_addf(sb, "%s %s (%" PRIu64 " bytes, %s) ", sf_type_kind_name(t), t->name,
		t->size, rule_word(m->rule));
	if (m->verdict == SF_SLAB_TOO_SMALL)
		sb_addf(sb, "rejected: objsize %" PRIu64 " cannot hold it\n", s->objsize);
	else if (m->verdict == SF_SLAB_TOO_LARGE)
		sb_addf(sb, "rejected: objsize %" PRIu64 " is more than its alignment and "
			"SLUB's free pointer explain (at most %" PRIu64 ")\n", s->objsize,
			m->most);
	else if (m->tail && s->objsize > t->size)
		sb_addf(sb, "matched; the cache adds %s after the struct (objsize %" PRIu64
			", %" PRIu64 " bytes more)\n", sf_slab_tail(s->name), s->objsize,
			s->objsize - t->size);
	else
		sb_addf(sb, "matched (objsize %" PRIu64 ")\n", s->objsize);
}

void sf_render_live_caches(struct strbuf *sb, const char *path,
			   const struct sf_slab_match *m, size_t n)
{
	for (size_t i = 0; i < n; i++)
		one_cache(sb, path, &m[i]);
}
