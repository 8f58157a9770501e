// vptr_a.cpp - Mid, Leaf and Holder defined; Node only declared (g++)
#include "vptr.h"

Holder *make_holder() { return new Holder; }
