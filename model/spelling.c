/*
 * spelling.c - canonical spelling of C and C++ type names (see
 * spelling.h): one pass over the text, words gathered into runs of
 * base-type words, each run written as gcc writes its type.
 */
#include "spelling.h"

#include <string.h>

/* [A-Za-z0-9_], by table: every byte of every spelling is asked */
static const bool word_char[256] = {
	['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1, ['6'] = 1,
	['7'] = 1, ['8'] = 1, ['9'] = 1, ['_'] = 1,
	['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1, ['e'] = 1, ['f'] = 1, ['g'] = 1,
	['h'] = 1, ['i'] = 1, ['j'] = 1, ['k'] = 1, ['l'] = 1, ['m'] = 1, ['n'] = 1,
	['o'] = 1, ['p'] = 1, ['q'] = 1, ['r'] = 1, ['s'] = 1, ['t'] = 1, ['u'] = 1,
	['v'] = 1, ['w'] = 1, ['x'] = 1, ['y'] = 1, ['z'] = 1,
	['A'] = 1, ['B'] = 1, ['C'] = 1, ['D'] = 1, ['E'] = 1, ['F'] = 1, ['G'] = 1,
	['H'] = 1, ['I'] = 1, ['J'] = 1, ['K'] = 1, ['L'] = 1, ['M'] = 1, ['N'] = 1,
	['O'] = 1, ['P'] = 1, ['Q'] = 1, ['R'] = 1, ['S'] = 1, ['T'] = 1, ['U'] = 1,
	['V'] = 1, ['W'] = 1, ['X'] = 1, ['Y'] = 1, ['Z'] = 1,
};

static inline bool is_word_char(char c)
{
	return word_char[(unsigned char)c];
}

bool sf_basewords_add(struct sf_basewords *bw, const char *w, size_t n)
{
#define W(s) (n == sizeof(s) - 1 && !memcmp(w, s, n))
	if (W("long")) bw->nlong++;
	else if (W("short")) bw->nshort++;
	else if (W("int")) bw->nint++;
	else if (W("char")) bw->nchar++;
	else if (W("signed") || W("__signed__") || W("__signed")) bw->nsigned++;
	else if (W("unsigned")) bw->nunsigned++;
	else if (W("float")) bw->nfloat++;
	else if (W("double")) bw->ndouble++;
	else if (W("__int128")) bw->nint128++;
	else return false;
#undef W
	return true;
}

const char *sf_basewords_spell(const struct sf_basewords *bw)
{
	if (bw->nfloat)
		return "float";
	if (bw->ndouble)
		return bw->nlong ? "long double" : "double";
	if (bw->nchar)
		return bw->nunsigned ? "unsigned char" : bw->nsigned ? "signed char" : "char";
	if (bw->nint128)
		return bw->nunsigned ? "__int128 unsigned" : "__int128";
	if (bw->nshort)
		return bw->nunsigned ? "short unsigned int" : "short int";
	if (bw->nlong >= 2)
		return bw->nunsigned ? "long long unsigned int" : "long long int";
	if (bw->nlong)
		return bw->nunsigned ? "long unsigned int" : "long int";
	if (bw->nunsigned)
		return "unsigned int";
	if (bw->nint || bw->nsigned)
		return "int";
	return NULL;
}

/* Length of the word at s (0 when s does not start one). */
static size_t word_len(const char *s)
{
	size_t n = 0;

	while (is_word_char(s[n]))
		n++;
	return n;
}

/*
 * The run of base-type words starting at *sp (words apart by blanks),
 * counted into bw; *sp moves past its last word, or stays when the word
 * at *sp is no base-type word (then returns false).
 */
static bool take_run(const char **sp, struct sf_basewords *bw)
{
	const char *s = *sp, *end = s;

	/* no base-type word starts otherwise (most words: names) */
	switch (*s) {
	case 'l': case 's': case 'i': case 'c': case 'u': case 'f': case 'd': case '_':
		break;
	default:
		return false;
	}
	memset(bw, 0, sizeof(*bw));
	for (;;) {
		size_t n = word_len(s);
		if (!n || !sf_basewords_add(bw, s, n))
			break;
		end = s + n;
		s = end;
		while (*s == ' ')
			s++;
	}
	bool moved = end != *sp;
	*sp = end;
	return moved;
}

/*
 * The spelling being made, gathered here and handed to the caller's sink
 * a buffer at a time: a template's name is mostly single characters
 * (`::`, `<`, `,`, `*`), and a call of the sink per piece was most of
 * the cost (libceph-common: sf_spell_canon_to and its sinks 12 % of
 * show's samples).  The sinks take bytes, wherever a piece ends.
 */
struct cout {
	struct sf_spell_sink *to;
	char last;              /* the last character put */
	size_t n;
	char b[512];
};

static void flush(struct cout *out)
{
	if (out->n)
		out->to->emit(out->to, out->b, out->n);
	out->n = 0;
}

static void put(struct cout *out, const char *p, size_t n)
{
	if (!n)
		return;
	if (out->n + n > sizeof(out->b)) {
		flush(out);
		if (n > sizeof(out->b)) {
			out->to->emit(out->to, p, n);
			out->last = p[n - 1];
			return;
		}
	}
	memcpy(out->b + out->n, p, n);
	out->n += n;
	out->last = p[n - 1];
}

static void put_s(struct cout *out, const char *s)
{
	put(out, s, strlen(s));
}

static void put_c(struct cout *out, char c)
{
	if (out->n == sizeof(out->b))
		flush(out);
	out->b[out->n++] = c;
	out->last = c;
}

/* Append the word or run of base-type words at *sp; move past it. */
static void canon_word(const char **sp, struct cout *out)
{
	struct sf_basewords bw;

	if (take_run(sp, &bw)) {
		put_s(out, sf_basewords_spell(&bw));
		return;
	}
	size_t n = word_len(*sp);
	put(out, *sp, n);
	*sp += n;
}

static bool ends_with(const struct cout *out, char c)
{
	return out->last == c;
}

/* Whether word w[0..n) is a cv-qualifier. */
static bool is_cv(const char *w, size_t n)
{
	return (n == 5 && !memcmp(w, "const", 5)) || (n == 8 && !memcmp(w, "volatile", 8));
}

/*
 * Inside a template argument list g++ puts the qualifiers of a base type
 * after it (`char const*`, `int const`), clang before (`const char *`):
 * at *sp, qualifier words then a run of base-type words are appended
 * g++'s way and *sp moves past them.  False, moving nothing, otherwise.
 */
static bool east_cv(const char **sp, struct cout *out)
{
	const char *s = *sp, *quals = s, *qend = s;

	for (size_t n; (n = word_len(s)) && is_cv(s, n);) {
		qend = s + n;
		s = qend;
		while (*s == ' ')
			s++;
	}
	struct sf_basewords bw;
	if (qend == quals || !take_run(&s, &bw))
		return false;
	put_s(out, sf_basewords_spell(&bw));
	put_c(out, ' ');
	put(out, quals, (size_t)(qend - quals));
	*sp = s;
	return true;
}

/* Blanks inside a template argument list, as g++ writes them: none
 * before `*` or `&` (nor between `>` and `>`), one after `*` before a
 * word (`* const`) and before `[`. */
static bool drop_blank(const char *e, const struct cout *out)
{
	return *e == '*' || *e == '&' || (*e == '>' && ends_with(out, '>'));
}

static void canon(const char *in, struct cout *out)
{
	const char *s = in ? in : "";
	int depth = 0;          /* template argument lists open */

	while (*s) {
		char c = *s;
		if (is_word_char(c)) {
			if (depth && ends_with(out, '*'))
				put_c(out, ' ');
			if (!depth || !east_cv(&s, out))
				canon_word(&s, out);
			continue;
		}
		if (depth && c == ' ') {
			const char *e = s;
			while (*e == ' ')
				e++;
			if (drop_blank(e, out)) {
				s = e;
				continue;
			}
		}
		if (c == '<') {
			depth++;
		} else if (c == '>' && depth) {
			depth--;
			if (ends_with(out, '>'))
				put_c(out, ' ');
		} else if (c == '[' && depth && is_word_char(out->last)) {
			put_c(out, ' ');
		}
		put_c(out, c);
		s++;
	}
}

void sf_spell_canon_to(const char *in, struct sf_spell_sink *sink)
{
	struct cout out;

	out.to = sink;
	out.last = sink->last;
	out.n = 0;
	canon(in, &out);
	flush(&out);
	sink->last = out.last;
}

struct sb_sink {
	struct sf_spell_sink base;
	struct strbuf *sb;
};

static void sb_emit(struct sf_spell_sink *sink, const char *p, size_t n)
{
	sb_add(((struct sb_sink *)sink)->sb, p, n);
}

void sf_spell_canon(const char *in, struct strbuf *out)
{
	struct sb_sink sink = { { sb_emit, 0 }, out };

	sf_spell_canon_to(in, &sink.base);
}

bool sf_spell_eq(const char *a, const char *b)
{
	if (a == b)
		return true;
	a = a ? a : "";
	b = b ? b : "";
	if (!strcmp(a, b))
		return true;
	struct strbuf x = STRBUF_INIT, y = STRBUF_INIT;
	sf_spell_canon(a, &x);
	sf_spell_canon(b, &y);
	bool eq = x.len == y.len && !memcmp(x.buf, y.buf, x.len);
	sb_release(&x);
	sb_release(&y);
	return eq;
}

bool sf_spell_name_eq(const char *a, const char *b)
{
	if (a == b)
		return true;
	a = a ? a : "";
	b = b ? b : "";
	if (!strchr(a, '<') || !strchr(b, '<'))
		return !strcmp(a, b);
	return sf_spell_eq(a, b);
}

bool sf_spelling_has_word(const char *s, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = strstr(s, word); p; p = strstr(p + 1, word))
		if ((p == s || p[-1] == ' ' || p[-1] == '*') &&
		    (p[n] == ' ' || p[n] == '\0'))
			return true;
	return false;
}
