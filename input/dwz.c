/*
 * dwz.c - find, check and open a dwz alt file (see dwz.h).
 *
 * The link is read from the naming image's section table: a struct
 * altlink points into the image (name, identity bytes).  Each candidate
 * path is mapped, parsed as ELF and its identity compared; the first that
 * matches stays mapped in the struct sf_dwz.  Every refused place is
 * written to a strbuf ("PATH (missing)", "PATH (build-id differs)", ...)
 * that becomes the error when none matches.
 */
#include "dwz.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "debugfile.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#define MAX_ID SF_BUILD_ID_MAX

struct altlink {
	const char *name;            /* NUL-terminated inside the image */
	const unsigned char *id;     /* build-id (altlink) or checksum (sup) */
	size_t idlen;
	int sup;                     /* from .debug_sup */
};

static const struct sf_elf_sec *section(const struct sf_elf *e, const char *name)
{
	for (uint32_t i = 1; i < e->nsec; i++)
		if (e->sec[i].name && !strcmp(e->sec[i].name, name) && e->sec[i].data &&
		    !(e->sec[i].flags & SHF_COMPRESSED))
			return &e->sec[i];
	return NULL;
}

static uint64_t uleb(const unsigned char **p, const unsigned char *end, int *bad)
{
	uint64_t v = 0;
	unsigned shift = 0;

	while (*p < end) {
		unsigned char b = *(*p)++;
		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			return v;
	}
	*bad = 1;
	return 0;
}

/*
 * A .debug_sup section: version 5, is_supplementary, file name, checksum.
 * 1 read, 0 absent, -1 corrupt.
 */
static int read_sup(const struct sf_elf *e, struct altlink *l, int *is_sup)
{
	const struct sf_elf_sec *s = section(e, ".debug_sup");

	if (!s)
		return 0;
	const unsigned char *p = s->data, *end = s->data + s->size;
	if (s->size < 4 || sf_elf_read(e, p, 2) != 5 || p[2] > 1)
		return -1;
	*is_sup = p[2];
	p += 3;
	const unsigned char *nul = memchr(p, '\0', (size_t)(end - p));
	if (!nul)
		return -1;
	l->name = (const char *)p;
	p = nul + 1;
	int bad = 0;
	uint64_t n = uleb(&p, end, &bad);
	if (bad || n > (uint64_t)(end - p) || n > MAX_ID)
		return -1;
	l->id = p;
	l->idlen = (size_t)n;
	l->sup = 1;
	return 1;
}

/* .gnu_debugaltlink: file name, NUL, build-id.  1 read, 0 absent, -1 corrupt. */
static int read_altlink(const struct sf_elf *e, struct altlink *l)
{
	const struct sf_elf_sec *s = section(e, ".gnu_debugaltlink");

	if (!s)
		return 0;
	const unsigned char *nul = memchr(s->data, '\0', s->size);
	if (!nul || nul == s->data)
		return -1;
	l->name = (const char *)s->data;
	l->id = nul + 1;
	l->idlen = s->size - (size_t)(l->id - s->data);
	l->sup = 0;
	return l->idlen > 0 && l->idlen <= MAX_ID ? 1 : -1;
}

static void add_hex(struct strbuf *sb, const unsigned char *id, size_t n)
{
	for (size_t i = 0; i < n; i++)
		sb_addf(sb, "%02x", id[i]);
}

/* Does candidate c carry the identity the link asks for?  NULL when it
 * does, else why not (for the list of places searched). */
static const char *refusal(const struct sf_elf *c, const struct altlink *l)
{
	if (l->sup) {
		struct altlink own = { 0 };
		int is_sup = 0;
		int rc = read_sup(c, &own, &is_sup);
		if (rc <= 0 || !is_sup)
			return "not a supplementary file";
		return own.idlen == l->idlen && !memcmp(own.id, l->id, l->idlen)
		       ? NULL : "checksum differs";
	}
	const unsigned char *id;
	size_t n = sf_elf_build_id(c, &id);
	if (!n)
		return "no build-id";
	return n == l->idlen && !memcmp(id, l->id, n) ? NULL : "build-id differs";
}

/* Map and parse path into a; 1 when it is the alt file, 0 when not
 * (why appended to searched). */
