/*
 * patch.c - 'structfit patch': write the suggested reorder (and the
 * narrowings the user chose) as a unified diff against the struct's source.
 * This file wires; what it calls does the work and words it.
 *
 * The steps, each of which may refuse (exit 2, nothing written):
 *
 *   1. load the type from FILE's DWARF and make its plan (layout/plan.h:
 *      --narrow applied, --pin kept, the reorder searched), the one
 *      `suggest` makes, giving the new member order and the size it
 *      promises;
 *   2. pick the source root (--source-root DIR, else the build's directory
 *      the DWARF records, else the current directory: input/srctree.h),
 *      find the source file under it and, for C, its source of truth and the code
 *      that depends on the layout (input/srctree.h: refusals come back as
 *      text, printed here);
 *   3. rewrite the struct body (layout/srcpatch.c), render the diff with
 *      paths relative to the source root (report/udiff.c) and apply it
 *      back to the old text strictly (layout/applydiff.c): the diff must
 *      give the new text;
 *   4. print the header (report/patch.h) and the diff, or with --apply
 *      write the new text to a temporary file next to the source, give it
 *      the source's permissions and rename it over the source - after
 *      checking the source still holds the text the patch was made from.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "builtin.h"
#include "common.h"
#include "input/srctree.h"
#include "narrowarg.h"
#include "contained.h"
#include "patchtmpl.h"
#include "layout/applydiff.h"
#include "layout/ctorinit.h"
#include "layout/narrow.h"
#include "layout/plan.h"
#include "layout/public.h"
#include "layout/rust.h"
#include "layout/rustpatch.h"
#include "layout/srcpatch.h"
#include "layout/srcstore.h"
#include "lib/path.h"
#include "lib/color.h"
#include "lib/file.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "report/patch.h"
#include "report/reasons.h"
#include "report/udiff.h"

static const struct sf_command patch_command = {
	.name = "patch",
	.operands = "FILE...",
	.intro =
	"Write the reorder that `structfit suggest` proposes for struct NAME (and the\n"
	"narrowings chosen with --narrow) as a unified diff against the struct's source\n"
	"file, found from the DWARF.  Apply it from the source root with `git apply` or\n"
	"`patch -p1`.  Each member keeps its comments and attributes; declarations that\n"
	"share a line are split when members move between them; bit-field runs stay\n"
	"together; a narrowed member gets a fixed-width type and a comment with the\n"
	"range it holds now: check that every value it takes fits.\n",
	.opts = (const struct sf_opt_use[]){
		{ "type", SF_U_SHORT | SF_U_REQUIRED, "the struct: 'st_table', 'struct st_table', "
		  "or a typedef name (-C NAME is the same, as in pahole)", NULL },
		{ "narrow", SF_U_MANY, "narrow member M to 1, 2, 4 or 8 bytes (repeatable)", NULL },
		{ "pin", SF_U_MANY, "keep MEMBER at its offset (repeatable)", NULL },
		{ "no-pin-first", 0, "let a leading struct member move too", NULL },
		{ "max-moves", 0, "the smallest order that moves at most N members (at least 1): the "
		  "size suggest --max-moves N promises", NULL },
		{ "niche", 0, "Rust: the newtype in MEMBER's Option gets a NonNull for its raw "
		  "pointer (the niche suggest proposes)", NULL },
		{ "source-root", 0, "the source tree (default: the build's directory the DWARF "
		  "records, else the current directory); diff paths are relative to it, the "
		  "header says it", NULL },
		{ "apply", 0, NULL, NULL },
		{ "allow-abi-change", 0, "patch a public type all the same (see below)", NULL },
		{ "color", 0, "colour the diff: auto (default: on a terminal, unless NO_COLOR is "
		  "set or TERM=dumb), always, never", NULL },
		{ "debug-dir", SF_U_MANY, NULL, NULL },
		{ "jobs", 0, NULL, NULL },
		{ "help", 0, NULL, NULL },
		{ .help =
		"Rust: the one .rs file under the source root that declares the struct (rustc\n"
		"names no file); a default-representation struct keeps its field order (rustc\n"
		"orders it) and only field types change; a #[repr(C)] one is reordered; tuple\n"
		"and generic structs and enums are refused;\n"
		"--niche rewrites the newtype (a tuple struct over one raw pointer) and the\n"
		"calls that build it, each then checked for null at run time.\n" },
		{ .help =
		"Members that move change the meaning of positional initializers ({a, b, ...}),\n"
		"offsetof and static_assert: the C files under the source root that name the\n"
		"struct or include its file (directly or through headers) are searched for\n"
		"those of the struct (typedef names too), and each one found is a refusal that\n"
		"names it; designated initializers ({.a = ...}) are unaffected.  A struct found\n"
		"in a generated file (a banner in its first lines, a build directory) is\n"
		"patched in its source of truth (a .h.in) or refused.  Members under #if stay\n"
		"whole and move as one block (in place when another branch declares members);\n"
		"types spelled with object-like macros are expanded.\n" },
		{ "allow-layout-uses", 0, "patch despite positional initializers, offsetof or "
		  "static_assert: the header names each place", NULL },
		{ .help =
		"A narrowing is checked against every store to the member in those files\n"
		"(assignment, op=, ++/--, designated initializer, address taken, found by\n"
		"name): a store of a literal that fits is safe; any other may not fit and is a\n"
		"refusal naming its file:line.  A pointer is never narrowed to an integer.\n" },
		{ "saturate", SF_U_OR_NEXT, "rewrite each such store that is a whole statement "
		  "(p->m = e;, in the struct's file) to clamp e at the new maximum, evaluated once",
		  NULL },
		{ "allow-truncation", 0, "narrow all the same: the header lists each store", NULL },
		{ .help =
		"C++ classes and structs: each member keeps its access (labels are written\n"
		"where the new order needs them, none left empty); member functions, static\n"
		"members, types, using and friend stay where they are; default member\n"
		"initializers move with their member; bases, the vptr and [[no_unique_address]]\n"
		"members stay in place.  Every constructor's member-initializer list under the\n"
		"source root is put in the new order (the same diff).  A class template's\n"
		"instantiation is patched in its primary template when the order shrinks every\n"
		"instantiation in the inputs (none may grow; the header lists their sizes).\n" },
		{ "allow-init-order", 0, "patch even though an initializer reads a member whose "
		  "order relative to it changes (b_(a_ * 2)): the header lists those now run "
		  "before what they read", NULL },
		{ .help =
		"A public type is refused unless --allow-abi-change is given: a packed struct\n"
		"(its bytes are a wire or file format) or one declared in an installed header\n"
		"(/usr/include, a compiler's include directory, a PREFIX/include outside the\n"
		"project) or in the project's include/ directory: programs built against\n"
		"the old layout would read it wrongly.\n" },
		SF_U_END,
	},
	.outro =
	"Refuses (exit 2, nothing written) when the source no longer matches the build's\n"
	"DWARF, when members come from macros or sit under nested #if, when the struct\n"
	"shares a line with other code, or when the source file is missing.\n"
	"Exit status: 0 ok (also when there is nothing to change), 2 usage or input error.\n",
};

struct patch_opts {
	struct sf_common_opts co;
	const char *type;
	struct sf_plan_args plan; /* --narrow, --pin, --no-pin-first, --max-moves */
	bool apply;
	bool allow_abi_change;   /* patch a public type all the same */
	const char *niche;       /* --niche MEMBER, or NULL */
	bool allow_uses;         /* --allow-layout-uses */
	bool saturate;           /* --saturate: clamp wide stores */
	bool allow_truncation;   /* --allow-truncation */
	bool allow_init_order;   /* --allow-init-order (C++) */
};

