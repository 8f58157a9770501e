#!/bin/bash
# tests/e2e/golang.sh - Go layouts against the compiler (Debian's golang-go).
#
# testdata/go/layout.go is built with -gcflags='-N -l' (the types stay in
# the DWARF); run, it prints unsafe.Sizeof/Alignof/Offsetof, and `show
# --format json` on the same binary must say the same.  A func field is 8
# bytes: its subroutine type's DW_AT_byte_size wins (taken as 0 it made a
# false 8-byte hole in front of the next field).  The build uses a private
# cache and no network (GOPROXY=off).
. "$(dirname "$0")/lib.sh"

tcase "build the Go probe"
BIN=$T/layout
if have go; then
	(cd "$T" && HOME=$T GOCACHE=$T/gocache GOPATH=$T/gopath GOPROXY=off GOTOOLCHAIN=local \
		GO111MODULE=off go build -gcflags='-N -l' -o "$BIN" "$TD/go/layout.go") >"$T/go.log" 2>&1 ||
		{ fail "go build failed"; detail "$T/go.log"; }
	[ -x "$BIN" ] && "$BIN" >"$T/facts" || fail "the probe did not run"
else
	fail "go is not installed (golang-go is in TEST_PKGS)"
fi

tcase "func fields are 8 bytes: offsets, sizes as unsafe says"
sf_ok show --format json -t main.T -t main.Handlers "$BIN"
"$PY" "$E2E_ROOT/tests/compare_facts.py" "$T/facts" "$T/out" main.T main.Handlers >"$T/cmp" 2>&1 ||
	{ fail "structfit and go differ"; detail "$T/cmp"; }
# T: A (1 byte), 7 bytes of hole, F and B: the only waste is the hole
assert_eq "$(jget "$T/out" '[m["size"] for m in t("main.T")["members"] if m["name"] == "F"]')" \
	"[$(( $(awk '$1 == "main.T" && $2 == "B" { print $3 }' "$T/facts") - $(awk '$1 == "main.T" && $2 == "F" { print $3 }' "$T/facts") ))]" \
	"size of F (to B's offset)"
assert_eq "$(jget "$T/out" 't("main.T")["sum_holes"]')" \
	"$(( $(awk '$1 == "main.T" && $2 == "F" { print $3 }' "$T/facts") - 1 ))" "T's hole: F's offset minus A's byte"

tcase "no struct of the Go runtime has a 0-byte func member"
sf_ok show --format json "$BIN"
assert_eq "$(jget "$T/out" 'sum(1 for ty in d["types"] for m in ty["members"] if m["type"].startswith("func(") and m["size"] == 0)')" \
	0 "0-byte func members"

tdone
