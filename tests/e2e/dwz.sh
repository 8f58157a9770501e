#!/bin/bash
# tests/e2e/dwz.sh - dwz-compressed debug info reads as the build before dwz.
#
# Two programs (testdata/dwz: p1 and p2, two units each, sharing common.h)
# are built at test time; copies are compressed with Debian's dwz 0.15:
#   dwz -m common.debug p1 p2   types of both programs move to an alt file
#                               (.gnu_debugaltlink, DW_FORM_GNU_ref_alt and
#                               _strp_alt, partial units imported from it)
#   dwz p1                      partial units inside p1 (DW_FORM_ref_addr)
#   dwz -5 -m ...               DWARF 5 supplementary file (.debug_sup,
#                               DW_FORM_ref_sup4, DW_FORM_strp_sup)
# The oracle is the plain build: show (text and JSON), holes and show -t
# must print the same bytes.  Each build sits in its own directory under
# the same file names, so the origin fields agree too.  The alt file is
# found as named (relative or absolute), and a missing or different one is
# exit 2 naming it and every place searched.
#
# Real input: Debian's libbinutils-dbg holds dwz'd debug files (their alt
# file is /usr/lib/debug/.dwz/x86_64-linux-gnu/libbinutils.debug).  There
# is no build before dwz, and pahole 1.24 prints no type at all for them,
# so gdb is the oracle: `ptype /o` of every struct and union structfit
# reports must give the same size and members (tests/compare_gdb.py).
#
# gcc (DWARF 4 and 5) and clang (DWARF 4) alike: dwz puts the imported
# units at the head of each unit and keeps no trace of where their DIEs
# were (clang writes a unit's own types before the shared ones, in the
# order of first use), so structfit orders a unit's types by declaration,
# which dwz keeps.  dwz 0.15 refuses clang's DWARF 5 (".debug_addr
# unknown"): that case is skipped, saying so, while dwz does.
#
# Larger: a program of 41 generated units (testdata/dwz/many.py: 40 C units
# including subsets of 9 headers, one C++ unit) gives about 200 partial
# units, and CPython's debug build 12,545; each reads as the plain build,
# byte for byte, with 1, 2 and 4 jobs (a run of units reads each partial
# unit it imports: runs on other threads must agree).  The C++ unit
# includes C headers, but dwz 0.15 shares no partial unit between it and
# the C units (it imports 3 to 5 of its own): a partial unit's language
# is always its importers' here.
. "$(dirname "$0")/lib.sh"

SRC=$TD/dwz

# build CC DWARF DIR: DIR/p1 and DIR/p2 from the sources.
build() {
	local cc=$1 dw=$2 dir=$3
	mkdir -p "$dir"
	"$cc" -gdwarf-"$dw" -O0 -o "$dir/p1" "$SRC/p1_main.c" "$SRC/p1_util.c" 2>"$T/cc.err" &&
		"$cc" -gdwarf-"$dw" -O0 -o "$dir/p2" "$SRC/p2_main.c" "$SRC/p2_util.c" 2>>"$T/cc.err" ||
		{ fail "$cc -gdwarf-$dw cannot build the programs: $(head -n 2 "$T/cc.err" | tr '\n' ' ')"; return 1; }
}

# dwz_in DIR ARGS...: run dwz in DIR (its messages in $T/dwz.err).
dwz_in() {
	local dir=$1
	shift
	(cd "$dir" && dwz "$@") 2>"$T/dwz.err" ||
		{ fail "dwz $* failed: $(head -n 2 "$T/dwz.err" | tr '\n' ' ')"; return 1; }
}

# sf_in DIR ARGS...: ./structfit run in DIR.
sf_in() {
	local old=$PWD
	cd "$1" || return 1
	shift
	sf "$@"
	cd "$old" || return 1
}

