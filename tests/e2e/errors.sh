#!/bin/bash
# tests/e2e/errors.sh - bad input and bad usage: exit 2, exactly one line
# on stderr that starts "structfit: " and names the file (or the option)
# and the problem; stdout empty (with --format json: the error document
# and nothing else); no file left behind, in the working
# directory or in TMPDIR.  Never a crash (a signal fails the case).
. "$(dirname "$0")/lib.sh"

ST_SRC=$TD/example/st_table.c
WORK=$T/cwd        # the directory structfit runs in
TMPD=$T/tmp        # its TMPDIR
mkdir -p "$WORK" "$TMPD"

# expect_error WHAT ERE ARGS...: structfit ARGS... must exit 2 with one
# stderr line "structfit: ..." matching ERE, nothing on stdout (with
# --format json only the error document), and leave
# no file in its working directory or TMPDIR.
expect_error() {
	local what=$1 re=$2
	shift 2
	RC=0
	(cd "$WORK" && TMPDIR=$TMPD timeout --kill-after=10 "$E2E_TIMEOUT" "$SF" "$@") \
		>"$T/out" 2>"$T/err" </dev/null || RC=$?
	if [ "$RC" -gt 128 ] || [ "$RC" = 124 ]; then
		fail "$what: crashed or hung (status $RC): $(head -c 200 "$T/err")"
		return
	fi
	assert_eq "$RC" 2 "$what: exit status" || detail "$T/err" "stderr"
	assert_eq "$(wc -l <"$T/err")" 1 "$what: stderr lines" || detail "$T/err" "stderr"
	assert_match "$(cat "$T/err")" "^structfit: " "$what: stderr prefix"
	assert_match "$(cat "$T/err")" "$re" "$what: message"
	case " $* " in
	*" --format json "*)
		# never partial output: the whole document is the error (ci.sh
		# checks every machine format's error document)
		assert_eq "$(jget "$T/out" 'sorted(d) if d.get("schema") == "structfit/1" else d')" \
			'["command", "error", "schema"]' "$what: stdout is the error document, nothing else" ;;
	*) assert_eq "$(wc -c <"$T/out")" 0 "$what: stdout bytes" ;;
	esac
	assert_eq "$(find "$WORK" "$TMPD" -mindepth 1 | wc -l)" 0 "$what: files left behind"
	rm -rf "${WORK:?}"/* "${TMPD:?}"/*
}

if ! compile_or_fail gcc x86_64 5 "$T/st.o" "$ST_SRC"; then
	tdone
fi
size=$(wc -c <"$T/st.o")

tcase "not an ELF file"
printf 'hello, world\n' >"$T/text.txt"
: >"$T/empty"
head -c 4096 /dev/zero | tr '\0' '\252' >"$T/random.bin"
printf '!<arch>\nnot really an archive\n' >"$T/fake.a"
for f in text.txt empty random.bin fake.a; do
	for cmd in show holes; do
		expect_error "$cmd $f" "$T/$f: .*" "$cmd" "$T/$f"
	done
done
assert_match "$(sf show "$T/text.txt"; cat "$T/err")" "ELF" "names the problem (not ELF)"

tcase "truncated ELF"
for n in 16 64 200 1000 $((size / 2)) $((size - 1)); do
	head -c "$n" "$T/st.o" >"$T/trunc-$n.o"
	expect_error "first $n of $size bytes" "$T/trunc-$n.o: .*" show "$T/trunc-$n.o"
	expect_error "holes, first $n bytes" "$T/trunc-$n.o: .*" holes "$T/trunc-$n.o"
done
sf show "$T/trunc-1000.o"
assert_match "$(cat "$T/err")" "[Tt]runcat|corrupt|short|too small|invalid" "says what is wrong"

tcase "no DWARF (stripped object, stripped executable)"
strip -g -o "$T/nodebug.o" "$T/st.o"
gcc -c -o "$T/never-debug.o" "$ST_SRC"
expect_error "strip -g object" "$T/nodebug.o: .*(DWARF|debug)" show "$T/nodebug.o"
expect_error "holes, strip -g object" "$T/nodebug.o: .*(DWARF|debug)" holes "$T/nodebug.o"
expect_error "object built without -g" "$T/never-debug.o: .*(DWARF|debug)" show "$T/never-debug.o"
if gcc -g -o "$T/prog" "$TD/e2e/prog.c" "$ST_SRC" 2>"$T/cc.err"; then
	strip -o "$T/prog.stripped" "$T/prog"
	expect_error "stripped executable" "$T/prog.stripped: .*(DWARF|debug)" show "$T/prog.stripped"
else
	fail "gcc cannot link prog: $(head -n 1 "$T/cc.err")"
fi

tcase "missing path, directory without ELF files"
expect_error "missing file" "$T/no/such/file.o: .*" show "$T/no/such/file.o"
expect_error "holes, missing file" "$T/nope.o: .*" holes "$T/nope.o"
mkdir -p "$T/noelf/sub"
echo text >"$T/noelf/sub/a.txt"
expect_error "directory with no ELF file" "$T/noelf: .*" show "$T/noelf"
if [ "$(id -u)" != 0 ]; then
	cp "$T/st.o" "$T/unreadable.o"
	chmod 000 "$T/unreadable.o"
	expect_error "unreadable file" "$T/unreadable.o: .*" show "$T/unreadable.o"
	chmod 600 "$T/unreadable.o"
fi

tcase "one bad input among good ones: nothing printed"
expect_error "good then missing" "$T/missing.o: .*" show "$T/st.o" "$T/missing.o"
expect_error "good then not ELF" "$T/text.txt: .*" show --format json "$T/st.o" "$T/text.txt"
expect_error "holes: good then truncated" "$T/trunc-1000.o: .*" holes "$T/st.o" "$T/trunc-1000.o"

tcase "unknown -t type"
expect_error "-t no_such_struct" "no_such_struct.*not found|not found.*no_such_struct" \
	show -t no_such_struct "$T/st.o"
expect_error "-t st_table -t nope (one found, one not)" "nope" \
	show -t st_table -t nope "$T/st.o"
expect_error "-t 'struct RHash' --format json -t missing_one" "missing_one" \
	show --format json -t "struct RHash" -t missing_one "$T/st.o"
expect_error "-t ''" "." show -t "" "$T/st.o"

tcase "bad option values"
expect_error "--cacheline abc" "cacheline|abc" show --cacheline abc "$T/st.o"
expect_error "--cacheline -64" "cacheline|-64" show --cacheline -64 "$T/st.o"
expect_error "--cacheline 0" "cacheline|0" show --cacheline 0 "$T/st.o"
expect_error "--cacheline 64x" "cacheline|64x" show --cacheline 64x "$T/st.o"
expect_error "--cacheline 99999999999999999999999" "cacheline|9999" show --cacheline 99999999999999999999999 "$T/st.o"
expect_error "--format xml" "format|xml" show --format xml "$T/st.o"
expect_error "holes --format sarif" "format|sarif" holes --format sarif "$T/st.o"
expect_error "--min-waste -1" "min-waste|-1" holes --min-waste -1 "$T/st.o"
expect_error "--min-waste lots" "min-waste|lots" holes --min-waste lots "$T/st.o"
expect_error "--sort weight" "sort|weight" holes --sort weight "$T/st.o"
expect_error "--limit x" "limit|x" holes --limit x "$T/st.o"
expect_error "--limit -2" "limit|-2" holes --limit -2 "$T/st.o"
expect_error "--cacheline without value" "cacheline" show "$T/st.o" --cacheline

tcase "unknown option, unknown command, no FILE"
expect_error "show --frobnicate" "frobnicate" show --frobnicate "$T/st.o"
expect_error "holes -Z" "Z" holes -Z "$T/st.o"
expect_error "structfit frobnicate" "frobnicate" frobnicate "$T/st.o"
expect_error "show without FILE" "FILE|file|argument|usage" show
expect_error "holes without FILE" "FILE|file|argument|usage" holes

tcase "corrupted bytes inside the object: an error or a result, never a crash"
# overwrite 32 bytes (all 0xff, then all 0x00) at several places: ELF
# header, section data, section headers; each run must exit 0 or 2 (with
# one stderr line when 2)
for at in 0 24 40 58 256 $((size / 3)) $((size / 2)) $((size * 2 / 3)) $((size - 200)) $((size - 40)) \
	0:00 40:00 $((size / 2)):00 $((size - 40)):00; do
	byte='\377'
	case $at in *:00) at=${at%:00}; byte='\0' ;; esac
	cp "$T/st.o" "$T/corrupt.o"
	head -c 32 /dev/zero | tr '\0' "$byte" | dd of="$T/corrupt.o" bs=1 seek="$at" conv=notrunc status=none
	RC=0
	(cd "$WORK" && TMPDIR=$TMPD timeout --kill-after=10 60 "$SF" show "$T/corrupt.o") \
		>"$T/out" 2>"$T/err" || RC=$?
	case $RC in
	0) ;;
	2) assert_eq "$(wc -l <"$T/err")" 1 "corrupt at $at: stderr lines" ;;
	*)
		cp "$T/corrupt.o" "$E2E_ROOT/build/crash-$at.o" 2>/dev/null
		fail "corrupt at $at: exit $RC (input kept as build/crash-$at.o): $(head -c 200 "$T/err")"
		;;
	esac
done

tdone
