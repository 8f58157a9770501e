/*
 * reasons.c - the sentences for layout/'s reasons (see reasons.h).  Each
 * is a pure function of an enum and the model: the same reason reads the
 * same in every command.
 */
#include "reasons.h"

#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------ narrowing */

static const char *kind_words(const struct sf_member *m)
{
	switch (m->tclass) {
	case SF_T_STRUCT: return "a struct";
	case SF_T_UNION: return "a union";
	case SF_T_ARRAY: return "an array";
	case SF_T_FLOAT: return "a floating-point number";
	default: return "not an integer, enum, bool or pointer";
	}
}

void sf_narrow_refusal_say(struct strbuf *out, enum sf_narrow_refusal r,
			   const struct sf_member *m, uint64_t bytes)
{
	switch (r) {
	case SF_NARROW_BITFIELD:
		sb_adds(out, "it is a bit-field (already as narrow as its bits)");
		return;
	case SF_NARROW_FLEX_ARRAY:
		sb_adds(out, "it is a flexible array member");
		return;
	case SF_NARROW_COMPILER_MADE:
		sb_adds(out, "it is made by the compiler (vtable pointer or base class)");
		return;
	case SF_NARROW_NOT_SCALAR:
		sb_addf(out, "it is %s; only integers, enums, bools and pointers "
			"can be narrowed", kind_words(m));
		return;
	case SF_NARROW_BAD_WIDTH:
		sb_adds(out, "the new width must be 1, 2, 4 or 8 bytes");
		return;
	case SF_NARROW_NOT_SMALLER:
		sb_addf(out, "%" PRIu64 " byte%s is not smaller than its %" PRIu64
			" byte%s", bytes, bytes == 1 ? "" : "s", m->size,
			m->size == 1 ? "" : "s");
		return;
	case SF_NARROW_OK:
		break;
	}
	assert(!"a narrowing that was not refused");
}

void sf_narrow_overflow(const struct sf_member *m, uint64_t bytes, char *buf, size_t n)
{
	char range[64];
	const char *max;

	sf_narrow_range(m, bytes, range, sizeof(range));
	max = strstr(range, "..");
	assert(max);
	max += 2;
	/* a wrapped value is the failure that passes tests: say so each time */
	switch (sf_narrow_overflow_kind(m)) {
	case SF_OVERFLOW_INDEX:
		snprintf(buf, n, "past index %s: the arena must refuse, never wrap", max);
		break;
	case SF_OVERFLOW_GROWS:
		snprintf(buf, n, "past %s: saturate and fall back, never wrap "
			 "(it counts or indexes: grows with the data)", max);
		break;
	case SF_OVERFLOW_RANGE:
		snprintf(buf, n, "outside %s: refuse or saturate where it is stored, "
			 "never truncate", range);
		break;
	}
}

/* ------------------------------------------------------------ plans */

/* What follows "--narrow ARG: " for a refused narrowing. */
static void narrow_refusal(struct strbuf *sb, const struct sf_plan_refusal *r)
{
	const struct sf_narrow_arg *a = r->narrow;
	const struct sf_type *t = r->type;

	switch (r->kind) {
	case SF_PLAN_NOT_THE_TYPE:
		sb_addf(sb, "'%s' is not %s %s", a->type, sf_type_kind_name(t), t->name);
		break;
	case SF_PLAN_NO_MEMBER:
		sb_addf(sb, "%s %s has no member '%s'", sf_type_kind_name(t), t->name,
			a->member);
		break;
	case SF_PLAN_WIDTH:
		sf_narrow_refusal_say(sb, r->width, r->member, a->bytes);
		break;
	case SF_PLAN_TWICE:
		sb_addf(sb, "'%s' is narrowed twice", a->member);
		break;
	case SF_PLAN_AMBIGUOUS:
		sb_addf(sb, "both %s and %s have a member '%s'; write TYPE.%s",
			t->name, r->other->name, a->member, a->member);
		break;
	case SF_PLAN_NOWHERE:
		sb_addf(sb, "no member '%s' in %s", a->member,
			a->type ? a->type : "the -t types");
		break;
	default:
		assert(!"not a narrowing's refusal");
	}
}

int sf_plan_refusal_err(const struct sf_plan_refusal *r, struct sf_err *err)
{
	const struct sf_type *t = r->type;
	struct strbuf sb = STRBUF_INIT;

	switch (r->kind) {
	case SF_PLAN_NO_PIN_MEMBER:
		sb_addf(&sb, "--pin: %s %s has no member '%s'", sf_type_kind_name(t),
			t->name, r->pin);
		break;
	case SF_PLAN_GROUP_SPLIT:
		sb_addf(&sb, "struct %s: members '%s' .. '%s' cannot move as one block: "
			"a bit-field storage unit spans its edge", t->name,
			t->members[r->first].name, t->members[r->last].name);
		break;
	case SF_PLAN_REFUSED_NOTHING:
		assert(!"no refusal to say");
		break;
	default:
		sb_addf(&sb, "--narrow %s: ", r->narrow->arg);
		narrow_refusal(&sb, r);
		break;
	}
	sf_error(err, "%s", sb.buf);
	sb_release(&sb);
	return -1;
}

