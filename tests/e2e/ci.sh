#!/bin/bash
# tests/e2e/ci.sh - the CI path end to end, as the README shows it.
#
# A git repository in a temp dir, reached through a symlink (a CI runner's
# workspace often is), holds the README's "Gate your CI" project
# (testdata/readme/src/hash.c) and the README's own budget block; the
# README's GitHub Actions and GitLab commands are taken from its YAML blocks
# and run as written, with $GITHUB_WORKSPACE / $CI_PROJECT_DIR set to the
# symlinked $PWD.  The oracle for every path is git's: the file's
# repository-relative name as `git ls-files` prints it; for lines, grep -n
# on the source.  SARIF is validated against the SARIF 2.1.0 JSON Schema
# (npm's @microsoft/jest-sarif ships it; ajv validates; tests/npm-deps.sh).
# Then the rest of the CI items: documents on exit 2, FIFOs, decimal
# numbers, budget comments, Markdown, diff's CI formats, --baseline, and
# the small ones (help, --write-budget -, --budget -, empty budgets,
# grammar, holes' variants).
. "$(dirname "$0")/lib.sh"

README=$E2E_ROOT/README.md
SCHEMA=${NPM_DIR:-$E2E_ROOT/build/npm}/sarif-2.1.0-rtm.5.json
export NODE_PATH=${NPM_DIR:-$E2E_ROOT/build/npm}/node_modules

# sarif_valid FILE...: validated against the SARIF 2.1.0 schema
sarif_valid() {
	node "$E2E_ROOT/tests/validate-json.js" "$SCHEMA" "$@" >"$T/valid" 2>&1 && return 0
	fail "not valid SARIF 2.1.0: $(grep -v ': ok$' "$T/valid" | head -n 3 | tr '\n' ' ')"
}

# xml_ok FILE: well-formed XML
xml_ok() {
	"$PY" -S -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$1" 2>"$T/xml.err" && return 0
	fail "$1 is not well-formed XML: $(head -c 200 "$T/xml.err")"
}

tcase "setup: npm's SARIF schema and validator, the repository, three builds"
sh "$E2E_ROOT/tests/npm-deps.sh" 2>"$T/npm.err" || fail "$(cat "$T/npm.err")"
mkdir -p "$T/real/proj/src" "$T/real/proj/build" "$T/real/proj/build-phys" "$T/real/proj/build-rel"
ln -s "$T/real" "$T/link"
REPO=$T/link/proj           # the symlinked workspace
cp "$TD/readme/src/hash.c" "$REPO/src/hash.c"
"$PY" "$E2E_ROOT/tests/readme-examples.py" "$README" --budget >"$REPO/structfit.budget" ||
	fail "the README has no budget block"
(cd "$REPO" && git init -q . && git add src/hash.c structfit.budget &&
	git -c user.name=t -c user.email=t@t commit -qm init) >"$T/git.err" 2>&1 ||
	fail "git: $(head -n 2 "$T/git.err" | tr '\n' ' ')"
# build/: from the symlinked $PWD with an absolute path, as a CI job does;
# build-phys/: from the real path; build-rel/: a relative path
(cd "$REPO" && gcc -g -c "$PWD/src/hash.c" -o build/hash.o &&
	cd "$(pwd -P)" && gcc -g -c "$PWD/src/hash.c" -o build-phys/hash.o &&
	gcc -g -c src/hash.c -o build-rel/hash.o) 2>"$T/cc.err" ||
	fail "gcc: $(head -n 2 "$T/cc.err" | tr '\n' ' ')"
REL=$(cd "$REPO" && git ls-files --full-name src/hash.c)
L_TABLE=$(grep -n '^struct st_table {' "$REPO/src/hash.c" | cut -d: -f1)
L_RHASH=$(grep -n '^struct RHash {' "$REPO/src/hash.c" | cut -d: -f1)
assert_eq "$REL" "src/hash.c" "git's name of the source"
# the build really names the symlinked path (else the case below proves less)
strings -a "$REPO/build/hash.o" | grep -qF "$T/link/proj" ||
	fail "gcc did not record the symlinked path in build/hash.o"
