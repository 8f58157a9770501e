// names.cpp - C++ names with commas inside template arguments
// (tests/e2e/habits.sh): -t 'pair2<int, char>' is one name, and a list
// splits only on commas outside <...>.  The probe prints their sizes.
#include <cstdio>

template <typename A, typename B> struct pair2 {
	A first;
	char tag;
	B second;
};

pair2<int, char> names_il;
pair2<char, char> names_cs;

int main()
{
	std::printf("il %zu\ncs %zu\n", sizeof(pair2<int, char>), sizeof(pair2<char, char>));
	return 0;
}
