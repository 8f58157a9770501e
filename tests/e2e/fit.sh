#!/bin/bash
# tests/e2e/fit.sh - `structfit fit` end to end, on objects compiled here.
#
#  - RHash + st_table (testdata/example/st_table.c): 24 + 48 = 72 bytes,
#    class 80 of ruby-3.3 with 8 bytes lost and 32 to go to 40; 8 to go to
#    64 with the classes 64,80; --count multiplies it out; in text and JSON;
#  - a candidate layout without touching the source: --narrow
#    entries_start=1 in place (still 72: the byte goes at offset 24 and
#    the next member back to 32) and with --reorder (64, class 64), the same
#    size suggest promises for that narrowing;
#  - --overhead, repeated -t, TYPE.MEMBER, above the largest class, exactly
#    the smallest class; sizes checked against sizeof from the compiler;
#  - bad input: no --classes, bad class lists, unknown type or member, a
#    member two types have, a width that is not smaller, --count 0: one line
#    "structfit: ...", exit 2, nothing on stdout.
. "$(dirname "$0")/lib.sh"

ST_SRC=$TD/example/st_table.c
LAYOUTS=$TD/suggest/layouts.c

# sizeof_c SRC EXPR: sizeof(EXPR) in SRC, from the compiler (gcc, x86_64).
sizeof_c() {
	printf '#include "%s"\nchar sf_probe[%s];\n' "$1" "$2" >"$T/sz.c"
	compile gcc x86_64 4 "$T/sz.o" "$T/sz.c" || { echo "?"; return; }
	readelf -sW "$T/sz.o" | awk '$8 == "sf_probe" { print $3 }'
}

tcase "RHash+st_table in ruby-3.3: 72 bytes, class 80, 8 lost, 32 to go (text)"
have_st=0
if compile_or_fail gcc x86_64 5 "$T/st.o" "$ST_SRC"; then
	have_st=1
	sf_ok fit -t RHash+st_table --classes ruby-3.3 "$T/st.o"
	cp "$T/out" "$T/fit.txt"
	assert_eq "$(sed -n 1p "$T/fit.txt")" "RHash 24 + st_table 48 = 72 bytes" "sum line"
	assert_eq "$(sed -n 2p "$T/fit.txt")" "class 80 of ruby-3.3: 8 bytes lost to rounding (10.0%)" "class line"
	assert_eq "$(sed -n 3p "$T/fit.txt")" "next smaller class 40: 32 bytes to go" "next lower"
	assert_eq "$(wc -l <"$T/fit.txt")" 3 "lines"
	# the compiler agrees on the sum
	assert_eq "$(sizeof_c "$ST_SRC" 'sizeof(struct RHash) + sizeof(struct st_table)')" 72 "sizeof sum"
fi

tcase "JSON: size, class, waste, to_next_lower"
if [ "$have_st" = 1 ]; then
	sf_ok fit --format json -t RHash+st_table --classes ruby-3.3 "$T/st.o"
	if is_json "$T/out"; then
		assert_eq "$(jget "$T/out" '[d[k] for k in ("size", "class", "rounding_loss", "next_lower", "to_next_lower", "overhead")]')" \
			"[72, 80, 8, 40, 32, 0]" "fit"
		assert_eq "$(jget "$T/out" '[(x["name"], x["size"]) for x in d["types"]]')" \
			'[["RHash", 24], ["st_table", 48]]' "types"
		assert_eq "$(jget "$T/out" '[d["count"], d["total_bytes"], d["total_rounding_loss"]]')" "[null, null, null]" "no count"
	else
		fail "not JSON"; detail "$T/out"
	fi
	sf_ok fit --format json -t RHash+st_table --classes 64,80 "$T/st.o"
	assert_eq "$(jget "$T/out" '[d["class"], d["next_lower"], d["to_next_lower"], d["classes"]]')" \
		'[80, 64, 8, "64,80"]' "64,80: 8 bytes to go"
fi

