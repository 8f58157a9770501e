/*
 * ctorinit.h - a C++ class's constructor member-initializer lists, found
 * in source text and put in a new declaration order.
 *
 * Members are initialized in declaration order, whatever order a list
 * names them in; g++ and clang++ warn (-Wreorder, in -Wall) when the two
 * differ.  A reorder patch moves the declarations, so every list of the
 * class moves with them: in-class constructors (`Conn() : a_(0), b_(1)
 * {}` inside the class's body) and out-of-line ones (`Conn::Conn(int fd)
 * : a_(fd), b_(2) {}`, with the namespaces and classes of the qualified
 * name around or before it, in any file).
 *
 *   list:  NAME(params) [noexcept...] : e0, e1, ..., ek { body }
 *   entry: mem-init-id ( args ) | mem-init-id { args } [...]
 *
 * The entries that name a data member of the model are put in the new
 * order in the slots such entries held; the others (bases, a delegating
 * constructor) keep theirs, and every separator and comment between
 * entries stays where it was.  An entry whose arguments read another
 * data member whose order relative to it changes is a hazard: reported,
 * with whether it now runs before what it reads (cmd/ refuses unless
 * --allow-init-order; report/patch.c words it).
 */
#ifndef SF_CTORINIT_H
#define SF_CTORINIT_H

#include <stddef.h>
#include <stdint.h>

#include "lib/strbuf.h"
#include "model/model.h"

struct sf_ctor_read {
	uint32_t line;           /* of the entry */
	uint32_t member;         /* the member the entry initializes (model index) */
	uint32_t reads;          /* the member its arguments read */
	int now_before;          /* it now runs before what it reads */
};

/*
 * Every initializer list of class t (qualified name, members as declared:
 * layout/cdecl.h's sf_cdecl_declared) in text[0..len), its member entries
 * put in the order new_pos gives (new_pos[m]: member m's place in the new
 * declaration order).  The whole new text goes to out; returns the number
 * of lists changed (0: out holds the text as it was).  The hazards are
 * appended to *rd (*nrd; malloc'ed).
 */
size_t sf_ctorinit_rewrite(const char *text, size_t len, const struct sf_type *t,
			   const uint32_t *new_pos, struct strbuf *out,
			   struct sf_ctor_read **rd, size_t *nrd);

#endif
