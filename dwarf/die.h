/*
 * die.h - a small, allocation-free DWARF 2-5 DIE decoder.
 *
 * Why not libdwarf's DIE API: measured on Debian's vmlinux (2172 units,
 * 9.6 M DIEs visited), walking with dwarf_child/dwarf_siblingof_b costs
 * 2.9 s and reading the 41 M attributes of struct members through
 * dwarf_attrlist another 4.5 s, single threaded, with a malloc per DIE and
 * per attribute; that alone is slower than the whole target.  And
 * libdwarf 20210528's dwarf_srcfiles() overflows a heap buffer (strcpy)
 * on that file when two handles run on two threads (AddressSanitizer).
 * Decoding the bytes here is a loop over the abbrev's (attribute, form)
 * pairs that keeps only what a type layout needs, allocates nothing, and
 * checks every bound.  libdwarf stays the reference: the unit tests walk
 * every DIE of the test objects with both and compare.
 *
 * Three levels, all read-only once built:
 *
 *   sf_dwfile  one per ELF image, shared by all threads: the section bytes
 *              and a table of every unit header (compile, partial, type
 *              units of .debug_info and .debug_types) with the tag of each
 *              unit's DIE, plus a signature -> unit map for DW_FORM_ref_sig8.
 *              A dwz'd file points to its alt (supplementary) file, whose
 *              strings DW_FORM_GNU_strp_alt / DW_FORM_strp_sup name.
 *   sf_ucx     one unit opened by one thread: its parsed abbrev table,
 *              language and DWARF 5 string-offsets base.
 *   sf_die     one decoded DIE: tag, where it ends, the attributes we use.
 *
 * Offsets in sf_die (off, next, type, sibling, specification) are section
 * offsets; a reference into the other section (.debug_types vs
 * .debug_info) never happens except through signatures, which sf_die
 * returns as sig8 for the caller to resolve with sf_dwfile_sig_unit(),
 * and through dwz's references into the alt file (DW_FORM_GNU_ref_alt,
 * DW_FORM_ref_sup4/8), which sf_die flags with SF_A_ALT (type) or
 * SF_A2_IMPORT_ALT (DW_AT_import): offsets into the alt file's .debug_info.
 * Every read is bounds-checked: corrupt input makes a call return -1.
 */
#ifndef SF_DIE_H
#define SF_DIE_H

#include <stddef.h>
#include <stdint.h>

#include "lib/err.h"
#include "lib/strbuf.h"
#include "strpack.h"

enum sf_dwsec_id {
	SF_SEC_INFO = 0,
	SF_SEC_TYPES,
	SF_SEC_ABBREV,
	SF_SEC_STR,
	SF_SEC_LINE_STR,
	SF_SEC_STR_OFFSETS,
	SF_SEC_LINE,
	SF_SEC_N
};

struct sf_dwsec {
	const unsigned char *data;
	uint64_t size;
	int terminated;       /* ends with NUL: any offset in range is a string */
	/* a packed .debug_str (strpack.h): offsets below size are read
	 * through it, and data holds only its kept bytes */
	const struct sf_strpack *pack;
};

/* How many bytes lie at s->data: a string pointer in that span is the
 * section's own (its offset from data names it), any other is a copy. */
static inline uint64_t sec_span(const struct sf_dwsec *s)
{
	return s->pack ? s->pack->kept : s->size;
}

