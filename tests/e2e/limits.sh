#!/bin/bash
# tests/e2e/limits.sh - numbers and names past what fixed-size storage
# holds: a type name longer than any buffer it was once copied into must
# be found by -t exactly as show prints it.  Sources compiled here from
# testdata/limits/; the oracle for sizes is the compiler's own sizeof (the
# symbol sizes nm -S reports for a variable of each type).
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

tdone
