/*
 * path.c - source paths as every command shows them (see path.h).
 *
 * Lexical normalisation keeps a stack of component starts in the output
 * buffer: a ".." pops one, "." is dropped.  Root resolution keeps two
 * spellings of the root because a user's shell and the compiler may each
 * see the tree through a symlink: gcc records $PWD when it names the
 * current directory, realpath(3) never does.
 */
#include "path.h"

#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "strbuf.h"
#include "xalloc.h"

char *sf_path_normalize(const char *path)
{
	struct strbuf out = STRBUF_INIT;
	size_t *starts = NULL, n = 0, cap = 0;
	const char *s = path;
	bool abs = path[0] == '/';

	if (abs)
		sb_addch(&out, '/');
	while (*s) {
		while (*s == '/')
			s++;
		const char *e = strchr(s, '/');
		size_t len = e ? (size_t)(e - s) : strlen(s);
		if (len == 0)
			break;
		bool dotdot = len == 2 && s[0] == '.' && s[1] == '.';
		if (len == 1 && s[0] == '.') {
			/* nothing */
		} else if (dotdot && n) {
			sb_setlen(&out, starts[--n]);
		} else if (dotdot && abs) {
			/* "/.." is "/" */
		} else {
			/* a relative path's leading ".." stays, and is never popped */
			if (!dotdot) {
				SF_GROW(starts, n, cap);
				starts[n++] = out.len;
			}
			if (out.len && out.buf[out.len - 1] != '/')
				sb_addch(&out, '/');
			sb_add(&out, s, len);
		}
		s += len;
	}
	free(starts);
	if (!out.len)
		sb_addch(&out, '.');   /* "./" and "a/.." are the directory itself */
	return sb_detach(&out);
}

/* The rules of sf_path_normalize, checked without building its string:
 * no empty component (no "//", no trailing '/'), no ".", and ".." only
 * leading a relative path. */
bool sf_path_is_normal(const char *path)
{
	const char *s = path + (path[0] == '/');
	bool abs = path[0] == '/', named = false;

	if (!strcmp(path, "/") || !strcmp(path, "."))
		return true;
	for (;;) {
		const char *e = strchrnul(s, '/');
		size_t len = (size_t)(e - s);
		if (len == 0 || (len == 1 && s[0] == '.'))
			return false;
		if (len == 2 && s[0] == '.' && s[1] == '.') {
			if (abs || named)
				return false;
		} else {
			named = true;
		}
		if (!*e)
			return true;
		s = e + 1;
	}
}

bool sf_path_too_broad(const char *dir, const char *home)
{
	static const char *const shared[] = {
		"/", "/tmp", "/var/tmp", "/home", "/usr", "/usr/local", "/opt", "/srv",
		"/mnt", "/media", "/var", "/run", "/dev/shm",
	};

	for (size_t i = 0; i < sizeof(shared) / sizeof(shared[0]); i++)
		if (!strcmp(dir, shared[i]))
			return true;
	return home && home[0] == '/' && (!strcmp(dir, home) || sf_path_below(home, dir));
}

const char *sf_path_below(const char *path, const char *root)
{
	size_t n = strlen(root);

	if (!n || path[0] != '/' || root[0] != '/')
		return NULL;
	if (n == 1)
		return path[1] ? path + 1 : NULL;
	if (strncmp(path, root, n) || path[n] != '/' || !path[n + 1])
		return NULL;
	return path + n + 1;
}

/* The current directory as the shell spells it: $PWD when it names the
 * same directory as ".", else getcwd(). */
static char *logical_cwd(void)
{
	const char *pwd = getenv("PWD");
	struct stat a, b;
	char buf[PATH_MAX];

	if (pwd && pwd[0] == '/' && stat(pwd, &a) == 0 && stat(".", &b) == 0 &&
	    a.st_dev == b.st_dev && a.st_ino == b.st_ino)
		return sf_xstrdup(pwd);
	if (!getcwd(buf, sizeof(buf)))
		return NULL;
	return sf_xstrdup(buf);
}

int sf_srcroot_init(struct sf_srcroot *r, const char *dir, struct sf_err *err)
{
	char real[PATH_MAX];
	struct stat st;

	r->real = r->logical = NULL;
	if (!dir[0])
		return sf_error(err, "--source-root: an empty path");
	if (!realpath(dir, real))
		return sf_error_at(err, dir, 0, 0, "source root: %s", strerror(errno));
	if (stat(real, &st) < 0 || !S_ISDIR(st.st_mode))
		return sf_error_at(err, dir, 0, 0, "source root: not a directory");
	if (dir[0] == '/') {
		r->logical = sf_path_normalize(dir);
	} else {
		char *cwd = logical_cwd();
		if (!cwd)
			return sf_error_at(err, dir, 0, 0, "source root: %s", strerror(errno));
		struct strbuf sb = STRBUF_INIT;
		sb_addf(&sb, "%s/%s", cwd, dir);
		r->logical = sf_path_normalize(sb.buf);
		sb_release(&sb);
		free(cwd);
	}
	r->real = sf_xstrdup(real);
	return 0;
}

void sf_srcroot_release(struct sf_srcroot *r)
{
	free(r->real);
	free(r->logical);
	r->real = r->logical = NULL;
}

/* norm relative to the root, or NULL. */
static const char *below_root(const struct sf_srcroot *r, const char *norm,
			      char *real)
{
	const char *rel;

	if (norm[0] == '/' && ((rel = sf_path_below(norm, r->logical)) ||
			       (rel = sf_path_below(norm, r->real))))
		return rel;
	/* through the file's own symlinks (relative: from the current
	 * directory, where the build usually ran) */
	if (realpath(norm, real))
		return sf_path_below(real, r->real);
	return NULL;
}

char *sf_srcroot_show(const struct sf_srcroot *r, const char *path)
{
	char *norm = sf_path_normalize(path);
	char real[PATH_MAX];

	if (!path[0]) {
		free(norm);
		return sf_xstrdup("");
	}
	if (!r || !r->real)
		return norm;
	assert(r->logical);
	const char *rel = below_root(r, norm, real);
	if (rel) {
		char *out = sf_xstrdup(rel);
		free(norm);
		return out;
	}
	return norm;
}
