#!/bin/bash
# tests/e2e/live.sh - counts of live instances: --counts FILE, --slabinfo,
# --slab-map, and holes ranking by live_waste (instances x waste).
#
# A slabinfo file is written here in the kernel's format 2.1 (the header
# line copied from mm/slab_common.c's print_slabinfo_header) over the
# DWARF of testdata/live/kern.c, whose structs are named as the kernel's
# caches name them.  The live_waste figures are checked by arithmetic on
# holes' JSON (live x waste, live = the cache's active_objs).  A last case
# reads the running kernel's BTF and /proc/slabinfo, skipped where the host
# has neither.
. "$(dirname "$0")/lib.sh"

need gcc || { tdone; exit; }
OBJ=$T/kern.o
gcc -g -c -o "$OBJ" "$TD/live/kern.c" || fail "gcc cannot build testdata/live/kern.c"

SLAB=$T/slabinfo
{
	echo "slabinfo - version: 2.1"
	echo "# name            <active_objs> <num_objs> <objsize> <objperslab> <pagesperslab> : tunables <limit> <batchcount> <sharedfactor> : slabdata <active_slabs> <num_slabs> <sharedavail>"
	line() { printf '%-17s %6s %6s %6s %4s %4s : tunables    0    0    0 : slabdata %6s %6s      0\n' "$@"; }
	line ext4_inode_cache 215255 215306 1128 14 4 15379 15379
	line dentry 310000 310016 32 128 1 2422 2422
	line buffer_head 50000 50016 16 256 1 196 196
	line foo_cachep 1000 1024 24 170 1 6 6
	line bar_cache 3000 3072 16 256 1 12 12
	line filp 7000 7168 16 256 1 28 28
	line big 100 128 64 64 1 2 2
	line small 200 256 512 8 1 32 32
	line kmalloc-64 9024 9024 64 64 1 141 141
	line dma-kmalloc-64 0 0 64 64 1 0 0
	line mystery_cache 10 10 128 32 1 1 1
} >"$SLAB"

# field TYPE KEY: holes JSON's KEY of struct TYPE ("" when absent)
field() {
	"$PY" -S -c '
import json, sys
d = json.load(open(sys.argv[1]))
for t in d["types"]:
    if t["name"] == sys.argv[2]:
        print(t.get(sys.argv[3], ""))' "$T/out" "$1" "$2"
}

tcase "each matching rule: by name, X_cache(p) -> X, X_cache -> X_info, --slab-map"
sf_ok holes --slabinfo="$SLAB" --slab-map filp=file -f json "$OBJ"
assert_eq "$(field dentry slab_cache)" dentry "dentry by its name"
assert_eq "$(field buffer_head slab_cache)" buffer_head "buffer_head by its name"
assert_eq "$(field foo slab_cache)" foo_cachep "foo_cachep -> foo"
assert_eq "$(field bar slab_cache)" bar_cache "bar_cache -> bar"
assert_eq "$(field ext4_inode_info slab_cache)" ext4_inode_cache \
	"ext4_inode_cache -> ext4_inode_info (ext4_inode cannot fill 1128 bytes)"
assert_eq "$(field file slab_cache)" filp "--slab-map filp=file"
assert_eq "$(field file live)" 7000 "filp's active_objs"

tcase "live_waste = active_objs x waste, for every counted type"
sf_ok holes --slabinfo="$SLAB" --slab-map filp=file -f json "$OBJ"
"$PY" -S - "$T/out" "$SLAB" >"$T/arith" <<'PYEOF' || fail "$(cat "$T/arith")"
import json, sys
active = {}
for line in open(sys.argv[2]):
    w = line.split()
    if w[0] not in ("slabinfo", "#"):
        active[w[0]] = int(w[1])
n = 0
for t in json.load(open(sys.argv[1]))["types"]:
    if "live" not in t:
        continue
    n += 1
    assert t["live"] == active[t["slab_cache"]], t
    assert t["live_waste"] == t["live"] * t["waste"], t
assert n == 6, n
# ext4_inode_info: 215,255 objects x 7 bytes
print([t for t in json.load(open(sys.argv[1]))["types"] if t["name"] == "ext4_inode_info"][0]["live_waste"])
PYEOF
assert_eq "$(cat "$T/arith")" 1506785 "ext4_inode_info: 215255 x 7"

