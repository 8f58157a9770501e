/*
 * walk.c - the directory walker (walk.h).
 *
 * Each directory's names are read whole and sorted before any is
 * visited, so the walk holds one open directory at a time (deep trees do
 * not run out of descriptors) and the order is the same on every
 * filesystem.  Two strbufs grow with the depth: the path and the rel of
 * the entry visited, cut back after each.
 */
#include "walk.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"
#include "xalloc.h"

static int cmp_names(const void *a, const void *b, void *walk)
{
	const struct sf_walk *w = walk;
	const char *x = *(char *const *)a, *y = *(char *const *)b;

	return w->order ? w->order(x, y) : strcmp(x, y);
}

/* The names in dir, sorted, into *names (*n of them); -1 when it cannot
 * be opened (errno says why). */
static int dir_names(const char *dir, const struct sf_walk *w, char ***names, size_t *n)
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
		qsort_r(*names, *n, sizeof(**names), cmp_names, (void *)w);
	return 0;
}

/* Visit path's entries (path and rel hold the directory, restored after). */
static int walk(const struct sf_walk *w, struct strbuf *path, struct strbuf *rel,
		unsigned depth)
{
	char **names;
	size_t n;
	int rc = 0;

	if (dir_names(path->buf, w, &names, &n) < 0)
		return w->cannot_open ? w->cannot_open(w->arg, path->buf, errno) : 0;
	size_t plen = path->len, rlen = rel->len;
	for (size_t i = 0; i < n && rc >= 0; i++) {
		struct sf_walk_entry e = { .depth = depth };
		if (plen && path->buf[plen - 1] != '/')
			sb_addch(path, '/');
		if (rlen)
			sb_addch(rel, '/');
		sb_adds(path, names[i]);
		sb_adds(rel, names[i]);
		e.path = path->buf;
		e.rel = rel->buf;
		e.name = path->buf + path->len - strlen(names[i]);
		if (lstat(path->buf, &e.st) == 0) {
			rc = w->visit(w->arg, &e);
			if (rc == SF_WALK_DESCEND && S_ISDIR(e.st.st_mode))
				rc = walk(w, path, rel, depth + 1);
		}
		sb_setlen(path, plen);
		sb_setlen(rel, rlen);
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return rc < 0 ? rc : 0;
}

int sf_walk_dir(const char *dir, const struct sf_walk *w)
{
	struct strbuf path = STRBUF_INIT, rel = STRBUF_INIT;

	sb_adds(&path, dir);
	int rc = walk(w, &path, &rel, 0);
	sb_release(&path);
	sb_release(&rel);
	return rc;
}
