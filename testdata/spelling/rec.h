/* One header, built by gcc and by clang (tests/e2e/spelling.sh): gcc
 * names these members' types `short int`, `long unsigned int`, ...,
 * clang `short`, `unsigned long`; they are the same types. */
struct sp_rec {
	short s;
	unsigned short us;
	long l;
	unsigned long ul;
	long long ll;
	unsigned long long ull;
	signed char sc;
	char c;
	unsigned char uc;
	unsigned u;
	const unsigned long *p;
};
