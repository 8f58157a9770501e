/*
 * cxxwhy.h - why a C++ class's source cannot be rewritten by patch, as
 * data: layout/cdecl.c and layout/srcpatch.c fill it (the cxx of a
 * struct sf_src_why, srcwhy.h, kind SF_SRC_CXX), report/patch.c words it.
 *
 *   struct sf_cxx_why { kind, line in the file, member's name }
 *
 * And the two facts of a C++ class every C++ step needs (cdecl.c): its
 * declared members and its own name.
 */
#ifndef SF_CXXWHY_H
#define SF_CXXWHY_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

/* Why a C++ definition cannot be rewritten, as data (report/ words it). */
enum sf_cxx_refusal {
	SF_CXX_NONE = 0,
	SF_CXX_LABEL_LINE,       /* an access label shares its line with code */
	SF_CXX_SHARED_LINE,      /* a data member shares a line with a
	                          * declaration that stays */
	SF_CXX_LABEL_IN_IF,      /* an access label inside an #if block */
	SF_CXX_FIXED_MOVES,      /* the order moves a base, the vptr or a
	                          * [[no_unique_address]] member */
	SF_CXX_IF_SPLIT,         /* C and C++: the plan moves, narrows or cuts
	                          * the members of the #if block on lines
	                          * first..last, which stay whole */
	SF_CXX_TEMPLATE,         /* the class is nested in a class template
	                          * instantiation: patch does not rewrite
	                          * those */
	SF_CXX_SPECIALIZED,      /* the instantiation is an explicit or partial
	                          * specialization's, with members of its own
	                          * (line: its declaration) */
	SF_CXX_TMPL_GROWS,       /* the order makes instantiation `member` grow
	                          * (first -> last bytes) */
	SF_CXX_TMPL_UNMODELED,   /* instantiation `member`'s layout is not what
	                          * the C rules give: its new size is unknown */
	SF_CXX_TMPL_MEMBERS,     /* instantiation `member` has other members */
	SF_CXX_TMPL_NO_FIT,      /* instantiation `member` cannot keep a pinned
	                          * member at its offset in the new order */
	SF_CXX_TMPL_NO_GAIN,     /* no instantiation shrinks */
	SF_CXX_TMPL_NARROW,      /* a narrowing of `member`, whose type depends
	                          * on a template parameter */
};

struct sf_cxx_why {
	enum sf_cxx_refusal kind;
	uint32_t line;           /* in the file, 0 when none */
	const char *member;      /* SF_CXX_FIXED_MOVES: the member's name */
	uint32_t first, last;    /* SF_CXX_IF_SPLIT: the block's lines;
	                          * SF_CXX_TMPL_GROWS: the sizes before and
	                          * after (bytes, a class under 4 GiB) */
};

/*
 * t as its source declares it: without the members no declaration
 * spells (C++ bases, virtual bases, the vptr).  *v is malloc'ed (NULL
 * when t has none of them, and *out is then a copy of *t); map[i] (when
 * not NULL, t->nmembers entries) gets the declared index of t's member i,
 * or UINT32_MAX.
 */
void sf_cdecl_declared(const struct sf_type *t, struct sf_type *out,
		       struct sf_member **v, uint32_t *map);

/*
 * Whether t is a C++ class template instantiation or a class nested in
 * one (its name carries template arguments: "Slot<long int>",
 * "Box<int>::Node"): patch rewrites the primary template of the first
 * kind (layout/tmpl.h checks the other instantiations) and refuses the
 * second (SF_CXX_TEMPLATE).
 */
int sf_cdecl_in_template(const struct sf_type *t);

/*
 * C++: the line of an explicit or partial specialization of t's template
 * (`template <> struct Slot<int> {`) whose name is on t->decl_line of
 * text[0..len), in t's scope: t is that specialization's, not the primary
 * template's.  0 when there is none.
 */
uint32_t sf_cdecl_specialized_at(const char *text, size_t len, const struct sf_type *t);

/* The last component of a C++ qualified name ("Conn" of "net::Conn"),
 * template arguments left alone. */
const char *sf_cdecl_last_name(const char *name);

#endif
