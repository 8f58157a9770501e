/*
 * text.c - one type in pahole 1.24's text format, byte for byte.
 *
 * The layout of the output is pahole's (dwarves_fprintf.c): each member is
 *
 *   TABS TYPE<padded to type_spacing> NAME[:BITS];<spaces>(comment: OFF SIZE)
 *
 * with the offset comment starting at column type_spacing + name_spacing
 * (26 + 23 in a struct, 26 + 21 in a top-level union; a nested anonymous
 * struct/union prints its members with type_spacing 8 less, one tab deeper,
 * and closes with "} NAME;" aligned the same way).  Comments between
 * members ("XXX N bytes hole", bit holes, "Bitfield combined ...", "last
 * struct has N bytes of padding") and the blank lines around them follow
 * pahole's `newline` state machine; the summary comes last.
 *
 * Type spellings: the model holds C spellings; pahole spells types its own
 * way, rebuilt by spelling.c.
 *
 * Nothing is computed here: holes, paddings and nested layouts all come
 * from struct sf_layout.  The only state is the render context (cacheline
 * currently shown, like pahole's cachelinep) on the stack.
 */
#include "report.h"

#include <assert.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lib/checked.h"
#include "lib/color.h"
#include "lib/xalloc.h"
#include "spelling.h"

#define TYPE_SPACING 26
#define NAME_SPACING 23
#define UNION_NAME_SPACING 21   /* pahole's top-level unions */
#define EXPAND_NAME_SPACING 55 /* pahole -E's, structs and unions */
#define NESTED_SHIFT 8
#define MAX_EXPAND_DEPTH 32
#define MAX_FORCE_PADDING_LINES 4096

/* ---- members, comments and the summary -------------------------------- */

struct render {
	struct strbuf *out;
	const struct sf_text_opts *o;
	uint64_t cl;             /* cacheline size */
	uint64_t cacheline;      /* index of the cacheline last announced */
	int name_spacing;
	/* inside a union, at any depth: pahole's conf->union_member is
	 * inherited by nested structs, so their flexible arrays print "[0]" */
	bool in_union;
	/* `typedef struct {...} name;`: its header has no name */
	const struct sf_type *typedef_top;
	/* the qualifiers of the anonymous member whose header is next
	 * ("const " of `const struct { ... };`), said once by header() */
	const char *quals;
	size_t quals_len;
	/* what a member's printed offset is: base + offset (its offset in
	 * the named type being printed, expanded at base by -E), or with
	 * -r, offset - rel (rel: where its container starts) */
	uint64_t base, rel;
	int expand_depth;        /* -E: named types printed inline around */
	/* the next struct closed is a member's anonymous type: pahole
	 * prints the member's name after the type's attributes */
	bool name_last;
};

/* Cursor over a layout's per-member notes, all sorted by member index. */
struct notes {
	const struct sf_layout *l;
	uint32_t hole, bit_hole, padding;
};

static void add_tabs(struct strbuf *sb, int n)
{
	if (n > 16)
		n = 16;     /* pahole's tab string is 16 long */
	if (n > 0)
		sb_addchars(sb, '\t', (size_t)n);
}

static const char *plural(uint64_t n)
{
	return n != 1 ? "s" : "";
}

static uint64_t take_hole(struct notes *n, uint32_t after)
{
	if (n->hole < n->l->nholes && n->l->holes[n->hole].after == after)
		return n->l->holes[n->hole++].size;
	return 0;
}

static uint32_t take_bit_hole(struct notes *n, uint32_t after)
{
	if (n->bit_hole < n->l->nbit_holes &&
	    n->l->bit_holes[n->bit_hole].after == after)
		return n->l->bit_holes[n->bit_hole++].bits;
	return 0;
}

static uint64_t take_padding(struct notes *n, uint32_t member)
{
	if (n->padding < n->l->npaddings &&
	    n->l->paddings[n->padding].member == member)
		return n->l->paddings[n->padding++].padding;
	return 0;
}

/* The offset pahole prints for member m (see struct render). */
static uint64_t shown(const struct render *r, const struct sf_member *m)
{
	return r->o->rel_offset ? m->offset - r->rel : r->base + m->offset;
}

/* pahole's "--- cacheline N boundary (M bytes) ---" before a member. */
static void cacheline_boundary(struct render *r, uint64_t offset, int indent)
{
	uint64_t line = offset / r->cl;
	uint64_t pos = offset % r->cl;

	if (line <= r->cacheline || r->o->quiet)
		return;
	sb_adds(r->out, "/* --- cacheline ");
	sb_addu64(r->out, line, 0);
	sb_adds(r->out, " boundary (");
	sb_addu64(r->out, offset - pos, 0);
	sb_adds(r->out, " bytes) ");
	if (pos) {
		sb_adds(r->out, "was ");
		sb_addu64(r->out, pos, 0);
		sb_adds(r->out, " byte");
		sb_adds(r->out, plural(pos));
		sb_adds(r->out, " ago ");
	}
	sb_adds(r->out, "--- */\n");
	add_tabs(r->out, indent);
	r->cacheline = line;
}

static void render_struct(struct render *r, const struct sf_type *t,
			  const struct sf_layout *l, int indent, int ts,
			  const char *suffix, bool top);
static void render_union(struct render *r, const struct sf_type *t,
			 const struct sf_layout *l, int indent, int ts,
			 const char *suffix);

