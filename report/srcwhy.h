/*
 * srcwhy.h (report/) - why a struct's source is not read or not rewritten
 * (layout/srcwhy.h), worded: the one line "PATH: struct NAME: problem"
 * that patch and suggest print, as an sf_err (file and problem as fields).
 */
#ifndef SF_REPORT_SRCWHY_H
#define SF_REPORT_SRCWHY_H

#include "layout/srcwhy.h"
#include "lib/err.h"
#include "model/model.h"

/*
 * why into err: "PATH: struct NAME: problem" (a C++ refusal, why->cxx:
 * "PATH:LINE: class NAME: problem", as report/patch.h's
 * sf_render_patch_cxx words it, with no file field).  t is the struct the
 * caller asked about.  Returns -1.
 */
int sf_render_src_why(struct sf_err *err, const struct sf_type *t,
		      const struct sf_src_why *why);

#endif
