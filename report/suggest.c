/*
 * suggest.c - text and JSON for `suggest` and `fit` (see suggest.h).
 *
 * The text is a short report a person reads top to bottom: the struct as
 * it is (size, holes, class), the reorder (with its hole map when it is
 * smaller), then the narrowings best first, each with the range its new
 * width holds, then the hole map of the best one.  Hole maps are pahole's
 * format, rendered by report/text.c.  JSON carries the same facts.  The
 * HTML page is the report's facts, then today's layout beside the reorder
 * and beside narrowing #1, each captioned here (report/html.c draws the
 * maps).
 */
#include "suggest.h"

#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "html.h"
#include "reasons.h"
#include "report.h"
#include "live.h"
#include "layout/public.h"

/* ---- small pieces ---------------------------------------------------- */

static const char *plural(uint64_t n)
{
	return n == 1 ? "" : "s";
}

/* "1,000,000", "76.3 MiB": report.h's */
#define add_thousands sf_add_thousands
#define add_bytes_human sf_add_bytes_human

/* "ruby-3.3", or the list itself: "64,80". */
static void add_classes_name(struct strbuf *out, const struct sf_classes *c)
{
	if (strcmp(c->name, "list")) {
		sb_adds(out, c->name);
		return;
	}
	for (size_t i = 0; i < c->n && i < 16; i++)
		sb_addf(out, "%s%" PRIu64, i ? "," : "", c->v[i]);
	if (c->n > 16)
		sb_adds(out, ",...");
}

/* The same as a JSON string, or null. */
static void json_classes_name(struct strbuf *out, const struct sf_classes *c)
{
	struct strbuf name = STRBUF_INIT;

	if (!c) {
		sb_adds(out, "null");
		return;
	}
	add_classes_name(&name, c);
	sb_add_json_str(out, name.buf);
	sb_release(&name);
}

static void add_type_spelling(struct strbuf *out, const struct sf_member *m)
{
	sb_adds(out, m->type_name);
	if (m->type_suffix && *m->type_suffix) {
		/* "void (*" + ")(int)": the declarator without its name */
		sb_adds(out, m->type_suffix);
	}
}

static void json_class(struct strbuf *out, const struct sf_classes *c, size_t i)
{
	if (!c || i == SF_NO_CLASS)
		sb_adds(out, "null");
	else
		sb_addf(out, "%" PRIu64, c->v[i]);
}

static void text_class(struct strbuf *out, const struct sf_classes *c, size_t i)
{
	if (i == SF_NO_CLASS)
		sb_adds(out, "none");
	else
		sb_addf(out, "%" PRIu64, c->v[i]);
}

/* Names of the members of unit u, joined by ", ". */
static void add_unit_names(struct strbuf *out, const struct sf_units *us, size_t u)
{
	const struct sf_unit *un = &us->v[u];

	for (uint32_t k = 0; k < un->count; k++) {
		const struct sf_member *m = &us->type->members[us->members[un->first + k]];
		sb_addf(out, "%s%s", k ? ", " : "", *m->name ? m->name : "(anonymous)");
	}
}

/* After a move whose member keeps its offset: the members that do move,
 * "; in memory: b (16 -> 1), c (20 -> 4)". */
static void text_shifted(struct strbuf *out, const struct sf_units *us,
			 const struct sf_reorder *r)
{
	size_t k = 0;

	for (size_t p = 0; p < r->n; p++) {
		size_t u = r->order[p];
		if (r->moved[u] || us->v[u].offset == r->offset[u])
			continue;
		sb_adds(out, k++ ? ", " : "; in memory: ");
		add_unit_names(out, us, u);
		sb_addf(out, " (%" PRIu64 " -> %" PRIu64 ")", us->v[u].offset, r->offset[u]);
	}
}

/* "M: TYPE -> NEW (F -> T bytes, holds RANGE)" */
static void add_narrowing(struct strbuf *out, const struct sf_type *t, uint32_t member,
			  uint64_t to)
{
	const struct sf_member *m = &t->members[member];
	char range[64];

	sf_narrow_range(m, to, range, sizeof(range));
	sb_addf(out, "%s: ", m->name);
	add_type_spelling(out, m);
	sb_addf(out, " -> %s (%" PRIu64 " -> %" PRIu64 " byte%s, ",
		sf_narrow_type_name(m, to), m->size, to, plural(to));
	/* a pointer, reference or Rust Box (the only struct narrowed) */
	if (m->tclass == SF_T_POINTER || m->tclass == SF_T_STRUCT)
		sb_addf(out, "an index %s in place of the pointer)", range);
	else
		sb_addf(out, "holds %s)", range);
}

static void add_hole_map(struct strbuf *out, const struct sf_type *t,
			 const struct sf_layout *l, unsigned cacheline)
{
	struct sf_text_opts to = { .cacheline = cacheline, .show_origin = false };

	sf_render_text_type(out, t, l, &to);
}

/* ---- suggest: text --------------------------------------------------- */

/* Where header + size lands: f, computed by the caller (layout/classes.h). */
static void text_fit_line(struct strbuf *out, const struct sf_suggest_view *v,
			  const struct sf_fit *f)
{
	if (v->header)
		sb_addf(out, "with the %" PRIu64 "-byte header%s%s%s: %" PRIu64 " bytes, ",
			v->header, v->header_name ? " (" : "",
			v->header_name ? v->header_name : "", v->header_name ? ")" : "",
			f->size);
	if (f->index == SF_NO_CLASS) {
		sb_addf(out, "above every class of ");
		add_classes_name(out, v->classes);
		sb_addf(out, " (%" PRIu64 " bytes over %" PRIu64 ")\n", f->to_next_lower, f->lower);
		return;
	}
	sb_addf(out, "class %" PRIu64 " of ", f->cls);
	add_classes_name(out, v->classes);
	sb_addf(out, " (%" PRIu64 " byte%s lost)", f->waste, plural(f->waste));
	if (f->has_lower)
		sb_addf(out, "; class %" PRIu64 " is %" PRIu64 " byte%s away\n", f->lower,
			f->to_next_lower, plural(f->to_next_lower));
	else
		sb_adds(out, "; the smallest class\n");
}

static void text_header(struct strbuf *out, const struct sf_suggest_view *v)
{
	const struct sf_type *t = v->type;
	const struct sf_layout *l = v->type_layout;

	sb_addf(out, "%s %s: %" PRIu64 " bytes, ", sf_type_kind_name(t), t->name, t->size);
	if (l->nholes)
		sb_addf(out, "%u hole%s (%" PRIu64 " byte%s), ", l->nholes,
			plural(l->nholes), l->sum_holes, plural(l->sum_holes));
	else
		sb_adds(out, "no hole, ");
	if (l->padding)
		sb_addf(out, "%" PRIu64 " byte%s of padding\n", l->padding, plural(l->padding));
	else
		sb_adds(out, "no padding\n");
	if (v->public == SF_PUBLIC_PACKED)
		sb_addf(out, "public format: %s; every change proposed here changes that "
			"format, and whatever reads or writes these bytes elsewhere must change "
			"with it (structfit patch refuses it without --allow-abi-change)\n",
			sf_public_why(SF_PUBLIC_PACKED));
	else if (v->public)
		sb_addf(out, "public ABI: %s; every change proposed here changes that ABI, "
			"and every program built against it must be rebuilt (structfit patch "
			"refuses it without --allow-abi-change)\n",
			sf_public_why((enum sf_public)v->public));
	if (v->classes)
		text_fit_line(out, v, v->type_fit);
	if (v->live)
		sf_render_live_head_text(out, v->live, v->live_now);
}

