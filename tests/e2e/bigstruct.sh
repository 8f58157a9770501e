#!/bin/bash
# tests/e2e/bigstruct.sh - suggest and patch on a struct of 300 members
# (testdata/suggest/bigserver.c, modelled on Redis 7.0's redisServer:
# pointers and 64-bit counters mixed with ints, 56 holes).
#
#  - the proposal reaches the smallest size there is: pahole's "sum
#    members" rounded up to the alignment (no hole left), and moves no
#    more members than pahole counts holes (filling holes: a member that
#    a hole follows, moved into another hole, closes both; the old
#    re-sort moved 110);
#  - --max-moves N: at most N moves, sizes never larger for a larger N,
#    the unbounded smallest size in the JSON;
#  - patch --max-moves N --apply on a copy, rebuilt: the compiler's sizeof
#    is what suggest --max-moves N promised, and so for the unbounded patch;
#  - bad --max-moves values: one line, exit 2, nothing on stdout.
. "$(dirname "$0")/lib.sh"

SRC=$TD/suggest/bigserver.c
W=$T/big
mkdir -p "$W"

# sizeof_after_patch ARGS...: patch a fresh copy of bigserver.c with ARGS,
# rebuild it, print the compiler's sizeof(struct bigserver).
sizeof_after_patch() {
	rm -rf "$W/p" && mkdir -p "$W/p" && cp "$SRC" "$W/p/bigserver.c" || return 1
	(cd "$W/p" && gcc -g -c -o bs.o bigserver.c) 2>"$T/cc.err" || return 1
	(cd "$W/p" && "$SF" patch "$@" --apply -t bigserver bs.o) >"$T/patch.out" 2>&1 || return 1
	printf '#include "bigserver.c"\n#include <stdio.h>\nint main(void) { printf("%%zu\\n", sizeof(struct bigserver)); return 0; }\n' >"$W/p/probe.c"
	(cd "$W/p" && gcc -o probe probe.c && ./probe) 2>>"$T/cc.err"
}

tcase "bigserver: the smallest size, fewer moves than holes"
if need gcc pahole && compile_or_fail gcc x86_64 5 "$W/bs.o" "$SRC"; then
	pahole -C bigserver "$W/bs.o" >"$T/pahole.txt" 2>&1
	sum=$(sed -n 's/.*sum members: \([0-9]*\),.*/\1/p' "$T/pahole.txt")
	holes=$(sed -n 's/.*holes: \([0-9]*\), sum holes.*/\1/p' "$T/pahole.txt")
	size=$(sed -n 's/.*size: \([0-9]*\),.*/\1/p' "$T/pahole.txt")
	[ -n "$sum" ] && [ -n "$holes" ] || fail "pahole said nothing on bigserver"
	sf_ok suggest --format json -t bigserver "$W/bs.o"
	cp "$T/out" "$T/big.json"
	schema_ok "$T/big.json"
	assert_eq "$(jget "$T/big.json" 'd["reorder"]["size"]')" "$(( (sum + 7) / 8 * 8 ))" "reorder size = sum of members, rounded"
	assert_eq "$(jget "$T/big.json" 'd["reorder"]["min_size"]')" "$(( (sum + 7) / 8 * 8 ))" "min_size"
	assert_eq "$(jget "$T/big.json" 'd["reorder"]["max_moves"]')" "null" "no bound"
	moves=$(jget "$T/big.json" 'd["reorder"]["moves"]')
	[ "$moves" -ge 1 ] && [ "$moves" -le "$holes" ] ||
		fail "$moves moves for $holes holes"
	assert_eq "$(jget "$T/big.json" 'len(d["reorder"]["moved"])')" "$moves" "moved list"
	got=$(sizeof_after_patch) || fail "patch/rebuild failed: $(head -c 300 "$T/patch.out" "$T/cc.err")"
	assert_eq "$got" "$(( (sum + 7) / 8 * 8 ))" "sizeof after the patch"
	assert_grep "$T/patch.out" "$size -> $got bytes, $moves members moved" "patch's summary"
fi

tcase "bigserver --max-moves N: at most N moves, what the compiler says"
if need gcc && compile_or_fail gcc x86_64 5 "$W/bs.o" "$SRC"; then
	prev=""
	for n in 2 7; do
		sf_ok suggest --max-moves "$n" --format json -t bigserver "$W/bs.o"
		cp "$T/out" "$T/m$n.json"
		schema_ok "$T/m$n.json"
		m=$(jget "$T/m$n.json" 'd["reorder"]["moves"]')
		s=$(jget "$T/m$n.json" 'd["reorder"]["size"]')
		assert_eq "$(jget "$T/m$n.json" 'd["reorder"]["max_moves"]')" "$n" "max_moves in JSON"
		[ "$m" -le "$n" ] && [ "$m" -ge 1 ] || fail "--max-moves $n: $m moves"
		[ -z "$prev" ] || [ "$s" -le "$prev" ] || fail "--max-moves $n: $s bytes, more than with fewer moves ($prev)"
		[ "$s" -gt "$(jget "$T/m$n.json" 'd["reorder"]["min_size"]')" ] ||
			fail "--max-moves $n reaches the unbounded size: pick a smaller N"
		got=$(sizeof_after_patch --max-moves "$n") ||
			fail "patch --max-moves $n: $(head -c 300 "$T/patch.out" "$T/cc.err")"
		assert_eq "$got" "$s" "sizeof after patch --max-moves $n"
		prev=$s
	done
	sf_ok suggest --max-moves 2 -t bigserver "$W/bs.o"
	assert_match "$(grep -- '--max-moves 2' "$T/out")" "more moves reach [0-9]+ bytes" "text says what more moves reach"
fi

tcase "--max-moves: bad values, one line, exit 2"
if need gcc && compile_or_fail gcc x86_64 5 "$W/bs.o" "$SRC"; then
	for v in 0 -1 x 4294967295 1e3 ""; do
		for cmd in suggest patch; do
			assert_exit 2 "$cmd --max-moves '$v'" "$SF" "$cmd" --max-moves "$v" -t bigserver "$W/bs.o"
			assert_eq "$(wc -l <"$T/err")" "1" "$cmd --max-moves '$v': one line"
			assert_eq "$(wc -c <"$T/out")" "0" "$cmd --max-moves '$v': nothing on stdout"
		done
	done
fi

tdone
