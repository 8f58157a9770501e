/*
 * public.h - is a type part of a public ABI or a wire format?
 *
 * A reorder or a narrowing is safe only where every user of the layout is
 * rebuilt with it.  That is not so when other programs compile against
 * the type's header (an installed header: /usr/include, a PREFIX/include
 * a package installs, the project's own include/ directory it ships), nor
 * when the bytes themselves leave the process (a packed struct: a file or
 * network format).  structfit cannot see who uses a type, so it decides
 * from what the debug info says, the same way for every command:
 *
 *   packed (SF_TF_PACKED)                          -> SF_PUBLIC_PACKED
 *   declared under /usr/include, /usr/local/include
 *   or a compiler's include directory              -> SF_PUBLIC_INSTALLED
 *   the declaring file's path inside the project
 *   has a directory named "include"                -> SF_PUBLIC_INCLUDE
 *   a path outside the project with one            -> SF_PUBLIC_INSTALLED
 *   otherwise                                      -> SF_PUBLIC_NO
 *
 * "Inside the project" is a decl_file already shown relative to the source
 * root (cmd/ maps paths with --source-root before asking), else the part
 * of an absolute decl_file below the type's comp_dir (the build's
 * directory); only the directories of that part count, so a project that
 * happens to live under some /home/me/include/ is not public for it.
 *
 * Pure functions over strings and the model: no file is opened.  The
 * words for each answer are report/reasons.c's (sf_public_word, _why).
 */
#ifndef SF_PUBLIC_H
#define SF_PUBLIC_H

#include <stdbool.h>

#include "model/model.h"

enum sf_public {
	SF_PUBLIC_NO = 0,
	SF_PUBLIC_PACKED,       /* packed: its bytes are a format */
	SF_PUBLIC_INSTALLED,    /* declared in an installed header */
	SF_PUBLIC_INCLUDE,      /* declared in the project's include/ */
};

/* Why t's layout is an interface others depend on, or SF_PUBLIC_NO. */
enum sf_public sf_type_public(const struct sf_type *t);

/* Is `path` under /usr/include, /usr/local/include or a compiler's own
 * include directory (gcc's /usr/lib/gcc/..., clang's /usr/lib/llvm-N/...)? */
bool sf_path_is_system(const char *path);

/*
 * Is `path` `dir` or below it, component by component ("src/a.h" is under
 * "src", "srcx/a.h" is not)?  An empty dir stands for the source root
 * itself: every relative path is under it, no absolute one.
 */
bool sf_path_under(const char *path, const char *dir);

#endif
