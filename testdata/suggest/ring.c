/*
 * ring.c - input of tests/e2e/suggest.sh: narrowings of equal effect, where
 * the member whose name says it is an index must rank after the others.
 *
 * struct ring is 32 bytes on LP64 (kind@0, a 7-byte hole, head@8, mode@16,
 * buf@24).  Narrowing any one of head, mode (to 4 bytes) or buf (a pointer,
 * to a 4-byte index) fills the hole: 24 bytes, one move each.  head is an
 * index into buf: it grows with the data (Ruby's entries_start narrowed to
 * a byte wrapped past 255), so mode ranks first and head after it,
 * although it is declared first; buf, a pointer, ranks last: an arena
 * index in its place is a design change, not a narrowing.
 */
struct ring {
	char kind;
	long head;
	long mode;
	char *buf;
};

struct ring example_ring;