/* One of patch's own options (sf_parse_options): 0, or nonzero after the
 * message. */
static int take_patch_opt(void *arg, int c, const char *val)
{
	struct patch_opts *o = arg;
	int taken = sf_plan_option(&o->plan, c, val);

	if (taken)
		return taken < 0;
	switch (c) {
	case 't':
		return sf_one_name("patch", val, &o->type);
	case SF_O_APPLY:
		o->apply = true;
		break;
	case SF_O_ALLOW_ABI_CHANGE:
		o->allow_abi_change = true;
		break;
	case SF_O_NICHE:
		o->niche = val;
		break;
	case SF_O_ALLOW_LAYOUT_USES:
		o->allow_uses = true;
		break;
	case SF_O_SATURATE:
		o->saturate = true;
		break;
	case SF_O_ALLOW_TRUNCATION:
		o->allow_truncation = true;
		break;
	case SF_O_ALLOW_INIT_ORDER:
		o->allow_init_order = true;
		break;
	}
	return 0;
}

/* SF_GO_ON, or the exit status (after --help or an error). */
static int parse_patch_opts(int argc, char **argv, struct patch_opts *o)
{
	int st = sf_parse_options(argc, argv, &patch_command, &o->co, take_patch_opt, o);

	if (st != SF_GO_ON)
		return st;
	if (!o->type)
		return sf_die_usage("patch needs -t NAME; see 'structfit patch --help'");
	if (o->niche && (o->plan.nnarrow || o->plan.npins))
		return sf_die_usage("--niche is patched alone (no --narrow or --pin with it)");
	return SF_GO_ON;
}

/* --------------------------------------------------------------- plan */

struct plan {
	uint32_t *order;             /* member indexes, new declaration order */
	uint8_t *moved;              /* per member: the search moved its unit */
	struct sf_srcpatch_narrow *narrow;
	size_t nnarrow;
	uint64_t old_size, new_size;
	uint32_t moves;
};

/*
 * What `suggest` computes for the same options (layout/plan.h: the
 * narrowings applied in place, then the reorder search over the result),
 * in the shape the rewriter takes.  The narrowed type keeps the member
 * order, so its member indexes are t's.  Nonzero after a message.
 */
static int make_plan(const struct sf_type *t, const struct patch_opts *o,
		     struct sf_plan_group *g, size_t ng,
		     struct sf_typeset *arena, struct plan *pl)
{
	struct sf_plan_opts po;
	struct sf_plan_refusal why;
	struct sf_plan p;
	int rc = 0;

	sf_plan_args_opts(&o->plan, &po);
	memset(pl, 0, sizeof(*pl));
	if (sf_plan_make_grouped(t, &po, g, ng, arena, &p, &why) < 0)
		rc = sf_report_refusal(&why);
	else if (!p.modeled)
		rc = sf_die_usage("struct %s: its layout is not what the C rules give "
				  "for its members (attributes?); no reorder to write",
				  t->name);
	if (rc) {
		sf_plan_release(&p);
		return rc;
	}
	pl->order = sf_xcalloc(t->nmembers + 1, sizeof(uint32_t));
	pl->moved = sf_xcalloc(t->nmembers + 1, 1);
	sf_plan_member_order(&p, pl->order, pl->moved);
	pl->narrow = sf_xcalloc(p.nreq + 1, sizeof(*pl->narrow));
	for (size_t i = 0; i < p.nreq; i++)
		pl->narrow[i] = (struct sf_srcpatch_narrow){ p.req[i].member,
							     (uint32_t)p.req[i].bytes };
	pl->nnarrow = p.nreq;
	pl->old_size = t->size;
	pl->new_size = sf_plan_new_size(&p);
	pl->moves = p.reorder.moves;
	sf_plan_release(&p);
	return 0;
}

