#!/bin/bash
# tests/e2e/elf.sh - the ELF container: relocations, compressed debug
# sections and slim LTO objects, each against an oracle built here.
#
#  - relocations on riscv64 (ADD/SUB label pairs), s390x (big-endian),
#    ppc64le, ppc (32-bit big-endian), mips (32-bit big-endian, REL) and
#    mips64el (its split r_info), DWARF 4 and 5: structfit on the .o (its
#    own relocations) must print what it prints on the same object linked
#    by ld.lld (the linker's relocations), byte for byte, and the compiler's
#    own sizeof/_Alignof/offsetof (ld.lld 14 cannot link s390x: the
#    compiler alone there);
#  - debug sections compressed with zstd (objcopy, gas, ld) and zlib
#    (gcc -gz, objcopy zlib-gnu .zdebug, llvm-objcopy on big-endian s390x)
#    read exactly as the uncompressed file; corrupt ones are one error line;
#  - gcc's slim LTO objects (DWARF in .gnu.debuglto_.debug_*) read exactly
#    as the same source built without -flto; fat ones too.
. "$(dirname "$0")/lib.sh"

RELOCS=$TD/e2e/relocs.c
LAYOUTS=$TD/e2e/layouts.c

# json_no_origin FILE: the JSON of FILE without "origin" (the only field
# that names the input), keys sorted, for comparing two inputs.
json_no_origin() {
	"$PY" -S -c '
import json, sys
def strip(x):
    if isinstance(x, dict):
        return {k: strip(v) for k, v in x.items() if k != "origin"}
    if isinstance(x, list):
        return [strip(v) for v in x]
    return x
print(json.dumps(strip(json.load(open(sys.argv[1]))), sort_keys=True, indent=1))' "$1"
}

# same_as REF_TXT REF_JSON FILE WHAT: structfit's text and JSON on FILE are
# those of the reference (JSON without origins), byte for byte.
same_as() {
	local txt=$1 json=$2 file=$3 what=$4
	sf_ok show "$file" || return 1
	if ! cmp -s "$txt" "$T/out"; then
		diff -u "$txt" "$T/out" >"$T/diff"
		fail "$what: text differs from the reference"
		detail "$T/diff"
		return 1
	fi
	sf_ok show --format json "$file" || return 1
	json_no_origin "$T/out" >"$T/cmp.json" || { fail "$what: not JSON"; return 1; }
	if ! cmp -s "$json" "$T/cmp.json"; then
		diff -u "$json" "$T/cmp.json" >"$T/diff"
		fail "$what: JSON differs from the reference"
		detail "$T/diff"
		return 1
	fi
}

# reference FILE NAME: structfit's text and JSON on FILE as $T/NAME.txt
# and $T/NAME.json (without origins).
reference() {
	sf_ok show "$1" || return 1
	cp "$T/out" "$T/$2.txt"
	[ "$(grep -c '^struct \|^union ' "$T/$2.txt")" -ge 3 ] ||
		{ fail "reference $2: too few types"; return 1; }
	sf_ok show --format json "$1" || return 1
	json_no_origin "$T/out" >"$T/$2.json"
}

# compressed FILE HOW: the debug sections of FILE are compressed, as HOW
# (ZSTD or ZLIB: gABI SHF_COMPRESSED; zdebug: GNU .zdebug_*).
compressed() {
	case $2 in
	zdebug) readelf -SW "$1" | grep -q '\.zdebug_info' ;;
	*) readelf -SWt "$1" | grep -A3 '\] \.debug_info *$' | grep -q "^ *$2, " ;;
	esac || fail "$1: .debug_info is not compressed as $2 (the tool did not do it)"
}

# ------------------------------------------------------------ relocations

