/*
 * units.c - the units a reader opens and the names they give types.
 *
 * `struct uh` is an opened unit: the current one, or one the current
 * unit refers into (type units, dwz partial units of this file or of the
 * alt file), opened on demand and closed at the end of the unit.  DIEs
 * are read through rd_read_die/rd_skip_die, which report a corrupt DIE
 * once and make the reader fail.
 *
 * Qualified names (C++): a pre-pass over a non-C unit records the offset
 * ranges of namespaces and classes (a sorted array of scopes, each with
 * its parent), so a DIE's scope is found by binary search on its offset
 * even when it is referenced before the walk reaches it.
 */
#include "reader_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dwarf.h>

#include "model/abi.h"
#include "lib/hash.h"
#include "lib/xalloc.h"

int rd_corrupt(struct sf_reader *r, const struct uh *uh, uint64_t off)
{
	if (!r->failed)
		sf_error_at(r->err, uh ? uh->cx.f->label : r->f->label, 0, 0,
				"corrupt DWARF (bad DIE at %s+0x%llx)",
			 uh && uh->cx.u->sect == SF_SEC_TYPES ? ".debug_types" : ".debug_info",
			 (unsigned long long)off);
	r->failed = 1;
	return -1;
}

/* ---- units ------------------------------------------------------------- */

void rd_uh_close(struct uh *uh)
{
	if (uh->open)
		sf_ucx_release(&uh->cx);
	free(uh->scopes);
	free(uh->starts);
	memset(uh, 0, sizeof(*uh));
}

/*
 * The parsed abbrev table of a partial unit of f (NULL: not one, or
 * corrupt).  dwz's partial units are opened anew from each unit that
 * refers to them, and share a handful of tables.
 */
static const struct sf_abbrevs *partial_abbrevs(struct sf_reader *r, const struct sf_dwfile *f,
						size_t i)
{
	const struct sf_unit *u = &f->units[i];

	if (sf_unit_die_tag(f, i) != DW_TAG_partial_unit)
		return NULL;
	for (size_t k = 0; k < r->nabs; k++)
		if (r->abs[k]->f == f && r->abs[k]->off == u->abbrev_off)
			return r->abs[k]->bad ? NULL : &r->abs[k]->ab;
	struct shared_ab *s = sf_xcalloc(1, sizeof(*s));
	s->f = f;
	s->off = u->abbrev_off;
	s->bad = sf_abbrevs_parse(&s->ab, f, u->abbrev_off) < 0;
	SF_GROW(r->abs, r->nabs, r->abscap);
	r->abs[r->nabs++] = s;
	return s->bad ? NULL : &s->ab;
}

/* Open unit i of f (the reader's file or its alt file); own: its own
 * table parsed already (sf_abbrevs_parse_unit), taken over, or NULL. */
int rd_uh_open_parsed(struct sf_reader *r, struct uh *uh, const struct sf_dwfile *f, size_t i,
		      struct sf_abbrevs *own)
{
	assert(f == r->f || f == r->f->alt);
	memset(uh, 0, sizeof(*uh));
	const struct sf_abbrevs *ab = partial_abbrevs(r, f, i);
	if (ab && own)
		sf_abbrevs_release(own);	/* a shared one serves it */
	if ((ab ? sf_ucx_open_shared(&uh->cx, f, i, ab, r->err)
		: own ? sf_ucx_open_parsed(&uh->cx, f, i, own, r->err)
		: sf_ucx_open(&uh->cx, f, i, r->err)) < 0) {
		r->failed = 1;
		return -1;
	}
	uh->open = 1;
	uh->in_alt = f != r->f;
	if (f->sec[SF_SEC_STR].pack) {
		if (!r->strmemo)
			r->strmemo = sf_xcalloc(1, sizeof(*r->strmemo));
		uh->cx.memo = r->strmemo;
	}
	/* dwz's partial units carry no language: they are read as part of
	 * the unit being read, which imports them */
	if (!uh->cx.lang && uh != &r->cur)
		uh->cx.lang = r->cur.cx.lang;
	uh->abi = sf_abi_for(r->elf->machine, uh->cx.u->addr_size);
	return 0;
}

