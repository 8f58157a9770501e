#!/bin/bash
# tests/e2e/hostile.sh - hostile DWARF: inputs no compiler emits (or only a
# perverse program would), assembled at test time from testdata/hostile/
# (hand-written .debug_abbrev/.debug_info bytes) or generated here (10,000
# levels, a million members), and the fuzzers' reproducers in
# testdata/regress/ (base64, decoded here).
#
# For every input, every subcommand must end in bounded time (timeout
# HOSTILE_TIMEOUT, default 20 s) with exit 0 (or 1 for check) and a
# result, or exit 2 with exactly one line "structfit: FILE...: problem" -
# never a signal, never a sanitizer report (make asan / make valgrind run
# this script too).  Where the input still states facts (a size, an
# offset), the result must keep them, and what the reader could not
# resolve must not turn into invented holes.
#
#   HOSTILE_SLOW=1   (make valgrind) longer timeout, fewer commands per
#                    input, the million-member inputs skipped
#   HOSTILE_SANITIZED=1  (make asan) 120 s timeout (ASan is 3-5 times
#                    slower; a quadratic walk over a million members still
#                    takes hours), the million-member inputs checked once
. "$(dirname "$0")/lib.sh"

HD=$TD/hostile
if [ -n "${HOSTILE_SLOW:-}" ]; then
	E2E_TIMEOUT=${HOSTILE_TIMEOUT:-900}
elif [ -n "${HOSTILE_SANITIZED:-}" ]; then
	E2E_TIMEOUT=${HOSTILE_TIMEOUT:-120}
else
	E2E_TIMEOUT=${HOSTILE_TIMEOUT:-20}
fi

printf '* size >= 0\n' >"$T/any.budget"

# asm OUT SRC [CPPFLAGS...]: assemble a hostile source; fail the case if not.
asm() {
	local out=$1 src=$2
	shift 2
	gcc -c -Wa,-I"$HD" "$@" -o "$out" "$src" 2>"$T/as.err" && return 0
	fail "cannot assemble $(basename "$src") $*: $(head -n 2 "$T/as.err" | tr '\n' ' ')"
	return 1
}

# clean_exit OBJ ALLOWED CMD...: the last run ended in one of ALLOWED
# (e.g. "0 2"); on 2, stderr is one line "structfit: ..." naming OBJ (for
# check: OBJ or the budget file; suggest/fit/patch may name the type).
clean_exit() {
	local obj=$1 allowed=$2 a ok=""
	shift 2
	for a in $allowed; do
		[ "$RC" = "$a" ] && ok=1
	done
	if [ -z "$ok" ]; then
		fail "structfit $*: exit $RC (allowed: $allowed): $(head -c 300 "$T/err")"
		return 1
	fi
	if [ "$RC" = 2 ]; then
		local n
		# one line, then at most git's hint: a blank line, "The most
		# similar type is" (or "types are"), the names each after a tab
		n=$(awk 'NR == 1 { n = 1; next }
			NR == 2 && $0 == "" { hint = 1; next }
			hint && NR == 3 && /^The most similar (type|command)( is|s are)$/ { next }
			hint && NR > 3 && /^\t/ { next }
			{ n++ } END { print n + 0 }' "$T/err")
		[ "$n" = 1 ] || fail "structfit $*: exit 2 with $n lines on stderr (a hint aside): $(head -c 300 "$T/err")"
		case $1 in
		show | holes | diff)
			grep -Fq "structfit: $obj" "$T/err" ||
				fail "structfit $*: the message does not name $obj: $(head -c 300 "$T/err")" ;;
		check)
			grep -Fq "structfit: $obj" "$T/err" || grep -Fq "structfit: $T/any.budget" "$T/err" ||
				fail "structfit $*: the message names neither $obj nor the budget: $(head -c 300 "$T/err")" ;;
		*)	# -t NAME commands may name the type rather than the file
			grep -q "^structfit: " "$T/err" ||
				fail "structfit $*: not a 'structfit: ' message: $(head -c 300 "$T/err")" ;;
		esac
	fi
	return 0
}

