/*
 * typeset.h - the set of types read from all inputs, deduplicated.
 *
 * A typeset owns an arena (every sf_type, member array and string of its
 * types lives there, freed all at once) and a string pool that interns
 * names, so the same member or type name read from 2,000 compilation units
 * is stored once.  Types are kept in the order they were first seen.
 *
 *   types[]  : sf_type* in insertion order
 *   by_hash  : open-addressed table, definition hash -> index in types[]
 *   by_name  : open-addressed table, (name, namespace) -> index of the
 *              first type so named
 *
 * Adding a type that is identical (same name, kind, size and members) to
 * one already present returns the one present; adding a different
 * definition under a known name keeps both and flags both SF_TF_VARIANT.
 * Names are C's: tags (`struct x`, `union x`, `class x`) and typedef names
 * (`typedef struct {...} x`, SF_TF_TYPEDEF) are separate namespaces, so a
 * tag and a typedef spelled alike are two names, never variants.
 * Memory is therefore proportional to unique types, not to inputs.
 *
 * A typeset is not thread-safe; readers on several threads each fill their
 * own and sf_typeset_absorb() merges them.
 */
#ifndef SF_TYPESET_H
#define SF_TYPESET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model.h"

struct sf_typeset;

struct sf_typeset *sf_typeset_new(void);
void sf_typeset_free(struct sf_typeset *ts);

/* Zeroed memory that lives as long as the typeset. */
void *sf_typeset_alloc(struct sf_typeset *ts, size_t size);
/* The interned copy of s (or of its first n bytes). */
const char *sf_typeset_intern(struct sf_typeset *ts, const char *s);
/* An anonymous enum's enumerators in ts's arena; names interned there
 * when `intern`, else already ts's. */
const struct sf_enum *sf_enum_copy(struct sf_typeset *ts, const struct sf_enum *src, bool intern);
/* A member's typedef chain (model.h) in ts's arena; its strings interned
 * there when `intern`, else already ts's. */
const struct sf_typedef_of *sf_typedef_of_copy(struct sf_typeset *ts,
					       const struct sf_typedef_of *src, bool intern);
const char *sf_typeset_intern_n(struct sf_typeset *ts, const char *s, size_t n);
/* The interned name of a type of that kind, interned through its
 * spelling ("struct name", "class name", "union name"), which members of
 * its type spell, so that the two share their bytes.  Anonymous: "". */
const char *sf_typeset_intern_type_name(struct sf_typeset *ts, enum sf_kind kind,
					const char *name);

/* Hash of a definition (name, kind, size, members, nested types). */
uint64_t sf_type_hash(const struct sf_type *t);
int sf_type_equal(const struct sf_type *a, const struct sf_type *b);

/*
 * Add t, whose memory came from this typeset.  Computes t->hash.  Returns
 * the type kept: t itself, or an identical type already present.
 */
const struct sf_type *sf_typeset_add(struct sf_typeset *ts, struct sf_type *t);
/*
 * sf_typeset_add() of a t whose t->hash is sf_type_hash(t) already: a
 * type of another set (or a deep copy of one, which copies the hash),
 * not changed since it was added there.  The FNV hash is byte by byte:
 * merging sets would otherwise compute every type's twice.
 */
const struct sf_type *sf_typeset_add_hashed(struct sf_typeset *ts, struct sf_type *t);
/*
 * The hash t's name is indexed under (its canonical spelling: a C++
 * template's name is made canonical to hash it, which a merge of two sets
 * did twice per type, 4 % of libceph-common's show), for
 * sf_typeset_find_named and sf_typeset_add_named, which take it made.
 */
uint64_t sf_typeset_name_hash(const struct sf_type *t);
/*
 * A memo of canonical spellings by address, for adding many types whose
 * strings stay where they are, with the same bytes, for the memo's life
 * (a reader's: its types' strings are interned in its output set).  A
 * template's canonical spelling took 10 % of libceph-common's show, the
 * same few thousand member types spelled again for each struct holding
 * one.
 */
struct sf_spell_memo;
struct sf_spell_memo *sf_spell_memo_new(void);
void sf_spell_memo_free(struct sf_spell_memo *m);
/* sf_type_hash(t), and sf_typeset_add(ts, t), with m's spellings (m NULL:
 * spelled anew; sf_typeset_add is this). */
