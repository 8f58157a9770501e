/*
 * Bit-fields: DWARF 4/5 describe them with DW_AT_data_bit_offset, DWARF
 * 2/3 with DW_AT_bit_offset (counted from the most significant bit of a
 * storage unit, so its meaning flips with endianness).  Every encoding
 * and byte order must give the same model (offsets in memory order).
 */
struct bits {
	unsigned int a : 3, b : 5, c : 9;
	int d : 7;
	char e;
	unsigned short f : 4;
	unsigned long long g : 40;
	_Bool h : 1;
};

/* y straddles its 4-byte unit: pahole keeps it at offset 0, bit 28 */
struct __attribute__((packed)) packed_bits {
	char c;
	unsigned int x : 20;
	unsigned int y : 12;
};

struct bits bits_example;
struct packed_bits packed_bits_example;
