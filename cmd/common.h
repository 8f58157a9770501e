/*
 * common.h - what every subcommand needs: loading inputs, finding types,
 * parsing numbers, reporting errors the one way structfit reports them.
 */
#ifndef SF_COMMON_H
#define SF_COMMON_H

#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "layout/classes.h"
#include "model/model.h"
#include "model/typeset.h"
#include "lib/checked.h"
#include "lib/color.h"
#include "lib/err.h"
#include "lib/strbuf.h"
#include "report/report.h"

#define SF_EXIT_OK 0
#define SF_EXIT_FINDING 1
#define SF_EXIT_ERROR 2

/*
 * What every command's option parser (parse_NAME_opts) returns: SF_GO_ON
 * to go on with the run, else the exit status (SF_EXIT_OK after --help,
 * SF_EXIT_ERROR after a usage error it has already reported).  It is none
 * of the exit statuses, and not -1: -1 is a failing call everywhere
 * (lib/err.h), never "go on".
 */
#define SF_GO_ON 3

/* The largest byte count an option takes (--overhead, --header): sums of
 * a few of them stay far from 2^64. */
#define SF_MAX_BYTES (UINT64_C(1) << 48)

enum sf_format {
	SF_FMT_TEXT = 0,
	SF_FMT_JSON,
	SF_FMT_HTML,
	SF_FMT_SARIF,
	SF_FMT_JUNIT,
	SF_FMT_GITHUB,
	SF_FMT_MARKDOWN,
};

/* "structfit: " + formatted message + newline on stderr; returns 2.  The
 * message names no file (an option, a command, a type may start it). */
int sf_die_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* sf_die_usage of a problem in `file` (lib/err.h sf_error_at): "structfit:
 * FILE[:LINE[:COL]]: problem", the document carrying the place apart. */