"$PY" "$E2E_ROOT/tests/readme-examples.py" "$README" --yaml-commands >"$T/yaml" ||
	fail "no structfit command in the README's YAML"
GH_CMD=$(grep -- '--format github' "$T/yaml")
JU_CMD=$(grep -- '--format junit' "$T/yaml")
assert_match "$GH_CMD" '--source-root "\$GITHUB_WORKSPACE"' "the GitHub step"
assert_match "$JU_CMD" '--source-root "\$CI_PROJECT_DIR"' "the GitLab step"

# the README's command, run as written in the symlinked workspace
in_repo() { # CMD (a shell command line) -> $T/out, $T/err, $RC
	RC=0
	(cd "$REPO" && PATH="$T/bin:$PATH" GITHUB_WORKSPACE=$PWD CI_PROJECT_DIR=$PWD \
		timeout 60 bash -c "$1") >"$T/out" 2>"$T/err" || RC=$?
}
mkdir -p "$T/bin"
printf '#!/bin/sh\nexec "%s" "$@"\n' "$SF" >"$T/bin/structfit"
chmod +x "$T/bin/structfit"

tcase "README GitHub Actions step: annotations name repo-relative paths"
in_repo "$GH_CMD"
assert_eq "$RC" 1 "exit status (two rules broken)"
assert_eq "$(grep -c '^::error ' "$T/out")" 2 "annotations"
assert_eq "$(grep '^::error ' "$T/out" | sed 's/.*file=\([^,]*\),line=\([0-9]*\),.*/\1:\2/' | tr '\n' ' ')" \
	"$REL:$L_TABLE $REL:$L_RHASH " "file=,line= of each annotation"

tcase "README code-scanning step: SARIF relative to SRCROOT, schema-valid"
in_repo "${GH_CMD/--format github/--format sarif} > structfit.sarif"
assert_eq "$RC" 1 "exit status"
cp "$REPO/structfit.sarif" "$T/s.sarif"
sarif_valid "$T/s.sarif"
assert_eq "$(jget "$T/s.sarif" '[r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in d["runs"][0]["results"]]')" \
	"[\"$REL\", \"$REL\"]" "result uris"
assert_eq "$(jget "$T/s.sarif" 'sorted({r["locations"][0]["physicalLocation"]["artifactLocation"].get("uriBaseId") for r in d["runs"][0]["results"]})')" \
	'["SRCROOT"]' "uriBaseId"
assert_eq "$(jget "$T/s.sarif" 'd["runs"][0]["originalUriBaseIds"]["SRCROOT"]["uri"]')" \
	"file://$(cd "$REPO" && pwd -P)/" "SRCROOT is the workspace's real path"
assert_eq "$(jget "$T/s.sarif" 'd["runs"][0]["invocations"][0]["executionSuccessful"]')" true "executionSuccessful"
# the budget rule (related location) is the repository's file too, even
# when the budget was named by an absolute path
in_repo "structfit check --budget \"\$PWD/structfit.budget\" --format sarif --source-root . build/ > abs.sarif"
cp "$REPO/abs.sarif" "$T/abs.sarif"
sarif_valid "$T/abs.sarif"
assert_eq "$(jget "$T/abs.sarif" 'sorted({(l["physicalLocation"]["artifactLocation"]["uri"], l["physicalLocation"]["artifactLocation"].get("uriBaseId")) for r in d["runs"][0]["results"] for l in r["relatedLocations"]})')" \
	"[[\"$(cd "$REPO" && git ls-files structfit.budget)\", \"SRCROOT\"]]" "the budget rule's location"

