/*
 * hash.c - the project the README's "Gate your CI" example checks: an older
 * Ruby st_table (with the bins pointer: 56 bytes), the RHash in front of it,
 * and a few more types for the budget's other rules.  tests/e2e/readme.sh
 * and ci.sh build it in a git repository as src/hash.c and run the README's
 * commands on it; the README's lines name src/hash.c:16 and :34.
 */
typedef unsigned long VALUE;
typedef unsigned long st_index_t;
typedef unsigned long st_data_t;

struct st_hash_type {
	int (*compare)(st_data_t, st_data_t);
	st_index_t (*hash)(st_data_t);
};
struct st_table {
	unsigned char entry_power, bin_power, size_ind;
	unsigned int rebuilds_num;
	const struct st_hash_type *type;
	st_index_t num_entries;
	st_index_t *bins;
	st_index_t entries_start, entries_bound;
	struct st_table_entry *entries;
};
struct st_table_entry {
	st_index_t hash;
	st_data_t key;
	st_data_t record;
};
struct RBasic {
	VALUE flags;
	VALUE klass;
};
struct RHash {
	struct RBasic basic;
	VALUE ifnone;
};
struct rb_shape {
	struct rb_shape *parent;
	VALUE edges;
	unsigned int next_iv_index;
	unsigned int capacity;
};
struct rb_ivar {
	VALUE *ptr;
	unsigned int len, capa;
};
struct robj {
	unsigned type:4, encoding:4, lru:24;
	int refcount;
	void *ptr;
};

struct st_hash_type hash_type;
struct st_table table;
struct st_table_entry entry;
struct RHash rhash;
struct rb_shape shape;
struct robj obj;
struct rb_ivar ivar;
