// g++ names these instances `Slot<long int>`, `Pair<char const*,
// Slot<long int> >`; clang++ `Slot<long>`, `Pair<const char *, Slot<long> >`
template <typename T> struct Slot { T v; char tag; };
template <typename K, typename V> struct Pair { K k; V *v; short n; };
Slot<long> s_long;
Slot<unsigned short> s_ushort;
Pair<const char *, Slot<long> > p;
int main() { return (int)s_long.v; }
