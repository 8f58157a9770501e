#!/bin/bash
# tests/e2e/cxxpatch.sh - `structfit patch` on C++ classes and structs,
# built at test time with g++ and clang++ (-std=c++17 -Wall -Wextra
# -Werror -g) from testdata/cxxpatch:
#
#   net::Conn  a class with public, protected and private sections, default
#              member initializers, a constructor in the class and one out
#              of line in conn.cc; then (sed, here) one whose initializer
#              reads a member it now passes: refused, then accepted with
#              --allow-init-order, the header naming it;
#   Flags      a struct with a bit-field run (moved as one storage unit);
#   Point      an aggregate initialized by position in main.cc: refused;
#   net::Conn  (g++ only) with `private:` on its first member's line:
#              refused in words (the label's line, the class, the fix).
#
# Each accepted patch: git apply --check and git apply on one copy, patch
# --apply on another (the same files), the program rebuilds warning-free
# with -Werror, prints the same members, and the compiler's sizeof is the
# size the header promised.

. "$(dirname "$0")/lib.sh"

CD=$TD/cxxpatch
FLAGS="-std=c++17 -Wall -Wextra -Werror -g -O0"

# tree DIR: testdata/cxxpatch in DIR, a git repository.
tree() {
	rm -rf "$1" && mkdir -p "$1" && cp "$CD"/* "$1"/ &&
		(cd "$1" && git init -q . && git add . &&
			git -c user.email=e2e@structfit -c user.name=e2e commit -qm base)
}

# build CXX DIR: DIR/prog, or fail the case with the compiler's words.
build() {
	(cd "$2" && "$1" $FLAGS -o prog main.cc conn.cc) 2>"$T/cc.err" && return 0
	fail "$1 cannot build $2: $(head -n 4 "$T/cc.err" | tr '\n' ' ')"
	return 1
}

# sizeof DIR TYPE: sizeof(TYPE) as the program built in DIR prints it.
sizeof() { "$1/prog" size | awk -v t="$2" '$1 == t { print $2 }'; }

# accepted CXX TYPE [OPTIONS...]: the round trip; $T/p.diff is the patch.
accepted() {
	local cxx=$1 type=$2
	shift 2
	tree "$T/a" && tree "$T/b" || { fail "cannot make the trees"; return 1; }
	[ -n "${EDIT:-}" ] && (cd "$T/a" && eval "$EDIT") && (cd "$T/b" && eval "$EDIT")
	build "$cxx" "$T/a" || return 1
	"$T/a/prog" >"$T/before.txt"
	run env -C "$T/a" "$SF" patch -t "$type" "$@" prog
	[ "$RC" = 0 ] || { fail "patch exited $RC: $(head -n 2 "$T/err" | tr '\n' ' ')"; return 1; }
	cp "$T/out" "$T/p.diff"
	local header said
	header=$(head -n 1 "$T/p.diff")
	assert_match "$header" "^structfit patch: (class|struct) $type in [a-z.]+: [0-9]+ -> [0-9]+ bytes" "header"
	said=${header##*-> }
	said=${said%% bytes*}
	run git -C "$T/a" apply --check "$T/p.diff"
	assert_eq "$RC" 0 "git apply --check: $(head -c 200 "$T/err")"
	run git -C "$T/a" apply "$T/p.diff"
	assert_eq "$RC" 0 "git apply: $(head -c 200 "$T/err")"
	cp "$T/a/prog" "$T/b/prog"
	# prog was built in $T/a (its DW_AT_comp_dir, patch's default root):
	# the copy in $T/b is patched by naming its root
	run env -C "$T/b" "$SF" patch -t "$type" "$@" --source-root . --apply prog
	assert_eq "$RC" 0 "patch --apply: $(head -c 200 "$T/err")"
	for f in conn.h conn.cc bits.h agg.h main.cc; do
		cmp -s "$T/a/$f" "$T/b/$f" || fail "git apply and patch --apply differ on $f"
	done
	build "$cxx" "$T/a" || return 1
	"$T/a/prog" >"$T/after.txt"
	assert_eq "$(cat "$T/after.txt")" "$(cat "$T/before.txt")" "the program's output"
	assert_eq "$(sizeof "$T/a" "$type")" "$said" "$cxx's sizeof($type) vs the size promised"
	sf_ok show -t "$type" "$T/a/prog"
	assert_grep "$T/out" "/* size: $said," "structfit show after the patch"
}

for cxx in g++ clang++; do
	tcase "$cxx: net::Conn - three access sections, initializers, two constructors"
	if need "$cxx" git; then
		accepted "$cxx" net::Conn
		assert_grep "$T/p.diff" "--- a/conn.cc" "the out-of-line constructor's file"
		assert_grep "$T/p.diff" "2 constructor initializer lists put in the new declaration order" "note"
		# every member keeps its access: the compiler says so too (a
		# private member read from outside would not build); and the
		# labels: none empty, none repeating the one before
		awk '/^(public|protected|private):/ { if (last ~ /^(public|protected|private):/) print "empty " NR; if ($0 == cur) print "redundant " NR; cur = $0 }
		     NF { last = $0 }' "$T/a/conn.h" >"$T/labels.txt"
		assert_eq "$(cat "$T/labels.txt")" "" "labels in the patched conn.h"
		assert_grep "$T/a/conn.h" "bool open_ = true;   // whether the peer is connected" "initializer and comment moved with open_"
	fi

	tcase "$cxx: an initializer reading a member it now passes: refused, then --allow-init-order"
	if need "$cxx" git; then
		tree "$T/r" || fail "tree"
		sed -i 's/rate_(2.0)/rate_(open_ ? 2.0 : 1.0)/' "$T/r/conn.cc"
		line=$(grep -n 'rate_(open_' "$T/r/conn.cc" | cut -d: -f1)
		rm -rf "$T/r0" && cp -r "$T/r" "$T/r0"
		if build "$cxx" "$T/r"; then
			run env -C "$T/r" "$SF" patch -t net::Conn prog
			assert_eq "$RC" 2 "exit status"
			assert_eq "$(wc -l <"$T/err")" 1 "one line"
			assert_grep "$T/err" "conn.cc:$line: rate_'s initializer reads open_ and would run before it" "both members and file:line"
			diff -r -x prog -x .git "$T/r0" "$T/r" >/dev/null || fail "a file changed"
			run env -C "$T/r" "$SF" patch -t net::Conn --allow-init-order prog
			assert_eq "$RC" 0 "--allow-init-order: $(head -c 200 "$T/err")"
			cp "$T/out" "$T/p.diff"
			assert_grep "$T/p.diff" "conn.cc:$line: rate_'s initializer now runs before open_, which it reads" "the header names it"
			run git -C "$T/r" apply "$T/p.diff"
			assert_eq "$RC" 0 "git apply: $(head -c 200 "$T/err")"
			# what the header warns of is what the compilers then see
			(cd "$T/r" && "$cxx" $FLAGS -o prog main.cc conn.cc) 2>"$T/cc.err" &&
				fail "the patched program builds with -Werror although rate_ now reads open_ first"
			assert_grep "$T/cc.err" "open_" "the compiler's warning names open_"
			assert_grep "$T/cc.err" "uninitialized" "it is -Wuninitialized"
		fi
	fi

	tcase "$cxx: Flags - a bit-field run moves as one storage unit"
	if need "$cxx" git; then
		accepted "$cxx" Flags
		assert_grep "$T/a/bits.h" "unsigned kind : 3, mode : 5;" "the run stays one declaration"
	fi

	tcase "$cxx: Point - an aggregate initialized by position is refused"
	if need "$cxx" git; then
		tree "$T/p" || fail "tree"
		if build "$cxx" "$T/p"; then
			run env -C "$T/p" "$SF" patch -t Point prog
			assert_eq "$RC" 2 "exit status"
			assert_grep "$T/err" "main.cc:9: origin initialized by position" "the place"
			assert_eq "$(git -C "$T/p" status --porcelain | grep -v prog)" "" "nothing written"
		fi
	fi
done

tcase "g++: an access label that shares its line with a member: the refusal worded"
if need g++ git; then
	tree "$T/l" || fail "tree"
	sed -i "s/^private:\$/private: char tag_ = 'c';/; /^    char tag_ = /d" "$T/l/conn.h"
	if build g++ "$T/l"; then
		run env -C "$T/l" "$SF" patch -t net::Conn prog
		assert_eq "$RC" 2 "exit status"
		assert_eq "$(wc -l <"$T/err")" 1 "one line"
		assert_grep "$T/err" "structfit: conn.h:21: class net::Conn: an access label shares its line with other code; put it on a line of its own" "the refusal in words (was 'C++ refusal 1')"
	fi
fi

tdone
