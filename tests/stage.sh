#!/bin/sh
# tests/stage.sh - one stage of `make test`, timed, so that a CI log says
# where its minutes went:
#
#   sh tests/stage.sh NAME COMMAND [ARG...]
#
# runs COMMAND, then prints "stage NAME: N s" (", FAILED (exit S)" when it
# failed) and appends the line to build/test-stages, which `make test`
# prints whole at its end.  Exits with COMMAND's status.
[ $# -ge 2 ] || { echo "usage: sh tests/stage.sh NAME COMMAND [ARG...]" >&2; exit 2; }
name=$1
shift
start=$(date +%s)
"$@"
st=$?
line="stage $name: $(($(date +%s) - start)) s"
[ "$st" = 0 ] || line="$line, FAILED (exit $st)"
echo "$line"
mkdir -p build && echo "$line" >>build/test-stages
exit "$st"
