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
#               (normalize takes it out; under -E at any depth,
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
#   REORG_STEPS -S (with -R): pahole 1.24 dies (SIGSEGV, in the
#               class__fprintf of each step) at the first move it would
#               show, so it prints whole only for a struct it does not
#               reorder; there both are compared byte for byte.  The moves
#               are each tool's (REORG): structfit's are its reorder's, each
#               unit outside the kept subsequence moved once, in the new
#               order, to after the one before it there.  Where the two -R
#               blocks are the same, -R -V (the moves alone) is compared
#               byte for byte, and structfit's -S less its step blocks and
#               its "Final reorganized struct" line must be that -V.  Each
#               step's block is structfit's drawing of a real order: its
#               claims are compiled (as REORG's), and the last is the final
#               block.  A step block ends in "};" (pahole's class__fprintf
#               would end it in "}", its code says: never seen, it dies).
#   SORT_DEFS   -T --sort: pahole 1.24's type__compare_members answers
#               "different" for any two definitions under --sort (so that
#               btfdiff sorts again), so each unit's is a line of its own
#               with 1; structfit counts as without --sort.
#   DEFINED_IN  -u -C A,B where one unit defines both: pahole 1.24 prints
#               A's unit and stops looking in that unit, so B's line names
#               the next unit that defines B (libc's debug file: link_map's
#               libc_fatal.c, not init-first.c), or B is "not found";
#               structfit prints for each name pahole's line for it alone.
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

# drop_block FILE NAME: leave out the block of type NAME (CONST_ANON).
drop_block() {
	awk -v n="$2" '
		$0 ~ "^(struct|union) " n " \\{$" { skip = 1 }
		!skip { print }
		skip && /^}/ { skip = 0 }' "$1" >"$1.d" && mv "$1.d" "$1"
}

