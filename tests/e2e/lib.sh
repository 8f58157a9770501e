# tests/e2e/lib.sh - sourced (by bash) from every tests/e2e/*.sh.
#
# A test script is a list of cases:
#
#   . "$(dirname "$0")/lib.sh"
#   tcase "st_table size"            # starts a case (ends the one before)
#   sf show -t st_table "$obj"       # runs ./structfit: $T/out, $T/err, $RC
#   assert_eq "$RC" 0 "exit status"
#   tdone                            # ends the last case, prints a summary
#
# Each case ends as exactly one result line, PASS, FAIL (with the first
# reason) or SKIP (with why), printed and, when run from tests/run-e2e.sh,
# appended to $E2E_RESULTS.  Assertions never exit: a failed one records its
# reason and the case goes on, so one run shows every problem.
#
# Every script gets a private temp dir $T, removed on exit.

set -u

# hermetic: a stripped input's debug file is never fetched from the
# debuginfod servers of the environment (Debian's profile sets some);
# tests/e2e/debuginfod.sh sets its own
unset DEBUGINFOD_URLS

E2E_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SF=${STRUCTFIT:-$E2E_ROOT/structfit}
TD=$E2E_ROOT/testdata
E2E_NAME=$(basename "$0" .sh)
E2E_TIMEOUT=${E2E_TIMEOUT:-300}
# the interpreter itself, not a version manager's shim (much slower to start)
PY=${PYTHON:-$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null)}
PY=${PY:-python3}

T=$(mktemp -d "${TMPDIR:-/tmp}/sf-e2e-$E2E_NAME.XXXXXX") || {
	echo "FAIL $E2E_NAME: cannot create a temp dir" >&2
	exit 1
}
trap 'rm -rf "$T"' EXIT
trap 'exit 130' INT TERM HUP

_case=""
_case_fail=""
_case_skip=""
_case_start=0
_npass=0
_nfail=0
_nskip=0

_emit() {
	printf '%s\n' "$1"
	if [ -n "${E2E_RESULTS:-}" ]; then
		printf '%s\n' "$1" >>"$E2E_RESULTS"
	fi
}

_end_case() {
	[ -n "$_case" ] || return 0
	if [ -n "$_case_fail" ]; then
		_emit "FAIL $E2E_NAME: $_case: $_case_fail"
		_nfail=$((_nfail + 1))
	elif [ -n "$_case_skip" ]; then
		_emit "SKIP $E2E_NAME: $_case: $_case_skip"
		_nskip=$((_nskip + 1))
	else
		_emit "PASS $E2E_NAME: $_case"
		_npass=$((_npass + 1))
	fi
	# where a script's minutes go (E2E_CASE_TIMES: make test's
	# build/e2e-case-times, "SECONDS SCRIPT: CASE")
	if [ -n "${E2E_CASE_TIMES:-}" ]; then
		printf '%s %s: %s\n' "$((SECONDS - _case_start))" "$E2E_NAME" "$_case" >>"$E2E_CASE_TIMES"
	fi
	_case=""
	_case_fail=""
	_case_skip=""
}

# tcase NAME: start a case.
tcase() {
	_end_case
	_case=$1
	_case_start=$SECONDS
}

# tdone: end the last case; summary when run alone; status 1 on failure.
tdone() {
	_end_case
	if [ -z "${E2E_RESULTS:-}" ]; then
		echo "$E2E_NAME: $_npass passed, $_nfail failed, $_nskip skipped"
	fi
	[ "$_nfail" = 0 ]
	exit $?
}

# fail REASON: record a failure of the current case (the first one is shown).
fail() {
	[ -n "$_case" ] || tcase "(setup)"
	if [ -z "$_case_fail" ]; then
		_case_fail=$1
	else
		_case_fail="$_case_fail; $1"
	fi
	return 1
}

# skip REASON: the current case is skipped (say why).
skip() {
	[ -n "$_case" ] || tcase "(setup)"
	_case_skip=$1
	return 0
}

# missing REASON: something a package installs is not here: skip the case,
# but fail it under `make test` (SF_TEST_STRICT=1), which installed every
# package of BUILD_PKGS and TEST_PKGS first.  What no package can bring
# (a running kernel's BTF) stays a plain skip.
missing() {
	if [ -n "${SF_TEST_STRICT:-}" ] && [ "$SF_TEST_STRICT" != 0 ]; then
		fail "$1 (make test installs it)"
	else
		skip "$1"
	fi
}

