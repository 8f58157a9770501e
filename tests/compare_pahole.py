#!/usr/bin/env python3
"""compare_pahole.py - pahole's text report against structfit's JSON.

    compare_pahole.py summary PAHOLE.txt
        one line per type pahole printed:
        kind name size members nholes sum_holes padding nbit_holes sum_bit_holes
        ("-" where pahole prints no number, e.g. the size of a union)

    compare_pahole.py compare PAHOLE.txt STRUCTFIT.json [--exceptions FILE]
                      [--max-report N] [--allow-missing N]
        for every type both report (matched by name), assert that size,
        member count, each member's offset/size/bit offset/bit size, the
        holes (count, sizes in order, sum), trailing padding, bit holes and
        bit padding agree.  pahole prints each differing definition of a
        name once; so may structfit (marked as variants): each pahole
        definition must agree with its own structfit definition of the name.  Exit 0 when everything agrees
        except the listed exceptions, 1 otherwise.

An exceptions FILE holds lines "NAME FIELD REASON..." ('#' comments):
a disagreement on FIELD of type NAME is accepted (and listed as such)
because pahole is wrong there, for the REASON given.  An exception that no
longer matches anything is reported too, so stale ones get noticed.

pahole's text is parsed as pahole 1.24 prints it: a top-level type starts
at "struct|union|class NAME {" in column 0 and ends at a line starting
with "}" (or, for an anonymous struct named by a typedef, as `pahole -C
NAME` prints one, at "typedef struct {" and ends at "} NAME;"); its members are the lines one tab deep that end in an
"/* offset size */" or "/* offset:bit size */" comment (a nested
struct/union/enum is the closing "} name;" line); its holes are the
"/* XXX N byte(s) hole" and "/* XXX N bit(s) hole" comments one tab deep;
the summary comes from the "/* size: ..." block.  pahole 1.24 prints no
summary for a top-level union: only its members are compared.
"""

import json
import re
import signal
import sys

TOP_RE = re.compile(r"^(struct|union|class) (\S+) \{$")
TYPEDEF_TOP_RE = re.compile(r"^typedef (struct|union|class) \{$")   # named by "} NAME;"
TYPEDEF_END_RE = re.compile(r"^\}\s*(?:__attribute__\(\(.*\)\)\s*)?(\w+)\s*;")
MEMBER_RE = re.compile(
    r"^(?P<decl>.*?);\s*/\*\s*(?P<off>\d+)(?::\s*(?P<bit>\d+))?\s+(?P<size>-?\d+)\s*\*/\s*$")
HOLE_RE = re.compile(r"^/\* XXX (\d+) (byte|bytes|bit|bits) hole, try to pack \*/$")
SIZE_RE = re.compile(r"^/\* size: (\d+), cachelines: (\d+), members: (\d+) \*/$")
SUM_RE = re.compile(r"^/\* sum members: (\d+)(?:, holes: (\d+), sum holes: (\d+))? \*/$")
BITSUM_RE = re.compile(
    r"^/\* sum bitfield members: (\d+) bits(?:, bit holes: (\d+), sum bit holes: (\d+) bits)? \*/$")
PAD_RE = re.compile(r"^/\* padding: (\d+) \*/$")
BITPAD_RE = re.compile(r"^/\* bit_padding: (\d+) bits \*/$")
ATTR_RE = re.compile(r"\s*__attribute__\(\(.*\)\)\s*$")
ANY_ATTR_RE = re.compile(r"\s*__attribute__\(\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)\)")


def member_name(decl):
    """The member's name from pahole's declaration text ("" if anonymous)."""
    decl = ANY_ATTR_RE.sub("", decl.strip())
    if decl.startswith("}"):
        decl = decl[1:].strip()
        m = re.match(r"^(\w*)", decl)
        return m.group(1) if m else ""
    m = re.search(r"\(\s*\*+\s*(\w+)\s*\)", decl)  # function pointer (*name)(...)
    if m:
        return m.group(1)
    decl = re.sub(r":\s*\d+\s*$", "", decl)         # bit-field width
    decl = re.sub(r"(\[[^\]]*\])+\s*$", "", decl)   # array dimensions
    m = re.search(r"([\w.]+)\s*$", decl)   # "_vptr.Base" too
    return m.group(1) if m else ""


class PType:
    def __init__(self, kind, name, line):
        self.kind, self.name, self.line = kind, name, line
        self.size = None
        self.nmembers = None
        self.members = []        # (name, offset, size, bit_offset|None, bit_size|None)
        self.holes = []          # sizes in bytes, in order
        self.bit_holes = []      # sizes in bits, in order
        self.sum_members = None
        self.nholes = 0
        self.sum_holes = 0
        self.padding = 0
        self.nbit_holes = 0
        self.sum_bit_holes = 0
        self.bit_padding = 0
        self.has_summary = False


