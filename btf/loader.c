/*
 * loader.c - BTF type ids to sf_types (see btf.h).
 *
 * libbpf parses and checks the BTF (header, string section, every type's
 * kind, size and references); what it hands back is an array of types
 * indexed by id.  The loader keeps one `struct bt` per id, filled on
 * first use and cached (ids are dense, so the cache is a plain array):
 *
 *   id ---> struct bt: left/right C spelling, size, alignment, class,
 *           flags, agg (the aggregate giving the layout), anon / anon_enum
 *           / pointee (what is shown nested), model (once laid out)
 *
 * It is the DWARF reader's `tinfo` for BTF, and composes spellings the
 * same way ("int (*" + name + ")(void)", "char" + name + "[3]"), so the
 * same type reads the same from either format.  Aggregates are laid out
 * lazily, by `layout()`, into sf_types that live in the typeset's arena.
 *
 * BTF holds no alignment: a scalar aligns as the psABI says for its size
 * (model/abi.h); what an aggregate's members leave out - their aligned
 * attributes (pahole's guess), packing and alignment - is the model's
 * pass (model/infer.h, sf_model_infer), the same one DWARF types take,
 * with the evidence of the containers that hold a packed type at an
 * offset only a packed type can have (mark_packed, through the pass's
 * oracle): every aggregate is laid out, such types are marked, and
 * everything is laid out again, a few passes at most.
 *
 * Recursion is bounded (type chains, nesting), so hostile BTF - a typedef
 * loop, a struct holding itself - costs bounded stack and never loops.
 */
#include "btf.h"

#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "model/abi.h"
#include "model/infer.h"
#include "model/nested.h"
#include "model/packing.h"
#include "model/spelling.h"
#include "lib/hash.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#define MAX_RESOLVE_DEPTH 200
#define MAX_LAYOUT_DEPTH 100
#define MAX_REPACK_PASSES 4
/* the cacheline pahole assumes when it infers alignments */
#define SF_BTF_CACHELINE 64

enum {
	B_SIGNED = 1u << 0,
	B_DECL = 1u << 1,     /* an aggregate only declared (BTF_KIND_FWD) */
	B_ANON = 1u << 2,     /* an anonymous aggregate or enum definition */
	B_FLEX = 1u << 3,     /* array of zero elements */
	B_FUNC = 1u << 4,     /* spelled as a function: right is "(...)" */
	B_ARRAY = 1u << 5,    /* spelled as an array: right is "[n]..." */
	B_PTR = 1u << 6,      /* left ends with '*' */
	B_BUSY = 1u << 7,     /* being resolved (cycle guard) */
	B_DONE = 1u << 8,     /* resolved */
	B_LAYING = 1u << 9,   /* being laid out (cycle guard) */
	B_LAID = 1u << 10,
	B_AGG = 1u << 11,     /* a struct or union */
	B_PACKED = 1u << 12,  /* a container shows it is packed */
	B_UNSIZED = 1u << 13, /* rests on a type that cannot be resolved */
};

/* What one type id means to a member of that type. */
struct bt {
	const char *left, *right;
	uint64_t size;
	uint32_t align;          /* scalars; aggregates once laid out */
	uint32_t natural;        /* aggregates once laid out */
	uint32_t agg;            /* id of the aggregate whose layout this needs */
	uint32_t anon;           /* id of an anonymous aggregate shown nested */
	uint32_t anon_enum;      /* id of an anonymous enum (or array of one) */
	uint32_t pointee;        /* id of an anonymous aggregate or enum pointed to */
	uint16_t flags;
	uint8_t tclass;
	uint8_t kind;            /* aggregates: enum sf_kind */
	const char *qname;       /* aggregates, enums, typedefs: bare name */
	const char *tdchain;     /* typedefs and arrays of them: the typedef
	                          * names down to a type that is not one, else NULL */
	const char *uleft, *uright; /* with tdchain: that type's spelling */
	uint32_t uenum;          /* with tdchain: that type's id when an anonymous enum */
	struct sf_type *model;   /* aggregates once laid out */
	const struct sf_enum *enums;
};

struct loader {
	struct btf *btf;
	struct sf_typeset *ts;
	const struct sf_btf_input *in;
	struct bt *bt;           /* [ntypes]; [0] is void */
	struct bt bad;           /* a type that cannot be resolved */
	uint32_t ntypes;
	uint32_t first;          /* first id of this BTF (split BTF: after its base) */
	struct sf_abi abi;
	const char *origin;
	int repack;              /* a laid-out type was found packed */
	struct strbuf cat;
	const char *empty, *unknown; /* "" and "?", interned */
	/* string offset -> interned string (see iname) */
	uint32_t *name_key;
	const char **name_val;
	size_t namecap, nnames;
};

static const char *intern(struct loader *l, const char *s)
{
	return sf_typeset_intern(l->ts, s ? s : "");
}

