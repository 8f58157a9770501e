#!/bin/bash
# tests/e2e/srcroot.sh - patch's source root and its bounded source search.
#
# A small project is written and built at test time ($P: src/netq.h, the
# struct; src/netq.c and src/use.c include it; include/pub.h a public one):
#  - patch run from / finds the source through DW_AT_comp_dir (the build
#    ran in $P): diff paths relative to it, the header's last line names
#    the root and why, the diff applies there;
#  - an out-of-tree build (compiled in $P/build from ../src): the root is
#    the directory holding both;
#  - a relative DW_AT_comp_dir (-fdebug-prefix-map=$P=.), the object in
#    build/: the nearest directory above it holding src/netq.h;
#  - --source-root still wins (a copy of the project is patched);
#  - refusals name files relative to the root (a stale source, a public
#    type), never the absolute path;
#  - the build's directory gone: the current directory, said; from / or
#    the home directory, refused (too much to search);
#  - an out-of-tree build whose build and source directories share only
#    /tmp or the home directory: that is not taken as the root, said;
#  - a tree of 10,000 generated files (and 2,000 data files) around the
#    project: patch from / answers within a hang detector's 30 s (the time
#    printed), and under strace opens no data file, reads each unrelated
#    C file once (for its #include lines) and lexes only the struct's
#    file, the files naming it and those including them.
. "$(dirname "$0")/lib.sh"

E2E_TIMEOUT=30
P=$T/proj
CC=${CC:-gcc}

# project DIR: the sources of the small project in DIR.
project() {
	mkdir -p "$1/src" "$1/include" "$1/build" || return 1
	cat >"$1/src/netq.h" <<'EOF'
/* a queue */
struct netq {
	char state;
	long head;
	char flags;
	long tail;
};
EOF
	printf '#include "netq.h"\nstruct netq q0;\nvoid reset(struct netq *q) { q->head = 0; }\n' >"$1/src/netq.c"
	printf '#include "netq.h"\n#include "../include/pub.h"\nstruct pub p0;\nlong head(struct netq *q) { return q->head; }\n' >"$1/src/use.c"
	printf 'struct pub {\n\tchar a;\n\tlong b;\n\tchar c;\n};\n' >"$1/include/pub.h"
}

# build: $P compiled from $P (comp dir $P), out of tree, and with a
# relative comp dir.
build() {
	[ -f "$P/build/netq.o" ] && return 0
	project "$P" || return 1
	(cd "$P" && "$CC" -g -c src/netq.c -o build/netq.o &&
		"$CC" -g -c src/use.c -o build/use.o &&
		"$CC" -g -fdebug-prefix-map="$P"=. -c src/netq.c -o build/rel.o &&
		cd build && "$CC" -g -c ../src/netq.c -o oot.o) 2>"$T/cc.err"
}

PR=$(mkdir -p "$P" && cd "$P" && pwd -P)

tcase "from /: the root is DW_AT_comp_dir, said in the header; relative paths"
if need "$CC" git && build; then
	at_dir / run "$SF" patch -t netq "$P/build/netq.o"
	assert_eq "$RC" 0 "exit status: $(head -c 300 "$T/err")"
	assert_grep "$T/out" "structfit patch: struct netq in src/netq.h: 32 -> 24 bytes" "summary"
	assert_grep "$T/out" "  source root: $PR (the build's directory, DW_AT_comp_dir); the diff's paths are relative to it" "the root said"
	assert_grep "$T/out" "--- a/src/netq.h" "diff path relative to the root"
	assert_eq "$(grep -c "^[-+][-+][-+] .*$T" "$T/out")" 0 "no absolute path in the diff"
	assert_eq "$(wc -c <"$T/err")" 0 "nothing on stderr"
	cp "$T/out" "$T/slash.diff"
	(cd "$P" && git apply --check "$T/slash.diff") 2>"$T/apply.err" ||
		fail "git apply --check in the root: $(head -c 300 "$T/apply.err")"
	# from the root itself: the same patch, the root shown as "."
	at_dir "$P" run "$SF" patch -t netq build/netq.o
	assert_grep "$T/out" "  source root: . (the build's directory, DW_AT_comp_dir)" "'.' from the root"
	cmp -s <(grep -v '^  source root: ' "$T/out") <(grep -v '^  source root: ' "$T/slash.diff") ||
		fail "the patch from the root differs from the one from /"
