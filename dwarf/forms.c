/*
 * forms.c - the general attribute decoder: any form read into a struct
 * value (class, bits, string, block), then stored into the sf_die field
 * its kind names.  die.c's plans read the common (form, kind) pairs in
 * one step each; everything else - DW_FORM_indirect, ref_addr,
 * signatures, dwz's alt forms, blocks, DWARF64 strings, units whose shape
 * a shared plan does not fit - comes here, one attribute at a time, and
 * test_dwarf_decoder checks the plans against it on every DIE.
 */
#include "attrs.h"
#include "cursor.h"

#include <assert.h>
#include <stddef.h>
#include <string.h>

#include <dwarf.h>

enum vclass { V_NONE, V_UNSIGNED, V_SIGNED, V_STRING, V_REF, V_BLOCK, V_FLAG, V_SIG8,
	      V_ALT /* a reference into the alt file's .debug_info */ };

struct value {
	enum vclass cls;
	uint64_t u;                 /* V_UNSIGNED, V_REF, V_FLAG, V_SIG8, V_ALT */
	int64_t s;                  /* V_SIGNED */
	unsigned width;             /* bytes of a DW_FORM_data1..8 (0: other forms) */
	const char *str;            /* V_STRING (NULL when out of range), but
	                             * for DW_FORM_strp: value_str */
	const unsigned char *block; /* V_BLOCK */
	int strp;                   /* V_STRING by its .debug_str offset, u */
};

/* A V_STRING value's string (NULL when out of range). */
static const char *value_str(const struct sf_ucx *c, const struct value *v)
{
	return v->strp ? sf_ucx_str(c, v->u) : v->str;
}

uint64_t sf_ucx_stroff(const struct sf_ucx *c, uint64_t idx)
{
	const struct sf_dwsec *so = &c->f->sec[SF_SEC_STR_OFFSETS];
	unsigned os = c->u->offset_size;
	uint64_t base = c->str_offsets_base;

	if (!so->data || idx > (so->size / os) || base > so->size ||
	    idx * os > so->size - base || so->size - base - idx * os < os)
		return UINT64_MAX;
	struct rd r = { so->data + base + idx * os, so->data + so->size, c->f->msb, 0 };
	return rd_u(&r, os);
}

const char *sf_ucx_strx(const struct sf_ucx *c, uint64_t idx)
{
	return sf_ucx_str(c, sf_ucx_stroff(c, idx));
}

static int read_form(const struct sf_ucx *c, struct rd *r, unsigned form, int64_t implicit,
		     struct value *v, unsigned depth)
{
	unsigned os = c->u->offset_size;

