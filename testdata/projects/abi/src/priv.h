/* Private to the program: nothing outside it sees priv_state. */
#ifndef PRIV_H
#define PRIV_H

struct priv_state {
	char dirty;
	long count;
	char mode;
};

#endif