static void plan_release(struct plan *pl)
{
	free(pl->order);
	free(pl->moved);
	free(pl->narrow);
}

/* --------------------------------------------------------- source file */

/* The file's text, or exit 2 after the message. */
static int read_text(const char *path, struct strbuf *text)
{
	struct strbuf err = STRBUF_INIT;
	int rc = sf_source_read(path, text, &err) ? sf_die_long(err.buf) : 0;

	sb_release(&err);
	return rc;
}

/*
 * The source root for t (srctree.h: --source-root, else the build's
 * directory, else the current directory), or exit 2 after the message.
 */
static int pick_root(const struct patch_opts *o, const struct sf_type *t,
		     struct sf_source_root *root)
{
	struct strbuf err = STRBUF_INIT;
	int rc = sf_source_root(t, o->co.source_root, root, &err) ? sf_die_long(err.buf) : 0;

	sb_release(&err);
	return rc;
}

/* The Rust struct's file and its text, or exit 2 after the message. */
static int rust_source(const struct patch_opts *o, const struct sf_type *t,
		       struct sf_source_root *root, struct sf_source *src, struct strbuf *text)
{
	struct strbuf err = STRBUF_INIT;

	if (pick_root(o, t, root))
		return SF_EXIT_ERROR;
	int rc = sf_source_find_rust(t, root, src, &err) ? sf_die_long(err.buf) : 0;

	sb_release(&err);
	return rc ? rc : read_text(src->path, text);
}

/* ------------------------------------------------------------- writing */

/*
 * Replace path's content by text, atomically: a temporary file in the
 * same directory, the original's mode (and owner, when allowed), fsync,
 * rename.  Refuses when the file no longer holds `expect`.
 */
static int write_atomic(const char *path, const char *text, size_t len,
			const struct strbuf *expect)
{
	struct strbuf now = STRBUF_INIT, tmp = STRBUF_INIT;
	struct stat st;
	int rc = SF_EXIT_ERROR;

	if (stat(path, &st) < 0)
		return sf_die_at(path, 0, 0, "%s", strerror(errno));
	if (read_text(path, &now))
		goto out;
	if (now.len != expect->len || memcmp(now.buf, expect->buf, now.len)) {
		sf_die_at(path, 0, 0, "changed while the patch was made; nothing written");
		goto out;
	}
	const char *slash = strrchr(path, '/');
	sb_add(&tmp, path, slash ? (size_t)(slash - path + 1) : 0);
	sb_addf(&tmp, ".%s.structfit-XXXXXX", slash ? slash + 1 : path);
	int fd = mkstemp(tmp.buf);
	if (fd < 0) {
		sf_die_at(tmp.buf, 0, 0, "cannot create a temporary file: %s", strerror(errno));
		goto out;
	}
	if (fchmod(fd, st.st_mode & 07777) < 0 || sf_write_all(fd, text, len) < 0 ||
	    fsync(fd) < 0) {
		sf_die_at(tmp.buf, 0, 0, "%s; nothing written", strerror(errno));
		close(fd);
		unlink(tmp.buf);
		goto out;
	}
	if (fchown(fd, st.st_uid, st.st_gid) < 0) {
		/* not the owner: the file becomes ours, as with any editor */
	}
	if (close(fd) < 0 || rename(tmp.buf, path) < 0) {
		sf_die_at(path, 0, 0, "%s; nothing written", strerror(errno));
		unlink(tmp.buf);
		goto out;
	}
	rc = 0;
out:
	sb_release(&now);
	sb_release(&tmp);
	return rc;
}

/* ------------------------------------------------------------- command */

/* The header's line on the source root: "." when it is the current
 * directory, relative when below it (not /), else its real path. */
static void say_root(struct strbuf *msg, const struct sf_source_root *root)
{
	char cwd[PATH_MAX];
	const char *shown = root->real;

	if (realpath(".", cwd)) {
		if (!strcmp(cwd, root->real))
			shown = ".";
		else if (strcmp(cwd, "/") && sf_path_below(root->real, cwd))
			shown = sf_path_below(root->real, cwd);
	}
	sf_render_patch_root(msg, shown, root->from, root->comp_dir);
}

/* One file a patch changes: where it is, its text now and after. */
struct out_file {
	struct sf_source src;
	struct strbuf old, neu;
};

/* The diff of f into diff; -1 after the message when it does not apply back. */
static int file_diff(const struct out_file *f, struct strbuf *diff)
{
	struct strbuf one = STRBUF_INIT, back = STRBUF_INIT;
	struct sf_err err = SF_ERR_INIT;
	struct sf_udiff_refusal why;
	int rc = 0;

	sf_udiff_render(&one, f->src.rel, f->old.buf, f->old.len, f->neu.buf, f->neu.len,
			SF_UDIFF_CONTEXT);
	if ((sf_udiff_apply(f->old.buf, f->old.len, one.buf, one.len, &back, &why) < 0 &&
	     sf_udiff_refusal_err(f->src.rel, &why, &err) < 0) ||
	    back.len != f->neu.len || memcmp(back.buf, f->neu.buf, f->neu.len)) {
		if (!err.msg[0])
			sf_error_at(&err, f->src.rel, 0, 0, "internal error: the diff does "
				    "not rebuild the new text");
		rc = sf_report_err(&err);
	}
	sb_add(diff, one.buf, one.len);
	sb_release(&one);
	sb_release(&back);
	return rc;
}

