/*
 * json.c - `show --format json`: the facts of report/text.c for machines.
 *
 * The document is {"schema":"structfit/1","command":"show","types":[T,...]} with one type object per line, so it
 * streams (begin, one call per type, end) and stays greppable.  A type
 * object carries the model (name, kind, size, align, decl_file, decl_line,
 * origin, flags as booleans, members) and the layout (holes, bit_holes,
 * padding, bit_padding, sums, cachelines).  A member whose type is an
 * anonymous struct/union carries that type as "nested", a type object of
 * the same shape (its holes computed in the nested layout); one that
 * points to an anonymous struct/union carries it as "points_to" (offsets
 * from 0, not part of this layout), and one whose type is (or points to)
 * an anonymous enum its "enumerators", [{"name":..., "value":...}], the
 * values signed when the member is.  An enum with data (Rust) has
 * "variants": per variant its "discr_value" (null: the default one), its
 * "own_waste" beyond what all variants waste, and the variant as the
 * struct it is in memory (the fields of a type object, discriminant
 * included unless it is a niche).  Fields a reader needs to rebuild the
 * model exactly (input/jsondoc.c) come after the layout's: natural_align,
 * addr_size, comp_dir, declaration, btf per type; type_suffix (the part of
 * "type" after the name), discr, rust per member.  Every number
 * is an integer; every string goes through sb_add_json_str(), so the
 * output is valid JSON whatever bytes the names hold.
 */
#include "report.h"

#include <assert.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static void key(struct strbuf *sb, const char *k)
{
	sb_add_json_str(sb, k);
	sb_addch(sb, ':');
}

static void str_field(struct strbuf *sb, const char *k, const char *v)
{
	key(sb, k);
	sb_add_json_str(sb, v ? v : "");
	sb_addch(sb, ',');
}

static void num_field(struct strbuf *sb, const char *k, uint64_t v)
{
	key(sb, k);
	sb_addf(sb, "%" PRIu64 ",", v);
}

static void bool_field(struct strbuf *sb, const char *k, bool v)
{
	key(sb, k);
	sb_adds(sb, v ? "true," : "false,");
}

/* Drop the comma the last field left, before a closing bracket. */
static void close_with(struct strbuf *sb, char c)
{
	if (sb->len && sb->buf[sb->len - 1] == ',')
		sb_setlen(sb, sb->len - 1);
	sb_addch(sb, c);
}

static const char *tclass_name(uint8_t tc)
{
	static const char *const names[] = {
		[SF_T_OTHER] = "other", [SF_T_INT] = "int",
		[SF_T_BOOL] = "bool", [SF_T_ENUM] = "enum",
		[SF_T_FLOAT] = "float", [SF_T_POINTER] = "pointer",
		[SF_T_STRUCT] = "struct", [SF_T_UNION] = "union",
		[SF_T_ARRAY] = "array",
	};

	return tc < sizeof(names) / sizeof(names[0]) && names[tc] ? names[tc]
								  : "other";
}

/* The member's full C type with no name: "char[3][4]", "void (*)(int)". */
static void type_field(struct strbuf *sb, const struct sf_member *m)
{
	struct strbuf t = STRBUF_INIT;

	sb_adds(&t, m->type_name ? m->type_name : "");
	sb_adds(&t, m->type_suffix ? m->type_suffix : "");
	str_field(sb, "type", t.buf);
	sb_release(&t);
}

static void type_object(struct strbuf *sb, const struct sf_type *t,
			const struct sf_layout *l);

