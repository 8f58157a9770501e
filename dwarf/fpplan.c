/*
 * fpplan.c - compiling an abbreviation into a hash plan (fpplan.h): what
 * hashing each of its attributes does, and for one whose attributes all
 * have fixed sizes, the masked loads at fixed places that do the same
 * without an op switch.  Made once per abbreviation and unit (2,172
 * vmlinux units, a few hundred abbreviations each met), read for every
 * DIE hashed (fingerprint.c, read_die).
 */
#include "fpplan.h"

#include <assert.h>
#include <stdlib.h>

#include <dwarf.h>

#include "lib/xalloc.h"

static int is_ref_form(unsigned form)
{
	return form == DW_FORM_ref1 || form == DW_FORM_ref2 || form == DW_FORM_ref4 ||
	       form == DW_FORM_ref8 || form == DW_FORM_ref_udata || form == DW_FORM_ref_addr;
}

static int is_alt_form(unsigned form)
{
	return form == DW_FORM_GNU_ref_alt || form == DW_FORM_ref_sup4 ||
	       form == DW_FORM_ref_sup8;
}

static int is_strx_form(unsigned form)
{
	return form == DW_FORM_strx || form == DW_FORM_GNU_str_index || form == DW_FORM_strx1 ||
	       form == DW_FORM_strx2 || form == DW_FORM_strx3 || form == DW_FORM_strx4;
}

static int is_str_form(unsigned form)
{
	return form == DW_FORM_string || form == DW_FORM_strp || form == DW_FORM_line_strp ||
	       form == DW_FORM_strx || form == DW_FORM_GNU_str_index || form == DW_FORM_strx1 ||
	       form == DW_FORM_strx2 || form == DW_FORM_strx3 || form == DW_FORM_strx4 ||
	       form == DW_FORM_GNU_strp_alt || form == DW_FORM_strp_sup;
}

/* The forms the decoder reads as a constant (die.c const_u). */
static int is_const_form(unsigned form)
{
	return form == DW_FORM_data1 || form == DW_FORM_data2 || form == DW_FORM_data4 ||
	       form == DW_FORM_data8 || form == DW_FORM_udata || form == DW_FORM_sdata ||
	       form == DW_FORM_implicit_const;
}

/* Attributes whose decoded field is the constant as die.c's const_u
 * gives it, whatever its form (DW_AT_upper_bound as OP_BOUND makes it:
 * all ones of a dataN form as wide as an address is -1). */
static int is_plain_const_attr(unsigned at)
{
	switch (at) {
	case DW_AT_upper_bound:
	case DW_AT_byte_size: case DW_AT_bit_size: case DW_AT_data_bit_offset:
	case DW_AT_bit_offset: case DW_AT_data_member_location: case DW_AT_const_value:
	case DW_AT_discr_value: case DW_AT_alignment: case DW_AT_count:
	case DW_AT_lower_bound: case DW_AT_encoding: case DW_AT_decl_line:
	case DW_AT_virtuality: case DW_AT_language: case DW_AT_GNU_dwo_id:
		return 1;
	default:
		return 0;
	}
}

enum { CLASS_CONST = 0x10000, CLASS_STR = 0x20000 };

/* What an attribute's shape says of its form: the form, unless the
 * stream holds the value alike whatever the form (a constant by its
 * length, a string fed by feed_str) - data1 and implicit_const, strp and
 * string then match. */
static unsigned form_class(unsigned at, unsigned form, int local)
{
	if (is_plain_const_attr(at) && is_const_form(form))
		return CLASS_CONST;
	if (local && is_strx_form(form))
		return DW_FORM_strp;	/* OP_STRX_LOCAL appends an offset */
	if (is_str_form(form) && !(local && (form == DW_FORM_strp ||
					     form == DW_FORM_GNU_strp_alt ||
					     form == DW_FORM_strp_sup)))
		return CLASS_STR;
	assert(form <= 0xffff);
	return form;
}

/* Whether a value of this form, hashed, appends a raw item as wide as
 * the unit's offsets or addresses (add_value: OP_RAW, OP_STRP_*). */