for target in $RELOC_TARGETS; do
	for dw in 4 5; do
		tcase "$target DWARF $dw: the .o as the linker and the compiler have it"
		o=$T/r-$target-$dw.o
		compile_or_fail clang "$target" "$dw" "$o" "$RELOCS" || continue
		# relocations into the debug sections are there to apply
		nrel=$(readelf -rW "$o" | grep -c "^Relocation section '\.rela\?\.debug_")
		[ "$nrel" -ge 3 ] || fail "only $nrel debug relocation sections"
		if [ "$target" = riscv64 ]; then
			types=$(readelf -rW "$o" | awk '/^Relocation section/ { s = $3 } s ~ /debug_info/ { print $3 }')
			assert_match "$types" 'R_RISCV_ADD32' "riscv .debug_info has ADD32 (label differences)"
			assert_match "$types" 'R_RISCV_SUB32' "riscv .debug_info has SUB32"
		fi
		sf_ok show --format json "$o" || continue
		cp "$T/out" "$o.json"
		probe_layout "$o.json" "$RELOCS" clang "$target" "$o.facts" || continue
		if ! diff "$o.facts" "$o.facts.sf" >"$T/diff"; then
			fail "structfit (>) and the compiler (<) disagree: $(grep '^[<>]' "$T/diff" | head -4 | tr '\n' ' ')"
			detail "$T/diff"
		fi
		[ "$(wc -l <"$o.facts")" -gt 20 ] || fail "only $(wc -l <"$o.facts") facts probed"
		assert_eq "$(jget "$o.json" 't("reloc_node")["decl_line"]')" \
			"$(grep -n '^struct reloc_node {' "$RELOCS" | cut -d: -f1)" "decl_line (from the line table)"
		if [ "$target" = s390x ]; then
			continue	# ld.lld 14 has no s390x: the compiler is the oracle
		fi
		if ! ld.lld -shared -o "$o.so" "$o" 2>"$T/ld.err"; then
			fail "ld.lld cannot link $target: $(head -n 2 "$T/ld.err" | tr '\n' ' ')"
			continue
		fi
		reference "$o.so" "linked-$target-$dw" &&
			same_as "$T/linked-$target-$dw.txt" "$T/linked-$target-$dw.json" "$o" \
				"the .o against the linked file"
	done
done

# ------------------------------------------------------------ compression

tcase "zstd and zlib debug sections read as the uncompressed object, byte for byte"
if compile_or_fail gcc x86_64 5 "$T/plain.o" "$LAYOUTS" && reference "$T/plain.o" plain; then
	objcopy --compress-debug-sections=zstd "$T/plain.o" "$T/zstd.o"
	compressed "$T/zstd.o" ZSTD && same_as "$T/plain.txt" "$T/plain.json" "$T/zstd.o" "objcopy zstd"
	# gcc 12 has no -gz=zstd; its assembler does it
	compile_or_fail gcc x86_64 5 "$T/zstd-as.o" "$LAYOUTS" -Wa,--compress-debug-sections=zstd &&
		compressed "$T/zstd-as.o" ZSTD &&
		same_as "$T/plain.txt" "$T/plain.json" "$T/zstd-as.o" "gcc -Wa,--compress-debug-sections=zstd"
	compile_or_fail gcc x86_64 5 "$T/gz.o" "$LAYOUTS" -gz &&
		compressed "$T/gz.o" ZLIB && same_as "$T/plain.txt" "$T/plain.json" "$T/gz.o" "gcc -gz"
	objcopy --compress-debug-sections=zlib-gnu "$T/plain.o" "$T/zdebug.o"
	compressed "$T/zdebug.o" zdebug && same_as "$T/plain.txt" "$T/plain.json" "$T/zdebug.o" "objcopy zlib-gnu"
	# libelf rewrites a section header when it inflates the section: in
	# structfit's private mapping, never in the file
	sums=$(cd "$T" && md5sum zstd.o zstd-as.o gz.o zdebug.o)
	for f in zstd.o gz.o zdebug.o; do sf_ok holes "$T/$f"; done
	assert_eq "$(cd "$T" && md5sum zstd.o zstd-as.o gz.o zdebug.o)" "$sums" "inputs unchanged"
fi

tcase "compressed debug sections of a linked library (ld zstd, objcopy zstd and zlib-gnu)"
if gcc -g -shared -fPIC -nostdlib -o "$T/plain.so" "$LAYOUTS" 2>"$T/cc.err" && reference "$T/plain.so" plainso; then
	gcc -g -shared -fPIC -nostdlib -Wl,--compress-debug-sections=zstd -o "$T/ld-zstd.so" "$LAYOUTS"
	compressed "$T/ld-zstd.so" ZSTD &&
		same_as "$T/plainso.txt" "$T/plainso.json" "$T/ld-zstd.so" "ld --compress-debug-sections=zstd"
	objcopy --compress-debug-sections=zstd "$T/plain.so" "$T/zstd.so"
	compressed "$T/zstd.so" ZSTD && same_as "$T/plainso.txt" "$T/plainso.json" "$T/zstd.so" "objcopy zstd"
	objcopy --compress-debug-sections=zlib-gnu "$T/plain.so" "$T/zdebug.so"
	compressed "$T/zdebug.so" zdebug && same_as "$T/plainso.txt" "$T/plainso.json" "$T/zdebug.so" "zlib-gnu"
else
	fail "gcc cannot link a shared library: $(head -n 2 "$T/cc.err" | tr '\n' ' ')"
