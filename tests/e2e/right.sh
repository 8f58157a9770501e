#!/bin/bash
# tests/e2e/right.sh - issue 27: answers right on shapes real debug packages
# have, each checked against the compiler's own sizeof/offsetof (a probe
# program built from the same sources and run here, x86_64), gcc and
# clang, DWARF 4 and 5.
#
#  - an array of a class only declared in its unit (HotSpot's
#    `HdrSeq _global_data[316]`): the array is 316 elements of the
#    definition found in another unit, not one;
#  - classes whose vptr is a base's, only declared in some units (HotSpot's
#    MachMergeNode): one definition, aligned as the compiler has it, not
#    two "differing" ones of alignment 1 and 8;
#  - a narrowing keeps the member's cv-qualifiers and the alignment it
#    asks for (HotSpot's ZMarkTerminate), and its size is the compiler's;
#  - a relative DW_AT_comp_dir ("./memcheck" in valgrind-dbg): a declared
#    path is the file's, not the compilation directory twice; checked
#    against the files themselves;
#  - a qualified array (valgrind's sched_lock futex[16]): its qualifier
#    once, as gdb prints it (gcc qualifies the array and its element);
#  - a const anonymous struct member (vm_fault): its body shown and laid
#    out as an unqualified one's, from DWARF and from BTF; a flexible
#    array's const element kept (pahole 1.24 drops it for clang).
. "$(dirname "$0")/lib.sh"

SRC=$TD/right

# probe_facts CXX DWARF OUT FILE...: build $T/probe from the FILE...s
# (headers are included, .cpp files linked) and a main whose body is
# stdin ("P(name, value);" lines), with -gdwarf-DWARF, run it, write its
# "name value" lines to OUT.  The probe is also the program structfit
# reads.
probe_facts() {
	local cxx=$1 dw=$2 out=$3 h
	local srcs=()
	shift 3
	{
		echo '#include <cstddef>'
		echo '#include <cstdio>'
		echo '#define P(name, v) std::printf("%s %zu\n", name, (size_t)(v))'
		for h in "$@"; do
			case "$h" in *.h) echo "#include \"$h\"" ;; *) srcs+=("$SRC/$h") ;; esac
		done
		echo 'int main() {'
		cat
		echo 'return 0; }'
	} >"$T/probe.cpp"
	"$cxx" -gdwarf-"$dw" -O0 -Wno-invalid-offsetof -I"$SRC" -o "$T/probe" "$T/probe.cpp" "${srcs[@]}" \
		2>"$T/cc.err" || { fail "$cxx cannot build the probe: $(head -n 2 "$T/cc.err" | tr '\n' ' ')"; return 1; }
	"$T/probe" >"$out" || { fail "the probe failed"; return 1; }
}

fact() { awk -v k="$2" '$1 == k { print $2 }' "$1"; }

for cxx in g++ clang++; do
	for dw in 4 5; do
		tcase "$cxx DWARF $dw: an array of a class declared only in its unit"
		need "$cxx" || continue
		probe_facts "$cxx" "$dw" "$T/facts" declarray.h declarray_a.cpp declarray_b.cpp <<'EOF' || continue
P("size", sizeof(Phases));
P("g", offsetof(Phases, global_data));
P("gsize", sizeof(((Phases *)0)->global_data));
P("z", offsetof(Phases, z));
EOF
		sf_ok show --format json -t Phases "$T/probe"
		cp "$T/out" "$T/p.json"
		g=$(fact "$T/facts" g)
		assert_eq "$(jget "$T/p.json" 't("Phases")["size"]')" "$(fact "$T/facts" size)" "sizeof(Phases)"
		assert_eq "$(jget "$T/p.json" '[[m["name"], m["offset"], m["size"]] for m in t("Phases")["members"]]')" \
			"[[\"q\", 0, 4], [\"global_data\", $g, $(fact "$T/facts" gsize)], [\"z\", $(fact "$T/facts" z), 4]]" \
			"members: offsets and sizes"
		assert_eq "$(jget "$T/p.json" '[[h["offset"], h["size"]] for h in t("Phases")["holes"]]')" \
			"[[4, $((g - 4))]]" "the only hole is after q"
		sf_ok suggest -t Phases "$T/probe"
		assert_no_grep "$T/out" "nothing proposed" "suggest lays it out"
	done
done

for cxx in g++ clang++; do
	for dw in 4 5; do
		tcase "$cxx DWARF $dw: a class aligned by a base declared only in its unit"
		need "$cxx" || continue
		probe_facts "$cxx" "$dw" "$T/facts" vptr.h vptr_a.cpp vptr_b.cpp <<'EOF' || continue
