/*
 * narrowarg.c - --narrow [TYPE.]MEMBER=BYTES parsed, once for suggest, fit
 * and patch (see narrowarg.h).
 */
#include "narrowarg.h"

#include <stdlib.h>
#include <string.h>

#include "lib/checked.h"
#include "lib/xalloc.h"

int sf_narrow_arg_parse(const char *arg, struct sf_narrow_arg *out, struct sf_err *err)
{
	const char *eq = strrchr(arg, '=');

	memset(out, 0, sizeof(*out));
	if (!eq || eq == arg || sf_parse_decimal(eq + 1, &out->bytes) < 0)
		return sf_error(err, "--narrow: '%s' is not MEMBER=BYTES", arg);
	const char *dot = memchr(arg, '.', (size_t)(eq - arg));
	out->arg = arg;
	if (dot) {
		out->type = sf_xstrndup(arg, (size_t)(dot - arg));
		out->member = sf_xstrndup(dot + 1, (size_t)(eq - dot - 1));
	} else {
		out->member = sf_xstrndup(arg, (size_t)(eq - arg));
	}
	return 0;
}

void sf_narrow_arg_release(struct sf_narrow_arg *a)
{
	free(a->type);
	free(a->member);
	memset(a, 0, sizeof(*a));
}

int sf_narrow_args_add(const char *arg, struct sf_narrow_arg **v, size_t *n,
		       struct sf_err *err)
{
	*v = sf_xreallocarray(*v, *n + 1, sizeof(**v));
	if (sf_narrow_arg_parse(arg, &(*v)[*n], err) < 0)
		return -1;
	(*n)++;
	return 0;
}

void sf_narrow_args_free(struct sf_narrow_arg *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		sf_narrow_arg_release(&v[i]);
	free(v);
}
