/*
 * srcscan.c - code that depends on a struct's member order, and generated
 * files (see srcscan.h).
 *
 * One pass over the code tokens of a lexed file.  At each mention of the
 * type (`struct TAG`, or a typedef name not after `struct`, `.` or `->`):
 *
 *   - after `(` it may be a compound literal: `( [quals] T [ [..] ] ) {`;
 *   - otherwise it starts a declaration, read to its `;`: each declarator
 *     that is not a pointer or a function and is followed by `= {` has
 *     its initializer checked - for a struct, its top-level elements (all
 *     designated, `{0}` or `{}`: safe); for an array (one level per `[`),
 *     each element, after its `[i] =` designator.
 *
 * offsetof(...) and static_assert(...) are checked for a mention in their
 * arguments; a static_assert is reported once even when it holds an
 * offsetof.
 *
 * At the end, the choice of the file to patch among the definitions a
 * tree holds (sf_srcdefs_truth): pure rules over the list input/srctree.c
 * found, a verdict that report/patch.c words.
 */
#include "srcscan.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"

#define NONE SF_CLEX_NONE

/* ---------------------------------------------------------------- names */

void sf_typenames_release(struct sf_typenames *tn)
{
	for (size_t i = 0; i < tn->nplain; i++)
		free(tn->plain[i]);
	for (size_t i = 0; i < tn->ntags; i++)
		free(tn->tags[i]);
	free(tn->plain);
	free(tn->tags);
	tn->plain = tn->tags = NULL;
	tn->nplain = tn->cap = tn->ntags = tn->tcap = 0;
}

static int in_list(char *const *v, size_t n, const char *w, size_t len)
{
	for (size_t i = 0; i < n; i++)
		if (strlen(v[i]) == len && !memcmp(v[i], w, len))
			return 1;
	return 0;
}

/* Whether the value of a macro, blanks aside, is exactly `want` ("struct" and a name: one blank). */
static int value_is(const char *v, const char *want)
{
	while (*v == ' ' || *v == '\t')
		v++;
	while (*want) {
		if (*want == ' ') {
			if (*v != ' ' && *v != '\t')
				return 0;
			while (*v == ' ' || *v == '\t')
				v++;
			want++;
			continue;
		}
		if (*v++ != *want++)
			return 0;
	}
	while (*v == ' ' || *v == '\t')
		v++;
	return !*v;
}

/* Whether value v names the type: its tag (or a tag macro), struct TAG, or a plain name. */
static int names_type(const char *v, const struct sf_typenames *tn, int *is_tag)
{
	char buf[300];

	*is_tag = 0;
	if (tn->tag) {
		snprintf(buf, sizeof(buf), "struct %s", tn->tag);
		if (value_is(v, buf))
			return 1;
		if (value_is(v, tn->tag))
			return *is_tag = 1;
	}
	for (size_t i = 0; i < tn->ntags; i++)
		if (value_is(v, tn->tags[i]))
			return *is_tag = 1;
	for (size_t i = 0; i < tn->nplain; i++)
		if (value_is(v, tn->plain[i]))
			return 1;
	return 0;
}

void sf_srcscan_macro_names(const struct sf_cmacros *ms, struct sf_typenames *tn)
{
	/* a few rounds: a macro may name another one */
	for (int round = 0; round < 4; round++) {
		size_t before = tn->ntags + tn->nplain;
		for (size_t i = 0; i < ms->n; i++) {
			const char *name = ms->v[i].name;
			size_t len = strlen(name);
			int is_tag;
			if (in_list(tn->tags, tn->ntags, name, len) ||
			    in_list(tn->plain, tn->nplain, name, len) ||
			    !names_type(ms->v[i].value, tn, &is_tag))
				continue;
			if (is_tag) {
				SF_GROW(tn->tags, tn->ntags, tn->tcap);
				tn->tags[tn->ntags++] = sf_xstrdup(name);
			} else {
				SF_GROW(tn->plain, tn->nplain, tn->cap);
				tn->plain[tn->nplain++] = sf_xstrdup(name);
			}
		}
		if (tn->ntags + tn->nplain == before)
			break;
	}
}