fi

tcase "zlib debug sections of a big-endian object (s390x, llvm-objcopy)"
if { have llvm-objcopy || fail "llvm-objcopy is not installed (make deps-test)"; } &&
	compile_or_fail clang s390x 5 "$T/be.o" "$LAYOUTS" && reference "$T/be.o" be; then
	llvm-objcopy --compress-debug-sections=zlib "$T/be.o" "$T/be-z.o"
	compressed "$T/be-z.o" ZLIB && same_as "$T/be.txt" "$T/be.json" "$T/be-z.o" "s390x zlib"
fi

# section_at FILE NAME: "offset size" (decimal) of section NAME.
section_at() {
	local off size
	read -r off size <<<"$(readelf -SW "$1" | sed 's/^ *\[ *[0-9]*\] *//' |
		awk -v n="$2" '$1 == n { print $4, $5; exit }')"
	echo "$((0x$off)) $((0x$size))"
}

# patch FILE OFFSET HEXBYTES: overwrite bytes in place ("de ad be ef").
patch_bytes() {
	local f=$1 at=$2 b
	shift 2
	for b in "$@"; do
		printf "\\x$b" | dd of="$f" bs=1 seek="$at" conv=notrunc status=none
		at=$((at + 1))
	done
}

# corrupt_case FILE WHAT: structfit refuses FILE in one line naming it.
corrupt_case() {
	sf show "$1"
	assert_eq "$RC" 2 "$2: exit status"
	assert_eq "$(wc -l <"$T/err")" 1 "$2: stderr lines"
	assert_match "$(cat "$T/err")" "^structfit: $1: corrupt compressed section \.z?debug_info$" "$2: message"
	assert_eq "$(wc -c <"$T/out")" 0 "$2: stdout bytes"
}

tcase "corrupt compressed sections: one line, exit 2"
if [ -f "$T/zstd.o" ] && [ -f "$T/gz.o" ] && [ -f "$T/zdebug.o" ]; then
	# ELF64 Chdr: ch_type (4), reserved (4), ch_size (8), ch_addralign (8)
	for z in zstd:zstd gz:zlib; do
		read -r at size <<<"$(section_at "$T/${z%:*}.o" .debug_info)"
		cp "$T/${z%:*}.o" "$T/bad-stream.o"
		patch_bytes "$T/bad-stream.o" $((at + 24)) 00 00 00 00	# zstd's magic, zlib's header
		corrupt_case "$T/bad-stream.o" "${z#*:} stream header"
		cp "$T/${z%:*}.o" "$T/bad-size.o"
		patch_bytes "$T/bad-size.o" $((at + 8)) ff ff ff ff ff 00 00 00	# 1 TB inflated
		corrupt_case "$T/bad-size.o" "${z#*:} claims 1 TB"
		cp "$T/${z%:*}.o" "$T/bad-cut.o"
		patch_bytes "$T/bad-cut.o" $((at + 8)) 01 00 00 00 00 00 00 00	# 1 byte inflated
		corrupt_case "$T/bad-cut.o" "${z#*:} claims 1 byte"
	done
	cp "$T/gz.o" "$T/bad-zlong.o"
	n=$(od -An -t u8 -j $((at + 8)) -N 8 "$T/gz.o" | tr -d ' ')
	# shellcheck disable=SC2046
	patch_bytes "$T/bad-zlong.o" $((at + 8)) $(printf '%016x' $((n + 1)) | sed 's/../& /g' |
		awk '{ for (i = NF; i > 0; i--) printf "%s ", $i }')	# one byte more than it holds
	corrupt_case "$T/bad-zlong.o" "zlib claims one byte more than it holds"
	cp "$T/gz.o" "$T/bad-adler.o"
	patch_bytes "$T/bad-adler.o" $((at + size - 4)) 00 00 00 00	# the Adler-32 trailer
	corrupt_case "$T/bad-adler.o" "zlib checksum"
	cp "$T/gz.o" "$T/bad-type.o"
	patch_bytes "$T/bad-type.o" "$at" 07 00 00 00
	sf show "$T/bad-type.o"
	assert_eq "$RC" 2 "unknown ch_type: exit status"
	assert_match "$(cat "$T/err")" "^structfit: $T/bad-type.o: section \.debug_info uses unknown compression 7$" \
		"unknown ch_type: message"
	read -r at size <<<"$(section_at "$T/zdebug.o" .zdebug_info)"
	cp "$T/zdebug.o" "$T/bad-zdebug.o"
	patch_bytes "$T/bad-zdebug.o" $((at + 12)) 00 00 00 00	# after "ZLIB" + size
	corrupt_case "$T/bad-zdebug.o" ".zdebug stream"
	# bytes flipped inside the payload: a result or an error, never a crash
	read -r at size <<<"$(section_at "$T/zstd.o" .debug_info)"
	for k in 1 2 3 4 5 6; do
		cp "$T/zstd.o" "$T/flip.o"
		patch_bytes "$T/flip.o" $((at + 24 + size * k / 8)) a5 5a
		sf show "$T/flip.o"
		case $RC in
		0) ;;
		2) assert_eq "$(wc -l <"$T/err")" 1 "flip $k: stderr lines" ;;
		*) fail "flip $k: exit $RC" ;;
		esac
	done