def parse_pahole(text):
    types = []
    cur = None
    for lineno, raw in enumerate(text.splitlines(), 1):
        if cur is None:
            m = TOP_RE.match(raw)
            if m:
                cur = PType(m.group(1), m.group(2), lineno)
            else:
                m = TYPEDEF_TOP_RE.match(raw)
                if m:
                    cur = PType(m.group(1), None, lineno)
            continue
        if raw.startswith("}"):
            if cur.name is None:
                m = TYPEDEF_END_RE.match(raw)
                cur.name = m.group(1) if m else ""
            if cur.name:
                types.append(cur)
            cur = None
            continue
        tabs = len(raw) - len(raw.lstrip("\t"))
        if tabs != 1:
            continue
        line = raw.strip()
        if not line.startswith("/*"):
            m = MEMBER_RE.match(line)
            if m:
                bit = m.group("bit")
                size = int(m.group("size"))
                bit_size = None
                bm = re.search(r":\s*(\d+)\s*$", ATTR_RE.sub("", m.group("decl")))
                if bit is not None and bm:
                    bit_size = int(bm.group(1))
                cur.members.append((member_name(m.group("decl")), int(m.group("off")),
                                    size, int(bit) if bit is not None else None, bit_size))
            continue
        m = HOLE_RE.match(line)
        if m:
            (cur.holes if m.group(2).startswith("byte") else cur.bit_holes).append(int(m.group(1)))
            continue
        m = SIZE_RE.match(line)
        if m:
            cur.has_summary = True
            cur.size = int(m.group(1))
            cur.nmembers = int(m.group(3))
            continue
        m = SUM_RE.match(line)
        if m:
            cur.sum_members = int(m.group(1))
            if m.group(2) is not None:
                cur.nholes, cur.sum_holes = int(m.group(2)), int(m.group(3))
            continue
        m = BITSUM_RE.match(line)
        if m:
            if m.group(2) is not None:
                cur.nbit_holes, cur.sum_bit_holes = int(m.group(2)), int(m.group(3))
            continue
        m = PAD_RE.match(line)
        if m:
            cur.padding = int(m.group(1))
            continue
        m = BITPAD_RE.match(line)
        if m:
            cur.bit_padding = int(m.group(1))
            continue
    return types


def bare(n):
    for k in ("struct ", "union ", "class "):
        if n.startswith(k):
            return n[len(k):]
    return n


def _num(v, default=0):
    if v is None:
        return default
    if isinstance(v, (list, tuple)):
        return len(v)
    return int(v)


def sf_facts(t):
    """The facts of one structfit JSON type, in PType's terms."""
    members = []
    for m in t.get("members", []):
        bs = m.get("bit_size") or 0
        members.append((m.get("name") or "", int(m.get("offset", 0)), int(m.get("size", 0)),
                        int(m.get("bit_offset", 0)) if bs else None, int(bs) if bs else None))
    holes = t.get("holes") or []
    hole_sizes = [int(h["size"]) if isinstance(h, dict) else int(h) for h in holes]
    bit_holes = t.get("bit_holes") or []
    if isinstance(bit_holes, list):
        bh_sizes = [int(h.get("bits", h.get("bit_size", h.get("size", 0))))
                    if isinstance(h, dict) else int(h) for h in bit_holes]
    else:
        bh_sizes = None
    f = {
        "size": int(t["size"]),
        "members": len(members),
        "member_list": members,
        "holes": hole_sizes,
        "nholes": len(hole_sizes),
        "sum_holes": _num(t.get("sum_holes"), sum(hole_sizes)),
        "padding": _num(t.get("padding")),
        "bit_padding": _num(t.get("bit_padding")),
    }
    if bh_sizes is not None:
        f["bit_holes"] = bh_sizes
        f["nbit_holes"] = len(bh_sizes)
        f["sum_bit_holes"] = _num(t.get("sum_bit_holes"), sum(bh_sizes))
    return f


def diff_one(p, sf):
    """List of (field, pahole value, structfit value) that disagree."""
    out = []

    def cmp(field, pv, sv):
        if pv != sv:
            out.append((field, pv, sv))

    if p.has_summary:
        cmp("size", p.size, sf["size"])
        cmp("members", p.nmembers, sf["members"])
        cmp("nholes", p.nholes, sf["nholes"])
        cmp("sum_holes", p.sum_holes, sf["sum_holes"])
        cmp("padding", p.padding, sf["padding"])
        if "bit_holes" in sf:
            cmp("nbit_holes", p.nbit_holes, sf["nbit_holes"])
            cmp("sum_bit_holes", p.sum_bit_holes, sf["sum_bit_holes"])
        cmp("bit_padding", p.bit_padding, sf["bit_padding"])
    else:
        cmp("members", len(p.members), sf["members"])
    cmp("holes", p.holes, sf["holes"])
    if "bit_holes" in sf:
        cmp("bit_holes", p.bit_holes, sf["bit_holes"])
    pm, sm = p.members, sf["member_list"]
    if len(pm) == len(sm):
        for a, b in zip(pm, sm):
            if a[0] and b[0] and a[0] != b[0]:
                out.append(("member_name", a[0], b[0]))
                break
            if a[1:] != b[1:]:
                out.append(("member " + (a[0] or b[0] or "(anonymous)"),
                            "%d:%s %d:%s" % (a[1], a[3], a[2], a[4]),
                            "%d:%s %d:%s" % (b[1], b[3], b[2], b[4])))
                break
    elif p.has_summary and p.nmembers == len(pm):
        out.append(("member_list", len(pm), len(sm)))
    return out


