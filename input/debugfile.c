/*
 * debugfile.c - find the separate debug file of a stripped ELF image.
 *
 * The lookup (order and checks in debugfile.h) is a list of candidate
 * paths tried one by one; each candidate is opened read-only, checked, and
 * either returned or recorded in `searched`, a strbuf of ", PATH[ (why)]"
 * entries that becomes the "searched ..." part of the error when nothing
 * matches.  Nothing is cached and nothing is global: a lookup costs a few
 * stat/open calls, plus one CRC32 pass over a candidate only when build-ids
 * cannot decide.
 *
 * debuginfod is reached through libdebuginfod, opened with dlopen() only
 * when DEBUGINFOD_URLS is set and the local search failed: structfit has no
 * link-time dependency on it (nor on libcurl behind it), and a run without
 * DEBUGINFOD_URLS never loads it.
 */
#include "debugfile.h"

#include <assert.h>
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <elfutils/debuginfod.h>
#include <zlib.h>

#include "lib/xalloc.h"

extern char **environ;

/* ---- reading a candidate ------------------------------------------------ */

/* A whole regular file mapped private and writable, for libelf (elfobj.h);
 * the file itself is never written. */
struct mapped {
	unsigned char *data;
	size_t size;
};

static int map_file(const char *path, struct mapped *m)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	m->data = NULL;
	m->size = 0;
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size <= 0 ||
	    (uint64_t)st.st_size > SIZE_MAX) {
		close(fd);
		return -1;
	}
	void *p = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return -1;
	m->data = p;
	m->size = (size_t)st.st_size;
	return 0;
}

static void unmap_file(struct mapped *m)
{
	if (m->data)
		munmap(m->data, m->size);
	m->data = NULL;
}

/* 4-byte alignment of note names and descriptors (ELF gABI, both classes). */
static uint64_t align4(uint64_t n)
{
	return (n + 3) & ~(uint64_t)3;
}

/* The NT_GNU_BUILD_ID descriptor among the notes in [p, p + size). */
static size_t build_id_in_notes(const struct sf_elf *e, const unsigned char *p,
				uint64_t size, const unsigned char **id)
{
	uint64_t off = 0;

	while (size - off >= 12) {
		uint64_t namesz = sf_elf_read(e, p + off, 4);
		uint64_t descsz = sf_elf_read(e, p + off + 4, 4);
		uint64_t type = sf_elf_read(e, p + off + 8, 4);
		uint64_t name = off + 12, desc = name + align4(namesz);
		if (desc > size || align4(descsz) > size - desc)
			return 0;	/* a corrupt note ends the walk */
		if (type == NT_GNU_BUILD_ID && namesz == 4 && !memcmp(p + name, "GNU", 4) &&
		    descsz > 0 && descsz <= SF_BUILD_ID_MAX) {
			*id = p + desc;
			return (size_t)descsz;
		}
		off = desc + align4(descsz);
	}
	return 0;
}

size_t sf_elf_build_id(const struct sf_elf *e, const unsigned char **id)
{
	for (uint32_t i = 1; i < e->nsec; i++) {
		const struct sf_elf_sec *s = &e->sec[i];
		size_t n;
		if (s->type == SHT_NOTE && s->data &&
		    (n = build_id_in_notes(e, s->data, s->size, id)) > 0)
			return n;
	}
	return 0;
}

/* The build-id of a mapped image into id[SF_BUILD_ID_MAX]; 0 if none. */
static size_t image_build_id(const struct mapped *m, const char *path, unsigned char *id)
{
	struct sf_elf e;
	struct sf_err ignored;
	const unsigned char *p;
	size_t n = 0;

	if (!sf_elf_is_elf(m->data, m->size) ||
	    sf_elf_parse(&e, m->data, m->size, path, &ignored) < 0)
		return 0;
	n = sf_elf_build_id(&e, &p);
	if (n)
		memcpy(id, p, n);
	sf_elf_release(&e);
	return n;
}

size_t sf_file_build_id(const char *path, unsigned char *id)
{
	struct mapped m;

	if (map_file(path, &m) < 0)
		return 0;
	size_t n = image_build_id(&m, path, id);
	unmap_file(&m);
	return n;
}

