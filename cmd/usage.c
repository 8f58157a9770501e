/*
 * usage.c - the help of every command, made from the one option table
 * (sf_options[], cmd/common.c) and the command's option list (struct
 * sf_opt_use rows in cmd/NAME.c), as git's parse-options makes it: the
 * rows a command parses are the rows its help prints, so the two cannot
 * drift apart.  No state: each call reads the two tables and writes a
 * strbuf or a FILE.
 *
 * A command's help is its synopsis ("usage: structfit NAME [--opt ARG]...
 * OPERANDS", wrapped under its first option; a second "   or:" line for
 * the SF_U_FORM2 rows), then blocks apart by a blank line: the intro, each
 * run of option rows ("  -x, --name ARG   words", the words wrapped at one
 * column for the whole command), each paragraph of prose between them,
 * the outro.  `structfit help options` prints the table itself.
 */
#include <getopt.h>
#include <string.h>

#include "common.h"

#define WIDTH 78        /* the longest line the help writes */
#define WORDS_COL 29    /* where an option's words start, at the most */

/* Add text's words at column *col, wrapped before WIDTH, each new line
 * indented to `indent`. */
static void add_words(struct strbuf *sb, size_t *col, size_t indent, const char *text)
{
	for (const char *p = text; *p;) {
		size_t n = strcspn(p, " ");
		if (n && *col > indent && *col + 1 + n > WIDTH) {
			sb_addf(sb, "\n%*s", (int)indent, "");
			*col = indent;
		} else if (n && *col > indent) {
			sb_addch(sb, ' ');
			(*col)++;
		}
		sb_add(sb, p, n);
		*col += n;
		p += n;
		p += *p == ' ';
	}
}

/* "text|json|html": the --format values a command takes. */
static void add_formats(struct strbuf *sb, unsigned formats, const char *sep,
			const char *last_sep, const char *first_note)
{
	unsigned left = formats;
	int first = 1;

	for (unsigned i = 0; left; i++) {
		if (!(left & (1u << i)))
			continue;
		left &= ~(1u << i);
		if (!first)
			sb_adds(sb, left ? sep : last_sep);
		sb_adds(sb, sf_format_name((enum sf_format)i));
		if (first)
			sb_adds(sb, first_note);
		first = 0;
	}
}

static const struct sf_option *row_of(const struct sf_command *c,
				      const struct sf_opt_use *u)
{
	return sf_option_row(c->table, u->name);
}

/* Whether u is --format of the one table (its values are the command's). */
static int is_format(const struct sf_command *c, const struct sf_opt_use *u)
{
	return !c->table && !strcmp(u->name, "format");
}

/* "--name ARG", "--name[=ARG]", "-t NAME" as the synopsis spells u. */
static void spell(struct strbuf *sb, const struct sf_command *c,
		  const struct sf_opt_use *u, unsigned formats)
{
	const struct sf_option *o = row_of(c, u);
	const char *arg = u->arg ? u->arg : o->arg;

	if ((u->flags & SF_U_SHORT) && o->id < 256)
		sb_addf(sb, "-%c", o->id);
	else
		sb_addf(sb, "--%s", o->name);
	if (is_format(c, u) && !u->arg && formats) {
		sb_addch(sb, ' ');
		add_formats(sb, formats, "|", "|", "");
	} else if (arg) {
		sb_addf(sb, o->has_arg == optional_argument ? "[=%s]" : " %s", arg);
	}
}

/* Whether row u is in synopsis line `form` (1 or 2). */
static int in_form(const struct sf_opt_use *u, int form)
{
	if (!u->name || !strcmp(u->name, "help"))
		return 0;
	return !(u->flags & (form == 1 ? SF_U_FORM2 : SF_U_FORM1));
}

/* One synopsis line: "usage: structfit NAME" (or "   or: ...") and the
 * rows of `form`, then the operands, wrapped under the first option. */
static void add_synopsis(struct strbuf *sb, const struct sf_command *c, int form,
			 unsigned formats)
{
	struct strbuf item = STRBUF_INIT;
	size_t start = sb->len, col, indent;

	sb_addf(sb, "%s structfit %s", form == 1 ? "usage:" : "   or:", c->name);
	indent = col = sb->len - start + 1;
	sb_addch(sb, ' ');
	for (const struct sf_opt_use *u = c->opts; u->name || u->help; u++) {
		if (!in_form(u, form))
			continue;
		sb_reset(&item);
		sb_adds(&item, u->flags & SF_U_REQUIRED ? "" : "[");
		spell(&item, c, u, formats);
		for (; (u->flags & SF_U_OR_NEXT) && u[1].name; u++) {
			sb_adds(&item, " | ");
			spell(&item, c, u + 1, formats);
		}
		sb_adds(&item, u->flags & SF_U_REQUIRED ? "" : "]");
		sb_adds(&item, u->flags & SF_U_MANY ? "..." : "");
		if (col > indent && col + 1 + item.len > WIDTH) {
			sb_addf(sb, "\n%*s", (int)indent, "");
			col = indent;
		} else if (col > indent) {
			sb_addch(sb, ' ');
			col++;
		}
		sb_add(sb, item.buf, item.len);
		col += item.len;
	}
	if (c->operands && col > indent && col + 1 + strlen(c->operands) > WIDTH)
		sb_addf(sb, "\n%*s%s", (int)indent, "", c->operands);
	else if (c->operands)
		sb_addf(sb, "%s%s", col > indent ? " " : "", c->operands);
	sb_addch(sb, '\n');
	sb_release(&item);
}

