/*
 * check.c - `structfit check` verdicts in five formats.
 *
 * Input is a struct sf_bresult: the budget's rules, a stat per rule
 * (checked / failed / skipped) and the failures, already sorted by rule
 * and subject.  Every format walks the same data in the same order; only
 * the syntax differs:
 *
 *   text    BUDGET:LINE: MESSAGE (declared at FILE:LINE)   + summary line
 *   json    one document, every rule with its status and failures
 *   sarif   one run, a reportingDescriptor per property (budget-size,
 *           budget-holes, ...), a result per failure located at the struct
 *   junit   one testsuite, a testcase per rule (failure / skipped)
 *   github  ::error workflow commands, located at the struct
 *
 * Nothing here computes a layout or decides a verdict.
 */
#include "check.h"
#include "ci.h"
#include "report.h"

#include <assert.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"

/* ------------------------------------------------------------ shared */

/* A JSON string literal of s, valid UTF-8 whatever s holds. */
static void json_str(struct strbuf *out, const char *s)
{
	sb_add_json_str(out, s);
}

static const struct sf_brule *rule_of(const struct sf_bresult *r,
				      const struct sf_bfail *f)
{
	assert(f->rule < r->budget->nrules);
	return &r->budget->rules[f->rule];
}

static const struct sf_bcond *cond_of(const struct sf_bresult *r,
				      const struct sf_bfail *f)
{
	const struct sf_brule *rule = rule_of(r, f);

	assert(f->cond < rule->nconds);
	return &rule->conds[f->cond];
}

/* "SUBJECT: what was measured, budget says CONDITION" (no newline): every
 * format tells a failure this way. */
static void render_message(struct strbuf *out, const struct sf_bresult *r,
			   const struct sf_bfail *f)
{
	const struct sf_bcond *c = cond_of(r, f);
	unsigned long long v = f->value, size = f->size;
	/* a preset is named; a class list is already in the condition */
	bool preset = c->spec && strcmp(c->classes.name, "list") != 0;

	sb_addf(out, "%s: ", f->subject);
	if (f->unrepresentable)
		sb_adds(out, "size is not representable (2^64-1 bytes or more)");
	else if (c->prop != SF_BP_FITS || !c->spec)
		sb_addf(out, "%s is %llu", c->prop == SF_BP_FITS ? "size" :
			sf_bprop_name(c->prop), v);
	else if (f->no_class)
		sb_addf(out, "%llu bytes are above every class%s%s (largest %llu)",
			size, preset ? " of " : "", preset ? c->spec : "",
			(unsigned long long)c->classes.v[c->classes.n - 1]);
	else
		sb_addf(out, "%llu bytes land in the %llu-byte class%s%s", size, v,
			preset ? " of " : "", preset ? c->spec : "");
	sb_adds(out, ", budget says ");
	sf_bcond_describe(out, c);
}

/* The budget file as a location: relative to the source root when the
 * caller made it so (annotations then attach to the repository's file). */
static const char *budget_file(const struct sf_bresult *r, const struct sf_check_opts *o)
{
	return o && o->budget_file ? o->budget_file : r->budget->path;
}

static bool has_decl(const struct sf_bfail *f)
{
	return f->type->decl_file[0] && f->type->decl_line > 0;
}

static const char *status_of(const struct sf_brule_stat *s)
{
	return s->failed ? "fail" : s->skipped ? "skipped" : "pass";
}

/* ------------------------------------------------------------ text */

static const char *plural(size_t n)
{
	return n == 1 ? "" : "s";
}

/* --baseline, nothing new broken but rules the baseline broke too: "1 rule
 * fails, as in the baseline; the other 5 hold", never "all 6 rules hold". */
static void known_summary(struct strbuf *out, const struct sf_bresult *r)
{
	size_t k = r->nknown_rules, held = r->budget->nrules - k;

	sb_addf(out, "%s: %zu rule%s fail%s, as in the baseline", r->budget->path,
		k, plural(k), k == 1 ? "s" : "");
	if (held)
		sb_addf(out, "; the other %zu hold%s", held, held == 1 ? "s" : "");
	sb_addf(out, " (%zu check%s)", r->nchecks, plural(r->nchecks));
}

