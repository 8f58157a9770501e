#!/bin/bash
# tests/e2e/readonly.sh - inputs are only read.
#
# Every command runs in an empty working directory against a workspace of
# inputs (objects from gcc and clang, C and C++, an archive, a directory,
# the sources patch reads, a budget).  Before and after each run, every
# file of the workspace is fingerprinted (content hash, size, mode, inode,
# mtime) and the file list compared; the working directory must stay
# empty.  Where strace exists, the run is also traced: no open for writing,
# no create, rename, link, unlink, truncate, chmod or mkdir anywhere.
#
# The two commands that write, `patch --apply` and `check --write-budget`,
# must write only their target, and atomically: the new content goes to a
# temporary file next to it, renamed (or linked) into place, so the target
# is never opened for writing and no temporary file is left behind.
. "$(dirname "$0")/lib.sh"

W=$T/w
CWD=$T/cwd
mkdir -p "$W/src" "$W/dir/sub" "$CWD"

# strace cannot follow the valgrind wrapper meaningfully (valgrind writes
# its own logs): checksums only then
STRACE=""
if have strace && head -c 4 "$SF" | grep -q ELF; then
	STRACE=strace
fi

# LeakSanitizer cannot run under ptrace (make asan): off for traced runs
SAN_TRACED="ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

# fingerprint DIR: one line per file and directory
fingerprint() {
	(cd "$1" && find . -printf '%p %y %s %m %i %T@\n' | sort &&
		find . -type f -print0 | sort -z | xargs -0 -r sha256sum)
}

# in_cwd CMD...: CMD run in $CWD (not in a subshell: run sets $RC)
in_cwd() {
	local here=$PWD
	cd "$CWD" || return
	"$@"
	cd "$here" || return
}

