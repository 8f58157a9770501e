/*
 * slab.c - structs whose slab caches tests/e2e/live.sh writes into a
 * slabinfo made at test time, for the allocator's unit in suggest and fit:
 *
 * xfs_inode: 1,088 bytes (1,072 of data, a hint, a flags word, a state
 * byte; 3 bytes of padding).  Its cache adds SLUB's 8-byte free pointer:
 * objsize 1,096, 14 per 4-page slab.  Narrowing i_cache_start (a hint, 8
 * bytes) to 2 bytes (the widest that does it) puts it beside i_state:
 * 1,080 bytes, a 1,088-byte slot, 15 per slab.
 * kcursor: a pointer named cursor beside a counter: the pointer is a
 * design change, ranked after the counter (not as a hint).
 */
struct xfs_inode {
	long i_data[134];
	long i_cache_start;
	int i_flags;
	char i_state;
};

struct kcursor {
	char *cursor;
	long hits;
	char tag;
};

struct xfs_inode xi;
struct kcursor kc;
