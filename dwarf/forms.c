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
#include <string.h>

#include <dwarf.h>

enum vclass { V_NONE, V_UNSIGNED, V_SIGNED, V_STRING, V_REF, V_BLOCK, V_FLAG, V_SIG8,
	      V_ALT /* a reference into the alt file's .debug_info */ };

struct value {
	enum vclass cls;
	uint64_t u;                 /* V_UNSIGNED, V_REF, V_FLAG, V_SIG8, V_ALT */
	int64_t s;                  /* V_SIGNED */
	unsigned width;             /* bytes of a DW_FORM_data1..8 (0: other forms) */
	const char *str;            /* V_STRING (NULL when out of range) */
	const unsigned char *block; /* V_BLOCK */
};

/* String idx of the unit's .debug_str_offsets contribution, or NULL. */
const char *sf_ucx_strx(const struct sf_ucx *c, uint64_t idx)
{
	const struct sf_dwsec *so = &c->f->sec[SF_SEC_STR_OFFSETS];
	unsigned os = c->u->offset_size;
	uint64_t base = c->str_offsets_base;

	if (!so->data || idx > (so->size / os) || base > so->size ||
	    idx * os > so->size - base || so->size - base - idx * os < os)
		return NULL;
	struct rd r = { so->data + base + idx * os, so->data + so->size, c->f->msb, 0 };
	return sec_str(&c->f->sec[SF_SEC_STR], rd_u(&r, os));
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
		v->cls = V_STRING;
		v->str = sec_str(&c->f->sec[SF_SEC_STR], rd_u(r, os));
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

static void store_attr(const struct sf_ucx *c, struct sf_die *d, unsigned kind,
		       const struct value *v)
{
	uint64_t u;

	(void)c;
	if (v->cls == V_ALT) {
		/* only these two lead into the alt file: types live there */
		if (kind == AK_TYPE) {
			d->type = v->u;
			d->has |= SF_A_TYPE | SF_A_ALT;
		} else if (kind == AK_IMPORT) {
			d->import = v->u;
			d->has2 |= SF_A2_IMPORT | SF_A2_IMPORT_ALT;
		}
		return;
	}
	switch (kind) {
	case AK_NAME:
		if (v->cls == V_STRING && v->str) {
			d->name = v->str;
			d->has |= SF_A_NAME;
		}
		break;
	case AK_TYPE:
		if (v->cls == V_REF) {
			d->type = v->u;
			d->has |= SF_A_TYPE;
		} else if (v->cls == V_SIG8) {
			d->sig8 = v->u;
			d->has |= SF_A_TYPE | SF_A_SIG8;
		}
		break;
	case AK_SIGNATURE:
		if (v->cls == V_SIG8) {
			d->sig8 = v->u;
			d->has |= SF_A_SIGNATURE;
		}
		break;
	case AK_SIBLING:
		if (v->cls == V_REF) {
			d->sibling = v->u;
			d->has |= SF_A_SIBLING;
		}
		break;
	case AK_IMPORT:
		if (v->cls == V_REF) {
			d->import = v->u;
			d->has2 |= SF_A2_IMPORT;
		}
		break;
	case AK_SPECIFICATION:
		if (v->cls == V_REF) {
			d->specification = v->u;
			d->has |= SF_A_SPECIFICATION;
		}
		break;
	case AK_BYTE_SIZE:
		if (const_u(v, &d->byte_size))
			d->has |= SF_A_BYTE_SIZE;
		break;
	case AK_BIT_SIZE:
		if (const_u(v, &d->bit_size))
			d->has |= SF_A_BIT_SIZE;
		break;
	case AK_DATA_BIT_OFFSET:
		if (const_u(v, &d->data_bit_offset))
			d->has |= SF_A_DATA_BIT_OFFSET;
		break;
	case AK_BIT_OFFSET:
		if (const_u(v, &d->bit_offset))
			d->has |= SF_A_BIT_OFFSET;
		break;
	case AK_DATA_MEMBER_LOCATION:
		if (const_u(v, &d->member_loc))
			d->has |= SF_A_MEMBER_LOC;
		else if (v->cls == V_BLOCK && member_loc_expr(v, &d->member_loc))
			d->has |= SF_A_MEMBER_LOC;
		else
			d->has |= SF_A_MEMBER_EXPR;
		break;
	case AK_CONST_VALUE:
		if (const_u(v, &d->const_value))
			d->has |= SF_A_CONST_VALUE;
		break;
	case AK_DISCR:
		if (v->cls == V_REF) {
			d->discr = v->u;
			d->has2 |= SF_A2_DISCR;
		}
		break;
	case AK_DISCR_VALUE:
		if (const_u(v, &d->discr_value))
			d->has2 |= SF_A2_DISCR_VALUE;
		break;
	case AK_ALIGNMENT:
		if (const_u(v, &d->alignment))
			d->has |= SF_A_ALIGNMENT;
		break;
	case AK_COUNT:
		if (const_u(v, &d->count))
			d->has |= SF_A_COUNT;
		else
			d->has |= SF_A_BOUND_DYN;
		break;
	case AK_UPPER_BOUND:
		if (const_u(v, &u)) {
			d->upper_bound = is_minus_one(c, v) ? -1 : (int64_t)u;
			d->has |= SF_A_UPPER_BOUND;
		} else {
			d->has |= SF_A_BOUND_DYN;
		}
		break;
	case AK_LOWER_BOUND:
		if (const_u(v, &u)) {
			d->lower_bound = (int64_t)u;
			d->has |= SF_A_LOWER_BOUND;
		}
		break;
	case AK_ENCODING:
		if (const_u(v, &u)) {
			d->encoding = (uint32_t)u;
			d->has |= SF_A_ENCODING;
		}
		break;
	case AK_DECL_FILE:
		if (const_u(v, &u)) {
			d->decl_file = (uint32_t)u;
			d->has |= SF_A_DECL_FILE;
		}
		break;
	case AK_DECL_LINE:
		if (const_u(v, &u)) {
			d->decl_line = (uint32_t)u;
			d->has |= SF_A_DECL_LINE;
		}
		break;
	case AK_VIRTUALITY:
		if (const_u(v, &u)) {
			d->virtuality = (uint32_t)u;
			d->has |= SF_A_VIRTUALITY;
		}
		break;
	case AK_LANGUAGE:
		if (const_u(v, &u)) {
			d->language = (uint32_t)u;
			d->has |= SF_A_LANGUAGE;
		}
		break;
	case AK_STR_OFFSETS_BASE:
		if (v->cls != V_BLOCK) {
			d->str_offsets_base = v->u;
			d->has |= SF_A_STR_OFFSETS_BASE;
		}
		break;
	case AK_STMT_LIST:
		if (v->cls == V_NONE || v->cls == V_UNSIGNED) {
			d->stmt_list = v->u;
			d->has |= SF_A_STMT_LIST;
		}
		break;
	case AK_COMP_DIR:
		if (v->cls == V_STRING && v->str) {
			d->comp_dir = v->str;
			d->has |= SF_A_COMP_DIR;
		}
		break;
	case AK_PRODUCER:
		if (v->cls == V_STRING && v->str)
			d->producer = v->str;
		break;
	case AK_DWO_NAME:
	case AK_GNU_DWO_NAME:
		if (v->cls == V_STRING && v->str)
			d->dwo_name = v->str;
		break;
	case AK_GNU_DWO_ID:
		if (const_u(v, &d->dwo_id))
			d->has_dwo_id = 1;
		break;
	case AK_DECLARATION:
		if (v->cls == V_FLAG && v->u)
			d->has |= SF_A_DECLARATION;
		break;
	case AK_EXTERNAL:
		if (v->cls == V_FLAG && v->u)
			d->has |= SF_A_EXTERNAL;
		break;
	case AK_ARTIFICIAL:
		if (v->cls == V_FLAG && v->u)
			d->has |= SF_A_ARTIFICIAL;
		break;
	case AK_PROTOTYPED:
		if (v->cls == V_FLAG && v->u)
			d->has |= SF_A_PROTOTYPED;
		break;
	case AK_GNU_VECTOR:
		if (v->cls == V_FLAG && v->u)
			d->has |= SF_A_VECTOR;
		break;
	}
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
