#!/bin/sh
# tests/example.sh - `make run`: build the example objects from
# testdata/example/*.c (gcc -g) into build/example/ and show the hole maps
# of Ruby's st_table and the RHash header that sits in front of it.
cd "$(dirname "$0")/.." || exit 2

CC=${CC:-gcc}
out=build/example
sf=./structfit

[ -x "$sf" ] || { echo "example: $sf is not built (run 'make')" >&2; exit 2; }
mkdir -p "$out" || exit 2

objs=""
for src in testdata/example/*.c; do
	obj=$out/$(basename "$src" .c).o
	"$CC" -g -O2 -c -o "$obj" "$src" || {
		echo "example: $CC cannot compile $src" >&2
		exit 2
	}
	objs="$objs $obj"
done

echo "\$ structfit show -t st_table -t RHash$objs"
# shellcheck disable=SC2086
exec "$sf" show -t st_table -t RHash $objs