/* The CRC32 gdb's .gnu_debuglink stores: zlib's, fed in uInt-sized pieces. */
static uint32_t file_crc32(const struct mapped *m)
{
	uLong crc = crc32(0L, Z_NULL, 0);
	size_t off = 0;

	while (off < m->size) {
		size_t n = m->size - off > 0x40000000u ? 0x40000000u : m->size - off;
		crc = crc32(crc, m->data + off, (uInt)n);
		off += n;
	}
	return (uint32_t)crc;
}

/* ---- by build-id ---------------------------------------------------------- */

static void add_place(struct strbuf *searched, const char *path, const char *why)
{
	if (!searched)
		return;
	sb_addf(searched, ", %s%s%s%s", path, why ? " (" : "", why ? why : "", why ? ")" : "");
}

/* DIR/.build-id/xx/rest SUFFIX */
static void build_id_path(struct strbuf *sb, const char *dir, const unsigned char *id,
			  size_t len, const char *suffix)
{
	assert(len > 0);
	sb_reset(sb);
	sb_addf(sb, "%s%s.build-id/%02x/", dir, dir[0] && dir[strlen(dir) - 1] == '/' ? "" : "/",
		id[0]);
	for (size_t i = 1; i < len; i++)
		sb_addf(sb, "%02x", id[i]);
	sb_adds(sb, suffix);
}

/* Is `path` an existing file, and is its build-id id[0..len)?  1 yes, 0 absent, -1 differs. */
static int has_build_id(const char *path, const unsigned char *id, size_t len)
{
	unsigned char got[SF_BUILD_ID_MAX];
	struct stat st;

	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return 0;
	size_t n = sf_file_build_id(path, got);
	return n == len && !memcmp(got, id, len) ? 1 : -1;
}

char *sf_debug_find_by_build_id(const char *const *dirs, const unsigned char *id,
				size_t len, const char *suffix, struct strbuf *searched)
{
	struct strbuf path = STRBUF_INIT;

	if (!len)
		return NULL;
	for (size_t i = 0;; i++) {
		const char *dir = dirs && dirs[i] ? dirs[i] : SF_DEBUG_ROOT;
		build_id_path(&path, dir, id, len, suffix);
		int r = has_build_id(path.buf, id, len);
		if (r > 0)
			return sb_detach(&path);
		add_place(searched, path.buf, r < 0 ? "build-id differs" : NULL);
		if (!dirs || !dirs[i])
			break;
	}
	sb_release(&path);
	return NULL;
}

/* ---- by .gnu_debuglink ---------------------------------------------------- */

struct debuglink {
	const char *name;
	uint32_t crc;
};

/* The .gnu_debuglink of e: a file name (no '/'), padding, a CRC32. */
static int find_debuglink(const struct sf_elf *e, struct debuglink *dl)
{
	for (uint32_t i = 1; i < e->nsec; i++) {
		const struct sf_elf_sec *s = &e->sec[i];
		if (strcmp(s->name, ".gnu_debuglink") || !s->data)
			continue;
		const unsigned char *nul = memchr(s->data, '\0', s->size);
		if (!nul || nul == s->data)
			return 0;
		uint64_t crc_off = align4((uint64_t)(nul - s->data) + 1);
		if (crc_off + 4 > s->size)
			return 0;
		dl->name = (const char *)s->data;
		dl->crc = (uint32_t)sf_elf_read(e, s->data + crc_off, 4);
		return 1;
	}
	return 0;
}

/*
 * Does the candidate at `path` belong to the image?  Build-ids decide when
 * both have one (as elfutils does); otherwise the CRC32 (as gdb does).
 * 1 yes, 0 no file, -1 another build (*why says which check failed).
 */
static int debuglink_matches(const char *path, const struct debuglink *dl,
			     const unsigned char *id, size_t idlen, const char **why)
{
	struct mapped m;
	unsigned char got[SF_BUILD_ID_MAX];
	int r;

	if (map_file(path, &m) < 0)
		return 0;
	size_t n = idlen ? image_build_id(&m, path, got) : 0;
	if (n) {
		r = n == idlen && !memcmp(got, id, n) ? 1 : -1;
		*why = "build-id differs";
	} else {
		r = file_crc32(&m) == dl->crc ? 1 : -1;
		*why = "CRC mismatch";
	}
	unmap_file(&m);
	return r;
}

