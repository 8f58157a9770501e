/*
 * die.c - abbrev tables and DIE decoding (see die.h); the unit table is
 * built by dwfile.c, units are opened by ucx.c, the forms no plan reads
 * are decoded by forms.c, the file names of the line table are read by
 * lines.c.
 *
 * DIEs are read through the bounds-checked cursor of cursor.h.
 * Abbrevs are kept in one array per unit with their (attribute, form)
 * pairs in another; codes are nearly always 1..N, so a direct table maps
 * code -> abbrev, with a binary search over the sorted array otherwise.
 */
#include "die.h"
#include "attrs.h"
#include "cursor.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include <dwarf.h>

#include "lib/xalloc.h"

/* DWARF 5's language codes added after libdwarf 20210528's dwarf.h
 * (dwarfstd.org's language table) */
#define DW_LANG_C_plus_plus_17_ 0x2a
#define DW_LANG_C_plus_plus_20_ 0x2b
#define DW_LANG_C17_ 0x2c
#define MAX_ABBREV_ATTRS 4096

static_assert(SF_LANG_C_SET == ((1ull << DW_LANG_C89) | (1ull << DW_LANG_C) | (1ull << DW_LANG_C99) |
				(1ull << DW_LANG_C11) | (1ull << DW_LANG_C17_) | (1ull << DW_LANG_ObjC)),
	      "die.h's C languages");
static_assert(SF_LANG_CXX_SET == ((1ull << DW_LANG_C_plus_plus) | (1ull << DW_LANG_C_plus_plus_03) |
				  (1ull << DW_LANG_C_plus_plus_11) |
				  (1ull << DW_LANG_C_plus_plus_14) |
				  (1ull << DW_LANG_C_plus_plus_17_) |
				  (1ull << DW_LANG_C_plus_plus_20_) |
				  (1ull << DW_LANG_ObjC_plus_plus)),
	      "die.h's C++ languages");

/* ---- abbrevs ----------------------------------------------------------- */

/* sf_abbrev.planned: bit k, plan k (enum sf_plan) compiled. */

/* The abbreviation of a code, or NULL.  Not const: its plans are compiled
 * on first use (the table's own array, not the table, is written). */
static inline struct sf_abbrev *find_abbrev(const struct sf_abbrevs *ab, uint64_t code)
{
	if (code < ab->ndirect) {
		uint32_t i = ab->direct[code];
		return i ? &ab->v[i - 1] : NULL;
	}
	size_t lo = 0, hi = ab->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (ab->v[mid].code < code)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < ab->n && ab->v[lo].code == code ? &ab->v[lo] : NULL;
}

static int cmp_abbrev(const void *a, const void *b)
{
	const struct sf_abbrev *x = a, *y = b;

	return x->code < y->code ? -1 : x->code > y->code;
}


static_assert(AK_N <= 256, "sf_abbrev_attr.kind is a uint8_t");
static_assert(DW_FORM_implicit_const == 0x21, "rd_spec knows it by number");

/* The kinds of the attributes below 0x90 (DWARF 5's end at 0x8c), by
 * DW_AT_ code: a load where a switch jumped through a table. */
static const uint8_t kind_of[0x90] = {
	[DW_AT_name] = AK_NAME,
	[DW_AT_type] = AK_TYPE,
	[DW_AT_signature] = AK_SIGNATURE,
	[DW_AT_sibling] = AK_SIBLING,
	[DW_AT_import] = AK_IMPORT,
	[DW_AT_specification] = AK_SPECIFICATION,
	[DW_AT_byte_size] = AK_BYTE_SIZE,
	[DW_AT_bit_size] = AK_BIT_SIZE,
	[DW_AT_data_bit_offset] = AK_DATA_BIT_OFFSET,
	[DW_AT_bit_offset] = AK_BIT_OFFSET,
	[DW_AT_data_member_location] = AK_DATA_MEMBER_LOCATION,
	[DW_AT_const_value] = AK_CONST_VALUE,
	[DW_AT_discr] = AK_DISCR,
	[DW_AT_discr_value] = AK_DISCR_VALUE,
	[DW_AT_alignment] = AK_ALIGNMENT,
	[DW_AT_count] = AK_COUNT,
	[DW_AT_upper_bound] = AK_UPPER_BOUND,
	[DW_AT_lower_bound] = AK_LOWER_BOUND,
	[DW_AT_encoding] = AK_ENCODING,
	[DW_AT_decl_file] = AK_DECL_FILE,
	[DW_AT_decl_line] = AK_DECL_LINE,
	[DW_AT_virtuality] = AK_VIRTUALITY,
	[DW_AT_language] = AK_LANGUAGE,
	[DW_AT_str_offsets_base] = AK_STR_OFFSETS_BASE,
	[DW_AT_stmt_list] = AK_STMT_LIST,
	[DW_AT_comp_dir] = AK_COMP_DIR,
	[DW_AT_producer] = AK_PRODUCER,
	[DW_AT_dwo_name] = AK_DWO_NAME,
	[DW_AT_declaration] = AK_DECLARATION,
	[DW_AT_external] = AK_EXTERNAL,
	[DW_AT_artificial] = AK_ARTIFICIAL,
	[DW_AT_prototyped] = AK_PROTOTYPED,
};

static_assert(AK_NONE == 0, "kind_of's other entries say none");
static_assert(DW_AT_signature < 0x90 && DW_AT_alignment < 0x90 && DW_AT_dwo_name < 0x90 &&
	      DW_AT_str_offsets_base < 0x90 && DW_AT_data_bit_offset < 0x90,
	      "kind_of holds every DWARF 5 attribute it names");

static uint8_t attr_kind(unsigned at)
{
	if (at < sizeof(kind_of))
		return kind_of[at];
	switch (at) {	/* the GNU extensions */
	case DW_AT_GNU_dwo_name: return AK_GNU_DWO_NAME;
	case DW_AT_GNU_dwo_id: return AK_GNU_DWO_ID;
	case DW_AT_GNU_vector: return AK_GNU_VECTOR;
	default: return AK_NONE;
	}
}

/*
 * The attribute list of an abbreviation at r, appended to ab->attrs (*cap
 * its room): what rd_skip_specs steps over, kept - it fails where that
 * fails (rd_spec reads each pair for both).  Its number of attributes,
 * or -1.  Decoding every list in the pass that finds the abbreviations,
 * where the lists were decoded in a second pass when first used, is one
 * loop over the bytes where there were two: a vmlinux unit's DIEs use
 * about three in four of its abbreviations (1.24 M of 1.64 M
 * attributes).
 */