static int value_width_of_unit(unsigned form, int local)
{
	switch (form) {
	case DW_FORM_strp: case DW_FORM_GNU_strp_alt: case DW_FORM_strp_sup:
		return local;
	case DW_FORM_strx: case DW_FORM_GNU_str_index: case DW_FORM_strx1:
	case DW_FORM_strx2: case DW_FORM_strx3: case DW_FORM_strx4:
		return local;	/* OP_STRX_LOCAL */
	case DW_FORM_sec_offset: case DW_FORM_GNU_ref_alt: case DW_FORM_ref_addr:
	case DW_FORM_addr:
		return 1;
	default:
		return 0;
	}
}

static struct op *add_op(struct fp_plans *c, struct plan *pl, unsigned kind, unsigned n)
{
	assert(c->skip <= 255 && n <= 255);
	SF_GROW(c->ops, c->nops, c->opcap);
	struct op *o = &c->ops[c->nops++];
	memset(o, 0, sizeof(*o));
	o->kind = (uint8_t)kind;
	o->pre = (uint8_t)c->skip;
	o->n = (uint8_t)n;
	c->skip = 0;
	pl->nops++;
	return o;
}

/* Skip n bytes: before the next op. */
static void add_skip(struct fp_plans *c, struct plan *pl, unsigned n)
{
	if (c->skip + n > 255)
		add_op(c, pl, OP_SKIP, 0);
	c->skip += n;
}

/* Skip an attribute of form `form`; 0, or -1 for a form not taken. */
static int add_skip_form(struct fp_plans *c, struct plan *pl, unsigned form,
			 const struct sf_unit *u)
{
	unsigned n;

	switch (sf_form_span(form, u, &n)) {
	case SF_SPAN_FIXED: add_skip(c, pl, n); return 0;
	case SF_SPAN_LEB: add_op(c, pl, OP_SKIP_ULEB, 0); return 0;
	case SF_SPAN_STRING: add_op(c, pl, OP_SKIP_STRING, 0); return 0;
	case SF_SPAN_BLOCK: add_op(c, pl, OP_SKIP_BLOCK, n); return 0;
	default: return -1;
	}
}

/* A reference kept (OP_TYPE, OP_SIBLING) of a form is_ref_form takes. */
static void add_ref(struct fp_plans *c, struct plan *pl, unsigned kind, unsigned form,
		    const struct sf_unit *u)
{
	unsigned n;

	sf_form_span(form, u, &n);	/* 0 for DW_FORM_ref_udata: a ULEB128 */
	if (kind == OP_TYPE && form == DW_FORM_ref4)
		kind = OP_TYPE4;
	add_op(c, pl, kind, n)->rel = form != DW_FORM_ref_addr;
}

/* Hash an attribute's value of form `form` (name: it is DW_AT_name);
 * 0, or -1 for a form not taken. */
