# bit_offsets.s - bit-fields at absurd positions.
#
#   struct bits (size 8):
#     a: int:3, DW_AT_data_bit_offset -5                (negative)
#     b: int:3, DW_AT_data_bit_offset 2^62              (far past the end)
#     c: int:3, DWARF 2 DW_AT_bit_offset -7 in a 4-byte unit at 0 (negative)
#     d: int:3, DWARF 2 DW_AT_bit_offset 2^40 in a 4-byte unit at 4
#     e: int:2^40 bits, DW_AT_data_bit_offset 0         (wider than any type)
#     f: huge_t (2^61 bytes):1 at bit 0  (8 * size wraps to 0)
#     g: huge_t:3 at DWARF 2 bit offset 1 in a unit of 2^61 bytes
#     h: int:0 at bit 32                                (zero width)
#     i: int:3, DW_AT_data_bit_offset -2^63             (the most negative)
	.include "abbrev.inc"
	cu_begin
	base_types
.Lhuge:
	.uleb128 4
	.asciz "huge_t"
	.uleb128 0x2000000000000000
	.byte 7
	.uleb128 2
	.asciz "bits"
	.uleb128 8
	.uleb128 8
	.asciz "a"
	.long .Lint - .Lcu
	.uleb128 3
	.sleb128 -5
	.uleb128 8
	.asciz "b"
	.long .Lint - .Lcu
	.uleb128 3
	.sleb128 0x4000000000000000
	.uleb128 9
	.asciz "c"
	.long .Lint - .Lcu
	.uleb128 4
	.uleb128 3
	.sleb128 -7
	.uleb128 0
	.uleb128 9
	.asciz "d"
	.long .Lint - .Lcu
	.uleb128 4
	.uleb128 3
	.sleb128 0x10000000000
	.uleb128 4
	.uleb128 8
	.asciz "e"
	.long .Lint - .Lcu
	.uleb128 0x10000000000
	.sleb128 0
	.uleb128 8
	.asciz "f"
	.long .Lhuge - .Lcu
	.uleb128 1
	.sleb128 0
	.uleb128 9
	.asciz "g"
	.long .Lhuge - .Lcu
	.uleb128 0x2000000000000000
	.uleb128 3
	.sleb128 1
	.uleb128 0
	.uleb128 8
	.asciz "h"
	.long .Lint - .Lcu
	.uleb128 0
	.sleb128 32
	.uleb128 8
	.asciz "i"
	.long .Lint - .Lcu
	.uleb128 3
	.sleb128 -0x8000000000000000
	.byte 0
	cu_end