/*
 * The new texts of f[0..n) as one diff on stdout (msg, the header, above
 * it), or written in place with --apply (msg alone); checked first: every
 * hunk applies to its file as it is and gives the new text.
 */
static int emit_files(const struct patch_opts *o, const struct out_file *f, size_t n,
		      struct strbuf *msg)
{
	struct strbuf diff = STRBUF_INIT;
	int rc = SF_EXIT_OK;

	for (size_t i = 0; i < n && rc == SF_EXIT_OK; i++)
		if (file_diff(&f[i], &diff))
			rc = SF_EXIT_ERROR;
	if (rc == SF_EXIT_OK && o->apply) {
		for (size_t i = 0; i < n && rc == SF_EXIT_OK; i++)
			if (write_atomic(f[i].src.path, f[i].neu.buf, f[i].neu.len, &f[i].old))
				rc = SF_EXIT_ERROR;
		if (rc == SF_EXIT_OK) {
			for (size_t i = 0; i < n; i++)
				sf_render_patch_wrote(msg, f[i].src.rel);
			fputs(msg->buf, stdout);
			rc = fflush(stdout) == 0 ? SF_EXIT_OK : SF_EXIT_ERROR;
		}
	} else if (rc == SF_EXIT_OK) {
		sb_addch(msg, '\n');
		sb_add(msg, diff.buf, diff.len);
		rc = sf_write_output(msg, true, o->co.color, SF_PAINT_PATCH) ?
			SF_EXIT_ERROR : SF_EXIT_OK;
	}
	sb_release(&diff);
	return rc;
}

/* The new text of src alone (emit_files of one file). */
static int emit(const struct patch_opts *o, const struct sf_source *src,
		const struct strbuf *old, const struct strbuf *neu, struct strbuf *msg)
{
	struct out_file f = { *src, STRBUF_INIT, STRBUF_INIT };

	sb_add(&f.old, old->buf, old->len);
	sb_add(&f.neu, neu->buf, neu->len);
	int rc = emit_files(o, &f, 1, msg);
	sb_release(&f.old);
	sb_release(&f.neu);
	return rc;
}

/* The niche proposal for member `name` of t, or NULL (said why). */
static const struct sf_niche *niche_of(const struct sf_type *t, const struct sf_typeset *ts,
				       const char *name, struct sf_niche *v, size_t max)
{
	size_t n = sf_rust_niches(t, ts, v, max);

	for (size_t i = 0; i < n && i < max; i++)
		if (!strcmp(t->members[v[i].member].name, name))
			return &v[i];
	sf_die_usage("struct %s: member %s: no niche to gain (structfit suggest proposes "
		     "none for it)", t->name, name);
	return NULL;
}

/* Rust struct t's text in base rewritten per sp into neu; -1 with err
 * (the refusal worded) when it is not. */
static int rust_rewrite(const char *path, const struct strbuf *base, const struct sf_type *t,
			const struct sf_srcpatch_plan *sp, struct strbuf *neu,
			struct sf_err *err)
{
	struct sf_rustpatch_refusal why;

	if (sf_rustpatch_make(base->buf, base->len, t, sp, neu, &why) == 0)
		return 0;
	return sf_rustpatch_refusal_err(path, &why, err);
}

/*
 * --niche MEMBER: the newtype MEMBER's Option holds gets a NonNull for
 * its raw pointer, in the .rs file declaring the newtype.
 */
static int patch_niche(const struct patch_opts *o, const struct sf_type *t,
		       const struct sf_typeset *ts)
{
	struct sf_niche v[SF_NICHE_MAX];
	const struct sf_niche *ni = niche_of(t, ts, o->niche, v, SF_NICHE_MAX);
	const struct sf_type *nt = NULL;
	struct strbuf old = STRBUF_INIT, neu = STRBUF_INIT, msg = STRBUF_INIT;
	struct strbuf sites = STRBUF_INIT;
	struct sf_source src = { NULL, NULL };
	struct sf_source_root root = { NULL, SF_ROOT_OPTION, "" };
	struct sf_err err = SF_ERR_INIT;
	struct sf_rustpatch_refusal rwhy;
	int rc = SF_EXIT_ERROR;
	long n;

	if (!ni)
		return SF_EXIT_ERROR;
	if (!strcmp(ni->payload, ni->pointer) || sf_typeset_find(ts, ni->payload, &nt, 1) != 1) {
		sf_die_usage("struct %s: member %s: its Option holds %s, not a newtype over a "
			     "pointer; write NonNull there by hand", t->name, o->niche, ni->payload);
		return SF_EXIT_ERROR;
	}
	if (rust_source(o, nt, &root, &src, &old))
		goto out;
	if ((n = sf_rustpatch_nonnull(old.buf, old.len, nt->name, &sf_patch_words, &neu,
				      &sites, &rwhy)) < 0) {
		sf_rustpatch_refusal_err(src.rel, &rwhy, &err);
		sf_report_err(&err);
		goto out;
	}
	sf_render_patch_niche_header(&msg, t, o->niche, ni, nt->name, src.rel, n, sites.buf);
	say_root(&msg, &root);
	rc = emit(o, &src, &old, &neu, &msg);
out:
	sf_source_root_release(&root);
	sf_source_release(&src);
	sb_release(&old);
	sb_release(&neu);
	sb_release(&msg);
	sb_release(&sites);
	return rc;
}