static void text_applied(struct strbuf *out, const struct sf_suggest_view *v)
{
	for (size_t i = 0; i < v->napplied; i++) {
		sb_adds(out, "narrowed: ");
		add_narrowing(out, v->type, v->applied[i].member, v->applied[i].bytes);
		sb_addch(out, '\n');
	}
	if (v->napplied)
		sb_addf(out, "in place (declarations unchanged): %" PRIu64 " bytes\n",
			v->base->size);
}

static bool bounded(const struct sf_reorder *r)
{
	return r->max_moves != UINT32_MAX;
}

/* Beyond the exact search: which heuristic answered, and that it is one. */
static void text_inexact(struct strbuf *out, const struct sf_units *us,
			 const struct sf_reorder *r)
{
	if (bounded(r))
		sb_addf(out, "  (%zu placement units: beyond the exact search of %d, filling "
			"holes: best within %u move%s found; not proven minimal)\n", us->n,
			SF_REORDER_EXACT_MAX, r->max_moves, plural(r->max_moves));
	else
		sb_addf(out, "  (%zu placement units: beyond the exact search of %d, the "
			"fewest moves found by a heuristic)\n", us->n, SF_REORDER_EXACT_MAX);
}

/* Under --max-moves, what more moves would reach. */
static void text_bound(struct strbuf *out, const struct sf_reorder *r, uint64_t size)
{
	if (bounded(r) && r->min_size < size)
		sb_addf(out, "  (--max-moves %u: more moves reach %" PRIu64 " bytes)\n",
			r->max_moves, r->min_size);
	else if (bounded(r))
		sb_addf(out, "  (--max-moves %u: no more moves needed)\n", r->max_moves);
}

static void text_reorder(struct strbuf *out, const struct sf_suggest_view *v)
{
	const struct sf_reorder *r = v->reorder;
	const struct sf_units *us = v->units;
	uint64_t cur = v->base->size;

	if (us->is_union) {
		sb_adds(out, "\nreorder: the members of a union all start at offset 0; "
			"their order does not matter\n");
		return;
	}
	if (v->compiler_orders) {
		sb_adds(out, "\nreorder: rustc orders the fields of this struct itself (the "
			"default representation:\nthey lie in another order than declared); "
			"nothing to propose\n");
		return;
	}
	if (v->rust && r->size < cur)
		sb_adds(out, "\n(fields in declaration order: taken for #[repr(C)], which "
			"keeps that order;\nwithout it rustc would order them itself)\n");
	if (r->size >= cur && bounded(r)) {
		sb_addf(out, "\nreorder: no order moving at most %u member%s is smaller than %"
			PRIu64 " bytes; nothing to move\n", r->max_moves, plural(r->max_moves), cur);
		text_bound(out, r, cur);
		if (!r->exact)
			text_inexact(out, us, r);
		return;
	}
	if (r->size >= cur) {
		sb_addf(out, "\nreorder: no order of these members is smaller than %" PRIu64
			" bytes; nothing to move\n", cur);
		if (!r->exact)
			text_inexact(out, us, r);
		return;
	}
	sb_addf(out, "\nreorder: %" PRIu64 " -> %" PRIu64 " bytes (saves %" PRIu64
		"), %u move%s:", cur, r->size, cur - r->size, r->moves, plural(r->moves));
	bool stayed = false;
	for (size_t p = 0, k = 0; p < r->n; p++) {
		size_t u = r->order[p];
		if (!r->moved[u])
			continue;
		sb_adds(out, k++ ? ", " : " ");
		add_unit_names(out, us, u);
		if (us->v[u].offset != r->offset[u]) {
			sb_addf(out, " (%" PRIu64 " -> %" PRIu64 ")", us->v[u].offset, r->offset[u]);
			continue;
		}
		/* its declaration moves, its offset does not: the others move
		 * around it (said below), so "stays" is no move of the member */
		sb_adds(out, " (its declaration goes ");
		if (p) {
			sb_adds(out, "after ");
			add_unit_names(out, us, r->order[p - 1]);
		} else {
			sb_adds(out, "first");
		}
		sb_addf(out, "; its offset %" PRIu64 " is unchanged)", r->offset[u]);
		stayed = true;
	}
	if (stayed)
		text_shifted(out, us, r);
	sb_addch(out, '\n');
	text_bound(out, r, r->size);
	if (!r->exact)
		text_inexact(out, us, r);
	if (v->classes)
		text_fit_line(out, v, v->reorder_fit);
	if (v->live)
		sf_render_live_step_text(out, "", v->live, v->live_now, v->live_reorder);
	if (v->proposed) {
		sb_addch(out, '\n');
		add_hole_map(out, v->proposed, v->proposed_layout, v->cacheline);
	}
}

/* The hole of l that [off, off + size) falls in, or NULL. */
static const struct sf_hole *in_hole(const struct sf_layout *l, uint64_t off, uint64_t size)
{
	for (uint32_t i = 0; l && i < l->nholes; i++)
		if (off >= l->holes[i].offset &&
		    off + size <= l->holes[i].offset + l->holes[i].size)
			return &l->holes[i];
	return NULL;
}

/* ", entries_start goes into the hole at offset 3 (was 24)" */
static void text_where(struct strbuf *out, const struct sf_suggest_view *v,
		       const struct sf_narrowing *nw, uint32_t k)
{
	const struct sf_member *m = &v->base->members[nw->member[k]];
	const struct sf_hole *h = in_hole(v->base_layout, nw->offset[k], nw->to[k]);

	sb_addf(out, ", %s ", nw->n > 1 ? m->name : "it");
	if (nw->offset[k] == m->offset)
		sb_addf(out, "stays at offset %" PRIu64, m->offset);
	else if (h)
		sb_addf(out, "goes into the hole at offset %" PRIu64 " (was %" PRIu64 ")",
			h->offset, m->offset);
	else
		sb_addf(out, "goes to offset %" PRIu64 " (was %" PRIu64 ")", nw->offset[k],
			m->offset);
}

/*
 * What narrowing member m to `to` bytes imposes, by what its name says it
 * holds: a count, length or capacity is capped ("at most 255 entries", the
 * noun being the name without its count word), a hint may lag; a pointer
 * made an index is a design change whatever its name.  Empty for other
 * names (the overflow sentence says enough).
 */
