#!/bin/bash
# tests/e2e/fortran.sh - Fortran derived types against gfortran.
#
# gfortran puts a module's derived types inside its DW_TAG_module: they
# must be found, named with their module (geo::pt), and laid out as the
# compiler has them.  testdata/fortran/geo.f90, run, prints storage_size
# or c_sizeof and each component's offset (loc(p%x) - loc(p)).
. "$(dirname "$0")/lib.sh"

tcase "build the Fortran probe"
BIN=$T/geo
if have gfortran; then
	(cd "$T" && gfortran -g -o "$BIN" "$TD/fortran/geo.f90") >"$T/fc.log" 2>&1 ||
		{ fail "gfortran failed"; detail "$T/fc.log"; }
	[ -x "$BIN" ] && "$BIN" | sed 's/  */ /g' >"$T/facts" || fail "the probe did not run"
else
	fail "gfortran is not installed (it is in TEST_PKGS)"
fi

tcase "module types found as mod::name, at gfortran's offsets"
sf_ok show --format json -t geo::pt -t geo::cpt "$BIN"
"$PY" "$E2E_ROOT/tests/compare_facts.py" "$T/facts" "$T/out" geo::pt geo::cpt >"$T/cmp" 2>&1 ||
	{ fail "structfit and gfortran differ"; detail "$T/cmp"; }

tcase "module types are listed by holes"
sf_ok holes "$BIN"
assert_grep "$T/out" "geo::pt" "geo::pt in the ranking"

tdone
