#!/bin/bash
# tests/e2e/holes.sh - `structfit holes`: the ranking of wasteful structs.
#
# testdata/e2e/holes.c has six structs with distinct sizes and distinct
# waste (holes + trailing padding).  The expected orders are not written
# down here: they are computed from pahole's report on the same object
# (waste = "sum holes" + "padding"), then --sort, --min-waste and --limit
# are applied to them in Python and compared with structfit's output.
. "$(dirname "$0")/lib.sh"

SRC=$TD/e2e/holes.c
CMP=$E2E_ROOT/tests/compare_pahole.py

# expect FILTER: the names of pahole's facts ($T/facts: name size waste
# nholes sum_holes padding) in the order structfit must print, given a
# Python filter/sort spec: "sort=waste|size|name min=N limit=N".
expect() {
	"$PY" -S - "$T/facts" "$@" <<'PYEOF'
import sys
rows = []
for line in open(sys.argv[1]):
    n, size, waste, nh, sh, pad = line.split()
    rows.append((n, int(size), int(waste)))
opts = dict(a.split("=") for a in sys.argv[2:])
sort = opts.get("sort", "waste")
mn = int(opts.get("min", "1"))
rows = [r for r in rows if r[2] >= mn]
if sort == "waste":
    rows.sort(key=lambda r: (-r[2], r[0]))
elif sort == "size":
    rows.sort(key=lambda r: (-r[1], r[0]))
else:
    rows.sort(key=lambda r: r[0])
lim = int(opts.get("limit", "0"))
if lim:
    rows = rows[:lim]
print(" ".join(r[0] for r in rows))
PYEOF
}

# text_names: the names, in order, of the entries in $T/out (text),
# recognised as the known struct names of holes.c.
text_names() {
	awk -v names="$(cut -d' ' -f1 "$T/facts" | tr '\n' ' ')" '
		BEGIN { n = split(names, a, " "); for (i = 1; i <= n; i++) known[a[i]] = 1 }
		{ for (i = 1; i <= NF; i++) { w = $i; sub(/^struct /, "", w)
		    if (w in known) { printf "%s%s", sep, w; sep = " "; break } } }
		END { print "" }' "$T/out"
}

tcase "setup: holes.c compiled, pahole's facts"
if ! need pahole; then
	:
elif compile_or_fail gcc x86_64 5 "$T/holes.o" "$SRC"; then
	pahole "$T/holes.o" >"$T/holes.pahole" 2>&1 || fail "pahole failed: $(head -n 1 "$T/holes.pahole")"
	"$PY" -S "$CMP" summary "$T/holes.pahole" |
		awk '$1 == "struct" { print $2, $3, $6 + $7, $5, $6, $7 }' >"$T/facts"
	assert_eq "$(wc -l <"$T/facts")" 6 "structs pahole reports in holes.c"
	# the six must have distinct waste and distinct size (one right order)
	assert_eq "$(cut -d' ' -f3 "$T/facts" | sort -u | wc -l)" 6 "distinct waste values"
	assert_eq "$(cut -d' ' -f2 "$T/facts" | sort -u | wc -l)" 6 "distinct sizes"
fi
if [ ! -s "$T/facts" ]; then
	tcase "holes ranking"
	skip "needs pahole and gcc (see setup)"
	tdone
fi

tcase "default: by waste, largest first, text"
sf_ok holes "$T/holes.o"
assert_eq "$(text_names)" "$(expect sort=waste)" "order of the text lines"
# each line carries waste, size, holes, padding and decl_file:decl_line
line=$(grep -w big_waste "$T/out")
read -r _ size waste nholes sum_holes padding <<<"$(grep '^big_waste ' "$T/facts")"
for v in "$waste" "$size" "$padding"; do
	assert_match "$line" "(^|[^0-9])$v([^0-9]|$)" "big_waste line shows $v"
done
assert_match "$line" "holes\.c:$(grep -n '^struct big_waste' "$SRC" | cut -d: -f1)" "big_waste line shows holes.c:LINE"
assert_eq "$(wc -c <"$T/err")" 0 "stderr bytes"

