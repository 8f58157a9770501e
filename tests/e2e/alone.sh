#!/bin/bash
# tests/e2e/alone.sh - an answer does not depend on what else was asked
# (issue 27, item 1): every block of `show INPUT` is exactly what
# `show -t NAME INPUT` prints for its name - the "last struct has N bytes
# of padding" notes and "paddings:" summary included, which came from
# looking the member's struct up by name among the types reported (none
# alone; another definition of the name in the whole report).  On real
# inputs: libc6-dbg, libstdc++6-12-dbg's libstdc++.a and the host's BTF
# (skipped, saying why, when absent).  A deterministic sample of the
# names (tests/blocks_alone.py: every k-th of the sorted names), one
# structfit run per name; ALONE_N names per input (default 25, 62 of
# the BTF's, whose runs are short).
. "$(dirname "$0")/lib.sh"

N=${ALONE_N:-25}

alone_case() { # WHAT INPUT N
	tcase "$1: every sampled block of show is show -t of its name"
	if [ ! -e "$2" ]; then
		skip "$2 is not there"
		return
	fi
	run /usr/bin/python3 "$E2E_ROOT/tests/blocks_alone.py" "$SF" "$2" "$3" 2
	if [ "$RC" != 0 ]; then
		fail "$(tail -n 1 "$T/out"): $(head -n 3 "$T/out" | tr '\n' ' ')"
		detail "$T/out"
		return
	fi
	assert_match "$(tail -n 1 "$T/out")" "^checked [1-9][0-9]* of [0-9]+ names, 0 differ$" "summary"
	echo "    $1: $(tail -n 1 "$T/out")"
}

alone_case "libc6-dbg" "$(libc_dbg_dir || echo "libc6-dbg (not installed)")" "$N"
alone_case "libstdc++.a" /usr/lib/x86_64-linux-gnu/debug/libstdc++.a "$N"
if [ -e /sys/kernel/btf/vmlinux ]; then
	alone_case "host BTF" /sys/kernel/btf/vmlinux $((N * 5 / 2))
else
	tcase "host BTF: every sampled block of show is show -t of its name"
	skip "/sys/kernel/btf/vmlinux is absent (kernel without CONFIG_DEBUG_INFO_BTF)"
fi

tdone
