/* compat.h - portable spellings of a few types. */
#ifndef COMPAT_H
#define COMPAT_H
#include <sys/types.h>

#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define app_atomic _Atomic
#else
#define app_atomic
#endif
#define app_pid_t pid_t

#endif
