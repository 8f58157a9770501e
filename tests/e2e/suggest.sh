#!/bin/bash
# tests/e2e/suggest.sh - `structfit suggest` end to end, on objects compiled here.
#
#  - Ruby's st_table (testdata/example/st_table.c) with --classes 64,80
#    --header 24 (or --header RHash): its three st_index_t members save the
#    same 8 bytes, so they are listed as alternatives, ordered by what their
#    names say: entries_start first (a start hint, which may lag: Ruby
#    narrowed it), 8 -> 1 byte into the hole at offset 3: 48 -> 40 bytes,
#    header + struct 72 -> 64, class 80 -> 64; entries_bound (a bound); then
#    num_entries last (an exact count: at most 255 entries), each saying what
#    the code must do past 255; in text and JSON, gcc and clang, DWARF 4, 5;
#  - an index (ring.head) ranks after members of the same effect whose
#    names say nothing, even with more moves, and a pointer (ring.buf, made
#    an arena index: a design change) after them all;
#  - the compiler is the oracle for every proposal: for each struct of
#    testdata/suggest/layouts.c and st_table, on x86_64, i386 and arm, the
#    proposed order (and, with --narrow, the narrowed types) is declared as
#    a new struct in a probe object, and sizeof/offsetof from the compiler
#    must equal the size suggest promises and keep pinned members in place;
#  - bit-field runs move as one; a leading struct member stays first; the
#    flexible array member stays last; unions are not reordered; pairs of
#    narrowings when no single one crosses a class; more than 12 members
#    says the moves are heuristic;
#  - bad input: unknown member in --pin/--narrow, a width that is not
#    smaller, a member that cannot be narrowed, bad class lists, a type or
#    header type that does not exist: one line "structfit: ...", exit 2,
#    nothing on stdout.
. "$(dirname "$0")/lib.sh"

ST_SRC=$TD/example/st_table.c
LAYOUTS=$TD/suggest/layouts.c
ST_ORDER='["entry_power", "bin_power", "size_ind", "rebuilds_num", "type", "num_entries", "entries_start", "entries_bound", "entries"]'

# probe_suggest SRC KIND NAME SHOW_JSON SUGGEST_JSON CC TARGET OUT: declare
# struct NAME's members in the order of SUGGEST_JSON's reorder (narrowed as
# its "applied" list says) as a new struct in a probe object that #includes
# SRC, compile it, and write "size N" and "offset MEMBER N" lines (what the
# compiler says) to OUT.  Status 1 (case failed) when it does not compile.
probe_suggest() {
	local src=$1 kind=$2 name=$3 show=$4 sug=$5 cc=$6 target=$7 out=$8
	"$PY" - "$src" "$kind" "$name" "$show" "$sug" "$T/probe.c" "$out.map" <<'PYEOF' || return 1
import json, sys
src, kind, name, showf, sugf, probe_c, map_out = sys.argv[1:8]
show = json.load(open(showf))
sug = json.load(open(sugf))
def bare(n):
    for k in ("struct ", "union ", "class "):
        if n.startswith(k):
            return n[len(k):]
    return n
ty = [t for t in show["types"] if bare(t["name"]) == name][0]
members = {m["name"]: m for m in ty["members"]}
applied = {a["member"]: a["type"] for a in sug["applied"]}
builtin = {"uint8_t": "unsigned char", "int8_t": "signed char",
           "uint16_t": "unsigned short", "int16_t": "short",
           "uint32_t": "unsigned int", "int32_t": "int",
           "uint64_t": "unsigned long long", "int64_t": "long long"}
cty = "%s %s" % (kind, name)
lines = ['#include "%s"' % src, "%s sf_reordered {" % kind]
for mn in sug["reorder"]["order"]:
    m = members[mn]
    if mn in applied:
        lines.append("\t%s %s;" % (builtin[applied[mn]], mn))
    elif m.get("bit_size"):
        lines.append("\t%s %s:%d;" % (m["type"], mn, m["bit_size"]))
    elif m.get("flex_array"):
        lines.append("\t__typeof__(((%s *)0)->%s[0]) %s[];" % (cty, mn, mn))
    else:
        lines.append("\t__typeof__(((%s *)0)->%s) %s;" % (cty, mn, mn))
lines.append("}%s;" % (" __attribute__((packed))" if ty.get("packed") else ""))
probes = ["char sf_probe_0[sizeof(%s sf_reordered)];" % kind]
names = ["size"]
for i, mn in enumerate(sug["reorder"]["order"], 1):
    if members[mn].get("bit_size"):
        continue
    probes.append("char sf_probe_%d[__builtin_offsetof(%s sf_reordered, %s) + 1];" % (i, kind, mn))
    names.append("offset " + mn)
open(probe_c, "w").write("\n".join(lines + probes) + "\n")
open(map_out, "w").write("".join("sf_probe_%d %s\n" % (i, n) for i, n in
                                 zip([0] + [i for i, mn in enumerate(sug["reorder"]["order"], 1)
                                            if not members[mn].get("bit_size")], names)))
PYEOF
	if ! compile "$cc" "$target" 4 "$T/probe.o" "$T/probe.c"; then
		fail "probe for $name does not compile ($cc $target): $(head -n 3 "$T/cc.err" | tr '\n' ' ')"
		detail "$T/probe.c" "probe.c"
		return 1
	fi
	readelf -sW "$T/probe.o" | awk '$8 ~ /^sf_probe_/ { print $8, $3 }' >"$T/probe.sizes"
	awk 'NR == FNR { s[$1] = $2; next }
	     { sym = $1; $1 = ""; sub(/^ /, ""); v = s[sym]; if ($0 ~ /^offset/) v -= 1; print $0, v }' \
		"$T/probe.sizes" "$out.map" >"$out"
}