/* x y z, interned. */
static const char *icat(struct loader *l, const char *x, const char *y, const char *z)
{
	sb_reset(&l->cat);
	sb_adds(&l->cat, x);
	sb_adds(&l->cat, y);
	sb_adds(&l->cat, z);
	return intern(l, l->cat.buf);
}

/*
 * The interned string at offset off of the BTF's string section, or NULL
 * for "".  Cached by offset: 100,000 member names of the kernel come from
 * a few tens of thousands of offsets, and interning (hash, compare) each
 * every time was a third of the run.
 */
static const char *iname(struct loader *l, uint32_t off)
{
	if (!off)
		return NULL;
	size_t mask = l->namecap - 1, j = sf_mix64(off) & mask;
	for (; l->name_key[j]; j = (j + 1) & mask)
		if (l->name_key[j] == off)
			return l->name_val[j];
	const char *raw = btf__name_by_offset(l->btf, off);
	const char *v = raw && *raw ? intern(l, raw) : NULL;
	if ((l->nnames + 1) * 2 > l->namecap) {
		size_t ncap = l->namecap * 2;
		uint32_t *nk = sf_xcalloc(ncap, sizeof(*nk));
		const char **nv = sf_xcalloc(ncap, sizeof(*nv));
		for (size_t i = 0; i < l->namecap; i++) {
			if (!l->name_key[i])
				continue;
			size_t k = sf_mix64(l->name_key[i]) & (ncap - 1);
			while (nk[k])
				k = (k + 1) & (ncap - 1);
			nk[k] = l->name_key[i];
			nv[k] = l->name_val[i];
		}
		free(l->name_key);
		free(l->name_val);
		l->name_key = nk;
		l->name_val = nv;
		l->namecap = ncap;
		mask = ncap - 1;
		j = sf_mix64(off) & mask;
		while (l->name_key[j])
			j = (j + 1) & mask;
	}
	l->name_key[j] = off;
	l->name_val[j] = v;
	l->nnames++;
	return v;
}

/* A type's name, interned; NULL when anonymous. */
static const char *name_of(struct loader *l, const struct btf_type *t)
{
	return iname(l, t->name_off);
}

/* ---- resolving type ids ------------------------------------------------ */

static struct bt *resolve(struct loader *l, uint32_t id, unsigned depth);

/* Copy what a typedef, cv-qualifier or type tag passes through. */
static void inherit(struct loader *l, struct bt *b, const struct bt *t)
{
	b->size = t->size;
	b->align = t->align;
	b->tclass = t->tclass;
	b->agg = t->agg;
	b->flags |= t->flags & (B_SIGNED | B_DECL | B_FLEX | B_UNSIZED);
	if (t == &l->bad)
		b->flags |= B_UNSIZED;
}

static void int_type(struct loader *l, struct bt *b, const struct btf_type *t)
{
	uint8_t enc = btf_int_encoding(t);

	b->left = name_of(l, t) ? name_of(l, t) : l->unknown;
	b->size = t->size;
	b->tclass = (enc & BTF_INT_BOOL) ? SF_T_BOOL : SF_T_INT;
	if (enc & BTF_INT_SIGNED)
		b->flags |= B_SIGNED;
	b->align = sf_abi_align(l->abi, SF_ABI_INT, b->size);
}

static void pointer_type(struct loader *l, struct bt *b, const struct btf_type *t,
			 unsigned depth)
{
	struct bt *to = resolve(l, t->type, depth + 1);

	if (to->flags & (B_FUNC | B_ARRAY)) {
		b->left = icat(l, to->left, " (", "*");
		b->right = icat(l, ")", to->right, "");
	} else if (*to->right || (to->flags & B_PTR)) {
		/* pointer to pointer (to function): "void (**", "char **" */
		b->left = icat(l, to->left, "*", "");
		b->right = to->right;
	} else {
		b->left = icat(l, to->left, " ", "*");
	}
	/* pahole prints the body of an anonymous type pointed to directly */
	if (to->flags & B_ANON)
		b->pointee = to->flags & B_AGG ? to->anon : to->anon_enum;
	b->flags |= B_PTR;
	b->tclass = SF_T_POINTER;
	b->size = l->abi.addr_size;
	b->align = sf_abi_align(l->abi, SF_ABI_POINTER, b->size);
}

static void cv_type(struct loader *l, struct bt *b, const struct btf_type *t,
		    const char *word, unsigned depth)
{
	struct bt *to = resolve(l, t->type, depth + 1);

	inherit(l, b, to);
	/* after a '*' the qualifier binds to the pointer: "char * const" */
	if ((to->flags & B_PTR) || to->right[0] == ')') {
		b->left = icat(l, to->left, " ", word);
	} else {
		/* said once: see dwarf/types.c cv_type */
		b->left = (to->flags & B_ARRAY) && sf_spelling_has_word(to->left, word)
			? to->left : icat(l, word, " ", to->left);
		b->flags |= to->flags & (B_ARRAY | B_FUNC);
		/* pahole shows a qualified anonymous type's body too */
		b->anon = to->anon;
		b->anon_enum = to->anon_enum;
		b->pointee = to->pointee;
	}
	b->right = to->right;
}

