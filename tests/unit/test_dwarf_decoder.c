/*
 * test_dwarf_decoder.c - dwarf/die.c against libdwarf: the reader decodes
 * DIEs itself (libdwarf's DIE API is too slow for vmlinux), so libdwarf is
 * its reference.  Every DIE of every unit of each object is walked with
 * both - libdwarf through dwarf_child/dwarf_siblingof_b on a handle made
 * with the tests' object interface (dwarf_oracle.c), die.c sequentially - and the two walks
 * must agree on offset, tag, name, DW_AT_type target, byte size and
 * whether it has children, and on the constants the layouts are made of:
 * DW_AT_data_member_location (a constant, or DW_OP_plus_uconst/constu N),
 * DW_AT_data_bit_offset, DW_AT_bit_offset, DW_AT_bit_size,
 * DW_AT_upper_bound, DW_AT_lower_bound, DW_AT_count, DW_AT_alignment,
 * DW_AT_decl_file and DW_AT_decl_line (present on both or neither, same
 * bits; the one reading allowed is die.c's GNU -1 for an all-ones upper
 * bound as wide as an address).  test_objects_agree fails unless every one
 * of these but lower_bound (C has none) was compared on some DIE.  Objects:
 * the test sources built with gcc and clang, DWARF 2-5, little- and
 * big-endian, relocatable, with type units, plus a compressed libc6-dbg
 * file.
 *
 * die.c decodes through plans compiled per abbreviation, and attribute by
 * attribute (read_form + store_attr) for a unit whose shape a shared table
 * was not compiled for: every DIE is read both ways, in full and stepped
 * over, and the two sf_die must be identical byte for byte; cut short by
 * the unit's end (one byte early, and halfway), both must fail.
 *
 * What this does NOT check: relocation.  Both decoders read the bytes
 * sf_elf_prepare_debug() already inflated and relocated (libdwarf is given
 * no relocation callback), so a wrong relocation is the same wrong value to
 * both; tests/e2e/elf.sh checks relocations against ld.lld and the compiler.
 * Nor does it check how the reader turns these into layouts (that is
 * test_dwarf_reader.c and the e2e tests against sizeof/offsetof and pahole).
 *
 * dwz: two programs compressed by dwz 0.15 (testdata/dwz) - with an alt
 * file (dwz -m: DW_FORM_GNU_ref_alt, DW_FORM_GNU_strp_alt), DWARF 5
 * supplementary (dwz -5: DW_FORM_ref_sup4, DW_FORM_strp_sup) and single
 * file (partial units, DW_FORM_ref_addr) - the alt files themselves, and
 * Debian's dwz'd libbinutils-dbg files with their alt file.
 * libdwarf 20210528 is given the alt file with dwarf_set_tied_dbg(); what
 * it resolves through it and what not is said in test_dwz_files_agree.
 * References also compare DW_AT_import (of DW_TAG_imported_unit) and
 * whether a reference lands in the alt file.
 *
 * Split DWARF too: .dwo files of gcc and clang, DWARF 4 and 5, with and
 * without type units (strx/GNU_str_index, addrx forms, split units), and
 * .dwp packages of them made with dwp and llvm-dwp (index contributions),
 * which libdwarf opens itself with dwarf_init_path().
 *
 * The fingerprint (dwarf/fingerprint.c) reads DIEs by plans of its own:
 * an abbreviation whose attributes all have fixed sizes by masked loads
 * at fixed places, every other op by op.  Every DIE of every unit walked
 * is fingerprinted both ways (sf_fpcache_fixed), names by their bytes and
 * by their string offsets: the two must succeed or fail alike and give
 * the same digests; test_objects_agree fails unless some plan was fixed.
 * And a cache whose 16-bit generation came round (65,535 units after
 * another file's) answers as a fresh cache does.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dwarf.h>
#include <libdwarf.h>

#include "dwarf/die.h"
#include "input/elfobj.h"
#include "dwarf/fingerprint.h"
#include "dwarf/reader.h"
#include "input/split.h"
#include "dwarf_oracle.h"
#include "lib/xalloc.h"
#include "test_dwarf_util.h"

/* a reference libdwarf cannot read (DW_FORM_ref_sup4/8) */
#define LIB_CANNOT (~0ull)

/* The constant attributes compared besides the tree's shape. */
enum konst { K_MEMBER_LOC, K_DATA_BIT_OFFSET, K_BIT_OFFSET, K_BIT_SIZE, K_UPPER_BOUND,
	     K_LOWER_BOUND, K_COUNT, K_ALIGNMENT, K_DECL_FILE, K_DECL_LINE, K_N };

static const struct {
	Dwarf_Half at;
	uint32_t has;           /* its bit in sf_die.has */
	const char *name;
} konsts[K_N] = {
	[K_MEMBER_LOC] = { DW_AT_data_member_location, SF_A_MEMBER_LOC, "data_member_location" },
	[K_DATA_BIT_OFFSET] = { DW_AT_data_bit_offset, SF_A_DATA_BIT_OFFSET, "data_bit_offset" },
	[K_BIT_OFFSET] = { DW_AT_bit_offset, SF_A_BIT_OFFSET, "bit_offset" },
	[K_BIT_SIZE] = { DW_AT_bit_size, SF_A_BIT_SIZE, "bit_size" },
	[K_UPPER_BOUND] = { DW_AT_upper_bound, SF_A_UPPER_BOUND, "upper_bound" },
	[K_LOWER_BOUND] = { DW_AT_lower_bound, SF_A_LOWER_BOUND, "lower_bound" },
	[K_COUNT] = { DW_AT_count, SF_A_COUNT, "count" },
	[K_ALIGNMENT] = { DW_AT_alignment, SF_A_ALIGNMENT, "alignment" },
	[K_DECL_FILE] = { DW_AT_decl_file, SF_A_DECL_FILE, "decl_file" },
	[K_DECL_LINE] = { DW_AT_decl_line, SF_A_DECL_LINE, "decl_line" },
};

struct rec {
	uint64_t off;
	uint64_t type;          /* 0: none (or a signature) */
	uint64_t import;        /* DW_AT_import, 0: none */
	int type_alt, import_alt; /* the reference is into the alt file */
	uint64_t byte_size;     /* ~0: none */
	const char *name;       /* NULL: none */
	unsigned tag;
	int children;
	unsigned kh;            /* 1 << K_*: that constant is present */
	uint64_t kv[K_N];       /* its bits */
	unsigned kw[K_N];       /* libdwarf: bytes of its DW_FORM_dataN, else 0 */
	unsigned addr_size;     /* libdwarf: the unit's address size */
};

struct recs {
	struct rec *v;
	size_t n, cap;
};

static void push(struct recs *r, const struct rec *x)
{
	SF_GROW(r->v, r->n, r->cap);
	r->v[r->n++] = *x;
}

/* ---- the libdwarf walk ----------------------------------------------------- */

static int alt_form(Dwarf_Half form)
{
	return form == DW_FORM_GNU_ref_alt || form == DW_FORM_ref_sup4 ||
	       form == DW_FORM_ref_sup8;
}

/* A reference attribute: its global offset, and whether it is in the alt file. */
static void lib_ref(Dwarf_Die die, Dwarf_Half at, uint64_t *off, int *alt)
{
	Dwarf_Error e = NULL;
	Dwarf_Attribute a;
	Dwarf_Half form;
	Dwarf_Off ref;

	if (dwarf_attr(die, at, &a, &e) != DW_DLV_OK)
		return;
	dwarf_whatform(a, &form, &e);
	*alt = alt_form(form);

	if (form != DW_FORM_ref_sig8 && dwarf_global_formref(a, &ref, &e) == DW_DLV_OK)
		*off = ref;
	else if (form == DW_FORM_ref_sup4 || form == DW_FORM_ref_sup8)
		*off = LIB_CANNOT;	/* libdwarf 20210528: DW_DLE_BAD_REF_FORM */
	dwarf_dealloc_attribute(a);
}

/* A DW_OP_plus_uconst N or DW_OP_constu N expression (DWARF 2/3 member
 * locations): N, read with libdwarf's own LEB128 decoder. */
