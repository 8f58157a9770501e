/*
 * diff.c - `structfit diff` as text, JSON, Markdown, GitHub annotations
 * or SARIF.
 *
 * Text, for a type that changed, then one added and one removed:
 *
 *   struct grows: 8 -> 16 bytes (+8)  after.c:12
 *       added    c: long, offset 8, 8 bytes
 *       moved    a: offset 0 -> 8
 *       retyped  b: int (4 bytes) -> char (1 byte)
 *       gained   3-byte hole after b, at offset 5
 *       holes    0 (0 bytes) -> 1 (3 bytes), padding 0 -> 0
 *   struct newone: added, 16 bytes  after.c:30
 *   struct pool: added definition, 24 bytes  other.c:7
 *   struct gone: removed, was 8 bytes  before.c:3
 *   3 types changed (1 grew, +0 bytes), 1 added, 1 removed; 6 compared
 *
 * Every number comes from the sf_diff; nothing is recomputed here.
 */
#include "diff.h"
#include "ci.h"
#include "report.h"

#include <assert.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static const char *const change_names[] = {
	[SF_MC_ADDED] = "added", [SF_MC_REMOVED] = "removed",
	[SF_MC_MOVED] = "moved", [SF_MC_RETYPED] = "retyped",
};

/* The member's type as C writes it around the name: "int[3]", "void (*)(int)". */
static void member_type(struct strbuf *out, const struct sf_member *m)
{
	sb_adds(out, m->type_name ? m->type_name : "");
	sb_adds(out, m->type_suffix ? m->type_suffix : "");
}

static const char *plural(uint64_t n)
{
	return n == 1 ? "" : "s";
}

/* "offset 8" or, for a bit-field, "offset 4 bit 3". */
static void member_pos(struct strbuf *out, const struct sf_member *m)
{
	sb_addf(out, "offset %" PRIu64, m->offset);
	if (m->bit_size)
		sb_addf(out, " bit %u", m->bit_offset);
}

static void member_width(struct strbuf *out, const struct sf_member *m)
{
	if (m->bit_size)
		sb_addf(out, "%u bit%s", m->bit_size, plural(m->bit_size));
	else
		sb_addf(out, "%" PRIu64 " byte%s", m->size, plural(m->size));
}

static void text_member(struct strbuf *out, const struct sf_dmember *dm)
{
	const struct sf_member *m = dm->new ? dm->new : dm->old;

	sb_addf(out, "    %-8s %s: ", change_names[dm->change], m->name);
	switch ((enum sf_mchange)dm->change) {
	case SF_MC_ADDED:
	case SF_MC_REMOVED:
		member_type(out, m);
		sb_adds(out, dm->change == SF_MC_ADDED ? ", " : ", was at ");
		member_pos(out, m);
		sb_adds(out, ", ");
		member_width(out, m);
		break;
	case SF_MC_MOVED:
		member_pos(out, dm->old);
		sb_adds(out, " -> ");
		member_pos(out, dm->new);
		break;
	case SF_MC_RETYPED:
		member_type(out, dm->old);
		sb_adds(out, " (");
		member_width(out, dm->old);
		sb_adds(out, ") -> ");
		member_type(out, dm->new);
		sb_adds(out, " (");
		member_width(out, dm->new);
		sb_adds(out, ")");
		break;
	}
	sb_addch(out, '\n');
}

/* Is members[i] a move of the member members[i + 1] retypes? */
static bool moved_and_retyped(const struct sf_dtype *d, uint32_t i)
{
	return i + 1 < d->nmembers && d->members[i].change == SF_MC_MOVED &&
	       d->members[i + 1].change == SF_MC_RETYPED &&
	       d->members[i + 1].old == d->members[i].old &&
	       d->members[i + 1].new == d->members[i].new;
}

/* A whole-byte move in a struct whose order held: something before the
 * member grew or shrank, and it only follows. */
static bool shifted(const struct sf_dtype *d, uint32_t i)
{
	const struct sf_dmember *dm = &d->members[i];

	return !d->reordered && dm->change == SF_MC_MOVED && !moved_and_retyped(d, i) &&
	       !dm->old->bit_size && !dm->new->bit_size;
}

static int64_t shift_of(const struct sf_dmember *dm)
{
	return (int64_t)(dm->new->offset - dm->old->offset);
}

/* "    shifted  c, d, e: 8 bytes later (what precedes them changed)" for
 * the run of members shifted alike from i; returns the run's length. */
