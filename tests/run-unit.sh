#!/bin/sh
# Run every cmocka unit test binary given; fail if any fails.
fail=0; n=0
for t in "$@"; do
	n=$((n + 1))
	"$t" || { echo "FAILED: $t" >&2; fail=$((fail + 1)); }
done
echo "unit: $((n - fail)) passed, $fail failed"
[ "$fail" = 0 ]
