#!/usr/bin/env python3
"""tests/compare_facts.py FACTS JSON TYPE... - a compiler's layout against
`structfit show --format json`.

FACTS holds "TYPE KEY VALUE" lines printed by a probe program the compiler
built (rustc's size_of/align_of/offset_of!, Go's unsafe.Sizeof/Offsetof,
gfortran's storage_size/loc): KEY is "size", "align", a member name, or
"Variant.member" for a field of an enum variant.  TYPE may hold blanks
(Rust generics), so VALUE and KEY are taken from the end of the line.
Every fact of every TYPE named must match; the status is 1 otherwise, with
one line per difference."""
import json
import sys


def main():
    facts, out, names = sys.argv[1], sys.argv[2], sys.argv[3:]
    want = {}
    for line in open(facts):
        if line.strip():
            ty, key, val = line.rsplit(None, 2)
            want.setdefault(ty, {})[key] = int(val)
    types = {t["name"]: t for t in json.load(open(out))["types"]}
    bad = 0
    for n in names:
        t = types.get(n)
        if t is None:
            print("%s: not in show's output" % n)
            bad = 1
            continue
        if not want.get(n):
            print("%s: the probe printed nothing about it" % n)
            bad = 1
        got = {"size": t["size"], "align": t["align"]}
        for m in t["members"]:
            got[m["name"]] = m["offset"]
        for v in t.get("variants", []):
            for m in v["members"]:
                got["%s.%s" % (v["name"], m["name"])] = m["offset"]
        for k, v in sorted(want.get(n, {}).items()):
            if got.get(k) != v:
                print("%s %s: structfit %s, compiler %s" % (n, k, got.get(k), v))
                bad = 1
    return bad


if __name__ == "__main__":
    sys.exit(main())
