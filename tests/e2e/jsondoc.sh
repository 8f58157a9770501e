#!/bin/bash
# tests/e2e/jsondoc.sh - structfit's own JSON documents as input.
#
#  - every command that reads a build answers the same on the document
#    `show --format json` wrote of it: show, holes, check (and --baseline),
#    diff (either side, or both), fit and suggest, text and JSON, on the
#    test corpus (testdata's C and C++ sources built with gcc/g++) and on
#    a Rust program (enums with data) (libc6-dbg: jsondoc_libc.sh; suggest
#    and fit on every type of the corpus: jsondoc_types.sh); patch writes the
#    same patch from a document; documents and builds mix in one command;
#  - a `holes --format json` document ranks again the same (holes only);
#  - bad documents are one line naming the file and the JSON path of the
#    first problem, exit 2: truncated, a newer schema, a member without
#    its offset, a string for a number, a holes document given to suggest;
#  - merging: the corpus split over 4 jobs run by GNU parallel, each
#    writing one document, then one `holes`/`show` over the documents
#    equals one run over every object (show and holes documents alike);
#  - memory: a merge of 1,000 generated documents (the corpus's types
#    again in each, one new type each) peaks within 16 MB of a merge of 10
#    (peak RSS by /usr/bin/time), far below the documents' bytes.
. "$(dirname "$0")/lib.sh"

C=$T/corpus
mkdir -p "$C"

tcase "corpus: testdata built with gcc and g++, one document of it"
jsondoc_corpus "$C"
sf show --format json "${objs[@]}"
assert_eq "$RC" 0 "show --format json exit"
cp "$T/out" "$T/corpus.json"
schema_ok "$T/corpus.json"

tcase "corpus: show and holes on the document = on the objects (text, JSON, HTML)"
for args in "show" "show --format json" "show --origin" "show --format html" "show -c 32" \
	"holes" "holes --format json" "holes -m 0 -s name" "holes -s size -l 10" \
	"holes --reorderable" "holes --exclude-system" "holes --format html"; do
	# shellcheck disable=SC2086
	doc_same "$args" $args "${objs[@]}" -- $args "$T/corpus.json"
done

tcase "corpus: check --budget and --baseline on documents = on the objects"
compile_or_fail gcc x86_64 5 "$T/gate.o" "$TD/check/gate.c"
compile_or_fail gcc x86_64 5 "$T/grow.o" "$TD/check/gate.c" -DGROW
"$SF" show --format json "$T/gate.o" >"$T/gate.json"
"$SF" show --format json "$T/grow.o" >"$T/grow.json"
sf check --write-budget "$T/gate.budget" "$T/gate.o"
assert_eq "$RC" 0 "write-budget"
for fmt in text json sarif junit github markdown; do
	doc_same "check -f $fmt" check --budget "$T/gate.budget" -f $fmt "$T/grow.o" -- \
		check --budget "$T/gate.budget" -f $fmt "$T/grow.json"
	doc_same "check --baseline -f $fmt" check --budget "$T/gate.budget" --baseline "$T/gate.o" \
		-f $fmt "$T/grow.o" -- check --budget "$T/gate.budget" --baseline "$T/gate.json" \
		-f $fmt "$T/grow.o"
done
sf check --write-budget "$T/doc.budget" "$T/gate.json"
assert_eq "$RC" 0 "write-budget from a document"
cmp -s <(grep -v '^#' "$T/gate.budget") <(grep -v '^#' "$T/doc.budget") ||
	fail "write-budget from the document differs"

tcase "corpus: diff with a document on either side, or both = on the objects"
compile_or_fail gcc x86_64 5 "$T/before.o" "$TD/diff/before.c"
compile_or_fail gcc x86_64 5 "$T/after.o" "$TD/diff/after.c"
"$SF" show --format json "$T/before.o" >"$T/before.json"
"$SF" show --format json "$T/after.o" >"$T/after.json"
SUBST="s|$T/\([a-z]*\)\.json|$T/\1.o|g"
for fmt in text json github sarif markdown; do
	doc_same "diff -f $fmt old" diff -f $fmt "$T/before.o" "$T/after.o" -- \
		diff -f $fmt "$T/before.json" "$T/after.o"
	doc_same "diff -f $fmt new" diff -f $fmt "$T/before.o" "$T/after.o" -- \
		diff -f $fmt "$T/before.o" "$T/after.json"
	doc_same "diff -f $fmt both" diff -f $fmt --fail-on-growth "$T/before.o" "$T/after.o" -- \
		diff -f $fmt --fail-on-growth "$T/before.json" "$T/after.json"
done
SUBST=
sf diff "$T/before.json" "$T/before.o"
assert_eq "$RC" 0 "a build against its own document"
assert_match "$(cat "$T/out")" '^no layout changes' "no change"