static const char *bare_type_name(const char *n)
{
	if (!strncmp(n, "struct ", 7))
		return n + 7;
	if (!strncmp(n, "class ", 6))
		return n + 6;
	return n;
}

/* The offset and size comment after the blanks of printf's "%*s" of
 * (spacing, " "): |spacing| of them, one at least. */
static void offset_size_comment(struct strbuf *sb, const struct sf_member *m, uint64_t off,
				int spacing, const struct sf_text_opts *o)
{
	if (o->quiet)
		return;
	sb_addpad(sb, " ", spacing);
	if (o->hex) {	/* pahole's "%#5x" and " %#5x" */
		sb_addf(sb, "/* %#5" PRIx64 " %#5" PRIx64 " */", off, m->size);
		return;
	}
	sb_adds(sb, "/* ");
	sb_addu64(sb, off, 5);
	sb_addch(sb, ' ');
	sb_addu64(sb, m->size, 5);
	sb_adds(sb, " */");
}

static int attr_len_aligned(uint32_t align)
{
	struct strbuf tmp = STRBUF_INIT;
	int len;

	sb_addf(&tmp, " __attribute__((__aligned__(%u)))", align);
	len = (int)tmp.len;
	sb_release(&tmp);
	return len;
}

/*
 * The line(s) of a member whose type is an anonymous struct/union, up to
 * the offset comment.  An array of them ("} arr[2];") is an array to
 * pahole, whose comment column counts everything printed: one blank.
 */
static void render_nested_member(struct render *r, const struct sf_member *m,
				 const struct sf_layout *nl, int indent, int ts,
				 bool flex_ok)
{
	const struct sf_type *nt = m->nested;
	const char *name = m->name && m->name[0] ? m->name : NULL;
	const char *dims = m->type_suffix ? m->type_suffix : "";
	bool pointee = m->flags & SF_MF_POINTEE;
	struct strbuf ptr = STRBUF_INIT;
	const char *after = name;  /* what follows the closing brace */
	/* pahole prints a pointed-to anonymous type as "} * name", one more
	 * step in from its member's type column (and its own offsets) */
	int its = ts - (pointee ? 2 * NESTED_SHIFT : NESTED_SHIFT);
	uint64_t off = shown(r, m), base = r->base, rel = r->rel;

	if (pointee) {
		sb_addf(&ptr, "* %s", name ? name : "");
		after = ptr.buf;
	}
	/* "const struct": a qualified anonymous member says its qualifiers */
	const char *kw = m->type_name ? strrchr(m->type_name, ' ') : NULL;
	if (kw && !pointee) {
		r->quals = m->type_name;
		r->quals_len = (size_t)(kw + 1 - m->type_name);
	}
	/* a pointed-to type's offsets are its own (pahole's rel_offset) */
	r->base = pointee ? 0 : base;
	r->rel = pointee ? 0 : m->offset;
	r->name_last = !pointee && !*dims;
	if (nt->kind == SF_KIND_UNION)
		render_union(r, nt, nl, indent, its, after);
	else
		render_struct(r, nt, nl, indent, its, after, false);
	r->base = base, r->rel = rel, r->name_last = false;
	sb_release(&ptr);
	sf_pahole_dims(r->out, dims, flex_ok);
	bool aligned = (m->flags & SF_MF_ALIGNED) && !r->o->no_aligned;
	if (aligned)
		sb_addf(r->out, " __attribute__((__aligned__(%u)))", m->align);
	sb_addch(r->out, ';');
	if (*dims || pointee) {
		offset_size_comment(r->out, m, off, 1, r->o);
		return;
	}

	/* pahole 1.24 allows for the packed attribute and the member's own
	 * alignment, not for the nested type's alignment */
	int slen = name ? (int)strlen(name) : -1;
	if (nt->kind != SF_KIND_UNION && (nt->flags & SF_TF_PACKED) && !r->o->no_packed)
		slen += (int)sizeof("__attribute__((__packed__))");
	if (aligned)
		slen += attr_len_aligned(m->align);
	offset_size_comment(r->out, m, off, ts + r->name_spacing - slen - 3, r->o);
}

/* The offset comment ending a member line, after `spacing` blanks (one
 * at least, as pahole's "%*s" of " "). */
static void offset_comment(struct strbuf *sb, const struct sf_member *m, uint64_t off,
			   int spacing, const struct sf_text_opts *o)
{
	if (o->quiet)
		return;
	sb_addpad(sb, " ", spacing > 0 ? spacing : 0);
	if (o->hex) {	/* pahole's "%#5x", ":%#2x", " %#*x" */
		sb_addf(sb, "/* %#5" PRIx64, off);
		if (sf_member_is_bitfield(m))
			sb_addf(sb, ":%#2x %#2" PRIx64 " */", m->bit_offset, m->size);
		else
			sb_addf(sb, " %#5" PRIx64 " */", m->size);
		return;
	}
	sb_adds(sb, "/* ");
	sb_addu64(sb, off, 5);
	if (sf_member_is_bitfield(m)) {
		sb_addch(sb, ':');
		sb_addu64(sb, m->bit_offset, 2);
		sb_addch(sb, ' ');
		sb_addu64(sb, m->size, 2);
	} else {
		sb_addch(sb, ' ');
		sb_addu64(sb, m->size, 5);
	}
	sb_adds(sb, " */");
}