	v->cls = V_UNSIGNED;
	v->u = 0;
	v->s = 0;
	v->str = NULL;
	v->block = NULL;
	v->width = 0;
	v->strp = 0;
	switch (form) {
	case DW_FORM_addr: v->u = rd_u(r, c->u->addr_size); v->cls = V_NONE; break;
	case DW_FORM_data1: v->u = rd_u(r, 1); v->width = 1; break;
	case DW_FORM_data2: v->u = rd_u(r, 2); v->width = 2; break;
	case DW_FORM_data4: v->u = rd_u(r, 4); v->width = 4; break;
	case DW_FORM_data8: v->u = rd_u(r, 8); v->width = 8; break;
	case DW_FORM_data16: rd_skip(r, 16); v->cls = V_NONE; break;
	case DW_FORM_udata: v->u = rd_uleb(r); break;
	case DW_FORM_sdata: v->s = rd_sleb(r); v->cls = V_SIGNED; break;
	case DW_FORM_implicit_const: v->s = implicit; v->cls = V_SIGNED; break;
	case DW_FORM_flag: v->u = rd_u(r, 1); v->cls = V_FLAG; break;
	case DW_FORM_flag_present: v->u = 1; v->cls = V_FLAG; break;
	case DW_FORM_string:
		v->cls = V_STRING;
		v->str = rd_cstr(r);
		break;
	case DW_FORM_strp:
		/* its offset (u): the string is looked up only when kept - a
		 * packed .debug_str has cut what most of them name
		 * (DW_AT_linkage_name: dwarf/strpack.h) */
		v->cls = V_STRING;
		v->u = rd_u(r, os);
		v->strp = 1;
		break;
	case DW_FORM_line_strp:
		v->cls = V_STRING;
		v->str = sec_str(&c->f->sec[SF_SEC_LINE_STR], rd_u(r, os));
		break;
	case DW_FORM_strx: case DW_FORM_GNU_str_index:
		v->cls = V_STRING; v->str = sf_ucx_strx(c, rd_uleb(r)); break;
	case DW_FORM_strx1: v->cls = V_STRING; v->str = sf_ucx_strx(c, rd_u(r, 1)); break;
	case DW_FORM_strx2: v->cls = V_STRING; v->str = sf_ucx_strx(c, rd_u(r, 2)); break;
	case DW_FORM_strx3: v->cls = V_STRING; v->str = sf_ucx_strx(c, rd_u(r, 3)); break;
	case DW_FORM_strx4: v->cls = V_STRING; v->str = sf_ucx_strx(c, rd_u(r, 4)); break;
	case DW_FORM_ref1: v->cls = V_REF; v->u = c->u->start + rd_u(r, 1); break;
	case DW_FORM_ref2: v->cls = V_REF; v->u = c->u->start + rd_u(r, 2); break;
	case DW_FORM_ref4: v->cls = V_REF; v->u = c->u->start + rd_u(r, 4); break;
	case DW_FORM_ref8: v->cls = V_REF; v->u = c->u->start + rd_u(r, 8); break;
	case DW_FORM_ref_udata: v->cls = V_REF; v->u = c->u->start + rd_uleb(r); break;
	case DW_FORM_ref_addr:
		v->cls = V_REF;
		v->u = rd_u(r, c->u->version == 2 ? c->u->addr_size : os);
		break;
	case DW_FORM_ref_sig8: v->cls = V_SIG8; v->u = rd_u(r, 8); break;
	/* dwz: strings and DIEs in the alt (supplementary) file */
	case DW_FORM_GNU_strp_alt: case DW_FORM_strp_sup: {
		uint64_t off = rd_u(r, os);
		v->cls = V_STRING;
		v->str = c->f->alt ? sec_str(&c->f->alt->sec[SF_SEC_STR], off) : NULL;
		break;
	}
	case DW_FORM_GNU_ref_alt: v->cls = V_ALT; v->u = rd_u(r, os); break;
	case DW_FORM_ref_sup4: v->cls = V_ALT; v->u = rd_u(r, 4); break;
	case DW_FORM_ref_sup8: v->cls = V_ALT; v->u = rd_u(r, 8); break;
	case DW_FORM_sec_offset: v->u = rd_u(r, os); v->cls = V_NONE; break;
	case DW_FORM_addrx: case DW_FORM_GNU_addr_index:
	case DW_FORM_loclistx: case DW_FORM_rnglistx:
		rd_uleb(r); v->cls = V_NONE; break;
	case DW_FORM_addrx1: rd_skip(r, 1); v->cls = V_NONE; break;
	case DW_FORM_addrx2: rd_skip(r, 2); v->cls = V_NONE; break;
	case DW_FORM_addrx3: rd_skip(r, 3); v->cls = V_NONE; break;
	case DW_FORM_addrx4: rd_skip(r, 4); v->cls = V_NONE; break;
	case DW_FORM_block1: v->u = rd_u(r, 1); goto block;
	case DW_FORM_block2: v->u = rd_u(r, 2); goto block;
	case DW_FORM_block4: v->u = rd_u(r, 4); goto block;
	case DW_FORM_block: case DW_FORM_exprloc: v->u = rd_uleb(r); goto block;
	case DW_FORM_indirect:
		if (depth > 4)
			return -1;
		form = (unsigned)rd_uleb(r);
		if (form == DW_FORM_implicit_const)
			return -1;	/* no value to read anywhere */
		return read_form(c, r, form, 0, v, depth + 1);
	default:
		return -1;	/* unknown form: its size is unknown too */
	}
	return r->bad ? -1 : 0;
block:
	v->cls = V_BLOCK;
	v->block = r->p;
	rd_skip(r, v->u);
	return r->bad ? -1 : 0;
}