# check_proposal SRC KIND NAME OBJ CC TARGET [SUGGEST ARGS...]: run suggest
# (JSON) and show (JSON) on OBJ, probe the proposed order with the compiler:
# sizeof must be reorder.size, and members suggest did not move, and every
# --pin'ed member, must keep their offsets when nothing before them moved.
check_proposal() {
	local src=$1 kind=$2 name=$3 obj=$4 cc=$5 target=$6
	shift 6
	sf_ok suggest --format json -t "$name" "$@" "$obj" || return 1
	cp "$T/out" "$T/sug.json"
	sf_ok show --format json -t "$name" "$obj" || return 1
	cp "$T/out" "$T/show.json"
	probe_suggest "$src" "$kind" "$name" "$T/show.json" "$T/sug.json" "$cc" "$target" "$T/probe.txt" || return 1
	local want got
	want=$(jget "$T/sug.json" 'd["reorder"]["size"]')
	got=$(awk '$1 == "size" { print $2 }' "$T/probe.txt")
	assert_eq "$got" "$want" "$name ($cc $target $*): sizeof of the proposed order"
	# the first member of the proposal is at 0, and pins hold
	local pin
	for pin in $(printf '%s\n' "$@" | awk 'p { print; p = 0 } $0 == "--pin" { p = 1 }'); do
		assert_eq "$(awk -v m="$pin" '$1 == "offset" && $2 == m { print $3 }' "$T/probe.txt")" \
			"$(jget "$T/show.json" '[m["offset"] for m in t("'"$name"'")["members"] if m["name"] == "'"$pin"'"][0]')" \
			"$name: pinned $pin keeps its offset"
	done
	return 0
}

# ------------------------------------------------------------ st_table

