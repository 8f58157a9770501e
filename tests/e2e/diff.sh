#!/bin/bash
# tests/e2e/diff.sh - `structfit diff`: layout changes between two builds.
#
# testdata/diff/before.c and after.c are compiled as the old and the new
# build (see before.c for what changed).  Sizes, holes and padding are
# taken from pahole on each object, member offsets from the compiler
# (offsetof, read back from a probe object), so every number the diff
# reports is checked against a source other than structfit.
. "$(dirname "$0")/lib.sh"

OLD_SRC=$TD/diff/before.c
NEW_SRC=$TD/diff/after.c
CMP=$E2E_ROOT/tests/compare_pahole.py

# cprobe OUT SRC [CFLAGS...]: "NAME VALUE" for each "NAME EXPR" on stdin
# (compiler's values).
cprobe() {
	local out=$1 src=$2
	shift 2
	{
		echo "#include \"$src\""
		while read -r name expr; do
			echo "char sf_probe_$name[($expr) + 1];"
		done
	} >"$T/cprobe.c"
	compile gcc x86_64 4 "$T/cprobe.o" "$T/cprobe.c" "$@" || {
		fail "probe does not compile: $(head -n 3 "$T/cc.err" | tr '\n' ' ')"
		return 1
	}
	readelf -sW "$T/cprobe.o" | awk '$8 ~ /^sf_probe_/ { sub(/^sf_probe_/, "", $8); print $8, $3 - 1 }' >"$out"
}

tcase "setup: before.c and after.c built, facts from pahole and the compiler"
if need pahole readelf; then
	compile_or_fail gcc x86_64 5 "$T/before.o" "$OLD_SRC" &&
		compile_or_fail gcc x86_64 5 "$T/after.o" "$NEW_SRC" &&
		compile_or_fail clang x86_64 4 "$T/before-clang.o" "$OLD_SRC" &&
		compile_or_fail clang x86_64 4 "$T/after-clang.o" "$NEW_SRC"
	if ! failed; then
		for side in before after; do
			pahole "$T/$side.o" >"$T/$side.pahole" 2>&1 || fail "pahole $side failed"
			# name size sum_holes padding
			"$PY" "$CMP" summary "$T/$side.pahole" |
				awk '$1 == "struct" { print $2, $3, ($6 == "-" ? 0 : $6), ($7 == "-" ? 0 : $7) }' >"$T/$side.facts"
		done
		cprobe "$T/before.off" "$OLD_SRC" <<'EOF'
reord_tag __builtin_offsetof(struct reord, tag)
reord_value __builtin_offsetof(struct reord, value)
reord_kind __builtin_offsetof(struct reord, kind)
holey_b __builtin_offsetof(struct holey, b)
EOF
		cprobe "$T/after.off" "$NEW_SRC" <<'EOF'
reord_tag __builtin_offsetof(struct reord, tag)
reord_value __builtin_offsetof(struct reord, value)
reord_kind __builtin_offsetof(struct reord, kind)
grows_extra __builtin_offsetof(struct grows, extra)
grows_extra_size sizeof(((struct grows *)0)->extra)
holey_b __builtin_offsetof(struct holey, b)
holey_c __builtin_offsetof(struct holey, c)
EOF
		assert_eq "$(wc -l <"$T/before.facts") $(wc -l <"$T/after.facts")" "6 6" "structs per build"
	fi
fi
if [ ! -s "$T/after.off" ]; then
	tcase "diff"
	skip "needs gcc, clang, pahole and readelf (see setup)"
	tdone
fi
# F SIDE NAME FIELD(size|holes|padding)
F() {
	local col
	case "$3" in
	size) col=2 ;; holes) col=3 ;; *) col=4 ;;
	esac
	awk -v n="$2" -v c="$col" '$1 == n { print $c }' "$T/$1.facts"
}
# O SIDE NAME: an offset or size from the compiler probe
O() {
	awk -v n="$2" '$1 == n { print $2 }' "$T/$1.off"
}
growth() { echo $(( $(F after "$1" size) - $(F before "$1" size) )); }

# The changed types in the order the diff must list them: by growth,
# largest first, ties by name - computed from pahole's sizes.
EXPECT_ORDER=$(for s in grows reord holey flags; do echo "$(growth $s) $s"; done |
	sort -k1,1nr -k2,2 | awk '{ printf "%sstruct %s", sep, $2; sep = " " }')
