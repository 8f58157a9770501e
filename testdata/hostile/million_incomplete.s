# million_incomplete.s - 1,000,000 members whose type is only declared
# (struct opaque;), each sized by the room up to the next member, and a
# C++ class with 1,000,000 bases.  Checks that what the reader does per
# member is not quadratic: a hang here is a finding.
#
#   struct opq  { struct opaque o; ... }   members at 0, 8, 16, ...  size 8,000,000
#   class  derived : base, base, ... (1,000,000 times)  bases at 0, 4, ...  size 4,000,000
	.include "abbrev.inc"
	cu_begin 0x04		# DW_LANG_C_plus_plus
	base_types
.Lopaque:
	.uleb128 12
	.asciz "opaque"
.Lbase:
	.uleb128 16
	.asciz "base"
	.uleb128 4
	.uleb128 3
	.asciz "v"
	.long .Lint - .Lcu
	.uleb128 0
	.byte 0
	.uleb128 2
	.asciz "opq"
	.uleb128 8000000
	.set off, 0
	.rept 1000000
	.uleb128 3
	.asciz "o"
	.long .Lopaque - .Lcu
	.uleb128 off
	.set off, off + 8
	.endr
	.byte 0
	.uleb128 16
	.asciz "derived"
	.uleb128 4000000
	.set off, 0
	.rept 1000000
	.uleb128 15
	.long .Lbase - .Lcu
	.uleb128 off
	.set off, off + 4
	.endr
	.byte 0
	cu_end
