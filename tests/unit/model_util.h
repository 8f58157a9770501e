/*
 * model_util.h - initialisers for hand-built type models (model/model.h's
 * struct sf_member and struct sf_type), shared by the unit tests that
 * build models without reading any DWARF.  Macros only, so a model can be
 * a static table: each expands to a braced initialiser.
 *
 *   MEM      a member: name, type spelling and suffix, offset, size,
 *            alignment, type class
 *   FLAGGED  the same with member flags (SF_MF_*), no suffix
 *   BITF     an int bit-field: storage unit at off (sz bytes), bit offset
 *            and width
 *   NEST     an anonymous struct/union member: its size and alignment
 *            repeat the nested type's (static initialisers cannot read
 *            them)
 *   TYPE     a type of kind k from a member array, declared in t.c,
 *            from t.o, 8-byte addresses; TYPE_AT with a declaration line
 *   RUST_MEM, RUST_TYPE   the same for Rust (SF_MF_RUST, SF_TF_RUST)
 *   ST_TABLE_MEMBERS  the members of Ruby's st_table, for a member array
 *   C_MEM, C_TYPE         a member and a type as the DWARF of the C
 *            struct S states them: offsetof and sizeof S, alignment 1
 *            (what is inferred is then the test's subject)
 */
#ifndef SF_TEST_MODEL_UTIL_H
#define SF_TEST_MODEL_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

#define N(a) ((uint32_t)(sizeof(a) / sizeof((a)[0])))

#define MEM(n, t, sfx, off, sz, al, tc) \
	{ .name = n, .type_name = t, .type_suffix = sfx, .offset = off, \
	  .size = sz, .align = al, .tclass = tc }
#define FLAGGED(n, t, off, sz, al, tc, fl) \
	{ .name = n, .type_name = t, .type_suffix = "", .offset = off, \
	  .size = sz, .align = al, .tclass = tc, .flags = fl }
#define BITF(n, t, off, sz, boff, bits) \
	{ .name = n, .type_name = t, .type_suffix = "", .offset = off, \
	  .size = sz, .bit_offset = boff, .bit_size = bits, .align = sz, \
	  .tclass = SF_T_INT, .flags = SF_MF_BITFIELD }
#define NEST(n, off, sz, al, tc, nested_type) \
	{ .name = n, .type_name = "", .type_suffix = "", .offset = off, \
	  .size = sz, .align = al, .tclass = tc, .nested = nested_type }
#define TYPE_AT(n, k, sz, al, arr, line) \
	{ .name = n, .kind = k, .size = sz, .align = al, .decl_file = "t.c", \
	  .decl_line = line, .nmembers = N(arr), .members = arr, \
	  .origin = "t.o", .addr_size = 8 }
#define TYPE(n, k, sz, al, arr) TYPE_AT(n, k, sz, al, arr, 0)

#define RUST_MEM(n, ty, off, sz, al, tc) \
	{ .name = n, .type_name = ty, .type_suffix = "", .offset = off, .size = sz, \
	  .align = al, .tclass = tc, .flags = SF_MF_RUST }
#define RUST_TYPE(n, sz, arr, fl) \
	{ .name = n, .kind = SF_KIND_STRUCT, .size = sz, .align = 8, .decl_file = "", \
	  .nmembers = N(arr), .members = arr, .origin = "t", .addr_size = 8, \
	  .flags = SF_TF_RUST | (fl) }

#define C_MEM(S, f, sz) \
	{ .name = #f, .type_name = "t", .type_suffix = "", \
	  .offset = offsetof(S, f), .size = sz, .align = 1 }
#define C_TYPE(k, S, arr) \
	{ .name = #S, .kind = k, .size = sizeof(S), .align = 1, \
	  .decl_file = "t.c", .nmembers = N(arr), .members = arr, \
	  .origin = "t.o", .addr_size = 8 }

/* struct st_table of testdata/example/st_table.c (48 bytes), as gcc states it */
#define ST_TABLE_MEMBERS \
	MEM("entry_power", "unsigned char", "", 0, 1, 1, SF_T_INT), \
	MEM("bin_power", "unsigned char", "", 1, 1, 1, SF_T_INT), \
	MEM("size_ind", "unsigned char", "", 2, 1, 1, SF_T_INT), \
	MEM("rebuilds_num", "unsigned int", "", 4, 4, 4, SF_T_INT), \
	MEM("type", "const struct st_hash_type *", "", 8, 8, 8, SF_T_POINTER), \
	MEM("num_entries", "st_index_t", "", 16, 8, 8, SF_T_INT), \
	MEM("entries_start", "st_index_t", "", 24, 8, 8, SF_T_INT), \
	MEM("entries_bound", "st_index_t", "", 32, 8, 8, SF_T_INT), \
	MEM("entries", "struct st_table_entry *", "", 40, 8, 8, SF_T_POINTER)

#endif
