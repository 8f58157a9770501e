/*
 * budget.h - sizeof budgets: a budget file parsed into rules, and the rules
 * evaluated over a typeset (`structfit check`).
 *
 * A budget file is text, one rule a line, `#` starts a comment:
 *
 *   struct st_table                  size <= 40
 *   struct RHash + struct st_table   fits 64 in ruby-3.3   # one GC slot
 *   struct task_struct               size <= 9728  cachelines <= 152
 *   struct rb_*                      hole_bytes == 0  optional
 *   *                                hole_bytes <= 16
 *
 *   rule      := selector condition+ , with `optional` anywhere after the
 *                selector and an optional `# comment` at the end
 *   selector  := term ('+' term)*          a sum: measured as one object
 *              | [kind] GLOB               every type the glob matches
 *   term      := [kind] NAME ['@' FILE]    kind: struct | union | class
 *   condition := PROPERTY OP NUMBER | 'fits' NUMBER ['in' SPEC]
 *   PROPERTY  := size | hole_bytes | padding | waste | forced | members | cachelines | align
 *
 * `holes` is read as `hole_bytes` for one release (it meant bytes in
 * budgets while `holes` counts holes everywhere else); such a condition
 * has `old_holes` set so that check can print the deprecation note.
 *   OP        := <= | < | == | >= | >
 *
 * A NAME runs to the next blank, `+` or `#` outside <...>, (...) and
 * [...], so C++ names such as `ns::C<int, long>` need no quoting.  A NAME
 * with `*` or `?` outside brackets is a GLOB (fnmatch(3) on the bare name).
 *
 * A name with several differing definitions (two programs' `struct
 * config`) is checked definition by definition; `NAME@FILE` selects the
 * ones declared in FILE, matched as a suffix of the declaring path at a
 * `/` ("struct config@redis-benchmark.c", "struct x@src/a.h").  A sum
 * takes each term's largest definition, or its @FILE one.
 *
 * Memory: a struct sf_budget owns everything it points to, each string and
 * array malloc'ed on its own and freed by sf_budget_free():
 *
 *   sf_budget { path, rules[] -> sf_brule { text, terms[] -> sf_bterm,
 *                                            conds[] -> sf_bcond { classes.v } } }
 *
 * Evaluation (sf_budget_eval) keeps only what a report needs: per rule how
 * many subjects were checked and failed, and one sf_bfail per broken
 * condition, so a `*` rule over a kernel's 50,000 structs that holds costs
 * nothing per struct.  Failures are sorted by rule, then subject name, so
 * output does not depend on the order the reader found the types in.
 */
#ifndef SF_BUDGET_H
#define SF_BUDGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/err.h"
#include "classes.h"
#include "lib/strbuf.h"
#include "model/model.h"
#include "model/typeset.h"
#include "live.h"

/* Longest budget line accepted, in bytes (the newline not counted). */
#define SF_BUDGET_MAX_LINE 65536u
/* The cacheline size `cachelines` counts in. */
#define SF_BUDGET_CACHELINE SF_CACHELINE

enum sf_bprop {
	SF_BP_SIZE = 0,
	SF_BP_HOLES,        /* bytes in holes between members (bit holes not counted) */
	SF_BP_PADDING,      /* trailing padding bytes */
	SF_BP_WASTE,        /* holes + padding - forced */
	SF_BP_MEMBERS,      /* top-level members, as pahole counts them */
	SF_BP_CACHELINES,
	SF_BP_ALIGN,
	SF_BP_FITS,         /* the size class the size rounds up to */
	SF_BP_FORCED,       /* holes and padding an explicit alignment asked for */
	SF_BP_LIVE_WASTE,   /* live instances x waste (check --counts, --slabinfo) */
	SF_BP_COUNT
};

enum sf_bop {
	SF_BOP_LE = 0,
	SF_BOP_LT,
	SF_BOP_EQ,
	SF_BOP_GE,
	SF_BOP_GT,
};

