#!/bin/bash
# tests/e2e/tmplpatch.sh - `structfit patch` on C++ class templates, built
# at test time with g++ and clang++ (-std=c++17 -Wall -Wextra -Werror -g)
# from testdata/tmplpatch, once per compiler:
#
#   Rec<T>   instantiated as Rec<long> and Rec<int>: the order planned for
#            Rec<long> shrinks both, so the primary template is patched
#            (its constructor's initializer list too); the program then
#            builds warning-free, prints the same, and both instantiations
#            have the sizes the header promised; the struct it holds by
#            value (Mark) changed since the build is a refusal;
#   Holder   a class with a polymorphic base holding Slot<char> and Pool<8>
#            (whose member is Pool<8>::Item *) by value: patched (what it
#            holds is read as its source declares it), in the same rebuild;
#   Slot<T>  instantiated as Slot<long> and Slot<char>: the order that
#            shrinks Slot<long> makes Slot<char> grow (8 -> 12): refused,
#            naming Slot<char>; and the explicit specialization Slot<int>,
#            which declares its own members: refused.
#
# -t 'Rec<long>' reaches the instantiation gcc names Rec<long int> (and
# -t 'Slot<long int>' the one clang names Slot<long>).  A member whose type
# is a template parameter (Rec's x) is never narrowed; another (count) is,
# keeping its default member initializer.  No refusal writes a file.

. "$(dirname "$0")/lib.sh"

FLAGS="-std=c++17 -Wall -Wextra -Werror -g -O0"

# refused DIR NAME ERE [PATCH OPTION...]: patch -t NAME refused in one line
# matching ERE, nothing printed, nothing written (also with --apply).
refused() {
	local d=$1 name=$2 ere=$3
	shift 3
	run env -C "$d" "$SF" patch -t "$name" "$@" prog
	assert_eq "$RC" 2 "exit status of patch -t '$name' $*"
	assert_eq "$(wc -l <"$T/err")" 1 "one line"
	assert_match "$(cat "$T/err")" "$ere" "the refusal"
	assert_eq "$(cat "$T/out")" "" "no patch printed"
	run env -C "$d" "$SF" patch -t "$name" --apply "$@" prog
	assert_eq "$RC" 2 "exit status of patch -t '$name' --apply $*"
	assert_eq "$(git -C "$d" status --porcelain | grep -v prog)" "" "nothing written"
}

# size_of PROG TYPE: the sizeof the program prints for TYPE.
size_of() { "$1" size | awk -v t="$2" '$1 == t { print $2 }'; }