fi

tcase "out-of-tree build: the directory holding the build's and the struct's"
if need "$CC" && build; then
	at_dir / run "$SF" patch -t netq "$P/build/oot.o"
	assert_eq "$RC" 0 "exit status: $(head -c 300 "$T/err")"
	assert_grep "$T/out" "  source root: $PR (holds the build's directory $PR/build, DW_AT_comp_dir, and the struct's file)" "the root said"
	assert_grep "$T/out" "--- a/src/netq.h" "diff path"
fi

tcase "out of tree, sharing only /tmp or \$HOME: refused, said"
if need "$CC"; then
	H=$T/home && mkdir -p "$H/src" "$H/build" && HR=$(cd "$H" && pwd -P)
	printf 'struct wide {\n\tchar a;\n\tlong b;\n\tchar c;\n};\nstruct wide w0;\n' >"$H/src/w.c"
	(cd "$H/build" && "$CC" -g -c "$HR/src/w.c" -o w.o) 2>"$T/cc.err" || fail "$CC: $(head -c 200 "$T/cc.err")"
	HOME=$H at_dir / run "$SF" patch -t wide "$H/build/w.o"
	assert_eq "$RC" 2 "\$HOME: exit status"
	assert_eq "$(cat "$T/err")" "structfit: $HR/src/w.c: outside the source root $HR/build; the directory holding both, $HR, is too much to search: pass --source-root DIR" "\$HOME: the message"
	at_dir / run "$SF" patch -t wide "$H/build/w.o"
	assert_eq "$RC" 0 "another \$HOME: exit status: $(head -c 300 "$T/err")"
	assert_grep "$T/out" "  source root: $HR (holds the build's directory $HR/build, DW_AT_comp_dir, and the struct's file)" "another \$HOME: the root said"
	TA=$(mktemp -d /tmp/sf-broad-a.XXXXXX) && TB=$(mktemp -d /tmp/sf-broad-b.XXXXXX) &&
		cp "$H/src/w.c" "$TB/w.c" && (cd "$TA" && "$CC" -g -c "$TB/w.c" -o w.o) 2>"$T/cc.err" ||
		fail "$CC in /tmp: $(head -c 200 "$T/cc.err")"
	TAR=$(cd "$TA" && pwd -P) TBR=$(cd "$TB" && pwd -P)
	at_dir / run "$SF" patch -t wide "$TA/w.o"
	assert_eq "$RC" 2 "/tmp: exit status"
	assert_eq "$(cat "$T/err")" "structfit: $TBR/w.c: outside the source root $TAR; the directory holding both, $(dirname "$TAR"), is too much to search: pass --source-root DIR" "/tmp: the message"
	at_dir / run "$SF" patch -t wide -R "$TB" "$TA/w.o"
	assert_eq "$RC" 0 "/tmp, --source-root: exit status: $(head -c 300 "$T/err")"
	# the build's directory gone: the current directory is the root, and
	# the file outside it is said plainly (no directory was shared)
	mkdir -p "$T/wobj" && cp "$TA/w.o" "$T/wobj/" && rm -rf "$TA"
	at_dir "$T/wobj" run "$SF" patch -t wide w.o
	assert_eq "$RC" 2 "the current directory: exit status"
	assert_eq "$(cat "$T/err")" "structfit: $TBR/w.c: outside the source root $(cd "$T/wobj" && pwd -P); pass --source-root DIR" "the current directory: the message"
	rm -rf "$TB"
fi