struct sf_unit {
	uint64_t start;       /* unit header, section offset */
	uint64_t die_start;   /* the unit DIE */
	uint64_t end;         /* one past the unit */
	uint64_t abbrev_off;
	uint64_t sig8;        /* type units: signature; DWARF 5 skeleton and split
	                         compile units: the dwo id of their header */
	uint64_t type_die;    /* type units: section offset of the type DIE */
	uint16_t version;
	uint8_t sect;         /* SF_SEC_INFO or SF_SEC_TYPES */
	uint8_t unit_type;    /* DW_UT_*; DWARF 2-4 compile units say DW_UT_compile */
	uint8_t addr_size;
	uint8_t offset_size;  /* 4 or 8 (DWARF64) */
	/*
	 * Split DWARF (a unit of a .dwo or .dwp; see split.h): the unit's
	 * string offsets start at str_base (its contribution plus the DWARF 5
	 * header); a type unit's line table is at line_base (its contribution
	 * to .debug_line.dwo) + DW_AT_stmt_list; a split compile unit has no
	 * DW_AT_stmt_list: its DW_AT_decl_file numbers index its skeleton's
	 * table (line_sec, line_str_sec at line_base, when the skeleton is
	 * known), else gcc's copy at line_base of .debug_line.dwo.  comp_dir
	 * is the skeleton's when the unit names none.  abbrev_off is already
	 * absolute.
	 */
	uint8_t split;
	uint8_t has_line;     /* line_sec set: the skeleton has a line table */
	uint64_t str_base;
	uint64_t line_base;
	const char *comp_dir;
	const struct sf_dwsec *line_sec;      /* NULL: the file's own */
	const struct sf_dwsec *line_str_sec;
};

struct sf_dwfile {
	const char *label;
	struct sf_dwsec sec[SF_SEC_N];
	uint8_t msb;
	uint8_t split;           /* the sections of a .dwo/.dwp (split.h) */
	struct sf_unit *units;   /* .debug_info units, then .debug_types */
	size_t nunits;
	uint32_t *sig_table;     /* open addressing: unit index + 1 */
	size_t sig_cap;
	/* the tags of the units' DIEs, found when first asked
	 * (sf_unit_die_tag): tags[i] is unit i's tag | SF_TAG_KNOWN, 0 while
	 * not looked at; tags[nunits] says whether any unit is a compile
	 * unit (sf_dwfile_has_compile: 0 not known yet, 1 no, 2 yes).  Any
	 * thread may look first: each stores the same values, atomically */
	uint32_t *tags;
	/* dwz: the alt file (.gnu_debugaltlink / .debug_sup), NULL if none;
	 * set by the caller after sf_dwfile_init() */
	const struct sf_dwfile *alt;
	/*
	 * A .debug_info whose bytes arrive in order (sf_dwfile_init_stream,
	 * input/zstream.h): units[] holds the units wholly arrived so far,
	 * their tags known; `scanned` is where the next header starts.  When
	 * units[] and tags[] grow, the smaller copies are kept (`retired`,
	 * freed by sf_dwfile_release): a reader reads its units through a
	 * copy of this struct taken once they arrived, which may still point
	 * to them.  Entries never change once added.
	 */
	uint8_t streamed;
	uint64_t scanned;
	size_t unitcap;
	void **retired;
	size_t nretired;
	uint64_t *abbrev_starts;  /* the tables of .debug_abbrev, sorted */
	size_t nabbrev_starts;
};

struct sf_abbrev_attr {
	uint16_t at;
	uint16_t form;
	uint8_t kind;         /* the sf_die field it sets (die.c attr_kind) */
	int64_t implicit;     /* DW_FORM_implicit_const value */
};

/*
 * One step of an abbreviation's decode plan (die.c): the reading of one
 * attribute's form and the storing of its value in one, or several
 * fixed-size attributes no field wants skipped at once.
 */
struct sf_abbrev_op {
	uint8_t op;           /* die.c enum plan_op */
	uint8_t pad;
	uint16_t field;       /* offsetof(struct sf_die, the field it sets) */
	uint32_t arg;         /* bytes to skip, or the `has` bit it sets */
	uint32_t attr;        /* index into attrs (generic and implicit ops) */
};

/* An abbreviation's decode plans (struct sf_abbrev). */
enum sf_plan { SF_PLAN_KEEP, SF_PLAN_PASS, SF_PLAN_WALK };

