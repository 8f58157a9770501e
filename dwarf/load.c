/*
 * load.c - sf_dwarf_load(): from a path to types in a typeset.
 *
 * A path is a file or a directory.  A file is mapped read-only once and
 * is either an ELF image, or a static archive whose members are ELF
 * images (byte ranges of the mapping, never copied), or a thin archive
 * whose members are files next to it.  A directory is walked in name
 * order (deterministic output); symbolic links to directories are not
 * followed, so a link loop cannot make the walk endless, and a file
 * reached twice (hard or symbolic links) is read once.
 *
 * A dwz'd image reads its alt file too (dwz.h): mapped and indexed beside
 * it for as long as the image is read, then released.
 *
 * An ELF file without DWARF of its own is read from its debug file
 * (debugfile.h), which is then the origin of its types.  In a directory,
 * files that yield no types are skipped, counted, and reported in one
 * line through opts->note; a debug file reached both directly and through
 * its stripped file is read once.
 *
 * Split DWARF (split.h): an image's skeleton units are replaced by the
 * units of the .dwo/.dwp files they lead to, in unit order (as the same
 * units come in a plain build), each file read like an image.
 *
 * Threads (--jobs N): the inputs named on the command line and the files
 * of their directories, the members of an archive, and the units of one
 * ELF image (cut into up to 4N runs of about equal bytes) are items of a
 * pool (pool.h): a shared counter hands the next item to whichever thread is free,
 * each item is read into a typeset of its own, and the typesets are merged
 * in item order as soon as every item before them is merged.  So the types
 * come out in input and unit order whatever N is, and memory holds what a
 * bounded window of items read ahead.  Pools nest (an archive in a
 * directory, a large image in an archive); they share one budget of N
 * threads.  A file read on its own cannot see which files the inputs
 * before it read (a debug file reached twice, hard links): it notes what
 * it asked, and the merge redoes it in place when an answer would differ.
 */
#include "dwarf.h"

#include <ar.h>
#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "btf/btf.h"
#include "debugfile.h"
#include "die.h"
#include "dwz.h"
#include "elfobj.h"
#include "lib/hash.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "pool.h"
#include "reader.h"
#include "split.h"

#define MAX_THREADS 64	/* what N may be */
#define MAX_DIR_DEPTH 128
/* below this much .debug_info a second thread costs more than it saves */
#define THREAD_MIN_BYTES (4u << 20)
/* runs of one image per thread: a thread done early takes another run */
#define RUNS_PER_THREAD 4

/* Outcome of reading one image or file. */
enum { LOADED = 1, NO_DWARF = 0, FAILED = -1, NOT_ELF = 2, ALREADY = 3 };

/* What every pool of one load shares. */
struct shared {
	struct sf_threads threads;	/* N: --jobs, else the online CPUs */
	int asked;			/* --jobs given: even a small image is split */
};

/* A seen_before() question a file read apart asked, and its answer. */
struct asked {
	dev_t dev;
	ino_t ino;
	int answer;
};

struct ctx {
	struct sf_typeset *ts;
	const struct sf_load_opts *opts;
	struct sf_err *err;
	struct sf_pending *pending;  /* incomplete types, completed at the end */
	/* fingerprint keys of the types merged into ts (NULL: no dedup); a
	 * reader looks here and in the parents: what was merged before it */
	struct sf_fpshared *keys;
	struct shared *sh;
	/* files already read, by (device, inode): an open-addressing set */
	struct file_id {
		dev_t dev;
		ino_t ino;
		int used;
	} *seen;
	size_t nseen, seencap;
	/* a file read apart (sub_ctx): its seen_before questions, in order */
	int logging;
	struct asked *asked;
	size_t nasked, askedcap;
	/* the directory being walked: files with types, files skipped without */
	int found;
	unsigned skipped;
	struct sf_err first_skip;
	/* ...and files read without some of their .dwo files */
	unsigned split_partial;
	struct sf_err first_partial;
};

static int load_file(struct ctx *c, const char *path, int in_dir, int lookup);

/* ---- files read apart ---------------------------------------------------- */

/* A ctx of its own for one input read on any thread: its types, held-back
 * types and files seen apart from c's, merged into c in input order. */
static struct ctx *sub_ctx(const struct ctx *c, struct sf_err *err)
{
	struct ctx *s = sf_xcalloc(1, sizeof(*s));

	s->ts = sf_typeset_new();
	s->pending = sf_pending_new();
	s->opts = c->opts;
	s->err = err;
	s->sh = c->sh;
	s->logging = 1;
	s->keys = c->keys ? sf_fpshared_new(c->keys) : NULL;
	return s;
}

static void free_sub(struct ctx *s)
{
	if (!s)
		return;
	sf_typeset_free(s->ts);
	sf_pending_free(s->pending);
	sf_fpshared_free(s->keys);
	free(s->seen);
	free(s->asked);
	free(s);
}

/* s's types and held-back types join c's, after them; s is freed. */
static void adopt(struct ctx *c, struct ctx *s)
{
	sf_typeset_merge_copy(c->ts, s->ts);
	sf_pending_absorb(c->pending, s->pending);
	if (c->keys && s->keys)
		sf_fpshared_add_shared(c->keys, s->keys);
	s->ts = NULL;
	s->pending = NULL;
	if (s->split_partial && !c->split_partial)
		c->first_partial = s->first_partial;
	c->split_partial += s->split_partial;
	free_sub(s);
}

/* ---- one ELF image: runs of units --------------------------------------- */

/* How many runs to cut units [first, last) into. */
static size_t run_count(const struct ctx *c, const struct sf_dwfile *f, size_t first,
			size_t last)
{
	uint64_t bytes = 0;
	size_t n = (size_t)RUNS_PER_THREAD * c->sh->threads.n;

	for (size_t i = first; i < last; i++)
		bytes += f->units[i].end - f->units[i].start;
	if (c->sh->threads.n <= 1 || (bytes < THREAD_MIN_BYTES && !c->sh->asked))
		return 1;
	return n < last - first ? n : last - first;
}

/* Cut units [first, last) into n runs of about equal bytes: run i is
 * [cut[i], cut[i+1]). */
