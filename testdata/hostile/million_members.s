# million_members.s - struct many { int m; int m; ... } with 1,000,000
# members named m at offsets 0, 4, 8, ... (size 4,000,000), written by the
# assembler's .rept, so the source stays small.  A compiler would accept
# such a struct; the result must be exact (no hole, no padding) and come
# out in bounded time and memory.
	.include "abbrev.inc"
	cu_begin
	base_types
	.uleb128 2
	.asciz "many"
	.uleb128 4000000
	.set off, 0
	.rept 1000000
	.uleb128 3
	.asciz "m"
	.long .Lint - .Lcu
	.uleb128 off
	.set off, off + 4
	.endr
	.byte 0
	cu_end
