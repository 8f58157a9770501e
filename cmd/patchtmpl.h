/*
 * patchtmpl.h - patch on a C++ class template instantiation (see
 * patchtmpl.c): the primary template is rewritten when the new order
 * shrinks every instantiation found in the inputs.
 */
#ifndef SF_CMD_PATCHTMPL_H
#define SF_CMD_PATCHTMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common.h"
#include "input/srctree.h"
#include "layout/srcpatch.h"
#include "model/model.h"
#include "model/typeset.h"

/*
 * The reader's glob for every instantiation of the template -t `bare`
 * names ("Slot<*" of "Slot<long>"), malloc'ed; NULL when bare names no
 * instantiation (or a class nested in one).
 */
char *sf_patch_tmpl_glob(const char *bare);

/*
 * When t is an instantiation of a class template (not nested in one):
 * *view gets t under the template's name ("Slot"), the name its source
 * declares, and 1 is returned; else 0.  view->name is interned in ts.
 */
int sf_patch_tmpl_view(const struct sf_type *t, struct sf_typeset *ts, struct sf_type *view);

/*
 * An explicit or partial specialization's instantiation is refused
 * (printed, returns 2): its file is found below the source root and read
 * for the specialization on t's line.  0 otherwise (also when the file is
 * not found: the steps after say so).
 */
int sf_patch_tmpl_specialized(const struct sf_type *t, const struct sf_source_root *root);

/* The order planned for t, what pins and narrowings it keeps. */
struct sf_patch_tmpl_plan {
	const uint32_t *order;
	const char *const *pins;
	size_t npins;
	bool pin_first;
	const struct sf_srcpatch_narrow *narrow;
	size_t nnarrow;
	uint64_t old_size, new_size;
};

/*
 * Every other instantiation of t's template in ts laid out in the
 * planned order: a refusal (printed, returns 2, naming file rel) when one
 * grows or its size cannot be known, or when none shrinks; else 0 with
 * the header's lines on the instantiations added to note.
 */
int sf_patch_tmpl_sizes(const struct sf_type *t, struct sf_typeset *ts,
			const struct sf_patch_tmpl_plan *pl, const char *rel,
			struct strbuf *note);

#endif
