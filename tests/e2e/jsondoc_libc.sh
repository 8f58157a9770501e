#!/bin/bash
# tests/e2e/jsondoc_libc.sh - structfit's own JSON document of a whole real
# input, libc6-dbg's debug files, answers every command as the files do:
# show, holes, suggest, fit, check (and --baseline), diff (either side).
# jsondoc.sh holds the rest (the corpus, Rust, bad documents, merging); this
# part compares the shipped build's output on a whole library, and runs on
# ./structfit in make test (Makefile: TEST_E2E_PLAIN).
. "$(dirname "$0")/lib.sh"

LIBC=$(libc_dbg_dir || echo /nonexistent/libc6-dbg)
O=$T/st_table.o

tcase "libc6-dbg: every command on its document = on the debug files"
compile gcc x86_64 5 "$O" "$TD/example/st_table.c" || fail "st_table.c does not build"
if [ ! -d "$LIBC" ]; then
	missing "libc6-dbg is not installed"
else
	sf show --format json "$LIBC"
	cp "$T/out" "$T/libc.json"
	for args in "show" "show --format json" "show --origin" "holes" "holes --format json" \
		"holes -m 0 -s name" "suggest -t malloc_state" "suggest -t malloc_state -f json" \
		"fit -t malloc_state -k jemalloc --reorder" "fit -t pthread_attr_t -k glibc -f json"; do
		# shellcheck disable=SC2086
		doc_same "libc: $args" $args "$LIBC" -- $args "$T/libc.json"
	done
	"$SF" check --write-budget "$T/libc.budget" "$LIBC" >/dev/null 2>&1
	# (a rule write-budget writes for a union only some files define
	# cannot hold on the build itself: left out)
	grep -v querybuf "$T/libc.budget" >"$T/libc2.budget"
	doc_same "libc: check" check --budget "$T/libc2.budget" -f json "$LIBC" -- \
		check --budget "$T/libc2.budget" -f json "$T/libc.json"
	doc_same "libc: check --baseline" check --budget "$T/libc2.budget" --baseline "$LIBC" "$LIBC" -- \
		check --budget "$T/libc2.budget" --baseline "$T/libc.json" "$LIBC"
	SUBST="s|$T/libc.json|$LIBC|g"
	doc_same "libc: diff" diff -f json "$LIBC" "$LIBC" -- diff -f json "$T/libc.json" "$LIBC"
	doc_same "libc: diff against an object" diff "$LIBC" "$O" -- diff "$T/libc.json" "$O"
	SUBST=
fi

tdone
