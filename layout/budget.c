/*
 * budget.c - the evaluation of a budget's rules (budgetfile.c parses the
 * text into them), and the rules --write-budget pins (sf_budget_pins_make;
 * report/check.c writes them out).
 *
 * Evaluation measures each subject once (sf_layout_compute, then the seven
 * numbers of struct sf_measure) and compares.  Named rules look their types
 * up in the typeset's name table; glob rules share one pass over every
 * type, so N glob rules over T types cost T layouts, not N * T.
 */
#include "budget_int.h"

#include <assert.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "classes.h"
#include "holes.h"
#include "lib/checked.h"
#include "lib/xalloc.h"

static const char *const prop_names[SF_BP_COUNT] = {
	[SF_BP_SIZE] = "size",       [SF_BP_HOLES] = "hole_bytes",
	[SF_BP_PADDING] = "padding", [SF_BP_WASTE] = "waste",
	[SF_BP_MEMBERS] = "members", [SF_BP_CACHELINES] = "cachelines",
	[SF_BP_ALIGN] = "align",     [SF_BP_FITS] = "fits",
	[SF_BP_FORCED] = "forced",   [SF_BP_LIVE_WASTE] = "live_waste",
};

static const char *const op_names[] = {
	[SF_BOP_LE] = "<=", [SF_BOP_LT] = "<", [SF_BOP_EQ] = "==",
	[SF_BOP_GE] = ">=", [SF_BOP_GT] = ">",
};

const char *sf_bprop_name(enum sf_bprop p)
{
	assert(p < SF_BP_COUNT);
	return prop_names[p];
}

const char *sf_bop_name(enum sf_bop op)
{
	assert(op <= SF_BOP_GT);
	return op_names[op];
}

void sf_bcond_describe(struct strbuf *out, const struct sf_bcond *c)
{
	if (c->prop == SF_BP_FITS) {
		sb_addf(out, "fits %llu", (unsigned long long)c->limit);
		if (c->spec)
			sb_addf(out, " in %s", c->spec);
		return;
	}
	sb_addf(out, "%s %s %llu", sf_bprop_name(c->prop), sf_bop_name(c->op),
		(unsigned long long)c->limit);
}

/* ------------------------------------------------------------ freeing */

void sf_brule_release(struct sf_brule *r)
{
	free(r->text);
	free(r->glob);
	free(r->glob_file);
	for (uint32_t i = 0; i < r->nterms; i++) {
		free(r->terms[i].name);
		free(r->terms[i].file);
	}
	free(r->terms);
	for (uint32_t i = 0; i < r->nconds; i++) {
		free(r->conds[i].spec);
		sf_classes_release(&r->conds[i].classes);
	}
	free(r->conds);
}

void sf_budget_free(struct sf_budget *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < b->nrules; i++)
		sf_brule_release(&b->rules[i]);
	free(b->rules);
	free(b->path);
	free(b);
}

/* ------------------------------------------------------------ measuring */

void sf_measure_type(const struct sf_type *t, struct sf_measure *m)
{
	struct sf_layout l;

	sf_layout_compute(t, SF_BUDGET_CACHELINE, &l);
	m->size = l.size;
	m->holes = l.sum_holes;
	m->padding = l.padding;
	m->forced = sf_layout_forced(&l);
	m->members = l.members;
	m->cachelines = l.cachelines;
	m->align = l.align;
	m->unrepresentable = sf_size_saturated(l.size);
	sf_layout_release(&l);
}

void sf_measure_add(struct sf_measure *acc, const struct sf_measure *m)
{
	acc->size = sf_add_sat(acc->size, m->size);
	acc->holes = sf_add_sat(acc->holes, m->holes);
	acc->padding = sf_add_sat(acc->padding, m->padding);
	acc->forced = sf_add_sat(acc->forced, m->forced);
	acc->members = sf_add_sat(acc->members, m->members);
	if (m->align > acc->align)
		acc->align = m->align;
	acc->cachelines = sf_div_ceil(acc->size, SF_BUDGET_CACHELINE);
	acc->unrepresentable = acc->unrepresentable || m->unrepresentable ||
			       sf_size_saturated(acc->size);
}

/*
 * The value condition c measures on m.  For `fits ... in SPEC`: the class
 * the size rounds up to; *no_class is set (and the size returned) when the
 * size is above every class.
 */
