/*
 * split.h - split DWARF (gcc/clang -gsplit-dwarf): skeleton units and the
 * .dwo / .dwp files that hold their DIEs (internal to dwarf/).
 *
 * A binary built with -gsplit-dwarf keeps in its .debug_info one small
 * "skeleton" unit per compilation unit (DWARF 5 DW_UT_skeleton, or a GNU
 * DWARF 4 compile unit with DW_AT_GNU_dwo_name): a file name, a comp dir,
 * a line table and a 64-bit dwo id.  The types are in NAME.dwo beside the
 * object (sections .debug_info.dwo, .debug_abbrev.dwo, .debug_str.dwo,
 * .debug_str_offsets.dwo, .debug_line.dwo, .debug_types.dwo), or in one
 * BINARY.dwp packed from all of them, where an index (.debug_cu_index,
 * .debug_tu_index; DWARF 5 or the GNU version 2 form) gives each unit its
 * slice - "contribution" - of every section.
 *
 * A .dwo/.dwp is read with the same decoder as any file: its sections fill
 * an sf_dwfile (SF_SEC_INFO is .debug_info.dwo, ...), and each unit carries
 * what the index and the skeleton say about it (struct sf_unit: absolute
 * abbrev offset, string offsets base, line table, comp dir).  In an
 * sf_dwfile of a .dwo/.dwp every compile unit's sig8 holds its dwo id.
 *
 *   skeleton (binary)            sf_split_set
 *   +--------------------+       +----------------------------------+
 *   | dwo_name, comp_dir | ----> | v[]: sf_dwo (path, mapping, ELF, |
 *   | dwo_id, stmt_list  |       |      sf_dwfile), read in order   |
 *   +--------------------+       | missing: what was not found and  |
 *                                |          where it was looked for |
 *                                +----------------------------------+
 */
#ifndef SF_SPLIT_H
#define SF_SPLIT_H

#include <stddef.h>
#include <stdint.h>

#include "dwarf/die.h"
#include "elfobj.h"
#include "lib/err.h"
#include "lib/strbuf.h"

/* What a skeleton unit of the binary says (strings point into the binary). */
struct sf_skeleton {
	const char *dwo_name;
	const char *comp_dir;       /* "" when none */
	uint64_t dwo_id;
	uint64_t stmt_list;         /* the skeleton's line table in .debug_line */
	uint8_t has_id;
	uint8_t has_stmt_list;
	size_t unit;                /* its index in the binary's units */
	size_t file;                /* sf_split_resolve(): index + 1 in the set's
	                               files of the one it leads to, 0 none */
};

/* One opened .dwo or .dwp. */
struct sf_dwo {
	char *path;
	void *map;
	size_t size;
	struct sf_elf e;
	struct sf_dwfile f;
	int is_dwp;
};

/* The split files a binary's skeletons lead to, and what is missing. */
struct sf_split_set {
	struct sf_dwo **v;          /* in the order of their first skeleton */
	size_t n, cap;
	size_t nmissing;            /* skeletons whose DIEs were not found */
	struct strbuf missing;      /* "a.dwo (looked in X, Y), ..." */
};

/* Does the image hold split DWARF sections (it is a .dwo or a .dwp)? */
int sf_split_is_dwo(const struct sf_elf *e);

/*
 * Read the .debug_*.dwo sections of a parsed .dwo/.dwp image into f, with
 * the dwp index applied (pieces of one section are glued into a copy that
 * sf_elf_release() frees).  -1 with "LABEL: problem" on corrupt input.
 */
int sf_split_init(struct sf_dwfile *f, struct sf_elf *e, const char *label,
		  struct sf_err *err);

/*
 * The skeleton units of a binary's units (*out malloc'ed, *n of them;
 * none: *out NULL, *n 0).  -1 on a corrupt unit.
 */
int sf_split_skeletons(const struct sf_dwfile *f, struct sf_skeleton **out, size_t *n,
		       struct sf_err *err);

/*
 * Find and open the split files of the skeletons of the binary at `path`
 * (whose sf_dwfile is `main`, kept alive while s is): BINARY.dwp beside
 * it first, then for each skeleton DW_AT_dwo_name relative to its
 * DW_AT_comp_dir, then to the binary's directory.  A file whose dwo id
 * differs from the skeleton's does not count.  What is not found lands
 * in s->missing; each skeleton's `file` says where it led.  -1 only on an
 * unreadable or corrupt split file.
 */
int sf_split_resolve(struct sf_split_set *s, const char *path, const struct sf_dwfile *main,
		     struct sf_skeleton *sk, size_t n, struct sf_err *err);
void sf_split_set_init(struct sf_split_set *s);
void sf_split_set_release(struct sf_split_set *s);

#endif