P("leaf.size", sizeof(Leaf));
P("leaf.align", alignof(Leaf));
P("holder.size", sizeof(Holder));
P("holder.align", alignof(Holder));
P("holder.leaf", offsetof(Holder, leaf));
EOF
		sf_ok show --format json "$T/probe"
		cp "$T/out" "$T/all.json"
		assert_eq "$(jget "$T/all.json" '[[x["size"], x["align"], x["variant"]] for x in T("Leaf")]')" \
			"[[$(fact "$T/facts" leaf.size), $(fact "$T/facts" leaf.align), false]]" "one Leaf: size, alignment"
		assert_eq "$(jget "$T/all.json" '[[x["size"], x["align"], x["variant"]] for x in T("Mid")]')" \
			"[[$(fact "$T/facts" leaf.size), $(fact "$T/facts" leaf.align), false]]" "one Mid: size, alignment"
		l=$(fact "$T/facts" holder.leaf)
		assert_eq "$(jget "$T/all.json" '[[x["size"], x["align"], [[m["offset"], m["align"]] for m in x["members"]], [[h["offset"], h["size"]] for h in x["holes"]]] for x in T("Holder")]')" \
			"[[$(fact "$T/facts" holder.size), $(fact "$T/facts" holder.align), [[0, 1], [$l, $(fact "$T/facts" leaf.align)]], [[1, $((l - 1))]]]]" \
			"one Holder: size, alignment, members, hole"
		# the same asked alone (the base's definition read for it)
		sf_ok show --format json -t Holder "$T/probe"
		assert_eq "$(jget "$T/out" '[[x["size"], x["align"]] for x in T("Holder")]')" \
			"[[$(fact "$T/facts" holder.size), $(fact "$T/facts" holder.align)]]" "-t Holder"
	done
done

for cxx in g++ clang++; do
	for dw in 4 5; do
		tcase "$cxx DWARF $dw: an empty base sized by alignas takes no room"
		need "$cxx" || continue
		probe_facts "$cxx" "$dw" "$T/facts" emptybase.h emptybase.cpp <<'EOF' || continue
P("empty", sizeof(StackObjLike));
P("over", sizeof(OverBase));
P("values", offsetof(OverBase, values));
P("after", sizeof(AfterBase));
P("handle", offsetof(AfterBase, handle));
EOF
		assert_eq "$(fact "$T/facts" empty)" 4 "the compiler's sizeof(StackObjLike)"
		sf_ok show --format json "$T/probe"
		cp "$T/out" "$T/e.json"
		assert_eq "$(jget "$T/e.json" '[[m["name"], m["offset"], m["size"]] for m in t("OverBase")["members"]]')" \
			"[[\"StackObjLike\", 0, 0], [\"values\", $(fact "$T/facts" values), 32]]" "OverBase: the base has no room, values at the compiler's offset"
		assert_eq "$(jget "$T/e.json" 't("OverBase")["size"]')" "$(fact "$T/facts" over)" "sizeof(OverBase)"
		h=$(fact "$T/facts" handle)
		assert_eq "$(jget "$T/e.json" '[[x["offset"], x["size"]] for x in t("AfterBase")["holes"]]')" \
			"$([ "$h" = 0 ] && echo '[]' || echo "[[0, $h]]")" "AfterBase: every byte before handle is a hole"
	done
done

for cxx in g++ clang++; do
	for dw in 4 5; do
		tcase "$cxx DWARF $dw: a base asking for its alignment, declared only in one unit: one definition"
		need "$cxx" || continue
		probe_facts "$cxx" "$dw" "$T/facts" valign.h valign_a.cpp valign_b.cpp <<'EOF' || continue
P("mid.size", sizeof(AMid));
P("mid.align", alignof(AMid));
P("more", offsetof(AMid, more));
EOF
		sf_ok show --format json "$T/probe"
		assert_eq "$(jget "$T/out" '[[x["size"], x["align"], x["variant"], [[m["name"], m["offset"], m["aligned"]] for m in x["members"]]] for x in T("AMid")]')" \
			"[[$(fact "$T/facts" mid.size), $(fact "$T/facts" mid.align), false, [[\"ANode\", 0, true], [\"more\", $(fact "$T/facts" more), false]]]]" \
			"one AMid, its base aligned as ANode asks"
		sf_ok show "$T/probe"
		assert_no_grep "$T/out" "one of several differing definitions" "no type read twice"
	done
done

