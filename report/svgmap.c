/*
 * svgmap.c - one type's SVG byte map and the numbers table beside it, for
 * the HTML page (html.c; html.h says what the page promises).
 *
 * How one map is built.  Everything that occupies bytes becomes an "item":
 * each top-level member, each hole, bit hole, trailing padding and bit
 * padding, as a half-open range of *bits* [start, end) from the start of
 * the type, so bit-fields and bytes share one coordinate.  Items are sorted
 * by start (stable, so a union's members keep declaration order) and drawn
 * in that order; the table beside the map lists them in the same order.
 *
 *   item { kind, index into members/holes, start bit, end bit, lane }
 *
 * Rows are cachelines.  Members that overlap (a union's, or an anonymous
 * union inside a struct's nested members never are: only top level is
 * drawn) go to lanes, first-fit, so a row is `lanes` boxes high; holes and
 * padding are bytes no member uses, so they span every lane.  An item that
 * covers three or more whole rows that nothing else touches (char buf[4096]
 * at 64 bytes a row would be 64 identical rows) keeps its first and last
 * row, and the rows between collapse into one thin strip that says how many
 * cachelines it stands for: an "elided run".  Runs never overlap, since a
 * row is elided only when a single item touches it.
 *
 * Coordinates are pixels: MAP_W pixels per row whatever the cacheline, so
 * the picture has the same width for --cacheline 32 or 128.  Labels are
 * truncated by an estimate of the monospace advance (0.6 em); SVG cannot
 * measure text without script, and the full name is in the <title> tooltip
 * and in the table anyway.  Nothing here computes a layout: holes, padding
 * and sizes come from struct sf_layout.
 */
#include "svgmap.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/checked.h"
#include "lib/xalloc.h"

#define MAP_W 640.0        /* pixels for one cacheline row */
#define LEFT 52.0          /* row offset labels */
#define RIGHT 8.0
#define TOP 22.0           /* the byte ruler */
#define LANE_H 30.0        /* one lane of boxes */
#define ROW_GAP 14.0       /* between rows: room for callout labels */
#define ELIDE_H 18.0       /* the strip standing for elided rows */
#define FONT_PX 11.0
#define CHAR_W (FONT_PX * 0.6)
#define SMALL_PX 9.0

enum item_kind {
	IT_MEMBER = 0,
	IT_HOLE,
	IT_BIT_HOLE,
	IT_PADDING,
	IT_BIT_PADDING,
};

struct item {
	enum item_kind kind;
	uint32_t idx;           /* member, hole or bit-hole index */
	uint64_t start, end;    /* bits from the start of the type */
	uint32_t lane;
	uint32_t seq;           /* insertion order: makes qsort stable */
	/* gaps: the layout they belong to (a nested one for a gap inside an
	 * anonymous struct member, drawn over that member in its lane) */
	const struct sf_layout *lay;
	uint32_t top;           /* nested gaps: the top-level member around them */
	int nested;
};

struct run {                    /* rows [a, b] shown as one strip */
	uint64_t a, b;
	size_t item;
};

/* Everything one map needs, built by map_build() and freed by map_free(). */
struct map {
	const struct sf_type *t;
	const struct sf_layout *l;
	const struct sf_type *against;  /* compare: the current layout, or NULL */
	unsigned cl;                    /* bytes per row */
	double ppbit;                   /* pixels per bit */
	struct item *items;
	size_t n, cap;
	uint32_t lanes;
	uint64_t nrows;
	struct run *runs;
	size_t nruns, runcap;
	double row_h;
};

/* ---- small formatting helpers ---- */

/* A pixel coordinate with at most two decimals and no trailing zeros. */
static void add_px(struct strbuf *sb, double v)
{
	char buf[64];
	int n = snprintf(buf, sizeof(buf), "%.2f", v);

	while (n > 0 && buf[n - 1] == '0')
		buf[--n] = '\0';
	if (n > 0 && buf[n - 1] == '.')
		buf[--n] = '\0';
	if (!strcmp(buf, "-0"))
		strcpy(buf, "0");
	sb_adds(sb, buf);
}

static void add_attr_px(struct strbuf *sb, const char *name, double v)
{
	sb_addf(sb, " %s=\"", name);
	add_px(sb, v);
	sb_addch(sb, '"');
}

/* The type's C spelling: "unsigned char", "char[16]", "void (*)(int)". */
static void add_type_spelling(struct strbuf *sb, const struct sf_member *m)
{
	sb_add_xml(sb, m->type_name ? m->type_name : "");
	if (m->type_suffix && *m->type_suffix)
		sb_add_xml(sb, m->type_suffix);
}

/* What to call a member on the map: its name, or what it is if anonymous. */
static const char *member_label(const struct sf_member *m)
{
	if (m->name && *m->name)
		return m->name;
	if (m->tclass == SF_T_UNION)
		return "(anonymous union)";
	if (m->tclass == SF_T_STRUCT)
		return "(anonymous struct)";
	return "(anonymous)";
}

void sf_svgmap_type_title(struct strbuf *sb, const struct sf_type *t)
{
	sb_adds(sb, sf_type_kind_name(t));
	sb_addch(sb, ' ');
	sb_add_xml(sb, t->name && *t->name ? t->name : "(anonymous)");
}

