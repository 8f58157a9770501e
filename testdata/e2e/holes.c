/*
 * holes.c - structs with distinct sizes and distinct waste (holes +
 * trailing padding), so that `structfit holes` has one right order for
 * each --sort.  On x86_64 (LP64):
 *
 *   name       size  waste
 *   big_waste    40     21   (7 + 7 bytes of holes, 7 of padding)
 *   mid          24     14   (7 hole, 7 padding)
 *   zeta         16      7   (padding)
 *   alpha         8      3   (hole)
 *   one          12      1   (hole)
 *   tight        32      0
 *
 * The tests do not trust this table: they compute the order from pahole's
 * report on the same object.
 */
struct zeta { long a; char b; };
struct alpha { char a; int b; };
struct mid { char a; long b; char c; };
struct big_waste { char a; long b; char c; long d; char e; };
struct tight { long a, b, c; int d, e; };
struct one { char a, b, c; int d; short e, f; };

struct zeta v_zeta;
struct alpha v_alpha;
struct mid v_mid;
struct big_waste v_big_waste;
struct tight v_tight;
struct one v_one;
