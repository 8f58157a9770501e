/*
 * fuzz_source.c - libFuzzer target: the bytes are a C source file that
 * `structfit patch` reads, as the struct's own file or as any file under
 * the source root.
 *
 * Every reader of source text runs over it: the lexer (layout/clex.h),
 * object-like macros, typedef names, the structs that hold it and the
 * uses a reorder breaks (layout/srcscan.h), the generated-file banner, the #if blocks and the
 * rewrite of `struct s` (layout/srcpatch.h) with a reorder and a
 * narrowing, the tree's macros applied.  A refusal must be one line
 * "PATH: problem"; a rewrite must be text (srcpatch already reads it back
 * as the planned struct).
 *
 * Build and run: tests/fuzz.sh source (make fuzz).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout/clex.h"
#include "model/model.h"
#include "layout/srcpatch.h"
#include "layout/srcscan.h"
#include "report/patch.h"
#include "report/srcwhy.h"
#include "lib/err.h"
#include "lib/strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define PATH "fuzz.c"

/* struct s { char a; long b; char c; } as gcc's DWARF gives it: 24 bytes. */
static void model(struct sf_type *t, struct sf_member *m)
{
	static const char *const names[] = { "a", "b", "c" };
	static const char *const types[] = { "char", "long int", "char" };
	static const uint64_t off[] = { 0, 8, 16 }, sz[] = { 1, 8, 1 };

	memset(t, 0, sizeof(*t));
	memset(m, 0, 3 * sizeof(*m));
	for (int i = 0; i < 3; i++) {
		m[i].name = names[i];
		m[i].type_name = types[i];
		m[i].type_suffix = "";
		m[i].offset = off[i];
		m[i].size = sz[i];
		m[i].align = (uint32_t)sz[i];
		m[i].tclass = SF_T_INT;
		m[i].flags = SF_MF_SIGNED;
	}
	t->name = "s";
	t->kind = SF_KIND_STRUCT;
	t->size = 24;
	t->align = 8;
	t->decl_file = PATH;
	t->members = m;
	t->nmembers = 3;
}

static void one_line(const struct sf_err *err)
{
	if (strchr(err->msg, '\n') || strncmp(err->msg, PATH ": ", strlen(PATH) + 2))
		abort();
}

static void scan(const char *text, size_t len, struct sf_cmacros *macros)
{
	struct sf_lexed lx;
	struct sf_typenames tn = { "s", NULL, 0, 0, NULL, 0, 0 };
	struct sf_use *uses = NULL;
	size_t nuses = 0;
	uint32_t line;
	char phrase[32];

	sf_clex(&lx, text, len);
	sf_cmacros_add(macros, &lx);
	sf_srcscan_typedefs(&lx, "s", &tn);
	sf_srcscan_uses(&lx, &tn, &uses, &nuses);
	struct sf_holders h;
	memset(&h, 0, sizeof(h));
	sf_srcscan_holders(&lx, &tn, &h);
	sf_srcscan_holder_uses(&lx, &h, &uses, &nuses);
	sf_holders_release(&h);
	for (size_t i = 0; i < nuses; i++)
		if (!uses[i].line || uses[i].line > lx.nlines)
			abort();
	if (sf_srcscan_banner(&lx, &line, phrase, sizeof(phrase)) && line > 20)
		abort();
	free(uses);
	sf_typenames_release(&tn);
	sf_clex_free(&lx);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct sf_cmacros macros = { NULL, 0, 0 };
	struct sf_member m[3];
	struct sf_type t;
	struct sf_srcpatch_block *blk = NULL;
	size_t nblk = 0;
	struct sf_err err = SF_ERR_INIT;
	struct sf_src_why why;

	model(&t, m);
	scan(text, size, &macros);
	if (sf_srcpatch_blocks(PATH, text, size, &t, &macros, &blk, &nblk, &why) < 0)
		one_line((sf_render_src_why(&err, &t, &why), &err));
	for (size_t i = 0; i < nblk; i++)
		if (!blk[i].nm || blk[i].m0 + blk[i].nm > t.nmembers)
			abort();
	free(blk);

	static const uint32_t order[] = { 1, 0, 2 };
	static const struct sf_srcpatch_narrow nw[] = { { 1, 4 } };
	for (int k = 0; k < 2; k++) {
		struct sf_srcpatch_plan plan = { order, 3, nw, (size_t)k, NULL, &macros,
						 &sf_patch_words };
		struct strbuf out = STRBUF_INIT;
		err.msg[0] = '\0';
		if (sf_srcpatch_make(PATH, text, size, &t, &plan, &out, NULL, &why) < 0) {
			sf_render_src_why(&err, &t, &why);
			one_line(&err);
			if (out.len)
				abort();   /* nothing is produced on a refusal */
		}
		sb_release(&out);
	}
	sf_cmacros_release(&macros);
	return 0;
}
