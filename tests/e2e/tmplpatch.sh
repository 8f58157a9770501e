#!/bin/bash
# tests/e2e/tmplpatch.sh - `structfit patch` on C++ class templates, built
# at test time with g++ and clang++ (-std=c++17 -Wall -Wextra -Werror -g)
# from testdata/tmplpatch: Slot<T> instantiated as Slot<long> (its reorder
# shrinks it) and Slot<char>, and the explicit specialization Slot<int>
# with members of its own.
#
# patch does not rewrite templates yet: rewriting the primary template
# would change every instantiation's layout, and only the one named was
# planned.  Each is refused (exit 2, one line naming the instantiation),
# -t 'Slot<long>' reaching the instantiation gcc names Slot<long int>
# (and -t 'Slot<long int>' the one clang names Slot<long>),
# and no file changes.

. "$(dirname "$0")/lib.sh"

FLAGS="-std=c++17 -Wall -Wextra -Werror -g -O0"

# refused DIR NAME SHOWN LINE: patch -t NAME refused in one line naming
# SHOWN (an ERE: g++ names Slot<long int> what clang++ names Slot<long>).
refused() {
	run env -C "$1" "$SF" patch -t "$2" prog
	assert_eq "$RC" 2 "exit status of patch -t '$2'"
	assert_eq "$(wc -l <"$T/err")" 1 "one line"
	assert_match "$(cat "$T/err")" "^structfit: slot.h:$4: struct $3: a class template instantiation; patch does not rewrite templates yet" "the refusal"
	assert_eq "$(cat "$T/out")" "" "no patch printed"
	run env -C "$1" "$SF" patch -t "$2" --apply prog
	assert_eq "$RC" 2 "exit status of patch -t '$2' --apply"
	assert_eq "$(git -C "$1" status --porcelain | grep -v prog)" "" "nothing written"
}

for cxx in g++ clang++; do
	tcase "$cxx: Slot<long> and Slot<char> of one template: refused, nothing written"
	if need "$cxx" git; then
		w=$T/$cxx
		rm -rf "$w" && mkdir -p "$w" && cp "$TD"/tmplpatch/* "$w"/ &&
			(cd "$w" && git init -q . && git add . &&
				git -c user.email=e2e@structfit -c user.name=e2e commit -qm base)
		if (cd "$w" && "$cxx" $FLAGS -o prog main.cc) 2>"$T/cc.err"; then
			# what is refused is a real saving: suggest still offers it
			sf_ok suggest -t 'Slot<long>' "$w/prog"
			assert_grep "$T/out" "24 -> 16" "suggest's proposal for Slot<long int>"
			line=$(grep -n '^template <class T> struct Slot' "$w/slot.h" | cut -d: -f1)
			refused "$w" 'Slot<long int>' 'Slot<long( int)?>' "$line"
			refused "$w" 'Slot<long>' 'Slot<long( int)?>' "$line"
			refused "$w" 'Slot<char>' 'Slot<char>' "$line"
		else
			fail "$cxx cannot build: $(head -n 4 "$T/cc.err" | tr '\n' ' ')"
		fi
	fi

	tcase "$cxx: the explicit specialization Slot<int> with its own members: refused"
	if need "$cxx" git; then
		w=$T/$cxx
		if [ -x "$w/prog" ]; then
			line=$(grep -n '^template <> struct Slot<int>' "$w/slot.h" | cut -d: -f1)
			refused "$w" 'Slot<int>' 'Slot<int>' "$line"
		else
			fail "no program built by the case before"
		fi
	fi
done

tdone
