/* diff.c - 'structfit diff' (not implemented yet: see the issue tracker). */
#include "builtin.h"
#include "common.h"

int cmd_diff(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return sf_die_usage("'diff' is not implemented yet");
}
