#!/bin/bash
# tests/e2e/abi.sh - public ABI and wire formats: holes, suggest and patch
# say when a layout is others' too, patch refuses it, and --under /
# --exclude-system filter by where a type is declared.
#
# testdata/projects/abi is copied to $T/proj and built there as a project
# is: its own include/ (api_opts), a header installed into a temp prefix
# and found with -I PREFIX/include (inst_cfg), a packed wire header
# (wire_hdr), a private struct (priv_state), and <stdio.h>/<time.h>.
# The expected verdict for each type is computed here from where its
# declaring file really is (realpath against the project's include/, the
# prefix, and the compiler's own search list from `gcc -E -v`) and, for
# packed, from the compiler: offsetof(len) below its _Alignof.
. "$(dirname "$0")/lib.sh"

P=$T/proj
PREFIX=$T/prefix

# run_in DIR CMD...: run CMD in DIR ($T/out, $T/err, $RC).
run_in() {
	local dir=$1
	shift
	RC=0
	(cd "$dir" && timeout --kill-after=10 "$E2E_TIMEOUT" "$@") >"$T/out" 2>"$T/err" || RC=$?
}

tcase "setup: the project built against an installed header"
cp -r "$TD/projects/abi" "$P"
install -D -m 644 "$P/inst/inst.h" "$PREFIX/include/inst.h"
if (cd "$P" && gcc -g -O0 -Iinclude -I"$PREFIX/include" -o prog src/main.c) 2>"$T/cc.err"; then
	:
else
	fail "the project does not build: $(head -n 2 "$T/cc.err" | tr '\n' ' ')"
fi
# the compiler's <...> search list: its system directories
echo | gcc -E -v -x c - 2>&1 >/dev/null |
	sed -n '/#include <...> search starts here/,/End of search list/p' |
	sed -n 's/^ //p' >"$T/sysdirs"
assert_ne "$(wc -l <"$T/sysdirs")" 0 "gcc's search list"
# packed, by the compiler: wire_hdr.len sits below its alignment
printf '#include <stddef.h>\n#include "%s/src/wire.h"\nchar sf_probe[offsetof(struct wire_hdr, len) %% _Alignof(uint64_t) + 1];\n' \
	"$P" >"$T/probe.c"
if gcc -c -o "$T/probe.o" "$T/probe.c" 2>"$T/cc.err"; then
	MISALIGN=$(readelf -sW "$T/probe.o" | awk '$8 == "sf_probe" { print $3 - 1 }')
	assert_ne "$MISALIGN" 0 "wire_hdr.len misaligned (packed)"
else
	fail "probe: $(head -n 1 "$T/cc.err")"
fi
[ -x "$P/prog" ] || { tdone; exit; }

# expect JSON ROOT: "name public" for every type of a holes JSON document,
# public computed from where its declaring file is (ROOT: what paths are
# relative to, or "" when absolute).
expect() {
	"$PY" - "$1" "$2" "$P" "$PREFIX" "$T/sysdirs" <<'PYEOF'
import json, os, sys
d = json.load(open(sys.argv[1]))
root, proj, prefix = sys.argv[2], sys.argv[3], sys.argv[4]
sysdirs = [os.path.realpath(l.strip()) for l in open(sys.argv[5]) if l.strip()]
real = lambda p: os.path.realpath(p)
for t in d["types"]:
    f = t["decl_file"]
    path = real(os.path.join(root, f) if root and not f.startswith("/") else f)
    if t["name"] == "wire_hdr":
        want = "packed"
    elif any(path.startswith(s + "/") for s in sysdirs):
        want = "installed"
    elif path.startswith(real(prefix) + "/include/"):
        want = "installed"
    elif path.startswith(real(proj) + "/include/"):
        want = "include"
    else:
        want = None
    print(t["name"], want, t["public"])
PYEOF
}

# verdicts: the lines of expect whose two verdicts differ (none expected).
verdicts_agree() {
	awk '$2 != $3 && !($2 == "None" && $3 == "None")' "$T/verdicts" >"$T/verdicts.bad"
	assert_eq "$(wc -l <"$T/verdicts.bad")" 0 "types whose public verdict is wrong"
	detail "$T/verdicts.bad" "name expected got"
}