static void cut_runs(const struct sf_dwfile *f, size_t first, size_t last, size_t n,
		     size_t *cut)
{
	uint64_t total = 0, acc = 0;
	size_t k = 1;

	for (size_t i = first; i < last; i++)
		total += f->units[i].end - f->units[i].start;
	cut[0] = first;
	for (size_t i = first; i < last && k < n; i++) {
		acc += f->units[i].end - f->units[i].start;
		while (k < n && acc * n >= total * k)
			cut[k++] = i + 1;
	}
	while (k <= n)
		cut[k++] = last;
}

/* The runs of one image being read: one reader each. */
struct runs {
	struct ctx *c;
	struct sf_elf *e;
	const struct sf_dwfile *f;
	const char *label;
	size_t *cut;
	struct sf_reader **r;
	struct sf_err *err;
	int *rc;
	/* several runs: c->ts and c->pending are merged into while readers
	 * run, so they do not look there (the merge drops what repeats) */
	int apart;
	/* ...but at the fingerprint keys of the runs merged (dwarf/dedup.c),
	 * which include keys by string offset, this image's alone */
	struct sf_fpshared *keys;
};

static int run_units(void *arg, size_t i)
{
	struct runs *u = arg;
	const char *const *only = u->c->opts ? u->c->opts->only : NULL;

	u->r[i] = sf_reader_new(u->f, u->e, sf_typeset_new(), u->apart ? NULL : u->c->ts,
				u->apart ? NULL : u->c->pending, u->label, only,
				!(u->c->opts && u->c->opts->no_dedup));
	if (u->keys)
		sf_reader_share_keys(u->r[i], u->keys);
	u->err[i].msg[0] = '\0';
	u->rc[i] = sf_reader_units(u->r[i], u->cut[i], u->cut[i + 1], &u->err[i]);
	return u->rc[i];
}

static int merge_units(void *arg, size_t i)
{
	struct runs *u = arg;
	int rc = u->rc[i];

	if (rc < 0) {
		memcpy(u->c->err, &u->err[i], sizeof(*u->c->err));
	} else {
		/* the held-back types wait for every input (their bases may be
		 * defined in any run, any file) */
		sf_reader_merge(u->r[i], u->c->ts);
		sf_reader_move_pending(u->r[i], u->c->pending);
		sf_reader_publish_keys(u->r[i], u->c->keys);
	}
	sf_reader_free(u->r[i]);
	u->r[i] = NULL;
	return rc < 0 ? -1 : 0;
}

static void drop_units(void *arg, size_t i)
{
	struct runs *u = arg;

	sf_reader_free(u->r[i]);
	u->r[i] = NULL;
}

static int read_range(struct ctx *c, struct sf_elf *e, const struct sf_dwfile *f,
		      const char *label, size_t first, size_t last)
{
	size_t n = last > first ? run_count(c, f, first, last) : 0;
	struct runs u = { c, e, f, label, NULL, NULL, NULL, NULL, n > 1, NULL };
	struct sf_pool p = { .n = n, .run = run_units, .merge = merge_units, .drop = drop_units,
			  .arg = &u, .threads = &c->sh->threads };

	if (!n)
		return 0;
	u.cut = sf_xcalloc(n + 1, sizeof(*u.cut));
	u.r = sf_xcalloc(n, sizeof(*u.r));
	u.err = sf_xcalloc(n, sizeof(*u.err));
	u.rc = sf_xcalloc(n, sizeof(*u.rc));
	cut_runs(f, first, last, n, u.cut);
	if (c->keys)
		u.keys = sf_fpshared_new(c->keys);
	int rc = sf_pool_run(&p);
	sf_fpshared_free(u.keys);
	free(u.cut);
	free(u.r);
	free(u.err);
	free(u.rc);
	return rc;
}

static void dwarf_sections(const struct sf_elf *e, struct sf_dwsec sec[SF_SEC_N])
{
	static const char *const names[SF_SEC_N] = {
		".debug_info", ".debug_types", ".debug_abbrev", ".debug_str",
		".debug_line_str", ".debug_str_offsets", ".debug_line",
	};

	memset(sec, 0, sizeof(struct sf_dwsec) * SF_SEC_N);
	for (uint32_t k = 1; k < e->ndw; k++) {
		for (int s = 0; s < SF_SEC_N; s++) {
			if (strcmp(e->dw_name[k], names[s]))
				continue;
			sec[s].data = e->sec[e->dw[k]].data;
			sec[s].size = e->sec[e->dw[k]].size;
		}
	}
}

static int read_units(struct ctx *c, struct sf_elf *e, const struct sf_dwfile *f,
		      const char *label)
{
	return read_range(c, e, f, label, 0, f->nunits);
}

/* Index of f's first .debug_types unit (units are in section order). */
static size_t first_types_unit(const struct sf_dwfile *f)
{
	size_t i = f->nunits;

	while (i > 0 && f->units[i - 1].sect == SF_SEC_TYPES)
		i--;
	return i;
}

/* A .dwo or .dwp given by itself (or found in a directory). */
static int load_dwo_image(struct ctx *c, struct sf_elf *e, const char *label)
{
	struct sf_dwfile f;
	int rc;

	if (sf_split_init(&f, e, label, c->err) < 0)
		return FAILED;
	if (!f.nunits) {
		sf_error(c->err, "%s: no DWARF debug info (empty .debug_info.dwo)", label);
		rc = NO_DWARF;
	} else {
		rc = read_units(c, e, &f, label) < 0 ? FAILED : LOADED;
	}
	sf_dwfile_release(&f);
	return rc;
}

/*
 * The .dwo/.dwp files the skeleton units of f lead to (`where` is the
 * binary's path: its directory and BINARY.dwp).  A skeleton whose file is
 * missing fails a file named by the user; a directory walk goes on (what
 * was found is read; a file that gave nothing counts as skipped).
 */
static int seen_before(struct ctx *c, const struct stat *st);