# normalize CC P S: the named differences taken out of pahole's output P
# and structfit's S, in one Python run for the two (each compare is a
# few hundred of them, and Python's start the most of their time):
#   CLANG_DEFS (clang's objects; P only), as show.sh, at any depth (-E),
#     and under -q: there the member that uses the type ends in "};" as
#     well; the second definition is the one with no offset comment that
#     a blank line follows;
#   ORDER: where P has blocks (type ... }, with -I's two lines before
#     it), the blocks of each file sorted, else the lines of each (sorted
#     alike: only equality matters).
normalize() {
	"$PY" -S -c '
import re, sys
cc, files = sys.argv[1], sys.argv[2:]
texts = [open(f).read() for f in files]

def drop_nested_type_defs(t):
    lines = t.split("\n")
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
    return "\n".join(out)

def sorted_blocks(t):
    b = re.findall(r"^(?:/\* Used at: [^\n]*\n/\* <[^\n]*\n)?(?:struct|union|class|typedef)[^\n]*\{\n.*?^\}[^\n]*\n", t, re.S | re.M)
    return "".join(sorted(b))

def sorted_lines(t):
    return "".join(l + "\n" for l in sorted(t.splitlines()))

if cc.startswith("clang"):
    texts[0] = drop_nested_type_defs(texts[0])
by = sorted_blocks if re.search(r"^[a-z].* \{$", texts[0], re.M) else sorted_lines
for f, t in zip(files, texts):
    open(f, "w").write(by(t))' "$@"
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
	normalize "$cc" "$T/p.txt" "$T/s.txt"
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

# ------------------------------------------------------------ -S, -T, -u, --lang

# steps_ok FILE: a -R -S output's step blocks in $T/stepN.txt; prints
# their number and whether the last is the final block (REORG_STEPS).
steps_ok() {
	"$PY" -S - "$1" "$T/step" <<'EOF2'
import re, sys
t = open(sys.argv[1]).read()
head, _, final = t.partition("\n/* Final reorganized struct: */\n")
steps = re.split(r"^/\* Moving [^\n]*\*/\n", head, flags=re.M)[1:]
for i, b in enumerate(steps):
    open("%s%d.txt" % (sys.argv[2], i), "w").write(b)
last = steps[-1] if steps else ""
fin = re.sub(r"^(\}[^\n]*?;)   /\* saved [^\n]*\n$", r"\1\n", final, flags=re.M)
print(len(steps), "same" if last == fin else "differs")
EOF2
}

tcase "-R -S, -R -V: pahole's text where pahole does not crash, else its moves (REORG_STEPS)"
if need pahole gcc; then
	same_s=0 same_v=0 crashed=0 checked=0
	for src in layouts holes packed forced names; do
		o=$T/gcc-dw5-$src.o
		for name in $("$SF" pahole -s --structs "$o" | cut -f1); do
			sf pahole -R -S -C "$name" "$o"
			[ "$RC" = 0 ] || { fail "$src.c $name: structfit pahole -R -S exited $RC"; continue; }
			cp "$T/out" "$T/ss.txt"
			read -r nsteps last <<EOF3
$(steps_ok "$T/ss.txt")
EOF3
			[ "$nsteps" = 0 ] || [ "$last" = same ] ||
				fail "$src.c $name: -S's last step is not the final struct"
			for ((i = 0; i < nsteps; i++)); do
				holds "$T/step$i.txt" "$name" "$TD/e2e/$src.c" ||
					fail "$src.c $name: -S step $((i + 1)) claims what the compiler does not give"
				checked=$((checked + 1))
			done
			pahole -R -C "$name" "$o" >"$T/pr.txt" 2>/dev/null
			sf pahole -R -C "$name" "$o"
			cmp -s "$T/pr.txt" "$T/out" || continue	# REORG
			pahole -R -V -C "$name" "$o" >"$T/pv.txt" 2>/dev/null
			sf pahole -R -V -C "$name" "$o"
			if cmp -s "$T/pv.txt" "$T/out"; then
				same_v=$((same_v + 1))
			else
				fail "$src.c $name: -R -V differs from pahole's"
				diff -u "$T/pv.txt" "$T/out" >"$T/diff"; detail "$T/diff" "pahole -R -V (-) vs structfit (+)"
			fi
			# structfit's -S less its step blocks is its -V
			"$PY" -S -c '
import re, sys
t = open(sys.argv[1]).read().replace("/* Final reorganized struct: */\n", "")
sys.stdout.write(re.sub(r"^(/\* Moving [^\n]*\n)(?:struct|union)[^\n]*\{\n.*?^\}[^\n]*\n", r"\1", t, flags=re.S | re.M))' "$T/ss.txt" >"$T/sv.txt"
			cmp -s "$T/sv.txt" "$T/out" || fail "$src.c $name: -S less its steps is not -V"
			# (two commands: the subshell, not this shell, says the SIGSEGV)
			(pahole -R -S -C "$name" "$o" >"$T/ps.txt"; echo $? >"$T/prc") 2>/dev/null
			prc=$(cat "$T/prc")
			if [ "$prc" = 0 ]; then
				cmp -s "$T/ps.txt" "$T/ss.txt" && same_s=$((same_s + 1)) ||
					fail "$src.c $name: -R -S differs from pahole's"
			else
				crashed=$((crashed + 1))
				[ "$prc" -gt 128 ] || fail "$src.c $name: pahole -R -S exited $prc"
			fi
		done
	done
	echo "    -S: $same_s identical to pahole's, $crashed where pahole 1.24 crashes; -V: $same_v identical; $checked step blocks compiled"
	[ "$same_s" -ge 8 ] || fail "only $same_s -S outputs identical"
	[ "$same_v" -ge 15 ] || fail "only $same_v -V outputs identical"
	[ "$crashed" -ge 1 ] || fail "pahole -R -S crashed nowhere (REORG_STEPS gone?)"
	[ "$checked" -ge 5 ] || fail "only $checked step blocks checked"
	sf_ok pahole -S -C mixed "$T/gcc-dw5-layouts.o"
	cp "$T/out" "$T/s.txt"
	sf_ok pahole -C mixed "$T/gcc-dw5-layouts.o"
	cmp -s "$T/out" "$T/s.txt" || fail "-S without -R changed the output (pahole: no effect)"
fi

# link_units OUT OBJ...: one relocatable object of several units
link_units() {
	local out=$1
	shift
	ld -r -o "$out" "$@" 2>"$T/ld.err" || { fail "ld -r: $(head -n 1 "$T/ld.err")"; return 1; }
}

tcase "-T: the units that define each struct against pahole -T (ORDER, SORT_DEFS)"
if need pahole gcc; then
	COMPARED=0
	for cc in gcc clang; do
		have "$cc" || continue
		objs=""
		for src in dup_a dup_b dup_c variant_a variant_b layouts names; do
			compile_or_fail "$cc" x86_64 5 "$T/$cc-u-$src.o" "$TD/e2e/$src.c" && objs="$objs $T/$cc-u-$src.o"
		done
		# shellcheck disable=SC2086
		link_units "$T/$cc-units.o" $objs || continue
		compare "$cc" "$T/$cc-units.o" "-T" "-T -s" "-s -T" "-T -t ," "-T --structs" \
			"-T -H 2" "-T -a" "-T -x s" "-T --unions" "-T -j2" "-T -C shared_rec"
	done
	for o in $OBJS; do
		case "$o" in *g++-dw5-names*) compare g++ "$o" "-M -T" ;; esac
	done
	echo "    $COMPARED outputs compared"
	[ "$COMPARED" -ge 20 ] || fail "only $COMPARED outputs compared"
	sf_ok pahole -T "$T/gcc-units.o"
	assert_grep "$T/out" "shared_rec	3" "shared_rec: three units (dup_a, dup_b, dup_c)"
	assert_eq "$(grep -c '^conflict	1$' "$T/out")" 2 "two definitions of conflict, one unit each"
	sf_ok pahole -T --sort "$T/gcc-units.o"
	assert_grep "$T/out" "shared_rec	3" "-T --sort counts as -T (SORT_DEFS)"
	if have pahole; then
		pahole -T --sort "$T/gcc-units.o" >"$T/p.txt" 2>/dev/null
		assert_eq "$(grep -c '^shared_rec	1$' "$T/p.txt")" 3 "pahole 1.24: -T --sort, three lines of 1 (SORT_DEFS still there?)"
	fi
