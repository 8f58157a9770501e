/*
 * paint.c - colour for the text of every command but `show` (whose hole
 * maps report/text.c colours itself).
 *
 * A command renders its plain text first; sf_paint() then colours it line
 * by line, so the plain text stays the one source of truth: removing the
 * SGR codes gives it back byte for byte (tests/e2e/habits.sh checks this
 * for every command).  Each style is a classifier that gives a line one
 * role, for the whole line or for one span of it (the waste column of
 * `holes`, the preset name of `classes`); a line it has nothing to say
 * about is left to sf_render_text_colorize(), which knows pahole's hole
 * maps (`suggest` prints them).
 */
#include "report.h"

#include "lib/color.h"

#include <ctype.h>
#include <stdbool.h>
#include <string.h>

/* What a classifier says about one line: [start, start + len) in role. */
struct paint {
	enum sf_color_role role;
	size_t start, len;
};

static void add_colored(struct strbuf *out, enum sf_color_role role,
			   const char *s, size_t n)
{
	sb_adds(out, sf_color_code(true, role));
	sb_add(out, s, n);
	sb_adds(out, sf_color_reset(true));
}

static struct paint whole(enum sf_color_role role, size_t n)
{
	return (struct paint){ role, 0, n };
}

static int has(const char *line, size_t n, const char *word)
{
	return memmem(line, n, word, strlen(word)) != NULL;
}

static int starts(const char *line, size_t n, const char *word)
{
	size_t w = strlen(word);

	return n >= w && !memcmp(line, word, w);
}

/* The first run of digits after leading blanks. */
static struct paint first_number(const char *line, size_t n, enum sf_color_role role)
{
	size_t i = 0;

	while (i < n && line[i] == ' ')
		i++;
	size_t j = i;
	while (j < n && isdigit((unsigned char)line[j]))
		j++;
	return (struct paint){ j > i ? role : SF_C_PLAIN, i, j - i };
}

static struct paint holes_line(const char *line, size_t n, size_t lineno)
{
	if (lineno == 0)
		return whole(SF_C_SUMMARY, n);
	return first_number(line, n, SF_C_HOLE);
}

static struct paint suggest_line(const char *line, size_t n)
{
	if (has(line, n, "(saves ") || has(line, n, "smaller class") ||
	    (has(line, n, "class ") && has(line, n, " -> ") && !has(line, n, "(")))
		return whole(SF_C_GOOD, n);
	if (starts(line, n, "nothing proposed") || starts(line, n, "reorder: no order"))
		return whole(SF_C_WARN, n);
	return whole(SF_C_PLAIN, 0);
}

static struct paint fit_line(const char *line, size_t n)
{
	if (starts(line, n, "no class"))
		return whole(SF_C_BAD, n);
	if (has(line, n, "lost to rounding"))
		return whole(SF_C_WARN, n);
	if (starts(line, n, "already the smallest"))
		return whole(SF_C_GOOD, n);
	return whole(SF_C_PLAIN, 0);
}

static struct paint check_line(const char *line, size_t n)
{
	if (has(line, n, ", budget says ") || has(line, n, " broken ("))
		return whole(SF_C_BAD, n);
	if (has(line, n, " hold ("))
		return whole(SF_C_GOOD, n);
	return whole(SF_C_PLAIN, 0);
}

static struct paint diff_line(const char *line, size_t n)
{
	if (n && line[0] != ' ') {
		if (has(line, n, " bytes (+"))
			return whole(SF_C_BAD, n);
		if (has(line, n, " bytes (-"))
			return whole(SF_C_GOOD, n);
		if (starts(line, n, "struct ") || starts(line, n, "union ") ||
		    starts(line, n, "class "))
			return whole(SF_C_TYPE_NAME, n);
		return whole(SF_C_SUMMARY, n);
	}
	if (starts(line, n, "    gained"))
		return whole(SF_C_BAD, n);
	if (starts(line, n, "    lost"))
		return whole(SF_C_GOOD, n);
	return whole(SF_C_PLAIN, 0);
}

static struct paint patch_line(const char *line, size_t n)
{
	if (starts(line, n, "+++") || starts(line, n, "---") || starts(line, n, "diff "))
		return whole(SF_C_TYPE_NAME, n);
	if (starts(line, n, "@@"))
		return whole(SF_C_CACHELINE, n);
	if (starts(line, n, "+"))
		return whole(SF_C_GOOD, n);
	if (starts(line, n, "-"))
		return whole(SF_C_BAD, n);
	return whole(SF_C_PLAIN, 0);
}

static struct paint classes_line(const char *line, size_t n)
{
	size_t w = 0;

	while (w < n && line[w] != ' ' && line[w] != ':')
		w++;
	/* "ruby-3.3   5  40 .. 640" or "ruby-3.3: 5 classes": the name */
	if (w && w < n && !isdigit((unsigned char)line[0]) && line[0] != '\'')
		return (struct paint){ SF_C_TYPE_NAME, 0, w };
	return whole(SF_C_PLAIN, 0);
}

static struct paint classify(enum sf_paint_style style, const char *line, size_t n,
			     size_t lineno)
{
	switch (style) {
	case SF_PAINT_HOLES: return holes_line(line, n, lineno);
	case SF_PAINT_SUGGEST: return suggest_line(line, n);
	case SF_PAINT_FIT: return fit_line(line, n);
	case SF_PAINT_CHECK: return check_line(line, n);
	case SF_PAINT_DIFF: return diff_line(line, n);
	case SF_PAINT_PATCH: return patch_line(line, n);
	case SF_PAINT_CLASSES: return classes_line(line, n);
	}
	return whole(SF_C_PLAIN, 0);
}

void sf_paint(struct strbuf *out, const char *text, size_t len, bool on,
	      enum sf_paint_style style)
{
	const char *end = text + len;

	if (!on) {
		sb_add(out, text, len);
		return;
	}
	for (size_t lineno = 0; text < end; lineno++) {
		const char *nl = memchr(text, '\n', (size_t)(end - text));
		size_t n = nl ? (size_t)(nl - text) : (size_t)(end - text);
		struct paint p = classify(style, text, n, lineno);

		if (p.role == SF_C_PLAIN || !p.len) {
			/* pahole's hole maps (suggest), or plain */
			sf_render_text_colorize(out, text, n + (nl != NULL),
						style == SF_PAINT_SUGGEST);
		} else {
			sb_add(out, text, p.start);
			add_colored(out, p.role, text + p.start, p.len);
			sb_add(out, text + p.start + p.len, n - p.start - p.len);
			if (nl)
				sb_addch(out, '\n');
		}
		text += n + (nl != NULL);
	}
}
