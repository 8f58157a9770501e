/*
 * json.c - the JSON reader of json.h: a recursive-descent parser over one
 * buffer, its trees in a chunked arena.
 *
 * Recursion is bounded by max_depth (checked before descending), so a
 * hostile document cannot exhaust the stack; every node and string is
 * bounded by the bytes that spell it, so a tree costs a small multiple of
 * its text.  Children are gathered in a scratch array per level and
 * copied into the arena once their number is known.  The path stack
 * (path[0..depth)) names the key or index being parsed at each level, for
 * the message of the first error.
 */
#include "json.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"
#include "xalloc.h"

struct json_chunk {
	struct json_chunk *next;
	size_t used, cap;
	max_align_t data[];
};

#define CHUNK_BYTES (64u << 10)

void sf_json_init(struct sf_json_parser *jp, const char *buf, size_t len,
		  unsigned max_depth)
{
	memset(jp, 0, sizeof(*jp));
	jp->buf = jp->p = buf;
	jp->end = buf + len;
	jp->max_depth = max_depth ? max_depth : SF_JSON_MAX_DEPTH;
	jp->path = sf_xcalloc(jp->max_depth + 1, sizeof(*jp->path));
}

void sf_json_reset(struct sf_json_parser *jp)
{
	for (struct json_chunk *c = jp->arena, *n; c; c = n) {
		n = c->next;
		free(c);
	}
	jp->arena = NULL;
}

void sf_json_release(struct sf_json_parser *jp)
{
	sf_json_reset(jp);
	free(jp->path);
	jp->path = NULL;
}

static void *arena_alloc(struct sf_json_parser *jp, size_t size)
{
	size_t need = (size + sizeof(max_align_t) - 1) & ~(sizeof(max_align_t) - 1);
	struct json_chunk *c = jp->arena;

	if (need < size)
		return sf_xmalloc((size_t)-1);	/* overflow: dies as out of memory */
	if (!c || c->cap - c->used < need) {
		size_t cap = need > CHUNK_BYTES ? need : CHUNK_BYTES;
		c = sf_xmalloc(sizeof(*c) + cap);
		c->cap = cap;
		c->used = 0;
		c->next = jp->arena;
		jp->arena = c;
	}
	void *p = (char *)c->data + c->used;
	c->used += need;
	return p;
}

