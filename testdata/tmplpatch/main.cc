// testdata/tmplpatch/main.cc - prints every member of each Slot, or with
// "size" each one's sizeof.
#include <cstdio>
#include <cstring>

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
	if (argc > 1 && !std::strcmp(argv[1], "size")) {
		std::printf("Slot<long> %zu\nSlot<char> %zu\nSlot<int> %zu\n",
			    sizeof(Slot<long>), sizeof(Slot<char>), sizeof(Slot<int>));
		return 0;
	}
	std::printf("%c %ld %d\n%c %c %d\n%c %g %c\n", a.tag, a.value, a.n, b.tag, b.value,
		    b.n, s.tag, s.weight, s.mark);
	return 0;
}
