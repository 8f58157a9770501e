/*
 * st_table.c - Ruby's st_table before entries_start was narrowed, with
 * comments in the style of Ruby's st.h, for the `structfit patch` tests:
 *
 *   structfit patch -t st_table --narrow entries_start=1 st_table.o
 *
 * must move entries_start (as an unsigned char: no <stdint.h> here) into
 * the 1-byte hole after size_ind, taking the struct from 48 to 40 bytes
 * on LP64, and keep every comment.
 */

typedef unsigned long st_index_t;
typedef unsigned long st_data_t;

struct st_hash_type {
	int (*compare)(st_data_t, st_data_t);
	st_index_t (*hash)(st_data_t);
};

typedef struct st_table_entry st_table_entry;

struct st_table_entry {
	st_index_t hash;
	st_data_t key;
	st_data_t record;
};

struct st_table {
	/* Cached features of the table: see st.c. */
	unsigned char entry_power, bin_power, size_ind;
	/* How many times the table was rebuilt. */
	unsigned int rebuilds_num;
	const struct st_hash_type *type;
	/* Number of entries currently in the table. */
	st_index_t num_entries;
	/* Start and bound index of the entries in array entries,
	   both in [0, allocated entries]. */
	st_index_t entries_start, entries_bound;
	st_table_entry *entries;	/* array of 2^entry_power */
};

struct st_table example_table;
