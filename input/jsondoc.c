/*
 * jsondoc.c - a `structfit/1` document (report/json.c, report/rank.c wrote
 * it) back into the model: see jsondoc.h for what it reads and why.
 *
 * The top object is walked step by step (lib/json.h): "schema" first
 * (structfit/1; a newer one is refused by name), "command" (show or
 * holes: the documents that carry types), then "types" one element at a
 * time - each parsed as a tree, turned into a struct sf_type in a scratch
 * typeset (its strings the tree's own), looked up in the destination and
 * deep-copied in (strings interned there) only when no identical
 * definition is there, then the tree freed.  Keys the reader does not
 * know are skipped (later writers only add fields).
 *
 * Every problem is one line naming the file and the JSON path of the
 * first thing wrong: `rd.where` holds the path of the value being read
 * ("$.types[3].members[1]"); a syntax error inside a tree adds the path
 * the parser was at below it.
 */
#include "jsondoc.h"

#include <assert.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "layout/public.h"
#include "lib/json.h"
#include "lib/strbuf.h"
#include "report/report.h"

/* Nested anonymous types deeper than this are refused (the typeset's
 * hash and comparison stop at 64 levels). */
#define MAX_NESTING 64
/* A scratch set holding this much is replaced by a fresh one. */
#define SCRATCH_BYTES (1u << 20)

enum doc_kind { DOC_NONE = 0, DOC_SHOW, DOC_HOLES };

struct rd {
	struct sf_typeset *ts;       /* where the types go */
	struct sf_typeset *scratch;  /* where each is built first */
	const char *file;
	struct sf_err *err;
	struct strbuf where;         /* the JSON path being read */
	int summaries;
};

bool sf_jsondoc_is(const unsigned char *img, size_t size)
{
	size_t i = 0;

	while (i < size && (img[i] == ' ' || img[i] == '\n' || img[i] == '\r' ||
			    img[i] == '\t'))
		i++;
	return i < size && img[i] == '{';
}

bool sf_jsondoc_file_is(const char *path)
{
	unsigned char buf[4096];
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return false;
	ssize_t n = read(fd, buf, sizeof(buf));
	close(fd);
	return n > 0 && sf_jsondoc_is(buf, (size_t)n);
}

