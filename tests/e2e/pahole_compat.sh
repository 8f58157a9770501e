#!/bin/bash
# tests/e2e/pahole_compat.sh - `structfit pahole OPTIONS FILE` against
# `pahole OPTIONS FILE` (dwarves 1.24), byte for byte (diff), on the test
# corpus compiled here: testdata/e2e's C sources with gcc and clang, DWARF 4
# and 5, and its C++ sources with g++ and clang++.
#
# Where the two differ, the difference is named below and only it is
# taken out before the diff; where pahole is wrong, structfit's answer is
# checked against the compiler (sizeof, offsetof) instead.  The named
# differences:
#
#   CONST_ANON  pahole 1.24 prints a const-qualified anonymous struct
#               member (anon.c: with_const_anon.cst) as the struct's body
#               and drops the member's name; structfit prints the member.
#               The type's block is left out of the diff.
#   CLANG_DEFS  clang writes the type of an anonymous member as a child of
#               the struct; pahole 1.24 then prints that type's body a
#               second time inside the struct, a bare block with no offset
#               (drop_nested_type_defs takes it out; under -E at any depth,
#               and ending in the expanded member's name, which pahole
#               passes on to it).
#   ORDER       structfit lists a unit's types in declaration order (file,
#               line: the order dwz cannot change); pahole in DIE order,
#               which is first use for clang and for C++ templates, and
#               for gcc's C the same only when the sources' paths sort
#               after /usr/include (a checkout under /work: names.c's
#               structs after stdio.h's _IO_FILE; under /tmp: before).
#               The blocks and lines are compared sorted, for every
#               compiler.
#   BIGSIZE     pahole 1.24 prints a size with %d of 32 bits: bigarray.c's
#               4 GiB structs print as 4, 0, 2.  structfit's sizes are
#               checked against the compiler's sizeof instead.
#   NULLNAMES   with -a, pahole's -s/-n/-N also list the anonymous structs
#               nested in others as "(null)"; structfit lists only its
#               types ("(null)" for one a typedef names, as pahole does).
#               "(null)" lines are left out.
#   METHODS     structfit prints data members only: pahole's C++ blocks
#               are compared under -M (pahole's --show_only_data_members).
#               C++ is compared in DWARF 5 only: from g++'s DWARF 4, pahole
#               spells glibc's `struct _IO_marker *` as `class _IO_marker *`
#               (not looked into further).
#   CXX_BASES   pahole 1.24 gets cxx_derived.cpp's classes wrong: Base is
#               only declared in that object (a 16-byte hole after a
#               0-byte <ancestor>), the virtual base's offset is
#               4294967295, an empty struct has 0 cachelines.  structfit's
#               answers are checked against the compiler's.
#   REORG       -R: pahole's greedy reorder and structfit's search may find
#               different orders.  Each reorganized block is compiled as C
#               (the text pahole prints is C); a claimed size or offset the
#               compiler does not give is that tool's bug (pahole 1.24
#               "saves" -5 bytes, or gives an aligned(32) struct 12 bytes);
#               structfit's claims must all hold and its size must be no
#               larger than pahole's where pahole's claims hold.
#   PACKABLE    -P: a line where the new sizes differ is checked as REORG.
#   DECL_FILE0  -I: pahole 1.24 prints "(null)" for the declaration file
#               of clang's DWARF 5 (file 0 of the line table).
#   DECL_PATH   -I: where the line table names a file relative to the
#               compilation directory (clang's DWARF 4 here), pahole prints
#               it as written; structfit joins it to that directory, as it
#               does everywhere.  For clang's objects the file names are
#               taken out of the diff, and each file:line structfit prints
#               is checked against the source instead; gcc's are compared
#               byte for byte.
#   CLANG_NESTED -a -A: pahole 1.24 prints no block for the anonymous
#               types clang writes as children of their struct (it prints
#               gcc's, which are the unit's children); structfit prints
#               them for both.  On clang's objects structfit's output less
#               those blocks is compared, and their number must be the
#               number pahole prints for gcc's object of the same source.
#   CONST_EXPAND -E of a const-qualified struct member (`const struct
#               point fixed;`): pahole 1.24 prints the struct's summary
#               inside it and drops the member's name (as CONST_ANON);
#               structfit prints `} fixed;`.  expand.c has none.
. "$(dirname "$0")/lib.sh"