static int is_plain_name(const struct sf_lexed *lx, size_t ci,
			 const struct sf_typenames *tn)
{
	if (!ct_ident(lx, ci))
		return 0;
	for (size_t i = 0; i < tn->nplain; i++)
		if (ct_is(lx, ci, tn->plain[i]))
			return 1;
	return 0;
}

static void add_plain(struct sf_typenames *tn, const struct sf_lexed *lx,
		      size_t ci)
{
	char buf[256];

	if (is_plain_name(lx, ci, tn))
		return;
	SF_GROW(tn->plain, tn->nplain, tn->cap);
	tn->plain[tn->nplain++] = sf_xstrdup(sf_clex_text(lx, ci, buf, sizeof(buf)));
}

void sf_typenames_add(struct sf_typenames *tn, const char *name)
{
	for (size_t i = 0; i < tn->nplain; i++)
		if (!strcmp(tn->plain[i], name))
			return;
	SF_GROW(tn->plain, tn->nplain, tn->cap);
	tn->plain[tn->nplain++] = sf_xstrdup(name);
}

/* The code index of the bracket closing the one at ci, or NONE. */
static size_t closer(const struct sf_lexed *lx, size_t ci)
{
	size_t depth = 0;

	for (size_t j = ci; j < lx->ncode; j++) {
		const struct sf_tok *t = ct(lx, j);
		char p = t->kind == TK_PUNCT ? lx->text[t->start] : 0;
		if (p == '(' || p == '[' || p == '{')
			depth++;
		else if ((p == ')' || p == ']' || p == '}') && --depth == 0)
			return j;
	}
	return NONE;
}

/* The declarator names of a typedef from ci (after its type) to `;`. */
static void typedef_names(const struct sf_lexed *lx, size_t ci,
			  struct sf_typenames *tn)
{
	int ptr = 0;
	size_t name = NONE;

	for (; ci < lx->ncode; ci++) {
		if (ct_punct(lx, ci, '*')) {
			ptr = 1;
		} else if (ct_punct(lx, ci, '(') || ct_punct(lx, ci, '[')) {
			size_t c = closer(lx, ci);
			if (c == NONE)
				return;
			if (ct_punct(lx, ci, '('))
				ptr = 1;   /* a function or attribute: not the struct */
			ci = c;
		} else if (ct_ident(lx, ci) && !sf_clex_is_qualifier(lx, ci)) {
			name = ci;
		} else if (ct_punct(lx, ci, ',') || ct_punct(lx, ci, ';')) {
			if (name != NONE && !ptr)
				add_plain(tn, lx, name);
			if (ct_punct(lx, ci, ';'))
				return;
			ptr = 0;
			name = NONE;
		} else {
			return;
		}
	}
}

void sf_srcscan_typedefs(const struct sf_lexed *lx, const char *name,
			 struct sf_typenames *tn)
{
	for (size_t ci = 0; ci + 2 < lx->ncode; ci++) {
		if (!ct_is(lx, ci, "typedef"))
			continue;
		size_t k = ci + 1;
		while (k < lx->ncode && sf_clex_is_qualifier(lx, k))
			k++;
		if (is_plain_name(lx, k, tn)) {          /* typedef T U; */
			typedef_names(lx, k + 1, tn);
			continue;
		}
		if (!ct_is(lx, k, "struct"))
			continue;
		k = sf_clex_skip_attributes(lx, k + 1, lx->ncode);
		int tagged = tn->tag && ct_is(lx, k, tn->tag);
		if (tagged)
			k = sf_clex_skip_attributes(lx, k + 1, lx->ncode);
		else if (ct_ident(lx, k))
			continue;                        /* another struct */
		if (ct_punct(lx, k, '{')) {
			size_t c = closer(lx, k);
			if (c == NONE)
				continue;
			k = sf_clex_skip_attributes(lx, c + 1, lx->ncode);
		} else if (!tagged) {
			continue;
		}
		if (tagged) {
			typedef_names(lx, k, tn);
		} else if (ct_is(lx, k, name)) {
			add_plain(tn, lx, k);            /* typedef struct {...} name; */
		}
	}
}

/* ------------------------------------------------------------- mentions */