else
	skip "the compressed objects were not built (see the case above)"
fi

# ------------------------------------------------------------ read as a stream

# A linked file's zlib-compressed .debug_info is inflated as its units are
# read, its .debug_line keeping only the line tables' headers (the file
# lists DW_AT_decl_file indexes), and its .debug_str on a thread of its
# own meanwhile, from 8, 1 and 4 MiB by default: STRUCTFIT_STREAM_MIN=1
# does all three for any size (input/elfobj.c).
tcase "a linked file's zlib sections read as streams: .debug_info by unit, .debug_line's headers alone, .debug_str aside"
if compile_or_fail gcc x86_64 5 "$T/lines.o" "$LAYOUTS" -fPIC &&
	gcc -shared -g -o "$T/lines.so" "$T/lines.o" "$TD/example/st_table.c" -fPIC 2>"$T/cc.err" &&
	reference "$T/lines.so" lines; then
	objcopy --compress-debug-sections=zlib-gabi "$T/lines.so" "$T/lines-z.so"
	compressed "$T/lines-z.so" ZLIB
	readelf -SWt "$T/lines-z.so" | grep -A3 '\] \.debug_line *$' | grep -q '^ *ZLIB, ' ||
		fail ".debug_line is not compressed"
	for min in 1 18446744073709551615; do
		STRUCTFIT_STREAM_MIN=$min same_as "$T/lines.txt" "$T/lines.json" "$T/lines-z.so" \
			"STRUCTFIT_STREAM_MIN=$min"
	done
	assert_grep "$T/lines.json" '"decl_file": "'"$LAYOUTS"'"' "the file names come from the headers"
	for sec in .debug_info .debug_line .debug_str; do
		read -r at size <<<"$(section_at "$T/lines-z.so" $sec)"
		cp "$T/lines-z.so" "$T/bad.so"
		patch_bytes "$T/bad.so" $((at + 24)) 00 00 00 00	# zlib's header
		STRUCTFIT_STREAM_MIN=1 sf show "$T/bad.so"
		assert_eq "$RC" 2 "$sec stream header: exit status"
		assert_eq "$(cat "$T/err")" "structfit: $T/bad.so: corrupt compressed section $sec" \
			"$sec stream header: message"
		assert_eq "$(wc -c <"$T/out")" 0 "$sec stream header: stdout bytes"
		cp "$T/lines-z.so" "$T/bad.so"
		patch_bytes "$T/bad.so" $((at + size - 4)) 00 00 00 00	# the Adler-32 trailer
		STRUCTFIT_STREAM_MIN=1 sf show "$T/bad.so"
		assert_eq "$RC" 2 "$sec checksum: exit status"
		assert_eq "$(cat "$T/err")" "structfit: $T/bad.so: corrupt compressed section $sec" \
			"$sec checksum: message"
	done
else
	fail "cannot link lines.so: $(head -n 2 "$T/cc.err" | tr '\n' ' ')"
fi

# ------------------------------------------------------------ packed .debug_str

