#!/bin/bash
# tests/e2e/identity.sh - laying each distinct struct out once
# (dwarf/fingerprint.h, dwarf/dedup.c) changes nothing in the output.
#
# The oracle is structfit's own full path: STRUCTFIT_NO_DEDUP=1 lays out
# every struct of every unit, as structfit always did; the default skips
# a struct whose fingerprint was laid out already.  For each input, the
# whole report - show (text and JSON) and holes - of the full path with
# one job has the same md5 as the default's with 1, 2 and 4 jobs.
#
# Inputs: testdata/dedup's twins (structs of one name and size in two
# versions that a key of name and size would merge, a struct that another
# of its unit shows to be packed, and structs whose layout that changes)
# and its C++ twins (versions that differ only in the namespace of a name
# they use: a key without scopes would merge them), its fwd.c (a struct
# holding pointers to a struct one unit defines and another declares:
# laid out once; to a union of that name, or another name: not), its
# forms.s (one struct in several DWARF forms, assembled) with the test corpus,
# built here by gcc and clang, DWARF 4 and 5, as an archive (a key per
# member, looked up by the next) and as one shared object of 70 units
# (keys within the file); then what Debian ships: libc6-dbg's debug
# files, libpython3.11d.a, libstdc++ (libstdc++6-12-dbg: the shared
# library's debug file, and the static archive of C++ objects, where keys
# go from member to member), and the vmlinux debug file where it is
# installed (not a test package: skipped, saying so, elsewhere).
# STRUCTFIT_DEDUP_NOTE=1 makes structfit say how many structs it skipped,
# so the test knows the dedup ran.  Each show is also compared read with
# every zlib-compressed .debug_info inflated piecewise, unit by unit
# (STRUCTFIT_STREAM_MIN=1: input/zstream.h; many.so is linked so, and
# Debian's debug files are), with 1 and 2 jobs.
. "$(dirname "$0")/lib.sh"

DD=$TD/dedup

# full ARGS...: structfit ARGS with every struct laid out, one job, each
# section inflated at once.
full() {
	STRUCTFIT_NO_DEDUP=1 STRUCTFIT_STREAM_MIN=18446744073709551615 run "$SF" "$@" -j 1
	[ "$RC" = 0 ] || fail "STRUCTFIT_NO_DEDUP=1 structfit $* -j 1 exited $RC: $(head -n 2 "$T/err" | tr '\n' ' ')"
}

# identical WHAT ARGS...: the md5 of ARGS' output, full path and one job,
# is the default's with -j 1, 2 and 4; the default's note (what dedup did)
# of the -j 1 run is left in $T/note.
identical() {
	local what=$1 want j got
	shift
	full "$@"
	[ -s "$T/out" ] || { fail "$what: the full path printed nothing"; return; }
	want=$(md5sum <"$T/out" | cut -d' ' -f1)
	cp "$T/out" "$T/want.txt"
	for j in 1 2 4; do
		STRUCTFIT_DEDUP_NOTE=1 run "$SF" "$@" -j "$j"
		[ "$RC" = 0 ] || fail "structfit $* -j $j exited $RC: $(head -n 2 "$T/err" | tr '\n' ' ')"
		[ "$j" = 1 ] && grep '^structfit: dedup: ' "$T/err" >"$T/note"
		got=$(md5sum <"$T/out" | cut -d' ' -f1)
		[ "$got" = "$want" ] ||
			fail "$what -j $j: md5 $got, the full path's $want: $(diff "$T/want.txt" "$T/out" | head -n 4 | tr '\n' ' ')"
	done
	# STREAM: and with every zlib-compressed .debug_info inflated
	# piecewise, however small (input/zstream.h)
	for j in ${STREAM:+1 2}; do
		STRUCTFIT_STREAM_MIN=1 run "$SF" "$@" -j "$j"
		[ "$RC" = 0 ] || fail "STRUCTFIT_STREAM_MIN=1 structfit $* -j $j exited $RC: $(head -n 2 "$T/err" | tr '\n' ' ')"
		got=$(md5sum <"$T/out" | cut -d' ' -f1)
		[ "$got" = "$want" ] ||
			fail "$what, read piecewise, -j $j: md5 $got, the full path's $want: $(diff "$T/want.txt" "$T/out" | head -n 4 | tr '\n' ' ')"
	done
}