static long parse_attrs(struct rd *r, struct sf_abbrevs *ab, size_t *cap)
{
	for (long n = 0;; n++) {
		uint64_t at, form;
		int64_t implicit;
		int rc = rd_spec(r, &at, &form, &implicit);
		if (rc < 0 || n > MAX_ABBREV_ATTRS)
			break;
		if (rc == 0)
			return n;
		SF_GROW(ab->attrs, ab->nattrs, *cap);
		struct sf_abbrev_attr *x = &ab->attrs[ab->nattrs++];
		x->at = (uint16_t)(at > 0xffff ? 0xffff : at);
		x->form = (uint16_t)(form > 0xffff ? 0xffff : form);
		x->kind = attr_kind(x->at);
		x->implicit = implicit;
	}
	r->p = r->end;
	r->bad = 1;
	return -1;
}

int sf_abbrevs_parse_for(struct sf_abbrevs *ab, const struct sf_dwfile *f, uint64_t off,
			 uint16_t geometry, uint64_t want, uint16_t *tag)
{
	const struct sf_dwsec *s = &f->sec[SF_SEC_ABBREV];
	struct rd r = { s->data + off, s->data + s->size, f->msb, 0 };
	int sorted = 1;

	if (want)
		*tag = 0;

	ab->geometry = geometry;
	/* room for a typical unit's table (vmlinux: 145 abbreviations):
	 * growing from 16 copied it seven times */
	ab->cap = 256;
	ab->v = sf_xreallocarray(NULL, ab->cap, sizeof(*ab->v));
	/* and for its attributes (vmlinux: 755 a unit) */
	size_t attrcap = 1024;
	ab->attrs = sf_xreallocarray(NULL, attrcap, sizeof(*ab->attrs));
	for (;;) {
		uint64_t code = rd_uleb(&r);
		if (r.bad)
			return -1;
		if (code == 0)
			break;
		SF_GROW(ab->v, ab->n, ab->cap);
		struct sf_abbrev *a = &ab->v[ab->n];
		a->code = code;
		uint64_t t = rd_uleb(&r);
		a->tag = (uint16_t)t;
		if (code == want) {	/* the first of that code: codes are never 0 */
			*tag = t > 0xffff ? 0 : (uint16_t)t;
			want = 0;
		}
		a->children = (uint8_t)rd_u(&r, 1);
		a->first = (uint32_t)ab->nattrs;
		long n = parse_attrs(&r, ab, &attrcap);
		if (n < 0)
			return -1;
		a->nattrs = (uint32_t)n;
		if (ab->n && ab->v[ab->n - 1].code >= code)
			sorted = 0;
		ab->n++;
		a->planned = 0;
		a->sib_size = 0;
	}
	/* each abbreviation's three plans have at most one op per attribute */
	ab->ops = sf_xreallocarray(NULL, 3 * ab->nattrs + 1, sizeof(*ab->ops));
	if (!sorted)
		qsort(ab->v, ab->n, sizeof(*ab->v), cmp_abbrev);
	uint64_t maxcode = ab->n ? ab->v[ab->n - 1].code : 0;
	if (maxcode < 4 * ab->n + 64) {
		ab->ndirect = (size_t)maxcode + 1;
		ab->direct = sf_xcalloc(ab->ndirect, sizeof(uint32_t));
		for (size_t i = 0; i < ab->n; i++)
			ab->direct[ab->v[i].code] = (uint32_t)(i + 1);
		ab->nsteps = ab->ndirect < 0x80 ? ab->ndirect : 0x80;
		ab->steps = sf_xcalloc(ab->nsteps, sizeof(*ab->steps));
	}
	return 0;
}

const struct sf_abbrev *sf_abbrev_find(const struct sf_abbrevs *ab, uint64_t code)
{
	return find_abbrev(ab, code);
}

/* ---- decode plans ------------------------------------------------------ */

/*
 * Each abbreviation is compiled, when a DIE first needs it, into ops
 * (struct sf_abbrev_op): one op reads one attribute's form and stores its
 * value in one sf_die field, so decoding is one switch per attribute
 * where it was read_form's switch on the form into a struct value, then
 * store_attr's table of kinds.  The (form, kind) pairs gcc and clang
 * write for the attributes sf_die keeps have ops of their own; any other
 * pair - DW_FORM_indirect, ref_addr, ref_sig8, dwz's alt forms, blocks,
 * strings of DWARF64 units, unknown forms - runs read_form and store_attr
 * as before (OP_GENERIC), so it means and fails exactly as it did.
 * Attributes no field wants are skipped, consecutive fixed-size ones in
 * one OP_SKIP.
 *
 * A second, shorter plan only steps over the DIE (sf_die_read_tags,
 * sf_die_skip), keeping DW_AT_sibling; when every attribute has a fixed
 * size and none is a sibling, that is one addition (skip_fixed).
 *
 * Some forms' sizes depend on the unit (address size, offset size,
 * DWARF 2's ref_addr): a table's plans assume one geometry, and a unit of
 * another (a table shared by dwz partial units of different shapes)
 * decodes attribute by attribute (decode_attrs).
 */
enum plan_op {
	OP_NONE,            /* no op of its own (table default): generic */
	OP_SKIP,            /* arg fixed bytes */
	OP_SKIP_LEB,        /* a LEB128, signed or not (the same bytes) */
	OP_SKIP_STRING,
	OP_SKIP_BLOCK1, OP_SKIP_BLOCK2, OP_SKIP_BLOCK4, OP_SKIP_BLOCK,
	/* a string (NULL: out of range, not stored) -> a string field */
	OP_STRP4, OP_LINE_STRP4, OP_STRING, OP_STRX1, OP_STRX2, OP_STRX,
	/* a unit-relative reference -> a section offset field */
	OP_REF1, OP_REF2, OP_REF4, OP_REF8, OP_REF_UDATA,
	/* a constant -> an 8-byte field */
	OP_U1, OP_U2, OP_U4, OP_U8, OP_UDATA, OP_SDATA, OP_IMPLICIT,
	/* ... -> a 4-byte field (truncated, as store_attr did) */
	OP_U1_W4, OP_U2_W4, OP_U4_W4, OP_U8_W4, OP_UDATA_W4, OP_SDATA_W4, OP_IMPLICIT_W4,
	/* a flag -> its `has` bit */
	OP_FLAG_PRESENT, OP_FLAG,
	OP_GENERIC,         /* read_form, then store_attr */
	OP_GENERIC_SKIP,    /* read_form, keeping only a DW_AT_sibling reference */
	OP_N
};

