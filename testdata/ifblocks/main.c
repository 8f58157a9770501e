#include <stdio.h>
#include "settings.h"
#include "conn.h"
#include "item.h"
#include "opts.h"

struct settings settings;
struct conn conn;
struct item item;
struct opts opts;

int main(void)
{
	settings.maxconns = 1024;
	conn.sfd = 3;
	item.kind = 'k';
	opts.w = 7;
	printf("%zu %zu %zu %zu %d %d %c %ld\n", sizeof(struct settings), sizeof(struct conn),
	       sizeof(struct item), sizeof(struct opts), settings.maxconns, conn.sfd, item.kind,
	       (long)opts.w);
	return 0;
}
