// cxx_chain_a.cpp - ChainA's key function: its DWARF definition (cxx_chain.h).
#include "cxx_chain.h"

ChainA::~ChainA() {}
