#!/bin/sh
# tests/run-e2e.sh - run every end-to-end test script tests/e2e/*.sh.
#
# Each script (bash, sourcing tests/e2e/lib.sh) runs a list of cases and
# prints one line per case: PASS, FAIL (with the reason) or SKIP (with why).
# A script that dies without reporting its cases counts as one failure.
# The last line is exactly "e2e: N passed, M failed, K skipped"; the exit
# status is non-zero when anything failed.
#
#   sh tests/run-e2e.sh                 every script
#   sh tests/run-e2e.sh show holes      only tests/e2e/show.sh and holes.sh
#
# STRUCTFIT=path overrides ./structfit; E2E_TIMEOUT (seconds) bounds each
# structfit run.

cd "$(dirname "$0")/.." || exit 2
root=$(pwd)

if [ ! -x "${STRUCTFIT:-$root/structfit}" ]; then
	echo "e2e: ${STRUCTFIT:-$root/structfit} is not built (run 'make')" >&2
	echo "e2e: 0 passed, 1 failed, 0 skipped"
	exit 1
fi
command -v bash >/dev/null 2>&1 || {
	echo "e2e: bash is needed to run the tests" >&2
	echo "e2e: 0 passed, 1 failed, 0 skipped"
	exit 1
}

results=$(mktemp "${TMPDIR:-/tmp}/sf-e2e-results.XXXXXX") || exit 2
trap 'rm -f "$results"' EXIT
trap 'exit 130' INT TERM HUP

if [ $# -gt 0 ]; then
	scripts=""
	for n in "$@"; do
		scripts="$scripts tests/e2e/${n%.sh}.sh"
	done
else
	scripts=""
	for s in tests/e2e/*.sh; do
		[ "$s" = tests/e2e/lib.sh ] || scripts="$scripts $s"
	done
fi

for s in $scripts; do
	name=$(basename "$s" .sh)
	if [ ! -f "$s" ]; then
		echo "FAIL $name: no such test script $s" | tee -a "$results"
		continue
	fi
	before=$(grep -c '^FAIL ' "$results")
	cases=$(grep -c '^[A-Z]* ' "$results")
	start=$(date +%s)
	E2E_RESULTS=$results bash "$s" </dev/null
	rc=$?
	after=$(grep -c '^FAIL ' "$results")
	if [ "$rc" != 0 ] && [ "$after" = "$before" ]; then
		echo "FAIL $name: the script exited $rc without reporting a failed case" |
			tee -a "$results"
	elif [ "$(grep -c '^[A-Z]* ' "$results")" = "$cases" ]; then
		echo "FAIL $name: the script reported no case (a missing tdone?)" | tee -a "$results"
	fi
	echo "  ($name: $(($(date +%s) - start)) s)"
done

pass=$(grep -c '^PASS ' "$results")
fail=$(grep -c '^FAIL ' "$results")
skipped=$(grep -c '^SKIP ' "$results")
if [ "$fail" != 0 ]; then
	echo "failed:"
	grep '^FAIL ' "$results" | sed 's/^/  /'
fi
echo "e2e: $pass passed, $fail failed, $skipped skipped"
[ "$fail" = 0 ]
