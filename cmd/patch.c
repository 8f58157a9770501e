/* patch.c - 'structfit patch' (not implemented yet: see the issue tracker). */
#include "builtin.h"
#include "common.h"

int cmd_patch(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return sf_die_usage("'patch' is not implemented yet");
}
