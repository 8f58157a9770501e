/*
 * contained.c - patch's stale-source check of the structs a struct holds
 * by value.  The check of t itself (layout/cdecl.c, under
 * layout/srcpatch.c) compares t's members with its source; but t's size
 * and every offset also depend on the structs it holds by value, and a
 * patch of one of those since the build (patching `stats`, then `server`,
 * without a rebuild) changes them unseen: patch promised 96 -> 80 and the
 * build gave 64.
 *
 * A worklist of the model types t holds (struct members, and arrays of
 * structs, by the type name the DWARF gives; at most SF_CONTAINED_MAX,
 * each once), each checked against the file its DWARF names: the
 * definition there must still match (sf_cdecl_parse).  Nothing is kept
 * past the call.
 */
#include "contained.h"

#include <stdlib.h>
#include <string.h>

#include "input/srctree.h"
#include "layout/cdecl.h"
#include "layout/tmpl.h"
#include "lib/xalloc.h"
#include "report/patch.h"
#include "report/srcwhy.h"

/* A member's type name without qualifiers: "const struct x" -> "struct x"
 * (points into name); NULL when it is not a struct held by value. */
static const char *held_struct(const struct sf_member *m)
{
	const char *name = m->type_name;

	if (m->nested || (m->tclass != SF_T_STRUCT && m->tclass != SF_T_ARRAY) ||
	    strpbrk(name, "*(&"))
		return NULL;
	for (;;) {
		if (!strncmp(name, "const ", 6))
			name += 6;
		else if (!strncmp(name, "volatile ", 9))
			name += 9;
		else
			break;
	}
	if (m->tclass == SF_T_ARRAY && strncmp(name, "struct ", 7))
		return NULL;
	return name;
}

struct worklist {
	const struct sf_type *v[SF_CONTAINED_MAX];
	const struct sf_type *holder[SF_CONTAINED_MAX];
	const struct sf_member *member[SF_CONTAINED_MAX];
	size_t n;
};

/* The definition of `name` a member of `size` bytes (0: an array) holds. */
static const struct sf_type *find_held(const struct sf_typeset *ts, const char *name,
				       uint64_t size, bool array)
{
	const struct sf_type *found[8];
	size_t n = sf_typeset_find(ts, name, found, 8);

	for (size_t i = 0; i < n && i < 8; i++)
		if ((found[i]->kind == SF_KIND_STRUCT || found[i]->kind == SF_KIND_CLASS) &&
		    found[i]->nmembers &&
		    (array || found[i]->size == size))
			return found[i];
	return NULL;
}

/* Add the structs t holds; false when one is not in ts. */
static bool add_held(struct worklist *w, const struct sf_typeset *ts,
		     const struct sf_type *t)
{
	for (uint32_t i = 0; i < t->nmembers; i++) {
		const struct sf_member *m = &t->members[i];
		const char *name = held_struct(m);
		if (!name)
			continue;
		const struct sf_type *c = find_held(ts, name, m->size,
						    m->tclass == SF_T_ARRAY);
		if (!c)
			return false;
		bool seen = false;
		for (size_t k = 0; k < w->n && !seen; k++)
			seen = w->v[k] == c;
		if (seen || w->n == SF_CONTAINED_MAX)
			continue;
		w->holder[w->n] = t;
		w->member[w->n] = m;
		w->v[w->n++] = c;
	}
	return true;
}

/* Every struct t holds, at any depth, into w; false when one is missing. */
static bool collect(struct worklist *w, const struct sf_typeset *ts,
		    const struct sf_type *t)
{
	w->n = 0;
	if (!add_held(w, ts, t))
		return false;
	for (size_t k = 0; k < w->n; k++)
		if (!add_held(w, ts, w->v[k]))
			return false;
	return true;
}

/*
 * c as its source text declares it, into *dt: without a base or the vptr
 * (C++), a class template's instantiation under the template's name
 * (*name, malloc'ed).  0 when it cannot be judged from the text: a class
 * nested in a template, or a specialization's instantiation.
 */
static int declared_view(const struct sf_type *c, const struct strbuf *text,
			 struct sf_type *dt, struct sf_member **v, char **name)
{
	*v = NULL;
	*name = NULL;
	if (sf_cdecl_in_template(c) &&
	    (sf_tmpl_nested(c->name) || sf_cdecl_specialized_at(text->buf, text->len, c)))
		return 0;
	sf_cdecl_declared(c, dt, v, NULL);
	if (sf_cdecl_in_template(c)) {
		*name = sf_xstrndup(c->name, sf_tmpl_name_len(c->name));
		dt->name = *name;
	}
	return 1;
}

/* c's definition in the file the build saw it in: 0 when it matches, or
 * cannot be judged; -1 with err set when it changed since the build. */
static int check_one(const struct sf_type *c, const struct sf_source_root *root,
		     const struct sf_cmacros *macros, struct sf_err *err)
{
	struct sf_source src = { NULL, NULL };
	struct strbuf why = STRBUF_INIT, text = STRBUF_INIT;
	struct sf_type dt;
	struct sf_member *v = NULL;
	char *name = NULL;
	int rc = 0;

	if (sf_source_find(c, root, &src, &why) == 0 &&
	    sf_source_read(src.path, &text, &why) == 0 &&
	    declared_view(c, &text, &dt, &v, &name)) {
		struct sf_src_why sw;
		struct sf_cdecl_ctx x = { .path = src.rel, .tname = c->name, .why = &sw,
					  .macros = macros };
		struct sf_cstruct p;
		sf_clex(&x.lx, text.buf, text.len);
		/* only a definition that no longer matches is judged stale */
		if (sf_cdecl_parse(&x, &dt, &p) < 0 && sf_src_why_stale(&sw))
			rc = sf_render_src_why(err, &dt, &sw);
		sf_cdecl_free(&p);
		sf_clex_free(&x.lx);
	}
	free(v);
	free(name);
	sf_source_release(&src);
	sb_release(&why);
	sb_release(&text);
	return rc;
}

int sf_patch_contained_fresh(const struct sf_type *t, const struct sf_typeset *ts,
			     const struct sf_common_opts *co, char **files, int nfiles,
			     const struct sf_source_root *root, const struct sf_cmacros *macros)
{
	struct worklist *w = calloc(1, sizeof(*w));
	struct sf_typeset *all = NULL;
	int rc = 0;

	if (!w)
		return sf_die_usage("out of memory");
	if (!collect(w, ts, t)) {
		/* read for t alone: the structs it holds are read now */
		all = sf_load_inputs(co, files, nfiles, NULL);
		const struct sf_type *t2 = all ? find_held(all, t->name, t->size, false) : NULL;
		if (t2)
			collect(w, all, t2);
	}
	for (size_t k = 0; k < w->n && !rc; k++) {
		struct sf_err err = SF_ERR_INIT;
		if (check_one(w->v[k], root, macros, &err) == 0)
			continue;
		struct strbuf msg = STRBUF_INIT;
		sf_render_patch_held_stale(&msg, t, w->holder[k], w->member[k], w->v[k],
					   err.msg);
		rc = sf_die_long(msg.buf);
		sb_release(&msg);
	}
	sf_typeset_free(all);
	free(w);
	return rc;
}
