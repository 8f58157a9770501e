/*
 * spelling.c - member declarations spelt as pahole 1.24 spells them, for
 * report/text.c.
 *
 * The model holds C spellings ("const char *", "void (*" + ")(int)");
 * pahole spells types its own way ("const char  *": a qualified type is
 * printed with a trailing blank, and a pointer adds " *" to its pointee's
 * spelling, so "char **" is "char * *").  A simple spelling is parsed into
 * levels, the base then one per pointer or reference, each with its words:
 *
 *   struct spelling { lv[0] = {0, "const" "char"} | lv[1] = {'*'} | ... }
 *
 * and printed back the pahole way; a function pointer ("RET (*" + ")(ARGS)")
 * is parsed into its parts (struct fnptr) and each parameter respelt.
 * Anything else is printed as the model has it.
 */
#include "spelling.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define MAX_WORDS 16
#define MAX_LEVELS 16

/* One level of a simple C spelling: the base, or a pointer/reference. */
struct level {
	char op;                        /* 0 for the base, '*' or '&' */
	const char *words[MAX_WORDS];   /* base words or qualifiers after op */
	size_t lens[MAX_WORDS];
	unsigned nwords;
};

struct spelling {
	struct level lv[MAX_LEVELS];
	unsigned nlv;
};

static bool is_qualifier(const char *w, size_t n)
{
	return (n == 5 && !memcmp(w, "const", 5)) ||
	       (n == 8 && !memcmp(w, "volatile", 8)) ||
	       (n == 8 && !memcmp(w, "restrict", 8)) ||
	       (n == 7 && !memcmp(w, "_Atomic", 7));
}

/* Does c end a word (strchr's set " \t*&()[]," and its NUL)? */
static bool ends_word(char c)
{
	switch (c) {
	case ' ': case '\t': case '*': case '&': case '(': case ')':
	case '[': case ']': case ',': case '\0':
		return true;
	default:
		return false;
	}
}

/* Split "const char *const *" into levels; false if it is not simple.
 * Only a level's op and nwords are set (a spelling is 4 KiB: zeroing it
 * for every member was most of the report's memset). */
static bool parse_simple(const char *s, size_t n, struct spelling *sp)
{
	struct level *cur;

	sp->nlv = 1;
	cur = &sp->lv[0];
	cur->op = 0;
	cur->nwords = 0;
	if (n == 0)
		return false;
	for (size_t i = 0; i < n;) {
		char c = s[i];
		if (c == ' ' || c == '\t') {
			i++;
		} else if (c == '*' || c == '&') {
			if (sp->nlv == MAX_LEVELS)
				return false;
			cur = &sp->lv[sp->nlv++];
			cur->op = c;
			cur->nwords = 0;
			i++;
		} else if (c == '(' || c == ')' || c == '[' || c == ']' ||
			   c == ',') {
			return false;
		} else {
			size_t j = i;
			while (j < n && !ends_word(s[j]))
				j++;
			if (cur->nwords == MAX_WORDS)
				return false;
			cur->words[cur->nwords] = s + i;
			cur->lens[cur->nwords++] = j - i;
			i = j;
		}
	}
	return true;
}

/* The base name: the non-qualifier words of level 0, or "void". */
static void add_base_name(struct strbuf *sb, const struct level *lv)
{
	bool any = false;

	for (unsigned i = 0; i < lv->nwords; i++) {
		if (is_qualifier(lv->words[i], lv->lens[i]))
			continue;
		if (any)
			sb_addch(sb, ' ');
		sb_add(sb, lv->words[i], lv->lens[i]);
		any = true;
	}
	if (!any)
		sb_adds(sb, "void");
}

/* Is add_base_name's spelling of lv "void"?  No non-qualifier word, or
 * just the one "void" (two words or more are joined by a blank). */
static bool level_is_void(const struct level *lv)
{
	unsigned named = 0, last = 0;

	for (unsigned i = 0; i < lv->nwords; i++) {
		if (!is_qualifier(lv->words[i], lv->lens[i])) {
			named++;
			last = i;
		}
	}
	return named == 0 ||
	       (named == 1 && lv->lens[last] == 4 && !memcmp(lv->words[last], "void", 4));
}

