#!/bin/bash
# tests/e2e/defs.sh - one name, several definitions: `diff` pairs each
# definition with its own and `check` checks each one.
#
# testdata/projects/defs is two programs, as Redis has redis-benchmark and
# redis-cli, each with its own `struct config` (cli's the larger).  The
# old build is bench (bench.c + pool_a.c) and cli (cli.c); the new build
# grows bench's config (-DGROW) and links another file's stringpool_t into
# cli (pool_b.c, -DNEWPOOL).  A diff that compares the largest definition
# of each name sees no change in config (cli's did not change) and
# stringpool_t growing by pool_b's size; the right answer is bench's config
# grown and pool_b's stringpool_t added as a definition.  Every size is the
# compiler's: sizeof in a probe object built from the same source and
# flags, read back as a symbol size.
. "$(dirname "$0")/lib.sh"

P=$TD/projects/defs

# size OUT SRC EXPR [CFLAGS...]: sizeof EXPR as SRC sees it, in OUT.
size() {
	local out=$1 src=$2 expr=$3
	shift 3
	printf '#define main sf_probe_main\n#include "%s"\nchar sf_probe[sizeof(%s)];\n' \
		"$src" "$expr" >"$T/probe.c"
	gcc -c -o "$T/probe.o" "$T/probe.c" "$@" 2>"$T/cc.err" || {
		fail "probe of $expr in $src: $(head -n 1 "$T/cc.err")"
		return 1
	}
	readelf -sW "$T/probe.o" | awk '$8 == "sf_probe" { print $3 }' >"$out"
}

tcase "setup: two builds of two programs, sizes from the compiler"
mkdir -p "$T/old" "$T/new"
if need gcc readelf; then
	(cd "$P" &&
		gcc -g -O0 -o "$T/old/bench" bench.c pool_a.c &&
		gcc -g -O0 -o "$T/old/cli" cli.c &&
		gcc -g -O0 -DGROW -o "$T/new/bench" bench.c pool_a.c &&
		gcc -g -O0 -DNEWPOOL -o "$T/new/cli" cli.c pool_b.c) 2>"$T/cc.err" ||
		fail "the programs do not build: $(head -n 2 "$T/cc.err" | tr '\n' ' ')"
	size "$T/s.bench.old" "$P/bench.c" "struct config"
	size "$T/s.bench.new" "$P/bench.c" "struct config" -DGROW
	size "$T/s.cli" "$P/cli.c" "struct config"
	size "$T/s.pool_a" "$P/pool_a.c" "stringpool_t"
	size "$T/s.pool_b" "$P/pool_b.c" "stringpool_t"
fi
BENCH_OLD=$(cat "$T/s.bench.old" 2>/dev/null)
BENCH_NEW=$(cat "$T/s.bench.new" 2>/dev/null)
CLI=$(cat "$T/s.cli" 2>/dev/null)
POOL_A=$(cat "$T/s.pool_a" 2>/dev/null)
POOL_B=$(cat "$T/s.pool_b" 2>/dev/null)
if [ -z "$BENCH_OLD" ] || [ -z "$BENCH_NEW" ] || [ -z "$CLI" ] || [ -z "$POOL_B" ]; then
	tdone
	exit
fi
# the case the tests are about: bench's config grows, cli's is larger
[ "$BENCH_NEW" -gt "$BENCH_OLD" ] || fail "bench's config does not grow ($BENCH_OLD -> $BENCH_NEW)"
[ "$CLI" -gt "$BENCH_NEW" ] || fail "cli's config ($CLI) is not the largest"
[ "$POOL_B" -gt "$POOL_A" ] || fail "pool_b's stringpool_t is not the larger"

tcase "diff: bench's config grew, cli's did not change, pool_b's stringpool_t was added"
sf diff --format json "$T/old" "$T/new"
assert_eq "$RC" 0 "exit"
schema_ok "$T/out"
cp "$T/out" "$T/diff.json"
assert_eq "$(jget "$T/out" '[(c["name"], c["decl_file"].split("/")[-1], c["old"]["size"], c["new"]["size"], c["growth"]) for c in d["changed"]]')" \
	"[[\"config\", \"bench.c\", $BENCH_OLD, $BENCH_NEW, $((BENCH_NEW - BENCH_OLD))]]" "changed"
assert_eq "$(jget "$T/out" '[(c["name"], c["decl_file"].split("/")[-1], c["size"], c["definition"]) for c in d["added"]]')" \
	"[[\"stringpool_t\", \"pool_b.c\", $POOL_B, true]]" "added"
