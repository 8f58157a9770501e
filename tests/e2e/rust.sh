#!/bin/bash
# tests/e2e/rust.sh - Rust layouts against the compiler.
#
# testdata/rust/yjit.rs is built with `rustc -g`; run, the binary prints
# size_of, align_of and offset_of! of its types (enum variant fields from
# live values), and `show --format json` on the same binary must say the
# same, field by field, variants included.  rustc 1.95 (rustup's, in
# ~/.cargo/bin, which CI's PATH may not hold) is preferred: Debian's rustc
# 1.63 lacks offset_of!, so for it the probe's `off!` macro is swapped for
# pointer arithmetic on a MaybeUninit value (same numbers, older syntax).
. "$(dirname "$0")/lib.sh"

SRC=$TD/rust/yjit.rs

tcase "build the Rust probe"
RUSTC_BIN=$(find_rustc) || fail "no rustc (Debian's rustc is in TEST_PKGS; rustup's 1.95 is preferred)"
BIN=$T/yjit
if [ -n "${RUSTC_BIN:-}" ]; then
	rust_build "$RUSTC_BIN" "$SRC" "$BIN" yjit ||
		{ fail "rustc failed on $SRC"; detail "$T/rustc.log"; }
	[ -x "$BIN" ] && "$BIN" >"$T/facts" || fail "the probe did not run"
fi

# compare TYPE...: every fact the probe printed for TYPE against show's JSON
compare() {
	local ty args=()
	for ty in "$@"; do args+=(-t "$ty"); done
	sf_ok show --format json "${args[@]}" "$BIN" || return 0
	"$PY" "$E2E_ROOT/tests/compare_facts.py" "$T/facts" "$T/out" "$@" >"$T/cmp" 2>&1 ||
		{ fail "structfit and rustc differ"; detail "$T/cmp"; }
}

tcase "Block: fields in memory order at rustc's offsets"
compare yjit::Block
sf_ok show -t yjit::Block "$BIN"
# the order in memory, as the compiler placed the fields (rustc 1.95: d b e
# c a), with no hole before a
order=$(grep -oE '[a-e];' "$T/out" | tr -d ';\n')
assert_eq "$order" "$(awk '$1 == "yjit::Block" && $2 ~ /^[a-e]$/ { print $3, $2 }' "$T/facts" |
	sort -n | awk '{ printf "%s", $2 }')" "member order"
assert_no_grep "$T/out" "Bitfield combined" "no bit-field talk between plain fields"
assert_no_grep "$T/out" "XXX" "no hole"
assert_grep "$T/out" "/* padding: 5 */" "padding"

tcase "Block: no alignment noise (rustc states every member's alignment)"
sf_ok show -t yjit::Block "$BIN"
assert_no_grep "$T/out" "__aligned__" "aligned attributes"
assert_no_grep "$T/out" "forced alignments" "forced alignments"

tcase "repr(C) Header, repr(align(64)) Slot, Arena: compiler's numbers"
compare yjit::Header yjit::Slot yjit::Arena

tcase "Rust spelling of member types"
sf_ok show -t yjit::Arena -t yjit::Block "$BIN"
assert_grep "$T/out" "[u8; 4] " "array"
assert_grep "$T/out" "&u8 " "reference"
assert_grep "$T/out" "*const u8 " "raw pointer"
assert_grep "$T/out" "alloc::boxed::Box<u64, alloc::alloc::Global> " "Box"
assert_grep "$T/out" "core::option::Option<yjit::CodePtr> " "Option"
assert_grep "$T/out" "struct yjit::Arena {" "the type's own line"

tcase "enums: every variant's fields at rustc's offsets"
compare yjit::Shape "core::option::Option<yjit::CodePtr>" "core::option::Option<yjit::CodePtrNN>"
sf_ok show --format json -t yjit::Shape "$BIN"
schema_ok "$T/out"   # an enum with data: its variants in the one schema
"$PY" - "$T/out" >"$T/chk" 2>&1 <<'PYEOF' || { fail "variants"; detail "$T/chk"; }
import json, sys
t = json.load(open(sys.argv[1]))["types"][0]
names = [v["name"] for v in t["variants"]]
assert names == ["Circle", "Rect", "Empty"], names
assert [v["discr_value"] for v in t["variants"]] == [0, 1, 2]
for v in t["variants"]:
    # each variant's bytes: its members, its holes and padding, nothing else
    used = sum(m["size"] for m in v["members"])
    assert used + v["sum_holes"] + v["padding"] == t["size"], v["name"]
    assert v["waste"] == v["sum_holes"] + v["padding"], v["name"]
