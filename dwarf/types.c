/*
 * types.c - type DIEs to struct tinfo: what a type means to a member.
 *
 * rd_resolve() decodes a type DIE once per unit into a tinfo (C spelling
 * as left/right pieces around the member name, size, alignment, class,
 * signedness, the aggregate whose layout it needs).  Pointer,
 * cv-qualifier, typedef, array and function DIEs compose their target's
 * pieces the way C declarators nest.  Chains are bounded
 * (MAX_RESOLVE_DEPTH) and cycles resolve to the reader's bad_ti.
 *
 * The tinfo cache: an open-addressing table from a DIE's key (its section
 * offset, the section and file in the top bits) to its tinfo; slots carry
 * the unit's generation, so forgetting a unit's tinfos is gen++.
 */
#include "reader_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dwarf.h>

#include "model/abi.h"
#include "model/spelling.h"
#include "lib/hash.h"
#include "lib/xalloc.h"

/* ---- tinfo cache ------------------------------------------------------- */

/* Slots by the DIE's offset (sf_offset_slot): a key's top bits (section,
 * alt file) only tell keys of one slot apart. */

static struct tinfo *cache_get(struct sf_reader *r, uint64_t key)
{
	if (!r->mapcap)
		return NULL;
	for (size_t j = sf_offset_slot(key) & (r->mapcap - 1);; j = (j + 1) & (r->mapcap - 1)) {
		struct slot *s = &r->map[j];
		if (s->gen != r->gen)
			return NULL;
		if (s->key == key)
			return s->ti;
	}
}

/* Grow the slots in use to ncap within those allocated: the unit's own
 * slots (of its generation, all below mapcap) are taken out and put back;
 * those from mapcap to ncap are of earlier units, free. */
static void cache_widen(struct sf_reader *r, size_t ncap)
{
	struct slot *live = rd_arena_alloc_raw(&r->arena, sizeof(*live) * (r->mapcount ? r->mapcount : 1));
	size_t n = 0;

	assert(ncap <= r->mapalloc && ncap > r->mapcap);
	for (size_t i = 0; i < r->mapcap; i++) {
		if (r->map[i].gen != r->gen)
			continue;
		assert(n < r->mapcount);
		live[n++] = r->map[i];
		r->map[i].gen = 0;	/* never a current generation */
	}
	r->mapcap = ncap;
	for (size_t k = 0; k < n; k++) {
		size_t j = sf_offset_slot(live[k].key) & (ncap - 1);
		while (r->map[j].gen == r->gen)
			j = (j + 1) & (ncap - 1);
		r->map[j] = live[k];
	}
}

static void cache_put(struct sf_reader *r, uint64_t key, struct tinfo *ti)
{
	if ((r->mapcount + 1) * 2 > r->mapcap && r->mapcap && r->mapcap * 2 <= r->mapalloc) {
		cache_widen(r, r->mapcap * 2);
	} else if ((r->mapcount + 1) * 2 > r->mapcap) {
		size_t ncap = r->mapcap ? r->mapcap * 2 : MAP_START;
		struct slot *n = sf_xcalloc_table(ncap, sizeof(*n));
		for (size_t i = 0; i < r->mapcap; i++) {
			if (r->map[i].gen != r->gen)
				continue;
			size_t j = sf_offset_slot(r->map[i].key) & (ncap - 1);
			while (n[j].gen == r->gen && n[j].ti)
				j = (j + 1) & (ncap - 1);
			n[j] = r->map[i];
		}
		free(r->map);
		r->map = n;
		r->mapcap = r->mapalloc = ncap;
	}
	size_t j = sf_offset_slot(key) & (r->mapcap - 1);
	while (r->map[j].gen == r->gen && r->map[j].key != key)
		j = (j + 1) & (r->mapcap - 1);
	if (r->map[j].gen != r->gen)
		r->mapcount++;
	r->map[j].key = key;
	r->map[j].gen = r->gen;
	r->map[j].ti = ti;
}

