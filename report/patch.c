/*
 * patch.c - the words of `structfit patch` around its diff (patch.h).
 *
 * Plain text, one fact a line, appended to a strbuf: cmd/patch.c puts
 * the header above the diff (or prints it alone after --apply), and the
 * nothing-to-patch line on stderr.
 */
#include "patch.h"

#include "layout/narrow.h"

void sf_render_patch_header(struct strbuf *out, const struct sf_patch_view *v)
{
	const struct sf_type *t = v->type;

	sb_addf(out, "structfit patch: struct %s in %s: %llu -> %llu bytes",
		t->name, v->rel, (unsigned long long)v->old_size,
		(unsigned long long)v->new_size);
	if (v->moves)
		sb_addf(out, ", %u member%s moved", v->moves, v->moves == 1 ? "" : "s");
	sb_addch(out, '\n');
	for (size_t i = 0; i < v->nnarrow; i++) {
		const struct sf_member *m = &t->members[v->narrow[i].member];
		char range[64];
		sf_narrow_range(m, v->narrow[i].bytes, range, sizeof(range));
		sb_addf(out, "  %s narrowed from %llu to %u byte%s: it must hold only "
			"%s\n", m->name, (unsigned long long)m->size, v->narrow[i].bytes,
			v->narrow[i].bytes == 1 ? "" : "s",
			range);
	}
	sb_add(out, v->note->buf, v->note->len);
	if (sf_rust_compiler_orders(t))
		sb_adds(out, "  rustc orders the fields itself (default representation): "
			"only their types change\n");
}

void sf_render_patch_niche_header(struct strbuf *out, const struct sf_type *t,
				  const char *member, const struct sf_niche *ni,
				  const char *nt, const char *rel, long n,
				  const char *lines)
{
	sb_addf(out, "structfit patch: struct %s in %s: %s made core::ptr::NonNull, so "
		"%s needs no tag: %s's %s %llu -> %llu bytes\n", nt, rel, ni->pointer,
		ni->option, t->name, member, (unsigned long long)ni->from,
		(unsigned long long)ni->to);
	if (n)
		sb_addf(out, "  %ld constructing site%s in %s (line%s %s) now check%s for null "
			"at run time (NonNull::new(..).expect panics on one): structfit cannot "
			"see that %s never get%s null there\n", n, n == 1 ? "" : "s", rel,
			n == 1 ? "" : "s", lines, n == 1 ? "s" : "", n == 1 ? "it" : "they",
			n == 1 ? "s" : "");
	sb_addf(out, "  reads of .0 get a NonNull now (.as_ptr() gives the pointer); sites "
		"in other files and patterns are left for rustc to name\n");
}

void sf_render_patch_note_if(struct strbuf *out, uint32_t if_line, uint32_t endif_line)
{
	sb_addf(out, "  the members under the #if on lines %u-%u stay whole, in place "
		"(the build compiled one branch; the others keep their lines)\n",
		if_line, endif_line);
}

void sf_render_patch_nothing(struct strbuf *out, const struct sf_type *t, int kept_if)
{
	if (kept_if)
		sb_addf(out, "struct %s: no smaller order that keeps its #if blocks in "
			"place (%llu bytes); nothing to patch", t->name,
			(unsigned long long)t->size);
	else
		sb_addf(out, "struct %s: no smaller order (%llu bytes); nothing to patch",
			t->name, (unsigned long long)t->size);
}
