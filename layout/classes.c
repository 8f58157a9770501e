/*
 * classes.c - size-class presets and SPEC parsing.
 *
 * Each preset is a generator that appends its classes to a growable array,
 * in increasing order, from the rule or table its allocator really uses
 * (x86_64 / LP64 builds, default configuration).  The comment above every
 * generator names the source.  Rules are generated rather than typed in so
 * that a list of 8,000 glibc chunk sizes stays three lines of code and
 * cannot contain a typo; only tcmalloc, whose classes come from a tuned
 * table, is a table here.
 *
 * Lookup is a binary search over the sorted array (glibc's preset has
 * 8,191 classes; the others a few dozen).
 */
#include "classes.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "lib/sort.h"
#include "lib/xalloc.h"

/* The largest class a user list may hold: far above any struct, far below
 * overflow when sizes are added or multiplied by a count. */
#define SF_CLASS_MAX (UINT64_C(1) << 48)

struct vec {
	uint64_t *v;
	size_t n, cap;
};

static void push(struct vec *a, uint64_t x)
{
	assert(a->n == 0 || a->v[a->n - 1] < x);
	SF_GROW(a->v, a->n, a->cap);
	a->v[a->n++] = x;
}

/*
 * Ruby 3.3 GC heap slot sizes: gc.c has SIZE_POOL_COUNT 5 pools whose slot
 * size is BASE_SLOT_SIZE << i, BASE_SLOT_SIZE = sizeof(RVALUE) = 40 on
 * 64-bit.  (Ruby 3.2 and 3.4 use the same five.)
 */
static void gen_ruby33(struct vec *a)
{
	for (unsigned i = 0; i < 5; i++)
		push(a, UINT64_C(40) << i);
}

/*
 * jemalloc 5 size classes for LG_QUANTUM 4 (16-byte quantum, x86_64) and
 * LG_PAGE 12 (4 KiB pages), as include/jemalloc/internal/sc.h / sc.c build
 * them: one tiny class (8), then the quantum-spaced group 16..64, then four
 * classes per doubling (lg_delta = lg_base - 2).  Classes up to 14336 are
 * "small" (slab-allocated); large classes start at 16 KiB and continue four
 * per doubling; listed here up to 1 GiB.
 */
static void gen_jemalloc(struct vec *a)
{
	push(a, 8);
	for (uint64_t s = 16; s <= 64; s += 16)
		push(a, s);
	for (uint64_t base = 64; base < (UINT64_C(1) << 30); base *= 2)
		for (uint64_t k = 1; k <= 4; k++)
			push(a, base + k * (base / 4));
}

/*
 * glibc malloc (ptmalloc2), x86_64: a request of N bytes takes a chunk of
 * max(MINSIZE = 32, (N + SIZE_SZ + 15) & ~15) bytes (malloc.c
 * request2size), and malloc_usable_size() is chunksize - SIZE_SZ (8).  So
 * the usable sizes are 24, 40, 56, ... every 16.  Requests of
 * DEFAULT_MMAP_THRESHOLD_MIN (128 KiB) and more are mmap'ed page by page:
 * the list stops below that.
 */
static void gen_glibc(struct vec *a)
{
	for (uint64_t chunk = 32; chunk - 8 < 128 * 1024; chunk += 16)
		push(a, chunk - 8);
}

/*
 * mimalloc 2.x bins, 64-bit, default build (no MI_ALIGN2W/4W):
 * src/page-queue.c mi_bin() gives each word size <= 8 its own bin (8, 16,
 * ... 64 bytes), then four bins per doubling from the top 3 bits of
 * wsize - 1; a bin's block size is the largest word size that maps to it.
 * Small and medium objects use bins up to MI_MEDIUM_OBJ_SIZE_MAX (128 KiB,
 * include/mimalloc/types.h); larger ones get a page of their own.
 */
static unsigned mimalloc_bin(uint64_t wsize)
{
	if (wsize <= 1)
		return 1;
	if (wsize <= 8)
		return (unsigned)wsize;
	wsize--;
	unsigned b = 63u - (unsigned)__builtin_clzll(wsize);
	return ((b << 2) + (unsigned)((wsize >> (b - 2)) & 3)) - 3;
}