static int add_value(struct fp_plans *c, struct plan *pl, const struct sf_abbrev_attr *x,
		     const struct sf_unit *u, int local)
{
	unsigned form = x->form, n;
	struct op *o;

	if (local && (form == DW_FORM_strp || form == DW_FORM_GNU_strp_alt ||
		      form == DW_FORM_strp_sup)) {
		/* the offset is the string, in this file */
		o = add_op(c, pl, form != DW_FORM_strp ? OP_STRP_ALT_LOCAL :
			   u->offset_size == 4 ? OP_STRP4_LOCAL : OP_STRP_LOCAL, u->offset_size);
		o->name = x->at == DW_AT_name;
		return 0;
	}
	if (local && is_strx_form(form)) {
		/* its offset, as DW_FORM_strp gives it (form_class) */
		o = add_op(c, pl, OP_STRX_LOCAL, u->offset_size);
		o->form = (uint16_t)form;
		o->name = x->at == DW_AT_name;
		return 0;
	}
	if (is_str_form(form)) {
		o = add_op(c, pl, form == DW_FORM_string ? OP_STRING : OP_STR, 0);
		o->form = (uint16_t)form;
		o->name = x->at == DW_AT_name;
		return 0;
	}
	switch (form) {
	case DW_FORM_data1: case DW_FORM_data2: case DW_FORM_data4: case DW_FORM_data8:
		sf_form_span(form, u, &n);
		/* all ones as wide as an address: -1 to the decoder */
		add_op(c, pl, x->at == DW_AT_upper_bound && n >= u->addr_size && n < 8 ? OP_BOUND :
			      n == 1 ? OP_CONST1 : n == 2 ? OP_CONST2 : n == 4 ? OP_CONST4 : OP_CONST,
		       n);
		return 0;
	case DW_FORM_udata: case DW_FORM_ref_udata: case DW_FORM_addrx:
	case DW_FORM_GNU_addr_index: case DW_FORM_loclistx: case DW_FORM_rnglistx:
		add_op(c, pl, OP_ULEB, 0);
		return 0;
	case DW_FORM_sdata:
		add_op(c, pl, OP_SLEB, 0);
		return 0;
	case DW_FORM_implicit_const:
		add_op(c, pl, OP_IMPLICIT, 0)->imm = (uint64_t)x->implicit;
		return 0;
	}
	switch (sf_form_span(form, u, &n)) {
	case SF_SPAN_FIXED:
		for (; n; n -= n > 8 ? 8 : n) {	/* data16: two */
			unsigned k = n > 8 ? 8 : n;
			add_op(c, pl, OP_RAW, k)->imm = k == 8 ? ~0ull : (1ull << (8 * k)) - 1;
		}
		return 0;
	case SF_SPAN_BLOCK:
		add_op(c, pl, OP_BLOCK, n);
		return 0;
	default:
		return -1;
	}
}

/*
 * Compile the plan of abbreviation a as the walk's unit reads it.  What
 * the digest of a DIE must not hold is left out of the shape too: where
 * its next sibling is, which file the unit numbers its declaring file,
 * attributes the decoder does not read.
 */
static void plan_build(struct fp_plans *c, const struct sf_unit *u, int local, uint64_t tag,
		       const struct sf_abbrevs *ab, const struct sf_abbrev *a, struct plan *pl)
{
	struct sf_fp h = { 0x3707344a4093822full, 0x299f31d0082efa98ull };
	int ntype = 0, bad = 0, unit_widths = 0, local_strs = 0;

	memset(pl, 0, sizeof(*pl));
	pl->first = (uint32_t)c->nops;
	c->skip = 0;
	pl->tag = a->tag;
	pl->children = a->children;
	/* the address size and byte order are the key's (sf_fp_key); the
	 * mode (`local`) only where it changes what is fed (form_class) */
	feed(&h, ((uint64_t)a->tag << 32) | a->children);
	for (uint32_t i = 0; i < a->nattrs && !bad; i++) {
		const struct sf_abbrev_attr *x = &ab->attrs[a->first + i];
		unsigned at = x->at, form = x->form;
		int rc = 0;

		if (at == DW_AT_sibling && is_ref_form(form)) {
			add_ref(c, pl, OP_SIBLING, form, u);
			continue;
		}
		if (x->kind == 0 || at == DW_AT_sibling || at == DW_AT_decl_file) {
			bad = add_skip_form(c, pl, form, u) < 0;
			continue;
		}
		feed(&h, ((uint64_t)at << 32) | form_class(at, form, local));
		unit_widths |= value_width_of_unit(form, local);
		local_strs |= local && is_str_form(form) &&
			      form_class(at, form, 1) != CLASS_STR;
		switch (at) {
		case DW_AT_type:
			if (form == DW_FORM_ref_sig8 || is_alt_form(form)) {
				bad = 1;
			} else if (is_ref_form(form)) {
				add_ref(c, pl, OP_TYPE, form, u);
				bad = ++ntype > 1;	/* the decoder keeps the last */
			} else {
				rc = add_skip_form(c, pl, form, u);
			}
			break;
		case DW_AT_signature:
			bad = form == DW_FORM_ref_sig8;
			rc = add_skip_form(c, pl, form, u);
			break;
		case DW_AT_import:
			bad = is_ref_form(form) || is_alt_form(form);
			rc = add_skip_form(c, pl, form, u);
			break;
		case DW_AT_specification:
		case DW_AT_discr:
			bad = is_ref_form(form);
			rc = add_skip_form(c, pl, form, u);
			break;
		case DW_AT_declaration:
			if (form == DW_FORM_flag_present)
				pl->flags |= PL_DECL;
			else if (form == DW_FORM_flag)
				add_op(c, pl, OP_DECL, 1);
			else
				rc = add_skip_form(c, pl, form, u);
			break;
		default:
			rc = add_value(c, pl, x, u, local);
		}
		bad |= rc < 0;
	}
	if (c->skip)
		add_op(c, pl, OP_SKIP, 0);	/* the DIE ends past them */
	if (unit_widths)	/* what the raw items' widths depend on */
		feed(&h, ((uint64_t)u->version << 8) | u->offset_size);
	if (local_strs)		/* which file's strings the offsets name */
		feed(&h, tag | 1);
	h.a |= 1;	/* never 0: a null entry feeds 0 (hash_die) */
	pl->shape = h;
	pl->flags |= PL_BUILT | (bad ? PL_REJECT : 0);
}