/* A type tag (__user, __rcu) says nothing about layout or spelling. */
static void tag_type(struct loader *l, struct bt *b, const struct btf_type *t, unsigned depth)
{
	struct bt *to = resolve(l, t->type, depth + 1);

	inherit(l, b, to);
	b->flags |= to->flags & (B_ARRAY | B_FUNC | B_PTR);
	b->left = to->left;
	b->right = to->right;
	b->anon = to->anon;
	b->anon_enum = to->anon_enum;
	b->pointee = to->pointee;
	b->qname = to->qname;
}

static void typedef_type(struct loader *l, struct bt *b, const struct btf_type *t,
			 unsigned depth)
{
	struct bt *to = resolve(l, t->type, depth + 1);

	inherit(l, b, to);
	b->qname = name_of(l, t) ? name_of(l, t) : l->unknown;
	b->left = b->qname;
	/* what pahole -E prints for it: the chain, then the type below */
	if (to->tdchain && (to->flags & B_ARRAY)) {
		/* an array of a typedef: pahole says both chains */
		b->tdchain = icat(l, b->qname, " */ /* typedef ", to->tdchain);
		b->uleft = to->uleft;
		b->uright = to->uright;
		b->uenum = to->uenum;
	} else if (to->tdchain) {
		b->tdchain = icat(l, b->qname, " -> ", to->tdchain);
		b->uleft = to->uleft;
		b->uright = to->uright;
		b->uenum = to->uenum;
	} else {
		b->tdchain = b->qname;
		b->uleft = to->left;
		b->uright = to->right;
		if ((to->flags & B_ANON) && !(to->flags & B_AGG))
			b->uenum = to->anon_enum;
	}
}

static void aggregate_type(struct loader *l, struct bt *b, uint32_t id,
			   const struct btf_type *t)
{
	const char *name = name_of(l, t);
	int is_union = btf_is_union(t) || (btf_is_fwd(t) && btf_kflag(t));
	const char *keyword = is_union ? "union" : "struct";

	b->flags |= B_AGG;
	b->agg = id;
	b->kind = is_union ? SF_KIND_UNION : SF_KIND_STRUCT;
	b->tclass = is_union ? SF_T_UNION : SF_T_STRUCT;
	b->qname = name ? name : l->empty;
	b->left = name ? icat(l, keyword, " ", name) : icat(l, keyword, " {...}", "");
	if (btf_is_fwd(t)) {
		b->flags |= B_DECL;
		return;
	}
	b->size = t->size;
	if (!name) {
		b->flags |= B_ANON;
		b->anon = id;
	}
}

static void enum_type(struct loader *l, struct bt *b, uint32_t id, const struct btf_type *t)
{
	const char *name = name_of(l, t);

	b->qname = name ? name : l->empty;
	b->left = name ? icat(l, "enum ", name, "") : intern(l, "enum {...}");
	if (!name) {
		b->flags |= B_ANON;
		b->anon_enum = id;
	}
	b->tclass = SF_T_ENUM;
	b->size = t->size;
	if (btf_kflag(t))
		b->flags |= B_SIGNED;
	b->align = sf_abi_align(l->abi, SF_ABI_INT, b->size);
}

static void array_type(struct loader *l, struct bt *b, const struct btf_type *t,
		       unsigned depth)
{
	const struct btf_array *a = btf_array(t);
	struct bt *e = resolve(l, a->type, depth + 1);
	char dim[24];

	if (a->nelems)
		snprintf(dim, sizeof(dim), "[%u]", a->nelems);
	else
		snprintf(dim, sizeof(dim), "[]");
	b->left = e->left;
	b->right = icat(l, dim, e->right, "");
	if (e->tdchain && !(e->flags & B_ARRAY)) {	/* an array of a typedef */
		b->tdchain = e->tdchain;
		b->uleft = e->uleft;
		b->uright = icat(l, e->uright, dim, "");	/* pahole's order */
		b->uenum = e->uenum;
	}
	b->flags |= B_ARRAY | (e->flags & (B_SIGNED | B_DECL | B_UNSIZED));
	b->tclass = SF_T_ARRAY;
	b->agg = e->agg;
	b->anon = e->anon;
	b->anon_enum = e->anon_enum;
	b->pointee = e->pointee;
	b->align = e->align;
	b->size = e->size * a->nelems;	/* both 32-bit: no wrap in 64 */
	if (!a->nelems || (e->flags & B_FLEX)) {
		b->flags |= B_FLEX;
		b->size = 0;
	}
}

