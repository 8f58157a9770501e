// main.cc - prints every member of each type; "size" prints their sizes.
#include <cstdio>
#include <cstring>

#include "agg.h"
#include "bits.h"
#include "conn.h"

static Point origin = {'o', 0.5, 'k', 7};

int main(int argc, char **argv)
{
    if (argc > 1 && !std::strcmp(argv[1], "size")) {
        std::printf("net::Conn %zu\nFlags %zu\nPoint %zu\n", sizeof(net::Conn),
                    sizeof(Flags), sizeof(Point));
        return 0;
    }
    net::Conn a, b{3};
    a.print();
    b.print();
    Flags f;
    std::memset(&f, 0, sizeof(f));
    f.a = 'a';
    f.d = 2.5;
    f.b = 'b';
    f.kind = 5;
    f.mode = 17;
    f.l = 1234567;
    f.c = 'c';
    std::printf("a=%c d=%g b=%c kind=%u mode=%u l=%ld c=%c\n", f.a, f.d, f.b, f.kind,
                f.mode, f.l, f.c);
    std::printf("tag=%c x=%g kind=%c y=%d\n", origin.tag, origin.x, origin.kind, origin.y);
    return 0;
}