static void role_words(char *buf, size_t n, const struct sf_member *m, uint64_t to)
{
	static const char *const counts[] = {
		"num", "nr", "n", "count", "cnt", "len", "length", "size", "sz",
		"cap", "capa", "capacity",
	};
	char range[64], noun[128] = "";
	const char *max;

	sf_narrow_range(m, to, range, sizeof(range));
	max = strstr(range, "..");
	assert(max);
	max += 2;
	buf[0] = '\0';
	switch (sf_member_role(m)) {
	case SF_ROLE_DESIGN:
		snprintf(buf, n, "a design change, not a narrowing: every use of the "
			 "pointer becomes an index into an arena (patch refuses it)");
		return;
	case SF_ROLE_HINT:
		snprintf(buf, n, "a cached position or hint: one that lags at %s costs "
			 "time, not correctness", max);
		return;
	case SF_ROLE_COUNT:
		break;
	default:
		return;
	}
	/* the noun: the name's '_' words that are not a count word */
	for (const char *p = m->name; *p;) {
		size_t len = strcspn(p, "_"), k;
		for (k = 0; k < sizeof(counts) / sizeof(counts[0]); k++)
			if (strlen(counts[k]) == len && !strncasecmp(p, counts[k], len))
				break;
		if (len && k == sizeof(counts) / sizeof(counts[0]) &&
		    strlen(noun) + len + 2 < sizeof(noun)) {
			if (noun[0])
				strcat(noun, "_");
			strncat(noun, p, len);
		}
		p += len + (p[len] == '_');
	}
	if (noun[0])
		snprintf(buf, n, "a limit on the program: at most %s %s (an exact count, "
			 "length or capacity)", max, noun);
	else
		snprintf(buf, n, "a limit on the program: %s at most %s (an exact count, "
			 "length or capacity)", m->name, max);
}

static void text_one_narrowing(struct strbuf *out, const struct sf_suggest_view *v,
			       const struct sf_narrowing *nw, size_t rank)
{
	const struct sf_type *b = v->base;
	uint64_t cur = v->type->size;

	sb_addf(out, "  %zu. ", rank);
	for (uint32_t k = 0; k < nw->n; k++) {
		if (k)
			sb_adds(out, "\n     + ");
		add_narrowing(out, b, nw->member[k], nw->to[k]);
	}
	sb_addf(out, "\n     %" PRIu64 " -> %" PRIu64 " bytes (saves %" PRIu64, cur,
		nw->size, nw->saved);
	if (v->reorder->size < b->size || v->napplied)
		sb_addf(out, "; without it: %" PRIu64, v->reorder->size < b->size ?
			v->reorder->size : b->size);
	sb_adds(out, ")");
	for (uint32_t k = 0; k < nw->n; k++)
		text_where(out, v, nw, k);
	sb_addf(out, "; %u move%s", nw->moves, plural(nw->moves));
	if (v->classes) {
		sb_adds(out, "\n     ");
		if (v->header)
			sb_addf(out, "header + struct %" PRIu64 " -> %" PRIu64 ": ",
				v->header + cur, v->header + nw->size);
		sb_adds(out, "class ");
		text_class(out, v->classes, nw->class_before);
		sb_adds(out, " -> ");
		text_class(out, v->classes, nw->class_after);
	}
	if (!nw->exact)
		sb_adds(out, " (placement by heuristic)");
	if (v->live) {
		struct strbuf line = STRBUF_INIT;
		sf_render_live_step_text(&line, "\n     ", v->live, v->live_now,
					 &v->live_narrow[nw - v->narrow->v]);
		/* without its newline: each line here starts with one */
		sb_add(out, line.buf, line.len - 1);
		sb_release(&line);
	}
	for (uint32_t k = 0; k < nw->n; k++) {
		char what[256];
		sf_narrow_overflow(&b->members[nw->member[k]], nw->to[k], what, sizeof(what));
		sb_addf(out, "\n     %s%s%s", nw->n > 1 ? b->members[nw->member[k]].name : "",
			nw->n > 1 ? " " : "", what);
		role_words(what, sizeof(what), &b->members[nw->member[k]], nw->to[k]);
		if (what[0])
			sb_addf(out, "\n     %s%s%s", nw->n > 1 ? b->members[nw->member[k]].name : "",
				nw->n > 1 ? " " : "", what);
	}
	sb_addch(out, '\n');
}

/* Narrowings (and pairs) listed in text; JSON lists them all. */
#define TEXT_MAX 10

/*
 * Before the first of several narrowings that tie (the same class, size
 * and widths: only their names order them), say that they are
 * alternatives: "1-3 are alternatives ...".  `first` is its rank.
 */
static void text_alternatives(struct strbuf *out, const struct sf_narrow_result *nr,
			      size_t i, uint32_t arity, size_t first, size_t room)
{
	size_t n = 1;

	for (size_t j = i; j-- > 0;)
		if (nr->v[j].n == arity)
			if (sf_narrowings_tie(&nr->v[j], &nr->v[i]))
				return;   /* not the first of its group */
	for (size_t j = i + 1; j < nr->n && n < room; j++)
		if (nr->v[j].n == arity && sf_narrowings_tie(&nr->v[j], &nr->v[i]))
			n++;
	if (n < 2)
		return;
	sb_addf(out, "  %zu-%zu are alternatives: each saves the same %" PRIu64 " byte%s; "
		"choose one (cached positions\n  and hints first, exact counts last)\n",
		first, first + n - 1, nr->v[i].saved, plural(nr->v[i].saved));
}

static void text_list(struct strbuf *out, const struct sf_suggest_view *v,
		      uint32_t arity, size_t *rank)
{
	const struct sf_narrow_result *nr = v->narrow;
	size_t shown = 0, more = 0;

	for (size_t i = 0; i < nr->n; i++) {
		if (nr->v[i].n != arity)
			continue;
		if (shown == TEXT_MAX) {
			more++;
			continue;
		}
		text_alternatives(out, nr, i, arity, *rank + 1, TEXT_MAX - shown);
		text_one_narrowing(out, v, &nr->v[i], ++*rank);
		shown++;
	}
	if (more)
		sb_addf(out, "  ... and %zu more %s (--format json lists them all)\n", more,
			arity == 1 ? "narrowings" : "pairs");
}

static void text_narrowings(struct strbuf *out, const struct sf_suggest_view *v)
{
	const struct sf_narrow_result *nr = v->narrow;
	size_t singles = 0, pairs = 0, rank = 0;

	for (size_t i = 0; i < nr->n; i++) {
		singles += nr->v[i].n == 1;
		pairs += nr->v[i].n == 2;
	}
	if (!singles && nr->cut) {
		sb_addf(out, "\nnarrowings: none of the %zu searched saves a byte\n",
			nr->searched);
	} else if (!singles) {
		sb_adds(out, "\nnarrowings: narrowing one member saves no byte");
		sb_adds(out, nr->pairs_searched && !pairs ?
			", nor does a pair reach a smaller class\n" : "\n");
	} else {
		sb_adds(out, "\nnarrowings that save bytes, best first (structfit cannot know "
			"the values a member\nholds: check that every value fits the range "
			"given):\n");
		text_list(out, v, 1, &rank);
	}
	if (pairs) {
		sb_adds(out, "\nno single narrowing reaches a smaller class; pairs that do:\n");
		text_list(out, v, 2, &rank);
	}
	if (nr->cut)
		sb_addf(out, "  (the search's work budget ran out: %zu of %zu narrowings searched, "
			"largest members first;\n  the best found, not proven best)\n",
			nr->searched, nr->candidates);
	if (v->best && nr->n) {
		const struct sf_narrowing *nw = &nr->v[0];
		sb_addf(out, "\n%s %s with ", sf_type_kind_name(v->base), v->base->name);
		for (uint32_t k = 0; k < nw->n; k++)
			sb_addf(out, "%s%s as %s", k ? " and " : "",
				v->base->members[nw->member[k]].name,
				sf_narrow_type_name(&v->base->members[nw->member[k]], nw->to[k]));
		sb_adds(out, ", placed for the fewest moves:\n");
		add_hole_map(out, v->best, v->best_layout, v->cacheline);
	}
}

