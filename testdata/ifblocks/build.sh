#!/bin/sh
# build.sh [CFLAGS...]: prog, with debug info, from main.c and the headers.
exec ${CC:-gcc} -g -std=c11 -Wall -Wextra -Werror "$@" -o prog main.c
