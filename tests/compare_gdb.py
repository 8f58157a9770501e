#!/usr/bin/env python3
"""tests/compare_gdb.py cmds JSON OUT      - gdb commands for the types in JSON
   tests/compare_gdb.py check JSON GDBOUT  - structfit against gdb's layouts

gdb is the oracle for real dwz'd debug files (Debian's debug packages):
pahole 1.24 prints nothing for them, and there is no build before dwz.
`cmds` writes, for every named struct and union of `structfit show --format
json`, an "echo @@ KIND NAME" marker and "ptype /o KIND NAME".  `check`
reads gdb's output of those commands and compares, per type, the total
size and every top-level member in order: its name (empty for an anonymous
member), where it starts in bits (gdb prints "byte: bit" for bit-fields,
structfit the storage unit's offset and the bit offset in it) and its size
(bytes, or bits for a bit-field).  One line per difference; status 1 if any,
2 if gdb laid out nothing."""
import json
import re
import sys

ROW = re.compile(r"^/\*\s*(?:(\d+)(?::\s*(\d+))?\s*\|)?\s*(\d+)\s*\*/(\s*)(.*)$")


def named(d):
    """{(kind, name): [definitions]}: differing definitions under one name
    (in different units) are all reported; gdb shows one of them."""
    out = {}
    for t in d["types"]:
        if t["name"] and not t["typedef"] and t["kind"] in ("struct", "union"):
            out.setdefault((t["kind"], t["name"]), []).append(t)
    return out


def member_name(text):
    """The member a declaration names: 'int (*f)(void);' -> f,
    'char a[3];' -> a, 'unsigned x : 3;' -> x, '} s_name;' -> s_name."""
    text = text.rstrip(";").strip()
    m = re.search(r"\(\*\s*(\w+)(?:\[\d*\])*\)", text)
    if m:
        return m.group(1)
    text = re.sub(r"\s*:\s*\d+$", "", text)
    text = re.sub(r"(\[\d*\])+$", "", text).strip()
    if text == "}":
        return ""
    m = re.search(r"(\w+)$", text)
    return m.group(1) if m else ""


def parse(path):
    """{(kind, name): (size, [(member, bitpos or None, size, is_bits)])}"""
    types, cur, key, depth, pending = {}, None, None, 0, None
    for line in open(path, errors="replace"):
        line = line.rstrip("\n")
        if line.startswith("@@ "):
            _, kind, name = line.split(" ", 2)
            key, cur, depth, pending = (kind, name), [], 0, None
            continue
        if key is None:
            continue
        if "type = " in line and line.rstrip().endswith("{"):
            depth = 1
            continue
        m = re.search(r"/\* total size \(bytes\):\s*(\d+) \*/", line)
        if m and depth == 1:
            types[key] = (int(m.group(1)), cur)
            key = None
            continue
        r = ROW.match(line)
        text = r.group(5) if r else line.strip()
        if r and depth == 1:
            off, bit, size = r.group(1), r.group(2), int(r.group(3))
            bitpos = None if off is None else int(off) * 8 + int(bit or 0)
            bits = re.search(r":\s*(\d+);$", text)
            entry = [member_name(text), bitpos, int(bits.group(1)) if bits else size, bool(bits)]
            if text.endswith("{"):
                pending = entry     # named by its closing line
            else:
                cur.append(tuple(entry))
        if not r or depth > 1 or text.endswith("{"):
            if text.endswith("{"):
                depth += 1
            elif text.startswith("}"):
                depth -= 1
                if depth == 1 and pending is not None:
                    pending[0] = member_name(text)
                    cur.append(tuple(pending))
                    pending = None
    return types


def ours(t):
    out = []
    union = t["kind"] == "union"
    for m in t["members"]:
        if m.get("bitfield"):
            out.append((m["name"], m["offset"] * 8 + m["bit_offset"], m["bit_size"], True))
        else:
            out.append((m["name"], None if union else m["offset"] * 8, m["size"], False))
    return out


def main():
    mode, jpath, other = sys.argv[1:4]
    d = json.load(open(jpath))
    if mode == "cmds":
        with open(other, "w") as f:
            for kind, name in named(d):
                f.write("echo @@ %s %s\\n\nptype /o %s %s\n" % (kind, name, kind, name))
        return 0
    gdb = parse(other)
    if not gdb:
        print("gdb laid out no type")
        return 2
    bad = n = 0
    for (kind, name), defs in named(d).items():
        g = gdb.get((kind, name))
        if g is None:
            print("%s %s: gdb has no layout" % (kind, name))
            bad += 1
            continue
        n += 1
        if kind == "union":
            g = (g[0], [(a, None, c, e) for a, _, c, e in g[1]])
        if not any(t["size"] == g[0] and ours(t) == g[1] for t in defs):
            t = defs[0]
            print("%s %s: size %d, members %s; gdb: size %d, members %s" %
                  (kind, name, t["size"], ours(t), g[0], g[1]))
            bad += 1
    print("%d types compared, %d differ" % (n, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