/* The tinfo of the DIE at off of unit uh, when resolved already. */
struct tinfo *rd_cached(struct sf_reader *r, struct uh *uh, uint64_t off)
{
	return cache_get(r, rd_key_of(uh, off));
}

/* ---- resolving type DIEs ------------------------------------------------ */

/*
 * The unit a reference of d lands in: d's own file, or with `alt` the
 * alt file's .debug_info.  NULL (and the reader failed)
 * for a reference into an alt file this file does not name.
 */
struct uh *rd_ref_unit(struct sf_reader *r, struct uh *uh, const struct sf_die *d,
			   uint64_t off, int alt)
{
	if (!alt)
		return rd_uh_for(r, uh->cx.f, uh->cx.u->sect, off);
	if (!uh->cx.f->alt) {
		if (!r->failed)
			sf_error_at(r->err, uh->cx.f->label, 0, 0,
					"DIE at 0x%llx refers to a dwz alt file, but %s "
				 "names none (no .gnu_debugaltlink or .debug_sup)",
				 (unsigned long long)d->off, uh->in_alt ? "the alt file" : "the file");
		r->failed = 1;
		return NULL;
	}
	return rd_uh_for(r, uh->cx.f->alt, SF_SEC_INFO, off);
}

/* The type a DIE's DW_AT_type names (void when it has none). */
struct tinfo *rd_resolve_ref(struct sf_reader *r, struct uh *uh, const struct sf_die *d,
				 unsigned depth)
{
	if (d->has & SF_A_SIG8) {
		long i = sf_dwfile_sig_unit(r->f, d->sig8);
		if (i < 0)
			return &r->bad_ti;
		const struct sf_unit *u = &r->f->units[i];
		struct uh *tu = rd_uh_for(r, r->f, u->sect, u->type_die);
		return tu ? rd_resolve(r, tu, u->type_die, depth + 1) : &r->bad_ti;
	}
	if (d->has & SF_A_TYPE) {
		struct uh *to = rd_ref_unit(r, uh, d, d->type, (d->has & SF_A_ALT) != 0);
		return to ? rd_resolve(r, to, d->type, depth + 1) : &r->bad_ti;
	}
	return &r->void_ti;
}

static struct tinfo *new_ti(struct sf_reader *r, struct uh *uh, uint64_t off)
{
	struct tinfo *ti = rd_arena_alloc(&r->arena, sizeof(*ti));

	ti->key = rd_key_of(uh, off);
	ti->unit = uh;
	ti->left = rd_unknown(r);
	ti->right = rd_empty(r);
	ti->qname = ti->right;
	cache_put(r, ti->key, ti);
	return ti;
}

/* Copy what a typedef or cv-qualifier passes through from its target. */
static void inherit(const struct sf_reader *r, struct tinfo *ti, const struct tinfo *t)
{
	ti->size = t->size;
	ti->align = t->align;
	ti->align_attr = t->align_attr;
	ti->tclass = t->tclass;
	ti->agg = t->agg;
	ti->decl_count = t->decl_count;
	ti->flags |= t->flags & (TI_SIGNED | TI_ALIGNED | TI_DECL | TI_FLEX |
				 TI_UNSIZED);
	if (t == &r->bad_ti)
		ti->flags |= TI_UNSIZED;
}