static void summary_line(struct strbuf *out, const struct sf_bresult *r)
{
	const struct sf_budget *b = r->budget;

	if (r->nbroken)
		sb_addf(out, "%s: %zu of %zu rule%s broken (%zu failure%s in %zu check%s)",
			b->path, r->nbroken, b->nrules, plural(b->nrules),
			r->nfails, plural(r->nfails), r->nchecks, plural(r->nchecks));
	else if (r->nknown_rules)
		known_summary(out, r);
	else if (b->nrules == 1)
		sb_addf(out, "%s: the rule holds (%zu check%s)", b->path,
			r->nchecks, plural(r->nchecks));
	else
		sb_addf(out, "%s: all %zu rules hold (%zu check%s)", b->path,
			b->nrules, r->nchecks, plural(r->nchecks));
	if (r->nskipped)
		sb_addf(out, ", %zu optional rule%s skipped (type not found)",
			r->nskipped, plural(r->nskipped));
	if (r->nknown)
		sb_addf(out, ", %zu failure%s already in the baseline (not counted)",
			r->nknown, plural(r->nknown));
	sb_addch(out, '\n');
}

void sf_render_check_text(struct strbuf *out, const struct sf_bresult *r,
			  const struct sf_check_opts *o)
{
	(void)o;   /* paths arrive already shown relative (cmd/ maps them) */
	for (size_t i = 0; i < r->nfails; i++) {
		const struct sf_bfail *f = &r->fails[i];
		sb_addf(out, "%s:%u: ", r->budget->path, rule_of(r, f)->line);
		render_message(out, r, f);
		if (has_decl(f))
			sb_addf(out, " (declared at %s:%u)",
				f->type->decl_file, f->type->decl_line);
		sb_addch(out, '\n');
	}
	summary_line(out, r);
}

/* ------------------------------------------------------------ json */

/*
 * The field of a `show` type object that a budget property limits: the
 * budget's words are short ("hole_bytes" there), the JSON's are the
 * one vocabulary of every document.
 */
static const char *json_property(enum sf_bprop p)
{
	static const char *const names[SF_BP_COUNT] = {
		[SF_BP_SIZE] = "size", [SF_BP_HOLES] = "sum_holes",
		[SF_BP_PADDING] = "padding", [SF_BP_WASTE] = "waste",
		[SF_BP_MEMBERS] = "members_count", [SF_BP_CACHELINES] = "cachelines",
		[SF_BP_ALIGN] = "align", [SF_BP_FITS] = "class",
		[SF_BP_FORCED] = "forced", [SF_BP_LIVE_WASTE] = "live_waste",
	};

	assert(p < SF_BP_COUNT && names[p]);
	return names[p];
}

/* "struct RHash + struct st_table" -> ["RHash","st_table"] */
static void json_subject_types(struct strbuf *out, const char *subject)
{
	static const char *const kinds[] = { "struct ", "union ", "class ", "typedef " };
	const char *p = subject;

	sb_addch(out, '[');
	for (int n = 0; *p; n++) {
		const char *end = strstr(p, " + ");
		size_t len = end ? (size_t)(end - p) : strlen(p);
		for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
			size_t kl = strlen(kinds[k]);
			if (len > kl && !strncmp(p, kinds[k], kl)) {
				p += kl;
				len -= kl;
				break;
			}
		}
		char *one = sf_xstrndup(p, len);
		if (n)
			sb_addch(out, ',');
		json_str(out, one);
		free(one);
		p += len;
		if (end)
			p += 3;
	}
	sb_addch(out, ']');
}