static int lib_uconst_expr(const unsigned char *p, Dwarf_Unsigned len, uint64_t *v)
{
	Dwarf_Unsigned n, used;

	if (len < 2 || (p[0] != DW_OP_plus_uconst && p[0] != DW_OP_constu))
		return 0;
	if (dwarf_decode_leb128((char *)(uintptr_t)(p + 1), &used, &n,
				(char *)(uintptr_t)(p + len)) != DW_DLV_OK || used != len - 1)
		return 0;
	*v = n;
	return 1;
}

/* Attribute at of die as a constant (a member location also as a constant
 * expression); 0 when absent or not constant. */
static int lib_const(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Half at, uint64_t *v, unsigned *w)
{
	Dwarf_Error e = NULL;
	Dwarf_Attribute a;
	Dwarf_Half form;
	Dwarf_Unsigned u;
	Dwarf_Signed sv;
	int ok = 0;

	*w = 0;
	if (dwarf_attr(die, at, &a, &e) != DW_DLV_OK)
		return 0;
	dwarf_whatform(a, &form, &e);
	switch (form) {
	case DW_FORM_data1: *w = 1; goto unsigned_form;
	case DW_FORM_data2: *w = 2; goto unsigned_form;
	case DW_FORM_data4: *w = 4; goto unsigned_form;
	case DW_FORM_data8: *w = 8; goto unsigned_form;
	case DW_FORM_udata:
	unsigned_form:
		if ((ok = dwarf_formudata(a, &u, &e) == DW_DLV_OK))
			*v = u;
		break;
	case DW_FORM_sdata: case DW_FORM_implicit_const:
		if ((ok = dwarf_formsdata(a, &sv, &e) == DW_DLV_OK))
			*v = (uint64_t)sv;
		break;
	case DW_FORM_exprloc: {
		Dwarf_Ptr p;
		if (at == DW_AT_data_member_location &&
		    dwarf_formexprloc(a, &u, &p, &e) == DW_DLV_OK)
			ok = lib_uconst_expr(p, u, v);
		break;
	}
	case DW_FORM_block1: case DW_FORM_block2: case DW_FORM_block4: case DW_FORM_block: {
		Dwarf_Block *b;
		if (at == DW_AT_data_member_location && dwarf_formblock(a, &b, &e) == DW_DLV_OK) {
			ok = lib_uconst_expr(b->bl_data, b->bl_len, v);
			dwarf_dealloc(dbg, b, DW_DLA_BLOCK);
		}
		break;
	}
	default:
		break;	/* a reference or an expression: not a constant */
	}
	dwarf_dealloc_attribute(a);
	return ok;
}

static void lib_record(Dwarf_Debug dbg, Dwarf_Die die, struct recs *out)
{
	Dwarf_Error e = NULL;
	Dwarf_Half tag;
	Dwarf_Off off;
	Dwarf_Attribute a;
	struct rec x = { .byte_size = ~0ull };
	char *name;
	Dwarf_Unsigned bs;

	assert_int_equal(dwarf_tag(die, &tag, &e), DW_DLV_OK);
	assert_int_equal(dwarf_dieoffset(die, &off, &e), DW_DLV_OK);
	x.tag = tag;
	x.off = off;
	if (dwarf_diename(die, &name, &e) == DW_DLV_OK)
		x.name = name;
	lib_ref(die, DW_AT_type, &x.type, &x.type_alt);
	lib_ref(die, DW_AT_import, &x.import, &x.import_alt);
	/* dwarf_bytesize() only reads constants, as die.c keeps them */
	if (dwarf_attr(die, DW_AT_byte_size, &a, &e) == DW_DLV_OK) {
		Dwarf_Signed sv;
		if (dwarf_formudata(a, &bs, &e) == DW_DLV_OK)
			x.byte_size = bs;
		else if (dwarf_formsdata(a, &sv, &e) == DW_DLV_OK)	/* implicit_const */
			x.byte_size = (uint64_t)sv;
		dwarf_dealloc_attribute(a);
	}
	for (int k = 0; k < K_N; k++)
		if (lib_const(dbg, die, konsts[k].at, &x.kv[k], &x.kw[k]))
			x.kh |= 1u << k;
	Dwarf_Half as = 0;
	if (dwarf_get_die_address_size(die, &as, &e) == DW_DLV_OK)
		x.addr_size = as;
	Dwarf_Die child = NULL;
	int rc = dwarf_child(die, &child, &e);
	x.children = rc == DW_DLV_OK;
	push(out, &x);
	while (rc == DW_DLV_OK) {
		Dwarf_Die next = NULL;
		lib_record(dbg, child, out);
		rc = dwarf_siblingof_b(dbg, child, dwarf_get_die_infotypes_flag(child), &next, &e);
		dwarf_dealloc_die(child);
		child = next;
	}
}

/* Walk every DIE of e with libdwarf; alt (may be NULL) is tied to it. */
static void lib_walk_dbg(Dwarf_Debug dbg, struct recs *out);

static void lib_walk(struct sf_elf *e, struct sf_elf *alt, struct recs *out)
{
	Dwarf_Obj_Access_Interface *iface, *alt_iface = NULL;
	Dwarf_Debug dbg, alt_dbg = NULL;
	struct sf_err err;
	Dwarf_Error de = NULL;

	assert_int_equal(oracle_open(e, &iface, &dbg, &err), 0);
	if (alt) {
		assert_int_equal(oracle_open(alt, &alt_iface, &alt_dbg, &err), 0);
		assert_int_equal(dwarf_set_tied_dbg(dbg, alt_dbg, &de), DW_DLV_OK);
	}
	lib_walk_dbg(dbg, out);
	oracle_close(iface, dbg);
	if (alt)
		oracle_close(alt_iface, alt_dbg);
}

/* Every DIE of every unit of dbg, .debug_info then .debug_types. */
static void lib_walk_dbg(Dwarf_Debug dbg, struct recs *out)
{
	Dwarf_Error de = NULL;

	for (int is_info = 1; is_info >= 0; is_info--) {
		Dwarf_Unsigned next;
		Dwarf_Half unit_type;
		while (dwarf_next_cu_header_d(dbg, is_info, NULL, NULL, NULL, NULL, NULL, NULL,
					      NULL, NULL, &next, &unit_type, &de) == DW_DLV_OK) {
			Dwarf_Die cu = NULL;
			if (dwarf_siblingof_b(dbg, NULL, is_info, &cu, &de) != DW_DLV_OK)
				continue;
			lib_record(dbg, cu, out);
			dwarf_dealloc_die(cu);
		}
	}
}

/* ---- the die.c walk ---------------------------------------------------------- */

static void dwfile_of(struct sf_elf *e, struct sf_dwfile *f)
{
	static const char *const names[SF_SEC_N] = {
		".debug_info", ".debug_types", ".debug_abbrev", ".debug_str",
		".debug_line_str", ".debug_str_offsets", ".debug_line",
	};
	struct sf_dwsec sec[SF_SEC_N];
	struct sf_err err;

	memset(sec, 0, sizeof(sec));
	for (uint32_t k = 1; k < e->ndw; k++)
		for (int s = 0; s < SF_SEC_N; s++)
			if (!strcmp(e->dw_name[k], names[s])) {
				const struct sf_elf_sec *es = &e->sec[e->dw[k]];
				sec[s].data = es->data;
				sec[s].size = es->pack ? es->pack->size : es->size;
				sec[s].pack = es->pack;
			}
	assert_int_equal(sf_dwfile_init(f, "test", e->msb, sec, &err), 0);
}

static void own_walk_file(struct sf_dwfile *f, struct recs *out);

static void own_walk(struct sf_elf *e, struct sf_elf *alt, struct recs *out)
{
	struct sf_dwfile f, af;

	dwfile_of(e, &f);
	if (alt) {
		dwfile_of(alt, &af);
		f.alt = &af;
	}
	own_walk_file(&f, out);
	if (alt)
		sf_dwfile_release(&af);
	sf_dwfile_release(&f);
}

