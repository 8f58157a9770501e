/*
 * classes.h - size classes: the sizes an allocator or a GC really hands out.
 *
 * A request of N bytes gets the smallest class >= N, so what a struct costs
 * is not sizeof but the class it lands in.  A class set is a strictly
 * increasing array of byte counts:
 *
 *   struct sf_classes { name | source | v -> [c0 < c1 < ... < c(n-1)] | n }
 *
 * It comes either from a preset (ruby-3.3, jemalloc, glibc, mimalloc,
 * tcmalloc, kmalloc, cacheline; each generated from the rule or table its
 * allocator uses, see classes.c) or from a user list "32,64,96".  Sizes
 * above the last class have no class (SF_NO_CLASS): presets end where the
 * allocator stops using classes (glibc's mmap threshold, for instance).
 *
 * v is malloc'ed; sf_classes_release() frees it.
 */
#ifndef SF_CLASSES_H
#define SF_CLASSES_H

#include <stddef.h>
#include <stdint.h>

#include "lib/err.h"

#define SF_NO_CLASS ((size_t)-1)

struct sf_classes {
	const char *name;      /* preset name, or "list" for a user list */
	const char *source;    /* one line naming where the numbers come from */
	uint64_t *v;           /* strictly increasing, every entry > 0 */
	size_t n;              /* >= 1 */
};

/* The presets, in the order `structfit classes` lists them. */
size_t sf_classes_npresets(void);

/* Fill c with preset i (0 <= i < sf_classes_npresets()). */
void sf_classes_preset(size_t i, struct sf_classes *c);

/*
 * A SPEC: a preset name or a strictly increasing comma list of positive
 * byte counts ("32,64,96").  On a bad SPEC (empty, an empty item, not a
 * number, zero, not strictly increasing, unknown name) returns -1 with err
 * set to one line naming the problem (without the option name).
 */
int sf_classes_parse(const char *spec, struct sf_classes *c, struct sf_err *err);

void sf_classes_release(struct sf_classes *c);

/* Index of the smallest class >= size, or SF_NO_CLASS above the last. */
size_t sf_classes_find(const struct sf_classes *c, uint64_t size);

/*
 * Where `size` stands in c: the class it lands in, the bytes lost to
 * rounding up, and how many bytes must go to reach the next smaller class.
 * Fields that do not exist (above the last class; below the first class
 * there is no smaller one) are flagged false.
 */
struct sf_fit {
	uint64_t size;
	size_t index;              /* SF_NO_CLASS when above the last class */
	uint64_t cls;              /* valid when index != SF_NO_CLASS */
	uint64_t waste;            /* cls - size */
	int has_lower;             /* a smaller class exists */
	uint64_t lower;            /* the largest class < size's class */
	uint64_t to_next_lower;    /* size - lower */
};

void sf_classes_fit(const struct sf_classes *c, uint64_t size, struct sf_fit *out);

#endif