# dedup_ran WHAT [MIN_PART]: the note of the last identical run says
# structs were skipped (and at least MIN_PART units laid out again in
# part, for packing evidence): the md5s compared the dedup, not the full
# path twice.
dedup_ran() {
	local what=$1 line skipped part_units
	line=$(head -n 1 "$T/note")
	[ -n "$line" ] || { fail "$what: STRUCTFIT_DEDUP_NOTE=1 said nothing"; return; }
	skipped=$(echo "$line" | sed -n 's/^structfit: dedup: \([0-9]*\) of .*/\1/p')
	part_units=$(echo "$line" | sed -n 's/.*; \([0-9]*\) units laid out again in part;.*/\1/p')
	echo "    $what: ${line#structfit: }"
	[ "${skipped:-0}" -gt 0 ] || fail "$what: no struct skipped ($line)"
	[ "${part_units:-0}" -ge "${2:-0}" ] ||
		fail "$what: fewer than $2 units laid out again in part ($line)"
}

# identical_report WHAT INPUT...: show (checking the dedup ran), show
# --format json and holes.
identical_report() {
	local what=$1
	shift
	STREAM=1 identical "show $what" show "$@"
	dedup_ran "$what" "${MIN_PART:-0}"
	STREAM=1 identical "show --format json $what" show --format json --origin "$@"
	identical "holes $what" holes "$@"
}

# ------------------------------------------------------------ the corpus

