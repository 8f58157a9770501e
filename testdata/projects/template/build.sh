#!/bin/sh
# build.sh - the project's build: bld/conf.h from its template, then prog.
set -e
mkdir -p bld
{
	echo "/* conf.h - generated from src/conf.h.in by build.sh: do not edit */"
	sed 's/@VERSION@/1.0/' src/conf.h.in
} >bld/conf.h
${CC:-gcc} -g -O0 -Ibld -o prog main.c