static void function_type(struct loader *l, struct bt *b, const struct btf_type *t,
			  unsigned depth)
{
	struct bt *ret = resolve(l, t->type, depth + 1);
	const struct btf_param *p = btf_params(t);
	uint16_t n = btf_vlen(t);
	struct strbuf sb = STRBUF_INIT;

	sb_addch(&sb, '(');
	for (uint16_t i = 0; i < n; i++) {
		sb_adds(&sb, i ? ", " : "");
		/* type 0 last: the variadic "..." */
		if (!p[i].type) {
			sb_adds(&sb, "...");
			continue;
		}
		struct bt *pt = resolve(l, p[i].type, depth + 1);
		sb_adds(&sb, pt->left);
		sb_adds(&sb, pt->right);
	}
	if (!n)
		sb_adds(&sb, "void");
	sb_addch(&sb, ')');
	b->left = ret->left;
	b->right = icat(l, sb.buf, ret->right, "");
	sb_release(&sb);
	b->flags |= B_FUNC;
	b->tclass = SF_T_OTHER;
}

static void fill(struct loader *l, struct bt *b, uint32_t id, unsigned depth)
{
	const struct btf_type *t = btf__type_by_id(l->btf, id);

	b->left = l->unknown;
	b->right = l->empty;
	b->qname = l->empty;
	if (!t)
		return;
	switch (btf_kind(t)) {
	case BTF_KIND_INT:
		int_type(l, b, t);
		break;
	case BTF_KIND_FLOAT:
		b->left = name_of(l, t) ? name_of(l, t) : l->unknown;
		b->size = t->size;
		b->tclass = SF_T_FLOAT;
		b->align = sf_abi_align(l->abi, SF_ABI_FLOAT, b->size);
		break;
	case BTF_KIND_PTR:
		pointer_type(l, b, t, depth);
		break;
	case BTF_KIND_CONST:
		cv_type(l, b, t, "const", depth);
		break;
	case BTF_KIND_VOLATILE:
		cv_type(l, b, t, "volatile", depth);
		break;
	case BTF_KIND_RESTRICT:
		cv_type(l, b, t, "restrict", depth);
		break;
	case BTF_KIND_TYPE_TAG:
		tag_type(l, b, t, depth);
		break;
	case BTF_KIND_TYPEDEF:
		typedef_type(l, b, t, depth);
		break;
	case BTF_KIND_STRUCT: case BTF_KIND_UNION: case BTF_KIND_FWD:
		aggregate_type(l, b, id, t);
		break;
	case BTF_KIND_ENUM: case BTF_KIND_ENUM64:
		enum_type(l, b, id, t);
		break;
	case BTF_KIND_ARRAY:
		array_type(l, b, t, depth);
		break;
	case BTF_KIND_FUNC_PROTO:
		function_type(l, b, t, depth);
		break;
	default:
		/* functions, variables, sections, declaration tags: no
		 * member has such a type */
		break;
	}
}

static struct bt *resolve(struct loader *l, uint32_t id, unsigned depth)
{
	if (id >= l->ntypes)
		return &l->bad;
	struct bt *b = &l->bt[id];
	if (b->flags & B_DONE)
		return b;
	if ((b->flags & B_BUSY) || depth > MAX_RESOLVE_DEPTH)
		return &l->bad;
	b->flags |= B_BUSY;
	fill(l, b, id, depth);
	b->flags = (uint16_t)((b->flags & ~B_BUSY) | B_DONE);
	return b;
}

/* ---- laying out aggregates --------------------------------------------- */

static struct sf_type *layout(struct loader *l, uint32_t id, unsigned depth);

/* A member's alignment (1 when unknown). */
static uint32_t align_of(struct loader *l, const struct bt *b, unsigned depth)
{
	if (b->agg && !(l->bt[b->agg].flags & B_DECL)) {
		if (!layout(l, b->agg, depth + 1))
			return 1;
		return l->bt[b->agg].align ? l->bt[b->agg].align : 1;
	}
	return b->align ? b->align : 1;
}

/* A member type's natural alignment: an aggregate's is its members'
 * largest (see sf_type.natural_align).  1 when unknown. */
static uint32_t natural_of(struct loader *l, const struct bt *b, unsigned depth)
{
	if (b->agg && !(l->bt[b->agg].flags & B_DECL)) {
		if (!layout(l, b->agg, depth + 1))
			return 1;
		return l->bt[b->agg].natural ? l->bt[b->agg].natural : 1;
	}
	return b->align ? b->align : 1;
}

/* The enumerators of enum id, read once. */
static const struct sf_enum *enumerators(struct loader *l, uint32_t id)
{
	struct bt *b = &l->bt[id];
	const struct btf_type *t = btf__type_by_id(l->btf, id);

	if (b->enums || !t || !btf_is_any_enum(t))
		return b->enums;
	uint16_t n = btf_vlen(t);
	struct sf_enum *e = sf_typeset_alloc(l->ts, sizeof(*e));
	struct sf_enumerator *v = sf_typeset_alloc(l->ts, sizeof(*v) * (n ? n : 1));
	for (uint16_t i = 0; i < n; i++) {
		if (btf_is_enum(t)) {
			const struct btf_enum *x = btf_enum(t) + i;
			v[i].name = x->name_off && iname(l, x->name_off) ? iname(l, x->name_off) : l->empty;
			/* the 32 bits, sign-extended when the enum is signed */
			v[i].value = (b->flags & B_SIGNED) ? (uint64_t)(int64_t)x->val
							   : (uint64_t)(uint32_t)x->val;
		} else {
			const struct btf_enum64 *x = btf_enum64(t) + i;
			const uint32_t *w = (const uint32_t *)x;
			v[i].name = w[0] && iname(l, w[0]) ? iname(l, w[0]) : l->empty;
			v[i].value = btf_enum64_value(x);
		}
	}
	e->n = n;
	e->v = v;
	b->enums = e;
	return e;
}

