/*
 * hash.h - the one integer mixer the open-addressing tables share.
 *
 * The readers (dwarf/arena.c, btf/loader.c) key their caches by section
 * offsets and pointers, whose low bits are mostly equal (aligned, dense);
 * the tables index by the low bits, so each key is mixed first.  This is
 * the first half of MurmurHash3's 64-bit finalizer: cheap, and enough to
 * spread offsets that differ in their middle bits.
 */
#ifndef SF_HASH_H
#define SF_HASH_H

#include <stdint.h>

static inline uint64_t sf_mix64(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	return k;
}

#endif
