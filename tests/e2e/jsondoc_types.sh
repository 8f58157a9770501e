#!/bin/bash
# tests/e2e/jsondoc_types.sh - suggest and fit answer the same on the JSON
# document `show --format json` wrote of the test corpus (jsondoc.sh's:
# testdata's C and C++ sources built with gcc/g++) as on its objects, for
# every type, text and JSON.  jsondoc.sh holds the rest; this part, four
# runs per type, compares the shipped build's output and runs on
# ./structfit in make test (Makefile: TEST_E2E_PLAIN).
. "$(dirname "$0")/lib.sh"

tcase "corpus: suggest and fit on the document = on the objects, every type"
C=$T/corpus
mkdir -p "$C"
jsondoc_corpus "$C"
sf show --format json "${objs[@]}"
assert_eq "$RC" 0 "show --format json exit"
cp "$T/out" "$T/corpus.json"

"$PY" -c 'import json, sys
for t in json.load(open(sys.argv[1]))["types"]:
    if t["name"]: print(t["name"])' "$T/corpus.json" | sort -u >"$T/names"
n=0
while read -r name; do
	# each command once, one in text and one in JSON (the other two are
	# the same answers rendered; jsondoc.sh compares suggest's text and
	# fit's JSON on a Rust program's document)
	for args in "suggest --format json" "fit -k jemalloc --reorder"; do
		# shellcheck disable=SC2086
		"$SF" $args -t "$name" "${objs[@]}" >"$T/a.out" 2>"$T/a.err"
		ra=$?
		# shellcheck disable=SC2086
		"$SF" $args -t "$name" "$T/corpus.json" >"$T/b.out" 2>"$T/b.err"
		rb=$?
		n=$((n + 1))
		if [ "$ra" != "$rb" ]; then
			fail "$args -t $name: exit $ra on the build, $rb on the document"
		elif [ "$ra" = 0 ] && ! cmp -s "$T/a.out" "$T/b.out"; then
			fail "$args -t $name: output differs"
		elif [ "$ra" = 2 ] && [ "$(sed 's/^[^:]*: [^:]*: //' "$T/a.err")" != \
			"$(sed 's/^[^:]*: [^:]*: //' "$T/b.err")" ]; then
			fail "$args -t $name: $(cat "$T/a.err") / $(cat "$T/b.err")"
		fi
	done
done <"$T/names"
[ "$n" -ge 150 ] || fail "only $n runs"

tdone