static uint64_t bcond_value(const struct sf_bcond *c, const struct sf_measure *m,
			    bool *no_class)
{
	*no_class = false;
	switch ((enum sf_bprop)c->prop) {
	case SF_BP_SIZE: return m->size;
	case SF_BP_HOLES: return m->holes;
	case SF_BP_PADDING: return m->padding;
	case SF_BP_WASTE: return m->holes + m->padding - m->forced;
	case SF_BP_FORCED: return m->forced;
	case SF_BP_MEMBERS: return m->members;
	case SF_BP_CACHELINES: return m->cachelines;
	case SF_BP_ALIGN: return m->align;
	case SF_BP_LIVE_WASTE: return sf_mul_sat(m->live, m->holes + m->padding - m->forced);
	case SF_BP_FITS:
		if (!c->spec)
			return m->size;
		size_t i = sf_classes_find(&c->classes, m->size);
		if (i == SF_NO_CLASS) {
			*no_class = true;
			return m->size;
		}
		return c->classes.v[i];
	case SF_BP_COUNT:
		break;
	}
	assert(!"unknown property");
	return 0;
}

bool sf_bcond_holds(const struct sf_bcond *c, uint64_t value, bool no_class)
{
	if (no_class)
		return false;
	switch ((enum sf_bop)c->op) {
	case SF_BOP_LE: return value <= c->limit;
	case SF_BOP_LT: return value < c->limit;
	case SF_BOP_EQ: return value == c->limit;
	case SF_BOP_GE: return value >= c->limit;
	case SF_BOP_GT: return value > c->limit;
	}
	assert(!"unknown operator");
	return false;
}

/* ------------------------------------------------------------ evaluating */

static const char *file_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}


static char *type_display_name(const struct sf_type *t)
{
	struct strbuf sb = STRBUF_INIT;

	sb_addf(&sb, "%s %s", sf_kind_name(t->kind), t->name);
	return sb_detach(&sb);
}

/*
 * Check every condition of rule `ri` on one subject.  `subject` is NULL for
 * a single type (its name is made only if a condition breaks).
 */
static void eval_subject(struct sf_bresult *res, uint32_t ri,
			 const struct sf_type *t, const char *subject,
			 const struct sf_measure *m)
{
	const struct sf_brule *r = &res->budget->rules[ri];
	bool broke = false;

	for (uint32_t ci = 0; ci < r->nconds; ci++) {
		bool no_class;
		uint64_t v = bcond_value(&r->conds[ci], m, &no_class);
		res->nchecks++;
		/* a size past 64 bits proves nothing: no condition holds on it */
		if (!m->unrepresentable && sf_bcond_holds(&r->conds[ci], v, no_class))
			continue;
		broke = true;
		SF_GROW(res->fails, res->nfails, res->cap);
		res->fails[res->nfails++] = (struct sf_bfail){
			.rule = ri, .cond = ci, .type = t,
			.subject = subject ? sf_xstrdup(subject) : type_display_name(t),
			.value = v, .size = m->size, .no_class = no_class,
			.unrepresentable = m->unrepresentable,
			.def_file = (t->flags & SF_TF_VARIANT) && !subject ?
				    sf_xstrdup(file_name(t->decl_file)) : NULL,
		};
	}
	res->stats[ri].checked++;
	if (broke)
		res->stats[ri].failed++;
}

static bool reportable(const struct sf_type *t)
{
	return t->name[0] && !(t->flags & SF_TF_DECLARATION);
}

/* Is `path` FILE or does it end in "/FILE"? */
static bool declared_in(const char *path, const char *file)
{
	size_t n = strlen(path), m = strlen(file);

	if (m > n || strcmp(path + n - m, file))
		return false;
	return m == n || path[n - m - 1] == '/' || file[0] == '/';
}

/* Keep the v[0..n) declared in `file` (NULL: all); how many are left. */
static size_t only_in(const struct sf_type **v, size_t n, const char *file)
{
	size_t k = 0;

	if (!file)
		return n;
	for (size_t i = 0; i < n; i++)
		if (declared_in(v[i]->decl_file, file))
			v[k++] = v[i];
	return k;
}

