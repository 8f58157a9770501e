/*
 * load.c - sf_input_load(): from a path to types in a typeset.
 *
 * A path is a file or a directory.  A file is read into memory once (a
 * small one copied, a large one mapped privately: open_input) and is
 * either an ELF image, or a static archive whose members are ELF images
 * (byte ranges of that memory, never copied), or a thin archive
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
 * ELF image (cut into runs that shrink towards the end: cut_runs) are
 * items of a pool (pool.h): the next item goes to whichever thread is
 * free, each item is read into a typeset of its own, and the typesets are
 * merged in item order as soon as every item before them is merged.  So
 * the types come out in input and unit order whatever N is, and memory
 * holds what a bounded window of items read ahead.  An item whose
 * predecessors are all merged when it starts (a lone input, the first
 * member) is read straight into the typeset merged into.  While a large
 * image's unit headers are scanned (serially: the others wait for its
 * runs), a thread of its own faults in half of its .debug_info
 * (prefault_start).  Pools nest (an
 * archive in a directory, a large image in an archive) on one budget of
 * N threads, and a thread with nothing to do joins the newest pool that
 * has items left.  A file read on its own cannot see which files the
 * inputs before it read (a debug file reached twice, hard links): it
 * notes what it asked, and the merge redoes it in place when an answer
 * would differ.
 *
 * The loader's files (what they share is in load_int.h):
 *
 *   load.c     a file to an image, archive, raw BTF or one of our own JSON
 *              documents (jsondoc.h); one image: its runs
 *              of units, its .dwo/.dwp and alt files, its debug file, BTF
 *   archive.c  the members of static and thin archives, read by a pool
 *   inputs.c   the inputs: files named, directories walked, the files
 *              already read (the seen set), the pool over them, the notes,
 *              and sf_input_load_all()
 */
#include "load_int.h"

#include <ar.h>
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "btf/btf.h"
#include "debugfile.h"
#include "dwarf/die.h"
#include "dwarf/strpack.h"
#include "dwz.h"
#include "elfobj.h"
#include "jsondoc.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "pool.h"
#include "dwarf/reader.h"
#include "split.h"
#include "zstream.h"

/* a run of units has at least this much .debug_info (unless --jobs) */
#define RUN_MIN_BYTES (256u << 10)
/* runs of one image: each takes 1 / (GUIDE * N) of the bytes left, at
 * least 1 / (MIN_SHARE * N) of them all (N threads).  The last runs are
 * that small: a thread that finds none left idles while the others end
 * theirs.  At 24 a vmlinux's 17 runs ended with one thread idle for up
 * to a run of 1/48 of the bytes (20 ms); at 96 its 24 runs leave 2-12 ms,
 * for 0.3 % more instructions (each run's reader starts cold) */
#define GUIDE 3
#define MIN_SHARE 96

/* ---- files read apart ---------------------------------------------------- */

/* A ctx of its own for one input read on any thread: its types, held-back
 * types and files seen apart from c's, merged into c in input order. */
struct ctx *ld_sub_ctx(const struct ctx *c, struct sf_err *err)
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

void ld_free_sub(struct ctx *s)
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

struct ctx *ld_read_start(struct ld_read *r, struct ctx *c, int in_line)
{
	r->in_place = in_line;
	if (!in_line)
		r->sub = ld_sub_ctx(c, &r->err);
	return in_line ? c : r->sub;
}

void ld_read_drop(struct ld_read *r)
{
	assert(!r->in_place);	/* in line: always merged */
	ld_free_sub(r->sub);
	r->sub = NULL;
}

/* s's types and held-back types join c's, after them; s is freed. */
void ld_adopt(struct ctx *c, struct ctx *s)
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
	ld_free_sub(s);
}

/* ---- one ELF image: runs of units --------------------------------------- */

/*
 * Cut units [first, last) into runs, run i being [cut[i], cut[i+1]);
 * returns how many.  Guided: each run takes 1 / (GUIDE * N) of the bytes
 * left, but at least 1 / (MIN_SHARE * N) of them all and RUN_MIN_BYTES,
 * so runs shrink towards the end and a thread that finds none left waits
 * for one small run at most (eight equal runs left a thread idle for up
 * to an eighth of a vmlinux).  cut has room for last - first + 1 bounds.
 */
