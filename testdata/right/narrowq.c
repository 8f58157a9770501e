/* narrowq.c - narrowings keep what the declaration asks for (issue 27,
 * item 4: HotSpot's ZMarkTerminate, `volatile uint _nworking_stage0
 * __aligned__(64)` was offered as a plain `uint16_t __aligned__(2)`).
 *
 * keeps_cv: narrowing `hits` (8 -> 4 bytes) saves 8; it stays volatile,
 * `limit` stays const, and `cursor` a volatile pointer.
 * keeps_align: each counter asks for its own cache line; a narrower type
 * leaves it there, so no narrowing saves a byte. */
struct keeps_cv {
	volatile long hits;
	const int limit;
	char *volatile cursor;
	int count;
	char tag;
};

struct keeps_align {
	unsigned int nworkers;
	volatile unsigned int stage0 __attribute__((aligned(64)));
	volatile unsigned int stage1;
};

struct keeps_cv kc;
struct keeps_align ka;
