/*
 * btf.h - read the types of BTF (the BPF Type Format) into a typeset.
 *
 * The second input format beside dwarf/, and the only code that includes
 * libbpf.  BTF comes as a raw file (/sys/kernel/btf/vmlinux, a module's
 * split BTF beside it) or as the .BTF section of an ELF file (a BPF
 * object, or any object `pahole -J` encoded); input/load.c finds both and
 * hands the bytes here.  The model filled is the DWARF reader's: the same
 * spellings, offsets, bit-fields, nested anonymous types and packing, so
 * every command reads BTF as it reads DWARF.  BTF records no source
 * location: every type's decl_file is "" and decl_line 0 (unknown), and
 * its SF_TF_BTF flag says why.
 */
#ifndef SF_BTF_H
#define SF_BTF_H

#include <stddef.h>
#include <stdint.h>

#include "model/typeset.h"
#include "lib/err.h"

/* Does the image start like raw BTF (magic 0xEB9F, either byte order)? */
int sf_btf_is_raw(const unsigned char *image, size_t size);

/* Where the bytes come from and what the loader may know of the target. */
struct sf_btf_input {
	const char *label;         /* for messages and sf_type.origin */
	const unsigned char *data; /* the BTF: raw file or .BTF section */
	size_t size;
	/*
	 * The raw file's path, for split BTF: when the BTF alone does not
	 * parse, it is read as split BTF over the `vmlinux` file beside it
	 * (as /sys/kernel/btf/MODULE over /sys/kernel/btf/vmlinux).  NULL for
	 * a .BTF section.
	 */
	const char *path;
	uint16_t machine;          /* ELF e_machine, 0: the host's */
	uint8_t addr_size;         /* 4 or 8, 0: from the BTF or the host */
};

/*
 * Add every named struct and union of the BTF (and every anonymous one a
 * typedef names) to ts; with `only` (NULL-terminated bare names), just
 * those.  Returns 1 when types were read, 0 when the BTF holds none (err
 * says so), -1 on a truncated or corrupt BTF or a split BTF without its
 * base (err: "LABEL: problem").
 */
int sf_btf_load(struct sf_typeset *ts, const struct sf_btf_input *in,
		const char *const *only, struct sf_err *err);

#endif
