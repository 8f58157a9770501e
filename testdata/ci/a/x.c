/*
 * a/x.c - reaches its header as "../b/h.h", so the debug info names it
 * through a ".." component (tests/e2e/ci.sh checks every command shows it
 * normalised).  Built as ./a/x.c from testdata/ci.
 */
#include "../b/h.h"

struct norm n;
