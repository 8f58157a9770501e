/* other.h - in a directory of its own, named relative to the
 * compilation directory ("../inc") */
struct in_other {
	short s;
	int i;
};
