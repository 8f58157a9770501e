/* unit.c - compiled from its own directory with the tree's root mapped
 * to "." (tests/e2e/right.sh): DW_AT_comp_dir is the relative "./sub",
 * as in valgrind-dbg's memcheck ("./memcheck") */
#include "local.h"
#include "../inc/other.h"

struct in_unit {
	struct in_local a;
	struct in_other b;
};

struct in_unit u;
