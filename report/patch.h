/*
 * patch.h - the words of `structfit patch` around its diff: the header
 * above the diff (or the message --apply prints), and the line saying
 * there is nothing to patch.
 *
 * cmd/patch.c makes the plan (layout/plan.h), finds the source
 * (input/srctree.h) and rewrites it (layout/srcpatch.h, rustpatch.h); it
 * hands the facts here in a view and prints what comes back.  `note`
 * carries the lines found on the way (the source of truth, #if blocks
 * kept whole, the uses searched), each "  ...\n", in the order found;
 * these are worded here too, as are patch's refusals about the tree
 * (several definitions, generated copies, code that depends on the
 * layout).
 */
#ifndef SF_REPORT_PATCH_H
#define SF_REPORT_PATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "layout/ctorinit.h"
#include "layout/cxxwhy.h"
#include "layout/rust.h"
#include "layout/rustpatch.h"
#include "layout/srcscan.h"
#include "layout/srcpatch.h"
#include "layout/srcstore.h"
#include "layout/tmpl.h"
#include "lib/err.h"
#include "lib/strbuf.h"
#include "model/model.h"

struct sf_patch_view {
	const struct sf_type *type;                 /* the struct patched */
	const char *rel;                            /* its file, below the source root */
	uint64_t old_size, new_size;
	uint32_t moves;                             /* members moved */
	const struct sf_srcpatch_narrow *narrow;    /* members narrowed */
	size_t nnarrow;
	const struct strbuf *note;                  /* lines found on the way */
};

/*
 * "structfit patch: struct S in F: 48 -> 40 bytes, 2 members moved", a
 * line per narrowing with the range the member must hold, the notes, and
 * for a struct rustc orders, that only the types change.
 */
void sf_render_patch_header(struct strbuf *out, const struct sf_patch_view *v);

/*
 * The header's last line: the source root (shown: "." for the current
 * directory, else its path) and where it came from (layout/srcscan.h),
 * comp_dir the build's directory the DWARF records ("" when none).
 */
void sf_render_patch_root(struct strbuf *out, const char *shown,
			  enum sf_root_from from, const char *comp_dir);

/*
 * --niche: newtype `nt` (in rel) made NonNull so its Option needs no tag;
 * `sites` constructing sites (lines listed in `lines`) now check for
 * null.  t and its member are what suggest proposed the niche for.
 */
void sf_render_patch_niche_header(struct strbuf *out, const struct sf_type *t,
				  const char *member, const struct sf_niche *ni,
				  const char *nt, const char *rel, long sites,
				  const char *lines);

/*
 * The stores found to a narrowed member m (v[0..n), input/srctree.h),
 * judged against its new range: `rewrite[i]` says store i is rewritten to
 * saturate.  The stores that may not fit and are not rewritten refuse the
 * patch (each file:line in err, -1) unless allow_truncation, which lists
 * them in note; otherwise one note line says what was found, in `nfiles` C
 * files (of `nread`, as for the uses).
 */
int sf_render_patch_stores(struct strbuf *note, struct strbuf *err,
			   const struct sf_member *m, unsigned bytes,
			   const struct sf_srcstore *v, size_t n, const bool *rewrite,
			   bool saturate, bool allow_truncation, size_t nfiles,
			   size_t nread);

/* The refusal of a pointer narrowed to an integer, for err. */
void sf_render_patch_pointer(struct strbuf *err, const struct sf_type *t,
			     const struct sf_member *m, unsigned bytes);

/* The last header line of a narrowing patch: build once with -Wconversion. */
void sf_render_patch_wconversion(struct strbuf *note);

/* A note line: the members under an #if (lines if_line-endif_line) stay
 * whole, moving as one block or (pinned) in place; other_decls: another
 * branch declares members. */
void sf_render_patch_note_if(struct strbuf *out, uint32_t if_line, uint32_t endif_line,
			     int pinned, int other_decls);

