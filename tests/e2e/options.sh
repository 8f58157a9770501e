#!/bin/bash
# tests/e2e/options.sh - one option convention across the commands.
#
#  - --help of every command: exit 0, its usage on stdout, nothing else;
#    an unknown option or a missing value: one line naming the command;
#  - an option that several commands take (--format, --color, --cacheline,
#    --classes, --source-root, --jobs) is parsed in one place: a bad value
#    is refused by every command that takes it (as `structfit help
#    options` lists them) with the same one line, exit 2, nothing on
#    stdout; --format's line names exactly the formats the command's usage
#    names;
#  - --narrow and --pin mean one thing in suggest, fit and patch (one plan,
#    layout/plan.c): each refusal is the same line from each command;
#  - counts (--limit, --min-waste, --overhead) are decimal, refused past
#    their bound.
. "$(dirname "$0")/lib.sh"

COMMANDS="show holes suggest fit classes check diff patch"

# The commands `help options` lists for option --NAME (its rows are
# "  -f, --format FMT<to column 30> COMMANDS"; "(every command)": all).
takers() {
	"$SF" help options | grep -E -- "^ .{1,5}--$1([ =]|\\[|\$)" | head -n 1 | cut -c 31- |
		sed "s/^(every command)\$/$COMMANDS/"
}

# refused_alike WHAT ARGS...: every command in $CMDS refuses `CMD ARGS...`
# with exit 2, nothing on stdout and one stderr line, the same one (fit,
# which needs size classes, gets --classes 64 first).
refused_alike() {
	local what=$1 first="" line
	shift
	for c in $CMDS; do
		if [ "$c" = fit ]; then
			sf "$c" --classes 64 "$@"
		else
			sf "$c" "$@"
		fi
		assert_eq "$RC" 2 "$c $what: exit status"
		assert_eq "$(wc -c <"$T/out")" 0 "$c $what: stdout bytes"
		assert_eq "$(wc -l <"$T/err")" 1 "$c $what: stderr lines"
		line=$(cat "$T/err")
		assert_match "$line" "^structfit: " "$c $what: prefix"
		[ -z "$first" ] && first=$line
		assert_eq "$line" "$first" "$c $what: the same line as the others"
	done
}

tcase "--help: exit 0, the usage on stdout, nothing on stderr, for every command"
for c in $COMMANDS; do
	for h in --help -h; do
		sf "$c" "$h"
		assert_eq "$RC" 0 "$c $h: exit status"
		assert_match "$(head -n 1 "$T/out")" "^usage: structfit $c " "$c $h: usage line"
		assert_eq "$(wc -c <"$T/err")" 0 "$c $h: stderr bytes"
	done
done

tcase "an unknown option, a missing value: one line naming the command"
for c in $COMMANDS; do
	sf "$c" --frobnicate x.o
	assert_eq "$RC:$(cat "$T/err")" \
		"2:structfit: $c: unknown option '--frobnicate'; see 'structfit $c --help'" "$c --frobnicate"
	sf "$c" -Q x.o
	assert_eq "$RC:$(cat "$T/err")" \
		"2:structfit: $c: unknown option '-Q'; see 'structfit $c --help'" "$c -Q"
	sf "$c" --color=never --jobs
	case " $(takers jobs) " in
	*" $c "*) assert_eq "$RC:$(cat "$T/err")" "2:structfit: $c: option '--jobs' needs a value" \
		"$c --jobs without a value" ;;
	*) assert_eq "$RC" 2 "$c --jobs: not its option" ;;
	esac
done

tcase "a bad --color, --cacheline, --classes, --jobs: one line, the same from every command taking it"
CMDS=$(takers color)
assert_eq "$(echo $CMDS | wc -w)" 8 "every command takes --color"
refused_alike "--color=sometimes" --color=sometimes x.o
assert_eq "$(cat "$T/err")" "structfit: --color: 'sometimes' is not one of auto, always, never" "--color line"
CMDS=$(takers cacheline)
assert_eq "$CMDS" "show holes" "--cacheline's commands"
for bad in 48 4 131072 0x40 -64; do
	refused_alike "--cacheline $bad" --cacheline "$bad" x.o
