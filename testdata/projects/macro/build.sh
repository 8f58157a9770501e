#!/bin/sh
# build.sh - the project's build: prog, with debug info.
set -e
${CC:-gcc} -std=c11 -g -O0 -o prog main.c