static size_t cut_runs(const struct ctx *c, const struct sf_dwfile *f, size_t first,
		       size_t last, size_t *cut)
{
	uint64_t total = 0, left, acc = 0;
	unsigned t = c->sh->threads.n;
	size_t n = 0;

	for (size_t i = first; i < last; i++)
		total += f->units[i].end - f->units[i].start;
	uint64_t least = total / ((uint64_t)MIN_SHARE * t);
	/* a small image: one run, or a few when --jobs asks to split even it
	 * (so that tests split small objects; dozens of runs cost more) */
	if (least < RUN_MIN_BYTES)
		least = c->sh->asked ? total / (4u * t) : RUN_MIN_BYTES;
	cut[n++] = first;
	if (t <= 1 || (!c->sh->asked && total < 2 * least)) {
		cut[n] = last;
		return n;
	}
	left = total;
	for (size_t i = first; i + 1 < last; i++) {
		uint64_t want = left / ((uint64_t)GUIDE * t);
		acc += f->units[i].end - f->units[i].start;
		if (acc >= (want > least ? want : least) && left - acc >= least / 2) {
			cut[n++] = i + 1;
			left -= acc;
			acc = 0;
		}
	}
	cut[n] = last;
	return n;
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
	/* and at those of the runs before theirs as they are read: run i
	 * adds its units' to live[i] (so a type the first runs lay out is
	 * not laid out again by the runs read beside them) */
	struct sf_fpshared **live;
	/* a .debug_info inflated piecewise (read_stream): run i reads the
	 * units starting in [bound[i], bound[i + 1]), found once inflated,
	 * through snap[i] (the table as it was then), its first unit
	 * first[i]; once it is merged, the bytes below upto[i] go back.
	 * mu serialises the inflating and the table's growth */
	struct sf_zstream *z;
	struct sf_dwfile *grow;
	uint64_t *bound, *upto;
	size_t *first;
	struct sf_dwfile *snap;
	pthread_mutex_t mu;
	atomic_int *done;		/* done[i]: run i read (await_wait) */
	atomic_size_t unread;		/* runs not read yet: at 0, the
					 * strings go (sf_elf_strings_read) */
	struct await *aw;		/* run i's (await_wait) */
};

/* ---- one image's .debug_info inflated piecewise ---------------------------- */

/* what is inflated at a time, at least, while units are looked for: the
 * bytes past the unit a run needs wait, held, for the next run (1 MiB
 * put librados' peak 2 MB higher than 512 KiB, at the same wall time) */
#define STREAM_STEP ((uint64_t)1 << 19)

/*
 * Inflate until every unit that starts below `to` is in f's table, whole
 * (every unit when to is the section's size).  -1 with err set.
 */
static int stream_units(struct sf_zstream *z, struct sf_dwfile *f, uint64_t to,
			struct sf_err *err)
{
	uint64_t size = f->sec[SF_SEC_INFO].size;

	if (to > size)
		to = size;
	while (f->scanned < to) {
		uint64_t have = sf_zstream_have(z);
		uint64_t want = have + STREAM_STEP > to ? have + STREAM_STEP : to;
		if (sf_zstream_fill(z, want) < 0)
			return sf_error_at(err, f->label, 0, 0,
					"corrupt compressed section .debug_info");
		if (sf_dwfile_grow(f, sf_zstream_have(z), err) < 0)
			return -1;
	}
	/* the end: the stream's own end and checksum checked */
	if (to == size && sf_zstream_fill(z, size) < 0)
		return sf_error_at(err, f->label, 0, 0, "corrupt compressed section .debug_info");
	return 0;
}