/* The directory part of path: "." when none, "/" for a file in the root. */
static void dir_of(const char *path, struct strbuf *dir)
{
	const char *slash = strrchr(path, '/');

	sb_reset(dir);
	if (!slash)
		sb_adds(dir, ".");
	else if (slash == path)
		sb_adds(dir, "/");
	else
		sb_add(dir, path, (size_t)(slash - path));
}

/* The canonical directory of path (symbolic links resolved, the file's own
 * included, as gdb names an objfile), or its directory as given. */
static void real_dir_of(const char *path, const struct strbuf *dir, struct strbuf *out)
{
	char *real = realpath(path, NULL);

	sb_reset(out);
	if (real) {
		dir_of(real, out);
		free(real);
		return;
	}
	real = realpath(dir->buf, NULL);
	sb_adds(out, real ? real : dir->buf);
	free(real);
}

static void join(struct strbuf *sb, const char *a, const char *b, const char *c)
{
	sb_reset(sb);
	sb_adds(sb, a);
	if (b) {
		if (sb->len && sb->buf[sb->len - 1] != '/' && b[0] != '/')
			sb_addch(sb, '/');
		sb_adds(sb, b[0] == '/' && sb->len && sb->buf[sb->len - 1] == '/' ? b + 1 : b);
	}
	if (c) {
		if (sb->len && sb->buf[sb->len - 1] != '/')
			sb_addch(sb, '/');
		sb_adds(sb, c);
	}
}

/* Candidate `cand` for the debuglink: its path if it matches, else NULL (recorded). */
static char *try_debuglink(struct strbuf *cand, const struct debuglink *dl,
			   const unsigned char *id, size_t idlen, const char *self,
			   struct strbuf *searched)
{
	const char *why = NULL;
	struct stat a, b;

	/* the image itself (a debuglink naming its own file) is no debug file */
	if (stat(cand->buf, &a) == 0 && stat(self, &b) == 0 &&
	    a.st_dev == b.st_dev && a.st_ino == b.st_ino) {
		add_place(searched, cand->buf, "the input itself");
		return NULL;
	}
	int r = debuglink_matches(cand->buf, dl, id, idlen, &why);
	if (r > 0)
		return sb_detach(cand);
	add_place(searched, cand->buf, r < 0 ? why : NULL);
	return NULL;
}

static char *find_by_debuglink(const struct debuglink *dl, const char *path,
			       const char *const *dirs, const unsigned char *id,
			       size_t idlen, struct strbuf *searched)
{
	struct strbuf dir = STRBUF_INIT, realdir = STRBUF_INIT, cand = STRBUF_INIT;
	char *found = NULL, *given = NULL;

	dir_of(path, &dir);
	real_dir_of(path, &dir, &realdir);
	/* beside the file as named, then beside the file a link leads to */
	given = realpath(dir.buf, NULL);
	const char *beside[2] = { dir.buf, given && strcmp(given, realdir.buf) ? realdir.buf : NULL };
	for (int k = 0; k < 2 && beside[k] && !found; k++) {
		join(&cand, beside[k], dl->name, NULL);
		found = try_debuglink(&cand, dl, id, idlen, path, searched);
		if (!found) {
			join(&cand, beside[k], ".debug", dl->name);
			found = try_debuglink(&cand, dl, id, idlen, path, searched);
		}
	}
	for (size_t i = 0; !found; i++) {
		const char *root = dirs && dirs[i] ? dirs[i] : SF_DEBUG_ROOT;
		join(&cand, root, realdir.buf, dl->name);
		found = try_debuglink(&cand, dl, id, idlen, path, searched);
		if (!dirs || !dirs[i])
			break;
	}
	free(given);
	sb_release(&dir);
	sb_release(&realdir);
	sb_release(&cand);
	return found;
}

/* ---- debuginfod ----------------------------------------------------------- */

typedef debuginfod_client *(*begin_fn)(void);
typedef int (*find_fn)(debuginfod_client *, const unsigned char *, int, char **);
typedef void (*end_fn)(debuginfod_client *);

/*
 * Ask the DEBUGINFOD_URLS servers (libdebuginfod caches the file under
 * DEBUGINFOD_CACHE_PATH and returns that path).  NULL when unset, when the
 * library is missing, or when no server has it; `note` says which.
 */