int sf_die_at(const char *file, unsigned line, unsigned col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* sf_die_at of the input FILEs: "FILE: ..." for one, "FILE ...: " for more. */
int sf_die_files(char **files, int nfiles, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Print err->msg as "structfit: MSG" (its fields kept for the error
 * document); returns 2. */
int sf_report_err(const struct sf_err *err);
/* A plan's refusal (layout/plan.h) in report/reasons.c's words, printed
 * as sf_report_err does; returns 2. */
struct sf_plan_refusal;
int sf_report_refusal(const struct sf_plan_refusal *why);
/* Why t's source is not read or rewritten (layout/srcwhy.h) in
 * report/srcwhy.c's words (a C++ refusal printed whole, as sf_die_long
 * does, else as sf_report_err does); returns 2. */
struct sf_src_why;
int sf_report_src_why(const struct sf_type *t, const struct sf_src_why *why);

/*
 * The plan groups (layout/plan.h) of a definition's #if blocks
 * (layout/srcpatch.h), as patch and suggest --source-root take them: each
 * whole, may_move when no other branch declares members (their sizes are
 * not in the DWARF).  malloc'ed, n entries (at least one allocated).
 */
struct sf_srcpatch_block;
struct sf_plan_group;
struct sf_plan_group *sf_if_groups(const struct sf_srcpatch_block *blk, size_t n);
/* sf_die_usage for a message of any length (a list of places): printed
 * whole; the error document gets its first 1,023 bytes.  Returns 2. */
int sf_die_long(const char *msg);

/*
 * After an error (sf_die_usage or sf_report_err), write a document in the
 * --format the command line asked for (sf_parse_format remembers it) that
 * carries the error to stdout, so a CI job keeping the output `if:
 * always()` gets a valid SARIF log, JUnit report, JSON document, GitHub
 * annotation or Markdown table (text and html write nothing more: the
 * error is on stderr).  cmd/main.c calls it for every command that exits
 * 2.  Returns 2, the status of the run.
 */
int sf_error_document(const char *command);

/*
 * Load every FILE into a new typeset, as co's --debug-dir, --jobs and
 * summaries say.  `only` (NULL-terminated bare names, or NULL for all)
 * lets the reader skip types nobody asked for.  On error prints the
 * message and returns NULL.
 */
struct sf_common_opts;
struct sf_typeset *sf_load_inputs(const struct sf_common_opts *co, char **files,
				  int nfiles, const char *const *only);

/* The threads --jobs N asks for, else one per online CPU (at least 1). */
unsigned sf_jobs(const struct sf_common_opts *co);

/*
 * Show every type's decl_file the one way (lib/path.h): normalised, and
 * relative to root_dir when given and below it.  A bad root_dir is
 * reported ("structfit: DIR: source root: ..."): returns 2, else 0.
 */
int sf_show_paths(struct sf_typeset *ts, const char *root_dir);

/* sf_load_inputs, then sf_show_paths(root) (root may be NULL). */
struct sf_typeset *sf_load_inputs_at(const struct sf_common_opts *co, char **files,
				     int nfiles, const char *const *only, const char *root);

/*
 * `name` without "struct ", "union ", "class " and surrounding blanks, as
 * a new string the caller frees: allocated so that no length is too long
 * (a C++ template name runs to thousands of characters).
 */
char *sf_bare_name(const char *name);

/*
 * The one type called `name`.  Not found: prints "structfit: FILES: type
 * 'NAME' not found" and returns NULL.  Several differing definitions: the
 * first (largest) one, with a note on stderr.
 */
const struct sf_type *sf_find_type(const struct sf_typeset *ts,
				   const char *name, char **files, int nfiles);

/*
 * git's "did you mean" on stderr after a "not found" line: the types of ts
 * nearest to `name` (lib/nearest.h; a kind word kept: "struct con" ->
 * "struct conn"), reading the inputs again in full when ts was read with
 * -t's names only.  Nothing for a glob or when no name is near.
 */
void sf_hint_similar_types(const struct sf_typeset *ts, const char *name);
/* The same for a command word among commands[0..n). */
void sf_hint_similar_command(const char *arg, const char *const *commands, size_t n);

/*
 * --under DIR (repeatable) and --exclude-system: which types holes and
 * suggest look at, by where they are declared.  Each DIR is resolved
 * once (sf_where_resolve) into the spellings decl_file uses - relative to
 * the source root when below it, else absolute; DIR's logical and real
 * paths both - so a type is kept when its file is under one of them
 * (layout/public.h sf_path_under).  --exclude-system drops what lies in
 * /usr/include and the compilers' include directories.
 */
struct sf_where {
	const char **args;       /* --under as given (point into argv) */
	size_t nargs;
	char **dirs;             /* their spellings, after sf_where_resolve */
	size_t ndirs;
	bool exclude_system;
};

/* Take --under DIR (SF_O_UNDER) or --exclude-system (SF_O_EXCLUDE_SYSTEM). */
void sf_where_option(struct sf_where *w, int id, const char *arg);
/* Resolve the --under DIRs against source_root (NULL: none): 0, or 2 after
 * "structfit: --under DIR: problem". */
int sf_where_resolve(struct sf_where *w, const char *source_root);
/* Whether w filters at all, and whether it keeps t (w NULL: all). */
bool sf_where_active(const struct sf_where *w);
bool sf_where_keeps(const struct sf_where *w, const struct sf_type *t);
/* "outside --under src or in system headers (--exclude-system)" */
void sf_where_describe(struct strbuf *sb, const struct sf_where *w);
void sf_where_release(struct sf_where *w);

/* sf_find_type among the types `where` keeps: "type 'X' is declared only
 * outside --under DIR (FILE:LINE)" when it drops every one. */
const struct sf_type *sf_find_type_where(const struct sf_typeset *ts, const char *name,
					 char **files, int nfiles,
					 const struct sf_where *where);

/*
 * Write sb to stdout, coloured in `style` when it is text and --color (with
 * NO_COLOR, TERM and whether stdout is a terminal) says so.  0, or -1
 * after "structfit: error writing the output: ..." on stderr.
 */
int sf_write_output(const struct strbuf *sb, bool text, enum sf_color_mode color,
		    enum sf_paint_style style);

/*
 * A count option's value (--limit, --min-waste, --overhead, ...):
 * sf_parse_decimal (lib/checked.h), at most max: UINT64_MAX for any
 * count, SF_MAX_BYTES for a byte count.  0, or -1 after "OPT: 'ARG' is
 * not ..." on stderr.
 */
int sf_parse_count(const char *opt, const char *arg, uint64_t max, uint64_t *out);

/*
 * --pin MEMBER (repeatable), --no-pin-first, --max-moves N and --narrow
 * [TYPE.]M=BYTES (repeatable): the options of the plan suggest and patch
 * make (layout/plan.h), parsed the one way.  --max-moves is decimal,
 * 1 .. 2^32-2; --narrow is cmd/narrowarg.h's.  Release with
 * sf_plan_args_release.
 */
struct sf_narrow_arg;
struct sf_plan_args {
	const char **pins;            /* point into argv */
	size_t npins;
	bool no_pin_first;
	uint32_t max_moves;           /* 0: any number */
	struct sf_narrow_arg *narrow;
	size_t nnarrow;
};

/* Take option id (SF_O_* or its letter) when it is one of the four: 1;
 * 0 when it is another; -1 after the one-line message. */
int sf_plan_option(struct sf_plan_args *a, int id, const char *arg);
/* What they ask of layout/plan.h into *po: the reorder searched
 * (SF_PLAN_ORDER). */
struct sf_plan_opts;
void sf_plan_args_opts(const struct sf_plan_args *a, struct sf_plan_opts *po);
void sf_plan_args_release(struct sf_plan_args *a);

/* -t NAMEs as the NULL-terminated bare-name list the reader takes
 * (NULL when there are none); free with sf_free_only_names. */
const char **sf_only_names(const char *const *types, size_t ntypes);
void sf_free_only_names(const char **only);

/*
 * The one table of options (cmd/common.c): every option of every command
 * is a row, so a short letter has one meaning in all commands, as in git
 * and the GNU tools.  A command lists the long names it takes (struct
 * sf_command below) and gets its getopt_long tables and its --help built
 * from the rows; getopt then returns the row's `id`: its short letter, or
 * an SF_O_* code for an option with none.
 */
enum sf_opt_id {
	SF_O_ORIGIN = 256,
	SF_O_COLOR,
	SF_O_NO_PIN_FIRST,
	SF_O_FORCE,
	SF_O_FAIL_ON_GROWTH,
	SF_O_APPLY,
	SF_O_BASELINE,
	SF_O_NICHE,
	SF_O_DEBUG_DIR,          /* taken by sf_getopt_next, never returned */
	SF_O_REORDERABLE,
	SF_O_ALLOW_LAYOUT_USES,
	SF_O_UNDER,
	SF_O_EXCLUDE_SYSTEM,
	SF_O_ALLOW_ABI_CHANGE,
	SF_O_MAX_MOVES,
	SF_O_COUNTS,
	SF_O_SLABINFO,
	SF_O_SLAB_MAP,
	SF_O_VERBOSE,
	SF_O_SATURATE,
	SF_O_ALLOW_TRUNCATION,
	SF_O_ALLOW_INIT_ORDER,
};

struct sf_option {
	int id;                  /* the short letter, or an SF_O_* code */
	const char *name;        /* the long name */
	int has_arg;             /* no_argument, required_argument, optional_argument */
	const char *arg;         /* "NAME" in the help table, or NULL */
	const char *commands;    /* the commands that take it, space-separated:
	                          * the ones whose option list names it
	                          * (asserted by sf_getopt_init) */
	const char *help;        /* what it means, in every one of them (a
	                          * command's list may word it its own way) */
};

/* The rows, ended by one whose name is NULL. */
extern const struct sf_option sf_options[];

#define SF_MAX_OPTS 48   /* pahole's table has 31 */

/*
 * The options that mean the same in every command taking them, parsed in
 * one place (sf_getopt_next) into the command's copy of this struct:
 * -f/--format, -c/--cacheline, --color, -R/--source-root, -k/--classes.
 * `formats` comes from the command (struct sf_command) when the parsing
 * starts.  Start from SF_COMMON_OPTS; free with sf_common_opts_release.
 */
struct sf_common_opts {
	unsigned formats;            /* the formats the command takes */
	enum sf_format format;       /* -f; SF_FMT_TEXT unless given */
	bool format_set;
	unsigned cacheline;          /* -c; 64 unless given */
	enum sf_color_mode color;    /* --color */
	const char *source_root;     /* -R DIR, or NULL */
	struct sf_classes classes;   /* -k, valid when have_classes */
	bool have_classes;
	/* what the loader is told (sf_load_inputs: struct sf_load_opts) */
	const char **debug_dirs;     /* --debug-dir DIRs in order, NULL-ended */
	size_t ndebug_dirs;
	unsigned jobs;               /* --jobs N; 0: one per online CPU */
	bool summaries;              /* the command takes holes summaries
	                              * (sf_load_opts.summaries): holes alone */
	bool btf_first;              /* an ELF's .BTF before its DWARF
	                              * (sf_load_opts.btf_first): pahole -F btf */
	uint64_t unit_langs;         /* the units' languages read (0: all;
	                              * sf_load_opts.unit_langs): pahole --lang */
	bool no_dedup;               /* every unit lays out every type */
	void (*each_def)(void *arg, const struct sf_type *t); /* sf_load_opts' */
	void *each_def_arg;
};

#define SF_COMMON_OPTS { .cacheline = SF_CACHELINE }

void sf_common_opts_release(struct sf_common_opts *co);

/*
 * One row of a command's option list (cmd/NAME.c), in the order its --help
 * prints them, as git's struct option arrays: the options it takes are
 * exactly the rows that name one (`name`, a long name of the option table),
 * and its usage text is made from the same rows (cmd/usage.c), so what a
 * command accepts and what its help says cannot drift apart.  A row without
 * a name is a paragraph of prose (`help`, lines ending in "\n") printed
 * between the options; the list ends with a row with neither.
 */
struct sf_opt_use {
	const char *name;        /* the long name; NULL: a paragraph */
	unsigned flags;          /* SF_U_*: how the synopsis spells it */
	const char *help;        /* this command's words; NULL: the table's */
	const char *arg;         /* this command's spelling of the value; NULL:
	                          * the table's (--format: FMT, and its values
	                          * in the synopsis) */
};

#define SF_U_REQUIRED 1u         /* synopsis: no brackets */
#define SF_U_MANY     2u         /* synopsis: "..." (repeatable) */
#define SF_U_SHORT    4u         /* synopsis: by its letter (-t NAME) */
#define SF_U_OR_NEXT  8u         /* synopsis: [this | the next row] */
#define SF_U_FORM1    16u        /* only in the first synopsis line */
#define SF_U_FORM2    32u        /* only in the second ("or:") line */

#define SF_U_END { NULL, 0, NULL, NULL }
/* The rows a list ends with: --help; --debug-dir and --jobs before it in
 * every command that reads inputs. */
#define SF_U_HELP_END { "help", 0, NULL, NULL }, SF_U_END
#define SF_U_INPUTS_HELP_END \
	{ "debug-dir", SF_U_MANY, NULL, NULL }, { "jobs", 0, NULL, NULL }, SF_U_HELP_END

/*
 * A command's help: "usage: structfit NAME [options] OPERANDS" (a second
 * "or:" line when rows are SF_U_FORM2), the intro, the option rows and
 * paragraphs, the outro; each text "\n"-ended lines, blocks apart by a
 * blank line.  `table` is the option table the names are looked up in
 * (NULL: sf_options; a command with letters of its own, as pahole's, brings
 * its own, and then only --help is taken for it).
 */
struct sf_command {
	const char *name;
	unsigned formats;            /* the --format values it takes (1u <<
	                              * SF_FMT_*); 0 when it has no --format */
	const char *operands;        /* "FILE...", "OLD NEW" */
	const char *intro;
	const struct sf_opt_use *opts;
	const char *outro;
	const struct sf_option *table;
};

/* A command's getopt_long tables, built from its option list. */
struct sf_getopt {
	const char *cmd;
	const struct sf_command *command;
	const struct sf_option *table;
	struct sf_common_opts *co;   /* where the shared options go */
	int status;                  /* after the end: SF_GO_ON or an exit status */
	char optstring[2 * SF_MAX_OPTS + 4];
	struct option longopts[SF_MAX_OPTS + 2];
};

/*
 * Build g for the command from its option list.  The table's rows and the
 * list must agree: a row naming the command is in its list and the other
 * way round (asserted).  -C (pahole's spelling of -t) comes with "type".
 * The shared options are parsed into *co, --help prints the usage
 * (sf_usage).
 */
void sf_getopt_init(struct sf_getopt *g, const struct sf_command *command,
		    struct sf_common_opts *co);
/*
 * getopt_long over g: the id of the next option that is the command's
 * own (-C comes back as 't'), or -1 when the parsing is over.  Then
 * g->status is SF_GO_ON at the end of the options, or the exit status
 * after --help (0) or after an error it reported (2): an unknown option,
 * a missing value, a bad shared value.  --debug-dir DIR and --jobs N
 * are taken here, into g->co (sf_load_inputs looks under DIR, on N threads).
 */
int sf_getopt_next(struct sf_getopt *g, int argc, char **argv);

/*
 * Parse argv's options for the command: the shared ones into *co (as
 * sf_getopt_next), each of the command's own handed to take(o, id, arg)
 * (arg NULL when it takes no value), which returns 0, or nonzero after it
 * reported the problem.  take may be NULL when every option is a shared
 * one.  SF_GO_ON, or the exit status (0 after --help, 2 after an error);
 * optind is then the first operand.
 */
typedef int sf_take_fn(void *o, int id, const char *arg);
int sf_parse_options(int argc, char **argv, const struct sf_command *command,
		     struct sf_common_opts *co, sf_take_fn *take, void *o);

/* The row of `table` (NULL: sf_options) called `name`, or NULL. */
const struct sf_option *sf_option_row(const struct sf_option *table, const char *name);

/* The usage text of a command (cmd/usage.c), made from its option list and
 * the table's rows. */
void sf_usage(struct strbuf *sb, const struct sf_command *command);

/* The name of format f ("text", "json", ...). */
const char *sf_format_name(enum sf_format f);

/* The option table as `structfit help options` prints it. */
void sf_print_options(FILE *f);

/*
 * -t/-C arguments: NAME, a comma list (NAME,NAME), a glob ('rb_*').  Only
 * top-level commas split: 'std::pair<int, int>' is one name.  `sep` is the
 * separator (',' for lists, '+' for fit's sums).  Appends malloc'd copies,
 * trimmed, to *v (*n of them); an empty piece is an error (-1, reported).
 */
int sf_split_names(const char *arg, char sep, char ***v, size_t *n);

/* The one -t NAME of suggest and patch into *slot: a second one or a
 * list is a usage error (reported, -1). */
int sf_one_name(const char *cmd, const char *arg, const char **slot);

/* Whether a name holds a glob character (*, ? or [). */
int sf_is_glob(const char *name);

/*
 * Every type `name` selects: the types so named (as sf_typeset_find), else
 * the types whose name matches it as a glob (with an optional kind
 * prefix: 'struct rb_*'), else those behind a typedef of that name
 * (`typedef struct _IO_FILE FILE`: FILE finds struct _IO_FILE, as
 * `pahole -C FILE` does).  Returns how many; *out (malloc'd) holds them.
 */
size_t sf_select_types(const struct sf_typeset *ts, const char *name,
		       const struct sf_type ***out);

/* STRUCTFIT_TEST_HEURISTIC set: the reorder searches skip their exact
 * search for the fewest moves (tests compare it with the heuristic). */
bool sf_test_heuristic(void);

#endif