/* die.c's constants of d, as the bits it keeps. */
static void own_consts(const struct sf_die *d, struct rec *x)
{
	const uint64_t v[K_N] = {
		[K_MEMBER_LOC] = d->member_loc, [K_DATA_BIT_OFFSET] = d->data_bit_offset,
		[K_BIT_OFFSET] = d->bit_offset, [K_BIT_SIZE] = d->bit_size,
		[K_UPPER_BOUND] = (uint64_t)d->upper_bound,
		[K_LOWER_BOUND] = (uint64_t)d->lower_bound, [K_COUNT] = d->count,
		[K_ALIGNMENT] = d->alignment, [K_DECL_FILE] = d->decl_file,
		[K_DECL_LINE] = d->decl_line,
	};

	for (int k = 0; k < K_N; k++)
		if (d->has & konsts[k].has) {
			x->kh |= 1u << k;
			x->kv[k] = v[k];
		}
}

/*
 * sf_die_read_tags against sf_die_read (d): a DIE whose tag is not asked
 * for is read as far as skipping it needs, one whose tag is is read in
 * full; both fail nowhere sf_die_read does not.
 */
static void check_read_tags(const struct sf_ucx *c, const struct sf_die *d)
{
	struct sf_die x, y;
	uint64_t next_d, next_x;

	assert_int_equal(sf_die_read_tags(c, d->off, 0, &x), 0);
	assert_int_equal(x.off, d->off);
	assert_int_equal(x.next, d->next);
	assert_int_equal(x.tag, d->tag);
	assert_int_equal(x.children, d->children);
	if (d->tag >= 64) {
		assert_int_equal(x.has, d->has & SF_A_SIBLING);
	} else {
		assert_int_equal(x.has & ~SF_A_SIBLING, 0);
		assert_int_equal(x.has, d->has & SF_A_SIBLING);
	}
	if (d->has & SF_A_SIBLING)
		assert_int_equal(x.sibling, d->sibling);
	assert_int_equal(sf_die_skip(c, d, &next_d), 0);
	assert_int_equal(sf_die_skip(c, &x, &next_x), 0);
	assert_int_equal(next_x, next_d);
	if (d->tag == 0 || d->tag >= 64)
		return;
	assert_int_equal(sf_die_read_tags(c, d->off, 1ull << d->tag, &y), 0);
	assert_int_equal(y.has, d->has);
	assert_int_equal(y.has2, d->has2);
	assert_ptr_equal(y.name, d->name);
	assert_int_equal(y.next, d->next);
	if ((d->has & SF_A_TYPE) && !(d->has & SF_A_SIG8))
		assert_int_equal(y.type, d->type);
	if (d->has & SF_A_SIG8)
		assert_int_equal(y.sig8, d->sig8);
}

/* What sf_die_find_tags and sf_die_read_walk decode of a DIE. */
#define WALK_BITS (SF_A_NAME | SF_A_TYPE | SF_A_SIG8 | SF_A_ALT | SF_A_SIBLING | \
		   SF_A_SPECIFICATION | SF_A_SIGNATURE | SF_A_DECLARATION)

/* x, read for a walk, says what d (read in full) says of that. */
static void check_walk_fields(const struct sf_die *x, const struct sf_die *d)
{
	assert_int_equal(x->off, d->off);
	assert_int_equal(x->next, d->next);
	assert_int_equal(x->tag, d->tag);
	assert_int_equal(x->children, d->children);
	assert_int_equal(x->has & WALK_BITS, d->has & WALK_BITS);
	assert_int_equal(x->has2, d->has2);
	assert_ptr_equal(x->name, d->name);
	if ((d->has & SF_A_TYPE) && !(d->has & SF_A_SIG8))
		assert_int_equal(x->type, d->type);
	if (d->has & (SF_A_SIG8 | SF_A_SIGNATURE))
		assert_int_equal(x->sig8, d->sig8);
	if (d->has & SF_A_SIBLING)
		assert_int_equal(x->sibling, d->sibling);
	if (d->has & SF_A_SPECIFICATION)
		assert_int_equal(x->specification, d->specification);
	if (d->has2 & SF_A2_IMPORT)
		assert_int_equal(x->import, d->import);
}

/*
 * sf_die_find_tags from d: d itself, read for a walk, when its tag is
 * wanted; with no tag wanted, the null entry closing d's level, where
 * sf_die_read_tags and sf_die_skip step to (checked up to 64 DIEs on),
 * or a failure at the unit's end (the unit DIE's level).
 */
static void check_find_tags(const struct sf_ucx *c, const struct sf_die *d)
{
	struct sf_die x, y;
	uint64_t off = d->off;

	assert_int_equal(sf_die_read_walk(c, d->off, &x), 0);
	check_walk_fields(&x, d);
	if (d->tag && d->tag < 64) {
		assert_int_equal(sf_die_find_tags(c, d->off, 1ull << d->tag, &x), 0);
		check_walk_fields(&x, d);
	}
	for (int n = 0; n < 64; n++) {
		if (off >= c->end) {	/* the unit DIE's level: no null entry */
			assert_int_equal(sf_die_find_tags(c, d->off, 0, &x), -1);
			assert_int_equal(x.off, off);
			return;
		}
		assert_int_equal(sf_die_read_tags(c, off, 0, &y), 0);
		if (y.tag == 0) {
			assert_int_equal(sf_die_find_tags(c, d->off, 0, &x), 0);
			assert_int_equal(x.tag, 0);
			assert_int_equal(x.off, y.off);
			assert_int_equal(x.next, y.next);
			return;
		}
		assert_int_equal(sf_die_skip(c, &y, &off), 0);
	}
}

/* DIE off read by c and by g, each into a zeroed sf_die: rc of each
 * (they must be the same), the two DIEs compared whole on success. */
static int read_both(const struct sf_ucx *c, const struct sf_ucx *g, uint64_t off,
		     uint64_t tags, int keep)
{
	struct sf_die x, y;

	memset(&x, 0, sizeof(x));
	memset(&y, 0, sizeof(y));
	int rc = keep ? sf_die_read(c, off, &x) : sf_die_read_tags(c, off, tags, &x);
	int rg = keep ? sf_die_read(g, off, &y) : sf_die_read_tags(g, off, tags, &y);
	if (rc != rg)
		fail_msg("DIE 0x%llx: the plan returns %d, read_form %d",
			 (unsigned long long)off, rc, rg);
	if (rc == 0 && memcmp(&x, &y, sizeof(x)))
		fail_msg("DIE 0x%llx (tag 0x%x): the plan and read_form decode it differently",
			 (unsigned long long)off, x.tag);
	return rc;
}

/*
 * die.c compiles each abbreviation into a plan of ops; a unit whose shape
 * the table was not compiled for reads each attribute with read_form and
 * store_attr instead (g, opened with such a table).  The two must decode
 * d the same, in full and stepping over it, and fail alike when the unit
 * ends inside it: one byte short of its end, and halfway.
 */
static void check_plan(const struct sf_ucx *c, const struct sf_ucx *g, const struct sf_die *d)
{
	struct sf_die x;

	/* the fields read unguarded are defined on every DIE, null entries
	 * too (corrupt input may point a type at one) */
	memset(&x, 0xa5, sizeof(x));
	assert_int_equal(sf_die_read(c, d->off, &x), 0);
	assert_true(x.name == NULL || (x.has & SF_A_NAME));
	assert_true(x.byte_size == 0 || (x.has & SF_A_BYTE_SIZE));
	assert_true(x.decl_line == 0 || (x.has & SF_A_DECL_LINE));
	assert_true(x.encoding == 0 || (x.has & SF_A_ENCODING));
	assert_int_equal(read_both(c, g, d->off, 0, 1), 0);
	assert_int_equal(read_both(c, g, d->off, 0, 0), 0);
	if (d->tag && d->tag < 64)
		assert_int_equal(read_both(c, g, d->off, 1ull << d->tag, 0), 0);
	uint64_t cuts[2] = { d->next - 1, d->off + (d->next - d->off) / 2 };
	for (int k = 0; k < 2; k++) {
		if (cuts[k] <= d->off)
			continue;
		struct sf_unit cut = *c->u;
		struct sf_ucx cc = *c, gc = *g;
		cut.end = cuts[k];
		cc.u = gc.u = &cut;
		cc.end = gc.end = cut.end;	/* the ucx's copy of its bounds */
		assert_int_equal(read_both(&cc, &gc, d->off, 0, 1), -1);
		assert_int_equal(read_both(&cc, &gc, d->off, 0, 0), -1);
		/* stepping over it fails there, and says where */
		memset(&x, 0, sizeof(x));
		assert_int_equal(sf_die_find_tags(&cc, d->off, 0, &x), -1);
		assert_int_equal(x.off, d->off);
		assert_int_equal(sf_die_read_walk(&cc, d->off, &x), -1);
		if (d->tag && d->tag < 64)
			assert_int_equal(sf_die_find_tags(&cc, d->off, 1ull << d->tag, &x), -1);
	}
}