static void add_fval(struct fp_plans *c, struct plan *pl, unsigned off, uint64_t mask,
		     uint64_t imm)
{
	assert(off < FIXED_MAX);
	SF_GROW(c->fvals, c->nfvals, c->fvalcap);
	c->fvals[c->nfvals++] = (struct fval){ mask, imm, off };
	pl->nfv++;
}

/* A reference of a fixed plan: 1 to keep it at pos, n bytes wide; 0 when
 * the plan has one already or its width varies (not fixed then). */
static int fix_ref(uint8_t *at, uint8_t *width, uint8_t *rel, const struct op *o, unsigned pos)
{
	if (*at != NO_REF || o->n == 0)
		return 0;
	*at = (uint8_t)pos;
	*width = o->n;
	*rel = o->rel;
	return 1;
}

/*
 * Compile a built plan a second time, to fvals (PL_FIXED), when each of
 * its ops reads a fixed number of bytes and feeds at most one value, as
 * read_die's op switch would: the same words, in the same order.  The
 * fvals are loads: the file's byte order must be the host's.
 */
static void plan_fix(struct fp_plans *c, struct plan *pl, int msb)
{
	unsigned pos = 0, after = 0;	/* AFTER once past a string */

	if (msb || (pl->flags & PL_REJECT) || c->no_fixed ||
	    __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__)
		return;
	pl->ffirst = (uint32_t)c->nfvals;
	pl->nfv = 0;
	pl->type_at = pl->sib_at = pl->name_at = pl->decl_at = pl->str_at = NO_REF;
	for (uint32_t i = 0; i < pl->nops; i++) {
		const struct op *o = &c->ops[pl->first + i];

		pos += o->pre;
		if (pos + o->n >= FIXED_MAX)
			goto not_fixed;
		switch (o->kind) {
		case OP_SKIP:
			continue;
		case OP_STRING:	/* one (a short name): what follows counts from its end */
			if (after)
				goto not_fixed;
			pl->str_at = (uint8_t)pos;
			pl->str_name = o->name;
			pl->nfv_pre = pl->nfv;
			after = AFTER;
			pos = 0;
			continue;
		case OP_RAW:
			add_fval(c, pl, pos, o->imm, 0);
			break;
		case OP_CONST: case OP_CONST1: case OP_CONST2: case OP_CONST4:
			add_fval(c, pl, pos, low_bytes(o->n), 0);
			break;
		case OP_IMPLICIT:	/* no bytes: any in-bounds load, masked off */
			add_fval(c, pl, 0, 0, o->imm);
			break;
		case OP_DECL:
			if (pl->decl_at != NO_REF)
				goto not_fixed;
			pl->decl_at = (uint8_t)(pos | after);
			add_fval(c, pl, pos, 0xff, 0);
			break;
		case OP_STRP_LOCAL: case OP_STRP4_LOCAL: case OP_STRP_ALT_LOCAL:
			if (o->name && !fix_ref(&pl->name_at, &pl->name_n, &pl->name_alt, o, pos | after))
				goto not_fixed;
			if (o->name)
				pl->name_alt = o->kind == OP_STRP_ALT_LOCAL;
			add_fval(c, pl, pos, low_bytes(o->n), 0);
			break;
		case OP_TYPE: case OP_TYPE4:
			if (!fix_ref(&pl->type_at, &pl->type_n, &pl->type_rel, o, pos | after))
				goto not_fixed;
			break;
		case OP_SIBLING:
			if (!fix_ref(&pl->sib_at, &pl->sib_n, &pl->sib_rel, o, pos | after))
				goto not_fixed;
			break;
		default:
			goto not_fixed;
		}
		pos += o->n;
	}
	if (!after)
		pl->nfv_pre = pl->nfv;
	pl->size = (uint8_t)pos;
	pl->flags |= PL_FIXED | (after ? PL_STRING : 0);
	c->nfixed++;
	return;
not_fixed:
	c->nfvals = pl->ffirst;
	pl->nfv = 0;
}

