/*
 * reorg.c - the words of pahole's -R (reorg.h).
 */
#include "report/reorg.h"

/* A member's name as pahole prints it (printf of NULL for none). */
static const char *name_of(const struct sf_units *us, uint32_t k)
{
	const char *n = us->type->members[us->members[k]].name;

	return n && *n ? n : "(null)";
}

/* "'last member of unit u'", or "the start". */
static void after(struct strbuf *out, const char *what, const struct sf_units *us, size_t u)
{
	if (u == SF_STEP_START) {
		sb_addf(out, " %s the start", what);
		return;
	}
	const struct sf_unit *v = &us->v[u];
	sb_addf(out, " %s after '%s'", what, name_of(us, v->first + v->count - 1));
}

void sf_render_reorg_step(struct strbuf *out, const struct sf_units *us,
			  const struct sf_reorg_step *s)
{
	const struct sf_unit *v = &us->v[s->unit];

	sb_adds(out, "/* Moving");
	if (v->count > 1)
		sb_addf(out, " bitfield('%s' ... '%s')", name_of(us, v->first),
			name_of(us, v->first + v->count - 1));
	else
		sb_addf(out, " '%s'", name_of(us, v->first));
	after(out, "from", us, s->from_after);
	after(out, "to", us, s->to_after);
	sb_adds(out, " */\n");
}

void sf_render_reorg_final(struct strbuf *out)
{
	sb_adds(out, "/* Final reorganized struct: */\n");
}

void sf_render_reorg_saved(struct strbuf *out, uint64_t saved, uint64_t cachelines)
{
	sb_addf(out, "   /* saved %llu byte%s", (unsigned long long)saved, saved != 1 ? "s" : "");
	if (cachelines)
		sb_addf(out, " and %llu cacheline%s", (unsigned long long)cachelines,
			cachelines != 1 ? "s" : "");
	sb_adds(out, "! */\n");
}
