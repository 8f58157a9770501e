/*
 * fingerprint.h - a 128-bit digest of what laying out one aggregate DIE
 * reads, so a definition already laid out is not laid out again (internal
 * to dwarf/; reader.c uses it).
 *
 * The same header's structs come back in every compilation unit: the
 * Linux vmlinux lays out 6.2 M members for 51 k unique ones.  Before a
 * unit's types are laid out, each is fingerprinted from its DIEs alone -
 * tag, name, size, every attribute the reader decodes, its members in
 * order (names, offsets, bit offsets and sizes, alignments) and, through
 * every DW_AT_type, the fingerprints of the types they use - and a type
 * whose fingerprint (with the name it is reported under and the unit's
 * ABI) was laid out already is skipped: the layout would give a type the
 * output has.
 *
 * Two depths, because a member's type matters in two ways:
 *
 *   FP_LAYOUT  the type is held by value: its layout counts, so an
 *              aggregate's members are hashed too (recursively);
 *   FP_SPELL   the type is only spelled (behind a pointer, in a function
 *              type): a named struct, class or union counts by its tag,
 *              name and scope alone - all a spelling reads of it, so a
 *              unit that only declares `struct device` and one that
 *              defines it spell a pointer to it alike - and an enum by
 *              its attributes (name, size); which is what keeps `struct
 *              list_head { struct list_head *next; }` from being a
 *              cycle.  A pointer to an anonymous aggregate or enum keeps
 *              FP_LAYOUT: pahole prints its body.
 *
 * A type gets no fingerprint (sf_fp_type() returns -1, and the reader
 * lays it out as always) when anything it reaches lies outside what a
 * digest of its unit's DIEs can vouch for: a reference out of the unit
 * (dwz's alt file, DW_FORM_ref_addr, type signatures), a
 * DW_AT_specification, a cycle, more than SF_FP_MAX_DEPTH levels, or
 * corrupt DWARF.  The declaring file is not part of it: a unit numbers
 * its files its own way, and two definitions that differ only there are
 * one type to the output (sf_type_equal), which keeps the first.
 *
 * Scoped languages (C++): the reader names a struct, class, union, enum
 * or typedef by its scope too ("ns::Outer::node", rd_die_qname), and the
 * scope is where the DIE sits - inside which namespace and class DIEs -
 * which nothing below the DIE shows: `a::node` and `b::node` with the
 * same body hash alike.  So sf_fp_type takes an optional scope hook
 * (struct sf_fp_scope), and every DIE of those tags with a name hashed
 * gets, after its attributes, the digest of the scope the reader
 * qualifies it by - the string, so a key still means the same in every
 * file.  A member pointing to `a::node` and one pointing to `b::node`
 * then differ, as their spellings do; the name a top is reported under
 * is its qualified name already (sf_fp_key).  A DIE with
 * DW_AT_specification, which takes its declaration's scope, gets no
 * fingerprint (see below).  Template arguments: the reader spells a
 * template instance by its DW_AT_name, which holds them ("A<a::X>"), and
 * reads no DW_TAG_template_*_param child, nor does the digest
 * (sf_fp_layout_child): `A<a::X>` and `A<b::X>` differ by name.
 *
 * Results are cached per DIE and depth for one unit (generation-stamped
 * slots, as the reader's tinfo cache): each type is hashed once per unit
 * (a DIE's scope, too, is one per unit).  DIEs are hashed by a plan per
 * abbreviation, made once per unit: what the reader decodes is read
 * straight from the DIE's bytes (a constant counts by its value, whatever
 * its form; a string by its bytes, or in `local` mode by its .debug_str
 * offset).
 *
 *   sf_fpset: the fingerprints laid out already - open addressing over
 *   the 128-bit keys (never both words 0: sf_fp_key sets a bit).
 */
#ifndef SF_FINGERPRINT_H
#define SF_FINGERPRINT_H

#include <stddef.h>
#include <stdint.h>

#include <dwarf.h>

#include "die.h"

/* Deeper than this, no fingerprint: the reader's own limits (layout
 * nesting 100, type chains 200) then stay out of reach of a type that has
 * one (reader.c counts what comes near them). */
#define SF_FP_MAX_DEPTH 48

enum sf_fp_depth { FP_SPELL = 0, FP_LAYOUT = 1 };

/*
 * Is c, a child DIE of an aggregate, one the aggregate's layout reads?
 * Data members, bases and a (Rust) variant part - not static members
 * (DW_AT_external or a declaration in DWARF 4, DW_TAG_variable in 5),
 * member functions, nested types or template parameters, which the
 * layout steps over.  members.c (collect_members) reads exactly these,
 * and the digest hashes exactly these: a C++ class's member functions
 * and template arguments, hashed, cost more than laying it out again.
 * SF_FP_LAYOUT_TAGS: their tags (for sf_die_read_tags: the others are
 * only skipped).
 */
