/*
 * walk.h - the one directory walker: every entry below a directory, in
 * sorted order, depth first.
 *
 * sf_walk_dir() lists each directory it enters (all names but "." and
 * ".."), sorts them (strcmp, or the walk's own order), lstat()s each and hands it to `visit`.
 * For a directory, visit's SF_WALK_DESCEND enters it (the callback
 * decides on hidden names, depth and symbolic links: the walker follows
 * nothing on its own, so no loop); anything below 0 stops the walk and is
 * returned.  An entry that vanished before its lstat is passed over.  A
 * directory that cannot be opened goes to `cannot_open` (NULL: passed
 * over silently), which may stop the walk the same way.
 *
 *   visit(e): e->path  "DIR/sub/name"       e->depth  0 for DIR's entries
 *             e->rel   "sub/name"           e->st     its lstat
 */
#ifndef SF_WALK_H
#define SF_WALK_H

#include <sys/stat.h>

#define SF_WALK_SKIP 0
#define SF_WALK_DESCEND 1

struct sf_walk_entry {
	const char *path;    /* the walk's root joined with rel */
	const char *rel;     /* below the root */
	const char *name;    /* the last component */
	unsigned depth;      /* of the directory holding it: 0 for the root's */
	struct stat st;      /* lstat */
};

struct sf_walk {
	int (*visit)(void *arg, const struct sf_walk_entry *e);
	/* a directory (the root too) that opendir refused, errno's value */
	int (*cannot_open)(void *arg, const char *dir, int errnum);
	void *arg;
	/* the order of names within a directory; NULL: strcmp */
	int (*order)(const char *a, const char *b);
};

/* Walk dir: 0, or the first value below 0 a callback returned. */
int sf_walk_dir(const char *dir, const struct sf_walk *w);

#endif