static int bad(struct rd *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int bad(struct rd *r, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return sf_error_at(r->err, r->file, 0, 0, "$%s: %s", r->where.buf, msg);
}

static size_t push_key(struct rd *r, const char *key)
{
	size_t len = r->where.len;

	sb_addch(&r->where, '.');
	sb_adds(&r->where, key);
	return len;
}

static size_t push_index(struct rd *r, size_t i)
{
	size_t len = r->where.len;

	sb_addf(&r->where, "[%zu]", i);
	return len;
}

static void pop(struct rd *r, size_t len)
{
	sb_setlen(&r->where, len);
}

/* Is v of type want (SF_JSON_TRUE: either boolean)? */
static int of_type(const struct sf_json *v, enum sf_json_type want)
{
	return v->type == want || (want == SF_JSON_TRUE && v->type == SF_JSON_FALSE);
}

/* obj's field key of type want, or NULL after saying it is missing or of
 * another type.  optional: absent is NULL, and no error. */
static const struct sf_json *field(struct rd *r, const struct sf_json *obj, const char *key,
				   enum sf_json_type want, int optional)
{
	const struct sf_json *v = sf_json_get(obj, key);

	if (v && of_type(v, want))
		return v;
	if (!v && optional)
		return NULL;
	size_t mark = push_key(r, key);
	if (!v)
		bad(r, "missing (%s expected)", sf_json_type_name(want));
	else
		bad(r, "expected %s, found %s", sf_json_type_name(want),
		    sf_json_type_name((enum sf_json_type)v->type));
	pop(r, mark);
	return NULL;
}

/* An integer field from 0 to max into *out: 0, or -1 (said). */
static int get_u64(struct rd *r, const struct sf_json *obj, const char *key, uint64_t max,
		   uint64_t *out)
{
	const struct sf_json *v = field(r, obj, key, SF_JSON_NUMBER, 0);
	uint64_t x;

	if (!v)
		return -1;
	if (sf_json_u64(v, &x) < 0 || x > max) {
		size_t mark = push_key(r, key);
		bad(r, "expected an integer from 0 to %llu, found %s", (unsigned long long)max, v->s);
		pop(r, mark);
		return -1;
	}
	*out = x;
	return 0;
}

static int get_u32(struct rd *r, const struct sf_json *obj, const char *key, uint32_t *out)
{
	uint64_t x;

	if (get_u64(r, obj, key, UINT32_MAX, &x) < 0)
		return -1;
	*out = (uint32_t)x;
	return 0;
}

/* An optional integer field: dflt when absent. */
static int opt_u64(struct rd *r, const struct sf_json *obj, const char *key, uint64_t max,
		   uint64_t dflt, uint64_t *out)
{
	*out = dflt;
	return sf_json_get(obj, key) ? get_u64(r, obj, key, max, out) : 0;
}

/* A string field: the tree's own copy (it lives until the type is copied
 * into the destination, which interns it), "" when optional and absent. */
static int get_str(struct rd *r, const struct sf_json *obj, const char *key, int optional,
		   const char **out)
{
	const struct sf_json *v = field(r, obj, key, SF_JSON_STRING, optional);

	if (!v) {
		*out = "";
		return optional && !sf_json_get(obj, key) ? 0 : -1;
	}
	*out = v->s;
	return 0;
}

/* A boolean field: flag into *flags when true. */
static int get_flag(struct rd *r, const struct sf_json *obj, const char *key, int optional,
		    uint16_t flag, uint16_t *flags)
{
	const struct sf_json *v = field(r, obj, key, SF_JSON_TRUE, optional);

	if (!v)
		return optional && !sf_json_get(obj, key) ? 0 : -1;
	if (v->type == SF_JSON_TRUE)
		*flags |= flag;
	return 0;
}

struct flag_key {
	const char *key;
	uint16_t flag;
	int optional;
};

static int get_flags(struct rd *r, const struct sf_json *obj, const struct flag_key *keys,
		     size_t n, uint16_t *flags)
{
	for (size_t i = 0; i < n; i++)
		if (get_flag(r, obj, keys[i].key, keys[i].optional, keys[i].flag, flags) < 0)
			return -1;
	return 0;
}

/* One of words[0..n) (NULL entries skipped) into *out. */
static int get_word(struct rd *r, const struct sf_json *obj, const char *key,
		    const char *const *words, size_t n, unsigned *out)
{
	const struct sf_json *v = field(r, obj, key, SF_JSON_STRING, 0);

	if (!v)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (words[i] && !strcmp(words[i], v->s)) {
			*out = (unsigned)i;
			return 0;
		}
	}
	size_t mark = push_key(r, key);
	bad(r, "'%s' is not a word this field takes", v->s);
	pop(r, mark);
	return -1;
}

/* "struct", "union", "class" or "enum" (an enum with data: a struct). */
static int get_kind(struct rd *r, const struct sf_json *obj, uint8_t *kind, bool *is_enum)
{
	static const char *const kinds[] = { "struct", "union", "class", "enum" };
	unsigned k;

	if (get_word(r, obj, "kind", kinds, 4, &k) < 0)
		return -1;
	*is_enum = k == 3;
	*kind = (uint8_t)(k == 3 ? SF_KIND_STRUCT : k);
	return 0;
}

/* ---- show documents: whole types -------------------------------------- */

static int read_type(struct rd *r, const struct sf_json *o, struct sf_type *t, unsigned depth);

