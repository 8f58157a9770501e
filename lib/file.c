/*
 * file.c - whole files in and out (file.h).
 *
 * Reads go through stdio in 64 KiB pieces appended to the strbuf (the
 * files read whole are sources, budgets and counts: small next to the
 * debug info, which input/ maps instead).
 */
#include "file.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Append the rest of f to sb: 0, or SF_FILE_READ_ERROR. */
static int read_stream(FILE *f, struct strbuf *sb)
{
	char buf[65536];
	size_t n;

	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		sb_add(sb, buf, n);
	return ferror(f) ? SF_FILE_READ_ERROR : 0;
}

int sf_read_file(const char *path, struct strbuf *sb)
{
	FILE *f = fopen(path, "rb");

	if (!f)
		return SF_FILE_CANNOT_OPEN;
	int rc = read_stream(f, sb);
	int saved = errno;
	fclose(f);
	errno = saved;
	return rc;
}

int sf_is_text(const struct strbuf *sb)
{
	return !sb->len || !memchr(sb->buf, '\0', sb->len);
}

int sf_write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}