C_SRCS="layouts holes packed forced names anon sockaddr bigarray"
CXX_SRCS="names cxx_base cxx_derived"
# the options compared on every object (each alone, and a few together)
LINE_OPTS=("-s" "-n" "-N" "-s -t ," "-s --structs" "-s --unions" "-s --packed"
	"-s -H 2" "-s -B 1" "-z 4" "-z 4 -V" "-s --with_flexible_array" "-s -x s"
	"-s -y s" "-a -s" "-a -n" "-s -F dwarf")
BLOCK_OPTS=("" "-q" "--hex" "-a" "--structs" "--unions" "--packed" "-H 2" "-B 1"
	"--with_flexible_array" "--sort" "--suppress_aligned_attribute"
	"--suppress_packed" "--suppress_force_paddings" "-x s" "-y s" "-c 32"
	"-M" "-q --hex -c 16" "-R" "-E" "-r" "--count 1 --skip 2")

# sort_blocks FILE: the blocks of FILE (type ... }, with -I's two lines
# before it) sorted; ORDER.
sort_blocks() {
	"$PY" -S -c '
import re, sys
t = open(sys.argv[1]).read()
b = re.findall(r"^(?:/\* Used at: [^\n]*\n/\* <[^\n]*\n)?(?:struct|union|class|typedef)[^\n]*\{\n.*?^\}[^\n]*\n", t, re.S | re.M)
sys.stdout.write("".join(sorted(b)))' "$1" >"$1.s" && mv "$1.s" "$1"
}

# drop_block FILE NAME: leave out the block of type NAME (CONST_ANON).
drop_block() {
	awk -v n="$2" '
		$0 ~ "^(struct|union) " n " \\{$" { skip = 1 }
		!skip { print }
		skip && /^}/ { skip = 0 }' "$1" >"$1.d" && mv "$1.d" "$1"
}

# CLANG_DEFS, as show.sh, at any depth (-E), and under -q: there the
# member that uses the type ends in "};" as well; the second definition is
# the one with no offset comment that a blank line follows.
drop_nested_type_defs() {
	"$PY" -S -c '
import re, sys
lines = open(sys.argv[1]).read().split("\n")
out, i = [], 0
while i < len(lines):
    m = re.match(r"^(\t+)(?:typedef )?(struct|union|enum) \{$", lines[i])
    if m:
        j = i + 1
        while j < len(lines) and not lines[j].startswith(m.group(1) + "}"):
            j += 1
        if j + 1 < len(lines) and "/*" not in lines[j] and lines[j + 1] == "":
            i = j + 2
            continue
    out.append(lines[i])
    i += 1
# the -I lines before such a definition (structfit never indents them)
out = [l for l in out if not re.match(r"^\t+/\* (Used at: .*|<[0-9a-f]+> .*:[0-9]+) \*/$", l)]
sys.stdout.write("\n".join(out))' "$1" >"$1.tmp" && mv "$1.tmp" "$1"
}

# both CC OPTS OBJ: pahole's and structfit's outputs in $T/p.txt, $T/s.txt,
# the named differences taken out.  Status: structfit's exit status.
both() {
	local cc=$1 opts=$2 obj=$3
	# shellcheck disable=SC2086
	pahole $opts "$obj" >"$T/p.txt" 2>/dev/null
	# shellcheck disable=SC2086
	sf pahole $opts "$obj"
	cp "$T/out" "$T/s.txt"
	case "$obj" in *anon*) drop_block "$T/p.txt" with_const_anon
		drop_block "$T/s.txt" with_const_anon ;; esac
	case "$opts" in *-a*) sed -i '/^(null)/d' "$T/p.txt" "$T/s.txt" ;; esac
	case "$cc" in
	clang*) drop_nested_type_defs "$T/p.txt" ;;
	esac
	if grep -q '^[a-z].* {$' "$T/p.txt"; then
		sort_blocks "$T/p.txt"; sort_blocks "$T/s.txt"
	else
		sort -o "$T/p.txt" "$T/p.txt"; sort -o "$T/s.txt" "$T/s.txt"
	fi
	return "$RC"
}

