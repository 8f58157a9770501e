/*
 * elfobj.h - one ELF image in memory, read through libelf, its debug
 * sections ready for the DIE decoder.
 *
 * An ELF image is a byte range: a whole mmap'ed file or one member of a
 * static archive.  sf_elf_parse() opens it with libelf (elf_memory over
 * that range: nothing is copied) and keeps a table of its sections:
 *
 *   struct sf_elf
 *   +-----+-------+------+-----+---------+------+--------------------------+
 *   | elf | image | size | msb | machine | type | sec[nsec]  dw[ndw]        |
 *   +-----+-------+------+-----+---------+------+--------------------------+
 *                                                 |          |
 *          name, type, flags, bytes          <----+          +--> indexes of
 *          (into the image, or a buffer of libelf            the DWARF
 *          or of ours when decompressed/relocated)          sections found
 *
 * sec[] is indexed like the file's section table; look sections up there
 * by name.  sf_elf_prepare_debug() makes the debug sections usable:
 * compressed ones (SHF_COMPRESSED with zlib or zstd, GNU .zdebug) are
 * inflated once, and in a relocatable object (ET_REL) the relocations
 * that target them are applied to a private copy.  Everything is
 * read-only afterwards (libelf is never called again), so any number of
 * threads can share one sf_elf: that is how the reader uses both cores
 * without loading the sections twice.
 */
#ifndef SF_ELFOBJ_H
#define SF_ELFOBJ_H

#include <stddef.h>
#include <stdint.h>

#include <libelf.h>

#include "lib/err.h"

struct sf_zstream;

struct sf_elf_sec {
	const char *name;             /* as in the file, NUL-terminated */
	const unsigned char *data;    /* NULL for SHT_NOBITS / SHT_NULL */
	uint64_t size;                /* bytes at data (inflated size) */
	uint64_t flags;
	uint32_t type;
	uint32_t link;
	uint32_t info;
	uint64_t entsize;
	unsigned char *owned;         /* data when we allocated it */
	unsigned char *mut;           /* data when we may change it: owned, or
				       * the buffer libelf inflated it into */
	struct sf_zstream *z;         /* data when it is inflated piecewise
				       * (zstream.h): its bytes come as read */
	unsigned char *sparse;        /* data when only some of its bytes
				       * were kept (.debug_line's headers): a
				       * mapping of sparse_len bytes, the rest
				       * zeros never touched */
	size_t sparse_len;
	struct sf_strpack *pack;      /* data when a .debug_str inflated aside
				       * kept only the strings a layout reads
				       * (dwarf/strpack.h): size is then what
				       * it kept, pack->size the section's */
	const unsigned char *zsrc;    /* the compressed bytes, to inflate */
	size_t zlen;                  /* again on a pack's miss */
};

/* How many DWARF sections sf_elf_prepare_debug() can pick (dw[]). */
#define SF_ELF_MAXDW 16

struct sf_elf {
	const char *label;            /* for messages: path or "lib.a(x.o)" */
	const unsigned char *image;
	size_t size;
	Elf *elf;                     /* libelf's handle over image */
	uint8_t is64;
	uint8_t msb;                  /* big-endian */
	uint8_t addr_size;            /* 4 or 8 */
	uint16_t type;                /* ET_REL, ET_EXEC, ET_DYN, ... */
	uint16_t machine;
	/* image is a private mapping of a file, untouched where a section is
	 * compressed: once inflated, those pages are dropped from the
	 * process (read back from the file if ever read again), not held
	 * beside their inflated copy to the end (libceph-common: 82 MB) */
	uint8_t file_backed;
	/* a zlib-compressed .debug_info of this many bytes inflated or more
	 * is inflated piecewise (sf_elf_info_stream), not at once; 0 never */
	uint64_t stream_min;
	uint32_t nsec;
	struct sf_elf_sec *sec;
	uint32_t ndw;                 /* DWARF sections found, dw[0] = 0 */
	uint32_t dw[SF_ELF_MAXDW];
	/* their DWARF names (".debug_info"), whatever the file calls them
	 * (".zdebug_info", ".gnu.debuglto_.debug_info") */
	const char *dw_name[SF_ELF_MAXDW];
};

/* Tell libelf its version and let libdeflate choose its code, once per
 * process (sf_elf_parse does too): called before the threads start, so
 * that none of them writes those libraries' variables. */
void sf_elf_init(void);

/* Does the image start like an ELF file? */
int sf_elf_is_elf(const unsigned char *image, size_t size);

/*
 * Parse headers and the section table.  -1 with "LABEL: problem".  image
 * must be writable private memory (a MAP_PRIVATE mapping, or the heap)
 * and outlive e: libelf updates a section header in place when it
 * inflates that section (elf_compress, elfutils 0.188).
 */
int sf_elf_parse(struct sf_elf *e, unsigned char *image, size_t size,
		 const char *label, struct sf_err *err);

/*
 * Pick, inflate and relocate the debug sections.  Returns 1 when the image
 * has DWARF (.debug_info or .debug_types), 0 when it has none (err holds
 * "LABEL: no DWARF ..." with a hint when a .gnu_debuglink names the debug
 * file), -1 on a corrupt section.
 */
int sf_elf_prepare_debug(struct sf_elf *e, struct sf_err *err);

/*
 * Inflate section idx when it is SHF_COMPRESSED (zlib or zstd), for
 * sections sf_elf_prepare_debug() does not pick (split DWARF's .dwo ones).
 * -1 with "LABEL: corrupt compressed section NAME".
 */
int sf_elf_inflate(struct sf_elf *e, uint32_t idx, struct sf_err *err);

/*
 * The stream of .debug_info when sf_elf_prepare_debug left it to be
 * inflated piecewise (e->stream_min), else NULL.  Its section's data
 * spans the whole inflated size; only the bytes inflated so far are
 * there (zstream.h).
 */
struct sf_zstream *sf_elf_info_stream(const struct sf_elf *e);
/* Inflate that stream's rest at once: the section is then as any
 * other.  -1 with "LABEL: corrupt compressed section .debug_info". */
int sf_elf_unstream(struct sf_elf *e, struct sf_err *err);
/* The pack of .debug_str when the aside thread packed it (its `pack`:
 * dwarf/strpack.h), else NULL. */
const struct sf_strpack *sf_elf_str_pack(const struct sf_elf *e);
/* Every unit is read: nothing looks .debug_str up any more, and its pack
 * gives its bytes back (librados: 4.9 MB, while the last runs merge). */
void sf_elf_strings_read(struct sf_elf *e);

void sf_elf_release(struct sf_elf *e);

/* Read an unsigned of n (1, 2, 4, 8) bytes in the image's byte order. */
uint64_t sf_elf_read(const struct sf_elf *e, const unsigned char *p, unsigned n);

#endif