static int try_place(struct sf_dwz *a, const char *path, const struct altlink *l,
		     struct strbuf *searched)
{
	struct sf_err ignored;
	struct stat st;
	const char *why = NULL;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	sb_addf(searched, "%s%s", searched->len ? ", " : "", path);
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size <= 0) {
		sb_adds(searched, fd < 0 && errno == ENOENT ? " (missing)" : " (unreadable)");
		if (fd >= 0)
			close(fd);
		return 0;
	}
	/* writable and private: libelf may update headers in place (elfobj.h) */
	void *map = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED) {
		sb_adds(searched, " (unreadable)");
		return 0;
	}
	memset(a, 0, sizeof(*a));
	a->map = map;
	a->size = (size_t)st.st_size;
	if (!sf_elf_is_elf(map, a->size) ||
	    sf_elf_parse(&a->elf, map, a->size, path, &ignored) < 0)
		why = "not ELF";
	else if ((why = refusal(&a->elf, l)) == NULL && sf_elf_prepare_debug(&a->elf, &ignored) <= 0)
		why = "no DWARF";
	if (why) {
		sb_addf(searched, " (%s)", why);
		sf_dwz_release(a);
		return 0;
	}
	a->path = sf_xstrdup(path);
	a->elf.label = a->path;	/* path is the caller's scratch buffer */
	return 1;
}

/* The debug directories: --debug-dir ones, then the root. */
static const char *debug_dir(const char *const *dirs, size_t i)
{
	size_t n = 0;

	while (dirs && dirs[n])
		n++;
	return i < n ? dirs[i] : i == n ? SF_DEBUG_ROOT : NULL;
}

static int search(struct sf_dwz *a, const struct altlink *l, const char *label,
		  const char *const *dirs, struct strbuf *searched)
{
	struct strbuf p = STRBUF_INIT;
	int found = 0;

	/* 1. as named, relative to the naming file's directory */
	const char *slash = strrchr(label, '/');
	if (l->name[0] != '/' && slash)
		sb_add(&p, label, (size_t)(slash - label) + 1);
	sb_adds(&p, l->name);
	found = try_place(a, p.buf, l, searched);
	/* 2. by build-id under each debug directory (debugfile.c's lookup) */
	if (!found && !l->sup) {
		char *by_id = sf_debug_find_by_build_id(dirs, l->id, l->idlen, ".debug", searched);
		found = by_id && try_place(a, by_id, l, searched);
		free(by_id);
	}
	/* 3. DIR/.dwz/... for a path in a distribution's .dwz directory */
	const char *dwz = strstr(l->name, "/.dwz/");
	for (size_t i = 0; !found && dwz && debug_dir(dirs, i); i++) {
		sb_reset(&p);
		sb_addf(&p, "%s%s", debug_dir(dirs, i), dwz);
		found = try_place(a, p.buf, l, searched);
	}
	sb_release(&p);
	return found;
}

int sf_dwz_open(struct sf_dwz *a, const struct sf_elf *e, const char *label,
		const char *const *dirs, struct sf_err *err)
{
	struct altlink l = { 0 };
	int is_sup = 0;
	int rc = read_sup(e, &l, &is_sup);

	const char *link = ".debug_sup";

	memset(a, 0, sizeof(*a));
	if (rc == 0 || (rc > 0 && is_sup)) {	/* a supplementary file names no other */
		rc = read_altlink(e, &l);
		link = ".gnu_debugaltlink";
	}
	if (rc < 0)
		return sf_error_at(err, label, 0, 0, "corrupt %s section", link);
	if (rc == 0)
		return 0;
	struct strbuf searched = STRBUF_INIT;
	if (search(a, &l, label, dirs, &searched)) {
		sb_release(&searched);
		return 1;
	}
	struct strbuf id = STRBUF_INIT;
	add_hex(&id, l.id, l.idlen);
	sf_error_at(err, label, 0, 0, "dwz alt file %s (%s %s) not found; searched: %s", l.name,
		 l.sup ? "checksum" : "build-id", id.buf, searched.buf);
	sb_release(&id);
	sb_release(&searched);
	return -1;
}

void sf_dwz_release(struct sf_dwz *a)
{
	if (a->map) {
		sf_elf_release(&a->elf);
		munmap(a->map, a->size);
	}
	free(a->path);
	memset(a, 0, sizeof(*a));
}
