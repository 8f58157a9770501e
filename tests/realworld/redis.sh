#!/bin/sh
# tests/realworld/redis.sh - `make realworld`: the round trip on a real
# Debian source package, Redis (not part of `make test`: it downloads).
#
#   1. apt-get source redis, through a private sources list (lib.sh: deb-src
#      lines for this Debian release and its security suite, own lists and
#      cache directories: the system's apt configuration is left alone);
#   2. build it (its Makefile compiles with -g; MALLOC=libc skips jemalloc);
#   3. for each case: structfit suggest -> patch --apply -> rebuild ->
#      pahole's size of the struct must be what suggest promised;
#        struct client                  (the fewest moves to the smallest size)
#        struct redisServer --max-moves 10   (408 members: the bounded search)
#   4. Redis's own tests on the patched build (a subset that runs in a few
#      minutes; REALWORLD_TESTS overrides it);
#   5. one line per step, and a verdict; exit 0 only when everything held.
#
# Environment: STRUCTFIT (default ./structfit), REALWORLD_DIR (default
# build-realworld: not under build/, whose *.d files the Makefile
# includes), REALWORLD_TESTS (Redis test units), JOBS (default 2).
set -u

SF=${STRUCTFIT:-$PWD/structfit}
DIR=${REALWORLD_DIR:-$PWD/build-realworld}
JOBS=${JOBS:-2}
TESTS=${REALWORLD_TESTS:-"unit/keyspace unit/type/string unit/type/incr unit/type/list unit/type/hash unit/type/set unit/info unit/expire"}
status=0
. "$(dirname "$0")/lib.sh"

rw_setup tclsh make gcc
rw_source redis

# ---- 2. the build
build() { # LOGNAME
	make -j"$JOBS" MALLOC=libc BUILD_TLS=no >"$LOG/$1.txt" 2>&1
}
t0=$(date +%s)
build build || die "the plain build fails (see $LOG/build.txt)"
say "built with -g in $(( $(date +%s) - t0 )) s"

# ---- 3. suggest -> patch -> apply -> rebuild -> the size promised
round_trip() { # TYPE [OPTIONS...]
	ty=$1
	shift
	before=$(pahole_size src/server.o "$ty")
	"$SF" suggest --format json "$@" -t "$ty" src/server.o >"$LOG/suggest-$ty.json" 2>"$LOG/suggest-$ty.err" ||
		{ say "FAILED: suggest -t $ty: $(head -n 1 "$LOG/suggest-$ty.err")"; return 1; }
	promised=$(json_get "$LOG/suggest-$ty.json" 'd["reorder"]["size"]')
	moves=$(json_get "$LOG/suggest-$ty.json" 'd["reorder"]["moves"]')
	"$SF" patch --apply "$@" -t "$ty" src/server.o >"$LOG/patch-$ty.txt" 2>&1 ||
		{ say "FAILED: patch -t $ty: $(head -n 1 "$LOG/patch-$ty.txt")"; return 1; }
	build "rebuild-$ty" || { say "FAILED: the patched build ($ty; see $LOG/rebuild-$ty.txt)"; return 1; }
	after=$(pahole_size src/server.o "$ty")
	if [ "$after" != "$promised" ]; then
		say "FAILED: struct $ty $*: promised $promised bytes, built $after"
		return 1
	fi
	say "struct $ty${*:+ $*}: $before -> $after bytes, as promised, $moves members moved"
}
round_trip client || status=1
round_trip redisServer --max-moves 10 || status=1

# ---- 4. Redis's own tests on the patched build
args=""
for t in $TESTS; do args="$args --single $t"; done
t0=$(date +%s)
# shellcheck disable=SC2086
./runtest --clients "$JOBS" $args >"$LOG/runtest.txt" 2>&1
rc=$?
# its report is coloured: drop the escapes before counting
sed 's/\x1b\[[0-9;]*m//g' "$LOG/runtest.txt" >"$LOG/runtest-plain.txt"
ok=$(grep -c '^\[ok\]' "$LOG/runtest-plain.txt")
err=$(grep -c '^\[err\]\|^\[exception\]' "$LOG/runtest-plain.txt")
if [ "$rc" = 0 ] && [ "$err" = 0 ] && [ "$ok" -gt 0 ] &&
	grep -q 'All tests passed without errors' "$LOG/runtest-plain.txt"; then
	say "redis tests ($TESTS): $ok passed, 0 failed, $(( $(date +%s) - t0 )) s"
else
	say "FAILED: redis tests: $ok passed, $err failed, exit $rc (see $LOG/runtest.txt)"
	status=1
fi

[ "$status" = 0 ] && say "ok: every size as promised and the tests pass" ||
	say "FAILED (logs in $LOG)"
exit "$status"