# same_as_plain PLAIN DWZ "T1 T2" FILES...: every report on FILES (and
# show -t of types T1 and T2) is the same bytes in directory DWZ as in PLAIN.
same_as_plain() {
	local plain=$1 dz=$2 t1=${3% *} t2=${3#* } k=0
	shift 3
	local -a runs=(
		"show $*"
		"show --format json $*"
		"holes $*"
		"show -t $t1 -t $t2 $*"
		"show -t $t2 --format json $*"
	)
	local r
	for r in "${runs[@]}"; do
		k=$((k + 1))
		# shellcheck disable=SC2086
		sf_in "$plain" $r
		cp "$T/out" "$T/plain.$k"
		[ "$RC" = 0 ] || { fail "plain build: structfit $r exited $RC: $(head -n 2 "$T/err")"; return 1; }
		# shellcheck disable=SC2086
		sf_in "$dz" $r
		[ "$RC" = 0 ] || { fail "dwz build: structfit $r exited $RC: $(head -n 2 "$T/err")"; return 1; }
		[ -s "$T/out" ] || { fail "structfit $r: empty output"; return 1; }
		cmp -s "$T/plain.$k" "$T/out" || {
			diff "$T/plain.$k" "$T/out" >"$T/diff"
			detail "$T/diff" "structfit $r: plain (<) vs dwz (>)"
			fail "structfit $r differs from the plain build"
			return 1
		}
	done
}

# uses FILE PATTERN WHAT: readelf -wi FILE shows PATTERN (the case is
# really about what it claims: alt references, partial units...).
uses() {
	readelf -wi "$1" 2>/dev/null | grep -q -- "$2" && return 0
	fail "$3: '$2' not in readelf -wi $(basename "$1")"
}

has_section() {
	readelf -SW "$1" 2>/dev/null | grep -qF " $2 " && return 0
	fail "$(basename "$1") has no $2 section"
}

if ! have dwz; then
	tcase "dwz is installed"
	fail "dwz is not installed (Debian package dwz, in TEST_PKGS)"
	tdone
fi

for dw in 4 5; do
	tcase "gcc DWARF $dw: dwz -m common.debug p1 p2 reads as the plain build"
	build gcc "$dw" "$T/g$dw/plain" || continue
	mkdir -p "$T/g$dw/multi" && cp "$T/g$dw/plain/p1" "$T/g$dw/plain/p2" "$T/g$dw/multi/"
	dwz_in "$T/g$dw/multi" -m common.debug p1 p2 || continue
	has_section "$T/g$dw/multi/p1" .gnu_debugaltlink
	uses "$T/g$dw/multi/p1" "DW_AT_import *: <alt 0x" "imports an alt partial unit"
	uses "$T/g$dw/multi/p2" "DW_AT_type *: <alt 0x" "types in the alt file"
	uses "$T/g$dw/multi/p2" "alt indirect string" "strings in the alt file"
	uses "$T/g$dw/multi/common.debug" DW_TAG_partial_unit "alt file of partial units"
	same_as_plain "$T/g$dw/plain" "$T/g$dw/multi" "table header_t" p1 p2
	same_as_plain "$T/g$dw/plain" "$T/g$dw/multi" "table header_t" p2

	tcase "gcc DWARF $dw: single-file dwz p1 (partial units in the file)"
	mkdir -p "$T/g$dw/single" && cp "$T/g$dw/plain/p1" "$T/g$dw/single/"
	dwz_in "$T/g$dw/single" p1 || continue
	uses "$T/g$dw/single/p1" DW_TAG_partial_unit "a partial unit"
	uses "$T/g$dw/single/p1" DW_TAG_imported_unit "imported by the compile units"
	same_as_plain "$T/g$dw/plain" "$T/g$dw/single" "node header_t" p1
done

tcase "gcc DWARF 5: dwz -5 (.debug_sup, DW_FORM_ref_sup4, DW_FORM_strp_sup)"
if [ -x "$T/g5/plain/p1" ]; then
	mkdir -p "$T/sup" && cp "$T/g5/plain/p1" "$T/g5/plain/p2" "$T/sup/"
	if dwz_in "$T/sup" -5 -m common.debug p1 p2; then
		has_section "$T/sup/p1" .debug_sup
		has_section "$T/sup/common.debug" .debug_sup
		# readelf 2.40 names no sup form: the abbrevs must hold them
		readelf -wa "$T/sup/p1" 2>/dev/null | grep -q "DW_FORM_ref_sup4" ||
			fail "p1 uses no DW_FORM_ref_sup4"
		same_as_plain "$T/g5/plain" "$T/sup" "table value" p1 p2
	fi
else
	fail "no DWARF 5 build"
fi

tcase "the alt file by a relative link, from another directory"
mkdir -p "$T/rel/bin" "$T/rel/shared" && cp "$T/g5/plain/p1" "$T/g5/plain/p2" "$T/rel/bin/"
if dwz_in "$T/rel/bin" -r -m ../shared/common.debug p1 p2; then
	assert_eq "$(readelf -p .gnu_debugaltlink "$T/rel/bin/p1" | awk '/\]/ { print $3; exit }')" \
		../shared/common.debug "link as written"
	sf_in "$T/g5/plain" show p1 p2 && cp "$T/out" "$T/plain.rel"
	sf_in "$T" show rel/bin/p1 rel/bin/p2
	assert_eq "$RC" 0 "exit status ($(head -c 200 "$T/err"))"
	cmp -s "$T/plain.rel" "$T/out" || fail "show differs from the plain build"
fi

tcase "the alt file by an absolute link"
mkdir -p "$T/abs/bin" "$T/abs/dwz" && cp "$T/g4/plain/p1" "$T/g4/plain/p2" "$T/abs/bin/"
if dwz_in "$T/abs/bin" -m "$T/abs/dwz/common.debug" p1 p2; then
	sf_in "$T/g4/plain" holes p1 p2 && cp "$T/out" "$T/plain.abs"
	sf_in / holes "$T/abs/bin/p1" "$T/abs/bin/p2"
	assert_eq "$RC" 0 "exit status ($(head -c 200 "$T/err"))"
	cmp -s "$T/plain.abs" "$T/out" || fail "holes differs from the plain build"
fi

tcase "the alt file by its build-id under --debug-dir"
mkdir -p "$T/bid/bin" "$T/bid/dbg" && cp "$T/g5/plain/p1" "$T/g5/plain/p2" "$T/bid/bin/"
# the name written is nowhere: only the build-id finds the file
if dwz_in "$T/bid/bin" -M /nonexistent/common.debug -m ../c.debug p1 p2; then
	id=$(readelf -n "$T/bid/c.debug" | awk '/Build ID/ { print $3 }')
	mkdir -p "$T/bid/dbg/.build-id/${id:0:2}"
	mv "$T/bid/c.debug" "$T/bid/dbg/.build-id/${id:0:2}/${id:2}.debug"
	sf_in "$T/g5/plain" show p1 p2 && cp "$T/out" "$T/plain.bid"
	sf_in "$T/bid" show --debug-dir dbg bin/p1 bin/p2
	assert_eq "$RC" 0 "exit status ($(head -c 300 "$T/err"))"
	cmp -s "$T/plain.bid" "$T/out" || fail "show differs from the plain build"
	sf_in "$T/bid" show bin/p1
	assert_eq "$RC" 2 "exit status without --debug-dir"
	assert_grep "$T/err" "searched: /nonexistent/common.debug (missing), /usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug" \
		"names the places searched"
fi

tcase "the alt file of a distribution's .dwz/ directory moved under --debug-dir"
mkdir -p "$T/dz/bin" "$T/dz/root/.dwz/x86_64-linux-gnu" && cp "$T/g4/plain/p1" "$T/g4/plain/p2" "$T/dz/bin/"
if dwz_in "$T/dz/bin" -M /usr/lib/debug/.dwz/x86_64-linux-gnu/sf-test-$$.debug \
	-m ../root/.dwz/x86_64-linux-gnu/sf-test-$$.debug p1 p2; then
	sf_in "$T/g4/plain" holes p1 p2 && cp "$T/out" "$T/plain.dz"
	sf_in "$T/dz" holes --debug-dir root bin/p1 bin/p2
	assert_eq "$RC" 0 "exit status ($(head -c 300 "$T/err"))"
	cmp -s "$T/plain.dz" "$T/out" || fail "holes differs from the plain build"
fi

tcase "a stripped program whose separate debug file is dwz'd"
mkdir -p "$T/st/bin/.debug" && cp "$T/g5/plain/p1" "$T/g5/plain/p2" "$T/st/bin/"
ok=1
for p in p1 p2; do
	objcopy --only-keep-debug "$T/st/bin/$p" "$T/st/bin/.debug/$p.debug" &&
		strip --strip-debug "$T/st/bin/$p" &&
		objcopy --add-gnu-debuglink="$T/st/bin/.debug/$p.debug" "$T/st/bin/$p" ||
		{ ok=0; fail "objcopy/strip failed"; }
done
if [ "$ok" = 1 ] && dwz_in "$T/st/bin/.debug" -m common.debug p1.debug p2.debug; then
	sf_in "$T/g5/plain" show p1 p2 && cp "$T/out" "$T/plain.st"
	sf_in "$T/st/bin" show p1 p2
	assert_eq "$RC" 0 "exit status ($(head -c 300 "$T/err"))"
	cmp -s "$T/plain.st" "$T/out" || fail "show differs from the plain build"
fi

tcase "a missing alt file is exit 2 naming it and where it looked"
mkdir -p "$T/miss" && cp "$T/g5/multi/p1" "$T/miss/"
sf_in "$T/miss" show p1
assert_eq "$RC" 2 "exit status"
assert_eq "$(wc -l <"$T/err")" 1 "one line on stderr"
assert_grep "$T/err" "structfit: p1: dwz alt file common.debug (build-id " "names the alt file"
assert_grep "$T/err" "searched: common.debug (missing)" "names where it looked"
assert_grep "$T/err" "/usr/lib/debug/.build-id/" "looked by build-id"
assert_eq "$(wc -c <"$T/out")" 0 "nothing on stdout"

tcase "another build's alt file is exit 2 (build-id differs)"
cp "$T/g4/multi/common.debug" "$T/miss/common.debug"
sf_in "$T/miss" show p1
assert_eq "$RC" 2 "exit status"
assert_grep "$T/err" "searched: common.debug (build-id differs)" "says why it was refused"

tcase "another build's supplementary file is exit 2 (checksum differs)"
mkdir -p "$T/sup2" && cp "$T/sup/p1" "$T/sup2/" && cp "$T/g5/multi/common.debug" "$T/sup2/"
sf_in "$T/sup2" show p1
assert_eq "$RC" 2 "exit status"
assert_grep "$T/err" "p1: dwz alt file common.debug (checksum " "names the supplementary file"
assert_grep "$T/err" "common.debug (not a supplementary file)" "says why it was refused"

tcase "a damaged link, or an alt file that is not ELF, has no DWARF or bad DWARF: exit 2"
mkdir -p "$T/bad" && cp "$T/g5/multi/p1" "$T/bad/"
printf 'common.debug' >"$T/bad/link"	# no NUL, no build-id
objcopy --update-section .gnu_debugaltlink="$T/bad/link" "$T/bad/p1" "$T/bad/badlink" 2>/dev/null
sf_in "$T/bad" show badlink
assert_eq "$RC" 2 "damaged .gnu_debugaltlink: exit status"
assert_eq "$(cat "$T/err")" "structfit: badlink: corrupt .gnu_debugaltlink section" "damaged .gnu_debugaltlink"
printf '\004\000\000x' >"$T/bad/sup"	# version 4
objcopy --update-section .debug_sup="$T/bad/sup" "$T/sup/p1" "$T/bad/badsup" 2>/dev/null
sf_in "$T/bad" show badsup
assert_eq "$(cat "$T/err")" "structfit: badsup: corrupt .debug_sup section" "damaged .debug_sup"
echo 'not an ELF file' >"$T/bad/common.debug"
sf_in "$T/bad" show p1
assert_eq "$RC" 2 "alt file not ELF: exit status"
assert_grep "$T/err" "searched: common.debug (not ELF)" "alt file not ELF"
objcopy --strip-debug "$T/g5/multi/common.debug" "$T/bad/common.debug"
sf_in "$T/bad" show p1
assert_grep "$T/err" "searched: common.debug (no DWARF)" "alt file without DWARF"
objcopy --dump-section .debug_info="$T/bad/info" "$T/g5/multi/common.debug" &&
	head -c 100 "$T/bad/info" >"$T/bad/info.cut" &&
	objcopy --update-section .debug_info="$T/bad/info.cut" "$T/g5/multi/common.debug" "$T/bad/common.debug"
sf_in "$T/bad" show p1
assert_eq "$RC" 2 "truncated alt .debug_info: exit status"
assert_grep "$T/err" "common.debug: corrupt DWARF" "truncated alt .debug_info"

tcase "alt references without a link are exit 2, not '?' members"
objcopy --remove-section=.gnu_debugaltlink "$T/g5/multi/p1" "$T/miss/nolink" 2>/dev/null ||
	fail "objcopy failed"
sf_in "$T/miss" show nolink
assert_eq "$RC" 2 "exit status"
assert_grep "$T/err" "refers to a dwz alt file, but the file names none" "says what is wrong"

tcase "the alt file given itself: its partial units' types"
sf_in "$T/g5/multi" show --format json common.debug
assert_eq "$RC" 0 "exit status ($(head -c 200 "$T/err"))"
assert_eq "$(jget "$T/out" 'sorted(names())')" '["header_t", "node", "table", "value"]' \
	"the types both programs share"

for dw in 4 5; do
	tcase "clang DWARF $dw: dwz -m common.debug p1 p2, and single-file dwz p1"
	build clang "$dw" "$T/c$dw/plain" || continue
	mkdir -p "$T/c$dw/multi" "$T/c$dw/single"
	cp "$T/c$dw/plain/p1" "$T/c$dw/plain/p2" "$T/c$dw/multi/"
	cp "$T/c$dw/plain/p1" "$T/c$dw/single/"
	if ! (cd "$T/c$dw/multi" && dwz -m common.debug p1 p2) 2>"$T/dwz.err"; then
		if [ "$dw" = 5 ] && grep -q "Unknown debugging section .debug_addr" "$T/dwz.err"; then
			skip "dwz $(dwz --version 2>&1 | awk '{ print $3; exit }') refuses clang's DWARF 5: $(head -n 1 "$T/dwz.err")"
		else
			fail "dwz -m failed: $(head -n 2 "$T/dwz.err" | tr '\n' ' ')"
		fi
		continue
	fi
	[ "$dw" = 5 ] && echo "    dwz now takes clang's DWARF 5: its skip can go"
	dwz_in "$T/c$dw/single" p1 || continue
	uses "$T/c$dw/multi/p1" "DW_AT_import *: <alt 0x" "imports an alt partial unit"
	uses "$T/c$dw/single/p1" DW_TAG_partial_unit "a partial unit"
	same_as_plain "$T/c$dw/plain" "$T/c$dw/multi" "p1_only table" p1 p2
	same_as_plain "$T/c$dw/plain" "$T/c$dw/single" "p1_only header_t" p1
done

# C++: dwz's partial units carry no DW_AT_language; read as C, a class's
# vptr would be spelled "int ()(...) * *" (the importing unit's language
# counts).  Two shared libraries with classes, bases, virtual bases.
for dw in 4 5; do
	tcase "g++ DWARF $dw: dwz -m over two shared libraries, and single-file"
	mkdir -p "$T/x$dw/plain" "$T/x$dw/multi" "$T/x$dw/single"
	g++ -gdwarf-"$dw" -O0 -shared -fPIC -I"$TD/e2e" -o "$T/x$dw/plain/libx.so" \
		"$TD/reader/cxx.cc" "$TD/e2e/cxx_derived.cpp" "$TD/e2e/cxx_base.cpp" 2>"$T/cc.err" &&
		g++ -gdwarf-"$dw" -O0 -shared -fPIC -o "$T/x$dw/plain/liby.so" \
			"$TD/reader/cxx.cc" "$TD/reader/widget.cc" 2>>"$T/cc.err" ||
		{ fail "g++ cannot build: $(head -n 2 "$T/cc.err" | tr '\n' ' ')"; continue; }
	cp "$T/x$dw/plain/libx.so" "$T/x$dw/plain/liby.so" "$T/x$dw/multi/"
	cp "$T/x$dw/plain/libx.so" "$T/x$dw/single/"
	dwz_in "$T/x$dw/multi" -m common.debug libx.so liby.so || continue
	dwz_in "$T/x$dw/single" libx.so || continue
	uses "$T/x$dw/single/libx.so" DW_TAG_partial_unit "a partial unit"
	uses "$T/x$dw/multi/liby.so" "DW_AT_import *: <alt 0x" "imports an alt partial unit"
	same_as_plain "$T/x$dw/plain" "$T/x$dw/multi" "Derived WithVirtual" libx.so liby.so
	same_as_plain "$T/x$dw/plain" "$T/x$dw/single" "Derived WithVirtual" libx.so
done

tcase "a directory of dwz'd libraries and their alt file reads as the plain directory"
if [ -f "$T/x5/multi/common.debug" ]; then
	for r in "show" "holes" "show --format json"; do
		# shellcheck disable=SC2086
		sf_in "$T/x5" $r plain
		cp "$T/out" "$T/dir.plain"
		# shellcheck disable=SC2086
		sf_in "$T/x5" $r multi
		assert_eq "$RC" 0 "$r: exit status ($(head -c 200 "$T/err"))"
		[ -s "$T/out" ] || fail "$r: empty output"
		cmp -s "$T/dir.plain" <(sed 's|"multi/|"plain/|g' "$T/out") ||
			fail "$r on the directory differs from the plain one (the alt file read alone?)"
	done
	assert_grep "$T/err" "multi/common.debug: a dwz alt file (partial units only), read through the files that import it" \
		"the alt file is said to be skipped"
else
	fail "no g++ DWARF 5 dwz build"
fi

# same_over_jobs PLAIN DWZ FILES...: show and holes of FILES in DWZ with
# 1, 2 and 4 jobs print what one job prints in PLAIN (units go out in runs
# over threads: a partial unit is read by each run that imports it).
same_over_jobs() {
	local plain=$1 dz=$2 r j
	shift 2
	for r in show holes; do
		sf_in "$plain" "$r" -j 1 "$@"
		cp "$T/out" "$T/jobs.plain"
		for j in 1 2 4; do
			sf_in "$dz" "$r" -j "$j" "$@"
			[ "$RC" = 0 ] || { fail "$r -j $j exited $RC: $(head -n 2 "$T/err")"; return 1; }
			cmp -s "$T/jobs.plain" "$T/out" ||
				{ fail "$r -j $j on the dwz build differs from -j 1 on the plain build"; return 1; }
		done
	done
}

# partial_units FILE [MIN]: FILE holds at least MIN partial units (said).
partial_units() {
	local n
	n=$(readelf -wi "$1" 2>/dev/null | grep -c DW_TAG_partial_unit)
	echo "    $(basename "$1"): $n partial units"
	[ "$n" -ge "${2:-1}" ] || fail "$(basename "$1"): $n partial units, fewer than ${2:-1}"
}

# A larger program made here: 41 units sharing headers (testdata/dwz/many.py).
for v in gcc:g++:4 gcc:g++:5 clang:clang++:4; do
	IFS=: read -r cc cxx dw <<<"$v"
	tcase "$cc DWARF $dw: 41 units sharing headers, about 200 partial units: dwz and dwz -m as the plain build"
	m=$T/many/$cc$dw
	mkdir -p "$m/src" "$m/plain" "$m/single" "$m/multi"
	"$PY" -S "$SRC/many.py" "$m/src" || { fail "many.py failed"; continue; }
	# prog: every unit; prog2: the C++ unit and 12 C units of prog's
	(cd "$m/src" && "$cc" -gdwarf-"$dw" -O0 -c u*.c && "$cxx" -gdwarf-"$dw" -O0 -c x.cc &&
		"$cxx" -o "$m/plain/prog" u*.o x.o && "$cxx" -o "$m/plain/prog2" x.o u0.o u2*.o u3.o) \
		2>"$T/cc.err" || { fail "$cc cannot build: $(head -n 2 "$T/cc.err" | tr '\n' ' ')"; continue; }
	cp "$m/plain/prog" "$m/single/"
	cp "$m/plain/prog" "$m/plain/prog2" "$m/multi/"
	dwz_in "$m/single" prog || continue
	dwz_in "$m/multi" -m common.debug prog prog2 || continue
	partial_units "$m/single/prog" 100
	partial_units "$m/multi/common.debug" 20
	uses "$m/single/prog" "DW_AT_import *: <0x" "units import partial units"
	same_as_plain "$m/plain" "$m/single" "u7_mid h3_b" prog
	same_as_plain "$m/plain" "$m/multi" "cfg h2_b" prog prog2
	same_over_jobs "$m/plain" "$m/single" prog
	same_over_jobs "$m/plain" "$m/multi" prog2 prog
done

# A large real program: CPython 3.11's debug build (libpython3.11-dbg's
# static library, every member linked into one executable): dwz makes
# 12,545 partial units.
tcase "a large program (CPython 3.11 debug build) through dwz: every report as the plain build"
pya=$(ls /usr/lib/python3.11/config-3.11d-*/libpython3.11d.a 2>/dev/null | head -n 1)
mkdir -p "$T/py/plain" "$T/py/dwz"
if [ -z "$pya" ]; then
	missing "no libpython3.11d.a (libpython3.11-dbg, in TEST_PKGS)"
elif echo 'int main(void) { return 0; }' >"$T/py/m.c" &&
	gcc -no-pie -o "$T/py/plain/py" "$T/py/m.c" -Wl,--whole-archive "$pya" -Wl,--no-whole-archive \
		-Wl,--unresolved-symbols=ignore-all 2>"$T/cc.err"; then
	cp "$T/py/plain/py" "$T/py/dwz/py"
	if dwz_in "$T/py/dwz" py; then
		partial_units "$T/py/dwz/py" 1000
		sf_in "$T/py/plain" show --format json py
		n=$(jget "$T/out" 'len(d["types"])')
		[ "$n" -gt 500 ] || fail "too few types: $n"
		same_as_plain "$T/py/plain" "$T/py/dwz" "_typeobject _dictkeysobject" py
		same_over_jobs "$T/py/plain" "$T/py/dwz" py
	fi
else
	fail "cannot link libpython3.11d.a: $(head -n 2 "$T/cc.err" | tr '\n' ' ')"
fi

tcase "real input: Debian's dwz'd libbinutils-dbg files agree with gdb"
files=$(dpkg -L libbinutils-dbg 2>/dev/null | grep '/\.build-id/.*\.debug$')
n=0
for f in $files; do
	readelf -SW "$f" 2>/dev/null | grep -qF .gnu_debugaltlink || continue
	n=$((n + 1))
	sf show --format json "$f"
	[ "$RC" = 0 ] || { fail "$f: exit $RC: $(head -c 200 "$T/err")"; continue; }
	"$PY" -S "$E2E_ROOT/tests/compare_gdb.py" cmds "$T/out" "$T/gdb.cmds"
	gdb -batch -nx -x "$T/gdb.cmds" "$f" >"$T/gdb.out" 2>&1
	"$PY" -S "$E2E_ROOT/tests/compare_gdb.py" check "$T/out" "$T/gdb.out" >"$T/cmp" ||
		{ detail "$T/cmp" "structfit vs gdb"; fail "$f: $(tail -n 1 "$T/cmp")"; }
	echo "    $(basename "$f"): $(tail -n 1 "$T/cmp") with gdb; pahole 1.24 prints" \
		"$(pahole "$f" 2>/dev/null | grep -c '^[a-z].* {$') types"
done
[ "$n" -gt 0 ] || fail "no dwz'd file of libbinutils-dbg (make deps-test installs it, and gdb)"
have gdb || fail "gdb is not installed (make deps-test)"

tdone
