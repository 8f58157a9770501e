/* cxx_unit.cpp - one C++ unit using every struct of cxx_twins.hpp (see
 * there); tests/e2e/identity.sh builds it with VARIANT 0 and 1. */
#include "cxx_twins.hpp"

by_ptr_scope x1;
by_val_scope x2;
by_tmpl_scope x3;
by_tmpl_args x4;
by_tmpl_ptr x5;
by_nested_scope x6;
by_enum_scope x7;
by_typedef_scope x8;
by_base_scope x9;
outer_a::same w1;
outer_b::same w2;
a::node z1;
b::node z2;
a::box<int> z3;
b::box<int> z4;
a::base z5;
b::base z6;