tcase "build the twins and the corpus: gcc and clang, DWARF 4 and 5"
objs=()
n=0
for cc in gcc clang; do
	need "$cc" || continue
	for flags in "-DVARIANT=0" "-DVARIANT=1" "-DPACKED_HOLDER" "-DVARIANT=0"; do
		n=$((n + 1))
		o=$T/$(printf '%02d' "$n")-$cc-twins.o
		# shellcheck disable=SC2086
		compile_or_fail "$cc" x86_64 $((4 + n % 2)) "$o" "$DD/unit.c" $flags && objs+=("$o")
	done
	for v in 0 1; do
		n=$((n + 1))
		o=$T/$(printf '%02d' "$n")-$cc-cxx-twins.o
		compile_or_fail "$cc" x86_64 $((4 + n % 2)) "$o" "$DD/cxx_unit.cpp" -DVARIANT=$v &&
			objs+=("$o")
	done
	for src in "$TD"/e2e/*.c "$TD"/e2e/*.cpp "$TD"/reader/*.c "$TD"/reader/*.cc; do
		n=$((n + 1))
		o=$T/$(printf '%02d' "$n")-$cc-$(basename "$src" .c).o
		compile "$cc" x86_64 $((4 + n % 2)) "$o" "$src" -I"$TD/e2e" 2>/dev/null &&
			objs+=("$o")
	done
done
[ "${#objs[@]}" -ge 40 ] || fail "only ${#objs[@]} objects built"
ar rcs "$T/corpus.a" "${objs[@]}" || fail "ar failed"
# gcc's twins alone, DWARF 5 (clang's, and DWARF 4's, differ from them in
# places: more versions)
twins=()
for flags in "-DVARIANT=0" "-DVARIANT=1" "-DPACKED_HOLDER" "-DVARIANT=0"; do
	o=$T/twins-${#twins[@]}.o
	# shellcheck disable=SC2086
	compile_or_fail gcc x86_64 5 "$o" "$DD/unit.c" $flags && twins+=("$o")
done
ar rcs "$T/twins.a" "${twins[@]}" || fail "ar (twins) failed"
# the C++ twins: both versions, by gcc and clang, DWARF 5
cxx_twins=()
for cc in gcc clang; do
	need "$cc" || continue
	for v in 0 1; do
		o=$T/cxx-twins-$cc-$v.o
		compile_or_fail "$cc" x86_64 5 "$o" "$DD/cxx_unit.cpp" -DVARIANT=$v && cxx_twins+=("$o")
	done
done
ar rcs "$T/cxx-twins.a" "${cxx_twins[@]}" || fail "ar (C++ twins) failed"

# 70 units in one shared object: past LOCAL_FP_UNITS (64), the keys name
# strings by offset in the file's .debug_str
so_objs=()
for i in $(seq 1 70); do
	cc=gcc
	[ $((i % 2)) = 0 ] && cc=clang
	have "$cc" || cc=gcc
	flags="-DVARIANT=$((i % 3 == 0)) -fPIC"
	[ $((i % 10)) = 5 ] && flags="-DPACKED_HOLDER -fPIC"
	o=$T/so-$i.o
	# shellcheck disable=SC2086
	compile_or_fail "$cc" x86_64 $((4 + i % 2)) "$o" "$DD/unit.c" $flags && so_objs+=("$o")
done
# its debug sections compressed: read piecewise too (identical_report)
gcc -shared -Wl,-z,muldefs -Wl,--compress-debug-sections=zlib -o "$T/many.so" "${so_objs[@]}" \
	2>"$T/ld.err" || fail "gcc -shared: $(head -n 2 "$T/ld.err")"

tcase "gcc's twins: every version of each is reported, laid out once or not"
for mode in full dedup; do
	if [ "$mode" = full ]; then full show "$T/twins.a"; else sf_ok show -j 1 "$T/twins.a"; fi
	for t in by_name_v by_type by_typedef inner2 by_pointee by_enum by_bits by_dims \
		by_params by_aligned pbase; do
		assert_eq "$(grep -c "^struct $t {" "$T/out")" 2 "$mode: versions of struct $t"
	done
	assert_eq "$(grep -c '^} by_anon_t;$' "$T/out")" 2 "$mode: versions of by_anon_t"
	assert_eq "$(grep -c "^struct by_name {" "$T/out")" 1 "$mode: struct by_name (one version)"
	# the same DIEs in every unit, two layouts: pbase's alignment (4, or
	# 1 where the PACKED_HOLDER unit shows it packed) - laid out again
	# there, while that unit's other structs are skipped
	for t in pbase_user pbase_arr pbase_nest pbase_ptr; do
		assert_eq "$(grep -c "^struct $t {" "$T/out")" 2 "$mode: versions of struct $t"
	done
	[ "$mode" = full ] && continue
	STRUCTFIT_DEDUP_NOTE=1 sf_ok show -j 1 "$T/twins.a"
	grep -q '; 1 units laid out again in part; 0 units laid out in full$' "$T/err" ||
		fail "the PACKED_HOLDER unit is not laid out again in part: $(head -n 1 "$T/err")"
done

tcase "the C++ twins: both versions of each, whatever scope tells them apart"
for mode in full dedup; do
	if [ "$mode" = full ]; then full show "$T/cxx-twins.a"; else sf_ok show -j 1 "$T/cxx-twins.a"; fi
	for t in by_ptr_scope by_val_scope by_tmpl_scope by_tmpl_args by_tmpl_ptr by_nested_scope \
		by_enum_scope by_typedef_scope outer_a::same outer_b::same; do
		assert_eq "$(grep -c "^struct $t {" "$T/out")" 2 "$mode: versions of struct $t"
	done
	for ns in a b; do
		assert_eq "$(grep -c "^struct by_base_scope : $ns::base {" "$T/out")" 1 \
			"$mode: by_base_scope on $ns::base"
		assert_eq "$(grep -c "^struct $ns::node {" "$T/out")" 1 "$mode: struct $ns::node"
	done
done
identical_report "cxx-twins.a" "$T/cxx-twins.a"

tcase "clang's twins in one object: a unit takes no layout summary its packing evidence changes"
# clang writes pbase_new (PACKED_HOLDER only) before the pbase_user it
# holds, whose layout an earlier unit of the file recorded with pbase not
# packed (dwarf/members.c, layout summaries): the compiler's alignment of
# pbase_new there is 1, as pbase_user's and pbase's
if need clang; then
	tw_objs=()
	for flags in "-DVARIANT=0" "-DPACKED_HOLDER" "-DVARIANT=0"; do
		o=$T/clang-twins-${#tw_objs[@]}.o
		# shellcheck disable=SC2086
		compile_or_fail clang x86_64 5 "$o" "$DD/unit.c" $flags -fPIC && tw_objs+=("$o")
	done
	clang -shared -Wl,-z,muldefs -o "$T/twins-clang.so" "${tw_objs[@]}" 2>"$T/ld.err" ||
		fail "clang -shared: $(head -n 2 "$T/ld.err")"
	identical "show --format json twins-clang.so" show --format json "$T/twins-clang.so"
	assert_eq "$(grep -o '{"name":"pbase_new","kind":"struct","size":8,"align":[0-9]*' \
		"$T/out" | sed 's/.*://')" 1 "the alignment of pbase_new"
fi

tcase "a pointer to a struct one unit defines and another only declares: its holder laid out once; a union or another name behind it: not"
# fwd.c: the holder's pointers read only their target's spelling (tag,
# name): laid out in the first unit, skipped in the second, whichever
# defines the target; a union of that name, or another name, is another
# version of the holder (dwarf/fingerprint.c, spell_named_aggregate)
for cc in gcc clang; do
	need "$cc" || continue
	for order in "DEFINE PLAIN" "PLAIN DEFINE"; do
		fw_objs=()
		for v in $order OTHER_TAG OTHER_NAME; do
			o=$T/fwd-$cc-$v.o
			compile_or_fail "$cc" x86_64 5 "$o" "$DD/fwd.c" -D$v && fw_objs+=("$o")
		done
		a=$T/fwd-$cc.a
		rm -f "$a"
		ar rcs "$a" "${fw_objs[@]}" || { fail "ar (fwd.c, $cc) failed"; continue; }
		identical "show fwd.c $cc ($order)" show "$a"
		assert_eq "$(sed -n 's/^structfit: dedup: \([0-9]* of [0-9]*\) .*/\1/p' "$T/note")" \
			"1 of 6" "$cc, $order: the holder skipped once"
		assert_eq "$(grep -c '^struct fwd_holder {' "$T/out")" 3 "$cc, $order: versions of fwd_holder"
		for t in "struct fwd_target" "union fwd_target" "struct fwd_other"; do
			assert_eq "$(grep -c "^	$t \* *t;" "$T/out")" 1 "$cc, $order: the holder of $t"
		done
	done