static_assert(OP_N <= 256, "sf_abbrev_op.op is a uint8_t");
static_assert(OP_U1_W4 - OP_U1 == OP_IMPLICIT_W4 - OP_IMPLICIT, "the 4-byte twins line up");

uint16_t sf_unit_geometry(const struct sf_unit *u)
{
	return (uint16_t)(u->addr_size | u->offset_size << 4 | (u->version == 2) << 8);
}

/*
 * What the plan compiler knows of a form: its size (sz: 1 + fixed bytes,
 * or one of the codes below; 0 for a form read_form does not know) and
 * its op for each class of sf_die field (OP_NONE: none, go generic).
 */
enum { SZ_UNKNOWN = 0, SZ_ADDR = 100, SZ_OFFSET, SZ_REF_ADDR, SZ_VAR };

struct form_info {
	uint8_t sz;
	uint8_t skip;       /* SZ_VAR: the op stepping over it */
	uint8_t konst, str, ref, flag;
};

#define FIX(n) ((uint8_t)(1 + (n)))
#define GNU_FORM(f) (DW_FORM_addrx4 + 1 + ((f) - DW_FORM_GNU_addr_index))
#define NFORMS GNU_FORM(DW_FORM_GNU_strp_alt + 1)

static const struct form_info forms[NFORMS] = {
	[DW_FORM_addr] = { SZ_ADDR, 0, 0, 0, 0, 0 },
	[DW_FORM_block2] = { SZ_VAR, OP_SKIP_BLOCK2, 0, 0, 0, 0 },
	[DW_FORM_block4] = { SZ_VAR, OP_SKIP_BLOCK4, 0, 0, 0, 0 },
	[DW_FORM_data2] = { FIX(2), 0, OP_U2, 0, 0, 0 },
	[DW_FORM_data4] = { FIX(4), 0, OP_U4, 0, 0, 0 },
	[DW_FORM_data8] = { FIX(8), 0, OP_U8, 0, 0, 0 },
	[DW_FORM_string] = { SZ_VAR, OP_SKIP_STRING, 0, OP_STRING, 0, 0 },
	[DW_FORM_block] = { SZ_VAR, OP_SKIP_BLOCK, 0, 0, 0, 0 },
	[DW_FORM_block1] = { SZ_VAR, OP_SKIP_BLOCK1, 0, 0, 0, 0 },
	[DW_FORM_data1] = { FIX(1), 0, OP_U1, 0, 0, 0 },
	[DW_FORM_flag] = { FIX(1), 0, 0, 0, 0, OP_FLAG },
	[DW_FORM_sdata] = { SZ_VAR, OP_SKIP_LEB, OP_SDATA, 0, 0, 0 },
	[DW_FORM_strp] = { SZ_OFFSET, 0, 0, OP_STRP4, 0, 0 },
	[DW_FORM_udata] = { SZ_VAR, OP_SKIP_LEB, OP_UDATA, 0, 0, 0 },
	[DW_FORM_ref_addr] = { SZ_REF_ADDR, 0, 0, 0, 0, 0 },
	[DW_FORM_ref1] = { FIX(1), 0, 0, 0, OP_REF1, 0 },
	[DW_FORM_ref2] = { FIX(2), 0, 0, 0, OP_REF2, 0 },
	[DW_FORM_ref4] = { FIX(4), 0, 0, 0, OP_REF4, 0 },
	[DW_FORM_ref8] = { FIX(8), 0, 0, 0, OP_REF8, 0 },
	[DW_FORM_ref_udata] = { SZ_VAR, OP_SKIP_LEB, 0, 0, OP_REF_UDATA, 0 },
	[DW_FORM_indirect] = { SZ_UNKNOWN, 0, 0, 0, 0, 0 },	/* its size is in the DIE */
	[DW_FORM_sec_offset] = { SZ_OFFSET, 0, 0, 0, 0, 0 },
	[DW_FORM_exprloc] = { SZ_VAR, OP_SKIP_BLOCK, 0, 0, 0, 0 },
	[DW_FORM_flag_present] = { FIX(0), 0, 0, 0, 0, OP_FLAG_PRESENT },
	[DW_FORM_strx] = { SZ_VAR, OP_SKIP_LEB, 0, OP_STRX, 0, 0 },
	[DW_FORM_addrx] = { SZ_VAR, OP_SKIP_LEB, 0, 0, 0, 0 },
	[DW_FORM_ref_sup4] = { FIX(4), 0, 0, 0, 0, 0 },
	[DW_FORM_strp_sup] = { SZ_OFFSET, 0, 0, 0, 0, 0 },
	[DW_FORM_data16] = { FIX(16), 0, 0, 0, 0, 0 },
	[DW_FORM_line_strp] = { SZ_OFFSET, 0, 0, OP_LINE_STRP4, 0, 0 },
	[DW_FORM_ref_sig8] = { FIX(8), 0, 0, 0, 0, 0 },
	[DW_FORM_implicit_const] = { FIX(0), 0, OP_IMPLICIT, 0, 0, 0 },
	[DW_FORM_loclistx] = { SZ_VAR, OP_SKIP_LEB, 0, 0, 0, 0 },
	[DW_FORM_rnglistx] = { SZ_VAR, OP_SKIP_LEB, 0, 0, 0, 0 },
	[DW_FORM_ref_sup8] = { FIX(8), 0, 0, 0, 0, 0 },
	[DW_FORM_strx1] = { FIX(1), 0, 0, OP_STRX1, 0, 0 },
	[DW_FORM_strx2] = { FIX(2), 0, 0, OP_STRX2, 0, 0 },
	[DW_FORM_strx3] = { FIX(3), 0, 0, 0, 0, 0 },
	[DW_FORM_strx4] = { FIX(4), 0, 0, 0, 0, 0 },
	[DW_FORM_addrx1] = { FIX(1), 0, 0, 0, 0, 0 },
	[DW_FORM_addrx2] = { FIX(2), 0, 0, 0, 0, 0 },
	[DW_FORM_addrx3] = { FIX(3), 0, 0, 0, 0, 0 },
	[DW_FORM_addrx4] = { FIX(4), 0, 0, 0, 0, 0 },
	[GNU_FORM(DW_FORM_GNU_addr_index)] = { SZ_VAR, OP_SKIP_LEB, 0, 0, 0, 0 },
	[GNU_FORM(DW_FORM_GNU_str_index)] = { SZ_VAR, OP_SKIP_LEB, 0, OP_STRX, 0, 0 },
	[GNU_FORM(DW_FORM_GNU_ref_alt)] = { SZ_OFFSET, 0, 0, 0, 0, 0 },
	[GNU_FORM(DW_FORM_GNU_strp_alt)] = { SZ_OFFSET, 0, 0, 0, 0, 0 },
};

