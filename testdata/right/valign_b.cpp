// valign_b.cpp - ANode's key function: its definition is written here
#include "valign.h"

ANode::~ANode() {}
static AMid amid;
