#!/usr/bin/env python3
"""tests/e2e/gentree.py - write a source tree of 10,000 generated C files.

    gentree.py ROOT HEADER STRUCT MEMBER [--wrap] [--data N]

ROOT/dNN/fIIIII.c (.h for every third): 100 directories of 100 files of
about 2 KB (40 small functions each).  Every 997th file (0, 997, ...,
9970: 11 files) includes HEADER (as written: "../big.h") and takes
offsetof(struct STRUCT, MEMBER) on its line 4.  --wrap: the even ones of
those include it through a header of their own, dNN/wIIIII.h, which
includes the HEADER's base name.  --data N: N text files per directory
(dataNN.txt) that name the struct but are no C.  bounded.sh and
srcroot.sh build their trees with it.
"""
import os
import sys


def write_file(root, d, i, header, struct, member, wrap):
    ext = ".h" if i % 100 % 3 == 0 else ".c"
    with open("%s/d%02d/f%05d%s" % (root, d, i, ext), "w") as fp:
        fp.write("/* file %d */\n#include <stddef.h>\n" % i)
        if i % 997 == 0:
            if wrap and i % 2 == 0:
                fp.write('#include "w%05d.h"\n' % i)
                with open("%s/d%02d/w%05d.h" % (root, d, i), "w") as w:
                    w.write('#include "%s"\n' % os.path.basename(header))
            else:
                fp.write('#include "%s"\n' % header)
            fp.write("static const size_t off%d = offsetof(struct %s, %s);\n"
                     % (i, struct, member))
        for k in range(40):
            fp.write("static int v%d_%d(int x) { return x * %d; }\n" % (i, k, k))


def main(argv):
    root, header, struct, member = argv[1:5]
    wrap = "--wrap" in argv
    ndata = int(argv[argv.index("--data") + 1]) if "--data" in argv else 0
    for d in range(100):
        os.makedirs("%s/d%02d" % (root, d), exist_ok=True)
        for f in range(100):
            write_file(root, d, d * 100 + f, header, struct, member, wrap)
        for f in range(ndata):
            with open("%s/d%02d/data%02d.txt" % (root, d, f), "w") as fp:
                fp.write(("struct %s { 1, 2, 3 }\n" % struct) * 50)


if __name__ == "__main__":
    main(sys.argv)
