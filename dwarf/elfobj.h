/*
 * elfobj.h - one ELF image in memory, its debug sections ready for libdwarf.
 *
 * An ELF image is a byte range: a whole mmap'ed file or one member of a
 * static archive.  sf_elf_parse() checks every header and section against
 * that range (a truncated or corrupt file is an error, never a read past
 * the end) and keeps a table of sections:
 *
 *   struct sf_elf
 *   +-------+------+-----+---------+------+----------------------------+
 *   | image | size | msb | machine | type | sec[nsec]  dw[ndw]          |
 *   +-------+------+-----+---------+------+----------------------------+
 *                                           |          |
 *            name, type, flags, bytes  <----+          +--> indexes of the
 *            (into the image, or an owned               sections libdwarf
 *            copy when decompressed/relocated)          is shown
 *
 * sf_elf_prepare_debug() makes the debug sections usable: SHF_COMPRESSED
 * and .zdebug sections are inflated once, and in a relocatable object
 * (ET_REL) the relocations that target them are applied to a private copy
 * (libdwarf is given no relocation callback, so what it sees is final).
 * Everything is read-only afterwards, so any number of Dwarf_Debug handles
 * on any number of threads can share one sf_elf: that is how the reader
 * uses both cores without loading the sections twice.
 */
#ifndef SF_ELFOBJ_H
#define SF_ELFOBJ_H

#include <stddef.h>
#include <stdint.h>

#include <libdwarf.h>

#include "lib/err.h"

struct sf_elf_sec {
	const char *name;             /* as in the file, NUL-terminated */
	const unsigned char *data;    /* NULL for SHT_NOBITS / out of range */
	uint64_t size;                /* bytes at data (inflated size) */
	uint64_t flags;
	uint32_t type;
	uint32_t link;
	uint32_t info;
	uint64_t entsize;
	unsigned char *owned;         /* data when we allocated it */
};

struct sf_elf {
	const char *label;            /* for messages: path or "lib.a(x.o)" */
	const unsigned char *image;
	size_t size;
	uint8_t is64;
	uint8_t msb;                  /* big-endian */
	uint8_t addr_size;            /* 4 or 8 */
	uint16_t type;                /* ET_REL, ET_EXEC, ET_DYN, ... */
	uint16_t machine;
	uint32_t nsec;
	struct sf_elf_sec *sec;
	uint32_t ndw;                 /* sections shown to libdwarf, dw[0] = 0 */
	uint32_t dw[16];
	const char *dw_name[16];      /* the names libdwarf sees (".debug_info") */
};

/* Does the image start like an ELF file? */
int sf_elf_is_elf(const unsigned char *image, size_t size);

/* Parse headers and the section table.  -1 with "LABEL: problem". */
int sf_elf_parse(struct sf_elf *e, const unsigned char *image, size_t size,
		 const char *label, struct sf_err *err);

/*
 * Pick, inflate and relocate the debug sections.  Returns 1 when the image
 * has DWARF (.debug_info or .debug_types), 0 when it has none (err holds
 * "LABEL: no DWARF ..." with a hint when a .gnu_debuglink names the debug
 * file), -1 on a corrupt section.
 */
int sf_elf_prepare_debug(struct sf_elf *e, struct sf_err *err);

/* A Dwarf_Debug reading this image; dwarf_object_finish() it, then free iface. */
int sf_elf_dwarf_open(struct sf_elf *e, Dwarf_Obj_Access_Interface **iface,
		      Dwarf_Debug *dbg, struct sf_err *err);
void sf_elf_dwarf_close(Dwarf_Obj_Access_Interface *iface, Dwarf_Debug dbg);

void sf_elf_release(struct sf_elf *e);

/* Read an unsigned of n (1, 2, 4, 8) bytes in the image's byte order. */
uint64_t sf_elf_read(const struct sf_elf *e, const unsigned char *p, unsigned n);

#endif