# json_shape FILE: FILE is one JSON document, whatever bytes its strings
# hold (names are bytes from the input; strict UTF-8 is a case of its own)
json_shape() {
	"$PY" -c 'import json, sys
json.loads(open(sys.argv[1], "rb").read().decode("utf-8", "surrogateescape"))' "$1" 2>"$T/json.err"
}

# json_utf8 FILE: FILE is one JSON document in valid UTF-8.
json_utf8() {
	"$PY" -c 'import json, sys
json.loads(open(sys.argv[1], "rb").read().decode("utf-8"))' "$1" 2>"$T/json.err"
}

# survive OBJ NAME: every subcommand on OBJ (NAME: its struct for -t).
survive() {
	local obj=$1 name=$2 args
	local -a cmds=(
		"show"
		"holes"
		"check --budget $T/any.budget"
	)
	if [ -z "${HOSTILE_SLOW:-}" ]; then
		cmds+=(
			"show --format json"
			"show --format html"
			"show --cacheline 8"
			"holes --format json --min-waste 0"
			"check --budget $T/any.budget --format sarif"
			"suggest -t $name"
			"suggest -t $name --format json"
			"fit -t $name --classes jemalloc"
			"fit -t $name+$name --classes ruby-3.3"
			"patch -t $name"
		)
	fi
	for args in "${cmds[@]}"; do
		# shellcheck disable=SC2086
		sf $args "$obj"
		failed && return 1
		case $args in
		check*) clean_exit "$obj" "0 1 2" $args ;;
		*) clean_exit "$obj" "0 2" $args ;;
		esac
		if [ "$RC" = 0 ] && [[ $args == *json* ]] && ! json_shape "$T/out"; then
			fail "structfit $args: exit 0 but not JSON: $(head -c 200 "$T/json.err")"
		fi
		# shellcheck disable=SC2086
		failed && return 1
	done
	# diff takes two inputs
	sf diff "$obj" "$obj"
	clean_exit "$obj" "0 2" diff
}

# json_of OBJ: show --format json into $T/j.json (must exit 0).
json_of() {
	sf show --format json "$1"
	if [ "$RC" != 0 ]; then
		fail "show --format json exited $RC: $(head -c 300 "$T/err")"
		return 1
	fi
	cp "$T/out" "$T/j.json"
}

# fact EXPR EXPECTED WHAT: a jget expression over $T/j.json.
fact() {
	assert_eq "$(jget "$T/j.json" "$1")" "$2" "$3"
}

# must_fail OBJ PATTERN: show exits 2 with one line matching PATTERN.
must_fail() {
	sf show "$1"
	assert_eq "$RC" 2 "exit status"
	clean_exit "$1" "2" show
	assert_match "$(cat "$T/err")" "$2" "message"
}

# ---------------------------------------------------------------- loops

tcase "type references that loop: typedef T -> const -> const -> T, typedef U -> U, pointer -> itself"
if asm "$T/loop.o" "$HD/typedef_loop.s" && survive "$T/loop.o" loop && json_of "$T/loop.o"; then
	fact 't("loop")["size"]' 24 "size"
	fact '[(m["name"], m["offset"]) for m in t("loop")["members"]]' \
		'[["a", 0], ["b", 4], ["c", 8], ["d", 16]]' "members and offsets"
	fact '[t("loop")["members"][i]["size"] for i in (2, 3)]' '[8, 4]' "c, d sizes"
	fact '[m["type"] for m in t("loop")["members"]][3]' int "d's type"
	fact 't("loop")["padding"]' 4 "padding after d"
fi

tcase "unresolvable (looping) member types are incomplete, not 0 bytes: no invented hole"
if asm "$T/loop.o" "$HD/typedef_loop.s" && json_of "$T/loop.o"; then
	fact '[m["incomplete"] for m in t("loop")["members"]][:2]' '[true, true]' "a, b incomplete"
	fact 't("loop")["sum_holes"]' 0 "sum of holes"
