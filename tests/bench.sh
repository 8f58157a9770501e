#!/bin/sh
# tests/bench.sh - `make bench`: structfit against pahole on one large
# input, side by side in one run.  A benchmark, not a test: it prints the
# figures and writes them to build/bench.txt; it fails only when it cannot
# measure.
#
# Input: $BENCH_FILE if set, else a Debian vmlinux debug file
# (/usr/lib/debug/boot/vmlinux-*, from linux-image-*-cloud-amd64-dbg), else
# the biggest *.debug file under /usr/lib/debug.
#
# Many inputs: libjvm (openjdk-17-dbg), librados and libceph-common
# (librados2-dbg) and every other /usr/lib/debug/boot/vmlinux-* where
# installed, and the libc6-dbg directory (its debug files under
# /usr/lib/debug/.build-id, linked into a directory of their own) and
# libpython's static archive (/usr/lib/*/libpython3*d.a, or $BENCH_ARCHIVE),
# read by structfit show (files and members side by side) and by pahole -j2
# on the same files in the same run, one run each, quoted as ratios to
# pahole -j2.  pahole takes no directory: it gets the files.  Only
# libc6-dbg's: other packages' files there (libbinutils-dbg's) drove pahole
# 1.24 past 23 GB; it runs under a memory limit here all the same.
#
# BTF rows: the running kernel's /sys/kernel/btf/vmlinux (or $BENCH_BTF),
# read by `pahole -F btf` and by structfit show and holes in the same run,
# quoted as ratios to pahole -F btf (a table of their own; each the best of
# three interleaved runs, since each takes a fraction of a second).  Split
# BTF rows where the bench's kernel has module debug files
# (/usr/lib/debug/lib/modules/VERSION): its biggest module's BTF encoded
# over the kernel's by pahole -J, read by `pahole -F btf --btf_base` and by
# structfit show (the module alone, and the kernel's BTF with it).
#
# The floor: build/tests/dwarf_walk (tests/unit/dwarf_walk.c) maps the same
# file and decodes every DIE with as many threads as structfit uses, and
# nothing else - the part of structfit's time no cleverness above the DIE
# decoder removes (its row: structs "-").
#
# Knobs for a shorter run (checking the tables, say): BENCH_TABLES, the
# tables to measure among "dwarf btf many real" (the large input and its
# floor; BTF and split BTF; the libc6-dbg directory and the archive; the
# real packages' files), all by default; BENCH_REAL, "NAME FILE" pairs
# separated by ";" in place of the real packages' files; BENCH_RUNS, the
# runs of each row (3).
#
# Each tool writes its whole text report (every struct); wall time and peak
# RSS come from GNU time (/usr/bin/time -f '%e %M').  The output goes to a
# temp file, counted (structs reported) and deleted.  Every row but plain
# pahole's (one run: it takes a minute) is the fastest of three runs, the
# tools taking turns (pahole -j2, structfit, pahole -j2, ...), so a
# moment's load on a shared machine weighs on both sides of a ratio alike
# and a sub-second run is not quoted from its one unlucky go.
cd "$(dirname "$0")/.." || exit 2

SF=${STRUCTFIT:-./structfit}
WALK=${BENCH_WALK:-build/tests/dwarf_walk}
TABLES=" ${BENCH_TABLES:-dwarf btf many real} "
RUNS=${BENCH_RUNS:-3}
case $RUNS in ''|*[!0-9]*|0) echo "bench: BENCH_RUNS: '$RUNS' is not a number of runs" >&2; exit 2 ;; esac
# wants TABLE: is TABLE to be measured?
wants() { case $TABLES in *" $1 "*) return 0 ;; esac; return 1; }
OUT=build/bench.txt
TIME=/usr/bin/time

[ -x "$SF" ] || { echo "bench: $SF is not built (run 'make')" >&2; exit 2; }
command -v pahole >/dev/null 2>&1 || {
	echo "bench: skipped: pahole is not installed (Debian package dwarves)" >&2
	exit 0
}
if [ ! -x "$TIME" ]; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
		echo "bench: installing GNU time (Debian package time)"
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends time >/dev/null 2>&1 ||
			{ apt-get update -qq >/dev/null 2>&1 &&
				DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends time >/dev/null 2>&1; }
	fi
	[ -x "$TIME" ] || {
		echo "bench: skipped: $TIME is missing; run: sudo apt-get install time" >&2
		exit 0
	}