tcase "ranking: by live_waste, then the types with no count as without counts"
sf_ok holes --slabinfo="$SLAB" --slab-map filp=file "$OBJ"
order=$(awk 'NR > 1 { for (i = 1; i <= NF; i++) if ($i == "struct") { print $(i + 1); break } }' "$T/out" | tr '\n' ' ')
# dentry 310000x11, ext4_inode_info 215255x7, buffer_head 50000x7, filp 7000x4,
# bar 3000x4, foo 1000x7; then bts_ctx 14, big 7, small 7 (per instance)
assert_eq "$order" "dentry ext4_inode_info buffer_head file bar foo bts_ctx big small " "order"
assert_grep "$T/out" "3410000  310000     11" "dentry's live_waste, live and waste"
assert_grep "$T/out" "      -       -     14" "bts_ctx: no count"

tcase "rejected by size: a cache too small, a cache too large; kmalloc never matched"
sf_ok holes --slabinfo="$SLAB" "$OBJ"
assert_grep "$T/err" "structfit: $SLAB: 11 caches: 5 matched a struct, 2 kmalloc size classes (no type), 2 with no struct of their name, 2 rejected by size (--verbose lists them)" "the one stderr line"
sf_ok holes --slabinfo="$SLAB" --verbose "$OBJ"
assert_grep "$T/err" "slab big ($SLAB:9): struct big (88 bytes, by its name) rejected: objsize 64 cannot hold it" "big"
assert_grep "$T/err" "slab small ($SLAB:10): struct small (16 bytes, by its name) rejected: objsize 512 is more than its alignment and SLUB's free pointer explain (at most 64)" "small"
assert_grep "$T/err" "slab kmalloc-64 ($SLAB:11): a kmalloc size class" "kmalloc-64"
assert_grep "$T/err" "slab dma-kmalloc-64 ($SLAB:12): a kmalloc size class" "dma-kmalloc-64"
assert_grep "$T/err" "slab filp ($SLAB:8): no struct of its name (--slab-map filp=TYPE names one)" "filp without a map"
assert_grep "$T/err" "slab mystery_cache ($SLAB:13): no struct of its name" "mystery_cache"
sf_ok holes --slabinfo="$SLAB" --slab-map big=small -f json "$OBJ"
assert_eq "$(field big live)" "" "big is not counted"

tcase "--reorderable adds live_saves = live x saves"
sf_ok holes --slabinfo="$SLAB" --reorderable -f json "$OBJ"
"$PY" -S -c '
import json, sys
ts = [t for t in json.load(open(sys.argv[1]))["types"] if "live" in t]
assert ts, "no counted type"
for t in ts:
    assert t["live_saves"] == t["live"] * t["reorder_saved"], t
print(ts[0]["name"], ts[0]["live_saves"])' "$T/out" >"$T/saves" || fail "$(cat "$T/saves")"
assert_eq "$(cat "$T/saves")" "dentry 2480000" "dentry: 310000 x 8"

tcase "bad slabinfo and counts files: file:line, exit 2"
printf 'slabinfo - version: 2.0\n' >"$T/old"
assert_exit 2 "version 2.0" "$SF" holes --slabinfo="$T/old" "$OBJ"
assert_grep "$T/err" "structfit: $T/old:1: slabinfo version 2.0; only 2.1 is read" "message"
{ head -2 "$SLAB"; echo "dentry 1 2 notanumber 4 1 : tunables 0 0 0 : slabdata 0 0 0"; } >"$T/bad"
assert_exit 2 "a bad line" "$SF" holes --slabinfo="$T/bad" "$OBJ"
assert_grep "$T/err" "structfit: $T/bad:3: objsize 'notanumber' is not a number" "message"
printf 'dentry 99999999999999999999\n' >"$T/c1"
assert_exit 2 "a count past 64 bits" "$SF" holes --counts "$T/c1" "$OBJ"
assert_grep "$T/err" "structfit: $T/c1:1: count '99999999999999999999' is past 2^64-1" "message"
printf '# none\nno_such_struct 4\n' >"$T/c2"
assert_exit 2 "an unknown type" "$SF" holes --counts "$T/c2" "$OBJ"
assert_grep "$T/err" "structfit: $T/c2:2: type 'no_such_struct' not found in the inputs" "message"
assert_exit 2 "a missing file" "$SF" holes --counts "$T/nope" "$OBJ"
assert_grep "$T/err" "structfit: --counts $T/nope: No such file or directory" "message"
assert_exit 2 "--slab-map without =" "$SF" holes --slab-map filp "$OBJ"
assert_grep "$T/err" "--slab-map: 'filp' is not CACHE=TYPE" "message"