/* One cache per way of reading (fixed plans or not) and per way of
 * feeding names (bytes, offsets): what check_fingerprint compares. */
struct fp_pair {
	struct sf_fpcache *fixed[2], *ops[2];
};

static size_t fp_fixed_plans, fp_digests;  /* summed over every file compared */

static void fp_pair_open(struct fp_pair *p)
{
	for (int local = 0; local < 2; local++) {
		p->fixed[local] = sf_fpcache_new();
		p->ops[local] = sf_fpcache_new();
		sf_fpcache_fixed(p->ops[local], 0);
	}
}

static void fp_pair_reset(struct fp_pair *p)
{
	for (int local = 0; local < 2; local++) {
		sf_fpcache_reset(p->fixed[local]);
		sf_fpcache_reset(p->ops[local]);
	}
}

static void fp_pair_close(struct fp_pair *p)
{
	for (int local = 0; local < 2; local++) {
		fp_fixed_plans += sf_fpcache_fixed(p->fixed[local], 1);
		assert_int_equal(sf_fpcache_fixed(p->ops[local], 0), 0);
		sf_fpcache_free(p->fixed[local]);
		sf_fpcache_free(p->ops[local]);
	}
}

/* The DIE d fingerprinted by fixed plans and op by op: the same answer. */
static void check_fingerprint(struct fp_pair *p, const struct sf_ucx *c, const struct sf_die *d)
{
	if (!d->tag)
		return;
	for (int local = 0; local < 2; local++) {
		struct sf_fp a, b;
		int ra = sf_fp_type(p->fixed[local], c, 0, d->off, local, NULL, &a);
		int rb = sf_fp_type(p->ops[local], c, 0, d->off, local, NULL, &b);
		assert_int_equal(ra, rb);
		if (ra == 0) {
			assert_true(a.a == b.a && a.b == b.b);
			fp_digests++;
		}
	}
}

/* Every DIE of every unit of f, in section order.  On the way, the unit
 * tags dwfile.c finds alone (sf_unit_die_tag, from the abbrev table up to
 * the unit DIE's code) are the unit DIEs' tags as the walk reads them
 * (which the recs compare with libdwarf's), and so are its answers on the
 * whole file. */
static void own_walk_file(struct sf_dwfile *f, struct recs *out)
{
	struct sf_err err;
	int any_compile = 0, all_partial = f->nunits > 0;
	struct fp_pair fp;

	fp_pair_open(&fp);
	for (size_t i = 0; i < f->nunits; i++) {
		struct sf_ucx c, g;
		struct sf_abbrevs ab;
		assert_int_equal(sf_ucx_open(&c, f, i, &err), 0);
		fp_pair_reset(&fp);
		if (!f->split && c.u->die_start < c.u->end) {
			struct sf_die u;
			assert_int_equal(sf_die_read(&c, c.u->die_start, &u), 0);
			assert_int_equal(sf_unit_die_tag(f, i), u.tag);
			assert_int_equal(sf_unit_die_tag(f, i), u.tag);	/* cached */
			/* and the tag sf_abbrevs_parse_unit notes while it
			 * parses the unit's table (read_unit's way) */
			struct sf_abbrevs own;
			f->tags[i] = 0;
			assert_false(sf_unit_die_tag_known(f, i));
			assert_int_equal(sf_abbrevs_parse_unit(&own, f, i), 0);
			assert_true(sf_unit_die_tag_known(f, i));
			assert_int_equal(sf_unit_die_tag(f, i), u.tag);
			sf_abbrevs_release(&own);
			any_compile |= u.tag == DW_TAG_compile_unit;
			all_partial &= u.tag == DW_TAG_partial_unit;
		}
		assert_int_equal(sf_abbrevs_parse(&ab, f, c.u->abbrev_off), 0);
		ab.geometry = UINT16_MAX;	/* no unit's: no plan is used */
		assert_int_equal(sf_ucx_open_shared(&g, f, i, &ab, &err), 0);
		assert_false(g.plan_ok);
		for (uint64_t off = c.u->die_start; off < c.u->end;) {
			struct sf_die d;
			assert_int_equal(sf_die_read(&c, off, &d), 0);
			check_read_tags(&c, &d);
			check_find_tags(&c, &d);
			check_plan(&c, &g, &d);
			check_fingerprint(&fp, &c, &d);
			if (d.tag) {
				struct rec x = {
					.off = d.off, .tag = d.tag, .children = d.children,
					.name = (d.has & SF_A_NAME) ? d.name : NULL,
					.type = (d.has & SF_A_TYPE) && !(d.has & SF_A_SIG8) ? d.type : 0,
					.type_alt = (d.has & SF_A_ALT) != 0,
					.import = (d.has2 & SF_A2_IMPORT) ? d.import : 0,
					.import_alt = (d.has2 & SF_A2_IMPORT_ALT) != 0,
					.byte_size = (d.has & SF_A_BYTE_SIZE) ? d.byte_size : ~0ull,
				};
				own_consts(&d, &x);
				push(out, &x);
			}
			off = d.next;
		}
		sf_ucx_release(&c);
		sf_ucx_release(&g);
		sf_abbrevs_release(&ab);
	}
	if (!f->split) {
		assert_int_equal(sf_dwfile_has_compile(f), any_compile);
		assert_int_equal(sf_dwfile_all_partial(f), all_partial);
	}
	fp_pair_close(&fp);
}

/* ---- comparing ---------------------------------------------------------------- */

struct image {
	unsigned char *bytes;
	struct sf_elf e;
};

/* The file at path with its DWARF sections prepared as a load with
 * stream_min does (0: each inflated at once), .debug_info then inflated
 * whole. */
static void image_read_min(struct image *im, const char *path, uint64_t stream_min)
{
	FILE *fp = fopen(path, "rb");
	struct sf_err err;

	assert_non_null(fp);
	fseek(fp, 0, SEEK_END);
	size_t size = (size_t)ftell(fp);
	fseek(fp, 0, SEEK_SET);
	im->bytes = sf_xmalloc(size);
	assert_int_equal(fread(im->bytes, 1, size, fp), size);
	fclose(fp);
	assert_int_equal(sf_elf_parse(&im->e, im->bytes, size, path, &err), 0);
	im->e.stream_min = stream_min;
	assert_int_equal(sf_elf_prepare_debug(&im->e, &err), 1);
	if (sf_elf_info_stream(&im->e))
		assert_int_equal(sf_elf_unstream(&im->e, &err), 0);
}

static void image_read(struct image *im, const char *path)
{
	image_read_min(im, path, 0);
}

static void image_release(struct image *im)
{
	sf_elf_release(&im->e);
	free(im->bytes);
}

/* x from libdwarf, y from die.c: do they differ (where libdwarf can tell)? */
static int rec_differs(const struct rec *x, const struct rec *y)
{
	return x->off != y->off || x->tag != y->tag ||
	       (x->type != y->type && x->type != LIB_CANNOT) ||
	       x->type_alt != y->type_alt ||
	       (x->import != y->import && x->import != LIB_CANNOT) ||
	       x->import_alt != y->import_alt || x->byte_size != y->byte_size ||
	       x->children != y->children || !x->name != !y->name ||
	       (x->name && strcmp(x->name, y->name));
}