fi

# ------------------------------------------------------------- the input
file=${BENCH_FILE:-}
if [ -z "$file" ]; then
	file=$(ls -S /usr/lib/debug/boot/vmlinux-* 2>/dev/null | head -n 1)
fi
if [ -z "$file" ]; then
	file=$(find /usr/lib/debug -type f -name '*.debug' -printf '%s %p\n' 2>/dev/null |
		sort -rn | awk 'NR == 1 { print $2 }')
fi
btf=${BENCH_BTF:-/sys/kernel/btf/vmlinux}
[ -r "$btf" ] || btf=""
[ -n "$file" ] && [ -f "$file" ] || {
	echo "bench: no large debug file found (install linux-image-cloud-amd64-dbg or libc6-dbg)" >&2
	file=""
	[ -n "$btf" ] || { echo "bench: skipped: no DWARF and no BTF input" >&2; exit 0; }
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/sf-bench.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM HUP
mkdir -p "$(dirname "$OUT")"

# measure NAME CMD...: run CMD with its stdout in $tmp/out; append
# "NAME wall_s peak_kb structs status cpu_s" to $tmp/rows.  (Its variables
# are the script's: none of them may be a caller's loop variable - a
# "name" here once renamed the rows of the real inputs' loop.)
measure() {
	m_label=$1
	shift
	echo "bench: $m_label ..." >&2
	"$TIME" -f '%e %M %U %S' -o "$tmp/time" "$@" </dev/null >"$tmp/out" 2>"$tmp/err"
	st=$?
	read -r wall kb usr sys <<EOF
$(tail -n 1 "$tmp/time")
EOF
	case $m_label in
	*holes*) n=$(grep -cv '^[[:space:]]*$' "$tmp/out"); n=$((n > 0 ? n - 1 : 0)) ;;  # minus the header
	*) n=$(grep -cE '^(struct|union|class) .*\{$' "$tmp/out") ;;
	esac
	[ "$st" = 0 ] || echo "bench: $m_label exited $st: $(head -n 2 "$tmp/err")" >&2
	echo "$m_label $wall $kb $n $st $(echo "$usr $sys" | awk '{ print $1 + $2 }')" >>"$tmp/rows"
	rm -f "$tmp/out"
}

: >"$tmp/rows"
load=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)   # what else ran: before, ...
if [ -n "$file" ] && wants dwarf; then
	measure "pahole" pahole "$file"
	[ -x "$WALK" ] || echo "bench: no floor row: $WALK is not built (make $WALK)" >&2
	for k in $(seq "$RUNS"); do
		measure "pahole-j2" pahole -j2 "$file"
		measure "structfit-show" "$SF" show "$file"
		measure "structfit-holes" "$SF" holes "$file"
		[ ! -x "$WALK" ] || measure "floor-die-walk" "$WALK" "$file" "$(nproc)"
	done
fi
if [ -n "$btf" ] && wants btf; then
	# a fraction of a second each: the best of $RUNS runs, interleaved
	for k in $(seq "$RUNS"); do
		measure "pahole-btf" pahole -F btf "$btf"
		measure "structfit-btf-show" "$SF" show "$btf"
		measure "structfit-btf-holes" "$SF" holes "$btf"
	done
fi
# split BTF: the biggest module of the bench's kernel, its BTF encoded over
# the kernel's by pahole -J (both from their debug files, into $tmp/kbtf:
# structfit finds a split BTF's base as the file vmlinux beside it).
# pahole -F btf --btf_base prints the base's types and the module's;
# structfit show MODULE the module's own, and show vmlinux MODULE both
split_btf=""
kver=$(basename "${file:-none}" | sed -n 's/^vmlinux-//p')
if ! wants btf; then
	:
