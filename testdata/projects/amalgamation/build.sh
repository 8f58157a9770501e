#!/bin/sh
# build.sh - the project's build: prog, with debug info, from the amalgamation.
set -e
${CC:-gcc} -g -O0 -o prog all.c