# ro CMD...: structfit CMD in $CWD; nothing written anywhere.
ro() {
	fingerprint "$W" >"$T/before"
	if [ -n "$STRACE" ]; then
		in_cwd run env "$SAN_TRACED" strace -f -qq -o "$T/trace" \
			-e trace=open,openat,creat,rename,renameat,renameat2,link,linkat,symlink,symlinkat,unlink,unlinkat,truncate,ftruncate,chmod,fchmod,fchmodat,mkdir,mkdirat,utimensat \
			"$SF" "$@"
	else
		in_cwd run "$SF" "$@"
	fi
	fingerprint "$W" >"$T/after"
	if ! cmp -s "$T/before" "$T/after"; then
		fail "structfit $*: the inputs changed: $(diff "$T/before" "$T/after" | head -n 4 | tr '\n' ' ')"
	fi
	if [ -n "$(ls -A "$CWD")" ]; then
		fail "structfit $*: wrote into the working directory: $(ls -A "$CWD" | head -n 3 | tr '\n' ' ')"
		rm -rf "${CWD:?}"/* "$CWD"/.[!.]* 2>/dev/null
	fi
	if [ -n "$STRACE" ]; then
		grep -E 'O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|^[0-9]+ +(creat|rename|renameat2?|link|linkat|symlink|symlinkat|unlink|unlinkat|truncate|ftruncate|chmod|fchmod|fchmodat|mkdir|mkdirat|utimensat)\(' \
			"$T/trace" | grep -v ' = -1 ' >"$T/writes"
		if [ -s "$T/writes" ]; then
			fail "structfit $*: writes: $(head -n 3 "$T/writes" | tr '\n' ' ')"
		fi
	fi
	return 0
}

tcase "setup: the workspace"
cp "$TD/patch/st_table.c" "$TD/patch/conn.c" "$W/src/"
cp "$TD/diff/before.c" "$TD/diff/after.c" "$W/src/"
(
	cd "$W/src" || exit 1
	gcc -gdwarf-4 -O0 -c -o ../st_table.o st_table.c &&
		clang -gdwarf-5 -O0 -c -o ../conn.o conn.c &&
		gcc -gdwarf-5 -c -o ../before.o before.c &&
		gcc -gdwarf-5 -c -o ../after.o after.c &&
		g++ -gdwarf-4 -c -o ../widget.o "$TD/reader/widget.cc" &&
		gcc -gdwarf-4 -c -o ../dir/a.o "$TD/e2e/dup_a.c" &&
		clang -gdwarf-5 -c -o ../dir/sub/b.o "$TD/e2e/dup_b.c" &&
		cp ../st_table.o ../conn.o ../dir/sub/ &&
		ar rcs ../lib.a ../st_table.o ../conn.o ../widget.o
) 2>"$T/cc.err" || fail "cannot build the workspace: $(head -n 3 "$T/cc.err" | tr '\n' ' ')"
printf 'struct st_table size <= 48\nstruct RHash + struct st_table fits 80 in ruby-3.3 optional\n* hole_bytes <= 100000 optional\n' >"$W/gate.budget"
printf 'struct st_table size <= 8\n' >"$W/broken.budget"
chmod 0444 "$W/st_table.o"
assert_eq "$(find "$W" -type f | wc -l | tr -d ' ')" 16 "files in the workspace"
[ -n "$STRACE" ] || echo "    (readonly: no strace here or not an ELF binary: checksums only)"

tcase "show, every format, every kind of input: nothing written"
for f in st_table.o conn.o widget.o lib.a dir; do
	ro show "$W/$f"
	assert_eq "$RC" 0 "show $f"
	for fmt in json html; do
		ro show --format "$fmt" "$W/$f"
		assert_eq "$RC" 0 "show --format $fmt $f"
	done
done
ro show -t st_table --cacheline 32 "$W/st_table.o" "$W/conn.o"
assert_eq "$RC" 0 "show -t"

tcase "holes, suggest, fit, classes: nothing written"
for args in "holes" "holes --format json --sort size --limit 3" \
	"suggest -t st_table" "suggest -t st_table --format json --classes ruby-3.3" \
	"suggest -t st_table --narrow entries_start=1 --format html" \
	"fit -t st_table --classes ruby-3.3" "fit -t st_table+st_table --classes 32,64 --format json"; do
	# shellcheck disable=SC2086
	ro $args "$W/st_table.o" "$W/lib.a"
	assert_eq "$RC" 0 "$args"
done
ro classes
assert_eq "$RC" 0 "classes"
ro classes jemalloc
assert_eq "$RC" 0 "classes jemalloc"

tcase "check (holding and broken budgets, every format), diff: nothing written"
for fmt in text json sarif junit github; do
	ro check --budget "$W/gate.budget" --format "$fmt" "$W/st_table.o" "$W/dir"
	assert_eq "$RC" 0 "check holding, $fmt"
	ro check --budget "$W/broken.budget" --format "$fmt" "$W/st_table.o"
	assert_eq "$RC" 1 "check broken, $fmt"
done
ro diff "$W/before.o" "$W/after.o"
assert_eq "$RC" 0 "diff"
ro diff --fail-on-growth --format json "$W/before.o" "$W/after.o"
assert_ne "$RC" 2 "diff --fail-on-growth"

tcase "patch without --apply prints, writes nothing"
ro patch -t st_table --narrow entries_start=1 --source-root "$W/src" "$W/st_table.o"
assert_eq "$RC" 0 "patch exit status ($(head -c 200 "$T/err"))"
assert_grep "$T/out" "+++ b/st_table.c" "a diff on stdout"
cp "$T/out" "$T/st_table.diff"

tcase "failing commands write nothing either"
ro show -t no_such_type "$W/st_table.o"
assert_eq "$RC" 2 "unknown type"
ro check --budget "$W/gate.budget" "$W/src/st_table.c"
assert_eq "$RC" 2 "not ELF"
ro patch -t st_table --narrow entries_start=1 --apply --source-root "$W/dir" "$W/st_table.o"
assert_eq "$RC" 2 "patch --apply without its source"
ro patch -t st_table --apply --source-root "$W/src" "$W/st_table.o"
assert_eq "$RC" 0 "patch --apply with nothing to patch (no smaller order: said, not an error)"
ro check --write-budget "$W/gate.budget" "$W/st_table.o"
assert_eq "$RC" 2 "--write-budget over an existing file without --force"
ro check --write-budget "$W/new.budget" "$W/nonexistent.o"
assert_eq "$RC" 2 "--write-budget from a missing input"

# writes DIR CMD...: structfit CMD (in $CWD); list what it wrote in DIR
# ($T/changed), and the opens for writing and renames ($T/writes).
writes() {
	local dir=$1
	shift
	fingerprint "$W" >"$T/before"
	if [ -n "$STRACE" ]; then
		in_cwd run env "$SAN_TRACED" strace -f -qq -o "$T/trace" \
			-e trace=open,openat,creat,rename,renameat,renameat2,link,linkat,unlink,unlinkat,truncate,ftruncate "$SF" "$@"
		grep -E 'O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|^[0-9]+ +(creat|rename|renameat2?|link|linkat|unlink|unlinkat|truncate|ftruncate)\(' \
			"$T/trace" | grep -v ' = -1 ' >"$T/writes"
	else
		in_cwd run "$SF" "$@"
		: >"$T/writes"
	fi
	fingerprint "$W" >"$T/after"
	# paths whose line changed (new, gone or different)
	diff "$T/before" "$T/after" | sed -n 's/^[<>] \(\.[^ ]*\) .*/\1/p; s/^[<>] [0-9a-f]\{64\}  \(.*\)/\1/p' |
		sort -u >"$T/changed"
}