static int uh_open(struct sf_reader *r, struct uh *uh, const struct sf_dwfile *f, size_t i)
{
	return rd_uh_open_parsed(r, uh, f, i, NULL);
}

static int uh_holds(const struct uh *uh, const struct sf_dwfile *f, int sect, uint64_t off)
{
	const struct sf_unit *u = uh->cx.u;

	return uh->cx.f == f && u->sect == sect && u->start <= off && off < u->end;
}

/* The unit of f holding section offset off of sect (the current one, mostly). */
struct uh *rd_uh_for(struct sf_reader *r, const struct sf_dwfile *f, int sect, uint64_t off)
{
	if (!f)
		return NULL;
	if (uh_holds(&r->cur, f, sect, off))
		return &r->cur;
	for (size_t i = r->nothers; i-- > 0;)
		if (uh_holds(r->others[i], f, sect, off))
			return r->others[i];
	long idx = sf_dwfile_unit_at(f, sect, off);
	if (idx < 0)
		return NULL;
	struct uh *uh = sf_xcalloc(1, sizeof(*uh));
	if (uh_open(r, uh, f, (size_t)idx) < 0) {
		free(uh);
		return NULL;
	}
	SF_GROW(r->others, r->nothers, r->othercap);
	r->others[r->nothers++] = uh;
	return uh;
}

/* ---- scopes (C++ qualified names) --------------------------------------- */

static int is_aggregate_tag(unsigned tag)
{
	return tag == DW_TAG_structure_type || tag == DW_TAG_class_type ||
	       tag == DW_TAG_union_type || tag == DW_TAG_interface_type;
}

static const char *scope_of(struct sf_reader *r, struct uh *uh, uint64_t off);

/* The declaration a DW_AT_specification points to (in the same unit). */
static int spec_of(struct uh *uh, const struct sf_die *d, struct sf_die *spec)
{
	return (d->has & SF_A_SPECIFICATION) && d->specification >= uh->cx.u->die_start &&
	       d->specification < uh->cx.u->end && d->specification != d->off &&
	       sf_die_read(&uh->cx, d->specification, spec) == 0;
}

/* The qualified name of the type a signature stands for, or NULL. */
static const char *sig_qname(struct sf_reader *r, uint64_t sig)
{
	long i = sf_dwfile_sig_unit(r->f, sig);
	struct sf_die d;

	/* type units name each other: a bounded chain, never a loop */
	if (i < 0 || r->sig_depth >= 8)
		return NULL;
	const struct sf_unit *u = &r->f->units[i];
	struct uh *tu = rd_uh_for(r, r->f, u->sect, u->type_die);
	if (!tu || sf_die_read(&tu->cx, u->type_die, &d) < 0)
		return NULL;
	r->sig_depth++;
	const char *q = rd_die_qname(r, tu, &d);
	r->sig_depth--;
	return q;
}

/* The tags scan_scopes decodes (all below 64): the rest - functions,
 * variables, most of a C++ unit - it only steps over. */
#define SCOPE_TAGS ((1ull << DW_TAG_namespace) | (1ull << DW_TAG_module) | \
		    (1ull << DW_TAG_structure_type) | (1ull << DW_TAG_class_type) | \
		    (1ull << DW_TAG_union_type) | (1ull << DW_TAG_interface_type))
static_assert(DW_TAG_namespace < 64 && DW_TAG_module < 64 && DW_TAG_interface_type < 64,
	      "SCOPE_TAGS holds every tag");

/* Record the ranges of namespaces and named classes below off; *end gets
 * the offset past the null entry closing the list. */