tcase "--count 1000000: 76.3 MiB, 7.6 MiB lost to rounding"
if [ "$have_st" = 1 ]; then
	sf_ok fit -t RHash+st_table --classes ruby-3.3 --count 1000000 "$T/st.o"
	assert_grep "$T/out" "1,000,000 instances: 76.3 MiB, 7.6 MiB lost to rounding" "count line"
	sf_ok fit --format json -t RHash+st_table --classes ruby-3.3 --count 1000000 "$T/st.o"
	assert_eq "$(jget "$T/out" '[d["count"], d["total_bytes"], d["total_rounding_loss"]]')" \
		"[1000000, 80000000, 8000000]" "totals"
fi

tcase "-t RHash -t st_table is RHash+st_table; struct names work too"
if [ "$have_st" = 1 ]; then
	sf_ok fit --format json -t RHash -t "struct st_table" --classes ruby-3.3 "$T/st.o"
	assert_eq "$(jget "$T/out" '[d["size"], d["class"]]')" "[72, 80]" "same fit"
fi

tcase "candidate layout: --narrow entries_start=1 in place stays 72; with --reorder 64, class 64"
if [ "$have_st" = 1 ]; then
	sf_ok fit --format json -t RHash+st_table --classes 64,80 --narrow entries_start=1 "$T/st.o"
	assert_eq "$(jget "$T/out" '[d["size"], d["class"], [x["size"] for x in d["types"]]]')" \
		"[72, 80, [24, 48]]" "in place"
	assert_eq "$(jget "$T/out" 'd["types"][1]["narrowed"]')" \
		'[{"from": 8, "member": "entries_start", "range": "0..255", "to": 1, "type": "uint8_t"}]' "narrowed"
	sf_ok fit --format json -t RHash+st_table --classes 64,80 --narrow entries_start=1 --reorder "$T/st.o"
	assert_eq "$(jget "$T/out" '[d["size"], d["class"], d["rounding_loss"], d["next_lower"], d["types"][1]["reordered"]]')" \
		"[64, 64, 0, null, true]" "reordered"
	# what suggest promised for that narrowing
	sf_ok suggest --format json -t st_table --classes 64,80 --header RHash "$T/st.o"
	assert_eq "$(jget "$T/out" '24 + [n["size"] for n in d["narrowings"] if n["member"] == "entries_start"][0]')" 64 "suggest agrees"
	sf_ok fit -t RHash+st_table --classes 64,80 --narrow st_table.entries_start=1 --reorder "$T/st.o"
	assert_grep "$T/out" "st_table: 48 bytes as declared; entries_start as uint8_t, reordered" "text note"
	assert_grep "$T/out" "already the smallest class" "smallest"
fi

tcase "--overhead, above the largest class, exactly a class"
if [ "$have_st" = 1 ]; then
	sf_ok fit --format json -t RHash+st_table --overhead 16 --classes ruby-3.3 "$T/st.o"
	assert_eq "$(jget "$T/out" '[d["size"], d["class"], d["rounding_loss"], d["overhead"]]')" "[88, 160, 72, 16]" "overhead"
	sf_ok fit -t RHash+st_table --overhead 16 --classes ruby-3.3 "$T/st.o"
	assert_eq "$(sed -n 1p "$T/out")" "RHash 24 + st_table 48 + overhead 16 = 88 bytes" "sum line"
	sf_ok fit --format json -t st_table --classes 32 "$T/st.o"
	assert_eq "$(jget "$T/out" '[d["class"], d["rounding_loss"], d["next_lower"], d["to_next_lower"]]')" \
		"[null, null, 32, 16]" "above every class"
	sf_ok fit -t st_table --classes 32 "$T/st.o"
	assert_grep "$T/out" "no class: larger than every class of 32 (16 bytes over the largest, 32)" "text"
	sf_ok fit --format json -t st_table --classes 48,64 "$T/st.o"
	assert_eq "$(jget "$T/out" '[d["class"], d["rounding_loss"], d["next_lower"], d["to_next_lower"]]')" \
		"[48, 0, null, null]" "exactly the smallest class"
fi