tcase "patch --apply: only the source changes, replaced by rename, no temporary left"
cp "$W/src/st_table.c" "$T/st_table.c.orig"
chmod 0640 "$W/src/st_table.c"
ino=$(stat -c %i "$W/src/st_table.c")
writes "$W" patch -t st_table --narrow entries_start=1 --apply --source-root "$W/src" "$W/st_table.o"
assert_eq "$RC" 0 "exit status ($(head -c 200 "$T/err"))"
assert_eq "$(tr '\n' ' ' <"$T/changed")" "./src ./src/st_table.c " "what changed"
assert_ne "$(stat -c %i "$W/src/st_table.c")" "$ino" "a new inode (renamed into place)"
assert_eq "$(stat -c %a "$W/src/st_table.c")" 640 "permissions kept"
assert_eq "$(ls -A "$W/src" | tr '\n' ' ')" "after.c before.c conn.c st_table.c " "no temporary file left"
assert_eq "$(ls -A "$CWD" | wc -l | tr -d ' ')" 0 "nothing in the working directory"
# the result is what the printed diff gives
cp "$T/st_table.c.orig" "$T/expect.c"
if (cd "$T" && patch -s -p1 expect.c <"$T/st_table.diff" >/dev/null 2>&1) ||
	(cd "$T" && patch -s expect.c <"$T/st_table.diff" >/dev/null 2>&1); then
	cmp -s "$T/expect.c" "$W/src/st_table.c" || fail "the applied file is not what the printed diff gives"
else
	fail "the printed diff does not apply to the original with patch(1)"
fi
if [ -n "$STRACE" ]; then
	if grep -E "open(at)?\(.*\"$W/src/st_table.c\".*O_(WRONLY|RDWR|TRUNC)" "$T/writes" >/dev/null; then
		fail "the source was opened for writing in place: $(grep -F st_table.c "$T/writes" | head -n 2 | tr '\n' ' ')"
	fi
	grep -Eq "rename(at2?)?\(.*st_table.c" "$T/writes" || fail "no rename onto the source: $(tr '\n' ' ' <"$T/writes" | head -c 300)"
	outside=$(grep -v -F "$W/src/" "$T/writes" | grep -v 'AT_FDCWD, "\.' | head -n 2)
	[ -z "$outside" ] || fail "writes outside the source directory: $outside"
fi

tcase "patch --apply again on the patched source refuses, writes nothing"
ro patch -t st_table --narrow entries_start=1 --apply --source-root "$W/src" "$W/st_table.o"
assert_eq "$RC" 2 "exit status"

tcase "check --write-budget: only the new budget appears, linked into place"
writes "$W" check --write-budget "$W/pinned.budget" "$W/st_table.o" "$W/conn.o"
assert_eq "$RC" 0 "exit status ($(head -c 200 "$T/err"))"
assert_eq "$(tr '\n' ' ' <"$T/changed")" ". ./pinned.budget " "what changed"
assert_grep "$W/pinned.budget" "struct st_table" "the budget pins st_table"
assert_eq "$(ls -A "$W" | grep -c '^\.')" 0 "no temporary file left"
if [ -n "$STRACE" ]; then
	if grep -E "open(at)?\(.*\"$W/pinned.budget\"" "$T/writes" >/dev/null; then
		fail "the budget was opened in place: $(grep -F pinned.budget "$T/writes" | head -n 2 | tr '\n' ' ')"
	fi
fi
sf check --budget "$W/pinned.budget" "$W/st_table.o" "$W/conn.o"
assert_eq "$RC" 0 "the pinned budget holds"

tcase "check --write-budget --force: replaced by rename, inputs untouched"
ino=$(stat -c %i "$W/pinned.budget")
writes "$W" check --write-budget "$W/pinned.budget" --force "$W/st_table.o"
assert_eq "$RC" 0 "exit status ($(head -c 200 "$T/err"))"
assert_eq "$(tr '\n' ' ' <"$T/changed")" ". ./pinned.budget " "what changed"
assert_ne "$(stat -c %i "$W/pinned.budget")" "$ino" "a new inode"
assert_eq "$(ls -A "$W" | grep -c '^\.')" 0 "no temporary file left"

tdone
