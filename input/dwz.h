/*
 * dwz.h - the alt file of a dwz-compressed image.
 *
 * `dwz -m COMMON a b` moves the DIEs that several files share into one
 * alt (DWARF 5: supplementary) file, and each file names it in a
 * .gnu_debugaltlink section (path NUL build-id) or, with `dwz -5`, a
 * .debug_sup section (version, is_supplementary, path, checksum).  The
 * file then refers to the alt file's DIEs and strings
 * (DW_FORM_GNU_ref_alt, DW_FORM_GNU_strp_alt, DW_FORM_ref_sup4/8,
 * DW_FORM_strp_sup) and imports its partial units.
 *
 * Places tried, in order, the first with the right identity winning (the
 * alt build-id for .gnu_debugaltlink; for .debug_sup the checksum, which
 * the alt file's own .debug_sup repeats with is_supplementary set):
 *
 *   1. the path named: as is when absolute, else relative to the
 *      directory of the file naming it;
 *   2. by the alt build-id: DIR/.build-id/xx/rest.debug for every debug
 *      directory (--debug-dir ones first, then /usr/lib/debug);
 *   3. a path containing "/.dwz/" (Debian's and Fedora's layout) moved
 *      under every debug directory: DIR/.dwz/REST (as gdb does).
 *
 * struct sf_dwz holds the file found, mapped and parsed, for as long as
 * the image that names it is read.
 */
#ifndef SF_DWZ_H
#define SF_DWZ_H

#include <stddef.h>

#include "elfobj.h"
#include "lib/err.h"

struct sf_dwz {
	char *path;              /* the alt file used (malloc'ed) */
	unsigned char *map;      /* its bytes, mapped private (elfobj.h) */
	size_t size;
	struct sf_elf elf;       /* parsed, debug sections prepared */
};

/*
 * Find and open the alt file that image e (named `label`: a path, or
 * "lib.a(x.o)") names.  dirs: the --debug-dir directories (NULL-terminated,
 * may be NULL).  Returns 0 when e names none, 1 with *a filled (release it
 * with sf_dwz_release), -1 with err set: a corrupt link section, or no
 * place holding the alt file (the message names it, its build-id and
 * every place searched, with why each was refused).
 */
int sf_dwz_open(struct sf_dwz *a, const struct sf_elf *e, const char *label,
		const char *const *dirs, struct sf_err *err);
void sf_dwz_release(struct sf_dwz *a);

#endif