static int is_tag_macro(const struct sf_lexed *lx, size_t ci,
			const struct sf_typenames *tn)
{
	for (size_t i = 0; i < tn->ntags; i++)
		if (ct_is(lx, ci, tn->tags[i]))
			return 1;
	return 0;
}

/* Whether a mention of the type starts at ci; *end one past it. */
static int mention_at(const struct sf_lexed *lx, size_t ci,
		      const struct sf_typenames *tn, size_t *end)
{
	if (ct_is(lx, ci, "struct") && ct_ident(lx, ci + 1) &&
	    ((tn->tag && ct_is(lx, ci + 1, tn->tag)) || is_tag_macro(lx, ci + 1, tn))) {
		*end = ci + 2;
		return 1;
	}
	if (!is_plain_name(lx, ci, tn))
		return 0;
	if (ci > 0 && (ct_is(lx, ci - 1, "struct") || ct_is(lx, ci - 1, "union") ||
		       ct_is(lx, ci - 1, "enum") || ct_punct(lx, ci - 1, '.') ||
		       ct_punct(lx, ci - 1, '>')))
		return 0;
	*end = ci + 1;
	return 1;
}

static int mentions(const struct sf_lexed *lx, size_t a, size_t b,
		    const struct sf_typenames *tn)
{
	size_t end;

	for (size_t ci = a; ci < b; ci++)
		if (mention_at(lx, ci, tn, &end))
			return 1;
	return 0;
}

static void add_use(struct sf_use **v, size_t *n, uint32_t line, uint8_t kind,
		    uint32_t count, const char *what)
{
	struct sf_use *u;

	*v = sf_xreallocarray(*v, *n + 1, sizeof(**v));
	u = &(*v)[(*n)++];
	memset(u, 0, sizeof(*u));
	u->line = line;
	u->kind = kind;
	u->count = count;
	snprintf(u->what, sizeof(u->what), "%s", what ? what : "");
}

/* --------------------------------------------------------- initializers */

/* The next element of the list closing at close, from *pos; 0 at the end. */
static int next_element(const struct sf_lexed *lx, size_t *pos, size_t close,
			size_t *a, size_t *b)
{
	size_t j = *pos;

	while (j < close) {
		*a = j;
		while (j < close && !ct_punct(lx, j, ',')) {
			if (ct_punct(lx, j, '(') || ct_punct(lx, j, '[') || ct_punct(lx, j, '{')) {
				size_t c = closer(lx, j);
				j = c == NONE || c > close ? close : c + 1;
			} else {
				j++;
			}
		}
		*b = j;
		*pos = j < close ? j + 1 : close;
		if (*b > *a)
			return 1;
		j = *pos;   /* an empty element: a trailing comma */
	}
	return 0;
}

static int is_zero(const struct sf_lexed *lx, size_t a, size_t b)
{
	return b == a + 1 && ct_is(lx, a, "0");
}

/* Positional elements of the struct initializer {...} at open: 0 when safe. */
static uint32_t struct_positional(const struct sf_lexed *lx, size_t open,
				  size_t close)
{
	size_t pos = open + 1, a, b;
	uint32_t n = 0, positional = 0;
	int zero = 0;

	while (next_element(lx, &pos, close, &a, &b)) {
		n++;
		zero = is_zero(lx, a, b);
		if (ct_punct(lx, a, '.') || (ct_ident(lx, a) && ct_punct(lx, a + 1, ':')))
			continue;    /* .member = / GNU member: */
		positional++;
	}
	return n == 1 && zero ? 0 : positional;
}

struct init_found {
	uint32_t positional;     /* entries initialized by position */
	uint32_t macros;         /* entries made by a macro */
	size_t macro_ci;         /* the first such macro */
};

