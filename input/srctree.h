/*
 * srctree.h - the source tree around a struct (-R/--source-root DIR, else
 * the build's directory the DWARF records, else the current directory:
 * sf_source_root): where `patch` finds the file to rewrite, and
 * what it learns from the whole tree first - which file is the struct's
 * source of truth, the code elsewhere that depends on its member order,
 * and the object-like macros its members may be spelled with.
 *
 * sf_source_find() takes a C struct's DW_AT_decl_file (absolute once the
 * reader resolved it against DW_AT_comp_dir) to a file below the root:
 * itself when below it, root/decl_file when relative, else (the build
 * ran elsewhere) the longest tail of it that names a file below the
 * root.  sf_source_find_rust() takes the one .rs file below the root
 * that declares the struct (rustc names no file).
 *
 * sf_srctree_scan() walks the source root once (C files: .c, .h, .h.in,
 * .c.in, .inc, and any file a C file #includes by name, such as Redis's
 * commands.def; hidden directories and symbolic links skipped; other
 * files are listed, never opened unless so included).  Each C file is
 * read once, not lexed, for its #include names and whether it names the
 * struct's tag; lexed are only the files around the struct (nfiles of
 * nread): its own file, the files naming its tag (its other definitions,
 * typedefs, holders), every file including one of those directly or
 * through headers (by base name, as -I directories are unknown: more is
 * safe), and what those include (macros, typedef names).  A use or a
 * store of the struct needs its whole type, so it is in one of them.
 * From those it keeps, for struct t:
 *
 *   defs[]    every definition of struct t->name (layout/srcscan.h's
 *             struct sf_srcdef), whether it matches the build's DWARF (a
 *             different struct that shares the name does not count), and
 *             why its file looks generated, if it does (a banner in its
 *             first lines, or a build directory);
 *   uses[]    positional initializers, offsetof and static_assert of the
 *             struct, and of the structs that hold it by value
 *             (layout/srcscan.h), by file and line (not in a file that
 *             defines another struct of the same name);
 *   macros    the object-like #defines of those files.
 *
 * sf_srctree_locate() does it all for a C struct, with the verdict on
 * which file to patch (layout/srcscan.h), and sf_source_to_truth() moves
 * to that file; report/patch.h words the verdict and the uses.
 *
 * Like the rest of input/, nothing here prints or exits: a file not
 * found or unreadable is -1 with its message in `err` (a strbuf, as
 * cmd/patch.c prints every refusal of patch's whole); cmd/ prints it.
 */
#ifndef SF_SRCTREE_H
#define SF_SRCTREE_H

#include <stddef.h>
#include <stdint.h>

#include "layout/clex.h"
#include "model/model.h"
#include "layout/srcscan.h"
#include "layout/srcstore.h"
#include "lib/strbuf.h"

struct sf_srctree {
	char *root;              /* real path of the source root */
	size_t nread;            /* C files under the root (each read once) */
	size_t nfiles;           /* of those, the ones that matter, lexed */
	struct sf_srcdef *defs;
	size_t ndefs;
	struct sf_srcuse *uses;
	size_t nuses;
	struct sf_cmacros macros;
	struct sf_typenames names;
	struct sf_holders holders;   /* structs holding it by value */
	char **crel;                 /* the C files read, below the root */
	size_t ncrel;
};

/*
 * The stores to members named `member` in the C files st read, with r the
 * member's new range, appended to *v (*n); file by file, in line order.
 */
void sf_srctree_stores(const struct sf_srctree *st, const char *member,
		       const struct sf_store_range *r, struct sf_srcstore **v, size_t *n);


/* Walk root (a real path) for struct t, defined in seed_rel (below the
 * root).  Never fails: unreadable files are skipped. */
void sf_srctree_scan(const char *root, const struct sf_type *t, const char *seed_rel,
		     struct sf_srctree *st);
void sf_srctree_release(struct sf_srctree *st);

/* A file to patch: its real path, and its path below the source root
 * (the diff's). */
struct sf_source {
	char *path;
	char *rel;
};

void sf_source_release(struct sf_source *src);

/*
 * The source root: root_opt (--source-root) when given; else the build's
 * directory t's unit records (DW_AT_comp_dir; a relative one below the
 * input file's directory), or, when t's file is elsewhere (an
 * out-of-tree build: build/ beside src/), the directory both are below;
 * else the current directory (no comp dir recorded, or not on this
 * machine).  A root of / that was not asked for is refused: everything
 * would be searched.  0, or -1 with the message in err.
 */
struct sf_source_root {
	char *real;                  /* its real path */
	enum sf_root_from from;      /* layout/srcscan.h */
	const char *comp_dir;        /* t's, as recorded ("" when none) */
};

int sf_source_root(const struct sf_type *t, const char *root_opt,
		   struct sf_source_root *r, struct strbuf *err);
void sf_source_root_release(struct sf_source_root *r);

/* The struct's file below root.  0, or -1 with the message in err. */
int sf_source_find(const struct sf_type *t, const struct sf_source_root *root,
		   struct sf_source *src, struct strbuf *err);
int sf_source_find_rust(const struct sf_type *t, const struct sf_source_root *root,
			struct sf_source *src, struct strbuf *err);

/*
 * A C struct's file: sf_source_find, then the tree scanned into `tree`
 * and the verdict on its definitions (layout/srcscan.h's
 * sf_srcdefs_truth) in *truth.  0 (whatever the verdict: the caller
 * words a refusal), or -1 with the message in err when the file is not
 * found.
 */
int sf_srctree_locate(const struct sf_type *t, const struct sf_source_root *root,
		      struct sf_srctree *tree, struct sf_source *src,
		      struct sf_srctruth *truth, struct strbuf *err);

/* src made the source of truth, when the verdict found another file. */
void sf_source_to_truth(struct sf_source *src, const struct sf_srctree *tree,
			const struct sf_srctruth *truth);

/* The whole text of a source file; -1 with the message in err when it
 * cannot be read or holds NUL bytes. */
int sf_source_read(const char *path, struct strbuf *text, struct strbuf *err);

#endif
