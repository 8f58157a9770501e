/*
 * live.c (report/) - slab matching worded (see live.h).  Every cache is
 * in exactly one of the summary's counts: matched, a kmalloc size class,
 * no struct of its name, or rejected by size.  The figures of suggest and
 * fit (slabs, bytes at the count) come computed (layout/live.c).
 */
#include "live.h"

#include <assert.h>
#include <inttypes.h>
#include <stdio.h>

#include "lib/checked.h"
#include "report.h"

int sf_render_live_why(struct sf_err *err, const char *path, const struct sf_live_why *why)
{
	const char *w = why->word, *f = why->field;

	switch (why->problem) {
	case SF_LIVE_PAST_64:
		return sf_error_at(err, path, why->line, 0, "%s '%s' is past 2^64-1", f, w);
	case SF_LIVE_NOT_NUMBER:
		return sf_error_at(err, path, why->line, 0, "%s '%s' is not a number", f, w);
	case SF_LIVE_NOT_PAIR:
		return sf_error_at(err, path, why->line, 0, "expected 'TYPE COUNT', got '%s'", w);
	case SF_LIVE_NOT_SLABINFO:
		return sf_error_at(err, path, why->line, 0, "not a slabinfo file (expected "
				   "'slabinfo - version: 2.1')");
	case SF_LIVE_VERSION:
		return sf_error_at(err, path, why->line, 0, "slabinfo version %s; only 2.1 is "
				   "read", w);
	case SF_LIVE_NOT_CACHE_LINE:
		return sf_error_at(err, path, why->line, 0, "expected 'name <active_objs> "
				   "<num_objs> <objsize> <objperslab> <pagesperslab> : ...'");
	case SF_LIVE_OK:
		break;
	}
	assert(!"a live file that parsed");
	return sf_error_at(err, path, why->line, 0, "unreadable");
}

/* What a cache adds after its struct (layout/live.h's sf_slab_tail). */
static const char *tail_words(enum sf_slab_tail tail)
{
	switch (tail) {
	case SF_SLAB_TAIL_FPU: return "the FPU state";
	case SF_SLAB_TAIL_CPU_MASKS: return "the CPU masks";
	case SF_SLAB_TAIL_NONE: break;
	}
	return "a tail";
}

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
			", %" PRIu64 " bytes more)\n", tail_words(sf_slab_tail(s->name)), s->objsize,
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

void sf_add_thousands(struct strbuf *out, uint64_t n)
{
	char digits[32];
	int len = snprintf(digits, sizeof(digits), "%" PRIu64, n);

	for (int i = 0; i < len; i++) {
		if (i && (len - i) % 3 == 0)
			sb_addch(out, ',');
		sb_addch(out, digits[i]);
	}
}

