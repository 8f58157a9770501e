#!/bin/bash
# tests/e2e/malloc.sh - malloc's heap on 2 MiB pages (cmd/main.c,
# huge_page_heap): one heap for every thread, grown once by a reserve
# advised MADV_HUGEPAGE, as glibc's tunable glibc.malloc.hugetlb=1 would
# have it, in place, with no second run of structfit.
#
#  - only when an operand is a directory or a file of 1 MiB or more (a
#    small input never gains): the probes name an empty --debug-dir to be
#    such a run;
#  - the heap is advised (seen in /proc/PID/smaps: a [heap] mapping whose
#    VmFlags say "hg");
#  - the environment is the user's throughout: structfit starts with
#    GLIBC_TUNABLES as the user set it (/proc/PID/environ), and what it
#    runs (dpkg-query, for the package hint of a system file without
#    debug info) sees the same;
#  - not done where the user set glibc.malloc tunables of their own, or
#    where LD_PRELOAD puts something in front of malloc (valgrind, a
#    profiler, another allocator);
#  - the answer is the same either way.
#
# The probe is a dpkg-query of ours, first on PATH: it writes down its own
# GLIBC_TUNABLES, the one structfit (its parent) started with, and
# whether structfit's heap is advised.
. "$(dirname "$0")/lib.sh"

# build_id FILE: its build-id in hex, as readelf prints it.
build_id() {
	readelf -n "$1" 2>/dev/null | awk '/Build ID:/ { print $3; exit }'
}

TRUE=$(readlink -f "$(type -P true)")
mkdir -p "$T/bin" "$T/dbg"
# an operand that is a directory makes a run worth huge pages
BIG=(--debug-dir "$T/dbg")
cat >"$T/bin/dpkg-query" <<PROBE
#!/bin/sh
{
	echo "child=\${GLIBC_TUNABLES-unset}"
	echo "parent=\$(tr '\\0' '\\n' </proc/\$PPID/environ | sed -n 's/^GLIBC_TUNABLES=//p')"
	echo "huge=\$(awk '\$1 ~ /^[0-9a-f]+-[0-9a-f]+\$/ { heap = (\$6 == "[heap]") }
		heap && /^VmFlags:/ && / hg/ { n++ } END { print n ? "yes" : "no" }' /proc/\$PPID/smaps)"
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

# saw WHAT HUGE PARENT CHILD: the probe saw structfit's heap advised for
# huge pages or not (HUGE: yes or no), structfit start with GLIBC_TUNABLES
# PARENT (what the user set: "" when unset), and itself got CHILD
# ("unset": none)
saw() {
	assert_eq "$(seen huge)" "$2" "$1: structfit's heap in huge pages"
	assert_eq "$(seen parent)" "$3" "$1: the tunables structfit ran with"
	assert_eq "$(seen child)" "$4" "$1: GLIBC_TUNABLES in what structfit runs"
}

plain_build() {
	if head -c 2 "$SF" | grep -q '#!'; then
		skip "$SF is a script (a valgrind run): the heap is valgrind's"
	elif ldd "$SF" 2>/dev/null | grep -q 'lib[at]san'; then
		skip "$SF is a sanitizer build: its allocator is the sanitizer's"
	elif [ ! -e /sys/kernel/mm/transparent_hugepage/enabled ]; then
		skip "this kernel has no transparent huge pages: malloc is left as it is"
	elif [ ! -r /proc/self/environ ]; then
		skip "no /proc here: structfit runs as it is"
	elif [ -f "/usr/lib/debug/.build-id/$(build_id "$TRUE" | sed 's|^\(..\)|\1/|').debug" ]; then
		skip "$TRUE's debug file is installed: no package hint to probe with"
	else
		return 0
	fi
	return 1
}

tcase "malloc's heap in huge pages, in place; GLIBC_TUNABLES left unset"
if plain_build; then
	probe -u GLIBC_TUNABLES
	saw "unset" yes "" unset
	assert_grep "$T/err" "no DWARF debug info" "the error"
fi

tcase "the user's own tunables: as they were, in structfit and in what it runs"
if plain_build; then
	probe GLIBC_TUNABLES=glibc.rtld.nns=4
	saw "glibc.rtld.nns=4" yes glibc.rtld.nns=4 glibc.rtld.nns=4
	probe GLIBC_TUNABLES=
	saw "empty GLIBC_TUNABLES" yes "" ""
fi

tcase "no huge pages where the user tuned malloc or preloads something in front of it"
if plain_build; then
	probe GLIBC_TUNABLES=glibc.malloc.hugetlb=0
	saw "the user's malloc tunables" no glibc.malloc.hugetlb=0 glibc.malloc.hugetlb=0
	libm=$(ldd "$SF" | awk '$1 ~ /^libm\.so/ { print $3 }')
	[ -n "$libm" ] || libm=$(ldd "$(type -P true)" | awk '$1 ~ /^libc\.so/ { print $3 }')
	probe -u GLIBC_TUNABLES LD_PRELOAD="$libm"
	saw "LD_PRELOAD=$libm" no "" unset
fi

tcase "a small input alone: no huge pages; a file of 1 MiB or more is big"
if plain_build; then
	[ "$(stat -c %s "$TRUE")" -lt 1048576 ] || fail "$TRUE is 1 MiB or more"
	BIG=()
	probe -u GLIBC_TUNABLES
	saw "show $TRUE alone" no "" unset
	head -c 1048576 /dev/zero >"$T/big.bin"
	BIG=("$T/big.bin")
	probe -u GLIBC_TUNABLES
	saw "show $TRUE and a file of 1 MiB" yes "" unset
	truncate -s 1048575 "$T/big.bin"
	probe -u GLIBC_TUNABLES
	saw "show $TRUE and a file of 1 MiB less a byte" no "" unset
	BIG=(--debug-dir "$T/dbg")
fi

tcase "the heap's reserve out of reach (a data limit): no huge pages, the same error"
if plain_build; then
	probe -u GLIBC_TUNABLES
	cp "$T/err" "$T/err.huge"
	rm -f "$T/seen"
	run bash -c 'ulimit -d 262144 && exec env -u GLIBC_TUNABLES PATH="$1:$PATH" "${@:2}"' _ \
		"$T/bin" "$SF" show "$TRUE" "${BIG[@]}"
	[ "$RC" = 2 ] || fail "show $TRUE under ulimit -d: exit $RC, expected 2"
	saw "ulimit -d 262144" no "" unset
	cmp -s "$T/err" "$T/err.huge" || fail "the error differs under ulimit -d"
fi

tcase "the same answer with and without huge pages, on two threads"
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
	run bash -c 'ulimit -d 262144 && exec "$@"' _ "$SF" show -j 2 "$T/objs"
	assert_eq "$RC" 0 "show with no room for the heap's reserve: exit"
	cmp -s "$T/out" "$T/tuned.txt" || fail "show's output differs under ulimit -d 262144"
	assert_ne "$(grep -c '^struct ' "$T/out")" 0 "structs shown"
fi

tdone
