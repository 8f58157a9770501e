#!/bin/bash
# tests/e2e/classes.sh - `structfit classes`: the presets and their classes.
#
#  - with no argument: the seven presets, each with its count, range and
#    source, in text and JSON;
#  - each preset against the published numbers: ruby-3.3 40..640,
#    kmalloc 8..8192 with 96 and 192, cacheline 64,128, jemalloc's small
#    classes and first large ones, mimalloc's exact words then four per
#    doubling, tcmalloc's 16-byte table, and glibc against its rounding
#    formula (request + 8 rounded up to 16, at least 32, minus 8) for
#    every request the shell computes;
#  - a list is checked the way --classes checks it; bad lists (empty, an
#    empty item, unsorted, zero, garbage, an unknown name) are one line
#    "structfit: ...", exit 2, nothing on stdout.
. "$(dirname "$0")/lib.sh"

PRESETS="ruby-3.3 jemalloc glibc mimalloc tcmalloc kmalloc cacheline"

tcase "classes: the seven presets, with counts and sources"
sf_ok classes
cp "$T/out" "$T/list.txt"
assert_eq "$(awk 'NF > 3 && $3 ~ /^[0-9]+$/ { printf "%s ", $1 }' "$T/list.txt")" "$PRESETS " "preset names in order"
assert_match "$(grep '^ruby-3.3' "$T/list.txt")" "^ruby-3.3 +5 +40 \.\. 640 +Ruby 3\.3 GC heap slot sizes" "ruby line"
assert_match "$(grep '^kmalloc' "$T/list.txt")" "^kmalloc +13 +8 \.\. 8192 " "kmalloc line"
# column headers, then the seven data lines; the hint for people is on stderr
assert_eq "$(sed -n 1p "$T/list.txt")" "preset     count range                 source" "column headers"
assert_eq "$(awk 'NR == 1 { print index($0, "source") } NR == 2 { print index($0, "Ruby") }' "$T/list.txt" | sort -u | wc -l | tr -d ' ')" 1 "source column aligned"
assert_eq "$(wc -l <"$T/list.txt")" 8 "stdout lines (headers and data)"
assert_match "$(cat "$T/err")" "^structfit: 'structfit classes NAME' lists a preset's classes" "hint on stderr"

tcase "classes --format json: every preset strictly increasing, names and sources"
sf_ok classes --format json
cp "$T/out" "$T/all.json"
if is_json "$T/all.json"; then
	assert_eq "$(jget "$T/all.json" '" ".join(p["classes"] for p in d["presets"])')" "$PRESETS" "names"
	assert_eq "$(jget "$T/all.json" 'all(all(a < b for a, b in zip(p["sizes"], p["sizes"][1:])) and p["sizes"][0] > 0 for p in d["presets"])')" \
		true "strictly increasing, positive"
	assert_eq "$(jget "$T/all.json" 'all(len(p["source"]) > 10 for p in d["presets"])')" true "sources"
else
	fail "not JSON"
fi

# classes_of NAME: the classes of one preset, space-separated.
classes_of() {
	"$SF" classes --format json "$1" >"$T/one.json" 2>"$T/one.err" &&
		jget "$T/one.json" '" ".join(str(c) for c in d["presets"][0]["sizes"])'
}

tcase "ruby-3.3, kmalloc, cacheline: the exact lists"
assert_eq "$(classes_of ruby-3.3)" "40 80 160 320 640" "ruby-3.3"
assert_eq "$(classes_of kmalloc)" "8 16 32 64 96 128 192 256 512 1024 2048 4096 8192" "kmalloc"
assert_eq "$(classes_of cacheline)" "64 128" "cacheline"
sf_ok classes ruby-3.3
assert_eq "$(sed -n 2p "$T/out")" "40, 80, 160, 320, 640" "text list"