tcase "--counts on the example: st_table 1000000 -> live_waste = 1,000,000 x waste"
gcc -g -c -o "$T/st.o" "$TD/example/st_table.c" || fail "gcc cannot build the example"
printf '# a million hashes\nst_table 1000000\n' >"$T/counts"
sf_ok holes --counts "$T/counts" -f json "$T/st.o"
w=$(field st_table waste)
assert_eq "$(field st_table live)" 1000000 "live"
assert_eq "$(field st_table live_waste)" "$((1000000 * w))" "live_waste = 1000000 x $w"
sf_ok holes --counts "$T/counts" "$T/st.o"
assert_match "$(sed -n 2p "$T/out")" "^ *$((1000000 * w)) +1000000 +$w .*struct st_table" "first row"
sf_ok holes --counts "$T/counts" -f html "$T/st.o"
assert_grep "$T/out" "most bytes wasted in live instances first" "html heading"
assert_grep "$T/out" "<td>$((1000000 * w))</td><td>1000000</td>" "html cells"

# ------------------------------------------------ the allocator's unit: suggest, fit
gcc -g -c -o "$T/slab.o" "$TD/live/slab.c" || fail "gcc cannot build testdata/live/slab.c"
SLAB2=$T/slabinfo2
{
	head -2 "$SLAB"
	line() { printf '%-17s %6s %6s %6s %4s %4s : tunables    0    0    0 : slabdata %6s %6s      0\n' "$@"; }
	line xfs_inode 215255 215264 1096 14 4 15376 15376
	line kcursor 1000 1020 32 128 1 8 8
} >"$SLAB2"

