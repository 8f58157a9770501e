#!/usr/bin/env python3
"""many.py DIR - write a program of many units sharing headers (tests/e2e/dwz.sh).

dwz turns what several units share into partial units; with many units
including different subsets of the headers, it makes many partial units,
some importing others, and each unit imports several at its head.  The
types are laid out so that the order a compiler writes them in is not the
order dwz leaves them in:

  h0.h .. h7.h   four structs each (holes, bit-fields, arrays, an anonymous
                 union, pointers to the other headers' types); h{k} includes
                 h{k+1 mod 8}'s "next" header halfway down (k even), so a
                 unit's text interleaves two files
  cfg.h          struct cfg, whose member type is a macro: units that set
                 CFG_WIDE get another definition of the same name (both are
                 reported, marked)
  u0.c .. u39.c  a struct of their own before the includes and one between
                 them, globals that use the types in another order than
                 declared (clang writes types in the order of first use)
  x.cc           C++: two of the headers and a class with a base (dwz 0.15
                 gives it partial units of its own, not the C units')

Writes DIR/*.h, DIR/*.c and DIR/x.cc; prints nothing.
"""
import os
import sys

NH = 8
NU = 40


def header(k):
    nxt = (k + 1) % NH
    out = [f"#ifndef H{k}_H", f"#define H{k}_H", "#include <stdint.h>", ""]
    out += [f"struct h{nxt}_a;", ""]
    out += [
        f"struct h{k}_a {{",
        "\tchar tag;",
        "\tlong count;",
        "\tshort kind;",
        f"\tstruct h{nxt}_a *next;",
        "};",
        "",
        f"typedef struct {{",
        "\tunsigned live : 1;",
        f"\tunsigned gen : {k + 3};",
        "\tuint64_t stamp;",
        "\tuint8_t mark[3];",
        f"}} h{k}_t;",
        "",
    ]
    # the next header's text comes here: the unit's text interleaves files
    if k % 2 == 0:
        out += [f"#include \"h{nxt}.h\"", ""]
    out += [
        f"union h{k}_u {{",
        "\tint i;",
        "\tdouble d;",
        f"\tchar bytes[{k + 9}];",
        "};",
        "",
        f"struct h{k}_b {{",
        f"\th{k}_t head;",
        "\tunion {",
        f"\t\tstruct h{k}_a *a;",
        "\t\tuintptr_t raw;",
        "\t};",
        f"\tunion h{k}_u slots[{k % 3 + 1}];",
        f"\tstruct h{nxt}_b *peer;",
        "\tchar trailer;",
        "};",
        "",
        f"#endif",
    ]
    return "\n".join(out) + "\n"


CFG = """#ifndef CFG_H
#define CFG_H
#ifdef CFG_WIDE
#define CFG_T long long
#else
#define CFG_T int
#endif
struct cfg {
	char on;
	CFG_T level;
	char off;
};
#endif
"""


def unit(i):
    hs = sorted({i % NH, (i * 3 + 1) % NH, (i * 5 + 2) % NH})
    out = []
    if i % 4 == 1:
        out.append("#define CFG_WIDE")
    out += [
        f"struct u{i}_first {{",
        "\tchar c;",
        "\tvoid *p;",
        f"\tint n[{i % 5 + 1}];",
        "};",
        "",
        f"#include \"h{hs[0]}.h\"",
        f"struct u{i}_mid {{",
        f"\tstruct h{hs[0]}_b b;",
        "\tchar z;",
        "};",
    ]
    out += [f"#include \"h{h}.h\"" for h in hs[1:]]
    out += ["#include \"cfg.h\"", ""]
    # globals: the types in reverse order of declaration (first use first)
    out.append(f"struct u{i}_mid u{i}_m;")
    for h in reversed(hs):
        out.append(f"struct h{h}_b u{i}_b{h};")
        out.append(f"h{h}_t u{i}_t{h};")
    out.append("struct cfg u%d_cfg;" % i)
    out.append(f"struct u{i}_first u{i}_f;")
    out += ["", f"long u{i}_sum(void)", "{",
            f"\treturn u{i}_f.c + u{i}_m.z + u{i}_cfg.on + (long)u{i}_t{hs[0]}.stamp;",
            "}"]
    return "\n".join(out) + "\n"


CXX = """#include "h2.h"
#include "h5.h"

struct xbase {
	char kind;
	virtual ~xbase() {}
};

struct xderived : xbase {
	struct h2_b b;
	h5_t t;
	short s;
};

xderived x_d;
struct h5_a x_a;

extern "C" long u0_sum(void);

int main()
{
	return (int)(u0_sum() + x_d.s + x_a.tag);
}
"""


def main():
    d = sys.argv[1]
    os.makedirs(d, exist_ok=True)
    for k in range(NH):
        with open(os.path.join(d, f"h{k}.h"), "w") as f:
            f.write(header(k))
    with open(os.path.join(d, "cfg.h"), "w") as f:
        f.write(CFG)
    for i in range(NU):
        with open(os.path.join(d, f"u{i}.c"), "w") as f:
            f.write(unit(i))
    with open(os.path.join(d, "x.cc"), "w") as f:
        f.write(CXX)


if __name__ == "__main__":
    main()
