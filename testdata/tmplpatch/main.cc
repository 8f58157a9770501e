// testdata/tmplpatch/main.cc - prints every member of each Slot, Rec and
// Holder, or with "size" each one's sizeof.
#include <cstdio>
#include <cstring>

#include "holder.h"
#include "rec.h"
#include "slot.h"

int main(int argc, char **argv)
{
	Slot<long> a;
	a.tag = 'a';
	a.value = 42;
	a.n = 7;
	Slot<char> b;
	b.tag = 'b';
	b.value = 'c';
	b.n = 9;
	Slot<int> s;
	s.tag = 's';
	s.weight = 1.5;
	s.mark = 'm';
	Rec<long> r;
	Rec<int> q;
	q.count = 5;
	Holder h;
	if (argc > 1 && !std::strcmp(argv[1], "size")) {
		std::printf("Slot<long> %zu\nSlot<char> %zu\nSlot<int> %zu\n"
			    "Rec<long> %zu\nRec<int> %zu\nHolder %zu\n",
			    sizeof(Slot<long>), sizeof(Slot<char>), sizeof(Slot<int>),
			    sizeof(Rec<long>), sizeof(Rec<int>), sizeof(Holder));
		return 0;
	}
	std::printf("%c %ld %c %d %ld %c\n%c %d %c %d %d %c\n", r.a, r.x, r.b, r.count, r.sum(),
		    r.mark.kind, q.a, q.x, q.b, q.count, q.sum(), q.mark.kind);
	std::printf("%ld %c %ld %d %d %d %d %c %c\n", h.id, h.a, h.x, h.s.tag, h.s.value, h.s.n,
		    h.pool.n, h.pool.root ? 'r' : '-', h.b);
	std::printf("%c %ld %d\n%c %c %d\n%c %g %c\n", a.tag, a.value, a.n, b.tag, b.value,
		    b.n, s.tag, s.weight, s.mark);
	return 0;
}
