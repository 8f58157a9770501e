// cxx_base.cpp - Base's key function: Base's DWARF definition lives here.
#include "cxx_base.h"

Base::~Base() {}
void Base::f() {}
