/*
 * pahole.c - 'structfit pahole': pahole 1.24's layout options, with
 * pahole's meanings and output, for pahole users' habits.
 *
 * pahole's letters are not structfit's (-R reorganizes, -s prints sizes,
 * -C names types), so this command brings an option table of its own,
 * pahole_options[] (rows of struct sf_option, as cmd/common.c's table),
 * and its option list pahole_opts_list[] (struct sf_opt_use): the shared
 * parser (sf_getopt_init/next, which takes only --help for a command with
 * its own table) and the help (cmd/usage.c) are made from them.  pahole's
 * options structfit does not do are rows of pahole_refused[], looked for
 * on the command line before the parsing (refuse_pahole_only): each is
 * refused in one line naming it, never ignored nor "unknown".
 *
 * The switches land in struct pahole_opts.  What pahole prints is chosen
 * the way pahole 1.24's pahole.c does (class__filter, print_classes, the
 * class_name loop): every struct and union of the typeset in its order,
 * named ones only unless -a, each name once per definition; then one
 * formatter - the block (report/text.c, which has pahole's switches in
 * struct sf_text_opts), sizes, member counts, name lengths, packable, names.
 * -C NAMES prints those types whatever the filters, -R in structfit's
 * smallest order (layout/plan.h) with pahole's "saved" line, -S and -V
 * saying its moves (layout/reorgsteps.h); -u the unit of each.  -T counts
 * every unit's definitions as the loader reads them (its each_def hook,
 * dedup off); --lang and --lang_exclude have the loader read only the
 * units of those languages (sf_load_opts.unit_langs), as pahole's
 * cu__filter drops the others before anything looks at them.  As in
 * pahole, order matters where it does in pahole: -V then -z prints
 * blocks, -z then -V names; -T then -s prints sizes, -s then -T not.
 */
#include <getopt.h>
#include <pthread.h>
#include <stdlib.h>
#include <strings.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"
#include "common.h"
#include "layout/holes.h"
#include "layout/plan.h"
#include "layout/reorgsteps.h"
#include "lib/hash.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "model/nested.h"
#include "report/reorg.h"
#include "report/report.h"

enum {
	P_HEX = 300, P_STRUCTS, P_UNIONS, P_PACKED, P_FLEX, P_SORT,
	P_NO_ALIGNED, P_NO_PACKED, P_NO_FORCE, P_COUNT, P_SKIP, P_LANG, P_LANG_EXCLUDE,
};

#define P "pahole"

/* pahole 1.24's options that structfit pahole takes. */
static const struct sf_option pahole_options[] = {
	{ 'C', "class_name", required_argument, "NAMES", P,
	  "only these types (a comma list), in the order given, whatever the filters" },
	{ 's', "sizes", no_argument, NULL, P, "each type's name, size and number of holes" },
	{ 'n', "nr_members", no_argument, NULL, P, "each type's name and number of members" },
	{ 'N', "class_name_len", no_argument, NULL, P,
	  "each type's name and the length of its name" },
	{ 't', "separator", required_argument, "SEP", P,
	  "the field separator of -s, -n, -N, -P (default a tab)" },
	{ 'P', "packable", no_argument, NULL, P,
	  "the structs a reorder shrinks: name, size, new size, saving" },
	{ 'R', "reorganize", no_argument, NULL, P,
	  "with -C: each struct in its smallest member order (structfit's search)" },
	{ 'S', "show_reorg_steps", no_argument, NULL, P,
	  "with -R: each member moved, and the struct after each move" },
	{ 'T', "nr_definitions", no_argument, NULL, P,
	  "each struct's name and the number of units that define it" },
	{ 'u', "defined_in", no_argument, NULL, P,
	  "with -C: the unit that defines each type, instead of its block" },
	{ 'i', "contains", required_argument, "NAME", P,
	  "the structs that have a member of type NAME" },
	{ 'd', "recursive", no_argument, NULL, P,
	  "with -i: the containers of the containers, indented" },
	{ 'H', "holes", required_argument, "N", P, "only structs with at least N holes" },
	{ 'B', "bit_holes", required_argument, "N", P,
	  "only structs with at least N bit holes" },
	{ 'z', "hole_size_ge", required_argument, "N", P,
	  "the names of the structs with a hole of at least N bytes" },
	{ P_STRUCTS, "structs", no_argument, NULL, P, "structs only" },
	{ P_UNIONS, "unions", no_argument, NULL, P, "unions only" },
	{ P_PACKED, "packed", no_argument, NULL, P, "packed structs only" },
	{ P_FLEX, "with_flexible_array", no_argument, NULL, P,
	  "only structs ending in a flexible array" },
	{ P_LANG, "lang", required_argument, "LANGS", P,
	  "only the units in these languages (a comma list of pahole's names)" },
	{ P_LANG_EXCLUDE, "lang_exclude", required_argument, "LANGS", P,
	  "leave out the units in these languages" },
	{ 'x', "exclude", required_argument, "PREFIX", P,
	  "leave out the types whose name starts with PREFIX" },
	{ 'y', "prefix_filter", required_argument, "PREFIX", P,
	  "only the types whose name starts with PREFIX" },
	{ 'a', "anon_include", no_argument, NULL, P,
	  "include anonymous structs named by a typedef" },
	{ 'A', "nested_anon_include", no_argument, NULL, P,
	  "with -a: the anonymous structs and unions inside others too, on their own" },
	{ 'E', "expand_types", no_argument, NULL, P,
	  "a member's typedefs said, the structs and unions it holds printed inline" },
	{ 'I', "show_decl_info", no_argument, NULL, P,
	  "before each type: the unit it was read from, its DIE and declaration" },
	{ 'r', "rel_offset", no_argument, NULL, P,
	  "nested members' offsets from their own struct, not the outermost" },
	{ 'q', "quiet", no_argument, NULL, P, "no comments, offsets or summaries" },
	{ P_HEX, "hex", no_argument, NULL, P, "offsets, sizes and enumerators in hexadecimal" },
	{ P_NO_ALIGNED, "suppress_aligned_attribute", no_argument, NULL, P,
	  "no __attribute__((__aligned__(N)))" },
	{ P_NO_PACKED, "suppress_packed", no_argument, NULL, P,
	  "no __attribute__((__packed__))" },
	{ P_NO_FORCE, "suppress_force_paddings", no_argument, NULL, P,
	  "no \"Force padding:\" bit-fields" },
	{ P_SORT, "sort", no_argument, NULL, P, "the blocks sorted by type name" },
	{ P_COUNT, "count", required_argument, "N", P,
	  "print N records of pahole's prettify input (not done): no effect on a listing" },
	{ P_SKIP, "skip", required_argument, "N", P,
	  "skip N records of pahole's prettify input (not done): no effect on a listing" },
	{ 'c', "cacheline_size", required_argument, "SIZE", P,
	  "cacheline size in bytes (default 64)" },
	{ 'F', "format_path", required_argument, "FORMATS", P,
	  "dwarf or btf (a comma list: the first an ELF file has is read)" },
	{ 'M', "show_only_data_members", no_argument, NULL, P,
	  "data members only (structfit never prints member functions)" },
	{ 'V', "verbose", no_argument, NULL, P,
	  "-P, -z: the blocks instead of the lines; -i: the member counts" },
	{ 'j', "jobs", optional_argument, "N", P, "read the inputs on N threads" },
	{ 'h', "help", no_argument, NULL, P, "this help" },
	{ 0, NULL, 0, NULL, NULL, NULL },
};