fi

tcase "DW_AT_sibling pointing at its own DIE and back: ignored, the subtree skipped (no endless walk)"
if asm "$T/sib.o" "$HD/sibling_back.s" && survive "$T/sib.o" after && json_of "$T/sib.o"; then
	fact 't("after")["size"]' 4 "size of the struct after them"
	fact '[(m["name"], m["offset"]) for m in t("after")["members"]]' '[["a", 0]]' "its member"
fi

tcase "aggregates that contain themselves by value (directly and through another)"
if asm "$T/self.o" "$HD/self_contain.s" && survive "$T/self.o" self && json_of "$T/self.o"; then
	fact '[t(n)["size"] for n in ("self", "ping", "pong")]' '[8, 16, 16]' "sizes"
	fact '[(m["name"], m["offset"]) for m in t("pong")["members"]]' '[["q", 0], ["y", 12]]' "pong members"
	fact 't("self")["members"][0]["size"]' 4 "self.x size"
fi

tcase "Rust enums gone wrong: a variant holding its own enum, a payload at 2^64-1, empty variant parts"
if asm "$T/var.o" "$HD/variants.s" && survive "$T/var.o" loop && json_of "$T/var.o"; then
	fact '[v["name"] for v in t("loop")["variants"]]' '["A", "B"]' "loop's variants"
	fact '[(m["name"], m["offset"]) for m in t("loop")["variants"][1]["members"] if m["name"] == "p"]' \
		'[["p", 18446744073709551615]]' "B's field at the offset given"
	fact '[(m["name"], m["offset"]) for m in t("loop")["variants"][0]["members"]]' '[["A", 0]]' \
		"A: the enum itself, one member (no endless layout)"
	fact '[len(t("nodisc").get("variants", [])), [m["name"] for m in t("nodisc")["members"]]]' '[0, ["x"]]' \
		"variant parts without variants add nothing"
	fact '[[m["offset"] for m in v["members"]] for v in t("outer")["variants"]]' '[[8]]' \
		"an enum inside a variant, at its offset"
fi

# ---------------------------------------------------------------- references

tcase "type references past the unit and the section (ref4, ref_udata 2^63 and 2^64-1, ref_addr)"
if asm "$T/ref1.o" "$HD/ref_out.S" -DCASE=1 && survive "$T/ref1.o" refs && json_of "$T/ref1.o"; then
	fact 't("refs")["size"]' 32 "size"
	fact '[(m["name"], m["offset"], m["incomplete"]) for m in t("refs")["members"]]' \
		'[["a", 0, true], ["b", 4, true], ["c", 8, true], ["f", 16, true], ["g", 24, false]]' \
		"members: the bad ones incomplete"
	fact '[t("refs")["members"][4]["size"], t("refs")["members"][4]["type"]]' '[4, "int"]' "g"
	fact 't("refs")["sum_holes"]' 0 "no invented hole"
fi

for c in 2:"into the middle of a DIE" 3:"to offset 0 (the unit header)"; do
	tcase "a type reference ${c#*:}"
	asm "$T/ref${c%%:*}.o" "$HD/ref_out.S" -DCASE="${c%%:*}" || continue
	must_fail "$T/ref${c%%:*}.o" "corrupt DWARF"
	survive "$T/ref${c%%:*}.o" refs
done

# ---------------------------------------------------------------- dwz imports

tcase "partial units that import themselves and each other (dwz-style, in a loop)"
if asm "$T/imp.o" "$HD/import_loop.s" && survive "$T/imp.o" b && json_of "$T/imp.o"; then
	fact 'sorted(names())' '["a", "b"]' "each struct once"
	fact '[(m["name"], m["offset"], m["size"]) for m in t("a")["members"]]' \
		'[["x", 0, 4], ["y", 8, 8]]' "a: int and long found in the other unit"
	fact '[t("b")["size"], t("b")["members"][0]["size"]]' '[24, 16]' "b holds a"
