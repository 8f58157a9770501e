/*
 * Scalars whose alignment differs between ABIs: i386 aligns double,
 * long long and long double to 4 inside structs, 32-bit ARM (EABI) aligns
 * double and long long to 8 and has an 8-byte long double, x86_64 and
 * aarch64 have a 16-byte, 16-aligned long double.
 */
struct abi_mix {
	char c;
	double d;
	long long ll;
	char c2;
	long double ld;
};

struct abi_ptrs {
	char c;
	void *p;
	short s;
	_Bool b;
};

struct abi_mix abi_mix_example;
struct abi_ptrs abi_ptrs_example;
