#!/bin/bash
# tests/e2e/newcomer.sh - what a new user trips on (issue 25, items 4 and 6):
#
#  - a budget's bytes in holes are `hole_bytes`; `holes` is read the same
#    for one release, with a one-line deprecation note on stderr;
#  - did you mean: a type (-t), a command or a budget rule's type that is
#    not found gets the nearest names after the one-line error, as git
#    does (edit distance, case ignored, a qualified name's last component);
#  - holes: a filter that leaves no type is an error (exit 2) naming the
#    filter, as the README says, for --min-waste, --reorderable and --under;
#  - check --write-budget pins the project's own types (--exclude-system
#    always, --under DIR), and --baseline says a rule the baseline broke too
#    fails, instead of "all rules hold";
#  - patch --apply says which file it wrote; --under DIR that is missing, an
#    ambiguous --so: said in the option's words;
#  - suggest: a move whose member keeps its offset is said as a move of its
#    declaration, with the members that do move in memory;
#  - patch's stale-source check covers the structs held by value, at any
#    depth: patching stats, then server without a rebuild, is refused;
#
# Every value is computed at test time from testdata/newcomer/, compiled here.
. "$(dirname "$0")/lib.sh"

ND=$TD/newcomer
compile_or_fail gcc x86_64 5 "$T/proj.o" "$ND/proj.c"
need g++ && g++ -g -c -o "$T/net.o" "$ND/net.cpp" 2>"$T/cc.err" ||
	fail "g++ cannot compile net.cpp: $(head -n 2 "$T/cc.err")"

