/*
 * err.c - filling a struct sf_err: the fields, and the one line composed
 * from them (see err.h).
 */
#include "err.h"

#include <stdio.h>
#include <string.h>

/*
 * The line is one line whatever it quotes: a control character (a file
 * or an archive member named with a newline, found by fuzz_reader) reads
 * as '?', as ls -q shows it.  `file` keeps the name as it is; the machine
 * formats escape it.
 */
static void one_line(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = '?';
}

int sf_verror_at(struct sf_err *err, const char *file, unsigned line, unsigned col,
		 const char *fmt, va_list ap)
{
	char problem[SF_ERR_MAX];
	int n = 0;

	if (!err)
		return -1;
	vsnprintf(problem, sizeof(problem), fmt, ap);
	snprintf(err->file, sizeof(err->file), "%s", file ? file : "");
	err->line = file ? line : 0;
	err->col = file ? col : 0;
	if (file && col)
		n = snprintf(err->msg, sizeof(err->msg), "%s:%u:%u: ", file, line, col);
	else if (file && line)
		n = snprintf(err->msg, sizeof(err->msg), "%s:%u: ", file, line);
	else if (file)
		n = snprintf(err->msg, sizeof(err->msg), "%s: ", file);
	/* the line is cut where one vsnprintf of it all would cut it */
	if (n < 0 || (size_t)n >= sizeof(err->msg))
		n = (int)sizeof(err->msg) - 1;
	err->problem = (unsigned)n;
	snprintf(err->msg + n, sizeof(err->msg) - (size_t)n, "%s", problem);
	one_line(err->msg);
	return -1;
}

int sf_error_at(struct sf_err *err, const char *file, unsigned line, unsigned col,
		const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sf_verror_at(err, file, line, col, fmt, ap);
	va_end(ap);
	return -1;
}

int sf_error(struct sf_err *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sf_verror_at(err, NULL, 0, 0, fmt, ap);
	va_end(ap);
	return -1;
}