static void gen_mimalloc(struct vec *a)
{
	const uint64_t wmax = (128 * 1024) / 8;

	for (uint64_t w = 1; w <= wmax; w++)
		if (w == wmax || mimalloc_bin(w + 1) != mimalloc_bin(w))
			push(a, w * 8);
}

/*
 * tcmalloc (google/tcmalloc) tcmalloc/legacy_size_classes.cc, the table
 * for 16-byte default new alignment (__STDCPP_DEFAULT_NEW_ALIGNMENT__ > 8)
 * and TCMALLOC_PAGE_SHIFT 13 (8 KiB pages), kMaxSize 256 KiB.  tcmalloc's
 * classes are build-dependent (page size, alignment, experiments): pass a
 * list with --classes for another build.
 */
static const uint32_t tcmalloc_table[] = {
	8, 16, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224,
	240, 256, 272, 288, 304, 320, 336, 352, 368, 384, 400, 416, 448, 480,
	512, 576, 640, 704, 768, 896, 1024, 1152, 1280, 1408, 1536, 1792,
	2048, 2304, 2688, 2816, 3200, 3456, 3584, 4096, 4736, 5376, 6144,
	6528, 6784, 7168, 8192, 9472, 10240, 12288, 13568, 14336, 16384,
	20480, 24576, 28672, 32768, 40960, 49152, 57344, 65536, 73728, 81920,
	90112, 98304, 106496, 114688, 131072, 139264, 155648, 172032, 188416,
	204800, 221184, 237568, 262144,
};

static void gen_tcmalloc(struct vec *a)
{
	for (size_t i = 0; i < sizeof(tcmalloc_table) / sizeof(tcmalloc_table[0]); i++)
		push(a, tcmalloc_table[i]);
}

/*
 * Linux kmalloc caches (SLUB, x86_64, 4 KiB pages): mm/slab_common.c
 * kmalloc_info[] from KMALLOC_MIN_SIZE 8 to KMALLOC_SHIFT_HIGH =
 * PAGE_SHIFT + 1 (8 KiB), with the two odd caches kmalloc-96 and
 * kmalloc-192.  Larger requests go to the page allocator.
 */
static void gen_kmalloc(struct vec *a)
{
	for (uint64_t s = 8; s <= 8192; s *= 2) {
		if (s == 128)
			push(a, 96);
		push(a, s);
		if (s == 128)
			push(a, 192);
	}
}

/*
 * Cache lines: 64 bytes on x86_64 and most arm64 cores; 128 bytes is the
 * unit of the adjacent-line prefetcher on Intel cores, and the line of
 * Apple M-series and POWER cores.
 */
static void gen_cacheline(struct vec *a)
{
	push(a, 64);
	push(a, 128);
}

/* What each preset's numbers come from is said by report/ (report/reasons.c,
 * sf_classes_source), in this order. */
struct preset {
	const char *name;
	void (*gen)(struct vec *a);
};

static const struct preset presets[] = {
	{ "ruby-3.3", gen_ruby33 },
	{ "jemalloc", gen_jemalloc },
	{ "glibc", gen_glibc },
	{ "mimalloc", gen_mimalloc },
	{ "tcmalloc", gen_tcmalloc },
	{ "kmalloc", gen_kmalloc },
	{ "cacheline", gen_cacheline },
};

#define NPRESETS (sizeof(presets) / sizeof(presets[0]))

size_t sf_classes_npresets(void)
{
	return NPRESETS;
}

const char *sf_classes_preset_name(size_t i)
{
	assert(i < NPRESETS);
	return presets[i].name;
}

void sf_classes_preset(size_t i, struct sf_classes *c)
{
	struct vec a = { NULL, 0, 0 };

	assert(i < NPRESETS);
	presets[i].gen(&a);
	assert(a.n > 0);
	c->name = presets[i].name;
	c->preset = (int)i;
	c->v = a.v;
	c->n = a.n;
}