static_assert(DW_FORM_addrx4 == 0x2c && DW_FORM_GNU_strp_alt - DW_FORM_GNU_addr_index == 0x20,
	      "the GNU forms follow the DWARF 5 ones");

static const struct form_info *form_info(unsigned form)
{
	static const struct form_info unknown = { SZ_UNKNOWN, 0, 0, 0, 0, 0 };

	if (form <= DW_FORM_addrx4)
		return &forms[form];
	if (form >= DW_FORM_GNU_addr_index && form <= DW_FORM_GNU_strp_alt)
		return &forms[GNU_FORM(form)];
	return &unknown;
}

int sf_form_span(unsigned form, const struct sf_unit *u, unsigned *n)
{
	const struct form_info *fi = form_info(form);

	*n = 0;
	switch (fi->sz) {
	case SZ_UNKNOWN: return -1;	/* DW_FORM_indirect, or unknown */
	case SZ_ADDR: *n = u->addr_size; return SF_SPAN_FIXED;
	case SZ_OFFSET: *n = u->offset_size; return SF_SPAN_FIXED;
	case SZ_REF_ADDR:
		*n = u->version == 2 ? u->addr_size : u->offset_size;
		return SF_SPAN_FIXED;
	case SZ_VAR: break;
	default: *n = fi->sz - FIX(0); return SF_SPAN_FIXED;
	}
	switch (fi->skip) {
	case OP_SKIP_LEB: return SF_SPAN_LEB;
	case OP_SKIP_STRING: return SF_SPAN_STRING;
	case OP_SKIP_BLOCK1: *n = 1; return SF_SPAN_BLOCK;
	case OP_SKIP_BLOCK2: *n = 2; return SF_SPAN_BLOCK;
	case OP_SKIP_BLOCK4: *n = 4; return SF_SPAN_BLOCK;
	default: assert(fi->skip == OP_SKIP_BLOCK); return SF_SPAN_BLOCK;
	}
}

/* Bytes of a form of size code sz in geometry g, or -1 (not fixed). */
static int fixed_size(unsigned sz, uint16_t g)
{
	unsigned addr = g & 0xf, os = (g >> 4) & 0xf;

	if (sz >= FIX(0) && sz <= FIX(16))
		return (int)sz - 1;
	if (sz == SZ_ADDR)
		return (int)addr;
	if (sz == SZ_OFFSET)
		return (int)os;
	if (sz == SZ_REF_ADDR)
		return (int)((g >> 8) & 1 ? addr : os);
	return -1;
}

/* Which class of sf_die field a kind sets, which one, and its `has` bit;
 * CLASS_OTHER kinds (has2 bits, checks of their own) always go generic. */
enum { CLASS_NONE = 0, CLASS_CONST, CLASS_STR, CLASS_REF, CLASS_FLAG, CLASS_OTHER };

struct kind_info {
	uint8_t cls;
	uint8_t wide;       /* CLASS_CONST: an 8-byte field (else 4) */
	uint16_t field;
	uint32_t bit;
};

#define KIND(c, f, b) { (c), sizeof(((struct sf_die *)0)->f) == 8, offsetof(struct sf_die, f), (b) }

static const struct kind_info kinds[AK_N] = {
	[AK_NAME] = KIND(CLASS_STR, name, SF_A_NAME),
	[AK_COMP_DIR] = KIND(CLASS_STR, comp_dir, SF_A_COMP_DIR),
	[AK_TYPE] = KIND(CLASS_REF, type, SF_A_TYPE),
	[AK_SIBLING] = KIND(CLASS_REF, sibling, SF_A_SIBLING),
	[AK_SPECIFICATION] = KIND(CLASS_REF, specification, SF_A_SPECIFICATION),
	[AK_BYTE_SIZE] = KIND(CLASS_CONST, byte_size, SF_A_BYTE_SIZE),
	[AK_BIT_SIZE] = KIND(CLASS_CONST, bit_size, SF_A_BIT_SIZE),
	[AK_DATA_BIT_OFFSET] = KIND(CLASS_CONST, data_bit_offset, SF_A_DATA_BIT_OFFSET),
	[AK_BIT_OFFSET] = KIND(CLASS_CONST, bit_offset, SF_A_BIT_OFFSET),
	[AK_DATA_MEMBER_LOCATION] = KIND(CLASS_CONST, member_loc, SF_A_MEMBER_LOC),
	[AK_CONST_VALUE] = KIND(CLASS_CONST, const_value, SF_A_CONST_VALUE),
	[AK_ALIGNMENT] = KIND(CLASS_CONST, alignment, SF_A_ALIGNMENT),
	[AK_COUNT] = KIND(CLASS_CONST, count, SF_A_COUNT),
	[AK_UPPER_BOUND] = KIND(CLASS_CONST, upper_bound, SF_A_UPPER_BOUND),
	[AK_LOWER_BOUND] = KIND(CLASS_CONST, lower_bound, SF_A_LOWER_BOUND),
	[AK_ENCODING] = KIND(CLASS_CONST, encoding, SF_A_ENCODING),
	[AK_DECL_FILE] = KIND(CLASS_CONST, decl_file, SF_A_DECL_FILE),
	[AK_DECL_LINE] = KIND(CLASS_CONST, decl_line, SF_A_DECL_LINE),
	[AK_VIRTUALITY] = KIND(CLASS_CONST, virtuality, SF_A_VIRTUALITY),
	[AK_LANGUAGE] = KIND(CLASS_CONST, language, SF_A_LANGUAGE),
	[AK_DECLARATION] = { CLASS_FLAG, 0, 0, SF_A_DECLARATION },
	[AK_EXTERNAL] = { CLASS_FLAG, 0, 0, SF_A_EXTERNAL },
	[AK_ARTIFICIAL] = { CLASS_FLAG, 0, 0, SF_A_ARTIFICIAL },
	[AK_PROTOTYPED] = { CLASS_FLAG, 0, 0, SF_A_PROTOTYPED },
	[AK_GNU_VECTOR] = { CLASS_FLAG, 0, 0, SF_A_VECTOR },
	[AK_SIGNATURE] = { CLASS_OTHER, 0, 0, 0 },
	[AK_IMPORT] = { CLASS_OTHER, 0, 0, 0 },
	[AK_DISCR] = { CLASS_OTHER, 0, 0, 0 },
	[AK_DISCR_VALUE] = { CLASS_OTHER, 0, 0, 0 },
	[AK_STR_OFFSETS_BASE] = { CLASS_OTHER, 0, 0, 0 },
	[AK_STMT_LIST] = { CLASS_OTHER, 0, 0, 0 },
	[AK_PRODUCER] = { CLASS_OTHER, 0, 0, 0 },
	[AK_DWO_NAME] = { CLASS_OTHER, 0, 0, 0 },
	[AK_GNU_DWO_NAME] = { CLASS_OTHER, 0, 0, 0 },
	[AK_GNU_DWO_ID] = { CLASS_OTHER, 0, 0, 0 },
};