TOTAL=$(( $(growth grows) + $(growth reord) + $(growth holey) + $(growth flags) ))

tcase "json: changed, added, removed, sorted by growth"
sf diff --format json "$T/before.o" "$T/after.o"
assert_eq "$RC" 0 "exit status (no --fail-on-growth)"
if is_json "$T/out"; then
	assert_eq "$(jget "$T/out" '" ".join(t["kind"] + " " + t["name"] for t in d["changed"])')" "$EXPECT_ORDER" "changed, by growth"
	assert_eq "$(jget "$T/out" '[[t["kind"], t["name"]] for t in d["added"]]')" '[["struct", "newone"]]' "added"
	assert_eq "$(jget "$T/out" '[[t["kind"], t["name"]] for t in d["removed"]]')" '[["struct", "gone"]]' "removed"
	assert_eq "$(jget "$T/out" 'd["added"][0]["size"]')" "$(F after newone size)" "newone size"
	assert_eq "$(jget "$T/out" 'd["removed"][0]["size"]')" "$(F before gone size)" "gone size"
	assert_eq "$(jget "$T/out" '[d["summary"][k] for k in ("changed", "grown", "growth", "added", "removed")]')" \
		"[4, 1, $TOTAL, 1, 1]" "summary"
	assert_eq "$(jget "$T/out" 'd["summary"]["compared"]')" 7 "names compared"
else
	fail "not JSON"
fi

# C NAME EXPR: evaluate the Python EXPR over t, the changed type NAME.
C() {
	jget "$T/out" "(lambda t: $2)([t for t in d['changed'] if t['name'] == '$1' and t['kind'] == 'struct'][0])"
}

tcase "a struct that grows: member added, sizes from pahole"
sf diff --format json "$T/before.o" "$T/after.o"
assert_eq "$(C grows 't["old"]["size"]') $(C grows 't["new"]["size"]') $(C grows 't["growth"]')" \
	"$(F before grows size) $(F after grows size) $(growth grows)" "old, new, growth"
assert_eq "$(C grows 't["members"][0]["change"]')" "added" "member change"
assert_eq "$(C grows 't["members"][0]["name"]')" "extra" "member name"
assert_eq "$(C grows 't["members"][0]["old"]')" "null" "no old member"
assert_eq "$(C grows 't["members"][0]["new"]["offset"]')" "$(O after grows_extra)" "offset (compiler)"
assert_eq "$(C grows 't["members"][0]["new"]["size"]')" "$(O after grows_extra_size)" "size (compiler)"
assert_match "$(C grows 't["members"][0]["new"]["type"]')" "long" "type"
assert_eq "$(C grows 't["reordered"]')" "false" "not reordered"

tcase "a struct that is reordered: members moved, hole lost"
got=$(jget "$T/out" '" ".join("%s:%s:%d->%d" % (m["name"], m["change"], m["old"]["offset"], m["new"]["offset"]) for t in d["changed"] if t["name"] == "reord" for m in t["members"])')
want=$(for m in value tag kind; do echo "$(O after reord_$m) $m:moved:$(O before reord_$m)->$(O after reord_$m)"; done |
	sort -n | cut -d' ' -f2 | tr '\n' ' ' | sed 's/ $//')
assert_eq "$got" "$want" "moves, in new layout order (offsets from the compiler)"
assert_eq "$(C reord 't["reordered"]')" "true" "reordered"
assert_eq "$(C reord 't["old"]["sum_holes"]') $(C reord 't["new"]["sum_holes"]')" \
	"$(F before reord holes) $(F after reord holes)" "hole bytes (pahole)"
assert_eq "$(C reord 't["old"]["padding"]') $(C reord 't["new"]["padding"]')" \
	"$(F before reord padding) $(F after reord padding)" "padding (pahole)"
assert_eq "$(C reord '[(h["change"], h["size"], h["after"]) for h in t["holes"]]' | tr -d ' ')" \
	"[[\"lost\",$(F before reord holes),\"tag\"]]" "the hole after tag is lost"

tcase "a struct that gains a hole: member retyped"
assert_eq "$(C holey 't["growth"]')" 0 "same size"
assert_eq "$(C holey '[(m["name"], m["change"], m["old"]["type"], m["new"]["type"]) for m in t["members"]]' | tr -d ' ')" \
	'[["b","retyped","int","char"]]' "b retyped int -> char"