tcase "st_table: alternatives; entries_start (a hint) first, 8 -> 1 into the hole at 3, num_entries (a count) last (text)"
have_st=0
if compile_or_fail gcc x86_64 5 "$T/st.o" "$ST_SRC"; then
	have_st=1
	sf_ok suggest -t st_table --classes 64,80 --header 24 "$T/st.o"
	cp "$T/out" "$T/st.txt"
	assert_grep "$T/st.txt" "struct st_table: 48 bytes, 1 hole (1 byte), no padding" "summary"
	assert_grep "$T/st.txt" "with the 24-byte header: 72 bytes, class 80 of 64,80" "class now"
	assert_grep "$T/st.txt" "reorder: no order of these members is smaller than 48 bytes" "no reorder"
	first=$(grep -m1 -A2 '^  1\. ' "$T/st.txt")
	assert_match "$first" "^  1\. entries_start: st_index_t -> uint8_t \(8 -> 1 byte, holds 0\.\.255\)" "first narrowing"
	assert_match "$first" "48 -> 40 bytes \(saves 8\), it goes into the hole at offset 3 \(was 24\)" "size and hole"
	assert_grep "$T/st.txt" "  1-3 are alternatives: each saves the same 8 bytes; choose one (cached positions" "alternatives, not a ranking"
	assert_eq "$(grep -A4 '^  1\. ' "$T/st.txt" | sed -n '5p')" \
		"     a cached position or hint: one that lags at 255 costs time, not correctness" "entries_start: a hint"
	assert_eq "$(grep '^  [0-9]\. ' "$T/st.txt" | cut -d: -f1)" "  1. entries_start
  2. entries_bound
  3. num_entries" "hint, bound, count"
	assert_eq "$(grep -A4 '^  3\. ' "$T/st.txt" | sed -n '4,5p')" \
		"     past 255: saturate and fall back, never wrap (it counts or indexes: grows with the data)
     a limit on the program: at most 255 entries (an exact count, length or capacity)" "num_entries last, with its limit"
	assert_match "$first" "header \+ struct 72 -> 64: class 80 -> 64" "class change"
	assert_grep "$T/st.txt" "check that every value fits" "the value-range warning"
	# the hole map of the best narrowing: entries_start at 3, no hole left
	assert_match "$(grep 'entries_start;' "$T/st.txt")" "uint8_t +entries_start; +/\* +3 +1 \*/" "map line"
	assert_grep "$T/st.txt" "/* size: 40, cachelines: 1, members: 9 */" "map summary"
	assert_eq "$(wc -c <"$T/err")" 0 "stderr bytes"
fi

tcase "st_table JSON: size, reorder {size, moves, order}, narrowings[0]"
if [ "$have_st" = 1 ]; then
	sf_ok suggest --format json -t st_table --classes 64,80 --header 24 "$T/st.o"
	cp "$T/out" "$T/st.json"
	if is_json "$T/st.json"; then
		assert_eq "$(jget "$T/st.json" 'd["size"]')" 48 "size"
		assert_eq "$(jget "$T/st.json" 'd["class"]')" 80 "class"
		assert_eq "$(jget "$T/st.json" '[d["reorder"][k] for k in ("size", "moves", "saved")]')" "[48, 0, 0]" "reorder"
		assert_eq "$(jget "$T/st.json" 'd["reorder"]["order"]')" "$ST_ORDER" "order unchanged"
		assert_eq "$(jget "$T/st.json" '{k: d["narrowings"][0][k] for k in ("member", "from", "to", "size", "saved", "class_before", "class_after", "offset", "was")}')" \
			'{"class_after": 64, "class_before": 80, "from": 8, "member": "entries_start", "offset": 3, "saved": 8, "size": 40, "to": 1, "was": 24}' "narrowings[0]"
		assert_eq "$(jget "$T/st.json" '[(n["member"], n["grows"], n["role"]) for n in d["narrowings"]]')" \
			'[["entries_start", true, "hint"], ["entries_bound", true, "grows"], ["num_entries", true, "count"]]' "ranked by role, all grow"
		assert_eq "$(jget "$T/st.json" '[n["limit"] for n in d["narrowings"]]')" \
			'["a cached position or hint: one that lags at 255 costs time, not correctness", null, "a limit on the program: at most 255 entries (an exact count, length or capacity)"]' "limit"
		assert_eq "$(jget "$T/st.json" 'd["narrowings"][0]["if_not_fit"]')" \
			"past 255: saturate and fall back, never wrap (it counts or indexes: grows with the data)" "if_not_fit"
		assert_eq "$(jget "$T/st.json" 'd["narrowings"][0]["range"]')" "0..255" "range"
		assert_eq "$(jget "$T/st.json" 'sorted(n["member"] for n in d["narrowings"])')" \
			'["entries_bound", "entries_start", "num_entries"]' "all narrowings to 40"
		assert_eq "$(jget "$T/st.json" '[d["pairs_searched"], d["pairs"]]')" "[false, []]" "no pairs"
	else
		fail "not JSON"; detail "$T/st.json"
	fi
