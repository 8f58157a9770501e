/* local.h - beside the unit: DWARF 5 files it under directory 0, the
 * compilation directory itself */
struct in_local {
	char c;
	long l;
};
