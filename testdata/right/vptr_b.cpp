// vptr_b.cpp - Node's key function: its definition is written here
#include "vptr.h"

Node::~Node() {}
static Leaf leaf;
