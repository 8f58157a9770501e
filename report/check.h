/*
 * check.h - renderers for `structfit check`: the verdict of a budget
 * (layout/budget.h's struct sf_bresult) as text, JSON, SARIF 2.1.0, JUnit
 * XML, GitHub Actions workflow commands or a Markdown table.
 *
 * Each renderer only appends to a strbuf; the caller writes it out.  A
 * failure is always told the same way (check.c, render_message):
 *
 *   struct st_table: size is 48, budget says size <= 40
 *
 * and pointed at two places: the rule (budget file and line) and the
 * struct (its decl_file:decl_line from the debug info).  SARIF and GitHub
 * annotations point at the struct, so code-scanning UIs and pull requests
 * show the failure on the definition; they fall back to the budget rule
 * when the debug info has no declaration line.
 */
#ifndef SF_REPORT_CHECK_H
#define SF_REPORT_CHECK_H

#include "layout/budget.h"
#include "lib/err.h"
#include "lib/strbuf.h"

struct sf_check_opts {
	const char *tool_version;   /* SARIF's driver.version; NULL: left out */
	/* The source root's real path when decl_file paths were made
	 * relative to it (lib/path.h): SARIF's SRCROOT base; NULL: none. */
	const char *source_root;
	/* The budget file as locations name it (SARIF, GitHub): the path
	 * relative to the source root; NULL: the path as given. */
	const char *budget_file;
};

/* One line per broken condition, then a one-line summary. */
void sf_render_check_text(struct strbuf *out, const struct sf_bresult *r,
			  const struct sf_check_opts *o);
/* {"budget","ok","rules":[{line,rule,status,checked,failed,failures:[...]}],"summary"} */
void sf_render_check_json(struct strbuf *out, const struct sf_bresult *r,
			  const struct sf_check_opts *o);
/* One SARIF 2.1.0 log, one result per broken condition. */
void sf_render_check_sarif(struct strbuf *out, const struct sf_bresult *r,
			   const struct sf_check_opts *o);
/* JUnit XML: one testsuite per budget file, one testcase per rule. */
void sf_render_check_junit(struct strbuf *out, const struct sf_bresult *r,
			   const struct sf_check_opts *o);
/* `::error file=F,line=L,title=T::MESSAGE` per failure, then the summary. */
void sf_render_check_github(struct strbuf *out, const struct sf_bresult *r,
			    const struct sf_check_opts *o);

/* A Markdown table of the failures (rule, failure, declared) for a pull
 * request comment or $GITHUB_STEP_SUMMARY, then the summary line. */
void sf_render_check_markdown(struct strbuf *out, const struct sf_bresult *r,
			      const struct sf_check_opts *o);

/*
 * The budget --write-budget writes: a comment naming `inputs` and the
 * command, then one rule a line ("struct st_table  size <= 48", the names
 * padded to p->width), and a comment for each name it cannot write.
 */
/*
 * The budget's deprecated words, as one line ending in a newline (nothing
 * when there is none): "PATH:LINE:COL: note: 'holes' in a budget is
 * deprecated: ..." at the first rule that says `holes`.
 */
void sf_render_budget_notes(struct strbuf *out, const struct sf_budget *b);
void sf_render_budget_pins(struct strbuf *out, const struct sf_budget_pins *p,
			   const char *inputs);

/*
 * The refusals of a budget, worded (budgetmsg.c) into err, which names the
 * budget file `path` with the line and column: returns -1.
 *
 *   b.txt:3:17: expected a number after '<=', found 'x'
 *   b.txt:2:1: type 'struct nosuch' not found in a.o (add 'optional' to the
 *   rule if it may be absent)
 */
int sf_budget_problem_err(const char *path, const struct sf_budget_problem *p,
			  struct sf_err *err);
int sf_budget_miss_err(const struct sf_budget *b, const struct sf_budget_miss *m,
		       struct sf_err *err);

#endif