# what no variant uses is the enum's waste; each variant's own is the rest
assert t["waste"] == t["sum_holes"] + t["padding"]
for v in t["variants"]:
    assert v["own_waste"] == v["waste"] - t["waste"], v["name"]
PYEOF

tcase "the HTML map draws one row set per variant"
sf_ok show --format json -t yjit::Shape "$BIN"
nv=$(jget "$T/out" 'len(t("yjit::Shape")["variants"])')
sf_ok show --format html -t yjit::Shape "$BIN"
assert_eq "$(grep -o '<h3 class="variant">' "$T/out" | wc -l)" "$nv" "variant headings"
assert_eq "$(grep -o '<svg class="map"' "$T/out" | wc -l)" "$((nv + 1))" "maps: the enum and each variant"

tcase "niche: Option<CodePtrNN> has no tag of its own, Option<CodePtr> has one"
sf_ok show --format json -t "core::option::Option<yjit::CodePtr>" -t "core::option::Option<yjit::CodePtrNN>" "$BIN"
"$PY" - "$T/out" "$T/facts" >"$T/chk" 2>&1 <<'PYEOF' || { fail "niche"; detail "$T/chk"; }
import json, sys
want = {}
for line in open(sys.argv[2]):
    ty, key, val = line.rsplit(None, 2)
    want[(ty, key)] = int(val)
for t in json.load(open(sys.argv[1]))["types"]:
    inner = t["name"][len("core::option::Option<"):-1]
    # the compiler's word: the Option costs nothing when it is a niche
    niche = want[(t["name"], "size")] == want[(inner, "size")]
    assert t["niche"] == niche, (t["name"], t["niche"], niche)
    default = [v for v in t["variants"] if v["discr_value"] is None]
    assert bool(default) == niche, t["name"]
PYEOF
sf_ok show -t "core::option::Option<yjit::CodePtrNN>" "$BIN"
assert_grep "$T/out" "enum core::option::Option<yjit::CodePtrNN> {" "shown as an enum"
assert_grep "$T/out" "niche-encoded discriminant" "said to be a niche"
assert_grep "$T/out" "/* variant Some (any other discriminant)" "the default variant"

tcase "-t takes a glob over Rust paths, and says when it matches nothing"
sf_ok show -t 'yjit::*' "$BIN"
# every type the source declares (module yjit: the crate's name)
assert_eq "$(grep -oE '^(struct|enum) yjit::[A-Za-z]+' "$T/out" | sed 's/yjit:://' | sort | tr '\n' ' ')" \
	"$(grep -oE '^pub (struct|enum) [A-Za-z]+' "$SRC" | sed 's/^pub //' | sort | tr '\n' ' ')" \
	"the yjit types"
# JSON's kind is the keyword the text gives each type (an enum is an enum)
grep -oE '^(struct|enum) [^ ]+' "$T/out" | sort >"$T/kinds.txt"
sf_ok show --format json -t 'yjit::*' "$BIN"
schema_ok "$T/out"
jget "$T/out" '"\n".join(sorted(t["kind"] + " " + t["name"] for t in d["types"]))' >"$T/kinds.json"
assert_eq "$(cat "$T/kinds.json")" "$(cat "$T/kinds.txt")" "JSON kinds, the text's keywords"
assert_grep "$T/kinds.json" "enum yjit::Shape" "Shape is an enum"
assert_exit 2 "a glob matching nothing" "$SF" show -t 'nope::*' "$BIN"
assert_grep "$T/err" "'nope::*' not found" "the message"

tcase "budgets and fit take Rust names"
size=$(awk '$1 == "yjit::Block" && $2 == "size" { print $3 }' "$T/facts")
printf 'yjit::Block  size <= %s\ncore::option::Option<yjit::CodePtr>  size <= 8\nyjit::*  forced <= 0\n' "$size" >"$T/budget"
sf check --budget "$T/budget" "$BIN"
assert_eq "$RC" 1 "exit status (two rules broken)"
assert_grep "$T/out" "core::option::Option<yjit::CodePtr>" "the Option rule broken"
assert_grep "$T/out" "yjit::Slot" "Slot's alignment is forced"
assert_no_grep "$T/out" "yjit::Block " "Block keeps its size"
sf_ok fit -t yjit::Block --classes 32,40,48 "$BIN"
assert_grep "$T/out" "$size" "Block's size"

