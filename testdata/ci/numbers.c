/*
 * numbers.c - twelve structs with holes, wasting 7, 7, ... and two of them
 * 15 bytes, for the decimal-number cases of tests/e2e/ci.sh (--limit 010,
 * --min-waste 08); and one 72-byte struct for a budget's "0100".
 */
#define HOLEY(n) struct h##n { char c; long l; } v##n;
HOLEY(1) HOLEY(2) HOLEY(3) HOLEY(4) HOLEY(5) HOLEY(6)
HOLEY(7) HOLEY(8) HOLEY(9) HOLEY(10)
struct w1 { char c; long double d; } w1;
struct w2 { char c; long double d; } w2;
struct big72 { long v[9]; } big72;