/* ------------------------------------------------------------ size classes */

/* In layout/classes.c's order of presets. */
static const char *const preset_sources[] = {
	"Ruby 3.3 GC heap slot sizes: 40 << i for 5 size pools (gc.c)",
	"jemalloc 5 classes, 16-byte quantum, 4 KiB pages: small to 14336, "
	"large from 16 KiB (listed to 1 GiB)",
	"glibc malloc usable sizes: max(32, roundup16(n + 8)) - 8, "
	"below the 128 KiB mmap threshold",
	"mimalloc 2.x bins (page-queue.c mi_bin), 64-bit, up to 128 KiB",
	"tcmalloc legacy_size_classes.cc, 16-byte alignment, 8 KiB pages "
	"(build-dependent)",
	"Linux kmalloc caches, SLUB on x86_64 (mm/slab_common.c kmalloc_info)",
	"cache lines: 64 bytes, and 128-byte line pairs",
};

const char *sf_classes_source(const struct sf_classes *c)
{
	if (c->preset == SF_CLASSES_LIST)
		return "user list";
	assert(sf_classes_npresets() == sizeof(preset_sources) / sizeof(preset_sources[0]));
	assert(c->preset >= 0 && (size_t)c->preset < sf_classes_npresets());
	return preset_sources[c->preset];
}

int sf_classes_refusal_err(const struct sf_classes_refusal *r, struct sf_err *err)
{
	const char *spec = r->spec;
	size_t len = strlen(spec);
	size_t at = r->item < len ? r->item : len;
	int n = (int)(r->item_len < len - at ? r->item_len : len - at);
	struct strbuf known = STRBUF_INIT;

	switch (r->code) {
	case SF_CLP_EMPTY:
		return sf_error(err, "empty class list");
	case SF_CLP_UNKNOWN_NAME:
		for (size_t i = 0; i < sf_classes_npresets(); i++)
			sb_addf(&known, "%s%s", i ? ", " : "", sf_classes_preset_name(i));
		sf_error(err, "'%s': unknown preset (known: %s) and not a list like "
			 "32,64,96", spec, known.buf);
		sb_release(&known);
		return -1;
	case SF_CLP_EMPTY_ITEM:
		return sf_error(err, "'%s': empty item in the class list", spec);
	case SF_CLP_NOT_NUMBER:
		return sf_error(err, "'%s': '%.*s' is not a preset or a byte count "
				"(presets: see 'structfit classes')", spec, n, spec + at);
	case SF_CLP_TOO_LARGE:
		return sf_error(err, "'%s': class '%.*s' is too large", spec, n, spec + at);
	case SF_CLP_ZERO:
		return sf_error(err, "'%s': a class of 0 bytes", spec);
	case SF_CLP_NOT_INCREASING:
		return sf_error(err, "'%s': classes must be strictly increasing "
				"(%" PRIu64 " after %" PRIu64 ")", spec, r->value, r->prev);
	}
	assert(!"a class SPEC that was not refused");
	return -1;
}

/* ------------------------------------------------------------ public layouts */

const char *sf_public_word(enum sf_public p)
{
	switch (p) {
	case SF_PUBLIC_PACKED: return "packed";
	case SF_PUBLIC_INSTALLED: return "installed";
	case SF_PUBLIC_INCLUDE: return "include";
	case SF_PUBLIC_NO: break;
	}
	return "";
}

const char *sf_public_why(enum sf_public p)
{
	switch (p) {
	case SF_PUBLIC_PACKED:
		return "it is packed (a wire or file format: its bytes are read elsewhere)";
	case SF_PUBLIC_INSTALLED:
		return "its header is installed (other programs compile against it)";
	case SF_PUBLIC_INCLUDE:
		return "its header is in the project's include/ directory (a public API "
		       "others compile against)";
	case SF_PUBLIC_NO:
		break;
	}
	return "";
}

void sf_similar_say(struct strbuf *out, const char *what, const char *const *names,
		    size_t n)
{
	if (!n)
		return;
	sb_addf(out, "\nThe most similar %s%s\n", what, n == 1 ? " is" : "s are");
	for (size_t i = 0; i < n; i++)
		sb_addf(out, "\t%s\n", names[i]);
}
