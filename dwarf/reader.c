/*
 * reader.c - build sf_types from the DIEs of a range of units.
 *
 * Per unit, every type DIE that a struct needs is decoded once into a
 * `struct tinfo` (what the type means to a member of that type: its C
 * spelling, size, alignment, class, signedness) and cached by section
 * offset (types.c).  Aggregates get a second, lazy stage, `rd_layout()`
 * (members.c), that builds their member list and leaves what DWARF does
 * not say to the model's pass (model/infer.h, sf_model_infer; a held-back
 * C++ type runs it again once completed: settle_pending); it runs only for types
 * that are reported or that are members by value of one that is
 * (pointers need only a spelling).  All of that lives in a scratch arena
 * reset after each unit:
 *
 *   unit ---> tinfo cache (offset -> tinfo, generation-stamped slots)
 *               tinfo: left/right spelling, size, align, tclass, flags,
 *                      agg -> tinfo of the aggregate giving the layout,
 *                      model -> struct xtype (scratch sf_type + members)
 *
 * A reported type is compared with what the output (and the caller's
 * typeset) already hold; only a new definition is deep-copied into the
 * output typeset, with its strings interned.  So peak memory is the
 * unique types plus one unit's scratch, however many units repeat them.
 *
 * The walk only lists the unit's types to report; they are laid out and
 * reported once it ends (report_tops), because DWARF does not say
 * "packed": a struct whose own layout looks natural may show it is packed
 * only where a later type holds it (model/packing.c's evidence, marked
 * by members.c's mark_packed), and the types laid out
 * before then took its old alignment.  With -t NAME only the named types
 * are laid out, so such evidence from other types of the unit is not
 * seen there.
 *
 * Most of a unit's types were laid out in an earlier unit (the same
 * headers): before laying out, each is fingerprinted from its DIEs and
 * one laid out already is skipped (dedup.c says when that is exact).
 *
 * C spelling: a type is two pieces around the member name, left and
 * right: "int (*" + name + ")(void)", "char" + name + "[3][4]".  Pointer,
 * cv-qualifier, array and function DIEs compose those pieces the way C
 * declarators nest.
 *
 * dwz: a compile unit imports partial units (DW_TAG_imported_unit) of its
 * own file or of the alt file, and refers to their DIEs (DW_FORM_ref_addr,
 * DW_FORM_GNU_ref_alt).  A unit handle belongs to one of the two files
 * (uh->cx.f), and tinfo keys carry which.  The types of a partial unit are
 * reported where it is first imported, with the importing unit's language
 * (dwz's partial units have none), once per reader; so an alt file shared
 * by several programs yields only the types this one imports.  A unit's
 * types are reported in the order of their declarations (order_tops), the
 * one order dwz leaves as it was.
 *
 * Qualified names (C++): a pre-pass over a non-C unit records the offset
 * ranges of namespaces and classes, so a DIE's scope is found by offset
 * even when it is referenced before the walk reaches it.
 *
 * Recursion is bounded everywhere (type chains, layout nesting, scopes),
 * so hostile DWARF costs a bounded amount of stack and never loops.
 *
 * This file holds the walk over a unit's DIEs, what is reported and kept
 * (deduplicated, deep-copied into the output), the pending types and the
 * reader's life cycle; the other pieces of the reader are arena.c,
 * units.c, types.c and members.c (the map is in reader_int.h).
 */
#include "reader_int.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dwarf.h>

#include "model/infer.h"
#include "model/spelling.h"
#include "lib/checked.h"
#include "lib/hash.h"
#include "lib/xalloc.h"

/* ---- output -------------------------------------------------------------- */

/* The path DW_AT_decl_file idx of unit uh names (valid until the next call). */
static const char *srcfile(struct sf_reader *r, struct uh *uh, uint32_t idx)
{
	if (r->files_unit != uh->cx.unit_index + 1 || r->files_file != uh->cx.f) {
		sf_files_release(&r->files);
		r->files_file = uh->cx.f;
		r->files_unit = uh->cx.unit_index + 1;
		if (sf_ucx_files(&uh->cx, &r->files) < 0)
			sf_files_release(&r->files);	/* corrupt: no names */
	}
	return sf_files_path(&r->files, idx, &r->path);
}

/*
 * The comp dir of the unit srcfile() last named a file of, interned in ts;
 * a dwz partial unit has none of its own: its types were compiled where
 * the unit importing it (the one walked) was, as gdb takes it.
 */
static const char *unit_comp_dir(const struct sf_reader *r, struct sf_typeset *ts)
{
	const char *dir = r->files.comp_dir;

	if (!dir || !*dir)
		dir = r->cur.cx.comp_dir;

	return dir && *dir ? sf_typeset_intern(ts, dir) : "";
}

/* The variants of src in ts's arena (their members have no nested types). */
static struct sf_variant *copy_variants(struct sf_typeset *ts, const struct sf_type *src,
					int interned)
{
	struct sf_variant *v = sf_typeset_alloc(ts, sizeof(*v) * src->nvariants);

	for (uint32_t k = 0; k < src->nvariants; k++) {
		const struct sf_variant *s = &src->variants[k];
		v[k] = *s;
		v[k].name = interned ? s->name : sf_typeset_intern(ts, s->name);
		v[k].members = sf_typeset_alloc(ts, sizeof(*v[k].members) * (s->nmembers ? s->nmembers : 1));
		for (uint32_t i = 0; i < s->nmembers; i++) {
			struct sf_member *m = &v[k].members[i];
			*m = s->members[i];
			m->nested = NULL;
			m->enums = NULL;
			m->tdef = NULL;
			if (!interned) {
				m->name = sf_typeset_intern(ts, m->name);
				m->type_name = sf_typeset_intern(ts, m->type_name);
				m->type_suffix = sf_typeset_intern(ts, m->type_suffix);
			}
		}
	}
	return v;
}

/*
 * Copy a scratch type into ts's arena.  Strings are interned unless they
 * already are (`interned`: the reader's own output pool).
 */