/*
 * A member whose type is an anonymous enum, or points to one: pahole's
 * enumeration__fprintf prints the enumerators, names padded to the
 * longest, then "} name;".  A direct enum's comment column is that of a
 * nested type (the name's length counts, not the attributes); behind a
 * pointer or an array it is whatever is left after all that was printed.
 */
/* "enum {" ... "}" of enumerators e (pahole's enumeration__fprintf),
 * and its packed attribute when `packed`. */
static void enum_body(struct render *r, const struct sf_enum *e, const struct sf_member *m,
		      int indent, bool packed)
{
	struct strbuf *sb = r->out;
	int width = 0;

	for (uint32_t k = 0; k < e->n; k++) {
		int len = (int)strlen(e->v[k].name);
		if (len > width)
			width = len;
	}
	sb_adds(sb, "enum {\n");
	for (uint32_t k = 0; k < e->n; k++) {
		add_tabs(sb, indent + 1);
		sb_addf(sb, "%-*s = ", width, e->v[k].name);
		if (r->o->hex)	/* pahole's "%#llx", signed or not */
			sb_addf(sb, "%#" PRIx64 ",\n", e->v[k].value);
		else if (m->flags & SF_MF_SIGNED)
			sb_addf(sb, "%" PRId64 ",\n", (int64_t)e->v[k].value);
		else
			sb_addf(sb, "%" PRIu64 ",\n", e->v[k].value);
	}
	add_tabs(sb, indent);
	sb_addch(sb, '}');
	/* pahole marks an enum that is not int-sized so */
	if (packed)
		sb_adds(sb, " __attribute__((__packed__))");
}

static void render_enum_member(struct render *r, const struct sf_member *m,
			       int indent, int ts, bool flex_ok)
{
	struct strbuf *sb = r->out;
	const char *name = m->name ? m->name : "";
	const char *dims = m->type_suffix ? m->type_suffix : "";
	bool direct = !(m->flags & SF_MF_POINTEE) && !*dims;
	size_t p0 = sb->len;

	enum_body(r, m->enums, m, indent, direct && m->size != 4);
	sb_addf(sb, " %s%s", (m->flags & SF_MF_POINTEE) ? "* " : "", name);
	sf_pahole_dims(sb, dims, flex_ok);
	if (sf_member_is_bitfield(m))
		sb_addf(sb, ":%u", m->bit_size);
	bool aligned = (m->flags & SF_MF_ALIGNED) && !r->o->no_aligned;
	if (aligned)
		sb_addf(sb, " __attribute__((__aligned__(%u)))", m->align);
	sb_addch(sb, ';');

	int spacing;
	if (direct) {
		int slen = (int)strlen(name);
		if (aligned)
			slen += attr_len_aligned(m->align);
		spacing = ts + r->name_spacing - slen - 3;
	} else {
		spacing = ts + r->name_spacing - (int)(sb->len - p0);
	}
	offset_comment(sb, m, shown(r, m), spacing, r->o);
}

/* The leading "const " / "volatile " words of a spelling: their length. */
static size_t qualifiers_len(const char *tn)
{
	size_t n = 0;

	for (;;) {
		if (!strncmp(tn + n, "const ", 6))
			n += 6;
		else if (!strncmp(tn + n, "volatile ", 9))
			n += 9;
		else
			return n;
	}
}

/*
 * The name -E looks a member's type up by: "struct x" of a named struct,
 * union or class held by value (or an array of them), "typedef t" of the
 * anonymous one typedef t names; false when the type is none of these.
 */
static bool expand_key(const struct sf_member *m, const char *tn, const char *dims,
		       struct strbuf *key)
{
	if (m->nested || m->enums || (*dims && *dims != '[') || strpbrk(tn, "*&("))
		return false;
	if (strstr(tn, "{...}")) {
		const char *last = m->tdef ? strrchr(m->tdef->chain, ' ') : NULL;
		if (!m->tdef)
			return false;
		sb_addf(key, "typedef %s", last ? last + 1 : m->tdef->chain);
		return true;
	}
	if (strncmp(tn, "struct ", 7) && strncmp(tn, "union ", 6) && strncmp(tn, "class ", 6))
		return false;
	sb_adds(key, tn);
	return true;
}

/* pahole -E: a member whose type is a typedef of an anonymous enum:
 * "/\* typedef t *\/ enum {...} name;", one blank before its comment. */
static void expand_typedef_enum(struct render *r, const struct sf_member *m, int indent,
				int ts, bool flex_ok)
{
	struct strbuf *sb = r->out;
	const char *dims = m->tdef->type_suffix ? m->tdef->type_suffix : "";
	size_t p0 = sb->len;

	sb_addf(sb, "/* typedef %s */ ", m->tdef->chain);
	enum_body(r, m->tdef->enums, m, indent, !*dims && m->size != 4);
	sb_addf(sb, " %s", m->name ? m->name : "");
	sf_pahole_dims(sb, dims, flex_ok);
	if (sf_member_is_bitfield(m))
		sb_addf(sb, ":%u", m->bit_size);
	if ((m->flags & SF_MF_ALIGNED) && !r->o->no_aligned)
		sb_addf(sb, " __attribute__((__aligned__(%u)))", m->align);
	sb_addch(sb, ';');
	offset_comment(sb, m, shown(r, m), ts + r->name_spacing - (int)(sb->len - p0), r->o);
}

