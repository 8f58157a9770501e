/*
 * cxx_twins.hpp - C++ structs that come back in every unit, each in two
 * versions of the same name, size and body that differ only in the scope
 * of a name they use (VARIANT picks namespace a or b): the C++ twin of
 * twins.h for tests/e2e/identity.sh.  A fingerprint that hashed the DIEs
 * below a type but not the scopes of the names they spell would merge
 * each pair; every difference below must keep both (dwarf/dedup.c,
 * "C++").
 *
 * Namespaces a and b hold the same declarations, expanded from one macro
 * on one line: their DIEs are the same, tag for tag and line for line,
 * and only where they sit (inside DW_TAG_namespace a or b) tells them
 * apart.  Each holder is defined on one line for both versions, the
 * namespace in a macro, as in twins.h.
 */
#ifndef CXX_TWINS_HPP
#define CXX_TWINS_HPP

#ifndef VARIANT
#define VARIANT 0
#endif

#if VARIANT
#define TWX_NS b
#else
#define TWX_NS a
#endif

#define TWX_BODY \
	struct node { node *next; int v; }; \
	template <class T, class U> struct pair { T *first; U *second; int n; }; \
	template <class T> struct box { T *p; int n; }; \
	struct outer { struct inner { int x; long y; }; }; \
	enum color { red, green }; \
	typedef int word; \
	struct base { int b; };

namespace a { TWX_BODY } namespace b { TWX_BODY }

/* the same class body in two namespaces: both reported, by their names */
struct by_ptr_scope { TWX_NS::node *n; int k; };          /* a pointer to a::node or b::node */
struct by_val_scope { TWX_NS::node n; };                  /* the same, held by value */
struct by_tmpl_scope { TWX_NS::box<int> b; };             /* a::box<int> or b::box<int> */
struct by_tmpl_args { a::pair<int, TWX_NS::node> p; };    /* a template of two arguments: one's scope */
struct by_tmpl_ptr { TWX_NS::pair<char, int> *p; };       /* a pointer to a template instance */
struct by_nested_scope { TWX_NS::outer::inner i; };       /* a class nested in a class */
struct by_enum_scope { TWX_NS::color c; };                /* a named enum */
struct by_typedef_scope { TWX_NS::word w; };              /* a typedef */
struct by_base_scope : TWX_NS::base { int z; };           /* a base class */

/* the same name in two scopes of the unit: each reported as its own */
namespace outer_a { struct same { TWX_NS::node *p; }; } namespace outer_b { struct same { TWX_NS::node *p; }; }

#endif
