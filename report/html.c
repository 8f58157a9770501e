/*
 * html.c - the HTML page (see html.h for its contract): the head with its
 * CSS and hatch patterns, the legend, one section per type, the ranked
 * table, the side-by-side comparison.  The byte map and the numbers table
 * in each section are svgmap.c's.
 */
#include "html.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "layout/public.h"
#include "reasons.h"
#include "svgmap.h"

/* ---- the page ---- */

static const char page_css[] =
	"body{font:14px/1.4 system-ui,-apple-system,'Segoe UI',sans-serif;color:#1d2430;"
	"margin:24px;background:#fff}\n"
	"h1{font-size:20px;margin:0 0 8px}h2{font-size:17px;margin:0 0 4px}"
	"h3{font-size:15px;margin:0 0 4px}\n"
	"h2 a{color:inherit;text-decoration:none}\n"
	"code,table.nums,svg.map text{font-family:ui-monospace,'DejaVu Sans Mono',"
	"Menlo,Consolas,monospace}\n"
	".legend{display:flex;flex-wrap:wrap;gap:4px 14px;margin:0 0 16px;font-size:12px}\n"
	".legend span{display:inline-flex;align-items:center;gap:4px}\n"
	".legend svg{border:1px solid #8a8f98}\n"
	"section.type,section.compare{border-top:1px solid #d0d4da;padding:14px 0 18px}\n"
	".summary,.where{margin:0 0 6px;font-size:13px}.where{color:#56606e}\n"
	".waste{color:#b3261e;font-weight:600}.nowaste{color:#2e7d32}\n"
	".flag{background:#fff3c4;border-radius:3px;padding:0 4px}\n"
	".map-wrap{display:flex;flex-wrap:wrap;gap:18px;align-items:flex-start}\n"
	"svg.map{flex:1 1 560px;min-width:320px;height:auto}\n"
	"svg.map text{font-size:11px;fill:#1d2430}\n"
	"svg.map .ruler text{font-size:9px;fill:#56606e}\n"
	"svg.map .ruler line{stroke:#8a8f98;stroke-width:1}\n"
	"svg.map .rows text{fill:#56606e}\n"
	"svg.map .frame{stroke:#8a8f98;stroke-width:1}\n"
	"svg.map .beyond{stroke:#c3c7cd;stroke-dasharray:3 3}\n"
	"svg.map g.member rect{stroke:#fff;stroke-width:1}\n"
	"svg.map g.moved rect{stroke:#1d2430;stroke-width:2}\n"
	"svg.map g.narrowed rect,svg.map g.added rect{stroke:#b3261e;stroke-width:2.5}\n"
	"svg.map text.callout,svg.map text.elided{font-size:9px;fill:#56606e}\n"
	"table.nums{border-collapse:collapse;font-size:12px}\n"
	"table.nums th{text-align:left;border-bottom:1px solid #8a8f98;padding:2px 8px}\n"
	"table.nums td{padding:1px 8px;border-bottom:1px solid #eceef1;white-space:nowrap}\n"
	"table.nums td:nth-child(-n+2){text-align:right}\n"
	"table.nums td:nth-child(n+3){white-space:normal;overflow-wrap:anywhere;"
	"max-width:26em}\n"
	"table.nums tr.t-hole td{background:repeating-linear-gradient(45deg,#fde4e1 0 4px,"
	"#f7b9b2 4px 6px)}\n"
	"table.nums tr.t-padding td{background:repeating-linear-gradient(45deg,#ece7f6 0 4px,"
	"#cfc4e6 4px 6px)}\n"
	"table.nums tr.t-nested td{color:#56606e}\n"
	"table.nums tr.moved td{font-weight:600}table.nums tr.narrowed td,"
	"table.nums tr.added td{font-weight:600;color:#b3261e}\n"
	"table.rank{border-collapse:collapse;font-size:13px;margin:0 0 12px}\n"
	"section.suggest-report{border-top:1px solid #d0d4da;padding:14px 0 18px}\n"
	".verdict{font-size:15px;margin:0 0 10px}"
	".verdict[data-verdict=change]{color:#2e7d32}"
	".verdict[data-verdict=nothing],.verdict[data-verdict=unmodeled]{color:#56606e}\n"
	"table.proposals{border-collapse:collapse;font-size:13px;margin:0 0 12px}\n"
	"table.proposals th{text-align:left;border-bottom:1px solid #8a8f98;padding:2px 8px}\n"
	"table.proposals td{padding:2px 8px;border-bottom:1px solid #eceef1}\n"
	"table.proposals td.holds,table.proposals td.class{font-family:ui-monospace,"
	"'DejaVu Sans Mono',Menlo,Consolas,monospace;white-space:nowrap}\n"
	"pre.report{font-size:12px;background:#f6f7f9;padding:8px 10px;overflow-x:auto}\n"
	"table.rank th,table.rank td{padding:2px 10px;border-bottom:1px solid #eceef1;"
	"text-align:right}\n"
	"table.rank th{border-bottom:1px solid #8a8f98}\n"
	"table.rank td.decl{overflow-wrap:anywhere}\n"
	"table.rank td.name,table.rank td.decl,table.rank th.name,table.rank th.decl"
	"{text-align:left}\n"
	".sides{display:grid;grid-template-columns:repeat(auto-fit,minmax(420px,1fr));"
	"gap:24px}\n"
	".sides .map-wrap{flex-direction:column}\n"
	".sides svg.map{flex:none;width:100%;min-width:0}\n";