/* The array initializer {...} at open, `dims` levels deep. */
static void array_init(const struct sf_lexed *lx, size_t open, size_t close,
		       unsigned dims, struct init_found *f)
{
	size_t pos = open + 1, a, b;
	uint32_t n = 0;

	while (next_element(lx, &pos, close, &a, &b)) {
		n++;
		if (ct_punct(lx, a, '[')) {          /* [i] = element */
			size_t c = closer(lx, a);
			if (c == NONE || c + 1 >= b)
				continue;
			a = ct_punct(lx, c + 1, '=') ? c + 2 : c + 1;
		}
		if (ct_punct(lx, a, '{')) {
			size_t c = closer(lx, a);
			if (c == NONE)
				continue;
			if (dims > 1)
				array_init(lx, a, c, dims - 1, f);
			else if (struct_positional(lx, a, c))
				f->positional++;
		} else if (ct_ident(lx, a) && ct_punct(lx, a + 1, '(')) {
			if (!f->macros++)
				f->macro_ci = a;
		} else if (!(n == 1 && is_zero(lx, a, b) && pos >= close)) {
			f->positional++;                 /* braces elided */
		}
	}
}

/* Report what the initializer at open (of `name`, `dims` array levels) holds. */
static void check_init(const struct sf_lexed *lx, size_t open, unsigned dims,
		       size_t name, uint8_t kind, struct sf_use **v, size_t *n)
{
	size_t close = closer(lx, open);
	struct init_found f = { 0, 0, NONE };
	char what[64] = "", mac[64];

	if (close == NONE)
		return;
	if (dims)
		array_init(lx, open, close, dims, &f);
	else
		f.positional = struct_positional(lx, open, close) ? 1 : 0;
	if (name != NONE)
		sf_clex_text(lx, name, what, sizeof(what));
	if (f.positional)
		add_use(v, n, ct_line(lx, name != NONE ? name : open), kind,
			f.positional, what);
	if (f.macros)
		add_use(v, n, ct_line(lx, f.macro_ci), SF_USE_MACRO, f.macros,
			sf_clex_text(lx, f.macro_ci, mac, sizeof(mac)));
}

/* ------------------------------------------------------------ declarations */

struct declarator {
	size_t name;
	unsigned dims;
	int not_object;          /* a pointer or a function */
};

/* A declaration of the type from ci to its `;`: its initializers. */
static void scan_declaration(struct sf_lexed *lx, size_t ci, uint8_t kind,
			     struct sf_use **v, size_t *n)
{
	struct declarator d = { NONE, 0, 0 };

	if (ct_punct(lx, ci, '{')) {                 /* struct T {...} x = ... */
		size_t c = closer(lx, ci);
		if (c == NONE)
			return;
		ci = c + 1;
	}
	for (; ci < lx->ncode; ci++) {
		if (ct_punct(lx, ci, '*')) {
			d.not_object = 1;
		} else if (ct_punct(lx, ci, '[') || ct_punct(lx, ci, '(')) {
			size_t c = closer(lx, ci);
			if (c == NONE)
				return;
			if (ct_punct(lx, ci, '['))
				d.dims++;
			else if (!(ci > 0 && ct_ident(lx, ci - 1) &&
				   sf_clex_is_attribute(lx->text + ct(lx, ci - 1)->start,
							ct(lx, ci - 1)->end - ct(lx, ci - 1)->start)))
				d.not_object = 1;
			ci = c;
		} else if (ct_ident(lx, ci)) {
			if (!sf_clex_is_qualifier(lx, ci) && !d.dims)
				d.name = ci;
		} else if (ct_punct(lx, ci, '=')) {
			if (!ct_punct(lx, ci + 1, '{'))
				continue;
			if (!d.not_object)
				check_init(lx, ci + 1, d.dims, d.name, kind, v, n);
			size_t c = closer(lx, ci + 1);
			if (c == NONE)
				return;
			ci = c;
		} else if (ct_punct(lx, ci, '{') && d.name != NONE && d.name + 1 == ci) {
			/* C++'s `T x{1, 2}`: the same by position */
			if (!d.not_object)
				check_init(lx, ci, d.dims, d.name, kind, v, n);
			size_t c = closer(lx, ci);
			if (c == NONE)
				return;
			ci = c;
		} else if (ct_punct(lx, ci, ',')) {
			d = (struct declarator){ NONE, 0, 0 };
		} else {
			return;      /* `;`, a body, or a closer: the end */
		}
	}
}

/* `( [quals] T [...] ) {`: a compound literal at open (the `(`). */
static void scan_literal(const struct sf_lexed *lx, size_t end, uint8_t kind,
			 struct sf_use **v, size_t *n)
{
	unsigned dims = 0;