tcase "README GitLab step: JUnit declared at repo-relative paths"
in_repo "$JU_CMD"
assert_eq "$RC" 1 "exit status"
cp "$REPO/structfit-junit.xml" "$T/j.xml"
xml_ok "$T/j.xml"
assert_eq "$(grep -o 'declared at [^ )]*' "$T/j.xml" | sort -u | tr '\n' ' ')" \
	"$(printf 'declared at %s\n' "$REL:$L_TABLE" "$REL:$L_RHASH" | sort -u | tr '\n' ' ')" "declared at"
assert_no_grep "$T/j.xml" "$T/" "no absolute path"

tcase "--source-root . ./ DIR/. symlinked and real \$PWD, on three builds"
bad=""
for b in build build-phys build-rel; do
	for root in . ./ "\$PWD/." "\$PWD" "\$PWD/" "\$(pwd -P)" "\$(pwd -P)/."; do
		in_repo "structfit check --budget structfit.budget --format github --source-root $root $b/"
		got=$(grep '^::error ' "$T/out" | sed 's/.*file=\([^,]*\),.*/\1/' | sort -u | tr '\n' ' ')
		[ "$got" = "$REL " ] || bad="$bad [$b $root: '$got']"
	done
done
[ -z "$bad" ] || fail "paths not repo-relative:$bad"

tcase "a path outside --source-root stays absolute, normalised"
mkdir -p "$T/elsewhere"
in_repo "structfit check --budget structfit.budget --format github --source-root $T/elsewhere build/"
assert_eq "$(grep '^::error ' "$T/out" | sed 's/.*file=\([^,]*\),.*/\1/' | sort -u)" \
	"$REPO/src/hash.c" "absolute path as recorded"
in_repo "structfit check --budget structfit.budget --source-root $T/nosuch build/"
assert_eq "$RC" 2 "a missing root is an error"
assert_match "$(cat "$T/err")" "^structfit: $T/nosuch: source root: No such file or directory$" "its message"

tcase "show, holes, diff: ./a/../b/h.h shown normalised, and relative with --source-root"
mkdir -p "$T/norm"
cp -r "$TD/ci/a" "$TD/ci/b" "$T/norm/"
(cd "$T/norm" && gcc -g -c ./a/x.c -o x.o && sed 's/long l;/long l; int extra;/' b/h.h >b/h2.h &&
	sed 's|b/h.h|b/h2.h|' a/x.c >a/y.c && gcc -g -c ./a/y.c -o y.o) 2>"$T/cc.err" ||
	fail "gcc: $(head -n 2 "$T/cc.err")"
readelf --debug-dump=line "$T/norm/x.o" 2>/dev/null | grep -q '\./a/\.\./b' ||
	fail "gcc did not record ./a/../b (the case would prove nothing)"
want=$("$PY" -S -c 'import os,sys; print(os.path.normpath(sys.argv[1]))' "$T/norm/./a/../b/h.h")
L_NORM=$(grep -n '^struct norm {' "$T/norm/b/h.h" | cut -d: -f1)
sf_ok show --format json -t norm "$T/norm/x.o"
assert_eq "$(jget "$T/out" 't("norm")["decl_file"]')" "$want" "show JSON decl_file"
sf_ok holes "$T/norm/x.o"
assert_eq "$(awk 'NR == 2 { print $NF }' "$T/out")" "$want:$L_NORM" "holes declared"
sf_ok holes --source-root "$T/norm/." "$T/norm/x.o"
assert_eq "$(awk 'NR == 2 { print $NF }' "$T/out")" "b/h.h:$L_NORM" "holes --source-root"
sf_ok show -t norm --source-root "$T/norm" --format json "$T/norm/x.o"
assert_eq "$(jget "$T/out" 't("norm")["decl_file"]')" "b/h.h" "show --source-root"
sf_ok diff --source-root "$T/norm" "$T/norm/x.o" "$T/norm/y.o"
assert_match "$(head -n 1 "$T/out")" "^struct norm: 16 -> 24 bytes \(\+8\)  b/h2\.h:$L_NORM$" "diff header"

