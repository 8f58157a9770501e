/*
 * st_table.c - the example structfit shows on `make run`, and the input of
 * the end-to-end tests' st_table cases.
 *
 * Ruby's st_table as it was before the narrowing that took it from 48 to 40
 * bytes on LP64: three unsigned chars, then an unsigned int, so the
 * compiler leaves a 1-byte hole at offset 3.  struct RHash is the 24-byte
 * header in front of it (16-byte object header + 8-byte ifnone): 24 + 48 =
 * 72 bytes, one byte-class above Ruby's 64-byte GC slot.
 *
 * No system header is included: the same file is compiled with
 * `clang --target=... -ffreestanding` for 32-bit and 64-bit targets.
 */

typedef unsigned long VALUE;
typedef unsigned long st_index_t;
typedef unsigned long st_data_t;

struct st_hash_type {
	int (*compare)(st_data_t, st_data_t);  /* st_compare_func* */
	st_index_t (*hash)(st_data_t);         /* st_hash_func* */
};

struct st_table_entry {
	st_index_t hash;
	st_data_t key;
	st_data_t record;
};

struct st_table {
	unsigned char entry_power, bin_power, size_ind;
	unsigned int rebuilds_num;
	const struct st_hash_type *type;
	st_index_t num_entries;
	st_index_t entries_start, entries_bound;
	struct st_table_entry *entries;
};

struct RBasic {
	VALUE flags;
	VALUE klass;
};

/* The header of a Ruby Hash object; its st_table follows it in the slot. */
struct RHash {
	struct RBasic basic;
	VALUE ifnone;
};

/* Variables, so that every type above is emitted into the DWARF. */
struct st_table example_table;
struct st_table_entry example_entry;
struct st_hash_type example_hash_type;
struct RHash example_hash;