static void base_type(struct sf_reader *r, struct uh *uh, struct tinfo *ti,
		      const struct sf_die *d)
{
	enum sf_abi_kind k = SF_ABI_INT;

	ti->left = rd_isec(r, d->name ? d->name : "?");
	ti->size = (d->has & SF_A_BYTE_SIZE) ? d->byte_size
		 : (d->has & SF_A_BIT_SIZE) ? (d->bit_size + 7) / 8 : 0;
	switch (d->encoding) {
	case DW_ATE_boolean:
		ti->tclass = SF_T_BOOL;
		break;
	case DW_ATE_float: case DW_ATE_decimal_float: case DW_ATE_imaginary_float:
		ti->tclass = SF_T_FLOAT;
		k = SF_ABI_FLOAT;
		break;
	case DW_ATE_complex_float:
		ti->tclass = SF_T_FLOAT;
		k = SF_ABI_COMPLEX;
		break;
	case DW_ATE_signed: case DW_ATE_signed_char: case DW_ATE_signed_fixed:
		ti->tclass = SF_T_INT;
		ti->flags |= TI_SIGNED;
		break;
	case DW_ATE_unsigned: case DW_ATE_unsigned_char: case DW_ATE_unsigned_fixed:
	case DW_ATE_UTF:
		ti->tclass = SF_T_INT;
		break;
	case DW_ATE_address:
		ti->tclass = SF_T_POINTER;
		k = SF_ABI_POINTER;
		break;
	default:
		ti->tclass = SF_T_OTHER;
	}
	ti->align = sf_abi_align(uh->abi, k, ti->size);
}

static void pointer_type(struct sf_reader *r, struct uh *uh, struct tinfo *ti,
			 const struct sf_die *d, const char *sym, unsigned depth)
{
	struct tinfo *t = rd_resolve_ref(r, uh, d, depth);

	if (t->flags & (TI_FUNC | TI_ARRAY)) {
		ti->left = rd_spell(r, t->left, " (", sym);
		ti->right = rd_spell(r, ")", t->right, "");
	} else if (*t->right || (t->flags & TI_PTR)) {
		/* pointer to pointer (to function): "void (**", "char **" */
		ti->left = rd_spell(r, t->left, sym, "");
		ti->right = t->right;
	} else {
		ti->left = rd_spell(r, t->left, " ", sym);
	}
	/* pahole prints the body of an anonymous type pointed to directly */
	if (*sym == '*' && !sym[1] && (t->flags & TI_ANON))
		ti->pointee = t;
	ti->flags |= TI_PTR;
	ti->tclass = SF_T_POINTER;
	ti->size = (d->has & SF_A_BYTE_SIZE) ? d->byte_size : uh->cx.u->addr_size;
	ti->align = sf_abi_align(uh->abi, SF_ABI_POINTER, ti->size);
}

static void cv_type(struct sf_reader *r, struct uh *uh, struct tinfo *ti,
		    const struct sf_die *d, const char *word, unsigned depth)
{
	struct tinfo *t = rd_resolve_ref(r, uh, d, depth);

	inherit(r, ti, t);
	/* after a '*' the qualifier binds to the pointer: "char * const" */
	if ((t->flags & TI_PTR) || t->right[0] == ')') {
		ti->left = rd_spell(r, t->left, " ", word);
		ti->right = t->right;
		return;
	}
	/* gcc qualifies an array and its element both (volatile -> array
	 * -> volatile -> int); the qualifier of an array is its element's
	 * (C11 6.7.3p9), said once, as gdb does */
	if ((t->flags & TI_ARRAY) && sf_spelling_has_word(t->left, word))
		ti->left = t->left;
	else
		ti->left = rd_spell(r, word, " ", t->left);
	ti->right = t->right;
	ti->flags |= t->flags & (TI_ARRAY | TI_FUNC);
	/* a qualified anonymous aggregate is shown nested, its body laid
	 * out (vm_fault's `const struct { ... };`), as an unqualified one */
	ti->anon = t->anon;
	ti->anon_enum = t->anon_enum;
}

static void typedef_type(struct sf_reader *r, struct uh *uh, struct tinfo *ti,
			 const struct sf_die *d, unsigned depth)
{
	struct tinfo *t = rd_resolve_ref(r, uh, d, depth);

	inherit(r, ti, t);
	ti->qname = rd_die_qname(r, uh, d);
	if (!ti->qname)
		ti->qname = rd_unknown(r);
	ti->left = ti->qname;
	if (d->has & SF_A_ALIGNMENT) {
		ti->align_attr = (uint32_t)d->alignment;
		ti->flags |= TI_ALIGNED;
	}
	/* what pahole -E prints for it: the chain, then the type below */
	struct tdspell *td = rd_arena_alloc(&r->arena, sizeof(*td));
	if (t->td && (t->flags & TI_ARRAY)) {
		/* an array of a typedef: pahole says both chains */
		*td = *t->td;
		td->chain = rd_icat(r, ti->qname, " */ /* typedef ", t->td->chain);
	} else if (t->td) {
		*td = *t->td;
		td->chain = rd_icat(r, ti->qname, " -> ", t->td->chain);
	} else {
		td->chain = ti->qname;
		td->uleft = t->left;
		td->uright = t->vattr ? t->vattr : t->right;	/* pahole: no dims */
		td->uenum = t->anon_enum == t ? t : NULL;
	}
	ti->td = td;
}

