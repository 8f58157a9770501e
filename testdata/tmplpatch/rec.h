// testdata/tmplpatch/rec.h - a class template whose reorder shrinks both
// of its instantiations in main.cc (Rec<long>: 32 bytes, 16 reordered;
// Rec<int>: 20, 12), with a constructor's initializer list, a default
// member initializer, a member function and a struct held by value.
#pragma once

struct Mark {
	char kind;
};

template <class T> class Rec {
public:
	Rec() : a('a'), x(static_cast<T>(40)), b('b') {}
	T sum() const { return x + count; }

	char a;
	T x;   // the value
	char b;
	int count = 3;
	Mark mark{'m'};
};
