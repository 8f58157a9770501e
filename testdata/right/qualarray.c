/* Qualified arrays (valgrind's `volatile unsigned int futex[16]` in
 * sched_lock): gcc qualifies the array and its element both, and a
 * reader that spells each qualifier it passes says "volatile volatile". */
typedef volatile unsigned int vu;
struct qualarray {
	volatile vu futex[16];
	volatile unsigned int f2[4];
	const char name[12];
	const volatile int cv[2];
	char *volatile ptrs[2];
	volatile unsigned int grid[2][3];
};
struct qualarray qualarray_v;