/* The path to the error, then the problem; the first error wins. */
static int fail(struct sf_json_parser *jp, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(struct sf_json_parser *jp, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	char msg[256];

	if (jp->failed)
		return -1;
	jp->failed = 1;
	for (unsigned i = 0; i < jp->depth; i++) {
		const struct sf_json_step *s = &jp->path[i];
		if (s->key) {
			sb_addch(&sb, '.');
			sb_add(&sb, s->key, s->keylen > 64 ? 64 : s->keylen);
		} else {
			sb_addf(&sb, "[%zu]", s->index);
		}
	}
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(jp->err, sizeof(jp->err), "%s: %s", sb.buf, msg);
	sb_release(&sb);
	return -1;
}

const char *sf_json_error(const struct sf_json_parser *jp)
{
	return jp->err;
}

static void skip_blanks(struct sf_json_parser *jp)
{
	while (jp->p < jp->end && (*jp->p == ' ' || *jp->p == '\n' ||
				   *jp->p == '\r' || *jp->p == '\t'))
		jp->p++;
}

int sf_json_peek(struct sf_json_parser *jp)
{
	skip_blanks(jp);
	return jp->p < jp->end ? (unsigned char)*jp->p : -1;
}

/* What stands at the cursor, for "expected X, found Y". */
static int unexpected(struct sf_json_parser *jp, const char *expected)
{
	if (jp->p >= jp->end)
		return fail(jp, "expected %s, found the end of the document (truncated?)",
			    expected);
	unsigned char c = (unsigned char)*jp->p;
	if (c >= 0x21 && c < 0x7f)
		return fail(jp, "expected %s, found '%c' (byte %zu)", expected, c,
			    (size_t)(jp->p - jp->buf));
	return fail(jp, "expected %s, found byte 0x%02x (byte %zu)", expected, c,
		    (size_t)(jp->p - jp->buf));
}

static int expect_char(struct sf_json_parser *jp, char c, const char *what)
{
	skip_blanks(jp);
	if (jp->p < jp->end && *jp->p == c) {
		jp->p++;
		return 0;
	}
	return unexpected(jp, what);
}

/* ---- strings ----------------------------------------------------------- */

static int hex4(const char *p, const char *end, unsigned *out)
{
	unsigned v = 0;

	if (end - p < 4)
		return -1;
	for (int i = 0; i < 4; i++) {
		char c = p[i];
		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

static size_t put_utf8(char *o, unsigned cp)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xc0 | cp >> 6);
		o[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xe0 | cp >> 12);
		o[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		o[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | cp >> 18);
	o[1] = (char)(0x80 | (cp >> 12 & 0x3f));
	o[2] = (char)(0x80 | (cp >> 6 & 0x3f));
	o[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* The length of the valid UTF-8 sequence at p (lead byte >= 0x80), or 0. */
static size_t utf8_len(const unsigned char *p, const unsigned char *end)
{
	unsigned c = p[0], cp;
	size_t n;

	if (c >= 0xc2 && c <= 0xdf) {
		n = 2;
		cp = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		cp = c & 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		cp = c & 0x07;
	} else {
		return 0;
	}
	if ((size_t)(end - p) < n)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if ((n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return n;
}

/* The escape after a backslash at *pp: its UTF-8 bytes into o. */
static int unescape(struct sf_json_parser *jp, const char **pp, char *o, size_t *len)
{
	const char *p = *pp;
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *k = p < jp->end && *p ? strchr(from, *p) : NULL;
	unsigned cp, lo;

	if (k) {
		*o = to[k - from];
		*len = 1;
		*pp = p + 1;
		return 0;
	}
	if (p >= jp->end || *p != 'u' || hex4(p + 1, jp->end, &cp) < 0)
		return fail(jp, "bad escape in a string (byte %zu)", (size_t)(p - jp->buf));
	p += 5;
	if (cp >= 0xd800 && cp <= 0xdbff) {
		if (jp->end - p < 6 || p[0] != '\\' || p[1] != 'u' ||
		    hex4(p + 2, jp->end, &lo) < 0 || lo < 0xdc00 || lo > 0xdfff)
			return fail(jp, "a lone UTF-16 surrogate in a string (byte %zu)",
				    (size_t)(p - jp->buf));
		cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
		p += 6;
	} else if (cp >= 0xdc00 && cp <= 0xdfff) {
		return fail(jp, "a lone UTF-16 surrogate in a string (byte %zu)",
			    (size_t)(p - jp->buf));
	} else if (cp == 0) {
		return fail(jp, "a NUL (\\u0000) in a string");
	}
	*len = put_utf8(o, cp);
	*pp = p;
	return 0;
}

/* A string at the cursor ('"' next): decoded into the arena. */
static int parse_string(struct sf_json_parser *jp, const char **out, uint32_t *outlen)
{
	const char *p = jp->p + 1;
	const char *q = p;

	/* its end first: the decoded string is never longer than the raw one */
	while (q < jp->end && *q != '"')
		q += *q == '\\' && q + 1 < jp->end ? 2 : 1;
	if (q >= jp->end)
		return fail(jp, "a string never ends (truncated?)");
	if ((size_t)(q - p) >= UINT32_MAX)
		return fail(jp, "a string longer than 4 GiB");
	char *o = arena_alloc(jp, (size_t)(q - p) + 1);
	size_t n = 0;
	while (p < q) {
		unsigned char c = (unsigned char)*p;
		if (c == '\\') {
			size_t len = 0;
			p++;
			if (unescape(jp, &p, o + n, &len) < 0)
				return -1;
			n += len;
		} else if (c < 0x20) {
			return fail(jp, "a control byte 0x%02x in a string (byte %zu)", c,
				    (size_t)(p - jp->buf));
		} else if (c < 0x80) {
			o[n++] = (char)c;
			p++;
		} else {
			size_t len = utf8_len((const unsigned char *)p, (const unsigned char *)q);
			if (!len)
				return fail(jp, "a string is not valid UTF-8 (byte %zu)",
					    (size_t)(p - jp->buf));
			memcpy(o + n, p, len);
			n += len;
			p += len;
		}
	}
	o[n] = '\0';
	jp->p = q + 1;
	*out = o;
	*outlen = (uint32_t)n;
	return 0;
}

/* ---- numbers and words ------------------------------------------------- */

static int is_digit(const char *p, const char *end)
{
	return p < end && *p >= '0' && *p <= '9';
}

static int parse_number(struct sf_json_parser *jp, struct sf_json *v)
{
	const char *p = jp->p, *start = p;

	if (p < jp->end && *p == '-')
		p++;
	if (!is_digit(p, jp->end))
		return unexpected(jp, "a value");
	if (*p == '0')
		p++;
	else
		while (is_digit(p, jp->end))
			p++;
	if (p < jp->end && *p == '.') {
		if (!is_digit(++p, jp->end))
			return fail(jp, "a number with no digit after '.' (byte %zu)",
				    (size_t)(p - jp->buf));
		while (is_digit(p, jp->end))
			p++;
	}
	if (p < jp->end && (*p == 'e' || *p == 'E')) {
		p++;
		if (p < jp->end && (*p == '+' || *p == '-'))
			p++;
		if (!is_digit(p, jp->end))
			return fail(jp, "a number with no digit in its exponent (byte %zu)",
				    (size_t)(p - jp->buf));
		while (is_digit(p, jp->end))
			p++;
	}
	char *s = arena_alloc(jp, (size_t)(p - start) + 1);
	memcpy(s, start, (size_t)(p - start));
	s[p - start] = '\0';
	v->type = SF_JSON_NUMBER;
	v->s = s;
	v->n = (uint32_t)(p - start);
	jp->p = p;
	return 0;
}

static int parse_word(struct sf_json_parser *jp, struct sf_json *v)
{
	static const struct { const char *w; uint8_t type; } words[] = {
		{ "null", SF_JSON_NULL }, { "false", SF_JSON_FALSE }, { "true", SF_JSON_TRUE },
	};

	size_t left = (size_t)(jp->end - jp->p);

	for (size_t i = 0; i < 3; i++) {
		size_t n = strlen(words[i].w);
		if (left >= n && !memcmp(jp->p, words[i].w, n)) {
			v->type = words[i].type;
			jp->p += n;
			return 0;
		}
		/* "fa" at the very end: cut short, not misspelt */
		if (left < n && !memcmp(jp->p, words[i].w, left))
			return fail(jp, "'%s' cut short by the end of the document (truncated?)",
				    words[i].w);
	}
	return unexpected(jp, "a value");
}

/* ---- arrays and objects ------------------------------------------------ */

static int parse_into(struct sf_json_parser *jp, struct sf_json *v);

/* The children of an array or object, '[' or '{' read; close is ']' or '}'. */
static int parse_children(struct sf_json_parser *jp, struct sf_json *v, char close)
{
	struct sf_json *tmp = NULL;
	size_t n = 0, cap = 0;
	struct sf_json_step *step = &jp->path[jp->depth];
	int rc = -1;

	if (jp->depth >= jp->max_depth)
		return fail(jp, "nested deeper than %u levels", jp->max_depth);
	jp->depth++;
	skip_blanks(jp);
	if (jp->p < jp->end && *jp->p == close) {
		jp->p++;
		rc = 0;
		goto done;
	}
	for (;;) {
		if (n == cap) {
			cap = cap ? cap * 2 : 8;
			tmp = sf_xreallocarray(tmp, cap, sizeof(*tmp));
		}
		struct sf_json *c = &tmp[n];
		memset(c, 0, sizeof(*c));
		*step = (struct sf_json_step){ NULL, 0, n };
		if (close == '}') {
			uint32_t klen;
			skip_blanks(jp);
			if (jp->p >= jp->end || *jp->p != '"') {
				jp->depth--;	/* the object's path, not a child's */
				unexpected(jp, n ? "a key" : "a key or '}'");
				jp->depth++;
				goto done;
			}
			if (parse_string(jp, &c->key, &klen) < 0)
				goto done;
			*step = (struct sf_json_step){ c->key, klen, 0 };
			if (expect_char(jp, ':', "':'") < 0)
				goto done;
		}
		if (parse_into(jp, c) < 0)
			goto done;
		n++;
		skip_blanks(jp);
		if (jp->p < jp->end && *jp->p == ',') {
			jp->p++;
			continue;
		}
		if (jp->p < jp->end && *jp->p == close) {
			jp->p++;
			rc = 0;
			break;
		}
		jp->depth--;
		unexpected(jp, close == '}' ? "',' or '}'" : "',' or ']'");
		jp->depth++;
		goto done;
	}
done:
	jp->depth--;
	if (rc == 0) {
		v->n = (uint32_t)n;
		v->v = n ? arena_alloc(jp, n * sizeof(*tmp)) : NULL;
		if (n)
			memcpy(v->v, tmp, n * sizeof(*tmp));
	}
	free(tmp);
	return rc;
}

static int parse_into(struct sf_json_parser *jp, struct sf_json *v)
{
	skip_blanks(jp);
	if (jp->failed)
		return -1;
	if (jp->p >= jp->end)
		return unexpected(jp, "a value");
	switch (*jp->p) {
	case '{':
		jp->p++;
		v->type = SF_JSON_OBJECT;
		return parse_children(jp, v, '}');
	case '[':
		jp->p++;
		v->type = SF_JSON_ARRAY;
		return parse_children(jp, v, ']');
	case '"':
		v->type = SF_JSON_STRING;
		return parse_string(jp, &v->s, &v->n);
	case 'n': case 't': case 'f':
		return parse_word(jp, v);
	default:
		return parse_number(jp, v);
	}
}

int sf_json_value(struct sf_json_parser *jp, struct sf_json **out)
{
	struct sf_json *v = arena_alloc(jp, sizeof(*v));

	memset(v, 0, sizeof(*v));
	if (jp->failed || parse_into(jp, v) < 0)
		return -1;
	*out = v;
	return 0;
}

/* ---- the top, step by step --------------------------------------------- */

int sf_json_object_begin(struct sf_json_parser *jp)
{
	return jp->failed ? -1 : expect_char(jp, '{', "'{'");
}

int sf_json_array_begin(struct sf_json_parser *jp)
{
	return jp->failed ? -1 : expect_char(jp, '[', "'['");
}

/* Between two children: ',' then more (1), or the close (0).  first: the
 * open was just read. */
static int next_child(struct sf_json_parser *jp, char close, int first)
{
	if (jp->failed)
		return -1;
	skip_blanks(jp);
	if (jp->p < jp->end && *jp->p == close) {
		jp->p++;
		return 0;
	}
	if (first)
		return 1;
	if (jp->p < jp->end && *jp->p == ',') {
		jp->p++;
		return 1;
	}
	return unexpected(jp, close == '}' ? "',' or '}'" : "',' or ']'");
}

/* Just after '{' or '[' (blanks aside)? */
static int just_opened(const struct sf_json_parser *jp)
{
	const char *p = jp->p;

	while (p > jp->buf && (p[-1] == ' ' || p[-1] == '\n' || p[-1] == '\r' ||
			       p[-1] == '\t'))
		p--;
	return p > jp->buf && (p[-1] == '{' || p[-1] == '[');
}

int sf_json_next_key(struct sf_json_parser *jp, const char **key)
{
	int r = next_child(jp, '}', just_opened(jp));
	uint32_t klen;

	if (r <= 0)
		return r;
	skip_blanks(jp);
	if (jp->p >= jp->end || *jp->p != '"')
		return unexpected(jp, "a key");
	if (parse_string(jp, key, &klen) < 0 || expect_char(jp, ':', "':'") < 0)
		return -1;
	return 1;
}

int sf_json_next_item(struct sf_json_parser *jp)
{
	return next_child(jp, ']', just_opened(jp));
}

int sf_json_end(struct sf_json_parser *jp)
{
	if (jp->failed)
		return -1;
	skip_blanks(jp);
	if (jp->p < jp->end)
		return fail(jp, "more after the document's end (byte %zu)",
			    (size_t)(jp->p - jp->buf));
	return 0;
}

/* ---- reading values ---------------------------------------------------- */

const struct sf_json *sf_json_get(const struct sf_json *obj, const char *key)
{
	if (!obj || obj->type != SF_JSON_OBJECT)
		return NULL;
	for (uint32_t k = 0; k < obj->n; k++) {
		uint32_t i = obj->hint + k < obj->n ? obj->hint + k : obj->hint + k - obj->n;
		if (!strcmp(obj->v[i].key, key)) {
			/* the tree is the parser's, never const: only the hint
			 * changes, no value a caller reads */
			((struct sf_json *)obj)->hint = i + 1 < obj->n ? i + 1 : 0;
			return &obj->v[i];
		}
	}
	return NULL;
}

/* An integer's digits (no '.', no exponent) after an optional '-'. */
static int integer_text(const struct sf_json *v)
{
	return v && v->type == SF_JSON_NUMBER && !strpbrk(v->s, ".eE");
}

int sf_json_u64(const struct sf_json *v, uint64_t *out)
{
	if (!integer_text(v) || v->s[0] == '-')
		return -1;
	errno = 0;
	char *end;
	uintmax_t x = strtoumax(v->s, &end, 10);
	if (errno || *end || x > UINT64_MAX)
		return -1;
	*out = (uint64_t)x;
	return 0;
}

int sf_json_i64(const struct sf_json *v, int64_t *out)
{
	if (!integer_text(v))
		return -1;
	errno = 0;
	char *end;
	intmax_t x = strtoimax(v->s, &end, 10);
	if (errno || *end || x > INT64_MAX || x < INT64_MIN)
		return -1;
	*out = (int64_t)x;
	return 0;
}

const char *sf_json_type_name(enum sf_json_type t)
{
	switch (t) {
	case SF_JSON_NULL: return "null";
	case SF_JSON_FALSE: case SF_JSON_TRUE: return "a boolean";
	case SF_JSON_NUMBER: return "a number";
	case SF_JSON_STRING: return "a string";
	case SF_JSON_ARRAY: return "an array";
	case SF_JSON_OBJECT: return "an object";
	}
	return "a value";
}
