/*
 * rust.c - niches, default representation and repr(packed) (see rust.h).
 */
#include "rust.h"

#include <string.h>

bool sf_rust_compiler_orders(const struct sf_type *t)
{
	return (t->flags & SF_TF_RUST) && (t->flags & SF_TF_REORDERED);
}

static bool is_raw_pointer(const struct sf_member *m)
{
	return m->type_name && (!strncmp(m->type_name, "*const ", 7) ||
				!strncmp(m->type_name, "*mut ", 5));
}

/* The one definition named `name` (NULL when none or several differ). */
static const struct sf_type *definition(const struct sf_typeset *ts, const char *name)
{
	const struct sf_type *found[2];

	return name && sf_typeset_find(ts, name, found, 2) == 1 ? found[0] : NULL;
}

/* The raw pointer a payload field is, or holds as a newtype; NULL if none. */
static const struct sf_member *raw_pointer_in(const struct sf_member *f,
					      const struct sf_typeset *ts)
{
	if (is_raw_pointer(f))
		return f;
	if (f->tclass != SF_T_STRUCT)
		return NULL;
	const struct sf_type *nt = definition(ts, f->type_name);
	if (!nt || nt->nvariants || nt->nmembers != 1 || !is_raw_pointer(&nt->members[0]) ||
	    nt->members[0].size != f->size)
		return NULL;
	return &nt->members[0];
}

/*
 * Member m's enum, if it is tagged, has one dataless variant and one with
 * a single field that is (or wraps) a raw pointer: that field could be a
 * NonNull, whose null the enum would use as its dataless variant.
 */
static bool niche_of(const struct sf_member *m, const struct sf_typeset *ts,
		     struct sf_niche *out)
{
	const struct sf_type *e = definition(ts, m->type_name);

	if (!e || e->nvariants != 2 || (e->flags & SF_TF_NICHE) || e->size != m->size)
		return false;
	const struct sf_variant *a = &e->variants[0], *b = &e->variants[1];
	if (a->nmembers)
		a = &e->variants[1], b = &e->variants[0];
	if (a->nmembers != 0 || b->nmembers != 1)
		return false;
	const struct sf_member *f = &b->members[0];
	const struct sf_member *p = raw_pointer_in(f, ts);
	if (!p || f->size >= m->size)
		return false;
	out->option = e->name;
	out->payload = f->type_name;
	out->pointer = p->type_name;
	out->from = m->size;
	out->to = f->size;
	return true;
}

size_t sf_rust_niches(const struct sf_type *t, const struct sf_typeset *ts,
		      struct sf_niche *out, size_t max)
{
	size_t n = 0;

	if (!(t->flags & SF_TF_RUST))
		return 0;
	for (uint32_t i = 0; i < t->nmembers; i++) {
		struct sf_niche x;
		if (!niche_of(&t->members[i], ts, &x))
			continue;
		x.member = i;
		if (n < max)
			out[n] = x;
		n++;
	}
	return n;
}

uint64_t sf_rust_packed_size(const struct sf_type *t)
{
	uint64_t sum = 0;

	for (uint32_t i = 0; i < t->nmembers; i++) {
		const struct sf_member *m = &t->members[i];
		uint64_t bytes = sf_member_is_bitfield(m) ? 0 : m->size;
		if (sum > UINT64_MAX - bytes)
			return t->size;	/* corrupt sizes: no claim */
		sum += bytes;
	}
	return sum < t->size ? sum : t->size;
}