static void aggregate_type(struct sf_reader *r, struct uh *uh, struct tinfo *ti,
			   const struct sf_die *d)
{
	ti->flags |= TI_AGG;
	ti->agg = ti;
	ti->kind = d->tag == DW_TAG_union_type ? SF_KIND_UNION
		 : d->tag == DW_TAG_class_type ? SF_KIND_CLASS : SF_KIND_STRUCT;
	ti->tclass = ti->kind == SF_KIND_UNION ? SF_T_UNION : SF_T_STRUCT;
	ti->keyword = rd_isec(r, sf_kind_name(ti->kind));
	const char *name = rd_die_qname_spelled(r, uh, d, ti->keyword, &ti->left);
	ti->qname = name ? name : rd_empty(r);
	if (!name)
		ti->left = rd_spell(r, ti->keyword, " {...}", "");
	ti->size = d->byte_size;
	if ((d->has & SF_A_DECLARATION) && !(d->has & SF_A_BYTE_SIZE))
		ti->flags |= TI_DECL;
	else if (!name)
		ti->flags |= TI_ANON, ti->anon = ti;
	if (d->has & SF_A_ALIGNMENT) {
		ti->align_attr = (uint32_t)d->alignment;
		/* rustc states every type's alignment: only one beyond the
		 * natural alignment was asked for (rd_layout() decides) */
		if (uh->cx.lang != DW_LANG_Rust)
			ti->flags |= TI_ALIGNED;
	}
}

static void enum_type(struct sf_reader *r, struct uh *uh, struct tinfo *ti,
		      const struct sf_die *d, unsigned depth)
{
	struct tinfo *under = (d->has & (SF_A_TYPE | SF_A_ALT)) ? rd_resolve_ref(r, uh, d, depth) : NULL;

	const char *name = rd_die_qname_spelled(r, uh, d, "enum", &ti->left);
	ti->qname = name ? name : rd_empty(r);
	if (!name)
		ti->left = rd_isec(r, "enum {...}");
	if (!name && !(d->has & SF_A_DECLARATION))
		ti->flags |= TI_ANON, ti->anon_enum = ti;
	ti->tclass = SF_T_ENUM;
	ti->size = (d->has & SF_A_BYTE_SIZE) ? d->byte_size : under ? under->size : 0;
	if (under ? (under->flags & TI_SIGNED) != 0
		  : d->encoding == DW_ATE_signed || d->encoding == DW_ATE_signed_char)
		ti->flags |= TI_SIGNED;
	ti->align = under && under->align ? under->align
				  : sf_abi_align(uh->abi, SF_ABI_INT, ti->size);
}

static void add_dim(struct strbuf *dims, int known, uint64_t n)
{
	char digits[24];
	size_t i = sizeof(digits);

	sb_addch(dims, '[');
	if (known) {
		do
			digits[--i] = (char)('0' + n % 10);
		while ((n /= 10));
		sb_add(dims, digits + i, sizeof(digits) - i);
	}
	sb_addch(dims, ']');
}

/* "[3][4]" from the subrange children; *nelem 0 when a bound is unknown. */
static int array_dims(struct sf_reader *r, struct uh *uh, const struct sf_die *d,
		      struct strbuf *dims, uint64_t *nelem, int *zero)
{
	struct sf_die c;
	uint64_t off = d->next;