tcase "holes --format json: public for the project's include/, the prefix, packed, system"
sf_ok holes --min-waste 0 --format json --source-root "$P" "$P/prog"
schema_ok "$T/out"
cp "$T/out" "$T/holes.json"
expect "$T/holes.json" "$P" >"$T/verdicts"
verdicts_agree
for n in api_opts inst_cfg wire_hdr priv_state tm _IO_FILE; do
	assert_eq "$(awk -v n="$n" '$1 == n' "$T/verdicts" | wc -l)" 1 "$n in the ranking"
done

tcase "holes without --source-root: relative to the build's directory (comp dir)"
sf_ok holes --min-waste 0 --format json "$P/prog"
expect "$T/out" "" >"$T/verdicts"
verdicts_agree
assert_eq "$(jget "$T/out" 't("api_opts")["public"]')" include "api_opts"

tcase "holes text: a public column, one word per type"
sf_ok holes --min-waste 0 --source-root "$P" "$P/prog"
assert_match "$(head -n 1 "$T/out")" ' public +type ' "header"
assert_match "$(grep 'struct api_opts' "$T/out")" ' include +struct api_opts ' "api_opts"
assert_match "$(grep 'struct inst_cfg' "$T/out")" ' installed +struct inst_cfg ' "inst_cfg"
assert_match "$(grep 'struct wire_hdr' "$T/out")" ' packed +struct wire_hdr ' "wire_hdr"
assert_match "$(grep 'struct priv_state' "$T/out")" ' - +struct priv_state ' "priv_state"

tcase "holes --format html: each public type marked"
sf_ok holes --min-waste 0 --format html --source-root "$P" "$P/prog"
assert_grep "$T/out" 'data-name="api_opts" data-public="include"' "api_opts row"
assert_grep "$T/out" 'data-name="wire_hdr" data-public="packed"' "wire_hdr row"
assert_no_grep "$T/out" 'data-name="priv_state" data-public' "priv_state row"

tcase "holes --under DIR: only the types declared below it, however DIR is spelt"
"$PY" -S -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join(sorted(t["name"] for t in d["types"] if t["decl_file"].startswith("src/"))))' \
	"$T/holes.json" >"$T/want.src"
assert_eq "$(cat "$T/want.src")" "priv_state wire_hdr" "src/ types (from the unfiltered ranking)"
for spelling in src src/ ./src "$P/src"; do
	run_in "$P" "$SF" holes --min-waste 0 --format json --source-root . --under "$spelling" prog
	assert_eq "$RC" 0 "--under $spelling: exit"
	assert_eq "$(jget "$T/out" '" ".join(sorted(x["name"] for x in d["types"]))')" \
		"$(cat "$T/want.src")" "--under $spelling"
done
# without --source-root (absolute paths), and two directories
sf_ok holes --min-waste 0 --format json --under "$P/src" --under "$P/include" "$P/prog"
assert_eq "$(jget "$T/out" '" ".join(sorted(x["name"] for x in d["types"]))')" \
	"api_opts priv_state wire_hdr" "--under src --under include, absolute"
# through a symlink to the project
ln -s "$P" "$T/link"
sf_ok holes --min-waste 0 --format json --under "$T/link/include" "$P/prog"
assert_eq "$(jget "$T/out" 'names()')" '["api_opts"]' "--under through a symlink"

tcase "holes --exclude-system: no type from /usr/include or gcc's dirs, the prefix's kept"
sf_ok holes --min-waste 0 --format json --exclude-system "$P/prog"
"$PY" -S - "$T/out" "$T/sysdirs" >"$T/sys.bad" <<'PYEOF'
import json, os, sys
d = json.load(open(sys.argv[1]))
sysdirs = [os.path.realpath(l.strip()) for l in open(sys.argv[2]) if l.strip()]
for t in d["types"]:
    p = os.path.realpath(t["decl_file"])
    if any(p.startswith(s + "/") for s in sysdirs):
        print(t["name"], p)
PYEOF
assert_eq "$(wc -l <"$T/sys.bad")" 0 "system types left"
detail "$T/sys.bad"
assert_eq "$(jget "$T/out" '" ".join(sorted(x["name"] for x in d["types"]))')" \
	"api_opts inst_cfg priv_state wire_hdr" "what is left"
# what it dropped are exactly the unfiltered ranking's system types
assert_eq "$(jget "$T/holes.json" 'len(d["types"])')" \
	"$(( $(jget "$T/out" 'len(d["types"])') + $(awk '$2 == "installed" && $1 != "inst_cfg"' "$T/verdicts" | wc -l) ))" \
	"dropped = the system types"

