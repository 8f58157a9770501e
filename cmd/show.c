/*
 * show.c - 'structfit show': every struct/union/class's layout, pahole style.
 *
 * Types are rendered one at a time into a strbuf that is flushed after each,
 * so output streams and memory stays that of one rendered type.
 *
 * A large text report (every type of a vmlinux: 7.5 k types, 4.9 MB) is
 * rendered on the --jobs threads instead, by the pool that reads the
 * inputs (input/pool.h): the types in blocks of BLOCK_TYPES, each block
 * an item rendered into a buffer of its own by whichever thread takes it
 * next, and written (the pool's merge) in block order as soon as it and
 * every block before it are whole.  At most a window of blocks waits to
 * be written, so memory stays a few blocks of text.  Rendering only reads
 * the typeset and the options (layout/ and report/ keep no state), so the
 * bytes are the ones one thread writes.
 */
#include <assert.h>
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"
#include "common.h"
#include "input/pool.h"
#include "layout/holes.h"
#include "lib/color.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "report/html.h"
#include "report/report.h"

static const struct sf_command show_command = {
	.name = "show",
	.formats = 1u << SF_FMT_TEXT | 1u << SF_FMT_JSON | 1u << SF_FMT_HTML,
	.operands = "FILE...",
	.intro =
	"Print the layout of every struct, union and class defined in FILE's DWARF,\n"
	"with its holes, padding and cacheline boundaries, as pahole does.\n",
	.opts = (const struct sf_opt_use[]){
		{ "type", SF_U_SHORT | SF_U_MANY, "only this type (repeatable): 'st_table', "
		  "'struct st_table', a typedef name, a glob 'rb_*' or a list 'a,b' (-C NAME is "
		  "the same, as in pahole)", NULL },
		{ "format", 0, NULL, NULL },
		{ "cacheline", 0, NULL, NULL },
		{ "origin", 0, NULL, NULL },
		{ "source-root", 0, "show source paths relative to DIR", NULL },
		{ "color", 0, NULL, NULL },
		SF_U_INPUTS_HELP_END,
	},
	.outro =
	"FILE: ELF object, shared library, executable, .debug file, archive or directory.\n"
	"Exit status: 0 ok, 2 usage error or unusable input.\n",
};

struct show_opts {
	struct sf_common_opts co;
	char **types;           /* -t names, split at top-level commas */
	size_t ntypes;
	int origin;
};


/* One of show's own options (sf_parse_options): 0, or nonzero after the
 * message. */
static int take_show_opt(void *arg, int c, const char *val)
{
	struct show_opts *o = arg;

	if (c == SF_O_ORIGIN)
		o->origin = 1;
	return c == 't' ? sf_split_names(val, ',', &o->types, &o->ntypes) : 0;
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

/* One type's report, text in `plain` first when coloured. */
static void render_one(struct strbuf *out, struct strbuf *plain, struct sf_json_stream *js,
		       bool color, const struct show_opts *o, const struct sf_typeset *ts,
		       const struct sf_type *t)
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
		sf_render_json_type(out, js, t, &l);
		break;
	case SF_FMT_HTML:
		sf_render_html_type(out, t, &l, o->co.cacheline);
		break;
	default:
		/* pahole prints types back to back, no blank line between. */
		if (!color) {
			sf_render_text_type(out, t, &l, &to);
			break;
		}
		sf_render_text_type(plain, t, &l, &to);
		sf_render_text_colorize(out, plain->buf, plain->len, color);
		sb_reset(plain);
	}
	sf_layout_release(&l);
}

static void show_one(struct show_out *so, const struct show_opts *o,
		     const struct sf_typeset *ts, const struct sf_type *t)
{
	render_one(&so->sb, &so->plain, &so->js, so->color, o, ts, t);
	flush(&so->sb);
}

/* ---- every type of a large text report, on the --jobs threads ---------- */

#define BLOCK_TYPES 32
/* fewer types than this: one thread (starting one costs more) */
#define PAR_MIN_TYPES 256
/* blocks rendered ahead of the one being written, per thread */
#define WINDOW_PER_THREAD 64

/*
 * stdout's buffer for such a report.  stdio's own is the file's block
 * size (4 KiB): a vmlinux's 4.9 MB went to a file in 474 writes of 4 and
 * 20 KiB, each taking page-cache pages one at a time, on the thread that
 * also renders; larger writes take fewer, larger folios.  Static: stdout
 * holds it until exit.
 */
static char out_buf[256u << 10];

/*
 * A block is rendered into a scratch buffer that the threads reuse from
 * block to block (at most one per thread, each as large as the largest
 * block it rendered), then copied once into a buffer of the block's size.
 * Grown a type at a time, each block's own buffer was reallocated a dozen
 * times, each time copied under malloc's one lock (one arena: cmd/main.c),
 * which the other thread then waited for: libceph-common's 42.8 MB report
 * took 45 ms to render on two threads (27-32 ms with an arena per thread),
 * 26-37 ms so.  An uncoloured type is rendered straight into the block,
 * not into `plain` first and copied.
 */
struct scratch {
	pthread_mutex_t mu;
	struct strbuf *free[SF_POOL_MAX_THREADS];
	size_t nfree;
};

