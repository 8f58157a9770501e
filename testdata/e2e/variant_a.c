/*
 * variant_a.c / variant_b.c - two different definitions of struct conflict
 * (as when a header changed between builds): both must be reported, marked.
 */
struct conflict {
	int id;
	char flag;
};

struct conflict conflict_a;