	while (ct_punct(lx, end, '[')) {
		size_t c = closer(lx, end);
		if (c == NONE)
			return;
		dims++;
		end = c + 1;
	}
	if (ct_punct(lx, end, ')') && ct_punct(lx, end + 1, '{'))
		check_init(lx, end + 1, dims, NONE, kind, v, n);
}

/* offsetof/static_assert at ci mentioning the type: reported; *next past it. */
static int scan_macro_use(struct sf_lexed *lx, size_t ci,
			  const struct sf_typenames *tn, const char *what,
			  struct sf_use **v, size_t *n, size_t *next)
{
	int is_off = ct_is(lx, ci, "offsetof") || ct_is(lx, ci, "__builtin_offsetof");
	int is_sa = ct_is(lx, ci, "_Static_assert") || ct_is(lx, ci, "static_assert");
	size_t c;

	if ((!is_off && !is_sa) || !ct_punct(lx, ci + 1, '(') ||
	    (c = closer(lx, ci + 1)) == NONE)
		return 0;
	size_t end = c;
	if (is_off)
		for (size_t j = ci + 2; j < c; j++)
			if (ct_punct(lx, j, ',')) {
				end = j;
				break;
			}
	if (!mentions(lx, ci + 2, end, tn))
		return 0;
	add_use(v, n, ct_line(lx, ci), is_off ? SF_USE_OFFSETOF : SF_USE_STATIC_ASSERT,
		1, what);
	*next = c;
	return 1;
}

/*
 * Every mention of the type tn names: its initializers (positional ones
 * reported as pos/lit), offsetof and static_assert (with `what`).
 */
static void scan_mentions(struct sf_lexed *lx, const struct sf_typenames *tn,
			  uint8_t pos, uint8_t lit, const char *what,
			  struct sf_use **v, size_t *n)
{
	for (size_t ci = 0; ci < lx->ncode; ci++) {
		size_t end, next;
		if (scan_macro_use(lx, ci, tn, what, v, n, &next)) {
			ci = next;
			continue;
		}
		if (!mention_at(lx, ci, tn, &end))
			continue;
		size_t b = ci;
		while (b > 0 && sf_clex_is_qualifier(lx, b - 1))
			b--;
		if (b > 0 && ct_punct(lx, b - 1, '('))
			scan_literal(lx, end, lit, v, n);
		else
			scan_declaration(lx, end, pos, v, n);
	}
}

void sf_srcscan_uses(struct sf_lexed *lx, const struct sf_typenames *tn,
		     struct sf_use **v, size_t *n)
{
	scan_mentions(lx, tn, SF_USE_POSITIONAL, SF_USE_LITERAL, "", v, n);
}

/* ------------------------------------------------------------- holders */

void sf_holders_release(struct sf_holders *h)
{
	sf_typenames_release(&h->names);
	for (size_t i = 0; i < h->nmembers; i++)
		free(h->members[i]);
	free(h->members);
	h->members = NULL;
	h->nmembers = h->cap = 0;
}

/* The members declaration [first, semi) declares of the type by value. */
static int add_members(const struct sf_lexed *lx, size_t first, size_t semi,
		       const struct sf_typenames *tn, struct sf_holders *h)
{
	size_t end, name = NONE;
	int ptr = 0, found = 0;
	char buf[128];

	if (!mention_at(lx, first, tn, &end))
		return 0;
	for (size_t ci = end; ci <= semi; ci++) {
		if (ci == semi || ct_punct(lx, ci, ',')) {
			if (name != NONE && !ptr &&
			    !in_list(h->members, h->nmembers, lx->text + ct(lx, name)->start,
				     ct(lx, name)->end - ct(lx, name)->start)) {
				SF_GROW(h->members, h->nmembers, h->cap);
				h->members[h->nmembers++] =
					sf_xstrdup(sf_clex_text(lx, name, buf, sizeof(buf)));
			}
			found |= name != NONE && !ptr;
			name = NONE;
			ptr = 0;
		} else if (ct_punct(lx, ci, '*') || ct_punct(lx, ci, '(')) {
			ptr = 1;     /* a pointer or a function: not the struct itself */
		} else if (ct_punct(lx, ci, '[') || ct_punct(lx, ci, ':')) {
			size_t c = ct_punct(lx, ci, '[') ? closer(lx, ci) : NONE;
			if (c == NONE)
				ci = semi - 1;
			else
				ci = c;
		} else if (ct_ident(lx, ci) && !sf_clex_is_qualifier(lx, ci) && name == NONE) {
			name = ci;
		}
	}
	return found;
}

