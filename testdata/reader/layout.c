/*
 * What DWARF does not say outright: packing (members below their natural
 * alignment), explicit alignment (DW_AT_alignment on a member, a type or
 * a typedef) and enums narrower than int.
 */
struct __attribute__((packed)) packed1 {
	char c;
	int i;
	short s;
};

#pragma pack(push, 2)
struct packed2 {
	char c;
	int i;
};
#pragma pack(pop)

struct has_packed {
	char c;
	struct packed1 p;
};

struct aligned_member {
	char c;
	_Alignas(16) int x;
};

struct __attribute__((aligned(64))) aligned_type {
	int a;
};

typedef int aligned_int __attribute__((aligned(8)));

struct aligned_typedef {
	char c;
	aligned_int x;
};

enum __attribute__((packed)) small_enum { SMALL_A, SMALL_B = 200 };
enum negative_enum { NEG = -1, POS = 1 };

struct enums {
	enum small_enum s;
	char c;
	enum negative_enum n;
};

struct packed1 packed1_example;
struct packed2 packed2_example;
struct has_packed has_packed_example;
struct aligned_member aligned_member_example;
struct aligned_type aligned_type_example;
struct aligned_typedef aligned_typedef_example;
struct enums enums_example;