static int read_enumerators(struct rd *r, const struct sf_json *a, struct sf_member *m)
{
	struct sf_enum *e = sf_typeset_alloc(r->scratch, sizeof(*e));
	struct sf_enumerator *v = sf_typeset_alloc(r->scratch, (a->n ? a->n : 1) * sizeof(*v));
	size_t mark = push_key(r, "enumerators");

	for (uint32_t k = 0; k < a->n; k++) {
		const struct sf_json *x = &a->v[k];
		size_t at = push_index(r, k);
		const struct sf_json *val;
		int64_t sv;
		if (x->type != SF_JSON_OBJECT)
			return bad(r, "expected an object, found %s",
				   sf_json_type_name((enum sf_json_type)x->type));
		if (get_str(r, x, "name", 0, &v[k].name) < 0 ||
		    !(val = field(r, x, "value", SF_JSON_NUMBER, 0)))
			return -1;
		if (sf_json_u64(val, &v[k].value) < 0) {
			if (!(m->flags & SF_MF_SIGNED) || sf_json_i64(val, &sv) < 0) {
				push_key(r, "value");
				return bad(r, "expected an integer, found %s", val->s);
			}
			v[k].value = (uint64_t)sv;
		}
		pop(r, at);
	}
	pop(r, mark);
	e->n = a->n;
	e->v = v;
	m->enums = e;
	return 0;
}

/* "nested" or "points_to": the anonymous type a member holds or points to. */
static int read_inner(struct rd *r, const struct sf_json *o, struct sf_member *m,
		      unsigned depth)
{
	const struct sf_json *n = field(r, o, "nested", SF_JSON_OBJECT, 1);
	const struct sf_json *p = field(r, o, "points_to", SF_JSON_OBJECT, 1);
	const char *key = n ? "nested" : "points_to";

	if ((sf_json_get(o, "nested") && !n) || (sf_json_get(o, "points_to") && !p))
		return -1;
	if (!n && !p)
		return 0;
	if (n && p)
		return bad(r, "both \"nested\" and \"points_to\"");
	size_t mark = push_key(r, key);
	if (depth >= MAX_NESTING)
		return bad(r, "anonymous types nested deeper than %d levels", MAX_NESTING);
	struct sf_type *t = sf_typeset_alloc(r->scratch, sizeof(*t));
	if (read_type(r, n ? n : p, t, depth + 1) < 0)
		return -1;
	pop(r, mark);
	m->nested = t;
	if (p)
		m->flags |= SF_MF_POINTEE;
	return 0;
}

/* type = type_name + type_suffix, as report/json.c joined them. */
static int read_spelling(struct rd *r, const struct sf_json *o, struct sf_member *m)
{
	const struct sf_json *type = field(r, o, "type", SF_JSON_STRING, 0);
	const char *suffix;

	if (!type || get_str(r, o, "type_suffix", 1, &suffix) < 0)
		return -1;
	size_t n = strlen(suffix);
	if (n > type->n || strcmp(type->s + type->n - n, suffix)) {
		push_key(r, "type_suffix");
		return bad(r, "not the end of \"type\"");
	}
	char *name = sf_typeset_alloc(r->scratch, type->n - n + 1);
	memcpy(name, type->s, type->n - n);
	name[type->n - n] = '\0';
	m->type_name = name;
	m->type_suffix = suffix;
	return 0;
}

