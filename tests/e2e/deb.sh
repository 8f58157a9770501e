#!/bin/bash
# tests/e2e/deb.sh - the Debian package: `dpkg-buildpackage -b -us -uc` in a
# temporary copy of the tree (the files git tracks, as a release tarball
# holds them) builds structfit_*.deb; its contents are the binary, the man
# page, the bash completion, the JSON schema and the README (both gzipped,
# as dh_compress leaves documentation); unpacked into a
# scratch root (dpkg-deb -x) the binary runs and reads an object; lintian
# finds no error and no warning in it.  Built once, in the plain run: the
# sanitizer run (STRUCTFIT set to another binary) skips, saying so.
. "$(dirname "$0")/lib.sh"

tcase "dpkg-buildpackage -b -us -uc builds structfit_*.deb from a copy of the tree"
if [ -n "${STRUCTFIT:-}" ] && [ "$STRUCTFIT" != "$E2E_ROOT/structfit" ]; then
	skip "the package is built once, in the plain e2e run (this run tests $STRUCTFIT)"
	tdone
	exit 0
fi
for tool in dpkg-buildpackage dh lintian fakeroot; do
	command -v "$tool" >/dev/null || fail "$tool is not installed (debhelper, lintian, fakeroot and dpkg-dev are in TEST_PKGS)"
done
SRC=$T/structfit-src
mkdir -p "$SRC"
(cd "$E2E_ROOT" && git ls-files -z | xargs -0 cp --parents -t "$SRC") 2>"$T/cp.err" ||
	fail "cannot copy the tree: $(head -n 1 "$T/cp.err")"
(cd "$SRC" && DEB_BUILD_OPTIONS=parallel=2 nice dpkg-buildpackage -b -us -uc) >"$T/build.log" 2>&1 ||
	{ fail "dpkg-buildpackage failed: $(grep -m1 -i 'error' "$T/build.log")"; detail "$T/build.log"; }
DEB=$(ls "$T"/structfit_*.deb 2>/dev/null | head -n 1)
[ -n "$DEB" ] || fail "no structfit_*.deb was made"

tcase "the package holds the binary, the man page, the completion, the schema, the README"
if [ -n "$DEB" ]; then
	dpkg-deb -c "$DEB" | awk '{print $NF}' >"$T/contents"
	for f in ./usr/bin/structfit ./usr/share/man/man1/structfit.1.gz \
		./usr/share/bash-completion/completions/structfit \
		./usr/share/doc/structfit/structfit.schema.json.gz ./usr/share/doc/structfit/README.md.gz \
		./usr/share/doc/structfit/copyright; do
		grep -qxF "$f" "$T/contents" || fail "$f is not in the package"
	done
	assert_eq "$(dpkg-deb -f "$DEB" Package Architecture | tr '\n' ' ')" \
		"Package: structfit Architecture: $(dpkg --print-architecture) " "control fields"
else
	fail "no package"
fi

tcase "installed into a scratch root, the binary runs and reads an object"
if [ -n "$DEB" ]; then
	dpkg-deb -x "$DEB" "$T/root"
	gcc -g -c -o "$T/st_table.o" "$TD/example/st_table.c" || fail "gcc cannot build the example"
	"$T/root/usr/bin/structfit" show -t st_table "$T/st_table.o" >"$T/out" 2>"$T/err"
	assert_eq "$?" 0 "exit status of the packaged binary"
	assert_grep "$T/out" "/* size: 48, cachelines: 1, members: 9 */" "the summary"
	assert_eq "$("$T/root/usr/bin/structfit" --version | head -n 1)" \
		"$("$SF" --version | head -n 1)" "--version, packaged and built"
else
	fail "no package"
fi

tcase "lintian: no error, no warning"
if [ -n "$DEB" ]; then
	lintian --tag-display-limit 0 "$DEB" >"$T/lintian" 2>&1
	if grep -q '^[EW]: ' "$T/lintian"; then
		fail "lintian: $(grep -c '^[EW]: ' "$T/lintian") errors/warnings: $(grep -m3 '^[EW]: ' "$T/lintian" | tr '\n' ' ')"
	fi
else
	fail "no package"
fi

tdone
