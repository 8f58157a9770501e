/*
 * elfobj.c - read an ELF image through libelf, inflate and relocate its
 * debug sections.
 *
 * libelf (elf_memory over the caller's private mapping) reads the
 * headers and the section table and hands out section bytes with
 * elf_rawdata(): pointers into the mapping, never copies, whatever the
 * byte order - the DIE decoder reads either order itself.  Only what must
 * change gets new memory: a compressed section (libdeflate for
 * ELFCOMPRESS_ZLIB, a whole buffer at once, two to three times as fast as
 * zlib through libelf, which still does the rare GNU .zdebug; libzstd for
 * ELFCOMPRESS_ZSTD, which elfutils 0.188 cannot inflate) and a relocated
 * debug section of a .o (our own copy).
 *
 * Relocations stay ours: libelf gives the entries (gelf_getrela/getrel)
 * and symbols (gelf_getsym), but applying them is machine knowledge it
 * leaves to its users.  Only the absolute ones matter to type
 * information; linked files are never relocated (Debian's vmlinux keeps
 * 255 MB of .rela.debug_info from --emit-relocs, already applied).
 */
#include "elfobj.h"

#include <assert.h>
#include <gelf.h>
#include <isa-l/igzip_lib.h>
#include <libdeflate.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <zstd.h>

#include "dwarf/strpack.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "zstream.h"

/* glibc 2.36's <elf.h> predates the gABI's zstd value. */
#ifndef ELFCOMPRESS_ZSTD
#define ELFCOMPRESS_ZSTD 2
#endif

/* The DWARF sections the reader uses, in the order of dw[]. */
static const char *const wanted[] = {
	".debug_info", ".debug_types", ".debug_abbrev", ".debug_str",
	".debug_line", ".debug_line_str", ".debug_str_offsets", ".debug_addr",
};
#define NWANTED (sizeof(wanted) / sizeof(wanted[0]))
#define W_STR 3		/* wanted[W_STR]: ".debug_str" */
#define W_LINE 4	/* wanted[W_LINE]: ".debug_line" */

/* gcc's slim LTO objects keep their (early) DWARF under this prefix. */
#define LTO_PREFIX ".gnu.debuglto_"

/* Byte i (0 the lowest) of an n-byte number at p, in e's byte order. */
static unsigned byte_at(const struct sf_elf *e, unsigned n, unsigned i)
{
	return e->msb ? n - 1 - i : i;
}

/* Spelled out per width: a relocated .o's debug sections are read and
 * written here once per relocation (libstdc++'s members: 100 k each),
 * and the compiler turns these into single loads and stores. */
uint64_t sf_elf_read(const struct sf_elf *e, const unsigned char *p, unsigned n)
{
	assert(n == 1 || n == 2 || n == 4 || n == 8);
	if (n == 1)
		return p[0];
	if (!e->msb && n == 4)
		return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 |
		       (uint64_t)p[3] << 24;
	if (!e->msb && n == 8)
		return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 |
		       (uint64_t)p[3] << 24 | (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 |
		       (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
	uint64_t v = 0;
	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)p[byte_at(e, n, i)] << (8 * i);
	return v;
}

static void write_n(const struct sf_elf *e, unsigned char *p, unsigned n, uint64_t v)
{
	if (!e->msb && n == 4) {
		p[0] = (unsigned char)v, p[1] = (unsigned char)(v >> 8);
		p[2] = (unsigned char)(v >> 16), p[3] = (unsigned char)(v >> 24);
		return;
	}
	if (!e->msb && n == 8) {
		p[0] = (unsigned char)v, p[1] = (unsigned char)(v >> 8);
		p[2] = (unsigned char)(v >> 16), p[3] = (unsigned char)(v >> 24);
		p[4] = (unsigned char)(v >> 32), p[5] = (unsigned char)(v >> 40);
		p[6] = (unsigned char)(v >> 48), p[7] = (unsigned char)(v >> 56);
		return;
	}
	for (unsigned i = 0; i < n; i++)
		p[byte_at(e, n, i)] = (unsigned char)(v >> (8 * i));
}

int sf_elf_is_elf(const unsigned char *image, size_t size)
{
	return size >= SELFMAG && !memcmp(image, ELFMAG, SELFMAG);
}

/* Is [off, off + len) inside an image of `size` bytes (no wrap-around)? */
static int in_range(uint64_t off, uint64_t len, size_t size)
{
	return off <= size && len <= size - off;
}

/* ---- the file and its section table ------------------------------------ */

/* The file header in host order, through libelf's translators (no Elf
 * handle needed): used to say precisely why libelf refuses a file. */
static int read_ehdr(const struct sf_elf *e, GElf_Ehdr *out)
{
	Elf_Data src = { .d_buf = (void *)(uintptr_t)e->image, .d_type = ELF_T_EHDR,
			 .d_version = EV_CURRENT };
	Elf_Data dst = { .d_type = ELF_T_EHDR, .d_version = EV_CURRENT };
	unsigned enc = e->msb ? ELFDATA2MSB : ELFDATA2LSB;

	if (e->is64) {
		src.d_size = dst.d_size = sizeof(Elf64_Ehdr);
		dst.d_buf = out;	/* GElf_Ehdr is Elf64_Ehdr */
		return elf64_xlatetom(&dst, &src, enc) ? 0 : -1;
	}
	Elf32_Ehdr h;
	src.d_size = dst.d_size = sizeof(h);
	dst.d_buf = &h;
	if (!elf32_xlatetom(&dst, &src, enc))
		return -1;
	memset(out, 0, sizeof(*out));
	memcpy(out->e_ident, h.e_ident, EI_NIDENT);
	out->e_type = h.e_type;
	out->e_machine = h.e_machine;
	out->e_shoff = h.e_shoff;
	out->e_shentsize = h.e_shentsize;
	out->e_shnum = h.e_shnum;
	return 0;
}

/* Identification and file header: the checks that give a precise message
 * where libelf would only say "invalid ELF file". */
static int check_header(struct sf_elf *e, struct sf_err *err)
{
	const unsigned char *p = e->image;
	GElf_Ehdr h;

	if (e->size < EI_NIDENT || !sf_elf_is_elf(p, e->size))
		return sf_error_at(err, e->label, 0, 0, "not an ELF file");
	if (p[EI_CLASS] != ELFCLASS32 && p[EI_CLASS] != ELFCLASS64)
		return sf_error_at(err, e->label, 0, 0, "unsupported ELF class %u",
				p[EI_CLASS]);
	if (p[EI_DATA] != ELFDATA2LSB && p[EI_DATA] != ELFDATA2MSB)
		return sf_error_at(err, e->label, 0, 0,
				"unsupported ELF data encoding %u", p[EI_DATA]);
	e->is64 = p[EI_CLASS] == ELFCLASS64;
	e->msb = p[EI_DATA] == ELFDATA2MSB;
	e->addr_size = e->is64 ? 8 : 4;
	if (e->size < (e->is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr)))
		return sf_error_at(err, e->label, 0, 0,
				"truncated ELF (file header cut short)");
	if (read_ehdr(e, &h) < 0)
		return sf_error_at(err, e->label, 0, 0, "corrupt ELF (%s)", elf_errmsg(-1));
	if (h.e_shoff == 0)
		return 0;
	if (h.e_shentsize != (e->is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr)))
		return sf_error_at(err, e->label, 0, 0, "corrupt ELF (section header size %u)",
				h.e_shentsize);
	/* e_shnum 0: more than 65279 sections, counted in section 0 (libelf
	 * reads that); at least that one header must be there */
	uint64_t n = h.e_shnum ? h.e_shnum : 1;
	if (!in_range(h.e_shoff, n * h.e_shentsize, e->size))
		return sf_error_at(err, e->label, 0, 0,
				"truncated ELF (section headers past the end of the file)");
	return 0;
}