/*
 * The file's text, its #if blocks in a new plan: each whole, moving as
 * one unit when no other branch declares members (their sizes are not in
 * the DWARF), else pinned at its offset.
 */
static int c_text(const struct patch_opts *o, const struct sf_type *t,
		  struct sf_typeset *ts, const struct sf_source *src,
		  const struct sf_srctree *tree, struct strbuf *old, struct plan *pl,
		  struct strbuf *note)
{
	struct sf_srcpatch_block *blk = NULL;
	size_t nblk = 0;
	struct sf_src_why why;

	if (read_text(src->path, old))
		return SF_EXIT_ERROR;
	if (sf_srcpatch_blocks(src->rel, old->buf, old->len, t, &tree->macros, &blk,
			       &nblk, &why) < 0)
		return sf_report_src_why(t, &why);
	if (!nblk)
		return 0;
	struct sf_plan_group *g = sf_if_groups(blk, nblk);
	plan_release(pl);
	int rc = make_plan(t, o, g, nblk, ts, pl);
	for (size_t i = 0; i < nblk; i++)
		sf_render_patch_note_if(note, blk[i].if_line, blk[i].endif_line,
					g[i].pinned, blk[i].other_decls);
	free(g);
	free(blk);
	return rc;
}

/*
 * C++: a class that is no aggregate is never initialized by position - a
 * brace list calls its constructor - so those uses are not its layout's
 * (offsetof and static_assert still are).
 */
static void drop_positional(struct sf_srctree *tree)
{
	size_t k = 0;

	for (size_t i = 0; i < tree->nuses; i++) {
		uint8_t kind = tree->uses[i].use.kind;
		if (kind == SF_USE_OFFSETOF || kind == SF_USE_STATIC_ASSERT) {
			tree->uses[k++] = tree->uses[i];
			continue;
		}
		free(tree->uses[i].rel);
	}
	tree->nuses = k;
}

/*
 * A C struct's file, read into old: the source of truth among the
 * definitions under the source root (srctree.h); its #if blocks kept
 * whole in a new plan; refused when code elsewhere depends on the layout (unless
 * --allow-layout-uses).  What it found goes to note, for the header.
 */
static int c_source(const struct patch_opts *o, const struct sf_type *t,
		    struct sf_typeset *ts, struct sf_source_root *root, struct sf_source *src,
		    struct sf_srctree *tree, struct strbuf *old, struct plan *pl,
		    struct strbuf *note)
{
	struct strbuf why = STRBUF_INIT;
	struct sf_srctruth truth;
	int rc = SF_EXIT_ERROR;

	if (pick_root(o, t, root))
		return SF_EXIT_ERROR;
	if (sf_srctree_locate(t, root, tree, src, &truth, &why) ||
	    sf_render_patch_truth(note, &why, tree->defs, tree->ndefs, &truth, src->rel,
				  t->name))
		goto refused;
	sf_source_to_truth(src, tree, &truth);
	if ((rc = c_text(o, t, ts, src, tree, old, pl, note)))
		goto out;
	if (sf_srcpatch_aggregate(src->rel, old->buf, old->len, t, &tree->macros) == 0)
		drop_positional(tree);
	if (!sf_render_patch_uses(note, &why, tree->uses, tree->nuses, pl->moves > 0,
				  o->allow_uses, t, tree->nfiles, tree->nread))
		goto out;
refused:
	rc = sf_die_long(why.buf);
out:
	sb_release(&why);
	return rc;
}

/*
 * t's file as messages show it: relative to the source root when below it
 * (the root as patch would pick it), else as the DWARF names it.
 */
static char *root_shown_file(const struct sf_type *t, const struct patch_opts *o)
{
	struct sf_source_root root;
	struct strbuf err = STRBUF_INIT;
	struct sf_err e = SF_ERR_INIT;
	struct sf_srcroot sr;
	char *file = NULL;

	if (sf_source_root(t, o->co.source_root, &root, &err) == 0) {
		if (sf_srcroot_init(&sr, root.real, &e) == 0) {
			file = sf_srcroot_show(&sr, t->decl_file);
			sf_srcroot_release(&sr);
		}
		sf_source_root_release(&root);
	}
	sb_release(&err);
	return file ? file : sf_xstrdup(t->decl_file);
}

/*
 * A public type (layout/public.h) is not rewritten unless asked: what
 * was built against its old layout - other programs, files, the network -
 * would read the new one wrongly, and no rebuild here reaches them.
 */
static int refuse_public(const struct sf_type *t, const struct patch_opts *o)
{
	enum sf_public pub = sf_type_public(t);

	if (pub == SF_PUBLIC_NO || o->allow_abi_change)
		return 0;
	char *file = root_shown_file(t, o);
	sf_die_usage("%s %s (%s:%u): public %s: %s; patch refuses to change it, as what "
		     "was built against the old layout would break (--allow-abi-change "
		     "patches it all the same)", sf_type_kind_name(t), t->name,
		     file, t->decl_line, pub == SF_PUBLIC_PACKED ? "format" : "ABI",
		     sf_public_why(pub));
	free(file);
	return -1;
}

/*
 * A class nested in a class template's instantiation is not rewritten:
 * the template's source gives every instantiation its layout, and only
 * this one was planned (an instantiation itself is: patchtmpl.h).
 */
