/* suggest.c - 'structfit suggest' (not implemented yet: see the issue tracker). */
#include "builtin.h"
#include "common.h"

int cmd_suggest(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return sf_die_usage("'suggest' is not implemented yet");
}
