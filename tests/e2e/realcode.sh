#!/bin/bash
# tests/e2e/realcode.sh - `structfit patch` on small projects that look like
# real code: what broke or was refused on Redis, Ruby and SQLite.
#
# Each project in testdata/projects/NAME is copied to a fresh tree (a git
# repository) and built there by its own build.sh (gcc -g).  A round trip:
# `structfit suggest`, `structfit patch` from the tree's root, `patch -p1`,
# the project's build again, then the size the patch promised checked by a
# compiled sizeof probe (the compiler, not structfit), and the project's
# own test program (prog) must pass.  A refusal must exit 2 with one line
# naming each place, print nothing on stdout and leave every file as it
# was.

. "$(dirname "$0")/lib.sh"

PJ=$TD/projects
CC=${CC:-gcc}
export CC

# proj NAME: testdata/projects/NAME copied to $T/NAME, committed, built.
proj() {
	need git patch "$CC" || return 1
	local d=$T/$1
	rm -rf "$d" && cp -r "$PJ/$1" "$d" || { fail "cannot copy project $1"; return 1; }
	(
		cd "$d" || exit 1
		git init -q . && git add -A &&
			git -c user.email=e2e@structfit -c user.name=e2e commit -qm base &&
			sh ./build.sh && ./prog
	) >"$T/build.log" 2>&1 ||
		{ fail "project $1 does not build or its test fails: $(tail -n 3 "$T/build.log" | tr '\n' ' ')"; return 1; }
}

# probe_size DIR HEADER TYPE [CFLAGS...]: sizeof(struct TYPE) as the
# compiler gives it, HEADER included from DIR.
probe_size() {
	local d=$1 h=$2 ty=$3
	shift 3
	printf '#include <stdio.h>\n#include "%s"\nint main(void) { printf("%%zu\\n", sizeof(struct %s)); return 0; }\n' \
		"$h" "$ty" >"$T/probe.c"
	"$CC" -std=c11 -I"$d" "$@" -o "$T/probe" "$T/probe.c" 2>"$T/probe.err" &&
		"$T/probe"
}

# sums DIR: checksums of every file under DIR (outside .git).
sums() {
	(cd "$1" && find . -path ./.git -prune -o -type f -print | LC_ALL=C sort | xargs sha256sum)
}

# patch_in NAME TYPE [ARGS...]: structfit patch from the tree's root;
# the diff (or the header with --apply) in $T/out.
patch_in() {
	local d=$T/$1 ty=$2
	shift 2
	pushd "$d" >/dev/null || return 1
	sf patch -t "$ty" "$@" prog
	popd >/dev/null || true
}

# promised: the new size the header of $T/out promises.
promised() {
	sed -n '1s/.* -> \([0-9]*\) bytes.*/\1/p' "$T/out"
}

# round_trip NAME TYPE HEADER [CFLAGS...]: suggest, patch, apply, build,
# probe, test.  Sets SUGGESTED and PROMISED.
round_trip() {
	local name=$1 ty=$2 h=$3
	shift 3
	local d=$T/$name
	SUGGESTED="" PROMISED=""
	proj "$name" || return 1
	local before
	before=$(probe_size "$d" "$h" "$ty" "$@") || { fail "probe: $(head -n 2 "$T/probe.err")"; return 1; }
	sf_ok show -t "$ty" --format json "$d/prog" || return 1
	assert_eq "$(jget "$T/out" 't("'"$ty"'")["size"]')" "$before" "structfit show vs the compiler's sizeof"
	sf_ok suggest -t "$ty" --format json "$d/prog" || return 1
	SUGGESTED=$(jget "$T/out" 'd["reorder"]["size"]')
	patch_in "$name" "$ty"
	assert_eq "$RC" 0 "patch exit status ($(head -n 1 "$T/err"))"
	[ "$RC" = 0 ] || return 1
	PROMISED=$(promised)
	cp "$T/out" "$T/$name.diff"
	(cd "$d" && patch -p1 --quiet <"$T/$name.diff" && sh ./build.sh) >"$T/apply.log" 2>&1 ||
		{ fail "the patch does not apply or build: $(tail -n 3 "$T/apply.log" | tr '\n' ' ')"; return 1; }
	assert_eq "$(probe_size "$d" "$h" "$ty" "$@")" "$PROMISED" "sizeof after the patch vs the size promised"
	[ "$PROMISED" -lt "$before" ] || fail "nothing shrank: $before -> $PROMISED"
	(cd "$d" && ./prog) >"$T/prog.log" 2>&1 ||
		fail "the project's test fails after the patch: $(head -n 2 "$T/prog.log" | tr '\n' ' ')"
}