static int refuse_template(const struct sf_type *t, const struct patch_opts *o,
			   struct sf_typeset *ts, struct sf_type *view)
{
	if (!sf_cdecl_in_template(t) || sf_patch_tmpl_view(t, ts, view))
		return 0;
	struct sf_cxx_why why = { SF_CXX_TEMPLATE, t->decl_line, NULL, 0, 0 };
	struct strbuf line = STRBUF_INIT;
	char *file = root_shown_file(t, o);

	sf_render_patch_cxx(&line, file, t, &why);
	int rc = sf_die_long(line.buf);
	sb_release(&line);
	free(file);
	return rc;
}

/* A pointer is never narrowed to an integer here (a design change). */
static int refuse_pointer(const struct sf_type *t, const struct plan *pl)
{
	for (size_t k = 0; k < pl->nnarrow; k++) {
		const struct sf_member *m = &t->members[pl->narrow[k].member];
		if (m->tclass != SF_T_POINTER)
			continue;
		struct strbuf err = STRBUF_INIT;
		sf_render_patch_pointer(&err, t, m, pl->narrow[k].bytes);
		int rc = sf_die_long(err.buf);
		sb_release(&err);
		return rc;
	}
	return 0;
}

static bool member_signed(const struct sf_member *m)
{
	return m->tclass != SF_T_POINTER && m->tclass != SF_T_BOOL &&
	       (m->flags & SF_MF_SIGNED);
}

/* text with m's whole-statement stores that may not fit clamped to r. */
static void saturate_stores(const struct sf_member *m, unsigned bytes,
			    const struct sf_store_range *r, struct strbuf *text)
{
	struct sf_lexed lx;
	struct sf_store *v = NULL;
	size_t n = 0;
	struct strbuf out = STRBUF_INIT;

	sf_clex(&lx, text->buf, text->len);
	sf_srcstore_find(&lx, m->name, r, &v, &n);
	sf_srcstore_saturate(text->buf, text->len, v, n, r,
			     sf_srcpatch_narrow_type(bytes, r->is_signed, 0), &out);
	sf_clex_free(&lx);
	free(v);
	sb_setlen(text, 0);
	sb_add(text, out.buf, out.len);
	sb_release(&out);
}

/*
 * Every store to each narrowed member under the source root, judged
 * against its new range (report/patch.c words the finding, or the
 * refusal); with --saturate, the stores in the struct's own file that are
 * whole statements are rewritten in `text`.  Nonzero after a refusal.
 */
static int narrowing_stores(const struct patch_opts *o, const struct sf_type *t,
			    const struct plan *pl, const struct sf_srctree *tree,
			    const struct sf_source *src, struct strbuf *text,
			    struct strbuf *note)
{
	int rc = 0;

	for (size_t k = 0; k < pl->nnarrow && !rc; k++) {
		const struct sf_member *m = &t->members[pl->narrow[k].member];
		unsigned bytes = pl->narrow[k].bytes;
		struct sf_store_range r = sf_store_range_of(bytes, member_signed(m));
		struct sf_srcstore *v = NULL;
		size_t n = 0, nrew = 0;
		struct strbuf err = STRBUF_INIT;
		sf_srctree_stores(tree, m->name, &r, &v, &n);
		bool *rewrite = sf_xcalloc(n + 1, sizeof(*rewrite));
		for (size_t i = 0; i < n; i++) {
			rewrite[i] = o->saturate && !v[i].store.fits && v[i].store.rewritable &&
				     !strcmp(v[i].rel, src->rel);
			nrew += rewrite[i];
		}
		if (sf_render_patch_stores(note, &err, m, bytes, v, n, rewrite, o->saturate,
					   o->allow_truncation, tree->ncrel, tree->nread) < 0)
			rc = sf_die_long(err.buf);
		else if (nrew)
			saturate_stores(m, bytes, &r, text);
		free(rewrite);
		sf_srcstores_release(v, n);
		sb_release(&err);
	}
	if (!rc && pl->nnarrow)
		sf_render_patch_wconversion(note);
	return rc;
}

/* The hazards rd[0..n) of file rel: a refusal (nonzero) unless allowed,
 * then the header's notes. */
static int init_reads(const struct patch_opts *o, const struct sf_type *dt, const char *rel,
		      const struct sf_ctor_read *rd, size_t n, struct strbuf *note)
{
	struct strbuf err = STRBUF_INIT;
	int rc = 0;

	if (n && !o->allow_init_order) {
		sf_render_patch_init_order(&err, rel, dt, rd, n);
		rc = sf_die_long(err.buf);
	}
	for (size_t i = 0; i < n && !rc; i++)
		sf_render_patch_init_note(note, rel, dt, &rd[i]);
	sb_release(&err);
	return rc;
}

/* C++: f's new text with t's initializer lists in the new order (pos);
 * the lists changed added to *lists. */
static int ctor_file(const struct patch_opts *o, const struct sf_type *dt,
		     const uint32_t *pos, struct out_file *f, size_t *lists,
		     struct strbuf *note)
{
	struct strbuf out = STRBUF_INIT;
	struct sf_ctor_read *rd = NULL;
	size_t nrd = 0;
	size_t k = sf_ctorinit_rewrite(f->neu.buf, f->neu.len, dt, pos, &out, &rd, &nrd);
	int rc = init_reads(o, dt, f->src.rel, rd, nrd, note);

	if (k) {
		sb_setlen(&f->neu, 0);
		sb_add(&f->neu, out.buf, out.len);
	}
	*lists += k;
	sb_release(&out);
	free(rd);
	return rc;
}