# detail FILE [TITLE]: show (indented, at most 40 lines) why a case failed.
detail() {
	[ -s "$1" ] || return 0
	[ $# -lt 2 ] || echo "    -- $2"
	head -n 40 "$1" | sed 's/^/    | /'
	[ "$(wc -l <"$1")" -le 40 ] || echo "    | ..."
}

# failed: true when the current case has failed so far.
failed() { [ -n "$_case_fail" ]; }

assert_eq() { # ACTUAL EXPECTED WHAT
	[ "$1" = "$2" ] && return 0
	fail "$3: got '$1', expected '$2'"
}

assert_ne() { # ACTUAL UNEXPECTED WHAT
	[ "$1" != "$2" ] && return 0
	fail "$3: got '$1'"
}

assert_match() { # STRING ERE WHAT
	printf '%s\n' "$1" | grep -Eq -- "$2" && return 0
	fail "$3: '$(printf '%s' "$1" | head -c 200)' does not match /$2/"
}

assert_grep() { # FILE FIXED-STRING WHAT
	grep -Fq -- "$2" "$1" && return 0
	fail "$3: '$2' not in output"
}

assert_no_grep() { # FILE FIXED-STRING WHAT
	grep -Fq -- "$2" "$1" || return 0
	fail "$3: '$2' should not be in output"
}

# run CMD...: $T/out, $T/err, $RC; a signal or a timeout fails the case.
run() {
	RC=0
	timeout --kill-after=10 "$E2E_TIMEOUT" "$@" >"$T/out" 2>"$T/err" || RC=$?
	if [ "$RC" = 124 ] || [ "$RC" = 137 ]; then
		fail "'$*' timed out after ${E2E_TIMEOUT}s"
	elif [ "$RC" -gt 128 ]; then
		fail "'$*' killed by signal $((RC - 128)) (crash): $(head -c 300 "$T/err")"
	fi
	return 0
}

# sf ARGS...: run ./structfit.
sf() { run "$SF" "$@"; }

# sf_ok ARGS...: run ./structfit, which must exit 0.
sf_ok() {
	sf "$@"
	[ "$RC" = 0 ] && return 0
	fail "structfit $* exited $RC: $(head -n 3 "$T/err" | tr '\n' ' ')"
}

# assert_exit CODE WHAT CMD...: run CMD, which must exit CODE.
assert_exit() {
	local code=$1 what=$2
	shift 2
	run "$@"
	[ "$RC" = "$code" ] && return 0
	fail "$what: exit $RC, expected $code ($(head -n 2 "$T/err" | tr '\n' ' '))"
}

# at_dir DIR CMD...: run CMD with DIR as the current directory, in this
# shell (no subshell: run and sf set RC here).
at_dir() {
	local dir=$1
	shift
	pushd "$dir" >/dev/null || { fail "no directory $dir"; return 1; }
	"$@"
	popd >/dev/null || true
}

have() { command -v "$1" >/dev/null 2>&1; }

# need CMD...: skip the current case (status 1) unless every CMD exists
# (fail it under make test: see missing).
need() {
	local c
	for c in "$@"; do
		if ! have "$c"; then
			missing "$c is not installed"
			return 1
		fi
	done
	return 0
}

# ---------------------------------------------------------------- compiling

# Targets the tests build for: name -> how.  "native" is the host (x86_64);
# the others are freestanding (no headers, no sysroot), -c only.
E2E_TARGETS="x86_64 i386 aarch64 arm"

# More targets, for the relocation tests (tests/e2e/elf.sh): 64-bit RISC-V,
# big-endian s390x, ppc64le, 32-bit big-endian ppc, 32-bit big-endian mips
# (REL) and mips64el (its odd r_info).
RELOC_TARGETS="riscv64 s390x ppc64le ppc mips mips64el"

# clang_target NAME: the clang triple of a target name.
clang_target() {
	case "$1" in
	x86_64) echo x86_64-linux-gnu ;;
	i386) echo i386-linux-gnu ;;
	aarch64) echo aarch64-linux-gnu ;;
	arm) echo armv7-linux-gnueabihf ;;
	riscv64) echo riscv64-linux-gnu ;;
	s390x) echo s390x-linux-gnu ;;
	ppc64le) echo powerpc64le-linux-gnu ;;
	ppc) echo powerpc-linux-gnu ;;
	mips) echo mips-linux-gnu ;;
	mips64el) echo mips64el-linux-gnuabi64 ;;
	*) return 1 ;;
	esac
}

