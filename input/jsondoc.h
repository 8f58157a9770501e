/*
 * jsondoc.h - structfit's own `structfit/1` documents as input.
 *
 * A document `show --format json` wrote carries every type whole (members,
 * their spellings, alignment, flags, nested types, enumerators, variants,
 * declaration and origin): read back, it fills the typeset with the
 * types the build gave, so every command answers on it as on the build.
 * One `holes --format json` wrote carries only the ranking's numbers: its
 * types are summaries (model.h: struct sf_summary), which only `holes`
 * ranks; every other command refuses such a document.
 *
 * A document is recognised by its content (the first non-blank byte is
 * '{'), never by its name.  Identical definitions read from several
 * documents (or a document and a build) are one type, as across builds;
 * differing ones of one name are kept apart and marked (the typeset's
 * rule).  The "types" array is read one type at a time, each built in a
 * scratch set and copied in only when new, so memory is the document's
 * bytes plus the distinct types, whatever the number of duplicates.
 */
#ifndef SF_JSONDOC_H
#define SF_JSONDOC_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/err.h"
#include "model/typeset.h"

/* The first non-blank byte of img is '{': a JSON document, not ELF. */
bool sf_jsondoc_is(const unsigned char *img, size_t size);
/* The same test on the first bytes of the file at path (false when it
 * cannot be read). */
bool sf_jsondoc_file_is(const char *path);

/*
 * Read the types of the document img (size bytes; path names it in
 * messages) into ts.  summaries: a `holes` document is welcome (its types
 * as summaries), else refused.  0, or -1 with err set to one line:
 * "PATH: $.types[3].members[1].offset: expected a number".
 */
int sf_jsondoc_load(struct sf_typeset *ts, const unsigned char *img, size_t size,
		    const char *path, int summaries, struct sf_err *err);

#endif
