/*
 * public.c - the one decision "is this type's layout a public interface"
 * (see public.h for the rules).  Paths are looked at component by
 * component, never with a substring search: "/src/includes/x.h" and
 * "/home/include-me/x.c" name no include directory.
 */
#include "public.h"

#include <assert.h>
#include <stddef.h>
#include <string.h>

/* Prefixes of the directories a compiler searches by itself. */
static const char *const system_dirs[] = {
	"/usr/include/",
	"/usr/local/include/",
	"/usr/lib/gcc/",
	"/usr/lib/gcc-cross/",
	"/usr/lib/clang/",
	"/usr/lib/llvm-",       /* /usr/lib/llvm-14/lib/clang/14.0.6/include */
	"/usr/libexec/gcc/",
};

bool sf_path_is_system(const char *path)
{
	if (!path)
		return false;
	for (size_t i = 0; i < sizeof(system_dirs) / sizeof(system_dirs[0]); i++)
		if (!strncmp(path, system_dirs[i], strlen(system_dirs[i])))
			return true;
	return false;
}

bool sf_path_under(const char *path, const char *dir)
{
	size_t n;

	if (!path || !*path || !dir)
		return false;
	if (!*dir)
		return path[0] != '/';
	n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')
		n--;               /* "src/" is "src" */
	if (strncmp(path, dir, n))
		return false;
	/* "/" is the parent of every absolute path */
	return path[n] == '\0' || path[n] == '/' || (n == 1 && dir[0] == '/');
}

/* Does a directory of `path` (not its last component) read "include"? */
static bool has_include_dir(const char *path)
{
	const char *p = path;

	for (;;) {
		const char *slash = strchr(p, '/');
		if (!slash)
			return false;              /* the file name itself */
		size_t n = (size_t)(slash - p);
		if ((n == 7 && !memcmp(p, "include", 7)) ||
		    (n == 13 && !memcmp(p, "include-fixed", 13)))
			return true;
		p = slash + 1;
	}
}

/*
 * The part of t's declaring file inside the project: the path itself when
 * it is relative (shown relative to the source root), the part below
 * comp_dir when absolute; NULL when it lies outside (or is unknown).
 */
static const char *inside_project(const struct sf_type *t)
{
	const char *path = t->decl_file;
	const char *dir = t->comp_dir;

	if (!path || !*path)
		return NULL;
	if (path[0] != '/')
		return strncmp(path, "../", 3) ? path : NULL;
	if (!dir || dir[0] != '/')
		return NULL;
	size_t n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')
		n--;
	if (n == 1)
		return path + 1;           /* built in "/": everything is inside */
	if (strncmp(path, dir, n) || path[n] != '/')
		return NULL;
	return path + n + 1;
}

enum sf_public sf_type_public(const struct sf_type *t)
{
	assert(t);
	if (t->flags & SF_TF_PACKED)
		return SF_PUBLIC_PACKED;
	const char *path = t->decl_file;
	if (!path || !*path)
		return SF_PUBLIC_NO;
	if (sf_path_is_system(path))
		return SF_PUBLIC_INSTALLED;
	const char *rel = inside_project(t);
	if (rel)
		return has_include_dir(rel) ? SF_PUBLIC_INCLUDE : SF_PUBLIC_NO;
	return has_include_dir(path) ? SF_PUBLIC_INSTALLED : SF_PUBLIC_NO;
}
