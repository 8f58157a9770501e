#!/bin/bash
# tests/e2e/newcomer.sh - what a new user trips on (issue 25, items 4 and 6):
#
#  - a budget's bytes in holes are `hole_bytes`; `holes` is read the same
#    for one release, with a one-line deprecation note on stderr;
#
# Every value is computed at test time from testdata/newcomer/, compiled here.
. "$(dirname "$0")/lib.sh"

ND=$TD/newcomer
compile_or_fail gcc x86_64 5 "$T/proj.o" "$ND/proj.c"

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

tdone
