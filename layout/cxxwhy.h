/*
 * cxxwhy.h - why a C++ class's source cannot be rewritten by patch, as
 * data: layout/cdecl.c and layout/srcpatch.c fill it, report/patch.c
 * words it (the message they leave in their sf_err is only its code).
 *
 *   struct sf_cxx_why { kind, line in the file, member's name }
 *
 * And the two facts of a C++ class every C++ step needs (cdecl.c): its
 * declared members and its own name.
 */
#ifndef SF_CXXWHY_H
#define SF_CXXWHY_H

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
	SF_CXX_TEMPLATE,         /* the class is a template instantiation (or
	                          * nested in one): its layout depends on the
	                          * arguments, and patch does not rewrite
	                          * templates yet */
};

struct sf_cxx_why {
	enum sf_cxx_refusal kind;
	uint32_t line;           /* in the file, 0 when none */
	const char *member;      /* SF_CXX_FIXED_MOVES: the member's name */
	uint32_t first, last;    /* SF_CXX_IF_SPLIT: the block's lines */
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
 * "Box<int>::Node"): patch refuses it (SF_CXX_TEMPLATE), since rewriting
 * the template changes every other instantiation's layout too.
 */
int sf_cdecl_in_template(const struct sf_type *t);

/* The last component of a C++ qualified name ("Conn" of "net::Conn"),
 * template arguments left alone. */
const char *sf_cdecl_last_name(const char *name);

#endif
