/*
 * model_build.h - a type added to a typeset at run time from a table of
 * members, for the unit tests and fuzz targets that need a typeset (one
 * that owns its strings, as a loader's does) rather than model_util.h's
 * static tables.
 *
 *   struct sf_test_mdef  one member: name, type spelling, offset, size and
 *                        alignment
 *   struct sf_test_tdef  the type: kind, name, size, alignment, declaration
 *                        file and line, origin, address size, type flags,
 *                        and the type class and flags every member gets
 *   sf_test_add_type     the type built in ts's arena (every string
 *                        interned, one spare zeroed member past the last)
 *                        and added; returns what sf_typeset_add returns
 *
 *   sf_test_st_table_m, sf_test_rhash_m   Ruby's st_table and RHash
 *
 * Fields a test does not name are zero, as the arena's memory is.
 */
#ifndef SF_TEST_MODEL_BUILD_H
#define SF_TEST_MODEL_BUILD_H

#include <stddef.h>
#include <stdint.h>

#include "model/typeset.h"

struct sf_test_mdef {
	const char *name;
	const char *type;
	uint64_t offset, size;
	uint32_t align;
};

struct sf_test_tdef {
	enum sf_kind kind;
	const char *name;
	uint64_t size;
	uint32_t align;
	const char *file;
	uint32_t line;
	const char *origin;
	uint8_t addr_size;
	uint16_t flags;
	enum sf_tclass member_tclass;
	uint16_t member_flags;
};

/* Ruby's st_table before the narrowing (48 bytes) and RHash's members, the
 * pair a 64-byte GC slot is checked against. */
static const struct sf_test_mdef sf_test_st_table_m[] = {
	{ "entry_power", "unsigned char", 0, 1, 1 },
	{ "bin_power", "unsigned char", 1, 1, 1 },
	{ "size_ind", "unsigned char", 2, 1, 1 },
	{ "rebuilds_num", "unsigned int", 4, 4, 4 },
	{ "type", "const struct st_hash_type *", 8, 8, 8 },
	{ "num_entries", "st_index_t", 16, 8, 8 },
	{ "entries_start", "st_index_t", 24, 8, 8 },
	{ "entries_bound", "st_index_t", 32, 8, 8 },
	{ "entries", "struct st_table_entry *", 40, 8, 8 },
};

static const struct sf_test_mdef sf_test_rhash_m[] = {
	{ "basic", "struct RBasic", 0, 16, 8 },
	{ "ifnone", "VALUE", 16, 8, 8 },
};

static inline const struct sf_type *sf_test_add_type(struct sf_typeset *ts,
						     const struct sf_test_tdef *d,
						     const struct sf_test_mdef *m, size_t n)
{
	struct sf_type *t = sf_typeset_alloc(ts, sizeof(*t));

	t->name = sf_typeset_intern(ts, d->name);
	t->kind = (uint8_t)d->kind;
	t->flags = d->flags;
	t->size = d->size;
	t->align = d->align;
	t->decl_file = sf_typeset_intern(ts, d->file);
	t->decl_line = d->line;
	t->origin = sf_typeset_intern(ts, d->origin);
	t->addr_size = d->addr_size;
	t->nmembers = (uint32_t)n;
	t->members = sf_typeset_alloc(ts, (n + 1) * sizeof(*t->members));
	for (size_t i = 0; i < n; i++) {
		struct sf_member *mm = &t->members[i];

		mm->name = sf_typeset_intern(ts, m[i].name);
		mm->type_name = sf_typeset_intern(ts, m[i].type);
		mm->type_suffix = sf_typeset_intern(ts, "");
		mm->offset = m[i].offset;
		mm->size = m[i].size;
		mm->align = m[i].align;
		mm->tclass = (uint8_t)d->member_tclass;
		mm->flags = d->member_flags;
	}
	return sf_typeset_add(ts, t);
}

#endif