static struct sf_type *deep_copy(struct sf_typeset *ts, const struct sf_type *src,
				 const char *decl_file, const char *origin, int interned,
				 unsigned depth)
{
	struct sf_type *t = sf_typeset_alloc(ts, sizeof(*t));

	*t = *src;
	t->name = interned ? src->name : sf_typeset_intern_type_name(ts, (enum sf_kind)src->kind,
								     src->name);
	t->decl_file = sf_typeset_intern(ts, decl_file);
	t->comp_dir = src->comp_dir && *src->comp_dir ? sf_typeset_intern(ts, src->comp_dir) : "";
	t->unit_name = src->unit_name && *src->unit_name ? sf_typeset_intern(ts, src->unit_name) : "";
	t->origin = origin;
	t->members = sf_typeset_alloc(ts, sizeof(*t->members) * (src->nmembers ? src->nmembers : 1));
	for (uint32_t i = 0; i < src->nmembers; i++) {
		const struct sf_member *s = &src->members[i];
		struct sf_member *m = &t->members[i];
		*m = *s;
		if (!interned) {
			m->name = sf_typeset_intern(ts, s->name);
			m->type_name = sf_typeset_intern(ts, s->type_name);
			m->type_suffix = sf_typeset_intern(ts, s->type_suffix);
		}
		m->tdef = s->tdef ? sf_typedef_of_copy(ts, s->tdef, !interned) : NULL;
		m->nested = s->nested && depth < MAX_LAYOUT_DEPTH
			  ? deep_copy(ts, s->nested, "", origin, interned, depth + 1) : NULL;
		if (s->enums)
			m->enums = sf_enum_copy(ts, s->enums, !interned);
	}
	if (src->nvariants)
		t->variants = copy_variants(ts, src, interned);
	return t;
}

/* Is a type equal to t among those this reader kept?  (by interned name) */
static int have_out(const struct sf_reader *r, const struct sf_type *t)
{
	if (!r->namecap)
		return 0;
	size_t j = sf_mix64((uintptr_t)t->name) & (r->namecap - 1);
	for (; r->name_key[j]; j = (j + 1) & (r->namecap - 1)) {
		if (r->name_key[j] != t->name)
			continue;
		for (uint32_t i = r->name_head[j]; i; i = r->out_next[i - 1])
			if (sf_type_equal(r->outv[i - 1], t))
				return 1;
		return 0;
	}
	return 0;
}

static void index_out(struct sf_reader *r, struct sf_type *t)
{
	if ((r->nnames + 1) * 2 > r->namecap) {
		size_t ncap = r->namecap ? r->namecap * 2 : 1024;
		const char **nk = sf_xcalloc(ncap, sizeof(*nk));
		uint32_t *nh = sf_xcalloc(ncap, sizeof(*nh));
		for (size_t i = 0; i < r->namecap; i++) {
			if (!r->name_key[i])
				continue;
			size_t j = sf_mix64((uintptr_t)r->name_key[i]) & (ncap - 1);
			while (nk[j])
				j = (j + 1) & (ncap - 1);
			nk[j] = r->name_key[i];
			nh[j] = r->name_head[i];
		}
		free(r->name_key);
		free(r->name_head);
		r->name_key = nk;
		r->name_head = nh;
		r->namecap = ncap;
	}
	SF_GROW(r->outv, r->nout, r->outcap);
	SF_GROW(r->out_next, r->nout, r->nextcap);
	r->outv[r->nout] = t;
	size_t j = sf_mix64((uintptr_t)t->name) & (r->namecap - 1);
	while (r->name_key[j] && r->name_key[j] != t->name)
		j = (j + 1) & (r->namecap - 1);
	if (!r->name_key[j]) {
		r->name_key[j] = t->name;
		r->nnames++;
	}
	r->out_next[r->nout] = r->name_head[j];
	r->name_head[j] = (uint32_t)++r->nout;
}

/* Is a type equal to t already in ts? */
static int have(const struct sf_typeset *ts, const struct sf_type *t, uint64_t name_h)
{
	const struct sf_type *found[8];
	size_t n = sf_typeset_find_named(ts, t, name_h, found, 8);

	if (n > 8) {
		const struct sf_type **all = sf_xcalloc(n, sizeof(*all));
		n = sf_typeset_find_named(ts, t, name_h, all, n);
		int hit = 0;
		for (size_t i = 0; i < n && !hit; i++)
			hit = sf_type_equal(all[i], t);
		free(all);
		return hit;
	}
	for (size_t i = 0; i < n; i++)
		if (sf_type_equal(found[i], t))
			return 1;
	return 0;
}

/* Whether `only` names this type: literally, or as a glob ('rb_*'). */
static int wanted(const struct sf_reader *r, const char *name)
{
	if (!r->only)
		return 1;
	for (size_t i = 0; r->only[i]; i++)
		if (sf_spell_name_eq(r->only[i], name) ||
		    (strpbrk(r->only[i], "*?[") && !fnmatch(r->only[i], name, 0)))
			return 1;
	return 0;
}

/* Whether `only` names this very name (no glob). */
static int named(const struct sf_reader *r, const char *name)
{
	for (size_t i = 0; r->only && r->only[i]; i++)
		if (sf_spell_name_eq(r->only[i], name))
			return 1;
	return 0;
}

static void hold_pending(struct sf_reader *r, const struct sf_type *t, const struct xtype *x)
{
	if (!r->pending_ts)
		r->pending_ts = sf_typeset_new();
	uint64_t name_h = sf_typeset_name_hash(t);
	if (have(r->pending_ts, t, name_h) || (r->held && r->held->ts && have(r->held->ts, t, name_h)))
		return;
	struct sf_typeset *pts = r->pending_ts;
	struct sf_type *copy = deep_copy(pts, t, srcfile(r, x->unit, x->file),
					 sf_typeset_intern(pts, r->origin), 0, 0);
	copy->comp_dir = unit_comp_dir(r, pts);
	sf_typeset_add(pts, copy);

	SF_GROW(r->pend, r->npend, r->pendcap);
	struct pend *p = &r->pend[r->npend++];
	memset(p, 0, sizeof(*p));
	p->t = copy;
	for (uint32_t i = 0; x->inc && i < t->nmembers; i++)
		p->n += x->inc[i] != NULL;
	p->idx = sf_typeset_alloc(pts, sizeof(*p->idx) * (p->n ? p->n : 1));
	p->qname = sf_typeset_alloc(pts, sizeof(*p->qname) * (p->n ? p->n : 1));
	p->count = sf_typeset_alloc(pts, sizeof(*p->count) * (p->n ? p->n : 1));
	p->natural = sf_typeset_alloc(pts, sizeof(*p->natural) * (t->nmembers ? t->nmembers : 1));
	memcpy(p->natural, x->natural, sizeof(*p->natural) * t->nmembers);
	p->forced = x->forced;
	for (uint32_t i = 0, k = 0; x->inc && i < t->nmembers; i++) {
		if (!x->inc[i])
			continue;
		p->idx[k] = i;
		p->count[k] = x->incn[i];
		p->qname[k++] = sf_typeset_intern(pts, x->inc[i]);
	}
}