static uint32_t text_shifted(struct strbuf *out, const struct sf_dtype *d, uint32_t i)
{
	int64_t by = shift_of(&d->members[i]);
	uint32_t n = 0;

	sb_addf(out, "    %-8s ", "shifted");
	while (i + n < d->nmembers && shifted(d, i + n) &&
	       shift_of(&d->members[i + n]) == by) {
		sb_addf(out, "%s%s", n ? ", " : "", d->members[i + n].new->name);
		n++;
	}
	assert(n > 0);
	uint64_t abs = (uint64_t)(by < 0 ? -by : by);
	sb_addf(out, ": %" PRIu64 " byte%s %s (what precedes %s changed)\n", abs, plural(abs),
		by < 0 ? "earlier" : "later", n > 1 ? "them" : "it");
	return n;
}

/* Each member once: a run of shifted members on one line, a member both
 * moved and retyped on its retyped line with the offsets. */
static void text_members(struct strbuf *out, const struct sf_dtype *d)
{
	for (uint32_t i = 0; i < d->nmembers;) {
		if (shifted(d, i)) {
			i += text_shifted(out, d, i);
		} else if (moved_and_retyped(d, i)) {
			text_member(out, &d->members[i + 1]);
			sb_setlen(out, out->len - 1);   /* continue the line */
			sb_adds(out, ", ");
			member_pos(out, d->members[i].old);
			sb_adds(out, " -> ");
			member_pos(out, d->members[i].new);
			sb_addch(out, '\n');
			i += 2;
		} else {
			text_member(out, &d->members[i++]);
		}
	}
}

static void text_decl(struct strbuf *out, const struct sf_type *t)
{
	if (t->decl_file[0] && t->decl_line)
		sb_addf(out, "  %s:%u", t->decl_file, t->decl_line);
	sb_addch(out, '\n');
}

static void text_changed(struct strbuf *out, const struct sf_dtype *d)
{
	const struct sf_type *o = d->old, *n = d->new;

	sb_addf(out, "%s %s: %" PRIu64 " -> %" PRIu64 " bytes (%+" PRId64 ")",
		sf_type_kind_name(n), n->name, o->size, n->size, d->growth);
	text_decl(out, n);
	text_members(out, d);
	for (uint32_t i = 0; i < d->nholes; i++) {
		const struct sf_dhole *h = &d->holes[i];
		sb_addf(out, "    %-8s %" PRIu64 "-byte hole %s%s, at offset %" PRIu64 "\n",
			h->gained ? "gained" : "lost", h->size,
			h->after[0] ? "after " : "at the start", h->after, h->offset);
	}
	if (d->reordered)
		sb_adds(out, "    order    members kept are in a different order\n");
	if (o->align != n->align)
		sb_addf(out, "    align    %u -> %u\n", o->align, n->align);
	if (d->old_sum_holes != d->new_sum_holes || d->old_nholes != d->new_nholes ||
	    d->old_padding != d->new_padding)
		sb_addf(out, "    holes    %u (%" PRIu64 " byte%s) -> %u (%" PRIu64
			" byte%s), padding %" PRIu64 " -> %" PRIu64 "\n",
			d->old_nholes, d->old_sum_holes, plural(d->old_sum_holes),
			d->new_nholes, d->new_sum_holes, plural(d->new_sum_holes),
			d->old_padding, d->new_padding);
}

static void summary_line(struct strbuf *out, const struct sf_diff *d)
{
	if (d->n == 0) {
		sb_addf(out, "no layout changes; %zu type%s compared\n", d->compared,
			plural(d->compared));
		return;
	}
	sb_addf(out, "%zu type%s changed (%zu grew, %+" PRId64 " bytes), %zu added, "
		"%zu removed; %zu compared\n", d->nchanged, plural(d->nchanged),
		d->ngrown, d->growth, d->nadded, d->nremoved, d->compared);
}

void sf_render_diff_text(struct strbuf *out, const struct sf_diff *d)
{
	for (size_t i = 0; i < d->n; i++) {
		const struct sf_dtype *t = &d->types[i];
		switch ((enum sf_dstatus)t->status) {
		case SF_D_CHANGED:
			text_changed(out, t);
			break;
		case SF_D_ADDED:
			sb_addf(out, "%s %s: added%s, %" PRIu64 " byte%s",
				sf_type_kind_name(t->new), t->new->name,
				t->definition ? " definition" : "", t->new->size,
				plural(t->new->size));
			text_decl(out, t->new);
			break;
		case SF_D_REMOVED:
			sb_addf(out, "%s %s: removed%s, was %" PRIu64 " byte%s",
				sf_type_kind_name(t->old), t->old->name,
				t->definition ? " definition" : "", t->old->size,
				plural(t->old->size));
			text_decl(out, t->old);
			break;
		}
	}
	summary_line(out, d);
}

