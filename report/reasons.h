/*
 * reasons.h - the words for what layout/ returns as data: why a member
 * cannot be narrowed, what the code must do past a narrowed member's
 * range, why a plan was refused, why a type's layout is public, where a
 * size-class preset's numbers come from and why a class SPEC was refused.
 *
 * layout/ says what and with which names and numbers (enums and the
 * structs around them); each sentence a user reads about it is made here,
 * once, for every command and format that shows it.
 */
#ifndef SF_REPORT_REASONS_H
#define SF_REPORT_REASONS_H

#include <stddef.h>
#include <stdint.h>

#include "layout/classes.h"
#include "layout/narrow.h"
#include "layout/plan.h"
#include "layout/public.h"
#include "lib/err.h"
#include "lib/strbuf.h"
#include "model/model.h"

/* Why m cannot take `bytes` (r != SF_NARROW_OK): "it is a flexible array
 * member", "4 bytes is not smaller than its 4 bytes", ... */
void sf_narrow_refusal_say(struct strbuf *out, enum sf_narrow_refusal r,
			   const struct sf_member *m, uint64_t bytes);

/* What the code must do when a value does not fit m narrowed to `bytes`
 * (saturate, fail, never wrap), one sentence cut to n bytes. */
void sf_narrow_overflow(const struct sf_member *m, uint64_t bytes, char *buf, size_t n);

/*
 * The one line a plan's refusal says, with the option it came from
 * ("--narrow b=3: the new width must be 1, 2, 4 or 8 bytes", "--pin:
 * struct loose has no member 'zz'") into err; returns -1.
 */
int sf_plan_refusal_err(const struct sf_plan_refusal *r, struct sf_err *err);

/* Where c's numbers come from, one line: "Ruby 3.3 GC heap slot sizes:
 * ...", "user list". */
const char *sf_classes_source(const struct sf_classes *c);

/* Why a SPEC was refused, without an option name ("'x': unknown preset
 * (known: ...) and not a list like 32,64,96") into err; returns -1. */
int sf_classes_refusal_err(const struct sf_classes_refusal *r, struct sf_err *err);

/* "packed", "installed", "include": the one word a column or a JSON
 * field carries ("" for SF_PUBLIC_NO). */
const char *sf_public_word(enum sf_public p);

/* Why, in a sentence's words: "it is packed (a wire or file format)",
 * "its header is installed", "its header is in the project's include/
 * directory" ("" for SF_PUBLIC_NO). */
const char *sf_public_why(enum sf_public p);

/*
 * git's "did you mean", after the one-line error: a blank line, "The most
 * similar WHAT is" (or "WHATs are" for several), then each name on a line
 * of its own after a tab.  Nothing when n is 0.
 */
void sf_similar_say(struct strbuf *out, const char *what, const char *const *names,
		    size_t n);

#endif
