// cxx_chain_b.cpp - ChainB's key function: its DWARF definition, with
// ChainA only declared (cxx_chain.h).
#include "cxx_chain.h"

void ChainB::f() {}
