#!/bin/bash
# tests/e2e/btf.sh - BTF input (btf/, through libbpf).
#
# Independent of the host kernel: testdata/btf/types.c is compiled with -g
# and its DWARF encoded as BTF by `pahole -J` (Debian's dwarves); with the
# DWARF stripped, only the .BTF section is left.  Oracles: structfit's own
# reading of the same object's DWARF (show must print the same types byte
# for byte: nothing in the test source is something BTF cannot carry but
# where types are declared, by which a DWARF unit's types are ordered; BTF
# keeps pahole's order, the DIEs') and pahole -F
# btf on the same BTF (tests/compare_pahole.py: sizes, members, holes,
# padding).  Also: raw BTF files, split BTF over the `vmlinux` beside it,
# a BPF object from clang -target bpf, BTF in a directory walk, every
# command on BTF, the error paths (truncated, bad magic, split BTF without
# its base, no struct), and - when /sys/kernel/btf/vmlinux exists - the
# running kernel's BTF against pahole (at least 99 % of the types agree).
. "$(dirname "$0")/lib.sh"

CMP=$E2E_ROOT/tests/compare_pahole.py
SRC=$TD/btf/types.c

# btf_of OBJ OUT: OUT is OBJ with its DWARF encoded as .BTF, then stripped.
btf_of() {
	cp "$1" "$T/enc.o" &&
		pahole -J "$T/enc.o" >"$T/pahole-J.err" 2>&1 &&
		objcopy --strip-debug "$T/enc.o" "$2" &&
		readelf -SW "$2" | grep -q ' \.BTF ' &&
		! readelf -SW "$2" | grep -q ' \.debug_info '
}

# no_declared FILE: the holes report without its last column (declared).
no_declared() {
	awk '{ $NF = ""; print }' "$1"
}

# error_one_line WHAT ERE: the last run exited 2 with one line matching ERE.
error_one_line() {
	assert_eq "$RC" 2 "$1: exit status" || detail "$T/err"
	assert_eq "$(wc -l <"$T/err")" 1 "$1: stderr lines" || detail "$T/err"
	assert_match "$(cat "$T/err")" "$2" "$1: message"
	assert_eq "$(wc -c <"$T/out")" 0 "$1: stdout bytes"
}

HAVE_PAHOLE=1
have pahole || HAVE_PAHOLE=

for cc in gcc clang; do
	tcase "$cc: the pahole -J BTF of an object reads as its DWARF (show, type by type, byte for byte)"
	if [ -z "$HAVE_PAHOLE" ]; then
		fail "pahole is not installed (Debian package dwarves, in TEST_PKGS)"
		continue
	fi
	compile_or_fail "$cc" x86_64 5 "$T/$cc.o" "$SRC" || continue
	btf_of "$T/$cc.o" "$T/$cc.btf.o" || {
		fail "pahole -J / objcopy made no BTF-only object: $(head -n 2 "$T/pahole-J.err")"
		continue
	}
	sf_ok show "$T/$cc.o"
	cp "$T/out" "$T/$cc.dwarf.txt"
	sf_ok show "$T/$cc.btf.o"
	cp "$T/out" "$T/$cc.btf.txt"
	n=$(grep -cE '^(struct|union) .*\{$|^typedef struct \{$' "$T/$cc.btf.txt")
	assert_eq "$n" 8 "types read from the BTF"
	type_blocks "$T/$cc.dwarf.txt" >"$T/$cc.dwarf.blocks"
	type_blocks "$T/$cc.btf.txt" >"$T/$cc.btf.blocks"
	cmp -s "$T/$cc.dwarf.blocks" "$T/$cc.btf.blocks" ||
		{ fail "show differs between DWARF and BTF"; diff "$T/$cc.dwarf.blocks" "$T/$cc.btf.blocks" >"$T/d"; detail "$T/d"; }
	# what BTF has to carry for that to hold
	assert_grep "$T/$cc.btf.txt" "} __attribute__((__packed__));" "packed inferred"
	assert_grep "$T/$cc.btf.txt" "} endpoint_t;" "typedef'd anonymous struct"
	assert_grep "$T/$cc.btf.txt" "enum big                   size_class;           /*    32     8 */" "64-bit enum"
	if [ "$cc" = gcc ]; then
		assert_grep "$T/$cc.btf.txt" "long long unsigned int     wide:40;              /*     0:11  8 */" "bit-field in a wider unit"
		assert_grep "$T/$cc.btf.txt" "void *                     (*alloc)(long unsigned int, ...);" "variadic function pointer"
	fi

	tcase "$cc: holes on the BTF equal holes on the DWARF, the source location unknown"
	sf_ok holes "$T/$cc.o"
	no_declared "$T/out" >"$T/$cc.dwarf.holes"
	sf_ok holes "$T/$cc.btf.o"
	cp "$T/out" "$T/$cc.btf.holes.raw"
	no_declared "$T/out" >"$T/$cc.btf.holes"
	cmp -s "$T/$cc.dwarf.holes" "$T/$cc.btf.holes" ||
		{ fail "holes differ"; diff "$T/$cc.dwarf.holes" "$T/$cc.btf.holes" >"$T/d"; detail "$T/d"; }
	assert_eq "$(awk 'NR > 1 && $NF != "-"' "$T/$cc.btf.holes.raw" | wc -l)" 0 "declared column is '-' for BTF"
	sf_ok show --format json "$T/$cc.btf.o"
	assert_eq "$(jget "$T/out" '[x["decl_file"] for x in d["types"] if x["decl_file"] or x["decl_line"]]')" "[]" \
		"JSON: decl_file \"\" and decl_line 0 (unknown)"

	tcase "$cc: the BTF agrees with pahole -F btf on it"
	pahole -F btf "$T/$cc.btf.o" >"$T/$cc.pahole.txt" 2>"$T/pahole.err" ||
		fail "pahole -F btf failed: $(head -n 1 "$T/pahole.err")"
	sf_ok show --format json "$T/$cc.btf.o"
	"$PY" -S "$CMP" compare "$T/$cc.pahole.txt" "$T/out" >"$T/cmp" 2>&1 ||
		fail "$(head -n 1 "$T/cmp")"
	detail "$T/cmp"
	n=$(awk -F'compared: ' 'NR == 1 { split($2, a, ","); print a[1] }' "$T/cmp")
	assert_eq "${n:-0}" 7 "types compared"
