/*
 * elfobj.c - parse an ELF image, inflate and relocate its debug sections,
 * and serve them to libdwarf through a Dwarf_Obj_Access_Interface.
 *
 * Why not libdwarf's own ELF reader: it copies every section into the heap
 * (twice the memory with one handle per thread) and applies relocations it
 * finds even in linked files - Debian's vmlinux keeps 255 MB of
 * .rela.debug_info from --emit-relocs, all already applied by the linker.
 * Here sections are pointers into the mapped file; only what must change
 * (a compressed section, a relocated section of a .o) gets a private copy.
 *
 * Every read of a header, section or relocation is bounds-checked against
 * the image: a corrupt or truncated file yields "LABEL: problem".
 */
#include "elfobj.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include <dwarf.h>
#include <zlib.h>

#include "lib/strbuf.h"
#include "lib/xalloc.h"

/* ELF constants we need (values fixed by the gABI). */
#define ET_REL_ 1
#define SHT_SYMTAB_ 2
#define SHT_RELA_ 4
#define SHT_NOBITS_ 8
#define SHT_REL_ 9
#define SHF_GROUP_ 0x200u
#define SHF_COMPRESSED_ 0x800u
#define SHN_XINDEX_ 0xffffu
#define ELFCOMPRESS_ZLIB_ 1
#define ELFCOMPRESS_ZSTD_ 2

/* The sections libdwarf needs to read types, in the order shown to it. */
static const char *const wanted[] = {
	".debug_info", ".debug_types", ".debug_abbrev", ".debug_str",
	".debug_line", ".debug_line_str", ".debug_str_offsets", ".debug_addr",
};
#define NWANTED (sizeof(wanted) / sizeof(wanted[0]))

uint64_t sf_elf_read(const struct sf_elf *e, const unsigned char *p, unsigned n)
{
	uint64_t v = 0;

	assert(n == 1 || n == 2 || n == 4 || n == 8);
	for (unsigned i = 0; i < n; i++) {
		unsigned shift = e->msb ? 8 * (n - 1 - i) : 8 * i;
		v |= (uint64_t)p[i] << shift;
	}
	return v;
}

static void write_n(const struct sf_elf *e, unsigned char *p, unsigned n, uint64_t v)
{
	for (unsigned i = 0; i < n; i++) {
		unsigned shift = e->msb ? 8 * (n - 1 - i) : 8 * i;
		p[i] = (unsigned char)(v >> shift);
	}
}

int sf_elf_is_elf(const unsigned char *image, size_t size)
{
	return size >= 4 && !memcmp(image, "\177ELF", 4);
}

/* Is [off, off + len) inside an image of `size` bytes (no wrap-around)? */
static int in_range(uint64_t off, uint64_t len, size_t size)
{
	return off <= size && len <= size - off;
}

static int parse_ehdr(struct sf_elf *e, uint64_t *shoff, uint32_t *shentsize,
		      uint32_t *shnum, uint32_t *shstrndx, struct sf_err *err)
{
	const unsigned char *p = e->image;

	if (e->size < 16 || !sf_elf_is_elf(p, e->size))
		return sf_error(err, "%s: not an ELF file", e->label);
	if (p[4] != 1 && p[4] != 2)
		return sf_error(err, "%s: unsupported ELF class %u", e->label, p[4]);
	if (p[5] != 1 && p[5] != 2)
		return sf_error(err, "%s: unsupported ELF data encoding %u", e->label, p[5]);
	e->is64 = p[4] == 2;
	e->msb = p[5] == 2;
	e->addr_size = e->is64 ? 8 : 4;
	if (e->size < (e->is64 ? 64u : 52u))
		return sf_error(err, "%s: truncated ELF (file header cut short)", e->label);
	e->type = (uint16_t)sf_elf_read(e, p + 16, 2);
	e->machine = (uint16_t)sf_elf_read(e, p + 18, 2);
	if (e->is64) {
		*shoff = sf_elf_read(e, p + 0x28, 8);
		*shentsize = (uint32_t)sf_elf_read(e, p + 0x3a, 2);
		*shnum = (uint32_t)sf_elf_read(e, p + 0x3c, 2);
		*shstrndx = (uint32_t)sf_elf_read(e, p + 0x3e, 2);
	} else {
		*shoff = sf_elf_read(e, p + 0x20, 4);
		*shentsize = (uint32_t)sf_elf_read(e, p + 0x2e, 2);
		*shnum = (uint32_t)sf_elf_read(e, p + 0x30, 2);
		*shstrndx = (uint32_t)sf_elf_read(e, p + 0x32, 2);
	}
	return 0;
}