fi

tcase "-u: the unit that defines each -C name against pahole -u (DEFINED_IN)"
if need pahole gcc; then
	COMPARED=0
	o=$T/gcc-units.o
	names=$("$SF" pahole -s "$o" | cut -f1 | sort -u)
	for name in $names; do
		compare gcc "$o" "-u -C $name"
	done
	compare gcc "$o" "-u -i inner" "-u -s -C mixed" "-u -R -C mixed"
	echo "    $COMPARED outputs compared"
	[ "$COMPARED" -ge 20 ] || fail "only $COMPARED outputs compared"
	# several names: pahole's line for each, alone
	list=$(echo "$names" | paste -sd,)
	sf_ok pahole -u -C "$list" "$o"
	for name in $names; do pahole -u -C "$name" "$o" 2>/dev/null; done >"$T/want.txt"
	assert_eq "$(cat "$T/out")" "$(cat "$T/want.txt")" "-u -C LIST: a line for each name"
	pahole -u -C mixed,ptrs "$o" >"$T/p.txt" 2>"$T/p.err"
	assert_grep "$T/p.err" "type 'ptrs' not found" "pahole 1.24: -u's second name of a unit 'not found' (DEFINED_IN still there?)"
	sf_ok pahole -u -C shared_rec "$o"
	assert_grep "$T/out" "$TD/e2e/dup_a.c" "-u: shared_rec's first unit"
fi