elif [ -n "$kver" ] && [ -d "/usr/lib/debug/lib/modules/$kver" ]; then
	ko=$(find "/usr/lib/debug/lib/modules/$kver" -name '*.ko' -printf '%s %p\n' 2>/dev/null |
		sort -rn | awk 'NR == 1 { print $2 }')
	mkdir -p "$tmp/kbtf"
	if [ -n "$ko" ] && echo "bench: encoding split BTF of $(basename "$ko") ..." >&2 &&
		pahole -j2 -J --btf_encode_detached="$tmp/kbtf/vmlinux" "$file" >/dev/null 2>&1 &&
		pahole -J --btf_base="$tmp/kbtf/vmlinux" \
			--btf_encode_detached="$tmp/kbtf/$(basename "$ko" .ko)" "$ko" >/dev/null 2>&1; then
		split_btf=$tmp/kbtf/$(basename "$ko" .ko)
	else
		echo "bench: no split BTF rows: pahole -J could not encode $kver's BTF and ${ko:-a module}'s" >&2
	fi
else
	echo "bench: no split BTF rows: no module debug files for ${kver:-the kernel} under /usr/lib/debug/lib/modules" >&2
fi
if [ -n "$split_btf" ]; then
	for k in $(seq "$RUNS"); do
		measure "pahole-btf-split" pahole -F btf --btf_base="$tmp/kbtf/vmlinux" "$split_btf"
		measure "structfit-btf-split-show" "$SF" show "$split_btf"
		measure "structfit-btf-split-both" "$SF" show "$tmp/kbtf/vmlinux" "$split_btf"
	done
fi

# ------------------------------------------------------------- many inputs
# libc_dir: links to the files of libc6-dbg (empty when it is not installed)
libc_dir=""
archive=""
if ! wants many; then
	:
elif command -v dpkg >/dev/null 2>&1 && dpkg -L libc6-dbg >/dev/null 2>&1; then
	libc_dir=$tmp/libc6-dbg
	mkdir -p "$libc_dir"
	dpkg -L libc6-dbg | grep '^/usr/lib/debug/\.build-id/.*\.debug$' | while read -r f; do
		[ -f "$f" ] && ln -s "$f" "$libc_dir/$(basename "$(dirname "$f")")$(basename "$f")"
	done
	[ -n "$(ls "$libc_dir")" ] || libc_dir=""
