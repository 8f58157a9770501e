/*
 * testdata/e2e/forced.c - alignment that is asked for (tests/e2e/forced.sh).
 *
 * threads_pending is Redis's: a struct kept on a cacheline of its own by
 * aligned(64); its padding is the point, not waste.  holey_aligned has a
 * real hole as well as forced padding; aligned_member has a hole in front
 * of a member that asked for 16-byte alignment (pahole's "forced hole").
 */
#include <stdalign.h>

struct threads_pending {
	long threads;
	long jobs;
} __attribute__((aligned(64)));

struct holey_aligned {
	char c;
	long x;
} __attribute__((aligned(32)));

struct aligned_member {
	char c;
	alignas(16) int x;
	int y;
};

struct threads_pending tp;
struct holey_aligned ha;
struct aligned_member am;