/* Typeset memory for sf_nested_clone(). */
static void *ts_for_clone(void *ctx, size_t n)
{
	return sf_typeset_alloc(ctx, n);
}


/*
 * The bit-field a member is, if any: kind_flag BTF gives its size in the
 * member; older BTF gives it in an INT type of fewer bits than its size
 * (reached through typedefs and qualifiers).  *bits 0 when not one.
 */
static void bitfield_of(struct loader *l, const struct btf_type *t, uint32_t i,
			uint32_t *bits, uint64_t *bitpos)
{
	const struct btf_member *m = btf_members(t) + i;

	*bitpos = btf_member_bit_offset(t, i);
	*bits = btf_member_bitfield_size(t, i);
	if (btf_kflag(t))
		return;
	uint32_t id = m->type;
	for (unsigned depth = 0; depth < MAX_RESOLVE_DEPTH; depth++) {
		const struct btf_type *x = btf__type_by_id(l->btf, id);
		if (!x)
			return;
		if (btf_is_typedef(x) || btf_is_mod(x) || btf_is_type_tag(x)) {
			id = x->type;
			continue;
		}
		if (btf_is_int(x) && (btf_int_offset(x) || btf_int_bits(x) != 8 * x->size)) {
			*bits = btf_int_bits(x);
			*bitpos += btf_int_offset(x);
		}
		return;
	}
}

/* Bit-field position as the model wants it (see model.h): the storage
 * unit aligned down, as pahole shows it. */
static void place_bitfield(struct sf_member *m, uint64_t bitpos, uint32_t bits)
{
	uint64_t unit = m->size ? m->size : (bits + 7) / 8;

	if (!unit || unit > UINT64_MAX / 8)
		unit = 1;
	m->offset = bitpos / (8 * unit) * unit;
	m->bit_offset = (uint32_t)(bitpos - 8 * m->offset);
	m->bit_size = bits;
	m->flags |= SF_MF_BITFIELD;
}

/* "const struct" of "const struct {...}": what goes before the body. */
static const char *anon_keyword(struct loader *l, const char *left)
{
	const char *brace = strstr(left, " {...}");

	return brace ? sf_typeset_intern_n(l->ts, left, (size_t)(brace - left)) : left;
}

static void set_type_of_member(struct loader *l, struct sf_member *m, struct bt *mt,
			       uint32_t *natural, unsigned depth)
{
	m->tclass = mt->tclass;
	if (mt->flags & B_SIGNED)
		m->flags |= SF_MF_SIGNED;
	m->type_name = mt->left;
	m->type_suffix = mt->right;
	if (mt->tdchain) {
		struct sf_typedef_of td = { mt->tdchain, mt->uleft, mt->uright,
					    mt->uenum ? enumerators(l, mt->uenum) : NULL };
		m->tdef = sf_typedef_of_copy(l->ts, &td, false);
	}
	if (mt == &l->bad || (mt->flags & (B_DECL | B_UNSIZED))) {
		m->flags |= SF_MF_INCOMPLETE;
		m->align = 1;
		return;
	}
	m->align = align_of(l, mt, depth);
	*natural = natural_of(l, mt, depth);
	if (mt->agg && !mt->anon)
		sf_member_take_pad(m, l->bt[mt->agg].model);
	if (mt->anon) {
		/* pahole -F btf shows the body of a flexible array's
		 * anonymous element type too */
		struct sf_type *x = layout(l, mt->anon, depth + 1);
		if (x) {
			m->nested = sf_nested_clone(x, m->offset, depth, MAX_LAYOUT_DEPTH,
						    ts_for_clone, l->ts);
			m->type_name = anon_keyword(l, mt->left);
			m->type_suffix = (mt->flags & B_ARRAY) ? mt->right : l->empty;
			if (x->flags & SF_TF_INCOMPLETE)
				m->flags |= SF_MF_INCOMPLETE;
		}
	} else if (mt->anon_enum) {
		m->enums = enumerators(l, mt->anon_enum);
	} else if (mt->pointee && (l->bt[mt->pointee].flags & B_AGG)) {
		/* the pointed-to type is shown, never part of this layout */
		struct sf_type *x = layout(l, mt->pointee, depth + 1);
		if (x) {
			m->nested = x;
			m->flags |= SF_MF_POINTEE;
		}
	} else if (mt->pointee) {
		m->enums = enumerators(l, mt->pointee);
		if (m->enums)
			m->flags |= SF_MF_POINTEE;
	}
}