# fact TYPE KEY: what the probe printed
fact() { awk -v t="$1" -v k="$2" '$1 == t && $2 == k { print $3 }' "$T/facts"; }

tcase "suggest: no reorder where rustc orders the fields itself"
sf_ok suggest -t yjit::Block "$BIN"
assert_grep "$T/out" "rustc orders the fields of this struct itself" "said so"
assert_no_grep "$T/out" "moves):" "no reorder proposed"
assert_grep "$T/out" "b: u64 -> u32" "narrowings in Rust spelling"

tcase "suggest: the NonNull niche and repr(packed) sizes are the compiler's"
sf_ok suggest --format json -t yjit::Block "$BIN"
schema_ok "$T/out"
assert_eq "$(jget "$T/out" '[[n["member"], n["from"], n["to"], n["size"]] for n in d["rust"]["niches"]]')" \
	"[[\"d\", $(fact "core::option::Option<yjit::CodePtr>" size), $(fact "core::option::Option<yjit::CodePtrNN>" size), $(fact yjit::BlockNN size)]]" \
	"niche on d: Option size and Block size as rustc lays out BlockNN"
assert_eq "$(jget "$T/out" 'd["rust"]["packed"]["size"]')" "$(fact yjit::BlockPacked size)" \
	"repr(packed) size as rustc lays out BlockPacked"
assert_eq "$(jget "$T/out" 'd["rust"]["compiler_orders"]')" true "default representation"
sf_ok suggest -t yjit::Block "$BIN"
assert_grep "$T/out" "the compiler refuses references to its fields" "packed's price stated"
# with size classes as for C: each class exactly a size rustc gives
sf_ok suggest -t yjit::Block --classes "$(fact yjit::BlockNN size),$(fact yjit::Block size)" "$BIN"
assert_grep "$T/out" "class $(fact yjit::Block size) -> $(fact yjit::BlockNN size)" "the niche's class change"

tcase "suggest: repr(C) Header gets the order rustc would pick"
sf_ok suggest --format json -t yjit::Header "$BIN"
assert_eq "$(jget "$T/out" 'd["reorder"]["size"]')" "$(fact yjit::HeaderRust size)" "reordered size"
assert_eq "$(jget "$T/out" 'd["rust"]["compiler_orders"]')" false "declaration order kept"

tcase "suggest: a Box, a reference, a raw pointer narrow to a u32 index"
sf_ok suggest --format json -t yjit::Arena "$BIN"
assert_eq "$(jget "$T/out" 'sorted(n["member"] + ":" + n["type"] for n in d["narrowings"] if n["member"] in ("boxed", "first", "code"))')" \
	'["boxed:u32", "code:u32", "first:u32"]' "index narrowings"

tcase "diff takes Rust names: Block's c widened to u32"
if [ -n "${RUSTC_BIN:-}" ]; then
	mkdir -p "$T/wide.d"
	sed 's/^    c: u16,$/    c: u32,/' "$SRC" >"$T/wide.d/yjit.rs"
	rust_build "$RUSTC_BIN" "$T/wide.d/yjit.rs" "$T/wide" yjit ||
		{ fail "rustc failed on the widened source"; detail "$T/rustc.log"; }
	"$T/wide" >"$T/facts2" 2>/dev/null
	new=$(awk '$1 == "yjit::Block" && $2 == "size" { print $3 }' "$T/facts2")
	sf diff --format json -t yjit::Block "$BIN" "$T/wide"
	assert_eq "$RC" 0 "exit status"
	assert_eq "$(jget "$T/out" '[[c["old"]["size"], c["new"]["size"]] for c in d["changed"]]' 2>&1)" \
		"[[$(fact yjit::Block size), $new]]" "Block's sizes, old and new, as rustc has them"
	assert_eq "$(jget "$T/out" '[[m["name"], m["new"]["type"], m["new"]["offset"]] for m in d["changed"][0]["members"] if m["change"] == "retyped"]' 2>&1)" \
		"[[\"c\", \"u32\", $(awk '$1 == "yjit::Block" && $2 == "c" { print $3 }' "$T/facts2")]]" "c retyped, at rustc's offset"
	# a glob: every yjit type compared, those whose c the sed widened changed
	sf diff --format json -t 'yjit::*' "$BIN" "$T/wide"
	assert_eq "$RC" 0 "exit status with a glob"
	schema_ok "$T/out"
	assert_eq "$(jget "$T/out" 'd["summary"]["compared"]')" "$(grep -cE '^pub (struct|enum) ' "$SRC")" \
		"the glob compares every yjit type (enums too)"
	assert_eq "$(jget "$T/out" '" ".join(sorted(c["name"] for c in d["changed"]))')" \
		"$(awk '/^pub (struct|enum) / { n = $3 } /^    c: u16,$/ { print "yjit::" n }' "$SRC" | sort | tr '\n' ' ' | sed 's/ $//')" \
		"changed: the types with a c: u16"
