/*
 * diff.c - compare the layouts of two builds.
 *
 * 1. Keys: every (name, kind, namespace) of both typesets (or of opts->only), in one
 *    array sorted by name then kind and made unique: a merge of the two
 *    builds in O(T log T), deterministic whatever order the reader found
 *    the types in.
 * 2. Per key, every definition on each side, paired by declaring file and
 *    line, then file, then file name, then name alone - each step only
 *    where it is unambiguous (compare_key).  Unpaired: added or removed
 *    (a definition, when the name is in both builds).  Equal definitions
 *    (hash, then sf_type_equal): unchanged, nothing computed.  Names and
 *    member types compare in their canonical spelling (model/spelling.h):
 *    a gcc and a clang build of one source are the same.
 * 3. Otherwise the members of both sides are flattened (members of
 *    anonymous structs/unions brought up, as their names are in the outer
 *    scope), sorted by name and merged: added, removed, moved, retyped.
 *    Both layouts are computed (layout/holes.c) and their holes matched by
 *    (member before, size): unmatched new ones are gained, old ones lost.
 * 4. The entries are sorted: changed by growth, added, removed.
 */
#include "diff.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "holes.h"
#include "lib/checked.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "model/spelling.h"

struct key {
	const char *name;
	char *canon;            /* a template's canonical name (model/spelling.h), or NULL */
	uint8_t kind;
	uint8_t is_typedef;     /* a typedef name, not a tag (C's namespaces) */
};

static bool reportable(const struct sf_type *t)
{
	return t && t->name[0] && !(t->flags & SF_TF_DECLARATION);
}

static int key_cmp(const void *a, const void *b)
{
	const struct key *x = a, *y = b;
	int c = strcmp(x->canon ? x->canon : x->name, y->canon ? y->canon : y->name);

	if (!c)
		c = (x->kind > y->kind) - (x->kind < y->kind);
	return c ? c : (x->is_typedef > y->is_typedef) - (x->is_typedef < y->is_typedef);
}

static void push_key(struct key **v, size_t *n, size_t *cap,
		     const struct sf_type *t)
{
	char *canon = NULL;

	/* `Slot<long int>` (g++) and `Slot<long>` (clang++) are one key */
	if (strchr(t->name, '<')) {
		struct strbuf sb = STRBUF_INIT;
		sf_spell_canon(t->name, &sb);
		canon = sb_detach(&sb);
	}
	SF_GROW(*v, *n, *cap);
	(*v)[(*n)++] = (struct key){ t->name, canon, t->kind, (t->flags & SF_TF_TYPEDEF) != 0 };
}

/* C++ "struct" and "class" differ only in default access. */
static bool same_kind(uint8_t a, uint8_t b)
{
	return a == b || (a != SF_KIND_UNION && b != SF_KIND_UNION);
}

/*
 * Every definition of `name` (in one namespace when ns >= 0: 1 typedef
 * names, 0 tags; else as -t looks it up), in a new array the caller frees:
 * sized by a first count, so no number of same-named types is cut off.
 */
static size_t find_all(const struct sf_typeset *ts, const char *name, int ns,
		       const struct sf_type ***out)
{
	size_t n = ns >= 0 ? sf_typeset_find_ns(ts, name, ns, NULL, 0)
			   : sf_typeset_find(ts, name, NULL, 0);

	*out = NULL;
	if (!n)
		return 0;
	*out = sf_xcalloc(n, sizeof(**out));
	size_t got = ns >= 0 ? sf_typeset_find_ns(ts, name, ns, *out, n)
			     : sf_typeset_find(ts, name, *out, n);
	assert(got == n);
	return got;
}

/* Every definition named `k` in ts (kind and namespace as k's), in a new
 * array the caller frees. */