/* A constant of any constant form, as unsigned. */
static int const_u(const struct value *v, uint64_t *out)
{
	if (v->cls == V_UNSIGNED) {
		*out = v->u;
		return 1;
	}
	if (v->cls == V_SIGNED) {
		*out = (uint64_t)v->s;
		return 1;
	}
	return 0;
}

/*
 * Whether a bound means -1 (GNU's "[0]": upper bound one below the lower).
 * A signed form says so itself.  GNU also writes -1 in an unsigned dataN
 * form, as all ones of the target's address size (data4 0xffffffff on a
 * 32-bit target, data8 0xffff...ff on a 64-bit one); but gcc writes a real
 * bound in the smallest form that holds it, so data4 0xffffffff in a 64-bit
 * unit is 4294967295 (char a[4294967296UL]).  All ones at least as wide as
 * an address is an index no array can reach, so only that is taken as -1.
 */
static int is_minus_one(const struct sf_ucx *c, const struct value *v)
{
	if (v->cls == V_SIGNED)
		return v->s == -1;
	if (v->cls != V_UNSIGNED)
		return 0;
	if (v->u == UINT64_MAX)
		return 1;
	assert(v->width <= 8);
	return v->width != 0 && v->width >= c->u->addr_size && v->width < 8 &&
	       v->u == (UINT64_C(1) << (8 * v->width)) - 1;
}

/*
 * DW_AT_data_member_location as an expression (DWARF 2/3 style, or a
 * virtual base): DW_OP_plus_uconst N and DW_OP_constu N are constants.
 */
static int member_loc_expr(const struct value *v, uint64_t *out)
{
	struct rd r = { v->block, v->block + v->u, 0, 0 };

	if (v->u == 0)
		return 0;
	unsigned op = (unsigned)rd_u(&r, 1);
	if (op != DW_OP_plus_uconst && op != DW_OP_constu)
		return 0;
	*out = rd_uleb(&r);
	return !r.bad && r.p == r.end;
}

/*
 * How the general path stores a value of each kind (store_attr): the
 * value classes it takes, what it puts in which sf_die field, and the
 * bits it sets in `has` (or `has2`).  The four kinds with rules of their
 * own (a type reference or signature, a location expression, GNU's -1
 * bound, the dwo id's byte) name a function instead.
 */
enum put {
	PUT_FLAG,   /* nothing stored: the bit when the flag is set */
	PUT_VALUE,  /* the constant: u, or the bits of a signed s */
	PUT_U,      /* v->u, whatever the class */
	PUT_STR,    /* the string, when in range */
};

typedef void store_fn(const struct sf_ucx *c, struct sf_die *d, const struct value *v);

struct store_rule {
	uint16_t accept;     /* value classes stored: 1 << enum vclass */
	uint8_t put;         /* enum put */
	uint8_t size;        /* bytes of the field (PUT_VALUE, PUT_U): 4 or 8 */
	uint8_t has2;        /* bit, alt_bit and otherwise are has2 bits */
	uint16_t field;      /* offsetof(struct sf_die, the field) */
	uint32_t bit;        /* set when stored */
	uint32_t alt_bit;    /* nonzero: a V_ALT reference is stored, with it */
	uint32_t otherwise;  /* set when the class is not one accepted */
	store_fn *own;       /* the kind's own rule (the fields above unused
	                      * but for V_ALT) */
};

#define VC(cls) (1u << (cls))
#define CONSTS (VC(V_UNSIGNED) | VC(V_SIGNED))
#define AT(f) .size = sizeof(((struct sf_die *)0)->f), .field = offsetof(struct sf_die, f)
#define CONST_AT(f, b) { .accept = CONSTS, .put = PUT_VALUE, AT(f), .bit = (b) }
#define REF_AT(f, b) { .accept = VC(V_REF), .put = PUT_U, AT(f), .bit = (b) }
#define STR_AT(f, b) { .accept = VC(V_STRING), .put = PUT_STR, AT(f), .bit = (b) }
#define FLAG(b) { .accept = VC(V_FLAG), .put = PUT_FLAG, .bit = (b) }

static store_fn store_type, store_member_loc, store_upper_bound, store_dwo_id;