uint64_t sf_type_hash_memo(const struct sf_type *t, struct sf_spell_memo *m);
const struct sf_type *sf_typeset_add_memo(struct sf_typeset *ts, struct sf_type *t,
					  struct sf_spell_memo *m);
/* out[i] = sf_typeset_name_hash of ts's type i, for every type: read from
 * ts's own index where it was made when the type was added. */
void sf_typeset_name_hashes(const struct sf_typeset *ts, uint64_t *out);
/* sf_typeset_add_hashed(ts, t), name_h its sf_typeset_name_hash (not
 * read for a type without a name). */
const struct sf_type *sf_typeset_add_named(struct sf_typeset *ts, struct sf_type *t,
					   uint64_t name_h);

/* The type of ts identical to t (t->hash set), or NULL: whether adding t
 * would keep it, asked before copying it in. */
const struct sf_type *sf_typeset_find_same(const struct sf_typeset *ts,
					   const struct sf_type *t);
/* A deep copy of t (members, nested types, enumerators, variants, summary,
 * strings) in ts's memory, hash included; not added. */
struct sf_type *sf_typeset_copy_type(struct sf_typeset *ts, const struct sf_type *t);

/* Move every type of src into dst (deduplicating); src is freed.  Its
 * types keep their hash: none may have changed since src took it. */
void sf_typeset_absorb(struct sf_typeset *dst, struct sf_typeset *src);
/* sf_typeset_absorb, name_h[i] the sf_typeset_name_hash of src's type i
 * (or NULL: made here). */
void sf_typeset_absorb_named(struct sf_typeset *dst, struct sf_typeset *src,
			     const uint64_t *name_h);

size_t sf_typeset_count(const struct sf_typeset *ts);
const struct sf_type *sf_typeset_get(const struct sf_typeset *ts, size_t i);

/*
 * Types named `name`: "st_table", "struct st_table", "union u",
 * "class ns::C", "typedef dtv".  A kind prefix must match the kind and
 * looks among tags; a bare name means the typedef name when there is one
 * (as in C), else the tag; "typedef NAME" only typedef names.  Either
 * falls back on the other namespace when its own has no match, then on a typedef alias.  Returns
 * how many were found and stores up to max of them in out[].
 */
/* Is name (n bytes) a glob: a `*` or `?` outside <...>, (...), [...]? */
bool sf_name_is_glob(const char *s, size_t n);

size_t sf_typeset_find(const struct sf_typeset *ts, const char *name,
		       const struct sf_type **out, size_t max);

/* Every type named exactly `name` in one namespace (typedef names when
 * is_typedef, else tags), any kind: the lookup deduplication needs. */
size_t sf_typeset_find_ns(const struct sf_typeset *ts, const char *name, int is_typedef,
			  const struct sf_type **out, size_t max);
/* sf_typeset_find_ns of t's name and namespace, name_h its
 * sf_typeset_name_hash. */
size_t sf_typeset_find_named(const struct sf_typeset *ts, const struct sf_type *t,
			     uint64_t name_h, const struct sf_type **out, size_t max);

/*
 * Replace every type's decl_file by fn(ctx, decl_file) (a new string the
 * typeset interns, then frees; NULL keeps decl_file as it is): how cmd/
 * makes paths relative to a source root once, for every renderer.
 */
void sf_typeset_map_decl_files(struct sf_typeset *ts,
			       char *(*fn)(void *ctx, const char *path), void *ctx);

/*
 * `typedef struct _IO_FILE FILE`: name FILE stands for the aggregate
 * _IO_FILE, which sf_typeset_find() then finds for "FILE" (or "typedef
 * FILE") when no type is called FILE itself, as `pahole -C FILE` does.
 */
void sf_typeset_add_alias(struct sf_typeset *ts, const char *name, const char *target);
/* Every alias of src into dst (strings copied into dst). */
void sf_typeset_copy_aliases(struct sf_typeset *dst, const struct sf_typeset *src);
/* The aggregate name `name` stands for, or NULL. */
const char *sf_typeset_alias_target(const struct sf_typeset *ts, const char *name);

/* Bytes held by the arena (for benchmarks and memory tests). */
size_t sf_typeset_bytes(const struct sf_typeset *ts);

#endif
