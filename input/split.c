/*
 * split.c - skeleton units, .dwo files and .dwp packages (see split.h).
 *
 * A .dwp index (DWARF 5 section 7.3.5, same layout in the GNU version 2
 * form but for a 4-byte version and the section ids) is a hash table of
 * slots: an 8-byte signature (dwo id or type signature) per slot, a
 * parallel 4-byte row number (0: empty), then a row of section ids and,
 * per row, one 4-byte offset and one 4-byte size per column.  Here every
 * row is applied to the unit its info (or GNU types) contribution starts
 * with; a unit that no row names is corrupt input, not a guess.
 *
 * Nothing here reads past a section: every table size is checked against
 * its section before use, with 64-bit arithmetic that cannot wrap.
 */
#include "split.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <dwarf.h>

#include "lib/xalloc.h"

/* column ids of a dwp index: DWARF 5 DW_SECT_*, and the GNU v2 ones */
#define SECT_INFO 1
#define SECT_TYPES_V2 2
#define SECT_ABBREV 3
#define SECT_LINE 4
#define SECT_STR_OFFSETS 6
#define MAX_COLUMNS 64

enum { IDX_CU, IDX_TU, IDX_N };

/* The sections of a .dwo/.dwp, by their place in struct sf_dwfile. */
static const char *const dwo_names[SF_SEC_N] = {
	".debug_info.dwo", ".debug_types.dwo", ".debug_abbrev.dwo", ".debug_str.dwo",
	NULL /* no .debug_line_str.dwo */, ".debug_str_offsets.dwo", ".debug_line.dwo",
};
static const char *const index_names[IDX_N] = { ".debug_cu_index", ".debug_tu_index" };

static const struct sf_elf_sec *section(const struct sf_elf *e, const char *name)
{
	for (uint32_t i = 1; i < e->nsec; i++)
		if (!strcmp(e->sec[i].name, name))
			return &e->sec[i];
	return NULL;
}

int sf_split_is_dwo(const struct sf_elf *e)
{
	return section(e, ".debug_info.dwo") != NULL;
}

/*
 * Section `name` as an sf_dwsec (empty when absent), inflated when
 * compressed; -1 on a corrupt one.
 * gcc -fdebug-types-section puts every type unit of a .dwo in a section
 * of its own, all named .debug_info.dwo (or .debug_types.dwo): units are
 * self-contained, so the pieces are glued, in file order, into a copy
 * owned by the first piece (freed with the image).
 */
static int pick(struct sf_elf *e, const char *name, struct sf_dwsec *out,
		struct sf_err *err)
{
	struct sf_elf_sec *first = NULL;
	uint64_t total = 0;
	size_t pieces = 0;

	memset(out, 0, sizeof(*out));
	for (uint32_t i = 1; i < e->nsec; i++) {
		struct sf_elf_sec *s = &e->sec[i];
		if (strcmp(s->name, name) || !s->data)
			continue;
		/* objcopy --compress-debug-sections compresses .dwo sections too */
		if (sf_elf_inflate(e, i, err) < 0)
			return -1;
		first = first ? first : s;
		total += s->size;
		pieces++;
	}
	if (pieces > 1 && !first->owned) {
		unsigned char *buf = sf_xmalloc(total), *p = buf;
		for (uint32_t i = 1; i < e->nsec; i++) {
			const struct sf_elf_sec *s = &e->sec[i];
			if (strcmp(s->name, name) || !s->data)
				continue;
			memcpy(p, s->data, s->size);
			p += s->size;
		}
		assert(p == buf + total);
		first->owned = first->mut = buf;
		first->data = buf;
		first->size = total;
	}
	if (first) {
		out->data = first->data;
		out->size = first->size;
	}
	return 0;
}

/* ---- the dwp index ------------------------------------------------------- */

struct rdx {
	const unsigned char *p;
	uint64_t size;
	int msb;
};

static uint64_t rdx_u(const struct rdx *r, uint64_t off, unsigned n)
{
	uint64_t v = 0;

	assert(off + n <= r->size);
	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)r->p[off + i] << (r->msb ? 8 * (n - 1 - i) : 8 * i);
	return v;
}

