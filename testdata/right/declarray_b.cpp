// declarray_b.cpp - Seq's key function: its definition is written here
#include "declarray.h"

Seq::~Seq() {}