/* Fill e->sec[i] from libelf's view of section i. */
static int read_section(struct sf_elf *e, size_t i, size_t shstrndx, struct sf_err *err)
{
	struct sf_elf_sec *s = &e->sec[i];
	Elf_Scn *scn = elf_getscn(e->elf, i);
	GElf_Shdr sh;

	s->name = "";
	if (!scn || !gelf_getshdr(scn, &sh))
		return sf_error_at(err, e->label, 0, 0, "corrupt ELF (section %zu: %s)",
				i, elf_errmsg(-1));
	s->type = sh.sh_type;
	s->flags = sh.sh_flags;
	s->link = sh.sh_link;
	s->info = sh.sh_info;
	s->entsize = sh.sh_entsize;
	if (shstrndx != SHN_UNDEF) {
		const char *name = elf_strptr(e->elf, shstrndx, sh.sh_name);
		if (name)
			s->name = name;
	}
	if (sh.sh_type == SHT_NOBITS || sh.sh_type == SHT_NULL)
		return 0;
	if (!in_range(sh.sh_offset, sh.sh_size, e->size))
		return sf_error_at(err, e->label, 0, 0,
				"truncated ELF (section %zu extends past the end of the file)", i);
	Elf_Data *d = elf_rawdata(scn, NULL);
	if (!d || d->d_size != sh.sh_size || (d->d_size && !d->d_buf))
		return sf_error_at(err, e->label, 0, 0, "corrupt ELF (section %zu: %s)",
				i, elf_errmsg(-1));
	s->data = d->d_buf;
	s->size = d->d_size;
	return 0;
}

/*
 * libelf works only once told its version, which sets a flag of its own,
 * and libdeflate picks its inflater and checksum for this CPU on their
 * first call, storing function pointers: both done once, before any
 * thread reads an image (images are parsed on the load's threads side
 * by side, and two stores to one variable are a race).
 */
static pthread_once_t libs_ready = PTHREAD_ONCE_INIT;

static void start_libs(void)
{
	/* the zlib stream of nothing: inflating it runs both choices */
	static const unsigned char empty[] = { 0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01 };
	struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
	unsigned char out[1];

	elf_version(EV_CURRENT);
	if (d) {
		libdeflate_zlib_decompress(d, empty, sizeof(empty), out, 0, NULL);
		libdeflate_free_decompressor(d);
	}
}

void sf_elf_init(void)
{
	pthread_once(&libs_ready, start_libs);
}

int sf_elf_parse(struct sf_elf *e, unsigned char *image, size_t size,
		 const char *label, struct sf_err *err)
{
	GElf_Ehdr h;
	size_t n = 0, shstrndx = SHN_UNDEF;

	memset(e, 0, sizeof(*e));
	e->label = label;
	e->image = image;
	e->size = size;
	if (check_header(e, err) < 0)
		return -1;
	sf_elf_init();
	e->elf = elf_memory((char *)image, size);
	if (!e->elf || elf_kind(e->elf) != ELF_K_ELF || !gelf_getehdr(e->elf, &h)) {
		sf_error_at(err, label, 0, 0, "corrupt ELF (%s)", elf_errmsg(-1));
		sf_elf_release(e);
		return -1;
	}
	e->type = h.e_type;
	e->machine = h.e_machine;
	if (h.e_shoff == 0)
		return 0;	/* no section table: no DWARF, said later */
	if (elf_getshdrnum(e->elf, &n) < 0 || n > UINT32_MAX) {
		sf_error_at(err, label, 0, 0, "corrupt ELF (%s)", elf_errmsg(-1));
		sf_elf_release(e);
		return -1;
	}
	if (elf_getshdrstrndx(e->elf, &shstrndx) < 0 || shstrndx >= n)
		shstrndx = SHN_UNDEF;	/* no names: no DWARF, said later */
	e->nsec = (uint32_t)n;
	e->sec = sf_xcalloc(n, sizeof(*e->sec));
	for (size_t i = 0; i < n; i++) {
		if (read_section(e, i, shstrndx, err) < 0) {
			sf_elf_release(e);
			return -1;
		}
	}
	return 0;
}

void sf_elf_release(struct sf_elf *e)
{
	for (uint32_t i = 0; i < e->nsec; i++) {
		free(e->sec[i].owned);
		sf_strpack_free(e->sec[i].pack);
		sf_zstream_free(e->sec[i].z);
		if (e->sec[i].sparse)
			munmap(e->sec[i].sparse, e->sec[i].sparse_len);
	}
	free(e->sec);
	e->sec = NULL;
	e->nsec = 0;
	e->ndw = 0;
	if (e->elf)
		elf_end(e->elf);
	e->elf = NULL;
}

/* ---- decompression ------------------------------------------------------ */

/* The bytes of a gABI compression header (Elf64_Chdr or Elf32_Chdr). */
static size_t chdr_size(const struct sf_elf *e)
{
	return e->is64 ? sizeof(Elf64_Chdr) : sizeof(Elf32_Chdr);
}

/* zstd can express ~32768:1 (runs of one byte); a claim beyond that is
 * corrupt and must not make us allocate it. */
