/* fuzz_source: each L in L's expansion was expanded again, 8 levels deep */
#define L  L L L L L L L long
#define L  L L L L L L L long
struct s {
	char a;
#if NOT_DEFINED
	L b;
#else
	long b;
#endif
	char c;
};
struct s v;