tcase "--lang, --lang_exclude: C89, C99, C11 and C++14 units in one object against pahole"
if need pahole gcc g++; then
	COMPARED=0
	gcc -std=c89 -gdwarf-5 -O0 -c -o "$T/l89.o" "$TD/e2e/dup_a.c" 2>"$T/cc.err" &&
	gcc -std=c99 -gdwarf-5 -O0 -c -o "$T/l99.o" "$TD/e2e/holes.c" 2>"$T/cc.err" &&
	gcc -std=c11 -gdwarf-5 -O0 -c -o "$T/l11.o" "$TD/e2e/layouts.c" 2>"$T/cc.err" &&
	gcc -std=c11 -gdwarf-5 -O0 -c -o "$T/l11b.o" "$TD/e2e/dup_b.c" 2>"$T/cc.err" &&
	g++ -std=c++14 -gdwarf-5 -O0 -c -o "$T/lxx.o" "$TD/e2e/names.cpp" 2>"$T/cc.err" ||
		fail "cannot build the mixed-language objects: $(head -n 1 "$T/cc.err")"
	if link_units "$T/langs.o" "$T/l89.o" "$T/l99.o" "$T/l11.o" "$T/l11b.o" "$T/lxx.o"; then
		o=$T/langs.o
		compare gcc "$o" "--lang=c89 -s" "--lang=c99 -s" "--lang=c11 -s" "--lang=c++14 -M -s" \
			"--lang=c++14 -M" "--lang=C99,C11" "--lang=c89,c99,c11,c++14,rust -M -s" \
			"--lang_exclude=c++14" "--lang_exclude=c11 -M -s" "--lang_exclude=c89,c99 -M -s" \
			"--lang=c++ -s" "--lang=rust -s" "--lang_exclude=c11 --lang=c99 -s" \
			"--lang=c89,c11 -T" "--lang=c11 -T" "--lang=c11 -u -C shared_rec" \
			"--lang=c89 -u -C shared_rec" "--lang=c99 -C alpha" "--lang=c11 -I -C shared_rec"
		echo "    $COMPARED outputs compared"
		[ "$COMPARED" -ge 19 ] || fail "only $COMPARED outputs compared"
		sf_ok pahole --lang=rust -s "$o"
		[ -s "$T/out" ] && fail "--lang=rust: output"
		sf_ok pahole --lang=c99 -s "$o"
		grep -q "^alpha	" "$T/out" || fail "--lang=c99: holes.c's alpha not listed"
		grep -q "^mixed	" "$T/out" && fail "--lang=c99: layouts.c's (C11) struct listed"
		sf_ok pahole --lang=c11,c89 -T "$o"
		assert_grep "$T/out" "shared_rec	2" "--lang=c11,c89 -T: dup_a (C89) and dup_b (C11)"
		sf_ok pahole --lang=c11 -T "$o"
		assert_grep "$T/out" "shared_rec	1" "--lang=c11 -T: dup_b alone"
		sf_ok pahole --lang=c11 -u -C shared_rec "$o"
		assert_grep "$T/out" "$TD/e2e/dup_b.c" "--lang=c11 -u: dup_b's unit, not dup_a's"
		assert_exit 2 "--lang=c99 -C mixed (layouts.c is C11)" "$SF" pahole --lang=c99 -C mixed "$o"
		assert_grep "$T/err" "type 'mixed' not found" "a type of a unit left out: not found"
	fi
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
		compare gcc "$T/btf.o" "-F btf" "-F btf -s" "-F btf,dwarf -q" "-F btf -C mixed,ptrs" "-F btf -E" "-F btf -I" \
			"-F btf --lang=c11 -s" "-F btf --lang_exclude=c11 -s" "-F btf -T"	# BTF: no units, no language
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
for opt in -l -p -m -f --prettify=x --compile; do
	assert_exit 2 "pahole $opt" "$SF" pahole "$opt" -C mixed "$o"
	[ "$(wc -l <"$T/err")" = 1 ] || fail "$opt: $(wc -l <"$T/err") lines on stderr"
	case "$opt" in
	--*=*) want=${opt%%=*} ;;
	-l) want=--show_first_biggest_size_base_type_member ;;
	-p) want=--expand_pointers ;;
	-m) want=--nr_methods ;;
	-f) want=--find_pointers_to ;;
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

tcase "--lang, --lang_exclude: a name pahole does not know: one line naming it, exit 2"
for arg in --lang=nosuchlang --lang_exclude=nosuchlang --lang=c,nosuchlang --lang= --lang=c,,c99 "--lang=c++17"; do
	assert_exit 2 "pahole $arg" "$SF" pahole "$arg" -s "$o"
	[ "$(wc -l <"$T/err")" = 1 ] || fail "$arg: $(wc -l <"$T/err") lines on stderr"
	case "$arg" in
	--lang_exclude*) assert_grep "$T/err" "--lang_exclude: '" "$arg: the option named" ;;
	*) assert_grep "$T/err" "--lang: '" "$arg: the option named" ;;
	esac
	bad=${arg#*=}
	case "$bad" in *,,*) bad="" ;; c,*) bad=${bad#c,} ;; esac
	assert_grep "$T/err" "'$bad' is not one of pahole's language names" "$arg: the name"
	[ -s "$T/out" ] && fail "$arg: output on stdout"
done
if have pahole; then
	pahole --lang=nosuchlang -s "$o" >/dev/null 2>"$T/p.err"
	assert_grep "$T/p.err" 'unknown language "nosuchlang"' "pahole refuses it too"
fi

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