/* ------------------------------------------------------------ json */

static void json_member(struct strbuf *out, const struct sf_member *m)
{
	struct strbuf ty = STRBUF_INIT;

	if (!m) {
		sb_adds(out, "null");
		return;
	}
	member_type(&ty, m);
	sb_adds(out, "{\"type\":");
	sb_add_json_str(out, ty.buf);
	sb_addf(out, ",\"offset\":%" PRIu64 ",\"size\":%" PRIu64, m->offset, m->size);
	if (m->bit_size)
		sb_addf(out, ",\"bit_offset\":%u,\"bit_size\":%u", m->bit_offset,
			m->bit_size);
	sb_addch(out, '}');
	sb_release(&ty);
}

/* A type as every JSON document names it: bare name and kind. */
static void json_type_head(struct strbuf *out, const struct sf_type *t)
{
	sb_adds(out, "{\"name\":");
	sb_add_json_str(out, t->name);
	sb_adds(out, ",\"kind\":");
	sb_add_json_str(out, sf_type_kind_name(t));
	sb_adds(out, ",\"decl_file\":");
	sb_add_json_str(out, t->decl_file);
	sb_addf(out, ",\"decl_line\":%u", t->decl_line);
}

/* One side of a change, in the words of show's type objects. */
static void json_side(struct strbuf *out, const char *key, const struct sf_type *t,
		      uint32_t nholes, uint64_t sum_holes, uint64_t padding)
{
	sb_addf(out, ",\"%s\":{\"size\":%" PRIu64 ",\"align\":%u,\"holes_count\":%u"
		",\"sum_holes\":%" PRIu64 ",\"padding\":%" PRIu64 ",\"waste\":%" PRIu64 "}",
		key, t->size, t->align, nholes, sum_holes, padding, sum_holes + padding);
}

static void json_changed(struct strbuf *out, const struct sf_dtype *d)
{
	json_type_head(out, d->new);
	sb_addf(out, ",\"growth\":%" PRId64, d->growth);
	json_side(out, "old", d->old, d->old_nholes, d->old_sum_holes, d->old_padding);
	json_side(out, "new", d->new, d->new_nholes, d->new_sum_holes, d->new_padding);
	sb_addf(out, ",\"reordered\":%s,\"members\":[", d->reordered ? "true" : "false");
	for (uint32_t i = 0; i < d->nmembers; i++) {
		const struct sf_dmember *m = &d->members[i];
		sb_addf(out, "%s{\"change\":\"%s\",\"name\":", i ? "," : "",
			change_names[m->change]);
		sb_add_json_str(out, (m->new ? m->new : m->old)->name);
		sb_adds(out, ",\"old\":");
		json_member(out, m->old);
		sb_adds(out, ",\"new\":");
		json_member(out, m->new);
		sb_addch(out, '}');
	}
	sb_adds(out, "],\"holes\":[");
	for (uint32_t i = 0; i < d->nholes; i++) {
		const struct sf_dhole *h = &d->holes[i];
		sb_addf(out, "%s{\"change\":\"%s\",\"offset\":%" PRIu64 ",\"size\":%"
			PRIu64 ",\"after\":", i ? "," : "", h->gained ? "gained" : "lost",
			h->offset, h->size);
		sb_add_json_str(out, h->after);
		sb_addch(out, '}');
	}
	sb_adds(out, "]}");
}

static void json_list(struct strbuf *out, const struct sf_diff *d,
		      enum sf_dstatus status)
{
	size_t k = 0;

	for (size_t i = 0; i < d->n; i++) {
		const struct sf_dtype *t = &d->types[i];
		if (t->status != status)
			continue;
		if (k++)
			sb_addch(out, ',');
		if (status == SF_D_CHANGED) {
			json_changed(out, t);
			continue;
		}
		const struct sf_type *ty = status == SF_D_ADDED ? t->new : t->old;
		json_type_head(out, ty);
		sb_addf(out, ",\"size\":%" PRIu64 ",\"align\":%u,\"definition\":%s}", ty->size,
			ty->align, t->definition ? "true" : "false");
	}
}