static int plausible_zstd(uint64_t out, uint64_t in)
{
	return out <= in * 32768 + 4096 && out < ((uint64_t)1 << 40);
}

/* s's bytes are now buf's (inflated, ours to free and relocate); the
 * pages wholly inside its compressed bytes leave the process when they
 * are a file's (e->file_backed). */
static void own_inflated(const struct sf_elf *e, struct sf_elf_sec *s, unsigned char *buf,
			 size_t size)
{
	if (e->file_backed && !s->owned)
		(void)sf_drop_pages(s->data, s->data + s->size, 0);
	free(s->owned);
	s->owned = s->mut = buf;
	s->data = buf;
	s->size = size;
}

/* A gABI section compressed with zstd, into a buffer of ours. */
static int inflate_zstd(struct sf_elf *e, struct sf_elf_sec *s, const GElf_Chdr *ch,
			struct sf_err *err)
{
	size_t hdr = chdr_size(e);
	const unsigned char *src = s->data + hdr;
	size_t srclen = s->size - hdr;
	/* the first frame's size, when it says: more than the whole is a lie */
	unsigned long long first = ZSTD_getFrameContentSize(src, srclen);

	if (first == ZSTD_CONTENTSIZE_ERROR ||
	    (first != ZSTD_CONTENTSIZE_UNKNOWN && first > ch->ch_size) ||
	    !plausible_zstd(ch->ch_size, srclen))
		return sf_error_at(err, e->label, 0, 0, "corrupt compressed section %s",
				s->name);
	unsigned char *buf = sf_xmalloc_huge(ch->ch_size);
	size_t got = ZSTD_decompress(buf, ch->ch_size, src, srclen);
	if (ZSTD_isError(got) || got != ch->ch_size) {
		free(buf);
		return sf_error_at(err, e->label, 0, 0, "corrupt compressed section %s",
				s->name);
	}
	own_inflated(e, s, buf, ch->ch_size);
	return 0;
}

/* deflate cannot do better than about 1032:1 */
static int plausible_zlib(uint64_t out, uint64_t in)
{
	return out <= in * 1032 + 4096 && out < ((uint64_t)1 << 40);
}

/* The zlib stream src[0, srclen) inflated whole into a buffer of ours of
 * `size` bytes, its Adler-32 checked; NULL when it is corrupt (more or
 * fewer bytes than size is). */