assert_eq "$(jget "$T/out" 'd["removed"]')" "[]" "removed"
assert_eq "$(jget "$T/out" '[d["summary"][k] for k in ("changed", "grown", "growth", "added")]')" \
	"[1, 1, $((BENCH_NEW - BENCH_OLD)), 1]" "summary"

tcase "diff text: the added definition is said as such"
sf_ok diff "$T/old" "$T/new"
assert_match "$(grep '^struct config' "$T/out")" \
	"^struct config: $BENCH_OLD -> $BENCH_NEW bytes \\(\\+$((BENCH_NEW - BENCH_OLD))\\)  .*bench\\.c:" "config line"
assert_match "$(grep '^struct stringpool_t' "$T/out")" \
	"^struct stringpool_t: added definition, $POOL_B bytes  .*pool_b\\.c:" "stringpool_t line"
assert_no_grep "$T/out" "+$((POOL_B - POOL_A))" "no false growth of stringpool_t"
for f in github markdown; do
	sf_ok diff --format "$f" "$T/old" "$T/new"
	assert_grep "$T/out" "added definition" "--format $f"
done

tcase "diff --fail-on-growth: config's growth fails, stringpool_t's new definition does not"
assert_exit 1 "-t config" "$SF" diff --fail-on-growth -t config "$T/old" "$T/new"
assert_exit 0 "-t stringpool_t" "$SF" diff --fail-on-growth -t stringpool_t "$T/old" "$T/new"
assert_exit 1 "every type" "$SF" diff --fail-on-growth "$T/old" "$T/new"
# the other way round: a removed definition, and config shrank
sf_ok diff --format json "$T/new" "$T/old"
assert_eq "$(jget "$T/out" '[(c["name"], c["growth"]) for c in d["changed"]] + [(c["name"], c["definition"]) for c in d["removed"]]')" \
	"[[\"config\", $((BENCH_OLD - BENCH_NEW))], [\"stringpool_t\", true]]" "new -> old"

