/*
 * lines.c - the file names of a unit's line table (DW_AT_decl_file).
 *
 * A model type names its source file; DWARF gives an index into the
 * file list of the unit's .debug_line header.  This reads only that list:
 * DWARF 5's entry formats (directory and file entries of any form), or
 * DWARF 2-4's two NUL-terminated lists, into `struct sf_files` (paths and
 * each file's directory index), and joins a file with its directory on
 * demand.  Read with the decoder's bounds-checked cursor (cursor.h):
 * corrupt headers give no names, never a read out of bounds.
 */
#include "die.h"
#include "cursor.h"

#include <stdlib.h>
#include <string.h>

#include <dwarf.h>

#include "lib/xalloc.h"

/* One value of a DWARF 5 directory/file entry; strings only kept. */
static int line_form(const struct sf_ucx *c, struct rd *r, unsigned form, unsigned os,
		     const char **str, uint64_t *num)
{
	const struct sf_dwfile *f = c->f;

	*str = NULL;
	*num = 0;
	switch (form) {
	case DW_FORM_string:
		*str = rd_cstr(r);
		return *str ? 0 : -1;
	case DW_FORM_line_strp:
		*str = sec_str(c->u->line_str_sec ? c->u->line_str_sec : &f->sec[SF_SEC_LINE_STR],
			       rd_u(r, os));
		break;
	case DW_FORM_strp: *str = sec_str(&f->sec[SF_SEC_STR], rd_u(r, os)); break;
	case DW_FORM_strx: *str = sf_ucx_strx(c, rd_uleb(r)); break;
	case DW_FORM_strx1: *str = sf_ucx_strx(c, rd_u(r, 1)); break;
	case DW_FORM_strx2: *str = sf_ucx_strx(c, rd_u(r, 2)); break;
	case DW_FORM_strx3: *str = sf_ucx_strx(c, rd_u(r, 3)); break;
	case DW_FORM_strx4: *str = sf_ucx_strx(c, rd_u(r, 4)); break;
	case DW_FORM_udata: *num = rd_uleb(r); break;
	case DW_FORM_data1: *num = rd_u(r, 1); break;
	case DW_FORM_data2: *num = rd_u(r, 2); break;
	case DW_FORM_data4: *num = rd_u(r, 4); break;
	case DW_FORM_data8: *num = rd_u(r, 8); break;
	case DW_FORM_data16: rd_skip(r, 16); break;
	case DW_FORM_block: rd_skip(r, rd_uleb(r)); break;
	default: return -1;
	}
	return r->bad ? -1 : 0;
}

struct entry_format {
	uint64_t type[32];
	uint64_t form[32];
	unsigned n;
};

static int read_formats(struct rd *r, struct entry_format *ef)
{
	ef->n = (unsigned)rd_u(r, 1);
	if (ef->n > 32)
		return -1;
	for (unsigned i = 0; i < ef->n; i++) {
		ef->type[i] = rd_uleb(r);
		ef->form[i] = rd_uleb(r);
	}
	return r->bad ? -1 : 0;
}

/* DWARF 5 directory or file entries: path and directory index of each. */
static int read_entries(const struct sf_ucx *c, struct rd *r, unsigned os,
			const struct entry_format *ef, const char ***paths,
			uint64_t **dirs, size_t *count)
{
	uint64_t n = rd_uleb(r);

	/* every entry takes at least a byte: more than the bytes left is corrupt */
	if (r->bad || n > (uint64_t)(r->end - r->p) + 1)
		return -1;
	*paths = sf_xcalloc(n ? n : 1, sizeof(**paths));
	if (dirs)
		*dirs = sf_xcalloc(n ? n : 1, sizeof(**dirs));
	*count = (size_t)n;
	for (uint64_t i = 0; i < n; i++) {
		for (unsigned k = 0; k < ef->n; k++) {
			const char *str;
			uint64_t num;
			if (line_form(c, r, (unsigned)ef->form[k], os, &str, &num) < 0)
				return -1;
			if (ef->type[k] == DW_LNCT_path)
				(*paths)[i] = str;
			else if (ef->type[k] == DW_LNCT_directory_index && dirs)
				(*dirs)[i] = num;
		}
	}
	return 0;
}

/* The next string of a DWARF 2-4 list, which an empty one ends: 1 with *s,
 * 0 at the end of the list, -1 when the bytes end first. */
static int next_entry(struct rd *r, const char **s)
{
	*s = rd_cstr(r);
	return !*s ? -1 : **s ? 1 : 0;
}

