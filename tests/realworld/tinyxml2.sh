#!/bin/sh
# tests/realworld/tinyxml2.sh - `make realworld`: patch's round trip on a
# real C++ project, Debian's tinyxml2 (not part of `make test`: it
# downloads).
#
#   1. apt-get source tinyxml2 (lib.sh: a private sources list);
#   2. build it with cmake, -g -Wall -Wextra -Werror (so the constructors'
#      initializer lists patch reorders are checked by -Wreorder), its test
#      program xmltest included;
#   3. for each class: structfit suggest -> patch --apply -> rebuild ->
#      pahole's size of the class must be what suggest promised;
#        tinyxml2::XMLPrinter   (a base, access labels, an out-of-line
#                                constructor in tinyxml2.cpp)
#        tinyxml2::XMLDocument  (a mutable member, an out-of-line
#                                constructor)
#      both declared `class TINYXML2_LIB NAME`, an export macro;
#   4. tinyxml2's own tests (ctest: xmltest) on the patched build;
#   5. one line per step, and a verdict; exit 0 only when everything held.
#
# Environment: STRUCTFIT (default ./structfit), REALWORLD_DIR (default
# build-realworld/tinyxml2), JOBS (default 2).
set -u

RW_NAME=tinyxml2
SF=${STRUCTFIT:-$PWD/structfit}
DIR=${REALWORLD_DIR:-$PWD/build-realworld}/tinyxml2
JOBS=${JOBS:-2}
status=0
. "$(dirname "$0")/lib.sh"

rw_setup cmake make g++
rw_source tinyxml2

# ---- 2. the build
build() { # LOGNAME
	cmake --build b -j "$JOBS" >"$LOG/$1.txt" 2>&1
}
t0=$(date +%s)
cmake -S . -B b -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS="-g -Wall -Wextra -Werror" \
	-Dtinyxml2_BUILD_TESTING=ON >"$LOG/cmake.txt" 2>&1 || die "cmake (see $LOG/cmake.txt)"
build build || die "the plain build fails (see $LOG/build.txt)"
say "built with -g -Wall -Wextra -Werror in $(( $(date +%s) - t0 )) s"

# ---- 3. suggest -> patch -> apply -> rebuild -> the size promised
lib=b/libtinyxml2.a
round_trip() { # TYPE
	ty=$1 f=$(echo "$1" | tr ':' '_')
	before=$(pahole_size "$lib" "$ty")
	"$SF" suggest --format json -t "$ty" "$lib" >"$LOG/suggest-$f.json" 2>"$LOG/suggest-$f.err" ||
		{ say "FAILED: suggest -t $ty: $(head -n 1 "$LOG/suggest-$f.err")"; return 1; }
	promised=$(json_get "$LOG/suggest-$f.json" 'd["reorder"]["size"]')
	moves=$(json_get "$LOG/suggest-$f.json" 'd["reorder"]["moves"]')
	"$SF" patch --apply -t "$ty" "$lib" >"$LOG/patch-$f.txt" 2>&1 ||
		{ say "FAILED: patch -t $ty: $(head -n 1 "$LOG/patch-$f.txt")"; return 1; }
	build "rebuild-$f" || { say "FAILED: the patched build ($ty; see $LOG/rebuild-$f.txt)"; return 1; }
	after=$(pahole_size "$lib" "$ty")
	if [ "$after" != "$promised" ] || [ "$after" -ge "$before" ]; then
		say "FAILED: class $ty: $before bytes, promised $promised, built $after"
		return 1
	fi
	say "class $ty: $before -> $after bytes, as promised, members moved: $moves ($(grep -c '^wrote ' "$LOG/patch-$f.txt") files written)"
}
round_trip tinyxml2::XMLPrinter || status=1
round_trip tinyxml2::XMLDocument || status=1

# ---- 4. tinyxml2's own tests on the patched build
t0=$(date +%s)
(cd b && ctest -V) >"$LOG/ctest.txt" 2>&1
rc=$?
counts=$(sed -n 's/.*Pass \([0-9]*\), Fail \([0-9]*\).*/\1 \2/p' "$LOG/ctest.txt" | tail -n 1)
if [ "$rc" = 0 ] && [ -n "$counts" ] && [ "${counts#* }" = 0 ]; then
	say "xmltest (ctest): ${counts% *} checks passed, 0 failed, $(( $(date +%s) - t0 )) s"
else
	say "FAILED: xmltest: exit $rc, pass/fail '${counts:-?}' (see $LOG/ctest.txt)"
	status=1
fi

[ "$status" = 0 ] && say "ok: every size as promised and the tests pass" ||
	say "FAILED (logs in $LOG)"
exit "$status"
