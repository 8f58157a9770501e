/* main.c - the project's own test: the length sits where the wire says. */
#include <string.h>
#include "msg.h"

static const size_t len_at = offsetof(struct msg, len);

int main(void)
{
	struct msg m;
	long len = 42;

	memset(&m, 0, sizeof(m));
	memcpy((char *)&m + len_at, &len, sizeof(len));
	return m.len == 42 ? 0 : 1;
}