tcase "machine formats on exit 2 carry the error (check: a bad budget)"
printf 'struct st_table  size <== 48\n' >"$T/bad.budget"
for fmt in sarif junit json github markdown; do
	sf check --budget "$T/bad.budget" --format "$fmt" "$REPO/build/hash.o"
	assert_eq "$RC" 2 "$fmt: exit status"
	assert_eq "$(wc -l <"$T/err")" 1 "$fmt: one line on stderr"
	cp "$T/out" "$T/err-doc.$fmt"
done
msg=$(sed 's/^structfit: //' "$T/err")
assert_match "$msg" "^$T/bad\.budget:1:[0-9]+: " "the message names the budget line"
sarif_valid "$T/err-doc.sarif"
assert_eq "$(jget "$T/err-doc.sarif" 'd["runs"][0]["invocations"][0]["executionSuccessful"]')" false "SARIF executionSuccessful"
assert_eq "$(jget "$T/err-doc.sarif" 'd["runs"][0]["invocations"][0]["toolExecutionNotifications"][0]["message"]["text"]')" "$msg" "SARIF notification"
assert_eq "$(jget "$T/err-doc.sarif" 'd["runs"][0]["invocations"][0]["toolExecutionNotifications"][0]["locations"][0]["physicalLocation"]["region"]["startLine"]')" 1 "SARIF notification line"
xml_ok "$T/err-doc.junit"
assert_eq "$("$PY" -S -c 'import sys, xml.dom.minidom as m; e = m.parse(sys.argv[1]).getElementsByTagName("error"); print(len(e), e[0].getAttribute("message"))' "$T/err-doc.junit")" "1 $msg" "JUnit <error>"
assert_eq "$(jget "$T/err-doc.json" '[d["schema"], d["command"], d["error"]["file"], d["error"]["line"]]')" "[\"structfit/1\", \"check\", \"$T/bad.budget\", 1]" "JSON error"
schema_ok "$T/err-doc.json"
assert_match "$(jget "$T/err-doc.json" 'd["error"]["message"]')" "^bad operator '<=='" "JSON error message"
assert_match "$(cat "$T/err-doc.github")" "^::error file=$T/bad\.budget,line=1,col=[0-9]+,title=structfit check::" "GitHub annotation"
assert_grep "$T/err-doc.markdown" "| file | problem |" "Markdown table"
sf check --budget "$T/bad.budget" --format text "$REPO/build/hash.o"
assert_eq "$(wc -c <"$T/out")" 0 "text writes nothing on stdout"

tcase "machine formats on exit 2: an unreadable input (check junit, diff sarif/json)"
sf check --budget "$REPO/structfit.budget" --format junit "$T/nosuch.o"
assert_eq "$RC" 2 "check exit status"
xml_ok "$T/out"
assert_grep "$T/out" "nosuch.o: cannot open" "JUnit names the input"
sf diff --format sarif "$REPO/build/hash.o" "$T/nosuch.o"
assert_eq "$RC" 2 "diff exit status"
cp "$T/out" "$T/diff-err.sarif"
sarif_valid "$T/diff-err.sarif"
assert_eq "$(jget "$T/diff-err.sarif" 'd["runs"][0]["invocations"][0]["executionSuccessful"]')" false "diff SARIF"
sf diff --format json "$REPO/build/hash.o" "$T/nosuch.o"
assert_eq "$(jget "$T/out" 'd["error"]["file"]')" "$T/nosuch.o" "diff JSON error file"