/* The name a struct defined at ci ({ at open, } at close) goes by: its tag or typedef. */
static void add_holder(const struct sf_lexed *lx, size_t ci, size_t open, size_t close,
		       struct sf_holders *h)
{
	char buf[128];

	if (ct_ident(lx, ci + 1) && ci + 1 < open) {
		sf_clex_text(lx, ci + 1, buf, sizeof(buf));
		if (!in_list(h->names.tags, h->names.ntags, buf, strlen(buf))) {
			SF_GROW(h->names.tags, h->names.ntags, h->names.tcap);
			h->names.tags[h->names.ntags++] = sf_xstrdup(buf);
		}
	} else if (ci > 0 && ct_is(lx, ci - 1, "typedef") && ct_ident(lx, close + 1)) {
		add_plain(&h->names, lx, close + 1);
	}
}

void sf_srcscan_holders(const struct sf_lexed *lx, const struct sf_typenames *tn,
			struct sf_holders *h)
{
	for (size_t ci = 0; ci + 1 < lx->ncode; ci++) {
		if (!ct_is(lx, ci, "struct"))
			continue;
		size_t open = ct_punct(lx, ci + 1, '{') ? ci + 1 :
			      ct_ident(lx, ci + 1) && ct_punct(lx, ci + 2, '{') ? ci + 2 : NONE;
		size_t close = open != NONE ? closer(lx, open) : NONE;
		if (close == NONE)
			continue;
		int holds = 0;
		for (size_t first = open + 1, k = open + 1; k < close; k++) {
			if (ct_punct(lx, k, '{') || ct_punct(lx, k, '(') || ct_punct(lx, k, '[')) {
				size_t c = closer(lx, k);
				k = c == NONE || c > close ? close - 1 : c;
				continue;
			}
			if (!ct_punct(lx, k, ';'))
				continue;
			holds |= add_members(lx, first, k, tn, h);
			first = k + 1;
		}
		if (holds)
			add_holder(lx, ci, open, close, h);
	}
}

/* `.NAME = {` for a member NAME of the type: its braces by position. */
static void scan_member_inits(const struct sf_lexed *lx, const struct sf_holders *h,
			      struct sf_use **v, size_t *n)
{
	for (size_t ci = 0; ci + 3 < lx->ncode; ci++) {
		if (!ct_punct(lx, ci, '.') || !ct_ident(lx, ci + 1) ||
		    !ct_punct(lx, ci + 2, '=') || !ct_punct(lx, ci + 3, '{'))
			continue;
		const struct sf_tok *t = ct(lx, ci + 1);
		if (!in_list(h->members, h->nmembers, lx->text + t->start, t->end - t->start))
			continue;
		size_t open = ci + 3, close = closer(lx, open);
		struct init_found f = { 0, 0, NONE };
		char what[64];
		if (close == NONE)
			continue;
		if (ct_punct(lx, open + 1, '{'))
			array_init(lx, open, close, 1, &f);
		else
			f.positional = struct_positional(lx, open, close) ? 1 : 0;
		if (f.positional)
			add_use(v, n, ct_line(lx, ci), SF_USE_MEMBER, f.positional,
				sf_clex_text(lx, ci + 1, what, sizeof(what)));
	}
}

void sf_srcscan_holder_uses(struct sf_lexed *lx, const struct sf_holders *h,
			    struct sf_use **v, size_t *n)
{
	if (!h->names.ntags && !h->names.nplain)
		return;
	scan_mentions(lx, &h->names, SF_USE_HOLDER, SF_USE_HOLDER, "holder", v, n);
	scan_member_inits(lx, h, v, n);
}

/* ---------------------------------------------------------------- banners */

/* Whether phrase p (lower case) occurs in s[0..n), case-insensitively. */
static int has_phrase(const char *s, size_t n, const char *p)
{
	size_t m = strlen(p);

	for (size_t i = 0; i + m <= n; i++) {
		size_t k = 0;
		while (k < m && tolower((unsigned char)s[i + k]) == p[k])
			k++;
		if (k == m)
			return 1;
	}
	return 0;
}

