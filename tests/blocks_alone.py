#!/usr/bin/env python3
"""blocks_alone.py - every block of a whole report is what `show -t NAME`
prints for that name (issue 27, item 1: an answer must not depend on
what else was asked or laid out).

    blocks_alone.py STRUCTFIT INPUT N JOBS

Runs `show INPUT` and `show --format json INPUT` (the same types in the
same order: JSON gives each text block's name), groups the text blocks by
name (all definitions of a name, in report order), takes a deterministic
sample of N names (every k-th of the sorted names) and runs
`show -t NAME INPUT` for each, JOBS at a time: its output must be exactly
the name's blocks of the whole report.  Prints one line per difference
("NAME: ..."), then "checked C of T names, D differ"; exit 1 if any
differs, 2 if the whole report cannot be had.
"""
import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor


def blocks(text):
    out, cur = [], []
    for line in text.splitlines(keepends=True):
        cur.append(line)
        if line.startswith("}"):
            out.append("".join(cur))
            cur = []
    return out


def main():
    sf, inp, n, jobs = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    run = lambda *a: subprocess.run([sf, *a], capture_output=True, text=True)
    whole, js = run("show", inp), run("show", "--format", "json", inp)
    if whole.returncode or js.returncode:
        print("show %s failed: %s%s" % (inp, whole.stderr, js.stderr))
        return 2
    bl = blocks(whole.stdout)
    names = [t["name"] for t in json.loads(js.stdout)["types"]]
    if len(bl) != len(names):
        print("%d text blocks, %d JSON types" % (len(bl), len(names)))
        return 2
    by = {}
    for name, b in zip(names, bl):
        by.setdefault(name, []).append(b)
    # the bare name is what -t takes; a name the text spells as
    # "struct x" takes "x"
    keys = sorted(by)
    step = max(1, len(keys) // n) if n else 1
    sample = keys[::step][:n] if n else keys

    def alone(name):
        bare = name
        for k in ("struct ", "union ", "class "):
            if bare.startswith(k):
                bare = bare[len(k):]
        r = run("show", "-t", bare, inp)
        return name, r

    bad = 0
    with ThreadPoolExecutor(max_workers=jobs) as ex:
        for name, r in ex.map(alone, sample):
            want = "".join(by[name])
            if r.returncode or r.stdout != want:
                bad += 1
                a, b = want.splitlines(), r.stdout.splitlines()
                diff = [l for l in a if l not in b][:2] + ["alone: " + l for l in b if l not in a][:2]
                print("%s: rc %d, %d lines in the whole report, %d alone; %s" %
                      (name, r.returncode, len(a), len(b), " | ".join(d.strip() for d in diff) or r.stderr.strip()))
    print("checked %d of %d names, %d differ" % (len(sample), len(keys), bad))
    return 1 if bad else 0


sys.exit(main())
