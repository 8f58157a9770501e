/*
 * file.h - whole files in and out, the one way every command does it.
 *
 *   sf_read_file    a whole file by path, appended to a strbuf
 *   sf_write_all    every byte of a buffer to a descriptor (short writes and
 *                   EINTR retried)
 *
 * They never print: a failure returns a negative code with errno set, and
 * the caller words the message (it knows what the file was for).  A
 * strbuf read into may hold a partial file after a read error.
 */
#ifndef SF_FILE_H
#define SF_FILE_H

#include <stddef.h>

#include "strbuf.h"

#define SF_FILE_CANNOT_OPEN (-1)   /* fopen failed (errno says why) */
#define SF_FILE_READ_ERROR (-2)    /* a read failed part way */

/* Append the whole file at path to sb: 0, SF_FILE_CANNOT_OPEN or
 * SF_FILE_READ_ERROR. */
int sf_read_file(const char *path, struct strbuf *sb);

/* Does sb hold text (no NUL byte)?  C sources and budgets must. */
int sf_is_text(const struct strbuf *sb);

/* Write buf[0..len) to fd whole: 0, or -1 with errno set. */
int sf_write_all(int fd, const char *buf, size_t len);

#endif