# A C++ library's .debug_str read aside keeps only what a layout reads of
# its mangled names (dwarf/strpack.h): the names the linker merged into
# their tails read as in the section, the section inflated again, whole,
# for the one name that lies in what was cut (testdata/e2e/strpack.cpp).
# STRUCTFIT_DEDUP_NOTE=1 says what was kept and how often it was re-read.
tcase "a C++ library's .debug_str packed: names in the tails of mangled names, and the section re-read for one cut"
for v in kept miss; do
	def=
	[ "$v" = miss ] && def=-DWITH_MISS
	if ! g++ -g -O0 -fPIC $def -c -o "$T/sp-$v.o" "$TD/e2e/strpack.cpp" 2>"$T/cc.err" ||
		! g++ -shared -o "$T/sp-$v.so" "$T/sp-$v.o" 2>"$T/cc.err"; then
		fail "cannot build sp-$v.so: $(head -n 2 "$T/cc.err" | tr '\n' ' ')"
		continue
	fi
	# the linker merged the names into the mangled ones: none stands alone
	readelf -p .debug_str "$T/sp-$v.so" >"$T/strs"
	assert_grep "$T/strs" "_Z12apply_valuesRK13ConfigValuesX" "sp-$v.so: the mangled name"
	assert_no_grep "$T/strs" " ConfigValuesX" "sp-$v.so: ConfigValuesX merged into its tail"
	assert_no_grep "$T/strs" " long_namev" "sp-$v.so: long_namev merged into a tail"
	reference "$T/sp-$v.so" "sp-$v" || continue
	objcopy --compress-debug-sections=zlib-gabi "$T/sp-$v.so" "$T/sp-$v-z.so"
	compressed "$T/sp-$v-z.so" ZLIB
	# the section's size, less what is cut of the 5 mangled names: all but
	# the last 8 bytes of _Z14release_to_strv (11), _Z13get_long_namev
	# (10), _Z10use_holderPN4ceph6holderE (21) and
	# _Z10use_valuesRKN4ceph12ConfigValuesE (29); all but the name at the
	# end of _Z12apply_valuesRK13ConfigValuesX (20)
	size=$(readelf -SW "$T/sp-$v.so" | sed -n 's/.*\] \.debug_str  *PROGBITS  *[0-9a-f]*  *[0-9a-f]*  *\([0-9a-f]*\) .*/\1/p')
	size=$((16#$size))
	kept=$((size - 91))
	want=0
	[ "$v" = miss ] && want='[1-9][0-9]*'
	for j in 1 2; do
		STRUCTFIT_STREAM_MIN=1 same_as "$T/sp-$v.txt" "$T/sp-$v.json" "$T/sp-$v-z.so" \
			"sp-$v-z.so -j $j"
		STRUCTFIT_STREAM_MIN=1 STRUCTFIT_DEDUP_NOTE=1 sf_ok show -j "$j" "$T/sp-$v-z.so"
		grep -Eq "^structfit: strings: $T/sp-$v-z.so: \.debug_str kept $kept of $size bytes \(5 mangled names cut\); $want lookups read it inflated again\$" "$T/err" ||
			fail "sp-$v-z.so -j $j: the pack's note: $(grep strings "$T/err")"
	done
done

# ------------------------------------------------------------ slim LTO

tcase "gcc slim LTO objects (.gnu.debuglto_) read as the non-LTO object, DWARF 4 and 5"
for dw in 4 5; do
	for src in "$LAYOUTS" "$TD/example/st_table.c"; do
		base=$(basename "$src" .c)-$dw
		compile_or_fail gcc x86_64 "$dw" "$T/$base.o" "$src" || continue
		compile_or_fail gcc x86_64 "$dw" "$T/$base-lto.o" "$src" -flto || continue
		readelf -SW "$T/$base-lto.o" >"$T/sections"
		assert_grep "$T/sections" ".gnu.debuglto_.debug_info" "$base: slim LTO DWARF section"
		assert_no_grep "$T/sections" " .debug_info " "$base: no plain .debug_info in a slim object"
		reference "$T/$base.o" "$base" &&
			same_as "$T/$base.txt" "$T/$base.json" "$T/$base-lto.o" "$base slim LTO"
		compile_or_fail gcc x86_64 "$dw" "$T/$base-fat.o" "$src" -flto -ffat-lto-objects &&
			same_as "$T/$base.txt" "$T/$base.json" "$T/$base-fat.o" "$base fat LTO"
	done
done

tcase "slim LTO objects in an archive; without -g they are 'no DWARF'"
if [ -f "$T/layouts-5-lto.o" ]; then
	(cd "$T" && ar rcs lto.a layouts-5-lto.o st_table-5-lto.o)
	sf_ok holes --format json "$T/lto.a"
	assert_eq "$(jget "$T/out" 'sorted(set(x["origin"] for x in d["types"]))')" \
		"[\"$T/lto.a(layouts-5-lto.o)\", \"$T/lto.a(st_table-5-lto.o)\"]" "origins"
	gcc -flto -c -o "$T/nog-lto.o" "$LAYOUTS"
	sf show "$T/nog-lto.o"
	assert_eq "$RC" 2 "exit status"
	assert_eq "$(cat "$T/err")" "structfit: $T/nog-lto.o: no DWARF debug info (stripped or built without -g)" "message"
else
	skip "the LTO objects were not built (see the case above)"
fi

tdone