static int read_member(struct rd *r, const struct sf_json *o, struct sf_member *m,
		       unsigned depth)
{
	static const char *const tclasses[] = {
		[SF_T_OTHER] = "other", [SF_T_INT] = "int", [SF_T_BOOL] = "bool",
		[SF_T_ENUM] = "enum", [SF_T_FLOAT] = "float", [SF_T_POINTER] = "pointer",
		[SF_T_STRUCT] = "struct", [SF_T_UNION] = "union", [SF_T_ARRAY] = "array",
	};
	static const struct flag_key flags[] = {
		{ "bitfield", SF_MF_BITFIELD, 0 }, { "base", SF_MF_BASE, 0 },
		{ "virtual_base", SF_MF_VIRTUAL_BASE, 0 }, { "vptr", SF_MF_VPTR, 0 },
		{ "flex_array", SF_MF_FLEX_ARRAY, 0 }, { "signed", SF_MF_SIGNED, 0 },
		{ "aligned", SF_MF_ALIGNED, 0 }, { "incomplete", SF_MF_INCOMPLETE, 0 },
		{ "discr", SF_MF_DISCR, 1 }, { "rust", SF_MF_RUST, 1 },
	};
	unsigned tc;
	const struct sf_json *en;

	if (o->type != SF_JSON_OBJECT)
		return bad(r, "expected an object, found %s",
			   sf_json_type_name((enum sf_json_type)o->type));
	if (get_str(r, o, "name", 0, &m->name) < 0 || read_spelling(r, o, m) < 0 ||
	    get_word(r, o, "tclass", tclasses, sizeof(tclasses) / sizeof(tclasses[0]), &tc) < 0 ||
	    get_u64(r, o, "offset", UINT64_MAX, &m->offset) < 0 ||
	    get_u64(r, o, "size", UINT64_MAX, &m->size) < 0 ||
	    get_u32(r, o, "align", &m->align) < 0 ||
	    get_flags(r, o, flags, sizeof(flags) / sizeof(flags[0]), &m->flags) < 0)
		return -1;
	m->tclass = (uint8_t)tc;
	if ((m->flags & SF_MF_BITFIELD) &&
	    (get_u32(r, o, "bit_offset", &m->bit_offset) < 0 ||
	     get_u32(r, o, "bit_size", &m->bit_size) < 0))
		return -1;
	if ((m->flags & SF_MF_BITFIELD) && !m->bit_size) {
		push_key(r, "bit_size");
		return bad(r, "a bit-field of 0 bits");
	}
	if (read_inner(r, o, m, depth) < 0)
		return -1;
	en = field(r, o, "enumerators", SF_JSON_ARRAY, 1);
	if (!en && sf_json_get(o, "enumerators"))
		return -1;
	return en ? read_enumerators(r, en, m) : 0;
}

/* The array a (of n members) into *out, in the scratch set. */
static int read_members(struct rd *r, const struct sf_json *a, struct sf_member **out,
			unsigned depth)
{
	struct sf_member *ms = a->n ? sf_typeset_alloc(r->scratch, a->n * sizeof(*ms)) : NULL;
	size_t mark = push_key(r, "members");

	for (uint32_t i = 0; i < a->n; i++) {
		size_t at = push_index(r, i);
		if (read_member(r, &a->v[i], &ms[i], depth) < 0)
			return -1;
		pop(r, at);
	}
	pop(r, mark);
	*out = ms;
	return 0;
}

/*
 * The variants of an enum with data: each was written as the struct it is
 * in memory (sf_variant_type: the discriminant merged in unless it is a
 * niche); the variant's own members are the others.
 */
static int read_variants(struct rd *r, const struct sf_json *a, struct sf_type *t,
			 unsigned depth)
{
	size_t mark = push_key(r, "variants");

	t->variants = sf_typeset_alloc(r->scratch, (a->n ? a->n : 1) * sizeof(*t->variants));
	t->nvariants = a->n;
	for (uint32_t k = 0; k < a->n; k++) {
		struct sf_variant *v = &t->variants[k];
		const struct sf_json *o = &a->v[k], *d;
		struct sf_type vt = { 0 };
		size_t at = push_index(r, k);
		if (o->type != SF_JSON_OBJECT)
			return bad(r, "expected an object, found %s",
				   sf_json_type_name((enum sf_json_type)o->type));
		if (read_type(r, o, &vt, depth) < 0)
			return -1;
		d = sf_json_get(o, "discr_value");
		if (!d)
			return bad(r, "no \"discr_value\"");
		v->has_discr_value = d->type != SF_JSON_NULL;
		if (v->has_discr_value && get_u64(r, o, "discr_value", UINT64_MAX,
						  &v->discr_value) < 0)
			return -1;
		v->name = vt.name;
		v->members = vt.nmembers ? sf_typeset_alloc(r->scratch, vt.nmembers *
							    sizeof(*v->members)) : NULL;
		for (uint32_t i = 0; i < vt.nmembers; i++)
			if (!(vt.members[i].flags & SF_MF_DISCR))
				v->members[v->nmembers++] = vt.members[i];
		pop(r, at);
	}
	pop(r, mark);
	return 0;
}