fi

for c in "-DCASE=1:into a DIE of a partial unit" "-DCASE=2:past the end of .debug_info"; do
	tcase "an imported unit that names no unit: ${c#*:}"
	asm "$T/impbad.o" "$HD/import_bad.S" ${c%%:*} || continue
	must_fail "$T/impbad.o" "corrupt DWARF"
	survive "$T/impbad.o" int
done

# ---------------------------------------------------------------- sizes

tcase "members past the end of their struct (offset 100 and 2^64-1 in an 8-byte struct)"
if asm "$T/past.o" "$HD/past_end.s" && survive "$T/past.o" past; then
	sf show --format json "$T/past.o"
	if [ "$RC" = 0 ]; then
		cp "$T/out" "$T/j.json"
		fact 't("past")["size"]' 8 "size"
		# as given, in memory order (members are always shown so)
		fact '[m["offset"] for m in t("past")["members"]]' \
			'[0, 100, 18446744073709551612, 18446744073709551615]' "offsets as given"
	else
		clean_exit "$T/past.o" 2 show --format json
	fi
fi

tcase "absurd sizes: 2^63 and 2^64-1 byte structs, a 2^65-byte array, a 2^63-byte base type"
if asm "$T/huge.o" "$HD/huge_size.s" && survive "$T/huge.o" big && json_of "$T/huge.o"; then
	fact '[t(n)["size"] for n in ("big", "max", "arr", "outer", "wide", "u")]' \
		'[9223372036854775808, 18446744073709551615, 16, 18446744073709551615, 16, 9223372036854775808]' "sizes"
	fact '[m["offset"] for m in t("big")["members"]]' '[0, 9223372036854775807]' "big: offsets"
	fact '[m["offset"] for m in t("outer")["members"]]' '[0, 9223372036854775808]' "outer: offsets"
	fact 't("wide")["members"][0]["offset"]' 8 "wide: offset"
fi

tcase "bit-fields at negative, huge and 2^63 bit offsets, 2^40 bits wide, in 2^61-byte units"
if asm "$T/bits.o" "$HD/bit_offsets.s" && survive "$T/bits.o" bits && json_of "$T/bits.o"; then
	fact 't("bits")["size"]' 8 "size"
	# every member, wherever memory order puts it
	fact 'sorted(m["name"] for m in t("bits")["members"])' '["a", "b", "c", "d", "e", "f", "g", "h", "i"]' "every member"
	fact '[[m["offset"], m["size"]] for m in t("bits")["members"] if m["name"] == "h"][0]' '[4, 4]' "h (int:0) offset and size"
fi

tcase "names that are not UTF-8: text passes them through, JSON stays valid UTF-8"
if asm "$T/utf.o" "$HD/bad_utf8.s" && survive "$T/utf.o" user; then
	sf show "$T/utf.o"
	assert_eq "$RC" 0 "show exit status"
	assert_grep "$T/out" "$(printf 'struct bad\377\376 {')" "the name's bytes in text"
	for args in "show --format json" "holes --format json --min-waste 0" \
		"check --budget $T/any.budget --format json" "check --budget $T/any.budget --format sarif"; do
		# shellcheck disable=SC2086
		sf $args "$T/utf.o"
		json_utf8 "$T/out" || fail "$args: not valid UTF-8 JSON: $(tail -n 1 "$T/json.err" | head -c 120)"
	done
fi

tcase "a struct named by the empty string: not reported, with structs laid out once or every time"
if asm "$T/empty.o" "$HD/empty_name.s" && survive "$T/empty.o" holder; then
	STRUCTFIT_NO_DEDUP=1 sf show "$T/empty.o"
	assert_eq "$RC" 0 "show exit status, every struct laid out"
	cp "$T/out" "$T/full.txt"
	sf show "$T/empty.o"
	assert_eq "$RC" 0 "show exit status"
	assert_eq "$(grep -c '^struct holder {' "$T/out")" 1 "struct holder reported"
	assert_eq "$(grep -c '^struct *{' "$T/out")" 0 "a struct reported under the empty name"
	assert_eq "$(md5sum <"$T/out")" "$(md5sum <"$T/full.txt")" "the same report laid out once or every time"
