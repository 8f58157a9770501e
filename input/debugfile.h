/*
 * debugfile.h - where a stripped ELF image keeps its types: the separate
 * debug file, found as gdb finds it.
 *
 * The debug directories are searched in this order: every --debug-dir
 * (struct sf_load_opts.debug_dirs, in command-line order), then
 * SF_DEBUG_ROOT.  For an image without .debug_info the places tried are:
 *
 *   1. by build-id (.note.gnu.build-id, N bytes as 2N hex digits h0h1...):
 *        DIR/.build-id/h0h1/h2h3...hN.debug       for each debug DIR
 *      accepted only when the file found has the same build-id;
 *   2. by .gnu_debuglink (NAME + CRC32 of the debug file):
 *        FILEDIR/NAME, FILEDIR/.debug/NAME, DIR/ABSFILEDIR/NAME for each DIR
 *      accepted when both build-ids are known and equal, or, when either
 *      lacks one, when the CRC32 of the candidate's bytes matches;
 *   3. debuginfod by build-id, when DEBUGINFOD_URLS is set (libdebuginfod,
 *      opened with dlopen at that moment only).
 *
 * A place that does not match is listed as "PATH (build-id differs)" or
 * "PATH (CRC mismatch)" among the places searched, which the error names
 * when nothing is found.
 */
#ifndef SF_DEBUGFILE_H
#define SF_DEBUGFILE_H

#include <stddef.h>
#include <stdint.h>

#include "elfobj.h"
#include "lib/err.h"
#include "lib/strbuf.h"

/* The debug root every distribution installs debug files under. */
#define SF_DEBUG_ROOT "/usr/lib/debug"

/* A build-id is a note's descriptor: gcc/ld make 20 bytes (sha1). */
#define SF_BUILD_ID_MAX 64

/*
 * The build-id of an image: the descriptor of its NT_GNU_BUILD_ID note,
 * looked up in its SHT_NOTE sections.  Returns its length (1 to
 * SF_BUILD_ID_MAX) and points *id into the image, or 0 when it has none.
 */
size_t sf_elf_build_id(const struct sf_elf *e, const unsigned char **id);

/*
 * The build-id of the ELF file at `path` into id[SF_BUILD_ID_MAX]: its
 * length, or 0 when the file cannot be read, is not ELF or has none.
 */
size_t sf_file_build_id(const char *path, unsigned char *id);

/*
 * Find the file whose build-id is id[0..len) under the debug directories
 * (dirs: NULL-terminated, searched first; then SF_DEBUG_ROOT):
 * DIR/.build-id/xx/rest`suffix` (suffix ".debug" for debug files, "" for
 * the executable itself).  The first whose own build-id equals id wins.
 * Returns its path (free() it) or NULL.  Every path tried is appended to
 * `searched` (when not NULL) as ", PATH", with " (build-id differs)" when
 * the file exists but is another build.
 */
char *sf_debug_find_by_build_id(const char *const *dirs, const unsigned char *id,
				size_t len, const char *suffix, struct strbuf *searched);

/*
 * The debug file of `e` (read from the file at `path`), which has no
 * DWARF of its own: by build-id, then by .gnu_debuglink, then debuginfod.
 * Returns its path (free() it), or NULL with err set to one line that
 * names `path`, every place searched, and - when `hint` - the Debian
 * package that holds it where dpkg knows the file (one dpkg-query run:
 * worth it for a file named by the user, not for each file of a
 * directory walk).  An image with neither build-id nor debuglink has
 * nothing to look for: NULL with err saying "no DWARF".
 */
char *sf_debug_find(const struct sf_elf *e, const char *path,
		    const char *const *dirs, int hint, struct sf_err *err);

#endif