static int is_blank(int ch)
{
	return ch == ' ' || ch == '\t';
}

/* One item of a list, [s, e) with blanks around it allowed. */
static int parse_item(const char *s, const char *e, uint64_t *out)
{
	while (s < e && is_blank(*s))
		s++;
	while (e > s && is_blank(e[-1]))
		e--;
	if (s == e)
		return -1;
	uint64_t v = 0;
	for (const char *p = s; p < e; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		v = v * 10 + (uint64_t)(*p - '0');
		if (v > SF_CLASS_MAX)
			return -2;
	}
	*out = v;
	return 0;
}

/* Fill why (its spec already set) for the item [p, e) of the list. */
static int refuse_item(struct sf_classes_refusal *why, enum sf_classes_problem code,
		       const char *p, const char *e)
{
	why->code = code;
	why->item = (size_t)(p - why->spec);
	why->item_len = (size_t)(e - p);
	return -1;
}

static int parse_list(const char *spec, struct sf_classes *c,
		      struct sf_classes_refusal *why)
{
	struct vec a = { NULL, 0, 0 };
	const char *p = spec;

	for (;;) {
		const char *e = strchr(p, ',');
		if (!e)
			e = p + strlen(p);
		uint64_t v;
		int rc = parse_item(p, e, &v);
		if (rc < 0 || v == 0 || (a.n && v <= a.v[a.n - 1])) {
			if (rc == -1)
				refuse_item(why, p == e ? SF_CLP_EMPTY_ITEM :
					    SF_CLP_NOT_NUMBER, p, e);
			else if (rc == -2)
				refuse_item(why, SF_CLP_TOO_LARGE, p, e);
			else if (v == 0)
				refuse_item(why, SF_CLP_ZERO, p, e);
			else {
				refuse_item(why, SF_CLP_NOT_INCREASING, p, e);
				why->value = v;
				why->prev = a.v[a.n - 1];
			}
			free(a.v);
			return -1;
		}
		SF_GROW(a.v, a.n, a.cap);
		a.v[a.n++] = v;
		if (!*e)
			break;
		p = e + 1;
	}
	c->name = "list";
	c->preset = SF_CLASSES_LIST;
	c->v = a.v;
	c->n = a.n;
	return 0;
}

int sf_classes_parse(const char *spec, struct sf_classes *c,
		     struct sf_classes_refusal *why)
{
	const char *s = spec;

	memset(why, 0, sizeof(*why));
	why->spec = spec;
	while (is_blank(*s))
		s++;
	if (!*s) {
		why->code = SF_CLP_EMPTY;
		return -1;
	}
	for (size_t i = 0; i < NPRESETS; i++) {
		if (!strcmp(s, presets[i].name)) {
			sf_classes_preset(i, c);
			return 0;
		}
	}
	/* A word with no digit or comma in it is a misspelt preset name. */
	if (!strpbrk(s, "0123456789,")) {
		why->code = SF_CLP_UNKNOWN_NAME;
		return -1;
	}
	return parse_list(spec, c, why);
}

void sf_classes_release(struct sf_classes *c)
{
	free(c->v);
	c->v = NULL;
	c->n = 0;
}

size_t sf_classes_find(const struct sf_classes *c, uint64_t size)
{
	size_t i = sf_lower_bound_u64(c->v, c->n, size);

	return i < c->n ? i : SF_NO_CLASS;
}

void sf_classes_fit(const struct sf_classes *c, uint64_t size, struct sf_fit *out)
{
	size_t i = sf_classes_find(c, size);

	memset(out, 0, sizeof(*out));
	out->size = size;
	out->index = i;
	if (i != SF_NO_CLASS) {
		out->cls = c->v[i];
		out->waste = c->v[i] - size;
	}
	/* The next smaller class: below the one size lands in, or the last
	 * class when size is above them all. */
	size_t below = i == SF_NO_CLASS ? c->n : i;
	if (below > 0) {
		out->has_lower = 1;
		out->lower = c->v[below - 1];
		out->to_next_lower = size - out->lower;
		assert(out->lower < size);
	}
}
