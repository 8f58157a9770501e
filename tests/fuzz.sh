#!/bin/sh
# tests/fuzz.sh - build the libFuzzer targets and run each for a bounded time.
#
#   sh tests/fuzz.sh                 every target, FUZZ_SECONDS each (default 60)
#   sh tests/fuzz.sh reader          only fuzz/fuzz_reader.c (or: budget, source)
#   FUZZ_SECONDS=600 sh tests/fuzz.sh
#   FUZZ_JOBS=1 sh tests/fuzz.sh      one target at a time (default: one per core)
#
# Targets (fuzz/fuzz_*.c) are built with clang -fsanitize=fuzzer,address,
# undefined into build-fuzz/ (the library through the Makefile with
# BUILD=build-fuzz).  The seed corpora fuzz/corpus/{reader,budget,source} are made
# by fuzz/make-corpus.sh from testdata/ (and testdata/regress/, so every
# kept reproducer is replayed first); they are not committed and grow with
# what the fuzzers find.  A target fails on a crash, a sanitizer report, a
# leak, an input slower than FUZZ_TIMEOUT seconds (default 10) or one that
# needs more than FUZZ_RSS_MB (default 2048) MB; the input is kept as
# build-fuzz/crash/TARGET-*, to be fixed and added to testdata/regress/ as
# base64 text (see testdata/regress/README).
#
# The last line is "fuzz: N targets, M failed"; the status is non-zero when
# a target failed or could not be built.

cd "$(dirname "$0")/.." || exit 2
secs=${FUZZ_SECONDS:-60}
tmo=${FUZZ_TIMEOUT:-10}
rss=${FUZZ_RSS_MB:-2048}
B=build-fuzz
FCC=${FUZZ_CC:-clang}
SAN="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"

targets=${*:-reader budget source}

if ! command -v "$FCC" >/dev/null 2>&1; then
	echo "fuzz: $FCC is not installed (libFuzzer needs clang)" >&2
	echo "fuzz: 0 targets, 1 failed"
	exit 1
fi

# the library, instrumented for coverage (fuzzer-no-link) and sanitized
if ! make --no-print-directory -s BUILD=$B CC="$FCC" \
	CFLAGS="-O1 -g -fsanitize=fuzzer-no-link $SAN" $B/libsf.a; then
	echo "fuzz: cannot build $B/libsf.a" >&2
	echo "fuzz: 0 targets, 1 failed"
	exit 1
fi
sh fuzz/make-corpus.sh fuzz/corpus >/dev/null || exit 2
mkdir -p $B/crash

ELF_LIBS=$(pkg-config --libs libelf 2>/dev/null || echo -lelf)
ZSTD_LIBS=$(pkg-config --libs libzstd 2>/dev/null || echo -lzstd)
# build_target T: $B/fuzz_T, or a message and status 1
build_target() {
	src=fuzz/fuzz_$1.c
	if [ ! -f "$src" ]; then
		echo "fuzz: no target $src" >&2
		return 1
	fi
	# shellcheck disable=SC2086
	"$FCC" -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -I. -I/usr/include/libdwarf \
		-O1 -g -fsanitize=fuzzer $SAN -o "$B/fuzz_$1" "$src" $B/libsf.a \
		-lbpf $ELF_LIBS $ZSTD_LIBS -ldeflate -lisal -lz -lpthread ||
		{ echo "fuzz: cannot build $B/fuzz_$1" >&2; return 1; }
}

# run_target T: fuzz T for $secs s; its summary line in $B/fuzz_T.line,
# the report on stderr and status 1 when it found something
run_target() {
	t=$1 bin=$B/fuzz_$1 log=$B/fuzz_$1.log
	start=$(date +%s)
	ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=0} \
	UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
		"$bin" -max_total_time="$secs" -timeout="$tmo" -rss_limit_mb="$rss" \
		-print_final_stats=1 -artifact_prefix="$B/crash/$t-" \
		"fuzz/corpus/$t" >"$log" 2>&1
	rc=$?
	el=$(($(date +%s) - start))
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	cov=$(grep -Eo 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+/[0-9a-zA-Z]+' "$log" | tail -n 1)
	line="$t: ${el}s, ${execs:-?} execs, $cov"
	if [ "$rc" != 0 ]; then
		line="$line: FAILED (exit $rc)"
		{
			echo "fuzz: $t FAILED, exit $rc; the report:"
			grep -E -A 30 '^==[0-9]+==ERROR|runtime error|ALARM|out-of-memory|Test unit written' \
				"$log" | head -n 60
			echo "fuzz: reproduce with: $bin $B/crash/$t-*"
		} >&2
	fi
	echo "  $line" >"$B/fuzz_$t.line"
	[ "$rc" = 0 ]
}

# the targets FUZZ_JOBS at a time (default: every core), each its own
# seconds; their lines in the order given
jobs=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 2)}
ntargets=0
nfailed=0
built=""
for t in $targets; do
	ntargets=$((ntargets + 1))
	if build_target "$t"; then built="$built $t"; else nfailed=$((nfailed + 1)); fi
done
running=0
for t in $built; do
	rm -f "$B/fuzz_$t.line" "$B/fuzz_$t.rc"
	echo "fuzz: $t for ${secs}s (corpus fuzz/corpus/$t, log $B/fuzz_$t.log)"
	(run_target "$t"; echo $? >"$B/fuzz_$t.rc") &
	running=$((running + 1))
	if [ "$running" -ge "$jobs" ]; then
		wait
		running=0
	fi
done
wait
for t in $built; do
	cat "$B/fuzz_$t.line" 2>/dev/null || echo "  $t: no result"
	[ "$(cat "$B/fuzz_$t.rc" 2>/dev/null)" = 0 ] || nfailed=$((nfailed + 1))
done
echo "fuzz: $ntargets targets, $nfailed failed"
[ "$nfailed" = 0 ]
