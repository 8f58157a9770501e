/* fit.c - 'structfit fit' (not implemented yet: see the issue tracker). */
#include "builtin.h"
#include "common.h"

int cmd_fit(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return sf_die_usage("'fit' is not implemented yet");
}