static const struct sf_opt_use pahole_opts_list[] = {
	{ "class_name", SF_U_SHORT, NULL, NULL },
	{ "sizes", SF_U_SHORT | SF_U_OR_NEXT, NULL, NULL },
	{ "nr_members", SF_U_SHORT | SF_U_OR_NEXT, NULL, NULL },
	{ "class_name_len", SF_U_SHORT | SF_U_OR_NEXT, NULL, NULL },
	{ "packable", SF_U_SHORT | SF_U_OR_NEXT, NULL, NULL },
	{ "nr_definitions", SF_U_SHORT | SF_U_OR_NEXT, NULL, NULL },
	{ "reorganize", SF_U_SHORT, NULL, NULL },
	{ "show_reorg_steps", SF_U_SHORT, NULL, NULL },
	{ "defined_in", SF_U_SHORT, NULL, NULL },
	{ "separator", 0, NULL, NULL },
	{ "contains", SF_U_SHORT, NULL, NULL },
	{ "recursive", 0, NULL, NULL },
	{ "holes", 0, NULL, NULL },
	{ "bit_holes", 0, NULL, NULL },
	{ "hole_size_ge", 0, NULL, NULL },
	{ "structs", 0, NULL, NULL },
	{ "unions", 0, NULL, NULL },
	{ "packed", 0, NULL, NULL },
	{ "with_flexible_array", 0, NULL, NULL },
	{ "exclude", 0, NULL, NULL },
	{ "prefix_filter", 0, NULL, NULL },
	{ "lang", 0, NULL, NULL },
	{ "lang_exclude", 0, NULL, NULL },
	{ "anon_include", 0, NULL, NULL },
	{ "nested_anon_include", 0, NULL, NULL },
	{ "expand_types", SF_U_SHORT, NULL, NULL },
	{ "rel_offset", 0, NULL, NULL },
	{ "show_decl_info", SF_U_SHORT, NULL, NULL },
	{ "quiet", SF_U_SHORT, NULL, NULL },
	{ "hex", 0, NULL, NULL },
	{ "suppress_aligned_attribute", 0, NULL, NULL },
	{ "suppress_packed", 0, NULL, NULL },
	{ "suppress_force_paddings", 0, NULL, NULL },
	{ "sort", 0, NULL, NULL },
	{ "count", 0, NULL, NULL },
	{ "skip", 0, NULL, NULL },
	{ "cacheline_size", 0, NULL, NULL },
	{ "format_path", 0, NULL, NULL },
	{ "show_only_data_members", 0, NULL, NULL },
	{ "verbose", 0, NULL, NULL },
	{ "jobs", 0, NULL, NULL },
	{ "help", 0, NULL, NULL },
	SF_U_END,
};

static const struct sf_command pahole_command = {
	.name = "pahole",
	.operands = "FILE...",
	.intro =
	"pahole 1.24's layout options, with pahole's meanings and pahole's output\n"
	"(byte for byte where pahole is right).  The letters are pahole's, here only.\n",
	.opts = pahole_opts_list,
	.outro =
	"pahole's other options are refused by name: -l, -m, -p, -f,\n"
	"-D, -X, -w, -J and the long ones (prettify, compile, ...).\n"
	"Exit status: 0 ok, 2 usage error, unusable input or a type not found.\n",
	.table = pahole_options,
};