/* Fill s from the raw section header at h. */
static void read_shdr(const struct sf_elf *e, const unsigned char *h,
		      struct sf_elf_sec *s, uint32_t *name_off, uint64_t *off)
{
	if (e->is64) {
		*name_off = (uint32_t)sf_elf_read(e, h, 4);
		s->type = (uint32_t)sf_elf_read(e, h + 4, 4);
		s->flags = sf_elf_read(e, h + 8, 8);
		*off = sf_elf_read(e, h + 24, 8);
		s->size = sf_elf_read(e, h + 32, 8);
		s->link = (uint32_t)sf_elf_read(e, h + 40, 4);
		s->info = (uint32_t)sf_elf_read(e, h + 44, 4);
		s->entsize = sf_elf_read(e, h + 56, 8);
	} else {
		*name_off = (uint32_t)sf_elf_read(e, h, 4);
		s->type = (uint32_t)sf_elf_read(e, h + 4, 4);
		s->flags = sf_elf_read(e, h + 8, 4);
		*off = sf_elf_read(e, h + 16, 4);
		s->size = sf_elf_read(e, h + 20, 4);
		s->link = (uint32_t)sf_elf_read(e, h + 24, 4);
		s->info = (uint32_t)sf_elf_read(e, h + 28, 4);
		s->entsize = sf_elf_read(e, h + 36, 4);
	}
}

/* Section names: a NUL-terminated string inside .shstrtab, else "". */
static void name_sections(struct sf_elf *e, const uint32_t *name_off, uint32_t shstrndx)
{
	const struct sf_elf_sec *strtab = shstrndx < e->nsec ? &e->sec[shstrndx] : NULL;

	for (uint32_t i = 0; i < e->nsec; i++) {
		e->sec[i].name = "";
		if (!strtab || !strtab->data || name_off[i] >= strtab->size)
			continue;
		const char *s = (const char *)strtab->data + name_off[i];
		if (memchr(s, '\0', strtab->size - name_off[i]))
			e->sec[i].name = s;
	}
}

int sf_elf_parse(struct sf_elf *e, const unsigned char *image, size_t size,
		 const char *label, struct sf_err *err)
{
	uint64_t shoff = 0;
	uint32_t shentsize = 0, shnum = 0, shstrndx = 0;

	memset(e, 0, sizeof(*e));
	e->label = label;
	e->image = image;
	e->size = size;
	if (parse_ehdr(e, &shoff, &shentsize, &shnum, &shstrndx, err) < 0)
		return -1;
	if (shoff == 0)
		return 0;	/* no section table: no DWARF, said later */
	if (shentsize < (e->is64 ? 64u : 40u))
		return sf_error(err, "%s: corrupt ELF (section header size %u)",
				e->label, shentsize);
	if (!in_range(shoff, shentsize, size))
		return sf_error(err, "%s: truncated ELF (section headers past the end of the file)",
				e->label);
	if (shnum == 0 || shstrndx == SHN_XINDEX_) {
		/* more than 65279 sections: the real numbers are in section 0 */
		struct sf_elf_sec s0;
		uint32_t n0;
		uint64_t o0;
		read_shdr(e, image + shoff, &s0, &n0, &o0);
		if (shnum == 0)
			shnum = s0.size > UINT32_MAX ? UINT32_MAX : (uint32_t)s0.size;
		if (shstrndx == SHN_XINDEX_)
			shstrndx = s0.link;
	}
	if ((uint64_t)shnum * shentsize / shentsize != shnum ||
	    !in_range(shoff, (uint64_t)shnum * shentsize, size))
		return sf_error(err, "%s: truncated ELF (section headers past the end of the file)",
				e->label);

	e->nsec = shnum;
	e->sec = sf_xcalloc(shnum, sizeof(*e->sec));
	uint32_t *name_off = sf_xcalloc(shnum, sizeof(*name_off));
	for (uint32_t i = 0; i < shnum; i++) {
		struct sf_elf_sec *s = &e->sec[i];
		uint64_t off;
		read_shdr(e, image + shoff + (uint64_t)i * shentsize, s, &name_off[i], &off);
		if (s->type == SHT_NOBITS_ || s->type == 0) {
			s->size = 0;
			continue;
		}
		if (!in_range(off, s->size, size)) {
			free(name_off);
			sf_elf_release(e);
			return sf_error(err, "%s: truncated ELF (section %u extends past the end of the file)",
					label, i);
		}
		s->data = image + off;
	}
	name_sections(e, name_off, shstrndx);
	free(name_off);
	return 0;
}

