/* main.c - the project's own test. */
#include <unistd.h>
#include "worker.h"

int main(void)
{
	struct worker w = { .state = 1, .pid = getpid(), .flags = 2 };
	w.jobs += 3;
	w.refs += 1;
	return w.jobs == 3 && w.refs == 1 && w.pid == getpid() ? 0 : 1;
}