/*
 * pahole -E: a member whose type is a named struct or union (through
 * typedefs, in an array) printed with that type's body inline, its
 * members at their offsets in the outermost type.  pahole's spellings:
 * "}name;" for the type itself, "} name" after a typedef or before an
 * array's dimensions; the offset comment one blank after what was
 * printed when that is longer than the columns (it always is).
 */
static bool expand_member(struct render *r, const struct sf_member *m, int indent,
			  int ts, bool flex_ok)
{
	bool ancestor = m->flags & (SF_MF_BASE | SF_MF_VIRTUAL_BASE);
	const char *tn = m->tdef ? m->tdef->type_name : m->type_name;
	const char *dims = m->tdef ? m->tdef->type_suffix : m->type_suffix;
	struct strbuf key = STRBUF_INIT, *sb = r->out;
	struct sf_layout xl;
	const struct sf_type *xt = NULL;

	if (m->tdef && m->tdef->enums && !m->enums && !m->nested) {
		expand_typedef_enum(r, m, indent, ts, flex_ok);
		return true;
	}
	dims = dims ? dims : "";
	if (tn && r->o->expand_find && r->expand_depth < MAX_EXPAND_DEPTH &&
	    expand_key(m, tn + qualifiers_len(tn), dims, &key))
		xt = r->o->expand_find(r->o->expand_ctx, key.buf, &xl);
	sb_release(&key);
	if (!xt)
		return false;
	size_t p0 = sb->len, qlen = qualifiers_len(tn);
	uint64_t off = shown(r, m), base = r->base, rel = r->rel;
	/* (pahole 1.24 loses a qualified one's name: "} name" is C) */
	const char *suffix = !ancestor && (m->tdef || *dims || qlen) ? m->name : NULL;
	if (ancestor)
		sb_adds(sb, "/* ");
	if (m->tdef)
		sb_addf(sb, "/* typedef %s */ ", m->tdef->chain);
	r->quals = qlen ? tn : NULL, r->quals_len = qlen;
	r->base = off, r->rel = 0, r->expand_depth++;
	if (xt->kind == SF_KIND_UNION)
		render_union(r, xt, &xl, indent, ts - NESTED_SHIFT - (int)qlen, suffix);
	else
		render_struct(r, xt, &xl, indent, ts - NESTED_SHIFT - (int)qlen, suffix, false);
	r->base = base, r->rel = rel, r->expand_depth--;
	sf_layout_release(&xl);
	if (!suffix)
		sb_adds(sb, ancestor ? "<ancestor>" : m->name ? m->name : "");
	sf_pahole_dims(sb, dims, flex_ok);
	if ((m->flags & SF_MF_ALIGNED) && !r->o->no_aligned)
		sb_addf(sb, " __attribute__((__aligned__(%u)))", m->align);
	sb_addch(sb, ';');
	int spacing = ts + r->name_spacing - (int)(sb->len - p0);
	if (ancestor) {	/* the comment's end takes from the spacing */
		sb_adds(sb, " */");
		spacing -= 3;
	}
	offset_comment(sb, m, off, spacing, r->o);
	return true;
}

/* One member line (pahole's class_member__fprintf), no newline. */
static void render_member(struct render *r, const struct sf_type *t,
			  const struct sf_layout *l, uint32_t i, int indent,
			  int ts, bool union_member, bool flex_ok)
{
	const struct sf_member *m = &t->members[i];
	struct strbuf *sb = r->out;
	bool base = m->flags & (SF_MF_BASE | SF_MF_VIRTUAL_BASE);

	cacheline_boundary(r, shown(r, m), indent);
	if (r->o->expand && expand_member(r, m, indent, ts, flex_ok && !union_member))
		return;
	if (m->nested) {
		const struct sf_layout *nl = sf_layout_nested(l, i);
		assert(nl);
		render_nested_member(r, m, nl, indent, ts,
				     flex_ok && !union_member);
		return;
	}
	if (m->enums) {
		render_enum_member(r, m, indent, ts, flex_ok && !union_member);
		return;
	}

	size_t p0 = sb->len;
	struct sf_member plain;
	if (r->o->expand && m->tdef) {	/* pahole -E: the typedefs said */
		sb_addf(sb, "/* typedef %s */ ", m->tdef->chain);
		plain = *m;
		plain.type_name = m->tdef->type_name;
		plain.type_suffix = m->tdef->type_suffix;
		m = &plain;
	}
	if (base)
		sb_adds(sb, "/* ");
	if (t->flags & SF_TF_RUST)	/* rustc's own spelling, as is */
		sb_addf(sb, "%-*s %s", ts, m->type_name ? m->type_name : "",
			m->name ? m->name : "");
	else
		sf_pahole_member_decl(sb, m, base ? "<ancestor>" : (m->name ? m->name : ""), ts,
			    flex_ok && !union_member);
	if (sf_member_is_bitfield(m)) {
		sb_addch(sb, ':');
		sb_addu64(sb, m->bit_size, 0);
	}
	if ((m->flags & SF_MF_ALIGNED) && !r->o->no_aligned)
		sb_addf(sb, " __attribute__((__aligned__(%u)))", m->align);
	sb_addch(sb, ';');

	int spacing = ts + r->name_spacing - (int)(sb->len - p0);
	if (base) {
		sb_adds(sb, " */");
		spacing -= 3;
	}
	offset_comment(sb, m, shown(r, m), spacing, r->o);
}

/* pahole's blank-line discipline: one blank line before a comment run. */
static void open_comment(struct strbuf *sb, int *newline)
{
	if (!(*newline)++)
		sb_addch(sb, '\n');
}