struct sf_abbrev {
	uint64_t code;
	uint16_t tag;
	uint8_t children;
	uint32_t first;       /* index into attrs */
	uint32_t nattrs;
	/*
	 * Its decode plans (die.c), each compiled when a DIE first needs it
	 * (planned: which are), plan k (enum sf_plan) in ops[3 * first +
	 * k * nattrs, + nops[k]): SF_PLAN_KEEP decodes every attribute
	 * (sf_die_read), SF_PLAN_PASS only steps over the DIE, keeping
	 * DW_AT_sibling, SF_PLAN_WALK decodes what a walk reads of a DIE it
	 * looks at (sf_die_find_tags).  fixed[k] > 0: every op of plan k
	 * reads a fixed size, fixed[k] bytes in all (one bounds check for
	 * the DIE).
	 * skip_fixed: stepping over is adding skip_size (every attribute
	 * has a fixed size, and none is a sibling).
	 * sib_size > 0: every attribute has a fixed size, skip_size bytes
	 * in all, and the DW_AT_sibling reference (sib_size bytes) starts
	 * sib_pos bytes in: stepping over is one load (most DIEs with
	 * children the walks step over: subprograms, arrays, enums,
	 * function types).
	 */
	uint8_t planned;
	uint8_t skip_fixed;
	uint8_t sib_size;
	uint16_t nops[3];
	uint16_t fixed[3];
	uint16_t sib_pos;
	uint32_t skip_size;
	/* wrefs > 0: the walk's plan is fixed bytes, 4-byte references
	 * (wref: place, field, `has` bit), at most a 4-byte string offset
	 * naming it (wname; 0xffff: none) and flags always present (whas):
	 * read by loads at those places, no op loop (die.c, walk_fixed) */
	uint8_t wrefs;
	uint16_t wname;
	uint32_t whas;
	struct { uint16_t pos, field; uint32_t bit; } wref[3];
};

/*
 * An abbreviation table.  Its plans are compiled lazily by the decoder
 * (most abbreviations of a unit describe subprograms' insides, never
 * decoded when their subtrees are skipped): a table is read by one
 * thread at a time.
 */
struct sf_abbrevs {
	struct sf_abbrev *v;
	size_t n, cap;
	struct sf_abbrev_attr *attrs;
	size_t nattrs;
	uint32_t *direct;     /* code -> index + 1, for dense codes */
	size_t ndirect;
	/* steps[code] for one-byte codes with a direct slot: how
	 * sf_die_find_tags steps over a DIE of that code at once, set when
	 * its pass plan is compiled (die.c, set_step); 0: decode it */
	uint64_t *steps;
	size_t nsteps;
	struct sf_abbrev_op *ops; /* 3 * nattrs slots: each abbrev's plans */
	uint16_t geometry;    /* the unit shape the plans assume (die.c) */
};

struct sf_ucx {
	const struct sf_dwfile *f;
	const struct sf_unit *u;
	size_t unit_index;
	const unsigned char *base;  /* the unit's section */
	uint64_t sect_size;
	struct sf_abbrevs ab;       /* its own abbrev table (sf_ucx_open) */
	const struct sf_abbrevs *abv; /* the table decoding uses: &ab, or one
	                             * shared by units (sf_ucx_open_shared) */
	int plan_ok;                /* abv's plans fit this unit's geometry */
	int msb;                    /* copies of f->msb and u's bounds: */
	uint64_t die_start, end;    /* one load each per DIE */
	uint64_t str_offsets_base;
	uint16_t lang;              /* DW_LANG_* of the unit DIE, 0 unknown */
	int has_stmt_list;
	uint64_t stmt_list;         /* its line table in .debug_line */
	const char *comp_dir;       /* "" when unknown */
	const char *name;           /* the unit DIE's DW_AT_name, "" when none */
	/* split DWARF: the unit DIE's DW_AT_(GNU_)dwo_name (NULL if none) and
	 * dwo id (the DWARF 5 header's, else DW_AT_GNU_dwo_id) */
	const char *dwo_name;
	uint64_t dwo_id;
	int has_dwo_id;
	/* the opening thread's memo of .debug_str lookups when the section
	 * is packed (strpack.h); NULL: none (sf_ucx_str) */
	struct sf_strmemo *memo;
};

