/*
 * anon.c - members whose type has no name: pahole prints the type's body
 * inline (an anonymous enum with its enumerators, a const or pointed-to
 * anonymous struct with its members).  The Linux kernel has many (e.g.
 * struct nfs4_stateid's `enum {...} type`, struct parsed_partitions's
 * `struct {...} *parts`).  The end-to-end tests compare structfit's text
 * with `pahole -C NAME` for each struct here.
 */
struct with_enum {
	int id;
	enum {
		STATE_IDLE = 0,
		STATE_BUSY = 1,
		STATE_DONE = 2,
	} state;
	unsigned int mode : 3;
	enum {
		KIND_A = 0,
		KIND_B = 1,
	} kind : 2;
};

struct with_anon_ptr {
	char tag;
	struct {
		long from;
		long size;
		int flags;
	} *parts;
	struct {
		short x, y;
	} points[4];
};

/* pahole 1.24 prints this one wrong (see tests/e2e/show.sh). */
struct with_const_anon {
	char tag;
	const struct {
		void *vma;
		unsigned int gfp;
		unsigned long pgoff;
	} cst;
};

struct with_enum v_with_enum;
struct with_anon_ptr v_with_anon_ptr;
struct with_const_anon v_with_const_anon;
