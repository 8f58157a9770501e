/*
 * classes.c - 'structfit classes': the size-class presets, or one of them.
 *
 * With no argument, a table of the presets (layout/classes.c, where each
 * preset's comment names its source); with a preset name or a list, that
 * set's classes.  Reads no input file.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "common.h"
#include "layout/classes.h"
#include "lib/color.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "report/reasons.h"
#include "report/suggest.h"

static const struct sf_command classes_command = {
	.name = "classes",
	.formats = 1u << SF_FMT_TEXT | 1u << SF_FMT_JSON,
	.operands = "[NAME|LIST]",
	.intro =
	"List the size-class presets (the SPEC that suggest and fit take), with where\n"
	"their numbers come from; with NAME, that preset's classes; with a list like\n"
	"32,64,96, check it as suggest and fit would.\n",
	.opts = (const struct sf_opt_use[]){
		{ "format", 0, NULL, NULL },
		{ "color", 0, NULL, NULL },
		SF_U_HELP_END,
	},
	.outro =
	"Presets: ruby-3.3, jemalloc, glibc, mimalloc, tcmalloc, kmalloc, cacheline.\n"
	"Exit status: 0 ok, 2 unknown preset or bad list.\n",
};

static int write_out(struct strbuf *sb, enum sf_format format, enum sf_color_mode color)
{
	int bad = sf_write_output(sb, format == SF_FMT_TEXT, color, SF_PAINT_CLASSES);

	sb_release(sb);
	return bad ? SF_EXIT_ERROR : SF_EXIT_OK;
}

static int list_presets(enum sf_format format, enum sf_color_mode color)
{
	size_t n = sf_classes_npresets();
	struct sf_classes *all = sf_xcalloc(n, sizeof(*all));
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < n; i++)
		sf_classes_preset(i, &all[i]);
	if (format == SF_FMT_JSON) {
		sf_render_classes_json(&sb, all, n);
	} else {
		sf_render_classes_list_text(&sb, all, n);
	}
	for (size_t i = 0; i < n; i++)
		sf_classes_release(&all[i]);
	free(all);
	/* a hint for people, on stderr: stdout is the data, one preset a line */
	if (format != SF_FMT_JSON)
		fputs("structfit: 'structfit classes NAME' lists a preset's classes; "
		      "--classes also takes a list: 32,64,96\n", stderr);
	return write_out(&sb, format, color);
}

static int show_one(const char *spec, enum sf_format format, enum sf_color_mode color)
{
	struct sf_classes c;
	struct sf_err err = SF_ERR_INIT;
	struct sf_classes_refusal why;
	struct strbuf sb = STRBUF_INIT;

	if (sf_classes_parse(spec, &c, &why) < 0) {
		sf_classes_refusal_err(&why, &err);
		return sf_die_usage("classes: %s", err.msg);
	}
	if (format == SF_FMT_JSON)
		sf_render_classes_json(&sb, &c, 1);
	else
		sf_render_classes_text(&sb, &c);
	sf_classes_release(&c);
	return write_out(&sb, format, color);
}

int cmd_classes(int argc, char **argv)
{
	struct sf_common_opts co = SF_COMMON_OPTS;
	/* every option of this command is a shared one */
	int st = sf_parse_options(argc, argv, &classes_command, &co, NULL, NULL);

	if (st != SF_GO_ON)
		return st;
	enum sf_format format = co.format;
	enum sf_color_mode color = co.color;
	if (argc - optind > 1)
		return sf_die_usage("classes takes at most one NAME; see 'structfit classes --help'");
	if (argc - optind == 1)
		return show_one(argv[optind], format, color);
	return list_presets(format, color);
}
