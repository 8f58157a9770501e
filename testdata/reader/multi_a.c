/* Two translation units that share a header-like struct (deduplicated)
 * and differ in one (two variants of struct config). */
struct shared_node {
	struct shared_node *next;
	int key;
};

struct config {
	int verbose;
	char mode;
};

struct only_a {
	struct shared_node node;
	struct config cfg;
};

struct only_a only_a_example;