static int scan_scopes(struct sf_reader *r, struct uh *uh, uint64_t off, long parent,
		       unsigned depth, uint64_t *end)
{
	struct sf_die d;

	for (;;) {
		/* fails where a full read fails: the same error; DIEs of
		 * no tag of SCOPE_TAGS are stepped over in there */
		if (sf_die_find_tags(&uh->cx, off, SCOPE_TAGS, &d) < 0)
			return rd_corrupt(r, uh, d.off);
		if (d.tag == 0) {
			*end = d.next;
			return 0;
		}
		int scope = d.children && depth < MAX_SCOPE_DEPTH &&
			    (d.tag == DW_TAG_namespace || d.tag == DW_TAG_module ||
			     is_aggregate_tag(d.tag));
		if (!scope) {
			if (rd_skip_die(r, uh, &d, &off) < 0)
				return -1;
			continue;
		}
		const char *prefix = NULL;
		const char *name = d.name;
		struct sf_die spec;
		/* an out-of-line definition belongs where it was declared */
		if (spec_of(uh, &d, &spec)) {
			prefix = scope_of(r, uh, spec.off);
			if (!name)
				name = spec.name;
		}
		if (!name && d.tag == DW_TAG_namespace)
			name = "(anonymous namespace)";
		/* clang's type units: the enclosing class is an unnamed
		 * declaration that only gives the signature of its own unit */
		const char *full = NULL;
		if (!name && (d.has & SF_A_SIGNATURE))
			full = sig_qname(r, d.sig8);
		if (uh->nscopes >= uh->scopecap) {
			size_t cap = uh->scopecap ? 2 * uh->scopecap : 64;
			uh->scopes = sf_xreallocarray(uh->scopes, cap, sizeof(*uh->scopes));
			uh->starts = sf_xreallocarray(uh->starts, cap, sizeof(*uh->starts));
			uh->scopecap = cap;
		}
		long me = (long)uh->nscopes++;
		struct scope *s = &uh->scopes[me];
		uh->starts[me] = d.off;
		s->parent = parent;
		s->digested = 0;
		s->name = name;
		s->prefix = prefix;
		s->qname = full;
		s->qlen = full ? strlen(full) : 0;
		if (scan_scopes(r, uh, d.next, me, depth + 1, &off) < 0)
			return -1;
		uh->scopes[me].end = off;
	}
}

static void build_scopes(struct sf_reader *r, struct uh *uh)
{
	struct sf_die d;
	uint64_t end;

	uh->scoped = 1;
	if (sf_lang_is_c(uh->cx.lang) || uh->cx.u->die_start >= uh->cx.u->end)
		return;
	if (rd_read_die(r, uh, uh->cx.u->die_start, &d) < 0 || !d.children)
		return;
	scan_scopes(r, uh, d.next, -1, 0, &end);
}

/* The innermost scope holding a DIE at off (an index of uh->scopes), or
 * -1 at the top level. */
