// valign_a.cpp - AMid and AHolder defined; ANode only declared (g++)
#include "valign.h"

AHolder *make_aholder() { return new AHolder; }