tcase "a relative DW_AT_comp_dir: from the input file's directory up"
if need "$CC" && build; then
	"$SF" show -t netq --format json "$P/build/rel.o" >"$T/rel.json" 2>"$T/err"
	assert_eq "$(jget "$T/rel.json" 't("netq")["comp_dir"]')" "." "the comp dir recorded"
	at_dir / run "$SF" patch -t netq "$P/build/rel.o"
	assert_eq "$RC" 0 "exit status: $(head -c 300 "$T/err")"
	assert_grep "$T/out" "  source root: $PR (the build's directory is '.', DW_AT_comp_dir, relative: taken from the input file's directory, or the nearest above it holding the struct's file)" "the root said"
	assert_grep "$T/out" "--- a/src/netq.h" "diff path"
fi

tcase "--source-root still wins"
if need "$CC" && build; then
	rm -rf "$T/copy" && cp -r "$P" "$T/copy" && sed -i 's|^/\* a queue \*/|/* a queue, copied */|' "$T/copy/src/netq.h"
	at_dir / run "$SF" patch -t netq -R "$T/copy" "$P/build/netq.o"
	assert_eq "$RC" 0 "exit status: $(head -c 300 "$T/err")"
	assert_grep "$T/out" "  source root: $(cd "$T/copy" && pwd -P) (--source-root)" "the root said"
	assert_grep "$T/out" " /* a queue, copied */" "the copy's file is patched"
fi

tcase "refusals name files relative to the root"
if need "$CC" && build; then
	rm -rf "$T/stale" && cp -r "$P" "$T/stale" && sed -i 's/long head;/long first;/' "$T/stale/src/netq.h"
	at_dir / run "$SF" patch -t netq -R "$T/stale" "$P/build/netq.o"
	assert_eq "$RC" 2 "a stale source: exit status"
	assert_match "$(cat "$T/err")" "^structfit: src/netq\.h: struct netq: line 4 declares 'first' where the build's DWARF has 'head'" "relative in the refusal"
	assert_eq "$(wc -l <"$T/err")" 1 "one line"
	at_dir / run "$SF" patch -t pub -R "$P" "$P/build/use.o"
	assert_eq "$RC" 2 "a public type: exit status"
	assert_match "$(cat "$T/err")" "^structfit: struct pub \(include/pub\.h:1\): public ABI" "relative in the public refusal"
	at_dir / run "$SF" patch -t pub "$P/build/use.o"
	assert_match "$(cat "$T/err")" "^structfit: struct pub \(include/pub\.h:1\): public ABI" "relative with the comp dir's root too"
fi

tcase "the build's directory gone: the current directory, said; / and \$HOME refused"
if need "$CC" && build; then
	rm -rf "$T/moved" && cp -r "$P" "$T/moved0" && mv "$T/moved0" "$T/moved"
	mv "$P" "$T/proj.away"
	at_dir "$T/moved" run "$SF" patch -t netq build/netq.o
	assert_eq "$RC" 0 "exit status: $(head -c 300 "$T/err")"
	assert_grep "$T/out" "  source root: . (the current directory: the build's directory $PR is not on this machine)" "the root said"
	assert_grep "$T/out" "--- a/src/netq.h" "diff path"
	at_dir / run "$SF" patch -t netq "$T/moved/build/netq.o"
	assert_eq "$RC" 2 "from /: exit status"
	assert_eq "$(cat "$T/err")" "structfit: struct netq: the build's directory it records is not on this machine; the current directory is /, too much to search: pass --source-root DIR" "from /: the message"
	# the home directory is refused as / is; a project below it is not
	HOME=$T/moved at_dir "$T/moved" run "$SF" patch -t netq build/netq.o
	assert_eq "$RC" 2 "from \$HOME: exit status"
	assert_eq "$(cat "$T/err")" "structfit: struct netq: the build's directory it records is not on this machine; the current directory is $(cd "$T/moved" && pwd -P), too much to search: pass --source-root DIR" "from \$HOME: the message"
	HOME=$T at_dir "$T/moved" run "$SF" patch -t netq build/netq.o
	assert_eq "$RC" 0 "below \$HOME: exit status: $(head -c 300 "$T/err")"
	mv "$T/proj.away" "$P"
