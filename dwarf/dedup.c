/*
 * dedup.c - which of a unit's types were laid out already (the reader's
 * use of fingerprint.h; internal to dwarf/).
 *
 * Before a unit's types are laid out (reader.c, report_tops), each gets
 * a key: the fingerprint of its definition's DIEs, the name it is
 * reported under and the unit's ABI.  A type whose key this reader - or
 * a reader of an earlier run of the same image, merged already
 * (sf_fpshared) - recorded is skipped: its layout would give a type the
 * output holds, ahead of where this one would go.
 *
 * Why that is exact.  A type's layout is a function of its own DIEs,
 * which the fingerprint digests, except for what the unit's other types
 * add: packing evidence (a container holding a type where only a packed
 * type can be: mark_packed) and the reader's limits (a cycle, the depth
 * limits: `unclean`).  Call a type's read set the type and every
 * aggregate whose layout laying it out reads, transitively (members.c,
 * rd_reads_packed: types held by value, anonymous ones shown nested or
 * pointed to).  Marks are the one input besides the DIEs, and laying a
 * type out can only find evidence about a type of its read set (a mark
 * falls on a member's type).  Whether a container is packed, shows
 * evidence, and where, depends on its DIEs and on its own mark only
 * (model/packing.c: natural alignments, offsets, sizes, attributes) -
 * not on its members' marks.  So:
 *
 *   - a key stands for the layout of a type none of whose read set was
 *     marked (and whose layout then found no evidence); it is recorded
 *     from a unit that met no limit, for a type laid out there whose
 *     read set holds no mark at the end (rd_record_tops);
 *   - a unit where a limit is met while types are skipped is laid out
 *     again in full, from nothing, as without dedup (report_tops);
 *   - a unit where evidence is found while types are skipped un-skips
 *     every skipped type whose read set holds a marked type
 *     (rd_dedup_unskip) and, when it un-skipped one, is laid out again
 *     from nothing with the others still skipped; it ends once the marks
 *     of its passes leave the read set of every skipped type unmarked.
 *
 * Then a skipped type's read set was never marked (marks only add up
 * over a unit's passes): laying it out, as the full path does, would
 * have found no evidence - the layouts of its read set, where any would
 * fall, are those of the unit its key came from, which found none - and
 * would have given exactly its key's layout, which the output holds.
 * Nor does skipping it change any other layout: what it would lay out
 * is its read set, whose layouts are the same whenever they are made
 * (no mark on the way), and it marks nothing, so every pass finds the
 * same marks, in the same order, as the full path's passes, and ends
 * where they end.  (The packing evidence of the Linux ACPI headers,
 * structs under #pragma pack inside a union, met in 68 of vmlinux's
 * units: each un-skips its few holders instead of laying out the unit's
 * hundreds of types again.)
 *
 * C++.  A name there depends on its scope (namespaces, enclosing
 * classes), which the DIEs below a type do not show.  The reported name
 * is qualified already (the key's name); every other name a layout
 * reads - the spelling of a member's type, a base class, a declared-only
 * type it waits for (pending) - is a struct, class, union, enum or
 * typedef DIE's rd_die_qname: its scope's name, then its DW_AT_name.  The
 * fingerprint feeds, for every such DIE with a name, the digest of that
 * scope's name (rd_scope_digest, through fingerprint.h's scope hook), so
 * two keys are equal only where every name read is.  The scope is the
 * reader's own - the pre-pass's qualified names, the same strings
 * rd_die_qname prints - so nothing is re-derived that could disagree; a
 * DIE with DW_AT_specification (qualified by its declaration's scope)
 * gets no fingerprint.  The rest of a C++ layout (bases, virtual bases,
 * empty classes, static members left out) is a function of the DIEs
 * below the type, as in C.
 *
 * Not keyed: every other language.  Rust: an enum's layout reads which
 * member DW_AT_discr names, a reference the digest does not follow, and
 * rustc's spellings come from DIEs (pointer names) by rules of their own;
 * Fortran, Go, D, Ada...: no corpus here checks their output with and
 * without dedup (tests/e2e/identity.sh), so they keep the full path.
 *
 * A C or C++ struct the walk meets is not even resolved then (reader.c,
 * top_later): its DW_AT_name is all a key needs (in C++ with its scope's
 * digest, which the fingerprint holds), and most are skipped;
 * rd_dedup_tops resolves those that are not, rd_dedup_unskip and
 * rd_dedup_off the rest when they are laid out after all.
 * Resolving one is reading its own DIE, which the walk read already, and
 * naming it, which top_later did: it cannot fail, so nothing said on bad
 * input changes.
 *
 *   top[i].key / keyed / skip   per type of the unit (reader_int.h)
 *   r->laid                     this reader's recorded keys
 *   r->shared                   keys of the image's runs merged before
 *                               (load.c publishes a run's at its merge)
 *   r->earlier                  keys of the runs before this one being read
 *                               beside it, unit by unit (r->live: its own)
 *   r->shared_seen              keys found in those two, asked again
 *
 * A key in r->shared or r->earlier is as good as this reader's own: the
 * output of an earlier run is merged ahead of this one's, and a run adds
 * a key only where rd_record_tops records it.
 */