/* Term `term` of rule ri (-1: its glob) found nothing: miss says so. */
static int not_found(struct sf_budget_miss *miss, uint32_t ri, int term,
		     const struct sf_typeset *ts, const struct sf_bterm *t,
		     const char *inputs);

/* Every definition of `name` (declarations dropped); free() the array. */
static size_t find_defs(const struct sf_typeset *ts, const char *name,
			const struct sf_type ***out)
{
	const struct sf_type *small[16];
	size_t n = sf_typeset_find(ts, name, small, 16);
	const struct sf_type **v = sf_xcalloc(n ? n : 1, sizeof(*v));

	if (n > 16)
		sf_typeset_find(ts, name, v, n);
	else
		memcpy(v, small, n * sizeof(*v));
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (reportable(v[i]))
			v[k++] = v[i];
	*out = v;
	return k;
}

/* sf_measure_type, and the instances alive that res was given. */
static void measure(const struct sf_bresult *res, const struct sf_type *t,
		    struct sf_measure *m)
{
	const struct sf_live_entry *e = sf_live_find(res->live, t);

	sf_measure_type(t, m);
	m->live = e ? e->count : 0;
}

static int eval_single(struct sf_bresult *res, uint32_t ri,
		       const struct sf_typeset *ts, const char *inputs,
		       struct sf_budget_miss *miss)
{
	const struct sf_brule *r = &res->budget->rules[ri];
	const struct sf_type **defs;
	size_t n = find_defs(ts, r->terms[0].name, &defs);

	n = only_in(defs, n, r->terms[0].file);

	/* each definition of the name, not only the largest: two programs'
	 * `struct config` each have their own size */
	for (size_t i = 0; i < n; i++) {
		struct sf_measure m;
		measure(res, defs[i], &m);
		eval_subject(res, ri, defs[i], NULL, &m);
	}
	free(defs);
	if (n == 0 && !r->optional)
		return not_found(miss, ri, 0, ts, &r->terms[0], inputs);
	res->stats[ri].skipped = n == 0;
	return 0;
}

static const struct sf_type *largest(const struct sf_type **defs, size_t n)
{
	const struct sf_type *best = defs[0];

	for (size_t i = 1; i < n; i++)
		if (defs[i]->size > best->size)
			best = defs[i];
	return best;
}

/* A sum: each term's largest definition, measured as one object. */
static int eval_sum(struct sf_bresult *res, uint32_t ri,
		    const struct sf_typeset *ts, const char *inputs,
		    struct sf_budget_miss *miss)
{
	const struct sf_brule *r = &res->budget->rules[ri];
	struct sf_measure acc = { 0 };
	struct strbuf subject = STRBUF_INIT;
	const struct sf_type *first = NULL;

	for (uint32_t i = 0; i < r->nterms; i++) {
		const struct sf_type **defs;
		size_t n = find_defs(ts, r->terms[i].name, &defs);
		n = only_in(defs, n, r->terms[i].file);
		if (n == 0) {
			free(defs);
			sb_release(&subject);
			if (r->optional) {
				res->stats[ri].skipped = true;
				return 0;
			}
			return not_found(miss, ri, (int)i, ts, &r->terms[i], inputs);
		}
		const struct sf_type *t = largest(defs, n);
		free(defs);
		struct sf_measure m;
		measure(res, t, &m);
		sf_measure_add(&acc, &m);
		sb_addf(&subject, "%s%s %s", i ? " + " : "", sf_kind_name(t->kind), t->name);
		if (!first) {
			first = t;
			acc.live = m.live;	/* a sum counts as its first term */
		}
	}
	eval_subject(res, ri, first, subject.buf, &acc);
	sb_release(&subject);
	return 0;
}

static int not_found(struct sf_budget_miss *miss, uint32_t ri, int term,
		     const struct sf_typeset *ts, const struct sf_bterm *t,
		     const char *inputs)
{
	memset(miss, 0, sizeof(*miss));
	miss->rule = ri;
	miss->term = term;
	miss->inputs = inputs;
	if (t && t->file) {
		const struct sf_type **defs;
		miss->ndefs = find_defs(ts, t->name, &defs);
		for (size_t i = 0; i < miss->ndefs && i < SF_BUDGET_MISS_DEFS; i++)
			miss->defs[i] = defs[i];
		free(defs);
	}
	return -1;
}