/*
 * The first constant on which x (libdwarf) and y (die.c) differ, or -1.
 * One reading is die.c's own: an upper bound of all ones in a dataN form
 * as wide as an address is GNU's -1 (die.c is_minus_one), which libdwarf
 * leaves as the raw bits.
 */
static int const_differs(const struct rec *x, const struct rec *y)
{
	for (int k = 0; k < K_N; k++) {
		if ((x->kh ^ y->kh) & (1u << k))
			return k;
		if (!(x->kh & (1u << k)) || x->kv[k] == y->kv[k])
			continue;
		unsigned w = x->kw[k];
		if (k == K_UPPER_BOUND && y->kv[k] == UINT64_MAX && w >= x->addr_size &&
		    w > 0 && w < 8 && x->kv[k] == (UINT64_C(1) << (8 * w)) - 1)
			continue;
		return k;
	}
	return -1;
}

/* How many DIEs had each constant, over every comparison of this binary:
 * a test's tally shows that it compared constants, not only absences. */
static size_t k_seen[K_N];

/* libdwarf's walk a and die.c's walk b agree; returns how many DIEs. */
static size_t agree(const char *path, struct recs *a, struct recs *b)
{
	assert_true(a->n > 0);
	assert_int_equal(a->n, b->n);
	for (size_t i = 0; i < a->n; i++) {
		const struct rec *x = &a->v[i], *y = &b->v[i];
		if (rec_differs(x, y))
			fail_msg("%s: DIE %zu differs: libdwarf 0x%llx tag 0x%x %s type 0x%llx%s "
				 "import 0x%llx%s size %lld children %d | die.c 0x%llx tag 0x%x %s "
				 "type 0x%llx%s import 0x%llx%s size %lld children %d", path, i,
				 (unsigned long long)x->off, x->tag, x->name ? x->name : "-",
				 (unsigned long long)x->type, x->type_alt ? " (alt)" : "",
				 (unsigned long long)x->import, x->import_alt ? " (alt)" : "",
				 (long long)x->byte_size, x->children,
				 (unsigned long long)y->off, y->tag, y->name ? y->name : "-",
				 (unsigned long long)y->type, y->type_alt ? " (alt)" : "",
				 (unsigned long long)y->import, y->import_alt ? " (alt)" : "",
				 (long long)y->byte_size, y->children);
		int k = const_differs(x, y);
		if (k >= 0)
			fail_msg("%s: DIE 0x%llx (tag 0x%x %s): DW_AT_%s libdwarf %s0x%llx, die.c %s0x%llx",
				 path, (unsigned long long)x->off, x->tag, x->name ? x->name : "-",
				 konsts[k].name, (x->kh >> k) & 1 ? "" : "(none) ",
				 (unsigned long long)x->kv[k], (y->kh >> k) & 1 ? "" : "(none) ",
				 (unsigned long long)y->kv[k]);
		for (int j = 0; j < K_N; j++)
			k_seen[j] += (x->kh >> j) & 1;
	}
	size_t n = a->n;
	free(a->v);
	free(b->v);
	return n;
}

/* Every DIE of path (with its dwz alt file alt_path, or NULL) decoded by
 * both; returns how many. */
static size_t compare_with_alt(const char *path, const char *alt_path)
{
	struct image im, alt;
	struct recs a = { 0 }, b = { 0 };

	image_read(&im, path);
	if (alt_path)
		image_read(&alt, alt_path);
	lib_walk(&im.e, alt_path ? &alt.e : NULL, &a);
	own_walk(&im.e, alt_path ? &alt.e : NULL, &b);
	size_t n = agree(path, &a, &b);
	image_release(&im);
	if (alt_path)
		image_release(&alt);
	return n;
}

/*
 * A linked file's zlib-compressed .debug_str read aside and packed (its
 * mangled names cut: dwarf/strpack.h), as a load of any size reads it
 * with STRUCTFIT_STREAM_MIN=1 (its .debug_info then inflated whole here):
 * every DIE's name read through the pack against libdwarf's reading of
 * the file itself.  How many names lay in what was cut (read from the
 * section inflated again) in *misses.
 */
static size_t compare_packed(const char *path, uint64_t *misses)
{
	struct image plain, packed;
	struct recs a = { 0 }, b = { 0 };

	image_read(&plain, path);
	image_read_min(&packed, path, 1);
	const struct sf_strpack *p = sf_elf_str_pack(&packed.e);
	assert_non_null(p);
	lib_walk(&plain.e, NULL, &a);
	own_walk(&packed.e, NULL, &b);
	size_t n = agree(path, &a, &b);
	*misses = sf_strpack_misses(p);
	image_release(&plain);
	image_release(&packed);
	return n;
}

/*
 * libdwarf cannot read DW_FORM_ref_sup4: die.c's reading of a dwz -5 file
 * (sup) is held against libdwarf's reading of the dwz -m file that dwz
 * made from the same inputs (gnu), the same DIEs at the same offsets with
 * the GNU forms of the same sizes.
 */
static size_t compare_sup_twin(const char *sup, const char *sup_alt,
			       const char *gnu, const char *gnu_alt)
{
	struct image s, sa, g, ga;
	struct recs a = { 0 }, b = { 0 };

	image_read(&s, sup);
	image_read(&sa, sup_alt);
	image_read(&g, gnu);
	image_read(&ga, gnu_alt);
	lib_walk(&g.e, &ga.e, &a);
	own_walk(&s.e, &sa.e, &b);
	size_t n = agree(sup, &a, &b);
	image_release(&s);
	image_release(&sa);
	image_release(&g);
	image_release(&ga);
	return n;
}

/* The alt file a dwz'd file names in .gnu_debugaltlink (absolute, as
 * Debian writes it), malloc'ed; NULL when it names none. */
static char *altlink_of(const char *path)
{
	struct image im;
	char *alt = NULL;

	image_read(&im, path);
	for (uint32_t i = 1; i < im.e.nsec; i++) {
		const struct sf_elf_sec *sec = &im.e.sec[i];
		if (sec->name && !strcmp(sec->name, ".gnu_debugaltlink") && sec->data &&
		    memchr(sec->data, '\0', sec->size))
			alt = sf_xstrdup((const char *)sec->data);
	}
	image_release(&im);
	return alt;
}

/* Every DIE of path, with the alt file it names if it is dwz'd. */
static size_t compare_file(const char *path)
{
	char *alt = altlink_of(path);
	size_t n = compare_with_alt(path, alt);

	free(alt);
	return n;
}

/* A .dwo or .dwp: libdwarf reads the file itself, die.c through split.c. */
static size_t compare_split(const char *path)
{
	FILE *fp = fopen(path, "rb");
	struct sf_elf e;
	struct sf_dwfile f;
	struct sf_err err;
	struct recs a = { 0 }, b = { 0 };
	Dwarf_Debug dbg = NULL;
	Dwarf_Error de = NULL;

	assert_non_null(fp);
	fseek(fp, 0, SEEK_END);
	size_t size = (size_t)ftell(fp);
	fseek(fp, 0, SEEK_SET);
	unsigned char *img = sf_xmalloc(size);
	assert_int_equal(fread(img, 1, size, fp), size);
	fclose(fp);
	if (dwarf_init_path(path, NULL, 0, DW_DLC_READ, DW_GROUPNUMBER_ANY, NULL, NULL, &dbg,
			    NULL, 0, NULL, &de) != DW_DLV_OK)
		fail_msg("%s: libdwarf cannot open it: %s", path, de ? dwarf_errmsg(de) : "?");
	lib_walk_dbg(dbg, &a);
	assert_int_equal(sf_elf_parse(&e, img, size, path, &err), 0);
	assert_true(sf_split_is_dwo(&e));
	if (sf_split_init(&f, &e, path, &err) < 0)
		fail_msg("%s", err.msg);
	own_walk_file(&f, &b);
	sf_dwfile_release(&f);
	size_t n = agree(path, &a, &b);
	dwarf_finish(dbg, &de);	/* after: libdwarf's names live in its copies */
	sf_elf_release(&e);
	free(img);
	return n;
}