# hint WHAT NAME...: git's "did you mean" lines after the error line
hint() {
	local what=$1
	shift
	if [ $# = 1 ]; then
		printf '\nThe most similar %s is\n' "$what"
	else
		printf '\nThe most similar %ss are\n' "$what"
	fi
	printf '\t%s\n' "$@"
}

tcase "check: hole_bytes is bytes in holes; 'holes' still reads as bytes, with a note"
printf 'struct conn  hole_bytes <= 2\nstruct inner hole_bytes == 7  size <= 16\n' >"$T/new.budget"
sf check --budget "$T/new.budget" "$T/proj.o"
assert_eq "$RC" 1 "exit status (conn's holes break the rule)"
# conn: char, 7 bytes, long, char, 3 bytes, int: 10 bytes in 2 holes
assert_eq "$(sed -n 1p "$T/out" | sed 's/ (declared.*//')" "$T/new.budget:1: struct conn: hole_bytes is 10, budget says hole_bytes <= 2" "failure line"
assert_eq "$(cat "$T/err")" "" "no note for hole_bytes"
sed 's/hole_bytes/holes/' "$T/new.budget" >"$T/old.budget"
sf check --budget "$T/old.budget" "$T/proj.o"
assert_eq "$RC" 1 "exit status, old word"
assert_eq "$(sed -n 1p "$T/out" | sed 's/ (declared.*//')" "$T/old.budget:1: struct conn: hole_bytes is 10, budget says hole_bytes <= 2" "same failure"
assert_eq "$(cat "$T/err")" "structfit: $T/old.budget:1:14: note: 'holes' in a budget is deprecated: write 'hole_bytes' (bytes in holes, as 'holes' is read for now); 2 rules use it" "one-line note"
sf_ok holes "$T/proj.o"
assert_eq "$(awk '$NF ~ /proj.c/ && $(NF-1) == "conn" { print $3 }' "$T/out")" 2 "holes' column counts conn's holes"

tcase "did you mean: -t innr, -t Conn (net::Conn), -t 'struct con', -t zzzzzz"
sf show -t innr "$T/proj.o"
assert_eq "$RC" 2 "exit status"
assert_eq "$(cat "$T/err")" "$(printf "structfit: %s: type 'innr' not found\n" "$T/proj.o"; hint type inner)" "innr -> inner"
assert_eq "$(wc -c <"$T/out")" 0 "nothing on stdout"
sf suggest -t Conn "$T/net.o"
assert_eq "$RC" 2 "exit status, Conn"
assert_eq "$(cat "$T/err")" "$(printf "structfit: %s: type 'Conn' not found\n" "$T/net.o"; hint type net::Conn)" "Conn -> net::Conn (last component)"
sf show -t 'struct con' "$T/proj.o"
assert_eq "$(sed -n '2,$p' "$T/err")" "$(hint type 'struct conn')" "kind word kept"
sf fit -t zzzzzz -k 64 "$T/proj.o"
assert_eq "$RC" 2 "exit status, nothing near"
assert_eq "$(cat "$T/err")" "structfit: $T/proj.o: type 'zzzzzz' not found" "no hint when nothing is near"
# the hint is the same whether -t read only some names or all: suggest
# reads -t's name only, holes everything; what the hint lists is the same
sf show -t CONN "$T/proj.o" "$T/net.o"
assert_eq "$(sed -n '2,$p' "$T/err")" "$(hint type conn net::Conn)" "case ignored, two at distance 0, by name"

tcase "did you mean: a mistyped command, and 'help CMD'"
sf shwo "$T/proj.o"
assert_eq "$RC" 2 "exit status"
assert_eq "$(cat "$T/err")" "$(printf "structfit: 'shwo' is not a structfit command; see 'structfit --help'\n"; hint command show)" "shwo -> show"
sf help chek
assert_eq "$RC" 2 "exit status, help"
assert_eq "$(sed -n '2,$p' "$T/err")" "$(hint command check)" "chek -> check"
sf frobnicate
assert_eq "$(wc -l <"$T/err")" 1 "nothing near: the one line"

tcase "did you mean: a budget rule's type"
printf 'struct conn size <= 64\nstruct con  size <= 64\n' >"$T/typo.budget"
sf check --budget "$T/typo.budget" "$T/proj.o"
assert_eq "$RC" 2 "exit status"
assert_eq "$(sed -n 1p "$T/err")" "structfit: $T/typo.budget:2:1: type 'struct con' not found in $T/proj.o (add 'optional' to the rule if it may be absent)" "error line first"
assert_eq "$(sed -n '2,$p' "$T/err")" "$(hint type 'struct conn')" "con -> struct conn"

# csize DIR NAME [FILE]: sizeof(struct NAME) of DIR/FILE (proj.c), by the
# compiler
csize() {
	printf '#include "%s/%s"\n#include <stdio.h>\nint main(void) { printf("%%zu\\n", sizeof(struct %s)); return 0; }\n' "$1" "${3:-proj.c}" "$2" >"$T/probe.c"
	gcc -o "$T/probe" "$T/probe.c" 2>"$T/cc.err" && "$T/probe"
}

tcase "holes: a filter that leaves nothing is an error naming it, never an empty table"
WASTE=$(( $(csize "$ND" conn) - 1 - 8 - 1 - 4 ))   # conn: char, long, char, int
assert_eq "$WASTE" 10 "conn's waste (sizeof less its members)"
sf_ok holes --min-waste "$WASTE" "$T/proj.o"
assert_eq "$(awk 'NR > 1 { print $NF }' "$T/out" | sed 's/.*\///')" "proj.c:12" "--min-waste $WASTE keeps conn alone"
sf holes --min-waste $((WASTE + 1)) "$T/proj.o"
assert_eq "$RC" 2 "exit status, --min-waste"
assert_eq "$(cat "$T/err")" "structfit: $T/proj.o: no type wastes at least $((WASTE + 1)) bytes (--min-waste $((WASTE + 1)))" "--min-waste message"
assert_eq "$(wc -c <"$T/out")" 0 "no table"
sf holes --reorderable -m 25 "$T/proj.o"
assert_eq "$RC" 2 "exit status, --reorderable -m 25"
assert_eq "$(cat "$T/err")" "structfit: $T/proj.o: no type shrinks by reordering its members (--reorderable) and wastes at least 25 bytes (--min-waste 25)" "--reorderable message"
mkdir -p "$T/docs"
sf holes --under "$T/docs" "$T/proj.o"
assert_eq "$RC" 2 "exit status, --under docs"
assert_match "$(cat "$T/err")" "^structfit: $T/proj.o: every type is declared outside --under $T/docs$" "--under message"
sf holes --min-waste 1000 --format json "$T/proj.o"
assert_eq "$RC" 2 "exit status, json"
assert_eq "$(jget "$T/out" 'd["error"]["message"]')" "no type wastes at least 1000 bytes (--min-waste 1000)" "the JSON error document"

tcase "check --write-budget: the project's own types (--exclude-system always, --under)"
sf_ok check --write-budget - "$T/proj.o"
cp "$T/out" "$T/all.budget"
for t in conn inner tight; do
	assert_grep "$T/all.budget" "struct $t" "pins $t"
	assert_match "$(grep "^struct $t " "$T/all.budget")" "size <= $(csize "$ND" "$t")$" "$t at the compiler's sizeof"
done
assert_no_grep "$T/all.budget" "_IO_FILE" "no system struct pinned"
assert_match "$(grep '^# .* left out' "$T/all.budget")" "^# [1-9][0-9]* types? left out: declared in system headers \(--exclude-system\)$" "says what it left out"
sf_ok check --budget "$T/all.budget" "$T/proj.o"
assert_eq "$(tail -n 1 "$T/out")" "$T/all.budget: all 3 rules hold (3 checks)" "the written budget holds"
mkdir -p "$T/sub" && cp "$ND/proj.c" "$T/sub/" && (cd "$T/sub" && gcc -g -c proj.c) 2>"$T/cc.err"
printf 'struct other { int a; char b; };\nstruct other g_other;\n' >"$T/other.c" && (cd "$T" && gcc -g -c other.c)
sf_ok check --write-budget - --under "$T/sub" "$T/sub/proj.o" "$T/other.o"
assert_eq "$(grep -c '^struct' "$T/out")" 3 "--under keeps proj.c's three"
assert_no_grep "$T/out" "struct other" "other.c is outside --under"
sf check --write-budget - --under "$T/docs" "$T/proj.o"
assert_eq "$RC" 2 "nothing left to pin: exit 2"
assert_eq "$(wc -c <"$T/out")" 0 "no empty budget"
sf check --budget "$T/all.budget" --under "$T/sub" "$T/proj.o"
assert_eq "$RC" 2 "--under goes with --write-budget"

tcase "check --baseline: a rule the baseline broke too fails, said so"
printf 'struct conn  size <= 16\nstruct inner size <= 64\nstruct tight size <= 64\n' >"$T/base.budget"
sf check --budget "$T/base.budget" --baseline "$T/proj.o" "$T/proj.o"
assert_eq "$RC" 0 "exit status (nothing new)"
assert_eq "$(tail -n 1 "$T/out")" "$T/base.budget: 1 rule fails, as in the baseline; the other 2 hold (3 checks), 1 failure already in the baseline (not counted)" "summary"
sf check --budget "$T/base.budget" "$T/proj.o"
assert_eq "$RC" 1 "without --baseline: broken"

tcase "patch --apply says which file it wrote"
mkdir -p "$T/ap" && cp "$ND/proj.c" "$T/ap/" && (cd "$T/ap" && gcc -g -c proj.c) 2>"$T/cc.err"
before=$(csize "$T/ap" conn)
(cd "$T/ap" && "$SF" patch -t conn --apply proj.o) >"$T/out" 2>"$T/err"
assert_eq "$?" 0 "exit status"
assert_eq "$(tail -n 1 "$T/out")" "wrote proj.c" "last line names the file"
assert_eq "$before -> $(csize "$T/ap" conn)" "24 -> 16" "the compiler's sizeof after the patch"

tcase "--under DIR missing, an ambiguous --so: said in the option's words"
(cd "$T" && "$SF" holes --under lib "$T/proj.o") >"$T/out" 2>"$T/err"
assert_eq "$?" 2 "exit status, --under lib"
assert_eq "$(cat "$T/err")" "structfit: --under lib: no such directory (looked for in $(cd "$T" && pwd -P))" "--under lib"
sf holes --so x "$T/proj.o"
assert_eq "$RC" 2 "exit status, --so"
assert_eq "$(cat "$T/err")" "structfit: holes: ambiguous option '--so' (could be --sort or --source-root); see 'structfit holes --help'" "--so"
sf holes --sor name "$T/proj.o"
assert_eq "$RC" 0 "--sor is --sort alone"

tcase "patch: a struct held by value that changed since the build is a refusal"
mkdir -p "$T/nest" && cp "$ND/nested.c" "$T/nest/" && (cd "$T/nest" && gcc -g -c nested.c) 2>"$T/cc.err"
at_nest() { (cd "$T/nest" && "$SF" "$@") >"$T/out" 2>"$T/err"; RC=$?; }
at_nest patch -t stats --apply nested.o
assert_eq "$RC" 0 "stats patched"
at_nest patch -t server nested.o
assert_eq "$RC" 2 "server without a rebuild: refused"
assert_match "$(cat "$T/err")" "^structfit: struct server: member 'st' holds struct stats by value, and nested\.c: struct stats: .*the source changed since the build; the sizes and offsets here are the old build's: rebuild, then patch$" "names the held struct"
assert_eq "$(wc -l <"$T/err")" 1 "one line"
assert_eq "$(wc -c <"$T/out")" 0 "no diff"
at_nest patch -t outer nested.o
assert_eq "$RC" 2 "outer, two levels up: refused"
assert_match "$(cat "$T/err")" "^structfit: struct outer: member 'st' of struct server \(which it holds\) holds struct stats by value" "through server"
# rebuilt, the promise is kept: the size patch says is the compiler's
(cd "$T/nest" && gcc -g -c nested.c) 2>"$T/cc.err"
at_nest patch -t server --apply nested.o
assert_eq "$RC" 0 "after the rebuild: patched"
promised=$(sed -n 's/.*: [0-9]* -> \([0-9]*\) bytes.*/\1/p' "$T/out")
assert_match "$promised" "^[0-9]+$" "a promised size"
assert_eq "$promised" "$(csize "$T/nest" server nested.c)" "promised size = the compiler's sizeof"

tcase "suggest: a declaration that moves while its member keeps its offset"
compile_or_fail gcc x86_64 5 "$T/stays.o" "$ND/stays.c"
# offsetof each member, before and in the proposed order, by the compiler
printf '#include "%s/stays.c"\n#include <stdio.h>\n#define O(s, m) printf("%%zu ", offsetof(struct s, m))\nint main(void) { O(stays, total); O(stays, b); O(stays, c); O(stays_new, total); O(stays_new, b); O(stays_new, c); printf("%%zu %%zu", sizeof(struct stays), sizeof(struct stays_new)); return 0; }\n' "$ND" >"$T/off.c"
gcc -o "$T/off" "$T/off.c" 2>"$T/cc.err" || fail "offset probe: $(head -n 2 "$T/cc.err")"
read -r t0 b0 c0 t1 b1 c1 s0 s1 <<<"$("$T/off")"
assert_eq "$t0 $t1" "8 8" "total keeps offset 8 (compiler)"
sf_ok suggest -t stays "$T/stays.o"
assert_eq "$(grep '^reorder:' "$T/out")" "reorder: $s0 -> $s1 bytes (saves $((s0 - s1))), 1 move: total (its declaration goes after c; its offset $t0 is unchanged); in memory: b ($b0 -> $b1), c ($c0 -> $c1)" "the reorder line"
assert_no_grep "$T/out" "(stays at" "no 'stays at' counted as a move"

tdone
