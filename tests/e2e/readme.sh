#!/bin/bash
# tests/e2e/readme.sh - the README's examples, printed by the tool itself.
#
# Every README code block that starts with "$ structfit ..." (or any "$ "
# command) is a session: tests/readme-examples.py runs its commands, in a
# work directory laid out as the README assumes, and compares the output
# with the block line for line, so the README and the tool cannot drift.
# The work directory holds what the README's commands name:
#   build/example/st_table.o   testdata/example/st_table.c built as `make
#                              run` builds it (gcc -g -O2, relative path)
#   st_table.c, st_table.o     the same source built beside it (the
#                              suggest, fit and patch examples)
#   src/hash.c, build/hash.o,  the "Gate your CI" project
#   structfit.budget           (testdata/readme/src/hash.c, and the budget
#                              block of the README itself)
#   yjit                       testdata/rust/yjit.rs built with rustc -g, as
#                              tests/e2e/rust.sh builds it
#   rust/yjit.rs               its source (the Rust patch example)
#   tmpl/                      testdata/tmplpatch (the C++ patch example,
#                              a class template built there with g++): a
#                              link to a copy beside W, so that the C
#                              example's source root (W) holds only the
#                              C files it counts (the walk skips links)
#   cxx/                       testdata/cxxpatch, while doc/patch.md's
#                              sessions run (its C++ example; elsewhere its
#                              headers would count among the C files)
# A block that cannot be reproduced carries <!-- readme-test: skip WHY -->.
. "$(dirname "$0")/lib.sh"