/* One condition of a rule: `size <= 40`, `fits 64 in ruby-3.3`. */
struct sf_bcond {
	uint8_t prop;           /* enum sf_bprop */
	uint8_t op;             /* enum sf_bop; SF_BOP_LE for fits */
	bool old_holes;         /* written `holes` (deprecated for hole_bytes) */
	uint32_t col;           /* 1-based column of the property word */
	uint64_t limit;
	char *spec;             /* fits ... in SPEC as written; NULL: no rounding */
	struct sf_classes classes; /* SPEC's classes (layout/classes.h) */
};

/* One named term of a selector: "struct st_table" as written. */
struct sf_bterm {
	char *name;             /* without @FILE */
	const char *bare;       /* name without its kind word (points into name) */
	char *file;             /* @FILE: the declaring file's tail, or NULL */
	uint32_t col;
};

struct sf_brule {
	uint32_t line;
	uint32_t col;           /* of the selector */
	char *text;             /* the rule, comment stripped, blanks collapsed */
	bool optional;          /* a missing type skips the rule */
	bool is_glob;           /* terms[0] is a glob, nterms == 1 */
	int glob_kind;          /* enum sf_kind the glob is limited to, or -1 */
	char *glob;             /* fnmatch pattern on the bare name */
	char *glob_file;        /* its @FILE, or NULL */
	struct sf_bterm *terms;
	uint32_t nterms;
	struct sf_bcond *conds;
	uint32_t nconds;
};

struct sf_budget {
	char *path;
	struct sf_brule *rules;
	size_t nrules;
	size_t cap;
};

/* Why a budget file was refused, as data: report/check.c words it. */
enum sf_bproblem {
	SF_BPR_NUL = 1,             /* a NUL byte: binary, not text */
	SF_BPR_CONTROL,             /* the control byte `byte`: binary, not text */
	SF_BPR_LONG_LINE,           /* a line longer than SF_BUDGET_MAX_LINE */
	SF_BPR_JUNK,                /* `tok` is neither a condition nor the end */
	SF_BPR_NO_NUMBER,           /* nothing after `word` */
	SF_BPR_NOT_NUMBER,          /* `tok` where a number goes after `word` */
	SF_BPR_NUMBER_TOO_LARGE,    /* the number `tok` is past 2^64-1 */
	SF_BPR_AFTER_NUMBER,        /* `tok` right after the number `text` */
	SF_BPR_NO_OPERATOR,         /* nothing after the property `word` */
	SF_BPR_BAD_OPERATOR_AFTER,  /* `tok`, no operator, after the property `word` */
	SF_BPR_BAD_OPERATOR,        /* operator characters `text` that are no operator */
	SF_BPR_NO_CLASSES,          /* `fits N in` and no SPEC */
	SF_BPR_BAD_CLASSES,         /* the SPEC `text`, refused as `classes` says */
	SF_BPR_UNKNOWN_PROPERTY,    /* the word `text` before an operator */
	SF_BPR_NO_CONDITION,        /* a selector and no condition */
	SF_BPR_NO_NAME_AFTER,       /* the kind word `word` and no name */
	SF_BPR_NO_NAME,             /* no name where a term starts */
	SF_BPR_NO_NAME_BEFORE_AT,   /* "@FILE" with no name */
	SF_BPR_NO_FILE_AFTER_AT,    /* "NAME@" with no file */
	SF_BPR_PATTERN_IN_SUM,      /* a glob in a sum */
	SF_BPR_NO_NAME_BEFORE,      /* the property `text` where the type name goes */
};

struct sf_budget_problem {
	enum sf_bproblem code;
	uint32_t line, col;         /* where, 1-based */
	const char *word;           /* a word of the language ("fits", "<=",
	                             * "size", "struct"), static; or NULL */
	char tok[32];               /* the token found: up to a blank, cut at 24
	                             * bytes with "..." */
	char text[512];             /* a span of the line as written, cut */
	unsigned byte;              /* SF_BPR_CONTROL */
	/* SF_BPR_BAD_CLASSES: why SPEC (`text`) was refused; its spec is NULL
	 * (the rule's copy is gone): word it over `text` */
	struct sf_classes_refusal classes;
};

