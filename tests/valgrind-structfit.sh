#!/bin/sh
# tests/valgrind-structfit.sh - run structfit under valgrind (make valgrind).
#
# Stands in for the binary (STRUCTFIT=tests/valgrind-structfit.sh) in the
# e2e tests: same arguments, same stdin/stdout/stderr, same exit status,
# except 99 on a memory error or a definite leak.  valgrind's report goes
# to $SF_VALGRIND_LOGS/PID.log (not stderr, which tests compare); with -q
# a clean run leaves it empty, and `make valgrind` fails on any that is not.
#
#   SF_VALGRIND_BIN   the binary (default: ./structfit of this tree)
#   SF_VALGRIND_LOGS  the log directory (default: build-valgrind)
root=$(cd "$(dirname "$0")/.." && pwd)
logs=${SF_VALGRIND_LOGS:-$root/build-valgrind}
mkdir -p "$logs" || exit 2
exec valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
	--show-leak-kinds=definite --log-file="$logs/%p.log" \
	"${SF_VALGRIND_BIN:-$root/structfit}" "$@"