/*
 * The file names of a unit's line table (for DW_AT_decl_file): read from
 * the line program header, DWARF 2-5.  Arrays are malloc'ed.
 */
struct sf_files {
	uint16_t version;           /* 5: file 0 is the primary file */
	const char *comp_dir;
	const char **dirs;
	size_t ndirs;
	const char **names;
	uint64_t *dir_of;
	size_t nfiles;
};

/* Which attributes a decoded DIE carries (sf_die.has). */
enum sf_attr_bit {
	SF_A_NAME = 1u << 0,
	SF_A_TYPE = 1u << 1,        /* type or sig8 */
	SF_A_SIBLING = 1u << 2,
	SF_A_BYTE_SIZE = 1u << 3,
	SF_A_BIT_SIZE = 1u << 4,
	SF_A_DATA_BIT_OFFSET = 1u << 5,
	SF_A_BIT_OFFSET = 1u << 6,
	SF_A_MEMBER_LOC = 1u << 7,  /* constant member_loc */
	SF_A_MEMBER_EXPR = 1u << 8, /* non-constant location (virtual base) */
	SF_A_ALIGNMENT = 1u << 9,
	SF_A_COUNT = 1u << 10,
	SF_A_UPPER_BOUND = 1u << 11,
	SF_A_LOWER_BOUND = 1u << 12,
	SF_A_ENCODING = 1u << 13,
	SF_A_DECL_FILE = 1u << 14,
	SF_A_DECL_LINE = 1u << 15,
	SF_A_DECLARATION = 1u << 16,
	SF_A_EXTERNAL = 1u << 17,
	SF_A_ARTIFICIAL = 1u << 18,
	SF_A_SPECIFICATION = 1u << 19,
	SF_A_VIRTUALITY = 1u << 20,
	SF_A_PROTOTYPED = 1u << 21,
	SF_A_VECTOR = 1u << 22,     /* DW_AT_GNU_vector */
	SF_A_SIG8 = 1u << 23,       /* DW_AT_type is a DW_FORM_ref_sig8 */
	SF_A_ALT = 1u << 24,        /* DW_AT_type is in the dwz alt file (with SF_A_TYPE) */
	SF_A_BOUND_DYN = 1u << 25,  /* count/upper bound is not a constant */
	SF_A_LANGUAGE = 1u << 26,
	SF_A_STR_OFFSETS_BASE = 1u << 27,
	SF_A_SIGNATURE = 1u << 28,  /* DW_AT_signature on a declaration */
	SF_A_STMT_LIST = 1u << 29,
	SF_A_COMP_DIR = 1u << 30,
	SF_A_CONST_VALUE = 1u << 31, /* a constant DW_AT_const_value (enumerators) */
};

/* More attributes (sf_die.has2): `has` is full. */
enum sf_attr_bit2 {
	SF_A2_DISCR = 1u << 0,        /* DW_AT_discr: the variant part's discriminant */
	SF_A2_DISCR_VALUE = 1u << 1,  /* DW_AT_discr_value of a variant */
	SF_A2_IMPORT = 1u << 2,       /* DW_AT_import (DW_TAG_imported_unit) */
	SF_A2_IMPORT_ALT = 1u << 3,   /* ... into the dwz alt file */
};