static unsigned char *zlib_whole(const unsigned char *src, size_t srclen, uint64_t size)
{
	struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
	size_t got = 0;

	if (!d)
		sf_xmalloc(SIZE_MAX);	/* out of memory: said, exit 2 (lib/xalloc.h) */
	unsigned char *buf = sf_xmalloc_huge(size ? size : 1);
	enum libdeflate_result r = libdeflate_zlib_decompress(d, src, srclen, buf, size, &got);
	libdeflate_free_decompressor(d);
	if (r != LIBDEFLATE_SUCCESS || got != size) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* A gABI section compressed with zlib, into a buffer of ours. */
static int inflate_zlib(struct sf_elf *e, struct sf_elf_sec *s, const GElf_Chdr *ch,
			struct sf_err *err)
{
	size_t hdr = chdr_size(e);
	unsigned char *buf = s->size >= hdr && plausible_zlib(ch->ch_size, s->size - hdr)
			     ? zlib_whole(s->data + hdr, s->size - hdr, ch->ch_size) : NULL;

	if (!buf)
		return sf_error_at(err, e->label, 0, 0, "corrupt compressed section %s",
				s->name);
	own_inflated(e, s, buf, ch->ch_size);
	return 0;
}

/* e->stream_min / k, at least 1: the sizes from which a linked file's
 * sections are read piecewise (.debug_info, k = 1), aside (.debug_str,
 * k = 2) or sparse (.debug_line, k = 8). */
static uint64_t stream_min_over(const struct sf_elf *e, unsigned k)
{
	return e->stream_min / k ? e->stream_min / k : 1;
}

/* The size from which a stream keeps whole the huge pages its readers
 * still share (sf_zstream_new): 8 times e->stream_min, 64 MiB by default
 * (so that STRUCTFIT_STREAM_MIN=1 takes small tests there too). */
static uint64_t stream_hold_from(const struct sf_elf *e)
{
	return e->stream_min > UINT64_MAX / 8 ? UINT64_MAX : e->stream_min * 8;
}

/*
 * Whether section idx is one to read so: zlib-compressed (gABI), of at
 * least `least` bytes inflated and a plausible ratio, in a linked file
 * (a .o's relocations rewrite its sections), e->stream_min not 0; *ch
 * gets its header.
 */
static int linked_zlib(const struct sf_elf *e, uint32_t idx, uint64_t least, GElf_Chdr *ch)
{
	const struct sf_elf_sec *s = &e->sec[idx];
	size_t hdr = chdr_size(e);
	Elf_Scn *scn = elf_getscn(e->elf, idx);

	return e->stream_min && e->type != ET_REL && (s->flags & SHF_COMPRESSED) && scn &&
	       gelf_getchdr(scn, ch) && ch->ch_type == ELFCOMPRESS_ZLIB && ch->ch_size >= least &&
	       ch->ch_size <= SIZE_MAX && s->size >= hdr && plausible_zlib(ch->ch_size, s->size - hdr);
}

/*
 * .debug_info (section idx) left to be inflated piecewise when
 * linked_zlib from e->stream_min: 1, or 0 when it is not to be.
 */
static int defer_info(struct sf_elf *e, uint32_t idx)
{
	struct sf_elf_sec *s = &e->sec[idx];
	GElf_Chdr ch;

	if (!linked_zlib(e, idx, stream_min_over(e, 1), &ch))
		return 0;
	struct sf_zstream *z = sf_zstream_new(s->data + chdr_size(e), s->size - chdr_size(e),
					      ch.ch_size, e->file_backed, stream_hold_from(e));
	if (!z)
		return 0;
	s->z = z;
	s->data = sf_zstream_base(z);
	s->size = ch.ch_size;
	s->flags &= ~(uint64_t)SHF_COMPRESSED;
	return 1;
}

/*
 * .debug_line's header of the line table at off (of inflated bytes
 * p[0, have)): where the header ends and where the next table starts,
 * both at most `size`.  Only the headers are read (their file lists name
 * DW_AT_decl_file); the line programs after them never are.  0, or -1
 * when the bytes there are no table header (then everything is kept).
 */
static int line_table_at(const struct sf_elf *e, const unsigned char *p, uint64_t have,
			 uint64_t off, uint64_t size, uint64_t *hdr_end, uint64_t *next)
{
	uint64_t q = off, len, os = 4;

	if (have < off + 4)
		return -1;
	len = sf_elf_read(e, p + q, 4);
	q += 4;
	if (len == 0xffffffffu) {
		if (have < q + 8)
			return -1;
		len = sf_elf_read(e, p + q, 8);
		q += 8;
		os = 8;
	} else if (len >= 0xfffffff0u) {
		return -1;
	}
	if (len > size - q || have < q + 2)
		return -1;
	*next = q + len;
	unsigned version = (unsigned)sf_elf_read(e, p + q, 2);
	q += 2 + (version >= 5 ? 2 : 0);
	if (version < 2 || version > 5 || have < q + os || q + os > *next)
		return -1;
	uint64_t hlen = sf_elf_read(e, p + q, (unsigned)os);
	q += os;
	*hdr_end = hlen > *next - q ? *next : q + hlen;
	return 0;
}

/* release the stream's pages behind us in steps this big (each release
 * is a system call and a TLB flush) */
#define LINE_RELEASE_STEP ((uint64_t)4 << 20)

/*
 * .debug_line (section idx, linked_zlib from an eighth of the size
 * .debug_info is streamed from, 1 MiB by default: only its headers stay,
 * so doing so costs little) inflated through a stream,
 * keeping only the line tables' headers: copied at their offsets into a
 * mapping of the section's size whose other pages are never touched, so
 * they take no memory (libceph-common's .debug_line: 15.6 MB inflated,
 * its headers a few hundred KB).  1 done; 0 not done (inflate it whole);
 * -1 corrupt.
 */
static int sparse_line(struct sf_elf *e, uint32_t idx, struct sf_err *err)
{
	struct sf_elf_sec *s = &e->sec[idx];
	GElf_Chdr ch;

	assert(!strcmp(wanted[W_LINE], ".debug_line"));
	if (!linked_zlib(e, idx, stream_min_over(e, 8), &ch))
		return 0;
	struct sf_zstream *z = sf_zstream_new(s->data + chdr_size(e), s->size - chdr_size(e),
					      ch.ch_size, e->file_backed, stream_hold_from(e));
	size_t maplen = ch.ch_size ? (size_t)ch.ch_size : 1;
	void *map = z ? mmap(NULL, maplen, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)
		      : MAP_FAILED;
	if (map == MAP_FAILED) {
		sf_zstream_free(z);
		return 0;
	}
	const unsigned char *in = sf_zstream_base(z);
	unsigned char *out = map;
	uint64_t size = ch.ch_size, off = 0, released = 0;
	int rc = 0;
	while (rc == 0 && off < size) {
		uint64_t hdr_end = size, next = size;
		/* the longest fixed part: 64-bit length, version, sizes, header length */
		rc = sf_zstream_fill(z, off + 24);
		if (rc == 0 && line_table_at(e, in, sf_zstream_have(z), off, size, &hdr_end,
					     &next) < 0)
			hdr_end = next = size;	/* not a table: keep the rest */
		if (rc == 0)
			rc = sf_zstream_fill(z, hdr_end);
		if (rc == 0)
			memcpy(out + off, in + off, (size_t)(hdr_end - off));
		off = next;
		if (rc == 0 && off - released >= LINE_RELEASE_STEP) {
			rc = sf_zstream_fill(z, off);
			sf_zstream_release(z, off);
			released = off;
		}
	}
	/* the rest inflated too: the stream's end and checksum checked */
	if (rc == 0)
		rc = sf_zstream_fill(z, size);
	sf_zstream_free(z);
	if (rc < 0) {
		munmap(map, maplen);
		return sf_error_at(err, e->label, 0, 0, "corrupt compressed section %s", s->name);
	}
	if (e->file_backed)
		(void)sf_drop_pages(s->data, s->data + s->size, 0);
	s->sparse = map;
	s->sparse_len = maplen;
	s->data = map;
	s->size = size;
	s->flags &= ~(uint64_t)SHF_COMPRESSED;
	return 1;
}

static const struct sf_elf_sec *info_sec(const struct sf_elf *e)
{
	for (uint32_t k = 1; k < e->ndw; k++)
		if (!strcmp(e->dw_name[k], ".debug_info"))
			return &e->sec[e->dw[k]];
	return NULL;
}

struct sf_zstream *sf_elf_info_stream(const struct sf_elf *e)
{
	const struct sf_elf_sec *s = info_sec(e);

	return s ? s->z : NULL;
}

/* The pack of e's .debug_str, or NULL. */
static struct sf_strpack *str_pack(const struct sf_elf *e)
{
	for (uint32_t k = 1; k < e->ndw; k++)
		if (!strcmp(e->dw_name[k], ".debug_str"))
			return e->sec[e->dw[k]].pack;
	return NULL;
}

const struct sf_strpack *sf_elf_str_pack(const struct sf_elf *e)
{
	return str_pack(e);
}

void sf_elf_strings_read(struct sf_elf *e)
{
	struct sf_strpack *p = str_pack(e);

	if (p)
		sf_strpack_let_go(p);
}

int sf_elf_unstream(struct sf_elf *e, struct sf_err *err)
{
	struct sf_zstream *z = sf_elf_info_stream(e);

	if (z && sf_zstream_fill(z, UINT64_MAX) < 0)
		return sf_error_at(err, e->label, 0, 0, "corrupt compressed section .debug_info");
	return 0;
}

/* Inflate section idx (SHF_COMPRESSED, or a GNU ".zdebug_*" when zdebug). */
static int decompress_section(struct sf_elf *e, uint32_t idx, int zdebug, struct sf_err *err)
{
	struct sf_elf_sec *s = &e->sec[idx];
	Elf_Scn *scn = elf_getscn(e->elf, idx);
	GElf_Chdr ch;

	assert(scn && s->data && !s->mut);
	if (!zdebug) {
		if (!gelf_getchdr(scn, &ch))
			return sf_error_at(err, e->label, 0, 0,
					"corrupt compressed section %s", s->name);
		if (ch.ch_type != ELFCOMPRESS_ZSTD && ch.ch_type != ELFCOMPRESS_ZLIB)
			return sf_error_at(err, e->label, 0, 0,
					"section %s uses unknown compression %u", s->name,
							ch.ch_type);
		if ((ch.ch_type == ELFCOMPRESS_ZSTD ? inflate_zstd(e, s, &ch, err)
						    : inflate_zlib(e, s, &ch, err)) < 0)
			return -1;
		s->flags &= ~(uint64_t)SHF_COMPRESSED;
		return 0;
	}
	/* .zdebug: libelf inflates into a buffer it owns until elf_end */
	if ((zdebug ? elf_compress_gnu(scn, 0, 0) : elf_compress(scn, 0, 0)) != 1)
		return sf_error_at(err, e->label, 0, 0, "corrupt compressed section %s",
				s->name);
	Elf_Data *d = elf_getdata(scn, NULL);
	if (!d || (d->d_size && !d->d_buf))
		return sf_error_at(err, e->label, 0, 0, "corrupt compressed section %s",
				s->name);
	/* libelf's own copy, for this Elf alone: relocate it in place */
	s->data = s->mut = d->d_buf;
	s->size = d->d_size;
	s->flags &= ~(uint64_t)SHF_COMPRESSED;
	return 0;
}

int sf_elf_inflate(struct sf_elf *e, uint32_t idx, struct sf_err *err)
{
	assert(idx < e->nsec);
	if (!(e->sec[idx].flags & SHF_COMPRESSED) || !e->sec[idx].data || e->sec[idx].mut)
		return 0;
	return decompress_section(e, idx, 0, err);
}

/* ---- relocation of debug sections in ET_REL objects ---------------------- */

/* What a relocation does to the bytes at its offset. */
enum rop { R_IGNORE, R_SET, R_ADD, R_SUB, R_SET6, R_SUB6 };

struct rkind {
	enum rop op;
	unsigned width;	/* bytes written */
};

static struct rkind rk(enum rop op, unsigned width)
{
	struct rkind k = { op, width };
	return k;
}

static struct rkind riscv_kind(uint32_t type)
{
	switch (type) {
	case R_RISCV_32: return rk(R_SET, 4);
	case R_RISCV_64: return rk(R_SET, 8);
	case R_RISCV_SET8: return rk(R_SET, 1);
	case R_RISCV_SET16: return rk(R_SET, 2);
	case R_RISCV_SET32: return rk(R_SET, 4);
	case R_RISCV_SET6: return rk(R_SET6, 1);
	case R_RISCV_SUB6: return rk(R_SUB6, 1);
	/* with linker relaxation, lengths and line advances are label
	 * differences: an ADD of the end and a SUB of the start */
	case R_RISCV_ADD8: return rk(R_ADD, 1);
	case R_RISCV_ADD16: return rk(R_ADD, 2);
	case R_RISCV_ADD32: return rk(R_ADD, 4);
	case R_RISCV_ADD64: return rk(R_ADD, 8);
	case R_RISCV_SUB8: return rk(R_SUB, 1);
	case R_RISCV_SUB16: return rk(R_SUB, 2);
	case R_RISCV_SUB32: return rk(R_SUB, 4);
	case R_RISCV_SUB64: return rk(R_SUB, 8);
	}
	return rk(R_IGNORE, 0);	/* R_RISCV_RELAX, _ALIGN: hints to the linker */
}

/*
 * What relocation `type` does on this machine.  Only absolute ones (and
 * riscv's label differences) matter to type information: PC-relative and
 * TLS relocations appear in location expressions and call sites.
 */
static struct rkind reloc_kind(uint16_t machine, int is64, uint32_t type)
{
	switch (machine) {
	case EM_X86_64:
		return type == R_X86_64_64 ? rk(R_SET, 8)
		     : type == R_X86_64_32 || type == R_X86_64_32S ? rk(R_SET, 4) : rk(R_IGNORE, 0);
	case EM_386:
		return type == R_386_32 ? rk(R_SET, 4) : rk(R_IGNORE, 0);
	case EM_AARCH64:
		return type == R_AARCH64_ABS64 ? rk(R_SET, 8)
		     : type == R_AARCH64_ABS32 ? rk(R_SET, 4) : rk(R_IGNORE, 0);
	case EM_ARM:
		return type == R_ARM_ABS32 ? rk(R_SET, 4) : rk(R_IGNORE, 0);
	case EM_RISCV:
		return riscv_kind(type);
	case EM_LOONGARCH:
		return type == R_LARCH_32 ? rk(R_SET, 4)
		     : type == R_LARCH_64 ? rk(R_SET, 8) : rk(R_IGNORE, 0);
	case EM_PPC:
		return type == R_PPC_ADDR32 ? rk(R_SET, 4) : rk(R_IGNORE, 0);
	case EM_PPC64:
		return type == R_PPC64_ADDR32 ? rk(R_SET, 4)
		     : type == R_PPC64_ADDR64 ? rk(R_SET, 8) : rk(R_IGNORE, 0);
	case EM_S390:
		return type == R_390_32 ? rk(R_SET, 4)
		     : type == R_390_64 ? rk(R_SET, 8) : rk(R_IGNORE, 0);
	case EM_MIPS:
		return type == R_MIPS_32 ? rk(R_SET, 4)
		     : type == R_MIPS_64 && is64 ? rk(R_SET, 8) : rk(R_IGNORE, 0);
	}
	return rk(R_IGNORE, 0);
}

/*
 * Symbol and type of a relocation.  MIPS64 is the odd one: its r_info is
 * a 32-bit symbol then four 1-byte fields (ssym, type3, type2, type),
 * which gelf reads as one 64-bit number.  Debug sections use one type
 * (type2 = type3 = R_MIPS_NONE).
 */
static void reloc_sym_type(const struct sf_elf *e, uint64_t info, uint64_t *sym, uint32_t *type)
{
	if (e->machine == EM_MIPS && e->is64) {
		if (e->msb) {
			*sym = info >> 32;
			*type = (uint32_t)(info & 0xff);
		} else {
			*sym = info & 0xffffffffu;
			*type = (uint32_t)(info >> 56);
		}
		return;
	}
	*sym = GELF_R_SYM(info);
	*type = GELF_R_TYPE(info);
}

/* Make s writable: a copy of ours unless it is already writable. */
static unsigned char *own(struct sf_elf_sec *s)
{
	if (!s->mut) {
		assert(!s->owned);
		s->owned = s->mut = sf_xmalloc(s->size);
		memcpy(s->owned, s->data, s->size);
		s->data = s->owned;
	}
	return s->mut;
}

/* The new bytes at p (width w) after a relocation of value v = S + A. */
static uint64_t relocated(const struct sf_elf *e, const unsigned char *p, struct rkind k,
			  uint64_t v)
{
	if (k.op == R_SET)
		return v;	/* the usual one: what was there does not count */
	uint64_t old = sf_elf_read(e, p, k.width);

	switch (k.op) {
	case R_SET: return v;
	case R_ADD: return old + v;
	case R_SUB: return old - v;
	case R_SET6: return (old & 0xc0) | (v & 0x3f);
	case R_SUB6: return (old & 0xc0) | ((old - v) & 0x3f);
	case R_IGNORE: break;
	}
	assert(!"ignored relocations are not applied");
	return old;
}

/* Does this machine read multi-byte numbers most significant byte first? */
static int host_msb(void)
{
	const uint16_t one = 1;
	unsigned char first;

	memcpy(&first, &one, 1);
	return first == 0;
}

/*
 * A relocation section's entries and the symbols they name, as
 * apply_relocs reads them: straight from the sections' bytes when those
 * are laid out as this machine reads them (64-bit RELA in the host's byte
 * order: the usual .o), else through libelf.  libelf converts, and copies
 * whole a section that sits at an address its entries' alignment does not
 * divide: the archive members whose offset is not a multiple of 8 (ar
 * aligns them to 2) had their .rela.debug_* and .symtab copied, 12 % of
 * libpython3.11d.a's CPU and 1.4 MB of heap per thread at its peak.
 */
struct rtab {
	const unsigned char *rraw, *sraw;	/* the bytes: entries, symbols */
	Elf_Data *rd, *sd;			/* ...or libelf's data */
	uint64_t n, nsym;			/* entries; symbols (raw) */
	int rela;
};

/* The table of relocation section ri: 0, or -1 when it cannot be read. */
static int open_rtab(const struct sf_elf *e, uint32_t ri, struct rtab *t)
{
	const struct sf_elf_sec *rs = &e->sec[ri];
	const struct sf_elf_sec *ss = rs->link < e->nsec ? &e->sec[rs->link] : NULL;

	memset(t, 0, sizeof(*t));
	t->rela = rs->type == SHT_RELA;
	if (!ss || ss->type != SHT_SYMTAB)
		return -1;
	/* rs->data is inflated already (relocate_section) */
	if (t->rela && e->is64 && e->msb == host_msb() && rs->data && ss->data &&
	    !(ss->flags & SHF_COMPRESSED)) {
		t->rraw = rs->data;
		t->n = rs->size / sizeof(Elf64_Rela);
		t->sraw = ss->data;
		t->nsym = ss->size / sizeof(Elf64_Sym);
		return 0;
	}
	size_t entsize = gelf_fsize(e->elf, t->rela ? ELF_T_RELA : ELF_T_REL, 1, EV_CURRENT);
	t->rd = elf_getdata(elf_getscn(e->elf, ri), NULL);
	t->sd = elf_getdata(elf_getscn(e->elf, rs->link), NULL);
	if (!t->rd || !t->sd || !entsize)
		return -1;
	t->n = t->rd->d_size / entsize;
	return 0;
}

/* Entry k (below t->n) of a SHT_REL or SHT_RELA section, as RELA (REL:
 * addend 0). */
static int get_entry(const struct rtab *t, int is64, uint64_t k, GElf_Rela *r)
{
	GElf_Rel rel;

	/* a 64-bit RELA entry in memory is a GElf_Rela: taken as it is, as
	 * gelf_getrela does, without a call per relocation */
	static_assert(sizeof(GElf_Rela) == sizeof(Elf64_Rela), "GElf_Rela is Elf64_Rela");
	if (t->rraw) {
		memcpy(r, t->rraw + k * sizeof(Elf64_Rela), sizeof(*r));
		return 0;
	}
	if (t->rela && is64 && t->rd->d_type == ELF_T_RELA) {
		memcpy(r, (const unsigned char *)t->rd->d_buf + k * sizeof(Elf64_Rela),
		       sizeof(*r));
		return 0;
	}
	if (t->rela)
		return gelf_getrela(t->rd, (int)k, r) ? 0 : -1;
	if (!gelf_getrel(t->rd, (int)k, &rel))
		return -1;
	r->r_offset = rel.r_offset;
	r->r_info = rel.r_info;
	r->r_addend = 0;
	return 0;
}

/* The value of symbol symi (at most INT32_MAX): 0, or -1 when there is
 * no such symbol. */
static int sym_value(const struct rtab *t, uint64_t symi, uint64_t *value)
{
	GElf_Sym sym;

	static_assert(sizeof(GElf_Sym) == sizeof(Elf64_Sym), "GElf_Sym is Elf64_Sym");
	if (t->sraw) {
		if (symi >= t->nsym)
			return -1;
		memcpy(&sym, t->sraw + symi * sizeof(Elf64_Sym), sizeof(sym));
	} else if (!gelf_getsym(t->sd, (int)symi, &sym)) {
		return -1;
	}
	*value = sym.st_value;
	return 0;
}

/* Apply relocation section ri to its target, section ti. */
static void apply_relocs(struct sf_elf *e, uint32_t ri, uint32_t ti)
{
	struct sf_elf_sec *target = &e->sec[ti];
	struct rtab t;

	if (open_rtab(e, ri, &t) < 0 || t.n > INT32_MAX)
		return;
	unsigned char *out = own(target);
	/* a debug section's relocations name a few section symbols over and
	 * over (.debug_str's, .debug_line's): the last one is kept */
	uint64_t last_symi = UINT64_MAX, last_value = 0;
	for (uint64_t k = 0; k < t.n; k++) {
		GElf_Rela r;
		uint64_t symi;
		uint32_t type;

		if (get_entry(&t, e->is64, k, &r) < 0)
			continue;
		reloc_sym_type(e, r.r_info, &symi, &type);
		struct rkind kind = reloc_kind(e->machine, e->is64, type);
		if (kind.op == R_IGNORE || !in_range(r.r_offset, kind.width, target->size) ||
		    symi > INT32_MAX)
			continue;
		if (symi != last_symi) {
			if (sym_value(&t, symi, &last_value) < 0)
				continue;
			last_symi = symi;
		}
		unsigned char *p = out + r.r_offset;
		/* REL keeps the addend in place (only SET relocations there) */
		uint64_t addend = t.rela ? (uint64_t)r.r_addend : sf_elf_read(e, p, kind.width);
		write_n(e, p, kind.width, relocated(e, p, kind, last_value + addend));
	}
}

/* Apply the relocations that target section `idx` (a piece of a .o). */
static int relocate_section(struct sf_elf *e, uint32_t idx, struct sf_err *err)
{
	for (uint32_t i = 1; i < e->nsec; i++) {
		struct sf_elf_sec *rs = &e->sec[i];
		if ((rs->type != SHT_RELA && rs->type != SHT_REL) || rs->info != idx || !rs->data)
			continue;
		if ((rs->flags & SHF_COMPRESSED) && decompress_section(e, i, 0, err) < 0)
			return -1;
		apply_relocs(e, i, idx);
	}
	return 0;
}

/* ---- choosing the DWARF sections ----------------------------------------- */

/*
 * Index in wanted[] of a section name: ".zdebug_x" (GNU compression)
 * counts as ".debug_x", and so does ".gnu.debuglto_.debug_x" when lto.
 */
static int wanted_index(const char *name, int lto, int *zdebug)
{
	if (lto) {
		if (strncmp(name, LTO_PREFIX, strlen(LTO_PREFIX)))
			return -1;
		name += strlen(LTO_PREFIX);
	}
	/* "debug_..." after the dot and the z: a C++ .o has thousands of
	 * other sections (.text._ZN..., .rodata...), refused here at once */
	*zdebug = name[0] == '.' && name[1] == 'z';
	const char *rest = name + 1 + *zdebug;
	if (name[0] != '.' || strncmp(rest, "debug_", 6))
		return -1;
	for (size_t i = 0; i < NWANTED; i++) {
		if (!strcmp(rest, wanted[i] + 1))
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
		sf_error_at(err, e->label, 0, 0,
				"no DWARF (stripped; debug info is in %s)", link);
	else
		sf_error_at(err, e->label, 0, 0,
				"no DWARF debug info (stripped or built without -g)");
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
	unsigned char *buf = sf_xmalloc(total), *p = buf;
	for (size_t i = 0; i < n; i++) {
		memcpy(p, e->sec[idx[i]].data, e->sec[idx[i]].size);
		p += e->sec[idx[i]].size;
	}
	struct sf_elf_sec *first = &e->sec[idx[0]];
	free(first->owned);
	first->owned = first->mut = buf;
	first->data = buf;
	first->size = total;
}

struct pieces {
	uint32_t *idx[NWANTED];
	size_t n[NWANTED], cap[NWANTED];
};

/* Find the pieces of each wanted section, plain or (lto) slim-LTO names.
 * Returns how many .debug_info/.debug_types pieces there are. */
static size_t find_pieces(const struct sf_elf *e, int lto, struct pieces *pc)
{
	int zdebug;

	/* ungrouped sections first, then COMDAT group members in file order */
	for (int pass = 0; pass < 2; pass++) {
		for (uint32_t i = 1; i < e->nsec; i++) {
			const struct sf_elf_sec *s = &e->sec[i];
			int w = wanted_index(s->name, lto, &zdebug);
			if (w < 0 || !s->data || !!(s->flags & SHF_GROUP) != pass)
				continue;
			/* a linked file has one of each; only a .o has pieces */
			if (pc->n[w] && e->type != ET_REL)
				continue;
			SF_GROW(pc->idx[w], pc->n[w], pc->cap[w]);
			pc->idx[w][pc->n[w]++] = i;
		}
	}
	return pc->n[0] + pc->n[1];
}

static void free_pieces(struct pieces *pc)
{
	for (size_t w = 0; w < NWANTED; w++)
		free(pc->idx[w]);
	memset(pc, 0, sizeof(*pc));
}

/*
 * A linked file's zlib-compressed .debug_str of half the size .debug_info
 * is streamed from or more (4 MiB by default; STRUCTFIT_STREAM_MIN=1: any)
 * is inflated on a thread of its own while this one does the other
 * sections and inflates the start of a streamed .debug_info.  Every unit
 * refers to strings all over .debug_str (ld merges and sorts them), so it
 * is inflated whole before any unit is read, and was alone on the
 * critical path (libceph-common's: 64 MB; show's median wall time 1.08 ->
 * 0.98 s).
 */
/* how much of a streamed .debug_info is inflated meanwhile, at most */
#define INFO_AHEAD_MAX ((uint64_t)32 << 20)
#define INFO_AHEAD_STEP ((uint64_t)1 << 20)

struct aside {
	struct sf_elf *e;
	struct sf_elf_sec *s;
	GElf_Chdr ch;
	struct sf_err err;
	int rc;
	atomic_int done;
	pthread_t thread;
};

/* A packed .debug_str's refill (sf_strpack_refill_fn): the section
 * inflated again from its compressed bytes, whole.  It inflated so once:
 * NULL only when the file changed under us. */
static unsigned char *reinflate(void *arg, uint64_t size)
{
	const struct sf_elf_sec *s = arg;

	return zlib_whole(s->zsrc, s->zlen, size);
}

/* How much of a .debug_str is inflated at a time to be packed: a piece
 * stays in the cache while its strings are read */
#define STR_PIECE ((size_t)256 << 10)

/* Inflate the zlib stream src[0, srclen) piece by piece into the pack
 * builder b: 0, or -1 when the stream is corrupt (an error, more or fewer
 * bytes than b's size, a wrong checksum). */
static int inflate_into_pack(struct sf_strpack_build *b, const unsigned char *src,
			     size_t srclen, uint64_t size)
{
	struct inflate_state *st = sf_xmalloc(sizeof(*st));
	size_t cap = STR_PIECE, have = 0;
	unsigned char *piece = sf_xmalloc(cap);
	uint64_t total = 0;
	int rc = -1;

	isal_inflate_init(st);
	st->crc_flag = ISAL_ZLIB;
	st->next_in = (uint8_t *)(uintptr_t)src;
	st->avail_in = (uint32_t)srclen;
	for (;;) {
		st->next_out = piece + have;
		st->avail_out = (uint32_t)(cap - have);
		int r = isal_inflate(st);
		size_t got = cap - have - st->avail_out;
		int finished = st->block_state == ISAL_BLOCK_FINISH;
		total += got;
		have += got;
		if (r < 0 || total > size || (!finished && !got && !st->avail_in))
			break;
		/* `have`, not cap: no byte past what was inflated is read */
		size_t used = sf_strpack_feed(b, piece, have, have);
		memmove(piece, piece + used, have - used);
		have -= used;
		if (finished) {
			rc = total == size ? 0 : -1;
			break;
		}
		if (have == cap)	/* one string longer than the piece */
			piece = sf_xrealloc(piece, cap *= 2);
	}
	free(piece);
	free(st);
	return rc;
}

/*
 * A linked file's .debug_str inflated so that only the strings a layout
 * reads are kept (dwarf/strpack.h): 1 packed, 0 when it is to be read
 * whole (then already inflated when nothing was dropped, else not yet:
 * 4 GiB or more, or no NUL at its end), -1 corrupt (err says).
 */
static int inflate_packed(struct sf_elf *e, struct sf_elf_sec *s, const GElf_Chdr *ch,
			  struct sf_err *err)
{
	size_t hdr = chdr_size(e);

	if (s->size < hdr || !plausible_zlib(ch->ch_size, s->size - hdr))
		return sf_error_at(err, e->label, 0, 0, "corrupt compressed section %s",
				s->name);
	const unsigned char *src = s->data + hdr;
	size_t srclen = s->size - hdr;
	struct sf_strpack_build *b = srclen <= UINT32_MAX ? sf_strpack_begin(ch->ch_size) : NULL;
	if (!b)
		return 0;
	if (inflate_into_pack(b, src, srclen, ch->ch_size) < 0) {
		sf_strpack_abort(b);
		return sf_error_at(err, e->label, 0, 0, "corrupt compressed section %s",
				s->name);
	}
	unsigned char *plain;
	struct sf_strpack *p = sf_strpack_end(b, &plain, reinflate, s);
	if (!p && !plain)
		return 0;
	if (!p) {
		own_inflated(e, s, plain, ch->ch_size);
		return 0;
	}
	s->zsrc = src;
	s->zlen = srclen;
	own_inflated(e, s, NULL, 0);
	s->pack = p;
	s->data = (const unsigned char *)p->data;
	s->size = p->kept;
	return 1;
}

static void *inflate_aside(void *arg)
{
	struct aside *a = arg;

	a->rc = inflate_packed(a->e, a->s, &a->ch, &a->err);
	if (a->rc == 0 && !a->s->owned)
		a->rc = inflate_zlib(a->e, a->s, &a->ch, &a->err);
	atomic_store(&a->done, 1);
	return NULL;
}

/* Start inflating section idx aside, when it is worth it: 1 started. */
static int start_aside(struct sf_elf *e, uint32_t idx, struct aside *a)
{
	memset(a, 0, sizeof(*a));	/* a->err: SF_ERR_INIT */
	a->e = e;
	a->s = &e->sec[idx];
	return linked_zlib(e, idx, stream_min_over(e, 2), &a->ch) &&
	       pthread_create(&a->thread, NULL, inflate_aside, a) == 0;
}

/*
 * While the aside thread runs: the start of a streamed .debug_info, at
 * most half of it.  The aside's packing takes as long as this thread's
 * inflating 6-10 MB of librados' 22.7 MB; with a core busy elsewhere, the
 * aside lagged and this thread inflated it all, every byte held until its
 * run is read: peaks of 40-43 MB, not 36-38.
 */
static void fill_info_meanwhile(struct sf_elf *e, const struct aside *a)
{
	const struct sf_elf_sec *s = info_sec(e);
	struct sf_zstream *z = s ? s->z : NULL;
	uint64_t most = s && s->size / 2 < INFO_AHEAD_MAX ? s->size / 2 : INFO_AHEAD_MAX;

	for (uint64_t to = INFO_AHEAD_STEP; z && to <= most &&
	     !atomic_load(&a->done); to += INFO_AHEAD_STEP)
		if (sf_zstream_fill(z, to) < 0)
			return;	/* said when the reader reaches it */
}

/* The aside thread's end: its section inflated (0), or -1 and a->err
 * says why not. */
static int finish_aside(struct aside *a)
{
	pthread_join(a->thread, NULL);
	if (a->rc < 0)
		return -1;
	a->s->flags &= ~(uint64_t)SHF_COMPRESSED;
	return 0;
}

int sf_elf_prepare_debug(struct sf_elf *e, struct sf_err *err)
{
	struct aside str_aside;
	int aside = 0;
	struct pieces pc = { { NULL }, { 0 }, { 0 } };
	int zdebug, lto = 0, rc = 1;

	/* plain DWARF wins over the early DWARF of a fat LTO object */
	if (!find_pieces(e, 0, &pc)) {
		free_pieces(&pc);
		lto = 1;
		if (!find_pieces(e, 1, &pc)) {
			rc = no_dwarf(e, err);
			goto out;
		}
	}
	static_assert(NWANTED < SF_ELF_MAXDW, "dw[] holds every wanted section");
	e->ndw = 1;
	e->dw[0] = 0;
	e->dw_name[0] = "";
	/* (a GNU .zdebug_str is no SHF_COMPRESSED section: not linked_zlib) */
	if (pc.n[W_STR] == 1)
		aside = start_aside(e, pc.idx[W_STR][0], &str_aside);
	for (size_t w = 0; w < NWANTED; w++) {
		for (size_t k = 0; k < pc.n[w]; k++) {
			uint32_t i = pc.idx[w][k];
			const struct sf_elf_sec *s = &e->sec[i];
			wanted_index(s->name, lto, &zdebug);
			if (aside && w == W_STR)
				continue;	/* inflated aside */
			if (w == 0 && pc.n[w] == 1 && !zdebug && defer_info(e, i))
				continue;
			if (w == W_LINE && pc.n[w] == 1 && !zdebug) {
				int done = sparse_line(e, i, err);
				if (done < 0) {
					rc = -1;
					goto out;
				}
				if (done)
					continue;
			}
			if ((zdebug || (s->flags & SHF_COMPRESSED)) &&
			    decompress_section(e, i, zdebug, err) < 0) {
				rc = -1;
				goto out;
			}
			/* a .o: resolve the relocations into this piece (string
			 * offsets, abbrev and line table offsets...) */
			if (e->type == ET_REL && relocate_section(e, i, err) < 0) {
				rc = -1;
				goto out;
			}
		}
		if (!pc.n[w])
			continue;
		if (pc.n[w] > 1)
			concatenate(e, pc.idx[w], pc.n[w]);
		e->dw[e->ndw] = pc.idx[w][0];
		e->dw_name[e->ndw] = wanted[w];
		e->ndw++;
	}
out:
	if (aside) {
		if (rc >= 0)
			fill_info_meanwhile(e, &str_aside);
		if (finish_aside(&str_aside) < 0 && rc >= 0) {
			*err = str_aside.err;
			rc = -1;
		}
	}
	free_pieces(&pc);
	return rc;
}