hole_at=$(( $(O after holey_b) + 1 ))
hole_size=$(( $(O after holey_c) - hole_at ))
assert_eq "$(C holey '[(h["change"], h["offset"], h["size"], h["after"]) for h in t["holes"]]' | tr -d ' ')" \
	"[[\"gained\",$hole_at,$hole_size,\"b\"]]" "hole gained after b (compiler offsets)"
assert_eq "$(C holey 't["new"]["sum_holes"]')" "$(F after holey holes)" "hole bytes (pahole)"

tcase "bit-fields: widened and moved"
assert_eq "$(C flags '[(m["name"], m["change"]) for m in t["members"]]' | tr -d ' ')" \
	'[["mode","retyped"],["count","moved"]]' "changes"
assert_eq "$(C flags '[[m["old"]["bit_size"], m["new"]["bit_size"]] for m in t["members"] if m["name"] == "mode"][0]' | tr -d ' ')" \
	"[3,5]" "mode width"
assert_eq "$(C flags '[[m["old"]["bit_offset"], m["new"]["bit_offset"]] for m in t["members"] if m["name"] == "count"][0]' | tr -d ' ')" \
	"[4,6]" "count bit offset"

tcase "a member that grew: named once with its offsets; the members after it on one shifted line"
if compile_or_fail gcc x86_64 5 "$T/shift-a.o" "$TD/diff/shift.c" &&
	compile_or_fail gcc x86_64 5 "$T/shift-b.o" "$TD/diff/shift.c" -DWIDE &&
	printf 'b __builtin_offsetof(struct shift, b)\nc __builtin_offsetof(struct shift, c)\ne __builtin_offsetof(struct shift, e)\n' |
		cprobe "$T/shift-a.facts" "$TD/diff/shift.c" &&
	printf 'b __builtin_offsetof(struct shift, b)\nc __builtin_offsetof(struct shift, c)\ne __builtin_offsetof(struct shift, e)\n' |
		cprobe "$T/shift-b.facts" "$TD/diff/shift.c" -DWIDE; then
	ob=$(awk '$1 == "b" { print $2 }' "$T/shift-a.facts"); nb=$(awk '$1 == "b" { print $2 }' "$T/shift-b.facts")
	by=$(( $(awk '$1 == "c" { print $2 }' "$T/shift-b.facts") - $(awk '$1 == "c" { print $2 }' "$T/shift-a.facts") ))
	sf diff "$T/shift-a.o" "$T/shift-b.o"
	assert_eq "$(grep -c ' b: ' "$T/out")" 1 "b listed once"
	assert_grep "$T/out" "    retyped  b: int (4 bytes) -> long int (8 bytes), offset $ob -> offset $nb" "b retyped, with its offsets"
	assert_grep "$T/out" "    shifted  c, d, e: $by bytes later (what precedes them changed)" "c, d, e on one line"
	assert_eq "$(grep -c '^    moved' "$T/out")" 0 "no moved lines"
	sf diff --format json "$T/shift-a.o" "$T/shift-b.o"
	assert_eq "$(jget "$T/out" '[(m["name"], m["change"]) for m in d["changed"][0]["members"]]')" \
		'[["b", "moved"], ["b", "retyped"], ["c", "moved"], ["d", "moved"], ["e", "moved"]]' "JSON keeps each change"
fi

tcase "text"
sf diff "$T/before.o" "$T/after.o"
assert_eq "$RC" 0 "exit status"
assert_match "$(grep '^struct grows:' "$T/out")" "^struct grows: $(F before grows size) -> $(F after grows size) bytes \(\+$(growth grows)\)  .*diff/after\.c:[0-9]+$" "grows header"
assert_grep "$T/out" "    added    extra: long" "member added line"
assert_grep "$T/out" "    retyped  b: int (4 bytes) -> char (1 byte)" "retyped line"
assert_grep "$T/out" "    gained   $hole_size-byte hole after b, at offset $hole_at" "hole gained line"
assert_grep "$T/out" "    lost     $(F before reord holes)-byte hole after tag" "hole lost line"
assert_grep "$T/out" "struct newone: added, $(F after newone size) bytes" "added line"
assert_grep "$T/out" "struct gone: removed, was $(F before gone size) bytes" "removed line"
assert_no_grep "$T/out" "struct same" "unchanged struct"
order=$(grep -E '^struct (grows|reord|holey|flags):' "$T/out" | cut -d: -f1 | tr '\n' ' ' | sed 's/ $//')
assert_eq "$order" "$EXPECT_ORDER" "order of the changed types"
assert_eq "$(tail -n 1 "$T/out")" "4 types changed (1 grew, $(printf '%+d' "$TOTAL") bytes), 1 added, 1 removed; 7 compared" "summary"