void sf_elf_release(struct sf_elf *e)
{
	for (uint32_t i = 0; i < e->nsec; i++)
		free(e->sec[i].owned);
	free(e->sec);
	e->sec = NULL;
	e->nsec = 0;
	e->ndw = 0;
}

/* ---- decompression ---------------------------------------------------- */

static int inflate_into(const unsigned char *src, uint64_t srclen,
			unsigned char *dst, uint64_t dstlen)
{
	z_stream z;
	int rc;

	memset(&z, 0, sizeof(z));
	if (inflateInit(&z) != Z_OK)
		return -1;
	/* zlib counts in uInt: feed and drain in pieces for huge sections */
	uint64_t in_left = srclen, out_left = dstlen;
	z.next_in = (unsigned char *)src;
	z.next_out = dst;
	do {
		if (!z.avail_in) {
			z.avail_in = in_left > 0x40000000u ? 0x40000000u : (uInt)in_left;
			in_left -= z.avail_in;
		}
		if (!z.avail_out) {
			z.avail_out = out_left > 0x40000000u ? 0x40000000u : (uInt)out_left;
			out_left -= z.avail_out;
		}
		rc = inflate(&z, Z_NO_FLUSH);
	} while (rc == Z_OK && (z.avail_in || in_left) && (z.avail_out || out_left));
	int ok = rc == Z_STREAM_END && z.total_out == dstlen;
	inflateEnd(&z);
	return ok ? 0 : -1;
}

/* zlib cannot expand more than ~1032:1; anything claiming more is corrupt. */
static int plausible_size(uint64_t out, uint64_t in)
{
	return out <= in * 1100 + 4096 && out < ((uint64_t)1 << 40);
}

static int decompress_section(struct sf_elf *e, struct sf_elf_sec *s, int zdebug,
			      struct sf_err *err)
{
	uint64_t out_size, hdr;

	if (zdebug) {
		/* ".zdebug_*": "ZLIB" + 8-byte big-endian size + zlib stream */
		if (s->size < 12 || memcmp(s->data, "ZLIB", 4))
			return sf_error(err, "%s: corrupt compressed section %s", e->label, s->name);
		out_size = 0;
		for (int i = 0; i < 8; i++)
			out_size = (out_size << 8) | s->data[4 + i];
		hdr = 12;
	} else {
		hdr = e->is64 ? 24 : 12;
		if (s->size < hdr)
			return sf_error(err, "%s: corrupt compressed section %s", e->label, s->name);
		uint32_t ch_type = (uint32_t)sf_elf_read(e, s->data, 4);
		out_size = sf_elf_read(e, s->data + (e->is64 ? 8 : 4), e->is64 ? 8 : 4);
		if (ch_type == ELFCOMPRESS_ZSTD_)
			return sf_error(err, "%s: section %s is zstd-compressed, which this build cannot read",
					e->label, s->name);
		if (ch_type != ELFCOMPRESS_ZLIB_)
			return sf_error(err, "%s: section %s uses unknown compression %u",
					e->label, s->name, ch_type);
	}
	if (!plausible_size(out_size, s->size - hdr))
		return sf_error(err, "%s: corrupt compressed section %s", e->label, s->name);
	unsigned char *buf = sf_xmalloc(out_size ? out_size : 1);
	if (inflate_into(s->data + hdr, s->size - hdr, buf, out_size) < 0) {
		free(buf);
		return sf_error(err, "%s: corrupt compressed section %s", e->label, s->name);
	}
	free(s->owned);
	s->owned = buf;
	s->data = buf;
	s->size = out_size;
	s->flags &= ~(uint64_t)SHF_COMPRESSED_;
	return 0;
}

