/*
 * holes.c - holes, bit holes and padding of one type, counted as pahole,
 * and what pahole prints around them.
 *
 * The walk itself - pahole 1.24's class__find_holes(), members in memory
 * order, gaps charged to the member before them, overlaps never making a
 * negative hole but flagging the layout `irregular` - is the model's
 * (model/gaps.c), which packing inference shares.  Here the figures it
 * finds become a struct sf_layout, with what only a report needs: the
 * cachelines, pahole's "forced alignments" and the padding an alignment
 * asked for, the trailing padding of member structs ("paddings"), the
 * layouts of nested anonymous members and of an enum's variants.  The
 * size equation in holes.h is asserted for every regular layout.
 */
#include "holes.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "lib/checked.h"
#include "lib/xalloc.h"
#include "model/typeset.h"

/* The byte hole right in front of member i, 0 if none. */
static uint64_t hole_before(const struct sf_type *t,
			    const struct sf_layout *out, uint32_t i)
{
	uint32_t prev = i ? i - 1 : SF_NO_MEMBER;

	(void)t;
	for (uint32_t h = 0; h < out->nholes; h++)
		if (out->holes[h].after == prev)
			return out->holes[h].size;
	return 0;
}

/* pahole's "forced alignments": members given an explicit alignment. */
static void count_forced_alignments(const struct sf_type *t,
				    struct sf_layout *out)
{
	for (uint32_t i = 0; i < t->nmembers; i++) {
		if (!(t->members[i].flags & SF_MF_ALIGNED))
			continue;
		out->nforced_alignments++;
		uint64_t hole = hole_before(t, out, i);
		if (hole) {
			out->nforced_holes++;
			out->sum_forced_holes += hole;
		}
	}
}

static bool is_struct_kind(const struct sf_type *t)
{
	return t->kind == SF_KIND_STRUCT || t->kind == SF_KIND_CLASS;
}

/*
 * The trailing padding only an alignment asked for on the type makes:
 * without it the size would be the data rounded up to the members' own
 * alignments.  A packed type's alignment is no request for room.
 */
static void count_forced_padding(const struct sf_type *t, struct sf_layout *out)
{
	uint64_t maxa = 1;

	if (!(t->flags & SF_TF_ALIGNED) || (t->flags & SF_TF_PACKED) || t->nvariants ||
	    out->irregular || out->padding > t->size)
		return;
	for (uint32_t i = 0; i < t->nmembers; i++)
		if (!(t->members[i].flags & SF_MF_VIRTUAL_BASE) && t->members[i].align > maxa)
			maxa = t->members[i].align;
	uint64_t end = t->size - out->padding;
	uint64_t natural = end % maxa ? end + (maxa - end % maxa) : end;
	if (natural < end)	/* wrapped: corrupt sizes */
		return;
	if (natural < t->size)
		out->forced_padding = t->size - natural;
	assert(out->forced_padding <= out->padding);
}

/* Trailing padding of a struct, without recording anything else: walked
 * as a struct even when it has variants, as pahole's note always took it. */
uint64_t sf_layout_struct_padding(const struct sf_type *t)
{
	struct sf_type s = *t;
	struct sf_gaps g;

	s.nvariants = 0;
	sf_gaps_find(&s, 0, false, &g);
	return g.padding;
}

static const char *plain_struct_name(const struct sf_member *m);

/* What member_struct_type gives for a member whose padding the loader
 * said (SF_MF_TYPE_PAD): only its being a struct is read. */
static const struct sf_type loader_said = { .kind = SF_KIND_STRUCT };

/*
 * The struct a member's type is, if pahole would look inside it: an
 * anonymous struct member, or (through the lookup) a "struct NAME" member.
 */
static const struct sf_type *member_struct_type(const struct sf_member *m,
						const struct sf_layout_opts *o)
{
	/* an array of structs is an array to pahole: no note; nor is
	 * what a pointer points to */
	if ((m->type_suffix && m->type_suffix[0]) || (m->flags & SF_MF_POINTEE))
		return NULL;
	if (m->nested)
		return is_struct_kind(m->nested) ? m->nested : NULL;
	if (m->tclass != SF_T_STRUCT || sf_member_is_bitfield(m))
		return NULL;
	/* the loader's answer, when it gave one: a struct named as pahole
	 * looks inside (the caller takes m->type_pad) */
	if (m->flags & SF_MF_TYPE_PAD)
		return plain_struct_name(m) ? &loader_said : NULL;
	if (!o->lookup)
		return NULL;
	const struct sf_type *t = o->lookup(o->lookup_ctx, m);
	return t && is_struct_kind(t) ? t : NULL;
}

