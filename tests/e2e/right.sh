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
#    two "differing" ones of alignment 1 and 8.
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

tdone
