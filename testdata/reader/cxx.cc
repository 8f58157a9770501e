// C++ layouts: namespaces and nested classes (qualified names), templates,
// a vtable pointer, an empty base (zero bytes: the empty base
// optimization), tail padding of a base reused by the derived class, a
// virtual base, static members (never part of a layout) and a scoped enum
// with a one-byte underlying type.
namespace geo {

struct Empty {};

struct Shape {
	virtual ~Shape() {}
	int id;
};

struct Tagged : Empty, Shape {
	char tag;
	int count;
};

struct Virt : virtual Shape {
	char v;
};

template <typename T, int N> struct Buf {
	T data[N];
	unsigned char len;
};

struct Outer {
	struct Inner {
		char c;
		double d;
	} in;
	int x;
	static int counter;
};

class Priv {
	int secret;

public:
	long open;
	int get() const { return secret; }
};

enum class Color : unsigned char { red, green };

struct Paint {
	Color c;
	short s;
};

} // namespace geo

int geo::Outer::counter;
geo::Tagged tagged_example;
geo::Virt virt_example;
geo::Buf<short, 3> buf_example;
geo::Outer outer_example;
geo::Priv priv_example;
geo::Paint paint_example;