/*
 * C++: the constructors' member-initializer lists put in the new order -
 * in the class's file (f[0], its new text) and in every other C/C++ file
 * under the source root, each changed one appended to *f (*nf).  Nonzero
 * after a refusal (an initializer reading a member it now passes).
 */
static int ctor_lists(const struct patch_opts *o, const struct sf_type *t, const struct plan *pl,
		      const struct sf_srctree *tree, struct out_file **f, size_t *nf,
		      struct strbuf *note)
{
	struct sf_type dt;
	struct sf_member *v;
	uint32_t *map = sf_xcalloc(t->nmembers + 1, sizeof(uint32_t));
	uint32_t *pos = sf_xcalloc(t->nmembers + 1, sizeof(uint32_t)), np = 0;
	size_t lists = 0;
	int rc;

	sf_cdecl_declared(t, &dt, &v, map);
	for (uint32_t i = 0; i < t->nmembers; i++)
		if (map[pl->order[i]] != UINT32_MAX)
			pos[map[pl->order[i]]] = np++;
	rc = ctor_file(o, &dt, pos, &(*f)[0], &lists, note);
	for (size_t i = 0; i < tree->ncrel && !rc; i++) {
		struct out_file g = { { NULL, NULL }, STRBUF_INIT, STRBUF_INIT };
		if (!strcmp(tree->crel[i], (*f)[0].src.rel))
			continue;
		g.src.rel = sf_xstrdup(tree->crel[i]);
		struct strbuf e = STRBUF_INIT;
		sb_addf(&e, "%s/%s", tree->root, tree->crel[i]);
		g.src.path = sb_detach(&e);
		size_t before = lists;
		if (sf_source_read(g.src.path, &g.old, &e) == 0 &&
		    strstr(g.old.buf, sf_cdecl_last_name(t->name))) {
			sb_add(&g.neu, g.old.buf, g.old.len);
			rc = ctor_file(o, &dt, pos, &g, &lists, note);
		}
		sb_release(&e);
		if (lists > before && !rc) {
			*f = sf_xreallocarray(*f, *nf + 1, sizeof(**f));
			(*f)[(*nf)++] = g;
			continue;
		}
		sf_source_release(&g.src);
		sb_release(&g.old);
		sb_release(&g.neu);
	}
	const char **rels = sf_xcalloc(*nf + 1, sizeof(*rels));
	for (size_t i = 0; i < *nf; i++)
		rels[i] = (*f)[i].src.rel;
	if (!rc)
		sf_render_patch_ctor_lists(note, lists, rels, *nf);
	free(rels);
	free(v);
	free(map);
	free(pos);
	return rc;
}

/* Not an error: the line on stderr, exit 0. */
static int nothing_to_patch(const struct sf_type *t, int kept_if)
{
	struct strbuf line = STRBUF_INIT;

	sf_render_patch_nothing(&line, t, kept_if);
	fprintf(stderr, "structfit: %s\n", line.buf);
	sb_release(&line);
	return SF_EXIT_OK;
}

/* Structs only (C, C++, Rust): nonzero after the message. */
static int refuse_kind(const struct sf_type *t)
{
	if ((t->flags & SF_TF_RUST) && t->nvariants)
		return sf_die_usage("enum %s: patch rewrites structs only", t->name);
	if (t->kind == SF_KIND_UNION || (t->kind == SF_KIND_CLASS && !(t->flags & SF_TF_CXX)))
		return sf_die_usage("%s %s: patch rewrites C structs only",
				    sf_type_kind_name(t), t->name);
	return 0;
}

/*
 * A class template's instantiation t (view: t under the template's name):
 * refused when it is a specialization's, before it is planned.
 */
static int tmpl_first(const struct patch_opts *o, const struct sf_type *t)
{
	struct sf_source_root root = { NULL, SF_ROOT_OPTION, "" };
	int rc = pick_root(o, t, &root) ? SF_EXIT_ERROR : sf_patch_tmpl_specialized(t, &root);

	sf_source_root_release(&root);
	return rc;
}

/* t as its source declares it: a class template's instantiation under
 * the template's name (view); NULL after a refusal. */
static const struct sf_type *as_declared(const struct patch_opts *o, const struct sf_type *t,
					 struct sf_typeset *ts, struct sf_type *view)
{
	if (!sf_cdecl_in_template(t))
		return t;
	if (refuse_template(t, o, ts, view) || tmpl_first(o, t))
		return NULL;
	return view;
}

/* patch needs a source location, which BTF does not record: nonzero
 * after the message. */
static int refuse_btf(const struct sf_type *t)
{
	if (!(t->flags & SF_TF_BTF))
		return 0;
	return sf_die_at(t->origin ? t->origin : "?", 0, 0,
			 "struct %s was read from BTF, which records no source "
			 "location; patch needs DWARF (build with -g) and the source",
			 t->name);
}

/* The planned order laid on every other instantiation of t's template:
 * nonzero after a refusal, else the header's lines in note. */
static int tmpl_sizes(const struct patch_opts *o, const struct sf_type *t,
		      struct sf_typeset *ts, const struct plan *pl, const char *rel,
		      struct strbuf *note)
{
	struct sf_plan_opts po;

	sf_plan_args_opts(&o->plan, &po);
	struct sf_patch_tmpl_plan tp = { pl->order, po.pins, po.npins, po.pin_first,
					 pl->narrow, pl->nnarrow, pl->old_size, pl->new_size };
	return sf_patch_tmpl_sizes(t, ts, &tp, rel, note);
}

