/*
 * classes.h - size classes: the sizes an allocator or a GC really hands out.
 *
 * A request of N bytes gets the smallest class >= N, so what a struct costs
 * is not sizeof but the class it lands in.  A class set is a strictly
 * increasing array of byte counts:
 *
 *   struct sf_classes { name | preset | v -> [c0 < c1 < ... < c(n-1)] | n }
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


#define SF_NO_CLASS ((size_t)-1)

#define SF_CLASSES_LIST (-1)

struct sf_classes {
	const char *name;      /* preset name, or "list" for a user list */
	int preset;            /* index of the preset, or SF_CLASSES_LIST; where
	                        * its numbers come from is report/'s to say */
	uint64_t *v;           /* strictly increasing, every entry > 0 */
	size_t n;              /* >= 1 */
};

/* The presets, in the order `structfit classes` lists them. */
size_t sf_classes_npresets(void);

/* Preset i's name ("ruby-3.3"), 0 <= i < sf_classes_npresets(). */
const char *sf_classes_preset_name(size_t i);

/* Fill c with preset i (0 <= i < sf_classes_npresets()). */
void sf_classes_preset(size_t i, struct sf_classes *c);

/* Why a SPEC was refused; report/reasons.c words it. */
enum sf_classes_problem {
	SF_CLP_EMPTY = 1,       /* nothing but blanks */
	SF_CLP_UNKNOWN_NAME,    /* a word with no digit or comma: no preset's name */
	SF_CLP_EMPTY_ITEM,      /* "32,,64": the item is empty */
	SF_CLP_NOT_NUMBER,      /* the item is not a byte count */
	SF_CLP_TOO_LARGE,       /* the item is above the largest class allowed */
	SF_CLP_ZERO,            /* the item is 0 */
	SF_CLP_NOT_INCREASING,  /* the item, `value`, came after `prev` >= it */
};

struct sf_classes_refusal {
	enum sf_classes_problem code;
	const char *spec;       /* the SPEC as given (the caller's string) */
	size_t item, item_len;  /* the item at fault: spec[item, item + item_len) */
	uint64_t value, prev;   /* SF_CLP_NOT_INCREASING */
};

/*
 * A SPEC: a preset name or a strictly increasing comma list of positive
 * byte counts ("32,64,96").  On a bad SPEC (empty, an empty item, not a
 * number, zero, not strictly increasing, unknown name) returns -1 with
 * why saying which (why->spec is spec: keep it while why is used).
 */
int sf_classes_parse(const char *spec, struct sf_classes *c,
		     struct sf_classes_refusal *why);

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
