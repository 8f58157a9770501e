#!/bin/sh
# tests/longfn.sh - no function of the product longer than 120 lines.
#
# The house style keeps functions short; this keeps it true.  A function is
# counted from the `{` that opens its body at column 0 to the `}` at column
# 0 that closes it, both lines included (the signature above is not
# counted).  Functions, not initialisers: a table's `{` ends the line of
# its declaration and is never at column 0.
#
#   sh tests/longfn.sh            the product folders (cmd input dwarf btf
#                                 model layout report lib)
#   sh tests/longfn.sh FILE...    those files
#
# One line per offender: "FILE:LINE: NAME: N lines (at most MAX)"; the
# last line is exactly "longfn: N passed, M failed" (functions), the exit
# status non-zero when any failed.  LONGFN_MAX overrides the limit.

cd "$(dirname "$0")/.." || exit 2
max=${LONGFN_MAX:-120}

if [ $# -eq 0 ]; then
	set -- $(ls cmd/*.c input/*.c dwarf/*.c dwarf/*.h btf/*.c model/*.c \
		layout/*.c report/*.c lib/*.c lib/*.h input/*.h model/*.h \
		layout/*.h report/*.h btf/*.h cmd/*.h 2>/dev/null)
fi

awk -v max="$max" '
	# The name of the function whose signature ends on this line or the
	# lines kept before it: the identifier before the first "(".
	function name_of(sig,   s) {
		s = sig
		gsub(/__attribute__ *\(\([^()]*(\([^()]*\))?[^()]*\)\)/, "", s)
		sub(/\(.*/, "", s)
		sub(/.*[^A-Za-z0-9_]/, "", s)
		return s == "" ? "?" : s
	}
	FNR == 1 { sig = ""; open = 0 }
	!open && /^\{/ { open = FNR; fname = name_of(sig); next }
	open && /^\}/ {
		n = FNR - open + 1
		if (n > max) {
			printf "%s:%d: %s: %d lines (at most %d)\n", FILENAME, open, fname, n, max
			failed++
		} else {
			passed++
		}
		open = 0; sig = ""
		next
	}
	!open {
		# a signature: lines since the last blank line, comment close
		# or semicolon; its first line holds the name
		if ($0 ~ /^[ \t]*$/ || $0 ~ /;[ \t]*$/ || $0 ~ /\*\/[ \t]*$/ || $0 ~ /^#/)
			sig = ""
		else if (sig == "")
			sig = $0
		else if (sig !~ /\(/)
			sig = sig " " $0
	}
	END {
		printf "longfn: %d passed, %d failed\n", passed, failed
		exit failed > 0
	}
' "$@"
