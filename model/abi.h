/*
 * abi.h - how a target aligns scalars inside structs, per ELF machine.
 *
 * DWARF gives sizes and offsets but not alignments, so the reader asks
 * here what alignment a member of a given kind and size has on the target
 * the object was compiled for.  The rules are the psABIs':
 *
 *   machine   pointer  int64/double  long double        vectors
 *   x86_64    8        8             16 (size 16)       size, up to 64
 *   i386      4        4 (!)         4 (size 12)        size, up to 16
 *   aarch64   8        8             16 (size 16)       size, up to 16
 *   arm EABI  4        8             8 (= double)       size, up to 8
 *   other     addr     min(size, 2 * addr_size)         size, up to 16
 *
 * A complex number aligns like one of its two parts.  Sizes that are not a
 * power of two (x87's 10- or 12-byte long double) align to the largest
 * power of two dividing them, capped as above.
 *
 * Pure C, no DWARF: a struct sf_abi is two small numbers passed by value.
 */
#ifndef SF_ABI_H
#define SF_ABI_H

#include <stdint.h>

/* ELF e_machine values the rules know about (same numbers as <elf.h>). */
#define SF_EM_386 3
#define SF_EM_ARM 40
#define SF_EM_X86_64 62
#define SF_EM_AARCH64 183

enum sf_abi_kind {
	SF_ABI_INT = 0,   /* integers, bool, char, enums */
	SF_ABI_FLOAT,     /* real floating point */
	SF_ABI_COMPLEX,   /* _Complex: two parts of size/2 */
	SF_ABI_POINTER,   /* data and function pointers, references */
	SF_ABI_VECTOR,    /* __attribute__((vector_size)) */
};

struct sf_abi {
	uint16_t machine;   /* ELF e_machine */
	uint8_t addr_size;  /* 4 or 8 */
};

struct sf_abi sf_abi_for(uint16_t machine, uint8_t addr_size);

/* Alignment in bytes of a scalar of `size` bytes inside a struct. */
uint32_t sf_abi_align(struct sf_abi abi, enum sf_abi_kind kind, uint64_t size);

/* The largest power of two dividing size (size > 0), at most cap: the
 * alignment an offset or a size allows. */
uint32_t sf_pow2_divisor(uint64_t size, uint32_t cap);

#endif
