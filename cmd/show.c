/*
 * show.c - 'structfit show': every struct/union/class's layout, pahole style.
 *
 * Types are rendered one at a time into a strbuf that is flushed after each,
 * so output streams and memory stays that of one rendered type.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"
#include "common.h"
#include "layout/holes.h"
#include "lib/color.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "report/html.h"
#include "report/report.h"

static const char show_usage[] =
	"usage: structfit show [-t NAME]... [--format text|json|html] [--cacheline N]\n"
	"                      [--origin] [--color[=WHEN]] FILE...\n"
	"\n"
	"Print the layout of every struct, union and class defined in FILE's DWARF,\n"
	"with its holes, padding and cacheline boundaries, as pahole does.\n"
	"\n"
	"  -t, --type NAME     only this type (repeatable): 'st_table', 'struct st_table',\n"
	"                      a typedef name, a glob 'rb_*' or a list 'a,b' (-C NAME\n"
	"                      is the same, as in pahole)\n"
	"  -f, --format FMT    text (default), json or html\n"
	"  -c, --cacheline N   cacheline size in bytes (default 64)\n"
	"      --origin        name the file each type was read from\n"
	"  -R, --source-root DIR  show source paths relative to DIR\n"
	"      --color[=WHEN]  colour text output: auto (default: on a terminal,\n"
	"                      unless NO_COLOR is set or TERM=dumb), always, never\n"
	"      --debug-dir DIR look for separate debug files under DIR first\n"
	"                      (repeatable; then /usr/lib/debug)\n"
	"  -j, --jobs N        read the inputs on N threads (default: one per\n"
	"                      online CPU)\n"
	"  -h, --help          this help\n"
	"\n"
	"FILE: ELF object, shared library, executable, .debug file, archive or directory.\n"
	"Exit status: 0 ok, 2 usage error or unusable input.\n";

struct show_opts {
	struct sf_common_opts co;
	char **types;           /* -t names, split at top-level commas */
	size_t ntypes;
	int origin;
};


/* SF_GO_ON, or the exit status (after --help or an error). */
static int parse_show_opts(int argc, char **argv, struct show_opts *o)
{
	static const char *const names[] = {
		"type", "format", "cacheline", "origin", "source-root", "color", NULL,
	};
	struct sf_getopt g;
	int c;

	sf_getopt_init(&g, "show", names, show_usage, &o->co);
	while ((c = sf_getopt_next(&g, argc, argv)) != -1) {
		switch (c) {
		case 't':
			if (sf_split_names(optarg, ',', &o->types, &o->ntypes) < 0)
				return SF_EXIT_ERROR;
			break;
		case SF_O_ORIGIN:
			o->origin = 1;
			break;
		}
	}
	return g.status;
}

struct show_out {
	struct strbuf sb;
	struct strbuf plain;     /* one type's text before colouring */
	struct sf_json_stream js;
	bool color;
};

static void flush(struct strbuf *sb)
{
	fwrite(sb->buf, 1, sb->len, stdout);
	sb_reset(sb);
}

static void show_one(struct show_out *so, const struct show_opts *o,
		     const struct sf_typeset *ts, const struct sf_type *t)
{
	struct sf_layout l;
	struct sf_text_opts to = { .cacheline = o->co.cacheline, .show_origin = o->origin != 0 };
	/* The lookup lets pahole's "last struct has N bytes of padding"
	 * notes name the padding inside struct-typed members. */
	struct sf_layout_opts lo = {
		.cacheline = o->co.cacheline,
		.lookup = sf_layout_lookup_in_typeset,
		.lookup_ctx = (void *)ts,
	};

	sf_layout_compute_opts(t, &lo, &l);
	switch (o->co.format) {
	case SF_FMT_JSON:
		sf_render_json_type(&so->sb, &so->js, t, &l);
		break;
	case SF_FMT_HTML:
		sf_render_html_type(&so->sb, t, &l, o->co.cacheline);
		break;
	default:
		/* pahole prints types back to back, no blank line between. */
		sf_render_text_type(&so->plain, t, &l, &to);
		sf_render_text_colorize(&so->sb, so->plain.buf, so->plain.len, so->color);
		sb_reset(&so->plain);
	}
	sf_layout_release(&l);
	flush(&so->sb);
}

/* Every selected type, in the order given; all types when none given. */
static int show_types(struct show_out *so, const struct show_opts *o,
		      const struct sf_typeset *ts, char **files, int nfiles)
{
	if (!o->ntypes) {
		for (size_t i = 0; i < sf_typeset_count(ts); i++)
			show_one(so, o, ts, sf_typeset_get(ts, i));
		return 0;
	}
	/* Check every name first, so a bad one leaves no partial output. */
	for (size_t i = 0; i < o->ntypes; i++) {
		const struct sf_type **found;
		size_t n = sf_select_types(ts, o->types[i], &found);
		free(found);
		if (!n) {
			sf_find_type(ts, o->types[i], files, nfiles);   /* says so */
			return -1;
		}
	}
	for (size_t i = 0; i < o->ntypes; i++) {
		const struct sf_type **found;
		size_t n = sf_select_types(ts, o->types[i], &found);
		for (size_t j = 0; j < n; j++)
			show_one(so, o, ts, found[j]);
		free(found);
	}
	return 0;
}

static void free_names(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

int cmd_show(int argc, char **argv)
{
	struct show_opts o = {
		.co = SF_COMMON_OPTS(1u << SF_FMT_TEXT | 1u << SF_FMT_JSON | 1u << SF_FMT_HTML),
	};
	struct show_out so = { STRBUF_INIT, STRBUF_INIT, SF_JSON_STREAM_INIT, false };
	int r = parse_show_opts(argc, argv, &o);

	if (r != SF_GO_ON) {
		free_names(o.types, o.ntypes);
		return r;
	}
	so.color = o.co.format == SF_FMT_TEXT && sf_color_for_fd(o.co.color, STDOUT_FILENO);
	const char **only = sf_only_names((const char *const *)o.types, o.ntypes);
	struct sf_typeset *ts = sf_load_inputs_at(argv + optind, argc - optind, only,
						  o.co.source_root);
	int status = SF_EXIT_ERROR;

	sf_free_only_names(only);
	if (!ts)
		goto out;
	if (o.co.format == SF_FMT_JSON)
		sf_render_json_begin(&so.sb, &so.js);
	else if (o.co.format == SF_FMT_HTML)
		sf_render_html_begin(&so.sb, "structfit show");
	if (show_types(&so, &o, ts, argv + optind, argc - optind) < 0)
		goto out;
	if (o.co.format == SF_FMT_JSON)
		sf_render_json_end(&so.sb, &so.js);
	else if (o.co.format == SF_FMT_HTML)
		sf_render_html_end(&so.sb);
	flush(&so.sb);
	status = fflush(stdout) || ferror(stdout) ?
		sf_die_usage("error writing the output: %s", strerror(errno ? errno : EIO)) : SF_EXIT_OK;
out:
	sb_release(&so.sb);
	sb_release(&so.plain);
	sf_typeset_free(ts);
	free_names(o.types, o.ntypes);
	return status;
}