done

tcase "raw BTF file: the same types as the .BTF section"
if [ -s "$T/gcc.btf.txt" ]; then
	pahole --btf_encode_detached="$T/types.btf" "$T/gcc.o" >/dev/null 2>&1 ||
		fail "pahole --btf_encode_detached failed"
	sf_ok show "$T/types.btf"
	cmp -s "$T/out" "$T/gcc.btf.txt" || fail "raw BTF reads differently from the .BTF section"
	sf_ok show --origin -t flags "$T/types.btf"
	assert_grep "$T/out" "$T/types.btf" "--origin names the raw file"
else
	skip "no BTF object (see above)"
fi

tcase "split BTF over the vmlinux beside it; without it, exit 2 with one line"
if [ -s "$T/types.btf" ]; then
	printf '%s\nstruct extra { char c; struct flags f; long n; };\nstruct extra x;\n' \
		"$(cat "$SRC")" >"$T/extra.c"
	compile_or_fail gcc x86_64 5 "$T/extra.o" "$T/extra.c"
	mkdir -p "$T/kbtf" "$T/alone"
	cp "$T/types.btf" "$T/kbtf/vmlinux"
	pahole --btf_base="$T/kbtf/vmlinux" --btf_encode_detached="$T/kbtf/mod" "$T/extra.o" \
		>/dev/null 2>&1 || fail "pahole could not encode split BTF"
	cp "$T/kbtf/mod" "$T/alone/mod"
	sf_ok show -t extra "$T/kbtf/mod"
	assert_grep "$T/out" "struct flags               f;                    /*     8    16 */" "a member typed by the base"
	assert_grep "$T/out" "/* size: 32, cachelines: 1, members: 3 */" "size from the split BTF"
	sf_ok show "$T/kbtf/mod"
	assert_no_grep "$T/out" "struct bad_order {" "the base's own types are the base's"
	sf show "$T/alone/mod"
	error_one_line "split BTF without its base" "^structfit: $T/alone/mod: .*split BTF without its base"
	# an object whose .BTF is split (as a kernel module's .ko): no base to find
	cp "$T/extra.o" "$T/extra.btf.o"
	pahole --btf_base="$T/kbtf/vmlinux" -J "$T/extra.btf.o" >/dev/null 2>&1 &&
		objcopy --strip-debug "$T/extra.btf.o" "$T/extra.split.o" ||
		fail "pahole could not encode a split .BTF section"
	sf show "$T/extra.split.o"
	error_one_line "split .BTF section" "^structfit: $T/extra.split.o: .*split BTF .*/sys/kernel/btf/MODULE"
else
	skip "no raw BTF (see above)"
fi

