// cxx_chain_d.cpp - ChainD defined, ChainB only declared (cxx_chain.h).
#include "cxx_chain.h"

ChainD *make_chain_d() { return new ChainD; }
