/*
 * spelling.h - inside report/: C declarations as pahole 1.24 spells them
 * (report/spelling.c), for the text renderer.
 */
#ifndef SF_SPELLING_H
#define SF_SPELLING_H

#include <stdbool.h>

#include "model/model.h"
#include "lib/strbuf.h"

/*
 * Array dimensions as pahole prints them: a zero-length dimension is "[]"
 * when flex_ok (the last member of a struct with more than one member),
 * else "[0]".
 */
void sf_pahole_dims(struct strbuf *sb, const char *suffix, bool flex_ok);

/* TYPE NAME[dims] of member m (named `name`), TYPE padded to `spacing`
 * columns, in pahole's spelling. */
void sf_pahole_member_decl(struct strbuf *sb, const struct sf_member *m,
			   const char *name, int spacing, bool flex_ok);

#endif
