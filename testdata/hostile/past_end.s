# past_end.s - members past the end of their struct, and offsets that
# overflow when the member's size is added.
#
#   struct past { long a @0; long b @100; char c @2^64-1; long d @2^64-4; };
#   size 8
	.include "abbrev.inc"
	cu_begin
	base_types
	.uleb128 2
	.asciz "past"
	.uleb128 8
	.uleb128 3
	.asciz "a"
	.long .Llong - .Lcu
	.uleb128 0
	.uleb128 3
	.asciz "b"
	.long .Llong - .Lcu
	.uleb128 100
	.uleb128 3
	.asciz "c"
	.long .Lchar - .Lcu
	.uleb128 0xffffffffffffffff
	.uleb128 3
	.asciz "d"
	.long .Llong - .Lcu
	.uleb128 0xfffffffffffffffc
	.byte 0
	cu_end