/* Hatches for holes (red) and padding (violet), shared by every map. */
static const char page_defs[] =
	"<svg width=\"0\" height=\"0\" style=\"position:absolute\" aria-hidden=\"true\">"
	"<defs>"
	"<pattern id=\"sf-hatch-hole\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\""
	" patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#fde4e1\"/>"
	"<rect width=\"2.2\" height=\"6\" fill=\"#d9483b\"/></pattern>"
	"<pattern id=\"sf-hatch-pad\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\""
	" patternTransform=\"rotate(-45)\"><rect width=\"6\" height=\"6\" fill=\"#ece7f6\"/>"
	"<rect width=\"2.2\" height=\"6\" fill=\"#8e72c9\"/></pattern>"
	"</defs></svg>\n";

void sf_render_html_begin(struct strbuf *out, const char *title)
{
	const char *ti = title && *title ? title : "structfit";

	sb_adds(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		"<meta name=\"generator\" content=\"structfit\">\n<title>");
	sb_add_xml(out, ti);
	sb_adds(out, "</title>\n<style>\n");
	sb_adds(out, page_css);
	sb_adds(out, "</style>\n</head>\n<body>\n");
	sb_adds(out, page_defs);
	sb_adds(out, "<h1>");
	sb_add_xml(out, ti);
	sb_adds(out, "</h1>\n<div class=\"legend\">");
	sf_svgmap_legend(out);
	sb_adds(out, "<span>one row = one cacheline; hover a box for details</span>"
		"</div>\n");
}

/*
 * The fragment id of a type's section: "t-" + the name with anything but
 * [A-Za-z0-9_-] as '_', + "-" + 8 hex digits of t->hash (so variants of one
 * name and C++ templates get distinct, URL-safe ids).
 */
static void html_anchor(struct strbuf *out, const struct sf_type *t)
{
	const char *s = t->name && *t->name ? t->name : "anonymous";

	sb_adds(out, "t-");
	for (; *s; s++) {
		char c = *s;
		int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			 (c >= '0' && c <= '9') || c == '_' || c == '-';
		sb_addch(out, ok ? c : '_');
	}
	sb_addf(out, "-%08" PRIx32, (uint32_t)(t->hash ^ (t->hash >> 32)));
}

static void section_open(struct strbuf *out, const char *cls, const struct sf_type *t,
			 int with_id)
{
	sb_addf(out, "<section class=\"%s\"", cls);
	if (with_id) {
		sb_adds(out, " id=\"");
		html_anchor(out, t);
		sb_addch(out, '"');
	}
	sb_addf(out, " data-name=\"");
	sb_add_xml(out, t->name ? t->name : "");
	sb_addf(out, "\" data-kind=\"%s\" data-size=\"%" PRIu64 "\">\n",
		sf_type_kind_name(t), t->size);
}

void sf_render_html_type(struct strbuf *out, const struct sf_type *t,
			 const struct sf_layout *l, unsigned cacheline)
{
	section_open(out, "type", t, 1);
	sb_adds(out, "<h2><a href=\"#");
	html_anchor(out, t);
	sb_adds(out, "\">");
	sf_svgmap_type_title(out, t);
	sb_adds(out, "</a></h2>\n");
	sf_svgmap_draw(out, t, l, cacheline, NULL);
	/* an enum with data: one map per variant, as that variant is in memory */
	for (uint32_t k = 0; k < t->nvariants; k++) {
		const struct sf_variant *v = &t->variants[k];
		sb_adds(out, "\n<h3 class=\"variant\">variant ");
		sb_add_xml(out, *v->name ? v->name : "(unnamed)");
		if (v->has_discr_value)
			sb_addf(out, " (discriminant %" PRIu64 ")", v->discr_value);
		else
			sb_adds(out, " (any other discriminant)");
		sb_adds(out, "</h3>\n");
		sf_svgmap_draw(out, &l->variants[k].type, &l->variants[k].layout, cacheline,
			       NULL);
	}
	sb_adds(out, "\n</section>\n");
}

