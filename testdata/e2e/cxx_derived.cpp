// cxx_derived.cpp - classes with bases: Base (only declared in this
// object's DWARF when built by g++), an empty base, a virtual base.
#include "cxx_base.h"

struct Derived : Base {
	char c;    // after Base's 16 bytes (vptr + long) on LP64
	int d;
};

struct Empty {};

// the empty base takes no room: x is at offset 0
struct WithEmpty : Empty {
	int x;
};

struct VBase {
	long v;
};

// a virtual base: a vptr first, the VBase subobject at the end
struct WithVirtual : virtual VBase {
	char w;
};

Derived *make_derived() { return new Derived; }
WithEmpty with_empty;
WithVirtual with_virtual;