int sf_srcscan_banner(const struct sf_lexed *lx, uint32_t *line, char *phrase,
		      size_t phrasesz)
{
	static const char *const phrases[] = {
		"do not edit", "generated by", "automatically generated",
		"auto-generated", "autogenerated", "generated automatically",
		"this file is generated", "was generated", "generated from",
		"generated file", "amalgamation", NULL
	};
	uint32_t last = lx->nlines < 20 ? lx->nlines : 20;
	size_t limit = lx->line_start[last + 1];

	for (size_t i = 0; i < lx->ntok && lx->tok[i].line <= last; i++) {
		const struct sf_tok *t = &lx->tok[i];
		if (t->kind != TK_COMMENT)
			continue;
		size_t e = t->end < limit ? t->end : limit;
		for (const char *const *p = phrases; *p; p++)
			if (has_phrase(lx->text + t->start, e - t->start, *p)) {
				*line = t->line;
				snprintf(phrase, phrasesz, "%s", *p);
				return 1;
			}
	}
	return 0;
}

/* ---------------------------------------------------- the file to patch */

const char *sf_srcscan_build_dir(const char *rel, char *buf, size_t bufsz)
{
	static const char *const names[] = {
		"build", "bld", "_build", "builddir", "objdir", "obj", NULL
	};
	const char *s = rel;

	for (const char *slash; (slash = strchr(s, '/')); s = slash + 1) {
		size_t n = (size_t)(slash - s);
		int hit = sf_clex_word_in(s, n, names) ||
			  (n > 6 && (!strncmp(s, "build-", 6) || !strncmp(s, "build_", 6))) ||
			  (n > 12 && !strncmp(s, "cmake-build-", 12));
		if (hit) {
			snprintf(buf, bufsz, "%.*s/", (int)(slash - rel), rel);
			return buf;
		}
	}
	return NULL;
}

int sf_use_breaks(const struct sf_use *u, int moves)
{
	return u->kind == SF_USE_OFFSETOF || u->kind == SF_USE_STATIC_ASSERT || moves;
}

static int is_template(const char *rel)
{
	size_t n = strlen(rel);
	return n > 3 && !strcmp(rel + n - 3, ".in");
}

/* A generated copy of truth that the build does not rebuild from it. */
static const struct sf_srcdef *stale_copy(const struct sf_srcdef *defs, size_t n,
					  const struct sf_srcdef *truth)
{
	char dir[128];

	for (size_t i = 0; i < n; i++) {
		const struct sf_srcdef *d = &defs[i];
		if (d->matches && d != truth && sf_srcdef_generated(d) &&
		    !is_template(truth->rel) && !sf_srcscan_build_dir(d->rel, dir, sizeof(dir)))
			return d;
	}
	return NULL;
}

void sf_srcdefs_truth(const struct sf_srcdef *defs, size_t n, const char *rel,
		      struct sf_srctruth *out)
{
	size_t nmatch = 0, ntruth = 0;

	out->truth = out->self = NULL;
	for (size_t i = 0; i < n; i++) {
		const struct sf_srcdef *d = &defs[i];
		if (!d->matches)
			continue;
		nmatch++;
		if (!strcmp(d->rel, rel) && !out->self)
			out->self = d;
		if (!sf_srcdef_generated(d) && !ntruth++)
			out->truth = d;
	}
	if (!nmatch)
		out->verdict = SF_TRUTH_NO_MATCH;
	else if (ntruth == 0)
		out->verdict = SF_TRUTH_ALL_GENERATED;
	else if (ntruth > 1 && !(out->self && !sf_srcdef_generated(out->self)))
		out->verdict = SF_TRUTH_SEVERAL;
	else {
		if (ntruth > 1)
			out->truth = out->self;  /* the build's own file; the others are named */
		out->verdict = stale_copy(defs, n, out->truth) ? SF_TRUTH_STALE : SF_TRUTH_FOUND;
	}
	if (out->verdict != SF_TRUTH_FOUND)
		out->truth = NULL;
}