static void hole_comments(struct render *r, struct notes *n, uint32_t i,
			  int indent, int *newline, uint32_t *bit_hole)
{
	uint64_t pad = take_padding(n, i);
	uint32_t bits = take_bit_hole(n, i);
	uint64_t bytes = take_hole(n, i);

	*bit_hole = bits;	/* -q keeps the unnamed bit-field it gives */
	if (r->o->quiet)
		return;
	if (pad) {
		open_comment(r->out, newline);
		sb_addch(r->out, '\n');
		add_tabs(r->out, indent);
		sb_addf(r->out, "/* XXX last struct has %" PRIu64
			" byte%s of padding */", pad, plural(pad));
	}
	if (bits) {
		open_comment(r->out, newline);
		sb_addch(r->out, '\n');
		add_tabs(r->out, indent);
		sb_addf(r->out, "/* XXX %u bit%s hole, try to pack */", bits,
			plural(bits));
	}
	if (bytes) {
		open_comment(r->out, newline);
		sb_addch(r->out, '\n');
		add_tabs(r->out, indent);
		sb_adds(r->out, "/* XXX ");
		sb_addu64(r->out, bytes, 0);
		sb_adds(r->out, " byte");
		sb_adds(r->out, plural(bytes));
		sb_adds(r->out, " hole, try to pack */");
	}
}

/*
 * What pahole prints between two members: an unnamed bit-field standing
 * for a bit hole, and the "Bitfield combined" notes.
 */
static void between_members(struct render *r, const struct sf_member *lm,
			    uint32_t last_bit_hole, const struct sf_member *m,
			    uint64_t last_size, int indent, int ts,
			    int *newline)
{
	struct strbuf *sb = r->out;

	if (last_size == 0)
		return;   /* zero-size markers: pahole stays quiet */
	if (last_bit_hole && sf_member_is_bitfield(m)) {
		unsigned bits = (uint8_t)last_bit_hole;
		if (lm->offset != m->offset) {
			sb_addch(sb, '\n');
			add_tabs(sb, indent);
			sb_adds(sb, "/* Force alignment to the next boundary: */\n");
			bits = 0;
		}
		add_tabs(sb, indent);
		sf_pahole_member_decl(sb, m, "", ts, false);
		sb_addf(sb, ":%u;\n", bits);
	}
	if (r->o->quiet)
		return;
	if (m->offset < lm->offset ||
	    (m->offset == lm->offset && !sf_member_is_bitfield(lm) &&
	     sf_member_is_bitfield(m))) {
		open_comment(sb, newline);
		add_tabs(sb, indent);
		sb_adds(sb, "/* Bitfield combined with previous fields */\n");
	} else if (m->offset > lm->offset && m->offset - lm->offset < last_size) {
		open_comment(sb, newline);
		add_tabs(sb, indent);
		sb_adds(sb, "/* Bitfield combined with next fields */\n");
	}
}

static bool is_power_of_2(uint64_t n)
{
	return n && !(n & (n - 1));
}

/*
 * pahole's "Force padding:" block: trailing padding larger than a pointer
 * after a member of power-of-2 size, shown as unnamed bit-fields.  Never
 * for BTF: BTF drops aligned attributes, so such padding is as likely an
 * attribute's as the compiler's, and pahole -F btf prints none (1.24, on
 * `pahole -J` objects and the kernel's kmem_cache_cpu; tests/e2e/btf.sh).
 */
static void force_padding(struct render *r, const struct sf_type *t,
			  const struct sf_layout *l, const struct sf_member *lm,
			  int indent, int ts)
{
	unsigned addr = t->addr_size ? t->addr_size : 8;

	if (!l->padding || (t->flags & (SF_TF_ALIGNED | SF_TF_RUST | SF_TF_BTF)) ||
	    !lm || r->o->no_force_padding ||
	    !is_power_of_2(lm->size) || l->padding <= addr)
		return;
	/* real padding is below the alignment; more lines than this only
	 * come from a corrupt size, where pahole would print for ever */
	if (l->padding / lm->size > MAX_FORCE_PADDING_LINES)
		return;
	sb_addch(r->out, '\n');
	add_tabs(r->out, indent);
	sb_adds(r->out, "/* Force padding: */\n");
	/* counted in lines: `added += size` wrapped past 2^64 for ever when a
	 * corrupt 2^63-byte member left 2^64 - 9 bytes of padding */
	uint64_t lines = sf_div_ceil(l->padding, lm->size);
	for (uint64_t k = 0; k < lines; k++) {
		struct sf_member plain = *lm;
		plain.bit_size = 0;
		add_tabs(r->out, indent);
		sf_pahole_member_decl(r->out, &plain, "", ts, false);
		sb_addf(r->out, ":%" PRIu64 ";\n", lm->size * 8);
	}
}