fi

tcase "patch: Rust structs rewritten, round-tripped through rustc"
if [ -n "${RUSTC_BIN:-}" ]; then
	mkdir -p "$T/src"
	cp "$SRC" "$T/src/yjit.rs"
	# a #[repr(C)] reorder, and a narrowing in a default-representation struct
	sf_ok patch -t yjit::Header -R "$T/src" --apply "$BIN"
	hdr=$(sed -n 's/.* -> \([0-9]*\) bytes.*/\1/p' "$T/out")
	sf_ok patch -t yjit::Block -n b=4 -R "$T/src" --apply "$BIN"
	blk=$(sed -n 's/.* -> \([0-9]*\) bytes.*/\1/p' "$T/out")
	assert_grep "$T/out" "rustc orders the fields itself" "default representation said"
	assert_grep "$T/src/yjit.rs" "b: u32, // structfit: was u64" "b narrowed in the source"
	rust_build "$RUSTC_BIN" "$T/src/yjit.rs" "$T/patched" yjit ||
		{ fail "the patched source does not compile"; detail "$T/rustc.log"; }
	"$T/patched" >"$T/facts3" 2>/dev/null
	assert_eq "$(awk '$1 == "yjit::Header" && $2 == "size" { print $3 }' "$T/facts3")" "$hdr" \
		"Header's size after the patch, as rustc lays it out"
	assert_eq "$(awk '$1 == "yjit::Block" && $2 == "size" { print $3 }' "$T/facts3")" "$blk" \
		"Block's size after the patch, as rustc lays it out"
	assert_ne "$hdr" "$(fact yjit::Header size)" "Header got smaller"
fi

tcase "patch --niche: CodePtr's pointer made a NonNull, round-tripped through rustc"
if [ -n "${RUSTC_BIN:-}" ]; then
	mkdir -p "$T/nn"
	cp "$SRC" "$T/nn/yjit.rs"
	sf_ok suggest --format json -t yjit::Block "$BIN"
	promised=$(jget "$T/out" '[n["size"] for n in d["rust"]["niches"] if n["member"] == "d"][0]')
	sf_ok patch -t yjit::Block --niche d -R "$T/nn" "$BIN"
	assert_grep "$T/out" "+pub struct CodePtr(core::ptr::NonNull<u8>);" "the newtype's field"
	# the header names every line that builds a CodePtr (the declaration aside)
	sites=$(grep -nE '(^|[^A-Za-z0-9_])CodePtr *\(' "$SRC" | grep -v 'struct CodePtr' | cut -d: -f1 | paste -sd, | sed 's/,/, /g')
	assert_grep "$T/out" " $sites) now check" "the constructing sites, by line"
	assert_grep "$T/out" "structfit cannot see that" "the unproven sites said"
	cmp -s "$SRC" "$T/nn/yjit.rs" || fail "patch without --apply changed the source"
	sf_ok patch -t yjit::Block --niche d -R "$T/nn" --apply "$BIN"
	rust_build "$RUSTC_BIN" "$T/nn/yjit.rs" "$T/nnbin" yjit ||
		{ fail "the NonNull patch does not compile"; detail "$T/rustc.log"; }
	"$T/nnbin" >"$T/facts4" 2>/dev/null
	got=$(awk '$1 == "yjit::Block" && $2 == "size" { print $3 }' "$T/facts4")
	assert_eq "$got" "$promised" "Block's size after the patch (rustc) is suggest's"
	assert_eq "$got" "$(fact yjit::BlockNN size)" "as BlockNN, written by hand"
	assert_ne "$got" "$(fact yjit::Block size)" "Block got smaller"
	assert_eq "$(awk '$1 == "core::option::Option<yjit::CodePtr>" && $2 == "size" { print $3 }' "$T/facts4")" \
		"$(fact yjit::CodePtr size)" "Option<CodePtr> as small as the pointer"