static void compute_at(const struct sf_type *t, uint64_t base,
		       const struct sf_layout_opts *o, struct sf_layout *out);

static void collect_paddings_and_nested(const struct sf_type *t,
					const struct sf_layout_opts *o,
					struct sf_layout *out)
{
	size_t pad_cap = 0;
	uint32_t nnested = 0;

	for (uint32_t i = 0; i < t->nmembers; i++)
		nnested += t->members[i].nested != NULL;
	if (nnested)
		out->nested = sf_xcalloc(nnested, sizeof(*out->nested));

	for (uint32_t i = 0; i < t->nmembers; i++) {
		const struct sf_member *m = &t->members[i];
		if (m->nested) {
			struct sf_nested_layout *n = &out->nested[out->nnested++];
			n->member = i;
			/* a pointed-to type has its own offsets, from 0 */
			compute_at(m->nested, (m->flags & SF_MF_POINTEE) ? 0 : m->offset,
				   o, &n->layout);
		}
		/* pahole notes inner padding only under struct members */
		if (!is_struct_kind(t))
			continue;
		const struct sf_type *mt = member_struct_type(m, o);
		if (!mt)
			continue;
		uint64_t pad = m->nested ? sf_layout_nested(out, i)->padding
			     : (m->flags & SF_MF_TYPE_PAD) ? m->type_pad
							   : sf_layout_struct_padding(mt);
		if (!pad)
			continue;
		SF_GROW(out->paddings, out->npaddings, pad_cap);
		out->paddings[out->npaddings++] =
			(struct sf_member_padding){ .member = i, .padding = pad };
		out->sum_paddings += pad;
	}
	assert(out->nnested == nnested);
}

static void check_invariants(const struct sf_type *t,
			     const struct sf_layout *out)
{
	assert(out->padding <= t->size);
	if (out->irregular)
		return;     /* broken input: only promise no negative numbers */
	assert(out->sum_holes <= t->size);
	if (is_struct_kind(t)) {
		assert(8 * t->size == 8 * out->sum_members +
		       out->sum_bitfield_bits + 8 * out->sum_holes +
		       out->sum_bit_holes + 8 * out->padding +
		       out->bit_padding);
	} else {
		assert(out->sum_members + out->padding == t->size);
		assert(out->nholes == 0 && out->nbit_holes == 0);
	}
	for (uint32_t i = 1; i < out->nholes; i++)
		assert(out->holes[i - 1].offset < out->holes[i].offset);
}

/* The walk's figures (model/gaps.h) into out; the hole lists move. */
static void take_gaps(struct sf_layout *out, const struct sf_gaps *g)
{
	out->holes = g->holes;
	out->nholes = g->nholes;
	out->sum_holes = g->sum_holes;
	out->bit_holes = g->bit_holes;
	out->nbit_holes = g->nbit_holes;
	out->sum_bit_holes = g->sum_bit_holes;
	out->sum_members = g->sum_members;
	out->sum_bitfield_bits = g->sum_bitfield_bits;
	out->padding = g->padding;
	out->bit_padding = g->bit_padding;
	out->irregular = g->irregular;
}

static void compute_at(const struct sf_type *t, uint64_t base,
		       const struct sf_layout_opts *o, struct sf_layout *out)
{
	unsigned cl = o->cacheline ? o->cacheline : SF_CACHELINE;
	struct sf_gaps g;

	memset(out, 0, sizeof(*out));
	out->size = t->size;
	out->align = t->align;
	out->members = t->nmembers;
	out->cacheline = cl;
	out->cachelines = sf_div_ceil(t->size, cl);
	out->last_cacheline = t->size % cl;
	out->base = base;

	sf_gaps_find(t, base, true, &g);
	take_gaps(out, &g);
	if (t->nvariants)	/* the discriminant and each variant */
		out->members = t->nmembers + t->nvariants;
	else			/* enum holes follow no member */
		count_forced_alignments(t, out);
	count_forced_padding(t, out);
	collect_paddings_and_nested(t, o, out);
	check_invariants(t, out);
}

/* Each variant of the enum t as a struct of its own, laid out with l's
 * cacheline, into l->variants. */
