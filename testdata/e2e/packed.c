/*
 * packed.c - alignment that DWARF does not state: packed structs.
 *
 * DWARF has no "packed" attribute, so a reader must infer a struct's
 * alignment from its layout.  The compiler's own _Alignof is the truth the
 * end-to-end tests compare with.
 *
 * packed_inner is packed: on LP64 its size (12) is not a multiple of its
 * widest member's alignment (8), so its alignment must be 1.  On ILP32 it
 * looks natural on its own (size 8, members aligned); there the proof is in
 * holds_packed: `in` sits at offset 1, yet holds_packed has a hole after it
 * (so holds_packed is not packed): `in`'s type must align to 1.
 *
 * The Linux kernel has this case: the packed trace entries (struct
 * ftrace_graph_ent, ftrace_graph_ret_entry) inside struct fgraph_data.
 */
struct __attribute__((packed)) packed_inner {
	unsigned long func;
	int depth;
};

struct holds_packed {
	char c;
	struct packed_inner in;    /* offset 1 */
	int x;                     /* 16 on LP64, 12 on ILP32: a 3-byte hole before */
};

/* Packed and laid out naturally except for its size: 2 + 8 + 1 = 11. */
struct __attribute__((packed)) packed_tail {
	short s;
	long long ll;   /* offset 2 */
	char c;
};

/* Not packed; holds a packed member at an aligned offset. */
struct holds_tail {
	long long a;
	struct packed_tail t;      /* offset 8, size 11 */
	short after;               /* offset 20: 1-byte hole at 19 */
};

struct holds_packed v_holds_packed;
struct holds_tail v_holds_tail;
