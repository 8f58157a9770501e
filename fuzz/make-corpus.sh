#!/bin/sh
# fuzz/make-corpus.sh - write the seed corpora of the fuzz targets.
#
#   sh fuzz/make-corpus.sh [DIR]        (default: fuzz/corpus)
#
# DIR/reader: small objects compiled from testdata/ now (gcc and clang,
#   DWARF 4 and 5, x86_64/i386/aarch64/arm relocatable objects, type units,
#   compressed debug sections, an executable, an archive, a stripped object,
#   raw BTF and a BTF-only object, a single-file dwz'd executable),
#   the hostile DWARF of testdata/hostile assembled, and the regression
#   inputs of testdata/regress/*.b64 (decoded).
# DIR/budget: budget files: every rule form of layout/budget.h, and the
#   budget regression inputs of testdata/regress/*.budget.b64.
# DIR/source: C sources `patch` reads: testdata/patch, the projects of
#   testdata/projects (initializers, banners, macros, #if blocks), the
#   regression inputs of testdata/regress/*.source.c, and a struct s in
#   the shapes the rewriter knows.
#
# Nothing here is committed: the corpora are made at fuzz time (tests/fuzz.sh)
# and grow as the fuzzers find new inputs.  Seeds that exist are kept.

set -u
cd "$(dirname "$0")/.." || exit 2
out=${1:-fuzz/corpus}
mkdir -p "$out/reader" "$out/budget" "$out/source" || exit 2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sf-corpus.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

n=0
# seed NAME CC FLAGS... SRC: compile SRC into $out/reader/NAME (quietly
# skipped when the compiler cannot build that target here)
seed() {
	name=$1
	shift
	if "$@" -c -o "$tmp/$name" 2>/dev/null; then
		cp "$tmp/$name" "$out/reader/$name"
		n=$((n + 1))
	fi
}

FS=-ffreestanding
seed st_table-gcc4.o gcc -gdwarf-4 -O0 testdata/example/st_table.c
seed st_table-clang5.o clang -gdwarf-5 -O0 testdata/example/st_table.c
seed bitfields-gcc5.o gcc -gdwarf-5 -O0 testdata/reader/bitfields.c
seed bitfields-clang4-arm.o clang --target=armv7-linux-gnueabihf $FS -gdwarf-4 testdata/reader/bitfields.c
seed shapes-clang5-aarch64.o clang --target=aarch64-linux-gnu $FS -gdwarf-5 testdata/reader/shapes.c
seed shapes-gcc4-i386.o gcc -m32 $FS -gdwarf-4 testdata/reader/shapes.c
seed abi-gcc2.o gcc -gdwarf-2 -gstrict-dwarf testdata/reader/abi.c
seed abi-clang3-i386.o clang --target=i386-linux-gnu $FS -gdwarf-3 testdata/reader/abi.c
seed layout-gz.o gcc -gdwarf-5 -gz=zlib testdata/reader/layout.c
seed holes-types.o gcc -gdwarf-4 -fdebug-types-section testdata/e2e/holes.c
seed widget-g++5.o g++ -gdwarf-5 testdata/reader/widget.cc
seed cxx-clang++4.o clang++ -gdwarf-4 testdata/reader/cxx.cc
seed decl_base-g++4.o g++ -gdwarf-4 -fdebug-types-section testdata/reader/decl_base.cc
seed variant_a-clang5.o clang -gdwarf-5 -O1 testdata/e2e/variant_a.c

# an executable (program headers, relocations already applied)
if gcc -gdwarf-5 -O0 -o "$tmp/prog" testdata/e2e/prog.c 2>/dev/null; then
	cp "$tmp/prog" "$out/reader/prog-exe"
	n=$((n + 1))
fi
# an archive of two members, and a stripped object (no DWARF)
if gcc -gdwarf-4 -c -o "$tmp/a.o" testdata/e2e/dup_a.c 2>/dev/null &&
	gcc -gdwarf-5 -c -o "$tmp/b.o" testdata/e2e/variant_b.c 2>/dev/null &&
	(cd "$tmp" && ar rcs lib.a a.o b.o) 2>/dev/null; then
	cp "$tmp/lib.a" "$out/reader/lib.a"
	objcopy --strip-debug "$tmp/a.o" "$out/reader/stripped.o" 2>/dev/null
	n=$((n + 2))
fi
# BTF (btf/): a raw file and a BTF-only object, encoded by pahole -J
if command -v pahole >/dev/null 2>&1 &&
	gcc -gdwarf-5 -c -o "$tmp/btf.o" testdata/btf/types.c 2>/dev/null &&
	pahole --btf_encode_detached="$out/reader/types.btf" "$tmp/btf.o" >/dev/null 2>&1 &&
	pahole -J "$tmp/btf.o" >/dev/null 2>&1 &&
	objcopy --strip-debug "$tmp/btf.o" "$out/reader/types-btf-only.o" 2>/dev/null; then
	n=$((n + 2))