/*
 * Parse a budget handed over in pieces as it is read (cmd/ reads the
 * file; nothing here does I/O).  `path` is kept as b->path.  A feed that
 * refuses a line returns -1 with why saying what and where (the caller
 * words it, report/check.h: "PATH:LINE:COL: problem"); the parser takes
 * nothing more then: free it.  finish parses a last line without its
 * newline, and frees the parser whatever it returns: 0 with *out (which
 * may hold no rule), or -1.
 */
struct sf_budget_parser;
struct sf_budget_parser *sf_budget_parser_new(const char *path);
int sf_budget_parser_feed(struct sf_budget_parser *p, const char *buf, size_t len,
			  struct sf_budget_problem *why);
int sf_budget_parser_finish(struct sf_budget_parser *p, struct sf_budget **out,
			    struct sf_budget_problem *why);
void sf_budget_parser_free(struct sf_budget_parser *p);
/* The same over `len` bytes in memory at once. */
int sf_budget_parse(const char *path, const char *buf, size_t len,
		    struct sf_budget **out, struct sf_budget_problem *why);
void sf_budget_free(struct sf_budget *b);

/* "size", "<=": the spellings the parser accepts. */
const char *sf_bprop_name(enum sf_bprop p);
const char *sf_bop_name(enum sf_bop op);
/* "size <= 40", "fits 64 in ruby-3.3" */
void sf_bcond_describe(struct strbuf *out, const struct sf_bcond *c);

/* What a rule measures of one type, or of a sum of types. */
struct sf_measure {
	uint64_t size;
	uint64_t holes;
	uint64_t padding;
	uint64_t forced;
	uint64_t members;
	uint64_t cachelines;
	uint64_t align;
	uint64_t live;          /* instances alive (sf_budget_eval_live), 0: none counted */
	/* the size (or a sum of sizes) is 2^64-1 or more: saturated, not a
	 * number a condition can hold on (lib/checked.h) */
	bool unrepresentable;
};

/* Computes t's layout (layout/holes.c) and keeps the numbers. */
void sf_measure_type(const struct sf_type *t, struct sf_measure *m);
/*
 * Add m into acc, as objects laid out one after the other in one
 * allocation: sizes, holes, padding and members add up, align is the
 * largest, cachelines are recounted from the total size.  Sums saturate
 * (lib/checked.h) and mark acc unrepresentable instead of wrapping.
 */
void sf_measure_add(struct sf_measure *acc, const struct sf_measure *m);

bool sf_bcond_holds(const struct sf_bcond *c, uint64_t value, bool no_class);

/* One broken condition for one subject. */
struct sf_bfail {
	uint32_t rule;          /* index in budget->rules */
	uint32_t cond;          /* index in that rule's conds */
	const struct sf_type *type; /* its first type: where to point at */
	char *subject;          /* "struct st_table", "struct RHash + struct st_table" */
	uint64_t value;         /* what was measured (fits: the class) */
	uint64_t size;          /* the subject's size */
	bool no_class;          /* fits: larger than every class */
	bool unrepresentable;   /* the size is past 64 bits: fails every condition */
	char *def_file;         /* one of several definitions of its name: the
				 * file name it is declared in (--baseline
				 * matches it after the base build is freed) */
};

struct sf_brule_stat {
	uint32_t checked;       /* subjects measured */
	uint32_t failed;        /* subjects with at least one broken condition */
	bool skipped;           /* optional and its type was not found */
};

struct sf_bresult {
	const struct sf_budget *budget;
	struct sf_brule_stat *stats;    /* [budget->nrules] */
	struct sf_bfail *fails;
	size_t nfails;
	size_t cap;
	size_t nchecks;         /* conditions evaluated in all */
	size_t nbroken;         /* rules with a failure */
	size_t nskipped;
	size_t nknown;          /* failures dropped as already in the baseline */
	const struct sf_live *live; /* the counts live_waste reads, or NULL */
	size_t nknown_rules;    /* rules broken, every failure in the baseline */
};