tcase "holes --under: a missing DIR and a filter that leaves nothing are said (exit 2)"
sf holes --under "$P/nosuch" "$P/prog"
assert_eq "$RC" 2 "missing DIR: exit"
assert_eq "$(wc -l <"$T/err")" 1 "one line"
assert_grep "$T/err" "--under $P/nosuch" "names the option and DIR"
assert_eq "$(wc -c <"$T/out")" 0 "nothing on stdout"
mkdir -p "$P/empty"
sf holes --under "$P/empty" "$P/prog"
assert_eq "$RC" 2 "empty result: exit"
assert_grep "$T/err" "every type is declared outside --under $P/empty" "says why"

tcase "suggest: public types say so (text, JSON, HTML), a private one does not"
for n in api_opts:include inst_cfg:installed wire_hdr:packed priv_state:None; do
	name=${n%%:*} want=${n#*:}
	sf_ok suggest -t "$name" --format json "$P/prog"
	schema_ok "$T/out"
	assert_eq "$(jget "$T/out" 'str(d["public"])')" "$want" "$name: JSON public"
	sf_ok suggest -t "$name" "$P/prog"
	if [ "$want" = None ]; then
		assert_no_grep "$T/out" "public" "$name: text"
	elif [ "$want" = packed ]; then
		assert_grep "$T/out" "public format: it is packed" "$name: text"
	else
		assert_grep "$T/out" "public ABI: its header is" "$name: text"
	fi
done
sf_ok suggest -t api_opts --format html "$P/prog"
assert_grep "$T/out" 'data-public="include"' "HTML verdict"
assert_grep "$T/out" "Public ABI: its header is in the project's include/" "HTML words"

tcase "suggest --under / --exclude-system pick the definition, or say it is elsewhere"
sf suggest -t api_opts --under "$P/src" "$P/prog"
assert_eq "$RC" 2 "api_opts outside src: exit"
assert_grep "$T/err" "type 'api_opts' is declared only outside --under $P/src" "message"
sf suggest -t tm --exclude-system "$P/prog"
assert_eq "$RC" 2 "struct tm with --exclude-system: exit"
sf_ok suggest -t priv_state --under "$P/src" --exclude-system "$P/prog"

tcase "patch refuses a public type, names why, writes nothing; --allow-abi-change patches it"
cp "$P/include/abi/api.h" "$T/api.h.orig"
run_in "$P" "$SF" patch -t api_opts --apply prog
assert_eq "$RC" 2 "api_opts: exit"
assert_eq "$(wc -l <"$T/err")" 1 "one line"
assert_grep "$T/err" "public ABI: its header is in the project's include/ directory" "why"
assert_grep "$T/err" "--allow-abi-change" "the way out"
cmp -s "$P/include/abi/api.h" "$T/api.h.orig" || fail "api.h was modified"
run_in "$P" "$SF" patch -t wire_hdr prog
assert_eq "$RC" 2 "wire_hdr: exit"
assert_grep "$T/err" "public format: it is packed" "wire_hdr: why"
run_in "$P" "$SF" patch -t inst_cfg prog
assert_eq "$RC" 2 "inst_cfg: exit"
assert_grep "$T/err" "its header is installed" "inst_cfg: why"
# the promised size, by the compiler, after --allow-abi-change --apply
sf_ok suggest -t api_opts --format json "$P/prog"
PROMISED=$(jget "$T/out" 'd["reorder"]["size"]')
run_in "$P" "$SF" patch -t api_opts --allow-abi-change --apply prog
assert_eq "$RC" 0 "--allow-abi-change: exit ($(head -c 200 "$T/err"))"
printf '#include "%s/include/abi/api.h"\nchar sf_probe[sizeof(struct api_opts)];\n' "$P" >"$T/probe2.c"
if gcc -c -o "$T/probe2.o" "$T/probe2.c" 2>"$T/cc.err"; then
	assert_eq "$(readelf -sW "$T/probe2.o" | awk '$8 == "sf_probe" { print $3 }')" \
		"$PROMISED" "sizeof after the patch (suggest's size)"
else
	fail "patched api.h does not compile: $(head -n 1 "$T/cc.err")"
fi
# a private struct is patched without the option
run_in "$P" "$SF" patch -t priv_state prog
assert_eq "$RC" 0 "priv_state: exit"
assert_grep "$T/out" "+++ b/src/priv.h" "priv_state's diff"

tdone
