#!/bin/sh
# doc/make-st_table-map.sh - regenerate doc/st_table-map.png, the README's
# picture of st_table's byte map, with no build-machine path in it.
#
#   sh doc/make-st_table-map.sh [OUT.png]     (default doc/st_table-map.png)
#   sh doc/make-st_table-map.sh --html OUT    only the page (for the tests)
#
# The example is built in a temp dir under the relative names a user's
# checkout has (testdata/example/st_table.c -> build/example/st_table.o),
# shown with --source-root ., and screenshot by headless Chromium at
# 1200x450, as tests/e2e/html.sh does.
cd "$(dirname "$0")/.." || exit 2
root=$(pwd)
sf=${STRUCTFIT:-$root/structfit}
html_only=""
if [ "${1:-}" = --html ]; then html_only=$2; fi
out=${1:-doc/st_table-map.png}
case $out in /*) ;; *) out=$root/$out ;; esac
case $html_only in ""|/*) ;; *) html_only=$root/$html_only ;; esac

tmp=$(mktemp -d "${TMPDIR:-/tmp}/sf-map.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/w/testdata/example" "$tmp/w/build/example" "$tmp/prof"
cp testdata/example/st_table.c "$tmp/w/testdata/example/" || exit 2
cd "$tmp/w" || exit 2
gcc -g -O2 -c -o build/example/st_table.o testdata/example/st_table.c || exit 2
"$sf" show --format html --source-root . -t st_table build/example/st_table.o >"$tmp/page.html" || exit 2
if [ -n "$html_only" ]; then
	cp "$tmp/page.html" "$html_only"
	exit $?
fi
HOME=$tmp/prof XDG_CONFIG_HOME=$tmp/prof XDG_CACHE_HOME=$tmp/prof \
	"${CHROMIUM:-/usr/bin/chromium}" --headless --no-sandbox --disable-gpu --no-first-run \
	--disable-background-networking --disable-component-update --disable-sync \
	--user-data-dir="$tmp/prof" --screenshot="$tmp/map.png" --window-size=1200,450 \
	--hide-scrollbars "file://$tmp/page.html" >/dev/null 2>&1
[ -s "$tmp/map.png" ] || { echo "make-st_table-map: chromium made no screenshot" >&2; exit 1; }
cp "$tmp/map.png" "$out"