/* pahole 1.24's options that structfit pahole does not do. */
static const struct sf_option pahole_refused[] = {
	{ 'l', "show_first_biggest_size_base_type_member", no_argument, NULL, P, NULL },
	{ 'm', "nr_methods", no_argument, NULL, P, NULL },
	{ 'p', "expand_pointers", no_argument, NULL, P, NULL },
	{ 'f', "find_pointers_to", required_argument, NULL, P, NULL },
	{ 'D', "decl_exclude", required_argument, NULL, P, NULL },
	{ 'X', "cu_exclude", required_argument, NULL, P, NULL },
	{ 'w', "word_size", required_argument, NULL, P, NULL },
	{ 'J', "btf_encode", no_argument, NULL, P, NULL },
	{ 'Z', "ctf_encode", no_argument, NULL, P, NULL },
	{ 0, "seek_bytes", required_argument, NULL, P, NULL },
	{ 0, "size_bytes", required_argument, NULL, P, NULL },
	{ 0, "range", required_argument, NULL, P, NULL },
	{ 0, "header_type", required_argument, NULL, P, NULL },
	{ 0, "prettify", required_argument, NULL, P, NULL },
	{ 0, "compile", optional_argument, NULL, P, NULL },
	{ 0, "flat_arrays", no_argument, NULL, P, NULL },
	{ 0, "classes_as_structs", no_argument, NULL, P, NULL },
	{ 0, "show_private_classes", no_argument, NULL, P, NULL },
	{ 0, "fixup_silly_bitfields", no_argument, NULL, P, NULL },
	{ 0, "first_obj_only", no_argument, NULL, P, NULL },
	{ 0, "btf_encode_detached", required_argument, NULL, P, NULL },
	{ 0, "btf_base", required_argument, NULL, P, NULL },
	{ 0, "kabi_prefix", required_argument, NULL, P, NULL },
	{ 0, "numeric_version", no_argument, NULL, P, NULL },
	{ 0, NULL, 0, NULL, NULL, NULL },
};

enum pahole_fmt {
	PF_BLOCK,	/* the struct as pahole prints it */
	PF_SIZES,	/* -s */
	PF_MEMBERS,	/* -n */
	PF_NAME_LEN,	/* -N */
	PF_NAME,	/* -z: the names alone */
	PF_NONE,	/* -T: nothing per type (the counts come after) */
};

/*
 * -T: how many units define each struct, by pahole's identity of a
 * definition (type__compare: name, size, members' names, bit offsets and
 * bit-field sizes) as a hash: the loader's each_def adds one per unit, on
 * the reading threads.
 */
struct def_counts {
	pthread_mutex_t lock;
	struct def_slot { uint64_t key; uint32_t n; bool printed; } *v;	/* key 0: empty */
	size_t n, cap;
};

struct pahole_opts {
	struct sf_common_opts co;     /* --jobs, the loader's switches */
	struct sf_text_opts to;       /* -q, --hex, --suppress_* */
	char **names;                 /* -C or -i NAMES, split at commas */
	size_t nnames;
	enum pahole_fmt fmt;
	char sep;                     /* -t */
	bool anon, nested_anon, recursive, packable, reorganize, contains, verbose, sort;
	bool structs, unions, packed, flex;
	bool reorg_steps, nr_defs, defined_in;	/* -S, -T, -u */
	const char *langs;            /* --lang or --lang_exclude's LANGS, the last */
	bool lang_exclude;            /* --lang_exclude given (pahole: it stays) */
	struct def_counts defs;       /* -T */
	const char *exclude, *prefix; /* -x, -y */
	uint64_t holes, bit_holes, hole_ge;
};

static int refuse(const struct sf_option *o)
{
	char letter[8] = "";

	if (o->id)
		snprintf(letter, sizeof(letter), " (-%c)", o->id);
	return sf_die_usage("pahole: pahole's option --%s%s is not done by structfit "
			    "pahole; see 'structfit pahole --help'", o->name, letter);
}

/* The row of pahole's option letter c: taken, refused, or NULL. */
static const struct sf_option *letter_row(const struct sf_option *table, int c)
{
	for (const struct sf_option *o = table; o->name; o++)
		if (o->id == c)
			return o;
	return NULL;
}

/* A "--name[=value]" of pahole_refused (a unique prefix, as getopt takes). */
static const struct sf_option *refused_long(const char *arg)
{
	size_t n = strcspn(arg, "=");
	const struct sf_option *found = NULL;

	for (const struct sf_option *o = pahole_refused; o->name; o++) {
		if (strncmp(o->name, arg, n))
			continue;
		if (!o->name[n])
			return o;
		found = found ? (const struct sf_option *)-1 : o;
	}
	/* an abbreviation of an option taken too is getopt's to judge */
	for (const struct sf_option *o = pahole_options; o->name; o++)
		if (!strncmp(o->name, arg, n))
			return NULL;
	return found == (const struct sf_option *)-1 ? NULL : found;
}

/*
 * pahole's options structfit does not do, on the command line before
 * "--": refused by name (2), else 0.  Walks short clusters as getopt
 * does: a letter taking a value ends its cluster, its value the next
 * word when the cluster ends there.
 */
static int refuse_pahole_only(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		const char *a = argv[i];
		const struct sf_option *o;
		if (a[0] != '-' || !a[1])
			continue;
		if (a[1] == '-') {
			if ((o = refused_long(a + 2)))
				return refuse(o);
			o = NULL;
			continue;
		}
		for (const char *c = a + 1; *c; c++) {
			if ((o = letter_row(pahole_refused, *c)))
				return refuse(o);
			o = letter_row(pahole_options, *c);
			if (o && o->has_arg != no_argument) {
				i += !c[1] && o->has_arg == required_argument;
				break;
			}
		}
	}
	return 0;
}

/* A numeric value of -H, -B, -z, -c, --count, --skip: decimal, 0 to
 * 2^32-1 (pahole's atoi would take less; a word is an error here). */
static int count_arg(int c, const char *arg, uint64_t *out)
{
	if (sf_parse_decimal(arg, out) == 0 && *out <= UINT32_MAX)
		return 0;
	return sf_die_usage("pahole: --%s: '%s' is not a number from 0 to %lu",
			    letter_row(pahole_options, c)->name, arg, (unsigned long)UINT32_MAX), -1;
}

/* -F LIST: each of dwarf, btf; the first says which an ELF file gives. */
static int format_path(const char *arg, struct pahole_opts *p)
{
	char *copy = sf_xstrdup(arg), *save = NULL;
	int first = 1, rc = 0;

	for (char *f = strtok_r(copy, ",", &save); f; f = strtok_r(NULL, ",", &save)) {
		if (strcmp(f, "dwarf") && strcmp(f, "btf")) {
			rc = sf_die_usage("pahole: -F: '%s' is not a format structfit reads "
					  "(dwarf, btf)", f);
			break;
		}
		if (first)
			p->co.btf_first = !strcmp(f, "btf");
		first = 0;
	}
	free(copy);
	return rc ? -1 : 0;
}