# compare CC OBJ OPTS...: each option set, byte for byte.
compare() {
	local cc=$1 obj=$2 opts n=0
	shift 2
	for opts in "$@"; do
		both "$cc" "$opts" "$obj" || { fail "$cc $(basename "$obj"): structfit pahole $opts exited $RC: $(head -c 200 "$T/err")"; continue; }
		n=$((n + 1))
		if ! diff -u "$T/p.txt" "$T/s.txt" >"$T/diff"; then
			fail "$(basename "$obj"): pahole $opts differs"
			detail "$T/diff" "pahole $opts (-) vs structfit pahole $opts (+)"
		fi
	done
	COMPARED=$((COMPARED + n))
}

OBJS=""
build_corpus() {
	local cc dw src o
	for cc in gcc clang; do
		have "$cc" || continue
		for dw in 4 5; do
			for src in $C_SRCS; do
				o=$T/$cc-dw$dw-$src.o
				compile "$cc" x86_64 "$dw" "$o" "$TD/e2e/$src.c" && OBJS="$OBJS $o"
			done
		done
	done
	for cc in g++ clang++; do
		have "$cc" || continue
		for dw in 5; do
			for src in $CXX_SRCS; do
				o=$T/$cc-dw$dw-$src.o
				"$cc" -gdwarf-"$dw" -O0 -c -o "$o" "$TD/e2e/$src.cpp" 2>"$T/cc.err" &&
					OBJS="$OBJS $o"
			done
		done
	done
}

cc_of() { basename "$1" | cut -d- -f1; }
src_of() { basename "$1" .o | cut -d- -f3; }

tcase "every option against pahole, C (gcc and clang, DWARF 4 and 5)"
if need pahole gcc; then
	build_corpus
	COMPARED=0
	for o in $OBJS; do
		case "$o" in *++*|*bigarray*) continue ;; esac
		# every option on gcc's DWARF 5; a few on the others (the
		# same code prints them: what differs is what was read)
		case "$o" in
		*gcc-dw5-*) compare "$(cc_of "$o")" "$o" "${LINE_OPTS[@]}" "${BLOCK_OPTS[@]}" ;;
		*clang-dw5-*) compare "$(cc_of "$o")" "$o" "-s" "-n" "-a -s" "-z 4" "" "-q" \
			"--hex" "-a" "--sort" "-c 32" "--suppress_packed" "-E" ;;
		*) compare "$(cc_of "$o")" "$o" "" "-s" "-q" "--hex" "-a" ;;
		esac
	done
	echo "    $COMPARED outputs compared"
	[ "$COMPARED" -ge 200 ] || fail "only $COMPARED outputs compared"
fi

tcase "every option against pahole -M, C++ (g++ and clang++; METHODS)"
if need pahole g++; then
	COMPARED=0
	for o in $OBJS; do
		case "$o" in *++*) ;; *) continue ;; esac
		case "$o" in *cxx_derived*) continue ;; esac	# CXX_BASES, below
		compare "$(cc_of "$o")" "$o" "-M" "-M -s" "-M -q --hex" "-M --sort -H 1" "-M -E"
	done
	echo "    $COMPARED outputs compared"
	[ "$COMPARED" -ge 16 ] || fail "only $COMPARED outputs compared"
fi

