/*
 * sockaddr.c - input of tests/e2e/holes.sh: glibc's transparent union
 * __SOCKADDR_ARG, which gcc describes in DWARF with its size (8) and no
 * member at all (clang keeps its members).  `holes` must not rank those
 * 8 unknown bytes as padding.  struct pad wastes 7 bytes: a real entry.
 */
#define _GNU_SOURCE
#include <sys/socket.h>

int has_addr(__SOCKADDR_ARG a)
{
	return a.__sockaddr__ != 0;
}

struct pad {
	char c;
	long l;
} example_pad;