static int take_names(int c, const char *arg, struct pahole_opts *p)
{
	for (size_t i = 0; i < p->nnames; i++)
		free(p->names[i]);
	p->nnames = 0;	/* the last -C or -i wins, as in pahole */
	p->contains = c == 'i';
	return sf_split_names(arg, ',', &p->names, &p->nnames);
}

/* The numbers: -H, -B, -z, -c, -j, --count, --skip. */
static int take_number(int c, const char *arg, struct pahole_opts *p)
{
	uint64_t v = 0;

	switch (c) {
	case P_COUNT: case P_SKIP:	/* --prettify's records: checked, no more */
		return count_arg(c, arg, &v);
	case 'H': return count_arg(c, arg, &p->holes);
	case 'B': return count_arg(c, arg, &p->bit_holes);
	case 'z':
		if (!p->verbose)
			p->fmt = PF_NAME;
		return count_arg(c, arg, &p->hole_ge);
	case 'c':
		if (count_arg(c, arg, &v) < 0)
			return -1;
		if (v < 1)
			return sf_die_usage("pahole: --cacheline_size: '%s' is not a size "
					    "in bytes", arg), -1;
		p->co.cacheline = (unsigned)v;
		return 0;
	default:	/* -j[N] */
		if (!arg)
			return 0;
		if (sf_parse_decimal(arg, &v) < 0 || v < 1 || v > 1024)
			return sf_die_usage("pahole: --jobs: '%s' is not a number of "
					    "threads from 1 to 1024", arg), -1;
		p->co.jobs = (unsigned)v;
		return 0;
	}
}

/* The switches of one option; -1 after the error line. */
static int take(int c, const char *arg, struct pahole_opts *p)
{
	switch (c) {
	case 'C': case 'i': return take_names(c, arg, p);
	case 'F': return format_path(arg, p);
	case 'H': case 'B': case 'z': case 'c': case 'j': case P_COUNT: case P_SKIP:
		return take_number(c, arg, p);
	case 'a': p->anon = true; break;
	case 'A': p->nested_anon = true; break;
	case 'd': p->recursive = true; break;
	case 'M': break;	/* structfit prints data members alone */
	case 'n': p->fmt = PF_MEMBERS; break;
	case 'N': p->fmt = PF_NAME_LEN; break;
	case 's': p->fmt = PF_SIZES; break;
	case 'P': p->packable = true; break;
	case 'q': p->to.quiet = true; break;
	case 'E': p->to.expand = true; break;
	case 'r': p->to.rel_offset = true; break;
	case 'I': p->to.decl_info = true; break;
	case 'R': p->reorganize = true; break;
	case 'S': p->reorg_steps = true; break;
	case 'T': p->nr_defs = true; p->fmt = PF_NONE; break;
	case 'u': p->defined_in = true; break;
	case P_LANG_EXCLUDE: p->lang_exclude = true; /* fall through */
	case P_LANG: p->langs = arg; break;
	case 'V': p->verbose = true; break;
	case 't': p->sep = arg[0]; break;
	case 'x': p->exclude = arg; break;
	case 'y': p->prefix = arg; break;
	case P_HEX: p->to.hex = true; break;
	case P_STRUCTS: p->structs = true; break;
	case P_UNIONS: p->unions = true; break;
	case P_PACKED: p->packed = p->structs = true; break;
	case P_FLEX: p->flex = true; break;
	case P_SORT: p->sort = true; break;
	case P_NO_ALIGNED: p->to.no_aligned = true; break;
	case P_NO_PACKED: p->to.no_packed = true; break;
	case P_NO_FORCE: p->to.no_force_padding = true; break;
	}
	return 0;
}

/* pahole 1.24's language names (dwarves.c, lang__str2int) and their
 * DW_LANG codes: C89 (1) to BLISS (0x25), compared ignoring case. */
static const struct { const char *name; unsigned code; } pahole_langs[] = {
	{ "c89", 0x01 }, { "c", 0x02 }, { "ada83", 0x03 }, { "c++", 0x04 },
	{ "cobol74", 0x05 }, { "cobol85", 0x06 }, { "fortran77", 0x07 },
	{ "fortran90", 0x08 }, { "pascal83", 0x09 }, { "modula2", 0x0a }, { "java", 0x0b },
	{ "c99", 0x0c }, { "ada95", 0x0d }, { "fortran95", 0x0e }, { "pli", 0x0f },
	{ "objc", 0x10 }, { "objc++", 0x11 }, { "upc", 0x12 }, { "d", 0x13 },
	{ "python", 0x14 }, { "opencl", 0x15 }, { "go", 0x16 }, { "modula3", 0x17 },
	{ "haskell", 0x18 }, { "c++03", 0x19 }, { "c++11", 0x1a }, { "ocaml", 0x1b },
	{ "rust", 0x1c }, { "c11", 0x1d }, { "swift", 0x1e }, { "julia", 0x1f },
	{ "dylan", 0x20 }, { "c++14", 0x21 }, { "fortran03", 0x22 }, { "fortran08", 0x23 },
	{ "renderscript", 0x24 }, { "bliss", 0x25 },
};

/* The DW_LANG code of pahole's language name, or 0. */
static unsigned lang_code(const char *name, size_t n)
{
	for (size_t i = 0; i < sizeof(pahole_langs) / sizeof(pahole_langs[0]); i++)
		if (strlen(pahole_langs[i].name) == n && !strncasecmp(pahole_langs[i].name, name, n))
			return pahole_langs[i].code;
	return 0;
}