static void summary(struct render *r, const struct sf_layout *l, int indent,
		    bool rust)
{
	struct strbuf *sb = r->out;

	sb_addch(sb, '\n');
	add_tabs(sb, indent);
	sb_adds(sb, "/* size: ");
	sb_addu64(sb, l->size, 0);
	sb_adds(sb, ", cachelines: ");
	sb_addu64(sb, l->cachelines, 0);
	sb_adds(sb, ", members: ");
	sb_addu64(sb, l->members, 0);
	sb_adds(sb, " */\n");
	if (l->sum_holes || l->sum_bit_holes) {
		if (l->sum_members) {
			add_tabs(sb, indent);
			sb_adds(sb, "/* sum members: ");
			sb_addu64(sb, l->sum_members, 0);
			if (l->sum_holes) {
				sb_adds(sb, ", holes: ");
				sb_addu64(sb, l->nholes, 0);
				sb_adds(sb, ", sum holes: ");
				sb_addu64(sb, l->sum_holes, 0);
			}
			sb_adds(sb, " */\n");
		}
		if (l->sum_bitfield_bits) {
			add_tabs(sb, indent);
			sb_addf(sb, "/* sum bitfield members: %" PRIu64 " bits",
				l->sum_bitfield_bits);
			if (l->sum_bit_holes)
				sb_addf(sb, ", bit holes: %u, sum bit holes: %"
					PRIu64 " bits", l->nbit_holes,
					l->sum_bit_holes);
			else
				sb_addf(sb, " (%" PRIu64 " bytes)",
					l->sum_bitfield_bits / 8);
			sb_adds(sb, " */\n");
		}
	}
	if (l->padding) {
		add_tabs(sb, indent);
		sb_addf(sb, "/* padding: %" PRIu64 " */\n", l->padding);
	}
	if (l->npaddings) {
		add_tabs(sb, indent);
		sb_addf(sb, "/* paddings: %u, sum paddings: %" PRIu64 " */\n",
			l->npaddings, l->sum_paddings);
	}
	if (l->bit_padding) {
		add_tabs(sb, indent);
		sb_addf(sb, "/* bit_padding: %u bits */\n", l->bit_padding);
	}
	if (l->nforced_alignments && !r->o->no_aligned) {
		add_tabs(sb, indent);
		sb_addf(sb, "/* forced alignments: %u", l->nforced_alignments);
		if (l->nforced_holes)
			sb_addf(sb, ", forced holes: %u, sum forced holes: %"
				PRIu64, l->nforced_holes, l->sum_forced_holes);
		sb_adds(sb, " */\n");
	}
	/* C keeps pahole's text byte for byte: JSON and `holes` say it */
	if (l->forced_padding && rust) {
		add_tabs(sb, indent);
		sb_addf(sb, "/* structfit: %" PRIu64 " byte%s of padding asked for "
			"by the alignment, not waste */\n", l->forced_padding,
			plural(l->forced_padding));
	}
	if (l->size % r->cl) {
		add_tabs(sb, indent);
		sb_adds(sb, "/* last cacheline: ");
		sb_addu64(sb, l->size % r->cl, 0);
		sb_adds(sb, " bytes */\n");
	}
}

static const char *kind_word(const struct sf_type *t)
{
	switch (t->kind) {
	case SF_KIND_UNION:
		return "union";
	case SF_KIND_CLASS:
		return "class";
	default:
		return "struct";
	}
}

/* "struct NAME : Base, virtual Other {", or "typedef struct {" */
static void header(struct render *r, const struct sf_type *t)
{
	struct strbuf *sb = r->out;
	bool first = true;

	if (t == r->typedef_top)
		sb_adds(sb, "typedef ");
	sb_add(sb, r->quals ? r->quals : "", r->quals_len);
	r->quals = NULL, r->quals_len = 0;
	sb_adds(sb, kind_word(t));
	/* a typedef's anonymous struct: its name is not a tag */
	if (t->name && t->name[0] && !(t->flags & SF_TF_TYPEDEF))
		sb_addf(sb, " %s", t->name);
	for (uint32_t i = 0; i < t->nmembers; i++) {
		const struct sf_member *m = &t->members[i];
		if (!(m->flags & (SF_MF_BASE | SF_MF_VIRTUAL_BASE)))
			continue;
		sb_adds(sb, first ? " :" : ",");
		first = false;
		if (m->flags & SF_MF_VIRTUAL_BASE)
			sb_adds(sb, " virtual");
		sb_addf(sb, " %s", bare_type_name(m->type_name ? m->type_name : ""));
	}
	sb_adds(sb, " {\n");
}

/* structfit's own notes, inside the braces so pahole diffs stay small. */
static void structfit_notes(struct render *r, const struct sf_type *t,
			    int indent)
{
	if (r->o->pahole_only)
		return;
	if (t->flags & SF_TF_VARIANT) {
		add_tabs(r->out, indent);
		sb_adds(r->out, "/* structfit: one of several differing "
			"definitions of this name */\n");
	}
	if (t->flags & SF_TF_INCOMPLETE) {
		add_tabs(r->out, indent);
		sb_adds(r->out, "/* structfit: incomplete: a base or member "
			"type is only declared, its size is unknown */\n");
	}
	if (r->o && r->o->show_origin && t->origin && t->origin[0]) {
		add_tabs(r->out, indent);
		sb_addf(r->out, "/* structfit: from %s */\n", t->origin);
	}
}

/* pahole 1.24: "} __attribute__((__packed__)) name __attribute__((__aligned__(N)))",
 * the name of an anonymous member's (name_last) after both */
static void closing_attributes(struct strbuf *sb, const struct sf_type *t,
			       const char *suffix, const struct sf_text_opts *o, bool name_last)
{
	bool packed = t->flags & SF_TF_PACKED;

	if (packed && !o->no_packed)
		sb_adds(sb, " __attribute__((__packed__))");
	if (suffix && !name_last)
		sb_addf(sb, " %s", suffix);
	if ((t->flags & SF_TF_ALIGNED) && t->align && !packed && !o->no_aligned)
		sb_addf(sb, " __attribute__((__aligned__(%u)))", t->align);
	if (suffix && name_last)
		sb_addf(sb, " %s", suffix);
}

