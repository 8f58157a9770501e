#!/bin/bash
# tests/e2e/patch.sh - `structfit patch`: round trips and refusals.
#
# Round trip: copy testdata/patch into a fresh tree (a git repository, so
# `git apply` checks paths as it does for users), compile there with -g,
# run `structfit patch` from the tree's root, apply the diff with `git
# apply` and, on a second fresh copy, with `patch -p1`; recompile, and
# `structfit show` must report exactly the size `structfit suggest`
# promised, with every member and every comment still there, and the diff
# may only touch the struct's member lines.  Refusals must exit 2 with a
# one-line message and leave every file byte-identical.

. "$(dirname "$0")/lib.sh"

PD=$TD/patch
CC=${CC:-gcc}

# fresh_tree DIR [FILE.c...]: testdata/patch copied into DIR (a git
# repository with the sources committed); each FILE.c compiled there into
# FILE.o with $TREE_CC (default $CC) -g $TREE_FLAGS.
fresh_tree() {
	local dir=$1
	shift
	need git || return 1
	rm -rf "$dir" && mkdir -p "$dir" && cp "$PD"/*.c "$dir"/ || return 1
	(
		cd "$dir" || exit 1
		git init -q . && git add ./*.c &&
			git -c user.email=e2e@structfit -c user.name=e2e commit -qm base || exit 1
		for f in "$@"; do
			# shellcheck disable=SC2086
			"${TREE_CC:-$CC}" -g -O0 ${TREE_FLAGS:-} -c "$f" -o "${f%.c}.o" || exit 1
		done
	) >"$T/tree.log" 2>&1 || { fail "cannot build the tree $dir: $(tail -n 3 "$T/tree.log" | tr '\n' ' ')"; return 1; }
}

# sums DIR: checksums of every file under DIR (outside .git).
sums() {
	(cd "$1" && find . -path ./.git -prune -o -type f -print | LC_ALL=C sort | xargs sha256sum)
}

# show_size OBJ NAME: the size `structfit show` reports.
show_size() {
	"$SF" show -t "$2" --format json "$1" >"$T/show.json" 2>"$T/show.err" || return 1
	jget "$T/show.json" 't("'"$2"'")["size"]'
}

# member_names OBJ NAME: the sorted member names `show` reports.
member_names() {
	"$SF" show -t "$2" --format json "$1" >"$T/show.json" 2>/dev/null || return 1
	jget "$T/show.json" 'sorted(m["name"] for m in t("'"$2"'")["members"])'
}

# Every round trip records "SIZE NAME SRC ARGS..." here: the size the patch
# promised (and show confirmed); the last case asks suggest for the same.
PROMISES=$T/promises
: >"$PROMISES"

# check_comments OLD NEW: every comment of OLD is in NEW.
check_comments() {
	"$PY" - "$1" "$2" <<'PYEOF' >"$T/comments.miss"
import re, sys
old, new = (open(f).read() for f in sys.argv[1:3])
for c in re.findall(r'/\*.*?\*/|//[^\n]*', old, re.S):
    if c not in new:
        print(c)
PYEOF
	[ -s "$T/comments.miss" ] && fail "comments lost: $(head -n 3 "$T/comments.miss" | tr '\n' ' ')"
	return 0
}

# check_body_only DIFF SRC NAME: every line the diff removes or adds lies
# between the lines of `struct NAME {` and its `};` in SRC.
check_body_only() {
	"$PY" - "$1" "$2" "$3" <<'PYEOF' >"$T/body.err"
import re, sys
diff, src, name = sys.argv[1:4]
lines = open(src).read().split("\n")
start = next(i for i, l in enumerate(lines, 1) if re.match(r"\s*struct\s+%s\s*\{" % name, l))
end = next(i for i, l in enumerate(lines, 1) if i > start and re.match(r"\s*\}", l))
old = None
for l in open(diff):
    m = re.match(r"@@ -(\d+)(?:,(\d+))? \+", l)
    if m:
        old = int(m.group(1))
        continue
    if old is None or l.startswith("\\"):
        continue
    if l[0] in "-+":
        at = old if l[0] == "-" else old - 0.5
        if not (start < at < end):
            print("line %s outside struct %s (%d..%d): %s" % (at, name, start, end, l.rstrip()))
    if l[0] in " -":
        old += 1
PYEOF
	[ -s "$T/body.err" ] && fail "$(head -n 2 "$T/body.err" | tr '\n' ' ')"
	return 0
}