/*
 * A plan being compiled: its ops so far, the fixed skip not yet written
 * (consecutive ones merge into one OP_SKIP) and the bytes it reads when
 * every op reads a fixed size.  Kept in registers while compiling: the
 * ops are written, never read back (reading the last op back to merge
 * skips, and the plan again for its size, were half of compile_plan's
 * samples, perf annotate).
 */
struct plan_out {
	struct sf_abbrev_op *ops;
	size_t n;
	uint32_t skip, skip_attr; /* pending OP_SKIP bytes, its first attribute */
	size_t bytes;             /* read by the fixed-size ops */
	int varies;               /* some op reads a variable size */
};

/* Bytes each op reads, 0xff: a variable size (LEB128, strings, blocks,
 * generic); OP_SKIP's are its arg. */
static const uint8_t op_bytes[OP_N] = {
	[OP_NONE] = 0xff, [OP_SKIP_LEB] = 0xff, [OP_SKIP_STRING] = 0xff,
	[OP_SKIP_BLOCK1] = 0xff, [OP_SKIP_BLOCK2] = 0xff, [OP_SKIP_BLOCK4] = 0xff,
	[OP_SKIP_BLOCK] = 0xff, [OP_STRING] = 0xff, [OP_STRX] = 0xff,
	[OP_REF_UDATA] = 0xff, [OP_UDATA] = 0xff, [OP_SDATA] = 0xff,
	[OP_UDATA_W4] = 0xff, [OP_SDATA_W4] = 0xff, [OP_GENERIC] = 0xff,
	[OP_GENERIC_SKIP] = 0xff,
	[OP_U1] = 1, [OP_U1_W4] = 1, [OP_REF1] = 1, [OP_STRX1] = 1, [OP_FLAG] = 1,
	[OP_U2] = 2, [OP_U2_W4] = 2, [OP_REF2] = 2, [OP_STRX2] = 2,
	[OP_U4] = 4, [OP_U4_W4] = 4, [OP_REF4] = 4, [OP_STRP4] = 4, [OP_LINE_STRP4] = 4,
	[OP_U8] = 8, [OP_U8_W4] = 8, [OP_REF8] = 8,
	/* OP_SKIP, OP_IMPLICIT(_W4), OP_FLAG_PRESENT: 0 */
};

/* Write the pending skip as an op. */
static inline void flush_skip(struct plan_out *o)
{
	if (o->skip) {
		o->ops[o->n++] = (struct sf_abbrev_op){ .op = OP_SKIP, .arg = o->skip,
							.attr = o->skip_attr };
		o->skip = 0;
	}
}

/* Append op to the plan, merging fixed skips. */
static inline void emit(struct plan_out *o, uint8_t op, uint16_t field, uint32_t arg,
			uint32_t attr)
{
	assert(op != OP_NONE && op < OP_N);
	if (op == OP_SKIP) {
		if (!o->skip)
			o->skip_attr = attr;
		o->skip += arg;
		o->bytes += arg;
		return;
	}
	flush_skip(o);
	o->varies |= op_bytes[op] == 0xff;
	o->bytes += op_bytes[op];
	o->ops[o->n++] = (struct sf_abbrev_op){ .op = op, .field = field, .arg = arg, .attr = attr };
}

/* Emit the op stepping over attribute i (form info fi), or a generic one
 * when its size is unknown. */
static inline void emit_skip(struct plan_out *o, const struct form_info *fi, uint16_t g,
			     uint32_t i, uint8_t generic)
{
	int bytes = fixed_size(fi->sz, g);

	if (bytes >= 0)
		emit(o, OP_SKIP, 0, (uint32_t)bytes, i);
	else
		emit(o, fi->sz == SZ_VAR ? fi->skip : generic, 0, 0, i);
}

/* The op decoding an attribute of kind k in form fi in full, or OP_NONE. */
static uint8_t keep_op(const struct kind_info *k, unsigned kind, const struct form_info *fi,
		       uint16_t g)
{
	unsigned addr = g & 0xf, os = (g >> 4) & 0xf;
	uint8_t op;

	switch (k->cls) {
	case CLASS_CONST:
		op = fi->konst;
		/* a bound all ones as wide as an address means -1 (is_minus_one);
		 * in data8, or as wide as 8 bytes, it is -1 as stored */
		if (kind == AK_UPPER_BOUND && op >= OP_U1 && op <= OP_U4 &&
		    (op == OP_U1 ? 1u : op == OP_U2 ? 2u : 4u) >= addr)
			return OP_NONE;
		return op != OP_NONE && !k->wide ? (uint8_t)(op + (OP_U1_W4 - OP_U1)) : op;
	case CLASS_STR:
		op = fi->str;
		return (op == OP_STRP4 || op == OP_LINE_STRP4) && os != 4 ? OP_NONE : op;
	case CLASS_REF:
		return fi->ref;
	case CLASS_FLAG:
		return fi->flag;
	default:
		return OP_NONE;
	}
}

/* Bytes a sibling reference op reads (0: not one of fixed size). */
static unsigned ref_width(uint8_t op)
{
	switch (op) {
	case OP_REF1: return 1;
	case OP_REF2: return 2;
	case OP_REF4: return 4;
	case OP_REF8: return 8;
	default: return 0;
	}
}

/* Whether the pass plan ops[0, n) of a is fixed bytes, a sibling of a
 * fixed size, fixed bytes: then stepping over is one load (sib_size). */
static void plan_sibling_step(struct sf_abbrev *a, const struct sf_abbrev_op *ops, size_t n)
{
	size_t i = 0;
	uint64_t before = 0, after = 0;
	unsigned w;

	a->sib_size = 0;
	if (i < n && ops[i].op == OP_SKIP)
		before = ops[i++].arg;
	if (i == n || !(w = ref_width(ops[i].op)))
		return;
	assert(ops[i].arg == SF_A_SIBLING);
	i++;
	if (i < n && ops[i].op == OP_SKIP)
		after = ops[i++].arg;
	if (i != n || before > UINT16_MAX || before + w + after > UINT32_MAX)
		return;
	a->sib_pos = (uint16_t)before;
	a->sib_size = (uint8_t)w;
	a->skip_size = (uint32_t)(before + w + after);
}


