/* variant_b.c - the other struct conflict (see variant_a.c): a long, not an int. */
struct conflict {
	long id;
	char flag;
	char extra[3];
};

struct conflict conflict_b;