# roundtrip NAME SRC [PATCH ARGS...]: the whole round trip, in one case
# per applier.  Leaves the patched tree in $T/rt.
roundtrip() {
	local name=$1 src=$2
	shift 2
	local obj=${src%.c}.o
	need patch || return 1
	fresh_tree "$T/rt" "$src" || return 1
	local before names_before
	before=$(show_size "$T/rt/$obj" "$name") || { fail "show -t $name failed before"; return 1; }
	names_before=$(member_names "$T/rt/$obj" "$name")
	at_dir "$T/rt" sf patch -t "$name" "$@" "$obj"
	[ "$RC" = 0 ] || { fail "patch exited $RC: $(head -n 2 "$T/err" | tr '\n' ' ')"; return 1; }
	cp "$T/out" "$T/p.diff"
	local header
	header=$(head -n 1 "$T/p.diff")
	assert_match "$header" "^structfit patch: struct $name in $src: $before -> [0-9]+ bytes" "summary line"
	local said=${header##*-> }
	said=${said%% bytes*}
	assert_grep "$T/p.diff" "--- a/$src" "diff path"
	assert_grep "$T/p.diff" "+++ b/$src" "diff path"
	check_body_only "$T/p.diff" "$T/rt/$src" "$name"
	cp "$T/rt/$src" "$T/orig.c"
	run git -C "$T/rt" apply --check "$T/p.diff"
	assert_eq "$RC" 0 "git apply --check: $(head -c 200 "$T/err")"
	run git -C "$T/rt" apply "$T/p.diff"
	assert_eq "$RC" 0 "git apply: $(head -c 200 "$T/err")"
	assert_eq "$(git -C "$T/rt" diff --name-only)" "$src" "files the patch changed"
	(cd "$T/rt" && "$CC" -g -O0 -c "$src" -o "$obj") 2>"$T/cc.err" ||
		{ fail "patched $src does not compile: $(head -n 3 "$T/cc.err" | tr '\n' ' ')"; return 1; }
	local after
	after=$(show_size "$T/rt/$obj" "$name")
	assert_eq "$after" "$said" "show -t $name after the patch vs the size promised"
	echo "$after $name $src $*" >>"$PROMISES"
	assert_eq "$(member_names "$T/rt/$obj" "$name")" "$names_before" "member names"
	check_comments "$T/orig.c" "$T/rt/$src"
	# patch -p1 on a second fresh copy gives the same file
	fresh_tree "$T/rt2" || return 1   # sources only
	run sh -c "cd '$T/rt2' && patch -p1 --quiet --no-backup-if-mismatch <'$T/p.diff'"
	assert_eq "$RC" 0 "patch -p1: $(head -c 200 "$T/out")"
	cmp -s "$T/rt/$src" "$T/rt2/$src" || fail "patch -p1 and git apply give different files"
	PATCHED_SIZE=$after
}

# ------------------------------------------------------------- round trips

tcase "st_table --narrow entries_start=1: 48 -> 40, git apply and patch -p1"
if roundtrip st_table st_table.c --narrow entries_start=1; then
	assert_eq "$PATCHED_SIZE" 40 "sizeof(struct st_table) after the patch"
	assert_grep "$T/p.diff" "+	unsigned char entries_start; /* 0..255 (was st_index_t): check that every value fits */" "narrowed member"
	assert_grep "$T/p.diff" "+	st_index_t entries_bound;" "split declaration"
	assert_grep "$T/p.diff" "-	st_index_t entries_start, entries_bound;" "old shared line"
	assert_no_grep "$T/p.diff" "uint8_t" "no <stdint.h> in st_table.c: no uint8_t"
	cp "$T/p.diff" "$T/st_table.diff"
fi

tcase "st_table built by clang (DWARF 4): the same patch"
if have clang && TREE_CC=clang TREE_FLAGS=-gdwarf-4 fresh_tree "$T/cl" st_table.c; then
	at_dir "$T/cl" sf patch -t st_table --narrow entries_start=1 st_table.o
	assert_eq "$RC" 0 "exit status"
	cmp -s "$T/out" "$T/st_table.diff" || fail "clang's DWARF gives a different patch"
fi

tcase "conn: comments, attributes, bit-field runs, shared lines"
if roundtrip conn conn.c; then
	assert_grep "$T/rt/conn.c" "struct conn_peer *peer __attribute__((aligned(8)));" "attribute kept"
	assert_grep "$T/rt/conn.c" "unsigned int kind : 3,		/* enum conn_kind */" "bit-field run kept"
	assert_grep "$T/rt/conn.c" "		     urgent : 1;	/* urgent data pending */" "bit-field run kept"
	[ "$PATCHED_SIZE" -lt 80 ] || fail "conn did not shrink: $PATCHED_SIZE"
fi

tcase "conn --narrow port=1: int8_t with <stdint.h>"
if roundtrip conn conn.c --narrow port=1; then
	assert_grep "$T/rt/conn.c" "int8_t port;" "narrowed to int8_t"
	assert_grep "$T/rt/conn.c" "/* -128..127 (was short int): check that every value fits */" "range comment"
	assert_grep "$T/rt/conn.c" "/* host order */" "original comment"
fi

tcase "robj: a bit-field run over two lines moves as one"
if roundtrip robj conn.c; then
	assert_eq "$PATCHED_SIZE" 16 "sizeof(struct robj) after the patch"
	"$PY" - "$T/rt/conn.c" <<'PYEOF' || fail "type/encoding and lru are no longer adjacent"
import re, sys
s = open(sys.argv[1]).read()
body = s[s.index("struct robj {"):]
body = body[:body.index("};")]
sys.exit(0 if re.search(r"encoding : 4;\n\s*unsigned lru : 24;", body) else 1)
PYEOF
fi

# ---------------------------------------------------------------- --apply

tcase "--apply writes atomically, keeps the mode, equals git apply"
if [ -s "$T/st_table.diff" ] && fresh_tree "$T/ap" st_table.c; then
	chmod 640 "$T/ap/st_table.c"
	ino=$(stat -c %i "$T/ap/st_table.c")
	git -C "$T/ap" apply --check "$T/st_table.diff" || fail "setup"
	cp "$T/ap/st_table.c" "$T/ap.orig"
	(cd "$T/ap" && patch -p1 --quiet -o "$T/ap.want" st_table.c <"$T/st_table.diff") >/dev/null
	at_dir "$T/ap" sf patch -t st_table --narrow entries_start=1 --apply st_table.o
	assert_eq "$RC" 0 "exit status: $(head -c 200 "$T/err")"
	assert_match "$(cat "$T/out")" "^structfit patch: struct st_table in st_table.c: 48 -> 40 bytes" "summary"
	cmp -s "$T/ap/st_table.c" "$T/ap.want" || fail "--apply wrote something else than the diff gives"
	assert_eq "$(stat -c %a "$T/ap/st_table.c")" 640 "mode kept"
	assert_ne "$(stat -c %i "$T/ap/st_table.c")" "$ino" "a new inode (temp file + rename)"
	assert_eq "$(find "$T/ap" -maxdepth 1 -name '*structfit*' | wc -l)" 0 "temporary files left"
	(cd "$T/ap" && "$CC" -g -c st_table.c -o st_table.o) || fail "recompile"
	assert_eq "$(show_size "$T/ap/st_table.o" st_table)" 40 "size after --apply"
	# applying again: the object still describes the old layout, the source
	# does not: refused, file untouched
	s1=$(sums "$T/ap")
	(cd "$T/ap" && "$CC" -g -c "$T/ap.orig" -o old.o) 2>/dev/null
	at_dir "$T/ap" sf patch -t st_table --narrow entries_start=1 --apply old.o
	assert_eq "$RC" 2 "second --apply against a stale object"
	assert_eq "$(sums "$T/ap")" "$s1" "files after the refused --apply"
fi

# --------------------------------------------------------- --source-root

tcase "--source-root DIR when the build ran elsewhere"
if fresh_tree "$T/build-host/proj" st_table.c; then
	mkdir -p "$T/objs" "$T/checkout"
	cp "$T/build-host/proj/st_table.o" "$T/objs/"
	cp -r "$T/build-host/proj" "$T/checkout/proj"
	rm -f "$T/checkout/proj/"*.o
	rm -rf "$T/build-host"
	s1=$(sums "$T/checkout/proj")
	at_dir "$T" sf patch -t st_table --narrow entries_start=1 --source-root "$T/checkout/proj" objs/st_table.o
	assert_eq "$RC" 0 "exit status: $(head -c 300 "$T/err")"
	cp "$T/out" "$T/sr.diff"
	assert_grep "$T/sr.diff" "--- a/st_table.c" "path relative to the source root"
	assert_grep "$T/sr.diff" "  source root: checkout/proj (--source-root); the diff's paths are relative to it" \
		"the root said, relative to the current directory"
	# the same patch but for the root's line
	cmp -s <(tail -n +2 "$T/sr.diff" | grep -v '^  source root: ') \
		<(tail -n +2 "$T/st_table.diff" | grep -v '^  source root: ') ||
		fail "the patch differs from the one made in the build tree"
	assert_eq "$(sums "$T/checkout/proj")" "$s1" "no file written without --apply"
	run git -C "$T/checkout/proj" apply "$T/sr.diff"
	assert_eq "$RC" 0 "git apply from the source root"
	# the same object with no source tree anywhere: exit 2
	at_dir "$T/objs" sf patch -t st_table --narrow entries_start=1 st_table.o
	assert_eq "$RC" 2 "no source file anywhere"
	assert_match "$(cat "$T/err")" "^structfit: .*st_table\.c: source file of struct st_table not found" "message"
	assert_eq "$(wc -l <"$T/err")" 1 "one line on stderr"
	assert_eq "$(wc -c <"$T/out")" 0 "nothing on stdout"
fi

tcase "out-of-tree build (../src in the DWARF), run from the source root"
if fresh_tree "$T/oot/src"; then
	mkdir -p "$T/oot/build"
	(cd "$T/oot/build" && "$CC" -g -c ../src/st_table.c -o st_table.o) || fail "build"
	s1=$(sums "$T/oot/src")
	at_dir "$T/oot" sf patch -t st_table --narrow entries_start=1 build/st_table.o
	assert_eq "$RC" 0 "exit status: $(head -c 300 "$T/err")"
	assert_grep "$T/out" "--- a/src/st_table.c" "path relative to the source root"
	cp "$T/out" "$T/oot.diff"
	assert_eq "$(sums "$T/oot/src")" "$s1" "no file written without --apply"
	run sh -c "cd '$T/oot' && patch -p1 --dry-run <'$T/oot.diff'"
	assert_eq "$RC" 0 "patch -p1 from the source root"
fi

# --------------------------------------------------------------- refusals

# refuse CASE NAME SRC ERE [PATCH ARGS...]: exit 2, the message, no output,
# every file byte-identical, with and without --apply.
refuse() {
	local name=$1 src=$2 ere=$3
	shift 3
	local obj=${src%.c}.o s1
	s1=$(sums "$T/rf")
	for apply in "" --apply; do
		at_dir "$T/rf" sf patch -t "$name" $apply "$@" "$obj"
		assert_eq "$RC" 2 "exit status${apply:+ with $apply}"
		assert_match "$(cat "$T/err")" "$ere" "message"
		assert_eq "$(wc -l <"$T/err")" 1 "one line on stderr"
		assert_eq "$(wc -c <"$T/out")" 0 "nothing on stdout"
		assert_eq "$(sums "$T/rf")" "$s1" "files after the refusal${apply:+ with $apply}"
	done
}

tcase "refuses an #if nested in another inside the body"
fresh_tree "$T/rf" refuse_ifdef.c && refuse cfg refuse_ifdef.c \
	"^structfit: .*refuse_ifdef\.c: struct cfg: #if nested in the #if on line 4 \(line 5\)"

tcase "refuses members that come from a macro"
fresh_tree "$T/rf" refuse_macro.c && refuse stats refuse_macro.c \
	"^structfit: .*refuse_macro\.c: struct stats: 'COUNTERS' on line 6 is a macro"

tcase "refuses a struct on one line with other code"
fresh_tree "$T/rf" refuse_oneline.c && refuse pt refuse_oneline.c \
	"^structfit: .*refuse_oneline\.c: struct pt is defined on one line with other code \(line 2\)"

tcase "refuses when the source changed since the build"
if fresh_tree "$T/rf" conn.c; then
	sed -i 's/	double rtt;/	double rtt_ms;/' "$T/rf/conn.c"
	refuse conn conn.c "^structfit: .*conn\.c: struct conn: line 20 declares 'rtt_ms' where the build's DWARF has 'rtt': the source changed since the build"
	sed -i 's/	double rtt_ms;/	float rtt;/' "$T/rf/conn.c"
	refuse conn conn.c "^structfit: .*conn\.c: struct conn: member 'rtt' \(line 20\) is declared 'float rtt' but the build's DWARF has 'double': the source changed since the build"
fi

tcase "refuses when the source file is missing"
if fresh_tree "$T/rf" conn.c; then
	rm "$T/rf/conn.c"
	refuse conn conn.c "^structfit: .*conn\.c: source file of struct conn not found"
fi

tcase "bad --narrow: unknown member, width not smaller, not 1/2/4/8"
if fresh_tree "$T/rf" st_table.c; then
	refuse st_table st_table.c "^structfit: --narrow nope=1: struct st_table has no member 'nope'\$" --narrow nope=1
	refuse st_table st_table.c "^structfit: --narrow rebuilds_num=4: 4 bytes is not smaller than its 4 bytes" --narrow rebuilds_num=4
	refuse st_table st_table.c "^structfit: --narrow entries_start=3: the new width must be 1, 2, 4 or 8 bytes\$" --narrow entries_start=3
fi

tcase "an optimal struct: nothing to patch, exit 0"
if fresh_tree "$T/rf" st_table.c; then
	s1=$(sums "$T/rf")
	at_dir "$T/rf" sf patch -t st_hash_type st_table.o
	assert_eq "$RC" 0 "exit status"
	assert_eq "$(wc -c <"$T/out")" 0 "no diff"
	assert_match "$(cat "$T/err")" "nothing to patch" "message"
	assert_eq "$(sums "$T/rf")" "$s1" "files"
fi

tcase "each patched size is what suggest promises for the same options"
if ! have git || ! have patch; then
	skip "git and patch are needed for the round trips"
elif [ ! -s "$PROMISES" ]; then
	fail "no round trip succeeded"
elif fresh_tree "$T/sg" $(awk '{ print $3 }' "$PROMISES" | sort -u); then
	while read -r size name src args; do
		# shellcheck disable=SC2086
		"$SF" suggest -t "$name" --format json $args "$T/sg/${src%.c}.o" \
			>"$T/sug.json" 2>"$T/sug.err"
		rc=$?
		if [ "$rc" = 2 ] && grep -q "not implemented" "$T/sug.err"; then
			skip "suggest is not implemented yet"
			break
		fi
		assert_eq "$rc" 0 "suggest -t $name $args"
		assert_eq "$(jget "$T/sug.json" 'd["reorder"]["size"]')" "$size" \
			"suggest -t $name $args: reorder.size vs the patched struct's size"
	done <"$PROMISES"
fi

# stores_tree DIR: testdata/patch/stores copied into DIR, st_table.c
# compiled there with -g.
stores_tree() {
	rm -rf "$1" && mkdir -p "$1" && cp "$PD"/stores/*.c "$1"/ &&
		(cd "$1" && "$CC" -g -O0 -c st_table.c -o st_table.o) >"$T/tree.log" 2>&1 ||
		{ fail "cannot build $1: $(tail -n 3 "$T/tree.log" | tr '\n' ' ')"; return 1; }
}

tcase "a narrowing: a pointer is refused, a store from a parameter or a call is refused with its file:line"
if stores_tree "$T/ns"; then
	s1=$(sums "$T/ns")
	at_dir "$T/ns" sf patch -t st_table --narrow type=4 st_table.o
	assert_eq "$RC" 2 "pointer: exit status"
	assert_eq "$(cat "$T/err")" "structfit: struct st_table: --narrow type=4: type is a pointer; patch does not make a pointer an integer: an index into an arena is a design change (its allocation and every use change, not its type)" "pointer: message"
	assert_eq "$(wc -c <"$T/out")" 0 "pointer: nothing on stdout"
	at_dir "$T/ns" sf patch -t st_table --narrow entries_start=1 st_table.o
	assert_eq "$RC" 2 "entries_start: exit status"
	assert_eq "$(cat "$T/err")" "structfit: entries_start: 1 store under the source root may not fit 0..255 (structfit reads no types: only a literal in range is shown to fit); --saturate clamps those that are whole statements, --allow-truncation narrows all the same:
  st_table.c:66: assigned, a value not shown to fit" "entries_start: the parameter's store named, the literal 0 not"
	at_dir "$T/ns" sf patch -t st_table --narrow entries_bound=1 st_table.o
	assert_eq "$RC" 2 "entries_bound: exit status"
	assert_grep "$T/err" "  st_table.c:72: assigned, a value not shown to fit" "the call's store, by file:line"
	at_dir "$T/ns" sf patch -t st_table --narrow entries_bound=1 --allow-truncation st_table.o
	assert_eq "$RC" 0 "--allow-truncation: exit status"
	assert_grep "$T/out" "  entries_bound: 1 store found by name in the 2 C files under the source root, 1 that may not fit left as it is (--allow-truncation): st_table.c:72" "--allow-truncation lists it"
	assert_grep "$T/out" "  build once with -Wconversion: a store the scan cannot see (through a macro or a pointer) is then a warning" "-Wconversion line"
	assert_eq "$(sums "$T/ns")" "$s1" "files after the refusals"
fi

tcase "--saturate: entries_start's store clamps; -Wconversion quiet; storing 300 reads 255"
if stores_tree "$T/ns" && need patch; then
	(cd "$T/ns" && "$CC" -O0 st_table.c main.c -o before && ./before) >"$T/before.txt" 2>&1
	assert_eq "$(cat "$T/before.txt")" 300 "before the patch: 300"
	at_dir "$T/ns" sf patch -t st_table --narrow entries_start=1 --saturate st_table.o
	assert_eq "$RC" 0 "exit status: $(head -c 300 "$T/err")"
	cp "$T/out" "$T/sat.diff"
	assert_grep "$T/sat.diff" "  entries_start: 2 stores found by name in the 2 C files under the source root, 1 a literal in 0..255, 1 rewritten to saturate (st_table.c:66)" "header: the stores"
	assert_grep "$T/sat.diff" "+	{ unsigned long long sf_v_ = (unsigned long long)(start); tab->entries_start = (unsigned char)(sf_v_ > 255u ? 255u : sf_v_); }" "the store, clamped, its value read once"
	assert_grep "$T/sat.diff" "+	unsigned char entries_start; /* 0..255 (was st_index_t): check that every value fits */" "the member narrowed"
	(cd "$T/ns" && patch -p1 <"$T/sat.diff") >"$T/apply.log" 2>&1
	assert_eq "$?" 0 "patch -p1: $(head -c 200 "$T/apply.log")"
	(cd "$T/ns" && "$CC" -g -Wall -Wextra -Wconversion -c st_table.c -o st_new.o) >"$T/wconv.txt" 2>&1
	assert_eq "$?" 0 "compiles"
	assert_eq "$(cat "$T/wconv.txt")" "" "no warning under -Wconversion"
	assert_eq "$(show_size "$T/ns/st_new.o" st_table)" 40 "48 -> 40 bytes"
	(cd "$T/ns" && "$CC" -O0 st_table.c main.c -o after && ./after) >"$T/after.txt" 2>&1
	assert_eq "$(cat "$T/after.txt")" 255 "stores 300, reads 255"
	assert_eq "$(grep -c 'sf_v_' "$T/ns/st_table.c")" 1 "the literal 0 is left as it is"
fi

tcase "usage: -t is required, --help, unknown options in one line"
sf patch st_table.o
assert_eq "$RC" 2 "no -t"
sf patch -t st_table --bogus st_table.o
assert_eq "$RC" 2 "unknown option"
assert_eq "$(cat "$T/err")" "structfit: patch: unknown option '--bogus'; see 'structfit patch --help'" "message"
sf patch -t st_table --source-root
assert_eq "$RC" 2 "missing value"
assert_eq "$(cat "$T/err")" "structfit: patch: option '--source-root' needs a value" "message"
sf_ok patch --help
assert_grep "$T/out" "usage: structfit patch -t NAME" "help text"

tdone