struct blocks {
	const struct show_opts *o;
	const struct sf_typeset *ts;
	bool color;
	size_t ntypes;
	struct strbuf *text;	/* block b's report, until it is written */
	struct scratch scratch;
};

static struct strbuf *take_scratch(struct scratch *s)
{
	struct strbuf *sb = NULL;

	pthread_mutex_lock(&s->mu);
	if (s->nfree)
		sb = s->free[--s->nfree];
	pthread_mutex_unlock(&s->mu);
	if (!sb) {
		sb = sf_xmalloc(sizeof(*sb));
		sb_init(sb);
	}
	return sb;
}

static void give_scratch(struct scratch *s, struct strbuf *sb)
{
	sb_reset(sb);
	pthread_mutex_lock(&s->mu);
	assert(s->nfree < SF_POOL_MAX_THREADS);	/* one taken per thread at a time */
	s->free[s->nfree++] = sb;
	pthread_mutex_unlock(&s->mu);
}

/* The pool's run: render block b into bs->text[b], on any thread. */
static int render_block(void *arg, size_t b, int in_line)
{
	struct blocks *bs = arg;
	struct strbuf plain = STRBUF_INIT, *sb = take_scratch(&bs->scratch);
	size_t end = (b + 1) * BLOCK_TYPES < bs->ntypes ? (b + 1) * BLOCK_TYPES : bs->ntypes;

	(void)in_line;
	for (size_t i = b * BLOCK_TYPES; i < end; i++)
		render_one(sb, &plain, NULL, bs->color, bs->o, bs->ts,
			   sf_typeset_get(bs->ts, i));
	sb_release(&plain);
	sb_add(&bs->text[b], sb->buf, sb->len);
	give_scratch(&bs->scratch, sb);
	return 0;
}

/* The pool's merge: block b is next in line; write it. */
static int write_block(void *arg, size_t b)
{
	struct blocks *bs = arg;

	flush(&bs->text[b]);
	sb_release(&bs->text[b]);
	return 0;
}

static void drop_block(void *arg, size_t b)
{
	struct blocks *bs = arg;

	sb_release(&bs->text[b]);
}

/* Every type of ts as text, on up to `threads` threads. */
static void show_all_text(const struct show_out *so, const struct show_opts *o,
			  const struct sf_typeset *ts, unsigned threads)
{
	struct blocks bs = { .o = o, .ts = ts, .color = so->color,
			     .ntypes = sf_typeset_count(ts),
			     .scratch = { .mu = PTHREAD_MUTEX_INITIALIZER } };
	struct sf_threads t;
	size_t n = (bs.ntypes + BLOCK_TYPES - 1) / BLOCK_TYPES;
	struct sf_pool p = { .n = n, .run = render_block, .merge = write_block,
			     .drop = drop_block, .arg = &bs, .threads = &t,
			     .window_per_thread = WINDOW_PER_THREAD };

	bs.text = sf_xcalloc(n ? n : 1, sizeof(*bs.text));
	for (size_t b = 0; b < n; b++)
		sb_init(&bs.text[b]);
	sf_threads_init(&t, threads);
	int rc = sf_pool_run(&p);
	assert(rc == 0);	/* no merge fails: a write error is stdout's */
	(void)rc;
	sf_threads_release(&t);
	for (size_t i = 0; i < bs.scratch.nfree; i++) {
		sb_release(bs.scratch.free[i]);
		free(bs.scratch.free[i]);
	}
	pthread_mutex_destroy(&bs.scratch.mu);
	free(bs.text);
}

/* Every selected type, in the order given; all types when none given. */
static int show_types(struct show_out *so, const struct show_opts *o,
		      const struct sf_typeset *ts, char **files, int nfiles)
{
	if (!o->ntypes) {
		unsigned threads = sf_jobs(&o->co);
		if (o->co.format == SF_FMT_TEXT && threads > 1 &&
		    sf_typeset_count(ts) >= PAR_MIN_TYPES) {
			/* a terminal keeps its line buffering */
			if (!isatty(STDOUT_FILENO))
				setvbuf(stdout, out_buf, _IOFBF, sizeof(out_buf));
			flush(&so->sb);		/* nothing yet: text has no header */
			show_all_text(so, o, ts, threads);
			return 0;
		}
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
	struct show_opts o = { .co = SF_COMMON_OPTS };
	struct show_out so = { STRBUF_INIT, STRBUF_INIT, SF_JSON_STREAM_INIT, false };
	int r = sf_parse_options(argc, argv, &show_command, &o.co, take_show_opt, &o);

	if (r != SF_GO_ON) {
		free_names(o.types, o.ntypes);
		sf_common_opts_release(&o.co);
		return r;
	}
	so.color = o.co.format == SF_FMT_TEXT && sf_color_for_fd(o.co.color, STDOUT_FILENO);
	const char **only = sf_only_names((const char *const *)o.types, o.ntypes);
	struct sf_typeset *ts = sf_load_inputs_at(&o.co, argv + optind, argc - optind, only,
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
	sf_common_opts_release(&o.co);
	return status;
}
