/*
 * rank.c - render the `holes` ranking (layout/rank.c built it).
 *
 * Text is a table: a header line, then one line per type with the numbers
 * right-aligned in columns as wide as their widest value, the type
 * ("struct st_table") and where it is declared ("st.c:12", "-" when
 * unknown).  Variants of one name are told apart by that location.  A
 * "forced" column (bytes of holes and padding an explicit alignment asked
 * for, not counted as waste) appears when any type listed has some; a
 * "saves" column (bytes a member reorder takes back) with --reorderable; a
 * "public" column (why changing the layout breaks others: packed,
 * installed, include - layout/public.h) when any type listed is public.
 * With counts (layout/live.h), "live_waste" (instances x waste) and "live"
 * columns lead, and "live_saves" (instances x saves) with --reorderable;
 * a type nothing counted shows "-" there.
 * JSON is {"schema", "command":"holes", "types":[...]} with one object per
 * line, in the words of `show`'s type objects (holes_count, sum_holes), and
 * the definition's hash (16 hex digits: the typeset's, which identical
 * definitions share) so that a merge of documents deduplicates.
 */
#include "report.h"
#include "layout/public.h"
#include "reasons.h"
#include "lib/checked.h"

#include <inttypes.h>
#include <string.h>

struct widths {
	int live, live_waste, live_saves;
	int waste, size, saves, holes, padding, forced, public, type;
};

/* Past this width a type name just pushes its location further right. */
#define MAX_TYPE_WIDTH 48