tcase "Rust: enums with data (variants, niches) read back the same"
if ! rustc=$(find_rustc); then
	missing "no rustc"
elif ! rust_build "$rustc" "$TD/rust/yjit.rs" "$T/yjit" yjit; then
	fail "rustc cannot build yjit.rs: $(head -n 2 "$T/rustc.log" | tr '\n' ' ')"
else
	"$SF" show --format json "$T/yjit" >"$T/yjit.json"
	grep -q '"kind":"enum"' "$T/yjit.json" || fail "no enum with data in the document"
	for args in "show" "show --format json" "holes -m 0" "holes --format json"; do
		# shellcheck disable=SC2086
		doc_same "rust: $args" $args "$T/yjit" -- $args "$T/yjit.json"
	done
	for name in $("$PY" -c 'import json, sys
print(" ".join(sorted(set(t["name"] for t in json.load(open(sys.argv[1]))["types"]
                          if t["name"].startswith("yjit::")))))' "$T/yjit.json"); do
		doc_same "rust: suggest -t $name" suggest -t "$name" "$T/yjit" -- suggest -t "$name" \
			"$T/yjit.json"
		doc_same "rust: fit -t $name" fit -f json -k jemalloc --reorder -t "$name" "$T/yjit" -- \
			fit -f json -k jemalloc --reorder -t "$name" "$T/yjit.json"
	done
fi

tcase "patch: the same patch from the document, the tree at hand (-R)"
mkdir -p "$T/src"
cp "$TD/example/st_table.c" "$T/src/st_table.c"
if ! (cd "$T/src" && gcc -g -O0 -c -o st.o st_table.c 2>"$T/cc.err"); then
	fail "gcc cannot build st_table.c"
else
	"$SF" show --format json "$T/src/st.o" >"$T/st.json"
	doc_same "patch --narrow" patch -t st_table --narrow entries_start=1 -R "$T/src" "$T/src/st.o" -- \
		patch -t st_table --narrow entries_start=1 -R "$T/src" "$T/st.json"
	assert_grep "$T/b.out" "+++ b/st_table.c" "a patch of the source"
fi

tcase "a holes document ranks again as the build did (holes only)"
"$SF" holes --format json -m 0 "${objs[@]}" >"$T/holes.json"
schema_ok "$T/holes.json"
for args in "holes" "holes -m 0 -s name" "holes --format json" "holes -s size -l 5"; do
	# shellcheck disable=SC2086
	doc_same "$args" $args "${objs[@]}" -- $args "$T/holes.json"
done
assert_exit 2 "suggest on a holes document" "$SF" suggest -t st_table "$T/holes.json"
assert_eq "$(cat "$T/err")" "structfit: $T/holes.json: \$.command: a \`holes\` document has no \
members; this needs the types whole: give it a \`structfit show --format json\` document" \
	"the one line"
assert_eq "$(wc -l <"$T/err")" 1 "one line"
assert_exit 2 "holes --reorderable on a holes document" "$SF" holes --reorderable "$T/holes.json"

tcase "bad documents: one line with the JSON path of the first problem, exit 2"
head -c 5000 "$T/corpus.json" >"$T/trunc.json"
sed 's|"schema":"structfit/1"|"schema":"structfit/2"|' "$T/corpus.json" >"$T/v2.json"
"$PY" - "$T/corpus.json" "$T" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
def write(name, doc):
    with open(sys.argv[2] + "/" + name, "w") as f:
        json.dump(doc, f)
t = d["types"][3]
del t["members"][1]["offset"]
write("nooffset.json", d)
d = json.load(open(sys.argv[1]))
d["types"][2]["members"][0]["size"] = "8"
write("strsize.json", d)
d = json.load(open(sys.argv[1]))
del d["types"][1]["members"]
write("nomembers.json", d)
d = json.load(open(sys.argv[1]))
d["command"] = "diff"
write("diff.json", d)
PYEOF
check_bad() { # FILE COMMAND EXPECTED-MESSAGE
	local f=$1 cmd=$2 want=$3
	# shellcheck disable=SC2086
	assert_exit 2 "$f" "$SF" $cmd "$T/$f"
	assert_eq "$(cat "$T/err")" "structfit: $T/$f: $want" "$f"
	assert_eq "$(wc -l <"$T/err")" 1 "$f: one line"
}
assert_exit 2 "truncated" "$SF" holes "$T/trunc.json"
assert_match "$(cat "$T/err")" "^structfit: $T/trunc.json: \\\$\\.types\\[[0-9]+\\][^ ]*: .*\\(truncated\\?\\)\$" "trunc.json"
assert_eq "$(wc -l <"$T/err")" 1 "trunc.json: one line"
for cut in 1 100 2000 20000 100000; do
	head -c $cut "$T/corpus.json" >"$T/cut.json"
	assert_exit 2 "cut at $cut" "$SF" show "$T/cut.json"
	assert_match "$(cat "$T/err")" '(truncated\?\)|: missing \(an array expected\))$' "cut at $cut"
done
check_bad v2.json show "\$.schema: \"structfit/2\" is newer than this structfit reads (structfit/1): read it with a newer structfit"
check_bad nooffset.json show "\$.types[3].members[1].offset: missing (a number expected)"
check_bad strsize.json show "\$.types[2].members[0].size: expected a number, found a string"
check_bad nomembers.json holes "\$.types[1].members: missing (an array expected)"
check_bad diff.json show "\$.command: a \`diff\` document carries no types: give a \`structfit show --format json\` document"
printf '{"types":[]}' >"$T/noschema.json"
check_bad noschema.json show "\$: \"types\" before \"schema\" and \"command\": not a document structfit wrote"
printf '{"schema":"structfit/1","command":"show","types":[{"name":1}]}' >"$T/name.json"
check_bad name.json show "\$.types[0].name: expected a string, found a number"
# the error document in a machine format names the file too
assert_exit 2 "error document" "$SF" show --format json "$T/v2.json"
assert_match "$(cat "$T/out")" '"error":\{"file":"[^"]*v2.json"' "error document"

tcase "merge: the corpus over 4 jobs by GNU parallel, then one holes/show = one run"
if ! have parallel; then
	missing "GNU parallel is not installed"
else
	printf '%s\n' "${objs[@]}" >"$T/list"
	split -n l/4 -d "$T/list" "$T/part."
	# each job: one structfit, its slice of the objects, one document
	# shellcheck disable=SC2016
	parallel -j4 --halt now,fail=1 "$SF"' show --format json $(cat {}) > {}.show.json && '"$SF"' holes -m 0 --format json $(cat {}) > {}.holes.json' \
		::: "$T"/part.0? || fail "a parallel job failed"
	docs=("$T"/part.0?.show.json)
	hdocs=("$T"/part.0?.holes.json)
	[ "${#docs[@]}" = 4 ] || fail "${#docs[@]} documents, not 4"
	for args in "holes" "holes --format json" "holes -m 0 -s name" "show" "show --format json" \
		"show --origin"; do
		# shellcheck disable=SC2086
		doc_same "merge: $args" $args "${objs[@]}" -- $args "${docs[@]}"
	done
	doc_same "merge of holes documents" holes "${objs[@]}" -- holes "${hdocs[@]}"
	doc_same "merge of holes documents, json" holes -f json -s name "${objs[@]}" -- \
		holes -f json -s name "${hdocs[@]}"
	# a document and builds mixed in one command
	doc_same "merge: document + objects" show "${objs[@]}" -- show "${docs[0]}" \
		$(cat "$T/part.01" "$T/part.02" "$T/part.03")
	# show --format json over documents: one merged document, read as one
	"$SF" show --format json "${docs[@]}" >"$T/merged.json"
	cmp -s "$T/merged.json" "$T/corpus.json" || fail "the merged document differs from one run's"
fi

tcase "memory: a merge of 1,000 documents stays within 16 MB of a merge of 10"
if [ -n "${HOSTILE_SANITIZED:-}" ]; then
	# ASan keeps freed memory in quarantine: its RSS measures the sanitizer,
	# not structfit's streaming (the plain run measures that)
	skip "peak RSS under ASan measures its quarantine, not the merge (the plain e2e run checks it)"
	tdone
	exit 0
fi
mkdir -p "$T/gen"
"$PY" - "$T/corpus.json" "$T/gen" <<'PYEOF'
import json, sys
base = json.load(open(sys.argv[1]))["types"]
for i in range(1000):
    ts = [dict(t, origin="job%d/%s" % (i, t["origin"])) for t in base]
    u = dict(base[0]); u["name"] = "unique_%d" % i
    ts.append(u)
    with open("%s/d%04d.json" % (sys.argv[2], i), "w") as f:
        f.write('{"schema":"structfit/1","command":"show","types":[\n' +
                ',\n'.join(json.dumps(t, separators=(",", ":")) for t in ts) + '\n]}\n')
PYEOF
if [ ! -x /usr/bin/time ]; then
	missing "/usr/bin/time is not installed"
else
	rss() { /usr/bin/time -f %M -o "$T/rss" "$SF" holes -m 0 "$@" >"$T/m.out" 2>"$T/m.err"; cat "$T/rss"; }
	small=$(rss "$T"/gen/d000?.json "$T"/gen/d0010.json)
	big=$(rss "$T"/gen/*.json)
	bytes=$(cat "$T"/gen/*.json | wc -c)
	n=$(grep -c unique_ "$T/m.out")
	assert_eq "$n" 1000 "1000 unique types ranked"
	[ "$big" -lt $((small + 16384)) ] ||
		fail "peak RSS ${big} KB for 1,000 documents ($((bytes >> 20)) MB), ${small} KB for 10"
fi

tdone
