#!/bin/bash
# tests/e2e/spelling.sh - one spelling per C type (model/spelling.c).
#
# gcc names a `long` member's type `long int`, clang `long`; g++ names a
# template instance `Slot<long int>`, clang++ `Slot<long>`.  One header
# built by both is one definition, printed as the compiler first seen
# spells it; a gcc and a clang build of one source diff as the same; and
# -t finds an instance whatever the spelling of its arguments.
. "$(dirname "$0")/lib.sh"

SRC=$TD/spelling

tcase "gcc and clang objects of one header linked into one binary: one definition"
if need gcc clang; then
	compile_or_fail gcc x86_64 4 "$T/g.o" "$SRC/gcc_part.c" &&
	compile_or_fail clang x86_64 4 "$T/c.o" "$SRC/clang_part.c" &&
	gcc -o "$T/mixed" "$T/g.o" "$T/c.o" 2>"$T/cc.err" || fail "cannot link: $(head -c 200 "$T/cc.err")"
	# the premise: the two compilers do spell the types apart
	sf_ok show -t sp_rec "$T/c.o"
	assert_grep "$T/out" "unsigned long" "clang spells unsigned long"
	sf_ok show -t sp_rec "$T/mixed"
	assert_eq "$(grep -c '^struct sp_rec {' "$T/out")" 1 "definitions of sp_rec shown"
	assert_no_grep "$T/out" "differing definitions" "no differing definitions"
	assert_no_grep "$T/err" "differing definitions" "no differing definitions note"
	# the first definition seen (gcc's object is linked first) is printed
	assert_grep "$T/out" "short unsigned int" "the compiler's spelling printed"
	sf_ok holes "$T/mixed"
	assert_eq "$(grep -c 'struct sp_rec ' "$T/out")" 1 "sp_rec rows in holes"
fi

tcase "diff of a gcc and a clang build of one source is empty"
if need gcc clang; then
	compile_or_fail gcc x86_64 4 "$T/gb.o" "$SRC/clang_part.c" &&
	compile_or_fail clang x86_64 4 "$T/cb.o" "$SRC/clang_part.c"
	sf_ok diff "$T/gb.o" "$T/cb.o"
	assert_no_grep "$T/out" "retyped" "no member retyped"
	assert_grep "$T/out" "no layout changes" "diff says no layout changes"
	sf_ok diff "$T/cb.o" "$T/gb.o"
	assert_grep "$T/out" "no layout changes" "diff the other way"
fi

tcase "-t 'Slot<long>' finds g++'s Slot<long int>"
if need g++; then
	g++ -g -c -o "$T/gslot.o" "$SRC/slot.cpp" 2>"$T/cc.err" || fail "g++ cannot build slot.cpp"
	sf_ok show -t 'Slot<long>' "$T/gslot.o"
	assert_grep "$T/out" "struct Slot<long int> {" "g++'s spelling printed"
	assert_grep "$T/out" "long int " "member v"
	sf_ok show -t 'Slot<unsigned short>' "$T/gslot.o"
	assert_grep "$T/out" "struct Slot<short unsigned int> {" "unsigned short argument"
	sf_ok show -t 'Pair<const char *, Slot<long>>' "$T/gslot.o"
	assert_grep "$T/out" "struct Pair<char const*, Slot<long int> > {" "clang++'s spelling finds g++'s"
	assert_exit 2 "-t 'Slot<long long>' is another type" "$SF" show -t 'Slot<long long>' "$T/gslot.o"
fi

tcase "a g++ and a clang++ build of one template diff as the same"
if need g++ clang++; then
	g++ -g -c -o "$T/gs.o" "$SRC/slot.cpp" 2>"$T/cc.err" &&
	clang++ -g -c -o "$T/cs.o" "$SRC/slot.cpp" 2>>"$T/cc.err" || fail "cannot build slot.cpp"
	sf_ok diff "$T/gs.o" "$T/cs.o"
	assert_grep "$T/out" "no layout changes" "no change between g++ and clang++"
	assert_grep "$T/out" "3 types compared" "Slot<long>, Slot<unsigned short>, Pair: one each"
	sf_ok show -t 'Slot<long int>' "$T/cs.o"
	assert_grep "$T/out" "struct Slot<long> {" "clang++'s spelling printed"
fi

tdone
