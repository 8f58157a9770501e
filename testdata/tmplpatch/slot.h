// testdata/tmplpatch/slot.h - a class template with two instantiations in
// main.cc (Slot<long>: 24 bytes, 16 reordered; Slot<char>: 8 either way)
// and an explicit specialization that declares its own members.
#pragma once

template <class T> struct Slot {
	char tag;
	T value;
	int n;
};

template <> struct Slot<int> {
	char tag;
	double weight;
	char mark;
};
