#!/bin/bash
# tests/e2e/debuginfod.sh - a stripped program's types fetched from a real
# debuginfod server (Debian's `debuginfod`), by build-id.
#
# The server is started on 127.0.0.1 (a free port) over a directory of
# programs built here (-F: it indexes ELF/DWARF files), and stopped on exit
# (trap; every wait is bounded).  structfit runs on a stripped copy with
# DEBUGINFOD_URLS pointing at it and a private DEBUGINFOD_CACHE_PATH; its
# output must equal the unstripped program's, byte for byte.
. "$(dirname "$0")/lib.sh"

ST_SRC=$TD/example/st_table.c
PROG_SRC=$TD/e2e/prog.c
SRV_PID=""

stop_server() {
	if [ -n "$SRV_PID" ]; then
		kill "$SRV_PID" 2>/dev/null
		# bounded: a server that ignores TERM for 10 s gets KILL
		for _ in $(seq 1 100); do
			kill -0 "$SRV_PID" 2>/dev/null || break
			sleep 0.1
		done
		kill -KILL "$SRV_PID" 2>/dev/null
		wait "$SRV_PID" 2>/dev/null
		SRV_PID=""
	fi
}
trap 'stop_server; rm -rf "$T"' EXIT

# free_port: a TCP port on 127.0.0.1 nothing listens on (the kernel's pick).
free_port() {
	"$PY" -S -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])
s.close()'
}

# http_status URL: the HTTP status of a GET (000 when nothing answers).
http_status() {
	"$PY" -S -c 'import sys, urllib.request, urllib.error
try:
    print(urllib.request.urlopen(sys.argv[1], timeout=5).status)
except urllib.error.HTTPError as e:
    print(e.code)
except Exception:
    print("000")' "$1"
}

build_id() {
	readelf -n "$1" 2>/dev/null | awk '/Build ID:/ { print $3; exit }'
}

# origin_of DEBUG_DIR FILE: where structfit read st_table from.
origin_of() {
	sf show --format json -t st_table --debug-dir "$1" "$2"
	jget "$T/out" 't("st_table")["origin"]'
}

tcase "setup: a debuginfod server over the test programs"
if ! have debuginfod; then
	# in TEST_PKGS: a host that runs make test has it
	fail "debuginfod is not installed (Debian package debuginfod; make deps-test)"
	tdone
fi
mkdir -p "$T/srv" "$T/cache" "$T/in"
if ! gcc -g -O0 -o "$T/srv/prog" "$PROG_SRC" "$ST_SRC" 2>"$T/cc.err"; then
	fail "gcc cannot build the program: $(head -n 2 "$T/cc.err" | tr '\n' ' ')"
	tdone
fi
gcc -g -O0 -o "$T/srv/other" "$PROG_SRC" "$ST_SRC" "$TD/e2e/holes.c" 2>"$T/cc.err" ||
	fail "gcc cannot build the second program"
ID=$(build_id "$T/srv/prog")
assert_match "$ID" '^[0-9a-f]{40}$' "build-id"
strip --strip-debug -o "$T/in/prog" "$T/srv/prog"
sf_ok show "$T/srv/prog"
cp "$T/out" "$T/plain.txt"
PORT=$(free_port)
# -F: scan ELF/DWARF files; -t 0 -g 0: one scan at start, no grooming;
# -d: a private database
debuginfod -F -p "$PORT" -d "$T/db.sqlite" -t 0 -g 0 -c 1 "$T/srv" \
	>"$T/server.log" 2>&1 &
SRV_PID=$!
URL=http://127.0.0.1:$PORT
# wait (at most 30 s) until the server has indexed the program
status=000
for _ in $(seq 1 150); do
	kill -0 "$SRV_PID" 2>/dev/null || break
	status=$(http_status "$URL/buildid/$ID/debuginfo")
	[ "$status" = 200 ] && break
	sleep 0.2
done
if [ "$status" != 200 ]; then
	fail "the server did not serve build-id $ID within 30 s (last status $status)"
	detail "$T/server.log" "debuginfod's log"
	tdone
fi

tcase "stripped program: types fetched from debuginfod, output as the unstripped one"
export DEBUGINFOD_URLS=$URL DEBUGINFOD_CACHE_PATH=$T/cache DEBUGINFOD_TIMEOUT=20
unset DEBUGINFOD_PROGRESS DEBUGINFOD_VERBOSE
sf_ok show "$T/in/prog"
cmp -s "$T/out" "$T/plain.txt" || {
	fail "output differs from the unstripped program's"
	diff "$T/plain.txt" "$T/out" | head -n 10 >"$T/diff"
	detail "$T/diff" "diff"
}
assert_eq "$(wc -c <"$T/err")" 0 "stderr bytes"
sf_ok show --format json -t st_table "$T/in/prog"
origin=$(jget "$T/out" 't("st_table")["origin"]')
assert_match "$origin" "^$T/cache/$ID/debuginfo\$" "origin: the file in the debuginfod cache"
# the cached file is the debug file of this build
assert_eq "$(build_id "$origin")" "$ID" "the cached file's build-id"

tcase "a build the server does not have: exit 2, the server's answer said"
gcc -g -O0 -o "$T/unserved" "$PROG_SRC" "$ST_SRC" "$TD/e2e/dup_a.c" 2>"$T/cc.err" ||
	fail "gcc cannot build the unserved program"
UID_=$(build_id "$T/unserved")
strip --strip-debug -o "$T/in/unserved" "$T/unserved"
sf show "$T/in/unserved"
assert_eq "$RC" 2 "exit status"
assert_eq "$(wc -l <"$T/err")" 1 "stderr lines"
assert_grep "$T/err" "no debug file found by build-id $UID_" "the build-id"
assert_grep "$T/err" "debuginfod $URL: No such file or directory" "the server's 404"

tcase "a local debug file wins: debuginfod is asked only when nothing is found"
# the server has it too, and the cache is emptied: the local file is read
D=$T/dbg
mkdir -p "$D/.build-id/${ID:0:2}"
objcopy --only-keep-debug "$T/srv/prog" "$D/.build-id/${ID:0:2}/${ID:2}.debug"
rm -rf "${T:?}/cache/$ID"
sf_ok show --debug-dir "$D" "$T/in/prog"
cmp -s "$T/out" "$T/plain.txt" || fail "output differs from the unstripped program's"
assert_eq "$(origin_of "$D" "$T/in/prog")" "$D/.build-id/${ID:0:2}/${ID:2}.debug" "origin: the local file"
# (only the build-id's entry counts: valgrind, standing in for structfit
# under make valgrind, asks debuginfod for its own files)
[ ! -e "$T/cache/$ID" ] || fail "the debug file was fetched as well: $(ls "$T/cache/$ID")"

tcase "no server answering: exit 2 naming debuginfod and why"
stop_server
rm -rf "${T:?}/cache/$ID"	# else libdebuginfod answers from its cache
sf show "$T/in/prog"
assert_eq "$RC" 2 "exit status"
assert_eq "$(wc -l <"$T/err")" 1 "stderr lines"
assert_grep "$T/err" "debuginfod $URL: " "debuginfod is named with its URL"
assert_grep "$T/err" "no debug file found by build-id $ID" "the build-id"

tdone
