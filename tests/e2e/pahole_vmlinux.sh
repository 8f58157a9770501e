#!/bin/bash
# tests/e2e/pahole_vmlinux.sh - structfit against pahole on the biggest
# real input: the Linux kernel's vmlinux debug file from Debian's
# linux-image-*-cloud-amd64-dbg (/usr/lib/debug/boot/vmlinux-*, DWARF 5,
# about 7,500 named structs and unions).  Skipped, saying so, where it is
# not installed.  About 30 s on two idle cores (pahole alone takes 20 s);
# E2E_SKIP_VMLINUX=1 skips it.
#
# Same comparison as pahole_libc.sh (tests/compare_pahole.py): for every
# type pahole prints, the same name in structfit's JSON with the same size,
# members (offsets, sizes, bit-fields), holes, padding, bit holes and bit
# padding; no struct pahole reports may be missing.
. "$(dirname "$0")/lib.sh"

CMP=$E2E_ROOT/tests/compare_pahole.py

# Where pahole is wrong ("NAME FIELD REASON"); see compare_pahole.py.
EXCEPTIONS='
# (none: every struct and union of the 6.1 cloud kernel agrees)
'

tcase "vmlinux: every struct and union agrees with pahole"
VM=$(ls -S /usr/lib/debug/boot/vmlinux-* 2>/dev/null | head -n 1)
if [ -n "${E2E_SKIP_VMLINUX:-}" ]; then
	skip "E2E_SKIP_VMLINUX is set"
elif ! have pahole; then
	missing "pahole is not installed (Debian package dwarves)"
elif [ -z "$VM" ]; then
	skip "no /usr/lib/debug/boot/vmlinux-* (Debian package linux-image-cloud-amd64-dbg)"
else
	echo "    input: $VM ($(($(stat -c %s "$VM") / 1048576)) MB)"
	printf '%s\n' "$EXCEPTIONS" >"$T/exceptions"
	E2E_TIMEOUT=900
	run pahole "$VM"
	[ "$RC" = 0 ] || fail "pahole exited $RC: $(head -n 1 "$T/err")"
	mv "$T/out" "$T/pahole.txt"
	sf_ok show --format json "$VM"
	mv "$T/out" "$T/sf.json"
	if [ "$RC" = 0 ]; then
		"$PY" -S "$CMP" compare "$T/pahole.txt" "$T/sf.json" --exceptions "$T/exceptions" \
			>"$T/cmp" 2>&1 || fail "$(head -n 1 "$T/cmp"): $(grep -m 2 'DISAGREE\|MISSING' "$T/cmp" | tr '\n' ' ')"
		detail "$T/cmp" "compare_pahole.py"
		n=$(awk -F'compared: ' 'NR == 1 { split($2, a, ","); print a[1] }' "$T/cmp")
		[ "${n:-0}" -ge 5000 ] || fail "only ${n:-0} types compared"
	fi
fi

tdone