/* ---- relocation of debug sections in ET_REL objects ------------------- */

/*
 * Bytes written by an absolute relocation of `type` on this machine, or 0
 * for a relocation that does not matter to type information (PC-relative,
 * TLS, ...: those appear in location expressions and call sites).
 */
static unsigned abs_reloc_width(uint16_t machine, int is64, uint32_t type)
{
	switch (machine) {
	case 62:  /* x86_64: R_X86_64_64, _32, _32S */
		return type == 1 ? 8 : (type == 10 || type == 11) ? 4 : 0;
	case 3:   /* i386: R_386_32 */
		return type == 1 ? 4 : 0;
	case 183: /* aarch64: R_AARCH64_ABS64, ABS32 */
		return type == 257 ? 8 : type == 258 ? 4 : 0;
	case 40:  /* arm: R_ARM_ABS32 */
		return type == 2 ? 4 : 0;
	case 243: /* riscv: R_RISCV_32, _64 */
	case 258: /* loongarch: R_LARCH_32, _64 */
		return type == 1 ? 4 : type == 2 ? 8 : 0;
	case 20:  /* ppc: R_PPC_ADDR32 */
	case 21:  /* ppc64: R_PPC64_ADDR32, ADDR64 */
		return type == 1 ? 4 : type == 38 ? 8 : 0;
	case 22:  /* s390: R_390_32, _64 */
		return type == 4 ? 4 : type == 22 ? 8 : 0;
	case 8:   /* mips o32: R_MIPS_32 (mips64 packs r_info differently) */
		return !is64 && type == 2 ? 4 : 0;
	}
	return 0;
}

struct symtab {
	const unsigned char *data;
	uint64_t count;
	unsigned entsize;
};

/* st_value of symbol i, or -1 when out of range. */
static int sym_value(const struct sf_elf *e, const struct symtab *st, uint64_t i,
		     uint64_t *value)
{
	if (i >= st->count)
		return -1;
	const unsigned char *p = st->data + i * st->entsize;
	*value = e->is64 ? sf_elf_read(e, p + 8, 8) : sf_elf_read(e, p + 4, 4);
	return 0;
}

static int get_symtab(const struct sf_elf *e, uint32_t idx, struct symtab *st)
{
	if (idx >= e->nsec || e->sec[idx].type != SHT_SYMTAB_ || !e->sec[idx].data)
		return -1;
	st->entsize = e->is64 ? 24 : 16;
	st->data = e->sec[idx].data;
	st->count = e->sec[idx].size / st->entsize;
	return 0;
}

/* Make s writable: its own copy. */
static unsigned char *own(struct sf_elf_sec *s)
{
	if (!s->owned) {
		s->owned = sf_xmalloc(s->size ? s->size : 1);
		memcpy(s->owned, s->data, s->size);
		s->data = s->owned;
	}
	return s->owned;
}

static void apply_relocs(struct sf_elf *e, const struct sf_elf_sec *rs,
			 struct sf_elf_sec *target)
{
	int rela = rs->type == SHT_RELA_;
	unsigned word = e->is64 ? 8 : 4;
	unsigned entsize = word * (rela ? 3 : 2);
	struct symtab st;

	if (!rs->data || get_symtab(e, rs->link, &st) < 0)
		return;
	unsigned char *out = own(target);
	for (uint64_t off = 0; off + entsize <= rs->size; off += entsize) {
		const unsigned char *r = rs->data + off;
		uint64_t where = sf_elf_read(e, r, word);
		uint64_t info = sf_elf_read(e, r + word, word);
		uint64_t sym = e->is64 ? info >> 32 : info >> 8;
		uint32_t type = e->is64 ? (uint32_t)info : (uint32_t)(info & 0xff);
		unsigned width = abs_reloc_width(e->machine, e->is64, type);
		uint64_t value;

		if (!width || !in_range(where, width, target->size) ||
		    sym_value(e, &st, sym, &value) < 0)
			continue;
		uint64_t addend = rela ? sf_elf_read(e, r + 2 * word, word)
				       : sf_elf_read(e, out + where, width);
		write_n(e, out + where, width, value + addend);
	}
}

