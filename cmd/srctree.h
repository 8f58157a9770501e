/*
 * srctree.h - what `patch` learns from the whole source tree before it
 * rewrites one struct: which file is the struct's source of truth, the
 * code elsewhere that depends on its member order, and the object-like
 * macros its members may be spelled with.
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
 * sf_srctree_truth() then picks the file to patch, or refuses.
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
 * rel), with one header line per fact in `note`; NULL after printing the
 * refusal (exit 2).
 */
const char *sf_srctree_truth(const struct sf_srctree *st, const char *tname,
			     const char *rel, struct strbuf *note);

/*
 * The uses that the patch breaks: positional initializers when members
 * move (`moves`), offsetof and static_assert always.  Without `allow`, a
 * refusal naming each (exit 2, returns -1); with it, one header line
 * each in `note`.  Without any, one line saying what was searched.
 */
int sf_srctree_uses(const struct sf_srctree *st, const char *tname, int moves,
		    int allow, struct strbuf *note);

#endif