/* Report the aggregate ti under `name` (laid out by report_tops). */
/* The scratch type top tp reports, under its name (x: its model). */
static struct sf_type top_type(const struct top *tp, const struct xtype *x)
{
	struct sf_type t = x->t;

	t.name = tp->name;
	if (tp->is_typedef)
		t.flags |= SF_TF_TYPEDEF;
	return t;
}

/* Whether top tp has nothing new to report: kept already (incomplete
 * types are held, and compared, apart). */
static int top_known(struct sf_reader *r, const struct top *tp, const struct xtype *x)
{
	struct sf_type t = top_type(tp, x);

	return !(t.flags & SF_TF_INCOMPLETE) && !x->inc &&
	       (have_out(r, &t) || (r->known && have(r->known, &t, sf_typeset_name_hash(&t))));
}

/* Report the aggregate of top tp (laid out by report_tops). */
static void add_top(struct sf_reader *r, const struct top *tp)
{
	struct xtype *x = rd_layout(r, tp->ti, 0);
	if (!x)
		return;
	struct sf_type t = top_type(tp, x);
	/* incomplete, or holding a type whose alignment is not known yet */
	if ((t.flags & SF_TF_INCOMPLETE) || x->inc) {
		hold_pending(r, &t, x);
		return;
	}
	if (have_out(r, &t) || (r->known && have(r->known, &t, sf_typeset_name_hash(&t))))
		return;
	struct sf_type *copy = deep_copy(r->out, &t, srcfile(r, x->unit, x->file),
					 rd_isec(r, r->origin), 1, 0);
	copy->comp_dir = unit_comp_dir(r, r->out);
	if (!r->memo)
		r->memo = sf_spell_memo_new();
	if (sf_typeset_add_memo(r->out, copy, r->memo) == copy)
		index_out(r, copy);
}

static void want_top_always(struct sf_reader *r, struct tinfo *ti, const char *name,
			    int is_typedef);

/*
 * The aggregate ti is to be reported under `name` once the unit is read,
 * if -t names it (wanted).  It is laid out either way: a type -t leaves
 * out may show another packed (mark_packed), and `show -t NAME` prints
 * the block `show` prints for NAME.
 */
static void want_top(struct sf_reader *r, struct tinfo *ti, const char *name, int is_typedef)
{
	if (!*name)
		return;
	want_top_always(r, ti, name, is_typedef);
	r->tops[r->ntops - 1].asked = 1;
}

static void want_top_always(struct sf_reader *r, struct tinfo *ti, const char *name,
			    int is_typedef)
{
	SF_GROW(r->tops, r->ntops, r->topcap);
	r->tops[r->ntops++] = (struct top){ .ti = ti, .name = name, .is_typedef = is_typedef };
}

/* Lay out the unit's types but the skipped ones; 1 when one was found
 * packed only where another holds it. */
static int lay_tops(struct sf_reader *r)
{
	r->repack = 0;
	for (size_t i = 0; i < r->ntops && !r->failed; i++)
		if (!r->tops[i].skip)
			rd_layout(r, r->tops[i].ti, 0);
	return r->repack;
}

static int fresh_cmp(const struct fresh *x, const struct fresh *y)
{
	int c = strcmp(x->file, y->file);

	if (!c)
		c = (x->line > y->line) - (x->line < y->line);
	if (!c)
		c = strcmp(x->tp->name, y->tp->name);
	if (!c)
		c = x->tp->is_typedef - y->tp->is_typedef;
	return c ? c : (x->seq > y->seq) - (x->seq < y->seq);
}

static int by_place(const void *a, const void *b)
{
	return fresh_cmp(a, b);
}

/*
 * The unit's types in the order of their declarations: by file, line and
 * name, not by where the DIEs lie.  dwz moves the DIEs several units share
 * into partial units, imported at the head of each unit, and keeps no
 * trace of where they were: only an order computed from the types
 * themselves is the same before and after dwz (a compiler's DIE order
 * is its own: gcc follows the text, clang the first use).
 */
/* Tell r->each_def of the unit's type tp (laid out: x), when complete. */
static void each_def(struct sf_reader *r, const struct top *tp, const struct xtype *x)
{
	struct sf_type t = top_type(tp, x);

	if (!(t.flags & SF_TF_INCOMPLETE) && !x->inc)
		r->each_def(r->each_def_arg, &t);
}

static void order_tops(struct sf_reader *r)
{
	int sorted = 1;

	/* only what is new to the output is placed (and its file looked
	 * up: a unit whose types are all known reads no line table) */
	r->nfresh = 0;
	for (size_t i = 0; i < r->ntops && !r->failed; i++) {
		struct top *tp = &r->tops[i];
		struct xtype *x = tp->skip ? NULL : rd_layout(r, tp->ti, 0);
		if (x && r->each_def)
			each_def(r, tp, x);
		if (!x || (tp->asked && !wanted(r, tp->name)) || top_known(r, tp, x))
			continue;
		assert(i <= UINT32_MAX);
		SF_GROW(r->fresh, r->nfresh, r->freshcap);
		r->fresh[r->nfresh++] = (struct fresh){
			.tp = tp, .file = sf_typeset_intern(r->out, srcfile(r, x->unit, x->file)),
			.line = x->t.decl_line, .seq = (uint32_t)i };
		sorted = sorted && (r->nfresh < 2 ||
				    fresh_cmp(&r->fresh[r->nfresh - 2], &r->fresh[r->nfresh - 1]) < 0);
	}
	if (!sorted)	/* gcc writes most units in this order already */
		qsort(r->fresh, r->nfresh, sizeof(*r->fresh), by_place);
}