fi

# ---------------------------------------------------------------- depth

tcase "10,000 nested anonymous structs (a DIE tree 10,000 deep)"
if asm "$T/anon.o" "$HD/deep_anon.s" && survive "$T/anon.o" deep && json_of "$T/anon.o"; then
	fact 't("deep")["size"]' 4 "size"
	fact 't("deep")["members_count"]' 1 "one member"
	fact 't("deep")["sum_holes"] + t("deep")["padding"]' 0 "no waste"
	sf show "$T/anon.o"
	assert_match "$(wc -c <"$T/out")" '^[0-9]{1,7}$' "text output under 10 MB"
fi

tcase "C++ scopes 10,000 deep (namespace n { namespace n { ... struct s"
if asm "$T/scope.o" "$HD/deep_scope.s" && survive "$T/scope.o" top && json_of "$T/scope.o"; then
	fact '[t("top")["size"], t("top")["members"][0]["offset"], t("top")["members"][0]["size"]]' \
		'[4, 0, 4]' "top: size, member offset and size"
	fact 'max(len(x["name"]) for x in d["types"]) < 100000' true "names are bounded"
fi

tcase "type chains 10,000 long (typedef/const, pointers, arrays)"
if asm "$T/chains.o" "$HD/deep_types.s" && survive "$T/chains.o" chains && json_of "$T/chains.o"; then
	fact 't("chains")["size"]' 24 "size"
	fact '[(m["name"], m["offset"]) for m in t("chains")["members"]]' \
		'[["t", 0], ["p", 8], ["a", 16], ["end", 20]]' "members and offsets"
	fact '[t("chains")["members"][i]["size"] for i in (1, 3)]' '[8, 4]' "p, end sizes"
fi

tcase "type chains cut by the depth limit are incomplete, not 0 bytes: no invented hole"
if asm "$T/chains.o" "$HD/deep_types.s" && json_of "$T/chains.o"; then
	# t is really 4 bytes (a 4-byte hole before p), a really 4: at most
	# those 4 bytes of holes, never the 12 a 0-byte t and a make
	fact 't("chains")["sum_holes"] <= 4' true "sum of holes at most the real 4"
fi

# struct s0 { struct s1 in; int v; } ... struct s9999 { int v; }
gen_chain() {
	awk -v n="$1" 'BEGIN {
		print "\t.include \"abbrev.inc\"\n\tcu_begin\n\tbase_types"
		for (i = 0; i < n; i++) {
			printf ".Ls%d:\n\t.uleb128 2\n\t.asciz \"s%d\"\n\t.uleb128 %d\n", i, i, 4 * (n - i)
			if (i + 1 < n)
				printf "\t.byte 3,0x69,0x6e,0\n\t.long .Ls%d-.Lcu\n\t.uleb128 0\n", i + 1
			printf "\t.byte 3,0x76,0\n\t.long .Lint-.Lcu\n\t.uleb128 %d\n\t.byte 0\n", 4 * (n - i - 1)
		}
		print "\tcu_end"
	}'
}

tcase "10,000 structs, each holding the next by value"
gen_chain 10000 >"$T/chain.s"
if asm "$T/chain.o" "$T/chain.s" && survive "$T/chain.o" s0 && json_of "$T/chain.o"; then
	fact 'len(d["types"])' 10000 "every struct"
	fact '[t("s0")["size"], t("s9999")["size"]]' '[40000, 4]' "sizes"
	fact 'sorted(set((x["align"], x["packed"], x["sum_holes"], x["padding"]) for x in d["types"]))' \
		'[[4, false, 0, 0]]' "all aligned 4, not packed, no waste"
fi

# ---------------------------------------------------------------- width