/* Read the .debug_info units of file i of the set, once. */
static int read_split_info(struct ctx *c, struct sf_split_set *set, size_t i, uint8_t *done)
{
	struct sf_dwo *d = set->v[i];
	size_t mid = first_types_unit(&d->f);

	if (done[i]++ || !mid)
		return 0;
	return read_range(c, &d->e, &d->f, d->path, 0, mid);
}

/*
 * The units of an image with skeleton units, in the order a plain build
 * has them: its own compile units, each skeleton replaced by its .dwo's
 * units (a .dwp: all of them, at its first skeleton), then every
 * .debug_types unit, the image's and the split files'.
 */
static int read_in_order(struct ctx *c, struct sf_elf *e, const struct sf_dwfile *f,
			 const char *label, struct sf_split_set *set,
			 const struct sf_skeleton *sk, size_t n)
{
	size_t mid = first_types_unit(f), pos = 0;
	uint8_t *done = sf_xcalloc(set->n ? set->n : 1, 1);
	int rc = 0;

	for (size_t k = 0; k < n && rc == 0; k++) {
		assert(sk[k].unit >= pos && sk[k].unit < mid);
		if (pos < sk[k].unit)
			rc = read_range(c, e, f, label, pos, sk[k].unit);
		pos = sk[k].unit + 1;
		if (rc == 0 && sk[k].file)
			rc = read_split_info(c, set, sk[k].file - 1, done);
	}
	if (rc == 0 && pos < mid)
		rc = read_range(c, e, f, label, pos, mid);
	if (rc == 0 && mid < f->nunits)
		rc = read_range(c, e, f, label, mid, f->nunits);
	for (size_t i = 0; i < set->n && rc == 0; i++) {
		struct sf_dwo *d = set->v[i];
		size_t dmid = first_types_unit(&d->f);
		if (dmid < d->f.nunits)
			rc = read_range(c, &d->e, &d->f, d->path, dmid, d->f.nunits);
	}
	free(done);
	return rc;
}

static int load_units(struct ctx *c, struct sf_elf *e, const struct sf_dwfile *f,
		      const char *label, const char *where, int in_dir)
{
	struct sf_skeleton *sk;
	struct sf_split_set set;
	size_t n;
	int rc = LOADED;

	if (sf_split_skeletons(f, &sk, &n, c->err) < 0)
		return FAILED;
	if (!n)
		return read_units(c, e, f, label) < 0 ? FAILED : LOADED;
	sf_split_set_init(&set);
	if (sf_split_resolve(&set, where, f, sk, n, c->err) < 0)
		rc = FAILED;
	/* a directory walk that reaches these files too reads them once */
	for (size_t i = 0; i < set.n && in_dir; i++) {
		struct stat st;
		if (stat(set.v[i]->path, &st) == 0)
			seen_before(c, &st);
	}
	if (rc == LOADED && read_in_order(c, e, f, label, &set, sk, n) < 0)
		rc = FAILED;
	if (rc == LOADED && set.nmissing) {
		sf_error(c->err, "%s: split DWARF not found for %zu of %zu units: %s%s", label,
			 set.nmissing, n, set.missing.buf, set.nmissing > 3 ? ", ..." : "");
		if (!in_dir)
			rc = FAILED;
		else if (!set.n)
			rc = NO_DWARF;
		else if (!c->split_partial++)
			c->first_partial = *c->err;
	}
	sf_split_set_release(&set);
	free(sk);
	return rc;
}

/*
 * dwz: the alt file that e names, its units indexed into *af and hung on
 * f.  1 when there is one (release *a and *af after reading), 0 when e
 * names none, -1 with c->err set.
 */
static int open_alt(struct ctx *c, const struct sf_elf *e, const char *label,
		    struct sf_dwfile *f, struct sf_dwz *a, struct sf_dwfile *af)
{
	struct sf_dwsec sec[SF_SEC_N];
	int rc = sf_dwz_open(a, e, label, c->opts ? c->opts->debug_dirs : NULL, c->err);

	if (rc <= 0)
		return rc;
	dwarf_sections(&a->elf, sec);
	if (a->elf.msb != e->msb) {
		sf_error(c->err, "%s: its dwz alt file %s has the other byte order", label, a->path);
		sf_dwz_release(a);
		return -1;
	}
	if (sf_dwfile_init(af, a->path, a->elf.msb, sec, c->err) < 0) {
		sf_dwz_release(a);
		return -1;
	}
	f->alt = af;
	return 1;
}

/* ---- BTF: raw files and .BTF sections, read by btf/ ------------------- */

/* BTF bytes into c->ts; path (a raw file's) lets split BTF find its base. */
static int load_btf(struct ctx *c, const unsigned char *data, size_t size, const char *label,
		    const char *path, const struct sf_elf *e)
{
	struct sf_btf_input in = {
		.label = label, .data = data, .size = size, .path = path,
		.machine = e ? e->machine : 0, .addr_size = e ? e->addr_size : 0,
	};
	int rc = sf_btf_load(c->ts, &in, c->opts ? c->opts->only : NULL, c->err);

	return rc > 0 ? LOADED : rc == 0 ? NO_DWARF : FAILED;
}

/* An ELF image without DWARF: its .BTF section, if it has one. */
static int load_elf_btf(struct ctx *c, const struct sf_elf *e, const char *label)
{
	for (uint32_t i = 1; i < e->nsec; i++)
		if (e->sec[i].data && e->sec[i].size && !strcmp(e->sec[i].name, ".BTF"))
			return load_btf(c, e->sec[i].data, e->sec[i].size, label, NULL, e);
	return NO_DWARF;
}

/*
 * The types of `path`, an ELF image `e` without DWARF, from its debug file.
 * The debug file is not looked up in turn (no chains, no loops).
 */
static int load_debug_file(struct ctx *c, const struct sf_elf *e, const char *path,
			   int in_dir)
{
	const char *const *dirs = c->opts ? c->opts->debug_dirs : NULL;
	char *dbg = sf_debug_find(e, path, dirs, !in_dir, c->err);

	if (!dbg)
		return NO_DWARF;
	int rc = load_file(c, dbg, in_dir, 0);
	if (rc == ALREADY)
		rc = LOADED;	/* its types were read from it directly */
	else if (rc == NO_DWARF || rc == NOT_ELF)
		sf_error(c->err, "%s: no DWARF debug info, and its debug file %s has none either",
			 path, dbg);
	free(dbg);
	return rc;
}