/*
 * Lay out every type the unit reports, then report them.  A type found
 * packed only where a later one holds it (mark_packed) changes the
 * alignment of the types laid out before: the layouts that read a type
 * marked packed are made again then (rd_unlay_marked), a few times at
 * most (each pass finds a new packed type or ends).
 * With types skipped (dedup.c), evidence un-skips the types whose
 * layout a mark changes and, when there are any, starts over from
 * nothing with the others still skipped; a unit that meets a limit
 * starts over from nothing without skipping: exactly the passes of a
 * unit read in full.  Evidence also ends the layout summaries a unit
 * takes of the types its structs hold (members.c): it starts over from
 * nothing without them if it took one.
 */
static void report_tops(struct sf_reader *r)
{
	int dedup = rd_dedup_on(r);
	int skipping = dedup && rd_dedup_tops(r), evidence = 0, part = 0;

	for (int pass = 0; pass < 4 && !r->failed; pass++) {
		int again = lay_tops(r), restart = 0;
		if (again) {	/* no layout summary after a mark (members.c) */
			restart = r->sum_used && !r->sum_off;
			r->sum_off = 1;
		}
		if (skipping && again && !r->unclean && rd_dedup_unskip(r)) {
			r->counts.part_units += !part;
			part = restart = 1;
		}
		if (skipping && r->unclean) {	/* (the answers may meet one too) */
			rd_dedup_off(r);
			r->counts.part_units -= part;
			skipping = 0;
			restart = 1;
		}
		evidence |= again;
		if (restart) {
			rd_unlay_all(r);
			evidence = 0;
			pass = -1;
			continue;
		}
		if (!again)
			break;
		rd_unlay_marked(r);
	}
	order_tops(r);
	for (size_t i = 0; i < r->nfresh && !r->failed; i++)
		add_top(r, r->fresh[i].tp);
	if (dedup && !r->unclean && !r->failed) {
		rd_record_tops(r, evidence);
		if (!r->sum_off && !r->unclean)
			rd_record_sums(r);
	}
	r->ntops = 0;
}

/* ---- walking units ------------------------------------------------------- */

/* tinfo cache slots kept from one unit to the next (24 bytes each) */
#define SMALL_MAP 32768u

/*
 * A struct of a C or C++ unit, with dedup on, listed by its DW_AT_name:
 * its key takes that (in C++ beside its scope's digest, which the
 * fingerprint feeds from the scopes resolving would read: dedup.c), so it
 * is resolved only if it is not skipped (rd_dedup_tops) - most are, and
 * resolving interns its spelling.
 */
static int top_later(struct sf_reader *r, struct uh *uh, const struct sf_die *d)
{
	int c = sf_lang_is_c(uh->cx.lang);

	if (!rd_dedup_on(r) || (!c && !rd_dedup_lang(uh->cx.lang)) || (d->has & SF_A_SPECIFICATION))
		return 0;
	/* a C name is not read here: its key takes it by its .debug_str
	 * offset (sf_fp_key), and most tops are skipped by their key, so
	 * their names' bytes are never touched - testing the first for the
	 * empty name here was 3 % of show -j2 vmlinux (a cache miss into
	 * .debug_str per top).  An empty name is dropped when the top is
	 * resolved (rd_resolve_top), before anything keeps its key. */
	if (d->name && (c || *d->name)) {
		SF_GROW(r->tops, r->ntops, r->topcap);
		r->tops[r->ntops++] = (struct top){ .uh = uh, .off = d->off, .name = d->name,
						    .bare = !c, .asked = 1 };
	}
	return 1;
}

int rd_resolve_top(struct sf_reader *r, size_t i)
{
	struct top *tp = &r->tops[i];

	assert(!tp->ti);
	tp->ti = rd_resolve(r, tp->uh, tp->off, 0);
	if (!(tp->ti->flags & TI_AGG) || !*tp->ti->qname)
		return -1;	/* what want_top would not have taken */
	/* the name top_later listed, qualified and interned */
	assert(!strcmp(tp->ti->qname, tp->bare ? rd_die_qname_into(r, tp->uh, tp->off, tp->name,
								       &r->qbuf)
					       : tp->name));
	tp->name = tp->ti->qname;
	tp->bare = 0;
	return 0;
}

static void top_aggregate(struct sf_reader *r, struct uh *uh, const struct sf_die *d)
{
	if (d->has & (SF_A_DECLARATION | SF_A_SIGNATURE) || top_later(r, uh, d))
		return;
	struct tinfo *ti = rd_resolve(r, uh, d->off, 0);
	if (ti->flags & TI_AGG)
		want_top(r, ti, ti->qname, 0);
}

/*
 * Whether the type DIE at off can resolve to an anonymous aggregate, the
 * one kind a typedef reports without -t: an aggregate itself, or a
 * declaration standing for a type unit's.  A typedef of anything else
 * reports nothing then, so its target is not resolved here (a unit
 * names thousands of typedefs: u32, the kernel's function types), nor
 * is a struct's with a name of its own (`typedef struct page page_t`,
 * C++'s `typedef basic_string<char> string`): its name makes it no
 * anonymous one (types.c, aggregate_type), so resolving it would only be
 * thrown away - in C++ it interned the target's qualified name (librados:
 * 1.6 MB of the big unit's typeset at the peak).  Its scopes, which
 * naming it reads and which may be corrupt, are read for the unit's
 * named structs anyway.  A DIE that cannot be read is resolved, which
 * says why.
 */
static int may_be_aggregate(struct uh *uh, uint64_t off)
{
	struct sf_die d;

	if (sf_die_read_walk(&uh->cx, off, &d) < 0 || (d.has & SF_A_SIGNATURE))
		return 1;
	if (d.tag != DW_TAG_structure_type && d.tag != DW_TAG_class_type &&
	    d.tag != DW_TAG_union_type && d.tag != DW_TAG_interface_type)
		return 0;
	return !d.name || (d.has & SF_A_SPECIFICATION);
}