/* The class index of the type as it is (SF_NO_CLASS without classes). */
static size_t type_class(const struct sf_suggest_view *v)
{
	return v->classes ? v->type_fit->index : SF_NO_CLASS;
}

/* "     [header + struct A -> B: ]class X -> Y", as under a narrowing:
 * the type as it is against `size` bytes, in class `cls`. */
static void text_class_change(struct strbuf *out, const struct sf_suggest_view *v,
			      uint64_t size, size_t cls)
{
	uint64_t cur = v->type->size;

	if (!v->classes)
		return;
	sb_adds(out, "     ");
	if (v->header)
		sb_addf(out, "header + struct %" PRIu64 " -> %" PRIu64 ": ",
			v->header + cur, v->header + size);
	sb_adds(out, "class ");
	text_class(out, v->classes, type_class(v));
	sb_adds(out, " -> ");
	text_class(out, v->classes, cls);
	sb_addch(out, '\n');
}

/* Rust: Options a NonNull makes as small as their pointer. */
static void text_niches(struct strbuf *out, const struct sf_suggest_view *v)
{
	if (!v->nniches)
		return;
	sb_adds(out, "\nniches (an Option whose payload cannot be null needs no tag):\n");
	for (size_t i = 0; i < v->nniches; i++) {
		const struct sf_niche *n = &v->niches[i];
		uint64_t size = v->niche_size[i];
		sb_addf(out, "  %zu. %s: %s %" PRIu64 " -> %" PRIu64 " bytes: hold a "
			"NonNull in %s in place of %s\n", i + 1,
			v->type->members[n->member].name, n->option, n->from, n->to,
			n->payload, n->pointer);
		sb_addf(out, "     %" PRIu64 " -> %" PRIu64 " bytes", v->type->size, size);
		if (size < v->type->size)
			sb_addf(out, " (saves %" PRIu64 ")", v->type->size - size);
		sb_adds(out, "\n");
		text_class_change(out, v, size, v->classes ? v->niche_class[i] : SF_NO_CLASS);
	}
}

/* Rust: what #[repr(packed)] would give, and what it costs. */
static void text_packed(struct strbuf *out, const struct sf_suggest_view *v)
{
	uint64_t size = v->packed_size;

	if (!v->rust || size >= v->type->size || v->type->kind == SF_KIND_UNION)
		return;
	sb_addf(out, "\n#[repr(packed)] what-if: %" PRIu64 " -> %" PRIu64 " bytes (saves %"
		PRIu64 "), alignment 1.\n  The price: the compiler refuses references to its "
		"fields (copy them out first),\n  and every field not at its natural alignment "
		"is read and written with unaligned loads.\n", v->type->size, size,
		v->type->size - size);
	text_class_change(out, v, size, v->packed_class);
}

/*
 * The #if blocks of the definition: with --source-root, kept whole in the
 * reorder above (which names them); without, one line when keeping them
 * whole, as patch does, costs part of the saving.
 */
static void text_ifblocks(struct strbuf *out, const struct sf_suggest_view *v)
{
	const struct sf_reorder *r = v->reorder;

	if (!v->nifblocks || v->units->is_union || v->compiler_orders)
		return;
	if (v->if_kept) {
		sb_addf(out, "#if block%s in %s kept whole, as patch keeps them:",
			plural((uint32_t)v->nifblocks), v->if_file);
		for (size_t i = 0; i < v->nifblocks; i++)
			sb_addf(out, "%s lines %u-%u %s", i ? ";" : "", v->ifblocks[i].if_line,
				v->ifblocks[i].endif_line, v->ifblocks[i].pinned ?
				"stay in place" : "may move as one unit");
		sb_addch(out, '\n');
		return;
	}
	if (r->size >= v->base->size || v->if_size <= r->size)
		return;
	sb_addf(out, "#if blocks may cost part of the saving: with those of %s kept whole, "
		"as patch keeps them, the smallest order is %" PRIu64 " bytes (--source-root "
		"DIR promises what patch writes)\n", v->if_file, v->if_size);
}

void sf_render_suggest_text(struct strbuf *out, const struct sf_suggest_view *v)
{
	text_header(out, v);
	text_applied(out, v);
	if (!v->reorder) {
		sb_addf(out, "\nnothing proposed: this layout is not what the C rules give for "
			"its members\n(packed or aligned attributes, C++ tail padding?), so "
			"structfit cannot tell\nwhat another order or width would give\n");
		return;
	}
	text_reorder(out, v);
	text_ifblocks(out, v);
	text_narrowings(out, v);
	text_niches(out, v);
	text_packed(out, v);
}

/* ---- suggest: JSON --------------------------------------------------- */

static void json_narrow_item(struct strbuf *out, const struct sf_type *t,
			     uint32_t member, uint64_t to)
{
	const struct sf_member *m = &t->members[member];
	char range[64];

	sf_narrow_range(m, to, range, sizeof(range));
	sb_adds(out, "\"member\":");
	sb_add_json_str(out, m->name);
	sb_addf(out, ",\"from\":%" PRIu64 ",\"to\":%" PRIu64 ",\"type\":", m->size, to);
	sb_add_json_str(out, sf_narrow_type_name(m, to));
	sb_adds(out, ",\"range\":");
	sb_add_json_str(out, range);
}

static void json_reorder(struct strbuf *out, const struct sf_suggest_view *v)
{
	const struct sf_reorder *r = v->reorder;
	const struct sf_units *us = v->units;
	bool smaller = r->size < v->base->size;
	uint64_t size = smaller ? r->size : v->base->size;

	sb_addf(out, "\"reorder\":{\"size\":%" PRIu64 ",\"saved\":%" PRIu64
		",\"moves\":%u,\"order\":[", size, v->base->size - size,
		smaller ? r->moves : 0);
	size_t k = 0;
	for (size_t p = 0; p < r->n; p++) {
		const struct sf_unit *u = &us->v[smaller ? r->order[p] : p];
		for (uint32_t j = 0; j < u->count; j++) {
			sb_adds(out, k++ ? "," : "");
			sb_add_json_str(out, us->type->members[us->members[u->first + j]].name);
		}
	}
	if (us->flex != UINT32_MAX) {
		sb_adds(out, k ? "," : "");
		sb_add_json_str(out, us->type->members[us->flex].name);
	}
	sb_adds(out, "],\"moved\":[");
	k = 0;
	for (size_t p = 0; smaller && p < r->n; p++) {
		size_t u = r->order[p];
		if (!r->moved[u])
			continue;
		sb_adds(out, k++ ? ",{\"members\":[" : "{\"members\":[");
		for (uint32_t j = 0; j < us->v[u].count; j++) {
			sb_adds(out, j ? "," : "");
			sb_add_json_str(out, us->type->members[us->members[us->v[u].first + j]].name);
		}
		sb_addf(out, "],\"from\":%" PRIu64 ",\"to\":%" PRIu64 "}", us->v[u].offset,
			r->offset[u]);
	}
	sb_addf(out, "],\"exact\":%s,\"class\":", r->exact ? "true" : "false");
	json_class(out, v->classes, !v->classes ? SF_NO_CLASS :
		   smaller ? v->reorder_fit->index : v->base_class);
	if (r->max_moves == UINT32_MAX)
		sb_adds(out, ",\"max_moves\":null");
	else
		sb_addf(out, ",\"max_moves\":%u", r->max_moves);
	sb_addf(out, ",\"min_size\":%" PRIu64, r->min_size < size ? r->min_size : size);
	if (v->live) {
		sb_adds(out, ",\"live\":");
		sf_render_live_step_json(out, v->live, v->live_now, v->live_reorder);
	}
	sb_addch(out, '}');
}