static void test_objects_agree(void **state)
{
	static const struct {
		const char *cc, *flags, *src;
	} cases[] = {
		{ "gcc", "-g -gdwarf-2", "bitfields.c" },
		{ "gcc", "-g -gdwarf-5", "bitfields.c" },	/* data_bit_offset */
		{ "gcc", "-g -gdwarf-4", "shapes.c" },
		{ "gcc", "-g -gdwarf-5", "shapes.c" },
		{ "gcc", "-g -gdwarf-5", "layout.c" },
		{ "clang", "-g -gdwarf-4", "shapes.c" },
		{ "clang", "-g -gdwarf-5", "layout.c" },
		{ "clang", "--target=i386-linux-gnu -ffreestanding -g -gdwarf-5", "abi.c" },
		{ "clang", "--target=armv7-linux-gnueabihf -ffreestanding -g -gdwarf-4", "st_table.c" },
		{ "clang", "--target=aarch64-linux-gnu -ffreestanding -g -gdwarf-5", "st_table.c" },
		{ "clang", "--target=s390x-linux-gnu -ffreestanding -g -gdwarf-3", "bitfields.c" },
		{ "clang", "--target=riscv64-linux-gnu -ffreestanding -g -gdwarf-5", "shapes.c" },
		{ "clang", "--target=powerpc64le-linux-gnu -ffreestanding -g -gdwarf-5", "bitfields.c" },
		{ "clang", "--target=powerpc-linux-gnu -ffreestanding -g -gdwarf-4", "layout.c" },
		{ "clang", "--target=mips-linux-gnu -ffreestanding -g -gdwarf-4", "abi.c" },
		{ "clang", "--target=mips64el-linux-gnuabi64 -ffreestanding -g -gdwarf-5", "st_table.c" },
		{ "gcc", "-g -gdwarf-5 -flto", "shapes.c" },
		{ "gcc", "-g -gdwarf-4 -Wa,--compress-debug-sections=zstd", "layout.c" },
		{ "gcc", "-g -gdwarf-5 -gz=zlib-gnu", "shapes.c" },
		{ "g++", "-g -gdwarf-4", "cxx.cc" },
		{ "g++", "-g -gdwarf-4 -fdebug-types-section", "cxx.cc" },
		{ "clang++", "-g -gdwarf-5", "cxx.cc" },
	};
	size_t total = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char out[64];
		snprintf(out, sizeof(out), "dec%zu.o", i);
		if (td_compile(cases[i].cc, cases[i].flags, cases[i].src, out) < 0) {
			fprintf(stderr, "note: skipping %s %s\n", cases[i].cc, cases[i].flags);
			continue;
		}
		total += compare_file(td_path(out));
	}
	if (!total)
		td_skip("no fixture compiled");
	fprintf(stderr, "  %zu DIEs agree; %zu fingerprints alike both ways, %zu fixed plans\n",
		total, fp_digests, fp_fixed_plans);
	if (!fp_fixed_plans)
		fail_msg("no fingerprint plan was made fixed: the two ways were not compared");
	/* the fixtures have every kind but lower_bound (C has none): a kind
	 * never seen was not compared */
	for (int k = 0; k < K_N; k++) {
		fprintf(stderr, "  DW_AT_%s: %zu\n", konsts[k].name, k_seen[k]);
		if (!k_seen[k] && k != K_LOWER_BOUND)
			fail_msg("no DIE with a constant DW_AT_%s was compared", konsts[k].name);
	}
}

/* ---- riscv label differences --------------------------------------------- */

/*
 * With linker relaxation, riscv writes a function's length (DW_AT_high_pc
 * as a constant) as R_RISCV_ADD32 of its end and R_RISCV_SUB32 of its
 * start.  After our relocation, each subprogram's length must be the
 * function's size in the symbol table (st_size, written by the assembler).
 */
static void check_lengths(const char *obj)
{
	struct image im;
	struct sf_err err;
	Dwarf_Obj_Access_Interface *iface;
	Dwarf_Debug dbg;
	Dwarf_Error de = NULL;
	char sizes[700], line[300];
	int checked = 0;

	snprintf(sizes, sizeof(sizes), "%s.sizes", obj);
	assert_int_equal(td_sh("readelf -sW %s | awk '$4 == \"FUNC\" { print $8, $3 }' > %s",
			       obj, sizes), 0);
	image_read(&im, obj);
	assert_int_equal(oracle_open(&im.e, &iface, &dbg, &err), 0);
	while (dwarf_next_cu_header_d(dbg, 1, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
				      NULL, NULL, &de) == DW_DLV_OK) {
		Dwarf_Die cu = NULL, d = NULL, next;
		assert_int_equal(dwarf_siblingof_b(dbg, NULL, 1, &cu, &de), DW_DLV_OK);
		for (int rc = dwarf_child(cu, &d, &de); rc == DW_DLV_OK; d = next) {
			Dwarf_Half tag;
			Dwarf_Addr high;
			Dwarf_Half form;
			enum Dwarf_Form_Class cls;
			char *name;
			dwarf_tag(d, &tag, &de);
			if (tag == DW_TAG_subprogram && dwarf_diename(d, &name, &de) == DW_DLV_OK &&
			    dwarf_highpc_b(d, &high, &form, &cls, &de) == DW_DLV_OK) {
				assert_int_equal(cls, DW_FORM_CLASS_CONSTANT);
				FILE *sf = fopen(sizes, "r");
				assert_non_null(sf);
				unsigned long long want = ~0ull;
				while (fgets(line, sizeof(line), sf)) {
					char sym[200];
					unsigned long long n;
					if (sscanf(line, "%199s %llu", sym, &n) == 2 && !strcmp(sym, name))
						want = n;
				}
				fclose(sf);
				if (want != (unsigned long long)high)
					fail_msg("%s: %s is %llu bytes long in DWARF, %llu in the symbol table",
						 obj, name, (unsigned long long)high, want);
				checked++;
			}
			rc = dwarf_siblingof_b(dbg, d, 1, &next, &de);
			dwarf_dealloc_die(d);
		}
		dwarf_dealloc_die(cu);
	}
	oracle_close(iface, dbg);
	image_release(&im);
	assert_int_equal(checked, 2);	/* reloc_sum and reloc_walk */
}

static void test_riscv_label_differences(void **state)
{
	static const char *const flags[] = { "-gdwarf-4 -O0", "-gdwarf-5 -O0" };

	(void)state;
	if (!td_have("clang") || !td_have("readelf"))
		td_skip("clang or readelf is not installed");
	for (int i = 0; i < 2; i++) {
		char out[64];
		snprintf(out, sizeof(out), "rv%d.o", i);
		assert_int_equal(td_sh("clang --target=riscv64-linux-gnu -ffreestanding -g %s -c -o %s "
				       "%s/testdata/e2e/relocs.c", flags[i], td_path(out), td_src), 0);
		/* the pairs must be there, or this checks nothing */
		assert_int_equal(td_sh("readelf -rW %s | grep -q 'R_RISCV_SUB32'", td_path(out)), 0);
		check_lengths(td_path(out));
	}
}

static void test_debug_file_agrees(void **state)
{
	FILE *f = popen("find /usr/lib/debug/.build-id -name '*.debug' -size +100k -size -4M "
			"2>/dev/null | sort | head -3", "r");
	char line[600];
	size_t total = 0;

	(void)state;
	if (!f)
		td_skip("cannot run find");
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		total += compare_file(line);
	}
	pclose(f);
	if (!total)
		td_skip("no /usr/lib/debug file (libc6-dbg)");
	fprintf(stderr, "  %zu DIEs agree\n", total);
}

/* A C++ library whose names the linker merged into the tails of its
 * mangled names, one of them into what a pack cuts (testdata/e2e/
 * strpack.cpp -DWITH_MISS), and libstdc++'s debug file: their names read
 * through the packed .debug_str agree with libdwarf's. */
