/*
 * relocs.c - a relocatable object whose debug sections need every kind
 * of relocation a compiler puts there: string offsets (.debug_str,
 * .debug_str_offsets, .debug_line_str), unit and line-table offsets,
 * addresses of functions and variables (.debug_addr), and - because of the
 * functions - code lengths, which riscv writes as ADD/SUB label pairs
 * (linker relaxation).  tests/e2e/elf.sh builds it for many targets and
 * compares structfit on the .o (our relocations) with structfit on the
 * same object linked by ld.lld (the linker's) and with the compiler's
 * sizeof/offsetof.  Freestanding: no system header.
 */

struct reloc_node {
	char tag;                   /* then a hole up to the pointer/long */
	long value;
	struct reloc_node *next;
	short weight;               /* then tail padding */
};

struct reloc_table {
	unsigned char kind;
	double scale;               /* 4-aligned on i386 only */
	long long total;
	struct reloc_node *nodes[3];
	int (*visit)(const struct reloc_node *);
	unsigned flags : 3;
	unsigned mode : 5;
};

union reloc_value {
	long l;
	double d;
	char bytes[12];
};

struct reloc_table reloc_table;
union reloc_value reloc_value;

int reloc_sum(const struct reloc_node *n)
{
	int s = 0;

	for (; n; n = n->next)
		s += n->tag * n->weight;
	return s;
}

int reloc_walk(struct reloc_table *t, int k)
{
	if (k > 2)
		return reloc_sum(t->nodes[0]) + k;
	return t->visit ? t->visit(t->nodes[k]) : k * 2;
}
