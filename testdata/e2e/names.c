/*
 * names.c - how a type may be named on the command line (tests/e2e/habits.sh):
 * a typedef of a named struct (`-t FILE` finds struct _IO_FILE, as
 * `pahole -C FILE` does; `-t rb_node_t` and the chain `-t rb_alias_t` find
 * struct rb_node), a glob ('rb_*' selects rb_node and rb_tree, not other),
 * a comma list.  The probe prints sizeof of each, the oracle of the test.
 */
#include <stdio.h>

struct rb_node {
	char color;
	long key;
};

struct rb_tree {
	char kind;
	int count;
	struct rb_node *root;
};

struct other {
	int a;
	char b;
};

typedef struct rb_node rb_node_t;
typedef rb_node_t rb_alias_t;

rb_alias_t names_node;
struct rb_tree names_tree;
struct other names_other;
FILE *names_file;

int main(void)
{
	printf("FILE %zu\nrb_node %zu\nrb_tree %zu\nother %zu\n", sizeof(FILE),
	       sizeof(struct rb_node), sizeof(struct rb_tree), sizeof(struct other));
	return 0;
}
