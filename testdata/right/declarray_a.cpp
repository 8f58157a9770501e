// declarray_a.cpp - Phases defined; Seq only declared here (see declarray.h)
#include "declarray.h"

Phases *make_phases() { return new Phases; }
