/*
 * expand.c - members pahole -E (--expand_types) prints differently: the
 * typedefs of a member's type said ("typedef a -> b" comments), the struct,
 * union and enum types a member holds by value printed inline, at the
 * member's offsets.  pahole_compat.sh compares `structfit pahole -E` with
 * `pahole -E` on it, gcc and clang.
 */
typedef long off_like;
typedef off_like off2;                       /* a chain of two */
typedef unsigned char byte;
typedef byte bytes4[4];                      /* an array of a typedef */
typedef float v4f __attribute__((vector_size(16)));

typedef struct {
	int count;
	union {
		unsigned int wch;
		char wchb[4];
	} value;
} mbstate_like;                              /* a typedef of an anonymous struct */

typedef enum { RED = 1, GREEN = 2, BLUE = 4 } colour;   /* of an anonymous enum */

typedef struct {
	long long ll __attribute__((aligned(8)));
	long double ld __attribute__((aligned(16)));
} max_align_like;                            /* aligned: "} name __attribute__" */

struct point {
	short x;
	int y;
};

struct __attribute__((packed)) wire {
	char tag;
	long value;
};

struct level4 { colour c; char d; };
struct level3 { struct level4 l4; enum { DEEP_A, DEEP_B } e; };
struct level2 { char b; struct level3 l3; };
struct level1 { struct level2 l2; };

struct expand {
	off2 offset;                             /* long, through two typedefs */
	byte flags;
	bytes4 magic;
	byte raw[3];
	mbstate_like state;
	colour shade;
	colour tint : 3;
	struct point origin;                     /* expanded: "}origin;" */
	struct point corners[2];                 /* "} corners[2];" */
	struct wire w;
	union {
		struct point p;
		long whole;
	} either;
	v4f lanes;
	max_align_like aligned;
	struct level1 deep;                      /* nesting deep enough that
	                                          * pahole's widths go negative */
};

struct expand v_expand;