static void json_failure(struct strbuf *out, const struct sf_bresult *r,
			 const struct sf_bfail *f)
{
	const struct sf_bcond *c = cond_of(r, f);
	struct strbuf msg = STRBUF_INIT;

	/* the type the failure points at, then every type the rule sums */
	sb_adds(out, "{\"name\":");
	json_str(out, f->type->name);
	sb_adds(out, ",\"kind\":");
	json_str(out, sf_type_kind_name(f->type));
	sb_adds(out, ",\"types\":");
	json_subject_types(out, f->subject);
	sb_adds(out, ",\"property\":");
	json_str(out, json_property(c->prop));
	sb_adds(out, ",\"budget_property\":");
	json_str(out, sf_bprop_name(c->prop));
	sb_adds(out, ",\"op\":");
	json_str(out, sf_bop_name(c->op));
	sb_addf(out, ",\"limit\":%llu,\"value\":%llu,\"size\":%llu",
		(unsigned long long)c->limit, (unsigned long long)f->value,
		(unsigned long long)f->size);
	if (c->prop == SF_BP_FITS) {
		sb_adds(out, ",\"classes\":");
		if (c->spec)
			json_str(out, c->spec);
		else
			sb_adds(out, "null");
		if (c->spec && !f->no_class)
			sb_addf(out, ",\"class\":%llu", (unsigned long long)f->value);
		else
			sb_adds(out, ",\"class\":null");
	}
	sb_adds(out, ",\"column\":");
	sb_addf(out, "%u", c->col);
	sb_adds(out, ",\"decl_file\":");
	json_str(out, f->type->decl_file);
	sb_addf(out, ",\"decl_line\":%u,\"origin\":", f->type->decl_line);
	json_str(out, f->type->origin ? f->type->origin : "");
	render_message(&msg, r, f);
	sb_adds(out, ",\"message\":");
	json_str(out, msg.buf);
	sb_addch(out, '}');
	sb_release(&msg);
}

void sf_render_check_json(struct strbuf *out, const struct sf_bresult *r,
			  const struct sf_check_opts *o)
{
	(void)o;   /* paths arrive already shown relative (cmd/ maps them) */
	const struct sf_budget *b = r->budget;
	size_t fi = 0;

	sf_json_doc_open(out, "check");
	sb_adds(out, "\"budget\":");
	json_str(out, b->path);
	sb_addf(out, ",\"ok\":%s,\"rules\":[", r->nbroken ? "false" : "true");
	for (size_t ri = 0; ri < b->nrules; ri++) {
		const struct sf_brule *rule = &b->rules[ri];
		const struct sf_brule_stat *s = &r->stats[ri];
		sb_addf(out, "%s{\"line\":%u,\"rule\":", ri ? "," : "", rule->line);
		json_str(out, rule->text);
		sb_adds(out, ",\"status\":");
		json_str(out, status_of(s));
		sb_addf(out, ",\"optional\":%s,\"checked\":%u,\"failed\":%u,\"failures\":[",
			rule->optional ? "true" : "false", s->checked, s->failed);
		for (size_t k = 0; fi < r->nfails && r->fails[fi].rule == ri; fi++, k++) {
			if (k)
				sb_addch(out, ',');
			json_failure(out, r, &r->fails[fi]);
		}
		sb_adds(out, "]}");
	}
	assert(fi == r->nfails);
	sb_addf(out, "],\"summary\":{\"rules\":%zu,\"broken\":%zu,\"skipped\":%zu,"
		"\"checks\":%zu,\"failures\":%zu,\"baseline_failures\":%zu}}\n",
		b->nrules, r->nbroken, r->nskipped, r->nchecks, r->nfails, r->nknown);
}

/* ------------------------------------------------------------ sarif */

static const char *const sarif_help[SF_BP_COUNT] = {
	[SF_BP_SIZE] = "The type's size is outside its budget.",
	[SF_BP_HOLES] = "The type has more bytes in holes between members than its budget allows.",
	[SF_BP_PADDING] = "The type has more trailing padding than its budget allows.",
	[SF_BP_WASTE] = "The type wastes more bytes (holes + padding, less what an explicit alignment asked for) than its budget allows.",
	[SF_BP_MEMBERS] = "The type's member count is outside its budget.",
	[SF_BP_CACHELINES] = "The type spans more cachelines than its budget allows.",
	[SF_BP_ALIGN] = "The type's alignment is outside its budget.",
	[SF_BP_FITS] = "The type (or sum of types) lands in a larger size class than its budget allows.",
	[SF_BP_FORCED] = "The type has more hole and padding bytes from an explicit alignment than its budget allows.",
	[SF_BP_LIVE_WASTE] = "The type's live instances waste more bytes (instances alive x waste) than its budget allows.",
};