tcase "--fail-on-growth"
sf diff --fail-on-growth "$T/before.o" "$T/after.o"
assert_eq "$RC" 1 "a type grew"
sf diff --fail-on-growth -t holey -t 'struct flags' "$T/before.o" "$T/after.o"
assert_eq "$RC" 0 "only types that did not grow"
assert_eq "$(grep -cE '^struct ' "$T/out")" 2 "only the -t types"
sf diff --fail-on-growth -t grows --format json "$T/before.o" "$T/after.o"
assert_eq "$RC" 1 "-t grows"
assert_eq "$(jget "$T/out" '[t["name"] for t in d["changed"]] + [t["name"] for t in d["added"] + d["removed"]]')" '["grows"]' "only grows"
sf diff --fail-on-growth "$T/after.o" "$T/before.o"
assert_eq "$RC" 1 "backwards: reord grows back"
sf diff --format json "$T/after.o" "$T/before.o"
assert_eq "$(jget "$T/out" '[d["added"][0]["name"], d["removed"][0]["name"], d["summary"]["growth"]]')" \
	"[\"gone\", \"newone\", $(( -TOTAL ))]" "backwards: added and removed swap, growth negated"

tcase "identical builds"
sf diff --fail-on-growth "$T/before.o" "$T/before.o"
assert_eq "$RC" 0 "exit status"
assert_eq "$(cat "$T/out")" "no layout changes; 6 types compared" "text"
sf diff --format json "$T/after.o" "$T/after.o"
assert_eq "$(jget "$T/out" '[len(d["changed"]), len(d["added"]), len(d["removed"])]')" "[0, 0, 0]" "json"

tcase "clang builds give the same diff"
sf diff --format json "$T/before.o" "$T/after.o"
cp "$T/out" "$T/gcc.json"
sf diff --format json "$T/before-clang.o" "$T/after-clang.o"
assert_eq "$RC" 0 "exit status"
strip='[[t["name"], t["growth"], [(m["name"], m["change"]) for m in t["members"]], [(h["change"], h["size"]) for h in t["holes"]]] for t in d["changed"]] + [d["summary"]]'
assert_eq "$(jget "$T/out" "$strip")" "$(jget "$T/gcc.json" "$strip")" "same findings"
sf diff "$T/before.o" "$T/after-clang.o"
assert_eq "$RC" 0 "gcc against clang"

tcase "directories as OLD and NEW"
mkdir -p "$T/old" "$T/new"
cp "$T/before.o" "$T/old/" && cp "$T/after.o" "$T/new/"
sf diff --format json "$T/old" "$T/new"
assert_eq "$RC" 0 "exit status"
assert_eq "$(jget "$T/out" 'd["summary"]')" "$(jget "$T/gcc.json" 'd["summary"]')" "same summary as the objects"

tcase "usage errors and unusable input exit 2"
sf diff -t nosuch "$T/before.o" "$T/after.o"
assert_eq "$RC" 2 "-t a type in neither build"
assert_eq "$(cat "$T/err")" "structfit: $T/before.o and $T/after.o: type 'nosuch' not found" "message"
echo "not an object" >"$T/text.o"
sf diff "$T/before.o" "$T/text.o"
assert_eq "$RC" 2 "NEW not ELF"
assert_eq "$(wc -l <"$T/err")" 1 "one stderr line"
sf diff "$T/before.o"
assert_eq "$RC" 2 "one input"
sf diff "$T/before.o" "$T/after.o" "$T/after.o"
assert_eq "$RC" 2 "three inputs"
sf diff --format html "$T/before.o" "$T/after.o"
assert_eq "$RC" 2 "--format html"
sf diff -z "$T/before.o" "$T/after.o"
assert_eq "$RC" 2 "unknown option"
assert_eq "$(cat "$T/err")" "structfit: diff: unknown option '-z'; see 'structfit diff --help'" "one-line message"
sf diff --help
assert_eq "$RC" 0 "--help"
assert_grep "$T/out" "usage: structfit diff" "usage"

tdone
