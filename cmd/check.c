/* check.c - 'structfit check' (not implemented yet: see the issue tracker). */
#include "builtin.h"
#include "common.h"

int cmd_check(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return sf_die_usage("'check' is not implemented yet");
}