static void add_member(struct loader *l, const struct btf_type *t, uint32_t i,
		       struct sf_member *m, uint32_t *natural, unsigned depth)
{
	const struct btf_member *bm = btf_members(t) + i;
	struct bt *mt = resolve(l, bm->type, 0);
	uint32_t bits;
	uint64_t bitpos;

	m->name = iname(l, bm->name_off) ? iname(l, bm->name_off) : l->empty;
	m->size = mt->size;
	bitfield_of(l, t, i, &bits, &bitpos);
	if (bits) {
		place_bitfield(m, bitpos, bits);
	} else {
		m->offset = bitpos / 8;
		if (mt->flags & B_FLEX) {
			m->flags |= SF_MF_FLEX_ARRAY;
			m->size = 0;
		}
	}
	*natural = 1;
	set_type_of_member(l, m, mt, natural, depth);
}

/*
 * ty is packed: a container holds it where only a packed type can be.
 * Types laid out before took its old alignment: everything is laid out
 * again (layout_all).
 */
static void mark_packed(struct loader *l, struct bt *ty)
{
	if (ty->flags & B_PACKED)
		return;
	ty->flags |= B_PACKED;
	l->repack = 1;
	if ((ty->flags & B_LAID) && ty->model) {
		ty->model->flags |= SF_TF_PACKED;
		ty->model->align = 1;
		ty->align = 1;
	}
}

/* What model/packing.c asks of the members' types (struct
 * sf_packing_oracle): ty[i] is member i's type id (0: unresolvable). */
struct member_types {
	struct loader *l;
	const uint32_t *ty;
	unsigned depth;
};

/* The aggregate member i's type needs laid out, or NULL. */
static struct bt *member_agg(const struct member_types *mt, uint32_t i)
{
	const struct bt *b = mt->ty[i] ? &mt->l->bt[mt->ty[i]] : NULL;

	return b && b->agg ? &mt->l->bt[b->agg] : NULL;
}

static uint32_t packing_witness(void *ctx, uint32_t i)
{
	const struct member_types *mt = ctx;
	const struct bt *a = member_agg(mt, i);

	if (!a || (mt->l->bt[mt->ty[i]].flags & B_ARRAY) || !(a->flags & B_LAID))
		return 0;
	return a->natural;
}

static void packing_mark(void *ctx, uint32_t i)
{
	const struct member_types *mt = ctx;

	mark_packed(mt->l, member_agg(mt, i));
}

static uint32_t packing_align(void *ctx, uint32_t i)
{
	const struct member_types *mt = ctx;
	const struct bt *a = member_agg(mt, i);

	if (!a || !(a->flags & B_PACKED))
		return 0;
	return align_of(mt->l, &mt->l->bt[mt->ty[i]], mt->depth);
}

static struct sf_type *layout(struct loader *l, uint32_t id, unsigned depth)
{
	struct bt *b = &l->bt[id];
	const struct btf_type *t = btf__type_by_id(l->btf, id);

	if (!(b->flags & B_AGG) || (b->flags & B_DECL) || !t)
		return NULL;
	if (b->flags & B_LAID)
		return b->model;
	if ((b->flags & B_LAYING) || depth > MAX_LAYOUT_DEPTH)
		return NULL;
	uint16_t n = btf_vlen(t);
	struct sf_type *x = b->model;
	/* laid out again after a repack: the same memory, rewritten */
	if (!x) {
		x = sf_typeset_alloc(l->ts, sizeof(*x));
		x->members = sf_typeset_alloc(l->ts, sizeof(*x->members) * (n ? n : 1));
	}
	struct sf_member *members = x->members;
	memset(x, 0, sizeof(*x));
	memset(members, 0, sizeof(*members) * n);
	x->members = members;
	x->name = b->qname;
	x->kind = b->kind;
	x->size = b->size;
	x->decl_file = l->empty;
	x->addr_size = l->abi.addr_size;
	x->origin = l->origin;
	x->unit_name = l->origin;	/* pahole -I: the file, BTF has no units */
	x->flags = SF_TF_BTF;
	x->nmembers = n;

	uint32_t *natural = sf_xcalloc(n ? n : 1, sizeof(*natural));
	uint32_t *ty = sf_xcalloc(n ? n : 1, sizeof(*ty));
	b->flags |= B_LAYING;
	for (uint16_t i = 0; i < n; i++) {
		add_member(l, t, i, &x->members[i], &natural[i], depth);
		struct bt *mt = resolve(l, btf_members(t)[i].type, 0);
		ty[i] = mt == &l->bad ? 0 : (uint32_t)(mt - l->bt);
	}
	b->flags &= (uint16_t)~B_LAYING;
	/* BTF holds no aligned attribute: pahole's guess at them, and a gap
	 * proves nothing about what a struct holds */
	struct member_types mt = { l, ty, depth };
	struct sf_packing_oracle o = {
		&mt, packing_witness, packing_mark, packing_align, 1
	};
	struct sf_infer_in in = {
		.natural = natural,
		.guess_aligned = SF_BTF_CACHELINE,
		.forced = (b->flags & B_PACKED) != 0,
		.incomplete = true,
		.oracle = &o,
	};
	sf_model_infer(x, &in, NULL);
	x->flags |= SF_TF_BTF;
	free(natural);
	free(ty);
	b->align = x->align;
	b->natural = x->natural_align;
	b->model = x;
	b->flags |= B_LAID;
	return x;
}