/* The unit whose header is at offset off of section sect, or NULL. */
static struct sf_unit *unit_starting(struct sf_dwfile *f, int sect, uint64_t off)
{
	long i = sf_dwfile_unit_at(f, sect, off);

	return i >= 0 && f->units[i].start == off ? &f->units[i] : NULL;
}

/* Give unit u the contributions of one index row. */
static int apply_row(struct sf_dwfile *f, struct sf_unit *u, int v5, int is_cu, uint64_t sig,
		     const uint32_t *ids, const uint64_t *offs, unsigned ncols)
{
	/* the two index forms differ in their section ids and string
	 * offsets headers: the units must be of the index's DWARF version */
	if (v5 != (u->version >= 5))
		return -1;
	for (unsigned k = 0; k < ncols; k++) {
		switch (ids[k]) {
		case SECT_ABBREV:
			if (offs[k] > f->sec[SF_SEC_ABBREV].size - u->abbrev_off)
				return -1;
			u->abbrev_off += offs[k];
			if (u->abbrev_off >= f->sec[SF_SEC_ABBREV].size)
				return -1;
			break;
		case SECT_STR_OFFSETS:
			u->str_base = offs[k] + (v5 ? 2u * u->offset_size : 0);
			break;
		case SECT_LINE:
			u->line_base = offs[k];
			break;
		}
	}
	if (is_cu)
		u->sig8 = sig;	/* the GNU form's header has no dwo id */
	return 0;
}

/* Apply one index section to the units; `done` marks the units it named. */
static int apply_index(struct sf_dwfile *f, const struct sf_dwsec *ix, int which,
		       uint8_t *done, const char *label, struct sf_err *err)
{
	struct rdx r = { ix->data, ix->size, f->msb };
	const char *name = index_names[which];

	if (r.size < 16)
		return sf_error_at(err, label, 0, 0, "corrupt %s (truncated header)", name);
	/* GNU: a 4-byte version 2; DWARF 5: a 2-byte version 5 and padding */
	int v5 = rdx_u(&r, 0, 4) != 2;
	if (v5 && rdx_u(&r, 0, 2) != 5)
		return sf_error_at(err, label, 0, 0, "unsupported %s version", name);
	uint64_t ncols = rdx_u(&r, 4, 4), nrows = rdx_u(&r, 8, 4), nslots = rdx_u(&r, 12, 4);
	/* slots are a power of two above the row count; tables must fit */
	if ((ncols == 0 && nrows) || ncols > MAX_COLUMNS || nrows > nslots ||
	    nslots > r.size / 12 || 16 + 12 * nslots + 4 * ncols + 8 * ncols * nrows > r.size)
		return sf_error_at(err, label, 0, 0, "corrupt %s (tables do not fit)", name);
	uint64_t hashes = 16, rows = hashes + 8 * nslots, colrow = rows + 4 * nslots;
	uint64_t offtab = colrow + 4 * ncols;
	uint32_t ids[MAX_COLUMNS];
	int unit_sect = which == IDX_TU && !v5 ? SF_SEC_TYPES : SF_SEC_INFO;
	unsigned unit_col = MAX_COLUMNS;
	for (unsigned k = 0; k < ncols; k++) {
		ids[k] = (uint32_t)rdx_u(&r, colrow + 4 * k, 4);
		if (ids[k] == (unit_sect == SF_SEC_TYPES ? SECT_TYPES_V2 : SECT_INFO))
			unit_col = k;
	}
	if (nrows && unit_col == MAX_COLUMNS)
		return sf_error_at(err, label, 0, 0, "corrupt %s (no unit column)", name);
	for (uint64_t j = 0; j < nslots; j++) {
		uint64_t row = rdx_u(&r, rows + 4 * j, 4);
		if (!row)
			continue;
		if (row > nrows)
			return sf_error_at(err, label, 0, 0,
					"corrupt %s (row %llu of %llu)", name,
					(unsigned long long)row, (unsigned long long)nrows);
		uint64_t offs[MAX_COLUMNS];
		for (unsigned k = 0; k < ncols; k++)
			offs[k] = rdx_u(&r, offtab + 4 * (ncols * (row - 1) + k), 4);
		struct sf_unit *u = unit_starting(f, unit_sect, offs[unit_col]);
		if (!u || apply_row(f, u, v5, which == IDX_CU, rdx_u(&r, hashes + 8 * j, 8),
				    ids, offs, (unsigned)ncols) < 0)
			return sf_error_at(err, label, 0, 0,
					"corrupt %s (row %llu names no unit or a bad "
					"contribution)", name, (unsigned long long)row);
		done[u - f->units] = 1;
	}
	return 0;
}