static void member_object(struct strbuf *sb, const struct sf_type *t,
			  const struct sf_layout *l, uint32_t i)
{
	const struct sf_member *m = &t->members[i];

	sb_addch(sb, '{');
	str_field(sb, "name", m->name);
	type_field(sb, m);
	str_field(sb, "tclass", tclass_name(m->tclass));
	num_field(sb, "offset", m->offset);
	num_field(sb, "size", m->size);
	if (sf_member_is_bitfield(m)) {
		num_field(sb, "bit_offset", m->bit_offset);
		num_field(sb, "bit_size", m->bit_size);
	}
	num_field(sb, "align", m->align);
	bool_field(sb, "bitfield", sf_member_is_bitfield(m));
	bool_field(sb, "base", m->flags & SF_MF_BASE);
	bool_field(sb, "virtual_base", m->flags & SF_MF_VIRTUAL_BASE);
	bool_field(sb, "vptr", m->flags & SF_MF_VPTR);
	bool_field(sb, "flex_array", m->flags & SF_MF_FLEX_ARRAY);
	bool_field(sb, "signed", m->flags & SF_MF_SIGNED);
	bool_field(sb, "aligned", m->flags & SF_MF_ALIGNED);
	bool_field(sb, "incomplete", m->flags & SF_MF_INCOMPLETE);
	/* what a reader needs to split "type" and know the flags (jsondoc.c) */
	str_field(sb, "type_suffix", m->type_suffix);
	bool_field(sb, "discr", m->flags & SF_MF_DISCR);
	bool_field(sb, "rust", m->flags & SF_MF_RUST);
	if (m->nested) {
		const struct sf_layout *nl = sf_layout_nested(l, i);
		assert(nl);
		key(sb, (m->flags & SF_MF_POINTEE) ? "points_to" : "nested");
		type_object(sb, m->nested, nl);
		sb_addch(sb, ',');
	}
	if (m->enums) {
		key(sb, "enumerators");
		sb_addch(sb, '[');
		for (uint32_t k = 0; k < m->enums->n; k++) {
			const struct sf_enumerator *e = &m->enums->v[k];
			sb_addch(sb, '{');
			str_field(sb, "name", e->name);
			key(sb, "value");
			if (m->flags & SF_MF_SIGNED)
				sb_addf(sb, "%" PRId64, (int64_t)e->value);
			else
				sb_addf(sb, "%" PRIu64, e->value);
			sb_adds(sb, k + 1 < m->enums->n ? "}," : "}");
		}
		sb_adds(sb, "],");
	}
	close_with(sb, '}');
}

static const char *member_name(const struct sf_type *t, uint32_t i)
{
	return i == SF_NO_MEMBER || i >= t->nmembers ? NULL
						     : t->members[i].name;
}

static void after_field(struct strbuf *sb, const struct sf_type *t,
			uint32_t after)
{
	const char *n = member_name(t, after);

	key(sb, "after");
	if (n)
		sb_add_json_str(sb, n);
	else
		sb_adds(sb, "null");
	sb_addch(sb, ',');
}

static void holes_array(struct strbuf *sb, const struct sf_type *t,
			const struct sf_layout *l)
{
	key(sb, "holes");
	sb_addch(sb, '[');
	for (uint32_t i = 0; i < l->nholes; i++) {
		sb_addch(sb, '{');
		num_field(sb, "offset", l->holes[i].offset);
		num_field(sb, "size", l->holes[i].size);
		after_field(sb, t, l->holes[i].after);
		close_with(sb, '}');
		sb_addch(sb, ',');
	}
	close_with(sb, ']');
	sb_addch(sb, ',');

	key(sb, "bit_holes");
	sb_addch(sb, '[');
	for (uint32_t i = 0; i < l->nbit_holes; i++) {
		sb_addch(sb, '{');
		num_field(sb, "offset", l->bit_holes[i].offset);
		num_field(sb, "bit_offset", l->bit_holes[i].bit_offset);
		num_field(sb, "bits", l->bit_holes[i].bits);
		after_field(sb, t, l->bit_holes[i].after);
		close_with(sb, '}');
		sb_addch(sb, ',');
	}
	close_with(sb, ']');
	sb_addch(sb, ',');
}

static void type_fields(struct strbuf *sb, const struct sf_type *t,
			const struct sf_layout *l);

static void type_object(struct strbuf *sb, const struct sf_type *t,
			const struct sf_layout *l)
{
	sb_addch(sb, '{');
	type_fields(sb, t, l);
	close_with(sb, '}');
}

/*
 * Variant k of an enum: its discriminant value (null for the default
 * variant), then the variant as the struct it is in memory (see
 * sf_variant_type), with its own holes, padding and waste.
 */
static void variant_object(struct strbuf *sb, const struct sf_type *t,
			   const struct sf_layout *common, uint32_t k)
{
	const struct sf_variant *v = &t->variants[k];
	const struct sf_type *vt = &common->variants[k].type;
	const struct sf_layout *vl = &common->variants[k].layout;

	sb_addch(sb, '{');
	key(sb, "discr_value");
	if (v->has_discr_value)
		sb_addf(sb, "%" PRIu64 ",", v->discr_value);
	else
		sb_adds(sb, "null,");
	num_field(sb, "own_waste", sf_layout_waste(vl) > sf_layout_waste(common)
		  ? sf_layout_waste(vl) - sf_layout_waste(common) : 0);
	type_fields(sb, vt, vl);
	close_with(sb, '}');
}

