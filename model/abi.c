/*
 * abi.c - scalar alignment rules per ELF machine (see abi.h for the table).
 *
 * No state: every answer is computed from (machine, address size, kind,
 * size).  The one rule that surprises people is i386's: the System V i386
 * psABI aligns double, long long and long double to 4 inside structs, so a
 * struct { char c; double d; } is 12 bytes there and 16 everywhere else.
 */
#include "abi.h"

#include <assert.h>

struct sf_abi sf_abi_for(uint16_t machine, uint8_t addr_size)
{
	struct sf_abi abi = { machine, addr_size };

	if (abi.addr_size != 4 && abi.addr_size != 8)
		abi.addr_size = (machine == SF_EM_386 || machine == SF_EM_ARM) ? 4 : 8;
	return abi;
}

uint32_t sf_pow2_divisor(uint64_t size, uint32_t cap)
{
	uint64_t a = size & (~size + 1);

	assert(size > 0 && cap > 0);
	return a > cap ? cap : (uint32_t)a;
}

/* The most a scalar (not vector) may be aligned to on this machine. */
static uint32_t scalar_cap(struct sf_abi abi)
{
	switch (abi.machine) {
	case SF_EM_386: return 4;
	case SF_EM_ARM: return 8;
	case SF_EM_X86_64:
	case SF_EM_AARCH64: return 16;
	default: return abi.addr_size == 8 ? 16 : 8;
	}
}

static uint32_t vector_cap(struct sf_abi abi)
{
	switch (abi.machine) {
	case SF_EM_X86_64: return 64;
	case SF_EM_ARM: return 8;
	default: return 16;
	}
}

uint32_t sf_abi_align(struct sf_abi abi, enum sf_abi_kind kind, uint64_t size)
{
	if (size == 0)
		return 1;
	switch (kind) {
	case SF_ABI_POINTER:
		return sf_pow2_divisor(size, abi.addr_size);
	case SF_ABI_COMPLEX:
		/* a complex aligns like one of its parts */
		return size >= 2 ? sf_pow2_divisor(size / 2, scalar_cap(abi)) : 1;
	case SF_ABI_VECTOR:
		return sf_pow2_divisor(size, vector_cap(abi));
	case SF_ABI_INT:
	case SF_ABI_FLOAT:
		break;
	}
	if (abi.machine == SF_EM_386 && size == 16 && kind == SF_ABI_FLOAT)
		return 16;	/* __float128 keeps 16 even on i386 */
	return sf_pow2_divisor(size, scalar_cap(abi));
}