static int run_patch(const struct patch_opts *o, char **files, int nfiles)
{
	char *bare = sf_bare_name(o->type);
	char *glob = sf_patch_tmpl_glob(bare);
	const char *only[] = { bare, glob, NULL };
	struct sf_typeset *ts = sf_load_inputs(&o->co, files, nfiles, only);
	struct strbuf old = STRBUF_INIT, neu = STRBUF_INIT, msg = STRBUF_INIT;
	struct strbuf base = STRBUF_INIT;   /* old, its stores saturated */
	struct sf_source src = { NULL, NULL };
	struct sf_source_root root = { NULL, SF_ROOT_OPTION, "" };
	struct sf_err err = SF_ERR_INIT;
	struct sf_srctree tree;
	struct strbuf note = STRBUF_INIT;
	struct plan pl;
	int rc = SF_EXIT_ERROR;

	memset(&tree, 0, sizeof(tree));
	if (!ts) {
		free(bare);
		free(glob);
		return SF_EXIT_ERROR;
	}
	const struct sf_type *t = sf_find_type(ts, o->type, files, nfiles);
	if (!t)
		goto out_ts;
	bool rust = t->flags & SF_TF_RUST;
	struct sf_type view;     /* a class template's instantiation: the template */
	const struct sf_type *st; /* t as its source declares it */
	if (refuse_kind(t) || refuse_public(t, o) || !(st = as_declared(o, t, ts, &view)))
		goto out_ts;
	if (o->niche) {
		if (!rust) {
			sf_die_usage("struct %s: --niche is for Rust structs", t->name);
			goto out_ts;
		}
		/* the niche needs the enums and newtypes its members name */
		sf_typeset_free(ts);
		ts = sf_load_inputs(&o->co, files, nfiles, NULL);
		if (ts && (t = sf_find_type(ts, o->type, files, nfiles)))
			rc = patch_niche(o, t, ts);
		goto out_ts;
	}
	if (refuse_btf(t))
		goto out_ts;
	if (make_plan(t, o, NULL, 0, ts, &pl))
		goto out_ts;
	if (refuse_pointer(t, &pl))
		goto out_plan;
	/* rustc orders a default-representation struct itself: only the
	 * types change in the source, and the size is the best order's */
	bool keep_order = sf_rust_compiler_orders(t);
	if (keep_order)
		pl.moves = 0;
	if (!pl.moves && !pl.nnarrow) {
		rc = nothing_to_patch(t, 0);
		goto out_plan;
	}
	if (rust ? rust_source(o, t, &root, &src, &old)
		 : c_source(o, st, ts, &root, &src, &tree, &old, &pl, &note))
		goto out_plan;
	if (!rust && sf_patch_contained_fresh(t, ts, &o->co, files, nfiles, &root,
						&tree.macros))
		goto out_plan;
	if (!pl.moves && !pl.nnarrow) {
		rc = nothing_to_patch(t, 1);
		goto out_plan;
	}
	if (st != t && tmpl_sizes(o, t, ts, &pl, src.rel, &note))
		goto out_plan;
	sb_add(&base, old.buf, old.len);
	if (!rust && narrowing_stores(o, st, &pl, &tree, &src, &base, &note))
		goto out_plan;
	struct sf_srcpatch_plan sp = { keep_order ? NULL : pl.order, t->nmembers, pl.narrow,
				       pl.nnarrow, pl.moved, &tree.macros, &sf_patch_words };
	struct sf_srcpatch_info info;
	struct sf_src_why why;
	if (rust ? rust_rewrite(src.rel, &base, t, &sp, &neu, &err) < 0
		 : sf_srcpatch_make(src.rel, base.buf, base.len, st, &sp, &neu, &info, &why) < 0) {
		if (rust)
			sf_report_err(&err);
		else
			sf_report_src_why(st, &why);
		goto out_plan;
	}
	struct out_file *outs = sf_xcalloc(1, sizeof(*outs));
	size_t nfiles_out = 1;
	outs[0] = (struct out_file){ src, STRBUF_INIT, STRBUF_INIT };
	sb_add(&outs[0].old, old.buf, old.len);
	sb_add(&outs[0].neu, neu.buf, neu.len);
	if (!rust && (t->flags & SF_TF_CXX) && pl.moves &&
	    ctor_lists(o, st, &pl, &tree, &outs, &nfiles_out, &note))
		goto out_files;
	struct sf_patch_view pv = { t, src.rel, pl.old_size, pl.new_size, pl.moves,
				    pl.narrow, pl.nnarrow, &note };
	sf_render_patch_header(&msg, &pv);
	say_root(&msg, &root);
	rc = emit_files(o, outs, nfiles_out, &msg);
out_files:
	for (size_t i = 0; i < nfiles_out; i++) {
		if (i)
			sf_source_release(&outs[i].src);
		sb_release(&outs[i].old);
		sb_release(&outs[i].neu);
	}
	free(outs);
out_plan:
	plan_release(&pl);
out_ts:
	sf_source_root_release(&root);
	sf_source_release(&src);
	sb_release(&old);
	sb_release(&neu);
	sb_release(&base);
	sb_release(&msg);
	sb_release(&note);
	sf_srctree_release(&tree);
	sf_typeset_free(ts);
	free(bare);
	free(glob);
	return rc;
}

int cmd_patch(int argc, char **argv)
{
	struct patch_opts o = { .co = SF_COMMON_OPTS };
	int rc = parse_patch_opts(argc, argv, &o);

	if (rc == SF_GO_ON)
		rc = run_patch(&o, argv + optind, argc - optind);
	sf_plan_args_release(&o.plan);
	sf_common_opts_release(&o.co);
	return rc;
}
