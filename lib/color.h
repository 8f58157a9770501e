/*
 * color.h - whether to colour text output, and the ANSI SGR sequences to do it.
 *
 * The decision follows the convention of ls, grep and git, and no-color.org:
 *
 *   --color=never   never
 *   --color=always  always, even when NO_COLOR is set (an explicit request
 *                   on the command line beats the environment)
 *   --color=auto    (the default) only when stdout is a terminal, NO_COLOR
 *                   is unset or empty, and TERM is set and not "dumb"
 *
 * sf_color_for_fd() decides from isatty(fd), NO_COLOR and TERM (color.c's
 * want() is the decision itself, every input an argument).  Nothing here keeps state: a command decides once and passes the
 * resulting bool to whatever renders.
 *
 * Colour is one role per kind of text (hole comments, padding, cacheline
 * markers, ...); sf_color_code() maps a role to its SGR sequence, or to ""
 * when colour is off, so a renderer writes the same code either way:
 *
 *   sb_adds(sb, sf_color_code(on, SF_C_HOLE));
 *   sb_addf(sb, "XXX %u bytes hole, try to pack", n);
 *   sb_adds(sb, sf_color_reset(on));
 *
 * The sequences change no visible character, so column alignment computed
 * on the plain text stays right; only byte counts differ.
 */
#ifndef SF_COLOR_H
#define SF_COLOR_H

#include <stdbool.h>


enum sf_color_mode {
	SF_COLOR_AUTO = 0,
	SF_COLOR_ALWAYS,
	SF_COLOR_NEVER,
};

enum sf_color_role {
	SF_C_PLAIN = 0,     /* no colour (reset) */
	SF_C_TYPE_NAME,     /* "struct st_table" heading: bold */
	SF_C_MEMBER_TYPE,   /* a member's type: cyan */
	SF_C_OFFSET,        /* the offset/size comments: dim */
	SF_C_HOLE,          /* "XXX N bytes hole": bold red */
	SF_C_BIT_HOLE,      /* "XXX N bits hole": red */
	SF_C_PADDING,       /* trailing padding: yellow */
	SF_C_CACHELINE,     /* "--- cacheline N boundary ---": blue */
	SF_C_SUMMARY,       /* the closing summary comment: dim */
	SF_C_GOOD,          /* a saving, a rule that holds: green */
	SF_C_BAD,           /* growth, a broken rule: bold red */
	SF_C_WARN,          /* notes: yellow */
	SF_C_NROLES
};

/*
 * "auto", "always", "never" (also "yes"/"force" for always and "no"/"none"
 * for never, as ls and grep take them).  NULL, as `--color` without a value
 * gives, means always.  0 or -1 for anything else.
 */
int sf_color_parse(const char *s, enum sf_color_mode *out);

/* Whether to colour the output to file descriptor fd, in this process's
 * environment. */
bool sf_color_for_fd(enum sf_color_mode mode, int fd);

/* The SGR sequence starting `role`, or "" when !on. */
const char *sf_color_code(bool on, enum sf_color_role role);
/* "\033[m" when on, else "". */
const char *sf_color_reset(bool on);

#endif