fi

tcase "st_table: --header RHash is the 24 bytes of struct RHash"
if [ "$have_st" = 1 ]; then
	sf_ok suggest --format json -t st_table --classes 64,80 --header RHash "$T/st.o"
	assert_eq "$(jget "$T/out" '[d["header"], d["header_name"], d["narrowings"][0]["class_after"]]')" \
		'[24, "RHash", 64]' "header"
	sf_ok suggest -t st_table --classes 64,80 --header RHash "$T/st.o"
	assert_grep "$T/out" "with the 24-byte header (RHash): 72 bytes" "text names the header type"
fi

for combo in "clang x86_64 5" "gcc x86_64 4" "clang x86_64 4"; do
	set -- $combo
	tcase "st_table: same first narrowing with $1, DWARF $3"
	if compile_or_fail "$1" "$2" "$3" "$T/st-$1-$3.o" "$ST_SRC"; then
		sf_ok suggest --format json -t st_table --classes 64,80 --header 24 "$T/st-$1-$3.o"
		assert_eq "$(jget "$T/out" '[d["narrowings"][0][k] for k in ("member", "to", "size", "class_before", "class_after")]')" \
			'["entries_start", 1, 40, 80, 64]' "narrowings[0]"
	fi
done

tcase "st_table --narrow entries_start=1: reorder 48 -> 40 with one move, as the compiler lays it out"
if [ "$have_st" = 1 ]; then
	if check_proposal "$ST_SRC" struct st_table "$T/st.o" gcc x86_64 --narrow entries_start=1; then
		assert_eq "$(jget "$T/sug.json" '[d["base_size"], d["reorder"]["size"], d["reorder"]["moves"]]')" \
			"[48, 40, 1]" "in place 48, reordered 40"
		assert_eq "$(jget "$T/sug.json" 'd["reorder"]["order"][3]')" entries_start "entries_start 4th"
		assert_eq "$(jget "$T/sug.json" 'd["reorder"]["moved"]')" \
			'[{"from": 24, "members": ["entries_start"], "to": 3}]' "moved"
		assert_eq "$(jget "$T/sug.json" 'd["applied"]')" \
			'[{"from": 8, "member": "entries_start", "range": "0..255", "to": 1, "type": "uint8_t"}]' "applied"
		assert_eq "$(jget "$T/sug.json" 'd["narrowings"]')" "[]" "nothing more to narrow"
	fi
	sf_ok suggest -t st_table --narrow entries_start=1 --classes 64,80 --header 24 "$T/st.o"
	assert_grep "$T/out" "reorder: 48 -> 40 bytes (saves 8), 1 move: entries_start (24 -> 3)" "text"
	assert_grep "$T/out" "with the 24-byte header: 64 bytes, class 64 of 64,80 (0 bytes lost); the smallest class" "class after"
fi

tcase "ring: the index head ranks after mode (same size, fewer moves), the pointer buf last (a design change); each says what to do past its range"
if compile_or_fail gcc x86_64 5 "$T/ring.o" "$TD/suggest/ring.c"; then
	sf_ok suggest --format json -t ring "$T/ring.o"
	assert_eq "$(jget "$T/out" '[(n["member"], n["to"], n["size"], n["moves"], n["grows"], n["role"]) for n in d["narrowings"]]')" \
		'[["mode", 4, 24, 1, false, "plain"], ["head", 4, 24, 0, true, "grows"], ["buf", 4, 24, 1, false, "design"]]' "ranking"
	assert_eq "$(jget "$T/out" '[n["if_not_fit"] for n in d["narrowings"]][::2]')" \
		'["outside -2147483648..2147483647: refuse or saturate where it is stored, never truncate", "past index 4294967295: the arena must refuse, never wrap"]' "if_not_fit"
	assert_eq "$(jget "$T/out" 'd["narrowings"][2]["limit"]')" \
		"a design change, not a narrowing: every use of the pointer becomes an index into an arena (patch refuses it)" "buf: a design change"
	sf_ok suggest -t ring "$T/ring.o"
	assert_match "$(grep -m1 '^  1\. ' "$T/out")" "^  1\. mode: long int -> int32_t" "text: mode first"
	assert_grep "$T/out" "struct ring with mode as int32_t, placed for the fewest moves:" "the map shows mode"