tcase "diff: builds in two trees pair by file name"
mkdir -p "$T/tree1" "$T/tree2"
cp "$P"/*.c "$P"/*.h "$T/tree1/"
cp "$P"/*.c "$P"/*.h "$T/tree2/"
(cd "$T/tree1" && gcc -g -O0 -o bench bench.c pool_a.c && gcc -g -O0 -o cli cli.c &&
	cd "$T/tree2" && gcc -g -O0 -DGROW -o bench bench.c pool_a.c && gcc -g -O0 -o cli cli.c) 2>"$T/cc.err" ||
	fail "trees do not build"
mkdir -p "$T/b1" "$T/b2"
mv "$T/tree1/bench" "$T/tree1/cli" "$T/b1/"
mv "$T/tree2/bench" "$T/tree2/cli" "$T/b2/"
sf_ok diff --format json "$T/b1" "$T/b2"
assert_eq "$(jget "$T/out" '[(c["name"], c["decl_file"].split("/")[-1], c["growth"]) for c in d["changed"]] + d["added"] + d["removed"]')" \
	"[[\"config\", \"bench.c\", $((BENCH_NEW - BENCH_OLD))]]" "only bench's config changed"

tcase "check --write-budget pins each definition, NAME@FILE"
sf_ok check --write-budget "$T/pinned.budget" "$T/old"
grep -v '^#' "$T/pinned.budget" | awk '{ print $1, $2, $NF }' | sort >"$T/pinned"
printf 'struct config@bench.c %s\nstruct config@cli.c %s\nstruct stringpool_t %s\n' \
	"$BENCH_OLD" "$CLI" "$POOL_A" | sort >"$T/want"
assert_eq "$(cat "$T/pinned")" "$(cat "$T/want")" "rules"
sf_ok check --budget "$T/pinned.budget" "$T/old"

tcase "check --write-budget: two files of one name are told apart by their directories"
mkdir -p "$T/same/a" "$T/same/b" "$T/same/bin"
cp "$P/bench.c" "$T/same/a/main.c"
cp "$P/pool.h" "$P/pool_a.c" "$T/same/a/"
cp "$P/cli.c" "$T/same/b/main.c"
(cd "$T/same" && gcc -g -O0 -o bin/a a/main.c a/pool_a.c && gcc -g -O0 -o bin/b b/main.c) 2>"$T/cc.err" ||
	fail "the copies do not build"
sf_ok check --write-budget "$T/same.budget" "$T/same/bin"
assert_eq "$(grep '^struct config' "$T/same.budget" | awk '{ print $2, $NF }' | sort | tr '\n' ' ')" \
	"config@a/main.c $BENCH_OLD config@b/main.c $CLI " "rules"
# read back, with paths shown absolute and relative to a source root
sf_ok check --budget "$T/same.budget" --format json "$T/same/bin"
assert_eq "$(jget "$T/out" '[r["checked"] for r in d["rules"] if "config" in r["rule"]]')" "[1, 1]" "absolute paths"
sf_ok check --budget "$T/same.budget" --source-root "$T/same" --format json "$T/same/bin"
assert_eq "$(jget "$T/out" '[r["checked"] for r in d["rules"] if "config" in r["rule"]]')" "[1, 1]" "under --source-root"

tcase "check: the pinned budget catches bench's config growing, at bench.c"
sf check --budget "$T/pinned.budget" --format json "$T/new"
assert_eq "$RC" 1 "exit"
schema_ok "$T/out"
assert_eq "$(jget "$T/out" 'sorted((r["rule"].split()[1], r["status"], r["checked"]) for r in d["rules"])')" \
	'[["config@bench.c", "fail", 1], ["config@cli.c", "pass", 1], ["stringpool_t", "fail", 2]]' \
	"rules (stringpool_t: both definitions checked, pool_b's is larger)"
assert_eq "$(jget "$T/out" '[(f["value"], f["decl_file"].split("/")[-1]) for r in d["rules"] for f in r["failures"]]')" \
	"[[$BENCH_NEW, \"bench.c\"], [$POOL_B, \"pool_b.c\"]]" "failures"

tcase "check: a rule on a name checks every definition; @FILE selects one"
printf 'struct config size <= %s\n' "$BENCH_OLD" >"$T/all.budget"
sf check --budget "$T/all.budget" --format json "$T/old"
assert_eq "$RC" 1 "exit: cli's config is larger"
assert_eq "$(jget "$T/out" '[(r["checked"], [(f["value"], f["decl_file"].split("/")[-1]) for f in r["failures"]]) for r in d["rules"]]')" \
	"[[2, [[$CLI, \"cli.c\"]]]]" "both checked, cli's fails"
printf 'struct config@bench.c size <= %s\nstruct config@defs/cli.c size == %s\n' "$BENCH_OLD" "$CLI" >"$T/one.budget"
sf check --budget "$T/one.budget" --format json "$T/old"
assert_eq "$RC" 0 "exit: each selected definition holds"
assert_eq "$(jget "$T/out" '[r["checked"] for r in d["rules"]]')" "[1, 1]" "one definition each"
# a sum with @FILE takes that definition, not the largest
printf 'struct config@bench.c + stringpool_t size == %s\n' "$((BENCH_OLD + POOL_A))" >"$T/sum.budget"
assert_exit 0 "sum with @FILE" "$SF" check --budget "$T/sum.budget" "$T/old"

tcase "check --baseline: a definition's failure is matched with the same definition's"
# old: cli's config breaks `config size <= BENCH_OLD`; new: bench's does
# too.  cli's is known (the baseline had it); bench's is new, though
# smaller than cli's old value.
sf check --budget "$T/all.budget" --baseline "$T/old" --format json "$T/new"
assert_eq "$RC" 1 "exit"
assert_eq "$(jget "$T/out" '[(f["value"], f["decl_file"].split("/")[-1]) for r in d["rules"] for f in r["failures"]]')" \
	"[[$BENCH_NEW, \"bench.c\"]]" "only bench's failure is new"

tcase "check: @FILE that selects nothing is an error naming where the name is declared"
printf 'struct config@nosuch.c size <= 1\n' >"$T/bad.budget"
sf check --budget "$T/bad.budget" "$T/old"
assert_eq "$RC" 2 "exit"
assert_eq "$(wc -l <"$T/err")" 1 "one line"
assert_grep "$T/err" "bad.budget:1:1: no definition of 'struct config'" "message"
assert_grep "$T/err" "bench.c:" "names bench.c"
# "ench.c" is no file name: suffixes match whole components only
printf 'struct config@ench.c size <= 1000\n' >"$T/bad2.budget"
assert_exit 2 "@ench.c" "$SF" check --budget "$T/bad2.budget" "$T/old"
printf 'struct config@ size <= 1\n' >"$T/bad3.budget"
sf check --budget "$T/bad3.budget" "$T/old"
assert_eq "$RC" 2 "@ without a file: exit"
assert_grep "$T/err" "expected a file name after '@'" "message"

tdone
