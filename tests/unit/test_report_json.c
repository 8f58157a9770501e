/*
 * test_report_json.c - `show --format json` and `holes --format json`.
 *
 * Models as in test_holes.c (C declaration next to each).  Every document
 * is run through a small strict JSON parser below (RFC 8259 grammar, no
 * extensions), then checked for the exact fields the layout computed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "layout/holes.h"
#include "layout/rank.h"
#include "lib/strbuf.h"
#include "report/report.h"
#include "model_util.h"

/* ---- a strict JSON parser: returns the end of the value or NULL -------- */

static const char *ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

static const char *value(const char *p, int depth);

static const char *string(const char *p)
{
	if (*p++ != '"')
		return NULL;
	for (;;) {
		unsigned char c = (unsigned char)*p++;
		if (c == '"')
			return p;
		if (c < 0x20)
			return NULL;          /* raw control characters */
		if (c != '\\')
			continue;
		c = (unsigned char)*p++;
		if (c == 'u') {
			for (int i = 0; i < 4; i++, p++)
				if (!strchr("0123456789abcdefABCDEF", *p) || !*p)
					return NULL;
		} else if (!c || !strchr("\"\\/bfnrt", c)) {
			return NULL;
		}
	}
}

static const char *number(const char *p)
{
	const char *s = p;

	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else if (*p >= '1' && *p <= '9')
		while (*p >= '0' && *p <= '9')
			p++;
	else
		return NULL;
	if (*p == '.') {
		if (!(*++p >= '0' && *p <= '9'))
			return NULL;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	return p > s ? p : NULL;
}

static const char *members(const char *p, char close, int depth, bool obj)
{
	p = ws(p);
	if (*p == close)
		return p + 1;
	for (;;) {
		if (obj) {
			p = string(ws(p));
			if (!p || *(p = ws(p)) != ':')
				return NULL;
			p++;
		}
		p = value(p, depth + 1);
		if (!p)
			return NULL;
		p = ws(p);
		if (*p == close)
			return p + 1;
		if (*p++ != ',')
			return NULL;
	}
}

static const char *value(const char *p, int depth)
{
	if (depth > 64)
		return NULL;
	p = ws(p);
	switch (*p) {
	case '{':
		return members(p + 1, '}', depth, true);
	case '[':
		return members(p + 1, ']', depth, false);
	case '"':
		return string(p);
	case 't':
		return strncmp(p, "true", 4) ? NULL : p + 4;
	case 'f':
		return strncmp(p, "false", 5) ? NULL : p + 5;
	case 'n':
		return strncmp(p, "null", 4) ? NULL : p + 4;
	default:
		return number(p);
	}
}

static void assert_valid_json(const char *doc)
{
	const char *end = value(doc, 0);

	assert_non_null(end);
	assert_string_equal(ws(end), "");
}

static void assert_prefix(const char *s, const char *prefix)
{
	assert_memory_equal(s, prefix, strlen(prefix));
}

/* The show document for one type. */
static char *show_json(const struct sf_type *t)
{
	struct strbuf sb = STRBUF_INIT;
	struct sf_json_stream js = SF_JSON_STREAM_INIT;
	struct sf_layout l;

	sf_layout_compute(t, 64, &l);
	sf_render_json_begin(&sb, &js);
	sf_render_json_type(&sb, &js, t, &l);
	sf_render_json_end(&sb, &js);
	sf_layout_release(&l);
	assert_valid_json(sb.buf);
	return sb_detach(&sb);
}

static void test_parser_rejects_bad_json(void **state)
{
	(void)state;
	assert_null(value("{\"a\":1,}", 0));
	assert_null(value("[1 2]", 0));
	assert_null(value("\"a\nb\"", 0));
	assert_null(value("\"\\x\"", 0));
	assert_null(value("{a:1}", 0));
	assert_non_null(value("{\"a\":[true,false,null,-0,1.5,\"\\u00e9\"]}", 0));
}

/* struct b3 { long l; int x:4; };  the whole document, exactly */
static struct sf_member b3_m[] = {
	MEM("l", "long int", "", 0, 8, 8, SF_T_INT),
	BITF("x", "int", 8, 4, 0, 4),
};
static const struct sf_type b3 = TYPE_AT("b3", SF_KIND_STRUCT, 16, 8, b3_m, 7);

static void test_whole_document(void **state)
{
	char *doc;

	(void)state;
	b3_m[1].flags |= SF_MF_SIGNED;
	doc = show_json(&b3);
	assert_string_equal(doc,
		"{\"schema\":\"structfit/1\",\"command\":\"show\",\"types\":[\n"
		"{\"name\":\"b3\",\"kind\":\"struct\",\"size\":16,\"align\":8,"
		"\"decl_file\":\"t.c\",\"decl_line\":7,\"origin\":\"t.o\","
		"\"packed\":false,\"aligned\":false,\"variant\":false,"
		"\"incomplete\":false,\"cxx\":false,\"typedef\":false,"
		"\"rust\":false,\"reordered\":false,"
		"\"members_count\":2,"
		"\"sum_members\":8,\"sum_bitfield_bits\":4,\"holes_count\":0,"
		"\"sum_holes\":0,\"bit_holes_count\":0,\"sum_bit_holes\":0,"
		"\"padding\":4,\"bit_padding\":28,\"waste\":4,\"forced\":0,\"cacheline\":64,"
		"\"cachelines\":1,\"last_cacheline\":16,\"natural_align\":0,\"addr_size\":8,"
		"\"comp_dir\":\"\",\"declaration\":false,\"btf\":false,\"holes\":[],"
		"\"bit_holes\":[],\"members\":["
		"{\"name\":\"l\",\"type\":\"long int\",\"tclass\":\"int\","
		"\"offset\":0,\"size\":8,\"align\":8,\"bitfield\":false,"
		"\"base\":false,\"virtual_base\":false,\"vptr\":false,"
		"\"flex_array\":false,\"signed\":false,\"aligned\":false,"
		"\"incomplete\":false,\"type_suffix\":\"\",\"discr\":false,\"rust\":false},"
		"{\"name\":\"x\",\"type\":\"int\",\"tclass\":\"int\","
		"\"offset\":8,\"size\":4,\"bit_offset\":0,\"bit_size\":4,"
		"\"align\":4,\"bitfield\":true,\"base\":false,"
		"\"virtual_base\":false,\"vptr\":false,\"flex_array\":false,"
		"\"signed\":true,\"aligned\":false,\"incomplete\":false,\"type_suffix\":\"\","
		"\"discr\":false,\"rust\":false}]}\n"
		"]}\n");
	free(doc);
}

/* struct st_table (testdata/example/st_table.c) */
static struct sf_member st_table_m[] = {
	ST_TABLE_MEMBERS
};
static const struct sf_type st_table = TYPE_AT("st_table", SF_KIND_STRUCT, 48, 8,
					       st_table_m, 7);

static void test_st_table_holes(void **state)
{
	char *doc;

	(void)state;
	doc = show_json(&st_table);
	assert_non_null(strstr(doc, "\"holes\":[{\"offset\":3,\"size\":1,"
				    "\"after\":\"size_ind\"}]"));
	assert_non_null(strstr(doc, "\"members_count\":9,\"sum_members\":47,"));
	assert_non_null(strstr(doc, "\"sum_holes\":1,"));
	assert_non_null(strstr(doc, "\"padding\":0,"));
	assert_non_null(strstr(doc, "{\"name\":\"type\",\"type\":\"const struct "
				    "st_hash_type *\",\"tclass\":\"pointer\","
				    "\"offset\":8,\"size\":8,"));
	free(doc);
}

/* struct fp { void (*cb)(int); char arr[3][4]; }: full C spellings */
static struct sf_member fp_m[] = {
	MEM("cb", "void (*", ")(int)", 0, 8, 8, SF_T_POINTER),
	MEM("arr", "char", "[3][4]", 8, 12, 1, SF_T_ARRAY),
};
static const struct sf_type fp = TYPE_AT("fp", SF_KIND_STRUCT, 24, 8, fp_m, 7);

static void test_member_types_are_full_c_spellings(void **state)
{
	char *doc;

	(void)state;
	doc = show_json(&fp);
	assert_non_null(strstr(doc, "\"type\":\"void (*)(int)\""));
	assert_non_null(strstr(doc, "\"type\":\"char[3][4]\""));
	assert_non_null(strstr(doc, "\"padding\":4,"));
	free(doc);
}

/* struct bf2 { unsigned a:1; unsigned :0; unsigned b:2; char c; unsigned d:30; }; */
static struct sf_member bf2_m[] = {
	BITF("a", "unsigned int", 0, 4, 0, 1),
	BITF("b", "unsigned int", 4, 4, 0, 2),
	MEM("c", "char", "", 5, 1, 1, SF_T_INT),
	BITF("d", "unsigned int", 8, 4, 0, 30),
};
static const struct sf_type bf2 = TYPE_AT("bf2", SF_KIND_STRUCT, 12, 4, bf2_m, 7);

static void test_bit_holes(void **state)
{
	char *doc;

	(void)state;
	doc = show_json(&bf2);
	assert_non_null(strstr(doc,
		"\"bit_holes\":[{\"offset\":0,\"bit_offset\":1,\"bits\":31,"
		"\"after\":\"a\"},{\"offset\":4,\"bit_offset\":2,\"bits\":6,"
		"\"after\":\"b\"}]"));
	assert_non_null(strstr(doc, "\"holes\":[{\"offset\":6,\"size\":2,"
				    "\"after\":\"c\"}]"));
	assert_non_null(strstr(doc, "\"bit_padding\":2,"));
	free(doc);
}

/* struct anon { int a; struct { char p; int q; } s2; }; */
static struct sf_member s2_m[] = {
	MEM("p", "char", "", 4, 1, 1, SF_T_INT),
	MEM("q", "int", "", 8, 4, 4, SF_T_INT),
};
static const struct sf_type s2 = TYPE_AT("", SF_KIND_STRUCT, 8, 4, s2_m, 7);
static struct sf_member anon_m[] = {
	MEM("a", "int", "", 0, 4, 4, SF_T_INT),
	NEST("s2", 4, 8, 4, SF_T_STRUCT, &s2),
};
static const struct sf_type anon = TYPE_AT("anon", SF_KIND_STRUCT, 12, 4, anon_m, 7);

static void test_nested_type_object(void **state)
{
	char *doc;

	(void)state;
	doc = show_json(&anon);
	assert_non_null(strstr(doc, "\"name\":\"s2\",\"type\":\"\",\"tclass\":"
				    "\"struct\",\"offset\":4,\"size\":8,"));
	assert_non_null(strstr(doc, "\"nested\":{\"name\":\"\",\"kind\":"
				    "\"struct\",\"size\":8,"));
	assert_non_null(strstr(doc, "\"holes\":[{\"offset\":5,\"size\":3,"
				    "\"after\":\"p\"}]"));
	free(doc);
}

/* Names with every character JSON must escape still make valid JSON. */
static struct sf_member odd_m[] = {
	MEM("q\"uote", "back\\slash", "", 0, 4, 4, SF_T_INT),
	MEM("nl\nand\ttab\x01", "char", "", 4, 1, 1, SF_T_INT),
};
static const struct sf_type odd = TYPE_AT("we\"ird\\name\x1f", SF_KIND_UNION, 4,
					  4, odd_m, 7);

static void test_escaping(void **state)
{
	char *doc;

	(void)state;
	doc = show_json(&odd);                /* asserts validity */
	assert_non_null(strstr(doc, "\"kind\":\"union\""));
	assert_null(strchr(doc, '\t'));
	free(doc);
}

/* Nonsense from a broken input (members far past the end, overlapping,
 * a bit-field wider than its unit) still renders, as valid JSON and text. */
static struct sf_member far_m[] = {
	MEM("a", "char", "", 0, 1, 1, SF_T_INT),
	MEM("b", "char", "", 1000, 1, 1, SF_T_INT),
	MEM("c", "long int", "", 2, 8, 8, SF_T_INT),
	BITF("d", "int", 4000, 4, 30, 70),
};
static const struct sf_type far = TYPE_AT("far", SF_KIND_STRUCT, 4, 1, far_m, 7);

/* A corrupt, enormous size: no endless "Force padding" lines. */
static struct sf_member huge_m[] = {
	MEM("c", "char", "", 0, 1, 1, SF_T_INT),
};
static const struct sf_type huge = TYPE_AT("huge", SF_KIND_STRUCT,
					   (uint64_t)1 << 63, 1, huge_m, 7);

static void test_broken_model_still_renders(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct sf_text_opts to = { .cacheline = 64 };
	struct sf_layout l;
	char *doc;

	(void)state;
	doc = show_json(&far);
	assert_non_null(strstr(doc, "\"padding\":0,\"bit_padding\":0,"));
	free(doc);
	sf_layout_compute(&far, 64, &l);
	sf_render_text_type(&sb, &far, &l, &to);
	assert_non_null(strstr(sb.buf, "\t/* size: 4, cachelines: 1, members: 4 */\n"));
	assert_non_null(strstr(sb.buf, "/* --- cacheline 15 boundary (960 bytes) "
				       "was 40 bytes ago --- */"));
	sf_layout_release(&l);
	sb_reset(&sb);

	sf_layout_compute(&huge, 64, &l);
	assert_true(l.irregular);
	assert_int_equal(l.padding, ((uint64_t)1 << 63) - 1);
	sf_render_text_type(&sb, &huge, &l, &to);
	assert_null(strstr(sb.buf, "Force padding"));
	assert_non_null(strstr(sb.buf, "/* size: 9223372036854775808, "));
	sf_layout_release(&l);
	sb_release(&sb);
	free(show_json(&huge));
}

static void test_stream_of_types(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct sf_json_stream js = SF_JSON_STREAM_INIT;
	const struct sf_type *types[] = { &b3, &st_table, &bf2, &anon, &odd };

	(void)state;
	sf_render_json_begin(&sb, &js);
	sf_render_json_end(&sb, &js);
	assert_string_equal(sb.buf, "{\"schema\":\"structfit/1\",\"command\":\"show\",\"types\":[]}\n");
	sb_reset(&sb);

	sf_render_json_begin(&sb, &js);
	for (size_t i = 0; i < 5; i++) {
		struct sf_layout l;
		sf_layout_compute(types[i], 64, &l);
		sf_render_json_type(&sb, &js, types[i], &l);
		sf_layout_release(&l);
	}
	sf_render_json_end(&sb, &js);
	assert_int_equal(js.ntypes, 5);
	assert_valid_json(sb.buf);
	sb_release(&sb);
}

static void test_rank_json(void **state)
{
	struct sf_rank_opts o = { .sort = SF_RANK_BY_WASTE };
	const struct sf_type *types[] = { &b3, &st_table, &bf2, &odd };
	struct strbuf sb = STRBUF_INIT;
	struct sf_rank r;

	(void)state;
	sf_rank_init(&r, &o);
	for (size_t i = 0; i < 4; i++) {
		struct sf_layout l;
		sf_layout_compute(types[i], 64, &l);
		sf_rank_add(&r, types[i], &l);
		sf_layout_release(&l);
	}
	sf_rank_finish(&r);
	sf_render_rank_json(&sb, &r);
	assert_valid_json(sb.buf);
	/* b3 wastes 4, bf2 2, st_table 1, the union 0 */
	assert_prefix(sb.buf,
		"{\"schema\":\"structfit/1\",\"command\":\"holes\",\"types\":[\n{\"name\":\"b3\",\"kind\":\"struct\",\"size\":16,"
		"\"waste\":4,\"holes_count\":0,\"sum_holes\":0,\"padding\":4,"
		"\"forced\":0,\"decl_file\":\"t.c\",\"decl_line\":7,\"origin\":\"t.o\","
		"\"variant\":false,\"typedef\":false,\"public\":null,"
		"\"hash\":\"0000000000000000\"},\n{\"name\":\"bf2\",");
	assert_non_null(strstr(sb.buf, "{\"name\":\"st_table\",\"kind\":\"struct\","
				       "\"size\":48,\"waste\":1,\"holes_count\":1,"
				       "\"sum_holes\":1,\"padding\":0,"));
	sb_reset(&sb);

	r.n = 0;
	sf_render_rank_json(&sb, &r);
	assert_string_equal(sb.buf, "{\"schema\":\"structfit/1\",\"command\":\"holes\",\"types\":[]}\n");
	sb_release(&sb);
	sf_rank_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parser_rejects_bad_json),
		cmocka_unit_test(test_whole_document),
		cmocka_unit_test(test_st_table_holes),
		cmocka_unit_test(test_member_types_are_full_c_spellings),
		cmocka_unit_test(test_bit_holes),
		cmocka_unit_test(test_nested_type_object),
		cmocka_unit_test(test_escaping),
		cmocka_unit_test(test_broken_model_still_renders),
		cmocka_unit_test(test_stream_of_types),
		cmocka_unit_test(test_rank_json),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