/* typedef struct { ... } name_t;  (pahole prints these by the typedef name) */
static void top_typedef(struct sf_reader *r, struct uh *uh, const struct sf_die *d)
{
	if (!d->name || !(d->has & SF_A_TYPE) || (d->has & SF_A_SIG8))
		return;
	struct uh *to = rd_ref_unit(r, uh, d, d->type, (d->has & SF_A_ALT) != 0);
	if (!to || (!r->only && !may_be_aggregate(to, d->type)))
		return;
	struct tinfo *t = rd_resolve(r, to, d->type, 0);
	if ((t->flags & TI_AGG) && (t->flags & TI_ANON)) {
		want_top(r, t, rd_die_qname(r, uh, d), 1);
		return;
	}
	/*
	 * `typedef struct _IO_FILE FILE` with -t FILE: report the aggregate
	 * under its own name, and tell the typeset FILE stands for it.
	 */
	struct tinfo *a = t->agg;
	const char *name = r->only ? rd_die_qname(r, uh, d) : NULL;
	if (!name || !a || !(a->flags & TI_AGG) || (a->flags & TI_ANON) ||
	    !a->qname || !*a->qname || !named(r, name))
		return;
	sf_typeset_add_alias(r->out, name, a->qname);
	if (!(a->flags & TI_DECL))
		want_top_always(r, a, a->qname, 0);
}

static int walk(struct sf_reader *r, struct uh *uh, uint64_t off, unsigned depth, uint64_t *end);

/*
 * DW_TAG_imported_unit: the partial unit's types are the importer's.
 * Each partial unit is walked once per reader (the types are laid out
 * once, and dwz's import chains may repeat or loop).
 */
static int walk_import(struct sf_reader *r, struct uh *uh, const struct sf_die *d)
{
	struct sf_die pd;
	uint64_t end;

	if (!(d->has2 & SF_A2_IMPORT))
		return 0;
	struct uh *pu = rd_ref_unit(r, uh, d, d->import, (d->has2 & SF_A2_IMPORT_ALT) != 0);
	if (!pu)
		return r->failed ? -1 : rd_corrupt(r, uh, d->off);
	const struct sf_unit *u = pu->cx.u;
	if (d->import != u->die_start)
		return rd_corrupt(r, uh, d->off);	/* must name the unit's DIE */
	int which = pu->in_alt;
	if (!r->walked[which])
		r->walked[which] = sf_xcalloc(pu->cx.f->nunits, 1);
	if (r->walked[which][pu->cx.unit_index] || r->import_depth >= MAX_SCOPE_DEPTH)
		return 0;
	r->walked[which][pu->cx.unit_index] = 1;
	if (rd_read_die(r, pu, u->die_start, &pd) < 0)
		return -1;
	if (!pd.children)
		return 0;
	r->import_depth++;
	int rc = walk(r, pu, pd.next, 0, &end);
	r->import_depth--;
	return rc;
}

/* The tags walk() looks at (all below 64): every other DIE of a unit's
 * top level - functions, variables, base and pointer types, most of them -
 * is only stepped over (sf_die_find_tags), without decoding its
 * attributes. */
#define WALK_TAGS ((1ull << DW_TAG_structure_type) | (1ull << DW_TAG_class_type) | \
		   (1ull << DW_TAG_union_type) | (1ull << DW_TAG_interface_type) | \
		   (1ull << DW_TAG_namespace) | (1ull << DW_TAG_module) | \
		   (1ull << DW_TAG_typedef) | (1ull << DW_TAG_imported_unit))
static_assert(DW_TAG_imported_unit < 64 && DW_TAG_interface_type < 64 &&
	      DW_TAG_namespace < 64 && DW_TAG_module < 64, "WALK_TAGS holds every tag");

/* Every type definition in the list of DIEs starting at off. */
static int walk(struct sf_reader *r, struct uh *uh, uint64_t off, unsigned depth, uint64_t *end)
{
	struct sf_die d;
	int scoped = !sf_lang_is_c(uh->cx.lang);

	while (!r->failed) {
		/* the DIEs of no tag of WALK_TAGS are stepped over in there */
		if (sf_die_find_tags(&uh->cx, off, WALK_TAGS, &d) < 0)
			return rd_corrupt(r, uh, d.off);
		if (d.tag == 0) {
			*end = d.next;
			return 0;
		}
		int descend = 0;
		switch (d.tag) {
		case DW_TAG_structure_type: case DW_TAG_class_type:
		case DW_TAG_union_type: case DW_TAG_interface_type:
			top_aggregate(r, uh, &d);
			/* C++ nested classes; inside a Rust struct only the
			 * structs rustc makes for an enum's variants, shown
			 * within the enum */
			descend = scoped && uh->cx.lang != DW_LANG_Rust;
			break;
		case DW_TAG_namespace: case DW_TAG_module:	/* gfortran's modules */
			descend = 1;
			break;
		case DW_TAG_typedef:
			top_typedef(r, uh, &d);
			break;
		case DW_TAG_imported_unit:
			if (walk_import(r, uh, &d) < 0)
				return -1;
			break;
		}
		if (descend && d.children && depth < MAX_SCOPE_DEPTH) {
			if (walk(r, uh, d.next, depth + 1, &off) < 0)
				return -1;
		} else if (rd_skip_die(r, uh, &d, &off) < 0) {
			return -1;
		}
	}
	return -1;
}

static void end_unit(struct sf_reader *r)
{
	for (size_t i = 0; i < r->nothers; i++) {
		rd_uh_close(r->others[i]);
		free(r->others[i]);
	}
	r->nothers = 0;
	r->ntops = 0;
	rd_uh_close(&r->cur);
	sf_files_release(&r->files);
	r->files_unit = 0;
	r->files_file = NULL;
	rd_arena_reset(&r->arena);
	/* a map grown for one big unit, kept, would spread every later
	 * unit's few slots over megabytes: start small again.  Smaller
	 * than that, it is kept but the next unit starts on its first
	 * MAP_START slots: most units resolve under 256 types (vmlinux:
	 * 2,033 of its 2,172), and spread over the 8,192 slots (192 KiB)
	 * the largest left, each lookup was a miss (cache_get: 2.2 % of
	 * show -j1, 128 k of its 4.7 M last-level read misses) */
	if (r->mapalloc > SMALL_MAP) {
		free(r->map);
		r->map = NULL;
		r->mapcap = r->mapalloc = 0;
	} else if (r->mapcap > MAP_START) {
		r->mapcap = MAP_START;
	}
	if (r->fpc)
		sf_fpcache_reset(r->fpc);
	r->unclean = 0;
	r->sum_used = r->sum_off = 0;
	r->nlaid = 0;
	r->nmarks++;	/* rd_reads_packed's answers were this unit's */
	r->nmarked = 0;
	r->gen++;
	r->mapcount = 0;
	if (r->gen == 0) {	/* wrapped: stale slots could look current */
		if (r->map)
			memset(r->map, 0, r->mapalloc * sizeof(*r->map));
		r->gen = 1;
	}
}

