#!/bin/bash
# tests/e2e/limits.sh - numbers and names past what fixed-size storage
# holds: a type name longer than any buffer it was once copied into must
# be found by -t exactly as show prints it; a size or a sum of sizes past
# 64 bits must not wrap to a small number that passes a budget, but be said
# not representable (lib/checked.h).  Sources compiled here from
# testdata/limits/ and testdata/hostile/huge_size.s; the oracle for sizes
# is the compiler's own sizeof (the symbol sizes nm -S reports for a
# variable of each type), for the huge ones Python's exact integers on the
# sizes the assembly source states.
. "$(dirname "$0")/lib.sh"

LD=$TD/limits

# sym_size OBJ SYM: the size nm -S gives SYM, in decimal.
sym_size() {
	local hex
	hex=$(nm -S "$1" | awk -v s="$2" '$4 == s { print $2 }')
	[ -n "$hex" ] && echo $((16#$hex))
}

# summary_size: the "size: N" of the report in $T/out.
summary_size() {
	sed -n 's/.*\/\* size: \([0-9]*\),.*/\1/p' "$T/out" | head -n 1
}

tcase "a 2,055-character C++ template name that show prints is found by -t"
if need g++ nm && { g++ -g -O0 -c -o "$T/ln.o" "$LD/long_name.cpp" 2>"$T/cc.err" ||
	{ fail "g++ cannot build long_name.cpp: $(head -n 2 "$T/cc.err" | tr '\n' ' ')"; false; }; }; then
	sf_ok show "$T/ln.o"
	box=$(sed -n 's/^struct \(Box<.*\) {$/\1/p' "$T/out")
	assert_eq "${#box}" 2055 "length of the Box<...> name show prints"
	want=$(sym_size "$T/ln.o" box)
	for name in "$box" "struct $box" "  $box " "Box<abcdefgh*"; do
		sf_ok show -t "$name" "$T/ln.o"
		assert_eq "$(head -n 1 "$T/out")" "struct $box {" "show -t '${name:0:20}...': header"
		assert_eq "$(summary_size)" "$want" "show -t '${name:0:20}...': size against sizeof"
	done
	sf_ok fit -t "$box" --classes 32,64 "$T/ln.o"
	assert_eq "$(head -n 1 "$T/out")" "$box $want bytes" "fit -t: name and size against sizeof"
fi

tcase "a 1,024-character C struct name is found by -t (show, suggest, patch)"
# written out in the source, not made by macros: patch must find it there
long=$(printf 'abcdefgh%.0s' $(seq 128))
printf 'struct %s {\n\tchar c;\n\tlong l;\n\tchar d;\n} v;\n' "$long" >"$T/ln.c"
if need gcc nm && { gcc -g -O0 -c -o "$T/lnc.o" "$T/ln.c" 2>"$T/cc.err" ||
	{ fail "gcc cannot build the C source: $(head -n 2 "$T/cc.err" | tr '\n' ' ')"; false; }; }; then
	sf_ok show "$T/lnc.o"
	name=$(sed -n 's/^struct \([a-h]*\) {$/\1/p' "$T/out")
	assert_eq "${#name}" 1024 "length of the name show prints"
	sf_ok show -t "struct $name" "$T/lnc.o"
	assert_eq "$(summary_size)" "$(sym_size "$T/lnc.o" v)" "show -t: size against sizeof"
	sf_ok suggest -t "$name" "$T/lnc.o"
	sf_ok patch -t "$name" --source-root "$T" "$T/lnc.o"
	assert_grep "$T/out" "+++ " "patch -t: a diff for the 24-byte struct"
fi

tcase "diff: the largest of 70 same-named definitions, not of the first 64"
# 70 compile units, each with its own struct s of i bytes (i = 1..70; the
# new build's last one 100), linked into one object each: diff compares
# each side's largest definition, the sources' 70 and 100 bytes
if need gcc; then
	ok=1
	for side in old new; do
		mkdir "$T/$side"
		for i in $(seq 1 70); do
			sz=$i
			[ "$i" = 70 ] && [ "$side" = new ] && sz=100
			printf 'struct s { char c[%d]; } v%d;\n' "$sz" "$i" >"$T/$side/u$i.c"
		done
		# one gcc for the 70 units; linked in the units' order
		(cd "$T/$side" && gcc -g -O0 -c $(seq -f 'u%g.c' 1 70) &&
			gcc -r -o "$T/$side.o" $(seq -f 'u%g.o' 1 70)) 2>"$T/cc.err" || ok=
	done
	if [ -z "$ok" ]; then
		fail "gcc cannot build the 70 units: $(head -n 2 "$T/cc.err" | tr '\n' ' ')"
	else
		sf_ok diff "$T/old.o" "$T/new.o"
		assert_match "$(head -n 1 "$T/out")" "^struct s: 70 -> 100 bytes \\(\\+30\\)" \
			"the largest definitions compared"
	fi
fi

# --------------------------------------------------------- huge sizes
# huge_size.s: struct max is 2^64-1 bytes, struct big 2^63, struct wide 16
HUGE=$T/huge.o
gcc -c -Wa,-I"$TD/hostile" -o "$HUGE" "$TD/hostile/huge_size.s" 2>"$T/as.err" ||
	HUGE_ERR=$(head -n 2 "$T/as.err" | tr '\n' ' ')
py() { "$PY" -S -c "print($1)"; }

# huge_ok: the object assembled, or the case fails saying why
huge_ok() {
	[ -z "${HUGE_ERR:-}" ] && return 0
	fail "cannot assemble huge_size.s: $HUGE_ERR"
	return 1
}

# assert_unrepresentable CMD WHAT: the last run ended in exit 2, nothing on
# stdout and one line saying the size of WHAT is not representable
assert_unrepresentable() {
	assert_eq "$RC" 2 "$1: exit status"
	assert_eq "$(cat "$T/err")" \
		"structfit: $HUGE: $2: the size is not representable (2^64-1 bytes or more)" \
		"$1: the one-line error"
	assert_eq "$(wc -c <"$T/out")" 0 "$1: nothing on stdout"
}

tcase "show: the cachelines of a 2^64-1-byte struct do not wrap to 0"
if huge_ok; then
	sf_ok show -t max "$HUGE"
	assert_grep "$T/out" "size: $(py '2**64 - 1'), cachelines: $(py '-(-(2**64 - 1) // 64)')," \
		"size and cachelines (ceil(size / 64))"
	sf_ok show -t big --cacheline 128 "$HUGE"
	assert_grep "$T/out" "size: $(py '2**63'), cachelines: $(py '2**63 // 128')," \
		"2^63 bytes in 128-byte lines"
fi

tcase "fit: a sum past 64 bits is an error, not 15 bytes; one that fits is exact"
if huge_ok; then
	for t in max+wide big+big max wide+max; do
		sf fit -t "$t" --classes 32,64 "$HUGE"
		assert_unrepresentable "fit -t $t" "${t//+/ + }"
	done
	sf_ok fit -t big+wide --classes 32,64 "$HUGE"
	assert_eq "$(head -n 1 "$T/out")" "big $(py '2**63') + wide 16 = $(py '2**63 + 16') bytes" \
		"fit -t big+wide: the exact sum"
	sf fit -t max --overhead 8 --classes 32,64 "$HUGE"
	assert_unrepresentable "fit -t max --overhead 8" "max + 8 bytes"
fi

tcase "suggest: header + size past 64 bits is an error, not a small class"
if huge_ok; then
	for a in "max --header 16:max + header 16" "max --classes 32,64:max" \
		 "big --header big:big + header big"; do
		args=${a%%:*} what=${a#*:}
		# shellcheck disable=SC2086
		sf suggest -t $args "$HUGE"
		assert_unrepresentable "suggest -t $args" "$what"
	done
	sf_ok suggest -t big --header 16 --classes 32,64 "$HUGE"
	assert_grep "$T/out" "with the 16-byte header: $(py '2**63 + 16') bytes, above every class" \
		"suggest -t big --header 16: the exact sum"
fi

tcase "check: every rule on a size past 64 bits fails, saying so; others still hold"
if huge_ok; then
	cat >"$T/huge.budget" <<EOB
struct max + struct wide size <= 16
struct max cachelines <= 1
struct max size >= 1
struct max members <= 1
struct max fits 64 in 32,64
struct big + struct big size >= 1
struct big + struct wide size == $(py '2**63 + 16')
struct big + struct wide cachelines == $(py '-(-(2**63 + 16) // 64)')
struct wide size <= 16
EOB
	sf check -b "$T/huge.budget" "$HUGE"
	assert_eq "$RC" 1 "exit status: rules broken"
	for l in 1 2 3 4 5 6; do
		assert_eq "$(grep -c "^$T/huge.budget:$l: .*: size is not representable (2^64-1 bytes or more), budget says" "$T/out")" 1 \
			"rule on line $l fails as not representable"
	done
	for l in 7 8 9; do
		assert_no_grep "$T/out" "$T/huge.budget:$l:" "rule on line $l (representable) holds"
	done
	assert_grep "$T/out" "6 of 9 rules broken" "the summary"
fi

tdone
