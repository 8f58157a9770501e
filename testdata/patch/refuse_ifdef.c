/* refuse_ifdef.c - an #if nested in another inside the body: `structfit patch` must refuse. */
struct cfg {
	char verbose;
#ifdef CFG_DEBUG
#if CFG_DEBUG > 1
	long magic;
#endif
#endif
	long limit;
	char mode;
};

struct cfg example_cfg;