static char *find_by_debuginfod(const unsigned char *id, size_t len, struct strbuf *note)
{
	const char *urls = getenv("DEBUGINFOD_URLS");
	char *found = NULL, *path = NULL;

	if (!urls || !*urls) {
		sb_adds(note, "debuginfod not asked: DEBUGINFOD_URLS is not set");
		return NULL;
	}
	void *lib = dlopen("libdebuginfod.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		sb_adds(note, "debuginfod not asked: cannot load libdebuginfod.so.1 "
			"(install Debian's libdebuginfod1)");
		return NULL;
	}
	begin_fn begin = (begin_fn)dlsym(lib, "debuginfod_begin");
	find_fn find = (find_fn)dlsym(lib, "debuginfod_find_debuginfo");
	end_fn end = (end_fn)dlsym(lib, "debuginfod_end");
	debuginfod_client *client = begin && find && end ? begin() : NULL;
	int fd = client ? find(client, id, (int)len, &path) : -ENOSYS;
	if (fd >= 0) {
		close(fd);
		/* the server's answer is checked like any local candidate */
		if (path && has_build_id(path, id, len) > 0)
			found = sf_xstrdup(path);
		else
			sb_addf(note, "debuginfod %s gave %s (build-id differs)", urls,
				path ? path : "a file without a path");
	} else {
		sb_addf(note, "debuginfod %s: %s", urls, strerror(-fd));
	}
	free(path);
	if (client)
		end(client);
	/* never dlclose'd (as elfutils' libdwfl does): libcurl and its TLS
	 * libraries keep global state for the process's lifetime; unloading
	 * them under their feet is what leak checkers rightly complain of */
	return found;
}

/* ---- the package hint ----------------------------------------------------- */

/* Is path in a tree Debian packages own? */
static int packaged_path(const char *p)
{
	static const char *const roots[] = { "/usr/", "/lib/", "/lib32/", "/lib64/",
					     "/libx32/", "/bin/", "/sbin/", "/opt/" };

	for (size_t i = 0; i < sizeof(roots) / sizeof(roots[0]); i++)
		if (!strncmp(p, roots[i], strlen(roots[i])))
			return 1;
	return 0;
}

/* The first line `dpkg-query -S PATH...` prints (empty when none). */
static void dpkg_owner_line(char *const *paths, struct strbuf *out)
{
	char *argv[8] = { "dpkg-query", "-S" };
	int pfd[2];
	size_t argc = 2;
	posix_spawn_file_actions_t fa;
	pid_t pid;

	for (size_t i = 0; paths[i] && argc < 7; i++)
		argv[argc++] = paths[i];
	argv[argc] = NULL;
	if (pipe(pfd) < 0)
		return;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pfd[1], 1);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addclose(&fa, pfd[0]);
	posix_spawn_file_actions_addclose(&fa, pfd[1]);
	int rc = posix_spawnp(&pid, "dpkg-query", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(pfd[1]);
	char buf[4096];
	size_t n = 0;
	ssize_t r;
	/* read all (the child must not block on a full pipe), keep the start */
	while (rc == 0 && (r = read(pfd[0], n < sizeof(buf) ? buf + n : buf,
				    n < sizeof(buf) ? sizeof(buf) - n : sizeof(buf))) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			break;
		if (n < sizeof(buf))
			n += (size_t)r;
	}
	close(pfd[0]);
	if (rc == 0)
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
	for (size_t i = 0; i < n; i++) {
		if (buf[i] == '\n') {
			n = i;
			break;
		}
	}
	sb_add(out, buf, n);
}

