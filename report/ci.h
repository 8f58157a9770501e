/*
 * ci.h - what the CI formats of every command share: the escaping of
 * SARIF URIs, XML text and GitHub workflow commands, the SARIF run's
 * frame (tool, source root, invocation), and the documents written when
 * a run fails with exit status 2.
 *
 * A CI job that uploads `structfit ... --format sarif > f.sarif` with
 * `if: always()` (or keeps a JUnit report `when: always`) must get a
 * valid document even when the budget or the build could not be read:
 * struct sf_ci_error carries the one-line error and the file, line and
 * column it names (the fields of lib/err.h's struct sf_err, never parsed
 * back from the line), and each sf_render_ci_error_* writes one
 * well-formed document carrying it.
 */
#ifndef SF_REPORT_CI_H
#define SF_REPORT_CI_H

#include <stdbool.h>

#include "lib/strbuf.h"

/* A SARIF artifact URI: relative stays relative, absolute gets file://. */
void sf_ci_sarif_uri(struct strbuf *out, const char *path);
/* XML text or attribute: escaped, with bytes XML 1.0 forbids made '?'. */
void sf_ci_xml_text(struct strbuf *out, const char *s);
/* Workflow command escaping: data escapes %, CR, LF; properties also : and ,. */
void sf_ci_gh_escape(struct strbuf *out, const char *s, bool property);
/* A Markdown table cell of prose: '|', '<' and newlines escaped. */
void sf_ci_md_cell(struct strbuf *out, const char *s);
/* A Markdown table cell as a code span (paths, type names): verbatim but
 * for '|' and newlines, fenced so an inner backtick cannot end it. */
void sf_ci_md_code(struct strbuf *out, const char *s);

/* '{"$schema":...,"runs":[{"tool":{"driver":{"name":"structfit"[,"version"]'
 * - the caller adds its rules and closes the driver and tool with "}}". */
void sf_ci_sarif_open(struct strbuf *out, const char *tool_version);
/* ',"originalUriBaseIds":{SRCROOT} (when root)' and
 * ',"invocations":[{"executionSuccessful":true}]'. */
void sf_ci_sarif_run_frame(struct strbuf *out, const char *root);
/* The "uriBaseId" to add after a relative uri when a root is known. */
void sf_ci_sarif_base(struct strbuf *out, const char *path, const char *root);

/* The error of a run that ends with exit status 2. */
struct sf_ci_error {
	const char *command;   /* "check", "diff" */
	const char *text;      /* the whole line, without "structfit: " */
	const char *file;      /* the file it names, or NULL */
	unsigned line, col;    /* 0 when not named */
	const char *problem;   /* the text after "FILE[:LINE[:COL]]: " */
	const char *tool_version;
};

void sf_render_ci_error_json(struct strbuf *out, const struct sf_ci_error *e);
void sf_render_ci_error_sarif(struct strbuf *out, const struct sf_ci_error *e);
void sf_render_ci_error_junit(struct strbuf *out, const struct sf_ci_error *e);
void sf_render_ci_error_github(struct strbuf *out, const struct sf_ci_error *e);
void sf_render_ci_error_markdown(struct strbuf *out, const struct sf_ci_error *e);

#endif