static void json_narrowing_common(struct strbuf *out, const struct sf_suggest_view *v,
				  const struct sf_narrowing *nw)
{
	sb_addf(out, ",\"size\":%" PRIu64 ",\"saved\":%" PRIu64 ",\"moves\":%u"
		",\"class_before\":", nw->size, nw->saved, nw->moves);
	json_class(out, v->classes, nw->class_before);
	sb_adds(out, ",\"class_after\":");
	json_class(out, v->classes, nw->class_after);
	sb_addf(out, ",\"exact\":%s", nw->exact ? "true" : "false");
	if (v->live) {
		sb_adds(out, ",\"live\":");
		sf_render_live_step_json(out, v->live, v->live_now,
					 &v->live_narrow[nw - v->narrow->v]);
	}
	sb_addch(out, '}');
}

/* ,"grows":B,"if_not_fit":"..." for a proposed narrowing */
static void json_if_not_fit(struct strbuf *out, const struct sf_type *t, uint32_t member,
			    uint64_t to)
{
	char what[256];

	sf_narrow_overflow(&t->members[member], to, what, sizeof(what));
	static const char *const roles[] = { "hint", "plain", "grows", "count", "design" };
	sb_addf(out, ",\"grows\":%s,\"role\":\"%s\",\"if_not_fit\":",
		sf_name_grows(t->members[member].name) ? "true" : "false",
		roles[sf_member_role(&t->members[member])]);
	sb_add_json_str(out, what);
	role_words(what, sizeof(what), &t->members[member], to);
	sb_adds(out, ",\"limit\":");
	if (what[0])
		sb_add_json_str(out, what);
	else
		sb_adds(out, "null");
}

static void json_narrowings(struct strbuf *out, const struct sf_suggest_view *v)
{
	const struct sf_narrow_result *nr = v->narrow;
	size_t k = 0;

	sb_adds(out, ",\"narrowings\":[");
	for (size_t i = 0; nr && i < nr->n; i++) {
		const struct sf_narrowing *nw = &nr->v[i];
		if (nw->n != 1)
			continue;
		sb_adds(out, k++ ? ",\n{" : "\n{");
		json_narrow_item(out, v->base, nw->member[0], nw->to[0]);
		sb_addf(out, ",\"offset\":%" PRIu64 ",\"was\":%" PRIu64, nw->offset[0],
			v->base->members[nw->member[0]].offset);
		json_if_not_fit(out, v->base, nw->member[0], nw->to[0]);
		json_narrowing_common(out, v, nw);
	}
	sb_addf(out, "],\n\"narrowings_searched\":{\"candidates\":%zu,\"searched\":%zu,"
		"\"cut\":%s},\"pairs_searched\":%s,\"pairs\":[", nr ? nr->candidates : 0,
		nr ? nr->searched : 0, nr && nr->cut ? "true" : "false",
		nr && nr->pairs_searched ? "true" : "false");
	k = 0;
	for (size_t i = 0; nr && i < nr->n; i++) {
		const struct sf_narrowing *nw = &nr->v[i];
		if (nw->n != 2)
			continue;
		sb_adds(out, k++ ? ",\n{\"narrow\":[" : "\n{\"narrow\":[");
		for (uint32_t j = 0; j < 2; j++) {
			sb_adds(out, j ? ",{" : "{");
			json_narrow_item(out, v->base, nw->member[j], nw->to[j]);
			sb_addf(out, ",\"offset\":%" PRIu64 ",\"was\":%" PRIu64,
				nw->offset[j], v->base->members[nw->member[j]].offset);
			json_if_not_fit(out, v->base, nw->member[j], nw->to[j]);
			sb_adds(out, "}");
		}
		sb_adds(out, "]");
		json_narrowing_common(out, v, nw);
	}
	sb_adds(out, "]");
}

/* "rust": whether rustc orders the fields, the niches, repr(packed). */
static void json_rust(struct strbuf *out, const struct sf_suggest_view *v)
{
	sb_addf(out, ",\n\"rust\":{\"compiler_orders\":%s,\"niches\":[",
		v->compiler_orders ? "true" : "false");
	for (size_t i = 0; i < v->nniches; i++) {
		const struct sf_niche *n = &v->niches[i];
		sb_adds(out, i ? ",{\"member\":" : "{\"member\":");
		sb_add_json_str(out, v->type->members[n->member].name);
		sb_adds(out, ",\"option\":");
		sb_add_json_str(out, n->option);
		sb_adds(out, ",\"payload\":");
		sb_add_json_str(out, n->payload);
		sb_adds(out, ",\"pointer\":");
		sb_add_json_str(out, n->pointer);
		sb_addf(out, ",\"from\":%" PRIu64 ",\"to\":%" PRIu64 ",\"size\":%" PRIu64
			",\"saved\":%" PRIu64 "}", n->from, n->to, v->niche_size[i],
			v->type->size > v->niche_size[i] ? v->type->size - v->niche_size[i] : 0);
	}
	sb_addf(out, "],\"packed\":{\"size\":%" PRIu64 ",\"saved\":%" PRIu64
		",\"price\":\"no references to its fields; unaligned loads\"}}",
		v->packed_size, v->type->size - v->packed_size);
}

void sf_render_suggest_json(struct strbuf *out, const struct sf_suggest_view *v)
{
	const struct sf_type *t = v->type;

	sf_json_doc_open(out, "suggest");
	sb_adds(out, "\"name\":");
	sb_add_json_str(out, t->name);
	sb_adds(out, ",\"public\":");
	if (v->public) {
		sb_add_json_str(out, sf_public_word((enum sf_public)v->public));
		sb_adds(out, ",\"public_why\":");
		sb_add_json_str(out, sf_public_why((enum sf_public)v->public));
	} else {
		sb_adds(out, "null,\"public_why\":null");
	}
	sb_addf(out, ",\"kind\":\"%s\",\"size\":%" PRIu64 ",\"align\":%u,\"header\":%" PRIu64
		",\"header_name\":", sf_type_kind_name(t), t->size, t->align, v->header);
	if (v->header_name)
		sb_add_json_str(out, v->header_name);
	else
		sb_adds(out, "null");
	sb_adds(out, ",\"classes\":");
	json_classes_name(out, v->classes);
	sb_adds(out, ",\"class\":");
	json_class(out, v->classes, type_class(v));
	sb_addf(out, ",\"modeled\":%s,\"applied\":[", v->reorder ? "true" : "false");
	for (size_t i = 0; i < v->napplied; i++) {
		sb_adds(out, i ? ",{" : "{");
		json_narrow_item(out, t, v->applied[i].member, v->applied[i].bytes);
		sb_adds(out, "}");
	}
	sb_addf(out, "],\"base_size\":%" PRIu64 ",\n", v->base->size);
	if (v->live) {
		sb_adds(out, "\"live\":");
		sf_render_live_head_json(out, v->live, v->live_now);
		sb_adds(out, ",\n");
	}
	if (v->reorder)
		json_reorder(out, v);
	else
		sb_adds(out, "\"reorder\":null");
	json_narrowings(out, v);
	if (v->rust)
		json_rust(out, v);
	sb_adds(out, "}\n");
}