fi

# ------------------------------------------------------------ the compiler as oracle

tcase "every proposal of testdata/suggest compiles to the promised size (gcc x86_64)"
have_lay=0
if compile_or_fail gcc x86_64 5 "$T/lay.o" "$LAYOUTS"; then
	have_lay=1
	for spec in "struct padded" "struct with_base" "struct redisObject" "struct _dictkeysobject" \
		    "struct three" "struct wire" "struct wide" "struct bits" "union number"; do
		set -- $spec
		check_proposal "$LAYOUTS" "$1" "$2" "$T/lay.o" gcc x86_64 || break
		# and the best narrowing, applied with --narrow, compiles to its size too
		nw=$(jget "$T/sug.json" '"%s=%d" % (d["narrowings"][0]["member"], d["narrowings"][0]["to"]) if d["narrowings"] else ""')
		if [ -n "$nw" ]; then
			want=$(jget "$T/sug.json" 'd["narrowings"][0]["size"]')
			check_proposal "$LAYOUTS" "$1" "$2" "$T/lay.o" gcc x86_64 --narrow "$nw" || break
			assert_eq "$(jget "$T/sug.json" 'd["reorder"]["size"]')" "$want" "$2 --narrow $nw: the size narrowings[0] promised"
		fi
	done
fi

for tgt in "clang i386" "clang arm" "gcc i386"; do
	set -- $tgt
	tcase "proposals compile to the promised size on $2 ($1)"
	if compile_or_fail "$1" "$2" 4 "$T/lay-$2.o" "$LAYOUTS" && compile_or_fail "$1" "$2" 4 "$T/st-$2.o" "$ST_SRC"; then
		for spec in "struct padded" "struct with_base" "struct redisObject" "struct _dictkeysobject" \
			    "struct three" "struct wide" "struct bits"; do
			set -- $tgt $spec
			check_proposal "$LAYOUTS" "$3" "$4" "$T/lay-$2.o" "$1" "$2" || break
		done
		set -- $tgt
		check_proposal "$ST_SRC" struct st_table "$T/st-$2.o" "$1" "$2" --narrow entries_start=1
	fi
done

tcase "pins hold in the compiled proposal; pinning never makes it smaller"
if [ "$have_lay" = 1 ]; then
	sf_ok suggest --format json -t padded "$T/lay.o"
	free=$(jget "$T/out" 'd["reorder"]["size"]')
	if check_proposal "$LAYOUTS" struct padded "$T/lay.o" gcc x86_64 --pin d; then
		pinned=$(jget "$T/sug.json" 'd["reorder"]["size"]')
		assert_eq "$((pinned >= free))" 1 "pinned size $pinned >= free size $free"
		assert_eq "$(jget "$T/sug.json" '[m for x in d["reorder"]["moved"] for m in x["members"] if m == "d"]')" "[]" "d not moved"
	fi
	check_proposal "$LAYOUTS" struct padded "$T/lay.o" gcc x86_64 --pin b --pin e
fi

# ------------------------------------------------------------ shapes of results

tcase "padded: 32 -> 16 by reordering, two moves, the map shows no hole"
if [ "$have_lay" = 1 ]; then
	sf_ok suggest --format json -t padded "$T/lay.o"
	assert_eq "$(jget "$T/out" '[d["size"], d["reorder"]["size"], d["reorder"]["saved"], d["reorder"]["moves"]]')" \
		"[32, 16, 16, 2]" "sizes and moves"
	sf_ok suggest -t padded "$T/lay.o"
	assert_grep "$T/out" "reorder: 32 -> 16 bytes (saves 16), 2 moves:" "text"
	assert_grep "$T/out" "/* size: 16, cachelines: 1, members: 5 */" "hole map of the proposal"
fi

