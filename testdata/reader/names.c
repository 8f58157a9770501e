/*
 * names.c - what a name means in C, and bodies pahole shows inline.
 *
 * Tags (`union dtv`) and typedef names (`dtv`) are separate namespaces:
 * the union and the typedef'd anonymous struct below are two types, not
 * two definitions of one (glibc's TLS code has exactly this pair).
 *
 * An anonymous enum's enumerators and a pointed-to anonymous struct are
 * part of the member's type; pahole prints them where the member is.
 *
 * pinner is packed, but on ILP32 its own layout looks natural (size 8,
 * members aligned): only pholder, where it sits at offset 1 although
 * pholder has holes, shows it aligns to 1.
 */
union dtv {
	long c;
	void *p;
};

typedef struct {
	union dtv d[2];
} dtv;

struct holder {
	enum { H_NEG = -2, H_ZERO, H_BIG = 0x7fffffff } e;
	struct {
		long from;
		int flags;
	} *parts;
	enum { U_A = 1u, U_TOP = 0x80000000u } u : 32;
};

struct __attribute__((packed)) pinner {
	long a;
	int b;
};

struct pholder {
	char c;
	struct pinner in;   /* offset 1 */
	int x;              /* after a hole: pholder is not packed */
};

dtv dtv_example;
struct holder holder_example;
struct pholder pholder_example;