/*
 * Read one image.  `file` is its path when the image is a whole file whose
 * debug file may be looked up (NULL for archive members and debug files).
 */
static int load_image(struct ctx *c, unsigned char *image, size_t size,
		      const char *label, const char *file, int in_dir)
{
	struct sf_elf e;
	struct sf_dwfile f;
	struct sf_dwsec sec[SF_SEC_N];

	if (!sf_elf_is_elf(image, size))
		return NOT_ELF;
	if (sf_elf_parse(&e, image, size, label, c->err) < 0)
		return FAILED;
	if (sf_split_is_dwo(&e)) {
		int r = load_dwo_image(c, &e, label);
		sf_elf_release(&e);
		return r;
	}
	int rc = sf_elf_prepare_debug(&e, c->err);
	if (rc <= 0) {
		/* no DWARF here: from the debug file, if this is a whole file */
		if (rc == 0)
			rc = file ? load_debug_file(c, &e, file, in_dir) : NO_DWARF;
		/* DWARF wins, its own or its debug file's; else the .BTF if any */
		if (rc == NO_DWARF)
			rc = load_elf_btf(c, &e, label);
		sf_elf_release(&e);
		return rc;
	}
	dwarf_sections(&e, sec);
	if (sf_dwfile_init(&f, label, e.msb, sec, c->err) < 0) {
		sf_elf_release(&e);
		return FAILED;
	}
	struct sf_dwz alt;
	struct sf_dwfile altf;
	int has_alt = 0;
	if (!f.nunits) {
		sf_error(c->err, "%s: no DWARF debug info (empty .debug_info)", label);
		rc = NO_DWARF;
	} else if (in_dir && f.npartial == f.nunits) {
		/* read alone, its units would lack the language of the units
		 * importing them (C++ types spelled as C: differing twins) */
		sf_error(c->err, "%s: a dwz alt file (partial units only), read through "
			 "the files that import it", label);
		rc = NO_DWARF;
	} else if ((has_alt = open_alt(c, &e, label, &f, &alt, &altf)) < 0) {
		rc = FAILED;
	} else {
		rc = load_units(c, &e, &f, label, file ? file : label, in_dir);
	}
	if (has_alt > 0) {
		sf_dwfile_release(&altf);
		sf_dwz_release(&alt);
	}
	sf_dwfile_release(&f);
	sf_elf_release(&e);
	return rc;
}

/* ---- archives ------------------------------------------------------------ */

/*
 * A regular archive is read through libelf: elf_begin(-1, cmd, ar) opens
 * each member in turn, elf_getarhdr() names it (GNU long names resolved),
 * elf_rawfile() gives its bytes - a range of our mapping - and elf_next()
 * moves on.  libelf does not read thin archives ("!<thin>\n": the members
 * are files named in the headers), so their headers are walked here.
 */

struct arstate {
	const char *path;
	int members, with_dwarf;
	struct strbuf label;
};

/* Count one member's outcome; FAILED stops the walk. */
static int member_done(struct arstate *a, int r)
{
	a->members++;
	if (r == LOADED)
		a->with_dwarf++;
	return r == FAILED ? -1 : 0;
}

/* The verdict on an archive once its members are read. */
static int archive_verdict(struct ctx *c, const struct arstate *a, int rc)
{
	if (rc < 0)
		return FAILED;
	if (!a->members) {
		sf_error(c->err, "%s: empty archive (no members)", a->path);
		return NO_DWARF;
	}
	if (!a->with_dwarf) {
		sf_error(c->err, "%s: no DWARF debug info in any of its %d archive members",
			 a->path, a->members);
		return NO_DWARF;
	}
	return LOADED;
}

/* libelf's names for the symbol tables and the long-name table */
static int special_member(const char *name)
{
	return !strcmp(name, "/") || !strcmp(name, "//") || !strcmp(name, "/SYM64/");
}

/* Decimal field of a member header, or -1. */
static long long ar_number(const char *p, size_t n)
{
	long long v = 0;
	size_t i = 0;

	while (i < n && p[i] == ' ')
		i++;
	if (i == n || p[i] < '0' || p[i] > '9')
		return -1;
	for (; i < n && p[i] >= '0' && p[i] <= '9'; i++) {
		if (v > (1ll << 50))
			return -1;
		v = v * 10 + (p[i] - '0');
	}
	return v;
}

/* A member of a regular archive: a range of the archive's mapping. */
struct member {
	char *label;		/* "ARCHIVE(NAME)" */
	unsigned char *bytes;
	size_t size;
	struct ctx *sub;	/* what reading it gave, until merged */
	struct sf_err err;
	int rc;
};

/* The members of one archive, read by a pool. */
struct members {
	struct ctx *c;
	struct arstate *a;
	struct member *v;
	size_t n, cap;
};

/*
 * List one member of a regular archive.  A BSD name ("#1/LEN", 4.4BSD and
 * macOS ar) is the first LEN bytes of the data: libelf 0.188 does not
 * read those, so it is taken off here.
 */
static int list_member(struct ctx *c, struct members *ms, const Elf_Arhdr *h,
		       unsigned char *bytes, size_t size)
{
	const char *name = h->ar_name;
	int namelen = (int)strlen(name);

	if (special_member(name))
		return 0;
	if (h->ar_rawname && !strncmp(h->ar_rawname, "#1/", 3)) {
		long long n = ar_number(h->ar_rawname + 3, strnlen(h->ar_rawname + 3, 13));
		if (n < 0 || (size_t)n > size)
			return sf_error(c->err, "%s: corrupt archive (bad BSD member name)",
					ms->a->path);
		name = (const char *)bytes;
		namelen = (int)strnlen(name, (size_t)n);
		bytes += n;
		size -= (size_t)n;
		if (namelen >= 9 && !strncmp(name, "__.SYMDEF", 9))
			return 0;	/* the BSD symbol table */
	}
	struct strbuf label = STRBUF_INIT;
	sb_addf(&label, "%s(%.*s)", ms->a->path, namelen, name);
	SF_GROW(ms->v, ms->n, ms->cap);
	ms->v[ms->n++] = (struct member){ .label = sb_detach(&label), .bytes = bytes,
					  .size = size };
	return 0;
}