# gen_members N KIND: one struct of N members.  KIND int: struct many
# { int m; ... } (4 bytes each); opaque: struct opq { struct opaque o;
# ... } (declared only, 8 apart); base: class derived : base, base, ...
gen_members() {
	awk -v n="$1" -v what="$2" 'BEGIN {
		print "\t.include \"abbrev.inc\""
		print (what == "base" ? "\tcu_begin 0x04" : "\tcu_begin")
		print "\tbase_types"
		print ".Lopaque:\n\t.uleb128 12\n\t.asciz \"opaque\""
		print ".Lbase:\n\t.uleb128 16\n\t.asciz \"base\"\n\t.uleb128 4"
		print "\t.byte 3,0x76,0\n\t.long .Lint-.Lcu\n\t.uleb128 0\n\t.byte 0"
		if (what == "int") {
			print "\t.uleb128 2\n\t.asciz \"many\"\n\t.uleb128 " 4 * n
			for (i = 0; i < n; i++)
				printf "\t.byte 3,0x6d,0\n\t.long .Lint-.Lcu\n\t.uleb128 %d\n", 4 * i
		} else if (what == "opaque") {
			print "\t.uleb128 2\n\t.asciz \"opq\"\n\t.uleb128 " 8 * n
			for (i = 0; i < n; i++)
				printf "\t.byte 3,0x6f,0\n\t.long .Lopaque-.Lcu\n\t.uleb128 %d\n", 8 * i
		} else {
			print "\t.uleb128 16\n\t.asciz \"derived\"\n\t.uleb128 " 4 * n
			for (i = 0; i < n; i++)
				printf "\t.byte 15\n\t.long .Lbase-.Lcu\n\t.uleb128 %d\n", 4 * i
		}
		print "\t.byte 0\n\tcu_end"
	}'
}

# a million members: checked through budgets (exact, and small output)
million() {
	local what=$1 rule=$2
	if [ -n "${HOSTILE_SLOW:-}" ]; then
		skip "a million members under valgrind would take hours (make e2e and make asan run it)"
		return
	fi
	gen_members 1000000 "$what" >"$T/m.s"
	asm "$T/m.o" "$T/m.s" || return
	printf '%s\n' "$rule" >"$T/m.budget"
	sf check --budget "$T/m.budget" "$T/m.o"
	assert_eq "$RC" 0 "check exit status ($(head -c 300 "$T/out" "$T/err" | tr '\n' ' '))"
	[ -z "${HOSTILE_SANITIZED:-}" ] || return 0
	sf holes --min-waste 0 --format json "$T/m.o"
	assert_eq "$RC" 0 "holes exit status"
	sf show "$T/m.o"
	assert_eq "$RC" 0 "show exit status"
	assert_grep "$T/out" "$3" "show: summary"
}

tcase "a struct with a million int members"
million int 'struct many size == 4000000 members == 1000000 hole_bytes == 0 padding == 0 align == 4' \
	'/* size: 4000000, cachelines: 62500, members: 1000000 */'

tcase "a struct with a million members of a declared-only struct type"
million opaque 'struct opq size == 8000000 members == 1000000 hole_bytes == 0 padding == 0' \
	'/* size: 8000000, cachelines: 125000, members: 1000000 */'

tcase "a C++ class with a million bases"
million base 'class derived size == 4000000 members == 1000000 hole_bytes == 0 padding == 0' \
	'/* size: 4000000, cachelines: 62500, members: 1000000 */'

# ---------------------------------------------------------------- truncation

