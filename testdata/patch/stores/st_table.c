/*
 * stores/st_table.c - Ruby's st_table (as testdata/example/st_table.c)
 * with the stores `structfit patch` must find before it narrows a member
 * (tests/e2e/patch.sh):
 *
 *   entries_start  stored from a parameter (a value of 8 bytes: may not
 *                  fit one) in a whole statement, and from the literal 0
 *                  (fits): refused, or rewritten to clamp with --saturate;
 *   entries_bound  stored from a call (memcached's `w->min_gid =
 *                  logger_get_gid();`): refused, naming the line;
 *   type           a pointer: never narrowed to an integer.
 *
 * st_get_start reads the member back (main.c prints it).
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

static st_index_t next_bound;

static st_index_t st_next_bound(void)
{
	return next_bound += 1000;
}

void st_set_start(struct st_table *tab, st_index_t start)
{
	tab->entries_start = start;
}

void st_clear(struct st_table *tab)
{
	tab->entries_start = 0;
	tab->entries_bound = st_next_bound();
}

st_index_t st_get_start(void)
{
	return example_table.entries_start;
}
