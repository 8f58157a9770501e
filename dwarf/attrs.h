/*
 * attrs.h - what the decoder makes of an attribute (internal to dwarf/:
 * die.c compiles plans from it, forms.c decodes by it).
 */
#ifndef SF_ATTRS_H
#define SF_ATTRS_H

#include "cursor.h"
#include "die.h"

/*
 * Which sf_die field an attribute sets (sf_abbrev_attr.kind, computed once
 * per abbreviation): decoding switches on this small dense number - a
 * jump table - rather than on the sparse DW_AT_* codes (a compare chain),
 * and never calls store_attr for the attributes no field wants
 * (DW_AT_decl_column, DW_AT_low_pc, DW_AT_location, ...).
 */
enum akind {
	AK_NONE = 0,
	AK_NAME,
	AK_TYPE,
	AK_SIGNATURE,
	AK_SIBLING,
	AK_IMPORT,
	AK_SPECIFICATION,
	AK_BYTE_SIZE,
	AK_BIT_SIZE,
	AK_DATA_BIT_OFFSET,
	AK_BIT_OFFSET,
	AK_DATA_MEMBER_LOCATION,
	AK_CONST_VALUE,
	AK_DISCR,
	AK_DISCR_VALUE,
	AK_ALIGNMENT,
	AK_COUNT,
	AK_UPPER_BOUND,
	AK_LOWER_BOUND,
	AK_ENCODING,
	AK_DECL_FILE,
	AK_DECL_LINE,
	AK_VIRTUALITY,
	AK_LANGUAGE,
	AK_STR_OFFSETS_BASE,
	AK_STMT_LIST,
	AK_COMP_DIR,
	AK_PRODUCER,
	AK_DWO_NAME,
	AK_GNU_DWO_NAME,
	AK_GNU_DWO_ID,
	AK_DECLARATION,
	AK_EXTERNAL,
	AK_ARTIFICIAL,
	AK_PROTOTYPED,
	AK_GNU_VECTOR,
	AK_N
};

/*
 * Decode one attribute x at r by its form, the general way (forms.c):
 * with `keep`, into the sf_die field its kind names; without, only a
 * DW_AT_sibling reference.  -1 on corrupt input (r->bad).
 */
int sf_attr_generic(const struct sf_ucx *c, struct rd *r, struct sf_die *d,
		    const struct sf_abbrev_attr *x, int keep);

#endif
