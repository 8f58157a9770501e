/*
 * gate.c - the input of tests/e2e/check.sh (`structfit check`).
 *
 * Compiled twice: as is, and with -DGROW, the next build in which
 * st_table gained a member.  The test takes every expected number from
 * the compiler (sizeof, _Alignof) and from pahole, never from this
 * comment; the comments only say what each struct is there for.
 *
 * No system header: the file builds freestanding.
 */

typedef unsigned long VALUE;
typedef unsigned long st_index_t;

/* Ruby's st_table before the narrowing: a 1-byte hole after size_ind. */
struct st_table {
	unsigned char entry_power, bin_power, size_ind;
	unsigned int rebuilds_num;
	const void *type;
	st_index_t num_entries;
	st_index_t entries_start, entries_bound;
	void *entries;
#ifdef GROW
	st_index_t bins_extra;        /* the growth the budget must catch */
#endif
};

struct RBasic {
	VALUE flags;
	VALUE klass;
};

/* The header in front of an st_table in a Ruby GC slot. */
struct RHash {
	struct RBasic basic;
	VALUE ifnone;
};

/* Packed tight: no hole, no padding. */
struct rb_shape {
	void *edges;
	VALUE edge_name;
	unsigned int next_iv_index;
	unsigned int capacity;
	struct rb_shape *parent;
};

/* A char before a pointer and one after: a hole and trailing padding. */
struct rb_node {
	char color;
	struct rb_node *left;
	char flag;
};

/* Redis's object header: three bit-fields in one word. */
struct robj {
	unsigned type : 4;
	unsigned encoding : 4;
	unsigned lru : 24;
	int refcount;
	void *ptr;
};

/* 16-byte alignment, several cachelines, trailing padding. */
struct wide {
	long double scale;
	char name[121];
};

/* A union: its size is its largest member rounded up to its alignment. */
union rb_value {
	long l;
	char c[12];
};

struct st_table gate_table;
struct RHash gate_hash;
struct rb_shape gate_shape;
struct rb_node gate_node;
struct robj gate_obj;
struct wide gate_wide;
union rb_value gate_value;
