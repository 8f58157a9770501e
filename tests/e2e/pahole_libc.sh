#!/bin/bash
# tests/e2e/pahole_libc.sh - structfit against pahole on a real debug file
# no one here wrote: libc.so.6's separate debug file from Debian's
# libc6-dbg (under /usr/lib/debug/.build-id).
#
# pahole FILE (full text) is parsed by tests/compare_pahole.py; for every
# struct both report (matched by name) size, member count, each member's
# offset and size, holes (count, sizes, sum), padding, bit holes and bit
# padding must agree.  Where pahole is wrong, the case is listed in
# EXCEPTIONS below with the reason: those, and only those, are accepted.
. "$(dirname "$0")/lib.sh"

CMP=$E2E_ROOT/tests/compare_pahole.py

# "NAME FIELD REASON": a disagreement on FIELD of NAME where pahole is
# wrong (FIELD as compare_pahole.py names it: size, members, holes,
# nholes, sum_holes, padding, bit_holes, nbit_holes, sum_bit_holes,
# bit_padding, member; "*" for every field).
EXCEPTIONS='
# (none yet: every struct of libc.so.6 agrees)
'

# libc_debug: the separate debug file of libc.so.6 from libc6-dbg.
libc_debug() {
	local lib id f
	for lib in /lib/x86_64-linux-gnu/libc.so.6 /usr/lib/x86_64-linux-gnu/libc.so.6 \
		"/usr/lib/$(gcc -print-multiarch 2>/dev/null)/libc.so.6"; do
		[ -f "$lib" ] || continue
		id=$(readelf -n "$lib" 2>/dev/null | awk '/Build ID:/ { print $3; exit }')
		[ -n "$id" ] || continue
		f=/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug
		[ -f "$f" ] && { echo "$f"; return 0; }
	done
	# else the biggest .debug file libc6-dbg installed
	dpkg -L libc6-dbg 2>/dev/null | grep '\.debug$' | while read -r f; do
		[ -f "$f" ] && echo "$(stat -c %s "$f") $f"
	done | sort -rn | awk 'NR == 1 { print $2 }'
}

tcase "libc.so.6 debug file: every struct agrees with pahole"
DBG=""
if ! have pahole; then
	missing "pahole is not installed (Debian package dwarves)"
elif ! dpkg-query -W -f='${Status}' libc6-dbg 2>/dev/null | grep -q 'ok installed'; then
	missing "libc6-dbg is not installed"
else
	DBG=$(libc_debug)
	if [ -z "$DBG" ]; then
		missing "libc6-dbg installed no .debug file found here"
	fi
fi
if [ -n "$DBG" ]; then
	echo "    input: $DBG ($(($(stat -c %s "$DBG") / 1024)) KiB)"
	printf '%s\n' "$EXCEPTIONS" >"$T/exceptions"
	pahole "$DBG" >"$T/pahole.txt" 2>"$T/pahole.err" ||
		fail "pahole failed: $(head -n 1 "$T/pahole.err")"
	sf_ok show --format json "$DBG"
	cp "$T/out" "$T/sf.json"
	if ! is_json "$T/sf.json"; then
		fail "structfit's output is not JSON"
	else
		"$PY" -S "$CMP" compare "$T/pahole.txt" "$T/sf.json" --exceptions "$T/exceptions" \
			>"$T/cmp" 2>&1 || fail "$(head -n 1 "$T/cmp"): $(grep -m 2 'DISAGREE\|MISSING' "$T/cmp" | tr '\n' ' ')"
		detail "$T/cmp" "compare_pahole.py"
		n=$(awk -F'compared: ' 'NR == 1 { split($2, a, ","); print a[1] }' "$T/cmp")
		[ "${n:-0}" -ge 300 ] || fail "only ${n:-0} structs compared (pahole printed $(grep -c '^struct\|^union' "$T/pahole.txt"))"
	fi
fi