/* A location object; `related` names a related location (it gets id 0). */
static void sarif_location(struct strbuf *out, const char *path, unsigned line,
			   unsigned col, const char *related, const struct sf_check_opts *o)
{
	sb_addch(out, '{');
	if (related) {
		sb_adds(out, "\"id\":0,\"message\":{\"text\":");
		json_str(out, related);
		sb_adds(out, "},");
	}
	sb_adds(out, "\"physicalLocation\":{\"artifactLocation\":{\"uri\":");
	sf_ci_sarif_uri(out, path);
	/* relative to the source root: say so, as code scanning expects */
	sf_ci_sarif_base(out, path, o ? o->source_root : NULL);
	sb_addf(out, "},\"region\":{\"startLine\":%u", line);
	if (col)
		sb_addf(out, ",\"startColumn\":%u", col);
	sb_adds(out, "}}}");   /* region, physicalLocation, location */
}

static void sarif_rules(struct strbuf *out)
{
	sb_adds(out, "\"rules\":[");
	for (int p = 0; p < SF_BP_COUNT; p++) {
		const char *name = sf_bprop_name(p);
		sb_addf(out, "%s{\"id\":\"budget-%s\",\"name\":\"", p ? "," : "", name);
		/* "SizeBudget", "HoleBytesBudget": SARIF rule names are
		 * identifiers in PascalCase */
		for (const char *c = name; *c; c++)
			if (*c != '_')
				sb_addch(out, c == name || c[-1] == '_' ?
					 (char)toupper((unsigned char)*c) : *c);
		sb_adds(out, "Budget\",\"shortDescription\":{\"text\":");
		json_str(out, sarif_help[p]);
		sb_adds(out, "},\"defaultConfiguration\":{\"level\":\"error\"}}");
	}
	sb_adds(out, "]");
}

static void sarif_result(struct strbuf *out, const struct sf_bresult *r,
			 const struct sf_bfail *f, const struct sf_check_opts *o)
{
	const struct sf_brule *rule = rule_of(r, f);
	const struct sf_bcond *c = cond_of(r, f);
	struct strbuf msg = STRBUF_INIT;

	render_message(&msg, r, f);
	sb_addf(&msg, " (%s:%u)", r->budget->path, rule->line);
	sb_addf(out, "{\"ruleId\":\"budget-%s\",\"ruleIndex\":%d,\"level\":\"error\","
		"\"message\":{\"text\":", sf_bprop_name(c->prop), (int)c->prop);
	json_str(out, msg.buf);
	sb_adds(out, "},\"locations\":[");
	if (has_decl(f))
		sarif_location(out, f->type->decl_file,
			       f->type->decl_line, 0, NULL, o);
	else
		sarif_location(out, budget_file(r, o), rule->line, c->col, NULL, o);
	/* the rule itself, so a viewer can jump to the line to change */
	sb_adds(out, "],\"relatedLocations\":[");
	sarif_location(out, budget_file(r, o), rule->line, c->col, "the budget rule", o);
	sb_adds(out, "],\"properties\":{\"subject\":");
	json_str(out, f->subject);
	sb_addf(out, ",\"measured\":%llu,\"limit\":%llu,\"operator\":",
		(unsigned long long)f->value, (unsigned long long)c->limit);
	json_str(out, sf_bop_name(c->op));
	sb_adds(out, ",\"rule\":");
	json_str(out, rule->text);
	sb_adds(out, "}}");
	sb_release(&msg);
}

void sf_render_check_sarif(struct strbuf *out, const struct sf_bresult *r,
			   const struct sf_check_opts *o)
{
	sf_ci_sarif_open(out, o ? o->tool_version : NULL);
	sb_addch(out, ',');
	sarif_rules(out);
	sb_adds(out, "}}");
	sf_ci_sarif_run_frame(out, o ? o->source_root : NULL);
	sb_adds(out, ",\"results\":[");
	for (size_t i = 0; i < r->nfails; i++) {
		if (i)
			sb_addch(out, ',');
		sarif_result(out, r, &r->fails[i], o);
	}
	sb_adds(out, "]}]}\n");
}

/* ------------------------------------------------------------ junit */

