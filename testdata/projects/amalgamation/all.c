/*
** This file is an amalgamation of rec.h and rec.c, made by mkall.sh.
*/
struct rec {
	char kind;
	long key;
	char live;
};

int rec_live(const struct rec *r) { return r->live; }

int main(void)
{
	struct rec r = { .kind = 1, .key = 2, .live = 1 };
	return rec_live(&r) ? 0 : 1;
}
