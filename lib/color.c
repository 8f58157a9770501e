/*
 * color.c - the colour decision and the SGR table (see color.h for the
 * rules).  The table is const data indexed by role; no state is kept.
 */
#include "color.h"

#include <stddef.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>

/* ECMA-48 SGR: 1 bold, 2 dim, 31 red, 32 green, 33 yellow, 34 blue, 36 cyan. */
static const char *const sgr[SF_C_NROLES] = {
	[SF_C_PLAIN] = "\033[m",
	[SF_C_TYPE_NAME] = "\033[1m",
	[SF_C_MEMBER_TYPE] = "\033[36m",
	[SF_C_OFFSET] = "\033[2m",
	[SF_C_HOLE] = "\033[1;31m",
	[SF_C_BIT_HOLE] = "\033[31m",
	[SF_C_PADDING] = "\033[33m",
	[SF_C_CACHELINE] = "\033[34m",
	[SF_C_SUMMARY] = "\033[2m",
	[SF_C_GOOD] = "\033[32m",
	[SF_C_BAD] = "\033[1;31m",
	[SF_C_WARN] = "\033[33m",
};

int sf_color_parse(const char *s, enum sf_color_mode *out)
{
	static const struct {
		const char *name;
		enum sf_color_mode mode;
	} names[] = {
		{ "auto", SF_COLOR_AUTO }, { "tty", SF_COLOR_AUTO },
		{ "if-tty", SF_COLOR_AUTO },
		{ "always", SF_COLOR_ALWAYS }, { "yes", SF_COLOR_ALWAYS },
		{ "force", SF_COLOR_ALWAYS },
		{ "never", SF_COLOR_NEVER }, { "no", SF_COLOR_NEVER },
		{ "none", SF_COLOR_NEVER },
	};

	if (!s) {
		*out = SF_COLOR_ALWAYS;
		return 0;
	}
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(s, names[i].name)) {
			*out = names[i].mode;
			return 0;
		}
	}
	return -1;
}

/*
 * The decision itself.  is_tty: whether the output is a terminal; no_color
 * and term: the values of NO_COLOR and TERM (NULL when unset).
 */
static bool want(enum sf_color_mode mode, bool is_tty, const char *no_color,
		 const char *term)
{
	switch (mode) {
	case SF_COLOR_ALWAYS:
		return true;            /* beats NO_COLOR: the user asked */
	case SF_COLOR_NEVER:
		return false;
	case SF_COLOR_AUTO:
		break;
	}
	if (!is_tty)
		return false;
	if (no_color && *no_color)      /* no-color.org: set and not empty */
		return false;
	if (!term || !*term || !strcmp(term, "dumb"))
		return false;
	return true;
}

bool sf_color_for_fd(enum sf_color_mode mode, int fd)
{
	if (mode != SF_COLOR_AUTO)
		return mode == SF_COLOR_ALWAYS;
	return want(mode, isatty(fd) == 1, getenv("NO_COLOR"), getenv("TERM"));
}

const char *sf_color_code(bool on, enum sf_color_role role)
{
	if (!on || (unsigned)role >= SF_C_NROLES)
		return "";
	return sgr[role];
}

const char *sf_color_reset(bool on)
{
	return on ? sgr[SF_C_PLAIN] : "";
}
