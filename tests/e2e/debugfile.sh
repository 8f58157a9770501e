#!/bin/bash
# tests/e2e/debugfile.sh - separate debug files, found as gdb finds them.
#
# A program is built at test time, split as distributions split theirs
# (objcopy --only-keep-debug, strip --strip-debug, objcopy
# --add-gnu-debuglink), and the debug file put in each place structfit
# must look: by build-id under --debug-dir DIR, by .gnu_debuglink beside
# the file, in .debug/ beside it, under DIR/<absolute dir of the file>/.
# The oracle is the unstripped program: the output must be identical, byte
# for byte.  Mismatches (build-id, CRC) must be rejected, and when nothing
# is found the error names every place searched.  libc.so.6 with Debian's
# libc6-dbg is compared against pahole reading the same file.
. "$(dirname "$0")/lib.sh"

ST_SRC=$TD/example/st_table.c
PROG_SRC=$TD/e2e/prog.c

# build NAME [FLAGS...]: $T/NAME, an executable with DWARF.
build() {
	local name=$1
	shift
	gcc -g -O0 -o "$T/$name" "$PROG_SRC" "$ST_SRC" "$@" 2>"$T/cc.err" && return 0
	fail "gcc cannot build $name: $(head -n 2 "$T/cc.err" | tr '\n' ' ')"
}

# build_id FILE: its build-id in hex, as readelf prints it.
build_id() {
	readelf -n "$1" 2>/dev/null | awk '/Build ID:/ { print $3; exit }'
}

