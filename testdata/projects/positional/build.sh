#!/bin/sh
# build.sh - the project's build: prog, with debug info.
set -e
${CC:-gcc} -g -O0 -o prog main.c jobs.c pool.c
