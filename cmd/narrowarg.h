/*
 * narrowarg.h - the words of --narrow [TYPE.]MEMBER=BYTES, one parser for
 * suggest, fit and patch: each argument becomes a struct sf_narrow_arg
 * (layout/plan.h) in a growing array the command owns.
 *
 *   "st_table.entries_start=1" -> { arg, type "st_table", member
 *                                   "entries_start", bytes 1 }
 *
 * The last '=' splits (neither a name nor the width holds one), the first
 * '.' before it ends TYPE; BYTES is decimal only ("04" is 4, never octal).
 * Needs lib/ and layout/plan.h alone, so a unit test links it by itself.
 */
#ifndef SF_CMD_NARROWARG_H
#define SF_CMD_NARROWARG_H

#include <stddef.h>

#include "layout/plan.h"
#include "lib/err.h"

/* Parse arg into *out (release with sf_narrow_arg_release): 0, or -1 with
 * "--narrow: 'ARG' is not MEMBER=BYTES" and nothing to release.  out->arg
 * is arg itself (not copied). */
int sf_narrow_arg_parse(const char *arg, struct sf_narrow_arg *out, struct sf_err *err);
void sf_narrow_arg_release(struct sf_narrow_arg *a);

/* One more --narrow: arg parsed onto the end of (*v)[0..*n), or -1 with err. */
int sf_narrow_args_add(const char *arg, struct sf_narrow_arg **v, size_t *n,
		       struct sf_err *err);
/* Release v[0..n) and free v. */
void sf_narrow_args_free(struct sf_narrow_arg *v, size_t n);

#endif
