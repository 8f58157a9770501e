/*
 * srcwhy.c (report/) - the C source model's refusals worded (srcwhy.h):
 * a switch over layout/srcwhy.h's kinds, one sentence each, in three
 * groups as the layout finds them (the definition and its body's shape,
 * the declarations against the build's DWARF, the plan and the rewrite).
 * Every sentence names the file in err's file field, no line (the line
 * is in the sentence).
 */
#include "srcwhy.h"

#include <assert.h>
#include <inttypes.h>

#include "lib/strbuf.h"
#include "patch.h"

/* The definition found and its body's shape (layout/cdecl.c); 1 when
 * worded. */
static int shape_why(struct sf_err *err, const struct sf_src_why *w)
{
	const char *p = w->path, *n = w->tname;

	switch (w->kind) {
	case SF_SRC_NO_DEFINITION:
		sf_error_at(err, p, 0, 0, "no definition of struct %s (the source changed since "
			    "the build?)", n);
		return 1;
	case SF_SRC_NONE_ON_LINE:
		sf_error_at(err, p, 0, 0, "%" PRIu64 " definitions of struct %s and none on "
			    "line %u where the build saw it", w->a, n, w->line);
		return 1;
	case SF_SRC_NO_CLOSE:
		sf_error_at(err, p, 0, 0, "struct %s: no closing brace for the '{' on line %u",
			    n, w->line);
		return 1;
	case SF_SRC_DIRECTIVE:
		sf_error_at(err, p, 0, 0, "struct %s: preprocessor directive inside the body "
			    "(line %u); structfit does not rewrite it", n, w->line);
		return 1;
	case SF_SRC_IF_NESTED:
		sf_error_at(err, p, 0, 0, "struct %s: #if nested in the #if on line %u (line "
			    "%u); structfit keeps one level of #if blocks", n, w->line, w->line2);
		return 1;
	case SF_SRC_ELSE_NO_IF:
		sf_error_at(err, p, 0, 0, "struct %s: #else/#elif/#endif with no #if in the "
			    "body (line %u)", n, w->line);
		return 1;
	case SF_SRC_IF_BRANCHES:
		sf_error_at(err, p, 0, 0, "struct %s: the #if on line %u has too many branches, "
			    "or one after #else (line %u)", n, w->line, w->line2);
		return 1;
	case SF_SRC_IF_OPEN:
		sf_error_at(err, p, 0, 0, "struct %s: the #if on line %u is not closed inside "
			    "the body", n, w->line);
		return 1;
	case SF_SRC_ONE_LINE:
		sf_error_at(err, p, 0, 0, "struct %s is defined on one line with other code "
			    "(line %u); put its members on lines of their own first", n, w->line);
		return 1;
	case SF_SRC_DIRECTIVE_IN_DECL:
		sf_error_at(err, p, 0, 0, "struct %s: a preprocessor line inside the "
			    "declaration on line %u (line %u); structfit does not rewrite it", n,
			    w->line, w->line2);
		return 1;
	case SF_SRC_NO_BRANCH:
		sf_error_at(err, p, 0, 0, "struct %s: no branch of the #if on line %u holds the "
			    "members the build's DWARF has there", n, w->line);
		return 1;
	default:
		return 0;
	}
}

/* The declarations against the build's DWARF (layout/cdecl.c); 1 when
 * worded. */
static int decl_why(struct sf_err *err, const struct sf_src_why *w)
{
	const char *p = w->path, *n = w->tname;

	switch (w->kind) {
	case SF_SRC_MACRO:
		sf_error_at(err, p, 0, 0, "struct %s: '%s' on line %u is a macro; members that "
			    "come from macros cannot be moved", n, w->text, w->line);
		return 1;
	case SF_SRC_TYPE_DIFFERS:
		sf_error_at(err, p, 0, 0, "struct %s: member '%s' (line %u) is declared '%s' but "
			    "the build's DWARF has '%s%s': the source changed since the build", n,
			    w->name, w->line, w->text, w->name2, w->suffix);
		return 1;
	case SF_SRC_BITFIELD_DIFFERS:
		sf_error_at(err, p, 0, 0, "struct %s: member '%s' (line %u) is %sa bit-field in "
			    "the source but %sin the build's DWARF: the source changed since the "
			    "build", n, w->name, w->line, w->a ? "" : "not ", w->a ? "not " : "");
		return 1;
	case SF_SRC_BITS_DIFFER:
		sf_error_at(err, p, 0, 0, "struct %s: bit-field '%s' (line %u) is %" PRIu64
			    " bits in the source but %" PRIu64 " in the build's DWARF: the source "
			    "changed since the build", n, w->name, w->line, w->a, w->b);
		return 1;
	case SF_SRC_MEMBER_MISSING:
		sf_error_at(err, p, 0, 0, "struct %s: member '%s' of the build's DWARF is not in "
			    "the source (the source changed since the build, or the member comes "
			    "from a macro)", n, w->name[0] ? w->name : "(anonymous)");
		return 1;
	case SF_SRC_NOT_A_MEMBER:
		sf_error_at(err, p, 0, 0, "struct %s: '%s' (line %u) is not a member in the "
			    "build's DWARF: the source changed since the build", n,
			    w->text[0] ? w->text : "?", w->line);
		return 1;
	case SF_SRC_UNNAMED_BITFIELD:
		sf_error_at(err, p, 0, 0, "struct %s: unnamed bit-field on line %u; structfit "
			    "does not rewrite structs with those (the DWARF does not show them)",
			    n, w->line);
		return 1;
	case SF_SRC_DECLARES_OTHER:
		sf_error_at(err, p, 0, 0, "struct %s: line %u declares '%s' where the build's "
			    "DWARF has '%s': the source changed since the build", n, w->line,
			    w->text, w->name);
		return 1;
	case SF_SRC_UNBALANCED:
		sf_error_at(err, p, 0, 0, "struct %s: unbalanced brackets in the declaration on "
			    "line %u", n, w->line);
		return 1;
	case SF_SRC_NOT_A_DECL:
		sf_error_at(err, p, 0, 0, "struct %s: line %u holds something that is not a "
			    "declaration", n, w->line);
		return 1;
	default:
		return 0;
	}
}