/* ---- choosing what libdwarf sees -------------------------------------- */

/* Index in wanted[] of a section name (".zdebug_x" counts as ".debug_x"). */
static int wanted_index(const char *name, int *zdebug)
{
	*zdebug = !strncmp(name, ".zdebug_", 8);
	for (size_t i = 0; i < NWANTED; i++) {
		if (*zdebug ? !strcmp(name + 2, wanted[i] + 1) : !strcmp(name, wanted[i]))
			return (int)i;
	}
	return -1;
}

/* The file name a .gnu_debuglink section points to, if any. */
static const char *debuglink(const struct sf_elf *e)
{
	for (uint32_t i = 0; i < e->nsec; i++) {
		const struct sf_elf_sec *s = &e->sec[i];
		if (!strcmp(s->name, ".gnu_debuglink") && s->data && s->size &&
		    memchr(s->data, '\0', s->size) && s->data[0])
			return (const char *)s->data;
	}
	return NULL;
}

static int no_dwarf(struct sf_elf *e, struct sf_err *err)
{
	const char *link = debuglink(e);

	if (link)
		sf_error(err, "%s: no DWARF (stripped; debug info is in %s)", e->label, link);
	else
		sf_error(err, "%s: no DWARF debug info (stripped or built without -g)", e->label);
	return 0;
}

/* Apply the relocations that target section `idx` (a piece of a .o). */
static int relocate_section(struct sf_elf *e, uint32_t idx, struct sf_err *err)
{
	for (uint32_t i = 1; i < e->nsec; i++) {
		struct sf_elf_sec *rs = &e->sec[i];
		if ((rs->type != SHT_RELA_ && rs->type != SHT_REL_) || rs->info != idx)
			continue;
		if ((rs->flags & SHF_COMPRESSED_) && decompress_section(e, rs, 0, err) < 0)
			return -1;
		apply_relocs(e, rs, &e->sec[idx]);
	}
	return 0;
}

/*
 * Glue the pieces of one section name into the first piece: a .o built
 * with -fdebug-types-section has one .debug_types (or DWARF 5 .debug_info)
 * section per type unit, each in its own COMDAT group.  Units are
 * self-contained, so concatenated pieces read as one section.
 */
static void concatenate(struct sf_elf *e, const uint32_t *idx, size_t n)
{
	uint64_t total = 0;

	for (size_t i = 0; i < n; i++)
		total += e->sec[idx[i]].size;
	unsigned char *buf = sf_xmalloc(total ? total : 1), *p = buf;
	for (size_t i = 0; i < n; i++) {
		memcpy(p, e->sec[idx[i]].data, e->sec[idx[i]].size);
		p += e->sec[idx[i]].size;
	}
	struct sf_elf_sec *first = &e->sec[idx[0]];
	free(first->owned);
	first->owned = buf;
	first->data = buf;
	first->size = total;
}

int sf_elf_prepare_debug(struct sf_elf *e, struct sf_err *err)
{
	uint32_t *pieces[NWANTED] = { NULL };
	size_t npieces[NWANTED] = { 0 }, caps[NWANTED] = { 0 };
	int zdebug, rc = 1;

	/* ungrouped sections first, then COMDAT group members in file order */
	for (int pass = 0; pass < 2; pass++) {
		for (uint32_t i = 1; i < e->nsec; i++) {
			const struct sf_elf_sec *s = &e->sec[i];
			int w = wanted_index(s->name, &zdebug);
			if (w < 0 || !s->data || !!(s->flags & SHF_GROUP_) != pass)
				continue;
			/* a linked file has one of each; only a .o has pieces */
			if (npieces[w] && e->type != ET_REL_)
				continue;
			SF_GROW(pieces[w], npieces[w], caps[w]);
			pieces[w][npieces[w]++] = i;
		}
	}
	if (!npieces[0] && !npieces[1]) {
		rc = no_dwarf(e, err);
		goto out;
	}
	e->ndw = 1;
	e->dw[0] = 0;
	e->dw_name[0] = "";
	for (size_t w = 0; w < NWANTED; w++) {
		for (size_t k = 0; k < npieces[w]; k++) {
			struct sf_elf_sec *s = &e->sec[pieces[w][k]];
			wanted_index(s->name, &zdebug);
			if ((zdebug || (s->flags & SHF_COMPRESSED_)) &&
			    decompress_section(e, s, zdebug, err) < 0) {
				rc = -1;
				goto out;
			}
			/* a .o: resolve the relocations into this piece (string
			 * offsets, abbrev and line table offsets...) */
			if (e->type == ET_REL_ && relocate_section(e, pieces[w][k], err) < 0) {
				rc = -1;
				goto out;
			}
		}
		if (!npieces[w])
			continue;
		if (npieces[w] > 1)
			concatenate(e, pieces[w], npieces[w]);
		e->dw[e->ndw] = pieces[w][0];
		e->dw_name[e->ndw] = wanted[w];
		e->ndw++;
	}
out:
	for (size_t w = 0; w < NWANTED; w++)
		free(pieces[w]);
	return rc;
}