/* Qualifiers of a level, as indexes into words[], skipping `skip`. */
static unsigned qualifiers(const struct level *lv, unsigned *idx,
			   int skip_const)
{
	unsigned n = 0;

	for (unsigned i = 0; i < lv->nwords; i++) {
		if (!is_qualifier(lv->words[i], lv->lens[i]))
			continue;
		if (skip_const && lv->lens[i] == 5 &&
		    !memcmp(lv->words[i], "const", 5)) {
			skip_const = 0;
			continue;
		}
		idx[n++] = i;
	}
	return n;
}

static bool is_const_word(const struct level *lv, unsigned i)
{
	return lv->lens[i] == 5 && !memcmp(lv->words[i], "const", 5);
}

/*
 * Qualifiers are taken outermost first, as the model spells them (DWARF
 * order): pahole's shortcuts look at the outermost one only.
 */
static bool outermost_is_const(const struct level *lv)
{
	unsigned idx[MAX_WORDS];

	return qualifiers(lv, idx, 0) > 0 && is_const_word(lv, idx[0]);
}

static bool only_const(const struct level *lv)
{
	unsigned idx[MAX_WORDS];

	return qualifiers(lv, idx, 0) == 1 && is_const_word(lv, idx[0]);
}

static void spell_level(struct strbuf *sb, const struct spelling *sp,
			unsigned k, int skip_const);

/*
 * pahole's __tag__name() of level k without its own qualifiers: the base
 * name, "void *" for a void pointer, "T * const *" when the pointee is a
 * const pointer, else the pointee's spelling + " *".
 */
static void spell_unqualified(struct strbuf *sb, const struct spelling *sp,
			      unsigned k)
{
	const struct level *lv = &sp->lv[k];

	if (k == 0) {
		add_base_name(sb, lv);
		return;
	}
	const struct level *pointee = &sp->lv[k - 1];
	unsigned idx[MAX_WORDS];
	if (k == 1 && level_is_void(pointee) &&
	    qualifiers(pointee, idx, 0) == 0) {
		sb_adds(sb, "void ");
	} else if (k >= 2 && only_const(pointee)) {
		spell_level(sb, sp, k - 1, 1);
		sb_adds(sb, " const ");
	} else {
		spell_level(sb, sp, k - 1, 0);
		sb_addch(sb, ' ');
	}
	sb_addch(sb, lv->op);
}

/* Level k with its qualifiers: "const T " wraps, "T restrict " too. */
static void spell_level(struct strbuf *sb, const struct spelling *sp,
			unsigned k, int skip_const)
{
	const struct level *lv = &sp->lv[k];
	unsigned idx[MAX_WORDS];
	unsigned nq = qualifiers(lv, idx, skip_const);

	for (unsigned q = 0; q < nq; q++) {
		const char *w = lv->words[idx[q]];
		if (lv->lens[idx[q]] == 8 && !memcmp(w, "restrict", 8))
			continue;
		sb_add(sb, w, lv->lens[idx[q]]);
		sb_addch(sb, ' ');
	}
	spell_unqualified(sb, sp, k);
	for (unsigned q = nq; q-- > 0;) {
		const char *w = lv->words[idx[q]];
		if (lv->lens[idx[q]] == 8 && !memcmp(w, "restrict", 8))
			sb_adds(sb, " restrict ");
		else
			sb_addch(sb, ' ');
	}
}

/* A type as pahole names it inside other types (tag__name). */
static void pahole_name_n(struct strbuf *sb, const char *s, size_t n);

/* "RET (*" + ")(ARGS)" split into its parts; false if not that shape. */
struct fnptr {
	const char *ret;
	size_t ret_len;
	unsigned stars;
	bool is_const;          /* "(*const": the pointer itself is const */
	const char *dims;       /* "[4]" of an array of function pointers */
	size_t dims_len;
	const char *rest;       /* "(int)" parameters, or "[10]" */
	size_t rest_len;
};

static void trim(const char **s, size_t *n)
{
	while (*n && (**s == ' ' || **s == '\t')) {
		(*s)++;
		(*n)--;
	}
	while (*n && ((*s)[*n - 1] == ' ' || (*s)[*n - 1] == '\t'))
		(*n)--;
}