/* The error line of a name lang_code does not know; -1. */
static int bad_lang(const struct pahole_opts *p, const char *name, size_t n)
{
	struct strbuf names = STRBUF_INIT;

	for (size_t i = 0; i < sizeof(pahole_langs) / sizeof(pahole_langs[0]); i++)
		sb_addf(&names, "%s%s", i ? ", " : "", pahole_langs[i].name);
	sf_die_usage("pahole: --lang%s: '%.*s' is not one of pahole's language names (%s)",
		     p->lang_exclude ? "_exclude" : "", (int)n, name, names.buf);
	sb_release(&names);
	return -1;
}

/* --lang, --lang_exclude LANGS: the units' languages the loader reads
 * (sf_load_opts.unit_langs); 0, or -1 after the error line. */
static int lang_mask(struct pahole_opts *p)
{
	uint64_t set = 0;

	for (const char *l = p->langs;; l++) {
		size_t n = strcspn(l, ",");
		unsigned code = lang_code(l, n);
		if (!code)
			return bad_lang(p, l, n);
		set |= UINT64_C(1) << code;
		l += n;
		if (!*l)
			break;
	}
	/* a unit of no language, or of one pahole cannot name, is never in
	 * LANGS (unit_langs' bit 0) */
	p->co.unit_langs = p->lang_exclude ? ~set : set;
	return 0;
}

/* SF_GO_ON, or the exit status. */
static int parse_opts(int argc, char **argv, struct pahole_opts *p)
{
	struct sf_getopt g;
	int c;

	if (refuse_pahole_only(argc, argv))
		return SF_EXIT_ERROR;
	sf_getopt_init(&g, &pahole_command, &p->co);
	while ((c = sf_getopt_next(&g, argc, argv)) != -1)
		if (take(c, optarg, p) < 0)
			return SF_EXIT_ERROR;
	if (g.status == SF_GO_ON && p->langs && lang_mask(p) < 0)
		return SF_EXIT_ERROR;
	return g.status;
}

/* ---- which types, as pahole's class__filter ----------------------------- */

static bool is_struct(const struct sf_type *t)
{
	return t->kind != SF_KIND_UNION;
}

static bool prefixed(const char *name, const char *prefix)
{
	return !strncmp(name, prefix, strlen(prefix));
}

/* pahole's class__has_hole_ge: a hole after a member of at least n bytes. */
static bool hole_ge(const struct sf_layout *l, uint64_t n)
{
	for (uint32_t i = 0; i < l->nholes; i++)
		if (l->holes[i].after != SF_NO_MEMBER && l->holes[i].size >= n)
			return true;
	return false;
}

static bool flexible(const struct sf_type *t)
{
	return t->nmembers && (t->members[t->nmembers - 1].flags & SF_MF_FLEX_ARRAY);
}

/* The smallest size of t in any member order; t->size when none is smaller
 * or the C rules do not give t's layout (pahole's class__packable). */
static uint64_t packed_size(const struct sf_type *t, struct sf_typeset *arena)
{
	struct sf_plan_opts po = { .search = SF_PLAN_MIN_SIZE };
	struct sf_plan plan;
	struct sf_plan_refusal why;
	uint64_t size = t->size;

	if (sf_plan_make(t, &po, arena, &plan, &why) < 0)
		return size;
	if (plan.modeled && plan.size != SF_NO_FIT && plan.size < size)
		size = plan.size;
	sf_plan_release(&plan);
	return size;
}

static bool keeps_struct(const struct pahole_opts *p, const struct sf_type *t,
			 const struct sf_layout *l, struct sf_typeset *arena)
{
	if (l->nholes < p->holes || l->nbit_holes < p->bit_holes ||
	    (p->hole_ge && !hole_ge(l, p->hole_ge)))
		return false;
	if (p->packable && ((!l->nholes && !l->nbit_holes) || packed_size(t, arena) >= t->size))
		return false;
	return !p->flex || flexible(t);
}

/* Whether pahole's default listing prints t (layout l). */
static bool keeps(const struct pahole_opts *p, const struct sf_type *t,
		  const struct sf_layout *l, struct sf_typeset *arena)
{
	const char *name = t->name ? t->name : "";

	if (t->nvariants || (t->flags & SF_TF_DECLARATION) || !*name)
		return false;	/* an enum with data is no C struct */
	if ((t->flags & SF_TF_TYPEDEF) && !p->anon)
		return false;
	if ((p->unions && is_struct(t)) || (p->structs && !is_struct(t)) ||
	    (p->packed && !(t->flags & SF_TF_PACKED)))
		return false;
	if ((p->exclude && prefixed(name, p->exclude)) ||
	    (p->prefix && !prefixed(name, p->prefix)))
		return false;
	if (p->unions)
		return true;
	if (!is_struct(t))
		return !(p->structs || p->packable || p->holes || p->bit_holes || p->hole_ge);
	return keeps_struct(p, t, l, arena);
}

/* ---- output --------------------------------------------------------------- */

static void layout_of(const struct pahole_opts *p, const struct sf_typeset *ts,
		      const struct sf_type *t, struct sf_layout *l)
{
	struct sf_layout_opts lo = {
		.cacheline = p->co.cacheline,
		.lookup = sf_layout_lookup_in_typeset,
		.lookup_ctx = (void *)ts,
	};

	sf_layout_compute_opts(t, &lo, l);
}

/* pahole's class__name: an anonymous struct has none ("(null)" in its lines). */
static const char *line_name(const struct sf_type *t)
{
	return (t->flags & SF_TF_TYPEDEF) ? "(null)" : t->name;
}

/* -E: what a member holds by value, for report/text.c (expand_find). */
struct expand_ctx {
	const struct pahole_opts *p;
	const struct sf_typeset *ts;
};

static const struct sf_type *expand_find(void *ctx, const char *name, struct sf_layout *out)
{
	const struct expand_ctx *x = ctx;
	const struct sf_type *t;

	if (!sf_typeset_find(x->ts, name, &t, 1) || t->nvariants)
		return NULL;
	layout_of(x->p, x->ts, t, out);
	return t;
}

