// valign.h - a class whose base asks for its alignment (alignas) and is
// only declared in some units (issue 27, item 3: libjvm's javaVFrame :
// vframe, reported twice, the base aligned(8) in one definition only).
// ANode's key function is defined in valign_b.cpp only: valign_a.cpp's
// DWARF (g++) declares ANode and defines AMid.
struct alignas(8) ANode {
	virtual ~ANode();
	int idx;
};

struct AMid : ANode {
	int more;
};

struct AHolder {
	char c;
	AMid mid;
};

AHolder *make_aholder();
