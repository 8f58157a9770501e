// testdata/tmplpatch/rec.h - a class template whose reorder shrinks both
// of its instantiations in main.cc (Rec<long>: 24 bytes, 16 reordered;
// Rec<int>: 16, 12), with a constructor's initializer list, a default
// member initializer and a member function.
#pragma once

template <class T> class Rec {
public:
	Rec() : a('a'), x(static_cast<T>(40)), b('b') {}
	T sum() const { return x + count; }

	char a;
	T x;   // the value
	char b;
	int count = 3;
};
