/* An #if whose #else declares the member too: the block stays in place. */
struct opts {
	char a;
	long b;
	char c;
#ifdef WIDE
	long w;
#else
	int w;
#endif
	char d;
};
