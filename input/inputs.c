/*
 * inputs.c - the inputs of one load: the files named, the directories
 * walked, and sf_input_load_all() (see load.c for the loader as a whole,
 * load_int.h for what its files share).
 *
 * The files already read are an open-addressing set of (device, inode)
 * in the ctx (a file reached twice, by hard or symbolic links, or as a
 * debug file and directly, is read once).  The inputs are listed first,
 * in order, as struct items: a file, the end of a directory (its notes),
 * or an error met while listing (a directory is walked by lib/walk.h, in
 * name order with split DWARF files last); a pool (pool.h) reads them,
 * each into a ctx of its own, and merges them in order.  A file read apart logs the
 * seen-set questions it asked; the merge checks them against what the
 * inputs before it read, and reads the file again in place when an
 * answer would differ.
 */
#include "load_int.h"

#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elfobj.h"
#include "jsondoc.h"
#include "lib/hash.h"
#include "lib/strbuf.h"
#include "lib/walk.h"
#include "lib/xalloc.h"
#include "pool.h"
#include "dwarf/reader.h"

#define MAX_DIR_DEPTH 128

/* ---- the files already read ---------------------------------------------- */

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
int ld_seen_before(struct ctx *c, const struct stat *st)
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

/* ---- directories ----------------------------------------------------------- */

/* Is this the name of a split DWARF file (.dwo or .dwp)? */
static int split_name(const char *name)
{
	size_t n = strlen(name);

	return n > 4 && (!strcmp(name + n - 4, ".dwo") || !strcmp(name + n - 4, ".dwp"));
}

/* ---- the inputs: files named and found, read by a pool ------------------ */

enum { ITEM_FILE, ITEM_DIR_END, ITEM_ERROR };

/* One input in the order they are read: a file (named, or found below a
 * directory named), the end of a directory, or an error met listing them. */
struct item {
	int kind;
	char *path;		/* the file, or the directory named */
	int in_dir;		/* found by a directory walk */
	struct ld_read rd;	/* read apart, or in line into the load's ctx;
				 * an ITEM_ERROR's message in rd.err */
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
	sf_error_at(&it->v[it->n - 1].rd.err, path, 0, 0, fmt, why);
	return -1;
}

/*
 * Name order, split DWARF files last: read through their binary first
 * (whose skeletons know their comp dir and, for clang, their decl files),
 * they are not read again by themselves.
 */
static int split_last(const char *x, const char *y)
{
	int sx = split_name(x), sy = split_name(y);

	return sx != sy ? sx - sy : strcmp(x, y);
}

/* Every regular file below a directory (links to one too), in walk order. */
static int visit_input(void *arg, const struct sf_walk_entry *e)
{
	struct items *it = arg;
	struct stat st = e->st;

	if (S_ISDIR(st.st_mode))
		return e->depth < MAX_DIR_DEPTH ? SF_WALK_DESCEND : SF_WALK_SKIP;
	/* links to directories are not followed: no loops */
	if (S_ISLNK(st.st_mode) && (stat(e->path, &st) < 0 || !S_ISREG(st.st_mode)))
		return SF_WALK_SKIP;
	if (S_ISREG(st.st_mode))
		add_item(it, ITEM_FILE, e->path, 1);
	return SF_WALK_SKIP;
}

static int cannot_open_dir(void *arg, const char *dir, int errnum)
{
	return add_error(arg, dir, "cannot open directory: %s", strerror(errnum));
}

/* List every regular file below dir, in walk order; -1 after an error item. */
static int walk_dir(struct items *it, const char *dir)
{
	struct sf_walk w = { visit_input, cannot_open_dir, it, split_last };

	return sf_walk_dir(dir, &w);
}