done

# forms.s: u1's struct s written again in other forms (u2, u3), and
# versions differing from it in one value, name or type, written in
# other forms too (u4, u5, u6).  Once, the keys are by the strings' bytes:
# u2 and u3 are u1's, skipped (2 of 6).  Twelve times over (72 units,
# past LOCAL_FP_UNITS) the keys name .debug_str strings by offset, u1's
# inline names then differ from u2's and u3's: 5 of each 6 laid out once
# in the file (67 of 72 skipped).  Either way the four versions show.
tcase "one struct in other forms (data1, data2, udata, implicit_const; string, strp, strx1): laid out once; a value, name or type other in another form: not"
for rep in 1 12; do
	o=$T/forms-$rep.o
	if ! gcc -c -Wa,--defsym,UNITS_REPEAT=$rep -o "$o" "$DD/forms.s" 2>"$T/as.err"; then
		fail "cannot assemble forms.s: $(head -n 2 "$T/as.err" | tr '\n' ' ')"
		continue
	fi
	full show "$o"
	assert_eq "$(grep -c '^struct s {' "$T/out")" 4 "$rep copies, full path: versions of struct s"
	identical "show forms.s x $rep" show "$o"
	assert_eq "$(grep -c '^struct s {' "$T/out")" 4 "$rep copies: versions of struct s"
	want="2 of 6"
	[ "$rep" = 12 ] && want="67 of 72"
	assert_eq "$(sed -n 's/^structfit: dedup: \([0-9]* of [0-9]*\) .*/\1/p' "$T/note")" \
		"$want" "$rep copies: structs skipped"
done

