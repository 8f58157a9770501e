/* b/h.h - a struct with a hole, declared in a header reached via "..". */
struct norm {
	char c;
	long l;
};
