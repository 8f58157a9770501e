/*
 * rustpatch.c - rewrite a Rust struct's fields in its source (rustpatch.h).
 *
 * The body is cut into lines; each field line, with the comment,
 * attribute and blank lines above it, is one group.  The new body is the
 * groups in the plan's order, each field's type replaced where narrowed;
 * every other byte of the file is copied as it is.
 *
 * The NonNull niche is a scan of the whole text instead: the newtype's
 * declaration gets its field type replaced, and every `NAME(` outside a
 * `//` comment and the declaration is a call that builds it, whose
 * argument (to the matching parenthesis) is wrapped in NonNull::new.
 */
#include "rustpatch.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "narrow.h"
#include "lib/xalloc.h"

struct line {
	size_t start, end;	/* end: past the '\n' (or the text's end) */
};

/* One field and the lines above it that go with it. */
struct group {
	size_t first, last;	/* line indexes, last is the field line */
	size_t name, name_len;	/* the field name, in the text */
	size_t type, type_len;	/* its type, in the text */
	size_t rest;		/* past the comma (or the type): what follows */
	bool comma;		/* the line has the trailing comma */
};

static bool is_ident(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

static size_t skip_blank(const char *s, size_t i, size_t end)
{
	while (i < end && (s[i] == ' ' || s[i] == '\t'))
		i++;
	return i;
}

/* Past "pub" or "pub(...)" and the blanks after it (i if none). */
static size_t skip_vis(const char *s, size_t i, size_t end)
{
	if (end - i < 4 || strncmp(s + i, "pub", 3) || is_ident(s[i + 3]))
		return i;
	i += 3;
	if (i < end && s[i] == '(') {
		while (i < end && s[i] != ')' && s[i] != '\n')
			i++;
		if (i >= end || s[i] != ')')
			return i;
		i++;
	}
	return skip_blank(s, i, end);
}

/* Where `[vis] struct NAME` starts the line at i: the offset past NAME. */
static size_t struct_line(const char *s, size_t i, size_t end, const char *name)
{
	size_t n = strlen(name);

	i = skip_vis(s, skip_blank(s, i, end), end);
	if (end - i < 7 || strncmp(s + i, "struct", 6) || (s[i + 6] != ' ' && s[i + 6] != '\t'))
		return 0;
	i = skip_blank(s, i + 6, end);
	if (end - i < n || strncmp(s + i, name, n) || (i + n < end && is_ident(s[i + n])))
		return 0;
	return i + n;
}

static const char *last_segment(const char *name)
{
	const char *p = strrchr(name, ':');

	return p ? p + 1 : name;
}

static size_t split_lines(const char *s, size_t len, struct line **out)
{
	size_t n = 0, cap = 0;

	*out = NULL;
	for (size_t i = 0; i < len;) {
		const char *nl = memchr(s + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - s) + 1 : len;
		SF_GROW(*out, n, cap);
		(*out)[n++] = (struct line){ i, end };
		i = end;
	}
	return n;
}

size_t sf_rustpatch_count(const char *text, size_t len, const char *name)
{
	struct line *ln;
	size_t n = split_lines(text, len, &ln), hits = 0;
	const char *bare = last_segment(name);

	for (size_t i = 0; i < n; i++)
		hits += struct_line(text, ln[i].start, ln[i].end, bare) != 0;
	free(ln);
	return hits;
}

/* The field on line l: name and type, or -1 and why. */
static int parse_field(const char *s, const struct line *l, struct group *g,
		       enum sf_rustpatch_problem *why)
{
	size_t end = l->end, i;

	while (end > l->start && (s[end - 1] == '\n' || s[end - 1] == '\r' ||
				  s[end - 1] == ' ' || s[end - 1] == '\t'))
		end--;
	/* a comment after the field stays on its line, after the comma */
	for (i = l->start; i + 1 < end; i++)
		if (s[i] == '/' && s[i + 1] == '/')
			break;
	if (i + 1 < end) {
		end = i;
		while (end > l->start && (s[end - 1] == ' ' || s[end - 1] == '\t'))
			end--;
	}
	i = skip_vis(s, skip_blank(s, l->start, end), end);
	g->name = i;
	while (i < end && is_ident(s[i]))
		i++;
	g->name_len = i - g->name;
	i = skip_blank(s, i, end);
	if (!g->name_len || i >= end || s[i] != ':') {
		*why = SF_RUSTP_NOT_A_FIELD;
		return -1;
	}
	i = skip_blank(s, i + 1, end);
	g->type = i;
	int depth = 0;
	size_t te = end;
	for (size_t k = i; k < end; k++) {
		char c = s[k];
		if (c == '<' || c == '(' || c == '[')
			depth++;
		else if ((c == '>' || c == ')' || c == ']') && depth > 0)
			depth--;
		else if (c == '{' || c == '}' || c == ';') {
			*why = SF_RUSTP_BRACE_IN_BODY;
			return -1;
		} else if (c == ',' && depth == 0) {
			te = k;
			if (skip_blank(s, k + 1, end) != end) {
				*why = SF_RUSTP_TWO_FIELDS;
				return -1;
			}
			break;
		}
	}
	g->comma = te < end;
	g->rest = g->comma ? te + 1 : te;
	while (te > i && (s[te - 1] == ' ' || s[te - 1] == '\t'))
		te--;
	g->type_len = te - i;
	if (!g->type_len) {
		*why = SF_RUSTP_NO_TYPE;
		return -1;
	}
	return 0;
}

static bool is_aside(const char *s, const struct line *l)
{
	size_t i = skip_blank(s, l->start, l->end);

	return i >= l->end || s[i] == '\n' || s[i] == '\r' ||
	       (l->end - i >= 2 && s[i] == '/' && s[i + 1] == '/') || s[i] == '#';
}

/* The groups of the body lines (open, close); -1 and why on refusal. */
static long body_groups(const char *s, const struct line *ln, size_t open, size_t close,
			struct group **out, enum sf_rustpatch_problem *why)
{
	size_t n = 0, cap = 0, first = open + 1;

	*out = NULL;
	for (size_t k = open + 1; k < close; k++) {
		if (is_aside(s, &ln[k]))
			continue;
		SF_GROW(*out, n, cap);
		struct group *g = &(*out)[n++];
		g->first = first;
		g->last = k;
		if (parse_field(s, &ln[k], g, why) < 0)
			return -1;
		first = k + 1;
	}
	return (long)n;
}

static const struct group *group_named(const char *s, const struct group *g, size_t n,
				       const char *name)
{
	size_t len = strlen(name);

	for (size_t i = 0; i < n; i++)
		if (g[i].name_len == len && !strncmp(s + g[i].name, name, len))
			return &g[i];
	return NULL;
}

/* The index in t->members of group g's field (it has one: checked). */
static uint32_t member_of(const char *s, const struct group *g, const struct sf_type *t)
{
	for (uint32_t i = 0; i < t->nmembers; i++)
		if (strlen(t->members[i].name) == g->name_len &&
		    !strncmp(s + g->name, t->members[i].name, g->name_len))
			return i;
	return t->nmembers;
}

/* The narrowing plan gives member m, or 0. */
static uint32_t narrowed_to(const struct sf_srcpatch_plan *plan, uint32_t m)
{
	for (size_t i = 0; i < plan->nnarrow; i++)
		if (plan->narrow[i].member == m)
			return plan->narrow[i].bytes;
	return 0;
}

/* One group in the new body: its lines, the type replaced if narrowed. */
static void emit_group(struct strbuf *out, const char *s, const struct line *ln,
		       const struct group *g, const struct sf_member *m, uint32_t bytes,
		       const struct sf_patch_words *words)
{
	for (size_t k = g->first; k < g->last; k++)
		sb_add(out, s + ln[k].start, ln[k].end - ln[k].start);
	const struct line *l = &ln[g->last];
	size_t end = l->end;

	while (end > g->rest && (s[end - 1] == '\n' || s[end - 1] == '\r'))
		end--;
	sb_add(out, s + l->start, g->type - l->start);
	if (bytes)
		sb_adds(out, sf_narrow_type_name(m, bytes));
	else
		sb_add(out, s + g->type, g->type_len);
	/* every field ends with a comma: it may not be last any more */
	sb_addch(out, ',');
	sb_add(out, s + g->rest, end - g->rest);
	if (bytes && words) {
		char range[64];
		sf_narrow_range(m, bytes, range, sizeof(range));
		words->rust_narrowed(out, s + g->type, g->type_len, range);
	}
	sb_addch(out, '\n');
}

int sf_rustpatch_make(const char *text, size_t len,
		      const struct sf_type *t, const struct sf_srcpatch_plan *plan,
		      struct strbuf *out, struct sf_rustpatch_refusal *refusal)
{
	const char *bare = last_segment(t->name);
	struct line *ln;
	struct group *g = NULL;
	size_t n = split_lines(text, len, &ln), open = n, close = n;
	enum sf_rustpatch_problem why = 0;
	int rc = -1;

	assert(plan->norder == t->nmembers);
	*refusal = (struct sf_rustpatch_refusal){ 0, false, bare };
	if (sf_rustpatch_count(text, len, t->name) != 1) {
		refusal->code = sf_rustpatch_count(text, len, t->name) ?
				SF_RUSTP_DECLARED_TWICE : SF_RUSTP_DECLARED_NOWHERE;
		goto out;
	}
	for (size_t i = 0; i < n && open == n; i++) {
		size_t p = struct_line(text, ln[i].start, ln[i].end, bare);
		if (!p)
			continue;
		p = skip_blank(text, p, ln[i].end);
		if (p < ln[i].end && text[p] == '(') {
			why = SF_RUSTP_TUPLE;
		} else if (p < ln[i].end && text[p] == '<') {
			why = SF_RUSTP_GENERIC;
		} else if (p >= ln[i].end || text[p] != '{' ||
			   skip_blank(text, p + 1, ln[i].end) < ln[i].end - 1) {
			why = SF_RUSTP_NOT_OPEN_LINE;
		}
		open = i;
	}
	for (size_t i = open + 1; !why && i < n; i++) {
		size_t p = skip_blank(text, ln[i].start, ln[i].end);
		if (p < ln[i].end && text[p] == '}') {
			close = i;
			break;
		}
	}
	if (!why && close == n)
		why = SF_RUSTP_NO_CLOSE;
	long ng = why ? -1 : body_groups(text, ln, open, close, &g, &why);
	if (ng >= 0 && (size_t)ng != t->nmembers)
		why = SF_RUSTP_OTHER_FIELDS;
	for (uint32_t i = 0; !why && i < t->nmembers; i++)
		if (!group_named(text, g, (size_t)ng, t->members[i].name))
			why = SF_RUSTP_OTHER_FIELDS;
	if (why) {
		refusal->code = why;
		goto out;
	}
	sb_add(out, text, ln[open].end);
	for (uint32_t k = 0; k < plan->norder; k++) {
		uint32_t m = plan->order ? plan->order[k] : member_of(text, &g[k], t);
		assert(m < t->nmembers);
		emit_group(out, text, ln, group_named(text, g, (size_t)ng, t->members[m].name),
			   &t->members[m], narrowed_to(plan, m), plan->words);
	}
	/* lines after the last field (comments) stay before the brace */
	size_t tail = g && ng ? g[ng - 1].last + 1 : open + 1;
	sb_add(out, text + ln[tail].start, len - ln[tail].start);
	rc = 0;
out:
	free(ln);
	free(g);
	return rc;
}

/* ------------------------------------------------------------ NonNull */

/* Past the bracket matching the one at i ('(' '[' '{' '<' nest), or 0. */
static size_t past_matching(const char *s, size_t i, size_t end)
{
	int depth = 0;

	for (size_t k = i; k < end; k++) {
		char c = s[k];
		if (c == '(' || c == '[' || c == '{')
			depth++;
		else if (c == ')' || c == ']' || c == '}') {
			if (--depth == 0)
				return k + 1;
			if (depth < 0)
				return 0;
		}
	}
	return 0;
}

/* Does a `//` comment start on s's line before offset i? */
static bool in_line_comment(const char *s, size_t i)
{
	size_t b = i;

	while (b > 0 && s[b - 1] != '\n')
		b--;
	for (size_t k = b; k + 1 < i; k++)
		if (s[k] == '/' && s[k + 1] == '/')
			return true;
	return false;
}

/* Is the name at i the one `struct NAME` declares (not a call)? */
static bool is_declaration(const char *s, size_t i)
{
	while (i > 0 && (s[i - 1] == ' ' || s[i - 1] == '\t'))
		i--;
	return i >= 6 && !strncmp(s + i - 6, "struct", 6) && (i == 6 || !is_ident(s[i - 7]));
}

static size_t line_number(const char *s, size_t i)
{
	size_t n = 1;

	for (size_t k = 0; k < i; k++)
		n += s[k] == '\n';
	return n;
}

/*
 * The declaration `struct NAME(*const T);`: where the pointer type starts
 * and ends, and where T does; 0, or -1 and why.
 */
static int nonnull_decl(const char *s, size_t len, const char *bare, size_t *ty,
			size_t *ty_end, size_t *pointee, enum sf_rustpatch_problem *why)
{
	struct line *ln;
	size_t n = split_lines(s, len, &ln), p = 0, end = 0;

	for (size_t i = 0; i < n && !p; i++)
		if ((p = struct_line(s, ln[i].start, ln[i].end, bare)))
			end = ln[i].end;
	free(ln);
	p = p ? skip_blank(s, p, end) : end;
	if (p >= end || s[p] != '(') {
		*why = SF_RUSTP_NOT_POINTER_TUPLE;
		return -1;
	}
	size_t close = past_matching(s, p, end);
	p = skip_vis(s, skip_blank(s, p + 1, end), end);
	size_t q = p;
	if (close && end - p > 6 && !strncmp(s + p, "*const", 6))
		q = p + 6;
	else if (close && end - p > 4 && !strncmp(s + p, "*mut", 4))
		q = p + 4;
	if (q == p || (s[q] != ' ' && s[q] != '\t')) {
		*why = SF_RUSTP_NOT_RAW_POINTER;
		return -1;
	}
	*ty = p;
	*pointee = skip_blank(s, q, close - 1);
	*ty_end = close - 1;
	while (*ty_end > *pointee && (s[*ty_end - 1] == ' ' || s[*ty_end - 1] == '\t'))
		(*ty_end)--;
	for (size_t k = *pointee; k < *ty_end; k++)
		if (s[k] == ',') {
			*why = SF_RUSTP_TUPLE_OF_MANY;
			return -1;
		}
	if (*ty_end == *pointee || skip_blank(s, close, end) >= end || s[skip_blank(s, close, end)] != ';') {
		*why = SF_RUSTP_NOT_POINTER_TUPLE;
		return -1;
	}
	return 0;
}

long sf_rustpatch_nonnull(const char *text, size_t len, const char *name,
			  const struct sf_patch_words *words, struct strbuf *out,
			  struct strbuf *sites, struct sf_rustpatch_refusal *refusal)
{
	const char *bare = last_segment(name);
	size_t blen = strlen(bare), ty = 0, ty_end = 0, pointee = 0, from = 0;
	enum sf_rustpatch_problem why = 0;
	long nsites = 0;
	struct strbuf where = STRBUF_INIT, neu = STRBUF_INIT;

	*refusal = (struct sf_rustpatch_refusal){ 0, true, bare };
	if (sf_rustpatch_count(text, len, name) != 1)
		why = sf_rustpatch_count(text, len, name) ? SF_RUSTP_DECLARED_TWICE :
							      SF_RUSTP_DECLARED_NOWHERE;
	else
		nonnull_decl(text, len, bare, &ty, &ty_end, &pointee, &why);
	for (size_t i = 0; !why && i + blen < len; i++) {
		if (i == ty) {	/* the field's type */
			sb_add(&neu, text + from, ty - from);
			sb_addf(&neu, "core::ptr::NonNull<%.*s>", (int)(ty_end - pointee),
				text + pointee);
			from = i = ty_end;
			continue;
		}
		if (strncmp(text + i, bare, blen) || (i && is_ident(text[i - 1])) ||
		    in_line_comment(text, i))
			continue;
		size_t open = skip_blank(text, i + blen, len);
		if (open >= len || text[open] != '(' || is_declaration(text, i))
			continue;
		size_t close = past_matching(text, open, len);
		if (!close || skip_blank(text, open + 1, close - 1) == close - 1) {
			why = SF_RUSTP_SITE_NOT_ONE_ARG;
			break;
		}
		sb_add(&neu, text + from, open + 1 - from);
		sb_addf(&neu, "core::ptr::NonNull::new((%.*s) as *mut %.*s).expect(\"",
			(int)(close - 1 - (open + 1)), text + open + 1,
			(int)(ty_end - pointee), text + pointee);
		words->null_expect(&neu, bare);
		sb_adds(&neu, "\")");
		sb_addf(&where, "%s%zu", nsites ? ", " : "", line_number(text, i));
		nsites++;
		from = i = close - 1;
	}
	if (why) {
		sb_release(&neu);
		sb_release(&where);
		refusal->code = why;
		return -1;
	}
	sb_add(&neu, text + from, len - from);
	sb_add(out, neu.buf, neu.len);
	sb_add(sites, where.buf ? where.buf : "", where.len);
	sb_release(&neu);
	sb_release(&where);
	return nsites;
}