tcase "a chain of 105 structs held by value, the inner 53 in an earlier unit: past the reader's depth limits"
# chain FIRST: struct s104 { long x; }, then each struct sI { char c;
# struct sI+1 s; } down to sFIRST, and a variable of it.  The earlier
# unit's layout of s52 reaches 52 levels down (its summary says so:
# dwarf/members.c); the later unit's s0 reaches s52 at depth 52.
chain() {
	local i
	for i in $(seq 104 -1 "$1"); do
		if [ "$i" = 104 ]; then echo "struct s$i { long x; };"
		else echo "struct s$i { char c; struct s$((i + 1)) s; };"; fi
	done
	echo "struct s$1 v$1;"
}
chain 52 >"$T/chain-a.c"
chain 0 >"$T/chain-b.c"
for cc in gcc clang; do
	need "$cc" || continue
	compile_or_fail "$cc" x86_64 5 "$T/chain-a-$cc.o" "$T/chain-a.c" -fPIC &&
		compile_or_fail "$cc" x86_64 5 "$T/chain-b-$cc.o" "$T/chain-b.c" -fPIC || continue
	"$cc" -shared -Wl,-z,muldefs -o "$T/chain-$cc.so" "$T/chain-a-$cc.o" "$T/chain-b-$cc.o" \
		2>"$T/ld.err" || { fail "$cc -shared: $(head -n 2 "$T/ld.err")"; continue; }
	identical "show --format json chain-$cc.so" show --format json "$T/chain-$cc.so"
done

tcase "the archive: the same md5 as the full path, with 1, 2 and 4 jobs (units with packing evidence laid out again in part)"
MIN_PART=1 identical_report "corpus.a" "$T/corpus.a"

tcase "70 units in one object: the same md5 as the full path, with 1, 2 and 4 jobs"
MIN_PART=1 identical_report "many.so" "$T/many.so"

# ------------------------------------------------------------ Debian's

tcase "libc6-dbg's debug files: the same md5 as the full path, with 1, 2 and 4 jobs"
LIBC_DBG=$(libc_dbg_dir)
if [ -z "$LIBC_DBG" ]; then
	missing "no libc6-dbg debug files (Debian package libc6-dbg)"
else
	identical_report "libc6-dbg" "$LIBC_DBG"
fi

tcase "libpython3.11d.a: the same md5 as the full path, with 1, 2 and 4 jobs"
PYA=/usr/lib/x86_64-linux-gnu/libpython3.11d.a
if [ ! -f "$PYA" ]; then
	missing "no $PYA (Debian package libpython3.11-dbg)"
else
	identical_report "libpython3.11d.a" "$PYA"
fi

STDCXX=/usr/lib/x86_64-linux-gnu/debug
for f in libstdc++.so.6.0.30 libstdc++.a; do
	tcase "$f (debug): the same md5 as the full path, with 1, 2 and 4 jobs"
	if [ ! -f "$STDCXX/$f" ]; then
		missing "no $STDCXX/$f (Debian package libstdc++6-12-dbg)"
	else
		identical_report "$f" "$STDCXX/$f"
	fi
done

tcase "vmlinux: the same md5 as the full path, with 1, 2 and 4 jobs"
VM=$(ls -S /usr/lib/debug/boot/vmlinux-* 2>/dev/null | head -n 1)
if [ -n "${E2E_SKIP_VMLINUX:-}" ]; then
	skip "E2E_SKIP_VMLINUX is set"
elif [ -z "$VM" ]; then
	skip "no /usr/lib/debug/boot/vmlinux-* (Debian package linux-image-cloud-amd64-dbg, not a test package)"
else
	E2E_TIMEOUT=900
	identical "show vmlinux" show "$VM"
	dedup_ran "vmlinux"
	# holes: the full path once more, the default with the machine's jobs
	full holes "$VM"
	want=$(md5sum <"$T/out" | cut -d' ' -f1)
	sf_ok holes "$VM"
	assert_eq "$(md5sum <"$T/out" | cut -d' ' -f1)" "$want" "holes vmlinux: md5"
fi

tdone