static bool glob_matches(const struct sf_brule *r, const struct sf_type *t)
{
	assert(r->is_glob);
	if (r->glob_kind >= 0 && t->kind != r->glob_kind)
		return false;
	if (r->glob_file && !declared_in(t->decl_file, r->glob_file))
		return false;
	return fnmatch(r->glob, t->name, 0) == 0;
}

/* One pass over every type for all glob rules at once. */
static void eval_globs(struct sf_bresult *res, const struct sf_typeset *ts)
{
	const struct sf_budget *b = res->budget;
	size_t n = sf_typeset_count(ts);

	for (size_t i = 0; i < n; i++) {
		const struct sf_type *t = sf_typeset_get(ts, i);
		struct sf_measure m;
		bool measured = false;
		if (!reportable(t))
			continue;
		for (size_t ri = 0; ri < b->nrules; ri++) {
			if (!b->rules[ri].is_glob || !glob_matches(&b->rules[ri], t))
				continue;
			if (!measured) {
				measure(res, t, &m);
				measured = true;
			}
			eval_subject(res, (uint32_t)ri, t, NULL, &m);
		}
	}
}

static int fail_cmp(const void *a, const void *b)
{
	const struct sf_bfail *x = a, *y = b;
	int c;

	if (x->rule != y->rule)
		return x->rule < y->rule ? -1 : 1;
	if ((c = strcmp(x->subject, y->subject)) != 0)
		return c;
	if ((c = strcmp(x->type->decl_file, y->type->decl_file)) != 0)
		return c;
	if (x->type->decl_line != y->type->decl_line)
		return x->type->decl_line < y->type->decl_line ? -1 : 1;
	if (x->type->size != y->type->size)
		return x->type->size < y->type->size ? -1 : 1;
	return (x->cond > y->cond) - (x->cond < y->cond);
}

int sf_budget_eval(const struct sf_budget *b, const struct sf_typeset *ts,
		   const char *inputs, struct sf_bresult *out,
		   struct sf_budget_miss *miss)
{
	return sf_budget_eval_live(b, ts, NULL, inputs, out, miss);
}

const struct sf_brule *sf_budget_live_rule(const struct sf_budget *b, uint32_t *cond)
{
	for (size_t ri = 0; ri < b->nrules; ri++)
		for (uint32_t k = 0; k < b->rules[ri].nconds; k++)
			if (b->rules[ri].conds[k].prop == SF_BP_LIVE_WASTE) {
				*cond = k;
				return &b->rules[ri];
			}
	return NULL;
}

int sf_budget_eval_live(const struct sf_budget *b, const struct sf_typeset *ts,
			const struct sf_live *live, const char *inputs,
			struct sf_bresult *out, struct sf_budget_miss *miss)
{
	memset(out, 0, sizeof(*out));
	out->budget = b;
	out->live = live;
	out->stats = sf_xcalloc(b->nrules ? b->nrules : 1, sizeof(*out->stats));
	eval_globs(out, ts);
	for (size_t ri = 0; ri < b->nrules; ri++) {
		const struct sf_brule *r = &b->rules[ri];
		int rc = 0;
		if (r->is_glob) {
			if (out->stats[ri].checked == 0 && !r->optional)
				rc = not_found(miss, (uint32_t)ri, -1, ts, NULL, inputs);
			out->stats[ri].skipped = out->stats[ri].checked == 0;
		} else if (r->nterms == 1) {
			rc = eval_single(out, (uint32_t)ri, ts, inputs, miss);
		} else {
			rc = eval_sum(out, (uint32_t)ri, ts, inputs, miss);
		}
		if (rc < 0) {
			sf_bresult_release(out);
			return -1;
		}
		out->nbroken += out->stats[ri].failed != 0;
		out->nskipped += out->stats[ri].skipped;
	}
	if (out->nfails > 1)
		qsort(out->fails, out->nfails, sizeof(*out->fails), fail_cmp);
	return 0;
}

