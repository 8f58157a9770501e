#!/bin/bash
# tests/e2e/schema.sh - every command's JSON is one documented schema.
#
#  - doc/structfit.schema.json is a valid JSON Schema (draft 2020-12), and
#    every document show, holes, suggest, fit, classes, check and diff write
#    with --format json - and the error document of a run that fails with
#    exit 2 - validates against it (tests/schema_check.py, Debian's
#    python3-jsonschema); the checker fails when a command is missing;
#  - the schema is strict enough to fail: a document with an old field name
#    ("holes" as a count, "waste" for fit's rounding loss, "type" for a
#    type's name, check's "subject") is refused;
#  - one vocabulary: holes' entries carry the numbers of show's type objects
#    under the same names, check reports as "property" the field of show's
#    type object it measured and "value" equals that field, fit's
#    rounding_loss is class - size, diff's old/new sides carry show's
#    numbers of each build; the values themselves come from pahole and the
#    compiler (sizeof) where they are facts;
#  - show's and holes' documents carry what structfit needs to read them back
#    (type_suffix, the model's fields, the definition's hash).
. "$(dirname "$0")/lib.sh"

SCHEMA=$E2E_ROOT/doc/structfit.schema.json
CHECKER=$E2E_ROOT/tests/schema_check.py
J=$T/json
mkdir -p "$J"

# keep NAME ARGS...: run structfit ARGS (exit 0 or 1), keep stdout as $J/NAME.json.
keep() {
	local name=$1
	shift
	sf "$@"
	case $RC in
	0 | 1) cp "$T/out" "$J/$name.json" ;;
	*) fail "structfit $* exited $RC: $(head -n 2 "$T/err" | tr '\n' ' ')" ;;
	esac
}

tcase "doc/structfit.schema.json is a valid draft 2020-12 schema"
if ! /usr/bin/python3 -c 'import jsonschema' 2>/dev/null; then
	fail "python3-jsonschema is not installed (it is in TEST_PKGS: make test installs it)"
else
	/usr/bin/python3 - "$SCHEMA" >"$T/meta.out" 2>&1 <<'PYEOF' || fail "not a valid schema: $(head -c 300 "$T/meta.out")"
import json, sys
from jsonschema import Draft202012Validator
s = json.load(open(sys.argv[1]))
Draft202012Validator.check_schema(s)
assert s["$schema"] == "https://json-schema.org/draft/2020-12/schema"
PYEOF
fi

tcase "every command's JSON validates against the schema"
ok=1
compile_or_fail gcc x86_64 5 "$T/gate.o" "$TD/check/gate.c" || ok=0
compile_or_fail gcc x86_64 5 "$T/grow.o" "$TD/check/gate.c" -DGROW || ok=0
compile_or_fail gcc x86_64 5 "$T/st.o" "$TD/example/st_table.c" || ok=0
compile_or_fail gcc x86_64 4 "$T/anon.o" "$TD/e2e/anon.c" || ok=0
compile_or_fail gcc x86_64 5 "$T/layouts.o" "$TD/e2e/layouts.c" || ok=0
compile_or_fail clang x86_64 5 "$T/holes.o" "$TD/e2e/holes.c" || ok=0
if ! g++ -g -c -o "$T/cxx.o" "$TD/e2e/cxx_derived.cpp" -I"$TD/e2e" 2>"$T/cc.err"; then
	fail "g++ cannot build cxx_derived.cpp: $(head -n 2 "$T/cc.err" | tr '\n' ' ')"
	ok=0
