#include "rec.h"
struct sp_rec clang_rec;
int gcc_part(void);
int main(void) { return gcc_part() + clang_rec.s; }