static long scope_index(struct sf_reader *r, struct uh *uh, uint64_t off)
{
	if (!uh->scoped)
		build_scopes(r, uh);
	size_t lo = 0, hi = uh->nscopes;
	while (lo < hi) {	/* last scope starting before off */
		size_t mid = lo + (hi - lo) / 2;
		if (uh->starts[mid] < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	long i = (long)lo - 1;
	while (i >= 0 && off >= uh->scopes[i].end)
		i = uh->scopes[i].parent;
	return i;
}

/* The qualified name of scope i, made now if not yet (its parents' too:
 * at most MAX_SCOPE_DEPTH deep). */
static const char *scope_qname(struct sf_reader *r, struct uh *uh, long i)
{
	struct scope *s = &uh->scopes[i];

	if (!s->qname) {
		const char *pq = s->prefix ? s->prefix
					   : s->parent >= 0 ? scope_qname(r, uh, s->parent) : "";
		s = &uh->scopes[i];
		s->qname = !s->name ? pq : *pq ? rd_arena_cat(&r->arena, pq, "::", s->name) : s->name;
		s->qlen = strlen(s->qname);
	}
	return s->qname;
}

/* "ns::Outer" for a DIE at off inside namespace ns and class Outer. */
static const char *scope_of(struct sf_reader *r, struct uh *uh, uint64_t off)
{
	long i = scope_index(r, uh, off);

	return i >= 0 ? scope_qname(r, uh, i) : "";
}

/* The digest of scope_of(off): the string's (fingerprint.h, the scope
 * hook), once per scope.  -1 when the scopes could not be read: the
 * reader failed, and the type gets no fingerprint. */
int rd_scope_digest(struct sf_reader *r, struct uh *uh, uint64_t off, struct sf_fp *out)
{
	long i = scope_index(r, uh, off);

	if (r->failed)
		return -1;
	if (i < 0) {
		*out = sf_fp_str("");
		return 0;
	}
	struct scope *s = &uh->scopes[i];
	if (!s->digested) {
		s->digest = sf_fp_str(scope_qname(r, uh, i));
		s->digested = 1;
	}
	*out = s->digest;
	return 0;
}

static const char *qualify(struct sf_reader *r, struct uh *uh, uint64_t off, const char *name);

/* The name of type DIE d, its own or its declaration's (a
 * DW_AT_specification in the unit), and *off, the DIE whose scope
 * qualifies it; NULL if anonymous. */
static const char *die_name(struct uh *uh, const struct sf_die *d, uint64_t *off)
{
	struct sf_die spec;

	*off = d->off;
	if (spec_of(uh, d, &spec) && (d->name || spec.name)) {
		*off = spec.off;
		return d->name ? d->name : spec.name;
	}
	return d->name;
}

/* A type DIE's qualified name, from its declaration when it has one; NULL if anonymous. */
const char *rd_die_qname(struct sf_reader *r, struct uh *uh, const struct sf_die *d)
{
	uint64_t off;
	const char *name = die_name(uh, d, &off);

	return name ? qualify(r, uh, off, name) : NULL;
}

const char *rd_die_qname_spelled(struct sf_reader *r, struct uh *uh, const struct sf_die *d,
				 const char *kw, const char **spelled)
{
	uint64_t off;
	const char *name = die_name(uh, d, &off);

	if (!name)
		return NULL;
	const char *scope = sf_lang_is_c(uh->cx.lang) ? "" : scope_of(r, uh, off);
	const char *qname;
	*spelled = rd_spell_name(r, kw, scope, name, &qname);
	return qname;
}

/* rd_die_qname of the C++ DIE at off named `name`, without
 * DW_AT_specification, written into sb (valid until sb changes), not
 * interned: the walk lists every C++ struct it meets (reader.c,
 * top_later) and most are skipped by their key, their names never kept
 * (libceph-common: 178 k of 222 k, whose interned names took 44 MB and a
 * tenth of show's page faults), nor built: their key takes the bare name
 * and the scope's digest (dedup.c, key_top).  rd_resolve_top asserts that
 * the name it resolves is this one. */
const char *rd_die_qname_into(struct sf_reader *r, struct uh *uh, uint64_t off,
			      const char *name, struct strbuf *sb)
{
	long i = scope_index(r, uh, off);

	sb_reset(sb);
	if (i >= 0 && *scope_qname(r, uh, i)) {
		/* (scope_qname may move uh->scopes: read it after) */
		sb_add(sb, uh->scopes[i].qname, uh->scopes[i].qlen);
		sb_add(sb, "::", 2);
	}
	sb_adds(sb, name);
	return sb->buf;
}

static const char *qualify(struct sf_reader *r, struct uh *uh, uint64_t off, const char *name)
{
	if (sf_lang_is_c(uh->cx.lang))
		return rd_isec(r, name);
	const char *scope = scope_of(r, uh, off);
	return *scope ? rd_icat(r, scope, "::", name) : rd_isec(r, name);
}