static bool parse_fnptr(const char *name, size_t nlen, const char *suffix,
			size_t slen, struct fnptr *f)
{
	const char *paren = memchr(name, '(', nlen);

	memset(f, 0, sizeof(*f));
	if (!paren)
		return false;
	f->ret = name;
	f->ret_len = (size_t)(paren - name);
	trim(&f->ret, &f->ret_len);
	for (const char *p = paren + 1; p < name + nlen; p++) {
		if (*p == '*')
			f->stars++;
		else if (!strncmp(p, "const", 5))
			f->is_const = true, p += 4;
		else if (*p != ' ')
			return false;
	}
	if (!f->stars)
		return false;
	const char *s = suffix ? suffix : "";
	const char *close = memchr(s, ')', slen);
	if (!close)
		return false;
	f->dims = s;
	f->dims_len = (size_t)(close - s);
	f->rest = close + 1;
	f->rest_len = slen - (size_t)(f->rest - s);
	trim(&f->rest, &f->rest_len);
	return true;
}

/* "(int, const char *)" with each parameter in pahole's spelling. */
static void pahole_params(struct strbuf *sb, const char *s, size_t n)
{
	trim(&s, &n);
	if (n < 2 || s[0] != '(' || s[n - 1] != ')') {
		sb_add(sb, s, n);
		return;
	}
	sb_addch(sb, '(');
	size_t start = 1;
	int depth = 0;
	for (size_t i = 1; i < n; i++) {
		char c = s[i];
		if (c == '(' || c == '[')
			depth++;
		else if ((c == ')' || c == ']') && depth > 0)
			depth--;
		else if ((c == ',' && depth == 0) || i == n - 1) {
			const char *p = s + start;
			size_t len = i - start;
			trim(&p, &len);
			if (start > 1)
				sb_adds(sb, ", ");
			pahole_name_n(sb, p, len);
			start = i + 1;
		}
	}
	sb_addch(sb, ')');
}

/* pahole's spelling of a function pointer type with no name. */
static void pahole_fnptr_name(struct strbuf *sb, const struct fnptr *f)
{
	if (f->rest_len && f->rest[0] == '[') {
		/* pointer to array: pahole shows a pointer to the element */
		pahole_name_n(sb, f->ret, f->ret_len);
		for (unsigned i = 0; i < f->stars; i++)
			sb_adds(sb, " *");
		return;
	}
	/* a parameter "void (*)(int)"; deeper pointers are pointers to the
	 * function type "int ()(void)": "int ()(void) * *" */
	pahole_name_n(sb, f->ret, f->ret_len);
	sb_adds(sb, f->stars == 1 ? " (*)" : " ()");
	pahole_params(sb, f->rest, f->rest_len);
	for (unsigned i = 0; f->stars > 1 && i < f->stars; i++)
		sb_adds(sb, " *");
}

static void pahole_name_n(struct strbuf *sb, const char *s, size_t n)
{
	struct spelling sp;
	struct fnptr f;
	const char *paren = memchr(s, '(', n);

	if (paren) {
		/* "void (*)(int)" as a parameter: split at the ")" */
		const char *close = memchr(paren, ')', n - (size_t)(paren - s));
		if (close && parse_fnptr(s, (size_t)(close - s), close,
					 n - (size_t)(close - s), &f)) {
			pahole_fnptr_name(sb, &f);
			return;
		}
		sb_add(sb, s, n);
		return;
	}
	if (n == 3 && !memcmp(s, "...", 3)) {
		sb_adds(sb, "...");
		return;
	}
	if (!parse_simple(s, n, &sp)) {
		sb_add(sb, s, n);
		return;
	}
	spell_level(sb, &sp, sp.nlv - 1, 0);
}

/* Blanks after what sb got since p0, up to |width| bytes in all (printf's
 * "%-*s"). */
static void pad_since(struct strbuf *sb, size_t p0, int width)
{
	size_t w = width < 0 ? (size_t)-(long long)width : (size_t)width;

	if (w > sb->len - p0)
		sb_addchars(sb, ' ', w - (sb->len - p0));
}

/* " NAME[dims]" after a declaration's type. */
static void name_dims(struct strbuf *sb, const char *name, const char *dims)
{
	sb_addch(sb, ' ');
	sb_adds(sb, name);
	sb_adds(sb, dims);
}