tcase "Force padding: pahole prints it from DWARF, never from BTF; so does structfit (byte for byte)"
# 15 bytes of tail padding after a char, from an __int128's alignment: the
# DWARF says nothing is forced, the BTF cannot say (its aligned attributes
# are dropped), and pahole -F btf prints no "Force padding:" block for it
# nor for the kernel's kmem_cache_cpu
if [ -n "$HAVE_PAHOLE" ]; then
	printf 'struct fp { __int128 a; char c; };\nstruct fp v;\n' >"$T/fp.c"
	compile_or_fail gcc x86_64 5 "$T/fp.o" "$T/fp.c"
	if btf_of "$T/fp.o" "$T/fp.btf.o"; then
		for f in fp.o fp.btf.o; do
			pahole -F "$(case $f in *btf*) echo btf;; *) echo dwarf;; esac)" "$T/$f" >"$T/$f.pahole" 2>/dev/null
			sf_ok show "$T/$f"
			cmp -s "$T/out" "$T/$f.pahole" ||
				{ fail "$f: show differs from pahole"; diff "$T/$f.pahole" "$T/out" >"$T/d"; detail "$T/d"; }
		done
		assert_grep "$T/fp.o.pahole" "/* Force padding: */" "pahole prints force padding from DWARF"
		assert_no_grep "$T/fp.btf.o.pahole" "Force padding" "pahole prints none from BTF"
	else
		fail "pahole -J / objcopy made no BTF-only object: $(head -n 2 "$T/pahole-J.err")"
	fi
else
	fail "pahole is not installed (Debian package dwarves, in TEST_PKGS)"
fi

tcase "BPF object (clang -target bpf -g): DWARF, and its .BTF alone, read alike"
cat >"$T/prog.bpf.c" <<'EOF'
struct event {
	unsigned char kind;
	unsigned long long ts;
	unsigned int pid : 20, cpu : 12;
	char comm[16];
	union { int a; long b; } u;
	enum { EV_A, EV_B = 5 } which;
};
struct event ev_sink;
int prog(struct event *e) { return e->pid + e->cpu; }
EOF
if clang -target bpf -g -O2 -c -o "$T/prog.bpf.o" "$T/prog.bpf.c" 2>"$T/cc.err"; then
	llvm-objcopy --strip-debug "$T/prog.bpf.o" "$T/prog.btf.o" 2>/dev/null ||
		objcopy --strip-debug "$T/prog.bpf.o" "$T/prog.btf.o"
	sf_ok show "$T/prog.bpf.o"
	cp "$T/out" "$T/bpf.dwarf"
	sf_ok show "$T/prog.btf.o"
	cmp -s "$T/bpf.dwarf" "$T/out" || { fail "DWARF and BTF differ"; diff "$T/bpf.dwarf" "$T/out" >"$T/d"; detail "$T/d"; }
	assert_grep "$T/out" "/* size: 56, cachelines: 1, members: 7 */" "struct event"
	if [ -n "$HAVE_PAHOLE" ]; then
		pahole -F btf "$T/prog.btf.o" >"$T/bpf.pahole" 2>/dev/null
		sf_ok show --format json "$T/prog.btf.o"
		"$PY" -S "$CMP" compare "$T/bpf.pahole" "$T/out" >"$T/cmp" 2>&1 || fail "$(head -n 1 "$T/cmp")"
	fi
else
	fail "clang cannot build a BPF object: $(head -n 2 "$T/cc.err" | tr '\n' ' ')"
fi

tcase "a directory walk reads raw BTF and BTF-only objects"
if [ -s "$T/types.btf" ] && [ -s "$T/prog.btf.o" ]; then
	mkdir -p "$T/tree/sub"
	cp "$T/types.btf" "$T/tree/a.btf"
	cp "$T/prog.btf.o" "$T/tree/sub/b.o"
	echo "not BTF" >"$T/tree/README"
	sf_ok show --format json "$T/tree"
	assert_eq "$(jget "$T/out" 'sorted(set(x["origin"].rsplit("/", 1)[1] for x in d["types"]))')" \
		'["a.btf", "b.o"]' "origins"
	assert_eq "$(jget "$T/out" 'len(T("flags")) + len(T("event"))')" 2 "each type once"
else
	skip "no BTF (see above)"
fi