/* DWARF 2-4: NUL-terminated lists. */
static int read_v4_lists(struct rd *r, struct sf_files *fl)
{
	size_t cap = 0, dcap = 0;
	const char *s;
	int more;

	while ((more = next_entry(r, &s)) > 0) {
		SF_GROW(fl->dirs, fl->ndirs, cap);
		fl->dirs[fl->ndirs++] = s;
	}
	if (more < 0)
		return -1;
	cap = 0;
	while ((more = next_entry(r, &s)) > 0) {
		SF_GROW(fl->names, fl->nfiles, cap);
		SF_GROW(fl->dir_of, fl->nfiles, dcap);
		fl->names[fl->nfiles] = s;
		fl->dir_of[fl->nfiles++] = rd_uleb(r);
		rd_uleb(r);	/* mtime */
		rd_uleb(r);	/* length */
		if (r->bad)
			return -1;
	}
	return more;
}

int sf_ucx_files(const struct sf_ucx *c, struct sf_files *fl)
{
	const struct sf_dwsec *s = c->u->line_sec ? c->u->line_sec : &c->f->sec[SF_SEC_LINE];

	memset(fl, 0, sizeof(*fl));
	fl->comp_dir = c->comp_dir ? c->comp_dir : "";
	if (!c->has_stmt_list || !s->data || c->stmt_list >= s->size)
		return 0;
	struct rd r = { s->data + c->stmt_list, s->data + s->size, c->f->msb, 0 };
	unsigned os = 4;
	uint64_t len = rd_u(&r, 4);
	if (len == 0xffffffffu) {
		len = rd_u(&r, 8);
		os = 8;
	}
	if (r.bad || len > (uint64_t)(r.end - r.p))
		return -1;
	r.end = r.p + len;
	fl->version = (uint16_t)rd_u(&r, 2);
	if (fl->version < 2 || fl->version > 5)
		return -1;
	if (fl->version >= 5)
		rd_skip(&r, 2);	/* address size, segment selector size */
	uint64_t hlen = rd_u(&r, os);
	if (r.bad || hlen > (uint64_t)(r.end - r.p))
		return -1;
	r.end = r.p + hlen;
	rd_skip(&r, fl->version >= 4 ? 5 : 4);	/* min_inst .. line_range */
	unsigned opcode_base = (unsigned)rd_u(&r, 1);
	rd_skip(&r, opcode_base ? opcode_base - 1 : 0);
	if (r.bad)
		return -1;
	if (fl->version < 5)
		return read_v4_lists(&r, fl);
	struct entry_format ef;
	if (read_formats(&r, &ef) < 0 ||
	    read_entries(c, &r, os, &ef, &fl->dirs, NULL, &fl->ndirs) < 0 ||
	    read_formats(&r, &ef) < 0 ||
	    read_entries(c, &r, os, &ef, &fl->names, &fl->dir_of, &fl->nfiles) < 0)
		return -1;
	return 0;
}

void sf_files_release(struct sf_files *fl)
{
	free(fl->dirs);
	free(fl->names);
	free(fl->dir_of);
	memset(fl, 0, sizeof(*fl));
}

const char *sf_files_path(const struct sf_files *fl, uint64_t idx, struct strbuf *sb)
{
	/* DWARF 5 numbers files from 0, earlier versions from 1 (0: none) */
	if (fl->version < 5) {
		if (idx == 0)
			return "";
		idx--;
	}
	if (idx >= fl->nfiles || !fl->names[idx])
		return "";
	const char *name = fl->names[idx];
	/* no file: gcc's "<built-in>" (and "<command-line>") stand alone,
	 * as gdb shows them, in no directory */
	if (name[0] == '/' || name[0] == '<')
		return name;
	uint64_t di = fl->dir_of[idx];
	const char *dir = NULL;
	if (fl->version >= 5)
		dir = di < fl->ndirs ? fl->dirs[di] : NULL;
	else
		dir = di == 0 ? fl->comp_dir : di - 1 < fl->ndirs ? fl->dirs[di - 1] : NULL;
	sb_reset(sb);
	/* Directory 0 is the compilation directory itself (DWARF 5: its
	 * first entry; earlier: none, DW_AT_comp_dir): a relative one
	 * (`cd memcheck && gcc -fdebug-prefix-map=$PWD=.`: "./memcheck") is
	 * not joined with itself.  Any other relative directory is relative
	 * to it ("../include"). */
	if (di != 0 && dir && *dir && dir[0] != '/' && *fl->comp_dir)
		sb_addf(sb, "%s/", fl->comp_dir);
	if (dir && *dir)
		sb_addf(sb, "%s/", dir);
	sb_adds(sb, name);
	return sb->buf;
}