README=$E2E_ROOT/README.md
W=$T/w
BIN=$T/bin
mkdir -p "$W/build/example" "$W/testdata/example" "$W/src" "$BIN"
# `structfit` and `./structfit` stand for the tool under test
printf '#!/bin/sh\nexec "%s" "$@"\n' "$SF" >"$BIN/structfit"
chmod +x "$BIN/structfit"
cp "$BIN/structfit" "$W/structfit"
cp "$TD/example/st_table.c" "$W/testdata/example/st_table.c"
cp "$TD/example/st_table.c" "$W/st_table.c"
cp "$TD/readme/src/hash.c" "$W/src/hash.c"
mkdir -p "$W/rust"
cp "$TD/rust/yjit.rs" "$W/rust/yjit.rs"
mkdir -p "$T/tmpl"
cp "$TD"/tmplpatch/* "$T/tmpl/"
ln -s "$T/tmpl" "$W/tmpl"

tcase "the README's example inputs build"
(cd "$W" && gcc -g -O2 -c -o build/example/st_table.o testdata/example/st_table.c &&
	gcc -g -O2 -c -o st_table.o st_table.c &&
	gcc -g -c -o build/hash.o src/hash.c) 2>"$T/cc.err" ||
	fail "gcc cannot build the README's inputs: $(head -n 2 "$T/cc.err" | tr '\n' ' ')"
# the Rust section's program (testdata/rust/yjit.rs), as tests/e2e/rust.sh builds it
RUSTC_BIN=$(find_rustc) || fail "no rustc (Debian's rustc is in TEST_PKGS)"
[ -z "${RUSTC_BIN:-}" ] || rust_build "$RUSTC_BIN" "$TD/rust/yjit.rs" "$W/yjit" yjit ||
	{ fail "rustc failed on testdata/rust/yjit.rs"; detail "$T/rustc.log"; }
"$PY" "$E2E_ROOT/tests/readme-examples.py" "$README" --budget >"$W/structfit.budget" ||
	fail "the README has no '# structfit.budget' block"

tcase "every README session prints what the README shows"
"$PY" "$E2E_ROOT/tests/readme-examples.py" "$README" "$W" "$BIN" >"$T/sessions" 2>&1 ||
	fail "$(grep -c '^fail' "$T/sessions") of $(grep -c '^\(ok\|fail\)' "$T/sessions") sessions differ: $(grep '^fail' "$T/sessions" | head -n 3 | tr '\n' ' ')"
failed && detail "$T/sessions"

# the user's guide stays a guide; the rest is in doc/, its examples run too
tcase "README.md is at most 500 lines"
n=$(wc -l <"$README"); [ "$n" -le 500 ] || fail "README.md has $n lines (at most 500)"

for doc in "$E2E_ROOT"/doc/*.md; do
	tcase "every session of doc/$(basename "$doc") prints what it shows"
	[ "$(basename "$doc")" = patch.md ] && mkdir -p "$W/cxx" && cp "$TD"/cxxpatch/* "$W/cxx/"
	"$PY" "$E2E_ROOT/tests/readme-examples.py" "$doc" "$W" "$BIN" >"$T/doc-sessions" 2>&1
	st=$?
	rm -rf "$W/cxx"
	# a doc without a session exits 1 with nothing run: that is fine here
	if grep -q '^fail' "$T/doc-sessions"; then
		fail "$(grep -c '^fail' "$T/doc-sessions") sessions differ: $(grep '^fail' "$T/doc-sessions" | head -n 3 | tr '\n' ' ')"
		detail "$T/doc-sessions"
	elif [ "$st" != 0 ] && grep -q '^ok' "$T/doc-sessions"; then
		fail "readme-examples.py exited $st: $(tail -n 2 "$T/doc-sessions" | tr '\n' ' ')"
	fi
done

tcase "every doc/*.md the README links to exists, and each is linked"
for doc in $(grep -o '](doc/[a-z-]*\.md)' "$README" | sed 's/^](//; s/)$//' | sort -u); do
	[ -f "$E2E_ROOT/$doc" ] || fail "README links to $doc, which does not exist"
done
for doc in "$E2E_ROOT"/doc/*.md; do
	grep -q "](doc/$(basename "$doc"))" "$README" || fail "doc/$(basename "$doc") is not linked from the README"
done
# the sessions the README must keep (a rename that loses one fails here)
for want in "structfit show -t st_table" "structfit holes" "structfit suggest" \
	"structfit fit" "structfit classes" "structfit check --budget" "structfit patch"; do
	grep -q "^ok [0-9]* .*$want" "$T/sessions" || fail "no passing README session runs '$want'"
done

tcase "the README's --format github line is what check prints"
"$PY" "$E2E_ROOT/tests/readme-examples.py" "$README" --quoted '::error file=' >"$T/quoted" ||
	fail "the README quotes no ::error line"
(cd "$W" && "$SF" check --budget structfit.budget --format github --source-root . build/hash.o) >"$T/gh" 2>"$T/err"
while IFS= read -r line; do
	grep -qxF -- "$line" "$T/gh" || fail "README's '$line' is not in check --format github's output"
done <"$T/quoted"

tcase "doc/st_table-map.png's page names no build-machine path"
# doc/make-st_table-map.sh makes the README's picture; its page must show
# the paths a user's checkout has, relative, never this machine's
if sh "$E2E_ROOT/doc/make-st_table-map.sh" --html "$T/map.html" 2>"$T/err"; then
	assert_eq "$(grep -o 'declared at <code>[^<]*</code> in <code>[^<]*</code>' "$T/map.html")" \
		"declared at <code>testdata/example/st_table.c:$(grep -n '^struct st_table {' "$TD/example/st_table.c" | cut -d: -f1)</code> in <code>build/example/st_table.o</code>" \
		"declared at ... in ..."
	assert_no_grep "$T/map.html" "$T" "the temp dir"
	assert_no_grep "$T/map.html" "$E2E_ROOT" "the checkout"
else
	fail "doc/make-st_table-map.sh --html failed: $(head -n 2 "$T/err")"
fi

tcase "a README session that drifts is caught (the test can fail)"
# the same harness over a README whose expected output is one byte off
sed 's/size: 48, cachelines: 1, members: 9/size: 47, cachelines: 1, members: 9/' "$README" >"$T/README.drift"
if "$PY" "$E2E_ROOT/tests/readme-examples.py" "$T/README.drift" "$W" "$BIN" >"$T/drift" 2>&1; then
	fail "a README with a wrong size still passed"
fi
assert_match "$(grep '^fail' "$T/drift" | head -n 1)" "^fail [0-9]+ \./structfit show -t st_table" "the drifted session"

tdone