static size_t lookup_defs(const struct sf_typeset *ts, const struct key *k,
			  const struct sf_type ***out)
{
	const struct sf_type **found;
	size_t n = find_all(ts, k->name, k->is_typedef ? 1 : 0, &found), m = 0;

	for (size_t i = 0; i < n; i++)
		if (same_kind(found[i]->kind, k->kind) && reportable(found[i]))
			found[m++] = found[i];
	*out = found;
	return m;
}

/* The first definition called `name` ("st_table", "union u") in ts. */
static const struct sf_type *lookup_name(const struct sf_typeset *ts,
					 const char *name)
{
	const struct sf_type **found, *first = NULL;
	size_t n = find_all(ts, name, -1, &found);

	for (size_t i = 0; i < n && !first; i++)
		if (reportable(found[i]))
			first = found[i];
	free(found);
	return first;
}

static void free_keys(struct key *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].canon);
	free(v);
}

static int collect_keys(const struct sf_typeset *old_ts,
			const struct sf_typeset *new_ts,
			const struct sf_diff_opts *o, struct key **out,
			size_t *nout, const char **missing)
{
	struct key *v = NULL;
	size_t n = 0, cap = 0;

	if (o && o->only) {
		for (const char *const *p = o->only; *p; p++) {
			const struct sf_type *a = lookup_name(old_ts, *p);
			const struct sf_type *b = lookup_name(new_ts, *p);
			if (!a && !b) {
				free_keys(v, n);
				*missing = *p;
				return -1;
			}
			if (a)
				push_key(&v, &n, &cap, a);
			if (b)
				push_key(&v, &n, &cap, b);
		}
	} else {
		const struct sf_typeset *sets[2] = { old_ts, new_ts };
		for (int s = 0; s < 2; s++) {
			size_t count = sf_typeset_count(sets[s]);
			for (size_t i = 0; i < count; i++) {
				const struct sf_type *t = sf_typeset_get(sets[s], i);
				if (reportable(t))
					push_key(&v, &n, &cap, t);
			}
		}
	}
	if (n > 1)
		qsort(v, n, sizeof(*v), key_cmp);
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (k == 0 || key_cmp(&v[k - 1], &v[i]) != 0)
			v[k++] = v[i];
		else
			free(v[i].canon);
	}
	*out = v;
	*nout = k;
	return 0;
}

/* ------------------------------------------------------------ members */

struct flat {
	const char *name;
	const struct sf_member *m;
	uint32_t index;             /* position in the flattened order */
};

struct flatv {
	struct flat *v;
	size_t n, cap;
};

static void flatten(const struct sf_type *t, struct flatv *f, unsigned depth)
{
	assert(depth < 256);
	for (uint32_t i = 0; i < t->nmembers; i++) {
		const struct sf_member *m = &t->members[i];
		if (!m->name[0] && m->nested) {
			flatten(m->nested, f, depth + 1);
		} else if (m->name[0]) {
			SF_GROW(f->v, f->n, f->cap);
			f->v[f->n] = (struct flat){ m->name, m, (uint32_t)f->n };
			f->n++;
		}
	}
}

static int flat_cmp(const void *a, const void *b)
{
	const struct flat *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x->index > y->index) - (x->index < y->index);
}

static bool moved(const struct sf_member *a, const struct sf_member *b)
{
	return a->offset != b->offset ||
	       (a->bit_size && b->bit_size && a->bit_offset != b->bit_offset);
}

static bool retyped(const struct sf_member *a, const struct sf_member *b)
{
	return a->size != b->size || a->bit_size != b->bit_size ||
	       !sf_spell_eq(a->type_name, b->type_name) ||
	       !sf_spell_eq(a->type_suffix, b->type_suffix);
}

struct pair {
	uint32_t old_index, new_index;
};

static int pair_cmp(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;

	return (x->old_index > y->old_index) - (x->old_index < y->old_index);
}

/* Where a member change sits in the type: for ordering the list. */
static uint64_t dmember_pos(const struct sf_dmember *d)
{
	const struct sf_member *m = d->new ? d->new : d->old;

	return sf_bits_of(m->offset) + (m->bit_size ? m->bit_offset : 0);
}