/* First index in base->fails at or after (rule, subject): they are sorted. */
static size_t lower_bound(const struct sf_bresult *base, uint32_t rule,
			  const char *subject)
{
	size_t lo = 0, hi = base->nfails;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct sf_bfail *f = &base->fails[mid];
		int c = f->rule != rule ? (f->rule < rule ? -1 : 1) :
			strcmp(f->subject, subject);
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Is cur no worse than old under the condition's operator? */
static bool no_worse(const struct sf_bcond *c, uint64_t cur, uint64_t old)
{
	switch ((enum sf_bop)c->op) {
	case SF_BOP_LT: case SF_BOP_LE: return cur <= old;
	case SF_BOP_GT: case SF_BOP_GE: return cur >= old;
	default: return cur == old;
	}
}

/* Two builds' failures of one subject are the same definition's: for a
 * name with several, the one declared in a file of the same name (the
 * base build's types are gone by now: its def_file was kept). */
static bool same_definition(const struct sf_bfail *a, const struct sf_bfail *b)
{
	if (!a->def_file || !b->def_file)
		return true;
	return !strcmp(a->def_file, b->def_file);
}

static bool known_in(const struct sf_bresult *base, const struct sf_bresult *r,
		     const struct sf_bfail *f)
{
	const struct sf_bcond *c = &r->budget->rules[f->rule].conds[f->cond];

	for (size_t i = lower_bound(base, f->rule, f->subject); i < base->nfails; i++) {
		const struct sf_bfail *o = &base->fails[i];
		if (o->rule != f->rule || strcmp(o->subject, f->subject))
			break;
		if (o->cond == f->cond && !!o->no_class == !!f->no_class &&
		    same_definition(o, f) &&
		    (f->no_class ? f->size <= o->size : no_worse(c, f->value, o->value)))
			return true;
	}
	return false;
}

void sf_bresult_drop_known(struct sf_bresult *r, const struct sf_bresult *base)
{
	size_t k = 0;

	assert(r->budget == base->budget);
	for (size_t i = 0; i < r->nfails; i++) {
		if (known_in(base, r, &r->fails[i])) {
			free(r->fails[i].subject);
		free(r->fails[i].def_file);
			r->nknown++;
		} else {
			r->fails[k++] = r->fails[i];
		}
	}
	r->nfails = k;
	/* each rule's failed subjects again, from what is left (sorted by
	 * rule, then subject) */
	r->nbroken = 0;
	bool *was = sf_xcalloc(r->budget->nrules ? r->budget->nrules : 1, sizeof(*was));
	for (size_t ri = 0; ri < r->budget->nrules; ri++) {
		was[ri] = r->stats[ri].failed != 0;
		r->stats[ri].failed = 0;
	}
	for (size_t i = 0; i < k; i++) {
		const struct sf_bfail *f = &r->fails[i];
		if (i == 0 || f->rule != r->fails[i - 1].rule ||
		    strcmp(f->subject, r->fails[i - 1].subject) ||
		    f->type != r->fails[i - 1].type)
			r->stats[f->rule].failed++;
	}
	r->nknown_rules = 0;
	for (size_t ri = 0; ri < r->budget->nrules; ri++) {
		r->nbroken += r->stats[ri].failed != 0;
		r->nknown_rules += was[ri] && !r->stats[ri].failed;
	}
	free(was);
}

void sf_bresult_release(struct sf_bresult *r)
{
	for (size_t i = 0; i < r->nfails; i++) {
		free(r->fails[i].subject);
		free(r->fails[i].def_file);
	}
	free(r->fails);
	free(r->stats);
	memset(r, 0, sizeof(*r));
}

const char **sf_budget_wanted(const struct sf_budget *b)
{
	size_t n = 0, k = 0;

	for (size_t i = 0; i < b->nrules; i++) {
		if (b->rules[i].is_glob)
			return NULL;
		n += b->rules[i].nterms;
	}
	const char **v = sf_xcalloc(n + 1, sizeof(*v));
	for (size_t i = 0; i < b->nrules; i++)
		for (uint32_t j = 0; j < b->rules[i].nterms; j++)
			v[k++] = b->rules[i].terms[j].bare;
	assert(k == n);
	return v;
}

/* ------------------------------------------------------------ pinning */

static int type_name_cmp(const void *a, const void *b)
{
	const struct sf_type *x = *(const struct sf_type *const *)a;
	const struct sf_type *y = *(const struct sf_type *const *)b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	return (x->size < y->size) - (x->size > y->size); /* largest first */
}

/* Whether the parser reads `name` back as the same single name. */
static bool round_trips(const char *name)
{
	size_t n = strlen(name);

	if (sf_budget_name_len(name, n, 0) != n || sf_name_is_glob(name, n))
		return false;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)name[i] < 0x20 || name[i] == 0x7f)
			return false;
	return true;
}

