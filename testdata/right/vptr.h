// vptr.h - classes whose alignment comes from a base only declared in
// some units (issue 27, item 3: HotSpot's MachMergeNode : MachIdealNode :
// MachNode : Node, reported twice, alignment 1 and 8).  Node's key
// function is defined in vptr_b.cpp only: vptr_a.cpp's DWARF (g++)
// declares Node and defines Mid and Leaf, whose vptr is Node's.
struct Node {
	virtual ~Node();
	void *in;
	unsigned idx;
};

struct Mid : Node {
};

struct Leaf : Mid {
};

struct Holder {
	char c;
	Leaf leaf;
};

Holder *make_holder();
