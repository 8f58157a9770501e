/*
 * layouts.c - inputs of tests/e2e/suggest.sh and fit.sh: structs whose best
 * order and narrowings are known by hand (see the comment on each).
 * No system header: the file builds freestanding for any target.
 */

typedef unsigned long VALUE;
typedef long Py_ssize_t;
typedef unsigned char uint8_t;
typedef unsigned int uint32_t;

/* 24 bytes as declared (a@0 b@8 c@16 d@20 ... ); 16 once c, d, e follow b. */
struct padded {
	char a;
	long b;
	char c;
	int d;
	short e;
};

/* Ruby-style object header first: it stays at offset 0 unless
 * --no-pin-first.  40 bytes; 32 with z next to x. */
struct RBasic {
	VALUE flags;
	VALUE klass;
};

struct with_base {
	struct RBasic basic;
	char x;
	long y;
	char z;
};

/* Redis' robj: the bit-field run type:4, encoding:4, lru:24 shares one
 * unsigned int and moves as one; 16 bytes, no hole; ptr as a 4-byte index
 * makes it 12. */
struct redisObject {
	unsigned type:4;
	unsigned encoding:4;
	unsigned lru:24;
	int refcount;
	void *ptr;
};

/* CPython's _dictkeysobject (3.11): three uint8_t then a uint32_t leave a
 * 1-byte hole at 11; the flexible array stays last. */
struct _dictkeysobject {
	Py_ssize_t dk_refcnt;
	uint8_t dk_log2_size;
	uint8_t dk_log2_index_bytes;
	uint8_t dk_kind;
	uint32_t dk_version;
	Py_ssize_t dk_usable;
	Py_ssize_t dk_nentries;
	char dk_indices[];
};

/* No single narrowing helps with classes 8,12; a pair of int -> short does. */
struct three {
	int a;
	int b;
	int c;
};

/* A union: order never matters; narrowing its widest member does. */
union number {
	char c;
	long l;
	int i;
};

/* packed: members at any byte; already as small as it gets. */
struct __attribute__((packed)) wire {
	char tag;
	int value;
	short len;
};

/* 14 members: beyond the exact moves search (12 units). */
struct wide {
	char c0; long l0; char c1; long l1; char c2; long l2; char c3;
	long l3; char c4; long l4; char c5; long l5; char c6; long l6;
};

/* Two one-byte bit-field runs apart, an enum and a bool: 32 bytes; 16 once
 * the runs and small members share the word after l.  Side by side in
 * the proposal, a compiler may pack the two runs into one byte: the size
 * suggest promises is then an upper bound, here equal after rounding. */
enum color { RED, GREEN, BLUE };

struct bits {
	unsigned a:3;
	long l;
	unsigned b:3;
	enum color col;
	char c;
	_Bool ok;
};

/* An unnamed `unsigned :0` is not in the DWARF, but it pushed b and c to
 * offset 4: suggest must still model the layout (the run b, c starts only
 * at a multiple of 4) and find 24 -> 16 by moving d up. */
struct zero_width {
	char tag;
	unsigned a:1;
	unsigned :0;
	unsigned b:1, c:1;
	long l;
	char d;
};

struct padded example_padded;
struct zero_width example_zero_width;
struct bits example_bits;
struct with_base example_with_base;
struct redisObject example_robj;
struct _dictkeysobject example_dk;
struct three example_three;
union number example_number;
struct wire example_wire;
struct wide example_wide;