void sf_render_diff_json(struct strbuf *out, const struct sf_diff *d,
			 const char *old_label, const char *new_label)
{
	sf_json_doc_open(out, "diff");
	sb_adds(out, "\"old_input\":");
	sb_add_json_str(out, old_label ? old_label : "");
	sb_adds(out, ",\"new_input\":");
	sb_add_json_str(out, new_label ? new_label : "");
	sb_adds(out, ",\"changed\":[");
	json_list(out, d, SF_D_CHANGED);
	sb_adds(out, "],\"added\":[");
	json_list(out, d, SF_D_ADDED);
	sb_adds(out, "],\"removed\":[");
	json_list(out, d, SF_D_REMOVED);
	sb_addf(out, "],\"summary\":{\"compared\":%zu,\"changed\":%zu,\"grown\":%zu,"
		"\"growth\":%" PRId64 ",\"added\":%zu,\"removed\":%zu}}\n",
		d->compared, d->nchanged, d->ngrown, d->growth, d->nadded, d->nremoved);
}

/* ------------------------------------------------------------ CI formats */

/* The type that stands for a diff entry: the new one, or the removed one. */
static const struct sf_type *entry_type(const struct sf_dtype *t)
{
	return t->new ? t->new : t->old;
}

/* "struct x: 8 -> 16 bytes (+8)", "struct x: added, 16 bytes", ... */
static void headline(struct strbuf *out, const struct sf_dtype *t)
{
	const struct sf_type *ty = entry_type(t);

	sb_addf(out, "%s %s: ", sf_type_kind_name(ty), ty->name);
	if (t->status == SF_D_CHANGED)
		sb_addf(out, "%" PRIu64 " -> %" PRIu64 " bytes (%+" PRId64 ")",
			t->old->size, t->new->size, t->growth);
	else if (t->status == SF_D_ADDED)
		sb_addf(out, "added%s, %" PRIu64 " byte%s", t->definition ? " definition" : "",
			ty->size, plural(ty->size));
	else
		sb_addf(out, "removed%s, was %" PRIu64 " byte%s",
			t->definition ? " definition" : "", ty->size, plural(ty->size));
}

static bool has_decl(const struct sf_type *t)
{
	return t->decl_file[0] && t->decl_line;
}

void sf_render_diff_markdown(struct strbuf *out, const struct sf_diff *d,
			     const struct sf_diff_ci_opts *o)
{
	struct strbuf cell = STRBUF_INIT;

	sb_adds(out, "### structfit diff: ");
	sf_ci_md_cell(out, o->old_label);
	sb_adds(out, " -> ");
	sf_ci_md_cell(out, o->new_label);
	sb_adds(out, "\n\n");
	if (d->n) {
		sb_adds(out, "| type | change | size | holes (bytes) | padding | declared |\n"
			"| --- | --- | ---: | ---: | ---: | --- |\n");
	}
	for (size_t i = 0; i < d->n; i++) {
		const struct sf_dtype *t = &d->types[i];
		const struct sf_type *ty = entry_type(t);
		sb_reset(&cell);
		sb_addf(&cell, "%s %s", sf_type_kind_name(ty), ty->name);
		sb_adds(out, "| ");
		sf_ci_md_code(out, cell.buf);
		sb_adds(out, " | ");
		if (t->status == SF_D_CHANGED)
			sb_addf(out, "%s | %" PRIu64 " -> %" PRIu64 " (%+" PRId64 ") | %"
				PRIu64 " -> %" PRIu64 " | %" PRIu64 " -> %" PRIu64 " | ",
				t->growth > 0 ? "grew" : t->growth < 0 ? "shrank" : "changed",
				t->old->size, t->new->size, t->growth, t->old_sum_holes,
				t->new_sum_holes, t->old_padding, t->new_padding);
		else
			sb_addf(out, "%s%s | %" PRIu64 " | | | ", t->status == SF_D_ADDED ?
				"added" : "removed", t->definition ? " definition" : "", ty->size);
		if (has_decl(ty)) {
			sb_reset(&cell);
			sb_addf(&cell, "%s:%u", ty->decl_file, ty->decl_line);
			sf_ci_md_code(out, cell.buf);
		}
		sb_adds(out, " |\n");
	}
	if (d->n)
		sb_addch(out, '\n');
	summary_line(out, d);
	sb_release(&cell);
}

/* A grown type is what --fail-on-growth fails on: an error then, else a
 * warning; every other change is a notice. */
static const char *gh_level(const struct sf_dtype *t, const struct sf_diff_ci_opts *o)
{
	if (t->status == SF_D_CHANGED && t->growth > 0)
		return o->fail_on_growth ? "error" : "warning";
	return "notice";
}