/* The first unit of f starting at or past off (f->nunits: none). */
static size_t unit_from(const struct sf_dwfile *f, uint64_t off)
{
	size_t lo = 0, hi = f->nunits;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (f->units[mid].start < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Run i's units inflated and found: its copy of the table, first[i]
 * and upto[i] set.  -1 with err[i] set. */
static int stream_run(struct runs *u, size_t i)
{
	pthread_mutex_lock(&u->mu);
	int rc = stream_units(u->z, u->grow, u->bound[i + 1], &u->err[i]);
	if (rc == 0) {
		struct sf_dwfile *f = u->grow;
		u->snap[i] = *f;
		u->first[i] = unit_from(f, u->bound[i]);
		size_t next = unit_from(f, u->bound[i + 1]);
		u->upto[i] = next < f->nunits ? f->units[next].start : f->scanned;
	}
	pthread_mutex_unlock(&u->mu);
	return rc;
}

/* what run i's reader asks before looking its keys up, and tells when a
 * unit is read (reader.h) */
struct await {
	struct runs *u;
	size_t i;
	uint64_t from;		/* run i's bytes from here on are not given back */
};

/*
 * Run i is read: the bytes of its units go back now, not once it is
 * merged - it waits for the runs before it, and its units are whole in
 * themselves (a stream is only read so when no unit reaches into another:
 * sf_dwfile_init_stream).  librados' runs after its 6.5 MB unit held
 * 2-5 MB so while it was read.  Those its units gave back as they were
 * read (unit_read_drop), below u->aw[i].from, are not given again.
 */
static void stream_drop(struct runs *u, size_t i)
{
	assert(u->first[i] < u->snap[i].nunits);	/* it has units of its own */
	pthread_mutex_lock(&u->mu);
	sf_zstream_drop(u->z, u->aw[i].from, u->upto[i]);
	pthread_mutex_unlock(&u->mu);
}

/* Run i is merged: the bytes of its units go back. */
static void stream_release(struct runs *u, size_t i)
{
	pthread_mutex_lock(&u->mu);
	sf_zstream_release(u->z, u->upto[i]);
	pthread_mutex_unlock(&u->mu);
}

/* how far past its own bytes a run's thread inflates while it waits: the
 * bytes wait there for their run, held (8 MiB put librados' peak 2.5 MB
 * higher, for no wall time measured) */
#define AHEAD_MAX ((uint64_t)2 << 20)

/* Is a run before i still in its first unit (read, no keys yet)? */
static int before_keyless(struct runs *u, size_t i)
{
	for (size_t j = i; j-- > 0;)
		if (!atomic_load(&u->done[j]) && !sf_fpshared_count(u->live[j]))
			return 1;
	return 0;
}

static int await_keyless(void *arg)
{
	struct await *a = arg;

	return a->i && a->u->live && before_keyless(a->u, a->i);
}

static double ms_since(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t->tv_sec) * 1e3 + (double)(now.tv_nsec - t->tv_nsec) / 1e6;
}

/* about what laying out one C++ type takes (librados: 5-9 us) */
#define WAIT_MS_PER_TYPE 0.010

/*
 * Run i has its first unit's types listed and keyed, `unknown` of them
 * laid out nowhere yet, and a run before it is still in its first unit:
 * run i would lay out again every type the two share (a run's keys reach
 * the runs beside it unit by unit, rd_record_tops: librados' second run,
 * one unit read beside the first's one unit, laid out 4,015 types of its
 * 5,625 again, 5 MB of its 7.4 MB kept only to be dropped at the merge,
 * and the peak memory 58 -> 72 MB).  So its thread inflates the stream
 * ahead meanwhile - bytes some run needs anyway - a step at a time, up to
 * AHEAD_MAX past run i's bytes, then waits, until that run has keys or is
 * read.  It waits no longer than laying out the unknown types would take:
 * past that, laying them out costs the thread less than the wait.  (The
 * cap was twice run i's time so far, inflating and keying included, which
 * a small run behind librados' 6.9 MB unit spent waiting, 3-12 ms, for
 * 1-224 types; and the second run, 5,647 types behind the first's, gave
 * up on a busy machine: 45 -> 56 MB.)
 */
static void await_wait(void *arg, size_t unknown)
{
	struct await *a = arg;
	struct runs *u = a->u;
	size_t i = a->i;
	uint64_t size = u->grow->sec[SF_SEC_INFO].size;
	uint64_t to = u->bound[i + 1] + AHEAD_MAX;
	double cap = (double)unknown * WAIT_MS_PER_TYPE;
	struct timespec begun;

	clock_gettime(CLOCK_MONOTONIC, &begun);
	if (to > size)
		to = size;
	while (before_keyless(u, i) && ms_since(&begun) < cap) {
		struct sf_err err = SF_ERR_INIT;
		pthread_mutex_lock(&u->mu);
		uint64_t have = sf_zstream_have(u->z);
		/* corrupt: said by the run whose bytes those are */
		int more = have < to && stream_units(u->z, u->grow, have + STREAM_STEP, &err) == 0;
		pthread_mutex_unlock(&u->mu);
		if (!more)
			nanosleep(&(struct timespec){ 0, 100000 }, NULL);
	}
}

/* a run gives back the bytes of the units it has read once they are
 * e->stream_min / 16 (512 KiB by default; so that STRUCTFIT_STREAM_MIN=1
 * takes small tests there too), rather than at its end */
static uint64_t unit_drop_min(const struct sf_elf *e)
{
	return e->stream_min / 16;
}

/*
 * Unit k of run a->i is read: its bytes, and those of the units read
 * before it in the run, go back now, not when the run is read - a run's
 * last unit is often far bigger than the ones before it (librados' run of
 * its 6.5 MB unit starts with a unit of 0.7 MB, held for the 35 ms the
 * big one takes: peak memory 35.8 -> 35.0 MB, median of 41 runs).
 * Never waited for: when the stream's lock is held (the other
 * thread inflating), the bytes wait for the next unit or the run's end
 * (waiting for it per unit put libceph-common's wall time up by 8 %).
 */
static void unit_read_drop(void *arg, size_t k)
{
	struct await *a = arg;
	struct runs *u = a->u;
	const struct sf_unit *unit = &u->snap[a->i].units[k];

	if (unit->end - a->from < unit_drop_min(u->e) || pthread_mutex_trylock(&u->mu))
		return;
	sf_zstream_drop(u->z, a->from, unit->end);
	pthread_mutex_unlock(&u->mu);
	a->from = unit->end;
}

static int run_units(void *arg, size_t i, int in_line)
{
	struct runs *u = arg;
	const char *const *only = u->c->opts ? u->c->opts->only : NULL;
	const struct sf_dwfile *f = u->f;
	size_t first = u->cut ? u->cut[i] : 0, last = u->cut ? u->cut[i + 1] : 0;

	(void)in_line;	/* runs are merged by copy: the merge drops repeats */
	u->err[i].msg[0] = '\0';
	if (u->z) {
		u->aw[i] = (struct await){ .u = u, .i = i };
		if (stream_run(u, i) < 0)
			return u->rc[i] = -1;
		f = &u->snap[i];
		first = u->first[i];
		last = unit_from(f, u->bound[i + 1]);
		if (first < last)
			u->aw[i].from = f->units[first].start;
	}
	u->r[i] = sf_reader_new(f, u->e, sf_typeset_new(), u->apart ? NULL : u->c->ts,
				u->apart ? NULL : u->c->pending, u->label, only,
				!(u->c->opts && u->c->opts->no_dedup));
	if (u->c->opts)
		sf_reader_filter(u->r[i], u->c->opts->unit_langs, u->c->opts->each_def,
				 u->c->opts->each_def_arg);
	if (u->keys)
		sf_reader_share_keys(u->r[i], u->keys);
	if (u->live)
		sf_reader_share_live(u->r[i], u->live[i], u->live, i);
	if (u->z && u->live)
		sf_reader_await_keys(u->r[i], &(struct sf_reader_await){ await_keyless, await_wait,
									 &u->aw[i] });
	if (u->z)
		sf_reader_on_unit_read(u->r[i], unit_read_drop, &u->aw[i]);
	u->rc[i] = sf_reader_units(u->r[i], first, last, &u->err[i]);
	sf_reader_done(u->r[i]);
	if (u->z && first < last)	/* a light run has no bytes of its own */
		stream_drop(u, i);
	if (u->z && atomic_fetch_sub(&u->unread, 1) == 1)
		sf_elf_strings_read(u->e);
	if (u->done)
		atomic_store(&u->done[i], 1);
	/* a run whose bytes all lie in an earlier run's unit holds nothing */
	return u->rc[i] == 0 && first == last ? SF_POOL_LIGHT : u->rc[i];
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
	if (u->z && rc >= 0)
		stream_release(u, i);
	return rc < 0 ? -1 : 0;
}

static void drop_units(void *arg, size_t i)
{
	struct runs *u = arg;

	sf_reader_free(u->r[i]);
	u->r[i] = NULL;
}

/* Read the n runs of u on the pool, then free what they needed. */
static int run_pool(struct ctx *c, struct runs *u, size_t n, size_t window)
{
	struct sf_pool p = { .n = n, .run = run_units, .merge = merge_units, .drop = drop_units,
			  .arg = u, .threads = &c->sh->threads, .window_per_thread = window };

	u->apart = n > 1;
	u->r = sf_xcalloc(n, sizeof(*u->r));
	u->err = sf_xcalloc(n, sizeof(*u->err));
	u->rc = sf_xcalloc(n, sizeof(*u->rc));
	if (c->keys)
		u->keys = sf_fpshared_new(c->keys);
	if (u->keys && n > 1) {
		u->live = sf_xcalloc(n, sizeof(*u->live));
		for (size_t i = 0; i < n; i++)
			u->live[i] = sf_fpshared_new(NULL);
	}
	int rc = sf_pool_run(&p);
	for (size_t i = 0; u->live && i < n; i++)
		sf_fpshared_free(u->live[i]);
	free(u->live);
	sf_fpshared_free(u->keys);
	free(u->cut);
	free(u->r);
	free(u->err);
	free(u->rc);
	return rc;
}

static int read_range(struct ctx *c, struct sf_elf *e, const struct sf_dwfile *f,
		      const char *label, size_t first, size_t last)
{
	if (last <= first)
		return 0;
	struct runs u = { .c = c, .e = e, .f = f, .label = label };

	u.cut = sf_xcalloc(last - first + 1, sizeof(*u.cut));
	return run_pool(c, &u, cut_runs(c, f, first, last, u.cut), 0);
}

/*
 * A run of a .debug_info read piecewise has at most this many of its
 * bytes (they are held until it is merged), and the pool reads at most
 * STREAM_WINDOW runs per thread ahead of the merge.
 */
#define STREAM_RUN_MAX ((uint64_t)8 << 20)
#define STREAM_WINDOW 2

/*
 * The first runs are short: the stream is inflated in order, so the
 * second thread's first run starts only once the first's bytes are all
 * inflated, and the first only once its own are (librados: 16 MB, a
 * tenth of show's wall time, on one thread while the other waited).
 * Run k < STREAM_RAMP has at most STREAM_RAMP_FIRST << k bytes (a unit
 * starting in a run is its whole, however long).
 */
#define STREAM_RAMP 3
#define STREAM_RAMP_FIRST ((uint64_t)1 << 20)

/* Cut a section of `total` bytes into runs by bytes, as cut_runs cuts
 * units, each at most STREAM_RUN_MAX, even on one thread: bound[0..n],
 * returns n. */
static size_t cut_bytes(const struct ctx *c, uint64_t total, uint64_t **bound)
{
	unsigned t = c->sh->threads.n;
	uint64_t least = total / ((uint64_t)MIN_SHARE * t), left = total;
	size_t n = 0, cap = 0;

	if (least < RUN_MIN_BYTES)
		least = RUN_MIN_BYTES;
	*bound = NULL;
	SF_GROW(*bound, n, cap);
	(*bound)[n++] = 0;
	while (left) {
		uint64_t want = left / ((uint64_t)GUIDE * t);
		if (want < least)
			want = least;
		if (want > STREAM_RUN_MAX)
			want = STREAM_RUN_MAX;
		if (t > 1 && n - 1 < STREAM_RAMP && want > STREAM_RAMP_FIRST << (n - 1))
			want = STREAM_RAMP_FIRST << (n - 1);
		if (want >= left || left - want < least / 2)
			want = left;
		left -= want;
		SF_GROW(*bound, n, cap);
		(*bound)[n] = (*bound)[n - 1] + want;
		n++;
	}
	return n - 1;
}

/* Read every unit of f, whose .debug_info z inflates as the runs need it. */
static int read_stream(struct ctx *c, struct sf_elf *e, struct sf_dwfile *f,
		       struct sf_zstream *z, const char *label)
{
	struct runs u = { .c = c, .e = e, .f = f, .label = label, .z = z, .grow = f };
	size_t n = cut_bytes(c, f->sec[SF_SEC_INFO].size, &u.bound);

	u.upto = sf_xcalloc(n, sizeof(*u.upto));
	u.first = sf_xcalloc(n, sizeof(*u.first));
	u.snap = sf_xcalloc(n, sizeof(*u.snap));
	pthread_mutex_init(&u.mu, NULL);
	u.done = sf_xcalloc(n, sizeof(*u.done));
	u.aw = sf_xcalloc(n, sizeof(*u.aw));
	atomic_init(&u.unread, n);
	int rc = run_pool(c, &u, n, STREAM_WINDOW);
	free(u.aw);
	free(u.done);
	pthread_mutex_destroy(&u.mu);
	free(u.bound);
	free(u.upto);
	free(u.first);
	free(u.snap);
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
			const struct sf_elf_sec *es = &e->sec[e->dw[k]];
			sec[s].data = es->data;
			sec[s].size = es->pack ? es->pack->size : es->size;
			sec[s].pack = es->pack;
		}
	}
}