/* A non-optional rule that found nothing, as data (report/check.h words it). */
#define SF_BUDGET_MISS_DEFS 4
struct sf_budget_miss {
	uint32_t rule;               /* index in budget->rules */
	int term;                    /* the term that found nothing, or -1: the
	                              * rule's glob matched no type */
	const char *inputs;          /* as given to sf_budget_eval */
	/* a NAME@FILE term whose name has definitions in other files: how
	 * many, and the first SF_BUDGET_MISS_DEFS of them (pointing into ts) */
	size_t ndefs;
	const struct sf_type *defs[SF_BUDGET_MISS_DEFS];
};

/*
 * Evaluate every rule over ts.  `inputs` names the artifacts in messages
 * ("a.o and b.o").  A non-optional rule whose type (or glob) finds nothing
 * is an error: -1 with miss saying which (worded "BUDGET:LINE:COL: type
 * 'X' not found in INPUTS ..." by report/check.h).  Otherwise 0, with out
 * filled (release it with sf_bresult_release).
 */
int sf_budget_eval(const struct sf_budget *b, const struct sf_typeset *ts,
		   const char *inputs, struct sf_bresult *out,
		   struct sf_budget_miss *miss);
/* The same with the instances alive (layout/live.h) that live_waste
 * multiplies waste by; live may be NULL (no type counted). */
int sf_budget_eval_live(const struct sf_budget *b, const struct sf_typeset *ts,
			const struct sf_live *live, const char *inputs,
			struct sf_bresult *out, struct sf_budget_miss *miss);
/* Whether some condition of b is on live_waste: its rule, or NULL. */
const struct sf_brule *sf_budget_live_rule(const struct sf_budget *b, uint32_t *cond);
void sf_bresult_release(struct sf_bresult *r);

/*
 * check --baseline: drop from r every failure that `base` (the same budget
 * evaluated over the base build) already had for the same rule, condition
 * and subject, with a value no worse (for <= and <: not larger; for >= and
 * >: not smaller; for ==: equal).  What is left grew, or newly broke a
 * rule.  r->nknown counts the dropped; stats and nbroken are recounted.
 */
void sf_bresult_drop_known(struct sf_bresult *r, const struct sf_bresult *base);

/*
 * Bare names of every type the named terms mention, NULL-terminated, for
 * sf_load_opts.only; NULL when a glob needs every type.  free() the array
 * (the strings belong to b).
 */
const char **sf_budget_wanted(const struct sf_budget *b);

/*
 * A budget that pins today's sizes, as lines for report/check.c to write:
 * one `KIND NAME size <= SIZE` rule per named struct/union/class of ts,
 * sorted by name.  A name with differing definitions gets one rule per
 * definition, `KIND NAME@FILE` (FILE the shortest tail of its declaring
 * path no other of its files ends in); definitions one file cannot tell
 * apart (a header's #ifdef variants) share one rule, the largest size.  A
 * name the parser would not read back as one is listed, unwritable.
 */
struct sf_budget_pin {
	const struct sf_type *type;  /* pinned at type->size */
	const char *file;            /* NAME@FILE (points into type->decl_file),
	                              * or NULL: NAME alone */
	bool unwritable;             /* not a rule: its name does not read back */
};

struct sf_budget_pins {
	struct sf_budget_pin *v;     /* in the order they are written */
	size_t n, cap;
	size_t rules;                /* entries that are rules (not unwritable) */
	size_t width;                /* "KIND NAME" column width (at most 48) */
	size_t dropped;              /* reportable types keep() dropped */
	const char *dropped_why;     /* how the caller says which (a filter's
	                              * words), for the budget's comment */
};

void sf_budget_pins_make(const struct sf_typeset *ts, struct sf_budget_pins *out);
/* The same over the types keep(ctx, t) keeps (--write-budget's --under and
 * --exclude-system); how many it dropped is out->dropped. */
void sf_budget_pins_make_kept(const struct sf_typeset *ts,
			      bool (*keep)(const void *ctx, const struct sf_type *t),
			      const void *ctx, struct sf_budget_pins *out);
void sf_budget_pins_release(struct sf_budget_pins *p);

#endif