# refusal NAME TYPE ERE [ARGS...]: patch exits 2, one line matching ERE,
# nothing on stdout, no file changed (also with --apply).
refusal() {
	local name=$1 ty=$2 ere=$3
	shift 3
	proj "$name" || return 1
	local before
	before=$(sums "$T/$name")
	for apply in "" --apply; do
		# shellcheck disable=SC2086
		patch_in "$name" "$ty" $apply "$@"
		assert_eq "$RC" 2 "exit status ${apply:-without --apply}"
		assert_match "$(cat "$T/err")" "$ere" "message"
		assert_eq "$(wc -l <"$T/err")" 1 "one line on stderr"
		assert_eq "$(wc -c <"$T/out")" 0 "nothing on stdout"
		assert_eq "$(sums "$T/$name")" "$before" "files after the refusal"
	done
}

tcase "tables initialized by position (one in an included .def, through a macro tag; a struct holding one): refused, each place named"
refusal positional job \
	'^structfit: struct job: code depends on its layout: jobs\.c:7: jobs initialized by position \(3 entries\); jobs\.c:14: spare initialized by position; main\.c:11: compound literal \(struct job\)\{\.\.\.\} by position; pool\.c:12: main_pool initialized by position: it holds a struct job; pool\.c:13: member \.first, a struct job, initialized by position; pool\.c:15: static_assert on a struct that holds a struct job; extra\.def:2: extra_jobs initialized by position; rewrite that .*--allow-layout-uses'

tcase "--allow-layout-uses: the header names each place"
if proj positional; then
	patch_in positional job --allow-layout-uses
	assert_eq "$RC" 0 "exit status"
	assert_grep "$T/out" "  jobs.c:7: jobs initialized by position (3 entries): must follow the new layout" "the table"
	assert_grep "$T/out" "  jobs.c:14: spare initialized by position: must follow the new layout" "the typedef'd variable"
	assert_grep "$T/out" "  main.c:11: compound literal (struct job){...} by position: must follow the new layout" "the compound literal"
	assert_grep "$T/out" "  extra.def:2: extra_jobs initialized by position: must follow the new layout" "the table included from a .def file, through a macro tag"
	assert_grep "$T/out" "  pool.c:12: main_pool initialized by position: it holds a struct job: must follow the new layout" "a struct holding one"
	assert_grep "$T/out" "  pool.c:13: member .first, a struct job, initialized by position: must follow the new layout" "a designated member of its type, by position"
	assert_no_grep "$T/out" "pool.c:14" "a designated member of its type, designated inside"
	assert_no_grep "$T/out" "no positional initializer" "the all-clear line"
fi

tcase "designated initializers: round trip, the size suggest promised"
if round_trip designated job job.h; then
	assert_eq "$PROMISED" "$SUGGESTED" "patch's size vs suggest's"
	assert_grep "$T/designated.diff" "  no positional initializer, offsetof or static_assert of struct job in the 3 C files under the source root" "what was searched"
fi

tcase "another plain copy of the struct: the build's file is patched, the copy named"
if proj designated; then
	mkdir -p "$T/designated/vendor" && cp "$T/designated/job.h" "$T/designated/vendor/job.h"
	patch_in designated job
	assert_eq "$RC" 0 "exit status ($(head -n 1 "$T/err"))"
	assert_grep "$T/out" "+++ b/job.h" "the build's own header is patched"
	assert_grep "$T/out" "  vendor/job.h:5 defines struct job the same way and is not patched: code built against it keeps the old layout" "the copy is named"
fi

tcase "another program's struct of the same name: its positional initializers are its own"
if proj designated; then
	printf '%s\n' '/* bench.c - another program, with its own struct job */' \
		'struct job { int x, y; };' 'struct job bench_jobs[] = { { 1, 2 }, { 3, 4 } };' \
		>"$T/designated/bench.c"
	patch_in designated job
	assert_eq "$RC" 0 "exit status ($(head -n 1 "$T/err"))"
	assert_grep "$T/out" "  no positional initializer, offsetof or static_assert of struct job in the 4 C files under the source root" "bench.c's table is not job.h's"
fi

tcase "offsetof and _Static_assert: refused, both named"
refusal offsetof msg \
	'^structfit: struct msg: code depends on its layout: main\.c:5: offsetof\(struct msg, \.\.\.\); msg\.h:12: static_assert on struct msg; '

tcase "a generated header with a banner: refused"
refusal generated conf \
	"^structfit: struct conf: every definition under the source root is in a generated file: gen/conf\.h:5 \(generated: its banner says 'do not edit', line 1\); patch the input"