static int dmember_cmp(const void *a, const void *b)
{
	const struct sf_dmember *x = a, *y = b;
	uint64_t px = dmember_pos(x), py = dmember_pos(y);

	if (px != py)
		return px < py ? -1 : 1;
	if (x->change != y->change)
		return x->change < y->change ? -1 : 1;
	const char *nx = x->new ? x->new->name : x->old->name;
	const char *ny = y->new ? y->new->name : y->old->name;
	return strcmp(nx, ny);
}

static void add_dmember(struct sf_dtype *d, size_t *cap, uint8_t change,
			const struct sf_member *a, const struct sf_member *b)
{
	SF_GROW(d->members, d->nmembers, *cap);
	d->members[d->nmembers++] = (struct sf_dmember){ change, a, b };
}

static void diff_members(struct sf_dtype *d)
{
	struct flatv a = { 0 }, b = { 0 };
	struct pair *pairs = NULL;
	size_t np = 0, pcap = 0, cap = 0, i = 0, j = 0;

	flatten(d->old, &a, 0);
	flatten(d->new, &b, 0);
	/* a type without members flattens to a NULL array: no qsort(NULL) */
	if (a.n > 1)
		qsort(a.v, a.n, sizeof(*a.v), flat_cmp);
	if (b.n > 1)
		qsort(b.v, b.n, sizeof(*b.v), flat_cmp);
	while (i < a.n || j < b.n) {
		int c = i == a.n ? 1 : j == b.n ? -1 : strcmp(a.v[i].name, b.v[j].name);
		if (c < 0) {
			add_dmember(d, &cap, SF_MC_REMOVED, a.v[i++].m, NULL);
		} else if (c > 0) {
			add_dmember(d, &cap, SF_MC_ADDED, NULL, b.v[j++].m);
		} else {
			const struct sf_member *x = a.v[i].m, *y = b.v[j].m;
			if (moved(x, y))
				add_dmember(d, &cap, SF_MC_MOVED, x, y);
			if (retyped(x, y))
				add_dmember(d, &cap, SF_MC_RETYPED, x, y);
			SF_GROW(pairs, np, pcap);
			pairs[np++] = (struct pair){ a.v[i].index, b.v[j].index };
			i++;
			j++;
		}
	}
	/* Kept members in old order must be in new order too. */
	if (np > 1)
		qsort(pairs, np, sizeof(*pairs), pair_cmp);
	for (size_t k = 1; k < np; k++)
		if (pairs[k].new_index < pairs[k - 1].new_index)
			d->reordered = true;
	if (d->nmembers > 1)
		qsort(d->members, d->nmembers, sizeof(*d->members), dmember_cmp);
	free(pairs);
	free(a.v);
	free(b.v);
}

/* ------------------------------------------------------------ holes */

static const char *hole_after(const struct sf_type *t, uint32_t after)
{
	return after == SF_NO_MEMBER || after >= t->nmembers ? "" :
	       t->members[after].name;
}

/* Holes of `l` (in type t) with no equal (member before, size) in `other`. */
static void unmatched_holes(struct sf_dtype *d, size_t *cap, bool gained,
			    const struct sf_type *t, const struct sf_layout *l,
			    const struct sf_type *ot, const struct sf_layout *other)
{
	bool *used = sf_xcalloc(other->nholes ? other->nholes : 1, sizeof(*used));

	for (uint32_t i = 0; i < l->nholes; i++) {
		const char *after = hole_after(t, l->holes[i].after);
		bool matched = false;
		for (uint32_t k = 0; k < other->nholes && !matched; k++) {
			if (used[k] || other->holes[k].size != l->holes[i].size ||
			    strcmp(hole_after(ot, other->holes[k].after), after))
				continue;
			used[k] = matched = true;
		}
		if (matched)
			continue;
		SF_GROW(d->holes, d->nholes, *cap);
		d->holes[d->nholes++] = (struct sf_dhole){
			gained, l->holes[i].offset, l->holes[i].size, after,
		};
	}
	free(used);
}