for cc in gcc clang; do
	for dw in 4 5; do
		tcase "$cc DWARF $dw: a union's tail padding is what its largest member leaves of its size"
		need "$cc" || continue
		"$cc" -gdwarf-"$dw" -O0 -o "$T/up" "$SRC/unionpad.c" 2>"$T/cc.err" && "$T/up" >"$T/upf" ||
			{ fail "$cc cannot build unionpad.c: $(head -n 2 "$T/cc.err" | tr '\n' ' ')"; continue; }
		size=$(awk '$1 == "size" { print $2 }' "$T/upf")
		largest=$(awk '$1 == "largest" { print $2 }' "$T/upf")
		sf_ok show --format json -t ct_proto "$T/up"
		assert_eq "$(jget "$T/out" '[t("ct_proto")["size"], t("ct_proto")["padding"], t("ct_proto")["holes_count"]]')" \
			"[$size, $((size - largest)), 0]" "size, tail padding (sizeof - the largest member), no hole"
	done
done

# the narrowed declarations structfit proposes, as the compiler lays them out
cat >"$T/narrowed.c" <<'EOF'
#include <stdint.h>
#include <stdio.h>
struct keeps_cv_n { volatile int32_t hits; const int limit; char *volatile cursor; int count; char tag; };
struct keeps_align_n { unsigned int nworkers; volatile uint16_t stage0 __attribute__((aligned(64))); volatile unsigned int stage1; };
int main(void) { printf("%zu %zu\n", sizeof(struct keeps_cv_n), sizeof(struct keeps_align_n)); return 0; }
EOF
for cc in gcc clang; do
	for dw in 4 5; do
		tcase "$cc DWARF $dw: a narrowing keeps qualifiers and asked-for alignment"
		need "$cc" || continue
		compile_or_fail "$cc" x86_64 "$dw" "$T/n.o" "$SRC/narrowq.c" || continue
		"$cc" -o "$T/narrowed" "$T/narrowed.c" 2>"$T/cc.err" && "$T/narrowed" >"$T/sizes" ||
			{ fail "$cc cannot build the narrowed probe: $(head -n 2 "$T/cc.err" | tr '\n' ' ')"; continue; }
		read -r cv_n align_n <"$T/sizes"
		sf_ok suggest -t keeps_cv "$T/n.o"
		# hits ties with cursor (8 bytes each): its rank among the
		# alternatives is suggest's naming rule, not this case's question
		assert_match "$(grep -E '^  [0-9]+\. hits:' "$T/out")" \
			"^  [0-9]+\. hits: volatile long( int)? -> volatile int32_t \(8 -> 4 bytes" "hits stays volatile"
		assert_match "$(grep -F ' cursor: ' "$T/out")" "-> volatile uint32_t " "cursor stays a volatile member"
		assert_match "$(grep -F ' limit: ' "$T/out")" "-> const int16_t " "limit stays const"
		assert_match "$(grep -A1 -E '^  [0-9]+\. hits:' "$T/out" | tail -n 1)" "^     32 -> $cv_n bytes" \
			"the size narrowed is the compiler's"
		sf_ok suggest -t keeps_align "$T/n.o"
		assert_grep "$T/out" "narrowing one member saves no byte" "an aligned counter saves nothing"
		assert_no_grep "$T/out" "__aligned__(2)" "the alignment asked for is not dropped"
		assert_eq "$align_n" 128 "the compiler keeps the narrowed counter aligned"
	done
done

# gdb's spelling of each member's type, qualifiers sorted (gcc and clang
# order "const volatile" either way): "name quals... base [dims]"
gdb_member_types() {
	gdb -batch -ex 'ptype struct qualarray' "$1" 2>/dev/null | "$PY" -S -c '
import re, sys
for line in sys.stdin:
    m = re.match(r"\s+(.*?)(\w+)((?:\[\d+\])*);$", line)
    if m:
        words = m.group(1).split()
        q = sorted(w for w in words if w in ("const", "volatile"))
        print(m.group(2), " ".join(q + [w for w in words if w not in ("const", "volatile")]) + m.group(3))
'
}