/* opts->dedup_note: what packing e's .debug_str kept (dwarf/strpack.h),
 * in one line through opts->note, when it was packed. */
static void strings_note(const struct ctx *c, const struct sf_elf *e, const char *label)
{
	const struct sf_strpack *p = sf_elf_str_pack(e);
	struct strbuf line = STRBUF_INIT;

	if (!c->opts || !c->opts->note || !c->opts->dedup_note || !p)
		return;
	sb_addf(&line, "strings: %s: .debug_str kept %llu of %llu bytes (%u mangled names "
		"cut); %llu lookups read it inflated again", label, (unsigned long long)p->kept,
		(unsigned long long)p->size, p->ndrops,
		(unsigned long long)sf_strpack_misses(p));
	c->opts->note(c->opts->note_arg, line.buf);
	sb_release(&line);
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
		sf_error_at(c->err, label, 0, 0, "no DWARF debug info (empty .debug_info.dwo)");
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

static int load_units(struct ctx *c, struct sf_elf *e, struct sf_dwfile *f,
		      const char *label, const char *where, int in_dir)
{
	struct sf_skeleton *sk;
	struct sf_split_set set;
	size_t n;
	int rc = LOADED;

	/* no skeleton units there (sf_dwfile_init_stream) */
	if (f->streamed)
		return read_stream(c, e, f, sf_elf_info_stream(e), label) < 0 ? FAILED : LOADED;
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
			ld_seen_before(c, &st);
	}
	if (rc == LOADED && read_in_order(c, e, f, label, &set, sk, n) < 0)
		rc = FAILED;
	if (rc == LOADED && set.nmissing) {
		sf_error_at(c->err, label, 0, 0,
				"split DWARF not found for %zu of %zu units: %s%s",
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
		sf_error_at(c->err, label, 0, 0,
				"its dwz alt file %s has the other byte order", a->path);
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
	/* BTF has no units: its types are of no language (unit_langs' bit 0);
	 * left out, they are read still, into a set dropped: a bad file is one */
	uint64_t langs = c->opts ? c->opts->unit_langs : 0;
	struct sf_typeset *ts = langs && !(langs & 1) ? sf_typeset_new() : c->ts;
	int rc = sf_btf_load(ts, &in, c->opts ? c->opts->only : NULL, c->err);

	if (ts != c->ts)
		sf_typeset_free(ts);
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
	int rc = ld_load_file(c, dbg, in_dir, 0);
	if (rc == ALREADY)
		rc = LOADED;	/* its types were read from it directly */
	else if (rc == NO_DWARF || rc == NOT_ELF)
		sf_error_at(c->err, path, 0, 0,
				"no DWARF debug info, and its debug file %s has none either", dbg);
	free(dbg);
	return rc;
}

/*
 * The unit table is built serially before any unit is read, and what
 * it costs is the first touch of each unit header's page: a page fault
 * that maps the pages around it too (fault-around: 64 KiB by default),
 * a vmlinux's 2,172 headers mapping most of its 156 MiB .debug_info,
 * while the other threads wait for runs.  With threads to spare, one of
 * them faults in the back half of a large .debug_info meanwhile (the
 * units' readers would fault those pages in anyway), from its end
 * backwards, so that the scan finds it mapped, and stops when the scan
 * ends.
 */
#define PREFAULT_MIN (32u << 20)
#define PREFAULT_STEP (64u << 10)

struct prefault {
	const unsigned char *lo;	/* [lo, lo + size) touched from its end */
	size_t size;
	int stop;			/* the scan ended */
	pthread_t t;
};

static void *prefault_thread(void *arg)
{
	struct prefault *pf = arg;

	for (size_t off = pf->size; off > 0 && !__atomic_load_n(&pf->stop, __ATOMIC_RELAXED);
	     off = off > PREFAULT_STEP ? off - PREFAULT_STEP : 0)
		(void)*(volatile const unsigned char *)(pf->lo + off - 1);
	return NULL;
}

/* Start faulting in the back half of info on a thread of its own: 1
 * when one runs (stop it with prefault_stop), else 0. */
static int prefault_start(const struct ctx *c, struct prefault *pf, const struct sf_dwsec *info)
{
	if (c->sh->threads.n < 2 || !info->data || info->size < PREFAULT_MIN)
		return 0;
	pf->lo = info->data + info->size / 2;
	pf->size = info->size - info->size / 2;
	pf->stop = 0;
	return pthread_create(&pf->t, NULL, prefault_thread, pf) == 0;
}

static void prefault_stop(struct prefault *pf)
{
	__atomic_store_n(&pf->stop, 1, __ATOMIC_RELAXED);
	pthread_join(pf->t, NULL);
}

/*
 * The unit table of e's DWARF: when its .debug_info is to be inflated
 * piecewise and can be read so, a table that grows as the units come
 * (its first unit there: an empty section says so at once), else every
 * unit at once.  -1 with c->err set.
 */
static int open_units(struct ctx *c, struct sf_elf *e, struct sf_dwfile *f, const char *label)
{
	struct sf_dwsec sec[SF_SEC_N];
	struct sf_zstream *z = sf_elf_info_stream(e);

	dwarf_sections(e, sec);
	if (z && sf_dwfile_init_stream(f, label, e->msb, sec)) {
		if (stream_units(z, f, 1, c->err) == 0)
			return 0;
		sf_dwfile_release(f);
		return -1;
	}
	if (z && sf_elf_unstream(e, c->err) < 0)
		return -1;
	struct prefault pf;
	int prefaulting = prefault_start(c, &pf, &sec[SF_SEC_INFO]);
	int inited = sf_dwfile_init(f, label, e->msb, sec, c->err);
	if (prefaulting)
		prefault_stop(&pf);
	return inited;
}

/*
 * Read one image.  `file` is its path when the image is a whole file whose
 * debug file may be looked up (NULL for archive members and debug files).
 */
int ld_load_image(struct ctx *c, unsigned char *image, size_t size,
		  const char *label, const char *file, int in_dir, int mapped)
{
	struct sf_elf e;
	struct sf_dwfile f;

	if (!sf_elf_is_elf(image, size))
		return NOT_ELF;
	if (sf_elf_parse(&e, image, size, label, c->err) < 0)
		return FAILED;
	e.file_backed = mapped != 0;
	e.stream_min = c->opts ? (c->opts->stream_min ? c->opts->stream_min : SF_STREAM_MIN) : 0;
	if (sf_split_is_dwo(&e)) {
		int r = load_dwo_image(c, &e, label);
		sf_elf_release(&e);
		return r;
	}
	if (c->opts && c->opts->btf_first) {
		/* its .BTF, when it has one, before its DWARF (pahole -F btf) */
		int r = load_elf_btf(c, &e, label);
		if (r != NO_DWARF) {
			sf_elf_release(&e);
			return r;
		}
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
	if (open_units(c, &e, &f, label) < 0) {
		sf_elf_release(&e);
		return FAILED;
	}
	struct sf_dwz alt;
	struct sf_dwfile altf;
	int has_alt = 0;
	if (!f.nunits) {
		sf_error_at(c->err, label, 0, 0, "no DWARF debug info (empty .debug_info)");
		rc = NO_DWARF;
	} else if (in_dir && sf_dwfile_all_partial(&f)) {
		/* read alone, its units would lack the language of the units
		 * importing them (C++ types spelled as C: differing twins) */
		sf_error_at(c->err, label, 0, 0,
				"a dwz alt file (partial units only), read through "
			 "the files that import it");
		rc = NO_DWARF;
	} else if ((has_alt = open_alt(c, &e, label, &f, &alt, &altf)) < 0) {
		rc = FAILED;
	} else {
		rc = load_units(c, &e, &f, label, file ? file : label, in_dir);
		strings_note(c, &e, label);
	}
	if (has_alt > 0) {
		sf_dwfile_release(&altf);
		sf_dwz_release(&alt);
	}
	sf_dwfile_release(&f);
	sf_elf_release(&e);
	return rc;
}

/*
 * A file's bytes: small files are read into memory of ours, larger ones
 * mapped.  Mapping and unmapping take the address space's lock for
 * writing (stalling the other threads' page faults), and an unmapping
 * interrupts every core the process runs on to flush its TLB: a
 * directory of 274 small debug files spent 3 % of its run there.  Read,
 * a small file costs one copy from the page cache into a heap block that
 * the next file reuses.  A large one is mapped: only what is read of it
 * is paged in (a stripped binary's text never is).
 */
#define READ_MAX (1u << 20)

struct input {
	unsigned char *img;
	size_t size;
	int mapped;
};

/* Read the first `size` bytes of fd into buf; the count read (fewer when
 * the file shrank meanwhile), or -1 with errno. */
static ssize_t read_all(int fd, unsigned char *buf, size_t size)
{
	size_t n = 0;

	while (n < size) {
		ssize_t r = pread(fd, buf + n, size - n, (off_t)n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		n += (size_t)r;
	}
	return (ssize_t)n;
}

/* The bytes of fd, a regular file of `size` (> 0) bytes.  -1 with err set. */
static int open_input(struct input *in, int fd, size_t size, const char *path,
		      struct sf_err *err)
{
	in->mapped = size > READ_MAX;
	if (!in->mapped) {
		in->img = sf_xmalloc(size);
		ssize_t got = read_all(fd, in->img, size);
		if (got <= 0) {
			free(in->img);
			if (got == 0)
				return sf_error_at(err, path, 0, 0, "not an ELF file (empty)");
			return sf_error_at(err, path, 0, 0, "cannot read: %s", strerror(errno));
		}
		in->size = (size_t)got;
		return 0;
	}
	/* private and writable, as libelf's own ELF_C_READ_MMAP_PRIVATE maps:
	 * libelf updates a section header in place when it inflates that
	 * section; those pages become copies, the file is never written */
	unsigned char magic[4];
	/* raw BTF is only read: /sys/kernel/btf/ maps read-only */
	int ro = pread(fd, magic, sizeof(magic), 0) == (ssize_t)sizeof(magic) &&
		 sf_btf_is_raw(magic, sizeof(magic));
	void *map = mmap(NULL, size, ro ? PROT_READ : PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED)
		return sf_error_at(err, path, 0, 0, "cannot map: %s", strerror(errno));
	in->img = map;
	in->size = size;
	return 0;
}

/*
 * Unmapping a large file takes as long as it has pages mapped (a
 * vmlinux's: 5-7 ms), and nothing reads them any more: with threads to
 * spare, a detached thread unmaps it while this one goes on to the
 * report (the rendering's threads take the cores; the unmapping fits
 * between them instead of before them).  The process may end first:
 * exit unmaps what is left.
 */
#define UNMAP_APART_MIN (64u << 20)

static void *unmap_thread(void *arg)
{
	struct input *in = arg;

	munmap(in->img, in->size);
	free(in);
	return NULL;
}

/* Unmap in on a thread of its own: 0, or -1 when none can be started. */
static int unmap_apart(const struct input *in)
{
	pthread_attr_t a;
	pthread_t t;
	struct input *copy = sf_xmalloc(sizeof(*copy));
	int ok;

	*copy = *in;
	if (pthread_attr_init(&a) != 0) {
		free(copy);
		return -1;
	}
	ok = pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED) == 0 &&
	     pthread_create(&t, &a, unmap_thread, copy) == 0;
	pthread_attr_destroy(&a);
	if (!ok)
		free(copy);
	return ok ? 0 : -1;
}

static void close_input(const struct ctx *c, struct input *in)
{
	if (!in->mapped)
		free(in->img);
	else if (c->sh->threads.n < 2 || in->size < UNMAP_APART_MIN || unmap_apart(in) < 0)
		munmap(in->img, in->size);
}

/*
 * Read the file at path.  in_dir: reached by a directory walk or a thin
 * archive (not named by the user: read once, non-regular files skipped).
 * lookup: a file without DWARF may be read from its debug file.
 */
int ld_load_file(struct ctx *c, const char *path, int in_dir, int lookup)
{
	struct stat st;
	/* O_NONBLOCK: a FIFO with no writer would hang open(2); anything but
	 * a regular file is refused below, and mmap ignores the flag. */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &st) < 0) {
		sf_error_at(c->err, path, 0, 0, "cannot open: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return FAILED;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		if (in_dir)
			return NOT_ELF;
		sf_error_at(c->err, path, 0, 0, "not a regular file");
		return FAILED;
	}
	if (in_dir && ld_seen_before(c, &st)) {
		close(fd);
		return ALREADY;
	}
	if (st.st_size == 0) {
		close(fd);
		sf_error_at(c->err, path, 0, 0, "not an ELF file (empty)");
		return NOT_ELF;
	}
	if ((uint64_t)st.st_size > SIZE_MAX) {
		close(fd);
		sf_error_at(c->err, path, 0, 0, "too large to map");
		return FAILED;
	}
	size_t size = (size_t)st.st_size;
	struct input in = { NULL, 0, 0 };
	int r = open_input(&in, fd, size, path, c->err);
	close(fd);
	if (r < 0)
		return FAILED;
	unsigned char *img = in.img;
	size = in.size;
	int rc;
	if (size >= SARMAG && !memcmp(img, ARMAG, SARMAG))
		rc = ld_load_archive(c, path, img, size, in.mapped);
	else if (size >= SARMAG && !memcmp(img, "!<thin>\n", SARMAG))
		rc = ld_load_thin_archive(c, path, img, size);
	else if (sf_btf_is_raw(img, size))
		rc = load_btf(c, img, size, path, path, NULL);
	else if (!in_dir && sf_jsondoc_is(img, size))
		/* named, not met in a walk: a directory's other JSON is no input */
		rc = sf_jsondoc_load(c->ts, img, size, path, c->opts && c->opts->summaries,
				     c->err) < 0 ? FAILED : LOADED;
	else
		rc = ld_load_image(c, img, size, path, lookup ? path : NULL, in_dir, in.mapped);
	if (rc == NOT_ELF)
		sf_error_at(c->err, path, 0, 0, "not an ELF file");
	close_input(c, &in);
	return rc;
}