#define SF_FP_LAYOUT_TAGS ((1ull << DW_TAG_member) | (1ull << DW_TAG_inheritance) | \
			   (1ull << DW_TAG_variant_part))

static inline int sf_fp_layout_child(const struct sf_die *c)
{
	return c->tag < 64 && (SF_FP_LAYOUT_TAGS >> c->tag & 1) &&
	       !(c->tag == DW_TAG_member && (c->has & (SF_A_EXTERNAL | SF_A_DECLARATION)));
}

struct sf_fp {
	uint64_t a, b;
};

struct sf_fpcache;

struct sf_fpcache *sf_fpcache_new(void);
void sf_fpcache_free(struct sf_fpcache *c);
/* Forget every fingerprint: a new unit begins. */
void sf_fpcache_reset(struct sf_fpcache *c);
/*
 * For the tests: whether an abbreviation whose attributes all have fixed
 * sizes is hashed by masked loads at fixed places (`on`, the default) or
 * op by op, as every other is - the same digests either way.  Returns how
 * many plans of c were made the fixed way so far.
 */
size_t sf_fpcache_fixed(struct sf_fpcache *c, int on);

/*
 * The scope hook: digest() gives the digest of the scope the reader
 * qualifies the names of the DIE at section offset off (of the unit being
 * hashed) by - sf_fp_str of "ns::Outer", of "" at the top level; 0, or -1
 * when it cannot (the type then gets no fingerprint).
 */
struct sf_fp_scope {
	int (*digest)(void *ctx, uint64_t off, struct sf_fp *out);
	void *ctx;
};

/* The digest of a string (a scope's qualified name) for a scope hook. */
struct sf_fp sf_fp_str(const char *s);

/*
 * The FP_LAYOUT fingerprint of the aggregate DIE at section offset off of
 * the unit cx; `tag` is or'ed into the cache keys (offsets below 2^62,
 * the top bits saying which file and section: reader.c's key_of).
 * `local`: names in the file's .debug_str count by their offset, not
 * their bytes - faster (a vmlinux names 6 M members: reading each name
 * was a sixth of the time), and the key then means something in this
 * file only.  One cache must not mix the two.  `scope`: the hook of a
 * scoped unit, NULL for C (one cache must not mix those either before a
 * reset).  0, or -1 when it has none (see above).
 */
int sf_fp_type(struct sf_fpcache *c, const struct sf_ucx *cx, uint64_t tag, uint64_t off,
	       int local, const struct sf_fp_scope *scope, struct sf_fp *out);

/*
 * The key a reported type is known by: its definition's fingerprint, the
 * name and namespace it is reported under, and what the unit's ABI and
 * reader add (language, address size, byte order, machine).  The name is
 * fed by its offset when it lies in `strs` (`tag`: which file's, as for
 * sf_fp_type; NULL: by its bytes): in `local` mode, keys of one file.
 */
struct sf_fp sf_fp_key(const struct sf_fp *def, const char *name,
		       const struct sf_dwsec *strs, uint64_t tag, int is_typedef,
		       unsigned lang, unsigned addr_size, int msb, unsigned machine);

struct sf_fpset;

struct sf_fpset *sf_fpset_new(void);
void sf_fpset_free(struct sf_fpset *s);
int sf_fpset_has(const struct sf_fpset *s, const struct sf_fp *k);
/* Start loading where sf_fpset_has(s, k) will look first (s may be NULL). */
void sf_fpset_prefetch(const struct sf_fpset *s, const struct sf_fp *k);
void sf_fpset_add(struct sf_fpset *s, const struct sf_fp *k);

/*
 * A set of keys several threads read and add to (under a lock), looked up
 * through its parents too: load.c keeps one per context (the inputs, an
 * input read apart) and per image, each under the one it is merged into.
 */
struct sf_fpshared;

struct sf_fpshared *sf_fpshared_new(struct sf_fpshared *parent);
void sf_fpshared_free(struct sf_fpshared *s);
/* How many keys s holds (its parents' not counted). */
size_t sf_fpshared_count(struct sf_fpshared *s);
/* Is k in s or a parent of s? */
int sf_fpshared_has(struct sf_fpshared *s, const struct sf_fp *k);
void sf_fpshared_add_all(struct sf_fpshared *s, const struct sf_fpset *src);
/* src's own keys (not its parents') into dst. */
void sf_fpshared_add_shared(struct sf_fpshared *dst, struct sf_fpshared *src);
/* The n keys at k into s, under one lock. */
void sf_fpshared_add_keys(struct sf_fpshared *s, const struct sf_fp *k, size_t n);

#endif