/* ---- the types to report ------------------------------------------------ */

static int wanted(const char *const *only, const char *name)
{
	if (!only)
		return 1;
	for (size_t i = 0; only[i]; i++)
		if (sf_spell_name_eq(only[i], name))
			return 1;
	return 0;
}

/*
 * The aggregate id reports under (its tag, or the typedef naming an
 * anonymous one: pahole prints those by the typedef's name), or 0.
 */
static uint32_t top_of(struct loader *l, uint32_t id, const char **name, int *is_typedef)
{
	const struct btf_type *t = btf__type_by_id(l->btf, id);

	*is_typedef = 0;
	if (btf_is_composite(t)) {
		*name = name_of(l, t);
		return *name ? id : 0;
	}
	if (!btf_is_typedef(t) || !name_of(l, t))
		return 0;
	const struct btf_type *to = btf__type_by_id(l->btf, t->type);
	if (!to || !btf_is_composite(to) || name_of(l, to))
		return 0;
	*name = name_of(l, t);
	*is_typedef = 1;
	return t->type;
}

/* A type to report: the aggregate and the name it goes by. */
struct top {
	uint32_t agg;
	int is_typedef;
	const char *name;
};

/* The types to report, in id order (*n of them; free() the array). */
static struct top *find_tops(struct loader *l, const char *const *only, size_t *n)
{
	struct top *tops = NULL;
	size_t cap = 0;

	*n = 0;
	for (uint32_t id = l->first; id < l->ntypes; id++) {
		struct top t;
		t.agg = top_of(l, id, &t.name, &t.is_typedef);
		if (!t.agg || !wanted(only, t.name))
			continue;
		SF_GROW(tops, *n, cap);
		tops[(*n)++] = t;
	}
	return tops;
}

/* Lay out every type to report, again while containers show packing. */
static void layout_all(struct loader *l, const struct top *tops, size_t n)
{
	for (int pass = 0; pass < MAX_REPACK_PASSES; pass++) {
		l->repack = 0;
		for (size_t i = 0; i < n; i++) {
			resolve(l, tops[i].agg, 0);
			layout(l, tops[i].agg, 0);
		}
		if (!l->repack)
			return;
		for (uint32_t id = 0; id < l->ntypes; id++)
			l->bt[id].flags &= (uint16_t)~B_LAID;
	}
}

static size_t add_tops(struct loader *l, const struct top *tops, size_t n)
{
	size_t added = 0;

	for (size_t i = 0; i < n; i++) {
		struct sf_type *x = layout(l, tops[i].agg, 0);
		if (!x)
			continue;
		struct sf_type *t = sf_typeset_alloc(l->ts, sizeof(*t));
		*t = *x;
		t->name = tops[i].name;
		if (tops[i].is_typedef)
			t->flags |= SF_TF_TYPEDEF;
		sf_typeset_add(l->ts, t);
		added++;
	}
	return added;
}

/* ---- parsing -------------------------------------------------------------- */

int sf_btf_is_raw(const unsigned char *image, size_t size)
{
	return size >= 4 && ((image[0] == 0x9f && image[1] == 0xeb) ||
			     (image[0] == 0xeb && image[1] == 0x9f));
}