	*nelem = 1;
	*zero = 0;
	if (!d->children)
		return 0;
	for (;;) {
		if (rd_read_die(r, uh, off, &c) < 0)
			return -1;
		if (c.tag == 0)
			return 0;
		if (c.tag == DW_TAG_subrange_type || c.tag == DW_TAG_enumeration_type) {
			int known = 1;
			uint64_t n = 0;
			if (c.has & SF_A_COUNT)
				n = c.count;
			else if ((c.has & SF_A_UPPER_BOUND) && c.upper_bound != -1)
				n = (uint64_t)(c.upper_bound - ((c.has & SF_A_LOWER_BOUND) ? c.lower_bound : 0)) + 1;
			else if (c.has & SF_A_UPPER_BOUND)
				n = 0;	/* GNU "[0]" spelled as upper bound -1 (die.c) */
			else
				known = 0;
			add_dim(dims, known, n);
			if (!known || n == 0)
				*zero = 1;
			*nelem = (n && *nelem <= UINT64_MAX / n) ? *nelem * n : (n ? UINT64_MAX : 0);
		}
		if (rd_skip_die(r, uh, &c, &off) < 0)
			return -1;
	}
}

static void array_type(struct sf_reader *r, struct uh *uh, struct tinfo *ti,
		       const struct sf_die *d, unsigned depth)
{
	struct tinfo *e = rd_resolve_ref(r, uh, d, depth);
	struct strbuf dims = STRBUF_INIT;
	uint64_t nelem;
	int zero;

	if (array_dims(r, uh, d, &dims, &nelem, &zero) < 0) {
		sb_release(&dims);
		return;
	}
	if (!dims.len)
		sb_adds(&dims, "[]");
	ti->left = e->left;
	ti->right = rd_icat(r, dims.buf, e->right, "");
	if (e->td && !(e->flags & TI_ARRAY)) {	/* an array of a typedef */
		struct tdspell *td = rd_arena_alloc(&r->arena, sizeof(*td));
		*td = *e->td;
		td->uright = rd_icat(r, e->td->uright, dims.buf, "");	/* pahole's order */
		ti->td = td;
	}
	ti->rust_elem_size = e->size;
	sb_release(&dims);
	ti->flags |= TI_ARRAY | (e->flags & (TI_SIGNED | TI_ALIGNED | TI_DECL));
	ti->tclass = SF_T_ARRAY;
	ti->agg = e->agg;
	ti->anon = e->anon;
	ti->anon_enum = e->anon_enum;
	ti->pointee = e->pointee;
	ti->align = e->align;
	ti->align_attr = e->align_attr;
	if (d->has & SF_A_BYTE_SIZE)
		ti->size = d->byte_size;
	else if (e->size && nelem > UINT64_MAX / e->size)
		ti->size = UINT64_MAX;
	else
		ti->size = e->size * nelem;
	/* its size is known only once the element's definition is found
	 * (reader.c complete_member): it takes this many */
	if (e->flags & TI_DECL) {
		uint64_t per = e->decl_count ? e->decl_count : 1;
		ti->decl_count = nelem && per > UINT64_MAX / nelem ? UINT64_MAX : per * nelem;
	}
	if (zero && !(d->has & SF_A_BYTE_SIZE)) {
		ti->flags |= TI_FLEX;
		ti->size = 0;
	}
	if (d->has & SF_A_VECTOR) {
		char attr[64];
		ti->align = sf_abi_align(uh->abi, SF_ABI_VECTOR, ti->size);
		snprintf(attr, sizeof(attr), " __attribute__ ((__vector_size__ (%llu)))",
			 (unsigned long long)ti->size);
		ti->vattr = rd_icat(r, attr, "", "");	/* by content */
	}
}

