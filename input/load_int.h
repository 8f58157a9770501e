/*
 * load_int.h - what the files of the loader share (internal to
 * input/load.c, archive.c, inputs.c; see load.c for the whole picture).
 *
 * struct ctx is one load, or one input read apart on a thread (a sub
 * ctx): the typeset its types go to, the held-back (incomplete) types,
 * the fingerprint keys merged so far, the thread budget, the files read
 * (and, read apart, the questions asked about them), and what a
 * directory walk counts.  Functions shared between the files are
 * prefixed ld_; each returns one of the outcomes below.
 */
#ifndef SF_LOAD_INT_H
#define SF_LOAD_INT_H

#include <stddef.h>
#include <sys/types.h>
#include <sys/stat.h>

#include "input/input.h"
#include "pool.h"
#include "dwarf/fingerprint.h"
#include "lib/err.h"

/* Outcome of reading one image or file. */
enum { LOADED = 1, NO_DWARF = 0, FAILED = -1, NOT_ELF = 2, ALREADY = 3 };

/* What every pool of one load shares. */
struct shared {
	struct sf_threads threads;	/* N: --jobs, else the online CPUs */
	int asked;			/* --jobs given: even a small image is split */
};

/* An ld_seen_before() question a file read apart asked, and its answer. */
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
	/* a file read apart (ld_sub_ctx): its ld_seen_before questions, in order */
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

/* load.c */
struct ctx *ld_sub_ctx(const struct ctx *c, struct sf_err *err);
void ld_free_sub(struct ctx *s);
void ld_adopt(struct ctx *c, struct ctx *s);

/*
 * One file read by a pool thread (archive.c's members, inputs.c's files):
 * apart, into a ctx of its own merged later in input order, or - the next
 * one in order - in line, straight into the caller's ctx.
 */
struct ld_read {
	struct ctx *sub;	/* what reading it gave, until merged */
	int in_place;		/* ...or it was read into the caller's ctx */
	struct sf_err err;	/* sub's error */
	int rc;			/* LOADED, NO_DWARF or FAILED */
};
/* Start r for the caller's ctx c: the ctx to read into (c in line, else a
 * new sub ctx). */
struct ctx *ld_read_start(struct ld_read *r, struct ctx *c, int in_line);
/* Free what a read the pool dropped gave (never one read in line). */
void ld_read_drop(struct ld_read *r);
/* mapped: image is a private mapping of a file, whose pages can be
 * dropped and read back (struct sf_elf's file_backed) */
int ld_load_image(struct ctx *c, unsigned char *image, size_t size, const char *label,
		  const char *file, int in_dir, int mapped);
int ld_load_file(struct ctx *c, const char *path, int in_dir, int lookup);

/* archive.c; mapped: img is a private mapping of the file (its pages are
 * dropped once read: see archive.c) */
int ld_load_archive(struct ctx *c, const char *path, unsigned char *img, size_t size,
		    int mapped);
int ld_load_thin_archive(struct ctx *c, const char *path, const unsigned char *img,
			 size_t size);

/* inputs.c */
int ld_seen_before(struct ctx *c, const struct stat *st);

#endif