tcase "every command's --format json on exit 2 is a document carrying the error"
for args in "show -t nosuch" "holes --limit 0" "suggest -t nosuch" "fit -t nosuch --classes 64" \
	"diff $T/nosuch.o" "check --budget $T/bad.budget"; do
	# shellcheck disable=SC2086
	sf ${args%% *} --format json ${args#* } "$REPO/build/hash.o"
	assert_eq "$RC" 2 "$args: exit status"
	assert_eq "$(wc -l <"$T/err")" 1 "$args: one line on stderr"
	want=$(sed 's/^structfit: //' "$T/err")
	# "FILE:LINE:COL: message" put back together from the document's fields
	got=$(jget "$T/out" '":".join(str(d["error"][k]) for k in ("file", "line", "column") if d["error"].get(k) is not None) + (": " if d["error"]["file"] else "") + d["error"]["message"] if d.get("schema") == "structfit/1" and sorted(d) == ["command", "error", "schema"] else "bad shape"')
	assert_eq "$got" "$want" "$args: the document carries stderr's message"
	assert_eq "$(jget "$T/out" 'd["command"]')" "${args%% *}" "$args: command"
	schema_ok "$T/out"
done
sf classes --format json bogus
assert_eq "$RC" 2 "classes: exit status"
assert_eq "$(jget "$T/out" '[d["schema"], d["error"]["file"]]')" '["structfit/1", null]' "classes: an option's error names no file"
for fmt in text html; do
	sf show --format "$fmt" "$T/nosuch.o"
	assert_eq "$RC:$(wc -c <"$T/out")" "2:0" "show --format $fmt writes nothing on stdout"
done

tcase "FIFOs never hang: inputs, diff, --budget, --baseline, patch sources"
mkfifo "$T/fifo"
E2E_TIMEOUT=20
sf show "$T/fifo"
assert_eq "$RC" 2 "show FIFO"
assert_eq "$(cat "$T/err")" "structfit: $T/fifo: not a regular file" "show's message"
sf diff "$T/fifo" "$REPO/build/hash.o"
assert_eq "$RC" 2 "diff FIFO"
sf check --budget "$T/fifo" "$REPO/build/hash.o"
assert_eq "$RC" 2 "check --budget FIFO (no writer: empty)"
sf check --budget "$REPO/structfit.budget" --baseline "$T/fifo" "$REPO/build/hash.o"
assert_eq "$RC" 2 "check --baseline FIFO"
mkdir -p "$T/fsrc"
cp "$TD/example/st_table.c" "$T/fsrc/st_table.c"
(cd "$T/fsrc" && gcc -g -c st_table.c -o st.o && rm st_table.c && mkfifo st_table.c)
cd "$T/fsrc" && run "$SF" patch -t st_table --narrow entries_start=1 st.o
cd "$E2E_ROOT" || exit 1
assert_eq "$RC" 2 "patch with a FIFO for its source"
E2E_TIMEOUT=300

tcase "numbers are decimal: --limit 010, --min-waste 08, budget 0100"
gcc -g -c "$TD/ci/numbers.c" -o "$T/num.o" 2>"$T/cc.err" || fail "gcc: $(head -n 2 "$T/cc.err")"
sf_ok holes --limit 10 "$T/num.o"
cp "$T/out" "$T/l10"
sf_ok holes --limit 010 "$T/num.o"
assert_eq "$(cat "$T/out")" "$(cat "$T/l10")" "--limit 010 is --limit 10"
assert_eq "$(($(wc -l <"$T/out") - 1))" 10 "rows"
sf_ok holes --min-waste 8 "$T/num.o"
cp "$T/out" "$T/m8"
sf_ok holes --min-waste 08 "$T/num.o"
assert_eq "$(cat "$T/out")" "$(cat "$T/m8")" "--min-waste 08 is --min-waste 8"
assert_eq "$(awk 'NR > 1 && $1 < 8' "$T/out" | wc -l)" 0 "no row under 8"
sf holes --limit 0 "$T/num.o"
assert_eq "$RC" 2 "--limit 0 is refused"
sf holes --limit 0x10 "$T/num.o"
assert_eq "$RC" 2 "--limit 0x10 is refused (decimal only)"
size72=$(printf '#include <stdio.h>\n#include "%s"\nint main(void){printf("%%zu",sizeof(struct big72));return 0;}\n' "$TD/ci/numbers.c" |
	gcc -x c -o "$T/probe" - 2>/dev/null && "$T/probe")
assert_eq "$size72" 72 "the compiler's sizeof(struct big72)"
printf 'struct big72 size <= 0100\n' >"$T/oct.budget"
sf check --budget "$T/oct.budget" "$T/num.o"
assert_eq "$RC" 0 "0100 is a hundred (octal 64 would fail 72)"

tcase "--help and --version to a full disk: exit 2 with errno's text"
enospc=$("$PY" -S -c 'import errno, os; print(os.strerror(errno.ENOSPC))')
for args in "--help" "--version" "show --help" "check --help" "help options" "help diff"; do
	# shellcheck disable=SC2086
	RC=0; "$SF" $args >/dev/full 2>"$T/err" || RC=$?
	assert_eq "$RC" 2 "'$args' exit status"
	assert_eq "$(cat "$T/err")" "structfit: error writing the output: $enospc" "'$args' message"
done

tcase "budget comments stay out of the rule text (JSON, JUnit, SARIF, Markdown)"
cat >"$T/c.budget" <<'B'
struct st_table size <= 48   # one < two, a comment with <= and # inside
*   hole_bytes <= 16  # no struct hides more than 16 bytes
B
for fmt in json junit sarif markdown; do
	sf check --budget "$T/c.budget" --format "$fmt" "$REPO/build/hash.o"
	assert_eq "$RC" 1 "$fmt: exit status"
	assert_no_grep "$T/out" "comment" "$fmt"
	assert_no_grep "$T/out" "hides" "$fmt"
	cp "$T/out" "$T/c.$fmt"
done
assert_eq "$(jget "$T/c.json" '[r["rule"] for r in d["rules"]]')" '["struct st_table size <= 48", "* hole_bytes <= 16"]' "JSON rule text"
assert_grep "$T/c.junit" "name=\"$T/c.budget:2: * hole_bytes &lt;= 16\"" "JUnit case name"

tcase "check --format markdown: one table row per failure"
sf check --budget "$REPO/structfit.budget" --source-root "$REPO" --format markdown "$REPO/build/hash.o"
assert_eq "$RC" 1 "exit status"
cp "$T/out" "$T/md"
sf check --budget "$REPO/structfit.budget" --source-root "$REPO" --format json "$REPO/build/hash.o"
nf=$(jget "$T/out" 'd["summary"]["failures"]')
assert_eq "$(grep -c "^| \`$REPO/structfit.budget:[0-9]*\` |" "$T/md")" "$nf" "rows"
assert_eq "$(grep -c "| \`$REL:[0-9]*\` |$" "$T/md")" "$nf" "declared column, repo-relative"
assert_match "$(tail -n 1 "$T/md")" "2 of 7 rules broken" "summary line"

tcase "diff --format markdown|github|sarif agree with diff's JSON"
gcc -g -c "$TD/diff/before.c" -o "$T/before.o" && gcc -g -c "$TD/diff/after.c" -o "$T/after.o" ||
	fail "gcc cannot build testdata/diff"
sf_ok diff --format json "$T/before.o" "$T/after.o"
cp "$T/out" "$T/d.json"
n=$(jget "$T/d.json" 'len(d["changed"]) + len(d["added"]) + len(d["removed"])')
grown=$(jget "$T/d.json" 'len([x for x in d["changed"] if x["growth"] > 0])')
sf_ok diff --format markdown "$T/before.o" "$T/after.o"
assert_eq "$(grep -c '^| `' "$T/out")" "$n" "markdown rows"
sf_ok diff --format github "$T/before.o" "$T/after.o"
assert_eq "$(grep -c '^::warning ' "$T/out")" "$grown" "github warnings (grown types)"
assert_eq "$(grep -c '^::\(warning\|notice\) ' "$T/out")" "$n" "github annotations"
sf diff --format github --fail-on-growth "$T/before.o" "$T/after.o"
assert_eq "$RC" 1 "--fail-on-growth exit status"
assert_eq "$(grep -c '^::error ' "$T/out")" "$grown" "growth is an error with --fail-on-growth"
sf_ok diff --format sarif --source-root "$TD/diff" "$T/before.o" "$T/after.o"
cp "$T/out" "$T/d.sarif"
sarif_valid "$T/d.sarif"
assert_eq "$(jget "$T/d.sarif" 'len(d["runs"][0]["results"])')" "$n" "SARIF results"
assert_eq "$(jget "$T/d.sarif" 'sorted({l["physicalLocation"]["artifactLocation"]["uri"] for r in d["runs"][0]["results"] for l in r.get("locations", [])})')" \
	'["after.c"]' "SARIF uris relative to --source-root"

tcase "Markdown code spans keep a C++ type name as written (<, >, no entity)"
printf 'template <int N> struct box { char c; long v[N]; };\nbox<%s> b;\n' 1 >"$T/t1.cpp"
printf 'template <int N> struct box { char c; long v[N]; int extra; };\nbox<%s> b;\n' 1 >"$T/t2.cpp"
g++ -g -c "$T/t1.cpp" -o "$T/t1.o" && g++ -g -c "$T/t2.cpp" -o "$T/t2.o" || fail "g++ cannot build the template"
sf_ok diff --format json "$T/t1.o" "$T/t2.o"
name=$(jget "$T/out" 'd["changed"][0]["kind"] + " " + d["changed"][0]["name"]')
assert_match "$name" "box<1>" "the name diff's JSON gives"
sf_ok diff --format markdown "$T/t1.o" "$T/t2.o"
assert_grep "$T/out" "| \`$name\` | grew |" "the row names it verbatim in a code span"
assert_no_grep "$T/out" "&lt;" "no HTML entity inside code"

tcase "completion offers exactly the formats check and diff accept"
for cmd in check diff; do
	sf_ok "$cmd" --help
	usage_formats=$(sed -n "s/.*--format \([a-z|]*\).*/\1/p" "$T/out" | head -n 1 | tr '|' '\n' | sort | tr '\n' ' ')
	completed=$(bash -c '. "$1"; COMP_WORDS=(structfit "$2" --format ""); COMP_CWORD=3; _structfit; printf "%s\n" "${COMPREPLY[@]}"' \
		_ "$E2E_ROOT/contrib/structfit.bash-completion" "$cmd" | sort | tr '\n' ' ')
	assert_eq "$completed" "$usage_formats" "$cmd --format completion"
	for f in $usage_formats; do
		sf "$cmd" --format "$f" --help
		assert_eq "$RC" 0 "$cmd --format $f is accepted"
	done
done

tcase "check --baseline fails only on what grew or newly broke"
sed 's/^\tst_index_t \*bins;$/\tst_index_t *bins, *more;/' "$REPO/src/hash.c" >"$T/grown.c"
grep -q 'more;' "$T/grown.c" || fail "could not grow st_table"
gcc -g -c "$T/grown.c" -o "$T/grown.o" 2>/dev/null || fail "gcc cannot build the grown table"
printf 'struct st_table  size <= 48\nstruct rb_shape  hole_bytes == 0\n' >"$T/base.budget"
sf check --budget "$T/base.budget" "$REPO/build/hash.o"
assert_eq "$RC" 1 "without a baseline: broken"
sf check --budget "$T/base.budget" --baseline "$REPO/build-phys/hash.o" "$REPO/build/hash.o"
assert_eq "$RC" 0 "same build as the baseline: nothing new"
assert_match "$(cat "$T/out")" ", 1 failure already in the baseline \(not counted\)$" "summary says what it left out"
sf check --budget "$T/base.budget" --baseline "$REPO/build/hash.o" "$T/grown.o"
assert_eq "$RC" 1 "st_table grew since the baseline"
assert_match "$(head -n 1 "$T/out")" "struct st_table: size is 64, budget says size <= 48" "the growth is reported"
sf check --budget "$T/base.budget" --baseline "$T/grown.o" "$REPO/build/hash.o"
assert_eq "$RC" 0 "shrank since the baseline: passes"
printf 'struct st_table  size <= 48\nstruct robj  size <= 8\nstruct nosuch_in_base size <= 1 optional\n' >"$T/new.budget"
sf check --budget "$T/new.budget" --baseline "$REPO/build/hash.o" "$REPO/build/hash.o"
assert_eq "$RC" 0 "robj broken in both: not new"
printf 'struct st_table  size <= 48\nstruct rb_ivar  size <= 8\n' >"$T/new2.budget"
sf check --budget "$T/new2.budget" --baseline "$T/norm/x.o" "$REPO/build/hash.o"
assert_eq "$RC" 1 "types missing from the baseline break as new"

tcase "help nosuch exits 2; --write-budget - and --budget -; empty budgets"
sf help nosuch
assert_eq "$RC" 2 "help nosuch"
assert_eq "$(cat "$T/err")" "structfit: help: 'nosuch' is not a structfit command; see 'structfit --help'" "its message"
cd "$T" && run "$SF" check --write-budget - "$REPO/build/hash.o"
cd "$E2E_ROOT" || exit 1
assert_eq "$RC" 0 "--write-budget - exit status"
cp "$T/out" "$T/pinned.stdout"
[ ! -e "$T/-" ] || fail "--write-budget - made a file named '-'"
sf_ok check --write-budget "$T/pinned.budget" "$REPO/build/hash.o"
assert_eq "$(cat "$T/pinned.stdout")" "$(cat "$T/pinned.budget")" "stdout is the budget the file gets"
RC=0; "$SF" check --budget - "$REPO/build/hash.o" <"$T/pinned.budget" >"$T/out" 2>"$T/err" || RC=$?
assert_eq "$RC" 0 "--budget - reads stdin"
assert_match "$(cat "$T/out")" "^<stdin>: all [0-9]+ rules hold" "stdin budget summary"
: >"$T/empty.budget"
printf '# only a comment\n\n' >"$T/comment.budget"
for b in empty comment; do
	sf check --budget "$T/$b.budget" "$REPO/build/hash.o"
	assert_eq "$RC" 2 "$b budget"
	assert_match "$(cat "$T/err")" "^structfit: $T/$b\.budget: no rules" "$b budget message"
done

tcase "grammar: the rule holds (1 check)"
printf 'struct st_table size <= 4096\n' >"$T/one.budget"
sf check --budget "$T/one.budget" "$REPO/build/hash.o"
assert_eq "$(cat "$T/out")" "$T/one.budget: the rule holds (1 check)" "one rule"
printf 'struct st_table size <= 4096\nstruct robj size <= 4096\n' >"$T/two.budget"
sf check --budget "$T/two.budget" "$REPO/build/hash.o"
assert_eq "$(cat "$T/out")" "$T/two.budget: all 2 rules hold (2 checks)" "two rules"

tcase "holes marks differing definitions of one name, as show does"
gcc -g -c "$TD/e2e/variant_a.c" -o "$T/va.o" && gcc -g -c "$TD/e2e/variant_b.c" -o "$T/vb.o" ||
	fail "gcc cannot build testdata/e2e/variant_*.c"
sf_ok show -t conflict "$T/va.o" "$T/vb.o"
nshow=$(grep -c 'one of several differing definitions' "$T/out")
sf_ok holes --min-waste 0 "$T/va.o" "$T/vb.o"
assert_eq "$(grep ' struct conflict ' "$T/out" | grep -c '(one of several differing definitions of this name)$')" "$nshow" "marked rows"
assert_eq "$nshow" 2 "show marks both"
assert_eq "$(grep -v ' struct conflict ' "$T/out" | grep -c 'differing')" 0 "no other row marked"

tdone
