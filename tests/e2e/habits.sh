#!/bin/bash
# tests/e2e/habits.sh - structfit behaves like a well-kept Unix tool.
#
#  - `--help` (and `-h`, `help`) for structfit and every command: exit 0,
#    usage on stdout, nothing on stderr; `help CMD` == `CMD --help`;
#  - `--version` prints "structfit VERSION", the version of cmd/version.h
#    and of the man page;
#  - an unknown command, an unknown option, a missing FILE, an unreadable
#    FILE: exit 2, nothing on stdout, exactly one line on stderr
#    ("structfit: ...");
#  - colour: none when piped, `--color=always` colours (even with NO_COLOR
#    set), `--color=never` does not; on a terminal (script(1)) colour by
#    default, none with NO_COLOR or TERM=dumb; colour changes no text;
#  - the man page and the bash completion know every option that each
#    command's --help lists, and the man page renders without warnings;
#  - `make install PREFIX=/usr DESTDIR=...` puts the binary, the man page
#    and the completion in place, `man -l` renders the installed page, the
#    completion completes; `make uninstall` removes all three.
. "$(dirname "$0")/lib.sh"

COMMANDS="show holes suggest fit classes check diff patch pahole"
MAN=$E2E_ROOT/doc/structfit.1
COMPLETION=$E2E_ROOT/contrib/structfit.bash-completion
ESC=$(printf '\033')

# long_opts CMD: the long options CMD's --help lists in its option table
# (lines "  -x, --long ..." or "      --long ..."), one a line.
long_opts() {
	"$SF" "$1" --help 2>/dev/null |
		sed -nE 's/^ +(-[A-Za-z], +)?(--[a-z][a-z0-9_-]*).*/\2/p' |
		grep -vx -- '--help' | sort -u
}

# ------------------------------------------------------------ --help

tcase "structfit --help: usage on stdout, every command listed, exit 0"
sf_ok --help
cp "$T/out" "$T/help.txt"
assert_match "$(head -n 1 "$T/help.txt")" "^usage: structfit" "first line"
assert_eq "$(wc -c <"$T/err")" 0 "stderr bytes"
for c in $COMMANDS; do
	grep -qE "^ +$c " "$T/help.txt" || fail "command '$c' not listed"
done
sf_ok -h
assert_eq "$(cat "$T/out")" "$(cat "$T/help.txt")" "-h output"
sf_ok help
assert_eq "$(cat "$T/out")" "$(cat "$T/help.txt")" "'help' output"

for c in $COMMANDS; do
	tcase "structfit $c --help: usage on stdout, exit 0; 'help $c' the same"
	sf_ok "$c" --help
	cp "$T/out" "$T/help-$c.txt"
	assert_match "$(head -n 1 "$T/help-$c.txt")" "^usage: structfit $c( |$)" "first line"
	assert_eq "$(wc -c <"$T/err")" 0 "stderr bytes"
	assert_ne "$(wc -l <"$T/help-$c.txt")" 1 "more than the usage line"
	sf_ok "$c" -h
	assert_eq "$(cat "$T/out")" "$(cat "$T/help-$c.txt")" "-h output"
	sf_ok help "$c"
	assert_eq "$(cat "$T/out")" "$(cat "$T/help-$c.txt")" "'help $c' output"
done

# ------------------------------------------------------------ --version

tcase "--version: 'structfit VERSION', as cmd/version.h and the man page say"
want=$(sed -n 's/^#define SF_VERSION "\(.*\)"$/\1/p' "$E2E_ROOT/cmd/version.h")
assert_match "$want" '^[0-9]+\.[0-9]+' "version in cmd/version.h"
sf_ok --version
assert_eq "$(cat "$T/out")" "structfit $want" "output"
assert_eq "$(wc -c <"$T/err")" 0 "stderr bytes"
sf_ok -V
assert_eq "$(cat "$T/out")" "structfit $want" "-V output"
assert_eq "$(grep -c "^\.TH STRUCTFIT 1 .*\"structfit $want\"" "$MAN")" 1 "man page .TH version"

# ------------------------------------------------------------ errors

# one_line_error WHAT CMD...: exit 2, empty stdout, one "structfit: " line.
one_line_error() {
	local what=$1
	shift
	assert_exit 2 "$what" "$@"
	assert_eq "$(wc -c <"$T/out")" 0 "$what: stdout bytes"
	assert_eq "$(wc -l <"$T/err")" 1 "$what: stderr lines"
	assert_match "$(head -n 1 "$T/err")" "^structfit: " "$what: message prefix"
}