# compile CC TARGET DWARF OUT SRC [FLAGS...]: one relocatable object.
#   CC gcc|clang, TARGET one of $E2E_TARGETS (gcc: x86_64 and i386 only),
#   DWARF 4|5.  Compiler messages go to $T/cc.err.  Status 0 or 1.
compile() {
	local cc=$1 target=$2 dw=$3 out=$4 src=$5
	shift 5
	local flags=""
	case "$cc:$target" in
	gcc:x86_64) flags="" ;;
	gcc:i386) flags="-m32 -ffreestanding" ;;
	gcc:*) echo "gcc cannot build for $target here" >"$T/cc.err"; return 1 ;;
	clang:x86_64) flags="" ;;
	clang:*) flags="--target=$(clang_target "$target") -ffreestanding" ;;
	*) echo "unknown compiler $cc" >"$T/cc.err"; return 1 ;;
	esac
	# shellcheck disable=SC2086
	"$cc" $flags -gdwarf-"$dw" -O0 -fno-common -c -o "$out" "$src" "$@" 2>"$T/cc.err"
}

# compile_or_fail CC TARGET DWARF OUT SRC [FLAGS...]: compile; fail the case
# with the compiler's message if it does not.
compile_or_fail() {
	compile "$@" && return 0
	fail "$1 ($2, DWARF $3) cannot compile $5: $(head -n 2 "$T/cc.err" | tr '\n' ' ')"
}

# rustup's proxies look for their toolchains under $HOME/.rustup: run with
# another HOME (CI), they would find none; point them at root's then.
if [ -z "${RUSTUP_HOME:-}" ] && [ ! -d "${HOME:-/nonexistent}/.rustup/toolchains" ] &&
	[ -d /root/.rustup/toolchains ]; then
	export RUSTUP_HOME=/root/.rustup
fi

# find_rustc: the newest rustc at hand that runs: $RUSTC, rustup's, then
# the PATH's.
find_rustc() {
	local c
	for c in "${RUSTC:-}" "${HOME:-/nonexistent}/.cargo/bin/rustc" /root/.cargo/bin/rustc \
		"$(command -v rustc 2>/dev/null)"; do
		[ -n "$c" ] && [ -x "$c" ] && "$c" --version >/dev/null 2>&1 && { echo "$c"; return 0; }
	done
	return 1
}

# rust_build RUSTC SRC OUT CRATE: `rustc -g` SRC into the program OUT; a
# rustc before 1.77 (no offset_of!) gets the probe's offset_of! spelt with
# addr_of!.  rustc's messages go to $T/rustc.log.  Status 0 or 1.
rust_build() {
	local rustc=$1 src=$2 out=$3 crate=$4 minor
	minor=$("$rustc" --version | sed -n 's/^rustc 1\.\([0-9]*\).*/\1/p')
	if [ -n "$minor" ] && [ "$minor" -lt 77 ]; then
		sed 's/std::mem::offset_of!(\$t, \$f)/{ let u = std::mem::MaybeUninit::<$t>::uninit(); let p = u.as_ptr(); unsafe { std::ptr::addr_of!((*p).$f) as usize - p as usize } }/' \
			"$src" >"$T/$crate.rs"
		src=$T/$crate.rs
	fi
	"$rustc" -g --crate-name "$crate" -o "$out" "$src" >"$T/rustc.log" 2>&1
}

# dwarf_version OBJ: the version of the first CU in .debug_info.
dwarf_version() {
	readelf --debug-dump=info "$1" 2>/dev/null | awk '/^ *Version:/ { print $2; exit }'
}

# ---------------------------------------------------------------- JSON

# schema_ok FILE...: every FILE is a structfit JSON document valid against
# doc/structfit.schema.json (tests/schema_check.py; --all first: every
# command's document must be among them); fails the case with the checker's
# words otherwise.
schema_ok() {
	/usr/bin/python3 "$E2E_ROOT/tests/schema_check.py" "$E2E_ROOT/doc/structfit.schema.json" \
		"$@" >"$T/schema.out" 2>&1 && return 0
	fail "invalid against doc/structfit.schema.json: $(head -n 3 "$T/schema.out" | tr '\n' ' ')"
	detail "$T/schema.out"
}

# type_blocks FILE: show's text FILE as its top-level types (each from its
# first line to its closing "}..." line), sorted: two reports that hold the
# same types, byte for byte, in another order give the same lines.
type_blocks() {
	"$PY" -S -c 'import sys
blocks, cur = [], []
for line in open(sys.argv[1]):
    cur.append(line)
    if line.startswith("}"):
        blocks.append("".join(cur))
        cur = []
print("".join(sorted(blocks)), end="")' "$1"
}