static void test_packed_strings_agree(void **state)
{
	(void)state;
	uint64_t misses;
	assert_int_equal(td_sh("g++ -g -O0 -fPIC -DWITH_MISS -c -o %s %s/testdata/e2e/strpack.cpp && "
			       "g++ -shared -o %s %s && "
			       "objcopy --compress-debug-sections=zlib-gabi %s %s",
			       td_path("strpack.o"), td_src, td_path("strpack.so"),
			       td_path("strpack.o"), td_path("strpack.so"), td_path("strpack-z.so")),
			 0);
	size_t n = compare_packed(td_path("strpack-z.so"), &misses);
	assert_true(n > 0);
	assert_true(misses > 0);	/* long_namev: read from the whole again */
	static const char stdcxx[] = "/usr/lib/x86_64-linux-gnu/debug/libstdc++.so.6.0.30";
	if (access(stdcxx, R_OK) != 0)
		fail_msg("no %s (Debian package libstdc++6-12-dbg, in TEST_PKGS)", stdcxx);
	assert_int_equal(td_sh("objcopy --compress-debug-sections=zlib-gabi %s %s", stdcxx,
			       td_path("libstdc++-z.so")), 0);
	n = compare_packed(td_path("libstdc++-z.so"), &misses);
	fprintf(stderr, "  libstdc++: %zu DIEs agree, %llu names read from the section again\n", n,
		(unsigned long long)misses);
	assert_true(n > 100000);
}

/*
 * dwz'd programs (tests/e2e/dwz.sh checks what the reader makes of them).
 * libdwarf 20210528 with the alt file tied (dwarf_set_tied_dbg):
 * DW_FORM_GNU_ref_alt comes back from dwarf_global_formref() as the offset
 * in the alt file's .debug_info (both sides say "alt" by the form), and
 * DW_FORM_GNU_strp_alt / DW_FORM_strp_sup names are read from the tied
 * file's .debug_str; DW_FORM_ref_sup4 it cannot read at all
 * (DW_DLE_BAD_REF_FORM from dwarf_global_formref, dwarf_formref and
 * dwarf_formudata alike), so those are checked against the twin file.
 */
static void test_dwz_files_agree(void **state)
{
	static const struct {
		const char *dir, *cflags, *dwz;
		int alt;
	} cases[] = {
		{ "m4", "-gdwarf-4", "-m common.debug p1 p2", 1 },
		{ "m5", "-gdwarf-5", "-m common.debug p1 p2", 1 },
		{ "s5", "-gdwarf-5", "-5 -m common.debug p1 p2", 1 },
		{ "one4", "-gdwarf-4", "p1", 0 },
		{ "one5", "-gdwarf-5", "p1", 0 },
	};
	size_t total = 0;

	(void)state;
	if (!td_have("dwz"))
		fail_msg("dwz is not installed (Debian package dwz, in TEST_PKGS)");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *dir = td_path(cases[i].dir);
		assert_int_equal(td_sh("s=$(cd %s && pwd)/testdata/dwz && mkdir -p %s && cd %s && "
				       "gcc %s -O0 -o p1 $s/p1_main.c $s/p1_util.c && "
				       "gcc %s -O0 -o p2 $s/p2_main.c $s/p2_util.c && dwz %s",
				       td_src, dir, dir, cases[i].cflags, cases[i].cflags,
				       cases[i].dwz), 0);
		char p1[700], p2[700], alt[700];
		snprintf(p1, sizeof(p1), "%s/p1", dir);
		snprintf(p2, sizeof(p2), "%s/p2", dir);
		snprintf(alt, sizeof(alt), "%s/common.debug", dir);
		total += compare_with_alt(p1, cases[i].alt ? alt : NULL);
		if (cases[i].alt) {
			total += compare_with_alt(p2, alt);
			total += compare_file(alt);
		}
	}
	/* s5 is m5 with DWARF 5's forms */
	char sup[2][700], sup_alt[700], gnu[2][700], gnu_alt[700];
	for (int k = 0; k < 2; k++) {
		snprintf(sup[k], sizeof(sup[k]), "%s/p%d", td_path("s5"), k + 1);
		snprintf(gnu[k], sizeof(gnu[k]), "%s/p%d", td_path("m5"), k + 1);
	}
	snprintf(sup_alt, sizeof(sup_alt), "%s/common.debug", td_path("s5"));
	snprintf(gnu_alt, sizeof(gnu_alt), "%s/common.debug", td_path("m5"));
	for (int k = 0; k < 2; k++)
		total += compare_sup_twin(sup[k], sup_alt, gnu[k], gnu_alt);
	/* Debian's own dwz'd debug files and their alt file */
	FILE *f = popen("dpkg -L libbinutils-dbg 2>/dev/null | grep '\\.debug$'", "r");
	char line[600];
	size_t real = 0;
	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		real += compare_file(line);
	}
	if (f)
		pclose(f);
	if (!real)
		fail_msg("no file of libbinutils-dbg (in TEST_PKGS) to compare");
	fprintf(stderr, "  %zu DIEs of Debian's dwz'd libbinutils-dbg agree\n", real);
	fprintf(stderr, "  %zu DIEs of dwz'd files agree\n", total);
}

/*
 * Split DWARF, built here (a fixture that cannot be built fails): each
 * case compiles its sources with -gsplit-dwarf in the scratch directory,
 * where the .dwo files land beside the objects; a packer, when named,
 * makes a .dwp of them.
 */
static void test_split_agrees(void **state)
{
	static const struct {
		const char *cc, *flags, *srcs, *pack;
		int lib_reads_dwo;
	} cases[] = {
		{ "gcc", "-gdwarf-4", "shapes.c layout.c", "dwp", 1 },
		{ "gcc", "-gdwarf-5", "shapes.c layout.c", "llvm-dwp", 1 },
		{ "clang", "-gdwarf-4", "shapes.c layout.c", "llvm-dwp", 1 },
		{ "clang", "-gdwarf-5", "shapes.c layout.c", "llvm-dwp", 1 },
		{ "g++", "-gdwarf-4", "cxx.cc widget.cc", "dwp", 1 },
		/* one .debug_types.dwo section per type unit: libdwarf refuses
		 * the .dwo (DW_DLE_SECTION_DUPLICATION), the .dwp is one section.
		 * (gcc 12's DWARF 5 type units have no oracle here: llvm-dwp 14
		 * loops on them and binutils' dwp knows no DWARF 5.) */
		{ "g++", "-gdwarf-4 -fdebug-types-section", "cxx.cc widget.cc", "dwp", 0 },
		{ "clang++", "-gdwarf-4 -fdebug-types-section", "cxx.cc widget.cc", "llvm-dwp", 1 },
		{ "clang++", "-gdwarf-5 -fdebug-types-section", "cxx.cc widget.cc", "llvm-dwp", 1 },
		{ "clang++", "-gdwarf-5", "cxx.cc widget.cc", "llvm-dwp", 1 },
	};
	size_t total = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char srcs[64], dwos[256] = "";
		snprintf(srcs, sizeof(srcs), "%s", cases[i].srcs);
		for (char *src = strtok(srcs, " "); src; src = strtok(NULL, " ")) {
			char base[32], dwo[64];
			snprintf(base, sizeof(base), "sp%zu_%.*s.o", i, (int)strcspn(src, "."), src);
			/* the .dwo lands beside the object */
			assert_int_equal(td_sh("%s -g %s -gsplit-dwarf -c -o %s %s/testdata/reader/%s",
					       cases[i].cc, cases[i].flags, td_path(base), td_src,
					       src), 0);
			snprintf(dwo, sizeof(dwo), "%.*s.dwo", (int)(strlen(base) - 2), base);
			if (cases[i].lib_reads_dwo)
				total += compare_split(td_path(dwo));
			snprintf(dwos + strlen(dwos), sizeof(dwos) - strlen(dwos), " %s", dwo);
		}
		if (cases[i].pack) {
			char dwp[32];
			snprintf(dwp, sizeof(dwp), "sp%zu.dwp", i);
			assert_int_equal(td_sh("cd %s && timeout 60 %s -o %s%s", td_dir,
					       cases[i].pack, dwp, dwos), 0);
			total += compare_split(td_path(dwp));
		}
	}
	fprintf(stderr, "  %zu DIEs of .dwo and .dwp files agree\n", total);
}

