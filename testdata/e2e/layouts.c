/*
 * layouts.c - plain C structs whose layouts differ by ABI, for the
 * end-to-end tests.  Compiled with gcc and clang, DWARF 4 and 5, for
 * x86_64, i386, aarch64 and armv7; the tests check structfit against the
 * compiler itself (sizeof/offsetof read back from a probe object) and
 * against `pahole -C NAME` on the same object.
 *
 * No system header is included (clang --target=... -ffreestanding has no
 * sysroot).  Every type is used by a variable so that it is emitted.
 */

typedef unsigned long size_t_;
typedef const volatile int cv_int;
typedef cv_int cv_int2;

/* Holes between members of different alignment. */
struct mixed {
	char a;            /* 0, then a 3-byte hole */
	int b;             /* 4 */
	char c;            /* 8, then a 7-byte hole on LP64, 3 on ILP32 */
	long long d;       /* 16 on LP64/arm, 12 on i386 */
	short e;
};

/* Trailing padding only. */
struct tail_pad {
	long a;
	char b;
};

/* i386 aligns double and long long to 4 inside structs; arm to 8. */
struct i386_align {
	char c;
	double d;
	long long ll;
	char t;
};

/* Pointer- and long-sized members change size with the ABI. */
struct ptrs {
	char c;
	long l;
	void *p;
	char d;
	const char *const name;
	int (*fn)(int, long);
};

/* Multi-dimensional arrays. */
struct arrays {
	char name[5];
	int m[2][3];
	short s;
	unsigned char grid[3][2][2];
};

/* Flexible array member at the end. */
struct flex {
	int n;
	char c;
	long data[];
};

/* Bit-fields with a bit hole and a byte hole after them. */
struct bits {
	unsigned int a : 3;
	unsigned int b : 5;
	unsigned int c : 1;
	/* 23 bits unused in this unit */
	int x;
	unsigned char f : 2;
	unsigned char g : 4;
	/* bits hole, then 3 bytes hole */
	int y;
};

/* typedef / const / volatile chains. */
struct qualified {
	cv_int2 a;
	volatile short s;
	const char c;
	size_t_ n;
	_Bool flag;
};

/* Anonymous and named nested aggregates. */
struct nested {
	int kind;
	union {
		int i;
		double d;
		char bytes[12];
	};
	struct {
		char a;
		long b;
	} named;
	struct {
		short x, y;
	};
	char last;
};

/* A top-level union with padding (12 bytes of char vs 8-byte long long). */
union value {
	char c[13];
	int i;
	long long l;
};

/* Explicit alignment. */
struct aligned {
	char c;
	_Alignas(16) int x;
	char d;
};

struct __attribute__((aligned(32))) over_aligned {
	int a;
	char b;
};

/* Packed: members below their natural alignment, no padding. */
struct __attribute__((packed)) packed {
	char c;
	int i;
	short s;
	long long ll;
};

/* Enums of several sizes. */
enum __attribute__((packed)) small_enum { SMALL_A, SMALL_B };
enum int_enum { INT_A = 1, INT_B = 70000 };
enum big_enum { BIG_A = 0, BIG_B = 0x100000000ULL };

struct enums {
	enum small_enum s;
	enum int_enum i;
	enum small_enum t;
	enum big_enum b;
};

/* Bigger than a 64-byte cacheline, with holes on both sides of a boundary. */
struct big {
	char c;
	long arr[7];
	char d;
	long long e;
	int f;
	char g[30];
};

/* Holes around a nested struct member. */
struct inner { char x; int y; };
struct outer {
	char a;
	struct inner in;
	char b;
	struct inner arr[2];
	short c;
};

struct mixed v_mixed;
struct tail_pad v_tail_pad;
struct i386_align v_i386_align;
struct ptrs v_ptrs;
struct arrays v_arrays;
struct flex *v_flex;
struct bits v_bits;
struct qualified v_qualified;
struct nested v_nested;
union value v_value;
struct aligned v_aligned;
struct over_aligned v_over_aligned;
struct packed v_packed;
struct enums v_enums;
struct big v_big;
struct outer v_outer;
