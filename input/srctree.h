/*
 * srctree.h - the source tree the user named (-R/--source-root DIR, else
 * the current directory): where `patch` finds the file to rewrite, and
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
 * commands.def; hidden directories and symbolic links skipped), lexes
 * each file and keeps, for struct t:
 *
 *   defs[]    every definition of struct t->name, whether it matches the
 *             build's DWARF (a different struct that shares the name does
 *             not count), and why its file looks generated, if it does
 *             (a banner in its first lines, or a build directory);
 *   uses[]    positional initializers, offsetof and static_assert of the
 *             struct, and of the structs that hold it by value
 *             (layout/srcscan.h), by file and line (not in a file that
 *             defines another struct of the same name);
 *   macros    the object-like #defines of every file.
 *
 * sf_srctree_truth() then picks the file to patch, or refuses, and
 * sf_srctree_locate() does it all for a C struct.
 *
 * Like the rest of input/, nothing here prints or exits: a refusal is
 * returned as -1 (or NULL) with its message in `err`, a strbuf because
 * a refusal may list any number of places; cmd/ prints it.  The lines
 * in `note` are for patch's header (report/patch.h).
 */
#ifndef SF_SRCTREE_H
#define SF_SRCTREE_H

#include <stddef.h>
#include <stdint.h>

#include "layout/clex.h"
#include "model/model.h"
#include "layout/srcscan.h"
#include "lib/strbuf.h"

struct sf_srcdef {
	char *rel;               /* relative to the source root */
	uint32_t line;
	int matches;             /* the body matches the build's DWARF */
	char generated[160];     /* why the file looks generated, or "" */
};

struct sf_srcuse {
	char *rel;
	struct sf_use use;
};

struct sf_srctree {
	char *root;              /* real path of the source root */
	size_t nfiles;           /* C files read */
	struct sf_srcdef *defs;
	size_t ndefs;
	struct sf_srcuse *uses;
	size_t nuses;
	struct sf_cmacros macros;
	struct sf_typenames names;
	struct sf_holders holders;   /* structs holding it by value */
};

/* Walk root (a real path) for struct t.  Never fails: unreadable files are skipped. */
void sf_srctree_scan(const char *root, const struct sf_type *t,
		     struct sf_srctree *st);
void sf_srctree_release(struct sf_srctree *st);

/*
 * The file to patch, given rel, the file the build saw the struct in:
 * rel itself when it is the one matching, non-generated definition; the
 * one non-generated definition (say, a .h.in) when rel is generated and
 * every other copy is rebuilt from it.  Returns it (an entry's rel, or
 * rel), with one header line per fact in `note`; NULL with the refusal in
 * err.
 */
const char *sf_srctree_truth(const struct sf_srctree *st, const char *tname,
			     const char *rel, struct strbuf *note, struct strbuf *err);

/*
 * The uses that the patch breaks: positional initializers when members
 * move (`moves`), offsetof and static_assert always.  Without `allow`, a
 * refusal naming each (in err, returns -1); with it, one header line
 * each in `note`.  Without any, one line saying what was searched.
 */
int sf_srctree_uses(const struct sf_srctree *st, const char *tname, int moves,
		    int allow, struct strbuf *note, struct strbuf *err);

/* A file to patch: its real path, and its path below the source root
 * (the diff's). */
struct sf_source {
	char *path;
	char *rel;
};

void sf_source_release(struct sf_source *src);

/* root_opt: --source-root, or NULL for the current directory.  0, or -1
 * with the message in err. */
int sf_source_find(const struct sf_type *t, const char *root_opt,
		   struct sf_source *src, struct strbuf *err);
int sf_source_find_rust(const struct sf_type *t, const char *root_opt,
			struct sf_source *src, struct strbuf *err);

/* A C struct's file to patch: sf_source_find, then the tree scanned into
 * `tree` and its source of truth taken in the file's place.  0, or -1
 * with the message in err. */
int sf_srctree_locate(const struct sf_type *t, const char *root_opt,
		      struct sf_srctree *tree, struct sf_source *src,
		      struct strbuf *note, struct strbuf *err);

/* The whole text of a source file; -1 with the message in err when it
 * cannot be read or holds NUL bytes. */
int sf_source_read(const char *path, struct strbuf *text, struct strbuf *err);

#endif
