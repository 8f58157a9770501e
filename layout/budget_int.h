/*
 * budget_int.h - inside layout/: what the budget-file reader (budgetfile.c)
 * and the evaluation (budget.c) share beyond budget.h.
 */
#ifndef SF_BUDGET_INT_H
#define SF_BUDGET_INT_H

#include <stddef.h>

#include "budget.h"

/* Free what a rule owns (not the rule itself). */
void sf_brule_release(struct sf_brule *r);

/*
 * Length of a type name at s[at..len): up to a blank, `+` or `#` outside
 * brackets, so that `ns::C<int, long>` and `(anonymous namespace)::T` are
 * one name.  --write-budget checks with it that a name it writes reads
 * back as one.
 */
size_t sf_budget_name_len(const char *s, size_t len, size_t at);

#endif