/*
 * The verdict on the file to patch (layout/srcscan.h's sf_srcdefs_truth;
 * rel: the file the build saw the struct in).  A refusal goes to err
 * (the matching definitions listed: any length) and returns -1; else the
 * header's lines go to note: the source of truth when it is not rel, and
 * each other matching definition (generated, or defining it the same
 * way and not patched).
 */
int sf_render_patch_truth(struct strbuf *note, struct strbuf *err,
			  const struct sf_srcdef *defs, size_t ndefs,
			  const struct sf_srctruth *truth, const char *rel,
			  const char *tname);

/*
 * The uses below the root that the patch breaks (sf_use_breaks: `moves`
 * says members move).  Without `allow`, a refusal naming each (in err,
 * returns -1); with it, one note line each.  None: one line saying what
 * was searched, in `nfiles` C files (the files around the struct, of the
 * `nread` C files under the root).
 */
int sf_render_patch_uses(struct strbuf *note, struct strbuf *err,
			 const struct sf_srcuse *uses, size_t nuses, int moves,
			 int allow, const struct sf_type *t, size_t nfiles,
			 size_t nread);

/*
 * Why a C++ class's source is not rewritten (layout/cxxwhy.h), as the one
 * line "REL:LINE: class NAME: ..." (without "structfit: ").
 */
void sf_render_patch_cxx(struct strbuf *out, const char *rel, const struct sf_type *t,
			 const struct sf_cxx_why *why);

/*
 * C++ constructors' initializers that read a member whose order relative
 * to theirs changes (rd[0..n), in file rel; dt: the class as declared):
 * the refusal line (without "structfit: "), or one header note for each
 * that now runs before what it reads.
 */
void sf_render_patch_init_order(struct strbuf *err, const char *rel, const struct sf_type *dt,
				const struct sf_ctor_read *rd, size_t n);
void sf_render_patch_init_note(struct strbuf *note, const char *rel, const struct sf_type *dt,
			       const struct sf_ctor_read *r);

/* The note: how many constructor initializer lists were put in the new
 * order, and the files the patch changes (rels[0..n), the class's first). */
void sf_render_patch_ctor_lists(struct strbuf *note, size_t lists, const char *const *rels,
				size_t n);

/*
 * The words patch writes into the source (layout/srcpatch.h): the C
 * comment beside a narrowed member, "0..255 (was long int): check that
 * every value fits" ("index 0..65535" for a pointer), the Rust one,
 * "// structfit: was u64; holds 0..255 now: check every value fits", and
 * the NonNull constructor's expect() message, "structfit: a null NAME".
 */
extern const struct sf_patch_words sf_patch_words;

/*
 * Nothing to patch: no smaller order for t (`kept_if`: none once its #if
 * blocks stay whole).  A line for stderr, without "structfit: ".
 */
/* Why Rust source PATH was not rewritten (layout/rustpatch.h), into err:
 * "PATH: struct Tup: a generic struct; nothing written"; returns -1. */
int sf_rustpatch_refusal_err(const char *path, const struct sf_rustpatch_refusal *r,
			     struct sf_err *err);

/*
 * patch's refusal when a struct t holds by value (through `holder`'s
 * member m) changed in its source since the build: "struct server: member
 * 'st' holds struct stats by value, and WHY; ... rebuild, then patch".
 */
void sf_render_patch_held_stale(struct strbuf *err, const struct sf_type *t,
				const struct sf_type *holder, const struct sf_member *m,
				const struct sf_type *held, const char *why);
/* patch --apply's last line, after the header: "wrote FILE" (FILE as the
 * diff names it, relative to the source root). */
void sf_render_patch_wrote(struct strbuf *out, const char *file);
void sf_render_patch_nothing(struct strbuf *out, const struct sf_type *t, int kept_if);

/*
 * The header's note on a class template (tmpl, "Slot"): the instantiations
 * v[0..n) checked, the patched one first, with their sizes before and
 * after; the types spec[0..nspec) of the template declared by a
 * specialization, which keep their members.
 */
void sf_render_patch_tmpl_note(struct strbuf *note, const char *tmpl,
				const struct sf_tmpl_inst *v, size_t n,
				const struct sf_type *const *spec, size_t nspec);

#endif