/* A struct or class body (pahole's __class__fprintf), up to its "}". */
static void render_struct(struct render *r, const struct sf_type *t,
			  const struct sf_layout *l, int indent, int ts,
			  const char *suffix, bool top)
{
	struct strbuf *sb = r->out;
	struct notes n = { .l = l };
	int inner = indent + 1, newline = 0;
	const struct sf_member *lm = NULL;
	uint64_t last_size = 0;
	uint32_t last_bit_hole = 0, pre;
	bool name_last = r->name_last;

	r->name_last = false;	/* the closing below is this type's */
	header(r, t);
	if ((pre = take_bit_hole(&n, SF_NO_MEMBER)) && !r->o->quiet) {
		open_comment(sb, &newline);
		add_tabs(sb, inner);
		sb_addf(sb, "/* XXX %u bit%s hole, try to pack */\n", pre,
			plural(pre));
	}
	uint64_t pre_bytes = take_hole(&n, SF_NO_MEMBER);
	if (pre_bytes && !r->o->quiet) {
		open_comment(sb, &newline);
		add_tabs(sb, inner);
		sb_addf(sb, "/* XXX %" PRIu64 " byte%s hole, try to pack */\n",
			pre_bytes, plural(pre_bytes));
	}

	for (uint32_t i = 0; i < t->nmembers; i++) {
		const struct sf_member *m = &t->members[i];
		bool inherit = m->flags & (SF_MF_BASE | SF_MF_VIRTUAL_BASE);
		uint32_t bit_hole;

		if (lm && !inherit)
			between_members(r, lm, last_bit_hole, m, last_size,
					inner, ts, &newline);
		if (newline) {
			sb_addch(sb, '\n');
			newline = 0;
		}
		add_tabs(sb, inner);
		render_member(r, t, l, i, inner, ts, r->in_union,
			      i + 1 == t->nmembers && lm != NULL);
		hole_comments(r, &n, i, inner, &newline, &bit_hole);
		sb_addch(sb, '\n');
		if (inherit)
			continue;   /* pahole's `last` skips ancestors */
		if (!lm || last_size == 0 || lm->offset != m->offset ||
		    (!sf_member_is_bitfield(lm) && sf_member_is_bitfield(m)))
			last_size = m->size;
		lm = m;
		last_bit_hole = bit_hole;
	}
	force_padding(r, t, l, lm, inner, ts);
	if (top && !r->o->quiet)
		summary(r, l, inner, t->flags & SF_TF_RUST);
	if (top) {
		structfit_notes(r, t, inner);
	}
	add_tabs(sb, indent);
	sb_addch(sb, '}');
	closing_attributes(sb, t, suffix, r->o, name_last);
}

/* A union body (pahole's union__fprintf): members, no holes, no summary. */
static void render_union(struct render *r, const struct sf_type *t,
			 const struct sf_layout *l, int indent, int ts,
			 const char *suffix)
{
	uint64_t start_line = r->cacheline;
	bool was_in_union = r->in_union;

	r->in_union = true;
	r->name_last = false;	/* a union prints no aligned attribute */
	header(r, t);
	for (uint32_t i = 0; i < t->nmembers; i++) {
		add_tabs(r->out, indent + 1);
		render_member(r, t, l, i, indent + 1, ts, true, false);
		sb_addch(r->out, '\n');
		/* every member starts over from the union's cacheline */
		r->cacheline = start_line;
	}
	r->in_union = was_in_union;
	if (indent == 0)
		structfit_notes(r, t, indent + 1);
	add_tabs(r->out, indent);
	sb_addch(r->out, '}');
	if (suffix)
		sb_addf(r->out, " %s", suffix);
}

/* One variant of an enum, as the struct it is in memory. */
static void render_variant(struct render *r, const struct sf_type *t, uint32_t k,
			   const struct sf_layout *common, int indent, int ts)
{
	const struct sf_variant *v = &t->variants[k];
	const struct sf_type *vt = &common->variants[k].type;
	const struct sf_layout *vl = &common->variants[k].layout;
	uint64_t own = sf_layout_waste(vl) >= sf_layout_waste(common)
		     ? sf_layout_waste(vl) - sf_layout_waste(common) : 0;
	sb_addch(r->out, '\n');
	add_tabs(r->out, indent);
	sb_addf(r->out, "/* variant %s", *v->name ? v->name : "(unnamed)");
	if (v->has_discr_value)
		sb_addf(r->out, " (discriminant %" PRIu64 ")", v->discr_value);
	else if (t->nvariants > 1)
		sb_adds(r->out, " (any other discriminant)");
	sb_addf(r->out, ": %" PRIu64 " byte%s unused, %" PRIu64 " its own */\n",
		sf_layout_waste(vl), plural(sf_layout_waste(vl)), own);
	add_tabs(r->out, indent);
	r->cacheline = 0;
	render_struct(r, vt, vl, indent, ts, NULL, false);
	sb_adds(r->out, ";\n");
}

/*
 * An enum with data: its discriminant, then each variant as the struct
 * it is in memory (discriminant included, unless a niche), then the
 * summary of the bytes no variant uses.
 */
