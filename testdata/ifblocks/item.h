/* memcached-like: the only 8-byte member is under #ifdef BIG_CAS. */
#include <stdint.h>

struct item {
	char kind;
	int exptime;
	char it_flags;
	int refcount;
	char slabs_clsid;
	short nkey;
#ifdef BIG_CAS
	uint64_t cas;           /* compare and swap */
#endif
	char nsuffix;
};