done
CMDS=$(takers classes)
assert_eq "$CMDS" "suggest fit" "--classes' commands"
refused_alike "--classes nope" --classes nope x.o
assert_match "$(cat "$T/err")" "^structfit: --classes: 'nope': unknown preset" "--classes line"
CMDS=$(takers jobs)
refused_alike "--jobs 0" --jobs 0 x.o
CMDS=$(takers source-root)
assert_eq "$CMDS" "show holes suggest check diff patch" "--source-root's commands"

tcase "a bad --format: one line naming the formats the command's usage names"
with=""
for c in $COMMANDS; do
	usage=$("$SF" "$c" --help | grep -o -- '--format [a-z|]*' | head -n 1)
	[ -n "$usage" ] && with="$with${with:+ }$c"
	if [ -z "$usage" ]; then
		# no --format in its usage: then it is no option of it
		sf "$c" --format json x.o
		assert_eq "$RC" 2 "$c --format: exit status"
		assert_match "$(cat "$T/err")" "unknown option '--format'" "$c has no --format"
		continue
	fi
	sf "$c" --format bogus x.o
	assert_eq "$RC" 2 "$c --format bogus: exit status"
	assert_eq "$(wc -l <"$T/err")" 1 "$c --format bogus: stderr lines"
	said=$(sed -n "s/^structfit: --format: 'bogus' is not one of //p" "$T/err" | tr -d ' ' | tr ',' '\n' | sort)
	want=$(echo "${usage#--format }" | tr '|' '\n' | sort)
	assert_eq "$said" "$want" "$c --format: the formats of its usage"
done
assert_eq "$(takers format)" "$with" "help options lists the commands whose usage has --format"

tcase "counts: decimal, refused past their bound"
sf holes --limit 1x x.o
assert_eq "$(cat "$T/err")" "structfit: --limit: '1x' is not a non-negative number" "--limit 1x"
sf holes --min-waste 18446744073709551616 x.o
assert_eq "$(cat "$T/err")" \
	"structfit: --min-waste: '18446744073709551616' is not a non-negative number" "--min-waste 2^64"
sf fit -t x --classes 64 --overhead 281474976710657 x.o
assert_eq "$(cat "$T/err")" \
	"structfit: --overhead: '281474976710657' is not a byte count below 2^48" "--overhead 2^48+1"
sf fit -t x --classes 64 --overhead 281474976710656 x.o
assert_no_grep "$T/err" "--overhead" "--overhead 2^48 is taken"

