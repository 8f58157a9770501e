#!/bin/bash
# tests/e2e/malloc.sh - structfit runs itself again once, with glibc's
# tunables glibc.malloc.hugetlb=1 and arena_max=1 (cmd/main.c,
# run_with_huge_pages): malloc's heap then takes 2 MiB pages, a fault per
# 2 MiB written instead of per 4 KiB.
#
#  - only when an operand is a directory or a file of 1 MiB or more (a
#    small input never gains the exec's 1-3 ms): the probes name an empty
#    --debug-dir to be such a run;
#  - the second process starts with those tunables in front of the user's
#    (seen in /proc/PID/environ, what a process started with: glibc cuts
#    GLIBC_TUNABLES there at its first ':' as it reads it, so the test
#    sees the first tunable);
#  - it puts GLIBC_TUNABLES back as the user had it, set or unset, before
#    it runs anything: what it runs (dpkg-query, for the package hint of a
#    system file without debug info) sees the user's environment, and no
#    marker of ours;
#  - it does not run again where the user set glibc.malloc tunables of
#    their own, or where LD_PRELOAD puts something in front of malloc
#    (valgrind, a profiler, another allocator);
#  - the answer is the same either way.
#
# The probe is a dpkg-query of ours, first on PATH: it writes down its own
# GLIBC_TUNABLES and the one structfit (its parent) started with.
. "$(dirname "$0")/lib.sh"

# build_id FILE: its build-id in hex, as readelf prints it.
build_id() {
	readelf -n "$1" 2>/dev/null | awk '/Build ID:/ { print $3; exit }'
}

TRUE=$(readlink -f "$(type -P true)")
mkdir -p "$T/bin" "$T/dbg"
# an operand that is a directory makes a run worth the exec
BIG=(--debug-dir "$T/dbg")
cat >"$T/bin/dpkg-query" <<PROBE
#!/bin/sh
{
	echo "child=\${GLIBC_TUNABLES-unset}"
	echo "marker=\${STRUCTFIT_MALLOC_TUNED-unset}"
	echo "parent=\$(tr '\\0' '\\n' </proc/\$PPID/environ | sed -n 's/^GLIBC_TUNABLES=//p')"
} >"$T/seen"
exit 1
PROBE
chmod +x "$T/bin/dpkg-query"

# probe [VAR=VALUE...]: structfit show /bin/true (no debug info: the
# package hint asks dpkg-query) in that environment; $T/seen says what
# the probe saw.
probe() {
	rm -f "$T/seen"
	run env "$@" PATH="$T/bin:$PATH" "$SF" show "$TRUE" "${BIG[@]}"
	[ "$RC" = 2 ] || fail "show $TRUE ($*): exit $RC, expected 2"
	[ -f "$T/seen" ] || fail "show $TRUE ($*): dpkg-query was not run"
}

seen() { sed -n "s/^$1=//p" "$T/seen" 2>/dev/null; }

# saw WHAT PARENT CHILD: the probe saw structfit start with GLIBC_TUNABLES
# PARENT (its first tunable), and itself got CHILD ("unset": none), and
# never our marker
saw() {
	assert_eq "$(seen parent)" "$2" "$1: the tunables structfit ran with"
	assert_eq "$(seen child)" "$3" "$1: GLIBC_TUNABLES in what structfit runs"
	assert_eq "$(seen marker)" "unset" "$1: STRUCTFIT_MALLOC_TUNED in what structfit runs"
}

plain_build() {
	if head -c 2 "$SF" | grep -q '#!'; then
		skip "$SF is a script (a valgrind run): no exec of its own"
	elif ldd "$SF" 2>/dev/null | grep -q 'lib[at]san'; then
		skip "$SF is a sanitizer build: its allocator is the sanitizer's"
	elif [ ! -r /proc/self/environ ]; then
		skip "no /proc here: structfit runs as it is"
	elif [ -f "/usr/lib/debug/.build-id/$(build_id "$TRUE" | sed 's|^\(..\)|\1/|').debug" ]; then
		skip "$TRUE's debug file is installed: no package hint to probe with"
	else
		return 0
	fi
	return 1
}

FIRST=glibc.malloc.hugetlb=1

tcase "run again with malloc's huge pages; GLIBC_TUNABLES unset again for what it runs"
if plain_build; then
	probe -u GLIBC_TUNABLES
	saw "unset" "$FIRST" unset
	assert_grep "$T/err" "no DWARF debug info" "the error"
fi

tcase "the user's own tunables: ours go in front, theirs come back as they were"
if plain_build; then
	probe GLIBC_TUNABLES=glibc.rtld.nns=4
	saw "glibc.rtld.nns=4" "$FIRST" glibc.rtld.nns=4
	probe GLIBC_TUNABLES=
	saw "empty GLIBC_TUNABLES" "$FIRST" ""
fi

tcase "no second run where the user tuned malloc or preloads something in front of it"
if plain_build; then
	probe GLIBC_TUNABLES=glibc.malloc.hugetlb=0
	saw "the user's malloc tunables" glibc.malloc.hugetlb=0 glibc.malloc.hugetlb=0
	libm=$(ldd "$SF" | awk '$1 ~ /^libm\.so/ { print $3 }')
	[ -n "$libm" ] || libm=$(ldd "$(type -P true)" | awk '$1 ~ /^libc\.so/ { print $3 }')
	probe -u GLIBC_TUNABLES LD_PRELOAD="$libm"
	saw "LD_PRELOAD=$libm" "" unset
fi

tcase "a small input alone: no second run; a file of 1 MiB or more is big"
if plain_build; then
	[ "$(stat -c %s "$TRUE")" -lt 1048576 ] || fail "$TRUE is 1 MiB or more"
	BIG=()
	probe -u GLIBC_TUNABLES
	saw "show $TRUE alone" "" unset
	head -c 1048576 /dev/zero >"$T/big.bin"
	BIG=("$T/big.bin")
	probe -u GLIBC_TUNABLES
	saw "show $TRUE and a file of 1 MiB" "$FIRST" unset
	truncate -s 1048575 "$T/big.bin"
	probe -u GLIBC_TUNABLES
	saw "show $TRUE and a file of 1 MiB less a byte" "" unset
	BIG=(--debug-dir "$T/dbg")
fi

tcase "the same answer with and without the second run, on two threads"
for src in holes layouts packed names; do
	compile_or_fail gcc x86_64 5 "$T/$src.o" "$TD/e2e/$src.c"
done
if ! failed; then
	mkdir -p "$T/objs" && mv "$T"/*.o "$T/objs/"
	sf_ok show -j 2 "$T/objs"
	cp "$T/out" "$T/tuned.txt"
	run env GLIBC_TUNABLES=glibc.malloc.hugetlb=0 "$SF" show -j 2 "$T/objs"
	assert_eq "$RC" 0 "show without huge pages: exit"
	cmp -s "$T/out" "$T/tuned.txt" || fail "show's output differs with glibc.malloc.hugetlb=0"
	assert_ne "$(grep -c '^struct ' "$T/out")" 0 "structs shown"
fi

tdone