/* Whether the unit open (r->cur) is of a language read (r->langs). */
static int lang_read(const struct sf_reader *r)
{
	unsigned lang = r->cur.cx.lang;

	return !r->langs || ((r->langs >> (lang < 64 ? lang : 0)) & 1);
}

void sf_reader_filter(struct sf_reader *r, uint64_t langs,
		      void (*each_def)(void *arg, const struct sf_type *t), void *arg)
{
	r->langs = langs;
	r->each_def = each_def;
	r->each_def_arg = arg;
}

static int read_unit(struct sf_reader *r, size_t i)
{
	struct sf_die d;
	uint64_t end;

	const struct sf_unit *u = &r->f->units[i];
	/* the tag found while parsing the unit's table, which opening it
	 * then takes (a corrupt one is parsed again there, and fails as
	 * before: sf_unit_die_tag tells its tag if it can) */
	struct sf_abbrevs own;
	int parsed = !sf_unit_die_tag_known(r->f, i) && sf_abbrevs_parse_unit(&own, r->f, i) == 0;
	/* dwz: a partial unit is read where a compile unit imports it (a
	 * file of partial units only, an alt file given itself, is read
	 * unit by unit) */
	if (sf_unit_die_tag(r->f, i) == DW_TAG_partial_unit && sf_dwfile_has_compile(r->f)) {
		if (parsed)
			sf_abbrevs_release(&own);
		return 0;
	}
	if (rd_uh_open_parsed(r, &r->cur, r->f, i, parsed ? &own : NULL) < 0)
		return -1;
	int rc = 0;
	if (u->unit_type != DW_UT_skeleton && u->die_start < u->end && lang_read(r)) {
		rc = rd_read_die(r, &r->cur, u->die_start, &d);
		if (rc == 0 && d.children)
			rc = walk(r, &r->cur, d.next, 0, &end);
		if (rc == 0)
			report_tops(r);
	}
	end_unit(r);
	return r->failed ? -1 : rc;
}

int sf_reader_units(struct sf_reader *r, size_t first, size_t last, struct sf_err *err)
{
	r->err = err;
	for (size_t i = first; i < last && i < r->f->nunits; i++) {
		if (read_unit(r, i) < 0)
			return -1;
		if (r->unit_read && i + 1 < last && i + 1 < r->f->nunits)
			r->unit_read(r->unit_read_arg, i);
	}
	return 0;
}

/* ---- pending types ------------------------------------------------------- */

/* The one size and alignment the complete definitions named qname agree
 * on in ts, or NULL (none, or differing ones). */
static const struct sf_type *definition(const struct sf_typeset *ts, const char *qname)
{
	const struct sf_type *found[16];
	/* a member's or base's type is named by its tag */
	size_t n = ts ? sf_typeset_find_ns(ts, qname, 0, found, 16) : 0;
	const struct sf_type *b = NULL;

	for (size_t i = 0; i < n && i < 16; i++) {
		if (found[i]->flags & SF_TF_INCOMPLETE)
			continue;
		if (b && (b->size != found[i]->size || b->align != found[i]->align))
			return NULL;
		b = found[i];
	}
	return b;
}

/* qname's definition in ts, else in extra, else in side (the held-back
 * types completed so far): where a pending member looks for it. */
static const struct sf_type *definition_in(const struct sf_typeset *ts,
					   const struct sf_typeset *extra,
					   const struct sf_typeset *side, const char *qname)
{
	const struct sf_type *b = definition(ts, qname);

	if (!b)
		b = definition(extra, qname);
	if (!b)
		b = definition(side, qname);
	return b;
}

/* Complete member m, count of qname (an array's elements: HotSpot's
 * `HdrSeq _global_data[316]` where HdrSeq is only declared), from the
 * definition of qname in ts, else in extra, else in side (the held-back
 * types completed so far). */
static void complete_member(const struct sf_typeset *ts, const struct sf_typeset *extra,
			    const struct sf_typeset *side, struct sf_member *m,
			    uint32_t *natural, const char *qname, uint64_t count)
{
	const struct sf_type *b = definition_in(ts, extra, side, qname);

	if (!b)
		return;
	m->size = (m->flags & SF_MF_BASE) && sf_is_empty_class(b) ? 0
		: count > 1 ? sf_mul_sat(b->size, count) : b->size;
	m->align = b->align;
	if (b->flags & SF_TF_ALIGNED)	/* see align_member */
		m->flags |= SF_MF_ALIGNED;
	*natural = b->natural_align ? b->natural_align : b->align;
	m->flags &= (uint16_t)~SF_MF_INCOMPLETE;
	sf_member_take_pad(m, m->size == b->size ? b : NULL);
}

struct sf_pending *sf_pending_new(void)
{
	return sf_xcalloc(1, sizeof(struct sf_pending));
}

/* Records pend[0..n) and the typeset *ts they point into join p's. */
static void append_pending(struct sf_pending *p, struct sf_typeset **ts,
			   const struct pend *pend, size_t n)
{
	if (!*ts)
		return;
	/* the records point into *ts's arena, which absorb hands over */
	if (!p->ts)
		p->ts = sf_typeset_new();
	sf_typeset_absorb(p->ts, *ts);
	*ts = NULL;
	for (size_t k = 0; k < n; k++) {
		SF_GROW(p->pend, p->n, p->cap);
		p->pend[p->n++] = pend[k];
	}
}

static void add_counts(struct sf_dedup_counts *to, const struct sf_dedup_counts *from)
{
	to->types += from->types;
	to->skipped += from->skipped;
	to->part_units += from->part_units;
	to->full_units += from->full_units;
}

void sf_reader_move_pending(struct sf_reader *r, struct sf_pending *p)
{
	add_counts(&p->counts, &r->counts);
	append_pending(p, &r->pending_ts, r->pend, r->npend);
	r->npend = 0;
}

const char **sf_pending_missing(const struct sf_pending *p, const struct sf_typeset *ts)
{
	const char **names = NULL;
	size_t n = 0, cap = 0;

	for (size_t k = 0; k < p->n; k++) {
		const struct pend *q = &p->pend[k];
		for (uint32_t j = 0; j < q->n; j++) {
			if (definition(ts, q->qname[j]))
				continue;
			int dup = 0;
			for (size_t i = 0; i < n && !dup; i++)
				dup = !strcmp(names[i], q->qname[j]);
			if (dup)
				continue;
			SF_GROW(names, n + 1, cap);
			names[n++] = q->qname[j];
			names[n] = NULL;
		}
	}
	return names;
}

