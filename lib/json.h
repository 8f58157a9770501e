/*
 * json.h - a small JSON reader with limits, for structfit's own documents.
 *
 * A parser walks one buffer (the whole document, in memory or mapped) and
 * hands out values two ways, mixed as the caller likes:
 *
 *   - step by step at the top: sf_json_object_begin / sf_json_next_key,
 *     sf_json_array_begin / sf_json_next_item, sf_json_end - nothing is
 *     kept, so a document of any length is walked in constant memory;
 *   - one whole value as a tree (sf_json_value): the nodes and decoded
 *     strings live in the parser's arena until sf_json_reset() frees them
 *     all, so a caller that takes one element of a long array at a time
 *     and resets after each holds one element, never the array.
 *
 *   struct sf_json { type | n | key | s | v } ---> v[0..n): the children of
 *   an object (each with its key) or an array (key NULL), in document order
 *
 * Strict RFC 8259: no comments, no trailing commas, no leading zeros, no
 * NaN; strings must be valid UTF-8 (no overlong forms, surrogates or code
 * points above U+10FFFF), escapes included (\u pairs make one code point;
 * a lone surrogate and \u0000 are refused: names are C strings).  Nesting
 * deeper than max_depth is refused before it costs stack.
 *
 * The first error stops the parser (every later call fails) and is kept:
 * sf_json_error() gives its message, "<path>: <problem>", the path being
 * where in the value being parsed it happened (".members[1].offset", ""
 * at the value itself) so the caller prefixes the path it is at
 * ("$.types[3]").  No global state: a parser per document.
 */
#ifndef SF_JSON_H
#define SF_JSON_H

#include <stddef.h>
#include <stdint.h>

enum sf_json_type {
	SF_JSON_NULL = 0,
	SF_JSON_FALSE,
	SF_JSON_TRUE,
	SF_JSON_NUMBER,
	SF_JSON_STRING,
	SF_JSON_ARRAY,
	SF_JSON_OBJECT,
};

struct sf_json {
	uint8_t type;           /* enum sf_json_type */
	uint32_t n;             /* children (array, object); bytes (string) */
	const char *key;        /* an object's child: its key; else NULL */
	const char *s;          /* string: decoded, NUL-terminated; number: its text */
	struct sf_json *v;      /* children */
	uint32_t hint;          /* object: where sf_json_get looks first */
};

/* Where the parser is on the path to an error: a key or an index. */
struct sf_json_step {
	const char *key;        /* NULL: index */
	size_t keylen, index;
};

struct sf_json_parser {
	const char *buf, *p, *end;
	unsigned depth, max_depth;
	struct sf_json_step *path;  /* max_depth steps */
	struct json_chunk *arena;
	int failed;
	char err[512];
};

#define SF_JSON_MAX_DEPTH 512

void sf_json_init(struct sf_json_parser *jp, const char *buf, size_t len,
		  unsigned max_depth);
void sf_json_release(struct sf_json_parser *jp);
/* Free every value sf_json_value() returned so far. */
void sf_json_reset(struct sf_json_parser *jp);

/* One whole value at the cursor: 0 and *out, or -1 (see sf_json_error). */
int sf_json_value(struct sf_json_parser *jp, struct sf_json **out);
/* The next non-blank byte, or -1 at the end (nothing consumed). */
int sf_json_peek(struct sf_json_parser *jp);

/* '{': 0, or -1.  Then sf_json_next_key() until it returns 0. */
int sf_json_object_begin(struct sf_json_parser *jp);
/* 1: *key (decoded, in the arena) and its ':' read, its value is next;
 * 0: the object's '}' read; -1: error. */
int sf_json_next_key(struct sf_json_parser *jp, const char **key);
/* '[': 0, or -1.  Then sf_json_next_item() until it returns 0. */
int sf_json_array_begin(struct sf_json_parser *jp);
/* 1: a value is next; 0: the array's ']' read; -1: error. */
int sf_json_next_item(struct sf_json_parser *jp);
/* Nothing but blanks left: 0, or -1. */
int sf_json_end(struct sf_json_parser *jp);

/* The first error, "<path>: <problem>" ("" before any). */
const char *sf_json_error(const struct sf_json_parser *jp);

/* obj's child named key, or NULL (also when obj is not an object).  Keys
 * asked in document order are found in one step each (the search starts
 * after the key found last: obj->hint). */
const struct sf_json *sf_json_get(const struct sf_json *obj, const char *key);
/* A number that is an integer in range: 0 and *out, else -1. */
int sf_json_u64(const struct sf_json *v, uint64_t *out);
int sf_json_i64(const struct sf_json *v, int64_t *out);
/* "a string", "a number", ... for messages. */
const char *sf_json_type_name(enum sf_json_type t);

#endif