/* ---- suggest: HTML report --------------------------------------------- */

/* "class 80 -> 64", "class 80 -> none", or "" without classes. */
static void html_class_change(struct strbuf *out, const struct sf_suggest_view *v,
			      size_t before, size_t after)
{
	if (!v->classes)
		return;
	sb_adds(out, "class ");
	text_class(out, v->classes, before);
	sb_adds(out, " -&gt; ");
	text_class(out, v->classes, after);
}

static void html_data_class(struct strbuf *out, const char *attr,
			    const struct sf_suggest_view *v, size_t i)
{
	if (v->classes && i != SF_NO_CLASS)
		sb_addf(out, " %s=\"%" PRIu64 "\"", attr, v->classes->v[i]);
}

/* The proposal rows being written; `best` keeps the first one's words. */
struct html_rows {
	struct strbuf *out;
	const struct sf_suggest_view *v;
	size_t n;
	struct strbuf best;      /* "entries_start: ... -> uint8_t: 48 -> 40 bytes" */
};

/* One proposal row: kind, what changes (HTML), the range it holds, sizes, class. */
static void html_row(struct html_rows *h, const char *kind, const char *change_html,
		     const char *holds, const char *range_attr, uint64_t size,
		     size_t cb, size_t ca, const char *moves)
{
	struct strbuf *out = h->out;
	const struct sf_suggest_view *v = h->v;
	uint64_t cur = v->type->size, saved = cur > size ? cur - size : 0;

	h->n++;
	sb_addf(out, "<tr class=\"proposal\" data-kind=\"%s\" data-rank=\"%zu\" "
		"data-size=\"%" PRIu64 "\" data-saved=\"%" PRIu64 "\"", kind, h->n, size, saved);
	html_data_class(out, "data-class-before", v, cb);
	html_data_class(out, "data-class-after", v, ca);
	if (range_attr) {
		sb_adds(out, " data-range=\"");
		sb_add_xml(out, range_attr);
		sb_addch(out, '"');
	}
	sb_addf(out, "><td>%zu</td><td>%s</td><td class=\"holds\">", h->n, change_html);
	sb_add_xml(out, holds);
	sb_addf(out, "</td><td>%" PRIu64 " -&gt; %" PRIu64 " bytes</td><td class=\"saved\">%"
		PRIu64 "</td><td class=\"class\">", cur, size, saved);
	html_class_change(out, v, cb, ca);
	sb_addf(out, "</td><td>%s</td></tr>\n", moves);
	if (h->n > 1)
		return;
	sb_addf(&h->best, "%s", change_html);
	if (*holds) {
		sb_adds(&h->best, " (holds ");
		sb_add_xml(&h->best, holds);
		sb_adds(&h->best, ")");
	}
	sb_addf(&h->best, ": %" PRIu64 " -&gt; %" PRIu64 " bytes (saves %" PRIu64 ")", cur,
		size, saved);
	if (v->classes) {
		sb_adds(&h->best, ", ");
		html_class_change(&h->best, v, cb, ca);
	}
}

static void html_narrowing_row(struct html_rows *h, const struct sf_narrowing *nw)
{
	const struct sf_suggest_view *v = h->v;
	struct strbuf change = STRBUF_INIT, holds = STRBUF_INIT, ranges = STRBUF_INIT;
	char range[64], moves[32];

	for (uint32_t k = 0; k < nw->n; k++) {
		const struct sf_member *m = &v->base->members[nw->member[k]];
		struct strbuf one = STRBUF_INIT;
		sf_narrow_range(m, nw->to[k], range, sizeof(range));
		sb_addf(&ranges, "%s%s", k ? ";" : "", range);
		sb_addf(&holds, "%s%s", k ? "; " : "", range);
		sb_adds(&change, k ? " + " : "");
		sb_adds(&one, m->name);
		sb_adds(&one, ": ");
		add_type_spelling(&one, m);
		sb_addf(&one, " -> %s", sf_narrow_type_name(m, nw->to[k]));
		sb_add_xml(&change, one.buf);
		sb_release(&one);
	}
	snprintf(moves, sizeof(moves), "%u", nw->moves);
	html_row(h, nw->n == 1 ? "narrowing" : "pair", change.buf, holds.buf, ranges.buf,
		 nw->size, nw->class_before, nw->class_after, moves);
	sb_release(&change);
	sb_release(&holds);
	sb_release(&ranges);
}

/* The rows, in the text's order: reorder, narrowings, pairs, niches, packed. */
static void html_proposals(struct html_rows *h)
{
	const struct sf_suggest_view *v = h->v;
	const struct sf_reorder *r = v->reorder;
	uint64_t cur = v->type->size;
	char moves[32];

	if (r->size < v->base->size) {
		snprintf(moves, sizeof(moves), "%u", r->moves);
		html_row(h, "reorder", v->napplied ? "reorder the members (after the narrowings "
			 "applied)" : "reorder the members", "", NULL, r->size,
			 type_class(v), v->classes ? v->reorder_fit->index : SF_NO_CLASS, moves);
	}
	for (uint32_t arity = 1; arity <= 2; arity++)
		for (size_t i = 0; v->narrow && i < v->narrow->n; i++)
			if (v->narrow->v[i].n == arity)
				html_narrowing_row(h, &v->narrow->v[i]);
	for (size_t i = 0; i < v->nniches; i++) {
		const struct sf_niche *n = &v->niches[i];
		struct strbuf change = STRBUF_INIT, one = STRBUF_INIT;
		sb_addf(&one, "%s: %s holds a NonNull in %s in place of %s",
			v->type->members[n->member].name, n->option, n->payload, n->pointer);
		sb_add_xml(&change, one.buf);
		html_row(h, "niche", change.buf, "", NULL, v->niche_size[i], type_class(v),
			 v->classes ? v->niche_class[i] : SF_NO_CLASS, "-");
		sb_release(&change);
		sb_release(&one);
	}
	if (v->rust && v->packed_size < cur && v->type->kind != SF_KIND_UNION)
		html_row(h, "packed", "#[repr(packed)] (no references to its fields; "
			 "unaligned loads)", "", NULL, v->packed_size, type_class(v),
			 v->packed_class, "-");
}