tcase "jemalloc: small classes four per doubling to 14336, large from 16 KiB"
j=$(classes_of jemalloc)
assert_match "$j" "^8 16 32 48 64 80 96 112 128 160 192 224 256 320 384 448 512 640 768 896 1024 1280 " "small start"
assert_match "$j" " 10240 12288 14336 16384 20480 24576 28672 32768 " "small end, large start"
# four classes per doubling above 64: each group's step is a quarter of its base
assert_eq "$(printf '%s\n' $j | awk 'NR > 5 { b = 2 ^ int(log(p) / log(2) + 1e-9); if (p >= 64 && $1 - p != b / 4) bad++ } { p = $1 } END { print bad + 0 }')" 0 "spacing"

tcase "mimalloc: every word to 64, then four bins per doubling to 128 KiB"
m=$(classes_of mimalloc)
assert_match "$m" "^8 16 24 32 40 48 56 64 80 96 112 128 160 192 224 256 320 " "start"
assert_match "$m" " 131072$" "end"

tcase "tcmalloc: the 16-byte-aligned table"
assert_match "$(classes_of tcmalloc)" "^8 16 32 48 64 80 96 112 128 144 160 176 192 " "start"

tcase "glibc: usable sizes follow request2size for every request below 128 KiB"
g=$(classes_of glibc)
printf '%s\n' $g >"$T/glibc.txt"
assert_eq "$(head -n 3 "$T/glibc.txt" | tr '\n' ' ')" "24 40 56 " "first three"
# every request from 1 to 131063: chunk = max(32, (n + 8 + 15) & ~15), usable = chunk - 8
assert_eq "$(awk 'NR == FNR { c[++n] = $1; next } END {
	i = 1; bad = 0
	for (r = 1; r < 131064; r++) {
		ch = int((r + 8 + 15) / 16) * 16; if (ch < 32) ch = 32
		while (c[i] < r) i++
		if (c[i] != ch - 8) bad++
	}
	print bad }' "$T/glibc.txt" /dev/null)" 0 "requests landing elsewhere"
sf_ok classes glibc
assert_grep "$T/out" "24, 40, ..., 131064 (every 16)" "long runs shortened in text"

tcase "a list is accepted and shown as --classes reads it"
sf_ok classes 32,64,96
assert_eq "$(sed -n 2p "$T/out")" "32, 64, 96" "list"
sf_ok classes --format json " 40 , 80 "
assert_eq "$(jget "$T/out" 'd["presets"][0]["sizes"]')" "[40, 80]" "blanks around items"

bad() {
	local what=$1
	shift
	assert_exit 2 "classes $*" "$SF" classes "$@"
	assert_eq "$(wc -c <"$T/out")" 0 "stdout bytes ($*)"
	assert_eq "$(wc -l <"$T/err")" 1 "stderr lines ($*)"
	assert_match "$(cat "$T/err")" "^structfit: classes: .*$what" "message ($*)"
}

tcase "bad lists: one line, exit 2, the same message --classes gives"
bad "empty class list" ""
bad "'32,,64': empty item" 32,,64
bad "'32,64,': empty item" 32,64,
bad "'64,32': classes must be strictly increasing \(32 after 64\)" 64,32
bad "'32,32': classes must be strictly increasing" 32,32
bad "'0,32': a class of 0 bytes" 0,32
bad "'32,abc': 'abc' is not a preset or a byte count" 32,abc
bad "'jemaloc': unknown preset" jemaloc
bad "'99999999999999999999': class '99999999999999999999' is too large" 99999999999999999999
assert_exit 2 "two arguments" "$SF" classes ruby-3.3 glibc
assert_match "$(cat "$T/err")" "^structfit: classes takes at most one NAME" "two arguments message"
assert_exit 2 "unknown option" "$SF" classes --frobnicate
assert_eq "$(wc -l <"$T/err")" 1 "unknown option: one line"

tcase "--help: usage on stdout, exit 0"
sf_ok classes --help
assert_grep "$T/out" "usage: structfit classes" "usage"

tdone
