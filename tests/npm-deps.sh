#!/bin/sh
# tests/npm-deps.sh - the npm packages the end-to-end tests validate with,
# installed once into $NPM_DIR (default build/npm), pinned:
#
#   ajv 8.17.1 + ajv-formats 3.0.1    a JSON Schema validator (draft-07),
#   ajv-draft-04 1.0.0                and draft-04, which the SARIF schema is
#   @microsoft/jest-sarif 1.0.0-beta.0  only for the SARIF 2.1.0 JSON
#                                     Schema it ships (lib/schemas/
#                                     sarif-2.1.0-rtm.5.json): fetched with
#                                     `npm pack`, none of its dependencies
#
# Prints nothing and exits 0 when everything is there; otherwise installs
# (npm is the only network the tests use) or fails with one line.
cd "$(dirname "$0")/.." || exit 2
dir=${NPM_DIR:-build/npm}
schema=$dir/sarif-2.1.0-rtm.5.json
[ -f "$dir/node_modules/ajv-formats/package.json" ] && [ -f "$dir/node_modules/ajv/package.json" ] &&
	[ -f "$dir/node_modules/ajv-draft-04/package.json" ] &&
	[ -s "$schema" ] && exit 0
command -v npm >/dev/null 2>&1 || { echo "npm-deps: npm is not installed (Debian package npm)" >&2; exit 1; }
mkdir -p "$dir" || exit 1
npm install --silent --no-audit --no-fund --no-save --prefix "$dir" \
	ajv@8.17.1 ajv-formats@3.0.1 ajv-draft-04@1.0.0 >/dev/null 2>"$dir/npm.log" ||
	{ echo "npm-deps: npm install ajv ajv-formats ajv-draft-04 failed (see $dir/npm.log)" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sf-npm.XXXXXX") || exit 1
(cd "$tmp" && npm pack --silent @microsoft/jest-sarif@1.0.0-beta.0 >/dev/null 2>>"$OLDPWD/$dir/npm.log" &&
	tar xzf microsoft-jest-sarif-1.0.0-beta.0.tgz package/lib/schemas/sarif-2.1.0-rtm.5.json) &&
	cp "$tmp/package/lib/schemas/sarif-2.1.0-rtm.5.json" "$schema.tmp" && mv "$schema.tmp" "$schema"
rc=$?
rm -rf "$tmp"
[ $rc = 0 ] || { echo "npm-deps: could not fetch the SARIF 2.1.0 schema (see $dir/npm.log)" >&2; exit 1; }
exit 0
