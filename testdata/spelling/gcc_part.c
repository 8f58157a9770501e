#include "rec.h"
struct sp_rec gcc_rec;
int gcc_part(void) { return gcc_rec.s; }