tcase "every command reads BTF; patch says it needs DWARF and the source"
if [ -s "$T/gcc.btf.o" ]; then
	B=$T/gcc.btf.o
	sf_ok suggest -t bad_order "$B"
	assert_grep "$T/out" "24 bytes" "suggest: bad_order packs to 24"
	sf_ok fit -t bad_order --classes 16,24,32,48 "$B"
	assert_grep "$T/out" "40" "fit names the size"
	sf_ok check --write-budget "$T/budget" "$B"
	sf_ok check --budget "$T/budget" "$B"
	sf_ok diff "$T/gcc.o" "$B"
	assert_match "$(cat "$T/out")" "[Nn]o layout changes; 8 types compared" "diff DWARF -> BTF: nothing changed"
	sf patch -t bad_order "$B"
	error_one_line "patch on BTF" "^structfit: $B: struct bad_order was read from BTF.*needs DWARF.*source"
else
	skip "no BTF object (see above)"
fi

tcase "bad BTF: truncated, bad magic, no struct - exit 2, one line"
if [ -s "$T/types.btf" ]; then
	size=$(wc -c <"$T/types.btf")
	for n in 10 24 100 $((size - 1)); do
		head -c "$n" "$T/types.btf" >"$T/cut.btf"
		sf show "$T/cut.btf"
		error_one_line "first $n of $size bytes" "^structfit: $T/cut.btf: truncated BTF"
	done
	{ printf '\x9f\xec'; tail -c +3 "$T/types.btf"; } >"$T/magic.btf"
	sf show "$T/magic.btf"
	error_one_line "bad magic" "^structfit: $T/magic.btf: not an ELF file"
	# a header that lies about its sections: libbpf refuses, we say so
	{ head -c 4 "$T/types.btf"; printf '\x18\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x04\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00'; printf 'abcdabcdabcd'; } >"$T/bad.btf"
	sf holes "$T/bad.btf"
	error_one_line "corrupt sections" "^structfit: $T/bad.btf: corrupt BTF"
	printf 'int just_an_int;\n' >"$T/int.c"
	compile_or_fail gcc x86_64 5 "$T/int.o" "$T/int.c"
	pahole --btf_encode_detached="$T/int.btf" "$T/int.o" >/dev/null 2>&1
	sf show "$T/int.btf"
	error_one_line "no struct" "^structfit: $T/int.btf: no struct or union in its BTF"
else
	skip "no raw BTF (see above)"
fi

tcase "running kernel: /sys/kernel/btf/vmlinux agrees with pahole -F btf (>= 99 % of types)"
VM=/sys/kernel/btf/vmlinux
if [ ! -r "$VM" ]; then
	skip "no $VM on this host (kernel without CONFIG_DEBUG_INFO_BTF); the pahole -J BTF was tested above"
elif [ -z "$HAVE_PAHOLE" ]; then
	fail "pahole is not installed"
else
	run pahole -F btf "$VM"
	[ "$RC" = 0 ] || fail "pahole exited $RC"
	mv "$T/out" "$T/vm.pahole"
	sf_ok show --format json "$VM"
	mv "$T/out" "$T/vm.json"
	"$PY" -S "$CMP" compare "$T/vm.pahole" "$T/vm.json" --max-report 10 >"$T/cmp" 2>&1
	head -n 1 "$T/cmp" | sed 's/^/    /'
	read -r total agree missing <<EOF
$(awk 'NR == 1 { match($0, /compared: [0-9]+/); c = substr($0, RSTART + 10, RLENGTH - 10);
	match($0, /agree: [0-9]+/); a = substr($0, RSTART + 7, RLENGTH - 7);
	match($0, /missing from structfit: [0-9]+/); m = substr($0, RSTART + 24, RLENGTH - 24);
	print c, a, m }' "$T/cmp")
EOF
	[ "${total:-0}" -ge 1000 ] || fail "only ${total:-0} types compared"
	[ $((${agree:-0} * 100)) -ge $((${total:-0} * 99)) ] ||
		{ fail "$agree of $total agree (< 99 %)"; detail "$T/cmp"; }
	[ $((${missing:-0} * 100)) -le "${total:-0}" ] || fail "$missing types missing"
	sf_ok holes --limit 5 "$VM"
	assert_eq "$(wc -l <"$T/out")" 6 "holes: header + 5"
fi

tcase "running kernel: a module's split BTF over /sys/kernel/btf/vmlinux"
mod=$(ls /sys/kernel/btf 2>/dev/null | grep -v '^vmlinux$' | head -n 1)
if [ -z "$mod" ]; then
	skip "no module BTF under /sys/kernel/btf on this host (split BTF was tested above)"
else
	sf show "/sys/kernel/btf/$mod"
	case $RC in
	0) assert_match "$(head -n 1 "$T/out")" "^(struct|union|typedef)" "types of $mod" ;;
	2) assert_grep "$T/err" "no struct or union" "$mod: a module without structs says so" ;;
	*) fail "exit $RC" ;;
	esac
fi

tdone
