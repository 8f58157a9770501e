#!/bin/sh
# tests/run-e2e-parallel.sh - tests/run-e2e.sh on E2E_JOBS cores (default 2),
# for the slow runs of the suite (make asan, make valgrind).
#
#   sh tests/run-e2e-parallel.sh                every script
#   sh tests/run-e2e-parallel.sh show holes     only these
#   E2E_PLAIN="identity deb" E2E_PLAIN_STRUCTFIT=./structfit STRUCTFIT=...
#                                               those two on ./structfit
#
# Each script runs alone through tests/run-e2e.sh (same environment:
# STRUCTFIT, E2E_TIMEOUT...) into its own log; the logs are printed in
# script order once all are done, then one summary line in run-e2e.sh's
# format, "e2e: N passed, M failed, K skipped".  Status non-zero when any
# script failed.  The scripts are started longest first (by their time in
# the last run, build/e2e-times), so the workers finish together.  Where the
# time went: build/e2e-times (each script's seconds) and
# build/e2e-case-times (each case's, slowest first).

cd "$(dirname "$0")/.." || exit 2
jobs=${E2E_JOBS:-2}
logs=$(mktemp -d "${TMPDIR:-/tmp}/sf-e2e-par.XXXXXX") || exit 2
trap 'rm -rf "$logs"' EXIT
trap 'exit 130' INT TERM HUP

if [ $# -gt 0 ]; then
	names="$*"
else
	names=""
	for s in tests/e2e/*.sh; do
		n=$(basename "$s" .sh)
		[ "$n" = lib ] || names="$names $n"
	done
fi

# longest first, from the times a previous run recorded (unknown: first);
# a fresh clone starts from tests/e2e/times, the times of one make test
times=${E2E_TIMES:-build/e2e-times}
mkdir -p "$(dirname "$times")"
[ -f "$times" ] || cp tests/e2e/times "$times" 2>/dev/null
order=$(for n in $names; do
	t=$(sed -n "s/^$n //p" "$times" 2>/dev/null | tail -n 1)
	echo "${t:-100000} $n"
done | sort -rn | awk '{ print $2 }')

# each case's seconds (tests/e2e/lib.sh), kept as the times are: this
# run's, and the last run's of the scripts it left out
case_times=$(dirname "$times")/e2e-case-times
export E2E_CASE_TIMES="$logs/case-times"

# E2E_PLAIN: scripts run on $E2E_PLAIN_STRUCTFIT instead of $STRUCTFIT
# (make test: the shipped binary for these, the ASan build for the rest)
plain_one() {
	case " $E2E_PLAIN " in *" $1 "*) [ -n "${E2E_PLAIN_STRUCTFIT:-}" ] ;; *) false ;; esac
}

run_one() {
	start=$(date +%s)
	(plain_one "$1" && export STRUCTFIT="$E2E_PLAIN_STRUCTFIT"
	 sh tests/run-e2e.sh "$1" >"$logs/$1.log" 2>&1)
	echo $? >"$logs/$1.rc"
	echo "$1 $(($(date +%s) - start))" >"$logs/$1.time"
}

# the next script of the queue, or nothing (a mkdir lock between workers)
next_job() {
	while ! mkdir "$logs/lock" 2>/dev/null; do
		sleep 0.1
	done
	head -n 1 "$logs/queue"
	sed -i 1d "$logs/queue"
	rmdir "$logs/lock"
}

# $jobs workers, each taking the next script when done with one
printf '%s\n' $order >"$logs/queue"
w=0
while [ "$w" -lt "$jobs" ]; do
	(while n=$(next_job) && [ -n "$n" ]; do run_one "$n"; done) &
	w=$((w + 1))
done
wait

pass=0 fail=0 skipped=0 bad=0
for n in $names; do
	# the script's own lines, without run-e2e.sh's per-run summary
	grep -v '^e2e: [0-9]* passed' "$logs/$n.log"
	p=$(grep -c '^PASS ' "$logs/$n.log")
	f=$(grep -c '^FAIL ' "$logs/$n.log")
	k=$(grep -c '^SKIP ' "$logs/$n.log")
	pass=$((pass + p)) fail=$((fail + f)) skipped=$((skipped + k))
	rc=$(cat "$logs/$n.rc" 2>/dev/null || echo 1)
	if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
		echo "FAIL $n: tests/run-e2e.sh $n exited $rc without a failed case"
		bad=$((bad + 1))
	fi
done
# keep the times of scripts this run left out
{
	cat "$logs"/*.time 2>/dev/null
	for n in $(awk '{ print $1 }' "$times" 2>/dev/null); do
		[ -f "$logs/$n.time" ] || grep "^$n " "$times" | tail -n 1
	done
} >"$times.new" && mv "$times.new" "$times"
{
	cat "$E2E_CASE_TIMES" 2>/dev/null
	for n in $names; do echo "$n"; done >"$logs/ran"
	awk 'NR == FNR { ran[$1 ":"] = 1; next } !($2 in ran)' "$logs/ran" "$case_times" 2>/dev/null
} | sort -rn >"$case_times.new" && mv "$case_times.new" "$case_times"
fail=$((fail + bad))
echo "e2e: $pass passed, $fail failed, $skipped skipped"
[ "$fail" = 0 ]