static const char *plural(uint64_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/*
 * Append `s` cut to at most `maxch` characters, with an ellipsis when cut;
 * never splits a UTF-8 sequence.  Nothing when fewer than 2 fit.
 */
static int add_truncated(struct strbuf *sb, const char *s, long maxch)
{
	size_t len = strlen(s);

	if (maxch <= 0)
		return 0;
	if ((long)len <= maxch) {
		sb_add_xml(sb, s);
		return 1;
	}
	if (maxch < 2)
		return 0;
	size_t keep = (size_t)maxch - 1;
	while (keep > 0 && ((unsigned char)s[keep] & 0xC0) == 0x80)
		keep--;
	char *cut = sf_xstrndup(s, keep);
	sb_add_xml(sb, cut);
	free(cut);
	sb_adds(sb, "\xe2\x80\xa6");   /* U+2026 HORIZONTAL ELLIPSIS */
	return 1;
}

/* ---- colours ---- */

/* Two shades per kind of type, alternated so neighbours stay distinct. */
static const char *const member_fill[][2] = {
	[SF_T_OTHER]   = { "#d5d8dc", "#b9bec4" },
	[SF_T_INT]     = { "#9cc9f5", "#6fafee" },
	[SF_T_BOOL]    = { "#9de0d2", "#6ccbb8" },
	[SF_T_ENUM]    = { "#c9b3f0", "#ad8fe6" },
	[SF_T_FLOAT]   = { "#f7c99a", "#f2ad6a" },
	[SF_T_POINTER] = { "#a8dea0", "#80cc75" },
	[SF_T_STRUCT]  = { "#f3e08c", "#e8cc5a" },
	[SF_T_UNION]   = { "#f2b3d4", "#e98cbd" },
	[SF_T_ARRAY]   = { "#a6e3ec", "#74d0de" },
};

static const char *const tclass_name[] = {
	[SF_T_OTHER] = "other", [SF_T_INT] = "integer", [SF_T_BOOL] = "bool",
	[SF_T_ENUM] = "enum", [SF_T_FLOAT] = "floating", [SF_T_POINTER] = "pointer",
	[SF_T_STRUCT] = "struct", [SF_T_UNION] = "union", [SF_T_ARRAY] = "array",
};

#define NTCLASS (sizeof(member_fill) / sizeof(member_fill[0]))

static unsigned tclass_of(const struct sf_member *m)
{
	return m->tclass < NTCLASS ? m->tclass : SF_T_OTHER;
}

/* ---- building a map ---- */

static struct item *add_item(struct map *mp, enum item_kind kind, uint32_t idx,
			     uint64_t start, uint64_t end)
{
	SF_GROW(mp->items, mp->n, mp->cap);
	mp->items[mp->n] = (struct item){ .kind = kind, .idx = idx, .start = start,
					  .end = end < start ? start : end,
					  .seq = (uint32_t)mp->n, .lay = mp->l };
	return &mp->items[mp->n++];
}

static int item_cmp(const void *a, const void *b)
{
	const struct item *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int run_cmp(const void *a, const void *b)
{
	const struct run *x = a, *y = b;

	return x->a < y->a ? -1 : x->a > y->a;
}

/*
 * Bit positions of byte offsets: sf_bits_of clips them at SF_SANE_BYTES
 * (lib/checked.h), as layout/holes.c does, so that `* 8` cannot wrap and
 * scatter the map's items (a member at 2^64 - 8 bytes wrapped to a low
 * row, the hole before it then no longer covered its rows alone, and
 * 2^50 rows were drawn, for ever).
 */
static uint64_t member_start(const struct sf_member *m)
{
	return sf_bits_of(m->offset) + (sf_member_is_bitfield(m) ? m->bit_offset : 0);
}

static uint64_t member_end(const struct sf_member *m)
{
	return sf_member_is_bitfield(m) ? member_start(m) + m->bit_size
					: sf_bits_of(sf_add_sat(m->offset, m->size));
}

/* Rows an item touches, inclusive; a zero-width item touches its row. */
static void item_rows(const struct map *mp, const struct item *it,
		      uint64_t *first, uint64_t *last)
{
	uint64_t rb = (uint64_t)mp->cl * 8;
	uint64_t s = it->start, e = it->end > it->start ? it->end - 1 : it->start;

	*first = s / rb;
	*last = e / rb;
	if (*first >= mp->nrows)
		*first = mp->nrows - 1;
	if (*last >= mp->nrows)
		*last = mp->nrows - 1;
}

/* Whole rows [fr, lr] covered by the item, or 0 when there is none. */
static int item_full_rows(const struct map *mp, const struct item *it,
			  uint64_t *fr, uint64_t *lr)
{
	uint64_t rb = (uint64_t)mp->cl * 8;
	uint64_t f = (it->start + rb - 1) / rb, l = it->end / rb;

	if (l == 0 || l <= f)
		return 0;
	*fr = f;
	*lr = l - 1;
	return 1;
}

static void find_runs(struct map *mp)
{
	for (size_t i = 0; i < mp->n; i++) {
		const struct item *it = &mp->items[i];
		uint64_t fr, lr;

		if (it->kind == IT_BIT_HOLE || it->kind == IT_BIT_PADDING || it->nested)
			continue;
		if (!item_full_rows(mp, it, &fr, &lr) || lr - fr + 1 < 5)
			continue;
		/* keep the first and last whole rows: they show the edges */
		uint64_t a = fr + 1, b = lr - 1;
		/* elide only rows nothing else touches (union lanes, nested gaps) */
		for (size_t j = 0; j < mp->n && a <= b; j++) {
			uint64_t s, e;
			if (j == i)
				continue;
			item_rows(mp, &mp->items[j], &s, &e);
			if (e < a || s > b)
				continue;
			if (s <= a)
				a = e + 1;
			else
				b = s - 1;
		}
		if (a > b || b - a + 1 < 3)
			continue;
		SF_GROW(mp->runs, mp->nruns, mp->runcap);
		mp->runs[mp->nruns++] = (struct run){ a, b, i };
	}
	if (mp->nruns > 1)
		qsort(mp->runs, mp->nruns, sizeof(*mp->runs), run_cmp);
}

/*
 * The gaps of layout l of type t (absolute offsets), then those of its
 * nested anonymous members, recursively; `top` is the top-level member
 * they sit in (SF_NO_MEMBER at the top).
 */
static void add_gaps(struct map *mp, const struct sf_type *t,
		     const struct sf_layout *l, unsigned depth, uint32_t top)
{
	struct item *it;

	for (uint32_t i = 0; i < l->nholes; i++) {
		it = add_item(mp, IT_HOLE, i, sf_bits_of(l->holes[i].offset),
			      sf_bits_of(sf_add_sat(l->holes[i].offset, l->holes[i].size)));
		it->lay = l, it->top = top, it->nested = depth > 0;
	}
	for (uint32_t i = 0; i < l->nbit_holes; i++) {
		const struct sf_bit_hole *h = &l->bit_holes[i];
		uint64_t s = sf_bits_of(h->offset) + h->bit_offset;
		it = add_item(mp, IT_BIT_HOLE, i, s, s + h->bits);
		it->lay = l, it->top = top, it->nested = depth > 0;
	}
	if (l->bit_padding) {
		/*
		 * The unused bits of the last bit-field's storage unit: they
		 * follow the bit-field that ends last.
		 */
		uint64_t end = 0;
		for (uint32_t i = 0; i < t->nmembers; i++)
			if (sf_member_is_bitfield(&t->members[i]) &&
			    member_end(&t->members[i]) > end)
				end = member_end(&t->members[i]);
		it = add_item(mp, IT_BIT_PADDING, 0, end, end + l->bit_padding);
		it->lay = l, it->top = top, it->nested = depth > 0;
	}
	if (l->padding && l->padding <= l->size) {
		uint64_t end = sf_add_sat(l->base, l->size);
		it = add_item(mp, IT_PADDING, 0, sf_bits_of(end - l->padding), sf_bits_of(end));
		it->lay = l, it->top = top, it->nested = depth > 0;
	}
	if (depth >= 16)
		return;
	for (uint32_t i = 0; i < l->nnested; i++) {
		uint32_t mi = l->nested[i].member;
		/* what a member points to is not in this picture */
		if (mi >= t->nmembers || !t->members[mi].nested ||
		    (t->members[mi].flags & SF_MF_POINTEE))
			continue;
		add_gaps(mp, t->members[mi].nested, &l->nested[i].layout, depth + 1,
			 depth ? top : mi);
	}
}

static void map_build(struct map *mp, const struct sf_type *t,
		      const struct sf_layout *l, unsigned cacheline,
		      const struct sf_type *against)
{
	memset(mp, 0, sizeof(*mp));
	mp->t = t;
	mp->l = l;
	mp->against = against;
	mp->cl = cacheline ? cacheline : (l->cacheline ? l->cacheline : 64);
	mp->ppbit = MAP_W / ((double)mp->cl * 8.0);

	for (uint32_t i = 0; i < t->nmembers; i++) {
		const struct sf_member *m = &t->members[i];
		add_item(mp, IT_MEMBER, i, member_start(m), member_end(m));
	}
	add_gaps(mp, t, l, 0, SF_NO_MEMBER);
	if (mp->n > 1)
		qsort(mp->items, mp->n, sizeof(*mp->items), item_cmp);

	/* lanes: first fit, members only; gaps span all lanes */
	uint64_t *lane_end = NULL;
	size_t lane_cap = 0;
	uint64_t maxend = sf_bits_of(l->size);
	for (size_t i = 0; i < mp->n; i++) {
		struct item *it = &mp->items[i];
		if (it->end > maxend)
			maxend = it->end;
		if (it->kind != IT_MEMBER)
			continue;
		uint32_t k = 0;
		while (k < mp->lanes && lane_end[k] > it->start)
			k++;
		if (k == mp->lanes) {
			SF_GROW(lane_end, k, lane_cap);
			mp->lanes++;
		}
		lane_end[k] = it->end;
		it->lane = k;
	}
	free(lane_end);
	if (mp->lanes == 0)
		mp->lanes = 1;
	for (size_t i = 0; i < mp->n; i++) {
		struct item *it = &mp->items[i];
		if (!it->nested)
			continue;
		for (size_t j = 0; j < mp->n; j++)
			if (mp->items[j].kind == IT_MEMBER && mp->items[j].idx == it->top) {
				it->lane = mp->items[j].lane;
				break;
			}
	}
	mp->row_h = LANE_H * mp->lanes;

	uint64_t rb = (uint64_t)mp->cl * 8;
	mp->nrows = (maxend + rb - 1) / rb;
	if (mp->nrows == 0)
		mp->nrows = 1;
	find_runs(mp);
}

static void map_free(struct map *mp)
{
	free(mp->items);
	free(mp->runs);
}

/* The elided run that contains row r, or NULL. */
static const struct run *run_of(const struct map *mp, uint64_t r)
{
	for (size_t k = 0; k < mp->nruns; k++)
		if (r >= mp->runs[k].a && r <= mp->runs[k].b)
			return &mp->runs[k];
	return NULL;
}

/* Top of row r (of the strip, when r is elided). */
static double row_y(const struct map *mp, uint64_t r)
{
	double y = TOP;
	uint64_t rows = r;

	for (size_t k = 0; k < mp->nruns && mp->runs[k].a <= r; k++) {
		const struct run *ru = &mp->runs[k];
		if (r > ru->b) {        /* the whole run is above: one strip */
			rows -= ru->b - ru->a + 1;
			y += ELIDE_H + ROW_GAP;
		} else {                /* r is in the run: the strip's top */
			rows -= r - ru->a;
		}
	}
	return y + (double)rows * (mp->row_h + ROW_GAP);
}

static double map_height(const struct map *mp)
{
	/* the last row's gap stays: callout labels hang into it */
	return row_y(mp, mp->nrows);
}

/* ---- drawing ---- */

struct seg {                    /* one row's part of an item */
	double x, y, w, h;
};

static void add_rect(struct strbuf *sb, const struct seg *s, const char *fill,
		     const char *extra)
{
	sb_adds(sb, "<rect");
	add_attr_px(sb, "x", s->x);
	add_attr_px(sb, "y", s->y);
	add_attr_px(sb, "width", s->w);
	add_attr_px(sb, "height", s->h);
	sb_addf(sb, " fill=\"%s\"%s/>", fill, extra ? extra : "");
}

/* Text centred in a box, if it fits; else under the row when `callout`. */
static void add_label(struct strbuf *sb, const struct map *mp, const struct seg *s,
		      uint64_t row, const char *longer, const char *shorter,
		      int callout)
{
	long fit = (long)((s->w - 4.0) / CHAR_W);
	const char *text = NULL;

	if (longer && (long)strlen(longer) <= fit)
		text = longer;
	else if (shorter && (long)strlen(shorter) <= fit)
		text = shorter;
	if (text || (!callout && fit >= 2)) {
		sb_adds(sb, "<text");
		add_attr_px(sb, "x", s->x + s->w / 2);
		add_attr_px(sb, "y", s->y + s->h / 2 + FONT_PX * 0.35);
		sb_adds(sb, " text-anchor=\"middle\">");
		add_truncated(sb, text ? text : longer, fit);
		sb_adds(sb, "</text>");
		return;
	}
	if (!callout)
		return;
	sb_adds(sb, "<text class=\"callout\"");
	add_attr_px(sb, "x", s->x + s->w / 2);
	add_attr_px(sb, "y", row_y(mp, row) + mp->row_h + SMALL_PX + 1.0);
	sb_adds(sb, " text-anchor=\"middle\">");
	sb_add_xml(sb, shorter ? shorter : longer);
	sb_adds(sb, "</text>");
}

/*
 * The rectangles of item `i`, one per row it touches (an elided run it
 * owns becomes its strip).  The widest one is returned for the label.
 */
static size_t item_segs(const struct map *mp, size_t i, struct seg **out,
			uint64_t *label_row, size_t *label_seg)
{
	const struct item *it = &mp->items[i];
	uint64_t rb = (uint64_t)mp->cl * 8, first, last;
	struct seg *v = NULL;
	size_t n = 0, cap = 0;
	double best = -1;
	/* gaps span every lane; those inside a nested member only its own */
	int full = it->kind != IT_MEMBER && !it->nested;

	item_rows(mp, it, &first, &last);
	for (uint64_t r = first; r <= last; r++) {
		const struct run *ru = run_of(mp, r);
		struct seg s;
		if (ru) {
			if (r == ru->a && ru->item == i) {
				s = (struct seg){ LEFT, row_y(mp, r), MAP_W, ELIDE_H };
				SF_GROW(v, n, cap);
				v[n++] = s;
			}
			r = ru->b;
			continue;
		}
		uint64_t lo = it->start > r * rb ? it->start : r * rb;
		uint64_t hi = it->end < (r + 1) * rb ? it->end : (r + 1) * rb;
		s.x = LEFT + (double)(lo - r * rb) * mp->ppbit;
		s.w = hi > lo ? (double)(hi - lo) * mp->ppbit : 0;
		s.y = row_y(mp, r) + (full ? 0 : LANE_H * it->lane);
		s.h = full ? mp->row_h : LANE_H;
		if (it->end == it->start) {
			/* zero-size (x[]): a thin marker that stays in the row */
			s.w = 3.0;
			if (s.x + s.w > LEFT + MAP_W)
				s.x = LEFT + MAP_W - s.w;
		}
		SF_GROW(v, n, cap);
		v[n++] = s;
		if (s.w > best) {
			best = s.w;
			*label_row = r;
			*label_seg = n - 1;
		}
	}
	*out = v;
	return n;
}

static void add_title_member(struct strbuf *sb, const struct sf_member *m)
{
	sb_adds(sb, "<title>");
	sb_add_xml(sb, member_label(m));
	sb_adds(sb, ": ");
	add_type_spelling(sb, m);
	if (sf_member_is_bitfield(m))
		sb_addf(sb, ":%" PRIu32 ", byte %" PRIu64 " bit %" PRIu32 ", %" PRIu32
			" %s", m->bit_size, m->offset, m->bit_offset, m->bit_size,
			plural(m->bit_size, "bit", "bits"));
	else
		sb_addf(sb, ", offset %" PRIu64 ", %" PRIu64 " %s", m->offset, m->size,
			plural(m->size, "byte", "bytes"));
	sb_adds(sb, "</title>");
}

/* "moved" / "narrowed" against the member of the same name, or "". */
static const char *member_change(const struct map *mp, const struct sf_member *m)
{
	if (!mp->against || !m->name || !*m->name)
		return "";
	for (uint32_t i = 0; i < mp->against->nmembers; i++) {
		const struct sf_member *o = &mp->against->members[i];
		if (!o->name || strcmp(o->name, m->name))
			continue;
		if (o->size != m->size || o->bit_size != m->bit_size)
			return " narrowed";
		if (o->offset != m->offset || o->bit_offset != m->bit_offset)
			return " moved";
		return "";
	}
	return " added";
}

/*
 * Which of its kind's two shades a member gets: alternating by index, so
 * neighbours differ; in a proposal, the shade of the member of the same
 * name in the current layout, so a member keeps its colour when it moves.
 */
static unsigned shade_of(const struct map *mp, uint32_t idx)
{
	const struct sf_member *m = &mp->t->members[idx];

	if (mp->against && m->name && *m->name)
		for (uint32_t i = 0; i < mp->against->nmembers; i++)
			if (mp->against->members[i].name &&
			    !strcmp(mp->against->members[i].name, m->name))
				return i & 1;
	return idx & 1;
}

static void draw_member(struct strbuf *sb, const struct map *mp, size_t i)
{
	const struct item *it = &mp->items[i];
	const struct sf_member *m = &mp->t->members[it->idx];
	const char *fill = member_fill[tclass_of(m)][shade_of(mp, it->idx)];
	struct seg *segs;
	uint64_t lrow = 0;
	size_t lseg = 0;
	size_t n = item_segs(mp, i, &segs, &lrow, &lseg);
	const char *change = member_change(mp, m);

	sb_addf(sb, "<g class=\"member%s\" data-name=\"", change);
	sb_add_xml(sb, m->name ? m->name : "");
	sb_adds(sb, "\" data-type=\"");
	add_type_spelling(sb, m);
	sb_addf(sb, "\" data-kind=\"%s\" data-offset=\"%" PRIu64 "\" data-size=\"%" PRIu64
		"\"", tclass_name[tclass_of(m)], m->offset, m->size);
	if (sf_member_is_bitfield(m))
		sb_addf(sb, " data-bit-offset=\"%" PRIu32 "\" data-bit-size=\"%" PRIu32 "\"",
			m->bit_offset, m->bit_size);
	sb_adds(sb, ">");
	add_title_member(sb, m);
	for (size_t k = 0; k < n; k++)
		add_rect(sb, &segs[k], fill, NULL);
	/* an elided strip says what it stands for */
	for (size_t k = 0; k < mp->nruns; k++) {
		const struct run *ru = &mp->runs[k];
		if (ru->item != i)
			continue;
		uint64_t rows = ru->b - ru->a + 1;
		sb_adds(sb, "<text class=\"elided\"");
		add_attr_px(sb, "x", LEFT + MAP_W / 2);
		add_attr_px(sb, "y", row_y(mp, ru->a) + ELIDE_H / 2 + SMALL_PX * 0.35);
		sb_adds(sb, " text-anchor=\"middle\">\xe2\x8b\xae ");
		sb_add_xml(sb, member_label(m));
		sb_addf(sb, " continues: %" PRIu64 " more %s (%" PRIu64 " bytes) \xe2\x8b\xae</text>",
			rows, plural(rows, "cacheline", "cachelines"), rows * mp->cl);
	}
	if (n) {
		if (it->end == it->start)
			add_label(sb, mp, &segs[lseg], lrow, NULL, member_label(m), 1);
		else
			add_label(sb, mp, &segs[lseg], lrow, member_label(m), NULL, 0);
	}
	sb_adds(sb, "</g>");
	free(segs);
}

static void draw_gap(struct strbuf *sb, const struct map *mp, size_t i)
{
	const struct item *it = &mp->items[i];
	const struct sf_layout *l = it->lay;
	const char *nested = it->nested ? " nested" : "";
	uint64_t pad_off = it->start / 8;
	struct seg *segs;
	uint64_t lrow = 0;
	size_t lseg = 0;
	size_t n = item_segs(mp, i, &segs, &lrow, &lseg);
	char longer[96], shorter[48];
	const char *cls, *fill;

	switch (it->kind) {
	case IT_HOLE: {
		const struct sf_hole *h = &l->holes[it->idx];
		fill = "url(#sf-hatch-hole)";
		sb_addf(sb, "<g class=\"hole%s\" data-offset=\"%" PRIu64 "\" data-size=\"%"
			PRIu64 "\"><title>hole: %" PRIu64 " %s at offset %" PRIu64 "</title>",
			nested, h->offset, h->size, h->size, plural(h->size, "byte", "bytes"),
			h->offset);
		snprintf(longer, sizeof(longer), "%" PRIu64 " %s hole", h->size,
			 plural(h->size, "byte", "bytes"));
		snprintf(shorter, sizeof(shorter), "%" PRIu64 "B", h->size);
		break;
	}
	case IT_PADDING:
		fill = "url(#sf-hatch-pad)";
		sb_addf(sb, "<g class=\"padding%s\" data-offset=\"%" PRIu64 "\" data-size=\"%"
			PRIu64 "\"><title>padding: %" PRIu64 " %s at the end</title>",
			nested, pad_off, l->padding, l->padding,
			plural(l->padding, "byte", "bytes"));
		snprintf(longer, sizeof(longer), "%" PRIu64 " %s padding", l->padding,
			 plural(l->padding, "byte", "bytes"));
		snprintf(shorter, sizeof(shorter), "%" PRIu64 "B", l->padding);
		break;
	default: {  /* bit hole, bit padding */
		uint64_t off, bits = it->end - it->start;
		unsigned bo;
		if (it->kind == IT_BIT_HOLE) {
			const struct sf_bit_hole *h = &l->bit_holes[it->idx];
			off = h->offset;
			bo = h->bit_offset;
			cls = "bit-hole";
			fill = "url(#sf-hatch-hole)";
		} else {
			/* place it relative to the byte it starts in */
			off = it->start / 8;
			bo = (unsigned)(it->start % 8);
			cls = "bit-padding";
			fill = "url(#sf-hatch-pad)";
		}
		sb_addf(sb, "<g class=\"%s%s\" data-offset=\"%" PRIu64 "\" data-bit-offset=\"%u\""
			" data-bit-size=\"%" PRIu64 "\"><title>%s: %" PRIu64 " %s</title>",
			cls, nested, off, bo, bits, it->kind == IT_BIT_HOLE ? "bit hole" : "bit padding",
			bits, plural(bits, "bit", "bits"));
		snprintf(longer, sizeof(longer), "%" PRIu64 " %s", bits,
			 plural(bits, "bit", "bits"));
		snprintf(shorter, sizeof(shorter), "%" PRIu64 "b", bits);
		break;
	}
	}
	for (size_t k = 0; k < n; k++)
		add_rect(sb, &segs[k], fill, " stroke=\"#8a8f98\" stroke-width=\"0.5\"");
	if (n)
		add_label(sb, mp, &segs[lseg], lrow, longer, shorter, 1);
	sb_adds(sb, "</g>");
	free(segs);
}

static void draw_map(struct strbuf *sb, const struct map *mp)
{
	double w = LEFT + MAP_W + RIGHT, h = map_height(mp);
	const struct sf_type *t = mp->t;

	sb_adds(sb, "<svg class=\"map\" xmlns=\"http://www.w3.org/2000/svg\"");
	add_attr_px(sb, "width", w);
	add_attr_px(sb, "height", h);
	sb_adds(sb, " viewBox=\"0 0 ");
	add_px(sb, w);
	sb_addch(sb, ' ');
	add_px(sb, h);
	sb_adds(sb, "\" style=\"max-width:");
	add_px(sb, w);
	sb_addf(sb, "px\" data-cacheline=\"%u\" role=\"img\"><title>", mp->cl);
	sf_svgmap_type_title(sb, t);
	sb_addf(sb, ": %" PRIu64 " bytes, %u bytes a row</title>", t->size, mp->cl);

	/* the ruler: a tick per byte up to 64 a row, a number every eighth */
	unsigned step = mp->cl >= 16 ? mp->cl / 8 : 1;
	sb_adds(sb, "<g class=\"ruler\">");
	for (unsigned b = 0; b <= mp->cl; b++) {
		double x = LEFT + (double)b * 8 * mp->ppbit;
		int major = b % step == 0;
		if (!major && mp->cl > 64)
			continue;
		sb_adds(sb, "<line");
		add_attr_px(sb, "x1", x);
		add_attr_px(sb, "x2", x);
		add_attr_px(sb, "y1", TOP - (major ? 7 : 3));
		add_attr_px(sb, "y2", TOP - 1);
		sb_adds(sb, "/>");
		if (major) {
			sb_adds(sb, "<text");
			add_attr_px(sb, "x", x);
			add_attr_px(sb, "y", TOP - 9);
			sb_addf(sb, " text-anchor=\"middle\">%u</text>", b);
		}
	}
	sb_adds(sb, "</g>");

	/* row frames and offsets; bytes past the end of the type dashed */
	sb_adds(sb, "<g class=\"rows\">");
	for (uint64_t r = 0; r < mp->nrows; r++) {
		const struct run *ru = run_of(mp, r);
		if (ru) {
			r = ru->b;
			continue;
		}
		double y = row_y(mp, r);
		sb_adds(sb, "<text");
		add_attr_px(sb, "x", LEFT - 6);
		add_attr_px(sb, "y", y + mp->row_h / 2 + FONT_PX * 0.35);
		sb_addf(sb, " text-anchor=\"end\">%" PRIu64 "</text>", r * mp->cl);
		struct seg s = { LEFT, y, MAP_W, mp->row_h };
		add_rect(sb, &s, "#ffffff", " class=\"frame\"");
		if ((r + 1) * mp->cl > t->size) {
			uint64_t used = t->size > r * mp->cl ? t->size - r * mp->cl : 0;
			struct seg b = { LEFT + (double)used * 8 * mp->ppbit, y,
					 (double)(mp->cl - used) * 8 * mp->ppbit, mp->row_h };
			if (b.w > 0)
				add_rect(sb, &b, "#f4f5f7", " class=\"beyond\"");
		}
	}
	sb_adds(sb, "</g>");

	for (size_t i = 0; i < mp->n; i++) {
		if (mp->items[i].kind == IT_MEMBER)
			draw_member(sb, mp, i);
		else
			draw_gap(sb, mp, i);
	}
	sb_adds(sb, "</svg>");
}

/* ---- the numbers table ---- */

/*
 * The table lists a type's members and gaps in offset order, and under a
 * member whose type is defined inline (an anonymous struct, or a union
 * defined in place) that type's members and gaps, indented, recursively:
 * the same walk as the map's items, one level at a time.
 */
struct trow {
	enum item_kind kind;
	uint32_t idx;
	uint64_t start;         /* bits */
	uint32_t seq;
};

static int trow_cmp(const void *a, const void *b)
{
	const struct trow *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void add_trow(struct trow **v, size_t *n, size_t *cap, enum item_kind kind,
		     uint32_t idx, uint64_t start)
{
	SF_GROW(*v, *n, *cap);
	(*v)[*n] = (struct trow){ kind, idx, start, (uint32_t)*n };
	(*n)++;
}

static void add_indent(struct strbuf *sb, unsigned depth)
{
	for (unsigned d = 0; d < depth; d++)
		sb_adds(sb, "&#160;&#160;");
}

/* Every row of t's table (members, holes, paddings), in offset order. */
static struct trow *collect_rows(const struct sf_type *t, const struct sf_layout *l,
				 size_t *count)
{
	struct trow *v = NULL;
	size_t n = 0, cap = 0;
	uint64_t bitpad = 0;

	for (uint32_t i = 0; i < t->nmembers; i++)
		add_trow(&v, &n, &cap, IT_MEMBER, i, member_start(&t->members[i]));
	for (uint32_t i = 0; i < l->nholes; i++)
		add_trow(&v, &n, &cap, IT_HOLE, i, sf_bits_of(l->holes[i].offset));
	for (uint32_t i = 0; i < l->nbit_holes; i++)
		add_trow(&v, &n, &cap, IT_BIT_HOLE, i,
			 sf_bits_of(l->bit_holes[i].offset) + l->bit_holes[i].bit_offset);
	if (l->bit_padding) {
		for (uint32_t i = 0; i < t->nmembers; i++)
			if (sf_member_is_bitfield(&t->members[i]) &&
			    member_end(&t->members[i]) > bitpad)
				bitpad = member_end(&t->members[i]);
		add_trow(&v, &n, &cap, IT_BIT_PADDING, 0, bitpad);
	}
	if (l->padding && l->padding <= l->size)
		add_trow(&v, &n, &cap, IT_PADDING, 0,
			 sf_bits_of(sf_add_sat(l->base, l->size - l->padding)));
	if (n > 1)
		qsort(v, n, sizeof(*v), trow_cmp);
	*count = n;
	return v;
}

static void table_rows(struct strbuf *sb, const struct map *mp, const struct sf_type *t,
		       const struct sf_layout *l, unsigned depth);

/* A member's row, then (an anonymous struct/union) its own rows below it. */
static void member_row(struct strbuf *sb, const struct map *mp, const struct sf_layout *l,
		       const struct sf_member *m, uint32_t idx, unsigned depth)
{
	sb_addf(sb, "<tr class=\"t-member%s%s\"><td>", depth ? " t-nested" : "",
		depth ? "" : member_change(mp, m));
	if (sf_member_is_bitfield(m))
		sb_addf(sb, "%" PRIu64 ":%" PRIu32 "</td><td>%" PRIu32 " %s",
			m->offset, m->bit_offset, m->bit_size,
			plural(m->bit_size, "bit", "bits"));
	else
		sb_addf(sb, "%" PRIu64 "</td><td>%" PRIu64, m->offset, m->size);
	sb_adds(sb, "</td><td>");
	add_indent(sb, depth);
	sb_add_xml(sb, member_label(m));
	sb_adds(sb, "</td><td>");
	add_type_spelling(sb, m);
	sb_adds(sb, "</td></tr>");
	const struct sf_layout *nl = m->nested && !(m->flags & SF_MF_POINTEE)
		? sf_layout_nested(l, idx) : NULL;
	if (nl && depth < 8)
		table_rows(sb, mp, m->nested, nl, depth + 1);
}

static void table_rows(struct strbuf *sb, const struct map *mp, const struct sf_type *t,
		       const struct sf_layout *l, unsigned depth)
{
	const char *nested = depth ? " t-nested" : "";
	size_t n;
	struct trow *v = collect_rows(t, l, &n);

	for (size_t k = 0; k < n; k++) {
		const struct trow *r = &v[k];
		switch (r->kind) {
		case IT_MEMBER:
			member_row(sb, mp, l, &t->members[r->idx], r->idx, depth);
			break;
		case IT_HOLE: {
			const struct sf_hole *h = &l->holes[r->idx];
			sb_addf(sb, "<tr class=\"t-hole%s\"><td>%" PRIu64 "</td><td>%" PRIu64
				"</td><td colspan=\"2\">", nested, h->offset, h->size);
			add_indent(sb, depth);
			sb_addf(sb, "hole: %" PRIu64 " %s, try to pack</td></tr>", h->size,
				plural(h->size, "byte", "bytes"));
			break;
		}
		case IT_BIT_HOLE: {
			const struct sf_bit_hole *h = &l->bit_holes[r->idx];
			sb_addf(sb, "<tr class=\"t-hole%s\"><td>%" PRIu64 ":%" PRIu32 "</td><td>%"
				PRIu32 " %s</td><td colspan=\"2\">", nested, h->offset,
				h->bit_offset, h->bits, plural(h->bits, "bit", "bits"));
			add_indent(sb, depth);
			sb_adds(sb, "bit hole</td></tr>");
			break;
		}
		case IT_PADDING:
			sb_addf(sb, "<tr class=\"t-padding%s\"><td>%" PRIu64 "</td><td>%" PRIu64
				"</td><td colspan=\"2\">", nested, r->start / 8, l->padding);
			add_indent(sb, depth);
			sb_adds(sb, "padding</td></tr>");
			break;
		case IT_BIT_PADDING:
			sb_addf(sb, "<tr class=\"t-padding%s\"><td>%" PRIu64 ":%u</td><td>%" PRIu32
				" %s</td><td colspan=\"2\">", nested, r->start / 8,
				(unsigned)(r->start % 8), l->bit_padding,
				plural(l->bit_padding, "bit", "bits"));
			add_indent(sb, depth);
			sb_adds(sb, "bit padding</td></tr>");
			break;
		}
	}
	free(v);
}

static void draw_table(struct strbuf *sb, const struct map *mp)
{
	sb_adds(sb, "<table class=\"nums\"><thead><tr><th>offset</th><th>size</th>"
		"<th>member</th><th>type</th></tr></thead><tbody>");
	table_rows(sb, mp, mp->t, mp->l, 0);
	sb_adds(sb, "</tbody></table>");
}

/* "size: 48, cachelines: 1, members: 9, ..." as pahole's summary says it. */
static void draw_summary(struct strbuf *sb, const struct sf_type *t,
			 const struct sf_layout *l)
{
	uint64_t waste = sf_layout_waste(l);

	sb_addf(sb, "<p class=\"summary\">size: <b>%" PRIu64 "</b>, align: %" PRIu32
		", cachelines: %" PRIu64 ", members: %" PRIu32 ", sum members: %" PRIu64,
		l->size, l->align, l->cachelines, l->members, l->sum_members);
	sb_addf(sb, ", holes: %" PRIu32 ", sum holes: %" PRIu64, l->nholes, l->sum_holes);
	if (l->nbit_holes)
		sb_addf(sb, ", bit holes: %" PRIu32 ", sum bit holes: %" PRIu64 " bits",
			l->nbit_holes, l->sum_bit_holes);
	sb_addf(sb, ", padding: %" PRIu64, l->padding);
	if (l->bit_padding)
		sb_addf(sb, ", bit_padding: %" PRIu32 " bits", l->bit_padding);
	if (l->last_cacheline)
		sb_addf(sb, ", last cacheline: %" PRIu64 " bytes", l->last_cacheline);
	sb_addf(sb, " &#8212; <span class=\"%s\">waste: %" PRIu64 " %s",
		waste ? "waste" : "nowaste", waste, plural(waste, "byte", "bytes"));
	if (l->size)
		sb_addf(sb, " (%.1f%%)", 100.0 * (double)waste / (double)l->size);
	sb_adds(sb, "</span></p>");

	sb_adds(sb, "<p class=\"where\">");
	if (t->decl_file && *t->decl_file) {
		sb_adds(sb, "declared at <code>");
		sb_add_xml(sb, t->decl_file);
		sb_addf(sb, ":%" PRIu32 "</code>", t->decl_line);
	}
	if (t->origin && *t->origin) {
		sb_adds(sb, " in <code>");
		sb_add_xml(sb, t->origin);
		sb_adds(sb, "</code>");
	}
	if (t->flags & SF_TF_PACKED)
		sb_adds(sb, " <span class=\"flag\">packed</span>");
	if (t->flags & SF_TF_VARIANT)
		sb_adds(sb, " <span class=\"flag\">one of several differing definitions</span>");
	if (t->flags & SF_TF_INCOMPLETE)
		sb_adds(sb, " <span class=\"flag\">incomplete: a member or base type is only declared</span>");
	sb_adds(sb, "</p>");
}

/*
 * Rows the map would draw (elided runs aside).  A 4 MiB struct of 4-byte
 * members needs 65,536 rows of 64 bytes; more only come from corrupt sizes
 * and offsets (a 2^32-bit bit-field, members 2^56 bytes apart), where
 * drawing them would take hours: the map is left out then, with a note.
 */
#define MAX_DRAWN_ROWS 65536u

static uint64_t drawn_rows(const struct map *mp)
{
	uint64_t n = mp->nrows;

	for (size_t k = 0; k < mp->nruns; k++) {
		uint64_t len = mp->runs[k].b - mp->runs[k].a + 1;
		n = n > len ? n - len : 0;
	}
	return n;
}

void sf_svgmap_draw(struct strbuf *sb, const struct sf_type *t,
		    const struct sf_layout *l, unsigned cacheline,
		    const struct sf_type *against)
{
	struct map mp;

	map_build(&mp, t, l, cacheline, against);
	draw_summary(sb, t, l);
	sb_adds(sb, "<div class=\"map-wrap\">");
	uint64_t rows = drawn_rows(&mp);
	if (rows > MAX_DRAWN_ROWS)
		sb_addf(sb, "<p class=\"note\">No byte map: it would take %" PRIu64
			" rows of %u bytes (sizes or offsets no real struct has).</p>",
			rows, mp.cl);
	else
		draw_map(sb, &mp);
	draw_table(sb, &mp);
	sb_adds(sb, "</div>");
	map_free(&mp);
}

/* ---- the legend ---- */

static void legend_swatch(struct strbuf *sb, const char *fill, const char *label)
{
	sb_addf(sb, "<span><svg width=\"22\" height=\"12\"><rect width=\"22\" height=\"12\""
		" fill=\"%s\"/></svg>%s</span>", fill, label);
}

void sf_svgmap_legend(struct strbuf *sb)
{
	for (unsigned k = 1; k < NTCLASS; k++)
		legend_swatch(sb, member_fill[k][0], tclass_name[k]);
	legend_swatch(sb, member_fill[SF_T_OTHER][0], tclass_name[SF_T_OTHER]);
	legend_swatch(sb, "url(#sf-hatch-hole)", "hole");
	legend_swatch(sb, "url(#sf-hatch-pad)", "padding");
}