tcase "unknown command: exit 2, one line naming it"
one_line_error "frobnicate" "$SF" frobnicate
assert_grep "$T/err" "frobnicate" "message names the command"
one_line_error "--frobnicate" "$SF" --frobnicate

for c in $COMMANDS; do
	tcase "structfit $c --no-such-option: exit 2, one line"
	one_line_error "$c --no-such-option" "$SF" "$c" --no-such-option
	assert_grep "$T/err" "no-such-option" "message names the option"
done

for c in $COMMANDS; do
	tcase "structfit $c --format bogus: exit 2, one line"
	if ! long_opts "$c" | grep -qx -- --format; then
		skip "'$c' has no --format"
		continue
	fi
	one_line_error "$c --format bogus" "$SF" "$c" --format bogus "$T/none.o" "$T/none.o"
	assert_grep "$T/err" "bogus" "message names the value"
done

tcase "show without FILE, on a missing FILE, on a non-ELF FILE: exit 2, one line"
one_line_error "show (no FILE)" "$SF" show
one_line_error "show /nonexistent" "$SF" show "$T/nonexistent.o"
assert_match "$(cat "$T/err")" "^structfit: $T/nonexistent\.o: " "names the file first"
printf 'hello\n' >"$T/text.o"
one_line_error "show text.o" "$SF" show "$T/text.o"
assert_match "$(cat "$T/err")" "^structfit: $T/text\.o: " "names the file first"

# ------------------------------------------------------------ colour

tcase "colour: none when piped, --color=always colours even with NO_COLOR, never does not"
have_color=0
if ! compile_or_fail gcc x86_64 5 "$T/st.o" "$TD/example/st_table.c"; then
	:
elif ! "$SF" show --color=never -t st_table "$T/st.o" >/dev/null 2>"$T/cerr"; then
	skip "show has no --color option yet ($(head -n 1 "$T/cerr"))"