tcase "suggest --slabinfo: objects per slab before and after each proposal, by arithmetic"
sf_ok suggest -t xfs_inode --slabinfo="$SLAB2" -f json "$T/slab.o"
schema_ok "$T/out"
# SLUB: slot = round_up(round_up(sizeof, 8) + extra, 8), extra = objsize -
# sizeof = 8 (its free pointer); per slab = 4 x 4096 / slot
"$PY" -S - "$T/out" >"$T/arith" <<'PYEOF' || fail "$(cat "$T/arith")"
import json, sys
d = json.load(open(sys.argv[1]))
size, objsize, active, pages = d["size"], 1096, 215255, 4
extra = objsize - (size + 7) // 8 * 8
slot = lambda s: (s + 7) // 8 * 8 + extra
per = lambda s: pages * 4096 // slot(s)
slabs = lambda s: -(-active // per(s))
h = d["live"]
assert (h["count"], h["slab_cache"], h["slot_extra"], h["slot_align"]) == (active, "xfs_inode", 8, 8), h
assert h["per_slab"] == per(size) == 14 and h["model_agrees"], h
assert h["slabs"] == slabs(size), h
nw = d["narrowings"][0]
s = nw["live"]
assert nw["member"] == "i_cache_start" and nw["size"] == 1080, nw
assert (s["per_slab_before"], s["per_slab"]) == (per(size), per(nw["size"])) == (14, 15), s
assert s["fewer_slabs"] == slabs(size) - slabs(nw["size"]), s
# the next step: the largest sizeof giving 16 per slab
nxt = max(x for x in range(8, 2000) if per(x) >= 16)
assert s["next_size"] == nxt and h["next_size"] == max(x for x in range(8, 2000) if per(x) >= 15), (s, h)
print(s["fewer_slabs"], nxt)
PYEOF
assert_eq "$(cat "$T/arith")" "1025 1016" "1,025 fewer slabs; <= 1,016 bytes for 16"
sf_ok suggest -t xfs_inode --slabinfo="$SLAB2" "$T/slab.o"
assert_grep "$T/out" "live: 215,255 objects in slab xfs_inode (objsize 1,096: 14 per 4-page slab, 15,376 slabs, 240.2 MiB); <= 1,080 bytes for 15" "the head"
assert_grep "$T/out" "     xfs_inode: 14 -> 15 per 4-page slab: 1,025 fewer slabs (16.0 MiB) at 215,255 objects; <= 1,016 bytes for 16" "the narrowing's step"
assert_eq "$(cat "$T/err")" "" "nothing on stderr: the type was counted"
sf_ok suggest -t xfs_inode --slabinfo="$SLAB2" -f html "$T/slab.o"
assert_grep "$T/out" "xfs_inode: 14 -&gt; 15 per 4-page slab: 1,025 fewer slabs" "html carries it"

tcase "suggest: a pointer named cursor is a design change, ranked after the counter"
sf_ok suggest -t kcursor --slabinfo="$SLAB2" -f json "$T/slab.o"
assert_eq "$(jget "$T/out" '[(n["member"], n["role"], n["live"]["per_slab"]) for n in d["narrowings"]]')" \
	'[["hits", "plain", 170], ["cursor", "design", 170]]' "hits first; 4096 / (16 + 8) = 170 per slab"

tcase "suggest --slabinfo: a type no cache holds says so on stderr, no live figures"
sf_ok suggest -t st_table --slabinfo="$SLAB2" "$T/st.o"
assert_grep "$T/err" "structfit: struct st_table has no count in --slabinfo $SLAB2 (no cache matched it): no live figures" "stderr"
assert_no_grep "$T/out" "^live:" "no live line"

tcase "suggest --counts with --classes: the bytes at the count in size classes"
sf_ok suggest -t st_table --counts "$T/counts" -k 64,80 -H 24 -f json "$T/st.o"
schema_ok "$T/out"
assert_eq "$(jget "$T/out" '[d["live"]["bytes"], d["live"]["class"]] + [[n["live"]["class"], n["live"]["bytes"], n["live"]["fewer_bytes"]] for n in d["narrowings"]][0]')" \
	"[$((1000000 * 80)), 80, 64, $((1000000 * 64)), $((1000000 * 16))]" "1,000,000 x class 80 -> 64"
sf_ok suggest -t st_table --counts "$T/counts" -k 64,80 -H 24 "$T/st.o"
assert_grep "$T/out" "     at 1,000,000 instances: class 80 -> 64, 80,000,000 -> 64,000,000 bytes (15.3 MiB fewer)" "text"

tcase "fit with counts and a preset; fit --slabinfo on one type"
sf_ok fit -t st_table -k ruby-3.3 -o 24 --counts "$T/counts" -n entries_start=1 --reorder -f json "$T/st.o"
schema_ok "$T/out"
# ruby-3.3: 48 + 24 = 72 -> 80 before, 40 + 24 = 64 -> 80 after: no byte fewer
assert_eq "$(jget "$T/out" '[d["count"], d["live"]["bytes"], d["live_candidate"]["bytes"], d["live_candidate"]["fewer_bytes"]]')" \
	"[1000000, $((1000000 * 80)), $((1000000 * 80)), 0]" "ruby-3.3: 80 either way"
sf_ok fit -t st_table -k jemalloc -o 24 --counts "$T/counts" -n entries_start=1 --reorder "$T/st.o"
# jemalloc: 72 -> 80, 64 -> 64
assert_grep "$T/out" "at 1,000,000 instances: class 80 -> 64, 80,000,000 -> 64,000,000 bytes (15.3 MiB fewer)" "jemalloc: 80 -> 64"
sf_ok fit -t xfs_inode -k kmalloc --slabinfo="$SLAB2" -n i_cache_start=2 --reorder -f json "$T/slab.o"
schema_ok "$T/out"
assert_eq "$(jget "$T/out" '[d["size"], d["live_candidate"]["per_slab_before"], d["live_candidate"]["per_slab"], d["live_candidate"]["fewer_slabs"]]')" \
	"[1080, 14, 15, 1025]" "1080 bytes: 14 -> 15 per slab"
assert_exit 2 "--count with --counts" "$SF" fit -t st_table -k ruby-3.3 -N 5 --counts "$T/counts" "$T/st.o"
assert_grep "$T/err" "fit: --count and --counts/--slabinfo both give the instances; give one" "message"

# ------------------------------------------------ budgets on live_waste
tcase "check --slabinfo: a live_waste budget, by arithmetic on holes' numbers"
cat >"$T/live.budget" <<'EOF'
struct dentry   live_waste <= 1000000
*               live_waste <= 3000000
struct bts_ctx  live_waste == 0   # no cache: none alive
EOF
sf_ok holes --slabinfo="$SLAB" -m 0 -f json "$OBJ"
dw=$(field dentry live_waste)
assert_eq "$dw" "$((310000 * 11))" "dentry: 310,000 x 11"
assert_exit 1 "dentry broken twice" "$SF" check --budget "$T/live.budget" --slabinfo="$SLAB" "$OBJ"
assert_grep "$T/out" "$T/live.budget:1: struct dentry: live_waste is $dw, budget says live_waste <= 1000000" "rule 1"
assert_grep "$T/out" "$T/live.budget:2: struct dentry: live_waste is $dw, budget says live_waste <= 3000000" "rule 2: only dentry passes 3,000,000"
assert_grep "$T/out" "2 of 3 rules broken (2 failures" "the summary"
sf check --budget "$T/live.budget" --slabinfo="$SLAB" -f json "$OBJ"
schema_ok "$T/out"
assert_eq "$(jget "$T/out" '[(f["name"], f["property"], f["value"]) for r in d["rules"] for f in r["failures"]]')" \
	"[[\"dentry\", \"live_waste\", $dw], [\"dentry\", \"live_waste\", $dw]]" "JSON failures"
sf check --budget "$T/live.budget" --slabinfo="$SLAB" -f sarif "$OBJ"
assert_eq "$(jget "$T/out" '[r["ruleId"] for r in d["runs"][0]["results"]]')" \
	'["budget-live_waste", "budget-live_waste"]' "SARIF rule ids"

tcase "check --counts on the example: live_waste = 1,000,000 x waste; --baseline; without counts"
w=$(gcc -g -c -o "$T/st2.o" "$TD/example/st_table.c" && "$SF" holes --counts "$T/counts" -f json "$T/st2.o" |
	"$PY" -S -c 'import json,sys; print([t["waste"] for t in json.load(sys.stdin)["types"] if t["name"] == "st_table"][0])')
printf 'struct st_table live_waste <= %s\n' "$((1000000 * w))" >"$T/st.budget"
sf_ok check --budget "$T/st.budget" --counts "$T/counts" "$T/st2.o"
printf 'struct st_table live_waste < %s\n' "$((1000000 * w))" >"$T/st.budget"
assert_exit 1 "one less: broken" "$SF" check --budget "$T/st.budget" --counts "$T/counts" "$T/st2.o"
assert_grep "$T/out" "struct st_table: live_waste is $((1000000 * w))" "the value"
sf_ok check --budget "$T/st.budget" --counts "$T/counts" --baseline "$T/st2.o" "$T/st2.o"
assert_exit 2 "live_waste without counts" "$SF" check --budget "$T/st.budget" "$T/st2.o"
assert_grep "$T/err" "structfit: $T/st.budget:1:17: live_waste needs the instances alive: give --counts FILE or --slabinfo[=FILE]" "message"
assert_exit 2 "counts with --write-budget" "$SF" check --write-budget - --counts "$T/counts" "$T/st2.o"

tcase "the running kernel: /sys/kernel/btf/vmlinux and /proc/slabinfo"
if [ ! -r /sys/kernel/btf/vmlinux ]; then
	skip "the host has no /sys/kernel/btf/vmlinux (CONFIG_DEBUG_INFO_BTF)"
elif ! head -c 1 /proc/slabinfo >/dev/null 2>&1; then
	skip "/proc/slabinfo is not readable here (it needs root)"
else
	# -m 0: the kernel's struct dentry may waste nothing
	sf_ok holes --slabinfo -m 0 -f json /sys/kernel/btf/vmlinux
	assert_match "$(cat "$T/err")" "^structfit: /proc/slabinfo: [0-9]+ caches: [1-9][0-9]* matched a struct" "summary"
	assert_eq "$(field dentry slab_cache)" dentry "struct dentry from the dentry cache"
	assert_match "$(field dentry live)" "^[1-9][0-9]*$" "dentries alive"
	assert_eq "$(field kmalloc-64 live)" "" "no kmalloc type"
	# suggest: SLUB's slot rule gives the kernel's own objperslab for dentry
	sf_ok suggest -t dentry --slabinfo -f json /sys/kernel/btf/vmlinux
	per=$(awk '$1 == "dentry" { print $5; exit }' /proc/slabinfo)
	assert_eq "$(jget "$T/out" '[d["live"]["model_agrees"], d["live"]["per_slab"]]')" \
		"[true, $per]" "dentry: the model's objects per slab are the kernel's ($per)"
fi

tdone
