#!/bin/bash
# tests/e2e/jobs.sh - --jobs N (-j N): the threads that read the inputs.
#
#  - every command that reads inputs takes it; N is decimal and at least 1,
#    anything else is refused in one line ("structfit: --jobs: ...", exit 2,
#    nothing on stdout);
#  - the output does not depend on N: an archive (its members are read side
#    by side), a directory (its files), several inputs on one command line
#    and one object split over threads give byte for byte what one thread
#    gives, for show (text and json) and holes.  The corpus is the test
#    sources (C from gcc and clang, DWARF 4 and 5, C++ whose base classes
#    are completed across files, three objects with differing twins),
#    compiled here; one thread's output is itself checked against the
#    compiler: each object's structs are in the archive's report, in the
#    archive's member order.
. "$(dirname "$0")/lib.sh"

E=$TD/e2e
INPUT_CMDS="show holes suggest fit check diff patch"

# ------------------------------------------------------------ parsing

tcase "--jobs: a bad N is refused in one line, exit 2, by every command that reads inputs"
printf 'int x;\n' >"$T/none.c"
for c in $INPUT_CMDS; do
	for bad in 0 -1 +2 x 1.5 0x4 " 2" "" 99999999999999999999 1025; do
		assert_exit 2 "$c -j '$bad'" "$SF" "$c" -j "$bad" "$T/none.c"
		assert_eq "$(wc -c <"$T/out")" 0 "$c -j '$bad': stdout bytes"
		assert_eq "$(wc -l <"$T/err")" 1 "$c -j '$bad': stderr lines"
		assert_eq "$(head -n 1 "$T/err")" \
			"structfit: --jobs: '$bad' is not a number of threads from 1 to 1024" \
			"$c -j '$bad': message"
	done
	assert_exit 2 "$c --jobs=x" "$SF" "$c" --jobs=x "$T/none.c"
	assert_grep "$T/err" "--jobs: 'x'" "$c --jobs=x: the long spelling"
	assert_exit 2 "$c -j (no value)" "$SF" "$c" -j
	assert_eq "$(wc -l <"$T/err")" 1 "$c -j without a value: stderr lines"
	assert_grep "$T/err" "needs a value" "$c -j without a value"
	"$SF" "$c" --help | grep -q -- "-j, --jobs N" || fail "$c --help lists -j, --jobs N"
done
assert_exit 2 "classes -j 2" "$SF" classes -j 2
assert_grep "$T/err" "unknown option '-j'" "classes reads no inputs: no -j"

# ------------------------------------------------------------ the corpus