# split FULL STRIPPED DEBUG [LINK]: the debug file and the stripped file
# (with a .gnu_debuglink to LINK when given).
split() {
	objcopy --only-keep-debug "$1" "$3" || return 1
	strip --strip-debug -o "$2" "$1" || return 1
	[ $# -lt 4 ] || objcopy --add-gnu-debuglink="$4" "$2" || return 1
}

# same_as_plain WHAT ARGS...: structfit show ARGS... must print what the
# unstripped program prints.
same_as_plain() {
	local what=$1
	shift
	sf_ok show "$@"
	if ! cmp -s "$T/out" "$T/plain.txt"; then
		fail "$what: output differs from the unstripped program's"
		diff "$T/plain.txt" "$T/out" | head -n 10 >"$T/diff"
		detail "$T/diff" "diff plain stripped"
	fi
	[ -s "$T/err" ] && fail "$what: stderr not empty: $(head -c 200 "$T/err")"
	return 0
}

# origin_of [-t TYPE] ARGS...: the origin structfit names for TYPE (st_table).
origin_of() {
	local type=st_table
	if [ "$1" = -t ]; then
		type=$2
		shift 2
	fi
	sf show --format json -t "$type" "$@"
	[ "$RC" = 0 ] || { fail "show --format json $*: exit $RC: $(head -c 200 "$T/err")"; return; }
	jget "$T/out" "t(\"$type\")[\"origin\"]"
}

# expect_not_found WHAT ARGS...: exit 2, one stderr line, nothing on stdout.
expect_not_found() {
	local what=$1
	shift
	sf show "$@"
	assert_eq "$RC" 2 "$what: exit status"
	assert_eq "$(wc -l <"$T/err")" 1 "$what: stderr lines"
	assert_eq "$(wc -c <"$T/out")" 0 "$what: stdout bytes"
}

tcase "setup: the program, unstripped"
if build prog; then
	ID=$(build_id "$T/prog")
	assert_match "$ID" '^[0-9a-f]{40}$' "gcc's build-id"
	sf_ok show "$T/prog"
	cp "$T/out" "$T/plain.txt"
	assert_grep "$T/plain.txt" "struct st_table {" "st_table in the plain output"
	split "$T/prog" "$T/stripped" "$T/prog.debug" || fail "objcopy/strip failed"
fi

tcase "build-id under --debug-dir"
D=$T/dbgroot
mkdir -p "$D/.build-id/${ID:0:2}"
cp "$T/prog.debug" "$D/.build-id/${ID:0:2}/${ID:2}.debug"
expect_not_found "without --debug-dir" "$T/stripped"
assert_grep "$T/err" "$T/stripped: no DWARF debug info, and no debug file found by build-id $ID" "the error"
same_as_plain "--debug-dir DIR" --debug-dir "$D" "$T/stripped"
same_as_plain "--debug-dir=DIR" --debug-dir="$D" "$T/stripped"
assert_eq "$(origin_of --debug-dir "$D" "$T/stripped")" "$D/.build-id/${ID:0:2}/${ID:2}.debug" \
	"origin in JSON"
sf_ok show --origin -t st_table --debug-dir "$D" "$T/stripped"
assert_grep "$T/out" "/* structfit: from $D/.build-id/${ID:0:2}/${ID:2}.debug */" "show --origin"

tcase "build-id: the debug directories in order, another build's file rejected"
# the first directory holds another program's debug file under this
# build-id: rejected (build-id differs), the second directory has the right one
if build other "$TD/e2e/holes.c"; then
	OID=$(build_id "$T/other")
	assert_ne "$OID" "$ID" "two builds, two build-ids"
	W=$T/wrongroot
	mkdir -p "$W/.build-id/${ID:0:2}"
	objcopy --only-keep-debug "$T/other" "$W/.build-id/${ID:0:2}/${ID:2}.debug"
	expect_not_found "only the wrong one" --debug-dir "$W" "$T/stripped"
	assert_grep "$T/err" "$W/.build-id/${ID:0:2}/${ID:2}.debug (build-id differs)" "the rejection is said"
	same_as_plain "wrong first, right second" --debug-dir "$W" --debug-dir "$D" "$T/stripped"
	assert_eq "$(origin_of --debug-dir "$W" --debug-dir "$D" "$T/stripped")" \
		"$D/.build-id/${ID:0:2}/${ID:2}.debug" "origin: the second directory"
fi

# A program without a build-id: only the debuglink (and its CRC) can find it.
tcase "setup: a program without build-id, with a .gnu_debuglink"
if build nobid -Wl,--build-id=none; then
	assert_eq "$(build_id "$T/nobid")" "" "no build-id"
	sf_ok show "$T/nobid"
	cmp -s "$T/out" "$T/plain.txt" || fail "the build without build-id prints something else"
	mkdir -p "$T/dl"
	split "$T/nobid" "$T/dl/nobid" "$T/nobid.debug" "$T/nobid.debug" || fail "objcopy/strip failed"
	objcopy --only-keep-debug "$T/other" "$T/other.debug"
fi

tcase ".gnu_debuglink beside the file"
cp "$T/nobid.debug" "$T/dl/nobid.debug"
same_as_plain "beside" "$T/dl/nobid"
assert_eq "$(origin_of "$T/dl/nobid")" "$T/dl/nobid.debug" "origin"
rm "$T/dl/nobid.debug"

tcase ".gnu_debuglink in .debug/ beside the file"
mkdir -p "$T/dl/.debug"
cp "$T/nobid.debug" "$T/dl/.debug/nobid.debug"
same_as_plain ".debug/" "$T/dl/nobid"
assert_eq "$(origin_of "$T/dl/nobid")" "$T/dl/.debug/nobid.debug" "origin"
rm -r "$T/dl/.debug"

tcase ".gnu_debuglink under DIR/<dir of the file>/"
ABSDL=$(cd "$T/dl" && pwd -P)
mkdir -p "$D$ABSDL"
cp "$T/nobid.debug" "$D$ABSDL/nobid.debug"
expect_not_found "without --debug-dir" "$T/dl/nobid"
same_as_plain "--debug-dir" --debug-dir "$D" "$T/dl/nobid"
assert_eq "$(origin_of --debug-dir "$D" "$T/dl/nobid")" "$D$ABSDL/nobid.debug" "origin"
rm "$D$ABSDL/nobid.debug"

tcase ".gnu_debuglink: a file with the wrong CRC is rejected"
# another build's debug file under the linked name (neither has a
# build-id to compare, so the CRC decides)
if build other-nobid "$TD/e2e/holes.c" -Wl,--build-id=none; then
	objcopy --only-keep-debug "$T/other-nobid" "$T/dl/nobid.debug"
	expect_not_found "CRC mismatch" "$T/dl/nobid"
	assert_grep "$T/err" "$T/dl/nobid.debug (CRC mismatch)" "the rejection is said"
fi
rm -f "$T/dl/nobid.debug"

tcase ".gnu_debuglink: a file of another build-id is rejected"
# both have build-ids and they differ: rejected whatever the CRC
cp "$T/prog.debug" "$T/withbid.debug"
split "$T/prog" "$T/dl/withbid" "$T/unused.debug" "$T/withbid.debug" || fail "split failed"
objcopy --only-keep-debug "$T/other" "$T/dl/withbid.debug"
expect_not_found "build-id mismatch" "$T/dl/withbid"
assert_grep "$T/err" "$T/dl/withbid.debug (build-id differs)" "the rejection is said"
cp "$T/prog.debug" "$T/dl/withbid.debug"
same_as_plain "the right one" "$T/dl/withbid"

tcase "nothing found: the error names every place searched"
expect_not_found "nothing anywhere" --debug-dir "$D" --debug-dir "$T/wrongroot" "$T/dl/nobid"
for place in "$T/dl/nobid.debug" "$T/dl/.debug/nobid.debug" "$D$ABSDL/nobid.debug" \
	"$T/wrongroot$ABSDL/nobid.debug" "/usr/lib/debug$ABSDL/nobid.debug"; do
	assert_grep "$T/err" "$place" "place searched"
done
assert_grep "$T/err" "$T/dl/nobid: no DWARF debug info, and no debug file found by .gnu_debuglink nobid.debug (searched " \
	"the message"
rm -f "$T/dl/withbid.debug"
expect_not_found "with a build-id" --debug-dir "$T/wrongroot" "$T/dl/withbid"
for place in "$T/wrongroot/.build-id/${ID:0:2}/${ID:2}.debug (build-id differs)" \
	"/usr/lib/debug/.build-id/${ID:0:2}/${ID:2}.debug" "$T/dl/withbid.debug" \
	"$T/dl/.debug/withbid.debug" "$T/wrongroot$ABSDL/withbid.debug" \
	"/usr/lib/debug$ABSDL/withbid.debug" "debuginfod not asked: DEBUGINFOD_URLS is not set"; do
	assert_grep "$T/err" "$place" "place searched"
done

tcase "build-ids decide over the CRC"
# the right debug file rewritten (its sections compressed): other bytes,
# another CRC, the same build-id: it is the debug file of this build
objcopy --compress-debug-sections=zlib "$T/prog.debug" "$T/dl/withbid.debug"
assert_ne "$(cksum <"$T/dl/withbid.debug")" "$(cksum <"$T/prog.debug")" "the bytes differ"
same_as_plain "same build-id, other CRC" "$T/dl/withbid"
rm -f "$T/dl/withbid.debug"

tcase "every command that reads inputs takes --debug-dir"
# each command on the stripped program + --debug-dir prints what it prints
# on the unstripped program
cmd_same() { # WHAT ARGS... (the input is appended)
	local what=$1
	shift
	sf "$@" "$T/prog"
	local rc_plain=$RC
	cp "$T/out" "$T/cmd.plain"
	sf "$@" --debug-dir "$D" "$T/stripped"
	assert_eq "$RC" "$rc_plain" "$what: exit status"
	cmp -s "$T/out" "$T/cmd.plain" || fail "$what: output differs"
	[ -s "$T/cmd.plain" ] || fail "$what: no output at all"
}
cmd_same show show -t st_table
cmd_same holes holes
cmd_same suggest suggest -t st_table --narrow entries_start=1 --classes ruby-3.3
cmd_same fit fit -t st_table --classes ruby-3.3
# entries_start is stored from non-literals in the program: patch refuses
# such a narrowing unless told to truncate (issue 23); the output is compared
cmd_same patch patch -t st_table --narrow entries_start=1 --allow-truncation
sf check --write-budget "$T/plain.budget" "$T/prog"
sf check --write-budget "$T/via.budget" --debug-dir "$D" "$T/stripped"
assert_eq "$RC" 0 "check --write-budget: exit status"
assert_eq "$(grep -v '^#' "$T/via.budget")" "$(grep -v '^#' "$T/plain.budget")" "check --write-budget: the rules"
sf check --budget "$T/plain.budget" --debug-dir "$D" "$T/stripped"
assert_eq "$RC" 0 "check --budget: exit status"
sf diff --debug-dir "$D" "$T/prog" "$T/stripped"
assert_eq "$RC" 0 "diff: exit status"
sf diff --format json --debug-dir "$D" "$T/stripped" "$T/prog"
assert_eq "$RC" 0 "diff (stripped first): exit status"
sf classes --debug-dir "$D"
assert_eq "$RC" 2 "classes reads no input: no --debug-dir"
sf show --debug-dir "$T/plain.txt" "$T/prog"
assert_eq "$RC" 2 "--debug-dir FILE: exit status"
assert_eq "$(cat "$T/err")" "structfit: --debug-dir: $T/plain.txt: not a directory" "--debug-dir FILE: message"
sf show "$T/prog" --debug-dir
assert_eq "$RC" 2 "--debug-dir without a value: exit status"
assert_eq "$(cat "$T/err")" "structfit: show: option '--debug-dir' needs a value" "--debug-dir without a value: message"

tcase "a directory: files without debug info skipped in one line"
mkdir -p "$T/mixed/sub"
cp "$T/prog" "$T/mixed/a-prog"
cp "$T/stripped" "$T/mixed/b-stripped"
cp "$T/dl/nobid" "$T/mixed/sub/c-nobid"
echo "not ELF" >"$T/mixed/README"
sf show "$T/mixed"
assert_eq "$RC" 0 "exit status"
cmp -s "$T/out" "$T/plain.txt" || fail "the output is not the one program's"
assert_eq "$(wc -l <"$T/err")" 1 "stderr lines"
assert_match "$(cat "$T/err")" "^structfit: $T/mixed: 2 files without debug info skipped \(first: $T/mixed/b-stripped: no DWARF debug info, and no debug file found by build-id $ID " \
	"the one line"
# found through --debug-dir, the stripped file counts as read
sf show --debug-dir "$D" "$T/mixed"
assert_eq "$RC" 0 "with --debug-dir: exit status"
assert_match "$(cat "$T/err")" "^structfit: $T/mixed: 1 file without debug info skipped \($T/mixed/sub/c-nobid: " \
	"with --debug-dir: the one line"
rm "$T/mixed/a-prog"
sf show "$T/mixed"
assert_eq "$RC" 2 "nothing with types: exit status"
assert_eq "$(wc -l <"$T/err")" 1 "nothing with types: stderr lines"
assert_match "$(cat "$T/err")" "^structfit: $T/mixed: no ELF file with DWARF debug info below this directory \(2 without, e.g. " \
	"nothing with types: the message"

tcase "a directory: a stripped file and its debug file beside it are read once"
mkdir -p "$T/pair"
cp "$T/dl/nobid" "$T/nobid.debug" "$T/pair/"
same_as_plain "stripped first" "$T/pair"
cp "$T/nobid.debug" "$T/pair/a.debug"	# also reached directly, before
mv "$T/pair/nobid.debug" "$T/pair/0.debug"
objcopy --remove-section=.gnu_debuglink "$T/pair/nobid"
objcopy --add-gnu-debuglink="$T/pair/0.debug" "$T/pair/nobid"
rm "$T/pair/a.debug"
same_as_plain "debug file first" "$T/pair"

tcase ".gnu_debuglink of a symbolic link: beside the file it leads to"
# gdb names an objfile by its real path: the debug file sits beside the
# target (and under DIR/<the target's directory>/), not beside the link
mkdir -p "$T/real" "$T/links"
cp "$T/dl/nobid" "$T/real/nobid"
cp "$T/nobid.debug" "$T/real/nobid.debug"
ln -s "$T/real/nobid" "$T/links/nobid"
same_as_plain "beside the target" "$T/links/nobid"
assert_eq "$(origin_of "$T/links/nobid")" "$T/real/nobid.debug" "origin"
REALD=$(cd "$T/real" && pwd -P)
mkdir -p "$D$REALD"
mv "$T/real/nobid.debug" "$D$REALD/nobid.debug"
same_as_plain "DIR/<the target's directory>" --debug-dir "$D" "$T/links/nobid"
rm "$D$REALD/nobid.debug"

tcase "a debug file that is dwz'd: its alt file found under --debug-dir too"
# Debian's layout: the debug file under .build-id, its alt file under
# .dwz, named by an absolute /usr/lib/debug/.dwz/... path
if ! have dwz; then
	fail "dwz is not installed (Debian package dwz, in TEST_PKGS)"
else
	Z=$T/dwz
	mkdir -p "$Z/root/.build-id/${ID:0:2}" "$Z/root/.dwz/sf-test"
	objcopy --only-keep-debug "$T/prog" "$Z/p1.debug"
	objcopy --only-keep-debug "$T/other" "$Z/p2.debug"
	if dwz -m "$Z/common.debug" -M /usr/lib/debug/.dwz/sf-test/common.debug \
		"$Z/p1.debug" "$Z/p2.debug" 2>"$T/dwz.err"; then
		readelf -S "$Z/p1.debug" 2>/dev/null | grep -q gnu_debugaltlink || fail "dwz made no alt link"
		cp "$Z/p1.debug" "$Z/root/.build-id/${ID:0:2}/${ID:2}.debug"
		cp "$Z/common.debug" "$Z/root/.dwz/sf-test/common.debug"
		same_as_plain "stripped -> build-id -> dwz alt" --debug-dir "$Z/root" "$T/stripped"
		rm "$Z/root/.dwz/sf-test/common.debug"
		expect_not_found "the alt file missing" --debug-dir "$Z/root" "$T/stripped"
		assert_grep "$T/err" "$Z/root/.dwz/sf-test/common.debug" "the alt file's places"
	else
		fail "dwz failed: $(head -n 2 "$T/dwz.err" | tr '\n' ' ')"
	fi
fi

tcase "a FIFO where a debug file may be: skipped, never waited on"
# open() of a FIFO blocks until a writer comes: candidates are opened
# non-blocking and must be regular files
mkfifo "$T/dl/nobid.debug"
mkdir -p "$T/fifo/.build-id/${ID:0:2}"
mkfifo "$T/fifo/.build-id/${ID:0:2}/${ID:2}.debug"
E2E_TIMEOUT=20 sf show "$T/dl/nobid"
assert_eq "$RC" 2 "debuglink: exit status"
assert_grep "$T/err" "$T/dl/nobid.debug, " "debuglink: the FIFO is a place searched"
E2E_TIMEOUT=20 sf show --debug-dir "$T/fifo" "$T/stripped"
assert_eq "$RC" 2 "build-id: exit status"
rm "$T/dl/nobid.debug"
if [ -d "${Z:-}/root/.dwz/sf-test" ] && [ -f "$Z/p1.debug" ]; then
	# the dwz alt file's places too
	mkfifo "$Z/root/.dwz/sf-test/common.debug"
	E2E_TIMEOUT=20 sf show --debug-dir "$Z/root" "$T/stripped"
	assert_eq "$RC" 2 "dwz alt file: exit status"
	assert_grep "$T/err" "$Z/root/.dwz/sf-test/common.debug (unreadable)" "dwz alt file: the FIFO is said"
fi

tcase "hostile link sections: a corrupt build-id note, a debuglink without its CRC"
# a build-id note claiming 2 GiB, a .gnu_debuglink of one byte: read as
# absent, never past their section; the plain no-DWARF error
gcc -shared -fPIC -o "$T/h.so" "$ST_SRC" -Wl,--build-id=none 2>"$T/cc.err" || fail "gcc -shared failed"
printf '\004\000\000\000\377\377\377\177\003\000\000\000GNU\000abcd' >"$T/note.bin"
printf 'x' >"$T/dl.bin"
objcopy --add-section .note.gnu.build-id="$T/note.bin" "$T/h.so" "$T/h-note.so"
objcopy --add-section .gnu_debuglink="$T/dl.bin" "$T/h.so" "$T/h-link.so"
for f in h-note h-link; do
	expect_not_found "$f" "$T/$f.so"
	assert_eq "$(cat "$T/err")" "structfit: $T/$f.so: no DWARF debug info (stripped or built without -g)" "$f: message"
done

tcase "DWARF without one struct: said, exit 2, never an empty report"
printf 'int counter;\nint main(void) { return counter; }\n' >"$T/plain-ints.c"
gcc -g -c -o "$T/ints.o" "$T/plain-ints.c" 2>"$T/cc.err" || fail "gcc failed"
readelf -S "$T/ints.o" | grep -q debug_info || fail "the object has no .debug_info"
for cmd in show holes; do
	sf "$cmd" "$T/ints.o"
	assert_eq "$RC" 2 "$cmd: exit status"
	assert_eq "$(wc -c <"$T/out")" 0 "$cmd: stdout bytes"
	assert_eq "$(cat "$T/err")" "structfit: $T/ints.o: no struct, union or class in the debug info (nothing to report)" \
		"$cmd: message"
done
# beside a file with structs it is no error
sf_ok show "$T/ints.o" "$T/prog"
cmp -s "$T/out" "$T/plain.txt" || fail "with the program: not the program's output"

tcase "libc.so.6 through libc6-dbg: its build-id file, agreeing with pahole"
LIBC=""
for f in /lib/x86_64-linux-gnu/libc.so.6 "/usr/lib/$(gcc -print-multiarch 2>/dev/null)/libc.so.6"; do
	[ -f "$f" ] && { LIBC=$f; break; }
done
if ! have pahole; then
	missing "pahole is not installed (Debian package dwarves)"
elif ! dpkg-query -W -f='${Status}' libc6-dbg 2>/dev/null | grep -q 'ok installed'; then
	missing "libc6-dbg is not installed"
elif [ -z "$LIBC" ]; then
	skip "no libc.so.6 here"
else
	LID=$(build_id "$LIBC")
	LDBG=/usr/lib/debug/.build-id/${LID:0:2}/${LID:2}.debug
	[ -f "$LDBG" ] || fail "libc6-dbg has no $LDBG (another libc6 version?)"
	assert_eq "$(origin_of -t timex "$LIBC")" "$LDBG" "origin: the build-id file"
	sf_ok show "$LIBC"
	cp "$T/out" "$T/libc.txt"
	sf_ok show "$LDBG"
	cmp -s "$T/out" "$T/libc.txt" || fail "libc.so.6 and its debug file print differently"
	pahole "$LIBC" >"$T/pahole.txt" 2>"$T/pahole.err" || fail "pahole failed: $(head -n 1 "$T/pahole.err")"
	sf_ok show --format json "$LIBC"
	"$PY" -S "$E2E_ROOT/tests/compare_pahole.py" compare "$T/pahole.txt" "$T/out" >"$T/cmp" 2>&1 ||
		fail "$(head -n 1 "$T/cmp"): $(grep -m 2 'DISAGREE\|MISSING' "$T/cmp" | tr '\n' ' ')"
	n=$(awk -F'compared: ' 'NR == 1 { split($2, a, ","); print a[1] }' "$T/cmp")
	[ "${n:-0}" -ge 300 ] || fail "only ${n:-0} structs compared"
	echo "    $(head -n 1 "$T/cmp")"
fi

tcase "a system file without its debug package: the package hint"
# /bin/true (coreutils) has a build-id and no debug file unless
# coreutils-dbgsym is installed; the hint names the package dpkg names
TRUE=$(readlink -f "$(type -P true)")
OWNER=$(dpkg-query -S "$TRUE" "${TRUE#/usr}" 2>/dev/null | head -n 1 | cut -d: -f1)
TID=$(build_id "$TRUE")
if [ -z "$OWNER" ] || [ -z "$TID" ]; then
	skip "dpkg does not know $TRUE or it has no build-id"
elif [ -f "/usr/lib/debug/.build-id/${TID:0:2}/${TID:2}.debug" ]; then
	skip "$TRUE's debug file is installed"
else
	expect_not_found "$TRUE" "$TRUE"
	assert_grep "$T/err" "; Debian package $OWNER owns it: install $OWNER-dbgsym" "the hint"
fi

tdone