/* ---- Dwarf_Obj_Access_Interface --------------------------------------- */

static int obj_section_info(void *obj, Dwarf_Half idx, Dwarf_Obj_Access_Section *out,
			    int *error)
{
	const struct sf_elf *e = obj;

	(void)error;
	if (idx >= e->ndw)
		return DW_DLV_NO_ENTRY;
	memset(out, 0, sizeof(*out));
	out->name = e->dw_name[idx];
	if (idx == 0)
		return DW_DLV_OK;
	out->type = 1; /* SHT_PROGBITS: libdwarf ignores group/reloc types */
	out->size = e->sec[e->dw[idx]].size;
	return DW_DLV_OK;
}

static Dwarf_Endianness obj_byte_order(void *obj)
{
	return ((const struct sf_elf *)obj)->msb ? DW_OBJECT_MSB : DW_OBJECT_LSB;
}

static Dwarf_Small obj_length_size(void *obj)
{
	return ((const struct sf_elf *)obj)->is64 ? 8 : 4;
}

static Dwarf_Small obj_pointer_size(void *obj)
{
	return ((const struct sf_elf *)obj)->addr_size;
}

static Dwarf_Unsigned obj_section_count(void *obj)
{
	return ((const struct sf_elf *)obj)->ndw;
}

static int obj_load_section(void *obj, Dwarf_Half idx, Dwarf_Small **data, int *error)
{
	const struct sf_elf *e = obj;

	(void)error;
	if (idx == 0 || idx >= e->ndw)
		return DW_DLV_NO_ENTRY;
	/* libdwarf only reads the bytes; the cast drops const for its API */
	*data = (Dwarf_Small *)(uintptr_t)e->sec[e->dw[idx]].data;
	return DW_DLV_OK;
}

static const Dwarf_Obj_Access_Methods obj_methods = {
	obj_section_info, obj_byte_order, obj_length_size, obj_pointer_size,
	obj_section_count, obj_load_section, NULL,
};

int sf_elf_dwarf_open(struct sf_elf *e, Dwarf_Obj_Access_Interface **iface,
		      Dwarf_Debug *dbg, struct sf_err *err)
{
	Dwarf_Error derr = NULL;

	*iface = sf_xcalloc(1, sizeof(**iface));
	(*iface)->object = e;
	(*iface)->methods = &obj_methods;
	int rc = dwarf_object_init_b(*iface, NULL, NULL, DW_GROUPNUMBER_ANY, dbg, &derr);
	if (rc != DW_DLV_OK) {
		if (rc == DW_DLV_ERROR) {
			sf_error(err, "%s: corrupt DWARF (%s)", e->label, dwarf_errmsg(derr));
			dwarf_dealloc(NULL, derr, DW_DLA_ERROR);
		} else {
			sf_error(err, "%s: no DWARF debug info", e->label);
		}
		free(*iface);
		*iface = NULL;
		return -1;
	}
	return 0;
}

void sf_elf_dwarf_close(Dwarf_Obj_Access_Interface *iface, Dwarf_Debug dbg)
{
	Dwarf_Error derr = NULL;

	if (dbg)
		dwarf_object_finish(dbg, &derr);
	free(iface);
}