static void function_type(struct sf_reader *r, struct uh *uh, struct tinfo *ti,
			  const struct sf_die *d, unsigned depth)
{
	struct tinfo *ret = rd_resolve_ref(r, uh, d, depth);
	struct strbuf sb = STRBUF_INIT;
	struct sf_die c;
	uint64_t off = d->next;
	int n = 0;

	sb_addch(&sb, '(');
	while (d->children) {
		if (rd_read_die(r, uh, off, &c) < 0)
			break;
		if (c.tag == 0)
			break;
		if (c.tag == DW_TAG_formal_parameter) {
			struct tinfo *p = rd_resolve_ref(r, uh, &c, depth);
			sb_adds(&sb, n++ ? ", " : "");
			sb_adds(&sb, p->left);
			sb_adds(&sb, p->right);
		} else if (c.tag == DW_TAG_unspecified_parameters) {
			/* C's unprototyped "int (*f)()" says only this; alone
			 * in C++ (the vtable's "int (**)(void)") pahole
			 * prints (void) */
			if (n)
				sb_adds(&sb, ", ...");
			else if (sf_lang_is_c(uh->cx.lang) && !(d->has & SF_A_PROTOTYPED))
				n++;
		}
		if (rd_skip_die(r, uh, &c, &off) < 0)
			break;
	}
	/* an empty list is (void) when prototyped - C++ always is */
	if (!n && ((d->has & SF_A_PROTOTYPED) || !sf_lang_is_c(uh->cx.lang)))
		sb_adds(&sb, "void");
	sb_addch(&sb, ')');
	ti->left = ret->left;
	ti->right = rd_icat(r, sb.buf, ret->right, "");
	sb_release(&sb);
	ti->flags |= TI_FUNC;
	ti->tclass = SF_T_OTHER;
	/* a Go func value is a pointer-sized subroutine type: its own
	 * DW_AT_byte_size wins over "a function has no size" */
	if (d->has & SF_A_BYTE_SIZE) {
		ti->size = d->byte_size;
		ti->align = sf_abi_align(uh->abi, SF_ABI_POINTER, ti->size);
	}
}

static void member_ptr_type(struct sf_reader *r, struct uh *uh, struct tinfo *ti,
			    const struct sf_die *d, unsigned depth)
{
	struct tinfo *t = rd_resolve_ref(r, uh, d, depth);

	if (t->flags & TI_FUNC) {
		ti->left = rd_spell(r, t->left, " (::*", "");
		ti->right = rd_spell(r, ")", t->right, "");
	} else {
		ti->left = rd_spell(r, t->left, " ::*", "");
	}
	ti->tclass = SF_T_OTHER;
	ti->size = (d->has & SF_A_BYTE_SIZE) ? d->byte_size
		 : (uint64_t)uh->cx.u->addr_size * ((t->flags & TI_FUNC) ? 2 : 1);
	ti->align = sf_abi_align(uh->abi, SF_ABI_POINTER, uh->cx.u->addr_size);
}

static void fill_ti(struct sf_reader *r, struct uh *uh, struct tinfo *ti,
		    const struct sf_die *d, unsigned depth)
{
	switch (d->tag) {
	case DW_TAG_base_type:
		base_type(r, uh, ti, d);
		break;
	case DW_TAG_pointer_type:
		pointer_type(r, uh, ti, d, "*", depth);
		break;
	case DW_TAG_reference_type:
		pointer_type(r, uh, ti, d, "&", depth);
		break;
	case DW_TAG_rvalue_reference_type:
		pointer_type(r, uh, ti, d, "&&", depth);
		break;
	case DW_TAG_const_type:
		cv_type(r, uh, ti, d, "const", depth);
		break;
	case DW_TAG_volatile_type:
		cv_type(r, uh, ti, d, "volatile", depth);
		break;
	case DW_TAG_restrict_type:
		cv_type(r, uh, ti, d, "restrict", depth);
		break;
	case DW_TAG_atomic_type:
		cv_type(r, uh, ti, d, "_Atomic", depth);
		break;
	case DW_TAG_typedef:
		typedef_type(r, uh, ti, d, depth);
		break;
	case DW_TAG_structure_type: case DW_TAG_class_type:
	case DW_TAG_union_type: case DW_TAG_interface_type:
		aggregate_type(r, uh, ti, d);
		break;
	case DW_TAG_enumeration_type:
		enum_type(r, uh, ti, d, depth);
		break;
	case DW_TAG_array_type:
		array_type(r, uh, ti, d, depth);
		break;
	case DW_TAG_subroutine_type:
		function_type(r, uh, ti, d, depth);
		break;
	case DW_TAG_ptr_to_member_type:
		member_ptr_type(r, uh, ti, d, depth);
		break;
	case DW_TAG_unspecified_type:
		ti->left = rd_isec(r, d->name ? d->name : "void");
		ti->size = d->byte_size;
		ti->align = sf_abi_align(uh->abi, SF_ABI_POINTER, ti->size);
		break;
	default:
		/* a kind of type C has no word for (Ada, Fortran...) */
		ti->left = rd_isec(r, d->name ? d->name : "?");
		ti->size = d->byte_size;
		ti->align = sf_abi_align(uh->abi, SF_ABI_INT, ti->size);
	}
}