static void junit_testcase(struct strbuf *out, const struct sf_bresult *r,
			   size_t ri, size_t *fi)
{
	const struct sf_budget *b = r->budget;
	const struct sf_brule *rule = &b->rules[ri];
	const struct sf_brule_stat *s = &r->stats[ri];
	struct strbuf name = STRBUF_INIT, msg = STRBUF_INIT;

	sb_addf(&name, "%s:%u: %s", b->path, rule->line, rule->text);
	sb_adds(out, "    <testcase classname=\"structfit.budget\" name=\"");
	sf_ci_xml_text(out, name.buf);
	sb_adds(out, "\" file=\"");
	sf_ci_xml_text(out, b->path);
	sb_addf(out, "\" line=\"%u\" assertions=\"%u\" time=\"0\"", rule->line,
		s->checked * rule->nconds);
	if (!s->failed && !s->skipped) {
		sb_adds(out, "/>\n");
	} else if (!s->failed) {
		sb_adds(out, ">\n      <skipped message=\"optional: type not found\"/>\n"
			"    </testcase>\n");
	} else {
		size_t first = *fi;
		render_message(&msg, r, &r->fails[first]);
		size_t nf = 0;
		while (first + nf < r->nfails && r->fails[first + nf].rule == ri)
			nf++;
		if (nf > 1)
			sb_addf(&msg, " (and %zu more)", nf - 1);
		sb_adds(out, ">\n      <failure type=\"budget\" message=\"");
		sf_ci_xml_text(out, msg.buf);
		sb_adds(out, "\">");
		for (size_t k = 0; k < nf; k++) {
			const struct sf_bfail *f = &r->fails[first + k];
			sb_reset(&msg);
			render_message(&msg, r, f);
			if (has_decl(f))
				sb_addf(&msg, " (declared at %s:%u)",
					f->type->decl_file,
					f->type->decl_line);
			sb_addch(&msg, '\n');
			sf_ci_xml_text(out, msg.buf);
		}
		*fi = first + nf;
		sb_adds(out, "</failure>\n    </testcase>\n");
	}
	sb_release(&name);
	sb_release(&msg);
}