tcase "-C NAMES (a comma list, in the order given) against pahole -C"
if need pahole gcc; then
	COMPARED=0
	for o in $OBJS; do
		case "$o" in *-dw5-*) ;; *) continue ;; esac
		case "$o" in *bigarray*|*++*) continue ;; esac
		names=$("$SF" pahole -s "$o" | cut -f1 | grep -v '^with_const_anon$' | sort -r |
			paste -sd,)
		[ -n "$names" ] || continue
		compare "$(cc_of "$o")" "$o" "-C $names" "-C $names -q --hex" \
			"--class_name=$names --suppress_aligned_attribute --suppress_packed --suppress_force_paddings -c 32"
		first=${names%%,*}
		compare "$(cc_of "$o")" "$o" "-C $first"
	done
	echo "    $COMPARED outputs compared"
	[ "$COMPARED" -ge 40 ] || fail "only $COMPARED outputs compared"
fi

tcase "-E, -r: expand.c (typedef chains, typedefs of anonymous types, vectors, structs by value, deep nesting) against pahole"
if need pahole gcc; then
	COMPARED=0
	for cc in gcc clang; do
		have "$cc" || continue
		o=$T/$cc-dw5-expand.o
		compile_or_fail "$cc" x86_64 5 "$o" "$TD/e2e/expand.c" || continue
		compare "$cc" "$o" "-E" "-E -r" "-E -q --hex -c 32" \
			"-E --suppress_aligned_attribute --suppress_packed" "-E -C expand,level1" \
			"-E -a" "-r"
	done
	echo "    $COMPARED outputs compared"
	[ "$COMPARED" -ge 8 ] || fail "only $COMPARED outputs compared"
	sf_ok pahole -E -C expand "$T/gcc-dw5-expand.o"
	assert_grep "$T/out" "/* typedef off2 -> off_like */ long int" "a typedef chain said"
	assert_grep "$T/out" "	}origin; /* " "a struct held by value printed inline"
fi

tcase "-I: each type's unit, DIE offset and declaration against pahole -I (DECL_FILE0, DECL_PATH)"
if need pahole gcc; then
	COMPARED=0
	for o in $OBJS; do
		case "$o" in *++*) continue ;; *-layouts.o|*-names.o|*-anon.o) ;; *) continue ;; esac
		case "$o" in
		*clang-*) ;;
		*) compare "$(cc_of "$o")" "$o" "-I -a"; continue ;;
		esac
		both clang "-I -a" "$o" || { fail "$(basename "$o"): structfit pahole -I -a exited $RC"; continue; }
		# DECL_FILE0, DECL_PATH: the source line of each declaration names the type
		"$PY" -S - "$T/s.txt" >"$T/decl.txt" <<'EOF'
import re, sys
t = open(sys.argv[1]).read()
for f, line, kind, name in re.findall(r"^/\* <[0-9a-f]+> ([^\n:]+):(\d+) \*/\n(typedef struct|struct|union) ([^ {]*)", t, re.M):
    src = open(f).read().split("\n")[int(line) - 1]
    if (name if kind != "typedef struct" else "struct") not in src:
        print("%s:%s: %r is not %s %s" % (f, line, src, kind, name))
EOF
		[ -s "$T/decl.txt" ] && fail "clang -I: $(head -n 1 "$T/decl.txt")"
		sed -i 's|^\(/\* <[0-9a-f]*> \)[^:]*:|\1FILE:|' "$T/p.txt" "$T/s.txt"
		COMPARED=$((COMPARED + 1))
		diff -u "$T/p.txt" "$T/s.txt" >"$T/diff" || {
			fail "$(basename "$o"): pahole -I -a differs (but for DECL_FILE0, DECL_PATH)"
			detail "$T/diff" "pahole -I -a (-) vs structfit pahole -I -a (+)"
		}
	done
	echo "    $COMPARED outputs compared"
	[ "$COMPARED" -ge 9 ] || fail "only $COMPARED outputs compared"
	sf_ok pahole -I -C mixed "$T/gcc-dw5-layouts.o"
	assert_grep "$T/out" "/* Used at: $TD/e2e/layouts.c */" "-I: the unit's name"
	assert_grep "$T/out" "$TD/e2e/layouts.c:$(grep -n '^struct mixed {' "$TD/e2e/layouts.c" | cut -d: -f1) */" "-I: mixed's declaration line"