for c in "1:unit_length past the end of the section:runs past the section" \
	"2:children never terminated:corrupt DWARF" \
	"3:the section ends inside a string:runs past the section|corrupt DWARF" \
	"4:64-bit DWARF length cut short:runs past the section|corrupt DWARF" \
	"5:version 99:unsupported DWARF version 99" \
	"6:unit_length shorter than its header:corrupt DWARF" \
	"7:address size 3:corrupt DWARF|address size" \
	"8:the section ends inside a ULEB128:runs past the section|corrupt DWARF" \
	"9:an empty .debug_info:no DWARF"; do
	n=${c%%:*}
	rest=${c#*:}
	tcase "truncated/corrupt .debug_info: ${rest%%:*}"
	asm "$T/trunc$n.o" "$HD/truncated.S" -DCASE="$n" || continue
	must_fail "$T/trunc$n.o" "${rest#*:}"
	[ -n "${HOSTILE_SLOW:-}" ] || survive "$T/trunc$n.o" s
done

for c in "1:no .debug_abbrev section" "2:abbrev offset past the end of .debug_abbrev" \
	"3:a DIE with an undefined abbrev code" "4:the abbrev table ends in the middle" \
	"5:an attribute of unknown form 0x7f" "6:a DW_FORM_indirect chain 9 long"; do
	n=${c%%:*}
	tcase "abbreviations: ${c#*:}"
	asm "$T/abbrev$n.o" "$HD/no_abbrev.S" -DCASE="$n" || continue
	must_fail "$T/abbrev$n.o" "corrupt DWARF|abbrev"
	[ -n "${HOSTILE_SLOW:-}" ] || survive "$T/abbrev$n.o" s
done

tcase "abbreviations: two with the same code"
if asm "$T/abbrev7.o" "$HD/no_abbrev.S" -DCASE=7; then
	survive "$T/abbrev7.o" s
fi

# ---------------------------------------------------------------- regressions

# testdata/regress/NAME.b64: an input a fuzzer found (see its README).
for f in "$TD"/regress/*.b64; do
	[ -f "$f" ] || continue
	case $f in *.budget.b64) continue ;; esac
	name=$(basename "$f" .b64)
	tcase "fuzzer reproducer $name"
	if ! base64 -d "$f" >"$T/$name" 2>"$T/b64.err"; then
		fail "cannot decode $f: $(head -c 200 "$T/b64.err")"
		continue
	fi
	survive "$T/$name" x
done

# testdata/regress/NAME.source.c: a C source the source fuzzer found, with
# its `struct s`: built here, and `patch -t s` reads it back within the
# timeout (a reader of source text that is not linear in it hangs).
for f in "$TD"/regress/*.source.c; do
	[ -f "$f" ] || continue
	name=$(basename "$f" .source.c)
	tcase "source fuzzer reproducer $name (patch)"
	mkdir -p "$T/src-$name"
	cp "$f" "$T/src-$name/s.c"
	# built in its own directory: the comp dir holds the source, so the
	# root is that directory (not /tmp, which the tree's and it share)
	if ! (cd "$T/src-$name" && compile gcc x86_64 4 s.o s.c); then
		fail "gcc cannot compile $f: $(head -n 2 "$T/cc.err" | tr '\n' ' ')"
		continue
	fi
	RC=0
	(cd "$T/src-$name" && timeout --kill-after=10 "$E2E_TIMEOUT" "$SF" patch -t s s.o) \
		>"$T/out" 2>"$T/err" || RC=$?
	if [ "$RC" = 124 ] || [ "$RC" = 137 ]; then
		fail "patch -t s on $name timed out after ${E2E_TIMEOUT}s"
		continue
	fi
	clean_exit "$T/src-$name/s.o" "0 2" patch -t s
done

for f in "$TD"/regress/*.budget.b64; do
	[ -f "$f" ] || continue
	name=$(basename "$f" .budget.b64)
	tcase "fuzzer reproducer $name (budget file)"
	base64 -d "$f" >"$T/$name.budget" || { fail "cannot decode $f"; continue; }
	compile_or_fail gcc x86_64 4 "$T/st.o" "$TD/example/st_table.c" || continue
	for fmt in text json sarif junit github; do
		sf check --budget "$T/$name.budget" --format "$fmt" "$T/st.o"
		failed && break
		clean_exit "$T/$name.budget" "0 1 2" check --format "$fmt"
	done
done

tdone
