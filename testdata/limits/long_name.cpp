// long_name.cpp - a C++ template whose name runs to 2,055 characters
// (tests/e2e/limits.sh): Box<L, L> with L an identifier of 1,024 letters,
// made by the preprocessor doubling "abcdefgh" seven times.  Longer than
// any fixed buffer a name was once copied into (512, 1,024 bytes), as C++
// template names in real programs are (issue 11 met one of 1,626).
#define CAT(a, b) a##b
#define TWICE(a) CAT(a, a)
#define LONG_ID TWICE(TWICE(TWICE(TWICE(TWICE(TWICE(TWICE(abcdefgh)))))))

struct LONG_ID {
	int x;
};

template <class A, class B> struct Box {
	char c;
	A a;
	short s;
	B *b;
};

// the symbol sizes (nm -S) are the compiler's sizeof, the test's oracle
Box<LONG_ID, LONG_ID> box;
LONG_ID plain;