fi

tcase "-a -A: the anonymous types inside others on their own, against pahole (CLANG_NESTED)"
if need pahole gcc; then
	COMPARED=0
	for src in layouts anon names expand; do
		o=$T/gcc-dw5-$src.o
		[ -f "$o" ] || continue
		compare gcc "$o" "-a -A" "-a -A --unions -q --hex"
		pahole -a -A "$o" >"$T/p.txt" 2>/dev/null
		want=$(grep -cE '^(struct|union) \{$' "$T/p.txt")
		o=$T/clang-dw5-$src.o
		[ -f "$o" ] || continue
		both clang "-a -A" "$o" || { fail "$src.c clang: structfit pahole -a -A exited $RC"; continue; }
		cp "$T/p.txt" "$T/pa.txt"
		sf pahole -a -A "$o"
		"$PY" -S -c '
import re, sys
t = open(sys.argv[1]).read()
b = re.findall(r"^(?:struct|union|class|typedef)[^\n]*\{\n.*?^\}[^\n]*\n", t, re.S | re.M)
anon = [x for x in b if re.match(r"(struct|union) \{\n", x)]
open(sys.argv[2], "w").write("".join(sorted(x for x in b if x not in anon)))
print(len(anon))' "$T/out" "$T/s.txt" >"$T/n.txt"
		case "$src" in anon) drop_block "$T/s.txt" with_const_anon ;; esac
		COMPARED=$((COMPARED + 1))
		diff -u "$T/pa.txt" "$T/s.txt" >"$T/diff" || {
			fail "$src.c clang: pahole -a -A differs (but for CLANG_NESTED)"
			detail "$T/diff" "pahole -a -A (-) vs structfit pahole -a -A less its anonymous blocks (+)"
		}
		assert_eq "$(cat "$T/n.txt")" "$want" "$src.c clang: anonymous blocks (pahole's for gcc)"
	done
	echo "    $COMPARED outputs compared"
	[ "$COMPARED" -ge 10 ] || fail "only $COMPARED outputs compared"
fi

tcase "-i NAME, -i NAME -d, -i NAME -V against pahole"
if need pahole gcc; then
	COMPARED=0
	for o in $OBJS; do
		case "$o" in *gcc-dw5-layouts*|*gcc-dw5-names*|*gcc-dw5-packed*) ;; *) continue ;; esac
		for name in $("$SF" pahole -s "$o" | cut -f1); do
			compare gcc "$o" "-i $name -d" "--contains=$name -V"
		done
	done
	echo "    $COMPARED outputs compared"
	"$SF" pahole -i inner "$T/gcc-dw5-layouts.o" >"$T/i.txt" 2>&1
	assert_grep "$T/i.txt" "outer" "-i inner (layouts.c's outer holds an inner)"
	[ "$COMPARED" -ge 30 ] || fail "only $COMPARED outputs compared"
fi

# ------------------------------------------------------------ -R and -P

# block_claims FILE NAME: from a -R block of struct NAME, a C file that
# declares it again as NAME__r after including the source, and asserts
# every size and member offset the block claims (REORG).
claims_c() {
	local block=$1 name=$2 src=$3
	"$PY" -S - "$block" "$name" "$src" <<'EOF'
import re, sys
block, name, src = sys.argv[1], sys.argv[2], sys.argv[3]
t = open(block).read()
size = re.search(r"/\* size: (\d+),", t)
body = re.sub(r"/\*.*?\*/", "", t, flags=re.S)
body = body.replace("struct %s {" % name, "struct %s__r {" % name, 1)
body = re.sub(r"^(\}[^;]*);.*$", r"\1;", body, flags=re.M)
out = ['#include <stddef.h>', '#include "%s"' % src, body]
if size:
    out.append('_Static_assert(sizeof(struct %s__r) == %s, "size");' % (name, size.group(1)))
for m in re.finditer(r"^\t[^\t/{}][^;\n]*?[ *]([A-Za-z_]\w*)(\[[^;\n]*\])?;[ \t]*/\*\s+(\d+)\s+\d+ \*/", t, re.M):
    out.append('_Static_assert(offsetof(struct %s__r, %s) == %s, "%s");'
               % (name, m.group(1), m.group(3), m.group(1)))
print("\n".join(out))
EOF
}