/* A GNU DWARF 4 .dwo names its dwo id in the unit DIE: keep it in sig8. */
static int read_dwo_ids(struct sf_dwfile *f, struct sf_err *err)
{
	for (size_t i = 0; i < f->nunits; i++) {
		struct sf_unit *u = &f->units[i];
		struct sf_ucx c;
		if (u->version >= 5 || sf_unit_is_type(u))
			continue;
		if (sf_ucx_open(&c, f, i, err) < 0)
			return -1;
		u->sig8 = c.has_dwo_id ? c.dwo_id : 0;
		sf_ucx_release(&c);
	}
	return 0;
}

int sf_split_init(struct sf_dwfile *f, struct sf_elf *e, const char *label,
		  struct sf_err *err)
{
	struct sf_dwsec sec[SF_SEC_N], ix[IDX_N];

	for (int s = 0; s < SF_SEC_N; s++)
		if (dwo_names[s] ? pick(e, dwo_names[s], &sec[s], err) < 0
				 : (memset(&sec[s], 0, sizeof(sec[s])), 0))
			return -1;
	for (int k = 0; k < IDX_N; k++)
		if (pick(e, index_names[k], &ix[k], err) < 0)
			return -1;
	if (sf_dwfile_init_split(f, label, e->msb, sec, err) < 0)
		return -1;
	if (!ix[IDX_CU].data && !ix[IDX_TU].data)
		return read_dwo_ids(f, err) < 0 ? (sf_dwfile_release(f), -1) : 0;
	uint8_t *done = sf_xcalloc(f->nunits ? f->nunits : 1, 1);
	int rc = 0;
	for (int k = 0; k < IDX_N && rc == 0; k++)
		if (ix[k].data)
			rc = apply_index(f, &ix[k], k, done, label, err);
	for (size_t i = 0; i < f->nunits && rc == 0; i++)
		if (!done[i])
			rc = sf_error_at(err, label, 0, 0,
					"corrupt .dwp (unit at %s+0x%llx is in no index)",
							dwo_names[f->units[i].sect],
				      (unsigned long long)f->units[i].start);
	free(done);
	if (rc < 0)
		sf_dwfile_release(f);
	return rc;
}

/* ---- skeletons ------------------------------------------------------------- */

int sf_split_skeletons(const struct sf_dwfile *f, struct sf_skeleton **out, size_t *n,
		       struct sf_err *err)
{
	size_t cap = 0;

	*out = NULL;
	*n = 0;
	for (size_t i = 0; i < f->nunits; i++) {
		const struct sf_unit *u = &f->units[i];
		struct sf_ucx c;
		/* DWARF 5 says so in the header; a GNU skeleton is a DWARF 4
		 * compile unit whose DIE names a .dwo */
		if (u->version >= 5 ? u->unit_type != DW_UT_skeleton
				    : u->sect != SF_SEC_INFO)
			continue;
		if (sf_ucx_open(&c, f, i, err) < 0) {
			free(*out);
			*out = NULL;
			*n = 0;
			return -1;
		}
		if (c.dwo_name || u->unit_type == DW_UT_skeleton) {
			SF_GROW(*out, *n, cap);
			struct sf_skeleton *s = &(*out)[(*n)++];
			s->dwo_name = c.dwo_name ? c.dwo_name : "";
			s->comp_dir = c.comp_dir ? c.comp_dir : "";
			s->dwo_id = c.dwo_id;
			s->has_id = (uint8_t)c.has_dwo_id;
			s->stmt_list = c.stmt_list;
			s->has_stmt_list = (uint8_t)c.has_stmt_list;
			s->unit = i;
			s->file = 0;
		}
		sf_ucx_release(&c);
	}
	return 0;
}

/* ---- finding the files ----------------------------------------------------- */