static uint32_t rd32(const unsigned char *p, int msb)
{
	return msb ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]
		   : (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

/*
 * The header's own account of the sizes, checked before libbpf sees the
 * bytes, so a cut file is called truncated, not just invalid.
 */
static int check_header(const struct sf_btf_input *in, struct sf_err *err)
{
	const unsigned char *p = in->data;

	if (!sf_btf_is_raw(p, in->size))
		return sf_error_at(err, in->label, 0, 0, "bad BTF magic");
	int msb = p[0] == 0xeb;
	if (in->size < 24)
		return sf_error_at(err, in->label, 0, 0,
				"truncated BTF (%zu bytes, the header alone is 24)", in->size);
	uint32_t hdr = rd32(p + 4, msb);
	uint64_t end1 = (uint64_t)hdr + rd32(p + 8, msb) + rd32(p + 12, msb);
	uint64_t end2 = (uint64_t)hdr + rd32(p + 16, msb) + rd32(p + 20, msb);
	uint64_t end = end1 > end2 ? end1 : end2;
	if (end > in->size)
		return sf_error_at(err, in->label, 0, 0,
				"truncated BTF (the header describes %llu bytes, "
				"there are %zu)", (unsigned long long)end, in->size);
	return 0;
}

/* The `vmlinux` beside path, when it is another file than path. */
static char *base_beside(const char *path)
{
	const char *slash = strrchr(path, '/');
	struct strbuf sb = STRBUF_INIT;
	struct stat a, b;

	if (slash)
		sb_add(&sb, path, (size_t)(slash - path) + 1);
	sb_adds(&sb, "vmlinux");
	if (stat(sb.buf, &b) < 0 || stat(path, &a) < 0 || !S_ISREG(b.st_mode) ||
	    (a.st_dev == b.st_dev && a.st_ino == b.st_ino)) {
		sb_release(&sb);
		return NULL;
	}
	return sb_detach(&sb);
}

/* No libbpf chatter on stderr: structfit says one line, its own. */
static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

/*
 * The BTF of in; for a raw file that does not parse alone, as split BTF
 * over the vmlinux beside it (*base gets that, to free after).
 */
static struct btf *parse(const struct sf_btf_input *in, struct btf **base, struct sf_err *err)
{
	libbpf_set_print(quiet);
	*base = NULL;
	if (check_header(in, err) < 0)
		return NULL;
	struct btf *btf = btf__new(in->data, (uint32_t)in->size);
	int e = errno;
	if (btf)
		return btf;
	if (!in->path) {
		/* a kernel module's .BTF is split over the kernel's: the raw
		 * /sys/kernel/btf/MODULE is read over the vmlinux beside it */
		sf_error_at(err, in->label, 0, 0,
				"corrupt .BTF section (%s), or split BTF (a kernel module's: "
			 "read /sys/kernel/btf/MODULE instead)", strerror(e));
		return NULL;
	}
	char *bpath = base_beside(in->path);
	if (!bpath) {
		sf_error_at(err, in->label, 0, 0,
				"corrupt BTF (%s), or split BTF without its base "
			 "(no vmlinux beside it)", strerror(e));
		return NULL;
	}
	*base = btf__parse_raw(bpath);
	if (!*base) {
		sf_error_at(err, bpath, 0, 0, "unusable as the base of %s: %s", in->label,
			 strerror(errno));
		free(bpath);
		return NULL;
	}
	/* (libbpf 1.1 exports no btf__new_split: the file is read again) */
	btf = btf__parse_raw_split(in->path, *base);
	if (!btf) {
		sf_error_at(err, in->label, 0, 0, "corrupt BTF (%s), alone or split over %s",
			 strerror(errno), bpath);
		btf__free(*base);
		*base = NULL;
	}
	free(bpath);
	return btf;
}

static struct sf_abi abi_of(const struct sf_btf_input *in, const struct btf *btf)
{
	uint16_t machine = in->machine;
	uint8_t addr = in->addr_size;

	if (!machine) {
#if defined(__x86_64__)
		machine = SF_EM_X86_64;
#elif defined(__aarch64__)
		machine = SF_EM_AARCH64;
#elif defined(__i386__)
		machine = SF_EM_386;
#elif defined(__arm__)
		machine = SF_EM_ARM;
#endif
	}
	if (!addr) {
		size_t ps = btf__pointer_size(btf);
		addr = ps == 4 || ps == 8 ? (uint8_t)ps : (uint8_t)sizeof(void *);
	}
	return sf_abi_for(machine, addr);
}

int sf_btf_load(struct sf_typeset *ts, const struct sf_btf_input *in,
		const char *const *only, struct sf_err *err)
{
	struct btf *base;
	struct btf *btf = parse(in, &base, err);

	if (!btf)
		return -1;
	struct loader l = { .btf = btf, .ts = ts, .in = in, .cat = STRBUF_INIT };
	l.ntypes = btf__type_cnt(btf);
	l.first = base ? btf__type_cnt(base) : 1;
	l.abi = abi_of(in, btf);
	l.origin = intern(&l, in->label);
	/* one struct bt per id, 13 MB for a kernel's: huge pages, zeroed
	 * now (lib/xalloc.h: each 4 KiB page was a fault of its own) */
	l.bt = sf_xcalloc_table(l.ntypes, sizeof(*l.bt));
	l.empty = intern(&l, "");
	l.unknown = intern(&l, "?");
	l.namecap = 1024;
	l.name_key = sf_xcalloc(l.namecap, sizeof(*l.name_key));
	l.name_val = sf_xcalloc(l.namecap, sizeof(*l.name_val));
	l.bt[0].left = intern(&l, "void");
	l.bt[0].right = intern(&l, "");
	l.bt[0].qname = l.bt[0].left;
	l.bt[0].flags = B_DONE;
	l.bad.left = intern(&l, "?");
	l.bad.right = l.bt[0].right;
	l.bad.qname = l.bad.left;
	l.bad.flags = B_DONE | B_UNSIZED;

	size_t ntops;
	struct top *tops = find_tops(&l, only, &ntops);
	layout_all(&l, tops, ntops);
	size_t n = add_tops(&l, tops, ntops);
	free(tops);
	free(l.bt);
	free(l.name_key);
	free(l.name_val);
	sb_release(&l.cat);
	btf__free(btf);
	btf__free(base);
	if (!n && !only) {
		sf_error_at(err, in->label, 0, 0, "no struct or union in its BTF");
		return 0;
	}
	return 1;
}