tcase "a generated copy that is not rebuilt (amalgamation): refused, both named"
refusal amalgamation rec \
	"^structfit: struct rec: copies that the build does not regenerate .*: all\.c:4 \(generated: its banner says 'amalgamation', line 1\), rec\.h:5; "

tcase "a .h.in source of truth: patched there, the build regenerates the header"
if round_trip template conf conf.h -I"$T/template/bld"; then
	assert_eq "$PROMISED" "$SUGGESTED" "patch's size vs suggest's"
	assert_grep "$T/template.diff" "+++ b/src/conf.h.in" "the diff patches the template"
	assert_no_grep "$T/template.diff" "bld/conf.h\$" "the diff leaves the generated header"
	assert_grep "$T/template.diff" "  source of truth: src/conf.h.in:7; bld/conf.h, where the build saw struct conf, is generated (its banner says 'do not edit', line 1)" "the header says which"
fi

tcase "a generated header with two candidate sources: refused, each named"
if proj template; then
	mkdir -p "$T/template/old" && cp "$T/template/src/conf.h.in" "$T/template/old/conf.h.in"
	before=$(sums "$T/template")
	patch_in template conf
	assert_eq "$RC" 2 "exit status"
	assert_eq "$(cat "$T/err")" "structfit: struct conf: defined the same way in several files: bld/conf.h:8 (generated: its banner says 'do not edit', line 1), old/conf.h.in:7, src/conf.h.in:7; patch cannot tell which one the program uses: keep one definition, or pass --source-root to the tree of the one to patch" "message"
	assert_eq "$(wc -c <"$T/out")" 0 "nothing on stdout"
	assert_eq "$(sums "$T/template")" "$before" "files"
fi

tcase "members typed by object-like macros: round trip"
if round_trip macro worker worker.h; then
	assert_eq "$PROMISED" "$SUGGESTED" "patch's size vs suggest's"
	assert_grep "$T/macro/worker.h" "	app_atomic long long jobs;" "the macro spelling is kept"
fi

tcase "an #if block: kept whole in place, the rest moves"
if round_trip ifblock stats stats.h -DWITH_TRACE; then
	assert_eq "$PROMISED" 40 "the size with the block pinned at 16..32"
	[ "$SUGGESTED" -lt "$PROMISED" ] ||
		fail "suggest (no #if known) should find smaller than the pinned block allows: $SUGGESTED"
	assert_grep "$T/ifblock.diff" "  the members under the #if on lines 8-13 stay whole, in place" "the header says so"
	block=$(sed -n '/^#ifdef WITH_TRACE/,/^#endif/p' "$T/ifblock/stats.h" | tr '\n' '|')
	assert_eq "$block" "#ifdef WITH_TRACE|	char trace_level;|	long trace_id;|#else|	long trace_id;|#endif|" "the block's lines"
	# the other branch still compiles, and its size is what it is
	probe_size "$T/ifblock" stats.h stats >/dev/null || fail "the #else branch no longer compiles: $(head -n 2 "$T/probe.err")"
fi

tcase "an #if block that leaves no smaller order: exit 0, nothing written, said why"
if proj ifblock; then
	# b, then [c, d] pinned at 8..24, then e: nothing else fits anywhere
	printf '%s\n' 'struct stats {' '	long b;' '#ifdef WITH_TRACE' '	char c;' '	long d;' \
		'#endif' '	char e;' '};' >"$T/ifblock/stats.h"
	printf '#include "stats.h"\nint main(void) { struct stats s = { .b = 1, .e = 2 }; return s.b + s.e == 3 ? 0 : 1; }\n' >"$T/ifblock/main.c"
	(cd "$T/ifblock" && sh ./build.sh) >"$T/build.log" 2>&1 || fail "cannot rebuild: $(tail -n 2 "$T/build.log")"
	before=$(sums "$T/ifblock")
	sf_ok suggest -t stats --format json "$T/ifblock/prog"
	assert_eq "$(jget "$T/out" 'd["reorder"]["size"]')" 24 "suggest, knowing no #if, shrinks it"
	patch_in ifblock stats
	assert_eq "$RC" 0 "exit status"
	assert_eq "$(cat "$T/err")" "structfit: struct stats: no smaller order that keeps its #if blocks whole (32 bytes); nothing to patch" "message"
	assert_eq "$(wc -c <"$T/out")" 0 "nothing on stdout"
	assert_eq "$(sums "$T/ifblock")" "$before" "files"
fi

tdone