/* The package owning path, in the forms it may be registered under. */
static int dpkg_owner(const char *path, char *pkg, size_t pkgsz)
{
	char *real = realpath(path, NULL);
	struct strbuf alias = STRBUF_INIT, line = STRBUF_INIT;
	char *paths[4] = { NULL };
	size_t n = 0;
	int ok = 0;

	if (!real || !packaged_path(real)) {
		free(real);
		return 0;
	}
	/* merged /usr: dpkg may know /lib/x as /usr/lib/x or the other way */
	if (!strncmp(real, "/usr/", 5))
		sb_adds(&alias, real + 4);
	else
		sb_addf(&alias, "/usr%s", real);
	paths[n++] = real;
	paths[n++] = alias.buf;
	if (path[0] == '/' && strcmp(path, real) && strcmp(path, alias.buf))
		paths[n++] = (char *)path;
	dpkg_owner_line(paths, &line);
	/* "libc6:amd64: /lib/x86_64-linux-gnu/libc.so.6", "a, b: /path" */
	size_t k = strcspn(line.buf, ":, ");
	if (line.len && k && k < pkgsz && strncmp(line.buf, "diversion", 9)) {
		memcpy(pkg, line.buf, k);
		pkg[k] = '\0';
		ok = 1;
	}
	free(real);
	sb_release(&alias);
	sb_release(&line);
	return ok;
}

static int dpkg_installed(const char *pkg)
{
	struct strbuf p = STRBUF_INIT;
	struct stat st;
	int r;

	sb_addf(&p, "/var/lib/dpkg/info/%s.list", pkg);
	r = stat(p.buf, &st) == 0;
	if (!r) {
		/* multiarch packages register as PKG:ARCH.list */
		sb_reset(&p);
		sb_addf(&p, "/var/lib/dpkg/info/%s:amd64.list", pkg);
		r = stat(p.buf, &st) == 0;
	}
	sb_release(&p);
	return r;
}

/* "; Debian package P owns it: ..." when dpkg knows the file. */
static void package_hint(const char *path, struct strbuf *out)
{
	char pkg[256], dbg[300], dbgsym[300];

	if (!dpkg_owner(path, pkg, sizeof(pkg)))
		return;
	snprintf(dbg, sizeof(dbg), "%s-dbg", pkg);
	snprintf(dbgsym, sizeof(dbgsym), "%s-dbgsym", pkg);
	if (dpkg_installed(dbg) || dpkg_installed(dbgsym))
		sb_addf(out, "; Debian package %s owns it and %s is installed, but holds no "
			"debug file of this build (versions differ?)",
			pkg, dpkg_installed(dbg) ? dbg : dbgsym);
	else
		sb_addf(out, "; Debian package %s owns it: install %s (debian-debug archive) "
			"or %s where it exists", pkg, dbgsym, dbg);
}

/* ---- the whole lookup ----------------------------------------------------- */

static void hex(struct strbuf *sb, const unsigned char *id, size_t len)
{
	for (size_t i = 0; i < len; i++)
		sb_addf(sb, "%02x", id[i]);
}

char *sf_debug_find(const struct sf_elf *e, const char *path,
		    const char *const *dirs, int hint, struct sf_err *err)
{
	const unsigned char *id = NULL;
	size_t idlen = sf_elf_build_id(e, &id);
	struct debuglink dl = { NULL, 0 };
	int has_link = find_debuglink(e, &dl);
	struct strbuf searched = STRBUF_INIT, what = STRBUF_INIT;
	struct strbuf note = STRBUF_INIT, pkg = STRBUF_INIT;
	char *found = NULL;

	if (!idlen && !has_link) {
		/* nothing to look a debug file up by */
		sf_error_at(err, path, 0, 0,
				"no DWARF debug info (stripped or built without -g)");
		return NULL;
	}
	if (idlen)
		found = sf_debug_find_by_build_id(dirs, id, idlen, ".debug", &searched);
	if (!found && has_link)
		found = find_by_debuglink(&dl, path, dirs, id, idlen, &searched);
	if (!found && idlen)
		found = find_by_debuginfod(id, idlen, &note);
	if (!found) {
		if (idlen) {
			sb_adds(&what, "build-id ");
			hex(&what, id, idlen);
		}
		if (has_link)
			sb_addf(&what, "%s.gnu_debuglink %s", idlen ? " or " : "", dl.name);
		if (hint)
			package_hint(path, &pkg);
		/* searched starts with ", " */
		sf_error_at(err, path, 0, 0,
				"no DWARF debug info, and no debug file found by %s "
			 "(searched %s%s%s)%s", what.buf,
			 searched.len > 2 ? searched.buf + 2 : "nothing",
			 note.len ? "; " : "", note.buf, pkg.buf);
	}
	sb_release(&searched);
	sb_release(&what);
	sb_release(&note);
	sb_release(&pkg);
	return found;
}