# holds BLOCK NAME SRC: whether the compiler gives what BLOCK claims: 0
# yes, 1 a static assertion fails; a block that does not compile for any
# other reason fails the case (the check would prove nothing).
holds() {
	claims_c "$1" "$2" "$3" >"$T/claims.c" || return 2
	gcc -w -c -o "$T/claims.o" "$T/claims.c" 2>"$T/claims.err" && return 0
	if grep 'error:' "$T/claims.err" | grep -qv 'static assertion failed'; then
		fail "$2: its reorganized block does not compile: $(grep -m 1 'error:' "$T/claims.err")"
		return 2
	fi
	return 1
}

claimed_size() { sed -n 's@.*/\* size: \([0-9]*\),.*@\1@p' "$1" | head -n 1; }

tcase "-R -C NAME: pahole's text, or both claims checked by the compiler (REORG)"
if need pahole gcc; then
	same=0 differ=0 pahole_bugs=""
	for src in layouts holes packed forced names; do
		o=$T/gcc-dw5-$src.o
		for name in $("$SF" pahole -s --structs "$o" | cut -f1); do
			pahole -R -C "$name" "$o" >"$T/pr.txt" 2>/dev/null
			sf pahole -R -C "$name" "$o"
			cp "$T/out" "$T/sr.txt"
			if cmp -s "$T/pr.txt" "$T/sr.txt"; then
				same=$((same + 1))
				continue
			fi
			differ=$((differ + 1))
			holds "$T/sr.txt" "$name" "$TD/e2e/$src.c"
			case $? in
			1) fail "$src.c $name: structfit pahole -R claims what the compiler does not give: $(grep -m 1 'error:' "$T/claims.err")"; continue ;;
			2) continue ;;
			esac
			ps=$(claimed_size "$T/pr.txt") ss=$(claimed_size "$T/sr.txt")
			holds "$T/pr.txt" "$name" "$TD/e2e/$src.c"
			case $? in
			0) [ "$ss" -le "$ps" ] ||
				fail "$src.c $name: pahole -R reaches $ps bytes, structfit $ss" ;;
			1) pahole_bugs="$pahole_bugs $name($ps)" ;;
			esac
		done
	done
	echo "    $same identical, $differ differing (structfit's claims hold in each)"
	echo "    pahole 1.24 -R claims the compiler does not give:$pahole_bugs"
	[ "$same" -ge 10 ] || fail "only $same identical"
fi

tcase "-P: pahole's lines, or the -R claims checked by the compiler (PACKABLE)"
if need pahole gcc; then
	n=0
	for src in layouts holes packed forced names; do
		o=$T/gcc-dw5-$src.o
		pahole -P "$o" >"$T/pp.txt" 2>/dev/null
		sf pahole -P "$o"
		cp "$T/out" "$T/sp.txt"
		while IFS=$(printf '\t') read -r name old new saved; do
			n=$((n + 1))
			grep -qxF "$(printf '%s\t%s\t%s\t%s' "$name" "$old" "$new" "$saved")" "$T/pp.txt" &&
				continue
			# not pahole's line: structfit's -R block must give that size
			sf pahole -R -C "$name" "$o"
			cp "$T/out" "$T/sr.txt"
			[ "$(claimed_size "$T/sr.txt")" = "$new" ] ||
				fail "$src.c $name: -P says $new bytes, -R $(claimed_size "$T/sr.txt")"
			holds "$T/sr.txt" "$name" "$TD/e2e/$src.c" ||
				fail "$src.c $name: -P's $new bytes: the compiler disagrees: $(grep -m 1 'error:' "$T/claims.err")"
		done <"$T/sp.txt"
		# pahole's lines structfit does not print: structfit finds no
		# smaller order, so pahole's -R must be wrong there
		while IFS=$(printf '\t') read -r name old new saved; do
			grep -q "^$name	" "$T/sp.txt" && continue
			pahole -R -C "$name" "$o" >"$T/pr.txt" 2>/dev/null
			holds "$T/pr.txt" "$name" "$TD/e2e/$src.c"
			[ $? = 0 ] &&
				fail "$src.c $name: pahole -P packs it to $new bytes (and the compiler agrees); structfit does not list it"
		done <"$T/pp.txt"
	done
	[ "$n" -ge 5 ] || fail "only $n -P lines"