fi
if wants many; then
	[ -n "$libc_dir" ] || echo "bench: no libc6-dbg row: libc6-dbg is not installed" >&2
	archive=${BENCH_ARCHIVE:-$(ls /usr/lib/*/libpython3*d.a 2>/dev/null | head -n 1)}
	[ -n "$archive" ] || echo "bench: no archive row: no libpython3*d.a (libpython3.11-dbg)" >&2
fi

# debug_of LIB: the separate debug file of shared library LIB by its
# build-id (empty when LIB or its -dbg package is not installed)
debug_of() {
	[ -f "$1" ] || return 0
	id=$(readelf -n "$1" 2>/dev/null | awk '/Build ID:/ { print $3; exit }')
	[ -n "$id" ] && [ -f "/usr/lib/debug/.build-id/$(echo "$id" | cut -c1-2)/$(echo "$id" | cut -c3-).debug" ] &&
		echo "/usr/lib/debug/.build-id/$(echo "$id" | cut -c1-2)/$(echo "$id" | cut -c3-).debug"
}
# Issue 28's real inputs, each a row where its package is installed:
# "NAME FILE" lines (libjvm: openjdk-17-dbg; librados, libceph-common:
# librados2-dbg; the other vmlinux debug files: linux-image-*-dbg)
ma=$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
: >"$tmp/real"
if ! wants real; then
	:
elif [ -n "${BENCH_REAL:-}" ]; then
	echo "$BENCH_REAL" | tr ';' '\n' | awk 'NF == 2' >"$tmp/real"
else
	for spec in "libjvm /usr/lib/jvm/java-17-openjdk-amd64/lib/server/libjvm.so" \
		"librados /usr/lib/$ma/librados.so.2" \
		"libceph-common /usr/lib/$ma/ceph/libceph-common.so.2"; do
		set -- $spec
		d=$(debug_of "$2")
		if [ -n "$d" ]; then echo "$1 $d" >>"$tmp/real"
		else echo "bench: no $1 row: $2 or its debug file is not installed" >&2; fi
	done
	for v in /usr/lib/debug/boot/vmlinux-*; do
		[ -f "$v" ] && [ "$v" != "$file" ] && echo "$(basename "$v") $v" >>"$tmp/real"
	done
fi

# pahole -j2 ARGS under an 8 GB address-space limit: sh -c "$capped" pahole ARGS
# shellcheck disable=SC2016
capped='ulimit -v 8388608; exec pahole -j2 "$@"'
for k in $(seq "$RUNS"); do
	if [ -n "$libc_dir" ]; then
		# shellcheck disable=SC2046
		measure "many:libc6-dbg:pahole-j2" sh -c "$capped" pahole $(ls -d "$libc_dir"/*)
		measure "many:libc6-dbg:structfit-show" "$SF" show "$libc_dir"
	fi
	if [ -n "$archive" ]; then
		measure "many:$(basename "$archive"):pahole-j2" sh -c "$capped" pahole "$archive"
		measure "many:$(basename "$archive"):structfit-show" "$SF" show "$archive"
	fi
	while read -r input f; do
		measure "many:$input:pahole-j2" sh -c "$capped" pahole "$f"
		measure "many:$input:structfit-show" "$SF" show "$f"
	done <"$tmp/real"
done

# one row per name: the fastest of its runs that exited 0 (a failed run
# only when none did), in the order first run.  pahole 1.24 sometimes
# crashes on libceph-common (SIGSEGV, exit 139) after a third of its
# time: the fastest of three was that run, and structfit's ratio was
# quoted against it (0.25 for 0.09)
awk '!($1 in w) { order[++n] = $1 }
	{ ok = $5 == 0 }
	!($1 in w) || (ok && !good[$1]) || (ok == good[$1] && $2 < w[$1]) {
		w[$1] = $2; row[$1] = $0; good[$1] = ok }
	END { for (i = 1; i <= n; i++) print row[order[i]] }' "$tmp/rows" >"$tmp/best" &&
	mv "$tmp/best" "$tmp/rows"

{
	echo "structfit benchmark, $(date -u '+%Y-%m-%d %H:%M UTC')"
	[ -z "$file" ] || ! wants dwarf || echo "input:   $file ($(($(stat -c %s "$file") / 1048576)) MB)"
	[ -z "$btf" ] || echo "BTF:     $btf ($(($(stat -c %s "$btf") / 1024)) KB)"
	echo "machine: $(nproc) CPUs, $(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null)," \
		"$(awk '/^MemTotal/ { printf "%d GB", $2 / 1048576 }' /proc/meminfo) RAM"
	echo "tools:   pahole $(pahole --version 2>/dev/null), structfit $($SF --version 2>/dev/null | awk '{ print $2 }')"
	echo "load:    $load before, $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null) after (1, 5, 15 min averages)"
	echo "each run writes its whole text report (every struct) to a file;"
	echo "each row is the fastest of $RUNS runs taking turns (plain pahole: 1 run)"
	echo
	awk -v split_name="$(basename "${split_btf:-none}")" '
		{ name[NR] = $1; wall[NR] = $2; kb[NR] = $3; n[NR] = $4; st[NR] = $5; cpu[NR] = $6 }
		# a ratio is to a baseline that ran to its end, or it is "-"
		$1 == "pahole" && $5 == 0 { pw = $2; pk = $3 }
		$1 == "pahole-j2" && $5 == 0 { jw = $2 }
		$1 == "pahole-btf" { bw = $5 == 0 ? $2 : 0; bk = $5 == 0 ? $3 : 0 }
		$1 == "pahole-btf-split" { sw = $5 == 0 ? $2 : 0; sk = $5 == 0 ? $3 : 0 }
		function btf_row(i, base_w, base_k,    r1, r3, note) {
			r1 = base_w > 0 ? sprintf("%.2f", wall[i] / base_w) : "-"
			r3 = base_k > 0 ? sprintf("%.2f", kb[i] / base_k) : "-"
			note = st[i] != 0 ? "  (exit " st[i] ")" : ""
			printf("%-24s %9.2f %8.2f %13.1f %11s %10s %9d%s\n", name[i], wall[i],
				cpu[i], kb[i] / 1024, r1, r3, n[i], note)
		}
		END {
			if (pw > 0 || jw > 0) {
			printf("%-16s %9s %8s %13s %11s %10s %10s %9s\n", "tool", "wall s", "cpu s",
				"peak RSS MB", "wall/pahole", "wall/-j2", "RSS/pahole", "structs")
			}
			for (i = 1; i <= NR; i++) {
				if (name[i] ~ /btf/ || name[i] ~ /^many:/)
					continue
				r1 = "-"; r2 = "-"; r3 = "-"
				if (pw > 0) r1 = sprintf("%.2f", wall[i] / pw)
				if (jw > 0) r2 = sprintf("%.3f", wall[i] / jw)
				if (pk > 0) r3 = sprintf("%.2f", kb[i] / pk)
				note = ""
				if (st[i] != 0) note = "  (exit " st[i] ")"
				ns = name[i] ~ /^floor/ ? "-" : n[i]
				printf("%-16s %9.2f %8.2f %13.1f %11s %10s %10s %9s%s\n", name[i], wall[i],
					cpu[i], kb[i] / 1024, r1, r2, r3, ns, note)
			}
			if (bw == "")
				exit
			printf("\nBTF input, against pahole -F btf:\n")
			printf("%-24s %9s %8s %13s %11s %10s %9s\n", "tool", "wall s", "cpu s",
				"peak RSS MB", "wall/pahole", "RSS/pahole", "structs")
			for (i = 1; i <= NR; i++) {
				if (name[i] !~ /btf/ || name[i] ~ /split/)
					continue
				btf_row(i, bw, bk)
			}
			if (sw == "")
				exit
			printf("\nSplit BTF (%s over its kernel'"'"'s), against pahole -F btf --btf_base:\n",
				split_name)
			for (i = 1; i <= NR; i++)
				if (name[i] ~ /split/)
					btf_row(i, sw, sk)
			printf("(pahole prints the base'"'"'s types and the module'"'"'s; structfit show MODULE\n" \
				"the module'"'"'s own, and show vmlinux MODULE both)\n")
		}' "$tmp/rows"
	# many inputs: each structfit row against the pahole -j2 row of its input
	awk '
		$1 !~ /^many:/ { next }
		{ split($1, p, ":"); input = p[2]; tool = p[3] }
		tool == "pahole-j2" && $5 == 0 { jw[input] = $2; jk[input] = $3 }
		{ row[++n] = input " " tool " " $2 " " $6 " " $3 " " $4 " " $5 }
		END {
			if (!n)
				exit
			printf("\nMany inputs (files and members read side by side), against pahole -j2:\n")
			printf("%-18s %-16s %8s %8s %12s %9s %8s %8s\n", "input", "tool", "wall s",
				"cpu s", "peak RSS MB", "wall/-j2", "RSS/-j2", "structs")
			for (i = 1; i <= n; i++) {
				split(row[i], f, " ")
				r1 = jw[f[1]] > 0 ? sprintf("%.3f", f[3] / jw[f[1]]) : "-"
				r2 = jk[f[1]] > 0 ? sprintf("%.2f", f[5] / jk[f[1]]) : "-"
				note = f[7] != 0 ? "  (exit " f[7] ")" : ""
				printf("%-18s %-16s %8.2f %8.2f %12.1f %9s %8s %8d%s\n", f[1], f[2], f[3],
					f[4], f[5] / 1024, r1, r2, f[6], note)
			}
		}' "$tmp/rows"
	echo
	echo "target (issue 28): structfit show at most 0.08x pahole -j2's wall time and"
	echo "0.10x its peak RSS on every input; on BTF at most 0.5x pahole -F btf's wall."
	echo "cpu s: user + system time (all threads).  structs: the types each text"
	echo "report prints (holes: its ranked entries).  On a loaded machine wall"
	echo "times vary from run to run; cpu s less so.  A ratio is \"-\" where no"
	echo "run of pahole ended well (its row says how it exited)."
} | tee "$OUT"
echo "bench: written to $OUT" >&2