static int read_type(struct rd *r, const struct sf_json *o, struct sf_type *t, unsigned depth)
{
	static const struct flag_key flags[] = {
		{ "packed", SF_TF_PACKED, 0 }, { "aligned", SF_TF_ALIGNED, 0 },
		{ "incomplete", SF_TF_INCOMPLETE, 0 }, { "cxx", SF_TF_CXX, 0 },
		{ "typedef", SF_TF_TYPEDEF, 0 }, { "rust", SF_TF_RUST, 1 },
		{ "reordered", SF_TF_REORDERED, 1 }, { "niche", SF_TF_NICHE, 1 },
		{ "declaration", SF_TF_DECLARATION, 1 }, { "btf", SF_TF_BTF, 1 },
	};
	const struct sf_json *ms, *vs;
	uint64_t v;
	bool is_enum;

	if (get_str(r, o, "name", 0, &t->name) < 0 || get_kind(r, o, &t->kind, &is_enum) < 0 ||
	    get_u64(r, o, "size", UINT64_MAX, &t->size) < 0 ||
	    get_u32(r, o, "align", &t->align) < 0 ||
	    get_str(r, o, "decl_file", 0, &t->decl_file) < 0 ||
	    get_u32(r, o, "decl_line", &t->decl_line) < 0 ||
	    get_str(r, o, "origin", 0, &t->origin) < 0 ||
	    get_str(r, o, "comp_dir", 1, &t->comp_dir) < 0 ||
	    get_flags(r, o, flags, sizeof(flags) / sizeof(flags[0]), &t->flags) < 0 ||
	    opt_u64(r, o, "natural_align", UINT32_MAX, t->align, &v) < 0)
		return -1;
	t->natural_align = (uint32_t)v;
	if (opt_u64(r, o, "addr_size", 255, 8, &v) < 0)
		return -1;
	t->addr_size = (uint8_t)v;
	if (!(ms = field(r, o, "members", SF_JSON_ARRAY, 0)) ||
	    read_members(r, ms, &t->members, depth) < 0)
		return -1;
	t->nmembers = ms->n;
	vs = field(r, o, "variants", SF_JSON_ARRAY, 1);
	if (!vs && sf_json_get(o, "variants"))
		return -1;
	if (vs && read_variants(r, vs, t, depth) < 0)
		return -1;
	if (is_enum != (t->nvariants > 0))
		return bad(r, is_enum ? "kind \"enum\" with no variants"
				      : "variants in a type that is not an enum");
	return 0;
}

/* ---- holes documents: summaries ---------------------------------------- */

static int read_public(struct rd *r, const struct sf_json *o, uint8_t *out)
{
	static const char *const words[] = {
		[SF_PUBLIC_NO] = NULL, [SF_PUBLIC_PACKED] = "packed",
		[SF_PUBLIC_INSTALLED] = "installed", [SF_PUBLIC_INCLUDE] = "include",
	};
	const struct sf_json *p = sf_json_get(o, "public");
	unsigned k;

	if (!p)
		return bad(r, "no \"public\"");
	if (p->type == SF_JSON_NULL) {
		*out = SF_PUBLIC_NO;
		return 0;
	}
	if (get_word(r, o, "public", words, sizeof(words) / sizeof(words[0]), &k) < 0)
		return -1;
	*out = (uint8_t)k;
	return 0;
}