/*
 * List the members of a regular archive, in archive order, up to the
 * first corrupt header (then -1 with c->err set: the members before it
 * are read first, as they come before it).
 */
static int list_members(struct ctx *c, struct members *ms, unsigned char *img, size_t size)
{
	const char *path = ms->a->path;
	Elf *ar = elf_memory((char *)img, size);
	Elf_Cmd cmd = ELF_C_READ_MMAP;
	Elf *m;
	/* where the next member header should be: all bytes are members */
	uint64_t next = SARMAG;
	int rc = 0;

	if (!ar || elf_kind(ar) != ELF_K_AR) {
		if (ar)
			elf_end(ar);
		return sf_error(c->err, "%s: corrupt archive (%s)", path, elf_errmsg(-1));
	}
	while (rc == 0 && (m = elf_begin(-1, cmd, ar)) != NULL) {
		Elf_Arhdr *h = elf_getarhdr(m);
		size_t msize = 0;
		char *bytes = elf_rawfile(m, &msize);
		int64_t off = elf_getaroff(m);
		if (!h || off < 0 || !bytes) {
			rc = sf_error(c->err, "%s: corrupt archive (%s)", path, elf_errmsg(-1));
		} else if ((uint64_t)h->ar_size > msize) {
			rc = sf_error(c->err, "%s: truncated archive (member at %lld runs past the end)",
				      path, (long long)off);
		} else {
			next = (uint64_t)off + sizeof(struct ar_hdr) + h->ar_size;
			next += next & 1;
			rc = list_member(c, ms, h, (unsigned char *)bytes, msize);
		}
		cmd = elf_next(m);
		elf_end(m);
	}
	/* libelf stops quietly at a header it cannot read */
	if (rc == 0 && next < size)
		rc = sf_error(c->err, "%s: corrupt archive (bad member header at %llu)", path,
			      (unsigned long long)next);
	elf_end(ar);
	return rc;
}

static int run_member(void *arg, size_t i)
{
	struct members *ms = arg;
	struct member *m = &ms->v[i];

	m->sub = sub_ctx(ms->c, &m->err);
	m->rc = load_image(m->sub, m->bytes, m->size, m->label, NULL, 0);
	return m->rc == FAILED ? -1 : 0;
}

static int merge_member(void *arg, size_t i)
{
	struct members *ms = arg;
	struct member *m = &ms->v[i];

	if (m->rc == FAILED) {
		memcpy(ms->c->err, &m->err, sizeof(*ms->c->err));
		free_sub(m->sub);
	} else {
		adopt(ms->c, m->sub);
	}
	m->sub = NULL;
	return member_done(ms->a, m->rc);
}

static void drop_member(void *arg, size_t i)
{
	struct members *ms = arg;

	free_sub(ms->v[i].sub);
	ms->v[i].sub = NULL;
}

static int load_archive(struct ctx *c, const char *path, unsigned char *img, size_t size)
{
	struct arstate a = { path, 0, 0, STRBUF_INIT };
	struct members ms = { .c = c, .a = &a };
	struct sf_err listed = { "" };
	struct sf_err *err = c->err;

	/* a corrupt header comes after the members before it: said after them */
	c->err = &listed;
	int bad = list_members(c, &ms, img, size);
	c->err = err;
	struct sf_pool p = { .n = ms.n, .run = run_member, .merge = merge_member,
			  .drop = drop_member, .arg = &ms, .threads = &c->sh->threads };
	int rc = sf_pool_run(&p);
	if (rc == 0 && bad < 0) {
		*c->err = listed;
		rc = -1;
	}
	for (size_t i = 0; i < ms.n; i++)
		free(ms.v[i].label);
	free(ms.v);
	sb_release(&a.label);
	return archive_verdict(c, &a, rc);
}

/* A thin member's file name: "name/", or "/123" into the long-name table.
 * Returns its length (name at *name), or -1. */
static long thin_member_name(const struct ar_hdr *h, const char *lnames, size_t lnsize,
			     const char **name)
{
	size_t len = sizeof(h->ar_name);

	while (len && h->ar_name[len - 1] == ' ')
		len--;
	if (len > 1 && h->ar_name[0] == '/' && h->ar_name[1] >= '0' && h->ar_name[1] <= '9') {
		long long off = ar_number(h->ar_name + 1, sizeof(h->ar_name) - 1);
		if (!lnames || off < 0 || (size_t)off >= lnsize)
			return -1;
		const char *s = lnames + off;
		size_t max = lnsize - (size_t)off, l = 0;
		while (l < max && s[l] != '\n' && !(s[l] == '/' && (l + 1 == max || s[l + 1] == '\n')))
			l++;
		*name = s;
		return (long)l;
	}
	if (len && h->ar_name[len - 1] == '/')
		len--;
	*name = h->ar_name;
	return (long)len;
}

