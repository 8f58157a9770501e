#!/bin/sh
# build.sh - the project's build: prog, with tracing, with debug info.
set -e
${CC:-gcc} -g -O0 -DWITH_TRACE -o prog main.c