tcase "build the corpus: C (gcc, clang; DWARF 4, 5), C++ across files, differing twins"
objs=()
n=0
for src in "$E"/*.c; do
	for cc in gcc clang; do
		have "$cc" || { missing "$cc is not installed"; continue; }
		n=$((n + 1))
		o=$T/$(printf '%02d' "$n")-$cc-$(basename "$src" .c).o
		compile "$cc" x86_64 $((4 + n % 2)) "$o" "$src" -I"$E" || continue
		objs+=("$o")
	done
done
if need g++; then
	for src in cxx_derived cxx_base; do
		n=$((n + 1))
		o=$T/$(printf '%02d' "$n")-g++-$src.o
		g++ -g -O0 -c -o "$o" "$E/$src.cpp" 2>"$T/cc.err" &&
			objs+=("$o") || fail "g++ cannot build $src.cpp: $(head -n 2 "$T/cc.err")"
	done
fi
[ "${#objs[@]}" -ge 20 ] || fail "only ${#objs[@]} objects built"
mkdir -p "$T/dir/sub"
rm -f "$T/lib.a"
ar rcs "$T/lib.a" "${objs[@]}" || fail "ar failed"
half=$((${#objs[@]} / 2))
cp "${objs[@]:0:$half}" "$T/dir/"
cp "${objs[@]:$half}" "$T/dir/sub/"
printf 'not ELF\n' >"$T/dir/README"

tcase "one thread's report of the archive is its members' structs, in member order"
sf_ok show -j 1 "$T/lib.a"
cp "$T/out" "$T/a1.txt"
# each member's own report is the reference (nm cannot name types): every
# struct header a member reports is in the archive's report, and down the
# archive's report the first member defining each header never goes back
# (headers reported twice, differing twins, are left out: which twin is
# which is not in a header; so are C++ classes, whose held-back types -
# a base only declared in the member - come after all the others)
: >"$T/firsts"
k=0
for o in "${objs[@]}"; do
	k=$((k + 1))
	sf_ok show -j 1 "$o"
	grep -E '^(struct|union|class) .* \{$' "$T/out" | sort -u | while IFS= read -r h; do
		grep -qxF -- "$h" "$T/a1.txt" || echo "MISSING $h"
		case $o in *-g++-*) printf 'C++\t%s\n' "$h" ;; *) printf '%s\t%s\n' "$k" "$h" ;; esac
	done >>"$T/firsts"
done
assert_eq "$(grep -c '^MISSING' "$T/firsts")" 0 "member structs missing from the archive's report"
back=$(grep -E '^(struct|union|class) .* \{$' "$T/a1.txt" | awk -F'\t' '
	NR == FNR { if (!($2 in first)) first[$2] = $1; next }
	{ seen[$0]++; line[FNR] = $0 }
	END {
		for (i = 1; i in line; i++) {
			h = line[i]
			if (seen[h] > 1 || !(h in first) || first[h] == "C++")
				continue
			if (first[h] < last) { print h; exit }
			last = first[h]
		}
	}' "$T/firsts" -)
assert_eq "$back" "" "the first struct out of member order"
assert_ne "$(awk -F'\t' '$1 != "C++" { print $1 }' "$T/firsts" | sort -u | wc -l)" 1 \
	"structs from several members"
assert_ne "$(grep -c '^struct Derived : Base {' "$T/a1.txt")" 0 \
	"Derived (its base completed from the other object) is reported"

# same_for_all_jobs WHAT ARGS...: ARGS give the same output with -j 1, 2, 4
# and without -j.
same_for_all_jobs() {
	local what=$1
	shift
	sf_ok "$@" -j 1
	[ -s "$T/out" ] || fail "$what -j 1: empty output"
	cp "$T/out" "$T/want.txt"
	for j in 2 4 ""; do
		if [ -n "$j" ]; then sf_ok "$@" -j "$j"; else sf_ok "$@"; fi
		cmp -s "$T/out" "$T/want.txt" ||
			fail "$what: -j ${j:-(default)} differs from -j 1: $(diff "$T/want.txt" "$T/out" | head -n 4 | tr '\n' ' ')"
	done
}

tcase "an archive: the same output with 1, 2 and 4 jobs"
same_for_all_jobs "show lib.a" show "$T/lib.a"
same_for_all_jobs "show --format json lib.a" show --format json --origin "$T/lib.a"
same_for_all_jobs "holes lib.a" holes "$T/lib.a"

tcase "a mapped archive (over 1 MiB): the same output, its pages dropped as it is read"
# files up to 1 MiB are read into memory, larger ones mapped, and a mapped
# archive's pages leave the process in batches of 2 MiB as its members are
# listed and read (input/archive.c): members of 400 kB that are not ELF
# between the objects make it 3 MB, and the report must not change
big=()
k=0
for o in "${objs[@]}"; do
	k=$((k + 1))
	big+=("$o")
	if [ $((k % 3)) = 0 ]; then
		head -c 400000 /dev/zero | tr '\0' 'x' >"$T/blob$k.txt"
		big+=("$T/blob$k.txt")
	fi
done
rm -f "$T/big.a"
ar rcs "$T/big.a" "${big[@]}" || fail "ar failed"
[ "$(stat -c %s "$T/big.a")" -gt 2500000 ] || fail "big.a is under 2.5 MB"
same_for_all_jobs "show big.a" show "$T/big.a"
cmp -s "$T/out" "$T/a1.txt" || fail "show big.a differs from show lib.a: $(diff "$T/a1.txt" "$T/out" | head -n 4 | tr '\n' ' ')"
same_for_all_jobs "show --format json big.a" show --format json "$T/big.a"

tcase "a directory: the same output with 1, 2 and 4 jobs"
same_for_all_jobs "show dir" show --origin "$T/dir"
same_for_all_jobs "holes dir" holes "$T/dir"

tcase "several inputs on one command line: the same output with 1, 2 and 4 jobs"
same_for_all_jobs "show objs" show --origin "${objs[@]}"
same_for_all_jobs "show objs, archive and directory" show "${objs[@]:3:5}" "$T/lib.a" "$T/dir"

tcase "one object split over threads: the same output with 1, 2 and 4 jobs"
# the same sources by gcc and clang define the same variables: -z muldefs
ld -r -z muldefs -o "$T/all.o" "${objs[@]}" 2>"$T/ld.err" || fail "ld -r: $(head -n 2 "$T/ld.err")"
same_for_all_jobs "show all.o" show "$T/all.o"

tcase "a report of many types is rendered on several threads: the same text, coloured or not"
# 700 structs of differing shapes (show renders 256 types or more on the
# --jobs threads, in blocks written in order), one far larger than the
# rest; the oracle is -j 1 (one thread) and the compiler's count
{
	for i in $(seq 1 700); do
		printf 'struct s%d { char c; %s v; short h[%d]; };\n' "$i" \
			"$(case $((i % 3)) in 0) echo long ;; 1) echo int ;; *) echo double ;; esac)" $((i % 7 + 1))
	done
	printf 'struct big {'
	for i in $(seq 1 3000); do printf ' char c%d; long l%d;' "$i" "$i"; done
	printf ' };\n'
	for i in $(seq 1 700); do printf 'struct s%d v%d;\n' "$i" "$i"; done
	printf 'struct big vbig;\n'
} >"$T/many.c"
if gcc -g -c -o "$T/many.o" "$T/many.c" 2>"$T/cc.err"; then
	same_for_all_jobs "show many.o" show "$T/many.o"
	assert_eq "$(grep -c '^struct .* {$' "$T/want.txt")" 701 "structs in the report"
	same_for_all_jobs "show --color=always many.o" show --color=always "$T/many.o"
	# written through its own stdout buffer: a write error is still said
	enospc=$("$PY" -S -c 'import errno, os; print(os.strerror(errno.ENOSPC))')
	RC=0; "$SF" show -j 2 "$T/many.o" >/dev/full 2>"$T/err" || RC=$?
	assert_eq "$RC" 2 "show -j 2 many.o >/dev/full: exit status"
	assert_eq "$(cat "$T/err")" "structfit: error writing the output: $enospc" "show -j 2 many.o >/dev/full: message"
else
	fail "gcc cannot build many.c: $(head -n 2 "$T/cc.err")"
fi

tcase "files reached twice in a directory are read once, whatever the number of jobs"
# a hard link, and a stripped program whose debug file (found through its
# .gnu_debuglink, beside it) is in the same directory: sorted before it
# (a.debug, read directly first) and after it (z-prog.debug)
mkdir -p "$T/twice"
if need objcopy strip && gcc -g -O0 -o "$T/prog" "$E/prog.c" -I"$E" 2>"$T/cc.err"; then
	for d in a.debug z-prog.debug; do
		objcopy --only-keep-debug "$T/prog" "$T/twice/$d" &&
			strip --strip-debug -o "$T/twice/m-$d-prog" "$T/prog" &&
			objcopy --add-gnu-debuglink="$T/twice/$d" "$T/twice/m-$d-prog" ||
			fail "objcopy/strip failed"
	done
	cp "${objs[0]}" "$T/twice/b.o"
	ln "$T/twice/b.o" "$T/twice/y-link.o"
	same_for_all_jobs "show twice" show --origin "$T/twice"
	# the oracle for "once": the debug file's report alone, same types
	sf_ok show -j 1 "$T/twice/a.debug" "$T/twice/b.o"
	sort "$T/out" >"$T/once.txt"
	sf_ok show -j 4 "$T/twice"
	assert_eq "$(sort "$T/out" | md5sum)" "$(md5sum <"$T/once.txt")" \
		"the directory is its debug file and one object, once"
else
	fail "gcc cannot build prog.c: $(head -n 2 "$T/cc.err")"
fi

tcase "a bad input among good ones: the same error, whatever the number of jobs"
mkdir -p "$T/bad/sub"
cp "${objs[@]:0:6}" "$T/bad/"
head -c 1000 "${objs[7]}" >"$T/bad/m-trunc.o"
cp "${objs[@]:8:6}" "$T/bad/sub/"
head -c 700 "${objs[9]}" >"$T/bad/sub/z-trunc.o"
rm -f "$T/bad.a"
# (ar's LTO plugin complains about the cut objects: not our output)
ar rcs "$T/bad.a" "${objs[@]:0:5}" "$T/bad/m-trunc.o" "${objs[@]:5:5}" "$T/bad/sub/z-trunc.o" \
	2>/dev/null || fail "ar failed"
# an archive cut short in the middle of a member: its members before it
# are read, then the damage is said
size=$(stat -c %s "$T/lib.a")
head -c $((size * 2 / 3)) "$T/lib.a" >"$T/cut.a"
for args in "$T/bad" "$T/bad.a" "$T/cut.a" "${objs[1]} $T/bad/m-trunc.o ${objs[2]}"; do
	# shellcheck disable=SC2086
	assert_exit 2 "show $args -j 1" "$SF" show -j 1 $args
	cp "$T/err" "$T/err1.txt"
	assert_eq "$(wc -l <"$T/err1.txt")" 1 "show $args -j 1: one line"
	for j in 2 4; do
		# shellcheck disable=SC2086
		assert_exit 2 "show $args -j $j" "$SF" show -j "$j" $args
		assert_eq "$(cat "$T/err")" "$(cat "$T/err1.txt")" "show $args -j $j: the error"
		assert_eq "$(wc -c <"$T/out")" 0 "show $args -j $j: stdout bytes"
	done
done
assert_grep "$T/err1.txt" "m-trunc.o" "the first bad file is the one named"

tdone
