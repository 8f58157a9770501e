/*
 * fuzz_reader.c - libFuzzer target: the bytes are a file given to
 * `structfit show` / `holes`.
 *
 * The reader has no in-memory entry point (input/input.h takes paths), so
 * each input is written to a memfd and loaded through /proc/self/fd/N: the
 * same open + fstat + mmap path a real file takes, ELF images and ar
 * archives alike.  Whatever loads is then laid out and rendered the way
 * show (text, JSON, HTML) and holes (ranking) do, so a hostile model that
 * the reader lets through is fuzzed as well.
 *
 * The reader never prints; an unusable input is a -1 with a message, which
 * must be one line naming the file.  Any crash, sanitizer report, leak,
 * hang (-timeout) or runaway allocation (-rss_limit_mb / -malloc_limit_mb)
 * is a finding.
 *
 * Build and run: tests/fuzz.sh (make fuzz).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "input/input.h"
#include "layout/holes.h"
#include "layout/rank.h"
#include "model/typeset.h"
#include "lib/err.h"
#include "lib/strbuf.h"
#include "report/html.h"
#include "report/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int write_all(int fd, const uint8_t *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/*
 * The message must be one line "PATH...: problem": the input, or one of
 * its archive members "PATH(member)".  A thin archive's members are other
 * files (next to it, or absolute paths), which the message may name.
 */
static void check_message(const struct sf_err *err, const char *path, int thin)
{
	size_t len = strnlen(err->msg, sizeof(err->msg));

	if (len == sizeof(err->msg) || len == 0 || strchr(err->msg, '\n') ||
	    (!thin && strncmp(err->msg, path, strlen(path)) != 0)) {
		fprintf(stderr, "fuzz_reader: bad error message: '%.*s'\n",
			(int)len, err->msg);
		abort();
	}
}

static void render_all(const struct sf_typeset *ts)
{
	struct strbuf sb = STRBUF_INIT;
	struct sf_json_stream js = SF_JSON_STREAM_INIT;
	struct sf_rank_opts ro = { 0 };
	struct sf_rank rank;
	size_t n = sf_typeset_count(ts);

	sf_rank_init(&rank, &ro);
	sf_render_json_begin(&sb, &js);
	for (size_t i = 0; i < n; i++) {
		const struct sf_type *t = sf_typeset_get(ts, i);
		struct sf_layout_opts lo = {
			.cacheline = 64,
			.lookup = sf_layout_lookup_in_typeset,
			.lookup_ctx = (void *)ts,
		};
		struct sf_text_opts to = { .cacheline = 64, .show_origin = true };
		struct sf_layout l;

		sf_layout_compute_opts(t, &lo, &l);
		sf_render_text_type(&sb, t, &l, &to);
		sf_render_json_type(&sb, &js, t, &l);
		/* HTML is the slowest renderer: only the first few types */
		if (i < 4)
			sf_render_html_type(&sb, t, &l, 64);
		sf_rank_add(&rank, t, &l);
		sf_layout_release(&l);
		if (sb.len > (1u << 20))
			sb_reset(&sb);
	}
	sf_render_json_end(&sb, &js);
	sf_rank_finish(&rank);
	sf_render_rank_text(&sb, &rank);
	sf_render_rank_json(&sb, &rank);
	sf_rank_release(&rank);
	sb_release(&sb);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	struct sf_err err;
	/* two threads on some inputs: the run cutting and typeset absorbing */
	struct sf_load_opts opts = { .threads = size % 8 == 7 ? 2 : 1 };
	int fd = memfd_create("fuzz-input", MFD_CLOEXEC);

	if (fd < 0) {
		perror("fuzz_reader: memfd_create");
		abort();
	}
	if (write_all(fd, data, size) < 0) {
		perror("fuzz_reader: write");
		abort();
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);

	struct sf_typeset *ts = sf_typeset_new();
	err.msg[0] = '\0';
	if (sf_input_load(ts, path, &opts, &err) == 0)
		render_all(ts);
	else
		check_message(&err, path, size >= 8 && !memcmp(data, "!<thin>\n", 8));
	sf_typeset_free(ts);
	close(fd);
	return 0;
}