/* Member m, complete, holds qname by value, whose layout where m's type
 * was laid out waited for a definition found elsewhere: its alignment
 * and natural alignment are the definition's (in ts, else extra, else
 * side), if found; whether it was. */
static int align_member(const struct sf_typeset *ts, const struct sf_typeset *extra,
			const struct sf_typeset *side, struct sf_member *m,
			uint32_t *natural, const char *qname)
{
	const struct sf_type *b = definition_in(ts, extra, side, qname);

	if (!b)
		return 0;
	if (!(m->flags & SF_MF_ALIGNED))
		m->align = b->align;
	/* as where the definition is in the unit (members.c: a type with
	 * DW_AT_alignment makes its members aligned): libjvm's javaVFrame
	 * read twice, its vframe base aligned(8) in one unit only */
	if (b->flags & SF_TF_ALIGNED)
		m->flags |= SF_MF_ALIGNED;
	*natural = b->natural_align ? b->natural_align : b->align;
	sf_member_take_pad(m, m->size == b->size ? b : NULL);
	return 1;
}

/* Complete what can be of q's members; whether every one is now. */
static int complete_pending(struct pend *q, const struct sf_typeset *ts,
			    const struct sf_typeset *extra, const struct sf_typeset *side)
{
	int all = 1;

	for (uint32_t j = 0; j < q->n; j++) {
		struct sf_member *m = &q->t->members[q->idx[j]];
		uint32_t *natural = &q->natural[q->idx[j]];
		if (!(m->flags & SF_MF_INCOMPLETE)) {
			all &= align_member(ts, extra, side, m, natural, q->qname[j]);
			continue;
		}
		complete_member(ts, extra, side, m, natural, q->qname[j], q->count[j]);
		all &= !(m->flags & SF_MF_INCOMPLETE);
	}
	return all;
}

/* q's layout from its members as they are now (once per type): the
 * model's pass again, its unknown members' room fitted when it was held
 * back, no evidence sought (the units that held its members are gone). */
static void settle_pending(struct pend *q)
{
	struct sf_type *t = q->t;
	struct sf_infer_in in = {
		.natural = q->natural,
		.align_attr = (t->flags & SF_TF_ALIGNED) ? t->align : 0,
		.forced = q->forced,
	};

	sf_model_infer(t, &in, NULL);
	t->flags &= (uint16_t)~SF_TF_VARIANT;
}

/*
 * A held-back type may be the base of another (std::basic_filebuf<char>,
 * itself waiting for its base, of __gnu_cxx::stdio_filebuf<char>), and
 * the order they came in says nothing of that: once done in one pass,
 * the derived type stayed incomplete when it came first - and a run of
 * another thread holding a copy that came after, completed, made -j 2
 * print both.  So: rounds, each completing what it can against ts, extra
 * and the types completed in the rounds before (settled, in `side`),
 * until a round completes no type; then every type is added to ts in the
 * order it came.
 */
void sf_pending_finish(struct sf_pending *p, struct sf_typeset *ts,
		       const struct sf_typeset *extra)
{
	struct sf_typeset *side = sf_typeset_new();
	uint8_t *settled = sf_xcalloc(p->n ? p->n : 1, 1);

	for (int progress = 1; progress;) {
		progress = 0;
		for (size_t k = 0; k < p->n; k++) {
			struct pend *q = &p->pend[k];
			if (settled[k] || !complete_pending(q, ts, extra, side))
				continue;
			settle_pending(q);
			settled[k] = progress = 1;
			sf_typeset_add(side, deep_copy(side, q->t, q->t->decl_file,
						       sf_typeset_intern(side, q->t->origin), 0, 0));
		}
	}
	for (size_t k = 0; k < p->n; k++) {
		struct sf_type *t = p->pend[k].t;
		if (!settled[k])
			settle_pending(&p->pend[k]);
		sf_typeset_add(ts, deep_copy(ts, t, t->decl_file,
					     sf_typeset_intern(ts, t->origin), 0, 0));
	}
	free(settled);
	sf_typeset_free(side);
	sf_pending_free(p);
}

struct sf_dedup_counts sf_pending_dedup_counts(const struct sf_pending *p)
{
	return p->counts;
}

void sf_pending_free(struct sf_pending *p)
{
	if (!p)
		return;
	sf_typeset_free(p->ts);
	free(p->pend);
	free(p);
}

/* ---- life cycle ----------------------------------------------------------- */

struct sf_reader *sf_reader_new(const struct sf_dwfile *f, struct sf_elf *elf,
				struct sf_typeset *out, const struct sf_typeset *known,
				const struct sf_pending *held, const char *origin,
				const char *const *only, int dedup)
{
	struct sf_reader *r = sf_xcalloc(1, sizeof(*r));

	if (dedup) {
		r->fpc = sf_fpcache_new();
		r->laid = sf_fpset_new();
		/* a file of many units repeats its types within itself: keys
		 * by string offset (fast, this file's); an archive member's
		 * few units share their types with the next file: keys by the
		 * strings' bytes, which later readers look up; a section
		 * read piecewise is large, and its count of units not known
		 * yet */
		r->local_fp = f->nunits >= LOCAL_FP_UNITS || f->streamed;
	}
	r->f = f;
	r->elf = elf;
	r->out = out;
	r->known = known;
	r->held = held;
	r->origin = origin;
	r->only = only;
	r->gen = 1;
	r->rpgen = 1;
	r->void_ti = (struct tinfo){ .left = "void", .right = "", .qname = "void" };
	r->bad_ti = (struct tinfo){ .left = "?", .right = "", .qname = "?" };
	sb_init(&r->path);
	sb_init(&r->qbuf);
	sb_init(&r->cat);
	return r;
}

/* Copy src's types that ts lacks into ts, in src's order, and its aliases. */
/* src's types not in ts yet (dup[i] == 0), copied in; name_h[i] is the
 * name hash of src's type i. */