/* The plans of the table the walk's unit decodes with, made on first use
 * in this unit (a unit reads through one or two tables). */
struct plantab *sf_fpplans_for(struct fp_plans *c, const struct sf_ucx *cx, int local)
{
	for (size_t i = 0; i < c->ntabs; i++)
		if (c->tabs[i].ab == cx->abv && c->tabs[i].u == cx->u && c->tabs[i].local == local)
			return &c->tabs[i];
	if (c->ntabs == c->tabcap) {
		size_t ncap = c->tabcap ? 2 * c->tabcap : 4;
		c->tabs = sf_xreallocarray(c->tabs, ncap, sizeof(*c->tabs));
		memset(c->tabs + c->tabcap, 0, (ncap - c->tabcap) * sizeof(*c->tabs));
		c->tabcap = ncap;
	}
	struct plantab *t = &c->tabs[c->ntabs++];
	/* a table's plans of an earlier unit stay allocated, not valid */
	const struct sf_abbrevs *ab = cx->abv;
	uint64_t maxcode = ab->n ? ab->v[ab->n - 1].code : 0;	/* sorted */
	t->ncode = maxcode < 4 * ab->n + 64 ? (size_t)maxcode + 1 : 0;
	size_t n = t->ncode ? t->ncode : ab->n ? ab->n : 1;
	if (t->cap < n) {
		free(t->plans);
		t->plans = sf_xcalloc(n, sizeof(*t->plans));
		t->cap = n;
	} else {
		memset(t->plans, 0, n * sizeof(*t->plans));
	}
	t->ab = cx->abv;
	t->u = cx->u;
	t->local = local;
	return t;
}

void sf_fpplans_free(struct fp_plans *c)
{
	for (size_t i = 0; i < c->tabcap; i++)
		free(c->tabs[i].plans);
	free(c->tabs);
	free(c->ops);
	free(c->fvals);
}

const struct plan *sf_fpplan_find(struct fp_plans *c, const struct plantab *t, uint64_t code,
				  const struct sf_ucx *cx, int local, uint64_t tag)
{
	const struct sf_abbrevs *ab = t->ab;
	const struct sf_abbrev *a;
	struct plan *pl;

	if (code < t->ncode) {
		pl = &t->plans[code];
		if (!(a = sf_abbrev_find(ab, code)))
			return NULL;
	} else {
		if (t->ncode || !(a = sf_abbrev_find(ab, code)))
			return NULL;
		pl = &t->plans[a - ab->v];
		if (pl->flags & PL_BUILT)
			return pl;
	}
	plan_build(c, cx->u, local, tag, ab, a, pl);
	plan_fix(c, pl, cx->f->msb);
	return pl;
}