void sf_render_diff_github(struct strbuf *out, const struct sf_diff *d,
			   const struct sf_diff_ci_opts *o)
{
	struct strbuf msg = STRBUF_INIT;

	for (size_t i = 0; i < d->n; i++) {
		const struct sf_dtype *t = &d->types[i];
		const struct sf_type *ty = entry_type(t);
		sb_addf(out, "::%s ", gh_level(t, o));
		/* a removed type's declaration is in the old tree, not this one */
		if (t->new && has_decl(ty)) {
			sb_adds(out, "file=");
			sf_ci_gh_escape(out, ty->decl_file, true);
			sb_addf(out, ",line=%u,", ty->decl_line);
		}
		sb_adds(out, "title=structfit diff::");
		sb_reset(&msg);
		headline(&msg, t);
		sf_ci_gh_escape(out, msg.buf, false);
		sb_addch(out, '\n');
	}
	summary_line(out, d);
	sb_release(&msg);
}

static const char *const sarif_rule_ids[] = { "layout-grew", "layout-changed",
					       "type-added", "type-removed" };

static size_t sarif_rule_of(const struct sf_dtype *t)
{
	if (t->status == SF_D_ADDED)
		return 2;
	if (t->status == SF_D_REMOVED)
		return 3;
	return t->growth > 0 ? 0 : 1;
}

static void sarif_rules(struct strbuf *out)
{
	static const char *const text[] = {
		"The type is larger than in the old build.",
		"The type's layout changed (same size or smaller).",
		"The type is new in this build.",
		"The type is gone from this build.",
	};
	sb_adds(out, ",\"rules\":[");
	for (size_t i = 0; i < 4; i++) {
		sb_addf(out, "%s{\"id\":\"%s\",\"shortDescription\":{\"text\":", i ? "," : "",
			sarif_rule_ids[i]);
		sb_add_json_str(out, text[i]);
		sb_addf(out, "},\"defaultConfiguration\":{\"level\":\"%s\"}}",
			i == 0 ? "warning" : "note");
	}
	sb_addch(out, ']');
}

static void sarif_result(struct strbuf *out, const struct sf_dtype *t,
			 const struct sf_diff_ci_opts *o)
{
	const struct sf_type *ty = entry_type(t);
	size_t rule = sarif_rule_of(t);
	struct strbuf msg = STRBUF_INIT;

	headline(&msg, t);
	sb_addf(out, "{\"ruleId\":\"%s\",\"ruleIndex\":%zu,\"level\":\"%s\","
		"\"message\":{\"text\":", sarif_rule_ids[rule], rule,
		rule == 0 ? (o->fail_on_growth ? "error" : "warning") : "note");
	sb_add_json_str(out, msg.buf);
	sb_addch(out, '}');
	if (t->new && has_decl(ty)) {
		sb_adds(out, ",\"locations\":[{\"physicalLocation\":{\"artifactLocation\":"
			"{\"uri\":");
		sf_ci_sarif_uri(out, ty->decl_file);
		sf_ci_sarif_base(out, ty->decl_file, o->root);
		sb_addf(out, "},\"region\":{\"startLine\":%u}}}]", ty->decl_line);
	}
	sb_addf(out, ",\"properties\":{\"type\":");
	sb_reset(&msg);
	sb_addf(&msg, "%s %s", sf_type_kind_name(ty), ty->name);
	sb_add_json_str(out, msg.buf);
	sb_addf(out, ",\"growth\":%" PRId64 "}}", t->growth);
	sb_release(&msg);
}

void sf_render_diff_sarif(struct strbuf *out, const struct sf_diff *d,
			  const struct sf_diff_ci_opts *o)
{
	sf_ci_sarif_open(out, o->tool_version);
	sarif_rules(out);
	sb_adds(out, "}}");
	sf_ci_sarif_run_frame(out, o->root);
	sb_adds(out, ",\"results\":[");
	for (size_t i = 0; i < d->n; i++) {
		if (i)
			sb_addch(out, ',');
		sarif_result(out, &d->types[i], o);
	}
	sb_adds(out, "]}]}\n");
}

int sf_diff_missing_err(const char *old_label, const char *new_label,
			const char *name, struct sf_err *err)
{
	char both[SF_ERR_MAX];

	snprintf(both, sizeof(both), "%s and %s", old_label ? old_label : "old",
		 new_label ? new_label : "new");
	return sf_error_at(err, both, 0, 0, "type '%s' not found", name);
}