/* "  -x, --name ARG" or "      --name[=ARG]": an option row's head. */
static void add_head(struct strbuf *sb, const struct sf_command *c,
		     const struct sf_opt_use *u)
{
	const struct sf_option *o = row_of(c, u);
	const char *arg = u->arg ? u->arg : o->arg;

	if (o->id < 256)
		sb_addf(sb, "  -%c, --%s", o->id, o->name);
	else
		sb_addf(sb, "      --%s", o->name);
	if (arg)
		sb_addf(sb, o->has_arg == optional_argument ? "[=%s]" : " %s", arg);
}

/* The column the command's option words start at: after its widest head
 * and two blanks, at most WORDS_COL. */
static size_t words_col(const struct sf_command *c)
{
	struct strbuf head = STRBUF_INIT;
	size_t col = 0;

	for (const struct sf_opt_use *u = c->opts; u->name || u->help; u++) {
		if (!u->name)
			continue;
		sb_reset(&head);
		add_head(&head, c, u);
		if (head.len + 2 > col)
			col = head.len + 2;
	}
	sb_release(&head);
	return col < WORDS_COL ? col : WORDS_COL;
}

/* One option row: its head, then its words from column `at`. */
static void add_row_help(struct strbuf *sb, const struct sf_command *c,
			 const struct sf_opt_use *u, size_t at, unsigned formats)
{
	const struct sf_option *o = row_of(c, u);
	size_t start = sb->len, col;
	struct strbuf words = STRBUF_INIT;

	add_head(sb, c, u);
	col = sb->len - start;
	if (col + 2 > at)
		sb_addf(sb, "\n%*s", (int)at, "");
	else
		sb_addchars(sb, ' ', at - col);
	col = at;
	if (is_format(c, u)) {
		add_formats(&words, formats, ", ", " or ", " (default)");
		sb_adds(&words, u->help ? u->help : "");
	} else {
		sb_adds(&words, u->help ? u->help : o->help);
	}
	add_words(sb, &col, at, words.buf);
	sb_addch(sb, '\n');
	sb_release(&words);
}

void sf_usage(struct strbuf *sb, const struct sf_command *c)
{
	unsigned formats = c->formats;
	size_t at = words_col(c);
	int in_rows = 0;

	add_synopsis(sb, c, 1, formats);
	for (const struct sf_opt_use *u = c->opts; u->name || u->help; u++)
		if (u->name && (u->flags & SF_U_FORM2)) {
			add_synopsis(sb, c, 2, formats);
			break;
		}
	if (c->intro)
		sb_addf(sb, "\n%s", c->intro);
	for (const struct sf_opt_use *u = c->opts; u->name || u->help; u++) {
		if (!u->name) {
			sb_addf(sb, "\n%s", u->help);
			in_rows = 0;
			continue;
		}
		if (!in_rows)
			sb_addch(sb, '\n');
		in_rows = 1;
		add_row_help(sb, c, u, at, formats);
	}
	if (c->outro)
		sb_addf(sb, "\n%s", c->outro);
}

/* text at column 8, words wrapped before column 78 */
static void print_wrapped(FILE *f, const char *text)
{
	size_t col = 0;

	for (const char *p = text; *p;) {
		size_t n = strcspn(p, " ");
		if (col && col + 1 + n > 70) {
			fputc('\n', f);
			col = 0;
		}
		fprintf(f, "%s%.*s", col ? " " : "        ", (int)n, p);
		col += n + (col != 0);
		p += n;
		p += *p == ' ';
	}
	fputc('\n', f);
}

void sf_print_options(FILE *f)
{
	/* --help's row names every command */
	const char *all = sf_option_row(NULL, "help")->commands;

	fputs("One letter means one thing in every command that takes it:\n\n", f);
	for (const struct sf_option *o = sf_options; o->name; o++) {
		char head[64];
		if (!o->help)
			continue;
		int opt = o->has_arg == optional_argument;
		snprintf(head, sizeof(head), "%c%c%c --%s%s%s%s", o->id < 256 ? '-' : ' ',
			 o->id < 256 ? o->id : ' ', o->id < 256 ? ',' : ' ', o->name,
			 !o->arg ? "" : opt ? "[=" : " ", o->arg ? o->arg : "",
			 o->arg && opt ? "]" : "");
		fprintf(f, "  %-27s %s\n", head,
			strcmp(o->commands, all) ? o->commands : "(every command)");
		print_wrapped(f, o->help);
	}
}