/*
 * Rust spells types its own way, and rustc names most of them in the
 * DWARF: "*const u8", "&yjit::Block", "[u8; 4]", a struct by its path
 * with no keyword ("core::option::Option<yjit::CodePtr>").
 */
static void rust_spelling(struct sf_reader *r, struct tinfo *ti, const struct sf_die *d)
{
	char n[24];

	switch (d->tag) {
	case DW_TAG_pointer_type: case DW_TAG_reference_type:
		if (d->name) {
			ti->left = rd_isec(r, d->name);
			ti->right = rd_empty(r);
		}
		break;
	case DW_TAG_structure_type: case DW_TAG_union_type: case DW_TAG_class_type:
	case DW_TAG_enumeration_type:
		if (*ti->qname)
			ti->left = ti->qname;
		break;
	case DW_TAG_array_type:
		if (ti->flags & TI_FLEX)
			break;
		snprintf(n, sizeof(n), "%llu", (unsigned long long)(ti->size / (ti->rust_elem_size ? ti->rust_elem_size : 1)));
		ti->left = rd_icat(r, "[", ti->left, rd_icat(r, "; ", n, "]"));
		ti->right = rd_empty(r);
		ti->flags &= ~TI_ARRAY;
		break;
	}
}

struct tinfo *rd_resolve(struct sf_reader *r, struct uh *uh, uint64_t off, unsigned depth)
{
	struct tinfo *ti = cache_get(r, rd_key_of(uh, off));
	struct sf_die d;

	/* a cycle (its result depends on the way in) or a chain long enough
	 * that a fingerprinted type could meet the limit (reader.c, dedup) */
	if ((ti && (ti->flags & TI_BUSY)) || depth > MAX_RESOLVE_DEPTH - SF_FP_MAX_DEPTH)
		r->unclean = 1;
	if (ti)
		return (ti->flags & TI_BUSY) ? &r->bad_ti : ti;
	if (depth > MAX_RESOLVE_DEPTH || r->failed)
		return &r->bad_ti;
	if (rd_read_die(r, uh, off, &d) < 0)
		return &r->bad_ti;
	/* a declaration standing for a definition in a type unit */
	if (d.has & SF_A_SIGNATURE) {
		long i = sf_dwfile_sig_unit(r->f, d.sig8);
		if (i >= 0) {
			const struct sf_unit *u = &r->f->units[i];
			struct uh *tu = rd_uh_for(r, r->f, u->sect, u->type_die);
			if (tu && tu != uh) {
				ti = rd_resolve(r, tu, u->type_die, depth + 1);
				cache_put(r, rd_key_of(uh, off), ti);
				return ti;
			}
		}
	}
	ti = new_ti(r, uh, off);
	ti->flags |= TI_BUSY;
	fill_ti(r, uh, ti, &d, depth);
	if (uh->cx.lang == DW_LANG_Rust)
		rust_spelling(r, ti, &d);
	ti->flags &= ~TI_BUSY;
	return ti;
}
