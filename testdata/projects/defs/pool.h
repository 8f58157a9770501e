/* Each program's string pool size (tests/e2e/defs.sh). */
#ifndef POOL_H
#define POOL_H
unsigned long pool_size(void);
unsigned long pool_b_size(void);
#endif
