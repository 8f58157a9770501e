/*
 * Ruby's st_table as issue 2 quotes it, and the RHash header in front of
 * it: three unsigned chars then an unsigned int leave a 1-byte hole at 3;
 * 48 bytes on LP64, 28 on ILP32.  No system headers: this file is also
 * compiled with clang --target=... -ffreestanding for other ABIs.
 */
typedef unsigned long st_index_t;
typedef unsigned long VALUE;

struct st_hash_type;
struct st_table_entry;

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
	const VALUE klass;
};

struct RHash {
	struct RBasic basic;
	VALUE ifnone;
};

/* a hash and its table in one allocation: 24 + 48 = 72 on LP64 */
struct rhash_with_table {
	struct RHash hash;
	struct st_table table;
};

struct rhash_with_table rhash_with_table_example;