void sf_render_html_end(struct strbuf *out)
{
	sb_adds(out, "<p class=\"where\">made by structfit</p>\n</body>\n</html>\n");
}

void sf_render_html_rank(struct strbuf *out, const struct sf_rank *r)
{
	bool live = false;

	for (size_t i = 0; i < r->n; i++)
		live |= r->v[i].counted;
	sb_addf(out, "<section class=\"ranking\"><h2>%zu %s, %s first</h2>\n",
		r->n, r->n == 1 ? "type" : "types",
		live ? "most bytes wasted in live instances" : "most wasted bytes");
	sb_addf(out, "<table class=\"rank\"><thead><tr><th>#</th>%s<th>waste</th><th>size</th>",
		live ? "<th>live waste</th><th>live</th>" : "");
	sb_adds(out, ""
		"<th>holes</th><th>sum holes</th><th>padding</th><th class=\"name\">type</th>"
		"<th class=\"decl\">declared at</th><th>public</th></tr></thead><tbody>\n");
	for (size_t i = 0; i < r->n; i++) {
		const struct sf_rank_entry *e = &r->v[i];
		const struct sf_type *t = e->type;
		sb_adds(out, "<tr class=\"rank-entry\" data-name=\"");
		sb_add_xml(out, t->name ? t->name : "");
		if (e->public)
			sb_addf(out, "\" data-public=\"%s", sf_public_word((enum sf_public)e->public));
		sb_addf(out, "\" data-waste=\"%" PRIu64 "\" data-size=\"%" PRIu64 "\"><td>%zu</td>",
			e->waste, e->size, i + 1);
		if (live && e->counted)
			sb_addf(out, "<td>%" PRIu64 "</td><td>%" PRIu64 "</td>", e->live_waste,
				e->live);
		else if (live)
			sb_adds(out, "<td>-</td><td>-</td>");
		sb_addf(out, "<td>%" PRIu64 "</td><td>%" PRIu64 "</td><td>%" PRIu32 "</td><td>%" PRIu64
			"</td><td>%" PRIu64 "</td><td class=\"name\"><a href=\"#",
			e->waste, e->size, e->nholes, e->sum_holes,
			e->padding);
		html_anchor(out, t);
		sb_adds(out, "\">");
		sf_svgmap_type_title(out, t);
		sb_adds(out, "</a></td><td class=\"decl\">");
		if (t->decl_file && *t->decl_file) {
			sb_add_xml(out, t->decl_file);
			sb_addf(out, ":%" PRIu32, t->decl_line);
		}
		/* the why in a tooltip: the cell keeps the column narrow */
		sb_adds(out, "</td><td");
		if (e->public)
			sb_addf(out, " title=\"changing it breaks others: %s\">%s",
				sf_public_why((enum sf_public)e->public),
				sf_public_word((enum sf_public)e->public));
		else
			sb_adds(out, ">");
		sb_adds(out, "</td></tr>\n");
	}
	sb_adds(out, "</tbody></table></section>\n");
}

void sf_render_html_compare(struct strbuf *out,
			    const struct sf_type *cur, const struct sf_layout *lcur,
			    const struct sf_type *prop, const struct sf_layout *lprop,
			    unsigned cacheline, const char *caption)
{
	section_open(out, "compare", cur, 0);
	sb_adds(out, "<h2>");
	sf_svgmap_type_title(out, cur);
	sb_addf(out, ": %" PRIu64 " &#8594; %" PRIu64 " bytes", lcur->size, lprop->size);
	if (lprop->size < lcur->size)
		sb_addf(out, " (saves %" PRIu64 ")", lcur->size - lprop->size);
	else if (lprop->size > lcur->size)
		sb_addf(out, " (grows by %" PRIu64 ")", lprop->size - lcur->size);
	sb_adds(out, "</h2>\n<div class=\"sides\">\n<div class=\"layout current\"><h3>current</h3>\n");
	sf_svgmap_draw(out, cur, lcur, cacheline, NULL);
	sb_adds(out, "</div>\n<div class=\"layout proposed\"><h3>");
	sb_add_xml(out, caption && *caption ? caption : "proposed");
	sb_adds(out, "</h3>\n");
	sf_svgmap_draw(out, prop, lprop, cacheline, cur);
	sb_adds(out, "</div>\n</div>\n</section>\n");
}