static void block(struct strbuf *sb, const struct pahole_opts *p, const struct sf_type *t,
		  const struct sf_layout *l)
{
	sf_render_text_type(sb, t, l, &p->to);	/* "};\n": pahole's "};" and putchar */
}

/* One type of the listing in the chosen format. */
static void one(struct strbuf *sb, const struct pahole_opts *p, const struct sf_type *t,
		const struct sf_layout *l, struct sf_typeset *arena)
{
	char s = p->sep;

	if (p->packable && !p->verbose) {
		uint64_t n = packed_size(t, arena);
		sb_addf(sb, "%s%c%llu%c%llu%c%llu\n", t->name, s, (unsigned long long)t->size,
			s, (unsigned long long)n, s, (unsigned long long)(t->size - n));
		return;
	}
	switch (p->fmt) {
	case PF_SIZES:
		sb_addf(sb, "%s%c%llu%c%u\n", line_name(t), s, (unsigned long long)t->size, s,
			is_struct(t) ? l->nholes : 0);
		break;
	case PF_MEMBERS:
		sb_addf(sb, "%s%c%u\n", line_name(t), s, l->members);
		break;
	case PF_NAME_LEN:
		sb_addf(sb, "%s%c%zu\n", line_name(t), s, strlen(line_name(t)));
		break;
	case PF_NAME:
		sb_addf(sb, "%s\n", line_name(t));
		break;
	case PF_NONE:
		break;
	default:
		block(sb, p, t, l);
	}
}

static void flush(struct strbuf *sb)
{
	fwrite(sb->buf, 1, sb->len, stdout);
	sb_reset(sb);
}

/* pahole's type__compare: name, size, member count (then members). */
static int by_name(const void *a, const void *b)
{
	const struct sf_type *x = *(const struct sf_type *const *)a;
	const struct sf_type *y = *(const struct sf_type *const *)b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	if (x->size != y->size)
		return x->size < y->size ? -1 : 1;
	return x->nmembers < y->nmembers ? -1 : x->nmembers > y->nmembers;
}

/* Every type pahole's listing prints, in its order. */
static size_t listed(const struct pahole_opts *p, const struct sf_typeset *ts,
		     struct sf_typeset *arena, const struct sf_type ***out)
{
	size_t n = 0, all = sf_typeset_count(ts);
	const struct sf_type **v = sf_xcalloc(all ? all : 1, sizeof(*v));

	for (size_t i = 0; i < all; i++) {
		const struct sf_type *t = sf_typeset_get(ts, i);
		struct sf_layout l;
		layout_of(p, ts, t, &l);
		/* --sort lists named types alone: pahole's tree has no others */
		if (keeps(p, t, &l, arena) && !(p->sort && (t->flags & SF_TF_TYPEDEF)))
			v[n++] = t;
		sf_layout_release(&l);
	}
	if (p->sort && p->fmt == PF_BLOCK && !p->packable)
		qsort(v, n, sizeof(*v), by_name);	/* stable enough: names differ */
	*out = v;
	return n;
}

/* ---- -T: pahole's nr_definitions_formatter ------------------------------ */

/* pahole's identity of a definition (type__compare), hashed; never 0. */
static uint64_t def_key(const struct sf_type *t)
{
	uint64_t h = sf_hash_bytes(t->size ^ ((uint64_t)t->nmembers << 40), t->name,
				   strlen(t->name));

	for (uint32_t i = 0; i < t->nmembers; i++) {
		const struct sf_member *m = &t->members[i];
		uint64_t bits[2] = { m->offset * 8 + m->bit_offset, m->bit_size };
		h = sf_hash_bytes(h, m->name ? m->name : "", m->name ? strlen(m->name) : 0);
		h = sf_hash_bytes(h, bits, sizeof(bits));
	}
	return h ? h : 1;
}

/* The slot of key k in d (a free one when absent), d->lock held or alone. */
static struct def_slot *def_slot(struct def_counts *d, uint64_t k)
{
	if ((d->n + 1) * 2 > d->cap) {
		struct def_counts g = { .cap = d->cap ? d->cap * 2 : 256 };
		g.v = sf_xcalloc(g.cap, sizeof(*g.v));
		for (size_t i = 0; i < d->cap; i++)
			if (d->v[i].key)
				*def_slot(&g, d->v[i].key) = d->v[i];
		free(d->v);
		d->v = g.v;
		d->cap = g.cap;
	}
	size_t j = sf_mix64(k) & (d->cap - 1);
	while (d->v[j].key && d->v[j].key != k)
		j = (j + 1) & (d->cap - 1);
	return &d->v[j];
}

/* The loader's each_def: one unit's definition of t (any thread). */
static void count_def(void *arg, const struct sf_type *t)
{
	struct def_counts *d = arg;

	if (!t->name || !*t->name || (t->flags & SF_TF_TYPEDEF))
		return;	/* pahole counts named structs and unions alone */
	uint64_t k = def_key(t);
	pthread_mutex_lock(&d->lock);
	struct def_slot *s = def_slot(d, k);
	if (!s->key) {
		s->key = k;
		d->n++;
	}
	s->n += s->n < UINT32_MAX;
	pthread_mutex_unlock(&d->lock);
}

/* After the listing: each listed struct's name and how many units define
 * it, once per definition (v: the n types listed). */
static void nr_definitions(const struct pahole_opts *p, struct def_counts *d,
			   const struct sf_type **v, size_t n)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < n; i++) {
		if (v[i]->flags & SF_TF_TYPEDEF)
			continue;
		struct def_slot *s = def_slot(d, def_key(v[i]));
		if (!s->key) {	/* held for a base defined elsewhere: not counted */
			s->key = def_key(v[i]);
			d->n++;
		}
		if (s->printed)	/* an equal one, by pahole's identity */
			continue;
		sb_addf(&sb, "%s%c%u\n", v[i]->name, p->sep, s->n ? s->n : 1);
		s->printed = true;
		flush(&sb);
	}
	sb_release(&sb);
}