# jget FILE EXPR: evaluate a Python expression over the JSON document d in
# FILE and print the result (strings bare, other values as JSON).  Helpers:
#   bare(n)      "struct st_table" -> "st_table"
#   T(name)      list of the types named name (bare or qualified)
#   t(name)      the one type named name (error if not exactly one)
#   H(name)      the holes-report entries named name
#   names()      bare names of d["types"] in order
jget() {
	"$PY" -S - "$1" "$2" <<'PYEOF'
import json, sys
try:
    with open(sys.argv[1]) as f:
        d = json.load(f)
except Exception as e:
    print("jget: %s: not JSON: %s" % (sys.argv[1], e), file=sys.stderr)
    sys.exit(3)

def bare(n):
    for k in ("struct ", "union ", "class "):
        if n.startswith(k):
            return n[len(k):]
    return n

def T(name):
    name = bare(name)
    return [x for x in d.get("types", []) if bare(x.get("name", "")) == name]

def t(name):
    r = T(name)
    if len(r) != 1:
        raise SystemExit("jget: %d types named %s" % (len(r), name))
    return r[0]

H = T

def names():
    return [bare(x.get("name", "")) for x in d.get("types", [])]

try:
    r = eval(sys.argv[2])
except SystemExit:
    raise
except Exception as e:
    print("jget: %s: %s: %s" % (sys.argv[2], type(e).__name__, e), file=sys.stderr)
    sys.exit(3)
if isinstance(r, str):
    print(r)
elif isinstance(r, bool):
    print("true" if r else "false")
else:
    print(json.dumps(r, sort_keys=True))
PYEOF
}

# is_json FILE: status 0 when FILE holds one JSON document.
is_json() {
	"$PY" -S -c 'import json,sys; json.load(open(sys.argv[1]))' "$1" 2>/dev/null
}

# ---------------------------------------------------------------- pahole

# pahole_summary FILE: pahole's text in FILE reduced to one line per type:
#   kind name size members nholes sum_holes padding nbit_holes sum_bit_holes
pahole_summary() {
	"$PY" -S "$E2E_ROOT/tests/compare_pahole.py" summary "$1"
}

# ---------------------------------------------------------------- oracle

# probe_layout JSON SRC CC TARGET OUT: ask the compiler itself for the
# layout of every named struct/union that structfit reports in JSON (the
# member names come from structfit, the numbers from the compiler): builds
# a probe object that #includes SRC and sizes one array per fact with
# sizeof/_Alignof/offsetof, then reads the sizes back from its symbol table.
# Writes lines "TYPE size N", "TYPE align N", "TYPE.member offset N",
# "TYPE.member size N" to OUT and the same facts as structfit sees them to
# OUT.sf.  Bit-fields and anonymous members are left out (offsetof cannot
# name them).
probe_layout() {
	local json=$1 src=$2 cc=$3 target=$4 out=$5
	"$PY" -S - "$json" "$src" "$T/probe.c" "$out.sf" "$out.map" <<'PYEOF' || return 1
import json, sys
jf, src, probe_c, sf_out, map_out = sys.argv[1:6]
d = json.load(open(jf))
def bare(n):
    for k in ("struct ", "union ", "class "):
        if n.startswith(k):
            return n[len(k):]
    return n
lines, facts, probes = [], [], []
lines.append('#include "%s"' % src)
n = 0
def probe(expr, fact, value):
    global n
    lines.append("char sf_probe_%d[%s];" % (n, expr))
    probes.append((n, fact))
    facts.append("%s %s" % (fact, value))
    n += 1
for ty in d["types"]:
    name = bare(ty["name"])
    kind = ty.get("kind", "struct")
    if not name or kind not in ("struct", "union"):
        continue
    cty = "%s %s" % (kind, name)
    probe("sizeof(%s)" % cty, "%s size" % name, ty["size"])
    probe("_Alignof(%s)" % cty, "%s align" % name, ty["align"])
    for m in ty.get("members", []):
        if not m.get("name") or m.get("bit_size"):
            continue
        probe("__builtin_offsetof(%s, %s) + 1" % (cty, m["name"]),
              "%s.%s offset" % (name, m["name"]), m["offset"] + 1)
        if m["size"]:
            probe("sizeof(((%s *)0)->%s)" % (cty, m["name"]),
                  "%s.%s size" % (name, m["name"]), m["size"])
open(probe_c, "w").write("\n".join(lines) + "\n")
open(sf_out, "w").write("\n".join(facts) + "\n")
open(map_out, "w").write("\n".join("sf_probe_%d %s" % p for p in probes) + "\n")
PYEOF
	compile "$cc" "$target" 4 "$T/probe.o" "$T/probe.c" -I"$(dirname "$src")" || {
		fail "probe does not compile: $(head -n 3 "$T/cc.err" | tr '\n' ' ')"
		return 1
	}
	# readelf writes sizes of 2^32 and more in hex
	readelf -sW "$T/probe.o" | awk '
	function num(s,   i, n) {
		if (s !~ /^0x/)
			return s
		n = 0
		for (i = 3; i <= length(s); i++)
			n = n * 16 + index("0123456789abcdef", tolower(substr(s, i, 1))) - 1
		return sprintf("%.0f", n)
	}
	$8 ~ /^sf_probe_/ { print $8, num($3) }' >"$T/probe.sizes"
	# map "sf_probe_N FACT" + "sf_probe_N SIZE" -> "FACT SIZE"
	awk 'NR == FNR { s[$1] = $2; next }
	     { sym = $1; $1 = ""; sub(/^ /, ""); print $0, (sym in s ? s[sym] : "?") }' \
		"$T/probe.sizes" "$out.map" >"$out"
}