struct sf_die {
	uint64_t off;           /* this DIE */
	uint64_t next;          /* first byte after its attributes */
	uint16_t tag;           /* 0: the null entry ending a list of children */
	uint8_t children;
	uint32_t has;           /* enum sf_attr_bit */
	uint32_t has2;          /* enum sf_attr_bit2 */
	const char *name;
	uint64_t type;          /* DW_AT_type target (section offset; of the
	                         * alt file's .debug_info with SF_A_ALT) */
	uint64_t sig8;          /* DW_AT_type as a type signature */
	uint64_t sibling;
	uint64_t specification;
	uint64_t byte_size;
	uint64_t bit_size;
	uint64_t data_bit_offset;
	uint64_t bit_offset;    /* DWARF 2/3: from the MSB of the storage unit */
	uint64_t member_loc;
	uint64_t alignment;
	uint64_t count;
	int64_t upper_bound;
	int64_t lower_bound;
	uint32_t encoding;
	uint32_t decl_file;
	uint32_t decl_line;
	uint32_t virtuality;
	uint32_t language;
	uint64_t str_offsets_base;
	uint64_t stmt_list;
	const char *comp_dir;
	uint64_t const_value;   /* the bits of a data or sdata constant */
	uint64_t discr;         /* DW_AT_discr target (section offset) */
	uint64_t discr_value;   /* the bits of DW_AT_discr_value */
	uint64_t import;        /* DW_AT_import target (section offset) */
	/* split DWARF, on unit DIEs; no `has` bit left: set only when
	 * present (ucx_read_unit_die, their one reader, zeroes the sf_die) */
	const char *producer;   /* DW_AT_producer */
	const char *dwo_name;   /* DW_AT_dwo_name or DW_AT_GNU_dwo_name */
	uint64_t dwo_id;        /* DW_AT_GNU_dwo_id (DWARF 4 skeletons and .dwo) */
	uint8_t has_dwo_id;
};

/* Read every unit header of the image's sections. */
int sf_dwfile_init(struct sf_dwfile *f, const char *label, int msb,
		   const struct sf_dwsec sec[SF_SEC_N], struct sf_err *err);
/* The same for the .debug_*.dwo sections of a .dwo or .dwp (split.h). */
int sf_dwfile_init_split(struct sf_dwfile *f, const char *label, int msb,
			 const struct sf_dwsec sec[SF_SEC_N], struct sf_err *err);
void sf_dwfile_release(struct sf_dwfile *f);
/*
 * A table for a .debug_info whose bytes arrive in order, none yet
 * (sec[SF_SEC_INFO] spans the whole section all the same): 1, and
 * sf_dwfile_grow adds units as they arrive.  0 when .debug_info cannot
 * be read so, each unit alone (f untouched): a form of some abbreviation
 * of .debug_abbrev reaches outside its unit (DW_FORM_ref_addr,
 * signatures, dwz's alt forms, DW_FORM_indirect), a tag or attribute
 * ties units together (partial, imported, type and skeleton units, split
 * DWARF's dwo names), or there is a .debug_types.  The table offsets met
 * are kept: a unit naming another is refused by sf_dwfile_grow.
 */
int sf_dwfile_init_stream(struct sf_dwfile *f, const char *label, int msb,
			  const struct sf_dwsec sec[SF_SEC_N]);
/*
 * Add the units whose bytes are all among the first `avail` of
 * .debug_info, their tags found.  -1 with err set on a corrupt header, or
 * a unit this reading cannot take (split DWARF's, type units, an
 * abbreviation table not met).  Callers serialise it; readers see the
 * units through copies of f taken after (entries never change).
 */
int sf_dwfile_grow(struct sf_dwfile *f, uint64_t avail, struct sf_err *err);

/* Is unit u a type unit (DW_UT_type, DW_UT_split_type, .debug_types)? */
int sf_unit_is_type(const struct sf_unit *u);

#define SF_TAG_KNOWN 0x10000u
/* The tag of unit i's DIE (DW_TAG_compile_unit, _partial_unit, ...; 0
 * when it cannot be told, and in .dwo/.dwp files).  Found when first
 * asked, by the thread reading the unit: the abbrev tables walked for
 * every unit before any was read were 1 % of a vmlinux show, alone on
 * one thread. */
uint16_t sf_unit_die_tag(const struct sf_dwfile *f, size_t i);
/* Whether unit i's tag is known already (sf_unit_die_tag answers at
 * once), and noting it when found otherwise (sf_abbrevs_parse_unit). */