/* Map and read a split file: 1 opened, 0 absent (no such file), -1 error. */
static int dwo_open(struct sf_dwo *d, const char *path, struct sf_err *err)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	memset(d, 0, sizeof(*d));
	if (fd < 0)
		return errno == ENOENT || errno == ENOTDIR ? 0
			: sf_error_at(err, path, 0, 0, "cannot open: %s", strerror(errno));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size == 0) {
		close(fd);
		return sf_error_at(err, path, 0, 0,
				"not a split DWARF file (empty or not a regular file)");
	}
	d->size = (size_t)st.st_size;
	/* writable and private: libelf may update headers in place (elfobj.h) */
	d->map = mmap(NULL, d->size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	close(fd);
	if (d->map == MAP_FAILED) {
		d->map = NULL;
		return sf_error_at(err, path, 0, 0, "cannot map: %s", strerror(errno));
	}
	d->path = sf_xstrdup(path);
	if (!sf_elf_is_elf(d->map, d->size)) {
		sf_error_at(err, path, 0, 0, "not an ELF file");
		goto fail;
	}
	if (sf_elf_parse(&d->e, d->map, d->size, d->path, err) < 0)
		goto fail;
	if (!sf_split_is_dwo(&d->e)) {
		sf_error_at(err, path, 0, 0, "no split DWARF (.debug_info.dwo) in this file");
		sf_elf_release(&d->e);
		goto fail;
	}
	if (sf_split_init(&d->f, &d->e, d->path, err) < 0) {
		sf_elf_release(&d->e);
		goto fail;
	}
	d->is_dwp = section(&d->e, ".debug_cu_index") != NULL;
	return 1;
fail:
	munmap(d->map, d->size);
	free(d->path);
	memset(d, 0, sizeof(*d));
	return -1;
}

static void dwo_close(struct sf_dwo *d)
{
	if (!d->map)
		return;
	sf_dwfile_release(&d->f);
	sf_elf_release(&d->e);
	munmap(d->map, d->size);
	free(d->path);
	memset(d, 0, sizeof(*d));
}

/* The compile unit of f whose dwo id is id, or NULL. */
static struct sf_unit *cu_with_id(struct sf_dwfile *f, uint64_t id)
{
	for (size_t i = 0; i < f->nunits; i++)
		if (!sf_unit_is_type(&f->units[i]) && f->units[i].sig8 == id)
			return &f->units[i];
	return NULL;
}

/*
 * Tell a compile unit of a .dwo or dwp what its skeleton knows: the comp
 * dir, and the line table its DW_AT_decl_file numbers index (DWARF 5
 * section 3.1.3: the skeleton's; gcc also copies it to .debug_line.dwo,
 * clang does not).  Type units keep their own DW_AT_stmt_list.
 */
static void attach(struct sf_unit *u, const struct sf_skeleton *sk, const struct sf_dwfile *main)
{
	if (sf_unit_is_type(u))
		return;
	u->comp_dir = sk->comp_dir;
	u->line_sec = &main->sec[SF_SEC_LINE];
	u->line_str_sec = &main->sec[SF_SEC_LINE_STR];
	u->has_line = sk->has_stmt_list && main->sec[SF_SEC_LINE].data;
	u->line_base = sk->stmt_list;
}

static void add_file(struct sf_split_set *s, struct sf_dwo *d)
{
	SF_GROW(s->v, s->n, s->cap);
	s->v[s->n] = sf_xmalloc(sizeof(*d));
	*s->v[s->n++] = *d;
}

/* Index + 1 of the .dwo with this path in the set, 0 if none. */
static size_t have_file(struct sf_split_set *s, const char *path)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->v[i]->path, path))
			return i + 1;
	return 0;
}

static void note_missing(struct sf_split_set *s, const struct sf_skeleton *sk,
			 const struct strbuf *tried)
{
	/* name the first few in full; count the rest */
	if (s->nmissing < 3)
		sb_addf(&s->missing, "%s%s (looked in %s)", s->nmissing ? ", " : "",
			*sk->dwo_name ? sk->dwo_name : "(unnamed .dwo)", tried->buf);
	s->nmissing++;
}

/*
 * Candidate paths of a skeleton's .dwo: its name as is when absolute, else
 * below its comp dir, then in the binary's directory (by its name, then
 * its last component).
 */