/* A thin archive: its tables are stored, its members are files beside it. */
static int load_thin_archive(struct ctx *c, const char *path, const unsigned char *img,
			     size_t size)
{
	struct arstate a = { path, 0, 0, STRBUF_INIT };
	const char *lnames = NULL;
	size_t lnsize = 0, off = SARMAG;
	const char *slash = strrchr(path, '/');
	int rc = 0;

	while (rc == 0 && off + sizeof(struct ar_hdr) <= size) {
		struct ar_hdr h;
		memcpy(&h, img + off, sizeof(h));
		long long msize = ar_number(h.ar_size, sizeof(h.ar_size));
		if (memcmp(h.ar_fmag, ARFMAG, 2) || msize < 0) {
			rc = sf_error(c->err, "%s: corrupt archive (bad member header at %zu)", path, off);
			break;
		}
		size_t dstart = off + sizeof(h);
		int table = h.ar_name[0] == '/' && (h.ar_name[1] == ' ' || h.ar_name[1] == '/' ||
						    !memcmp(h.ar_name, "/SYM64/", 7));
		if (!table) {	/* a member: only its header is here */
			const char *name;
			long len = thin_member_name(&h, lnames, lnsize, &name);
			if (len < 0) {
				rc = sf_error(c->err, "%s: corrupt archive (bad long member name)", path);
				break;
			}
			sb_reset(&a.label);
			if (name[0] != '/' && slash)
				sb_add(&a.label, path, (size_t)(slash - path) + 1);
			sb_add(&a.label, name, (size_t)len);
			rc = member_done(&a, load_file(c, a.label.buf, 1, 0));
			off = dstart;
			continue;
		}
		if ((size_t)msize > size - dstart) {
			rc = sf_error(c->err, "%s: truncated archive (member at %zu runs past the end)",
				      path, off);
			break;
		}
		if (!memcmp(h.ar_name, "//", 2) && h.ar_name[2] == ' ') {
			lnames = (const char *)img + dstart;
			lnsize = (size_t)msize;
		}
		off = dstart + (size_t)msize + ((size_t)msize & 1);
	}
	sb_release(&a.label);
	return archive_verdict(c, &a, rc);
}

/* ---- files and directories ----------------------------------------------- */

/* The slot of (dev, ino) in c->seen: where it is, or the free one where
 * it would go (the set is never full: see add_seen). */
static size_t seen_slot(const struct ctx *c, dev_t dev, ino_t ino)
{
	size_t j = sf_mix64((uint64_t)ino * 0x9e3779b97f4a7c15ull ^ (uint64_t)dev) &
		   (c->seencap - 1);

	while (c->seen[j].used && (c->seen[j].dev != dev || c->seen[j].ino != ino))
		j = (j + 1) & (c->seencap - 1);
	return j;
}

static int in_seen(const struct ctx *c, dev_t dev, ino_t ino)
{
	return c->seencap && c->seen[seen_slot(c, dev, ino)].used;
}

static void add_seen(struct ctx *c, dev_t dev, ino_t ino)
{
	if ((c->nseen + 1) * 2 > c->seencap) {	/* at most half full */
		struct file_id *old = c->seen;
		size_t oldcap = c->seencap;
		c->seencap = oldcap ? oldcap * 2 : 64;
		c->seen = sf_xcalloc(c->seencap, sizeof(*c->seen));
		for (size_t i = 0; i < oldcap; i++)
			if (old[i].used)
				c->seen[seen_slot(c, old[i].dev, old[i].ino)] = old[i];
		free(old);
	}
	size_t j = seen_slot(c, dev, ino);
	assert(!c->seen[j].used);
	c->seen[j] = (struct file_id){ dev, ino, 1 };
	c->nseen++;
}

/* Has this (device, inode) been read already?  Records it if not. */
static int seen_before(struct ctx *c, const struct stat *st)
{
	int seen = in_seen(c, st->st_dev, st->st_ino);

	if (c->logging) {
		SF_GROW(c->asked, c->nasked, c->askedcap);
		c->asked[c->nasked++] = (struct asked){ st->st_dev, st->st_ino, seen };
	}
	if (!seen)
		add_seen(c, st->st_dev, st->st_ino);
	return seen;
}

/*
 * Would s, a file read apart, have had the same answers from seen_before
 * had it been read in c's place (c knowing the files of the inputs before
 * it)?  Its own earlier questions count, as they would have in c.
 */
static int same_answers(const struct ctx *c, const struct ctx *s)
{
	for (size_t k = 0; k < s->nasked; k++) {
		const struct asked *q = &s->asked[k];
		int seen = in_seen(c, q->dev, q->ino);
		for (size_t j = 0; j < k && !seen; j++)
			seen = s->asked[j].dev == q->dev && s->asked[j].ino == q->ino;
		if (seen != q->answer)
			return 0;
	}
	return 1;
}

/* c knows the files s read. */
static void add_answers(struct ctx *c, const struct ctx *s)
{
	for (size_t k = 0; k < s->nasked; k++)
		if (!in_seen(c, s->asked[k].dev, s->asked[k].ino))
			add_seen(c, s->asked[k].dev, s->asked[k].ino);
}

/*
 * Read the file at path.  in_dir: reached by a directory walk or a thin
 * archive (not named by the user: read once, non-regular files skipped).
 * lookup: a file without DWARF may be read from its debug file.
 */
static int load_file(struct ctx *c, const char *path, int in_dir, int lookup)
{
	struct stat st;
	/* O_NONBLOCK: a FIFO with no writer would hang open(2); anything but
	 * a regular file is refused below, and mmap ignores the flag. */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &st) < 0) {
		sf_error(c->err, "%s: cannot open: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return FAILED;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		if (in_dir)
			return NOT_ELF;
		sf_error(c->err, "%s: not a regular file", path);
		return FAILED;
	}
	if (in_dir && seen_before(c, &st)) {
		close(fd);
		return ALREADY;
	}
	if (st.st_size == 0) {
		close(fd);
		sf_error(c->err, "%s: not an ELF file (empty)", path);
		return NOT_ELF;
	}
	if ((uint64_t)st.st_size > SIZE_MAX) {
		close(fd);
		sf_error(c->err, "%s: too large to map", path);
		return FAILED;
	}
	size_t size = (size_t)st.st_size;
	/* private and writable, as libelf's own ELF_C_READ_MMAP_PRIVATE maps:
	 * libelf updates a section header in place when it inflates that
	 * section; those pages become copies, the file is never written */
	unsigned char magic[4];
	/* raw BTF is only read: /sys/kernel/btf/ maps read-only */
	int ro = pread(fd, magic, sizeof(magic), 0) == (ssize_t)sizeof(magic) &&
		 sf_btf_is_raw(magic, sizeof(magic));
	void *map = mmap(NULL, size, ro ? PROT_READ : PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED) {
		sf_error(c->err, "%s: cannot map: %s", path, strerror(errno));
		return FAILED;
	}
	unsigned char *img = map;
	int rc;
	if (size >= SARMAG && !memcmp(img, ARMAG, SARMAG))
		rc = load_archive(c, path, img, size);
	else if (size >= SARMAG && !memcmp(img, "!<thin>\n", SARMAG))
		rc = load_thin_archive(c, path, img, size);
	else if (sf_btf_is_raw(img, size))
		rc = load_btf(c, img, size, path, path, NULL);
	else
		rc = load_image(c, img, size, path, lookup ? path : NULL, in_dir);
	if (rc == NOT_ELF)
		sf_error(c->err, "%s: not an ELF file", path);
	munmap(map, size);
	return rc;
}