/* Emit the op reading attribute i (x, of form fi) in full. */
static void emit_keep(struct plan_out *o, const struct sf_abbrev_attr *x,
		      const struct form_info *fi, uint16_t g, uint32_t i)
{
	const struct kind_info *k = &kinds[x->kind];

	if (k->cls == CLASS_NONE) {
		emit_skip(o, fi, g, i, OP_GENERIC);
	} else {
		uint8_t op = keep_op(k, x->kind, fi, g);
		emit(o, op == OP_NONE ? OP_GENERIC : op, k->field, k->bit, i);
	}
}

/* Emit the op stepping over attribute i, keeping a sibling reference. */
static void emit_pass(struct plan_out *o, const struct sf_abbrev_attr *x,
		      const struct form_info *fi, uint16_t g, uint32_t i)
{
	if (x->kind == AK_SIBLING && fi->ref != OP_NONE)
		emit(o, fi->ref, kinds[AK_SIBLING].field, SF_A_SIBLING, i);
	else if (x->kind == AK_SIBLING && x->form == DW_FORM_ref_addr)
		emit(o, OP_GENERIC_SKIP, 0, 0, i);
	else
		emit_skip(o, fi, g, i, OP_GENERIC_SKIP);
}

/*
 * ab->steps[a's code] once a's pass plan is compiled, when a DIE of a
 * is stepped over without reading it: no children and fixed bytes, or
 * children and fixed bytes around its sibling.  The word: bytes after
 * the code (0-31), the sibling's place (32-47) and size (48-51, 0: no
 * sibling), the tag (53-59, 64 for any tag above), set (63).
 */
static void set_step(const struct sf_abbrevs *ab, const struct sf_abbrev *a)
{
	uint64_t e;

	if (a->code >= ab->nsteps)
		return;
	if (a->skip_fixed && !a->children)
		e = a->skip_size;
	else if (a->sib_size && a->children)
		e = a->skip_size | (uint64_t)a->sib_pos << 32 | (uint64_t)a->sib_size << 48;
	else
		return;
	ab->steps[a->code] = e | (uint64_t)(a->tag < 64 ? a->tag : 64) << 53 | 1ull << 63;
}

/* a->wrefs and the rest (die.h) from a's walk plan ops, when it is one
 * run_plan would read at fixed places with at least one reference. */
static void walk_fixed(struct sf_abbrev *a, const struct sf_abbrev_op *ops)
{
	uint32_t pos = 0, n = 0;

	a->wrefs = 0;
	a->wname = 0xffff;
	a->whas = 0;
	for (const struct sf_abbrev_op *op = ops; op < ops + a->nops[SF_PLAN_WALK]; op++) {
		if (op->op == OP_SKIP) {
			pos += op->arg;
		} else if (op->op == OP_FLAG_PRESENT) {
			a->whas |= op->arg;
		} else if (op->op == OP_STRP4 && op->field == offsetof(struct sf_die, name) &&
			   a->wname == 0xffff && pos < 0xffff) {
			a->wname = (uint16_t)pos;
			pos += 4;
		} else if (op->op == OP_REF4 && n < 3 && pos <= UINT16_MAX) {
			a->wref[n].pos = (uint16_t)pos;
			a->wref[n].field = op->field;
			a->wref[n++].bit = op->arg;
			pos += 4;
		} else {
			return;
		}
	}
	if (n && pos == a->fixed[SF_PLAN_WALK])
		a->wrefs = (uint8_t)n;
}

/* Does a walk read attributes of this kind (sf_die_find_tags)? */
static int walk_reads(unsigned kind)
{
	return kind == AK_NAME || kind == AK_TYPE || kind == AK_SIBLING ||
	       kind == AK_SPECIFICATION || kind == AK_IMPORT || kind == AK_SIGNATURE ||
	       kind == AK_DECLARATION;
}

/*
 * Plan k of abbreviation a into its slots of ab->ops: the full one
 * (sf_die_read), the one stepping over a DIE (sf_die_read_tags,
 * sf_die_skip) or the walk's (sf_die_find_tags).  A DIE is most often
 * only read in full (members, types) or only stepped over (functions,
 * variables): each plan is made when first needed.
 */
static __attribute__((noinline)) void compile_plan(const struct sf_abbrevs *ab,
						   struct sf_abbrev *a, enum sf_plan k)
{
	struct sf_abbrev_op *ops = ab->ops + 3 * (size_t)a->first + k * (size_t)a->nattrs;
	struct plan_out o = { .ops = ops };

	assert(a->first + (size_t)a->nattrs <= ab->nattrs && a->nattrs <= MAX_ABBREV_ATTRS + 1);
	for (uint32_t i = a->first; i < a->first + a->nattrs; i++) {
		const struct sf_abbrev_attr *x = &ab->attrs[i];
		const struct form_info *fi = form_info(x->form);
		if (k == SF_PLAN_KEEP || (k == SF_PLAN_WALK && walk_reads(x->kind)))
			emit_keep(&o, x, fi, ab->geometry, i);
		else if (k == SF_PLAN_PASS)
			emit_pass(&o, x, fi, ab->geometry, i);
		else	/* what the walk does not read, read as read_form would */
			emit_skip(&o, fi, ab->geometry, i, OP_GENERIC_SKIP);
	}
	flush_skip(&o);
	size_t n = o.n;
	assert(n <= a->nattrs);
	a->nops[k] = (uint16_t)n;
	/* the bytes every op reads, when all are fixed and fit a uint16_t */
	a->fixed[k] = (uint16_t)(!o.varies && o.bytes <= UINT16_MAX ? o.bytes : 0);
	if (k == SF_PLAN_PASS) {
		a->skip_fixed = n == 0 || (n == 1 && ops[0].op == OP_SKIP);
		a->skip_size = a->skip_fixed && n ? ops[0].arg : 0;
		if (!a->skip_fixed)
			plan_sibling_step(a, ops, n);
	}
	a->planned |= (uint8_t)(1u << k);
	if (k == SF_PLAN_PASS)
		set_step(ab, a);
	if (k == SF_PLAN_WALK)
		walk_fixed(a, ops);
}

/* Step over a NUL-terminated string; -1 when it runs past the unit. */
static inline int skip_string(struct rd *r)
{
	const unsigned char *z = r->p < r->end ? memchr(r->p, '\0', (size_t)(r->end - r->p)) : NULL;

	if (!z) {
		r->bad = 1;
		return -1;
	}
	r->p = z + 1;
	return 0;
}

#define ALWAYS_INLINE inline __attribute__((always_inline))

