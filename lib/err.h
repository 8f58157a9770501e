/*
 * err.h - how errors travel up to cmd/.
 *
 * Library code never prints and never exits (except on out of memory): a
 * failing function fills a struct sf_err with one line, "FILE: problem",
 * and returns -1.  cmd/ prints it as "structfit: FILE: problem" and exits 2.
 */
#ifndef SF_ERR_H
#define SF_ERR_H

struct sf_err {
	char msg[1024];
};

/* Always returns -1, so callers can write `return sf_error(err, ...);` */
int sf_error(struct sf_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
