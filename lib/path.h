/*
 * path.h - the one resolver of source paths, shared by every command.
 *
 * Debug info names source files as the compiler saw them: absolute
 * ("/home/me/proj/src/hash.c", possibly through a symlinked $PWD), or
 * relative to the build directory, often with "." and ".." components
 * ("./csu/../nptl/descr.h").  Every command shows them the same way:
 *
 *   sf_path_normalize  "." and ".." resolved lexically, "//" made "/"
 *   struct sf_srcroot  a source root (--source-root DIR) known both by its
 *                      real path (symlinks resolved) and by its logical
 *                      absolute path (as the shell's $PWD spells it); a
 *                      path below it, by either spelling or once its own
 *                      symlinks are resolved, is shown relative to it
 *
 * A path that is not below the root is shown normalised, never dropped.
 */
#ifndef SF_PATH_H
#define SF_PATH_H

#include <stdbool.h>

#include "err.h"

struct sf_srcroot {
	char *real;      /* realpath(root) */
	char *logical;   /* root made absolute through $PWD, normalised */
};

/* "/b/build/../src/./x.c" -> "/b/src/x.c"; a relative path keeps its
 * leading ".." ("../x.c"), and "./x.c" becomes "x.c".  New string. */
char *sf_path_normalize(const char *path);

/* Is path its own normal form (sf_path_normalize would return the same
 * string)?  Most paths in debug info are: they need no copy. */
bool sf_path_is_normal(const char *path);

/* The part of `path` below directory `root` (both absolute and
 * normalised), or NULL when path is not strictly below root. */
const char *sf_path_below(const char *path, const char *root);

/*
 * Is dir (absolute, normalised) too much to search for a project's
 * sources: /, a directory many unrelated trees share (/tmp, /var/tmp,
 * /home, /usr, /usr/local, /opt, /srv, /mnt, /media, /var, /run,
 * /dev/shm), or the home directory `home` (may be NULL) or one above it?
 * A project's own top directory (/work, /app, /src, ~/proj) is not.
 */
bool sf_path_too_broad(const char *dir, const char *home);

/* Resolve DIR ("." , "./", "dir/.", a symlink...).  -1 with "DIR: problem". */
int sf_srcroot_init(struct sf_srcroot *r, const char *dir, struct sf_err *err);
void sf_srcroot_release(struct sf_srcroot *r);

/* `path` as shown to users: relative to the root when below it, else
 * normalised.  r may be NULL (normalise only).  New string. */
char *sf_srcroot_show(const struct sf_srcroot *r, const char *path);

#endif