/* Is this the name of a split DWARF file (.dwo or .dwp)? */
static int split_name(const char *name)
{
	size_t n = strlen(name);

	return n > 4 && (!strcmp(name + n - 4, ".dwo") || !strcmp(name + n - 4, ".dwp"));
}

/*
 * Name order, split DWARF files last: read through their binary first
 * (whose skeletons know their comp dir and, for clang, their decl files),
 * they are not read again by themselves.
 */
static int cmp_names(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	int sx = split_name(x), sy = split_name(y);

	return sx != sy ? sx - sy : strcmp(x, y);
}

/* ---- the inputs: files named and found, read by a pool ------------------ */

enum { ITEM_FILE, ITEM_DIR_END, ITEM_ERROR };

/* One input in the order they are read: a file (named, or found below a
 * directory named), the end of a directory, or an error met listing them. */
struct item {
	int kind;
	char *path;		/* the file, or the directory named */
	int in_dir;		/* found by a directory walk */
	struct ctx *sub;	/* what reading it gave, until merged */
	struct sf_err err;
	int rc;
};

struct items {
	struct ctx *c;
	struct item *v;
	size_t n, cap;
};

static void add_item(struct items *it, int kind, const char *path, int in_dir)
{
	SF_GROW(it->v, it->n, it->cap);
	it->v[it->n++] = (struct item){ .kind = kind, .path = sf_xstrdup(path), .in_dir = in_dir };
}

/* An error met listing the inputs: read after the inputs before it. */
static int add_error(struct items *it, const char *path, const char *fmt, const char *why)
{
	add_item(it, ITEM_ERROR, path, 0);
	sf_error(&it->v[it->n - 1].err, fmt, path, why);
	return -1;
}

/* The names in dir, sorted, into *names (*n of them); -1 when it cannot
 * be opened (errno says why). */
static int dir_names(const char *dir, char ***names, size_t *n)
{
	DIR *d = opendir(dir);
	size_t cap = 0;

	*names = NULL;
	*n = 0;
	if (!d)
		return -1;
	for (struct dirent *de; (de = readdir(d));) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		SF_GROW(*names, *n, cap);
		(*names)[(*n)++] = sf_xstrdup(de->d_name);
	}
	closedir(d);
	if (*n)
		qsort(*names, *n, sizeof(**names), cmp_names);
	return 0;
}