/* One more line of the pinned budget. */
static void pin_add(struct sf_budget_pins *p, const struct sf_type *t, const char *file,
		    bool unwritable)
{
	SF_GROW(p->v, p->n, p->cap);
	p->v[p->n++] = (struct sf_budget_pin){ t, file, unwritable };
	p->rules += !unwritable;
}

/* Is `tail` (a tail of d's path) also a tail of another file among v[0..n)? */
static bool tail_shared(const struct sf_type *const *v, size_t n, const struct sf_type *d,
			const char *tail)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(v[i]->decl_file, d->decl_file) && declared_in(v[i]->decl_file, tail))
			return true;
	return false;
}

/*
 * How FILE is written after '@' for d among v[0..n): the shortest tail of
 * its path, whole components, that no other file of theirs ends in (its
 * file name, else "src/x.c", ...), so the rule reads the same whatever
 * source root a later check shows paths under; NULL when the budget could
 * not read it back (unknown, or blanks, '+', '#', '@').
 */
static const char *file_spelling(const struct sf_type *const *v, size_t n,
				 const struct sf_type *d)
{
	const char *path = d->decl_file, *tail = file_name(path);

	while (tail > path && tail_shared(v, n, d, tail)) {
		tail--;                         /* onto the '/' before it */
		while (tail > path && tail[-1] != '/')
			tail--;
	}
	if (!*tail || strpbrk(tail, " \t+#@<>()[]{}"))
		return NULL;
	return tail;
}

/*
 * Differing definitions of one name (v[0..n), largest first): one rule
 * per declaring file, `NAME@FILE`, each pinning its largest definition
 * (#ifdef variants of one header cannot be told apart: they share it).
 * False, with nothing added, when some file cannot be written.
 */
static bool pin_each_file(struct sf_budget_pins *p, const struct sf_type *const *v,
			  size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!file_spelling(v, n, v[i]))
			return false;
	for (size_t i = 0; i < n; i++) {
		bool seen = false;
		for (size_t k = 0; k < i && !seen; k++)
			seen = !strcmp(v[k]->decl_file, v[i]->decl_file);
		if (seen)
			continue;       /* its file's largest was pinned (sorted) */
		pin_add(p, v[i], file_spelling(v, n, v[i]), false);
	}
	return true;
}

void sf_budget_pins_make(const struct sf_typeset *ts, struct sf_budget_pins *out)
{
	sf_budget_pins_make_kept(ts, NULL, NULL, out);
}

void sf_budget_pins_make_kept(const struct sf_typeset *ts,
			      bool (*keep)(const void *ctx, const struct sf_type *t),
			      const void *ctx, struct sf_budget_pins *out)
{
	size_t n = sf_typeset_count(ts), k = 0;
	const struct sf_type **v = sf_xcalloc(n ? n : 1, sizeof(*v));

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < n; i++) {
		const struct sf_type *t = sf_typeset_get(ts, i);
		if (!reportable(t))
			continue;
		if (keep && !keep(ctx, t))
			out->dropped++;
		else
			v[k++] = t;
	}
	qsort(v, k, sizeof(*v), type_name_cmp);
	for (size_t i = 0; i < k; i++) {
		size_t w = strlen(sf_kind_name(v[i]->kind)) + 1 + strlen(v[i]->name);
		if (w > out->width && w <= 48)
			out->width = w;
	}
	for (size_t i = 0, j; i < k; i = j) {
		/* v[i..j): the definitions of one name, largest first */
		for (j = i + 1; j < k && !strcmp(v[j]->name, v[i]->name) &&
			     v[j]->kind == v[i]->kind; j++)
			;
		if (!round_trips(v[i]->name))
			pin_add(out, v[i], NULL, true);
		else if (j - i == 1 || !pin_each_file(out, v + i, j - i))
			pin_add(out, v[i], NULL, false);
	}
	free(v);
}

void sf_budget_pins_release(struct sf_budget_pins *p)
{
	free(p->v);
	memset(p, 0, sizeof(*p));
}