/* ---- the fingerprint cache's generations -------------------------------- */

/*
 * Every DIE of f fingerprinted by c (reset at each unit, as the reader
 * does) and by a fresh cache: the same answers.  Returns how many digests
 * were compared.
 */
static size_t fp_against_fresh(struct sf_fpcache *c, struct sf_dwfile *f)
{
	size_t n = 0;

	for (size_t i = 0; i < f->nunits; i++) {
		struct sf_fpcache *fresh = sf_fpcache_new();
		struct sf_ucx cx;
		struct sf_err err;
		assert_int_equal(sf_ucx_open(&cx, f, i, &err), 0);
		sf_fpcache_reset(c);
		for (uint64_t off = cx.u->die_start; off < cx.u->end;) {
			struct sf_die d;
			struct sf_fp a, b;
			assert_int_equal(sf_die_read(&cx, off, &d), 0);
			if (d.tag) {
				int ra = sf_fp_type(c, &cx, 0, d.off, 0, NULL, &a);
				assert_int_equal(ra, sf_fp_type(fresh, &cx, 0, d.off, 0, NULL, &b));
				if (ra == 0) {
					assert_true(a.a == b.a && a.b == b.b);
					n++;
				}
			}
			off = d.next;
		}
		sf_ucx_release(&cx);
		sf_fpcache_free(fresh);
	}
	return n;
}

/*
 * A cache's slots carry the generation of their unit (16 bits), and a new
 * unit only bumps it.  After 65,535 units it comes round again: the slots
 * of a unit that many units back (another file, other DIEs at the same
 * offsets) must not look current.  Aged by each count around the wrap, a
 * cache that filled with one file's digests answers for another file as a
 * fresh one does.
 */
static void test_fpcache_generation_wraps(void **state)
{
	struct image a, b;
	struct sf_dwfile fa, fb;

	(void)state;
	if (td_compile("gcc", "-g -gdwarf-5", "shapes.c", "gen_a.o") < 0 ||
	    td_compile("gcc", "-g -gdwarf-5", "layout.c", "gen_b.o") < 0)
		td_skip("gcc cannot build the fixtures");
	image_read(&a, td_path("gen_a.o"));
	image_read(&b, td_path("gen_b.o"));
	dwfile_of(&a.e, &fa);
	dwfile_of(&b.e, &fb);
	for (unsigned extra = 65532; extra <= 65536; extra++) {
		struct sf_fpcache *c = sf_fpcache_new();
		assert_true(fp_against_fresh(c, &fa) > 0);
		for (unsigned k = 0; k < extra - fa.nunits; k++)
			sf_fpcache_reset(c);
		assert_true(fp_against_fresh(c, &fb) > 0);
		sf_fpcache_free(c);
	}
	sf_dwfile_release(&fa);
	sf_dwfile_release(&fb);
	image_release(&a);
	image_release(&b);
}

/* ---- waiting for an earlier run's keys (dwarf/reader.h) -------------------- */

struct awaited {
	struct sf_fpshared *earlier, *published;
	int asked, waited;
	size_t unknown;		/* what the last wait was told */
};

static int awaited_keyless(void *arg)
{
	struct awaited *a = arg;

	a->asked++;
	return sf_fpshared_count(a->earlier) == 0;
}

/* an earlier run always keyless (keys found elsewhere, or none) */
static int always_keyless(void *arg)
{
	struct awaited *a = arg;

	a->asked++;
	return 1;
}

/* the earlier run's keys arrive while the reader waits */
static void awaited_wait(void *arg, size_t unknown)
{
	struct awaited *a = arg;

	a->waited++;
	a->unknown = unknown;
	sf_fpshared_add_shared(a->earlier, a->published);
}

/* The types of f's first unit read by a reader sharing live keys, after
 * `earlier` (may be empty) and with the hook a (may be NULL). */
static size_t types_read_hook(struct sf_dwfile *f, struct sf_elf *e, struct sf_fpshared *own,
			      struct sf_fpshared *earlier, struct awaited *a,
			      int (*keyless)(void *))
{
	struct sf_typeset *out = sf_typeset_new();
	struct sf_reader *r = sf_reader_new(f, e, sf_typeset_new(), NULL, NULL, "t", NULL, 1);
	struct sf_err err;

	sf_reader_share_live(r, own, &earlier, 1);
	if (a)
		sf_reader_await_keys(r, &(struct sf_reader_await){ keyless, awaited_wait, a });
	assert_int_equal(sf_reader_units(r, 0, 1, &err), 0);
	sf_reader_merge(r, out);
	sf_reader_free(r);
	size_t n = sf_typeset_count(out);
	sf_typeset_free(out);
	return n;
}

static size_t types_read(struct sf_dwfile *f, struct sf_elf *e, struct sf_fpshared *own,
			 struct sf_fpshared *earlier, struct awaited *a)
{
	return types_read_hook(f, e, own, earlier, a, awaited_keyless);
}

/*
 * A reader whose earlier run has no keys yet keys its unit's types, waits
 * (the hook), told how many no key names yet, and only then looks them
 * up: keys published during the wait skip the types they name.  Without
 * the wait it lays them all out; with every key known it does not wait.
 */
static void test_reader_awaits_keys(void **state)
{
	struct image im;
	struct sf_dwfile f;

	(void)state;
	if (td_compile("gcc", "-g -gdwarf-5", "layout.c", "await.o") < 0)
		td_skip("gcc cannot build the fixture");
	image_read(&im, td_path("await.o"));
	dwfile_of(&im.e, &f);
	struct sf_fpshared *first = sf_fpshared_new(NULL), *none = sf_fpshared_new(NULL);
	struct sf_fpshared *own = sf_fpshared_new(NULL);
	/* the first run: every type of the unit laid out, its keys in `first` */
	size_t all = types_read(&f, &im.e, first, none, NULL);
	assert_true(all > 5);
	assert_true(sf_fpshared_count(first) > 5);

	/* no hook: the earlier run's keys are not there, nothing is skipped */
	struct sf_fpshared *empty = sf_fpshared_new(NULL);
	assert_int_equal(types_read(&f, &im.e, own, empty, NULL), all);

	/* the hook: asked once, waited once for every type, each skipped */
	struct sf_fpshared *later = sf_fpshared_new(NULL), *own2 = sf_fpshared_new(NULL);
	struct awaited a = { later, first, 0, 0, 0 };
	assert_int_equal(types_read(&f, &im.e, own2, later, &a), 0);
	assert_int_equal(a.asked, 1);
	assert_int_equal(a.waited, 1);
	assert_int_equal(a.unknown, all);

	/* keys there already: asked, not waited */
	struct sf_fpshared *own3 = sf_fpshared_new(NULL);
	struct awaited b = { later, first, 0, 0, 0 };
	assert_int_equal(types_read(&f, &im.e, own3, later, &b), 0);
	assert_int_equal(b.asked, 1);
	assert_int_equal(b.waited, 0);

	/* a run before still keyless, but every type known: not waited */
	struct sf_fpshared *own4 = sf_fpshared_new(NULL);
	struct awaited c = { later, first, 0, 0, 0 };
	assert_int_equal(types_read_hook(&f, &im.e, own4, later, &c, always_keyless), 0);
	assert_int_equal(c.asked, 1);
	assert_int_equal(c.waited, 0);

	struct sf_fpshared *sets[] = { first, none, own, empty, later, own2, own3, own4 };
	for (size_t k = 0; k < sizeof(sets) / sizeof(sets[0]); k++)
		sf_fpshared_free(sets[k]);
	sf_dwfile_release(&f);
	image_release(&im);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_objects_agree),
		cmocka_unit_test(test_riscv_label_differences),
		cmocka_unit_test(test_debug_file_agrees),
		cmocka_unit_test(test_packed_strings_agree),
		cmocka_unit_test(test_dwz_files_agree),
		cmocka_unit_test(test_split_agrees),
		cmocka_unit_test(test_fpcache_generation_wraps),
		cmocka_unit_test(test_reader_awaits_keys),
	};

	(void)argc;
	td_init(argv[0]);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