tcase "libc.so.6 debug file: structs named only by a typedef agree with pahole -a"
# pahole's full report leaves out anonymous structs and unions (typedef
# struct {...} NAME); structfit reports them under the typedef's name.
# `pahole -a` includes them (once per compilation unit: compare_pahole.py
# keeps one of each identical definition), so they are compared too.
if [ -z "$DBG" ]; then
	skip "no pahole or no libc6-dbg (see above)"
elif ! is_json "$T/sf.json" 2>/dev/null; then
	skip "no JSON from structfit (see above)"
else
	pahole -a "$DBG" 2>"$T/pahole.err" | awk '
		/^typedef (struct|union) \{$/ { on = 1 }
		on { print }
		/^}/ { on = 0 }' >"$T/pahole-anon.txt"
	"$PY" -S "$CMP" compare "$T/pahole-anon.txt" "$T/sf.json" --exceptions "$T/exceptions" \
		>"$T/cmp-anon" 2>&1 || fail "$(head -n 1 "$T/cmp-anon"): $(grep -m 2 'DISAGREE\|MISSING' "$T/cmp-anon" | tr '\n' ' ')"
	detail "$T/cmp-anon" "compare_pahole.py, typedef-named types of pahole -a"
	n=$(awk -F'compared: ' 'NR == 1 { split($2, a, ","); print a[1] }' "$T/cmp-anon")
	[ "${n:-0}" -ge 50 ] || fail "only ${n:-0} typedef-named types compared"
fi

tcase "libc.so.6 debug file: holes ranking agrees with pahole's waste"
if [ -z "$DBG" ]; then
	skip "no pahole or no libc6-dbg (see above)"
elif [ ! -s "$T/pahole.txt" ]; then
	skip "pahole printed nothing"
else
	sf_ok holes --format json --limit 40 "$DBG"
	cp "$T/out" "$T/holes.json"
	"$PY" -S "$CMP" summary "$T/pahole.txt" |
		awk '$1 == "struct" && $3 != "-" { print $2, $3, $6 + $7 }' >"$T/waste"
	# every entry's waste is pahole's waste for that name (unless structfit
	# reports several definitions of the name), and the first entry wastes
	# as much as the most wasteful struct pahole reports
	"$PY" -S - "$T/holes.json" "$T/waste" "$T/sf.json" >"$T/rank" 2>&1 <<'PYEOF' || fail "$(head -n 3 "$T/rank" | tr '\n' ' ')"
import json, sys
h = json.load(open(sys.argv[1]))["types"]
pw = {}
for line in open(sys.argv[2]):
    n, size, waste = line.split()
    pw[n] = int(waste)
def bare(n):
    return n.split(" ", 1)[1] if n.split(" ", 1)[0] in ("struct", "union", "class") else n
counts = {}
forced = {}
for t in json.load(open(sys.argv[3]))["types"]:
    counts[bare(t["name"])] = counts.get(bare(t["name"]), 0) + 1
    forced[bare(t["name"])] = t.get("forced", 0)
# pahole's holes + padding include what an explicit alignment asked for;
# structfit ranks by the rest and shows those bytes as "forced"
bad = []
if len(h) != 40:
    bad.append("%d entries for --limit 40" % len(h))
for a, b in zip(h, h[1:]):
    if a["waste"] < b["waste"]:
        bad.append("not sorted: %s (%d) before %s (%d)" % (a["name"], a["waste"], b["name"], b["waste"]))
for e in h:
    n = bare(e["name"])
    if n in pw and counts.get(n, 0) == 1 and pw[n] != e["waste"] + e["forced"]:
        bad.append("%s: waste %d + forced %d, pahole %d" % (n, e["waste"], e["forced"], pw[n]))
worst = max([pw[n] - forced.get(n, 0) for n in pw if counts.get(n, 0) == 1] or [0])
if h and h[0]["waste"] < worst:
    bad.append("first entry wastes %d, pahole's worst wastes %d (forced bytes left out)" % (h[0]["waste"], worst))
print("\n".join(bad) if bad else "ok: top %d, worst %s wastes %d" % (len(h), h[0]["name"], h[0]["waste"]))
sys.exit(1 if bad else 0)
PYEOF
	detail "$T/rank"
fi

tdone