static void *in_arena(void *ctx, size_t size)
{
	return sf_typeset_alloc(ctx, size);
}

/*
 * -a -A: the anonymous structs and unions inside t (at any depth, held,
 * in arrays or pointed to), each a block of its own at offset 0, through
 * pahole's filters: what pahole 1.24 prints for each such type of a unit.
 */
static void nested_blocks(struct strbuf *sb, const struct pahole_opts *p,
			  const struct sf_typeset *ts, const struct sf_type *t,
			  struct sf_typeset *arena, unsigned depth)
{
	for (uint32_t i = 0; i < t->nmembers && depth < 32; i++) {
		const struct sf_member *m = &t->members[i];
		const struct sf_type *nt = m->nested;
		struct sf_layout l;
		if (!nt)
			continue;
		if (!(m->flags & SF_MF_POINTEE))	/* offsets back to 0: mod 2^64 */
			nt = sf_nested_clone(nt, (uint64_t)0 - m->offset, 0, 32, in_arena, arena);
		layout_of(p, ts, nt, &l);
		if ((is_struct(nt) ? !(p->unions || p->packed) && keeps_struct(p, nt, &l, arena)
		     : !(p->structs || p->packable || p->holes || p->bit_holes || p->hole_ge)))
			one(sb, p, nt, &l, arena);
		sf_layout_release(&l);
		nested_blocks(sb, p, ts, nt, arena, depth + 1);
	}
}

static void list_all(const struct pahole_opts *p, const struct sf_typeset *ts,
		     struct sf_typeset *arena, struct def_counts *defs)
{
	const struct sf_type **v;
	size_t n = listed(p, ts, arena, &v);
	struct strbuf sb = STRBUF_INIT;

	/* -a -A: every type's anonymous ones, whether it is listed or not */
	bool nested = p->anon && p->nested_anon && p->fmt == PF_BLOCK && !p->packable && !p->sort;
	size_t all = nested ? sf_typeset_count(ts) : n;
	for (size_t i = 0, j = 0; i < all; i++) {
		const struct sf_type *t = nested ? sf_typeset_get(ts, i) : v[i];
		if (j < n && v[j] == t) {
			struct sf_layout l;
			layout_of(p, ts, t, &l);
			one(&sb, p, t, &l, arena);
			sf_layout_release(&l);
			j++;
		}
		if (nested && !t->nvariants && !(t->flags & SF_TF_DECLARATION))
			nested_blocks(&sb, p, ts, t, arena, 0);
		flush(&sb);
	}
	sb_release(&sb);
	if (p->nr_defs)	/* pahole's print_stats, once every unit is read */
		nr_definitions(p, defs, v, n);
	free(v);
}

/* ---- -i NAME: pahole's print_containers ---------------------------------- */

/* How many of t's members are of type `name` itself (no pointer, array
 * or typedef: pahole compares type ids). */
static uint32_t members_of_type(const struct sf_type *t, const char *name)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < t->nmembers; i++) {
		const struct sf_member *m = &t->members[i];
		if (!m->type_name || (m->type_suffix && *m->type_suffix) || m->nested ||
		    (m->flags & (SF_MF_BASE | SF_MF_VIRTUAL_BASE)))
			continue;
		char *bare = sf_bare_name(m->type_name);
		n += !strcmp(bare, name) && strcmp(bare, m->type_name);
		free(bare);
	}
	return n;
}

static void containers(struct strbuf *sb, const struct pahole_opts *p,
		       const struct sf_typeset *ts, const struct sf_type *t,
		       const char *name, int depth)
{
	uint32_t n = members_of_type(t, name);

	if (!n || depth > 32)
		return;
	sb_addf(sb, "%*s%s", depth * 2, "", t->name);
	if (p->verbose)
		sb_addf(sb, ": %u", n);
	sb_addch(sb, '\n');
	if (!p->recursive)
		return;
	for (uint32_t i = 0; i < t->nmembers; i++) {
		const struct sf_member *m = &t->members[i];
		const struct sf_type *mt;
		if (!m->type_name || (m->flags & (SF_MF_BASE | SF_MF_VIRTUAL_BASE)) ||
		    (m->type_suffix && *m->type_suffix))
			continue;
		char *bare = sf_bare_name(m->type_name);
		if (strcmp(bare, m->type_name) && sf_typeset_find(ts, bare, &mt, 1))
			containers(sb, p, ts, mt, name, depth + 1);
		free(bare);
	}
}

static int list_containers(const struct pahole_opts *p, const struct sf_typeset *ts,
			   struct sf_typeset *arena, char **files, int nfiles)
{
	const struct sf_type **v, *found;
	const char *name = p->names[0];
	size_t n;

	if (!sf_typeset_find(ts, name, &found, 1))
		return sf_die_files(files, nfiles, "type '%s' not found", name), -1;
	n = listed(p, ts, arena, &v);
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < n; i++) {
		containers(&sb, p, ts, v[i], name, 0);
		flush(&sb);
	}
	sb_release(&sb);
	free(v);
	return 0;
}

/* ---- -C NAMES, and -R ----------------------------------------------------- */

/*
 * -S, -V with -R: each move from t's order to the plan's (one line), and
 * under -S the struct after it, laid out as the compiler would (pahole
 * 1.24 draws its own bookkeeping there, and dies doing so: see
 * tests/e2e/pahole_compat.sh, REORG_STEPS).
 */
static void reorg_steps(struct strbuf *sb, const struct pahole_opts *p,
			const struct sf_typeset *ts, const struct sf_plan *plan,
			struct sf_typeset *arena)
{
	struct sf_reorg_step *s;
	size_t n = sf_reorg_steps(&plan->units, &plan->reorder, &s);