tcase "JSON: every field, values equal pahole's"
sf_ok holes --format json --min-waste 0 "$T/holes.o"
cp "$T/out" "$T/all.json"
if is_json "$T/all.json"; then
	assert_eq "$(jget "$T/all.json" 'sorted(set().union(set(), *[{"name", "kind", "size", "waste", "holes_count", "sum_holes", "padding", "decl_file", "decl_line"} - set(x) for x in d["types"]]))')" \
		"[]" "fields missing among name,size,waste,holes,sum_holes,padding,decl_file,decl_line"
	while read -r name size waste nholes sum_holes padding; do
		assert_eq "$(jget "$T/all.json" "[[x['size'], x['waste'], x['sum_holes'], x['padding']] for x in H('$name')]")" \
			"[[$size, $waste, $sum_holes, $padding]]" "$name size/waste/sum_holes/padding"
		assert_eq "$(jget "$T/all.json" "[x['holes_count'] for x in H('$name')]")" \
			"[$nholes]" "$name holes"
		assert_eq "$(jget "$T/all.json" "H('$name')[0]['decl_line']")" \
			"$(grep -n "^struct $name {" "$SRC" | cut -d: -f1)" "$name decl_line"
	done <"$T/facts"
	assert_eq "$(jget "$T/all.json" '" ".join(names())')" "$(expect sort=waste min=0)" "order with --min-waste 0"
	assert_eq "$(jget "$T/all.json" 'all(x["waste"] == x["sum_holes"] + x["padding"] for x in d["types"])')" \
		true "waste = sum_holes + padding"
else
	fail "not JSON: $(head -c 200 "$T/out")"
fi

tcase "--min-waste"
for mn in 0 1 3 7 8 21 22 1000; do
	want=$(expect sort=waste min=$mn)
	sf holes --format json --min-waste "$mn" "$T/holes.o"
	if [ -n "$want" ]; then
		assert_eq "$RC" 0 "--min-waste $mn: exit status"
		assert_eq "$(jget "$T/out" '" ".join(names())')" "$want" "--min-waste $mn"
	else
		# a filter that leaves no type is an error naming it (README)
		assert_eq "$RC" 2 "--min-waste $mn, nothing left: exit status"
		assert_eq "$(jget "$T/out" 'd["error"]["message"]')" "no type wastes at least $mn bytes (--min-waste $mn)" "--min-waste $mn: the error document"
	fi
done
sf holes --min-waste 1000 "$T/holes.o"
assert_eq "$RC" 2 "--min-waste 1000, text: exit status"
assert_eq "$(cat "$T/err")" "structfit: $T/holes.o: no type wastes at least 1000 bytes (--min-waste 1000)" "--min-waste 1000, text: the one line"
assert_eq "$(wc -c <"$T/out")" 0 "--min-waste 1000, text: no table"

tcase "--sort waste|size|name"
for s in waste size name; do
	sf_ok holes --format json --sort "$s" "$T/holes.o"
	assert_eq "$(jget "$T/out" '" ".join(names())')" "$(expect sort=$s)" "--sort $s (JSON)"
	sf_ok holes --sort "$s" "$T/holes.o"
	assert_eq "$(text_names)" "$(expect sort=$s)" "--sort $s (text)"
done

tcase "--limit, and the options together"
for l in 1 2 5 100; do
	sf_ok holes --format json --limit "$l" "$T/holes.o"
	assert_eq "$(jget "$T/out" '" ".join(names())')" "$(expect sort=waste limit=$l)" "--limit $l"
done
sf_ok holes --format json --sort name --min-waste 3 --limit 3 "$T/holes.o"
assert_eq "$(jget "$T/out" '" ".join(names())')" "$(expect sort=name min=3 limit=3)" \
	"--sort name --min-waste 3 --limit 3"
sf_ok holes --sort size --limit 2 "$T/holes.o"
assert_eq "$(text_names)" "$(expect sort=size limit=2)" "--sort size --limit 2 (text)"

tcase "several inputs: ranked together, st_table's 1-byte hole"
if compile_or_fail gcc x86_64 5 "$T/st.o" "$TD/example/st_table.c"; then
	sf_ok holes --format json "$T/holes.o" "$T/st.o"
	assert_eq "$(jget "$T/out" '[[x["waste"], x["sum_holes"], x["padding"], x["size"]] for x in H("st_table")]')" \
		"[[1, 1, 0, 48]]" "st_table entry"
	assert_eq "$(jget "$T/out" 'all(a["waste"] >= b["waste"] for a, b in zip(d["types"], d["types"][1:]))')" \
		true "non-increasing waste"
	assert_eq "$(jget "$T/out" 'len(H("RHash"))')" 0 "RHash wastes nothing, not listed"
fi

tcase "a union with bytes but no member in DWARF (gcc's __SOCKADDR_ARG) is not ranked as padding"
for cc in gcc clang; do
	compile_or_fail "$cc" x86_64 5 "$T/sa-$cc.o" "$TD/e2e/sockaddr.c" || continue
	# readelf is the oracle: the members of the 8-byte union in the DWARF
	members=$(readelf --debug-dump=info "$T/sa-$cc.o" | awk '
		/DW_TAG_union_type/ { u = 1; next }
		u && /DW_AT_byte_size/ { if ($NF != 8) u = 0; next }
		u && /<1>/ { exit }
		u && /DW_TAG_member/ { n++ }
		END { print n + 0 }')
	sf_ok holes --format json --min-waste 0 "$T/sa-$cc.o"
	assert_eq "$(jget "$T/out" '[x["waste"] for x in H("pad")]')" "[7]" "$cc: struct pad ranked"
	if [ "$cc" = gcc ]; then
		assert_eq "$members" 0 "gcc leaves the union's members out (the case under test)"
		assert_eq "$(jget "$T/out" 'len(H("__SOCKADDR_ARG"))')" 0 "gcc: __SOCKADDR_ARG not ranked"
	else
		assert_eq "$((members > 0))" 1 "clang keeps the union's members ($members)"
		assert_eq "$(jget "$T/out" '[[x["waste"], x["padding"]] for x in H("__SOCKADDR_ARG")]')" "[[0, 0]]" \
			"clang: ranked with its members, no padding"
	fi
done

tcase "--reorderable: exactly the types suggest shrinks by a reorder, with its size and saving"
if compile_or_fail gcc x86_64 5 "$T/lay.o" "$TD/suggest/layouts.c"; then
	sf_ok holes --format json --min-waste 0 "$T/lay.o" "$T/st.o"
	cp "$T/out" "$T/all.json"
	# suggest (whose proposals suggest.sh compiles) is the oracle, type by type
	want=""
	for name in $(jget "$T/all.json" '" ".join(sorted(x["name"] for x in d["types"] if x["name"]))'); do
		sf_ok suggest --format json -t "$name" "$T/lay.o" "$T/st.o"
		saved=$(jget "$T/out" 'd["reorder"]["saved"]')
		[ "$saved" -gt 0 ] && want="$want $name:$(jget "$T/out" 'd["reorder"]["size"]'):$saved"
	done
	sf_ok holes --format json --reorderable --sort name "$T/lay.o" "$T/st.o"
	got=$(jget "$T/out" '"".join(" %s:%d:%d" % (x["name"], x["reorder_size"], x["reorder_saved"]) for x in d["types"])')
	assert_eq "$got" "$want" "reorderable types, size reached, bytes saved (name order)"
	assert_eq "$(jget "$T/out" 'all(x["size"] - x["reorder_size"] == x["reorder_saved"] > 0 for x in d["types"])')" true "consistent"
	sf_ok holes --reorderable --limit 1 "$T/lay.o" "$T/st.o"
	assert_match "$(head -n 1 "$T/out")" "^waste  size  saves  holes  padding  type" "text header"
	assert_eq "$(wc -l <"$T/out")" 2 "--limit 1: header and one line"
	sf holes --reorderable "$T/st.o"
	assert_eq "$RC" 2 "st_table: no reorder is smaller: exit status (a filter that leaves nothing)"
	assert_eq "$(cat "$T/err")" "structfit: $T/st.o: no type shrinks by reordering its members (--reorderable)" "st_table: said, not an empty table"
	assert_eq "$(wc -c <"$T/out")" 0 "nothing on stdout"
fi

tcase "a build in which no type wastes a byte: said, exit 0 (no filter was asked for)"
printf 'struct tight { long a; long b; int c; int d; };\nstruct tight tight_v;\n' >"$T/tight.c"
compile_or_fail gcc x86_64 5 "$T/tight.o" "$T/tight.c" && {
	sf holes "$T/tight.o"
	assert_eq "$RC" 0 "exit status"
	assert_eq "$(cat "$T/out")" "no type wastes a byte" "the answer"
	sf holes --min-waste 2 "$T/tight.o"
	assert_eq "$RC" 2 "a filter asked for that leaves nothing: exit 2"
}

tdone