fi
# dwz'd: partial units imported by the compile units (single-file dwz)
if gcc -gdwarf-5 -O0 -o "$tmp/dwz-p1" testdata/dwz/p1_main.c testdata/dwz/p1_util.c 2>/dev/null &&
	dwz "$tmp/dwz-p1" 2>/dev/null; then
	cp "$tmp/dwz-p1" "$out/reader/dwz-p1"
	n=$((n + 1))
fi
# hostile DWARF (testdata/hostile, as tests/e2e/hostile.sh assembles it):
# starting points no compiler gives; the .S files once per CASE
for f in testdata/hostile/*.s testdata/hostile/*.S; do
	[ -f "$f" ] || continue
	b=$(basename "$f")
	case $b in
	*.S) cases="1 2 3 4 5 6 7 8 9" ;;
	*) cases=0 ;;
	esac
	for c in $cases; do
		o="$tmp/hostile-${b%.*}-$c.o"
		gcc -c -Wa,-Itestdata/hostile -DCASE="$c" -o "$o" "$f" 2>/dev/null || continue
		# the 10,000-deep ones are too big to mutate usefully
		[ "$(wc -c <"$o")" -le 32768 ] || continue
		cp "$o" "$out/reader/" && n=$((n + 1))
	done
done
# the regression inputs (tests/e2e/hostile.sh runs them through structfit)
for f in testdata/regress/*.b64; do
	[ -f "$f" ] || continue
	case $f in *.budget.b64) dir=budget ;; *) dir=reader ;; esac
	base64 -d "$f" >"$out/$dir/regress-$(basename "$f" .b64)" && n=$((n + 1))
done

# budget files: one per form the grammar has, and a mixed one
b=$out/budget
printf 'struct st_table size <= 40\n' >"$b/size"
printf 'struct RHash + struct st_table   fits 64 in ruby-3.3   # one GC slot\n' >"$b/fits-preset"
printf 'RHash+st_table fits 64 in 32,64,96,128\n' >"$b/fits-list"
printf 'st_table fits 64\n' >"$b/fits-bare"
printf 'struct rb_*  holes == 0  optional\n* holes <= 16\n' >"$b/glob"
printf 'union num align >= 8 members < 3 padding > 0 waste <= 7\n' >"$b/props"
printf 'class ns::C<int, long> size == 16 cachelines <= 1\n' >"$b/cxx"
printf '# a comment\n\n   \t\nstruct task_struct size <= 9728  cachelines <= 152 optional # x\r\n' >"$b/comments"
printf 'struct [ab]* size > 0 optional\nst_table? size >= 1 optional\n' >"$b/globs"
printf 'struct st_table size <= 18446744073709551615\n' >"$b/big"
printf 'rb_broken waste <= 1\nrb_huge fits 64 in kmalloc\nrb_huge size < 1\n' >"$b/broken"
for p in jemalloc glibc mimalloc tcmalloc kmalloc cacheline; do
	printf 'st_table + RHash fits 64 in %s\n' "$p"
done >"$b/presets"
printf 'struct config@redis-benchmark.c size <= 416\nstruct x@src/a.h + y@ size < 1\nstruct rb_*@st.c holes == 0 optional\n@f size <= 1\n' >"$b/at-file"
n=$((n + 13))

# C sources (fuzz/fuzz_source.c rewrites a `struct s { char a; long b; char c; }`)
for f in testdata/patch/*.c testdata/projects/*/*.[ch] testdata/projects/*/*/*.[ch] \
	testdata/projects/*/*/*.in; do
	[ -f "$f" ] || continue
	cp "$f" "$out/source/$(echo "$f" | tr / _)" && n=$((n + 1))
done
# and the source regression inputs (hostile.sh patches them)
for f in testdata/regress/*.source.c; do
	[ -f "$f" ] || continue
	cp "$f" "$out/source/regress-$(basename "$f" .source.c)" && n=$((n + 1))
done
s=$out/source
printf 'struct s {\n\tchar a;\n\tlong b;\n\tchar c;\n};\n' >"$s/plain"
printf '#define L long\nstruct s {\n\tchar a; /* x */\n#ifdef B\n\tL b;\n#else\n\tint b;\n#endif\n\tchar c;\n};\ntypedef struct s s_t;\ns_t v[] = { { 1, 2, 3 }, [1] = { .a = 1 } };\n_Static_assert(sizeof(struct s) == 24, "");\n' >"$s/mixed"
printf '/* generated by hand: DO NOT EDIT */\ntypedef struct s {\n\tchar a, c;\n\tlong b;\n} s;\n' >"$s/typedef"
n=$((n + 3))

echo "fuzz corpus: $n seeds written to $out"