void sf_add_bytes_human(struct strbuf *out, uint64_t bytes)
{
	static const char *const units[] = { "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	double v = (double)bytes;
	int u = -1;

	if (bytes < 1024) {
		sb_addf(out, "%" PRIu64 " B", bytes);
		return;
	}
	while (v >= 1024 && u < 5) {
		v /= 1024;
		u++;
	}
	sb_addf(out, "%.1f %s", v, units[u]);
}

static const char *plural(uint64_t n)
{
	return n == 1 ? "" : "s";
}

void sf_render_live_uncounted(struct strbuf *sb, const struct sf_type *t,
			      const char *counts_path, const char *slabinfo_path)
{
	sb_addf(sb, "structfit: %s %s has no count in ", sf_type_kind_name(t), t->name);
	if (counts_path)
		sb_addf(sb, "--counts %s%s", counts_path, slabinfo_path ? " or " : "");
	if (slabinfo_path)
		sb_addf(sb, "--slabinfo %s (no cache matched it)", slabinfo_path);
	sb_adds(sb, ": no live figures\n");
}

/* "<= 1,088 bytes for 15" after "; ", when there is a next step. */
static void next_step(struct strbuf *sb, const struct sf_live_step *s)
{
	if (!s->next_size)
		return;
	sb_adds(sb, "; <= ");
	sf_add_thousands(sb, s->next_size);
	sb_adds(sb, " bytes for ");
	sf_add_thousands(sb, s->per + 1);
}

/* "80", or "none" above the last class */
static void class_words(struct strbuf *sb, const struct sf_live_cost *c, size_t cls)
{
	if (cls == SF_NO_CLASS)
		sb_adds(sb, "none");
	else
		sb_addf(sb, "%" PRIu64, c->classes->v[cls]);
}

void sf_render_live_head_text(struct strbuf *sb, const struct sf_live_cost *c,
			      const struct sf_live_step *now)
{
	const struct sf_slab *s = c->slab;

	sb_adds(sb, "live: ");
	sf_add_thousands(sb, c->count);
	if (!s) {
		sb_addf(sb, " instance%s (--counts): ", plural(c->count));
		sf_add_thousands(sb, now->bytes);
		sb_adds(sb, " bytes");
		if (c->classes) {
			sb_adds(sb, " in class ");
			class_words(sb, c, now->cls);
		}
		sb_adds(sb, " (");
		sf_add_bytes_human(sb, now->bytes);
		sb_adds(sb, ")\n");
		return;
	}
	sb_addf(sb, " object%s in slab %s (objsize ", plural(c->count), s->name);
	sf_add_thousands(sb, s->objsize);
	sb_adds(sb, ": ");
	sf_add_thousands(sb, now->per);
	sb_addf(sb, " per %" PRIu64 "-page slab, ", c->unit.pages);
	sf_add_thousands(sb, now->slabs);
	sb_addf(sb, " slab%s, ", plural(now->slabs));
	sf_add_bytes_human(sb, sf_mul_sat(now->slabs, c->unit.slab_bytes));
	sb_adds(sb, ")");
	next_step(sb, now);
	sb_addf(sb, "\n      (SLUB's slot: sizeof rounded up to 8, + %" PRIu64 " byte%s the "
		"cache adds, aligned to %" PRIu64 "; objects per slab = %" PRIu64
		" / slot", c->unit.extra, plural(c->unit.extra), c->unit.align,
		c->unit.slab_bytes);
	if (!c->unit.agrees)
		sb_addf(sb, "; the slabinfo says %" PRIu64 " per slab, not %" PRIu64
			": 4 KiB pages or the slab's order differ, the figures are the "
			"model's", s->objperslab, now->per);
	sb_adds(sb, ")\n");
}

void sf_render_live_step_text(struct strbuf *sb, const char *indent,
			      const struct sf_live_cost *c, const struct sf_live_step *before,
			      const struct sf_live_step *after)
{
	if (c->slab) {
		sb_addf(sb, "%s%s: ", indent, c->slab->name);
		sf_add_thousands(sb, before->per);
		sb_adds(sb, " -> ");
		sf_add_thousands(sb, after->per);
		sb_addf(sb, " per %" PRIu64 "-page slab: ", c->unit.pages);
		if (after->slabs < before->slabs) {
			sf_add_thousands(sb, before->slabs - after->slabs);
			sb_addf(sb, " fewer slab%s (", plural(before->slabs - after->slabs));
			sf_add_bytes_human(sb, sf_mul_sat(before->slabs - after->slabs,
							  c->unit.slab_bytes));
			sb_adds(sb, ")");
		} else {
			sb_adds(sb, "no slab fewer");
		}
		sb_adds(sb, " at ");
		sf_add_thousands(sb, c->count);
		sb_addf(sb, " object%s", plural(c->count));
		next_step(sb, after);
		sb_addch(sb, '\n');
		return;
	}
	sb_addf(sb, "%sat ", indent);
	sf_add_thousands(sb, c->count);
	sb_addf(sb, " instance%s: ", plural(c->count));
	if (c->classes) {
		sb_adds(sb, "class ");
		class_words(sb, c, before->cls);
		sb_adds(sb, " -> ");
		class_words(sb, c, after->cls);
		sb_adds(sb, ", ");
	}
	sf_add_thousands(sb, before->bytes);
	sb_adds(sb, " -> ");
	sf_add_thousands(sb, after->bytes);
	sb_adds(sb, " bytes (");
	if (after->bytes < before->bytes) {
		sf_add_bytes_human(sb, before->bytes - after->bytes);
		sb_adds(sb, " fewer)\n");
	} else {
		sb_adds(sb, "no byte fewer)\n");
	}
}

static void json_class_or_null(struct strbuf *sb, const struct sf_live_cost *c, size_t cls)
{
	if (c->classes && cls != SF_NO_CLASS)
		sb_addf(sb, "%" PRIu64, c->classes->v[cls]);
	else
		sb_adds(sb, "null");
}

void sf_render_live_head_json(struct strbuf *sb, const struct sf_live_cost *c,
			      const struct sf_live_step *now)
{
	const struct sf_slab *s = c->slab;

	sb_addf(sb, "{\"count\":%" PRIu64 ",\"source\":\"%s\",\"slab_cache\":",
		c->count, s ? "slabinfo" : "counts");
	if (s) {
		sb_add_json_str(sb, s->name);
		sb_addf(sb, ",\"objsize\":%" PRIu64 ",\"objperslab\":%" PRIu64
			",\"pagesperslab\":%" PRIu64 ",\"slot_align\":%" PRIu64
			",\"slot_extra\":%" PRIu64 ",\"model_agrees\":%s,\"per_slab\":%" PRIu64
			",\"slabs\":%" PRIu64 ",\"next_size\":", s->objsize, s->objperslab,
			s->pagesperslab, c->unit.align, c->unit.extra,
			c->unit.agrees ? "true" : "false", now->per, now->slabs);
		if (now->next_size)
			sb_addf(sb, "%" PRIu64, now->next_size);
		else
			sb_adds(sb, "null");
	} else {
		sb_adds(sb, "null,\"objsize\":null,\"objperslab\":null,\"pagesperslab\":null,"
			"\"slot_align\":null,\"slot_extra\":null,\"model_agrees\":null,"
			"\"per_slab\":null,\"slabs\":null,\"next_size\":null");
	}
	sb_adds(sb, ",\"class\":");
	json_class_or_null(sb, c, now->cls);
	sb_addf(sb, ",\"bytes\":%" PRIu64 "}", now->bytes);
}

void sf_render_live_step_json(struct strbuf *sb, const struct sf_live_cost *c,
			      const struct sf_live_step *before,
			      const struct sf_live_step *after)
{
	sb_addch(sb, '{');
	if (c->slab) {
		sb_addf(sb, "\"per_slab_before\":%" PRIu64 ",\"per_slab\":%" PRIu64
			",\"slabs_before\":%" PRIu64 ",\"slabs\":%" PRIu64 ",\"fewer_slabs\":%"
			PRIu64 ",\"next_size\":", before->per, after->per, before->slabs,
			after->slabs, before->slabs > after->slabs ?
			before->slabs - after->slabs : 0);
		if (after->next_size)
			sb_addf(sb, "%" PRIu64, after->next_size);
		else
			sb_adds(sb, "null");
	} else {
		sb_adds(sb, "\"per_slab_before\":null,\"per_slab\":null,\"slabs_before\":null,"
			"\"slabs\":null,\"fewer_slabs\":null,\"next_size\":null");
	}
	sb_adds(sb, ",\"class_before\":");
	json_class_or_null(sb, c, before->cls);
	sb_adds(sb, ",\"class\":");
	json_class_or_null(sb, c, after->cls);
	sb_addf(sb, ",\"bytes_before\":%" PRIu64 ",\"bytes\":%" PRIu64 ",\"fewer_bytes\":%"
		PRIu64 "}", before->bytes, after->bytes,
		before->bytes > after->bytes ? before->bytes - after->bytes : 0);
}