/* Why a member cannot be narrowed (layout/srcwhy.h's enum sf_src_narrow). */
static const char *narrow_why(uint64_t why)
{
	switch (why) {
	case SF_SRC_NARROW_WIDTH: return "the new width must be 1, 2, 4 or 8 bytes";
	case SF_SRC_NARROW_BITFIELD: return "it is a bit-field";
	case SF_SRC_NARROW_TYPE: return "only integers, enums, bools and pointers can be narrowed";
	case SF_SRC_NARROW_ARRAY: return "it is an array";
	case SF_SRC_NARROW_NOT_SMALLER: return "the new width is not smaller";
	case SF_SRC_NARROW_ALIGNED: return "it has an explicit alignment";
	}
	assert(!"a narrowing refused for no reason");
	return "?";
}

/* The plan and the rewrite (layout/srcpatch.c); 1 when worded. */
static int plan_why(struct sf_err *err, const struct sf_src_why *w)
{
	const char *p = w->path, *n = w->tname;

	switch (w->kind) {
	case SF_SRC_ASSERT_MOVES:
		sf_error_at(err, p, 0, 0, "struct %s: line %u mixes _Static_assert with members "
			    "that must move", n, w->line);
		return 1;
	case SF_SRC_COMMENT_ENDS:
		sf_error_at(err, p, 0, 0, "struct %s: a comment ends on line %u before a member "
			    "that must move; put it on lines of its own", n, w->line);
		return 1;
	case SF_SRC_NARROW:
		sf_error_at(err, p, 0, 0, "struct %s: cannot narrow '%s' to %" PRIu64 " bytes: %s",
			    n, w->name, w->a, narrow_why(w->b));
		return 1;
	case SF_SRC_BITFIELDS_SPLIT:
		sf_error_at(err, p, 0, 0, "struct %s: the new order separates bit-fields '%s' "
			    "and '%s' that share a storage unit", n, w->name, w->name2);
		return 1;
	case SF_SRC_ORDER_COUNT:
		sf_error_at(err, p, 0, 0, "struct %s: the new order has %" PRIu64 " members, the "
			    "struct %" PRIu64, n, w->a, w->b);
		return 1;
	case SF_SRC_NOT_PERMUTATION:
		sf_error_at(err, p, 0, 0, "struct %s: the new order is not a permutation of the "
			    "members", n);
		return 1;
	case SF_SRC_NO_SUCH_MEMBER:
		sf_error_at(err, p, 0, 0, "struct %s: narrowing of member #%" PRIu64 ", which "
			    "does not exist", n, w->a);
		return 1;
	case SF_SRC_ANONYMOUS:
		sf_error_at(err, p, 0, 0, "an anonymous struct cannot be found in the source");
		return 1;
	case SF_SRC_NOT_C_STRUCT:
		sf_error_at(err, p, 0, 0, "%s %s: patch rewrites C structs only", w->kind_name, n);
		return 1;
	case SF_SRC_CXX_BASES:
		sf_error_at(err, p, 0, 0, "struct %s has C++ bases; patch rewrites C structs "
			    "only", n);
		return 1;
	default:
		return 0;
	}
}

/* The refusal itself, the read-back wrapper aside. */
static void plain_why(struct sf_err *err, const struct sf_type *t, const struct sf_src_why *w)
{
	if (w->kind == SF_SRC_CXX) {
		struct strbuf line = STRBUF_INIT;
		sf_render_patch_cxx(&line, w->path, t, &w->cxx);
		sf_error(err, "%s", line.buf);
		sb_release(&line);
		return;
	}
	if (shape_why(err, w) || decl_why(err, w) || plan_why(err, w))
		return;
	assert(!"a source that was not refused");
	sf_error_at(err, w->path, 0, 0, "struct %s: refused", w->tname);
}

int sf_render_src_why(struct sf_err *err, const struct sf_type *t,
		      const struct sf_src_why *why)
{
	struct sf_err inner = SF_ERR_INIT;

	if (!why->read_back) {
		plain_why(err, t, why);
		return -1;
	}
	plain_why(&inner, t, why);
	return sf_error_at(err, why->path, 0, 0, "struct %s: internal error: the rewritten "
			   "struct does not read back (%s); nothing written", why->tname,
			   inner.msg);
}