for cc in gcc clang; do
	for dw in 4 5; do
		tcase "$cc DWARF $dw: a qualified array says its qualifier once, as gdb"
		need "$cc" || continue
		need gdb || continue
		compile_or_fail "$cc" x86_64 "$dw" "$T/q.o" "$SRC/qualarray.c" || continue
		gdb_member_types "$T/q.o" >"$T/gdb.types"
		assert_eq "$(wc -l <"$T/gdb.types")" 6 "gdb printed the six members"
		sf_ok show --format json -t qualarray "$T/q.o"
		jget "$T/out" '"\n".join(m["name"] + " " + " ".join(sorted(w for w in m["type"].replace("[", " [", 1).split() if w in ("const", "volatile")) + [w for w in m["type"].replace("[", " [", 1).split() if w not in ("const", "volatile")]).replace(" [", "[", 1) for m in t("qualarray")["members"])' >"$T/sf.types"
		cmp -s "$T/gdb.types" "$T/sf.types" ||
			{ fail "member types differ from gdb's"; diff "$T/gdb.types" "$T/sf.types" >"$T/d"; detail "$T/d"; }
		sf_ok show -t qualarray "$T/q.o"
		assert_no_grep "$T/out" "volatile volatile" "show: volatile once"
		assert_no_grep "$T/out" "const const" "show: const once"
	done
done

for cc in gcc clang; do
	for dw in 4 5; do
		tcase "$cc DWARF $dw: a const anonymous struct is shown and laid out; a const flexible array stays const"
		need "$cc" || continue
		compile_or_fail "$cc" x86_64 "$dw" "$T/aq.o" "$SRC/anonq.c" || continue
		sf_ok show -t anonq "$T/aq.o"
		cp "$T/out" "$T/aq.txt"
		# gcc writes the const; clang's member points at the struct itself
		kw="const struct {"
		[ "$cc" = clang ] && kw="struct {"
		assert_grep "$T/aq.txt" "	$kw" "the anonymous member opens its body"
		assert_grep "$T/aq.txt" "/* XXX 4 bytes hole, try to pack */" "the hole inside it is seen"
		assert_match "$(grep -F pgoff "$T/aq.txt")" "^		long( int)? +pgoff; +/\*    16     8 \*/$" "its members, at their offsets"
		assert_grep "$T/aq.txt" "	const char                 iname[];              /*    28     0 */" "iname keeps its const"
		assert_no_grep "$T/aq.txt" "{...}" "nothing left unexpanded"
		sf_ok show --format json -t anonq "$T/aq.o"
		assert_eq "$(jget "$T/out" '[[m["type"], len(m["nested"]["members"]) if m.get("nested") else 0] for m in t("anonq")["members"]]')" \
			"[[\"${kw% \{}\", 3], [\"int\", 0], [\"const char[]\", 0]]" "JSON: type and nested members"
		if [ "$cc$dw" = gcc5 ] && have pahole; then
			cp "$T/aq.o" "$T/aq.btf.o" && pahole -J "$T/aq.btf.o" >/dev/null 2>&1 &&
				objcopy --strip-debug "$T/aq.btf.o" ||
				{ fail "pahole -J made no BTF"; continue; }
			sf_ok show -t anonq "$T/aq.btf.o"
			cmp -s "$T/out" "$T/aq.txt" ||
				{ fail "BTF's block differs from DWARF's (const lost?)"; diff "$T/aq.txt" "$T/out" >"$T/d"; detail "$T/d"; }
		fi
	done
done

for cc in gcc clang; do
	for dw in 4 5; do
		tcase "$cc DWARF $dw: declared paths under a relative compilation directory"
		need "$cc" || continue
		rm -rf "$T/top" && cp -r "$SRC/paths" "$T/top" || { fail "cannot copy $SRC/paths"; continue; }
		(cd "$T/top/sub" && "$cc" -gdwarf-"$dw" -O0 -fdebug-prefix-map="$T/top"=. -c -o "$T/u.o" unit.c) \
			2>"$T/cc.err" || { fail "$cc cannot compile: $(head -n 2 "$T/cc.err" | tr '\n' ' ')"; continue; }
		readelf --debug-dump=info "$T/u.o" | grep -q 'DW_AT_comp_dir.*: \./sub$' ||
			{ fail "$cc did not write the relative comp dir ./sub"; continue; }
		sf_ok show --format json "$T/u.o"
		assert_eq "$(jget "$T/out" 'sorted([bare(x["name"]), x["decl_file"]] for x in d["types"])')" \
			'[["in_local", "sub/local.h"], ["in_other", "inc/other.h"], ["in_unit", "sub/unit.c"]]' \
			"decl_file of each type"
		# each is where its definition is, from the root mapped to "."
		for f in sub/local.h inc/other.h sub/unit.c; do
			[ -f "$T/top/$f" ] || fail "$f is no file of the tree"
		done
		grep -q 'struct in_local {' "$T/top/sub/local.h" || fail "in_local is not in sub/local.h"
		grep -q 'struct in_other {' "$T/top/inc/other.h" || fail "in_other is not in inc/other.h"
	done
done

tdone