tcase "with_base: the leading struct member stays first unless --no-pin-first"
if [ "$have_lay" = 1 ]; then
	sf_ok suggest --format json -t with_base "$T/lay.o"
	assert_eq "$(jget "$T/out" 'd["reorder"]["order"][0]')" basic "basic first"
	assert_eq "$(jget "$T/out" '[d["reorder"]["size"], d["reorder"]["moves"]]')" "[32, 1]" "40 -> 32, one move"
	assert_eq "$(jget "$T/out" 'd["reorder"]["moved"][0]["members"]')" '["z"]' "z moves next to x"
	sf_ok suggest --format json --no-pin-first -t with_base "$T/lay.o"
	assert_eq "$(jget "$T/out" 'd["reorder"]["size"]')" 32 "same size unpinned"
fi

tcase "redisObject: the bit-field run type:4, encoding:4, lru:24 moves as one, is never narrowed"
if [ "$have_lay" = 1 ]; then
	sf_ok suggest --format json -t redisObject --classes 12,16 "$T/lay.o"
	assert_eq "$(jget "$T/out" 'd["reorder"]["order"][:3]')" '["type", "encoding", "lru"]' "run together"
	assert_eq "$(jget "$T/out" '[(n["member"], n["to"], n["size"], n["class_after"]) for n in d["narrowings"]]')" \
		'[["ptr", 4, 12, 12]]' "only ptr, as a 4-byte index"
	sf_ok suggest -t redisObject "$T/lay.o"
	assert_grep "$T/out" "an index 0..4294967295 in place of the pointer" "pointer wording"
	assert_exit 2 "narrowing a bit-field" "$SF" suggest -t redisObject --narrow lru=1 "$T/lay.o"
	assert_match "$(cat "$T/err")" "^structfit: --narrow lru=1: it is a bit-field" "message"
fi

tcase "a bit-field run after an unnamed :0 (absent from DWARF) is still modeled"
if [ "$have_lay" = 1 ]; then
	sf_ok suggest --format json -t zero_width "$T/lay.o"
	assert_eq "$(jget "$T/out" '[d["modeled"], d["size"], d["reorder"]["size"], d["reorder"]["moves"]]')" \
		"[true, 24, 16, 1]" "24 -> 16, one move"
	assert_eq "$(jget "$T/out" 'd["reorder"]["moved"]')" '[{"from": 16, "members": ["d"], "to": 5}]' "d moves up"
fi

tcase "_dictkeysobject: the 1-byte hole at 11 takes a narrowed Py_ssize_t; dk_indices stays last"
if [ "$have_lay" = 1 ]; then
	sf_ok suggest --format json -t _dictkeysobject "$T/lay.o"
	assert_eq "$(jget "$T/out" '[(n["member"], n["offset"], n["size"], n["range"]) for n in d["narrowings"] if n["member"] == "dk_usable"]')" \
		'[["dk_usable", 11, 24, "-128..127"]]' "dk_usable into the hole, signed range"
	assert_eq "$(jget "$T/out" 'd["reorder"]["order"][-1]')" dk_indices "flexible array last"
fi

tcase "three ints, classes 8,12: no single narrowing crosses, the pair a+b as int16_t does"
if [ "$have_lay" = 1 ]; then
	sf_ok suggest --format json -t three --classes 8,12 "$T/lay.o"
	assert_eq "$(jget "$T/out" '[d["narrowings"], d["pairs_searched"], len(d["pairs"])]')" "[[], true, 3]" "pairs only"
	assert_eq "$(jget "$T/out" '[[(x["member"], x["to"]) for x in p["narrow"]] + [p["size"], p["class_after"]] for p in d["pairs"]][0]')" \
		'[["a", 2], ["b", 2], 8, 8]' "best pair"
	sf_ok suggest -t three --classes 8,12 "$T/lay.o"
	assert_grep "$T/out" "no single narrowing reaches a smaller class; pairs that do:" "text"
fi