/*
 * The member declaration as pahole's type__fprintf() prints it: TYPE
 * padded to `spacing`, a blank, then NAME (which may carry an array or
 * function suffix).  A top-level const is printed first and shortens the
 * padding, as pahole does.
 */
static void pahole_decl(struct strbuf *sb, const char *type_name,
			const char *name, const char *dims, int spacing)
{
	struct spelling sp;
	size_t n = strlen(type_name);

	if (!parse_simple(type_name, n, &sp)) {
		sb_addpad(sb, type_name, spacing);
		name_dims(sb, name, dims);
		return;
	}
	struct level *top = &sp.lv[sp.nlv - 1];
	bool cnst = outermost_is_const(top);
	if (cnst) {
		sb_adds(sb, "const ");
		spacing -= 6;
	}
	/* spelt in place, then padded: printf's "%-*s" of the spelling */
	size_t p0 = sb->len;
	if (sp.nlv == 1 && !cnst) {
		/* a plain base: "struct foo", "volatile int " */
		spell_level(sb, &sp, 0, 0);
		/* pahole's "struct %-*s" of (spacing - 7): deep in -E's
		 * nesting that width is negative, printf's left-justified */
		size_t kw = !strncmp(sb->buf + p0, "struct ", 7) ? 7
			  : !strncmp(sb->buf + p0, "union ", 6) ? 6
			  : !strncmp(sb->buf + p0, "enum ", 5) ? 5 : 0;
		if (kw && spacing - (int)kw < 0)
			spacing = -((int)kw - spacing + (int)kw);
	} else {
		spell_level(sb, &sp, sp.nlv - 1, cnst);
	}
	pad_since(sb, p0, spacing);
	name_dims(sb, name, dims);
}

/* A function pointer member: "RET (*name)(ARGS)" or "RET ()(ARGS) * *". */
static void pahole_fnptr_decl(struct strbuf *sb, const struct fnptr *f,
			      const char *name, int spacing)
{
	struct strbuf t = STRBUF_INIT;
	struct strbuf dims = STRBUF_INIT;

	sb_add(&dims, f->dims, f->dims_len);
	if (f->stars > 1 || (f->rest_len && f->rest[0] == '[')) {
		pahole_fnptr_name(&t, f);
		sb_addf(sb, "%-*s %s%s", spacing, t.buf, name, dims.buf);
	} else {
		if (f->is_const) {
			sb_adds(sb, "const ");
			spacing -= 6;
		}
		pahole_name_n(&t, f->ret, f->ret_len);
		sb_addf(sb, "%-*s (*%s)", spacing, t.buf, name);
		pahole_params(sb, f->rest, f->rest_len);
		sb_add(sb, dims.buf, dims.len);
	}
	sb_release(&t);
	sb_release(&dims);
}

static bool is_zero_dim(const char *p)
{
	return !strncmp(p, "[]", 2) || !strncmp(p, "[0]", 3);
}

/*
 * Array dimensions as pahole prints them: a zero-length dimension is "[]"
 * on the last member of a struct with more than one member, else "[0]".
 */
void sf_pahole_dims(struct strbuf *sb, const char *suffix, bool flex_ok)
{
	for (const char *p = suffix; *p;) {
		if (is_zero_dim(p)) {
			sb_adds(sb, flex_ok ? "[]" : "[0]");
			p += p[1] == ']' ? 2 : 3;
		} else {
			sb_addch(sb, *p++);
		}
	}
}

/* TYPE NAME[dims] of one member, in pahole's spelling and spacing. */
void sf_pahole_member_decl(struct strbuf *sb, const struct sf_member *m,
			   const char *name, int ts, bool flex_ok)
{
	const char *type = m->type_name ? m->type_name : "";
	const char *suffix = m->type_suffix ? m->type_suffix : "";
	struct fnptr f;

	if (parse_fnptr(type, strlen(type), suffix, strlen(suffix), &f)) {
		pahole_fnptr_decl(sb, &f, name, ts);
		return;
	}
	struct strbuf dims = STRBUF_INIT;
	sf_pahole_dims(&dims, suffix, flex_ok);
	/* pahole 1.24 drops the const of a zero-length array's element
	 * when it is said once (clang: `char iname[]` for `const char
	 * iname[]`); said as the source has it here (show.sh) */
	pahole_decl(sb, type, name, dims.buf, ts);
	sb_release(&dims);
}