void sf_render_check_junit(struct strbuf *out, const struct sf_bresult *r,
			   const struct sf_check_opts *o)
{
	(void)o;   /* paths arrive already shown relative (cmd/ maps them) */
	const struct sf_budget *b = r->budget;
	size_t fi = 0;

	sb_adds(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	sb_addf(out, "<testsuites name=\"structfit check\" tests=\"%zu\" "
		"failures=\"%zu\" errors=\"0\" skipped=\"%zu\" time=\"0\">\n",
		b->nrules, r->nbroken, r->nskipped);
	sb_adds(out, "  <testsuite name=\"");
	sf_ci_xml_text(out, b->path);
	sb_addf(out, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\" "
		"time=\"0\">\n", b->nrules, r->nbroken, r->nskipped);
	for (size_t ri = 0; ri < b->nrules; ri++)
		junit_testcase(out, r, ri, &fi);
	assert(fi == r->nfails);
	sb_adds(out, "  </testsuite>\n</testsuites>\n");
}

/* ------------------------------------------------------------ github */

void sf_render_check_github(struct strbuf *out, const struct sf_bresult *r,
			    const struct sf_check_opts *o)
{
	(void)o;   /* paths arrive already shown relative (cmd/ maps them) */
	struct strbuf tmp = STRBUF_INIT;

	for (size_t i = 0; i < r->nfails; i++) {
		const struct sf_bfail *f = &r->fails[i];
		const struct sf_brule *rule = rule_of(r, f);
		bool decl = has_decl(f);
		sb_adds(out, "::error file=");
		sf_ci_gh_escape(out, decl ? f->type->decl_file :
			  budget_file(r, o), true);
		sb_addf(out, ",line=%u", decl ? f->type->decl_line : rule->line);
		if (!decl)
			sb_addf(out, ",col=%u", cond_of(r, f)->col);
		sb_reset(&tmp);
		sb_addf(&tmp, "structfit budget (%s:%u)", r->budget->path, rule->line);
		sb_adds(out, ",title=");
		sf_ci_gh_escape(out, tmp.buf, true);
		sb_adds(out, "::");
		sb_reset(&tmp);
		render_message(&tmp, r, f);
		sb_addf(&tmp, " (rule at %s:%u)", r->budget->path, rule->line);
		sf_ci_gh_escape(out, tmp.buf, false);
		sb_addch(out, '\n');
	}
	sb_release(&tmp);
	summary_line(out, r);
}

/* ------------------------------------------------------------ markdown */

void sf_render_check_markdown(struct strbuf *out, const struct sf_bresult *r,
			      const struct sf_check_opts *o)
{
	struct strbuf msg = STRBUF_INIT;

	(void)o;   /* paths arrive already shown relative (cmd/ maps them) */
	sb_addf(out, "### structfit check: %s\n\n", r->nbroken ? "budget broken" :
		"every rule holds");
	if (r->nfails) {
		sb_adds(out, "| rule | failure | declared |\n| --- | --- | --- |\n");
		for (size_t i = 0; i < r->nfails; i++) {
			const struct sf_bfail *f = &r->fails[i];
			sb_reset(&msg);
			sb_addf(&msg, "%s:%u", r->budget->path, rule_of(r, f)->line);
			sb_adds(out, "| ");
			sf_ci_md_code(out, msg.buf);
			sb_adds(out, " | ");
			sb_reset(&msg);
			render_message(&msg, r, f);
			sf_ci_md_cell(out, msg.buf);
			sb_adds(out, " | ");
			if (has_decl(f)) {
				sb_reset(&msg);
				sb_addf(&msg, "%s:%u", f->type->decl_file, f->type->decl_line);
				sf_ci_md_code(out, msg.buf);
			}
			sb_adds(out, " |\n");
		}
		sb_addch(out, '\n');
	}
	summary_line(out, r);
	sb_release(&msg);
}

/* ------------------------------------------------------------ --write-budget */

/* "KIND NAME[@FILE]  size <= SIZE", the names padded to `width`. */
static void pin_rule(struct strbuf *out, const struct sf_budget_pin *pin, size_t width)
{
	const struct sf_type *t = pin->type;
	size_t start = out->len;

	sb_addf(out, "%s %s", sf_kind_name(t->kind), t->name);
	if (pin->file)
		sb_addf(out, "@%s", pin->file);
	size_t w = out->len - start;
	sb_addchars(out, ' ', w < width ? width - w + 2 : 2);
	sb_addf(out, "size <= %llu\n", (unsigned long long)t->size);
}

void sf_render_budget_pins(struct strbuf *out, const struct sf_budget_pins *p,
			   const char *inputs)
{
	sb_addf(out, "# structfit budget: the sizes of the types in %s, pinned\n"
		"# by 'structfit check --write-budget'.  A rule that breaks fails\n"
		"# 'structfit check'; lower a limit when its struct shrinks.\n", inputs);
	if (p->dropped)
		sb_addf(out, "# %zu type%s left out: declared %s\n", p->dropped,
			p->dropped == 1 ? "" : "s", p->dropped_why ? p->dropped_why : "elsewhere");
	for (size_t i = 0; i < p->n; i++) {
		const struct sf_budget_pin *pin = &p->v[i];
		if (pin->unwritable)
			sb_addf(out, "# skipped, name not writable in a budget: %s %s\n",
				sf_kind_name(pin->type->kind), pin->type->name);
		else
			pin_rule(out, pin, p->width);
	}
}

void sf_render_budget_notes(struct strbuf *out, const struct sf_budget *b)
{
	const struct sf_brule *first = NULL;
	const struct sf_bcond *at = NULL;
	size_t lines = 0;

	for (size_t i = 0; i < b->nrules; i++) {
		const struct sf_brule *r = &b->rules[i];
		bool old = false;
		for (uint32_t j = 0; j < r->nconds; j++)
			if (r->conds[j].old_holes && !old) {
				old = true;
				if (!first)
					first = r, at = &r->conds[j];
			}
		lines += old;
	}
	if (!first)
		return;
	sb_addf(out, "%s:%u:%u: note: 'holes' in a budget is deprecated: write "
		"'hole_bytes' (bytes in holes, as 'holes' is read for now)",
		b->path, first->line, at->col);
	if (lines > 1)
		sb_addf(out, "; %zu rules use it", lines);
	sb_addch(out, '\n');
}