static void compute_variants(const struct sf_type *t, struct sf_layout *l)
{
	l->nvariants = t->nvariants;
	l->variants = sf_xcalloc(t->nvariants, sizeof(*l->variants));
	for (uint32_t k = 0; k < t->nvariants; k++) {
		struct sf_variant_layout *v = &l->variants[k];
		v->members = sf_variant_type(t, k, &v->type);
		sf_layout_compute(&v->type, l->cacheline, &v->layout);
	}
}

void sf_layout_compute_opts(const struct sf_type *t,
			    const struct sf_layout_opts *o,
			    struct sf_layout *out)
{
	assert(t && o && out);
	compute_at(t, 0, o, out);
	if (t->nvariants)
		compute_variants(t, out);
}

void sf_layout_compute(const struct sf_type *t, unsigned cacheline,
		       struct sf_layout *out)
{
	struct sf_layout_opts o = { .cacheline = cacheline };

	sf_layout_compute_opts(t, &o, out);
}

static bool shares_bytes(const struct sf_member *m, const struct sf_variant *v)
{
	for (uint32_t i = 0; i < v->nmembers; i++) {
		const struct sf_member *f = &v->members[i];
		if (f->offset < m->offset + m->size && m->offset < f->offset + f->size)
			return true;
	}
	return false;
}

struct sf_member *sf_variant_type(const struct sf_type *t, uint32_t k,
				  struct sf_type *vt)
{
	assert(k < t->nvariants);
	const struct sf_variant *v = &t->variants[k];
	size_t n = (size_t)t->nmembers + v->nmembers, o = 0;
	struct sf_member *ms = sf_xcalloc(n ? n : 1, sizeof(*ms));
	uint32_t i = 0, j = 0;

	/* both lists are in memory order: merge them; a niche discriminant
	 * is left out of the variant whose field holds it */
	while (i < t->nmembers || j < v->nmembers) {
		const struct sf_member *d = i < t->nmembers ? &t->members[i] : NULL;
		if (d && shares_bytes(d, v)) {
			i++;
			continue;
		}
		if (d && (j >= v->nmembers || d->offset <= v->members[j].offset)) {
			ms[o++] = *d;
			i++;
		} else {
			ms[o++] = v->members[j++];
		}
	}
	*vt = *t;
	vt->name = v->name;
	vt->kind = SF_KIND_STRUCT;
	vt->nvariants = 0;
	vt->variants = NULL;
	vt->nmembers = (uint32_t)o;
	vt->members = ms;
	return ms;
}

void sf_layout_release(struct sf_layout *l)
{
	for (uint32_t i = 0; i < l->nnested; i++)
		sf_layout_release(&l->nested[i].layout);
	for (uint32_t k = 0; k < l->nvariants; k++) {
		sf_layout_release(&l->variants[k].layout);
		free(l->variants[k].members);
	}
	free(l->variants);
	free(l->holes);
	free(l->bit_holes);
	free(l->paddings);
	free(l->nested);
	memset(l, 0, sizeof(*l));
}

const struct sf_layout *sf_layout_nested(const struct sf_layout *l,
					 uint32_t member)
{
	for (uint32_t i = 0; i < l->nnested; i++)
		if (l->nested[i].member == member)
			return &l->nested[i].layout;
	return NULL;
}

/*
 * "struct NAME" or "class NAME" and nothing else: not a typedef of one
 * (pahole only looks inside a member whose DWARF type is the struct
 * itself), not a pointer, not an array.
 */
static const char *plain_struct_name(const struct sf_member *m)
{
	static const char *const prefixes[] = { "struct ", "class " };
	const char *n = m->type_name;

	if (!n || (m->type_suffix && m->type_suffix[0]))
		return NULL;
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		size_t len = strlen(prefixes[i]);
		if (strncmp(n, prefixes[i], len) == 0) {
			n += len;
			return *n && !strpbrk(n, "*&[( ") ? n : NULL;
		}
	}
	return NULL;
}

const struct sf_type *sf_layout_lookup_in_typeset(void *typeset,
						  const struct sf_member *m)
{
	const struct sf_type *found[8];

	/* the kind prefix, if any, lets the typeset rule out unions */
	if (!plain_struct_name(m))
		return NULL;
	size_t n = sf_typeset_find(typeset, m->type_name, found, 8);
	if (n > 8)
		n = 8;
	for (size_t i = 0; i < n; i++)
		if (found[i]->size == m->size &&
		    !(found[i]->flags & SF_TF_DECLARATION))
			return found[i];
	return NULL;
}
