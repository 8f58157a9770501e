# huge_size.s - absurd sizes.
#
#   struct big   size 2^63:   char first @0; char last @2^63-1
#   struct max   size 2^64-1: long a @0
#   struct arr   size 16:     long v[2^62] @0 (an array 2^65 bytes long)
#   struct outer size 2^64-1: struct big x @0; struct big y @2^63 (overlaps the end)
#   struct wide  size 16:     a base type of 2^63 bytes @8
#   union  u     size 2^63:   struct big b; long l
	.include "abbrev.inc"
	cu_begin
	base_types
.Lhuge:
	.uleb128 4
	.asciz "huge_t"
	.uleb128 0x8000000000000000
	.byte 7			# DW_ATE_unsigned
.Lbig:
	.uleb128 2
	.asciz "big"
	.uleb128 0x8000000000000000
	.uleb128 3
	.asciz "first"
	.long .Lchar - .Lcu
	.uleb128 0
	.uleb128 3
	.asciz "last"
	.long .Lchar - .Lcu
	.uleb128 0x7fffffffffffffff
	.byte 0
	.uleb128 2
	.asciz "max"
	.uleb128 0xffffffffffffffff
	.uleb128 3
	.asciz "a"
	.long .Llong - .Lcu
	.uleb128 0
	.byte 0
.Larr:
	.uleb128 13
	.long .Llong - .Lcu
	.uleb128 14
	.uleb128 0x4000000000000000
	.byte 0
	.uleb128 2
	.asciz "arr"
	.uleb128 16
	.uleb128 3
	.asciz "v"
	.long .Larr - .Lcu
	.uleb128 0
	.byte 0
	.uleb128 2
	.asciz "outer"
	.uleb128 0xffffffffffffffff
	.uleb128 3
	.asciz "x"
	.long .Lbig - .Lcu
	.uleb128 0
	.uleb128 3
	.asciz "y"
	.long .Lbig - .Lcu
	.uleb128 0x8000000000000000
	.byte 0
	.uleb128 2
	.asciz "wide"
	.uleb128 16
	.uleb128 3
	.asciz "h"
	.long .Lhuge - .Lcu
	.uleb128 8
	.byte 0
	.uleb128 20
	.asciz "u"
	.uleb128 0x8000000000000000
	.uleb128 3
	.asciz "b"
	.long .Lbig - .Lcu
	.uleb128 0
	.uleb128 3
	.asciz "l"
	.long .Llong - .Lcu
	.uleb128 0
	.byte 0
	cu_end