	for (size_t i = 0; i < n; i++) {
		sf_render_reorg_step(sb, &plan->units, &s[i]);
		if (!p->reorg_steps || s[i].at.size == SF_NO_FIT)
			continue;
		const struct sf_type *it = sf_units_relayout(&plan->units, &s[i].at, arena);
		struct sf_layout l;
		layout_of(p, ts, it, &l);
		block(sb, p, it, &l);	/* pahole: class__fprintf, then '\n' */
		sf_layout_release(&l);
	}
	sf_reorg_steps_free(s, n);
	sb_addch(sb, '\n');	/* pahole's, before the final struct */
	if (p->reorg_steps)
		sf_render_reorg_final(sb);
}

/*
 * pahole's do_reorg: t in structfit's smallest member order (pahole's own
 * greedy order may differ; the size is never larger), then "saved N bytes
 * [and M cachelines]!" after the closing "};", or t itself when no order
 * is smaller; -S and -V say the moves first.
 */
static void reorganized(struct strbuf *sb, const struct pahole_opts *p,
			const struct sf_typeset *ts, const struct sf_type *t,
			struct sf_typeset *arena)
{
	struct sf_plan_opts po = { .search = SF_PLAN_ORDER };
	struct sf_plan plan;
	struct sf_plan_refusal why;
	struct sf_layout l, nl;
	const struct sf_type *nt = NULL;

	layout_of(p, ts, t, &l);
	if (sf_plan_make(t, &po, arena, &plan, &why) == 0) {
		if (plan.modeled && plan.reorder.size != SF_NO_FIT && plan.reorder.size < t->size) {
			if (p->reorg_steps || p->verbose)
				reorg_steps(sb, p, ts, &plan, arena);
			nt = sf_units_relayout(&plan.units, &plan.reorder, arena);
		}
		sf_plan_release(&plan);
	}
	if (!nt) {
		block(sb, p, t, &l);
		sf_layout_release(&l);
		return;
	}
	layout_of(p, ts, nt, &nl);
	sf_render_text_type(sb, nt, &nl, &p->to);
	sb->len--;	/* the newline: pahole's saving follows "};" */
	sb->buf[sb->len] = '\0';
	sf_render_reorg_saved(sb, t->size - nt->size, l.cachelines - nl.cachelines);
	sf_layout_release(&nl);
	sf_layout_release(&l);
}

/* pahole -C: each name's first definition, in the order given; -u: the
 * first unit that defines it (its DW_AT_name; pahole 1.24 stops looking
 * in a unit once it named one, so a second name that unit defines gets a
 * later unit's, or "not found"). */
static int named(const struct pahole_opts *p, const struct sf_typeset *ts,
		 struct sf_typeset *arena, char **files, int nfiles)
{
	struct strbuf sb = STRBUF_INIT;
	const struct sf_type *t;

	for (size_t i = 0; i < p->nnames; i++)	/* no partial output */
		if (!sf_typeset_find(ts, p->names[i], &t, 1))
			return sf_die_files(files, nfiles, "type '%s' not found",
					    p->names[i]), -1;
	for (size_t i = 0; i < p->nnames; i++) {
		sf_typeset_find(ts, p->names[i], &t, 1);
		if (p->defined_in) {	/* -u: before -R, as in pahole */
			sb_addf(&sb, "%s\n", t->unit_name ? t->unit_name : "");
		} else if (p->reorganize) {
			if (is_struct(t))	/* pahole reorganizes structs alone */
				reorganized(&sb, p, ts, t, arena);
		} else {
			struct sf_layout l;
			layout_of(p, ts, t, &l);
			block(&sb, p, t, &l);
			sf_layout_release(&l);
		}
		flush(&sb);
	}
	sb_release(&sb);
	return 0;
}

static void release_opts(struct pahole_opts *p)
{
	if (p->co.each_def)
		pthread_mutex_destroy(&p->defs.lock);
	free(p->defs.v);
	for (size_t i = 0; i < p->nnames; i++)
		free(p->names[i]);
	free(p->names);
	sf_common_opts_release(&p->co);
}

int cmd_pahole(int argc, char **argv)
{
	struct pahole_opts p = {
		.co = SF_COMMON_OPTS,
		.to = { .pahole_only = true },
		.sep = '\t',
	};
	int r = parse_opts(argc, argv, &p);

	if (r != SF_GO_ON) {
		release_opts(&p);
		return r;
	}
	p.to.cacheline = p.co.cacheline;
	if (p.nr_defs && !p.nnames) {	/* every unit's definitions, counted */
		if (pthread_mutex_init(&p.defs.lock, NULL)) {
			release_opts(&p);
			return sf_die_usage("pahole: -T: cannot make a lock"), SF_EXIT_ERROR;
		}
		p.co.no_dedup = true;
		p.co.each_def = count_def;
		p.co.each_def_arg = &p.defs;
	}
	struct expand_ctx ex = { &p, NULL };
	p.to.expand_find = expand_find;
	p.to.expand_ctx = &ex;
	char **files = argv + optind;
	int nfiles = argc - optind;
	struct sf_typeset *ts = sf_load_inputs(&p.co, files, nfiles, NULL);
	struct sf_typeset *arena = sf_typeset_new();
	int status = SF_EXIT_ERROR;

	if (!ts)
		goto out;
	ex.ts = ts;
	if (p.contains && !p.defined_in ? list_containers(&p, ts, arena, files, nfiles) < 0
	    : p.nnames ? named(&p, ts, arena, files, nfiles) < 0
	    : (list_all(&p, ts, arena, &p.defs), 0))
		goto out;
	status = fflush(stdout) || ferror(stdout) ? SF_EXIT_ERROR : SF_EXIT_OK;
out:
	sf_typeset_free(arena);
	sf_typeset_free(ts);
	release_opts(&p);
	return status;
}