/* List every regular file below dir, in walk order; -1 after an error item. */
static int walk_dir(struct items *it, const char *dir, unsigned depth)
{
	size_t n;
	char **names;
	int rc = 0;

	if (dir_names(dir, &names, &n) < 0)
		return add_error(it, dir, "%s: cannot open directory: %s", strerror(errno));
	struct strbuf path = STRBUF_INIT;
	for (size_t i = 0; i < n && rc == 0; i++) {
		struct stat st;
		sb_reset(&path);
		sb_addf(&path, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", names[i]);
		if (lstat(path.buf, &st) < 0)
			continue;	/* vanished meanwhile */
		if (S_ISDIR(st.st_mode)) {
			if (depth < MAX_DIR_DEPTH)
				rc = walk_dir(it, path.buf, depth + 1);
			continue;
		}
		/* links to directories are not followed: no loops */
		if (S_ISLNK(st.st_mode) && (stat(path.buf, &st) < 0 || !S_ISREG(st.st_mode)))
			continue;
		if (S_ISREG(st.st_mode))
			add_item(it, ITEM_FILE, path.buf, 1);
	}
	sb_release(&path);
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return rc;
}

/* List the inputs: each path named, a directory as the files below it. */
static void list_inputs(struct items *it, char *const *paths, int npaths)
{
	for (int i = 0; i < npaths; i++) {
		struct stat st;
		const char *path = paths[i];
		if (!path || !*path) {
			add_error(it, "(empty path)", "%s: cannot open: %s", strerror(ENOENT));
			return;
		}
		if (stat(path, &st) < 0) {
			add_error(it, path, "%s: cannot open: %s", strerror(errno));
			return;
		}
		if (!S_ISDIR(st.st_mode)) {
			add_item(it, ITEM_FILE, path, 0);
			continue;
		}
		if (walk_dir(it, path, 0) < 0)
			return;
		add_item(it, ITEM_DIR_END, path, 0);
	}
}

/* The one line saying how many files below dir gave no types, and why. */
static void skipped_note(const struct ctx *c, const char *dir)
{
	struct strbuf line = STRBUF_INIT;

	if (!c->opts || !c->opts->note || c->opts->pass)
		return;		/* said once, not again by the extra passes */
	sb_addf(&line, "%s: %u file%s without debug info skipped (%s%s)", dir, c->skipped,
		c->skipped == 1 ? "" : "s", c->skipped == 1 ? "" : "first: ", c->first_skip.msg);
	c->opts->note(c->opts->note_arg, line.buf);
	sb_release(&line);
}

/* The one line saying how many files below dir miss some split DWARF. */
static void split_note(const struct ctx *c, const char *dir)
{
	struct strbuf line = STRBUF_INIT;

	if (!c->opts || !c->opts->note || c->opts->pass)
		return;
	sb_addf(&line, "%s: %u file%s read without some of their split DWARF (%s%s)", dir,
		c->split_partial, c->split_partial == 1 ? "" : "s",
		c->split_partial == 1 ? "" : "first: ", c->first_partial.msg);
	c->opts->note(c->opts->note_arg, line.buf);
	sb_release(&line);
}

/* The end of directory `dir`: its notes, or its error when it had nothing. */
static int dir_done(struct ctx *c, const char *dir)
{
	int rc = 0;

	if (c->split_partial)
		split_note(c, dir);
	if (!c->found && c->skipped)
		rc = sf_error(c->err, "%s: no ELF file with DWARF debug info below this directory "
			      "(%u without, e.g. %s)", dir, c->skipped, c->first_skip.msg);
	else if (!c->found)
		rc = sf_error(c->err, "%s: no ELF file with DWARF debug info below this directory",
			      dir);
	else if (c->skipped)
		skipped_note(c, dir);
	c->found = 0;
	c->skipped = 0;
	c->split_partial = 0;
	return rc;
}

static int run_item(void *arg, size_t i)
{
	struct items *it = arg;
	struct item *x = &it->v[i];

	if (x->kind == ITEM_ERROR)
		return -1;
	if (x->kind != ITEM_FILE)
		return 0;
	x->sub = sub_ctx(it->c, &x->err);
	x->rc = load_file(x->sub, x->path, x->in_dir, 1);
	return x->rc == FAILED || (!x->in_dir && x->rc != LOADED) ? -1 : 0;
}

/* Take what reading file x gave into c, or read it again in c's place when
 * what the files before it read changes what it reads. */
static int take_file(struct ctx *c, struct item *x)
{
	if (same_answers(c, x->sub)) {
		add_answers(c, x->sub);
		if (x->rc != LOADED)
			memcpy(c->err, &x->err, sizeof(*c->err));
		adopt(c, x->sub);
	} else {
		free_sub(x->sub);
		x->rc = load_file(c, x->path, x->in_dir, 1);
	}
	x->sub = NULL;
	return x->rc;
}

static int merge_item(void *arg, size_t i)
{
	struct items *it = arg;
	struct item *x = &it->v[i];
	struct ctx *c = it->c;

	if (x->kind == ITEM_ERROR) {
		memcpy(c->err, &x->err, sizeof(*c->err));
		return -1;
	}
	if (x->kind == ITEM_DIR_END)
		return dir_done(c, x->path);
	int r = take_file(c, x);
	if (!x->in_dir)
		return r == LOADED ? 0 : -1;
	if (r == LOADED)
		c->found++;
	else if (r == NO_DWARF && !c->skipped++)
		c->first_skip = *c->err;	/* the reason, for the summary */
	return r == FAILED ? -1 : 0;
}

static void drop_item(void *arg, size_t i)
{
	struct items *it = arg;

	free_sub(it->v[i].sub);
	it->v[i].sub = NULL;
}

/* Read every input into c, in order. */
static int load_inputs(struct ctx *c, char *const *paths, int npaths)
{
	struct items it = { .c = c };

	list_inputs(&it, paths, npaths);
	struct sf_pool p = { .n = it.n, .run = run_item, .merge = merge_item, .drop = drop_item,
			  .arg = &it, .threads = &c->sh->threads };
	int rc = sf_pool_run(&p);
	for (size_t i = 0; i < it.n; i++)
		free(it.v[i].path);
	free(it.v);
	return rc;
}

/* opts->dedup_note: what dedup did, in one line through opts->note. */
static void dedup_note(const struct ctx *c)
{
	struct sf_dedup_counts n = sf_pending_dedup_counts(c->pending);
	struct strbuf line = STRBUF_INIT;

	if (!c->opts || !c->opts->note || !c->opts->dedup_note || c->opts->pass)
		return;
	sb_addf(&line, "dedup: %zu of %zu types laid out already, skipped; %zu units laid out in full",
		n.skipped, n.types, n.full_units);
	c->opts->note(c->opts->note_arg, line.buf);
	sb_release(&line);
}

/*
 * DWARF without one struct, union or class (a program of ints and
 * functions): said, never answered with an empty report.
 */
static int no_types(char *const *paths, int npaths, struct sf_err *err)
{
	struct strbuf sb = STRBUF_INIT;

	for (int i = 0; i < npaths; i++)
		sb_addf(&sb, "%s%s", i ? ", " : "", paths[i]);
	sf_error(err, "%s: no struct, union or class in the debug info (nothing to report)",
		 sb.buf);
	sb_release(&sb);
	return -1;
}

int sf_dwarf_load_all(struct sf_typeset *ts, char *const *paths, int npaths,
		      const struct sf_load_opts *opts, struct sf_err *err)
{
	struct shared sh = { .asked = opts && opts->threads };
	struct ctx c = { .ts = ts, .opts = opts, .err = err, .sh = &sh };
	unsigned n = opts && opts->threads ? opts->threads : 0;

	if (!n) {
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);
		n = cpus > 0 ? (unsigned)cpus : 1;
	}
	sf_threads_init(&sh.threads, n < MAX_THREADS ? n : MAX_THREADS);
	c.pending = sf_pending_new();
	if (!(opts && opts->no_dedup))
		c.keys = sf_fpshared_new(NULL);
	elf_version(EV_CURRENT);	/* libelf refuses to work before this */
	int rc = load_inputs(&c, paths, npaths);
	if (rc == 0) {
		struct sf_typeset *extra = NULL;
		const char **missing = opts && opts->only && opts->pass < 4
				     ? sf_pending_missing(c.pending, ts) : NULL;
		/* Reading only some types skipped the definitions of bases
		 * they need: read just those (rare: C++ declared-only bases). */
		if (missing) {
			struct sf_load_opts more = *opts;
			more.only = missing;
			more.pass++;
			extra = sf_typeset_new();
			if (sf_dwarf_load_all(extra, paths, npaths, &more, err) < 0) {
				sf_typeset_free(extra);
				extra = NULL;
			}
			free(missing);
		}
		dedup_note(&c);
		sf_pending_finish(c.pending, ts, extra);
		sf_typeset_free(extra);
		if (!(opts && opts->only) && sf_typeset_count(ts) == 0)
			rc = no_types(paths, npaths, err);
	} else {
		sf_pending_free(c.pending);
	}
	sf_fpshared_free(c.keys);
	free(c.seen);
	return rc;
}

int sf_dwarf_load(struct sf_typeset *ts, const char *path,
		  const struct sf_load_opts *opts, struct sf_err *err)
{
	char *paths[1] = { (char *)path };

	return sf_dwarf_load_all(ts, paths, 1, opts, err);
}