fi

# big/: 100 directories of 100 generated C files (2 KB each) and 20 data
# files each, with the project in big/proj; every 997th C file includes
# ../proj/src/netq.h (through a header of its own for every other one)
# and uses the struct.
build_big() {
	[ -f "$T/big/proj/build/netq.o" ] && return 0
	mkdir -p "$T/big" && project "$T/big/proj" || return 1
	"$PY" "$E2E_ROOT/tests/e2e/gentree.py" "$T/big" ../proj/src/netq.h netq head --wrap --data 20 ||
		return 1
	(cd "$T/big" && "$CC" -g -c proj/src/netq.c -o proj/build/netq.o) 2>"$T/cc.err"
}

tcase "10,000 files: from /, bounded, only the files that matter lexed"
if need "$CC" && build_big; then
	start=$(date +%s.%N)
	at_dir / run "$SF" patch --allow-layout-uses -t netq "$T/big/proj/build/netq.o"
	end=$(date +%s.%N)
	assert_eq "$RC" 0 "exit status: $(head -c 300 "$T/err")"
	echo "    -- patch from / over 10,000 C files: $(awk "BEGIN { printf \"%.2f\", $end - $start }") s wall"
	assert_grep "$T/out" "--- a/proj/src/netq.h" "the root holds proj/ (the build ran in big/)"
	assert_grep "$T/out" "d09/f00997.c:4: offsetof(struct netq, ...): must follow the new layout" "a direct includer's use"
	assert_grep "$T/out" "d19/f01994.c:4: offsetof(struct netq, ...): must follow the new layout" "a use through a header"
	assert_eq "$(grep -c 'offsetof(struct netq' "$T/out")" 11 "every use found (0, 997, ... 9970)"
	at_dir / run "$SF" patch --allow-layout-uses --narrow head=4 --allow-truncation -t netq "$T/big/proj/build/netq.o"
	nc=$(find "$T/big" -name '*.[ch]' | wc -l)
	assert_match "$(grep '  head: ' "$T/out")" "^  head: 1 store found by name in the [0-9]+ C files that see the struct \(of $nc under the source root\)" \
		"the stores searched, and of how many"
	if have strace; then
		# LeakSanitizer cannot run under ptrace (the asan stage's binary)
		(cd / && timeout 60 env "ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
			strace -f -qq -e trace=openat -o "$T/strace" \
			"$SF" patch --allow-layout-uses -t netq "$T/big/proj/build/netq.o" >/dev/null 2>&1)
		grep -o "\"$T/big/[^\"]*\"" "$T/strace" | tr -d '"' | sed "s|^$T/big/||" |
			sort | uniq -c | sort -rn >"$T/opens"
		assert_eq "$(grep -c 'data[0-9]*\.txt$' "$T/opens")" 0 "data files opened"
		# every C file read once for its #include lines; more only when lexed
		many=$(awk '$1 > 1 { print $2 }' "$T/opens" | grep -v '^proj/' | sort | tr '\n' ' ')
		want=$(cd "$T/big" && grep -l 'netq' d*/*.[ch] | sort | tr '\n' ' ')
		[ "$many" = "$want" ] || fail "files opened more than once outside proj/ ($(echo "$many" | wc -w)): $(echo "$many" | head -c 300); want those naming netq or including it ($(echo "$want" | wc -w)): $(echo "$want" | head -c 300)"
		echo "    -- files opened: $(awk '{ n += $1 } END { print n }' "$T/opens") opens of $(wc -l <"$T/opens") files; $(echo "$many" | wc -w) outside proj/ lexed"
	else
		skip "strace is not installed: the files opened are not checked"
	fi
fi

tdone