#include "reader_int.h"

#include "die.h"
#include "input/elfobj.h"
#include "lib/hash.h"
#include "lib/xalloc.h"

/* The scope hook (fingerprint.h) of a C++ unit: the reader's scopes. */
struct scope_ctx {
	struct sf_reader *r;
	struct uh *uh;
};

static int scope_digest(void *ctx, uint64_t off, struct sf_fp *out)
{
	struct scope_ctx *s = ctx;

	return rd_scope_digest(s->r, s->uh, off, out);
}

/* Whether key k was laid out by an earlier run (r->shared).  Keys are
 * only ever added there, so a yes stays true: kept (r->shared_seen, which
 * rd_dedup_tops asks first), the next ask of the same key takes no lock -
 * a later run asks for nearly every type of every unit the first runs
 * laid out. */
static int known_shared(struct sf_reader *r, const struct sf_fp *k)
{
	if (!r->shared && !r->nearlier)
		return 0;
	int yes = r->shared && sf_fpshared_has(r->shared, k);
	/* the nearest run first: the likeliest to be read at the same time */
	for (size_t i = r->nearlier; i-- > 0 && !yes;)
		yes = sf_fpshared_has(r->earlier[i], k);
	if (!yes)
		return 0;
	if (!r->shared_seen)
		r->shared_seen = sf_fpset_new();
	sf_fpset_add(r->shared_seen, k);
	return 1;
}

/* Key top tp if its type can have one (tp->keyed), and start loading
 * where the key's lookups will probe. */
static void key_top(struct sf_reader *r, struct top *tp)
{
	struct uh *uh = tp->ti ? tp->ti->unit : tp->uh;
	uint64_t off = tp->ti ? rd_off_of(tp->ti) : tp->off;
	struct scope_ctx sc = { r, uh };
	const struct sf_fp_scope hook = { scope_digest, &sc };
	int c = sf_lang_is_c(uh->cx.lang);
	struct sf_fp def;

	tp->keyed = tp->skip = 0;
	if ((!c && !rd_dedup_lang(uh->cx.lang)) ||
	    sf_fp_type(r->fpc, &uh->cx, rd_key_of(uh, 0), off, r->local_fp,
		       c ? NULL : &hook, &def) < 0)
		return;
	/* A C++ top listed bare (top_later) keyed by its DW_AT_name, as a C
	 * one: def holds that name and its scope's digest (the scope hook
	 * feeds them for the top's own DIE too), so the qualified name it is
	 * reported under is in the key without being built (its strlen and
	 * copy were 2 % of librados' show) */
	tp->key = sf_fp_key(&def, tp->name, r->local_fp ? &uh->cx.f->sec[SF_SEC_STR] : NULL,
			    rd_key_of(uh, 0), tp->is_typedef, uh->cx.lang, uh->cx.u->addr_size,
			    uh->cx.f->msb, r->elf->machine);
	tp->keyed = 1;
	sf_fpset_prefetch(r->laid, &tp->key);
	sf_fpset_prefetch(r->shared_seen, &tp->key);
}

/* Whether keyed top tp was laid out already: by this reader, or by a run
 * whose keys it sees. */
static int laid_already(struct sf_reader *r, const struct top *tp)
{
	/* the keys earlier runs laid out first: in a run after the first,
	 * most tops are those (one probe, not two) */
	return (r->shared_seen && sf_fpset_has(r->shared_seen, &tp->key)) ||
	       sf_fpset_has(r->laid, &tp->key) || known_shared(r, &tp->key);
}

/* Whether the unit's keys are all computed before any is looked up,
 * waiting meanwhile for a run before r's to have keys (reader.h) when
 * some are not known yet. */
static int await_keys(struct sf_reader *r)
{
	if (!r->await.keyless || !r->await.keyless(r->await.arg))
		return 0;
	size_t unknown = 0;
	for (size_t i = 0; i < r->ntops; i++) {
		key_top(r, &r->tops[i]);
		unknown += !r->tops[i].keyed || !laid_already(r, &r->tops[i]);
	}
	if (unknown)
		r->await.wait(r->await.arg, unknown);
	return 1;
}

/*
 * Key every type of the unit that can have one; mark those laid out
 * already.  A type the walk left unresolved (reader.c, top_later) is
 * resolved here unless skipped.  Returns whether any is skipped.
 *
 * A top's key is looked up one top later, after the next is keyed: the
 * sets are too big for the cache (vmlinux: 10 k keys, 512 KB), and a
 * lookup right after the key is made waited for memory (3 % of show -j1).
 * (Keyed all at once first when the reader waits for another run's.)
 */