tcase "union: order does not matter; narrowing its widest member does"
if [ "$have_lay" = 1 ]; then
	sf_ok suggest -t number "$T/lay.o"
	assert_grep "$T/out" "the members of a union all start at offset 0" "union wording"
	sf_ok suggest --format json -t number "$T/lay.o"
	assert_eq "$(jget "$T/out" '[(n["member"], n["to"], n["size"]) for n in d["narrowings"]]')" \
		'[["l", 4, 4]]' "l as int32_t: 4 bytes"
fi

tcase "wide (14 members): beyond the exact search, says so; size is the minimum"
if [ "$have_lay" = 1 ]; then
	sf_ok suggest --format json -t wide "$T/lay.o"
	assert_eq "$(jget "$T/out" '[d["size"], d["reorder"]["size"], d["reorder"]["exact"]]')" "[112, 64, false]" "112 -> 64"
	sf_ok suggest -t wide "$T/lay.o"
	assert_grep "$T/out" "beyond the exact search of 12" "heuristic note"
fi

tcase "packed struct: reordering cannot help, narrowing can"
if [ "$have_lay" = 1 ]; then
	sf_ok suggest --format json -t wire "$T/lay.o"
	assert_eq "$(jget "$T/out" '[d["modeled"], d["size"], d["reorder"]["size"], d["narrowings"][0]["size"]]')" \
		"[true, 7, 7, 4]" "7 bytes, value as int8_t: 4"
fi

# ------------------------------------------------------------ bad input

# bad CASE WHAT ARGS...: exit 2, one "structfit: " line matching WHAT, no stdout.
bad() {
	local what=$1
	shift
	assert_exit 2 "suggest $*" "$SF" suggest "$@"
	assert_eq "$(wc -c <"$T/out")" 0 "stdout bytes ($*)"
	assert_eq "$(wc -l <"$T/err")" 1 "stderr lines ($*)"
	assert_match "$(cat "$T/err")" "^structfit: .*$what" "message ($*)"
}

tcase "bad input: members, widths, classes, types: one line, exit 2"
if [ "$have_st" = 1 ]; then
	bad "--pin: struct st_table has no member 'nosuch'" -t st_table --pin nosuch "$T/st.o"
	bad "--narrow nosuch=1: struct st_table has no member 'nosuch'" -t st_table --narrow nosuch=1 "$T/st.o"
	bad "--narrow entries_start=8: 8 bytes is not smaller than its 8 bytes" -t st_table --narrow entries_start=8 "$T/st.o"
	bad "--narrow rebuilds_num=4: 4 bytes is not smaller" -t st_table --narrow rebuilds_num=4 "$T/st.o"
	bad "--narrow entries_start=3: the new width must be 1, 2, 4 or 8" -t st_table --narrow entries_start=3 "$T/st.o"
	bad "--narrow: 'entries_start' is not MEMBER=BYTES" -t st_table --narrow entries_start "$T/st.o"
	bad "narrowed twice" -t st_table --narrow entries_start=1 --narrow entries_start=2 "$T/st.o"
	bad "--classes: empty class list" -t st_table --classes "" "$T/st.o"
	bad "--classes: '80,64': classes must be strictly increasing \(64 after 80\)" -t st_table --classes 80,64 "$T/st.o"
	bad "--classes: '64,,80': empty item" -t st_table --classes 64,,80 "$T/st.o"
	bad "--classes: 'rubby': unknown preset" -t st_table --classes rubby "$T/st.o"
	bad "type 'no_such_struct' not found" -t no_such_struct "$T/st.o"
	bad "type 'NoHeader' not found" -t st_table --header NoHeader "$T/st.o"
	bad "--header: '-8' is not a byte count" -t st_table --header -8 "$T/st.o"
	bad "suggest needs -t NAME" "$T/st.o"
	bad "suggest takes one -t NAME" -t st_table -t RHash "$T/st.o"
	bad "no input FILE" -t st_table
fi
if [ "$have_lay" = 1 ]; then
	bad "--narrow basic=1: it is a struct" -t with_base --narrow basic=1 "$T/lay.o"
fi

tcase "--help: usage on stdout, exit 0"
sf_ok suggest --help
assert_grep "$T/out" "usage: structfit suggest -t NAME" "usage"
assert_eq "$(wc -c <"$T/err")" 0 "stderr bytes"

tdone