static const struct store_rule rules[AK_N] = {
	[AK_NAME] = STR_AT(name, SF_A_NAME),
	[AK_TYPE] = { AT(type), .bit = SF_A_TYPE, .alt_bit = SF_A_ALT, .own = store_type },
	[AK_SIGNATURE] = { .accept = VC(V_SIG8), .put = PUT_U, AT(sig8), .bit = SF_A_SIGNATURE },
	[AK_SIBLING] = REF_AT(sibling, SF_A_SIBLING),
	[AK_IMPORT] = { .accept = VC(V_REF), .put = PUT_U, AT(import), .has2 = 1,
			.bit = SF_A2_IMPORT, .alt_bit = SF_A2_IMPORT_ALT },
	[AK_SPECIFICATION] = REF_AT(specification, SF_A_SPECIFICATION),
	[AK_BYTE_SIZE] = CONST_AT(byte_size, SF_A_BYTE_SIZE),
	[AK_BIT_SIZE] = CONST_AT(bit_size, SF_A_BIT_SIZE),
	[AK_DATA_BIT_OFFSET] = CONST_AT(data_bit_offset, SF_A_DATA_BIT_OFFSET),
	[AK_BIT_OFFSET] = CONST_AT(bit_offset, SF_A_BIT_OFFSET),
	[AK_DATA_MEMBER_LOCATION] = { .own = store_member_loc },
	[AK_CONST_VALUE] = CONST_AT(const_value, SF_A_CONST_VALUE),
	[AK_DISCR] = { .accept = VC(V_REF), .put = PUT_U, AT(discr), .has2 = 1,
		       .bit = SF_A2_DISCR },
	[AK_DISCR_VALUE] = { .accept = CONSTS, .put = PUT_VALUE, AT(discr_value), .has2 = 1,
			     .bit = SF_A2_DISCR_VALUE },
	[AK_ALIGNMENT] = CONST_AT(alignment, SF_A_ALIGNMENT),
	[AK_COUNT] = { .accept = CONSTS, .put = PUT_VALUE, AT(count), .bit = SF_A_COUNT,
		       .otherwise = SF_A_BOUND_DYN },
	[AK_UPPER_BOUND] = { .own = store_upper_bound },
	[AK_LOWER_BOUND] = CONST_AT(lower_bound, SF_A_LOWER_BOUND),
	[AK_ENCODING] = CONST_AT(encoding, SF_A_ENCODING),
	[AK_DECL_FILE] = CONST_AT(decl_file, SF_A_DECL_FILE),
	[AK_DECL_LINE] = CONST_AT(decl_line, SF_A_DECL_LINE),
	[AK_VIRTUALITY] = CONST_AT(virtuality, SF_A_VIRTUALITY),
	[AK_LANGUAGE] = CONST_AT(language, SF_A_LANGUAGE),
	/* an offset in any form but a block (a signed one stores v->u: 0) */
	[AK_STR_OFFSETS_BASE] = { .accept = (uint16_t)~(VC(V_BLOCK) | VC(V_ALT)), .put = PUT_U,
				  AT(str_offsets_base), .bit = SF_A_STR_OFFSETS_BASE },
	[AK_STMT_LIST] = { .accept = VC(V_NONE) | VC(V_UNSIGNED), .put = PUT_U, AT(stmt_list),
			   .bit = SF_A_STMT_LIST },
	[AK_COMP_DIR] = STR_AT(comp_dir, SF_A_COMP_DIR),
	/* no `has` bit left for these: set only when present (die.h) */
	[AK_PRODUCER] = STR_AT(producer, 0),
	[AK_DWO_NAME] = STR_AT(dwo_name, 0),
	[AK_GNU_DWO_NAME] = STR_AT(dwo_name, 0),
	[AK_GNU_DWO_ID] = { .own = store_dwo_id },
	[AK_DECLARATION] = FLAG(SF_A_DECLARATION),
	[AK_EXTERNAL] = FLAG(SF_A_EXTERNAL),
	[AK_ARTIFICIAL] = FLAG(SF_A_ARTIFICIAL),
	[AK_PROTOTYPED] = FLAG(SF_A_PROTOTYPED),
	[AK_GNU_VECTOR] = FLAG(SF_A_VECTOR),
};