fi
cat >"$T/gate.budget" <<'EOF'
struct st_table                  size <= 40   # broken: 48
struct RHash + struct st_table   fits 64 in ruby-3.3
struct rb_*                      waste == 0  optional
*                                align <= 64
struct robj                      hole_bytes <= 0  padding <= 0  members >= 1
struct wide                      cachelines <= 1  fits 32 in 32,64
EOF
if [ "$ok" = 1 ]; then
	keep show-gate show --format json "$T/gate.o"
	keep show-anon show --format json "$T/anon.o" "$T/layouts.o" "$T/holes.o"
	keep show-cxx show --format json "$T/cxx.o"
	keep show-none show --format json -t st_table --origin "$T/st.o"
	keep holes holes --format json --min-waste 0 "$T/gate.o" "$T/holes.o"
	keep holes-one holes --format json --limit 1 "$T/st.o"
	# a reorderable type counted (st_table is not reorderable: alone,
	# --reorderable leaves nothing, an error since it is one)
	printf 'st_table 1000000\nmixed 1000\n' >"$T/counts"
	keep holes-live holes --format json --reorderable --counts "$T/counts" "$T/st.o" "$T/layouts.o"
	keep suggest suggest --format json -t st_table -k 64,80 -H RHash "$T/gate.o"
	keep suggest-narrowed suggest --format json -t st_table -n entries_start=1 "$T/st.o"
	keep suggest-union suggest --format json -t rb_value "$T/gate.o"
	keep suggest-pairs suggest --format json -t robj -k 8,16,24,32,40,48 "$T/gate.o"
	keep fit fit --format json -t RHash+st_table -k ruby-3.3 -N 1000 -o 8 "$T/gate.o"
	keep fit-narrow fit --format json -t st_table -k 32,40,48 -n entries_start=1 --reorder "$T/gate.o"
	keep fit-none fit --format json -t wide -k 8 "$T/gate.o"
	keep suggest-live suggest --format json -t st_table -k 64,80 -H RHash --counts "$T/counts" "$T/gate.o"
	keep fit-live fit --format json -t RHash+st_table -k ruby-3.3 --counts "$T/counts" -n entries_start=1 --reorder "$T/gate.o"
	keep classes classes --format json
	keep classes-list classes --format json 32,64,96
	keep check check --budget "$T/gate.budget" --format json "$T/gate.o"
	keep check-grow check --budget "$T/gate.budget" --format json "$T/grow.o"
	keep diff diff --format json "$T/gate.o" "$T/grow.o"
	keep diff-back diff --format json "$T/grow.o" "$T/gate.o"
	# exit 2 with --format json: the error document
	printf 'struct st_table size <=\n' >"$T/bad.budget"
	sf check --budget "$T/bad.budget" --format json "$T/gate.o"
	assert_eq "$RC" 2 "check with a bad budget: exit status"
	cp "$T/out" "$J/error-check.json"
	sf diff --format json "$T/gate.o" "$T/nonexistent.o"
	assert_eq "$RC" 2 "diff with a missing input: exit status"
	cp "$T/out" "$J/error-diff.json"
	schema_ok --all "$J"/*.json
	assert_eq "$(jget "$J/error-check.json" '[d["schema"], d["command"], d["error"]["file"], d["error"]["line"]]')" \
		"[\"structfit/1\", \"check\", \"$T/bad.budget\", 1]" "error document names the budget and line"
	n=$(ls "$J"/*.json | wc -l)
	assert_eq "$(cat "$J"/*.json | grep -c '^{"schema":"structfit/1","command":"')" "$n" \
		"every document opens with schema and command"
fi

tcase "the schema refuses the old, inconsistent field names"
if [ -s "$J/holes.json" ] && [ -s "$J/fit.json" ] && [ -s "$J/suggest.json" ] && [ -s "$J/check.json" ]; then
	mkdir -p "$T/old"
	sed 's/"holes_count":/"holes":/' "$J/holes.json" >"$T/old/holes.json"
	sed 's/"rounding_loss":/"waste":/' "$J/fit.json" >"$T/old/fit.json"
	sed 's/^\({"schema":"structfit\/1","command":"suggest",\)"name":/\1"type":/' "$J/suggest.json" >"$T/old/suggest.json"
	sed 's/"failures":\[{"name":/"failures":[{"subject":/' "$J/check.json" >"$T/old/check.json"
	sed 's/"schema":"structfit\/1",//' "$J/classes.json" >"$T/old/classes.json"
	for f in "$T"/old/*.json; do
		if cmp -s "$f" "$J/$(basename "$f")"; then
			fail "$(basename "$f"): the edit changed nothing"
		elif /usr/bin/python3 "$CHECKER" "$SCHEMA" "$f" >/dev/null 2>&1; then
			fail "$(basename "$f") with an old field name passes the schema"
		fi
	done
fi

tcase "one vocabulary: holes and show agree field by field (pahole's numbers)"
if [ -s "$J/show-gate.json" ] && [ -s "$J/holes.json" ]; then
	got=$(/usr/bin/python3 - "$J/show-gate.json" "$J/holes.json" <<'PYEOF'
import json, sys
show = {(t["kind"], t["name"]): t for t in json.load(open(sys.argv[1]))["types"]}
bad = []
for h in json.load(open(sys.argv[2]))["types"]:
    s = show.get((h["kind"], h["name"]))
    if s is None:
        continue   # from holes.o
    for k in ("size", "waste", "holes_count", "sum_holes", "padding", "decl_line"):
        if h[k] != s[k]:
            bad.append("%s %s: %s" % (h["name"], k, h[k]))
    if s["waste"] != s["sum_holes"] + s["padding"]:
        bad.append("%s: waste is not sum_holes + padding" % h["name"])
print(" ".join(bad))
PYEOF
)
	assert_eq "$got" "" "fields that differ"
	if have pahole; then
		pahole -C st_table "$T/gate.o" >"$T/pahole.txt" 2>/dev/null
		want=$(sed -n 's/.*sum holes: \([0-9]*\).*/\1/p' "$T/pahole.txt")
		assert_eq "$(jget "$J/holes.json" '[x["sum_holes"] for x in H("st_table")][0]')" "${want:-0}" \
			"st_table sum_holes (pahole)"
		want=$(sed -n 's/.*holes: \([0-9]*\),.*/\1/p' "$T/pahole.txt")
		assert_eq "$(jget "$J/holes.json" '[x["holes_count"] for x in H("st_table")][0]')" "${want:-0}" \
			"st_table holes_count (pahole)"
	else
		fail "pahole (dwarves) is not installed"
	fi
