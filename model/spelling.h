/*
 * spelling.h - one spelling per C type: gcc writes `long unsigned int`,
 * clang `unsigned long`, and both are the one type C says they are.
 *
 * The canonical spelling is gcc's, so that canonicalising a gcc-built
 * input's names leaves them as they are (sf_type_hash() hashes canonical
 * spellings, and its values are part of the output):
 *
 *   - every run of base-type words (`long`, `short`, `int`, `char`,
 *     `signed`, `unsigned`, `__int128`, `float`, `double`) is spelled as
 *     gcc spells that type: `short int`, `short unsigned int`, `long int`,
 *     `long long unsigned int`, `__int128 unsigned`; `char`, `signed char`
 *     and `unsigned char` stay three types;
 *   - inside a template argument list (`Slot<...>`) no blank comes before
 *     `*` or `&`, and `>>` closing two lists is `> >`, as g++ writes them;
 *   - every other character is kept.
 *
 * Callers print the compiler's spelling; the canonical one only compares,
 * hashes and looks up.  layout/ctypes.c spells source types with the same
 * word rule (struct sf_basewords).
 */
#ifndef SF_SPELLING_H
#define SF_SPELLING_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/strbuf.h"

/*
 * Whether spelling s says word as a whole word ("const" in "const
 * volatile int", in "char * const"): a qualifier said on an array is its
 * element's, and a loader that passes an array qualified as its element
 * already is says it once.
 */
bool sf_spelling_has_word(const char *s, const char *word);

/* The base-type words of one run, counted (the order C ignores). */
struct sf_basewords {
	unsigned char nlong, nshort, nint, nchar, nsigned, nunsigned;
	unsigned char nfloat, ndouble, nint128;
};

/* Count word w[0..n) into bw when it is a base-type word; false if not. */
bool sf_basewords_add(struct sf_basewords *bw, const char *w, size_t n);

/* gcc's spelling of the type bw counts, or NULL when it counts nothing. */
const char *sf_basewords_spell(const struct sf_basewords *bw);

/* Append the canonical spelling of in (NULL reads as "") to out. */
void sf_spell_canon(const char *in, struct strbuf *out);

/*
 * The same, handed piece by piece to sink->emit (sf_type_hash() hashes
 * the pieces, with no copy made).  last is the last character emitted,
 * kept here; start it at 0.
 */
struct sf_spell_sink {
	void (*emit)(struct sf_spell_sink *sink, const char *p, size_t n);
	char last;
};
void sf_spell_canon_to(const char *in, struct sf_spell_sink *sink);

/* Whether a and b (either may be NULL = "") spell the same type. */
bool sf_spell_eq(const char *a, const char *b);

/* sf_spell_eq for aggregates' names, where only a template's argument
 * list can be spelled two ways: no work on names without a '<'. */
bool sf_spell_name_eq(const char *a, const char *b);

#endif