static void diff_holes(struct sf_dtype *d)
{
	struct sf_layout lo, ln;
	size_t cap = 0;

	sf_layout_compute(d->old, SF_CACHELINE, &lo);
	sf_layout_compute(d->new, SF_CACHELINE, &ln);
	d->old_nholes = lo.nholes;
	d->new_nholes = ln.nholes;
	d->old_sum_holes = lo.sum_holes;
	d->new_sum_holes = ln.sum_holes;
	d->old_padding = lo.padding;
	d->new_padding = ln.padding;
	unmatched_holes(d, &cap, true, d->new, &ln, d->old, &lo);
	unmatched_holes(d, &cap, false, d->old, &lo, d->new, &ln);
	sf_layout_release(&lo);
	sf_layout_release(&ln);
}

/* ------------------------------------------------------------ types */

static bool has_changes(const struct sf_dtype *d)
{
	return d->old->size != d->new->size || d->old->align != d->new->align ||
	       d->nmembers || d->nholes || d->reordered ||
	       d->old_padding != d->new_padding;
}

static void dtype_release(struct sf_dtype *d)
{
	free(d->members);
	free(d->holes);
}

static int dtype_cmp(const void *a, const void *b)
{
	const struct sf_dtype *x = a, *y = b;

	if (x->status != y->status)
		return x->status < y->status ? -1 : 1;
	if (x->status == SF_D_CHANGED && x->growth != y->growth)
		return x->growth > y->growth ? -1 : 1;
	const struct sf_type *tx = x->new ? x->new : x->old;
	const struct sf_type *ty = y->new ? y->new : y->old;
	if (x->status != SF_D_CHANGED && tx->size != ty->size)
		return tx->size > ty->size ? -1 : 1;
	int c = strcmp(tx->name, ty->name);
	if (!c)
		c = (tx->kind > ty->kind) - (tx->kind < ty->kind);
	if (!c)
		c = strcmp(tx->decl_file, ty->decl_file);
	if (!c)
		c = (tx->decl_line > ty->decl_line) - (tx->decl_line < ty->decl_line);
	return c;
}

static void add_entry(struct sf_diff *out, const struct sf_dtype *d)
{
	SF_GROW(out->types, out->n, out->cap);
	out->types[out->n++] = *d;
	switch ((enum sf_dstatus)d->status) {
	case SF_D_CHANGED:
		out->nchanged++;
		out->growth += d->growth;
		out->ngrown += d->growth > 0;
		break;
	case SF_D_ADDED:
		out->nadded++;
		break;
	case SF_D_REMOVED:
		out->nremoved++;
		break;
	}
}

static void compare_pair(struct sf_diff *out, const struct sf_type *a,
			 const struct sf_type *b, bool definition)
{
	struct sf_dtype d = { .old = a, .new = b, .definition = definition };

	assert(a || b);
	if (!a) {
		d.status = SF_D_ADDED;
		d.growth = (int64_t)b->size;
	} else if (!b) {
		d.status = SF_D_REMOVED;
		d.growth = -(int64_t)a->size;
	} else {
		if (a->hash == b->hash && sf_type_equal(a, b))
			return;
		d.status = SF_D_CHANGED;
		d.growth = (int64_t)b->size - (int64_t)a->size;
		diff_members(&d);
		diff_holes(&d);
		if (!has_changes(&d)) {
			dtype_release(&d);
			return;
		}
	}
	add_entry(out, &d);
}

/* The file name of a path: what two builds in two trees still share. */
static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

enum pairing {
	BY_EQUAL,       /* the same definition: unchanged */
	BY_FILE_LINE,   /* same declaring file and line */
	BY_FILE,        /* same file (the struct moved in it), one each */
	BY_BASENAME,    /* same file name (two trees), one each */
	BY_NAME,        /* the one definition left on each side */
};

