/* refuse_ifdef.c - members under #ifdef: `structfit patch` must refuse. */
struct cfg {
	char verbose;
#ifdef CFG_DEBUG
	long magic;
#endif
	long limit;
	char mode;
};

struct cfg example_cfg;