static void copy_new_types(struct sf_typeset *ts, const struct sf_typeset *src,
			   const uint64_t *name_h, const unsigned char *dup)
{
	for (size_t i = 0; i < sf_typeset_count(src); i++) {
		const struct sf_type *t = sf_typeset_get(src, i);
		if (dup[i])
			continue;	/* an earlier run or input had it first */
		struct sf_type *copy = deep_copy(ts, t, t->decl_file,
						 sf_typeset_intern(ts, t->origin), 0, 0);
		copy->flags &= (uint16_t)~SF_TF_VARIANT;
		/* deep_copy copies t->hash, and every field it hashes:
		 * src's types are done (sf_pending_finish changes its
		 * own, and adds them hashing them again) */
		sf_typeset_add_named(ts, copy, name_h[i]);
	}
	sf_typeset_copy_aliases(ts, src);
}

/*
 * A run's types go into ts by copy when many are there already, else its
 * memory is taken over whole, duplicates' bytes with it: most of a large
 * C++ input's runs are new types (libceph-common: 95 %), and copying them
 * wrote each twice, in fresh pages, on the thread the other waited for
 * (the merges in order were a seventh of show's CPU; copied, peak memory
 * 226 MB, taken over 200 MB).  Taken over when fewer than one in
 * MERGE_COPY_FROM is a duplicate and src holds MERGE_TAKE_MIN bytes or
 * more: a small set's arena is mostly the unused end of its last chunk,
 * which a copy leaves behind (libpython's archive of 179 members: 11 MB
 * copied, 50 MB taken over).
 */
#define MERGE_COPY_FROM 8
#define MERGE_TAKE_MIN ((size_t)4 << 20)

/* src's types into ts, deduplicated: taken over or copied (above); src is
 * freed. */
static void merge_into(struct sf_typeset *ts, struct sf_typeset *src)
{
	size_t n = sf_typeset_count(src), dups = 0;

	/* into an empty set, src's types as they are (a typeset holds no
	 * two equal types): the same types in the same order, uncopied */
	if (!sf_typeset_count(ts)) {
		sf_typeset_absorb(ts, src);
		return;
	}
	int may_take = sf_typeset_bytes(src) >= MERGE_TAKE_MIN;
	uint64_t *name_h = sf_xmalloc((n ? n : 1) * sizeof(*name_h));
	unsigned char *dup = sf_xcalloc(n ? n : 1, 1);
	sf_typeset_name_hashes(src, name_h);
	for (size_t i = 0; i < n; i++) {
		const struct sf_type *t = sf_typeset_get(src, i);
		dup[i] = (unsigned char)have(ts, t, name_h[i]);
		dups += dup[i];
	}
	if (may_take && dups * MERGE_COPY_FROM < n) {
		sf_typeset_absorb_named(ts, src, name_h);
	} else {
		copy_new_types(ts, src, name_h, dup);
		sf_typeset_free(src);	/* duplicates go with it */
	}
	free(name_h);
	free(dup);
}

void sf_reader_merge(struct sf_reader *r, struct sf_typeset *ts)
{
	struct sf_typeset *src = r->out;

	r->out = NULL;
	/* the interned strings point into src: forget them with it (and
	 * what else reading took, where run_units has not) */
	sf_reader_done(r);
	merge_into(ts, src);
}

void sf_typeset_merge_copy(struct sf_typeset *ts, struct sf_typeset *src)
{
	merge_into(ts, src);
}

void sf_pending_absorb(struct sf_pending *p, struct sf_pending *src)
{
	add_counts(&p->counts, &src->counts);
	append_pending(p, &src->ts, src->pend, src->n);
	sf_pending_free(src);
}

void sf_reader_share_keys(struct sf_reader *r, struct sf_fpshared *s)
{
	r->shared = s;
}

void sf_reader_share_live(struct sf_reader *r, struct sf_fpshared *own,
			  struct sf_fpshared *const *earlier, size_t n)
{
	r->live = own;
	r->earlier = earlier;
	r->nearlier = n;
}

void sf_reader_on_unit_read(struct sf_reader *r, void (*read)(void *arg, size_t unit),
			    void *arg)
{
	r->unit_read = read;
	r->unit_read_arg = arg;
}

void sf_reader_await_keys(struct sf_reader *r, const struct sf_reader_await *a)
{
	r->await = *a;
}

void sf_reader_publish_keys(struct sf_reader *r, struct sf_fpshared *wide)
{
	if (!r->laid)
		return;
	if (r->shared)
		sf_fpshared_add_all(r->shared, r->laid);
	/* keys by string offset mean nothing in another file */
	if (wide && !r->local_fp)
		sf_fpshared_add_all(wide, r->laid);
}

void sf_reader_done(struct sf_reader *r)
{
	end_unit(r);
	sf_spell_memo_free(r->memo);
	r->memo = NULL;
	free(r->strmemo);
	r->strmemo = NULL;
	rd_strings_forget(r);
	rd_arena_free(&r->arena);
	for (size_t i = 0; r->mv && i < MAX_LAYOUT_DEPTH + 2; i++)
		rd_mvec_free(&r->mv[i]);
	free(r->mv);
	r->mv = NULL;
	free(r->map);
	r->map = NULL;
	r->mapcap = r->mapalloc = 0;
	free(r->tops);
	r->tops = NULL;
	r->ntops = r->topcap = 0;
	free(r->fresh);
	r->fresh = NULL;
	r->nfresh = r->freshcap = 0;
}

void sf_reader_free(struct sf_reader *r)
{
	if (!r)
		return;
	sf_reader_done(r);	/* what reading took (run_units freed it already) */
	sf_typeset_free(r->out);	/* not merged: an error stopped the load */
	sf_files_release(&r->files);
	sb_release(&r->path);
	sb_release(&r->qbuf);
	sb_release(&r->cat);
	free(r->outv);
	free(r->out_next);
	free(r->name_head);
	free(r->name_key);
	free(r->others);
	free(r->walked[0]);
	free(r->walked[1]);
	for (size_t k = 0; k < r->nabs; k++) {
		sf_abbrevs_release(&r->abs[k]->ab);
		free(r->abs[k]);
	}
	free(r->abs);
	free(r->pend);
	sf_typeset_free(r->pending_ts);
	sf_fpcache_free(r->fpc);
	sf_fpset_free(r->laid);
	sf_fpset_free(r->shared_seen);
	free(r->newkeys);
	free(r->sums);
	free(r->laidv);
	free(r->rp);
	free(r->marked);
	free(r->rp_digs);
	sf_fpset_free(r->nocs);
	free(r);
}
