#!/bin/bash
# tests/e2e/ifblocks.sh - #if blocks in a struct's body move as one unit
# (issue 22 item 6): memcached-like structs in testdata/ifblocks, each with
# members under #ifdef.
#
#   settings  the last member under #ifdef SOCK_COOKIE_ID (72 bytes; pinned
#             at 68, nothing smaller: memcached's case)
#   conn      two blocks: two pointers under TLS, an int under PROXY
#   item      the only 8-byte member under BIG_CAS, a member after it
#   opts      an #ifdef WIDE whose #else declares the member too: the block
#             stays in place (the other branch's size is not in the DWARF)
#
# For each, built with gcc and with clang, the macros on and off:
# `suggest --source-root` promises a size, `patch` from the tree's root
# writes a diff that reaches it, the patched tree is built again with the
# same macros and the compiler's sizeof is the promise, the program runs,
# and the patched headers still compile (-Wall -Wextra -Werror) in the
# other macro setting.  Without --source-root, suggest says in one line
# what keeping the blocks whole costs, only where it costs something.

. "$(dirname "$0")/lib.sh"

ON="-DSOCK_COOKIE_ID -DTLS -DPROXY -DBIG_CAS -DWIDE"

# tree CC: testdata/ifblocks copied to $T/w and built with CC and $DEFS.
tree() {
	rm -rf "$T/w" && cp -r "$TD/ifblocks" "$T/w" || { fail "cannot copy"; return 1; }
	# shellcheck disable=SC2086
	(cd "$T/w" && CC=$1 sh ./build.sh $DEFS && ./prog) >"$T/build.log" 2>&1 ||
		{ fail "$1 $DEFS: does not build: $(tail -n 2 "$T/build.log" | tr '\n' ' ')"; return 1; }
}

# probe CC TYPE [CFLAGS...]: sizeof(struct TYPE) from the tree's headers.
probe() {
	local cc=$1 ty=$2
	shift 2
	printf '#include <stdio.h>\n#include "settings.h"\n#include "conn.h"\n#include "item.h"\n#include "opts.h"\nint main(void) { printf("%%zu\\n", sizeof(struct %s)); return 0; }\n' \
		"$ty" >"$T/probe.c"
	"$cc" -std=c11 -Wall -Wextra -Werror -I"$T/w" "$@" -o "$T/probe" "$T/probe.c" \
		2>"$T/probe.err" && "$T/probe"
}

# round CC TYPE WANT: suggest -R, patch, apply, rebuild, probe; WANT is the
# size expected (the compiler's optimum with the blocks whole, by hand).
round() {
	local cc=$1 ty=$2 want=$3 other
	need "$cc" patch || return 1
	tree "$cc" || return 1
	local before
	# shellcheck disable=SC2086
	before=$(probe "$cc" "$ty" $DEFS) || { fail "probe: $(head -n 2 "$T/probe.err")"; return 1; }
	pushd "$T/w" >/dev/null || return 1
	sf_ok suggest -t "$ty" --source-root . --format json prog
	local promised
	promised=$(jget "$T/out" 'd["reorder"]["size"]')
	sf patch -t "$ty" --source-root . prog
	popd >/dev/null || true
	assert_eq "$RC" 0 "patch exit status ($(head -n 1 "$T/err"))"
	assert_eq "$promised" "$want" "suggest --source-root's size"
	if [ "$promised" = "$before" ]; then
		assert_eq "$(wc -c <"$T/out")" 0 "nothing to patch: no diff"
		assert_grep "$T/err" "nothing to patch" "said why"
	else
		assert_eq "$(sed -n '1s/.* -> \([0-9]*\) bytes.*/\1/p' "$T/out")" "$promised" \
			"patch's header vs suggest --source-root"
		(cd "$T/w" && patch -p1 <"$T/out") >"$T/apply.log" 2>&1 ||
			{ fail "the diff does not apply: $(tail -n 1 "$T/apply.log")"; return 1; }
	fi
	# shellcheck disable=SC2086
	(cd "$T/w" && CC=$cc sh ./build.sh $DEFS && ./prog) >"$T/build.log" 2>&1 ||
		fail "patched tree does not build or run: $(tail -n 2 "$T/build.log" | tr '\n' ' ')"
	# shellcheck disable=SC2086
	assert_eq "$(probe "$cc" "$ty" $DEFS)" "$promised" "$cc's sizeof after the patch"
	if [ -n "$DEFS" ]; then other=""; else other=$ON; fi
	# shellcheck disable=SC2086
	probe "$cc" "$ty" $other >/dev/null ||
		fail "the other macro setting no longer compiles: $(head -n 2 "$T/probe.err")"
}

for cc in gcc clang; do
	DEFS=$ON
	tcase "$cc, macros on: settings, its last member in a block, 72 -> 64"
	round "$cc" settings 64
	assert_grep "$T/out" "the members under the #if on lines 18-20 may move, as one block" "the header says the block moves"
	tcase "$cc, macros on: conn, two blocks, 64 -> 48"
	round "$cc" conn 48
	tcase "$cc, macros on: item, the only 8-byte member in a block, 40 -> 24"
	round "$cc" item 24
	tcase "$cc, macros on: opts, an #else with members: the block stays, 40 -> 32"
	round "$cc" opts 32
	assert_grep "$T/out" "stay whole, in place (another branch declares members" "the header says why"

	DEFS=""
	tcase "$cc, macros off: settings 72 -> 56 (no block compiled)"
	round "$cc" settings 56
	tcase "$cc, macros off: conn, 32 and no smaller: nothing to patch"
	round "$cc" conn 32
	tcase "$cc, macros off: item 24 -> 16"
	round "$cc" item 16
	tcase "$cc, macros off: opts, the #else branch compiled, pinned: 32 -> 24"
	round "$cc" opts 24
done

tcase "suggest without --source-root: one line where the blocks cost part of the saving"
DEFS=$ON
if tree gcc; then
	sf_ok suggest -t opts "$T/w/prog"
	assert_grep "$T/out" "reorder: 40 -> 24 bytes" "the reorder knows no #if"
	assert_grep "$T/out" "#if blocks may cost part of the saving: with those of $T/w/opts.h kept whole, as patch keeps them, the smallest order is 32 bytes (--source-root DIR promises what patch writes)" "the line"
	assert_eq "$(grep -c '#if' "$T/out")" 1 "one line"
	# blocks that may move cost nothing here: no line
	for ty in settings conn item; do
		sf_ok suggest -t "$ty" "$T/w/prog"
		assert_no_grep "$T/out" "#if" "$ty: no line"
	done
	# with --source-root: the blocks are listed, the promise is patch's
	(cd "$T/w" && "$SF" suggest -t opts -R . prog) >"$T/out" 2>"$T/err"
	assert_grep "$T/out" "reorder: 40 -> 32 bytes" "the reorder keeps the block"
	assert_grep "$T/out" "#if block in opts.h kept whole, as patch keeps them: lines 6-10 stay in place" "the list"
fi

tcase "suggest --source-root on a tree without the struct's file: exit 2, one line"
if tree gcc; then
	mkdir -p "$T/empty"
	sf suggest -t settings --source-root "$T/empty" "$T/w/prog"
	assert_eq "$RC" 2 "exit status"
	assert_eq "$(wc -l <"$T/err")" 1 "one line"
	assert_grep "$T/err" "settings.h" "names the file"
fi

tdone