for cxx in g++ clang++; do
	w=$T/$cxx
	tcase "$cxx: Rec<long> and Rec<int> both shrink: the primary template is patched"
	if need "$cxx" git; then
		rm -rf "$w" && mkdir -p "$w" && cp "$TD"/tmplpatch/* "$w"/ &&
			(cd "$w" && git init -q . && git add . &&
				git -c user.email=e2e@structfit -c user.name=e2e commit -qm base)
		if (cd "$w" && "$cxx" $FLAGS -o prog main.cc) 2>"$T/cc.err"; then
			"$w/prog" >"$T/before.txt"
			long0=$(size_of "$w/prog" 'Rec<long>')
			int0=$(size_of "$w/prog" 'Rec<int>')
			run env -C "$w" "$SF" patch -t 'Rec<long>' prog
			assert_eq "$RC" 0 "exit status of patch -t 'Rec<long>'"
			cp "$T/out" "$T/rec.diff"
			hdr=$(grep '^  class template Rec:' "$T/rec.diff")
			# the header names both with their sizes, the asked one first
			long1=$(printf '%s\n' "$hdr" | sed -n "s/.*: Rec<long\( int\)\{0,1\}> $long0 -> \([0-9]*\), .*/\2/p")
			int1=$(printf '%s\n' "$hdr" | sed -n "s/.*, Rec<int> $int0 -> \([0-9]*\)\$/\1/p")
			assert_match "$long1" '^[0-9]+$' "Rec<long>'s promised size in '$hdr'"
			assert_match "$int1" '^[0-9]+$' "Rec<int>'s promised size in '$hdr'"
			[ -n "$long1" ] && [ "$long1" -lt "$long0" ] || fail "Rec<long> does not shrink: $long0 -> $long1"
			[ -n "$int1" ] && [ "$int1" -lt "$int0" ] || fail "Rec<int> does not shrink: $int0 -> $int1"
			assert_grep "$T/rec.diff" "1 constructor initializer list put in the new declaration order" "the constructor's list"
			# Holder: a polymorphic base, Slot<char> and Pool<8> held by value
			hold0=$(size_of "$w/prog" Holder)
			run env -C "$w" "$SF" patch -t Holder prog
			assert_eq "$RC" 0 "exit status of patch -t Holder: $(head -n 1 "$T/err")"
			cp "$T/out" "$T/holder.diff"
			hold1=$(sed -n "s/^structfit patch: class Holder in holder.h: $hold0 -> \([0-9]*\) bytes.*/\1/p" "$T/holder.diff")
			[ -n "$hold1" ] && [ "$hold1" -lt "$hold0" ] || fail "Holder does not shrink: $hold0 -> $hold1"
			if git -C "$w" apply --check "$T/rec.diff" "$T/holder.diff" 2>"$T/apply.err" &&
				git -C "$w" apply "$T/rec.diff" "$T/holder.diff"; then
				if (cd "$w" && "$cxx" $FLAGS -o prog2 main.cc) 2>"$T/cc2.err"; then
					"$w/prog2" >"$T/after.txt"
					assert_eq "$(cat "$T/after.txt")" "$(cat "$T/before.txt")" "the program's output"
					assert_eq "$(size_of "$w/prog2" 'Rec<long>')" "$long1" "rebuilt sizeof(Rec<long>)"
					assert_eq "$(size_of "$w/prog2" 'Rec<int>')" "$int1" "rebuilt sizeof(Rec<int>)"
					assert_eq "$(size_of "$w/prog2" Holder)" "$hold1" "rebuilt sizeof(Holder)"
				else
					fail "the patched program does not build: $(head -n 4 "$T/cc2.err" | tr '\n' ' ')"
				fi
				git -C "$w" checkout -q -- .
			else
				fail "the diff does not apply: $(head -n 3 "$T/apply.err" | tr '\n' ' ')"
			fi
		else
			fail "$cxx cannot build: $(head -n 4 "$T/cc.err" | tr '\n' ' ')"
		fi
	fi

	tcase "$cxx: Slot<long>'s order makes Slot<char> grow; the specialization Slot<int>; a narrowed T; a stale held struct: refused"
	if need "$cxx" git; then
		if [ -x "$w/prog" ]; then
			# what is refused is a real saving: suggest still offers it
			sf_ok suggest -t 'Slot<long>' "$w/prog"
			assert_grep "$T/out" "24 -> 16" "suggest's proposal for Slot<long int>"
			line=$(grep -n '^template <class T> struct Slot' "$w/slot.h" | cut -d: -f1)
			grows="^structfit: slot.h:$line: struct Slot<long( int)?>: the new order of the class template's members makes its instantiation Slot<char> grow \(8 -> 12 bytes\); not patched\$"
			refused "$w" 'Slot<long int>' "$grows"
			refused "$w" 'Slot<long>' "$grows"
			line=$(grep -n '^template <> struct Slot<int>' "$w/slot.h" | cut -d: -f1)
			refused "$w" 'Slot<int>' "^structfit: slot.h:$line: struct Slot<int>: an explicit or partial specialization, declaring members of its own; patch rewrites only a primary template\$"
			refused "$w" 'Rec<long>' "^structfit: rec.h:[0-9]+: class Rec<long( int)?>: 'x' has a type that depends on a template parameter" --narrow x=4
			# Rec holds struct Mark: a Mark changed since the build is a refusal
			# naming it (the held structs of the instantiation, not of the template)
			sed -i 's/^	char kind;/	short kind;/' "$w/rec.h"
			run env -C "$w" "$SF" patch -t 'Rec<long>' prog
			assert_eq "$RC" 2 "exit status of patch with struct Mark changed"
			assert_match "$(cat "$T/err")" "member 'mark' holds struct Mark by value, and rec.h: struct Mark: member 'kind' \(line [0-9]+\) is declared 'short kind'" "the stale Mark"
			git -C "$w" checkout -q -- rec.h
			# count's type is no parameter: narrowed, its initializer kept
			run env -C "$w" "$SF" patch -t 'Rec<long>' --narrow count=2 prog
			assert_eq "$RC" 0 "exit status of patch --narrow count=2"
			assert_match "$(grep '^+.*count' "$T/out")" '^\+	(short|int16_t) count = 3; ' "narrowed count keeps '= 3'"
		else
			fail "no program built by the case before"
		fi
	fi
done

tdone
