/*
 * common.h - what every subcommand needs: loading inputs, finding types,
 * parsing numbers, reporting errors the one way structfit reports them.
 */
#ifndef SF_COMMON_H
#define SF_COMMON_H

#include <stdint.h>
#include <stdio.h>

#include "layout/model.h"
#include "layout/typeset.h"
#include "lib/err.h"

#define SF_EXIT_OK 0
#define SF_EXIT_FINDING 1
#define SF_EXIT_ERROR 2

enum sf_format {
	SF_FMT_TEXT = 0,
	SF_FMT_JSON,
	SF_FMT_HTML,
	SF_FMT_SARIF,
	SF_FMT_JUNIT,
	SF_FMT_GITHUB,
	SF_FMT_MARKDOWN,
};

/* "structfit: " + formatted message + newline on stderr; returns 2. */
int sf_die_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print err->msg as "structfit: MSG"; returns 2. */
int sf_report_err(const struct sf_err *err);

/*
 * After an error (sf_die_usage or sf_report_err), write a document in
 * `format` that carries it to stdout, so a CI job keeping the output
 * `if: always()` gets a valid SARIF log, JUnit report, JSON document,
 * GitHub annotation or Markdown table (text writes nothing more: the
 * error is on stderr).  Returns 2, the status of the run.
 */
int sf_error_document(enum sf_format format, const char *command);

/*
 * Load every FILE into a new typeset.  `only` (NULL-terminated bare names,
 * or NULL for all) lets the reader skip types nobody asked for.  On error
 * prints the message and returns NULL.
 */
struct sf_typeset *sf_load_inputs(char **files, int nfiles,
				  const char *const *only);

/*
 * Show every type's decl_file the one way (lib/path.h): normalised, and
 * relative to root_dir when given and below it.  A bad root_dir is
 * reported ("structfit: DIR: source root: ..."): returns 2, else 0.
 */
int sf_show_paths(struct sf_typeset *ts, const char *root_dir);

/* sf_load_inputs, then sf_show_paths(root) (root may be NULL). */
struct sf_typeset *sf_load_inputs_at(char **files, int nfiles,
				     const char *const *only, const char *root);

/* Strip "struct ", "union ", "class " and surrounding blanks into buf. */
const char *sf_bare_name(const char *name, char *buf, size_t bufsz);

/*
 * The one type called `name`.  Not found: prints "structfit: FILES: type
 * 'NAME' not found" and returns NULL.  Several differing definitions: the
 * first (largest) one, with a note on stderr.
 */
const struct sf_type *sf_find_type(const struct sf_typeset *ts,
				   const char *name, char **files, int nfiles);

/* Strict parsers: the whole string, decimal (leading zeros allowed, no
 * 0x, no octal), no sign, no overflow.  0 or -1. */
int sf_parse_u64(const char *s, uint64_t *out);
int sf_parse_format(const char *s, unsigned allowed_mask, enum sf_format *out);

/* --cacheline N: a power of two from 8 to 65536; prints the error. */
int sf_parse_cacheline(const char *arg, unsigned *out);

/* -t NAMEs as the NULL-terminated bare-name list the reader takes
 * (NULL when there are none); free with sf_free_only_names. */
const char **sf_only_names(const char *const *types, size_t ntypes);
void sf_free_only_names(const char **only);

/*
 * getopt_long's complaint (run with opterr = 0 and optstring starting with
 * ':') as structfit's one line on stderr; returns 2.
 */
int sf_bad_option(const char *cmd, int c, char **argv);

/* `--help` text printer shared by subcommands. */
void sf_print_usage(FILE *f, const char *usage);

#endif