static void render_enum(struct render *r, const struct sf_type *t,
			const struct sf_layout *l)
{
	struct strbuf *sb = r->out;
	bool niche = t->flags & SF_TF_NICHE;

	sb_addf(sb, "enum %s {\n", t->name && *t->name ? t->name : "{...}");
	for (uint32_t i = 0; i < t->nmembers; i++) {
		add_tabs(sb, 1);
		render_member(r, t, l, i, 1, TYPE_SPACING, false, false);
		if (niche && (t->members[i].flags & SF_MF_DISCR))
			sb_adds(sb, " /* niche: inside a variant's field */");
		sb_addch(sb, '\n');
	}
	for (uint32_t k = 0; k < t->nvariants; k++)
		render_variant(r, t, k, l, 1, TYPE_SPACING - NESTED_SHIFT);
	summary(r, l, 1, true);
	add_tabs(sb, 1);
	sb_addf(sb, "/* variants: %u, unused by every variant: %" PRIu64 "%s */\n",
		t->nvariants, sf_layout_waste(l),
		niche ? ", niche-encoded discriminant" : "");
	structfit_notes(r, t, 1);
	sb_addch(sb, '}');
	closing_attributes(sb, t, NULL, r->o, false);
}

void sf_render_text_type(struct strbuf *out, const struct sf_type *t,
			 const struct sf_layout *l,
			 const struct sf_text_opts *o)
{
	static const struct sf_text_opts none;
	struct render r = {
		.out = out,
		.o = o ? o : &none,
		.cl = l->cacheline ? l->cacheline : 64,
		.name_spacing = o && o->expand ? EXPAND_NAME_SPACING
			      : t->kind == SF_KIND_UNION ? UNION_NAME_SPACING : NAME_SPACING,
	};

	const char *suffix = NULL;

	assert(l->size == t->size);
	assert(!o || !o->cacheline || o->cacheline == l->cacheline);
	if ((t->flags & SF_TF_TYPEDEF) && t->name && t->name[0]) {
		r.typedef_top = t;       /* as `pahole -C NAME` prints it */
		suffix = t->name;
	}
	/* pahole's tag__fprintf_decl_info; "(null)" is its word for no file */
	if (r.o->decl_info)
		sb_addf(out, "/* Used at: %s */\n/* <%" PRIx64 "> %s:%u */\n",
			t->unit_name ? t->unit_name : "", t->die_offset,
			t->decl_file && *t->decl_file ? t->decl_file : "(null)", t->decl_line);
	if (t->nvariants)
		render_enum(&r, t, l);
	else if (t->kind == SF_KIND_UNION)
		render_union(&r, t, l, 0, TYPE_SPACING, suffix);
	else
		render_struct(&r, t, l, 0, TYPE_SPACING, suffix, true);
	sb_adds(out, ";\n");
}

/*
 * Colour is applied to finished lines, so the plain text stays the one
 * source of truth: stripping the SGR codes gives back exactly the
 * uncoloured output (habits.sh checks this).
 */
static enum sf_color_role line_role(const char *line, size_t n)
{
	const char *p = line;

	while (p < line + n && *p == '\t')
		p++;
	size_t rest = (size_t)(line + n - p);
	if (p == line && rest && (!strncmp(p, "struct ", 7) || !strncmp(p, "union ", 6) ||
				  !strncmp(p, "class ", 6) || !strncmp(p, "typedef ", 8)))
		return SF_C_TYPE_NAME;
	if (rest < 3 || strncmp(p, "/* ", 3))
		return SF_C_PLAIN;
	if (memmem(p, rest, "bits hole", 9) || memmem(p, rest, "bit hole,", 9))
		return SF_C_BIT_HOLE;
	if (memmem(p, rest, "XXX", 3))
		return SF_C_HOLE;
	if (memmem(p, rest, "--- cacheline", 13))
		return SF_C_CACHELINE;
	if (!strncmp(p, "/* padding:", 11) || !strncmp(p, "/* bit_padding:", 15))
		return SF_C_PADDING;
	if (!strncmp(p, "/* structfit:", 13))
		return SF_C_WARN;
	return SF_C_SUMMARY;
}

/* Where the trailing offset comment of a member line starts. */
static size_t offset_comment_start(const char *line, size_t n)
{
	if (n < 4 || line[n - 1] != '/' || line[n - 2] != '*')
		return n;
	for (size_t i = n - 2; i-- > 0;)
		if (line[i] == '/' && line[i + 1] == '*')
			return i;
	return n;
}

void sf_render_text_colorize(struct strbuf *out, const char *text, size_t len,
			     bool on)
{
	const char *end = text + len;

	if (!on) {
		sb_add(out, text, len);
		return;
	}
	while (text < end) {
		const char *nl = memchr(text, '\n', (size_t)(end - text));
		size_t n = nl ? (size_t)(nl - text) : (size_t)(end - text);
		enum sf_color_role role = line_role(text, n);

		if (role != SF_C_PLAIN) {
			sb_adds(out, sf_color_code(true, role));
			sb_add(out, text, n);
			sb_adds(out, sf_color_reset(true));
		} else {
			size_t c = offset_comment_start(text, n);
			sb_add(out, text, c);
			if (c < n) {
				sb_adds(out, sf_color_code(true, SF_C_OFFSET));
				sb_add(out, text + c, n - c);
				sb_adds(out, sf_color_reset(true));
			}
		}
		if (nl)
			sb_addch(out, '\n');
		text += n + (nl != NULL);
	}
}