def load_exceptions(path):
    exc = {}
    if not path:
        return exc
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip() if line.lstrip().startswith("#") else line.strip()
            if not line:
                continue
            parts = line.split(None, 2)
            if len(parts) < 3:
                raise SystemExit("exceptions: need 'NAME FIELD REASON': %r" % line)
            exc[(parts[0], parts[1])] = parts[2]
    return exc


def field_key(field):
    return "member" if field.startswith("member ") else field


def cmd_summary(args):
    types = parse_pahole(open(args[0], errors="replace").read())
    for p in types:
        def v(x):
            return "-" if (x is None or not p.has_summary) else str(x)
        print(p.kind, p.name, v(p.size), v(p.nmembers) if p.has_summary else len(p.members),
              v(p.nholes), v(p.sum_holes), v(p.padding), v(p.nbit_holes), v(p.sum_bit_holes))
    return 0


def cmd_compare(args):
    exc_path, max_report, allow_missing = None, 30, 0
    pos = []
    i = 0
    while i < len(args):
        if args[i] == "--exceptions":
            exc_path = args[i + 1]
            i += 2
        elif args[i] == "--max-report":
            max_report = int(args[i + 1])
            i += 2
        elif args[i] == "--allow-missing":
            allow_missing = int(args[i + 1])
            i += 2
        else:
            pos.append(args[i])
            i += 1
    if len(pos) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    ptypes = []
    seen_facts = set()
    for p in parse_pahole(open(pos[0], errors="replace").read()):
        # `pahole -a` prints an anonymous struct once per compilation unit:
        # keep one of each identical definition
        key = (p.kind, p.name, p.size, p.nmembers, tuple(p.members), tuple(p.holes),
               tuple(p.bit_holes), p.padding, p.bit_padding)
        if key not in seen_facts:
            seen_facts.add(key)
            ptypes.append(p)
    doc = json.load(open(pos[1]))
    exc = load_exceptions(exc_path)
    used_exc = set()

    by_name = {}
    for t in doc.get("types", []):
        n = bare(t.get("name") or "")
        if n:
            by_name.setdefault(n, []).append(t)

    agree, missing, bad, excused = 0, [], [], []
    taken = set()               # structfit types already matched to a pahole one
    for p in ptypes:
        # pahole prints each differing definition of a name (once each);
        # each must match its own structfit definition of that name
        cands = [t for t in by_name.get(p.name, [])
                 if t.get("kind", p.kind) == p.kind and id(t) not in taken]
        if not cands:
            missing.append(p)
            continue
        best, best_t = None, None
        for t in cands:
            d = diff_one(p, sf_facts(t))
            if best is None or len(d) < len(best):
                best, best_t = d, t
            if not d:
                break
        taken.add(id(best_t))
        if not best:
            agree += 1
            continue
        rest = []
        for field, pv, sv in best:
            k = (p.name, field_key(field))
            if k in exc or (p.name, "*") in exc:
                used_exc.add(k if k in exc else (p.name, "*"))
                excused.append((p, field, pv, sv, exc.get(k, exc.get((p.name, "*")))))
            else:
                rest.append((field, pv, sv))
        if rest:
            bad.append((p, rest, len(cands)))
        else:
            agree += 1

    print("pahole types: %d, structfit types: %d (%d names), compared: %d, agree: %d, "
          "disagree: %d, excused: %d, missing from structfit: %d"
          % (len(ptypes), len(doc.get("types", [])), len(by_name), len(ptypes) - len(missing),
             agree, len(bad), len(excused), len(missing)))
    for p, field, pv, sv, why in excused:
        print("  excused: %s %s %s: pahole %s, structfit %s (%s)"
              % (p.kind, p.name, field, pv, sv, why))
    for (name, field) in sorted(set(exc) - used_exc):
        print("  stale exception (nothing to excuse): %s %s" % (name, field))
    for p, rest, nc in bad[:max_report]:
        print("  DISAGREE: %s %s (pahole line %d%s): %s"
              % (p.kind, p.name, p.line, ", %d structfit variants" % nc if nc > 1 else "",
                 "; ".join("%s: pahole %s, structfit %s" % r for r in rest)))
    if len(bad) > max_report:
        print("  ... and %d more" % (len(bad) - max_report))
    for p in missing[:max_report]:
        print("  MISSING from structfit: %s %s (pahole line %d)" % (p.kind, p.name, p.line))
    ok = not bad and len(missing) <= allow_missing and len(ptypes) > 0
    return 0 if ok else 1


def main(argv):
    if len(argv) < 2 or argv[1] not in ("summary", "compare"):
        print(__doc__, file=sys.stderr)
        return 2
    if argv[1] == "summary":
        return cmd_summary(argv[2:])
    return cmd_compare(argv[2:])


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    sys.exit(main(sys.argv))
