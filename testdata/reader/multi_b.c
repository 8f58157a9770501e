/* The other unit: same shared_node, a different struct config. */
struct shared_node {
	struct shared_node *next;
	int key;
};

struct config {
	long verbose;
	char mode;
};

struct only_b {
	struct shared_node node;
	struct config cfg;
	double weight;
};

struct only_b only_b_example;
