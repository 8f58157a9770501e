/*
 * tmpl.c - a class template's instantiations under one member order (see
 * tmpl.h).
 *
 * An instantiation u is mapped onto t by member name: map[i] is u's
 * member called like t's member i.  The order t's plan gives (t's member
 * indexes) becomes an order of u's placement units (reorder.h: a run of
 * bit-fields is one unit, the flexible array none), each unit once, at
 * the place of its first member; sf_units_place lays it out.
 */
#include "tmpl.h"

#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"
#include "narrow.h"
#include "plan.h"
#include "reorder.h"

size_t sf_tmpl_name_len(const char *name)
{
	size_t open = 0;
	int angle = 0;

	for (size_t i = 0; name[i]; i++) {
		if (name[i] == '<' && angle++ == 0)
			open = i;
		else if (name[i] == '>' && angle)
			angle--;
		else if (!angle && name[i] == ':' && name[i + 1] == ':')
			open = 0;
	}
	return open;
}

bool sf_tmpl_nested(const char *name)
{
	int angle = 0;
	bool args = false;

	for (size_t i = 0; name[i]; i++) {
		if (name[i] == '<')
			args |= angle++ == 0;
		else if (name[i] == '>' && angle)
			angle--;
		else if (!angle && name[i] == ':' && name[i + 1] == ':' && args)
			return true;
	}
	return false;
}

/* Whether u is named by the template of t, whose name is n bytes. */
static bool same_template(const struct sf_type *t, size_t n, const struct sf_type *u)
{
	return u != t && u->name && !strncmp(u->name, t->name, n) && u->name[n] == '<' &&
	       sf_tmpl_name_len(u->name) == n && u->kind == t->kind &&
	       !(u->flags & SF_TF_DECLARATION);
}

/*
 * Whether two decl_files may name the same file: the same last component
 * (two units may spell one header's directory differently).  Taking a
 * specialization's instantiation for the primary's only checks one more
 * (its members then differ: a refusal), never one less.
 */
static bool same_file(const char *a, const char *b)
{
	const char *sa = a ? strrchr(a, '/') : NULL, *sb = b ? strrchr(b, '/') : NULL;

	return a && b && !strcmp(sa ? sa + 1 : a, sb ? sb + 1 : b);
}

static void push(const struct sf_type ***v, size_t *n, const struct sf_type *u)
{
	*v = sf_xreallocarray(*v, *n + 1, sizeof(**v));
	(*v)[(*n)++] = u;
}

size_t sf_tmpl_instances(const struct sf_typeset *ts, const struct sf_type *t,
			 const struct sf_type ***out, const struct sf_type ***spec,
			 size_t *nspec)
{
	size_t n = sf_tmpl_name_len(t->name), k = 0;

	*out = *spec = NULL;
	*nspec = 0;
	for (size_t i = 0; n && i < sf_typeset_count(ts); i++) {
		const struct sf_type *u = sf_typeset_get(ts, i);
		if (!same_template(t, n, u))
			continue;
		if (u->decl_line == t->decl_line && same_file(u->decl_file, t->decl_file))
			push(out, &k, u);
		else
			push(spec, nspec, u);
	}
	return k;
}

/* map[i]: u's member named as t's member i; -1 when one has none. */
static int map_members(const struct sf_type *t, const struct sf_type *u, uint32_t *map)
{
	if (t->nmembers != u->nmembers)
		return -1;
	for (uint32_t i = 0; i < t->nmembers; i++) {
		long m = t->members[i].name[0] ? sf_member_index(u, t->members[i].name) : i;
		if (m < 0 || u->members[m].name[0] != t->members[i].name[0])
			return -1;
		map[i] = (uint32_t)m;
	}
	return 0;
}

/* Whether members a and b have the same type (as the model spells it). */
static bool same_type(const struct sf_member *a, const struct sf_member *b)
{
	return a->size == b->size && a->bit_size == b->bit_size &&
	       !strcmp(a->type_name ? a->type_name : "", b->type_name ? b->type_name : "") &&
	       !strcmp(a->type_suffix ? a->type_suffix : "", b->type_suffix ? b->type_suffix : "");
}

/* The units of us in the order of t's members `order` (mapped by map):
 * each unit once, where its first member comes. */
static uint64_t place_mapped(const struct sf_units *us, const uint32_t *order,
			     uint32_t n, const uint32_t *map)
{
	uint32_t *uorder = sf_xcalloc(us->n + 1, sizeof(uint32_t));
	bool *seen = sf_xcalloc(us->n + 1, sizeof(bool));
	size_t k = 0;

	for (uint32_t i = 0; i < n; i++) {
		size_t u = sf_units_of_member(us, map[order[i]]);
		if (u == SIZE_MAX || seen[u])
			continue;
		seen[u] = true;
		uorder[k++] = (uint32_t)u;
	}
	uint64_t size = k == us->n ? sf_units_place(us, uorder, NULL) : SF_NO_FIT;
	free(uorder);
	free(seen);
	return size;
}

void sf_tmpl_resize(const struct sf_type *t, const struct sf_tmpl_plan *pl,
		    const struct sf_type *u, struct sf_typeset *arena,
		    struct sf_tmpl_inst *out)
{
	uint32_t *map = sf_xcalloc(t->nmembers + 1, sizeof(uint32_t));
	bool *pin = sf_xcalloc(t->nmembers + 1, sizeof(bool));
	struct sf_narrow_req *req = sf_xcalloc(pl->nnarrow + 1, sizeof(*req));
	struct sf_units us;

	*out = (struct sf_tmpl_inst){ u, u->size, u->size, SF_TMPL_MEMBERS, NULL };
	if (map_members(t, u, map) < 0)
		goto out;
	for (uint32_t i = 0; i < t->nmembers; i++)
		pin[map[i]] = pl->pin && pl->pin[i];
	for (size_t i = 0; i < pl->nnarrow; i++) {
		const struct sf_member *a = &t->members[pl->narrow[i].member];
		if (!same_type(a, &u->members[map[pl->narrow[i].member]])) {
			out->state = SF_TMPL_NARROW;
			out->member = a->name;
			goto out;
		}
		req[i] = (struct sf_narrow_req){ map[pl->narrow[i].member], pl->narrow[i].bytes };
	}
	const struct sf_type *base = pl->nnarrow ? sf_type_narrow(u, req, pl->nnarrow, arena) : u;
	sf_units_build(u, pin, pl->pin_first, &us);
	bool modeled = us.modeled;
	sf_units_release(&us);
	out->state = SF_TMPL_UNMODELED;
	if (!modeled)
		goto out;
	sf_units_build(base, pin, pl->pin_first, &us);
	out->new_size = place_mapped(&us, pl->order, t->nmembers, map);
	out->state = out->new_size == SF_NO_FIT ? SF_TMPL_NO_FIT : SF_TMPL_OK;
	sf_units_release(&us);
out:
	free(map);
	free(pin);
	free(req);
}