fi

# ------------------------------------------------------------ pahole's bugs

tcase "bigarray.c: sizes past 4 GiB against the compiler (BIGSIZE)"
if need gcc; then
	o=$T/gcc-dw5-bigarray.o
	sf_ok pahole -s "$o"
	{
		echo '#include "'"$TD"'/e2e/bigarray.c"'
		awk -F'\t' '{ printf "_Static_assert(sizeof(struct %s) == %sUL, \"%s\");\n", $1, $2, $1 }' "$T/out"
	} >"$T/big.c"
	gcc -w -c -o "$T/big.o" "$T/big.c" 2>"$T/cc.err" ||
		fail "structfit pahole -s sizes are not the compiler's: $(head -n 2 "$T/cc.err" | tr '\n' ' ')"
	assert_grep "$T/out" "big	4294967300	0" "struct big's 4 GiB + 4 bytes"
	if have pahole; then
		pahole -s "$o" >"$T/p.txt" 2>/dev/null
		assert_grep "$T/p.txt" "big	4	0" "pahole 1.24's 32-bit size (BIGSIZE still there?)"
	fi
fi

tcase "cxx_derived.cpp: structfit's layout against the compiler (CXX_BASES)"
if need g++; then
	cat >"$T/probe.cpp" <<EOF
#include "$TD/e2e/cxx_derived.cpp"
#include <cstdio>
#define OFF(o, m) ((long)((char *)&(o).m - (char *)&(o)))
int main() {
	Derived d; WithEmpty e; WithVirtual v;
	printf("Derived %zu c %ld d %ld\n", sizeof d, OFF(d, c), OFF(d, d));
	printf("Empty %zu\n", sizeof(Empty));
	printf("WithEmpty %zu x %ld\n", sizeof e, OFF(e, x));
	printf("WithVirtual %zu w %ld VBase %ld\n", sizeof v, OFF(v, w),
	       (long)((char *)static_cast<VBase *>(&v) - (char *)&v));
}
EOF
	if g++ -w -o "$T/probe" "$T/probe.cpp" "$TD/e2e/cxx_base.cpp" 2>"$T/cc.err"; then
		"$T/probe" >"$T/want.txt"
		o=$T/g++-dw5-cxx_derived.o
		sf_ok pahole -C Derived,Empty,WithEmpty,WithVirtual "$o" "$T/g++-dw5-cxx_base.o"
		"$PY" -S - "$T/out" >"$T/got.txt" <<'EOF'
import re, sys
t = open(sys.argv[1]).read()
for b in re.findall(r"^(?:struct|class) (\w+)[^\n]*\{\n(.*?)^\}", t, re.S | re.M):
    name, body = b
    size = re.search(r"/\* size: (\d+),", body).group(1)
    line = [name, size]
    for m in re.finditer(r"^\t(?:/\* )?(?:struct )?(\w+)?[^/\n]*?(\w+|<ancestor>);(?: \*/)?[ \t]*/\*\s+(\d+)\s+\d+ \*/", body, re.M):
        if "_vptr" in m.group(0):
            continue
        if m.group(2) == "<ancestor>":
            if m.group(1) != "Empty" and m.group(1) != "Base":
                line += [m.group(1), m.group(3)]
        else:
            line += [m.group(2), m.group(3)]
    print(" ".join(line))