tcase "--narrow and --pin: suggest, fit and patch refuse alike"
if compile_or_fail gcc x86_64 5 "$T/st.o" "$TD/example/st_table.c"; then
	CMDS="suggest fit patch"
	for bad in entries_start entries_start= =1 entries_start=-1 entries_start=0x1; do
		refused_alike "--narrow $bad" -t st_table --narrow "$bad" "$T/st.o"
		assert_eq "$(cat "$T/err")" "structfit: --narrow: '$bad' is not MEMBER=BYTES" \
			"--narrow $bad: the line"
	done
	refused_alike "--narrow entries_start=3" -t st_table \
		--narrow entries_start=3 "$T/st.o"
	assert_eq "$(cat "$T/err")" \
		"structfit: --narrow entries_start=3: the new width must be 1, 2, 4 or 8 bytes" "width"
	refused_alike "--narrow entries_start=1 twice" -t st_table \
		--narrow entries_start=1 --narrow entries_start=2 "$T/st.o"
	assert_eq "$(cat "$T/err")" \
		"structfit: --narrow entries_start=2: 'entries_start' is narrowed twice" "twice"
	# one type: suggest and patch name it; fit (a sum of types) names the -t types
	CMDS="suggest patch"
	refused_alike "--narrow nosuch=1" -t st_table --narrow nosuch=1 "$T/st.o"
	assert_eq "$(cat "$T/err")" \
		"structfit: --narrow nosuch=1: struct st_table has no member 'nosuch'" "no member"
	refused_alike "--pin nosuch" -t st_table --pin nosuch "$T/st.o"
	assert_eq "$(cat "$T/err")" "structfit: --pin: struct st_table has no member 'nosuch'" "pin"
	refused_alike "--narrow other.entries_start=1" -t st_table \
		--narrow other.entries_start=1 "$T/st.o"
	assert_eq "$(cat "$T/err")" \
		"structfit: --narrow other.entries_start=1: 'other' is not struct st_table" "TYPE.M"
	# TYPE.MEMBER names the one type: the same plan in all three
	sf_ok suggest --format json -t st_table --narrow st_table.entries_start=1 "$T/st.o"
	base=$(jget "$T/out" 'd["base_size"]')
	sf_ok fit --format json -t st_table --classes 1024 --narrow st_table.entries_start=1 "$T/st.o"
	assert_eq "$(jget "$T/out" 'd["types"][0]["size"]')" "$base" "fit: suggest's base size"
fi

tcase "pahole: every option pahole_compat.sh compares, on C and C++ units linked together, exit 0"
# (pahole_compat.sh checks the output against pahole's on ./structfit in make
# test; this runs each option once on the build under test, the sanitized
# one in make test)
compile_or_fail gcc x86_64 5 "$T/pl.o" "$TD/e2e/layouts.c"
compile_or_fail gcc x86_64 5 "$T/ph.o" "$TD/e2e/holes.c" -std=c89
g++ -g -O0 -c -o "$T/pn.o" -I"$TD/e2e" "$TD/e2e/names.cpp" 2>"$T/cc.err" ||
	fail "g++ cannot compile names.cpp: $(head -n 2 "$T/cc.err" | tr '\n' ' ')"
ld -r -o "$T/pmix.o" "$T/pl.o" "$T/ph.o" "$T/pn.o" 2>"$T/ld.err" ||
	fail "ld -r: $(head -n 2 "$T/ld.err" | tr '\n' ' ')"
pahole_n=0
for opts in "" "-s" "-n" "-N" "-s -t ," "-s --structs" "-s --unions" "-s --packed" \
	"-s -H 2" "-s -B 1" "-z 4" "-z 4 -V" "-s --with_flexible_array" "-x s" "-y s" "-a -s" \
	"-q" "--hex" "-a -A" "--sort" "--suppress_aligned_attribute" "--suppress_packed" \
	"--suppress_force_paddings" "-c 32" "-M" "-R" "-R -S" "-R -V" "-E" "-r" "-I" \
	"--count 1 --skip 2" "-P" "-T" "-s -T" "--lang=c11" "--lang_exclude=c++14 -T" \
	"-F dwarf"; do
	# shellcheck disable=SC2086
	sf pahole $opts "$T/pmix.o"
	[ "$RC" = 0 ] || fail "pahole $opts exited $RC: $(head -n 2 "$T/err" | tr '\n' ' ')"
	pahole_n=$((pahole_n + 1))
done
"$SF" pahole -s "$T/pmix.o" | cut -f1 >"$T/pnames"
while IFS= read -r name; do
	for opts in "-C" "-R -S -C" "-u -C" "-E -C" "-I -C" "-i" "-d -i"; do
		# shellcheck disable=SC2086
		sf pahole $opts "$name" "$T/pmix.o"
		[ "$RC" = 0 ] || fail "pahole $opts $name exited $RC: $(head -n 2 "$T/err" | tr '\n' ' ')"
		pahole_n=$((pahole_n + 1))
	done
done <"$T/pnames"
[ "$pahole_n" -ge 100 ] || fail "only $pahole_n pahole runs"

tdone