int sf_unit_die_tag_known(const struct sf_dwfile *f, size_t i);
void sf_unit_die_tag_note(const struct sf_dwfile *f, size_t i, uint16_t tag);
/* The abbreviation code of unit u's DIE (0: none, or unreadable). */
uint64_t sf_unit_die_code(const struct sf_dwfile *f, const struct sf_unit *u);
/* Is some unit of f a compile unit (DW_TAG_compile_unit)? */
int sf_dwfile_has_compile(const struct sf_dwfile *f);
/* Are all units of f partial units (a dwz alt file)? */
int sf_dwfile_all_partial(const struct sf_dwfile *f);

/* Index of the type unit with signature sig, or -1. */
long sf_dwfile_sig_unit(const struct sf_dwfile *f, uint64_t sig);
/* Index of the unit containing section offset off of section sect, or -1. */
long sf_dwfile_unit_at(const struct sf_dwfile *f, int sect, uint64_t off);

/* Open unit i: parse its abbrevs and read its unit DIE. */
int sf_ucx_open(struct sf_ucx *c, const struct sf_dwfile *f, size_t i, struct sf_err *err);
/*
 * Parse unit i's own abbreviation table into ab, noting the tag of its
 * unit DIE on the way (sf_unit_die_tag_note, f not split): a reader asks
 * the tag of each unit before opening it, and scanning the table for it
 * apart (the unit DIE's abbreviation is nearly always the last) was a
 * second pass over every table; -1 on corrupt input (nothing noted, ab
 * released).  The same unit is then opened with it: sf_ucx_open_parsed
 * takes ab over.
 */
int sf_abbrevs_parse_unit(struct sf_abbrevs *ab, const struct sf_dwfile *f, size_t i);
int sf_ucx_open_parsed(struct sf_ucx *c, const struct sf_dwfile *f, size_t i,
		       struct sf_abbrevs *ab, struct sf_err *err);
void sf_ucx_release(struct sf_ucx *c);

/* Parse f's abbreviation table at offset off; -1 on corrupt input. */
int sf_abbrevs_parse(struct sf_abbrevs *ab, const struct sf_dwfile *f, uint64_t off);
void sf_abbrevs_release(struct sf_abbrevs *ab);
/* The abbreviation of code `code` in ab, or NULL; its attributes are
 * ab->attrs[first, first + nattrs). */
const struct sf_abbrev *sf_abbrev_find(const struct sf_abbrevs *ab, uint64_t code);
/*
 * How the bytes of an attribute of form `form` in unit u are stepped
 * over, from the decoder's own form table: SF_SPAN_FIXED (*n bytes),
 * SF_SPAN_LEB (a ULEB/SLEB128), SF_SPAN_STRING (NUL-terminated),
 * SF_SPAN_BLOCK (a length of *n bytes, 0: a ULEB128, then that many), or
 * -1 for DW_FORM_indirect and unknown forms.
 */
enum { SF_SPAN_FIXED = 0, SF_SPAN_LEB, SF_SPAN_STRING, SF_SPAN_BLOCK };
int sf_form_span(unsigned form, const struct sf_unit *u, unsigned *n);
/*
 * Open unit i with its abbreviation table parsed already (ab, parsed at
 * the unit's abbrev_off, outlives c).  dwz's partial units are opened from
 * every unit that imports them, and a few tables serve them all: parsing
 * each anew was a third of the time on a dwz'd program.
 */
int sf_ucx_open_shared(struct sf_ucx *c, const struct sf_dwfile *f, size_t i,
		       const struct sf_abbrevs *ab, struct sf_err *err);

/* Decode the DIE at section offset off (inside the unit). */
int sf_die_read(const struct sf_ucx *c, uint64_t off, struct sf_die *d);

/* The same for only what sf_die_find_tags reads of the DIE it finds
 * (fails exactly where sf_die_read fails). */