static int digits(uint64_t v)
{
	int n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

static int max_int(int a, int b)
{
	return a > b ? a : b;
}

static const char *type_name_or_anon(const struct sf_type *t)
{
	return t->name && t->name[0] ? t->name : "<anonymous>";
}

/*
 * "struct st_table": the kind keyword tells unions from structs; a type
 * named by its typedef (`typedef struct {...} name;`) is "typedef name".
 */
static const char *kind_label(const struct sf_type *t)
{
	/* a Rust enum with data is a struct to the model, an enum to its user */
	return (t->flags & SF_TF_TYPEDEF) ? "typedef" : sf_type_kind_name(t);
}

static int type_label_len(const struct sf_type *t)
{
	size_t n = strlen(kind_label(t)) + 1 + strlen(type_name_or_anon(t));
	return n > MAX_TYPE_WIDTH ? MAX_TYPE_WIDTH + 1 : (int)n;
}

static void type_label(struct strbuf *sb, const struct sf_type *t, int width)
{
	size_t start = sb->len;

	sb_adds(sb, kind_label(t));
	sb_addch(sb, ' ');
	sb_adds(sb, type_name_or_anon(t));
	if (sb->len - start < (size_t)width)
		sb_addchars(sb, ' ', (size_t)width - (sb->len - start));
}

/* Bytes a reorder takes back over every instance alive. */
static uint64_t live_saves(const struct sf_rank_entry *e)
{
	return sf_mul_sat(e->live, e->size - e->reorder_size);
}

/* A live column: the number, or "-" for a type nothing counted. */
static void live_cell(struct strbuf *sb, int width, bool counted, uint64_t v)
{
	if (!width)
		return;
	if (counted)
		sb_addf(sb, "%*" PRIu64 "  ", width, v);
	else
		sb_addf(sb, "%*s  ", width, "-");
}

static struct widths column_widths(const struct sf_rank *r)
{
	/* at least as wide as the header words */
	struct widths w = { 0, 0, 0, 5, 4, r->opts.reorderable ? 5 : 0, 5, 7, 0, 0, 4 };

	for (size_t i = 0; i < r->n; i++) {
		const struct sf_rank_entry *e = &r->v[i];
		if (e->counted) {
			w.live = max_int(max_int(w.live, 4), digits(e->live));
			w.live_waste = max_int(max_int(w.live_waste, 10), digits(e->live_waste));
			if (r->opts.reorderable)
				w.live_saves = max_int(max_int(w.live_saves, 10),
						       digits(live_saves(e)));
		}
		w.waste = max_int(w.waste, digits(e->waste));
		w.size = max_int(w.size, digits(e->size));
		if (r->opts.reorderable)
			w.saves = max_int(w.saves, digits(e->size - e->reorder_size));
		w.holes = max_int(w.holes, digits(e->nholes));
		w.padding = max_int(w.padding, digits(e->padding));
		if (e->forced)
			w.forced = max_int(max_int(w.forced, 6), digits(e->forced));
		if (e->public)
			w.public = max_int(max_int(w.public, 6),
					   (int)strlen(sf_public_word((enum sf_public)e->public)));
		w.type = max_int(w.type, type_label_len(e->type));
	}
	if (w.type > MAX_TYPE_WIDTH)
		w.type = MAX_TYPE_WIDTH;
	return w;
}

static void location(struct strbuf *sb, const struct sf_type *t)
{
	if (!t->decl_file || !t->decl_file[0]) {
		sb_addch(sb, '-');
		return;
	}
	sb_adds(sb, t->decl_file);
	if (t->decl_line)
		sb_addf(sb, ":%u", t->decl_line);
}

void sf_render_rank_empty(struct strbuf *out, const struct sf_rank_opts *o)
{
	bool min = o->min_waste > 1;

	if (o->reorderable)
		sb_adds(out, "no type shrinks by reordering its members (--reorderable)");
	else if (!min)
		sb_adds(out, o->min_waste ? "no type wastes a byte" :
			"no struct, union or class with members");
	if (min)
		sb_addf(out, "%s wastes at least %" PRIu64 " bytes (--min-waste %" PRIu64 ")",
			o->reorderable ? " and" : "no type", o->min_waste, o->min_waste);
}

void sf_render_rank_text(struct strbuf *out, const struct sf_rank *r)
{
	struct widths w = column_widths(r);

	if (w.live)
		sb_addf(out, "%*s  %*s  ", w.live_waste, "live_waste", w.live, "live");
	if (w.live_saves)
		sb_addf(out, "%*s  ", w.live_saves, "live_saves");
	sb_addf(out, "%*s  %*s  ", w.waste, "waste", w.size, "size");
	if (w.saves)
		sb_addf(out, "%*s  ", w.saves, "saves");
	sb_addf(out, "%*s  %*s  ", w.holes, "holes", w.padding, "padding");
	if (w.forced)
		sb_addf(out, "%*s  ", w.forced, "forced");
	if (w.public)
		sb_addf(out, "%-*s  ", w.public, "public");
	sb_addf(out, "%-*s  %s\n", w.type, "type", "declared");
	for (size_t i = 0; i < r->n; i++) {
		const struct sf_rank_entry *e = &r->v[i];
		live_cell(out, w.live_waste, e->counted, e->live_waste);
		live_cell(out, w.live, e->counted, e->live);
		live_cell(out, w.live_saves, e->counted, e->counted ? live_saves(e) : 0);
		sb_addf(out, "%*" PRIu64 "  %*" PRIu64 "  ", w.waste, e->waste, w.size, e->size);
		if (w.saves)
			sb_addf(out, "%*" PRIu64 "  ", w.saves, e->size - e->reorder_size);
		sb_addf(out, "%*u  %*" PRIu64 "  ", w.holes, e->nholes, w.padding, e->padding);
		if (w.forced)
			sb_addf(out, "%*" PRIu64 "  ", w.forced, e->forced);
		if (w.public)
			sb_addf(out, "%-*s  ", w.public, e->public ?
				sf_public_word((enum sf_public)e->public) : "-");
		type_label(out, e->type, w.type);
		sb_adds(out, "  ");
		location(out, e->type);
		/* as show marks it: the name alone does not say which one */
		if (e->type->flags & SF_TF_VARIANT)
			sb_adds(out, "  (one of several differing definitions of this name)");
		sb_addch(out, '\n');
	}
}

/* "live", "live_waste" (and "live_saves"), the slab cache counted. */
static void json_live(struct strbuf *out, const struct sf_rank_entry *e, bool reorderable)
{
	sb_addf(out, ",\"live\":%" PRIu64 ",\"live_waste\":%" PRIu64, e->live, e->live_waste);
	if (reorderable)
		sb_addf(out, ",\"live_saves\":%" PRIu64, live_saves(e));
	if (e->slab) {
		sb_adds(out, ",\"slab_cache\":");
		sb_add_json_str(out, e->slab->name);
	}
}

void sf_render_rank_json(struct strbuf *out, const struct sf_rank *r)
{
	sf_json_doc_open(out, "holes");
	sb_adds(out, "\"types\":[");
	for (size_t i = 0; i < r->n; i++) {
		const struct sf_rank_entry *e = &r->v[i];
		const struct sf_type *t = e->type;

		sb_adds(out, i ? ",\n{\"name\":" : "\n{\"name\":");
		sb_add_json_str(out, t->name ? t->name : "");
		sb_adds(out, ",\"kind\":");
		sb_add_json_str(out, sf_type_kind_name(t));
		sb_addf(out, ",\"size\":%" PRIu64 ",\"waste\":%" PRIu64
			",\"holes_count\":%u,\"sum_holes\":%" PRIu64
			",\"padding\":%" PRIu64 ",\"forced\":%" PRIu64 ",\"decl_file\":",
			e->size, e->waste, e->nholes, e->sum_holes, e->padding, e->forced);
		sb_add_json_str(out, t->decl_file ? t->decl_file : "");
		sb_addf(out, ",\"decl_line\":%u,\"origin\":", t->decl_line);
		sb_add_json_str(out, t->origin ? t->origin : "");
		if (r->opts.reorderable)
			sb_addf(out, ",\"reorder_size\":%" PRIu64 ",\"reorder_saved\":%" PRIu64,
				e->reorder_size, e->size - e->reorder_size);
		if (e->counted)
			json_live(out, e, r->opts.reorderable);
		sb_addf(out, ",\"variant\":%s,\"typedef\":%s,\"public\":",
			(t->flags & SF_TF_VARIANT) ? "true" : "false",
			(t->flags & SF_TF_TYPEDEF) ? "true" : "false");
		if (e->public)
			sb_add_json_str(out, sf_public_word((enum sf_public)e->public));
		else
			sb_adds(out, "null");
		/* the definition's identity, so that documents merged later
		 * deduplicate as the builds would (input/jsondoc.c) */
		sb_addf(out, ",\"hash\":\"%016" PRIx64 "\"}", t->hash);
	}
	sb_adds(out, r->n ? "\n]}\n" : "]}\n");
}