fi

tcase "one vocabulary: check's property is show's field, its value that field's value"
if [ -s "$J/show-gate.json" ] && [ -s "$J/check.json" ]; then
	got=$(/usr/bin/python3 - "$J/show-gate.json" "$J/check.json" <<'PYEOF'
import json, sys
show = {(t["kind"], t["name"]): t for t in json.load(open(sys.argv[1]))["types"]}
bad, n = [], 0
for r in json.load(open(sys.argv[2]))["rules"]:
    for f in r["failures"]:
        n += 1
        if f["property"] == "class":
            continue   # a class of a sum: fit's business, below
        s = show[(f["kind"], f["name"])]
        if s[f["property"]] != f["value"]:
            bad.append("%s %s: %s, show says %s" % (f["name"], f["property"], f["value"],
                                                   s[f["property"]]))
print(n, " ".join(bad))
PYEOF
)
	assert_match "$got" "^[1-9][0-9]* $" "failures checked, none differing from show ($got)"
	assert_eq "$(jget "$J/check.json" '[f["types"] for r in d["rules"] for f in r["failures"] if f["budget_property"] == "fits"][0]')" \
		'["RHash", "st_table"]' "a sum names each type"
fi

tcase "one vocabulary: fit's rounding_loss is class - size; sizes are the compiler's"
if [ -s "$J/fit.json" ]; then
	cat >"$T/probe.c" <<EOF