/* List the inputs: each path named, a directory as the files below it. */
static void list_inputs(struct items *it, char *const *paths, int npaths)
{
	for (int i = 0; i < npaths; i++) {
		struct stat st;
		const char *path = paths[i];
		if (!path || !*path) {
			add_error(it, "(empty path)", "cannot open: %s", strerror(ENOENT));
			return;
		}
		if (stat(path, &st) < 0) {
			add_error(it, path, "cannot open: %s", strerror(errno));
			return;
		}
		if (!S_ISDIR(st.st_mode)) {
			add_item(it, ITEM_FILE, path, 0);
			continue;
		}
		if (walk_dir(it, path) < 0)
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
		rc = sf_error_at(c->err, dir, 0, 0,
				"no ELF file with DWARF debug info below this directory "
			      "(%u without, e.g. %s)", c->skipped, c->first_skip.msg);
	else if (!c->found)
		rc = sf_error_at(c->err, dir, 0, 0,
				"no ELF file with DWARF debug info below this directory");
	else if (c->skipped)
		skipped_note(c, dir);
	c->found = 0;
	c->skipped = 0;
	c->split_partial = 0;
	return rc;
}

/*
 * Read one input: apart, into a ctx of its own, or in line (every input
 * before it merged, nothing merged until it is) straight into c, as a
 * lone input always is: its types are not copied again, and the files
 * it asks about are known exactly.
 */
static int run_item(void *arg, size_t i, int in_line)
{
	struct items *it = arg;
	struct item *x = &it->v[i];

	if (x->kind == ITEM_ERROR)
		return -1;
	if (x->kind != ITEM_FILE)
		return 0;
	struct ctx *into = ld_read_start(&x->rd, it->c, in_line);

	x->rd.rc = ld_load_file(into, x->path, x->in_dir, 1);
	return x->rd.rc == FAILED || (!x->in_dir && x->rd.rc != LOADED) ? -1 : 0;
}

/* Take what reading file x gave into c, or read it again in c's place when
 * what the files before it read changes what it reads. */
static int take_file(struct ctx *c, struct item *x)
{
	struct ld_read *rd = &x->rd;

	if (rd->in_place)
		return rd->rc;	/* read into c already */
	if (same_answers(c, rd->sub)) {
		add_answers(c, rd->sub);
		if (rd->rc != LOADED)
			memcpy(c->err, &rd->err, sizeof(*c->err));
		ld_adopt(c, rd->sub);
	} else {
		ld_free_sub(rd->sub);
		rd->rc = ld_load_file(c, x->path, x->in_dir, 1);
	}
	rd->sub = NULL;
	return rd->rc;
}

static int merge_item(void *arg, size_t i)
{
	struct items *it = arg;
	struct item *x = &it->v[i];
	struct ctx *c = it->c;

	if (x->kind == ITEM_ERROR) {
		memcpy(c->err, &x->rd.err, sizeof(*c->err));
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

	ld_read_drop(&it->v[i].rd);
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
	sb_addf(&line, "dedup: %zu of %zu types laid out already, skipped; %zu units laid out "
		"again in part; %zu units laid out in full", n.skipped, n.types, n.part_units,
		n.full_units);
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
	sf_error_at(err, sb.buf, 0, 0,
			"no struct, union or class in the debug info (nothing to report)");
	sb_release(&sb);
	return -1;
}

/* Is every path named one of our JSON documents? */
static int all_documents(char *const *paths, int npaths)
{
	for (int i = 0; i < npaths; i++)
		if (!sf_jsondoc_file_is(paths[i]))
			return 0;
	return npaths > 0;
}

int sf_input_load_all(struct sf_typeset *ts, char *const *paths, int npaths,
		      const struct sf_load_opts *opts, struct sf_err *err)
{
	struct shared sh = { .asked = opts && opts->threads };
	struct ctx c = { .ts = ts, .opts = opts, .err = err, .sh = &sh };
	unsigned n = opts && opts->threads ? opts->threads : 0;

	if (!n) {
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);
		n = cpus > 0 ? (unsigned)cpus : 1;
	}
	/* A merge of documents reads them in line, one after the other: each
	 * type copied in only when new (jsondoc.h), so memory is the distinct
	 * types; read apart, each document's would be held until merged. */
	if (all_documents(paths, npaths))
		n = 1;
	sf_threads_init(&sh.threads, n < SF_POOL_MAX_THREADS ? n : SF_POOL_MAX_THREADS);
	c.pending = sf_pending_new();
	if (!(opts && opts->no_dedup))
		c.keys = sf_fpshared_new(NULL);
	sf_elf_init();	/* libelf refuses to work before this */
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
			if (sf_input_load_all(extra, paths, npaths, &more, err) < 0) {
				sf_typeset_free(extra);
				extra = NULL;
			}
			free(missing);
		}
		dedup_note(&c);
		sf_pending_finish(c.pending, ts, extra);
		sf_typeset_free(extra);
		/* (units left out by language may leave none: pahole --lang) */
		if (!(opts && (opts->only || opts->unit_langs)) && sf_typeset_count(ts) == 0)
			rc = no_types(paths, npaths, err);
	} else {
		sf_pending_free(c.pending);
	}
	sf_fpshared_free(c.keys);
	free(c.seen);
	sf_threads_release(&sh.threads);
	return rc;
}

int sf_input_load(struct sf_typeset *ts, const char *path,
		  const struct sf_load_opts *opts, struct sf_err *err)
{
	char *paths[1] = { (char *)path };

	return sf_input_load_all(ts, paths, 1, opts, err);
}
