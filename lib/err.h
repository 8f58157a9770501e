/*
 * err.h - how errors travel up to cmd/.
 *
 * Library code never prints and never exits (except on out of memory): a
 * failing function fills a struct sf_err and returns -1.  The error is
 * kept as fields - the file it names, the line and column in that file,
 * the problem - and as the one line composed from them, "FILE: problem",
 * "FILE:LINE:COL: problem" or just "problem" when it names no file.  cmd/
 * prints the line as "structfit: LINE" and exits 2; the machine formats
 * (report/ci.h: SARIF, JUnit, GitHub, JSON) take the fields as they are,
 * never parsing the line back.
 *
 * Only a file goes in `file`: an option ("--narrow x=3: ..."), a command
 * ("check: ...") or a type ("struct foo: ...") that starts a line is part
 * of the problem.  Both parts together are cut at SF_ERR_MAX - 1 bytes,
 * the printed line with them.
 */
#ifndef SF_ERR_H
#define SF_ERR_H

#include <stdarg.h>

#define SF_ERR_MAX 1024

struct sf_err {
	char msg[SF_ERR_MAX];     /* the line: "[FILE[:LINE[:COL]]: ]problem" */
	char file[SF_ERR_MAX];    /* the file it names, "" when none */
	unsigned line, col;       /* where in file, 0 when not known */
	unsigned problem;         /* msg + problem: the text after the place */
};

/* An empty error: nothing failed yet. */
#define SF_ERR_INIT { .msg = "" }

/* A problem that names no file.  Always returns -1, so callers can write
 * `return sf_error(err, ...);` */
int sf_error(struct sf_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* A problem in `file` (at line and col when not 0: col needs a line).
 * Always returns -1. */
int sf_error_at(struct sf_err *err, const char *file, unsigned line, unsigned col,
		const char *fmt, ...) __attribute__((format(printf, 5, 6)));
int sf_verror_at(struct sf_err *err, const char *file, unsigned line, unsigned col,
		 const char *fmt, va_list ap) __attribute__((format(printf, 5, 0)));

/* The problem alone: msg without its "FILE[:LINE[:COL]]: " */
static inline const char *sf_err_problem(const struct sf_err *err)
{
	return err->msg + err->problem;
}

#endif
