/*
 * rust.h - the savings Rust offers that C has no word for.
 *
 * - The default representation lets rustc order the fields itself: a
 *   struct whose DWARF declares its fields in another order than they lie
 *   in memory (SF_TF_REORDERED) is one, and proposing an order for it is
 *   pointless.  A Rust struct in declaration order is taken for
 *   #[repr(C)] (rustc would have moved its fields to close a hole).
 * - Niches: Option<T> (any enum of a dataless variant and one holding a
 *   single field) needs no tag when that field has a value it never
 *   takes - NonNull<T>'s null.  A field whose Option is tagged and whose
 *   payload is a raw pointer, or a newtype over one, can make the Option
 *   as small as the pointer: sf_rust_niches finds them.
 * - #[repr(packed)]: no holes, no padding, alignment 1, at the price of
 *   references to fields (refused by the compiler) and unaligned loads.
 *
 * Pure functions over the model; the enum and newtype definitions come
 * from the typeset the struct was read into.
 */
#ifndef SF_RUST_H
#define SF_RUST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "model/typeset.h"

/* A member whose Option (enum) could use a non-null niche. */
struct sf_niche {
	uint32_t member;        /* index in the struct's members */
	const char *option;     /* the enum: "core::option::Option<yjit::CodePtr>" */
	const char *payload;    /* what Some holds: "yjit::CodePtr" or "*const u8" */
	const char *pointer;    /* the raw pointer in it: "*const u8" */
	uint64_t from, to;      /* the member's bytes, now and with the niche */
};

/* Is t laid out by rustc's default representation (it reordered it)? */
bool sf_rust_compiler_orders(const struct sf_type *t);

/*
 * The most niche proposals suggest and patch keep for one struct: one per
 * member whose Option could lose its discriminant, and a struct with more
 * than 16 such members is a table no one reads (the count returned still
 * says how many there are).
 */
#define SF_NICHE_MAX 16

/* The niche proposals for t's members, up to max stored; returns how many. */
size_t sf_rust_niches(const struct sf_type *t, const struct sf_typeset *ts,
		      struct sf_niche *out, size_t max);

/* t's size under #[repr(packed)]: the bytes of its members, nothing else. */
uint64_t sf_rust_packed_size(const struct sf_type *t);

#endif
