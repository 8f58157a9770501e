// cxx_chain.h - a chain of bases, each class's definition in the DWARF
// of another object: a polymorphic class is written out only where its key
// function is (g++ and clang++ alike), so cxx_chain_d.o declares ChainB,
// cxx_chain_b.o defines ChainB but declares ChainA, and cxx_chain_a.o
// defines ChainA.  Read in that order, ChainD waits for ChainB, which
// waits for ChainA (tests/e2e/cxx.sh).
struct ChainA {
	virtual ~ChainA();	// key function: cxx_chain_a.cpp
	long a;
};

struct ChainB : ChainA {
	virtual void f();	// key function: cxx_chain_b.cpp
	int b;
};

struct ChainD : ChainB {
	char d;
};