/* The verdict: what to do, or that there is nothing to change, and why. */
static void html_verdict(struct strbuf *out, const struct sf_suggest_view *v,
			 const struct html_rows *h)
{
	const char *what = !v->reorder ? "unmodeled" : h->n ? "change" : "nothing";

	sb_addf(out, "<p class=\"verdict\" data-verdict=\"%s\"", what);
	if (v->public)
		sb_addf(out, " data-public=\"%s\"", sf_public_word((enum sf_public)v->public));
	sb_addch(out, '>');
	if (v->public && h->n)
		sb_addf(out, "Public %s: %s; each proposal below changes it. ",
			v->public == SF_PUBLIC_PACKED ? "format" : "ABI",
			sf_public_why((enum sf_public)v->public));
	if (!v->reorder) {
		sb_adds(out, "Nothing proposed: this layout is not what the C rules give for "
			"its members (packed or aligned attributes, C++ tail padding?), so "
			"structfit cannot tell what another order or width would give.");
	} else if (!h->n) {
		sb_addf(out, "Nothing to change: %s, and narrowing no member%s saves a byte.",
			v->units && v->units->is_union ? "the members of a union all start at "
			"offset 0" : "no order of these members is smaller", v->narrow &&
			v->narrow->pairs_searched ? " (nor a pair)" : "");
	} else {
		sb_addf(out, "Best: %s.  %zu proposal%s below, best first; structfit cannot "
			"know the values a member holds: check that every value fits the "
			"range given.", h->best.buf, h->n, plural(h->n));
	}
	sb_adds(out, "</p>\n");
}

void sf_render_suggest_html_report(struct strbuf *out, const struct sf_suggest_view *v)
{
	struct sf_suggest_view plain = *v;
	struct strbuf text = STRBUF_INIT, rows = STRBUF_INIT;
	struct html_rows h = { &rows, v, 0, STRBUF_INIT };

	if (v->reorder)
		html_proposals(&h);
	sb_adds(out, "<section class=\"suggest-report\">\n");
	html_verdict(out, v, &h);
	if (h.n) {
		sb_adds(out, "<table class=\"proposals\">\n<tr><th>#</th><th>change</th>"
			"<th>holds</th><th>size</th><th>saves</th><th>size class</th>"
			"<th>moves</th></tr>\n");
		sb_add(out, rows.buf, rows.len);
		sb_adds(out, "</table>\n");
	}
	/* every fact of the text report; the hole maps are drawn below instead */
	plain.proposed = NULL;
	plain.best = NULL;
	sf_render_suggest_text(&text, &plain);
	sb_adds(out, "<pre class=\"report\">");
	sb_add_xml(out, text.buf);
	sb_adds(out, "</pre>\n</section>\n");
	sb_release(&text);
	sb_release(&rows);
	sb_release(&h.best);
}

/* "; class 80 -> 64" for a caption, when there are classes. */
static void caption_class(struct strbuf *cap, const struct sf_suggest_view *v,
			  uint64_t from, uint64_t to)
{
	if (!v->classes)
		return;
	size_t a = sf_classes_find(v->classes, v->header + from);
	size_t b = sf_classes_find(v->classes, v->header + to);
	sb_adds(cap, "; class ");
	if (a == SF_NO_CLASS)
		sb_adds(cap, "none");
	else
		sb_addf(cap, "%llu", (unsigned long long)v->classes->v[a]);
	if (b == SF_NO_CLASS)
		sb_adds(cap, " -> none");
	else
		sb_addf(cap, " -> %llu", (unsigned long long)v->classes->v[b]);
}

/* "reorder after the narrowings: 48 -> 40 bytes, 2 moves; class ..." */
static void caption_reorder(struct strbuf *cap, const struct sf_suggest_view *v)
{
	const struct sf_type *t = v->type;

	sb_addf(cap, "reorder%s: %llu -> %llu bytes, %u move%s",
		v->base != t ? " after the narrowings" : "",
		(unsigned long long)t->size, (unsigned long long)v->reorder->size,
		v->reorder->moves, v->reorder->moves == 1 ? "" : "s");
	caption_class(cap, v, t->size, v->reorder->size);
}

/* "narrowing 1: a as uint8_t and b as uint16_t: 48 -> 40 bytes; class ..." */
static void caption_narrowing(struct strbuf *cap, const struct sf_suggest_view *v)
{
	const struct sf_narrowing *nw = &v->narrow->v[0];

	sb_adds(cap, "narrowing 1:");
	for (uint32_t k = 0; k < nw->n; k++)
		sb_addf(cap, "%s %s as %s", k ? " and" : "",
			v->base->members[nw->member[k]].name,
			sf_narrow_type_name(&v->base->members[nw->member[k]], nw->to[k]));
	sb_addf(cap, ": %llu -> %llu bytes", (unsigned long long)v->type->size,
		(unsigned long long)nw->size);
	caption_class(cap, v, v->type->size, nw->size);
}

void sf_render_suggest_html_page(struct strbuf *out, const struct sf_suggest_view *v)
{
	const struct sf_type *t = v->type;
	struct strbuf cap = STRBUF_INIT;
	int shown = 0;

	sb_addf(&cap, "structfit suggest: %s %s", sf_type_kind_name(t), t->name);
	sf_render_html_begin(out, cap.buf);
	sf_render_suggest_html_report(out, v);
	if (v->proposed) {
		assert(v->reorder);
		sb_reset(&cap);
		caption_reorder(&cap, v);
		sf_render_html_compare(out, t, v->type_layout, v->proposed,
				       v->proposed_layout, v->cacheline, cap.buf);
		shown++;
	}
	if (v->best) {
		assert(v->narrow && v->narrow->n);
		sb_reset(&cap);
		caption_narrowing(&cap, v);
		sf_render_html_compare(out, t, v->type_layout, v->best, v->best_layout,
				       v->cacheline, cap.buf);
		shown++;
	}
	if (!shown)
		sf_render_html_type(out, t, v->type_layout, v->cacheline);
	sf_render_html_end(out);
	sb_release(&cap);
}

/* ---- fit ------------------------------------------------------------- */

static void text_fit_sum(struct strbuf *out, const struct sf_fit_view *v)
{
	for (size_t i = 0; i < v->nitems; i++)
		sb_addf(out, "%s%s %" PRIu64, i ? " + " : "", v->items[i].name,
			v->items[i].size);
	if (v->overhead)
		sb_addf(out, " + overhead %" PRIu64, v->overhead);
	if (v->nitems > 1 || v->overhead)
		sb_addf(out, " = %" PRIu64, v->fit->size);
	sb_addf(out, " byte%s\n", plural(v->fit->size));
	for (size_t i = 0; i < v->nitems; i++) {
		const struct sf_fit_item *it = &v->items[i];
		if (!it->nnarrowed && !it->reordered)
			continue;
		sb_addf(out, "  %s: %" PRIu64 " bytes as declared; ", it->name,
			it->declared_size);
		for (size_t k = 0; k < it->nnarrowed; k++) {
			const struct sf_member *m = &it->type->members[it->narrowed[k].member];
			sb_addf(out, "%s%s as %s", k ? ", " : "", m->name,
				sf_narrow_type_name(m, it->narrowed[k].bytes));
		}
		if (it->reordered)
			sb_addf(out, "%sreordered", it->nnarrowed ? ", " : "");
		else if (it->nnarrowed)
			sb_adds(out, " in place");
		sb_addch(out, '\n');
	}
}