static_assert(V_ALT < 16, "store_rule.accept is a uint16_t");

static inline void set_bits(struct sf_die *d, const struct store_rule *s, uint32_t bits)
{
	uint32_t *word = s->has2 ? &d->has2 : &d->has;

	*word |= bits;
}

/* u into the rule's field, truncated to a 4-byte one */
static inline void put_field(struct sf_die *d, const struct store_rule *s, uint64_t u)
{
	char *p = (char *)d + s->field;

	if (s->size == 4) {
		uint32_t w = (uint32_t)u;
		memcpy(p, &w, sizeof(w));
	} else {
		memcpy(p, &u, sizeof(u));
	}
}

/* DW_AT_type: a reference, or a type unit's signature */
static void store_type(const struct sf_ucx *c, struct sf_die *d, const struct value *v)
{
	(void)c;
	if (v->cls == V_REF) {
		d->type = v->u;
		d->has |= SF_A_TYPE;
	} else if (v->cls == V_SIG8) {
		d->sig8 = v->u;
		d->has |= SF_A_TYPE | SF_A_SIG8;
	}
}

/* A constant offset, or one an expression computes; else a virtual base's */
static void store_member_loc(const struct sf_ucx *c, struct sf_die *d, const struct value *v)
{
	(void)c;
	if (const_u(v, &d->member_loc))
		d->has |= SF_A_MEMBER_LOC;
	else if (v->cls == V_BLOCK && member_loc_expr(v, &d->member_loc))
		d->has |= SF_A_MEMBER_LOC;
	else
		d->has |= SF_A_MEMBER_EXPR;
}

static void store_upper_bound(const struct sf_ucx *c, struct sf_die *d, const struct value *v)
{
	uint64_t u;

	if (const_u(v, &u)) {
		d->upper_bound = is_minus_one(c, v) ? -1 : (int64_t)u;
		d->has |= SF_A_UPPER_BOUND;
	} else {
		d->has |= SF_A_BOUND_DYN;
	}
}

static void store_dwo_id(const struct sf_ucx *c, struct sf_die *d, const struct value *v)
{
	(void)c;
	if (const_u(v, &d->dwo_id))
		d->has_dwo_id = 1;
}

static void store_attr(const struct sf_ucx *c, struct sf_die *d, unsigned kind,
		       const struct value *v)
{
	assert(kind < AK_N);
	const struct store_rule *s = &rules[kind];

	if (v->cls == V_ALT) {
		/* only DW_AT_type and DW_AT_import lead into the alt file */
		if (s->alt_bit) {
			put_field(d, s, v->u);
			set_bits(d, s, s->bit | s->alt_bit);
		}
		return;
	}
	if (s->own) {
		s->own(c, d, v);
		return;
	}
	if (!(s->accept & VC(v->cls))) {
		set_bits(d, s, s->otherwise);
		return;
	}
	switch (s->put) {
	case PUT_FLAG:
		if (!v->u)
			return;
		break;
	case PUT_VALUE:
		put_field(d, s, v->cls == V_SIGNED ? (uint64_t)v->s : v->u);
		break;
	case PUT_U:
		put_field(d, s, v->u);
		break;
	case PUT_STR: {
		const char *str = value_str(c, v);
		if (!str)
			return;
		memcpy((char *)d + s->field, &str, sizeof(str));
		break;
	}
	}
	set_bits(d, s, s->bit);
}

/* One attribute as read_form reads it (OP_GENERIC with keep, else
 * OP_GENERIC_SKIP). */
int sf_attr_generic(const struct sf_ucx *c, struct rd *r, struct sf_die *d,
		    const struct sf_abbrev_attr *x, int keep)
{
	struct value v;

	if (read_form(c, r, x->form, x->implicit, &v, 0) < 0)
		return -1;
	if (keep) {
		if (x->kind != AK_NONE)
			store_attr(c, d, x->kind, &v);
	} else if (x->kind == AK_SIBLING && v.cls == V_REF) {
		d->sibling = v.u;
		d->has |= SF_A_SIBLING;
	}
	return 0;
}
