// testdata/tmplpatch/holder.h - a class with a polymorphic base that holds
// two class template instantiations by value, one of them with a member
// whose type is nested in the template (Pool<8>::Item *): patch's check
// that what it holds is still what the build saw reads each as its source
// declares it (no vptr; the template's members, Item * for
// Pool<8>::Item *).  64 bytes, 56 reordered.
#pragma once

#include "slot.h"

template <int N> struct Pool {
	union Item {
		char c[N];
		Item *next;
	};
	Item *root = nullptr;
	int n = N;
};

struct Shape {
	virtual ~Shape() {}
	long id = 1;
};

class Holder : public Shape {
public:
	char a = 'h';
	long x = 5;
	Slot<char> s{};
	Pool<8> pool;
	char b = 'i';
};