/* "hash": 16 hex digits. */
static int read_hash(struct rd *r, const struct sf_json *o, uint64_t *out)
{
	const struct sf_json *h = field(r, o, "hash", SF_JSON_STRING, 0);
	uint64_t v = 0;

	if (!h)
		return -1;
	for (uint32_t i = 0; i < h->n; i++) {
		char c = h->s[i];
		int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
		if (d < 0 || h->n != 16) {
			push_key(r, "hash");
			return bad(r, "expected 16 hex digits");
		}
		v = v << 4 | (uint64_t)d;
	}
	if (h->n != 16) {
		push_key(r, "hash");
		return bad(r, "expected 16 hex digits");
	}
	*out = v;
	return 0;
}

static int read_summary(struct rd *r, const struct sf_json *o, struct sf_type *t)
{
	struct sf_summary *s = sf_typeset_alloc(r->scratch, sizeof(*s));
	uint16_t tflags = 0;

	if (get_str(r, o, "name", 0, &t->name) < 0 || get_kind(r, o, &t->kind, &s->is_enum) < 0 ||
	    get_u64(r, o, "size", UINT64_MAX, &t->size) < 0 ||
	    get_u64(r, o, "waste", UINT64_MAX, &s->waste) < 0 ||
	    get_u32(r, o, "holes_count", &s->nholes) < 0 ||
	    get_u64(r, o, "sum_holes", UINT64_MAX, &s->sum_holes) < 0 ||
	    get_u64(r, o, "padding", UINT64_MAX, &s->padding) < 0 ||
	    get_u64(r, o, "forced", UINT64_MAX, &s->forced) < 0 ||
	    get_str(r, o, "decl_file", 0, &t->decl_file) < 0 ||
	    get_u32(r, o, "decl_line", &t->decl_line) < 0 ||
	    get_str(r, o, "origin", 0, &t->origin) < 0 ||
	    get_flag(r, o, "typedef", 0, SF_TF_TYPEDEF, &tflags) < 0 ||
	    read_public(r, o, &s->public) < 0 || read_hash(r, o, &s->def_hash) < 0)
		return -1;
	t->flags = tflags;
	t->summary = s;
	return 0;
}

/* ---- the document ------------------------------------------------------ */

/* Element i of "types": built in scratch, copied into ts when new. */
static int read_one(struct rd *r, const struct sf_json *o, enum doc_kind kind)
{
	struct sf_type *t = sf_typeset_alloc(r->scratch, sizeof(*t));
	int rc;

	if (o->type != SF_JSON_OBJECT)
		return bad(r, "expected an object, found %s",
			   sf_json_type_name((enum sf_json_type)o->type));
	rc = kind == DOC_SHOW ? read_type(r, o, t, 0) : read_summary(r, o, t);
	if (rc < 0)
		return -1;
	t->hash = sf_type_hash(t);
	if (!sf_typeset_find_same(r->ts, t))
		sf_typeset_add_hashed(r->ts, sf_typeset_copy_type(r->ts, t));
	if (sf_typeset_bytes(r->scratch) > SCRATCH_BYTES) {
		sf_typeset_free(r->scratch);
		r->scratch = sf_typeset_new();
	}
	return 0;
}

/* A syntax error the parser met, below the path being read. */
static int syntax(struct rd *r, const struct sf_json_parser *jp)
{
	return sf_error_at(r->err, r->file, 0, 0, "$%s%s", r->where.buf, sf_json_error(jp));
}

static int read_types(struct rd *r, struct sf_json_parser *jp, enum doc_kind kind)
{
	size_t mark = push_key(r, "types");
	struct sf_json *v;
	int more;

	if (sf_json_array_begin(jp) < 0)
		return syntax(r, jp);
	for (size_t i = 0; (more = sf_json_next_item(jp)) == 1; i++) {
		size_t at = push_index(r, i);
		if (sf_json_value(jp, &v) < 0)
			return syntax(r, jp);
		if (read_one(r, v, kind) < 0)
			return -1;
		sf_json_reset(jp);
		pop(r, at);
	}
	if (more < 0)
		return syntax(r, jp);
	pop(r, mark);
	return 0;
}

