/* dup_b.c - one of three objects that all define struct shared_rec (shared.h). */
#include "shared.h"

struct shared_rec rec_b;

int use_b(const struct shared_rec *r)
{
	return r->tag + r->len;
}
