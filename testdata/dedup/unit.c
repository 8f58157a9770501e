/* unit.c - one unit using every struct of twins.h (see there); the
 * tests link many of them into one object with -z muldefs. */
#include "twins.h"

#ifdef PACKED_HOLDER
struct pbase_new pn2;	/* first: clang then writes it before pbase_user */
#endif

struct by_name n1;
struct by_name_v n2;
struct by_type t1;
struct by_typedef d1;

struct by_nested s1;
struct by_pointee p1;
struct by_pointer p2;
struct by_enum e1;
struct by_bits b1;
struct by_dims a1;
struct by_params f1;
by_anon_t x1;
struct by_aligned al1;
struct pbase base1;
struct pbase_user pu1;
struct pbase_arr pa1;
struct pbase_nest pn1;
struct pbase_ptr pp1;
#ifdef PACKED_HOLDER
struct holder h1;
#endif