fi

tcase "patch --niche refuses what it cannot do, saying why"
mkdir -p "$T/nn2"
sed 's/^pub struct CodePtr(\*const u8);$/pub struct CodePtr(*const u8, u8);/' "$SRC" >"$T/nn2/yjit.rs"
cp "$T/nn2/yjit.rs" "$T/nn2.orig"
assert_exit 2 "a newtype of two fields" "$SF" patch -t yjit::Block --niche d -R "$T/nn2" --apply "$BIN"
assert_grep "$T/err" "more than one field" "the reason"
cmp -s "$T/nn2.orig" "$T/nn2/yjit.rs" || fail "a refused patch changed the source"
assert_exit 2 "a member already a niche" "$SF" patch -t yjit::Block --niche e -R "$T/nn2" "$BIN"
assert_grep "$T/err" "no niche to gain" "the reason"
assert_exit 2 "with --narrow" "$SF" patch -t yjit::Block --niche d -n b=4 -R "$T/nn2" "$BIN"
assert_grep "$T/err" "--niche is patched alone" "the reason"

tcase "patch refuses what it cannot rewrite, saying why"
mkdir -p "$T/src2"
cp "$SRC" "$T/src2/yjit.rs"
# CodePtr's one field is a pointer: patch refuses to make it an integer
# before it looks at the struct (an index is a design change, issue 23)
assert_exit 2 "a pointer narrowed" "$SF" patch -t yjit::CodePtr -n __0=4 -R "$T/src2" "$BIN"
assert_grep "$T/err" "patch does not make a pointer an integer" "the reason"
# a tuple struct whose narrowing would shrink it: its fields have no names
mkdir -p "$T/tup"
printf '%s\n' 'pub struct Id(pub u64, pub u8);' \
	'fn main() { let x = Id(1, 2); println!("{} {}", std::hint::black_box(&x).0, x.1); }' >"$T/tup/tup.rs"
if rust_build "$RUSTC_BIN" "$T/tup/tup.rs" "$T/tupbin" tup; then
	assert_exit 2 "a tuple struct" "$SF" patch -t tup::Id -n __0=1 -R "$T/tup" "$T/tupbin"
	assert_grep "$T/err" "a tuple struct" "the reason"
else
	fail "rustc cannot build the tuple struct: $(head -n 2 "$T/rustc.log" | tr '\n' ' ')"
fi
assert_exit 2 "an enum" "$SF" patch -t yjit::Shape -R "$T/src2" "$BIN"
assert_grep "$T/err" "patch rewrites structs only" "the reason"
mkdir -p "$T/empty"
assert_exit 2 "no source under the root" "$SF" patch -t yjit::Header -R "$T/empty" "$BIN"
assert_grep "$T/err" "no .rs file under" "the reason"
cp "$SRC" "$T/empty/copy.rs"
cp "$SRC" "$T/empty/other.rs"
assert_exit 2 "two sources declare it" "$SF" patch -t yjit::Header -R "$T/empty" "$BIN"
assert_grep "$T/err" "more than one .rs file" "the reason"
cmp -s "$SRC" "$T/src2/yjit.rs" || fail "a refused patch changed the source"

tcase "holes ranks Block by its real waste: 5 bytes"
sf_ok holes --format json "$BIN"
w=$("$PY" -c 'import json,sys
d=json.load(open(sys.argv[1]))
rows=d if isinstance(d,list) else d.get("types", d.get("holes", []))
print([r.get("waste") for r in rows if r.get("name")=="yjit::Block"][0])' "$T/out" 2>&1)
assert_eq "$w" "5" "Block's waste"
sf_ok holes --min-waste 0 --format json "$BIN"
schema_ok "$T/out"
assert_eq "$(jget "$T/out" '[r["kind"] for r in d["types"] if r["name"] in ("yjit::Shape", "yjit::Block")]' 2>&1)" \
	'["struct", "enum"]' "holes' kinds: Block a struct, Shape (no waste) an enum"

tdone