# libc_dbg_dir: a directory of links to libc6-dbg's own debug files, printed
# (status 1, nothing printed, when libc6-dbg is not installed).  Not
# /usr/lib/debug/.build-id itself: it holds every other -dbg package
# installed too (openjdk-17-dbg's 156 MB libjvm made one run take minutes),
# and what a test reads must not depend on those.
libc_dbg_dir() {
	local d=$T/libc6-dbg f
	if [ ! -d "$d" ]; then
		mkdir -p "$d"
		dpkg -L libc6-dbg 2>/dev/null | grep '^/usr/lib/debug/\.build-id/.*\.debug$' |
			while read -r f; do
				[ -f "$f" ] && ln -sf "$f" "$d/$(basename "$(dirname "$f")")$(basename "$f")"
			done
	fi
	[ -n "$(ls "$d")" ] && echo "$d"
}

# doc_same WHAT ARGS... -- DOCARGS...: structfit ARGS and structfit DOCARGS give
# the same stdout and exit status (stderr too, the file names aside).
doc_same() {
	local what=$1 a=() b=()
	shift
	while [ "$1" != -- ]; do a+=("$1"); shift; done
	shift
	b=("$@")
	"$SF" "${a[@]}" >"$T/a.out" 2>"$T/a.err"
	local ra=$?
	"$SF" "${b[@]}" >"$T/b.out" 2>"$T/b.err"
	local rb=$?
	# diff names its inputs: the document's name for the build's
	[ -z "${SUBST:-}" ] || sed -i "$SUBST" "$T/b.out"
	if [ "$ra" != "$rb" ]; then
		fail "$what: exit $ra on the build, $rb on the document: $(head -n 1 "$T/b.err")"
	elif ! cmp -s "$T/a.out" "$T/b.out"; then
		diff "$T/a.out" "$T/b.out" | head -n 20 >"$T/d.out"
		detail "$T/d.out" "$what"
		fail "$what: output differs"
	elif [ ! -s "$T/a.out" ] && [ "$ra" = 0 ]; then
		fail "$what: no output at all"
	fi
}

# jsondoc_corpus DIR: jsondoc's corpus (testdata's C sources built with gcc,
# its C++ ones with g++) into DIR, the objects in the array objs; fails
# the case when fewer than 30 build
jsondoc_corpus() {
	objs=()
	for f in "$TD"/e2e/*.c "$TD"/suggest/*.c "$TD"/diff/*.c "$TD"/check/*.c "$TD"/example/*.c \
		"$TD"/dedup/*.c "$TD"/reader/*.c; do
		o=$1/$(basename "$(dirname "$f")")-$(basename "$f" .c).o
		compile gcc x86_64 5 "$o" "$f" && objs+=("$o")
	done
	for f in "$TD"/e2e/*.cpp; do
		o=$1/$(basename "$f" .cpp)-cxx.o
		g++ -g -O0 -c -o "$o" -I"$TD/e2e" "$f" 2>/dev/null && objs+=("$o")
	done
	[ "${#objs[@]}" -ge 30 ] || fail "only ${#objs[@]} objects built"
}