/* "schema": structfit/1, or the one line saying why not. */
static int check_schema(struct rd *r, const struct sf_json *v)
{
	size_t mark = push_key(r, "schema");
	unsigned long n;
	char tail;

	if (v->type != SF_JSON_STRING)
		return bad(r, "expected \"%s\", found %s", SF_JSON_SCHEMA,
			   sf_json_type_name((enum sf_json_type)v->type));
	if (!strcmp(v->s, SF_JSON_SCHEMA)) {
		pop(r, mark);
		return 0;
	}
	if (sscanf(v->s, "structfit/%lu%c", &n, &tail) == 1 && n > 1)
		return bad(r, "\"%s\" is newer than this structfit reads (%s): "
			   "read it with a newer structfit", v->s, SF_JSON_SCHEMA);
	return bad(r, "\"%.100s\" is not a structfit document schema (%s expected)", v->s,
		   SF_JSON_SCHEMA);
}

/* "command": which command wrote it, and whether it carries types. */
static int check_command(struct rd *r, const struct sf_json *v, enum doc_kind *kind)
{
	size_t mark = push_key(r, "command");

	if (v->type != SF_JSON_STRING)
		return bad(r, "expected a string, found %s",
			   sf_json_type_name((enum sf_json_type)v->type));
	if (!strcmp(v->s, "show"))
		*kind = DOC_SHOW;
	else if (!strcmp(v->s, "holes") && r->summaries)
		*kind = DOC_HOLES;
	else if (!strcmp(v->s, "holes"))
		return bad(r, "a `holes` document has no members; this needs the types whole: "
			   "give it a `structfit show --format json` document");
	else
		return bad(r, "a `%.40s` document carries no types: give a "
			   "`structfit show --format json` document", v->s);
	pop(r, mark);
	return 0;
}

/* The top object, key by key; "types" after "schema" and "command". */
static int read_doc(struct rd *r, struct sf_json_parser *jp)
{
	enum doc_kind kind = DOC_NONE;
	int schema = 0, types = 0, more;
	const char *key;
	struct sf_json *v;

	if (sf_json_object_begin(jp) < 0)
		return syntax(r, jp);
	while ((more = sf_json_next_key(jp, &key)) == 1) {
		if (!strcmp(key, "types")) {
			if (!schema || kind == DOC_NONE)
				return bad(r, "\"types\" before \"schema\" and \"command\": "
					   "not a document structfit wrote");
			if (read_types(r, jp, kind) < 0)
				return -1;
			types = 1;
			continue;
		}
		int is_schema = !strcmp(key, "schema"), is_command = !strcmp(key, "command");
		size_t mark = push_key(r, key);
		if (sf_json_value(jp, &v) < 0)
			return syntax(r, jp);
		pop(r, mark);
		if ((is_schema && check_schema(r, v) < 0) ||
		    (is_command && check_command(r, v, &kind) < 0))
			return -1;
		schema |= is_schema;
		sf_json_reset(jp);
	}
	if (more < 0 || sf_json_end(jp) < 0)
		return syntax(r, jp);
	if (!schema)
		return bad(r, "no \"schema\": not a structfit document");
	if (kind == DOC_NONE)
		return bad(r, "no \"command\"");
	if (!types)
		return bad(r, "no \"types\"");
	return 0;
}

int sf_jsondoc_load(struct sf_typeset *ts, const unsigned char *img, size_t size,
		    const char *path, int summaries, struct sf_err *err)
{
	struct sf_json_parser jp;
	struct rd r = {
		.ts = ts, .scratch = sf_typeset_new(), .file = path, .err = err,
		.where = STRBUF_INIT, .summaries = summaries,
	};

	sb_adds(&r.where, "");
	sf_json_init(&jp, (const char *)img, size, 0);
	int rc = read_doc(&r, &jp);
	sf_json_release(&jp);
	sf_typeset_free(r.scratch);
	sb_release(&r.where);
	return rc < 0 ? -1 : 0;
}