#include "$TD/check/gate.c"
char sf_probe_rhash[sizeof(struct RHash)];
char sf_probe_st[sizeof(struct st_table)];
EOF
	if compile gcc x86_64 4 "$T/probe.o" "$T/probe.c"; then
		rh=$(( 0x$(nm -S "$T/probe.o" | awk '$4 == "sf_probe_rhash" { print $2 }') ))
		st=$(( 0x$(nm -S "$T/probe.o" | awk '$4 == "sf_probe_st" { print $2 }') ))
		assert_eq "$(jget "$J/fit.json" '[t["size"] for t in d["types"]]')" "[$rh, $st]" "sizes (compiler)"
		assert_eq "$(jget "$J/fit.json" 'd["size"]')" "$((rh + st + 8))" "sum + overhead"
	else
		fail "the probe does not compile: $(head -n 2 "$T/cc.err" | tr '\n' ' ')"
	fi
	assert_eq "$(jget "$J/fit.json" 'd["rounding_loss"] == d["class"] - d["size"] and d["total_rounding_loss"] == 1000 * d["rounding_loss"]')" \
		true "rounding_loss"
	assert_eq "$(jget "$J/fit.json" '[[t["name"], t["kind"], t["given"]] for t in d["types"]]')" \
		'[["RHash", "struct", "RHash"], ["st_table", "struct", "st_table"]]' "types named as everywhere"
	assert_eq "$(jget "$J/fit-none.json" '[d["class"], d["rounding_loss"]]')" "[null, null]" "no class"
fi

tcase "one vocabulary: diff's sides carry show's numbers of each build"
if [ -s "$J/diff.json" ]; then
	sf_ok show --format json -t st_table "$T/grow.o"
	cp "$T/out" "$T/show-grow.json"
	for side in old new; do
		f=$J/show-gate.json
		[ "$side" = new ] && f=$T/show-grow.json
		assert_eq "$(jget "$J/diff.json" "[[t['$side'][k] for k in ('size', 'align', 'holes_count', 'sum_holes', 'padding', 'waste')] for t in d['changed'] if t['name'] == 'st_table']")" \
			"$(jget "$f" "[[x[k] for k in ('size', 'align', 'holes_count', 'sum_holes', 'padding', 'waste')] for x in T('st_table')]")" \
			"st_table, $side side"
	done
	assert_eq "$(jget "$J/diff.json" '[d["old_input"], d["new_input"]]')" "[\"$T/gate.o\", \"$T/grow.o\"]" "inputs"
fi

tcase "documents read back as input carry what the reader needs (doc/json-input.md)"
if [ -s "$J/show-gate.json" ] && [ -s "$J/holes.json" ]; then
	# every member's type ends with its type_suffix; every type has its
	# build's facts; holes' entries their definition's hash
	assert_eq "$(jget "$J/show-anon.json" 'sorted(set(m["type"].endswith(m["type_suffix"]) for t in d["types"] for m in t["members"]))')" \
		"[true]" "type_suffix ends type"
	assert_eq "$(jget "$J/show-anon.json" 'sorted(set(k in t for t in d["types"] for k in ("natural_align", "addr_size", "comp_dir", "declaration", "btf")))')" \
		"[true]" "model fields"
	assert_eq "$(jget "$J/show-gate.json" '[t["addr_size"] for t in d["types"]][:1]')" "[8]" "addr_size"
	assert_eq "$(jget "$J/holes.json" 'sorted(set(len(t["hash"]) for t in d["types"]))')" "[16]" "hash"
	# the same definition read twice is one hash; two definitions, two
	sf_ok holes --format json -m 0 "$T/gate.o" "$T/gate.o"
	assert_eq "$(jget "$T/out" 'len(d["types"]) == len(set(t["hash"] for t in d["types"]))')" \
		"true" "one hash per definition"
	# and the documents are input: show's and holes' read back
	sf_ok holes "$J/show-gate.json"
	sf_ok holes "$J/holes.json"
fi

tdone
