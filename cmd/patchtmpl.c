/*
 * patchtmpl.c - patch on a C++ class template instantiation: wiring of
 * layout/tmpl.h (the other instantiations under the new order) and the
 * source checks, for cmd/patch.c.
 *
 * The source of a template declares its members once, for every
 * instantiation: patch reads and rewrites it under the template's own
 * name (the view: t with name "Slot" for "Slot<long int>"), and a member
 * whose type names a template parameter is matched by name alone
 * (layout/cdecl.c).  Before that, the instantiation asked must be the
 * primary template's (not a specialization's), and after the plan every
 * instantiation in the inputs is laid out in the new order: none may
 * grow, one must shrink.
 *
 *   struct sf_tmpl_inst v[] = { t (as planned), the others (tmpl.h) }
 */
#include "patchtmpl.h"

#include <stdlib.h>
#include <string.h>

#include "layout/cxxwhy.h"
#include "layout/plan.h"
#include "layout/tmpl.h"
#include "lib/xalloc.h"
#include "report/patch.h"

char *sf_patch_tmpl_glob(const char *bare)
{
	size_t n = sf_tmpl_name_len(bare);

	if (!n || sf_tmpl_nested(bare))
		return NULL;
	char *g = sf_xcalloc(n + 3, 1);
	memcpy(g, bare, n);
	memcpy(g + n, "<*", 2);
	return g;
}

int sf_patch_tmpl_view(const struct sf_type *t, struct sf_typeset *ts, struct sf_type *view)
{
	size_t n = (t->flags & SF_TF_CXX) ? sf_tmpl_name_len(t->name) : 0;

	if (!n || sf_tmpl_nested(t->name))
		return 0;
	*view = *t;
	view->name = sf_typeset_intern_n(ts, t->name, n);
	return 1;
}

/* A refusal of t's (layout/cxxwhy.h) in file rel, printed: 2. */
static int refuse(const char *rel, const struct sf_type *t, const struct sf_cxx_why *why)
{
	struct strbuf line = STRBUF_INIT;

	sf_render_patch_cxx(&line, rel, t, why);
	int rc = sf_die_long(line.buf);
	sb_release(&line);
	return rc;
}

int sf_patch_tmpl_specialized(const struct sf_type *t, const struct sf_source_root *root)
{
	struct sf_source src = { NULL, NULL };
	struct strbuf err = STRBUF_INIT, text = STRBUF_INIT;
	int rc = 0;

	if (sf_source_find(t, root, &src, &err) == 0 &&
	    sf_source_read(src.path, &text, &err) == 0) {
		uint32_t line = sf_cdecl_specialized_at(text.buf, text.len, t);
		struct sf_cxx_why why = { SF_CXX_SPECIALIZED, line, NULL, 0, 0 };
		if (line)
			rc = refuse(src.rel, t, &why);
	}
	sf_source_release(&src);
	sb_release(&err);
	sb_release(&text);
	return rc;
}

/* The first refusal among v[0..n) (layout/tmpl.h's states, a growth),
 * or none shrinking: its why; SF_CXX_NONE when the patch may go on. */
static struct sf_cxx_why judge(const struct sf_tmpl_inst *v, size_t n)
{
	static const enum sf_cxx_refusal of_state[] = {
		[SF_TMPL_OK] = SF_CXX_NONE, [SF_TMPL_UNMODELED] = SF_CXX_TMPL_UNMODELED,
		[SF_TMPL_MEMBERS] = SF_CXX_TMPL_MEMBERS, [SF_TMPL_NO_FIT] = SF_CXX_TMPL_NO_FIT,
		[SF_TMPL_NARROW] = SF_CXX_TMPL_NARROW,
	};
	struct sf_cxx_why why = { SF_CXX_TMPL_NO_GAIN, 0, NULL, 0, 0 };

	for (size_t i = 0; i < n; i++) {
		const char *name = v[i].type->name;
		if (v[i].state != SF_TMPL_OK)
			return (struct sf_cxx_why){ of_state[v[i].state], 0,
						    v[i].member ? v[i].member : name, 0, 0 };
		if (v[i].new_size > v[i].old_size)
			return (struct sf_cxx_why){ SF_CXX_TMPL_GROWS, 0, name,
						    (uint32_t)v[i].old_size,
						    (uint32_t)v[i].new_size };
		if (v[i].new_size < v[i].old_size)
			why.kind = SF_CXX_NONE;
	}
	return why;
}

/* pl's pinned names as flags on t's members. */
static bool *pin_flags(const struct sf_type *t, const struct sf_patch_tmpl_plan *pl)
{
	bool *pin = sf_xcalloc(t->nmembers + 1, sizeof(bool));

	for (size_t i = 0; i < pl->npins; i++) {
		long m = sf_member_index(t, pl->pins[i]);
		if (m >= 0)
			pin[m] = true;
	}
	return pin;
}

int sf_patch_tmpl_sizes(const struct sf_type *t, struct sf_typeset *ts,
			const struct sf_patch_tmpl_plan *pl, const char *rel,
			struct strbuf *note)
{
	const struct sf_type **other, **spec;
	size_t nspec, n = sf_tmpl_instances(ts, t, &other, &spec, &nspec);
	struct sf_tmpl_inst *v = sf_xcalloc(n + 1, sizeof(*v));
	bool *pin = pin_flags(t, pl);
	struct sf_tmpl_plan tp = { pl->order, pin, pl->pin_first, pl->narrow, pl->nnarrow };
	int rc = 0;

	v[0] = (struct sf_tmpl_inst){ t, pl->old_size, pl->new_size, SF_TMPL_OK, NULL };
	for (size_t i = 0; i < n; i++)
		sf_tmpl_resize(t, &tp, other[i], ts, &v[i + 1]);
	struct sf_cxx_why why = judge(v, n + 1);
	if (why.kind != SF_CXX_NONE) {
		why.line = t->decl_line;
		rc = refuse(rel, t, &why);
	} else {
		char *name = sf_xstrndup(t->name, sf_tmpl_name_len(t->name));
		sf_render_patch_tmpl_note(note, name, v, n + 1, spec, nspec);
		free(name);
	}
	free(v);
	free(pin);
	free(other);
	free(spec);
	return rc;
}
