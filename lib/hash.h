/*
 * hash.h - the integer mixer and the string hash the open-addressing
 * tables share.
 *
 * The readers (dwarf/arena.c, btf/loader.c) key their caches by section
 * offsets and pointers, whose low bits are mostly equal (aligned, dense);
 * the tables index by the low bits, so each key is mixed first.
 * sf_mix64 is the first half of MurmurHash3's 64-bit finalizer: cheap,
 * and enough to spread offsets that differ in their middle bits.
 *
 * sf_hash_bytes hashes a byte string a word (8 bytes) at a time: the
 * string pool hashes every name and spelling it interns, and a byte at a
 * time (FNV) was a tenth of a whole-vmlinux run.  Its values are only
 * ever table positions, never output: nothing may depend on them.
 */
#ifndef SF_HASH_H
#define SF_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline uint64_t sf_mix64(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	return k;
}

/*
 * Where the probe for a DIE's section offset starts in a table indexed by
 * its low bits: consecutive within each 16 KiB of the section, so the
 * types of one region of a unit - a struct's members refer to types defined
 * near it - share the table's cache lines (a fully mixed key scattered
 * them, and every lookup missed); each 16 KiB region starts at a mixed
 * place, so offsets far apart do not pile up on one slot.
 */
static inline uint64_t sf_offset_slot(uint64_t off)
{
	return (off >> 2) + sf_mix64(off >> 14);
}

/* Hash of n bytes at p, seeded by seed (chain calls to hash several). */
static inline uint64_t sf_hash_bytes(uint64_t seed, const void *p, size_t n)
{
	const unsigned char *b = p;
	uint64_t h = seed ^ (n * 0x9e3779b97f4a7c15ull);
	uint64_t w;

	for (; n >= 8; b += 8, n -= 8) {
		memcpy(&w, b, 8);
		h = (h ^ w) * 0xbf58476d1ce4e5b9ull;
		h ^= h >> 31;
	}
	if (n) {
		w = 0;
		memcpy(&w, b, n);
		h = (h ^ w) * 0xbf58476d1ce4e5b9ull;
		h ^= h >> 31;
	}
	return sf_mix64(h);
}

#endif
