/*
 * packing.h - alignment and packing of a laid-out type (see packing.c).
 */
#ifndef SF_PACKING_H
#define SF_PACKING_H

#include <stdint.h>

#include "model.h"

/*
 * Set t->align, t->natural_align and the SF_TF_PACKED, SF_TF_ALIGNED and
 * SF_TF_INCOMPLETE flags of t from its members.  natural[i] is member
 * i's type's natural alignment; align_attr the alignment the input gives
 * the type (0 if none); `forced` that a container showed it is packed.
 */
void sf_settle_packing(struct sf_type *t, const uint32_t *natural, uint32_t align_attr,
		       int forced);

#endif