/*
 * Run ops [op, end) of a plan over the attribute bytes at r, the `has`
 * bits gathered in *has.  A read past the unit sets r->bad, which is
 * sticky and leaves every later read at the end reading zeros; so one
 * check at the end fails the DIE wherever read_form would have.
 */
static ALWAYS_INLINE int run_plan(const struct sf_ucx *c, struct rd *r, struct sf_die *d,
				  uint32_t *has, const struct sf_abbrev_op *op,
				  const struct sf_abbrev_op *end, int fast)
{
/* fast: a little-endian plan of fixed-size reads, its bytes checked */
#define RD(n) (fast ? rd_le_unchecked(r, (n)) : rd_u(r, (n)))

	for (; op < end; op++) {
		const char *str;
		uint64_t v;
		uint32_t w;

		switch ((enum plan_op)op->op) {
		case OP_SKIP:
			if (fast)
				r->p += op->arg;
			else
				rd_skip(r, op->arg);
			continue;
		case OP_SKIP_LEB: rd_uleb(r); continue;
		case OP_SKIP_STRING:
			if (skip_string(r) < 0)
				return -1;
			continue;
		case OP_SKIP_BLOCK1: v = rd_u(r, 1); rd_skip(r, v); continue;
		case OP_SKIP_BLOCK2: v = rd_u(r, 2); rd_skip(r, v); continue;
		case OP_SKIP_BLOCK4: v = rd_u(r, 4); rd_skip(r, v); continue;
		case OP_SKIP_BLOCK: v = rd_uleb(r); rd_skip(r, v); continue;
		case OP_STRP4: str = sf_ucx_str(c, RD(4)); goto string;
		case OP_LINE_STRP4: str = sec_str(&c->f->sec[SF_SEC_LINE_STR], RD(4)); goto string;
		case OP_STRING:
			str = (const char *)r->p;
			if (skip_string(r) < 0)
				return -1;
			goto string;
		case OP_STRX1: str = sf_ucx_strx(c, RD(1)); goto string;
		case OP_STRX2: str = sf_ucx_strx(c, RD(2)); goto string;
		case OP_STRX: str = sf_ucx_strx(c, rd_uleb(r)); goto string;
		case OP_REF1: v = c->u->start + RD(1); goto wide;
		case OP_REF2: v = c->u->start + RD(2); goto wide;
		case OP_REF4: v = c->u->start + RD(4); goto wide;
		case OP_REF8: v = c->u->start + RD(8); goto wide;
		case OP_REF_UDATA: v = c->u->start + rd_uleb(r); goto wide;
		case OP_U1: v = RD(1); goto wide;
		case OP_U2: v = RD(2); goto wide;
		case OP_U4: v = RD(4); goto wide;
		case OP_U8: v = RD(8); goto wide;
		case OP_UDATA: v = rd_uleb(r); goto wide;
		case OP_SDATA: v = (uint64_t)rd_sleb(r); goto wide;
		case OP_IMPLICIT: v = (uint64_t)c->abv->attrs[op->attr].implicit; goto wide;
		case OP_U1_W4: w = (uint32_t)RD(1); goto narrow;
		case OP_U2_W4: w = (uint32_t)RD(2); goto narrow;
		case OP_U4_W4: w = (uint32_t)RD(4); goto narrow;
		case OP_U8_W4: w = (uint32_t)RD(8); goto narrow;
		case OP_UDATA_W4: w = (uint32_t)rd_uleb(r); goto narrow;
		case OP_SDATA_W4: w = (uint32_t)rd_sleb(r); goto narrow;
		case OP_IMPLICIT_W4: w = (uint32_t)c->abv->attrs[op->attr].implicit; goto narrow;
		case OP_FLAG_PRESENT: *has |= op->arg; continue;
		case OP_FLAG:
			if (RD(1))
				*has |= op->arg;
			continue;
		case OP_GENERIC:
		case OP_GENERIC_SKIP: {
			/* a copy of the cursor: the caller's, whose address
			 * is never taken, stays in registers */
			struct rd g = *r;
			d->has = *has;
			int rc = sf_attr_generic(c, &g, d, &c->abv->attrs[op->attr],
					     op->op == OP_GENERIC);
			*r = g;
			if (rc < 0)
				return -1;
			*has = d->has;
			continue;
		}
		default:
			/* emit() asserts every op is one of the above: no
			 * range check before the jump table */
			__builtin_unreachable();
		}
string:
		/* stored only when in range, as store_attr did */
		if (str) {
			memcpy((char *)d + op->field, &str, sizeof(str));
			*has |= op->arg;
		}
		continue;
wide:
		memcpy((char *)d + op->field, &v, sizeof(v));
		*has |= op->arg;
		continue;
narrow:
		memcpy((char *)d + op->field, &w, sizeof(w));
		*has |= op->arg;
	}
#undef RD
	return r->bad ? -1 : 0;
}

/* The attributes of abbreviation a one by one, for a unit whose geometry
 * the table's plans do not assume. */
static __attribute__((noinline)) int decode_attrs(const struct sf_ucx *c, struct rd *r,
						  struct sf_die *d, struct sf_abbrev *a, int keep)
{
	for (uint32_t i = 0; i < a->nattrs; i++)
		if (sf_attr_generic(c, r, d, &c->abv->attrs[a->first + i], keep) < 0)
			return -1;
	return 0;
}

/* Fields guarded by a bit of `has` are set with it; the ones callers read
 * as plain values are defined here, whatever the DIE carries - a null
 * entry too: corrupt input may point a type reference at one, and the
 * reader and the fingerprint read its name.  A DIE only stepped over
 * defines its sibling (with SF_A_SIBLING) and nothing more. */
static inline void define_plain(struct sf_die *d)
{
	d->name = NULL;
	d->byte_size = 0;
	d->decl_line = 0;
	d->encoding = 0;
}

/*
 * Decode one DIE.  With `keep` unset only the size is computed (skipping
 * subtrees), by the abbreviation's shorter plan - unless its tag is below
 * 64 and its bit is set in `tags`: then by the full plan, or the walk's
 * with `walk`.  Inlined into each caller, where keep and walk are
 * constants.
 */
