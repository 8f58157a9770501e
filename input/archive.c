/*
 * archive.c - the members of static archives (see load.c for the loader
 * as a whole, load_int.h for what its files share).
 *
 * A regular archive is read through libelf: elf_begin(-1, cmd, ar) opens
 * each member in turn, elf_getarhdr() names it (GNU long names resolved),
 * elf_rawfile() gives its bytes - a range of our mapping - and elf_next()
 * moves on.  libelf does not read thin archives ("!<thin>\n": the members
 * are files named in the headers), so their headers are walked here.
 *
 * struct members lists a regular archive's members (name, byte range of
 * the mapping, what reading it gave); they are read by a pool (pool.h),
 * each into a ctx of its own, and merged in member order.  struct arstate
 * counts the members and those with DWARF for the verdict on the archive.
 *
 * Memory: a mapped archive's pages count in the process's memory once
 * touched, and each page fault maps the pages around it too (fault-around,
 * 64 KiB).  Nothing needs a member's bytes once it is read (its types are
 * copied into the typeset, its relocated sections freed): its whole pages
 * leave the process then (MADV_DONTNEED: the mapping is private and never
 * written there, so a page touched again is read back from the file as
 * it was).  Listing the members touches each header's pages: those leave
 * as the listing passes them.  libpython3.11d.a (47 MB, 179 members): peak
 * memory 50 -> 12 MB with one thread, 53 -> 15 MB with two (10 and 12
 * with the relocations read in place, elfobj.c); what is left is the
 * heap (the types, the relocated copies of the members being read) and
 * the program itself.
 */
#include "load_int.h"

#include <ar.h>
#include <assert.h>
#include <errno.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "pool.h"

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
		sf_error_at(c->err, a->path, 0, 0, "empty archive (no members)");
		return NO_DWARF;
	}
	if (!a->with_dwarf) {
		sf_error_at(c->err, a->path, 0, 0,
				"no DWARF debug info in any of its %d archive members",
						a->members);
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

/* pages leave the process in batches of at least this (see sf_drop_pages) */
#define DROP_BATCH (2u << 20)

/* A member of a regular archive: a range of the archive's mapping. */
struct member {
	char *label;		/* "ARCHIVE(NAME)" */
	unsigned char *bytes;
	size_t size;
	struct ld_read rd;	/* read apart, or in line into the archive's ctx */
};

/* The members of one archive, read by a pool. */
struct members {
	struct ctx *c;
	struct arstate *a;
	struct member *v;
	size_t n, cap;
	/* the archive is mapped: its pages below `dropped` (page-aligned)
	 * are dropped, and those of members merged, in batches of DROP_BATCH */
	int mapped;
	const unsigned char *dropped;
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
			return sf_error_at(c->err, ms->a->path, 0, 0,
					"corrupt archive (bad BSD member name)");
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
	/* the pages below it are dropped (img is page-aligned: a mapping) */
	const unsigned char *dropped = img;
	int rc = 0;

	if (!ar || elf_kind(ar) != ELF_K_AR) {
		if (ar)
			elf_end(ar);
		return sf_error_at(c->err, path, 0, 0, "corrupt archive (%s)", elf_errmsg(-1));
	}
	while (rc == 0 && (m = elf_begin(-1, cmd, ar)) != NULL) {
		Elf_Arhdr *h = elf_getarhdr(m);
		size_t msize = 0;
		char *bytes = elf_rawfile(m, &msize);
		int64_t off = elf_getaroff(m);
		if (!h || off < 0 || !bytes) {
			rc = sf_error_at(c->err, path, 0, 0, "corrupt archive (%s)",
					elf_errmsg(-1));
		} else if ((uint64_t)h->ar_size > msize) {
			rc = sf_error_at(c->err, path, 0, 0,
					"truncated archive (member at %lld runs past the end)", (long long)off);
		} else {
			next = (uint64_t)off + sizeof(struct ar_hdr) + h->ar_size;
			next += next & 1;
			rc = list_member(c, ms, h, (unsigned char *)bytes, msize);
		}
		cmd = elf_next(m);
		elf_end(m);
		/* the pages before the next header are listed */
		if (ms->mapped && next <= size)
			dropped = sf_drop_pages(dropped, img + next, DROP_BATCH);
	}
	if (ms->mapped)
		(void)sf_drop_pages(dropped, img + size, 0);
	/* libelf stops quietly at a header it cannot read */
	if (rc == 0 && next < size)
		rc = sf_error_at(c->err, path, 0, 0,
				"corrupt archive (bad member header at %llu)",
			      (unsigned long long)next);
	elf_end(ar);
	return rc;
}

/* Read one member: apart, or in line (every member before it merged)
 * straight into the archive's ctx, its types never copied again. */
static int run_member(void *arg, size_t i, int in_line)
{
	struct members *ms = arg;
	struct member *m = &ms->v[i];

	struct ctx *into = ld_read_start(&m->rd, ms->c, in_line);

	m->rd.rc = ld_load_image(into, m->bytes, m->size, m->label, NULL, 0, 0);
	return m->rd.rc == FAILED ? -1 : 0;
}

static int merge_member(void *arg, size_t i)
{
	struct members *ms = arg;
	struct member *m = &ms->v[i];

	if (m->rd.in_place) {
		/* read into ms->c already (a failure said in its err) */
	} else if (m->rd.rc == FAILED) {
		memcpy(ms->c->err, &m->rd.err, sizeof(*ms->c->err));
		ld_free_sub(m->rd.sub);
	} else {
		ld_adopt(ms->c, m->rd.sub);
	}
	m->rd.sub = NULL;
	/* the pages below its end are done with (the members after it may
	 * be read now: not their first page, which it may share) */
	if (ms->mapped)
		ms->dropped = sf_drop_pages(ms->dropped, m->bytes + m->size,
					    i + 1 < ms->n ? DROP_BATCH : 0);
	return member_done(ms->a, m->rd.rc);
}

static void drop_member(void *arg, size_t i)
{
	struct members *ms = arg;

	ld_read_drop(&ms->v[i].rd);
}

int ld_load_archive(struct ctx *c, const char *path, unsigned char *img, size_t size,
		    int mapped)
{
	struct arstate a = { path, 0, 0, STRBUF_INIT };
	struct members ms = { .c = c, .a = &a, .mapped = mapped, .dropped = img };
	struct sf_err listed = SF_ERR_INIT;
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
int ld_load_thin_archive(struct ctx *c, const char *path, const unsigned char *img,
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
			rc = sf_error_at(c->err, path, 0, 0,
					"corrupt archive (bad member header at %zu)", off);
			break;
		}
		size_t dstart = off + sizeof(h);
		int table = h.ar_name[0] == '/' && (h.ar_name[1] == ' ' || h.ar_name[1] == '/' ||
						    !memcmp(h.ar_name, "/SYM64/", 7));
		if (!table) {	/* a member: only its header is here */
			const char *name;
			long len = thin_member_name(&h, lnames, lnsize, &name);
			if (len < 0) {
				rc = sf_error_at(c->err, path, 0, 0,
						"corrupt archive (bad long member name)");
				break;
			}
			sb_reset(&a.label);
			if (name[0] != '/' && slash)
				sb_add(&a.label, path, (size_t)(slash - path) + 1);
			sb_add(&a.label, name, (size_t)len);
			rc = member_done(&a, ld_load_file(c, a.label.buf, 1, 0));
			off = dstart;
			continue;
		}
		if ((size_t)msize > size - dstart) {
			rc = sf_error_at(c->err, path, 0, 0,
					"truncated archive (member at %zu runs past the end)", off);
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