static bool same_place(const struct sf_type *a, const struct sf_type *b, enum pairing how)
{
	switch (how) {
	case BY_EQUAL:
		return a->hash == b->hash && sf_type_equal(a, b);
	case BY_FILE_LINE:
		return !strcmp(a->decl_file, b->decl_file) && a->decl_line == b->decl_line;
	case BY_FILE:
		return !strcmp(a->decl_file, b->decl_file);
	case BY_BASENAME:
		return !strcmp(base_name(a->decl_file), base_name(b->decl_file));
	case BY_NAME:
		return true;
	}
	return false;
}

/* How many of the unpaired v[0..n) are at the same place as t. */
static size_t count_at(const struct sf_type *const *v, size_t n, const bool *paired,
		       const struct sf_type *t, enum pairing how)
{
	size_t c = 0;

	for (size_t i = 0; i < n; i++)
		c += !paired[i] && same_place(v[i], t, how);
	return c;
}

/*
 * Pair the definitions of one name: equal ones first (unchanged), then by
 * declaring file and line, then by file, then by file name, then the last
 * one left on each side - each step only where the place names one
 * definition on either side (a header's struct under #ifdef has one
 * file and line and two definitions), so two programs' same-named
 * structs are never crossed.  What is left unpaired
 * was added or removed.
 */
static void compare_key(struct sf_diff *out, const struct sf_typeset *old_ts,
			const struct sf_typeset *new_ts, const struct key *k)
{
	const struct sf_type **a, **b;
	size_t na = lookup_defs(old_ts, k, &a), nb = lookup_defs(new_ts, k, &b);
	bool *pa = sf_xcalloc(na + 1, sizeof(*pa)), *pb = sf_xcalloc(nb + 1, sizeof(*pb));

	for (int how = BY_EQUAL; how <= BY_NAME; how++) {
		for (size_t i = 0; i < na; i++) {
			if (pa[i])
				continue;
			for (size_t j = 0; j < nb; j++) {
				if (pb[j] || !same_place(a[i], b[j], (enum pairing)how))
					continue;
				if (how != BY_EQUAL &&
				    (count_at(a, na, pa, a[i], (enum pairing)how) != 1 ||
				     count_at(b, nb, pb, b[j], (enum pairing)how) != 1))
					continue;
				pa[i] = pb[j] = true;
				compare_pair(out, a[i], b[j], false);
				break;
			}
		}
	}
	/* a definition alone in one build, its name in both: said as such */
	for (size_t i = 0; i < na; i++)
		if (!pa[i])
			compare_pair(out, a[i], NULL, nb > 0);
	for (size_t j = 0; j < nb; j++)
		if (!pb[j])
			compare_pair(out, NULL, b[j], na > 0);
	free(pa);
	free(pb);
	free(a);
	free(b);
}

int sf_diff_compute(const struct sf_typeset *old_ts,
		    const struct sf_typeset *new_ts,
		    const struct sf_diff_opts *opts, struct sf_diff *out,
		    const char **missing)
{
	struct key *keys = NULL;
	size_t nkeys = 0;

	memset(out, 0, sizeof(*out));
	if (collect_keys(old_ts, new_ts, opts, &keys, &nkeys, missing) < 0)
		return -1;
	out->compared = nkeys;
	for (size_t i = 0; i < nkeys; i++)
		compare_key(out, old_ts, new_ts, &keys[i]);
	free_keys(keys, nkeys);
	if (out->n > 1)
		qsort(out->types, out->n, sizeof(*out->types), dtype_cmp);
	return 0;
}

void sf_diff_release(struct sf_diff *d)
{
	for (size_t i = 0; i < d->n; i++)
		dtype_release(&d->types[i]);
	free(d->types);
	memset(d, 0, sizeof(*d));
}