int sf_die_read_walk(const struct sf_ucx *c, uint64_t off, struct sf_die *d);

/*
 * The same for a DIE whose tag is below 64 with its bit set in `tags`
 * (1 << DW_TAG_x); any other is read only as far as skipping it needs:
 * off, next, tag, children and DW_AT_sibling are set, `has` holds at
 * most SF_A_SIBLING.  A walk looking for a few tags among many DIEs
 * (functions, variables, base types) saves the attribute switch.  Fails
 * exactly where sf_die_read fails.
 */
int sf_die_read_tags(const struct sf_ucx *c, uint64_t off, uint64_t tags, struct sf_die *d);

/*
 * From the DIE at off, step over the DIEs of its level whose tag is not
 * below 64 with its bit set in `tags` (each by its sibling or past its
 * subtree, as sf_die_skip), and read the first one whose is, or the null
 * entry closing the level, into d.  A walk looking for a few tags among a
 * unit's top-level DIEs steps over the others here, without returning
 * each.  The DIE found is read for what a walk reads of it: off, next,
 * tag, children, and of its attributes only (with their `has` bits) the
 * name, type (or sig8), sibling, specification, import, signature and
 * declaration flag - sf_die_read reads the rest.  -1 where reading or
 * skipping one of them fails, as sf_die_read_tags and sf_die_skip fail:
 * d->off is then that DIE (of off's level).
 */
int sf_die_find_tags(const struct sf_ucx *c, uint64_t off, uint64_t tags, struct sf_die *d);

/* The end of d's subtree (sf_die_skip's slow path: no usable sibling). */
int sf_die_skip_subtree(const struct sf_ucx *c, const struct sf_die *d, uint64_t *next);

/*
 * Offset of the DIE after d at the same level (its sibling, or the null
 * entry closing d's parent): by DW_AT_sibling when present, else by
 * skipping d's subtree.  Inline: every walk steps over most DIEs it
 * meets, nearly all by their sibling.
 */
static inline int sf_die_skip(const struct sf_ucx *c, const struct sf_die *d, uint64_t *next)
{
	if (!d->children) {
		*next = d->next;
		return 0;
	}
	/* a sibling pointer must move forward inside the unit */
	if ((d->has & SF_A_SIBLING) && d->sibling > d->off && d->sibling <= c->end) {
		*next = d->sibling;
		return 0;
	}
	return sf_die_skip_subtree(c, d, next);
}

/* Read the file table of the unit's line program (empty if it has none). */
int sf_ucx_files(const struct sf_ucx *c, struct sf_files *out);
void sf_files_release(struct sf_files *fl);
/* Path of DW_AT_decl_file idx: "dir/name", made absolute with the
 * compilation directory when relative; "" when unknown. */
const char *sf_files_path(const struct sf_files *fl, uint64_t idx, struct strbuf *sb);

/* The DW_LANG_* codes of C (C89, C, C99, C11, C17, Objective-C) and of
 * C++ (98, 03, 11, 14, 17, 20, Objective-C++) as bit sets: the reader
 * asks per DIE (die.c checks them against dwarf.h). */
#define SF_LANG_C_SET ((1ull << 0x01) | (1ull << 0x02) | (1ull << 0x0c) | (1ull << 0x1d) | \
		       (1ull << 0x2c) | (1ull << 0x10))
#define SF_LANG_CXX_SET ((1ull << 0x04) | (1ull << 0x19) | (1ull << 0x1a) | (1ull << 0x21) | \
			 (1ull << 0x2a) | (1ull << 0x2b) | (1ull << 0x11))

/* Is the unit's language C (where types have no scopes)? */
static inline int sf_lang_is_c(unsigned lang)
{
	return lang < 64 && ((SF_LANG_C_SET >> lang) & 1);
}

/* Is it C++ (or Objective-C++)? */
static inline int sf_lang_is_cxx(unsigned lang)
{
	return lang < 64 && ((SF_LANG_CXX_SET >> lang) & 1);
}

#endif
