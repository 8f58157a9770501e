#include "emptybase.h"
OverBase over_base;
AfterBase after_base;