void sf_render_fit_text(struct strbuf *out, const struct sf_fit_view *v)
{
	const struct sf_fit *f = v->fit;

	text_fit_sum(out, v);
	if (f->index == SF_NO_CLASS) {
		sb_adds(out, "no class: larger than every class of ");
		add_classes_name(out, v->classes);
		sb_addf(out, " (%" PRIu64 " bytes over the largest, %" PRIu64 ")\n",
			f->to_next_lower, f->lower);
	} else {
		sb_addf(out, "class %" PRIu64 " of ", f->cls);
		add_classes_name(out, v->classes);
		sb_addf(out, ": %" PRIu64 " byte%s lost to rounding (%.1f%%)\n", f->waste,
			plural(f->waste), f->cls ? 100.0 * (double)f->waste / (double)f->cls : 0.0);
		if (f->has_lower)
			sb_addf(out, "next smaller class %" PRIu64 ": %" PRIu64 " byte%s to go\n",
				f->lower, f->to_next_lower, plural(f->to_next_lower));
		else
			sb_adds(out, "already the smallest class\n");
	}
	if (v->count) {
		uint64_t each = f->index == SF_NO_CLASS ? f->size : f->cls;
		add_thousands(out, v->count);
		sb_addf(out, " instance%s: ", plural(v->count));
		add_bytes_human(out, v->count * each);
		if (f->index != SF_NO_CLASS) {
			sb_adds(out, ", ");
			add_bytes_human(out, v->count * f->waste);
			sb_adds(out, " lost to rounding");
		}
		sb_addch(out, '\n');
	}
	if (v->live) {
		sf_render_live_head_text(out, v->live, v->live_declared);
		sf_render_live_step_text(out, "", v->live, v->live_declared, v->live_candidate);
	}
}

void sf_render_fit_json(struct strbuf *out, const struct sf_fit_view *v)
{
	const struct sf_fit *f = v->fit;

	sf_json_doc_open(out, "fit");
	sb_adds(out, "\"types\":[");
	for (size_t i = 0; i < v->nitems; i++) {
		const struct sf_fit_item *it = &v->items[i];
		sb_adds(out, i ? ",{\"name\":" : "{\"name\":");
		sb_add_json_str(out, it->type->name);
		sb_addf(out, ",\"kind\":\"%s\",\"given\":", sf_type_kind_name(it->type));
		sb_add_json_str(out, it->name);
		sb_addf(out, ",\"size\":%" PRIu64 ",\"declared_size\":%" PRIu64
			",\"narrowed\":[", it->size, it->declared_size);
		for (size_t k = 0; k < it->nnarrowed; k++) {
			sb_adds(out, k ? ",{" : "{");
			json_narrow_item(out, it->type, it->narrowed[k].member,
					 it->narrowed[k].bytes);
			sb_adds(out, "}");
		}
		sb_addf(out, "],\"reordered\":%s}", it->reordered ? "true" : "false");
	}
	sb_addf(out, "],\"overhead\":%" PRIu64 ",\"size\":%" PRIu64 ",\"classes\":",
		v->overhead, f->size);
	json_classes_name(out, v->classes);
	sb_adds(out, ",\"class\":");
	json_class(out, v->classes, f->index);
	/* not "waste": that is holes + padding everywhere */
	if (f->index == SF_NO_CLASS)
		sb_adds(out, ",\"rounding_loss\":null");
	else
		sb_addf(out, ",\"rounding_loss\":%" PRIu64, f->waste);
	if (f->has_lower)
		sb_addf(out, ",\"next_lower\":%" PRIu64 ",\"to_next_lower\":%" PRIu64,
			f->lower, f->to_next_lower);
	else
		sb_adds(out, ",\"next_lower\":null,\"to_next_lower\":null");
	if (v->count) {
		uint64_t each = f->index == SF_NO_CLASS ? f->size : f->cls;
		sb_addf(out, ",\"count\":%" PRIu64 ",\"total_bytes\":%" PRIu64, v->count,
			v->count * each);
		if (f->index == SF_NO_CLASS)
			sb_adds(out, ",\"total_rounding_loss\":null");
		else
			sb_addf(out, ",\"total_rounding_loss\":%" PRIu64, v->count * f->waste);
	} else {
		sb_adds(out, ",\"count\":null,\"total_bytes\":null,"
			"\"total_rounding_loss\":null");
	}
	if (v->live) {
		sb_adds(out, ",\"live\":");
		sf_render_live_head_json(out, v->live, v->live_declared);
		sb_adds(out, ",\"live_candidate\":");
		sf_render_live_step_json(out, v->live, v->live_declared, v->live_candidate);
	}
	sb_adds(out, "}\n");
}

/* ---- classes ---------------------------------------------------------- */

/* Runs of at least this many classes an equal step apart print as
 * "a, b, ..., z (every S)": glibc's 8,191 classes fit on one line. */
#define RUN_MIN 6

static size_t run_length(const struct sf_classes *c, size_t i)
{
	size_t j = i + 1;

	if (j >= c->n)
		return 1;
	uint64_t step = c->v[j] - c->v[i];
	while (j + 1 < c->n && c->v[j + 1] - c->v[j] == step)
		j++;
	return j - i + 1;
}

static void wrap_add(struct strbuf *out, size_t *col, const char *item, bool last)
{
	size_t len = strlen(item) + (last ? 0 : 1);

	if (*col && *col + len + 1 > 76) {
		sb_addch(out, '\n');
		*col = 0;
	} else if (*col) {
		sb_addch(out, ' ');
		(*col)++;
	}
	sb_adds(out, item);
	if (!last)
		sb_addch(out, ',');
	*col += len;
}

void sf_render_classes_text(struct strbuf *out, const struct sf_classes *c)
{
	size_t col = 0;
	char item[96];

	sb_addf(out, "%s: %zu class%s; %s\n", c->name, c->n, c->n == 1 ? "" : "es",
		sf_classes_source(c));
	for (size_t i = 0; i < c->n;) {
		size_t run = run_length(c, i);
		if (run >= RUN_MIN) {
			size_t e = i + run - 1;
			snprintf(item, sizeof(item), "%" PRIu64 ", %" PRIu64 ", ..., %" PRIu64
				 " (every %" PRIu64 ")", c->v[i], c->v[i + 1], c->v[e],
				 c->v[i + 1] - c->v[i]);
			i = e + 1;
		} else {
			snprintf(item, sizeof(item), "%" PRIu64, c->v[i]);
			i++;
		}
		wrap_add(out, &col, item, i == c->n);
	}
	sb_addch(out, '\n');
}

void sf_render_classes_list_text(struct strbuf *out, const struct sf_classes *all,
				 size_t n)
{
	sb_addf(out, "%-10s %5s %-20s  %s\n", "preset", "count", "range", "source");
	for (size_t i = 0; i < n; i++)
		sb_addf(out, "%-10s %5zu %6" PRIu64 " .. %-10" PRIu64 "  %s\n", all[i].name,
			all[i].n, all[i].v[0], all[i].v[all[i].n - 1], sf_classes_source(&all[i]));
}

void sf_render_classes_json(struct strbuf *out, const struct sf_classes *all, size_t n)
{
	sf_json_doc_open(out, "classes");
	sb_adds(out, "\"presets\":[");
	for (size_t i = 0; i < n; i++) {
		/* "classes" names a class set in every document; its sizes are "sizes" */
		sb_adds(out, i ? ",\n{\"classes\":" : "\n{\"classes\":");
		json_classes_name(out, &all[i]);
		sb_adds(out, ",\"source\":");
		sb_add_json_str(out, sf_classes_source(&all[i]));
		sb_adds(out, ",\"sizes\":[");
		for (size_t k = 0; k < all[i].n; k++)
			sb_addf(out, "%s%" PRIu64, k ? "," : "", all[i].v[k]);
		sb_adds(out, "]}");
	}
	sb_adds(out, "]}\n");
}