EOF
		if ! diff -u "$T/want.txt" "$T/got.txt" >"$T/diff"; then
			fail "structfit pahole's C++ layouts are not the compiler's"
			detail "$T/diff" "compiler (-) vs structfit pahole (+)"
		fi
		if have pahole; then
			pahole -M -C WithVirtual "$o" >"$T/p.txt" 2>/dev/null
			assert_grep "$T/p.txt" "/* 4294967295     8 */" "pahole 1.24's virtual base offset (CXX_BASES still there?)"
		fi
	else
		fail "g++ cannot build the probe: $(head -n 2 "$T/cc.err" | tr '\n' ' ')"
	fi
fi

tcase "-F btf: an object's .BTF section (pahole -J) against pahole -F btf"
if need pahole gcc; then
	cp "$T/gcc-dw5-layouts.o" "$T/btf.o"
	if pahole -J "$T/btf.o" >/dev/null 2>&1 && readelf -S "$T/btf.o" | grep -q '\.BTF'; then
		COMPARED=0
		compare gcc "$T/btf.o" "-F btf" "-F btf -s" "-F btf,dwarf -q" "-F btf -C mixed,ptrs" "-F btf -E" "-F btf -I"
		sf_ok pahole -F btf -C mixed "$T/btf.o"
		cp "$T/out" "$T/b.txt"
		sf_ok pahole -F dwarf -C mixed "$T/btf.o"
		cmp -s "$T/out" "$T/b.txt" || echo "    (BTF and DWARF blocks of mixed differ, as in pahole)"
	else
		skip "pahole -J cannot add .BTF to an object here"
	fi
fi

# ------------------------------------------------------------ errors

tcase "a pahole option structfit does not do: one line naming it, exit 2"
o=$T/gcc-dw5-layouts.o
for opt in -S -p -T -u --lang=c --prettify=x; do
	assert_exit 2 "pahole $opt" "$SF" pahole "$opt" -C mixed "$o"
	[ "$(wc -l <"$T/err")" = 1 ] || fail "$opt: $(wc -l <"$T/err") lines on stderr"
	case "$opt" in
	--*=*) want=${opt%%=*} ;;
	-p) want=--expand_pointers ;;
	-T) want=--nr_definitions ;;
	-u) want=--defined_in ;;
	*) want=$opt ;;
	esac
	assert_grep "$T/err" "${want}" "$opt named"
	[ -s "$T/out" ] && fail "$opt: output on stdout"
done
assert_exit 2 "an unknown option" "$SF" pahole --no-such-option "$o"
assert_grep "$T/err" "unknown option '--no-such-option'" "unknown option named"
assert_exit 2 "-F ctf" "$SF" pahole -F ctf "$o"
assert_grep "$T/err" "'ctf'" "-F ctf named"
for opt in -H -B -z -c --count --skip; do	# not an abort (exit 134)
	assert_exit 2 "pahole $opt x" "$SF" pahole "$opt" x "$o"
	[ "$(wc -l <"$T/err")" = 1 ] || fail "$opt x: $(wc -l <"$T/err") lines on stderr"
	assert_grep "$T/err" "'x' is not a number" "$opt x named"
done

tcase "-C of a type the file lacks: one line naming file and type, exit 2"
assert_exit 2 "-C nosuch" "$SF" pahole -C mixed,nosuch "$o"
assert_grep "$T/err" "gcc-dw5-layouts.o: type 'nosuch' not found" "the file and the type"
[ -s "$T/out" ] && fail "partial output before the error"
assert_exit 2 "not an ELF file" "$SF" pahole "$TD/e2e/layouts.c"
assert_grep "$T/err" "layouts.c" "the file named"

tcase "structfit's own commands keep their letters: show -R is still --source-root"
sf show -R /nonexistent-dir -t mixed "$o"
assert_eq "$RC" 2 "show -R DIR"
assert_grep "$T/err" "/nonexistent-dir" "show -R names the source root"
sf_ok pahole --help
assert_grep "$T/out" "--reorganize" "pahole --help lists -R"

tdone