static size_t candidates(const struct sf_skeleton *sk, const char *bindir, struct strbuf *c)
{
	const char *name = sk->dwo_name, *base = strrchr(name, '/');
	size_t n = 0;

	if (name[0] == '/') {
		sb_adds(&c[n++], name);
		base = base + 1;
	} else {
		if (*sk->comp_dir)
			sb_addf(&c[n++], "%s/%s", sk->comp_dir, name);
		sb_addf(&c[n++], "%s%s", bindir, name);
		base = base ? base + 1 : NULL;
	}
	if (base && *base)
		sb_addf(&c[n++], "%s%s", bindir, base);
	return n;
}

/* Find one skeleton's .dwo: 1 found (sk->file set), 0 not, -1 error. */
static int find_dwo(struct sf_split_set *s, struct sf_skeleton *sk, const char *bindir,
		    const struct sf_dwfile *main, struct strbuf *tried, struct sf_err *err)
{
	struct strbuf c[3] = { STRBUF_INIT, STRBUF_INIT, STRBUF_INIT };
	size_t n = *sk->dwo_name ? candidates(sk, bindir, c) : 0;
	int rc = 0;

	for (size_t i = 0; i < n && rc == 0; i++) {
		struct sf_dwo d;
		size_t have = have_file(s, c[i].buf);
		struct sf_unit *u;
		sb_addf(tried, "%s%s", tried->len ? ", " : "", c[i].buf);
		if (have) {
			sk->file = have;
			rc = 1;
			continue;
		}
		int o = dwo_open(&d, c[i].buf, err);
		if (o <= 0) {
			rc = o;
			continue;
		}
		u = sk->has_id ? cu_with_id(&d.f, sk->dwo_id) : NULL;
		if (sk->has_id && !u) {
			sb_addf(tried, " (another dwo id)");	/* rebuilt since linking */
			dwo_close(&d);
			continue;
		}
		for (size_t k = 0; k < d.f.nunits; k++)
			if (!u || &d.f.units[k] == u)
				attach(&d.f.units[k], sk, main);
		add_file(s, &d);
		sk->file = s->n;
		rc = 1;
	}
	for (size_t i = 0; i < 3; i++)
		sb_release(&c[i]);
	return rc;
}

int sf_split_resolve(struct sf_split_set *s, const char *path, const struct sf_dwfile *main,
		     struct sf_skeleton *sk, size_t n, struct sf_err *err)
{
	struct strbuf bindir = STRBUF_INIT, dwp = STRBUF_INIT, tried = STRBUF_INIT;
	struct sf_dwo pkg;
	const char *slash = strrchr(path, '/');
	int rc = 0, have_dwp;

	if (slash)
		sb_add(&bindir, path, (size_t)(slash - path) + 1);
	sb_addf(&dwp, "%s.dwp", path);
	have_dwp = dwo_open(&pkg, dwp.buf, err);
	if (have_dwp < 0) {
		rc = -1;
		goto out;
	}
	size_t dwp_file = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		struct sf_unit *u = have_dwp && sk[i].has_id ? cu_with_id(&pkg.f, sk[i].dwo_id)
							     : NULL;
		if (u) {
			attach(u, &sk[i], main);
			if (!dwp_file) {
				add_file(s, &pkg);
				dwp_file = s->n;
			}
			sk[i].file = dwp_file;
			continue;
		}
		sb_reset(&tried);
		rc = find_dwo(s, &sk[i], bindir.buf, main, &tried, err);
		if (rc == 0) {
			sb_addf(&tried, ", %s", dwp.buf);
			note_missing(s, &sk[i], &tried);
		}
		rc = rc < 0 ? -1 : 0;
	}
	if (have_dwp && !dwp_file)
		dwo_close(&pkg);
out:
	sb_release(&bindir);
	sb_release(&dwp);
	sb_release(&tried);
	return rc;
}

void sf_split_set_init(struct sf_split_set *s)
{
	memset(s, 0, sizeof(*s));
	sb_init(&s->missing);
}

void sf_split_set_release(struct sf_split_set *s)
{
	for (size_t i = 0; i < s->n; i++) {
		dwo_close(s->v[i]);
		free(s->v[i]);
	}
	free(s->v);
	sb_release(&s->missing);
	sf_split_set_init(s);
}
