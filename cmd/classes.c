/* classes.c - 'structfit classes' (not implemented yet: see the issue tracker). */
#include "builtin.h"
#include "common.h"

int cmd_classes(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return sf_die_usage("'classes' is not implemented yet");
}