tcase "presets: jemalloc, glibc, kmalloc put RHash+st_table where their rules say"
if [ "$have_st" = 1 ]; then
	for p in "jemalloc 80" "glibc 72" "kmalloc 96" "mimalloc 80" "tcmalloc 80" "cacheline 128"; do
		set -- $p
		sf_ok fit --format json -t RHash+st_table --classes "$1" "$T/st.o"
		assert_eq "$(jget "$T/out" 'd["class"]')" "$2" "$1"
	done
fi

tcase "TYPE.MEMBER when two types have the member; sizes match the compiler"
if compile_or_fail gcc x86_64 5 "$T/lay.o" "$LAYOUTS"; then
	sf_ok fit --format json -t padded+three --classes 64 "$T/lay.o"
	assert_eq "$(jget "$T/out" 'd["size"]')" \
		"$(sizeof_c "$LAYOUTS" 'sizeof(struct padded) + sizeof(struct three)')" "sum = sizeof"
	assert_exit 2 "ambiguous member" "$SF" fit -t padded+three --classes 64 --narrow b=2 "$T/lay.o"
	assert_match "$(cat "$T/err")" "^structfit: --narrow b=2: both padded and three have a member 'b'; write TYPE.b" "message"
	sf_ok fit --format json -t padded+three --classes 64 --narrow three.b=2 "$T/lay.o"
	assert_eq "$(jget "$T/out" '[x["narrowed"][0]["member"] for x in d["types"] if x["narrowed"]]')" '["b"]' "only three.b"
	assert_eq "$(jget "$T/out" 'd["types"][1]["size"]')" 12 "in place: b as short still 12"
	sf_ok fit --format json -t three --classes 64 --narrow a=2 --narrow b=2 "$T/lay.o"
	assert_eq "$(jget "$T/out" 'd["size"]')" 8 "a and b as short: 8"
fi

bad() {
	local what=$1
	shift
	assert_exit 2 "fit $*" "$SF" fit "$@"
	assert_eq "$(wc -c <"$T/out")" 0 "stdout bytes ($*)"
	assert_eq "$(wc -l <"$T/err")" 1 "stderr lines ($*)"
	assert_match "$(cat "$T/err")" "^structfit: .*$what" "message ($*)"
}

tcase "bad input: one line, exit 2"
if [ "$have_st" = 1 ]; then
	bad "fit needs --classes SPEC" -t st_table "$T/st.o"
	bad "fit needs -t NAME" --classes ruby-3.3 "$T/st.o"
	bad "--classes: empty class list" -t st_table --classes "" "$T/st.o"
	bad "--classes: '64,32': classes must be strictly increasing" -t st_table --classes 64,32 "$T/st.o"
	bad "--classes: '0,64': a class of 0 bytes" -t st_table --classes 0,64 "$T/st.o"
	bad "--classes: '64,x': 'x' is not a preset or a byte count" -t st_table --classes 64,x "$T/st.o"
	bad "type 'nosuch' not found" -t RHash+nosuch --classes ruby-3.3 "$T/st.o"
	bad "-t 'RHash[+]': an empty type name" -t RHash+ --classes ruby-3.3 "$T/st.o"
	bad "--narrow nosuch=1: no member 'nosuch'" -t st_table --classes ruby-3.3 --narrow nosuch=1 "$T/st.o"
	bad "--narrow entries_start=8: 8 bytes is not smaller than its 8 bytes" -t st_table --classes ruby-3.3 --narrow entries_start=8 "$T/st.o"
	bad "--narrow basic=4: it is a struct" -t RHash --classes ruby-3.3 --narrow basic=4 "$T/st.o"
	bad "--count: '0' is not a positive number" -t st_table --classes ruby-3.3 --count 0 "$T/st.o"
	bad "--overhead: 'lots' is not a byte count" -t st_table --classes ruby-3.3 --overhead lots "$T/st.o"
fi

tcase "--help: usage on stdout, exit 0"
sf_ok fit --help
assert_grep "$T/out" "usage: structfit fit -t NAME[+NAME...] --classes SPEC" "usage"

tdone