/* "name":[each(0),...,each(n-1)]: the members or the variants of t. */
static void object_array(struct strbuf *sb, const char *name, const struct sf_type *t,
			 const struct sf_layout *l, uint32_t n,
			 void (*each)(struct strbuf *, const struct sf_type *,
				      const struct sf_layout *, uint32_t))
{
	key(sb, name);
	sb_addch(sb, '[');
	for (uint32_t i = 0; i < n; i++) {
		each(sb, t, l, i);
		sb_addch(sb, ',');
	}
	close_with(sb, ']');
}

/* What the layout's numbers do not say and a reader of the document needs
 * to give the answers the build gives (input/jsondoc.c). */
static void model_fields(struct strbuf *sb, const struct sf_type *t)
{
	num_field(sb, "natural_align", t->natural_align);
	num_field(sb, "addr_size", t->addr_size);
	str_field(sb, "comp_dir", t->comp_dir);
	bool_field(sb, "declaration", t->flags & SF_TF_DECLARATION);
	bool_field(sb, "btf", t->flags & SF_TF_BTF);
}

static void type_fields(struct strbuf *sb, const struct sf_type *t,
			const struct sf_layout *l)
{
	str_field(sb, "name", t->name);
	str_field(sb, "kind", sf_type_kind_name(t));
	num_field(sb, "size", t->size);
	num_field(sb, "align", t->align);
	str_field(sb, "decl_file", t->decl_file);
	num_field(sb, "decl_line", t->decl_line);
	str_field(sb, "origin", t->origin);
	bool_field(sb, "packed", t->flags & SF_TF_PACKED);
	bool_field(sb, "aligned", t->flags & SF_TF_ALIGNED);
	bool_field(sb, "variant", t->flags & SF_TF_VARIANT);
	bool_field(sb, "incomplete", t->flags & SF_TF_INCOMPLETE);
	bool_field(sb, "cxx", t->flags & SF_TF_CXX);
	bool_field(sb, "typedef", t->flags & SF_TF_TYPEDEF);
	bool_field(sb, "rust", t->flags & SF_TF_RUST);
	bool_field(sb, "reordered", t->flags & SF_TF_REORDERED);
	if (t->nvariants)
		bool_field(sb, "niche", t->flags & SF_TF_NICHE);
	num_field(sb, "members_count", l->members);
	num_field(sb, "sum_members", l->sum_members);
	num_field(sb, "sum_bitfield_bits", l->sum_bitfield_bits);
	num_field(sb, "holes_count", l->nholes);
	num_field(sb, "sum_holes", l->sum_holes);
	num_field(sb, "bit_holes_count", l->nbit_holes);
	num_field(sb, "sum_bit_holes", l->sum_bit_holes);
	num_field(sb, "padding", l->padding);
	num_field(sb, "bit_padding", l->bit_padding);
	num_field(sb, "waste", sf_layout_waste(l));
	num_field(sb, "forced", sf_layout_forced(l));
	num_field(sb, "cacheline", l->cacheline);
	num_field(sb, "cachelines", l->cachelines);
	num_field(sb, "last_cacheline", l->last_cacheline);
	model_fields(sb, t);
	holes_array(sb, t, l);
	object_array(sb, "members", t, l, t->nmembers, member_object);
	if (t->nvariants) {
		sb_addch(sb, ',');
		object_array(sb, "variants", t, l, t->nvariants, variant_object);
	}
}

void sf_json_doc_open(struct strbuf *out, const char *command)
{
	sb_adds(out, "{\"schema\":\"" SF_JSON_SCHEMA "\",\"command\":");
	sb_add_json_str(out, command);
	sb_addch(out, ',');
}

void sf_render_json_begin(struct strbuf *out, struct sf_json_stream *js)
{
	js->ntypes = 0;
	sf_json_doc_open(out, "show");
	sb_adds(out, "\"types\":[");
}

void sf_render_json_type(struct strbuf *out, struct sf_json_stream *js,
			 const struct sf_type *t, const struct sf_layout *l)
{
	assert(l->size == t->size);
	sb_adds(out, js->ntypes ? ",\n" : "\n");
	type_object(out, t, l);
	js->ntypes++;
}

void sf_render_json_end(struct strbuf *out, struct sf_json_stream *js)
{
	sb_adds(out, js->ntypes ? "\n]}\n" : "]}\n");
}