else
	have_color=1
	sf_ok show -t st_table "$T/st.o"
	cp "$T/out" "$T/plain.txt"
	assert_eq "$(grep -c "$ESC" "$T/plain.txt")" 0 "escape sequences when piped"
	TERM=xterm sf_ok show --color=always -t st_table "$T/st.o"
	cp "$T/out" "$T/always.txt"
	assert_ne "$(grep -c "$ESC\[" "$T/always.txt")" 0 "escape sequences with --color=always"
	assert_eq "$(sed "s/$ESC\[[0-9;]*m//g" "$T/always.txt")" "$(cat "$T/plain.txt")" \
		"--color=always output less its colour"
	NO_COLOR=1 sf_ok show --color=always -t st_table "$T/st.o"
	assert_eq "$(cat "$T/out")" "$(cat "$T/always.txt")" "NO_COLOR=1 --color=always"
	sf_ok show --color=never -t st_table "$T/st.o"
	assert_eq "$(cat "$T/out")" "$(cat "$T/plain.txt")" "--color=never"
	sf_ok show --color=auto -t st_table "$T/st.o"
	assert_eq "$(cat "$T/out")" "$(cat "$T/plain.txt")" "--color=auto when piped"
	one_line_error "--color=sometimes" "$SF" show --color=sometimes -t st_table "$T/st.o"
fi

tcase "colour on a terminal (script): by default; not with NO_COLOR or TERM=dumb"
if [ "$have_color" != 1 ]; then
	skip "no --color support to test"
elif ! have script; then
	skip "script(1) (bsdutils) is not installed"
else
	# on_tty ENV...: run show under a pseudo-terminal; output in $T/tty.txt
	on_tty() {
		env -u NO_COLOR "$@" script -qec "'$SF' show -t st_table '$T/st.o'" /dev/null \
			>"$T/tty.txt" 2>&1 </dev/null
	}
	on_tty TERM=xterm || fail "show on a terminal exited $?"
	assert_ne "$(grep -c "$ESC\[" "$T/tty.txt")" 0 "colour on a terminal"
	assert_eq "$(tr -d '\r' <"$T/tty.txt" | sed "s/$ESC\[[0-9;]*m//g")" \
		"$(cat "$T/plain.txt")" "terminal output less its colour"
	on_tty TERM=xterm NO_COLOR=1 || fail "show on a terminal exited $?"
	assert_eq "$(grep -c "$ESC\[" "$T/tty.txt")" 0 "colour with NO_COLOR=1"
	on_tty TERM=xterm NO_COLOR= || fail "show on a terminal exited $?"
	assert_ne "$(grep -c "$ESC\[" "$T/tty.txt")" 0 "colour with NO_COLOR set but empty"
	on_tty TERM=dumb || fail "show on a terminal exited $?"
	assert_eq "$(grep -c "$ESC\[" "$T/tty.txt")" 0 "colour with TERM=dumb"
fi

tcase "--color on every command that prints text: always colours, never and piped do not, colour changes no text"
if ! compile_or_fail gcc x86_64 5 "$T/st.o" "$TD/example/st_table.c"; then
	:
else
	sed 's/unsigned char entry_power/unsigned long entry_power/' \
		"$TD/example/st_table.c" >"$T/st2.c"
	compile_or_fail gcc x86_64 5 "$T/st2.o" "$T/st2.c" -I"$TD/example"
	printf 'struct st_table size <= 40\n' >"$T/c.budget"
	while IFS= read -r args; do
		# shellcheck disable=SC2086
		set -- $args
		run "$SF" "$@"
		cp "$T/out" "$T/c-plain.txt"
		[ -s "$T/c-plain.txt" ] || fail "'$args' printed nothing"
		assert_eq "$(grep -c "$ESC" "$T/c-plain.txt")" 0 "'$args' piped: escapes"
		run "$SF" "$@" --color=always
		assert_ne "$(grep -c "$ESC\[" "$T/out")" 0 "'$args --color=always': escapes"
		assert_eq "$(sed "s/$ESC\[[0-9;]*m//g" "$T/out")" "$(cat "$T/c-plain.txt")" \
			"'$args --color=always' less its colour"
		run "$SF" "$@" --color=never
		assert_eq "$(cat "$T/out")" "$(cat "$T/c-plain.txt")" "'$args --color=never'"
		run "$SF" "$@" --color=sometimes
		assert_eq "$RC" 2 "'$args --color=sometimes' exit status"
		if have script; then
			for envs in "TERM=xterm" "TERM=xterm NO_COLOR=1" "TERM=dumb"; do
				# shellcheck disable=SC2086
				env -u NO_COLOR $envs script -qec "'$SF' $args" /dev/null \
					>"$T/tty.txt" 2>&1 </dev/null
				n=$(grep -c "$ESC\[" "$T/tty.txt")
				case $envs in
				"TERM=xterm") assert_ne "$n" 0 "'$args' on a terminal: escapes" ;;
				*) assert_eq "$n" 0 "'$args' on a terminal with $envs: escapes" ;;
				esac
			done
		fi
	done <<EOF
holes $T/st.o
suggest -t st_table -k 64,80 -H 24 $T/st.o
fit -t st_table -k ruby-3.3 $T/st.o
classes
check -b $T/c.budget $T/st.o
diff $T/st.o $T/st2.o
patch -t st_table -n entries_start=1 -R $TD/example $T/st.o
EOF
fi

# ------------------------------------------------------------ one letter, one meaning

# opt_table: "-x --long" for every lettered row of 'structfit help options'
opt_table() {
	"$SF" help options | sed -nE 's/^  -([A-Za-z]), --([a-z-]+).*/-\1 --\2/p'
}

tcase "help options: one row per letter; doc/options.md carries its output verbatim"
sf_ok help options
cp "$T/out" "$T/options.txt"
assert_grep "$T/options.txt" "-k, --classes SPEC" "the classes row"
opt_table >"$T/letters.txt"
assert_ne "$(wc -l <"$T/letters.txt")" 0 "lettered rows"
assert_eq "$(cut -d' ' -f1 "$T/letters.txt" | sort | uniq -d | tr '\n' ' ')" "" \
	"letters with two meanings"
sed -n '/^<!-- structfit help options -->$/,/^<!-- end structfit help options -->$/p' \
	"$E2E_ROOT/doc/options.md" | sed '1,2d;$d' | sed '$d' >"$T/readme-options.txt"
assert_eq "$(cat "$T/readme-options.txt")" "$(cat "$T/options.txt")" \
	"doc/options.md's table vs 'structfit help options'"

for c in $COMMANDS; do
	# pahole's letters are pahole's (its own table), under that command only
	[ "$c" = pahole ] && continue
	tcase "$c --help: each short option means what the one table says"
	"$SF" "$c" --help | sed -nE 's/^ +-([A-Za-z]), +--([a-z-]+).*/-\1 --\2/p' >"$T/h.txt"
	while read -r short long; do
		want=$(awk -v s="$short" '$1 == s { print $2 }' "$T/letters.txt")
		assert_eq "$long" "$want" "$c: $short"
	done <"$T/h.txt"
	# a letter the command takes works as its long name
	case $c in
	holes)
		one_line_error "holes -l x" "$SF" holes -l x "$T/none.o"
		assert_grep "$T/err" "--limit" "-l is --limit" ;;
	suggest | fit)
		one_line_error "$c -k nosuch" "$SF" "$c" -t a -k nosuch "$T/none.o"
		assert_grep "$T/err" "--classes" "-k is --classes" ;;
	show)
		one_line_error "show -c 3" "$SF" show -c 3 "$T/none.o"
		assert_grep "$T/err" "--cacheline" "-c is --cacheline" ;;
	esac
done

# shown: "NAME SIZE" for each type of show's text output in $T/out
shown() {
	awk '/^(struct|union|class) / { n = $2 } /\/\* size: / { sub(",", "", $3); print n, $3 }' "$T/out"
}

tcase "type names: -C is -t, lists, globs, typedef names (as pahole -C FILE)"
if gcc -g -O0 -o "$T/names" "$TD/e2e/names.c" 2>"$T/cc.err"; then
	"$T/names" >"$T/sizes.txt" || fail "the probe did not run"
	size_of() { awk -v n="$1" '$1 == n { print $2 }' "$T/sizes.txt"; }
	sf_ok show -t FILE "$T/names"
	assert_eq "$(shown)" "_IO_FILE $(size_of FILE)" "-t FILE: struct _IO_FILE, sizeof(FILE)"
	cp "$T/out" "$T/file.txt"
	sf_ok show -C FILE "$T/names"
	assert_eq "$(cat "$T/out")" "$(cat "$T/file.txt")" "-C FILE is -t FILE"
	sf_ok show -t _IO_FILE "$T/names"
	assert_eq "$(cat "$T/out")" "$(cat "$T/file.txt")" "-t FILE is -t _IO_FILE"
	if have pahole; then
		assert_eq "$(grep -c 'XXX' "$T/file.txt")" \
			"$(pahole -C _IO_FILE "$T/names" | grep -c 'XXX')" "holes of _IO_FILE (pahole)"
	fi
	sf_ok show -t rb_alias_t "$T/names"
	assert_eq "$(shown)" "rb_node $(size_of rb_node)" "typedef chain rb_alias_t"
	sf_ok show -t 'rb_*' "$T/names"
	assert_eq "$(shown | tr '\n' ' ')" "rb_node $(size_of rb_node) rb_tree $(size_of rb_tree) " \
		"glob 'rb_*'"
	sf_ok show -t 'struct rb_*,other' "$T/names"
	assert_eq "$(shown | tr '\n' ' ')" \
		"rb_node $(size_of rb_node) rb_tree $(size_of rb_tree) other $(size_of other) " \
		"list of a glob and a name"
	sf_ok fit -C 'rb_node_t+other' -k 8,16,24,32 "$T/names"
	assert_match "$(head -n 1 "$T/out")" "= $(($(size_of rb_node) + $(size_of other))) bytes" \
		"fit -C a typedef + a struct"
	sf_ok diff --format json -t 'rb_*,FILE' "$T/names" "$T/names"
	assert_eq "$(jget "$T/out" 'd["summary"]["compared"]')" 3 "diff -t 'rb_*,FILE': rb_node, rb_tree, _IO_FILE"
	one_line_error "suggest -t 'rb_*' (two types)" "$SF" suggest -t 'rb_*' "$T/names"
	assert_grep "$T/err" "rb_node" "names what matched"
	one_line_error "suggest -t a,b" "$SF" suggest -t rb_node,other "$T/names"
	one_line_error "show -t 'a,,b'" "$SF" show -t 'rb_node,,other' "$T/names"
	one_line_error "show -t 'nosuch*'" "$SF" show -t 'nosuch*' "$T/names"
else
	fail "cannot build names.c: $(head -n 2 "$T/cc.err" | tr '\n' ' ')"
fi

tcase "type names: commas inside C++ template arguments do not split"
if g++ -g -O0 -o "$T/names_cxx" "$TD/e2e/names.cpp" 2>"$T/cc.err"; then
	"$T/names_cxx" >"$T/sizes.txt" || fail "the C++ probe did not run"
	size_of() { awk -v n="$1" '$1 == n { print $2 }' "$T/sizes.txt"; }
	sf_ok show -t 'pair2<int, char>' "$T/names_cxx"
	assert_eq "$(shown)" "pair2<int, $(size_of il)" "one template name with a comma"
	sf_ok show -C 'pair2<int, char>,pair2<char, char>' "$T/names_cxx"
	assert_eq "$(shown | tr '\n' ' ')" "pair2<int, $(size_of il) pair2<char, $(size_of cs) " \
		"a list of two template names"
else
	fail "cannot build names.cpp: $(head -n 2 "$T/cc.err" | tr '\n' ' ')"
fi

# ------------------------------------------------------------ man, completion

tcase "man page renders without warnings and documents every command"
if ! have groff; then
	skip "groff is not installed"
else
	LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z "$MAN" >"$T/groff.err" 2>&1
	assert_eq "$(wc -c <"$T/groff.err")" 0 "groff warnings"
	detail "$T/groff.err"
	LC_ALL=C.UTF-8 MANWIDTH=80 groff -man -Tutf8 -P-cbou "$MAN" >"$T/man.txt" 2>/dev/null
	for s in NAME SYNOPSIS DESCRIPTION COMMANDS "EXIT STATUS" "BUDGET FILES" \
		ENVIRONMENT EXAMPLES; do
		grep -q "^$s" "$T/man.txt" || fail "no $s section"
	done
	for c in $COMMANDS; do
		grep -q "^ *structfit $c" "$T/man.txt" || fail "no section for '$c'"
	done
	assert_grep "$T/man.txt" "NO_COLOR" "NO_COLOR"
fi

# probe_takes CMD OPT: CMD takes OPT (run with it alone, it does not say
# the option is unknown or pahole's and not done).  Read in the shell: a
# command's probes are a hundred, two processes each.
probe_takes() {
	local err=""
	timeout 20 "$SF" "$1" "$2" </dev/null >/dev/null 2>"$T/probe.err"
	IFS= read -r -d '' err <"$T/probe.err"
	case $err in
	*"unknown option '$2'"* | *"is not done by structfit"*) return 1 ;;
	esac
	return 0
}

# accepted_long CMD: the long options CMD takes, found by asking it: every
# long name of 'structfit help options' and every one its --help mentions,
# given alone; the ones it does not refuse as an unknown option (or, under
# pahole, as a pahole option structfit does not do).  getopt takes a unique
# abbreviation (holes --count is --counts): a name that begins another one
# taken, and is no row of the command's help, is that one's abbreviation,
# left out (pahole's --class_name is a row, and begins --class_name_len).
accepted_long() {
	local o
	"$SF" "$1" --help | sed -nE 's/^ +(-[A-Za-z], +)?(--[a-z][a-z0-9_-]*).*/\2/p' \
		>"$T/rows.txt"
	{ "$SF" help options | sed -nE 's/^  (-[A-Za-z],|   ) --([a-z][a-z0-9-]*).*/--\2/p'
	  "$SF" "$1" --help | grep -oE -- '--[a-z][a-z0-9_-]*'; } | sort -u |
	while read -r o; do
		probe_takes "$1" "$o" && echo "$o"
	done >"$T/taken.txt"
	# (fit takes both --count and --counts: a row of its own --help is
	# an option, not an abbreviation)
	while read -r o; do
		grep -qx -- "$o" "$T/rows.txt" || ! grep -q -- "^$o." "$T/taken.txt" && echo "$o"
	done <"$T/taken.txt"
}

# accepted_short CMD: the letters CMD takes ("-x" a line), asked the same way
accepted_short() {
	local l
	for l in {a..z} {A..Z}; do
		probe_takes "$1" "-$l" && printf '%s\n' "-$l"
	done
}

# man_section CMD: CMD's part of the man page (its .SS up to the next .SS or
# .SH), then COMMON OPTIONS, which every command shares
man_section() {
	awk -v c="$1" '/^\.S[SH] / { on = index($0, "\"structfit " c " ") == 5 ||
	                                   index($0, "\"COMMON OPTIONS\"") } on' "$MAN"
}

for c in $COMMANDS; do
	tcase "$c: the options it takes are the ones its --help, man page and completion list"
	"$SF" "$c" --help >"$T/help.txt" 2>/dev/null
	accepted_long "$c" >"$T/accepted.txt"
	assert_grep "$T/accepted.txt" "--help" "probing finds --help"
	long_opts "$c" >"$T/listed.txt"
	echo --help >>"$T/listed.txt"
	assert_eq "$(sort -u "$T/listed.txt" | tr '\n' ' ')" "$(tr '\n' ' ' <"$T/accepted.txt")" \
		"$c: the rows of its --help are the long options it takes"
	mentioned=$(grep -oE -- '--[a-z][a-z0-9_-]*' "$T/help.txt" | sort -u)
	for o in $mentioned; do
		grep -qx -- "$o" "$T/accepted.txt" || fail "$c --help mentions $o, which $c refuses"
	done
	# every letter it takes is a row of its help, or -C (-t's pahole spelling)
	accepted_short "$c" >"$T/letters-taken.txt"
	sed -nE 's/^  (-[A-Za-z]), --.*/\1/p' "$T/help.txt" | sort -u >"$T/letters-listed.txt"
	grep -q -- '^-t$' "$T/letters-listed.txt" && echo -C >>"$T/letters-listed.txt"
	assert_eq "$(sort -u "$T/letters-taken.txt" | tr '\n' ' ')" \
		"$(sort -u "$T/letters-listed.txt" | tr '\n' ' ')" "$c: the letters it takes are its help's"
	man_section "$c" >"$T/man-section.txt"
	assert_ne "$(wc -l <"$T/man-section.txt")" 0 "$c has a man section"
	for o in $(cat "$T/accepted.txt"); do
		grep -qF -- "${o//-/\\-}" "$T/man-section.txt" ||
			fail "$c's man section (or COMMON OPTIONS) lacks $o"
	done
	# the completion lists a command's options on its own "cmd)" line
	completed=$( { echo --help; grep -E "^[[:space:]]*$c\) opts=" "$COMPLETION" |
		grep -oE -- '--[a-z][a-z0-9_-]*'; } | sort -u | tr '\n' ' ')
	assert_eq "$completed" "$(tr '\n' ' ' <"$T/accepted.txt")" \
		"$c: the completion offers the long options it takes"
done

tcase "the completion's letters mean what the one table says"
opt_table >"$T/letters.txt"
# the letters whose option takes a value: those the completion must map
"$SF" help options | sed -nE 's/^  (-[A-Za-z]), --[a-z-]+ [^ ].*/\1/p' >"$T/valued.txt"
sed -nE 's/^[[:space:]]*(-[A-Za-z])( \| -C)?\) opt=(--[a-z-]+) ;;.*/\1 \3/p' "$COMPLETION" >"$T/comp-letters.txt"
assert_ne "$(wc -l <"$T/comp-letters.txt")" 0 "letter lines in the completion"
while read -r short long; do
	assert_eq "$long" "$(awk -v s="$short" '$1 == s { print $2 }' "$T/letters.txt")" \
		"completion: $short"
done <"$T/comp-letters.txt"
assert_eq "$(sort "$T/valued.txt" | tr '\n' ' ')" \
	"$(cut -d' ' -f1 "$T/comp-letters.txt" | sort | tr '\n' ' ')" \
	"the completion maps every letter of the table whose option takes a value"

tcase "bash completion completes commands, options and values"
if ! have bash; then
	skip "bash is not installed"
else
	mkdir -p "$T/comp/srcdir" && : >"$T/comp/a.o"
	(cd "$T/comp" && bash -c '
		. "$1" || exit 1
		t() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _structfit
		      echo "${COMPREPLY[*]}"; }
		t structfit "h"
		t structfit show --for
		t structfit show --format ""
		t structfit holes --sort s
		t structfit suggest --classes ruby
		t structfit show --color = al
		t structfit suggest -k k
		t structfit show -c 1
		t structfit patch -R ""
		t structfit show -t st_table ""
		complete -p structfit
	' _ "$COMPLETION") >"$T/comp.txt" 2>&1 || fail "sourcing the completion failed"
	assert_eq "$(sed -n 1p "$T/comp.txt")" "holes help" "commands starting with h"
	assert_eq "$(sed -n 2p "$T/comp.txt")" "--format" "show --for"
	assert_eq "$(sed -n 3p "$T/comp.txt")" "text json html" "show --format"
	assert_eq "$(sed -n 4p "$T/comp.txt")" "size" "holes --sort s"
	assert_eq "$(sed -n 5p "$T/comp.txt")" "ruby-3.3" "--classes ruby"
	assert_eq "$(sed -n 6p "$T/comp.txt")" "always" "--color=al"
	assert_eq "$(sed -n 7p "$T/comp.txt")" "kmalloc" "suggest -k (classes)"
	assert_eq "$(sed -n 8p "$T/comp.txt")" "128" "show -c (cacheline)"
	assert_eq "$(sed -n 9p "$T/comp.txt")" "srcdir" "patch -R (directories)"
	assert_eq "$(sed -n 10p "$T/comp.txt" | tr ' ' '\n' | sort | tr '\n' ' ')" "a.o srcdir " "FILE"
	assert_match "$(sed -n 11p "$T/comp.txt")" "-F _structfit structfit$" "complete -p"
fi

# ------------------------------------------------------------ make install

tcase "make install PREFIX=/usr DESTDIR=...: binary, man page, completion in place"
root=$T/root
if ! have make; then
	skip "make is not installed"
else
	make -s -C "$E2E_ROOT" install PREFIX=/usr DESTDIR="$root" >"$T/make.out" 2>&1 ||
		{ fail "make install failed"; detail "$T/make.out"; }
	bin=$root/usr/bin/structfit
	man1=$root/usr/share/man/man1/structfit.1
	comp=$root/usr/share/bash-completion/completions/structfit
	schema=$root/usr/share/doc/structfit/structfit.schema.json
	for f in "$bin" "$man1" "$comp" "$schema"; do
		[ -f "$f" ] || fail "${f#"$root"} not installed"
	done
	[ -x "$bin" ] && assert_eq "$(stat -c %a "$bin")" 755 "binary mode"
	[ -f "$man1" ] && assert_eq "$(stat -c %a "$man1")" 644 "man page mode"
	[ -f "$comp" ] && assert_eq "$(stat -c %a "$comp")" 644 "completion mode"
	[ -f "$schema" ] && cmp -s "$schema" "$E2E_ROOT/doc/structfit.schema.json" ||
		fail "installed JSON Schema differs from doc/structfit.schema.json"
	if [ -x "$bin" ]; then
		run "$bin" --version
		assert_eq "$(cat "$T/out")" "$("$SF" --version)" "installed binary --version"
	fi
	if [ -f "$man1" ]; then
		cmp -s "$man1" "$MAN" || fail "installed man page differs from doc/structfit.1"
		if have man; then
			LC_ALL=C.UTF-8 MANWIDTH=80 MANPAGER=cat man -l "$man1" >"$T/man-installed.txt" 2>"$T/man.err" ||
				fail "man -l exited $?"
			assert_match "$(grep -m1 -A1 '^NAME' "$T/man-installed.txt" | tail -n 1)" \
				"structfit +- +show +where" "NAME line"
			assert_grep "$T/man-installed.txt" "EXIT STATUS" "rendered page"
			# man -l renders the same text through MANPATH lookup too
			if MANPATH=$root/usr/share/man LC_ALL=C.UTF-8 MANWIDTH=80 MANPAGER=cat \
				man structfit >"$T/man-path.txt" 2>/dev/null; then
				assert_eq "$(cat "$T/man-path.txt")" "$(cat "$T/man-installed.txt")" \
					"'man structfit' with MANPATH"
			fi
		else
			skip "man (man-db) is not installed"
		fi
	fi
	if [ -f "$comp" ]; then
		bash -c '. "$1" && COMP_WORDS=(structfit che) COMP_CWORD=1 && _structfit &&
			echo "${COMPREPLY[*]}"' _ "$comp" >"$T/comp-installed.txt" 2>&1
		assert_eq "$(cat "$T/comp-installed.txt")" "check" "installed completion"
	fi
fi

tcase "make uninstall removes the binary, the man page and the completion"
if [ -d "$root" ]; then
	make -s -C "$E2E_ROOT" uninstall PREFIX=/usr DESTDIR="$root" >"$T/make.out" 2>&1 ||
		{ fail "make uninstall failed"; detail "$T/make.out"; }
	left=$(find "$root" -type f | sed "s|^$root||")
	assert_eq "$left" "" "files left under DESTDIR"
else
	skip "nothing was installed"
fi

tdone