int rd_dedup_tops(struct sf_reader *r)
{
	int skipping = 0, keyed = await_keys(r);
	size_t n = 0;

	for (size_t i = 0; i <= r->ntops; i++) {
		if (i < r->ntops && !keyed)
			key_top(r, &r->tops[i]);
		if (i == 0)
			continue;
		struct top *tp = &r->tops[i - 1];
		if (tp->keyed)
			tp->skip = laid_already(r, tp);
		if (!tp->skip && !tp->ti && rd_resolve_top(r, i - 1) < 0)
			continue;	/* not a type to report after all */
		skipping |= tp->skip;
		r->counts.skipped += tp->skip;
		if (n != i - 1)	/* a top dropped before: the rest move down */
			r->tops[n] = *tp;
		n++;
	}
	r->ntops = n;
	r->counts.types += n;
	return skipping;
}

/* Lay out again without skipping (evidence or a limit met in a unit
 * whose types were being skipped): every type resolved. */
void rd_dedup_off(struct sf_reader *r)
{
	size_t n = 0;

	for (size_t i = 0; i < r->ntops; i++) {
		r->counts.skipped -= r->tops[i].skip;
		r->tops[i].skip = 0;
		if (!r->tops[i].ti && rd_resolve_top(r, i) < 0) {
			r->counts.types--;
			continue;
		}
		r->tops[n++] = r->tops[i];
	}
	r->ntops = n;
	r->counts.full_units++;
}

/*
 * The key of "a type of key k reads none of the fingerprints summed up as
 * h": a skipped type's answer, kept across units (r->nocs).  A key is a
 * fingerprint of everything the type's layout reads (fingerprint.h), so
 * whether its read set holds a type of one of those fingerprints is the
 * same in every unit - and a type marked packed in a unit is in the read
 * set only if its fingerprint is.  So the Linux ACPI units, each with the
 * same packed structs marked, answer for their skipped types once.
 */
static struct sf_fp noc_key(const struct sf_fp *k, const struct sf_fp *h)
{
	struct sf_fp n = { sf_mix64(sf_mix64(k->a ^ h->a) + k->b),
			   sf_mix64(sf_mix64(k->b + h->b) ^ k->a) };

	n.a |= 1;	/* never the empty key */
	return n;
}

/* Whether the skipped top tp reads a type marked packed. */
static int top_reads_packed(struct sf_reader *r, const struct top *tp)
{
	struct sf_fp nk;
	int memo = r->rp_hok && tp->keyed;

	if (memo) {
		nk = noc_key(&tp->key, &r->rp_h);
		if (r->nocs && sf_fpset_has(r->nocs, &nk))
			return 0;
	}
	if (rd_reads_packed(r, tp->ti ? tp->ti->unit : tp->uh,
			    tp->ti ? rd_off_of(tp->ti) : tp->off))
		return 1;
	if (memo) {
		if (!r->nocs)
			r->nocs = sf_fpset_new();
		sf_fpset_add(r->nocs, &nk);
	}
	return 0;
}

/*
 * Packing evidence met while types are skipped: un-skip each skipped type
 * whose read set holds a type marked packed.  Returns how many; the
 * caller lays the unit out again from nothing then.
 */
size_t rd_dedup_unskip(struct sf_reader *r)
{
	size_t n = 0, k = 0;

	rd_reads_forget(r);	/* marks came since the last answers */
	for (size_t i = 0; i < r->ntops; i++) {
		struct top *tp = &r->tops[i];
		if (tp->skip && top_reads_packed(r, tp)) {
			tp->skip = 0;
			r->counts.skipped--;
			if (!tp->ti && rd_resolve_top(r, i) < 0) {
				r->counts.types--;	/* not a type to report after all */
				continue;
			}
			n++;
		}
		r->tops[k++] = *tp;
	}
	r->ntops = k;
	return n;
}

/* The unit met no limit: the keys of its types laid out now say "laid out,
 * in the output" - those whose read set holds no mark, when it showed
 * packing evidence. */
void rd_record_tops(struct sf_reader *r, int evidence)
{
	if (evidence)
		rd_reads_forget(r);
	for (size_t i = 0; i < r->ntops; i++) {
		struct top *tp = &r->tops[i];
		/* skipped: recorded already; keyed not laid out when marked */
		if (evidence && tp->keyed && !tp->skip &&
		    rd_reads_packed(r, tp->ti->unit, rd_off_of(tp->ti)))
			tp->keyed = 0;
	}
	if (r->unclean || r->failed)
		return;	/* the answers met a limit (a cycle) after all */
	size_t n = 0;
	for (size_t i = 0; i < r->ntops; i++) {
		if (!r->tops[i].keyed || r->tops[i].skip)
			continue;
		sf_fpset_add(r->laid, &r->tops[i].key);
		if (r->live) {
			SF_GROW(r->newkeys, n, r->newcap);
			r->newkeys[n++] = r->tops[i].key;
		}
	}
	if (n)	/* the later runs read at the same time see them now */
		sf_fpshared_add_keys(r->live, r->newkeys, n);
}