static ALWAYS_INLINE int decode(const struct sf_ucx *c, uint64_t off, struct sf_die *d,
				int keep, uint64_t tags, int walk)
{
	if (off < c->die_start || off >= c->end)
		return -1;
	struct rd r = { c->base + off, c->base + c->end, c->msb, 0 };
	d->off = off;
	d->has2 = 0;
	uint64_t code = rd_uleb(&r);
	if (r.bad)
		return -1;
	if (code == 0) {
		d->tag = 0;
		d->children = 0;
		d->has = 0;
		d->next = (uint64_t)(r.p - c->base);
		if (keep)	/* a reference may point here */
			define_plain(d);
		return 0;
	}
	struct sf_abbrev *a = find_abbrev(c->abv, code);
	if (!a)
		return -1;
	d->tag = a->tag;
	d->children = a->children;
	int want = keep || (a->tag < 64 && ((tags >> a->tag) & 1));
	enum sf_plan k = !want ? SF_PLAN_PASS : walk ? SF_PLAN_WALK : SF_PLAN_KEEP;
	if (want)
		define_plain(d);
	if (!(a->planned & (1u << k)))
		compile_plan(c->abv, a, k);
	if (!want && a->skip_fixed && c->plan_ok) {
		d->has = 0;
		if ((uint64_t)(r.end - r.p) < a->skip_size)
			return -1;
		d->next = (uint64_t)(r.p - c->base) + a->skip_size;
		return 0;
	}
	if (!want && a->sib_size && c->plan_ok && !r.msb) {
		/* the pass plan's bytes, read at once: it fails where they
		 * do not fit, and its one kept value is the sibling */
		if ((uint64_t)(r.end - r.p) < a->skip_size)
			return -1;
		struct rd s = { r.p + a->sib_pos, r.end, 0, 0 };
		d->sibling = c->u->start + rd_le_unchecked(&s, a->sib_size);
		d->has = SF_A_SIBLING;
		d->next = (uint64_t)(r.p - c->base) + a->skip_size;
		return 0;
	}
	uint32_t has = 0;
	if (!c->plan_ok) {
		struct rd g = r;	/* as in run_plan: r stays in registers */
		d->has = 0;
		if (decode_attrs(c, &g, d, a, want) < 0)
			return -1;
		r = g;
		has = d->has;
	} else {
		const struct sf_abbrev_op *ops = c->abv->ops + 3 * (size_t)a->first +
						 k * (size_t)a->nattrs;
		int rc = 0;
		if (k == SF_PLAN_WALK && a->wrefs && !r.msb && (size_t)(r.end - r.p) >= a->fixed[k]) {
			/* what run_plan's fast path reads, without its ops */
			if (a->wname != 0xffff) {
				struct rd s = { r.p + a->wname, r.end, 0, 0 };
				const char *str = sf_ucx_str(c, rd_le_unchecked(&s, 4));
				if (str) {
					d->name = str;
					has |= SF_A_NAME;
				}
			}
			for (unsigned i = 0; i < a->wrefs; i++) {
				struct rd s = { r.p + a->wref[i].pos, r.end, 0, 0 };
				uint64_t v = c->u->start + rd_le_unchecked(&s, 4);
				memcpy((char *)d + a->wref[i].field, &v, sizeof(v));
				has |= a->wref[i].bit;
			}
			has |= a->whas;
			r.p += a->fixed[k];
		} else if (a->fixed[k] && !r.msb && (size_t)(r.end - r.p) >= a->fixed[k])
			rc = run_plan(c, &r, d, &has, ops, ops + a->nops[k], 1);
		else
			rc = run_plan(c, &r, d, &has, ops, ops + a->nops[k], 0);
		if (rc < 0)
			return -1;
	}
	d->has = has;
	d->next = (uint64_t)(r.p - c->base);
	return 0;
}

int sf_die_read(const struct sf_ucx *c, uint64_t off, struct sf_die *d)
{
	return decode(c, off, d, 1, 0, 0);
}

int sf_die_read_walk(const struct sf_ucx *c, uint64_t off, struct sf_die *d)
{
	return decode(c, off, d, 1, 0, 1);
}

int sf_die_read_tags(const struct sf_ucx *c, uint64_t off, uint64_t tags, struct sf_die *d)
{
	return decode(c, off, d, 0, tags, 0);
}

/*
 * From off, step over the DIEs whose code's step word (set_step) says
 * how, and whose tag is not in tags: the first offset it cannot (a DIE
 * decode() then reads, and says how it fails).  Most DIEs a walk steps
 * over (pointer and function types, subprograms) take this path: no
 * sf_die written, no plan run.
 */
static uint64_t skip_quick(const struct sf_ucx *c, uint64_t off, uint64_t tags)
{
	const unsigned char *base = c->base;
	const uint64_t *steps = c->abv->steps;
	uint64_t end = c->end, ustart = c->u->start;
	size_t nsteps = c->abv->nsteps;

	assert(nsteps <= 0x80 && c->plan_ok && !c->msb);
	while (off >= c->die_start && off < end) {
		unsigned code = base[off];	/* >= nsteps: a longer LEB128 too */
		if (code >= nsteps)
			break;
		uint64_t e = steps[code];
		unsigned tag = (e >> 53) & 0x7f;
		if (!e || (tag < 64 && ((tags >> tag) & 1)) || end - off - 1 < (uint32_t)e)
			break;
		unsigned w = (e >> 48) & 0xf;
		if (!w) {
			off += 1 + (uint32_t)e;
			continue;
		}
		struct rd s = { base + off + 1 + ((e >> 32) & 0xffff), base + end, 0, 0 };
		uint64_t sib = ustart + rd_le_unchecked(&s, w);
		if (sib <= off || sib > end)	/* as sf_die_skip: only forward */
			break;
		off = sib;
	}
	return off;
}

int sf_die_find_tags(const struct sf_ucx *c, uint64_t off, uint64_t tags, struct sf_die *d)
{
	for (;;) {
		if (c->plan_ok && !c->msb && c->abv->nsteps)
			off = skip_quick(c, off, tags);
		if (decode(c, off, d, 0, tags, 1) < 0) {
			d->off = off;
			return -1;
		}
		if (d->tag == 0 || (d->tag < 64 && ((tags >> d->tag) & 1)))
			return 0;
		/* d->off is off: a failed skip names it */
		if (sf_die_skip(c, d, &off) < 0)
			return -1;
	}
}

int sf_die_skip_subtree(const struct sf_ucx *c, const struct sf_die *d, uint64_t *next)
{
	struct sf_die x;
	uint64_t depth = 0, off;

	assert(d->children);
	off = d->next;
	depth = 1;
	while (depth) {
		if (decode(c, off, &x, 0, 0, 0) < 0)
			return -1;
		off = x.next;
		if (x.tag == 0) {
			depth--;
		} else if (x.children) {
			if ((x.has & SF_A_SIBLING) && x.sibling > x.off && x.sibling <= c->end)
				off = x.sibling;
			else
				depth++;
		}
	}
	*next = off;
	return 0;
}
