# sibling_back.s - DW_AT_sibling pointing at the DIE itself and back.
#
#   f1: a function whose sibling is f2 (sane)
#   f2: one whose sibling is itself, f3: one whose sibling is f1
#   struct after { int a; };                      size 4
#
# The walk steps over functions by their sibling, at once once it has met
# their abbreviation (die.c, skip_quick): a sibling that does not move
# forward must be ignored there too (the subtree is skipped instead), or
# the walk loops forever.  struct after must come out.
	.include "abbrev.inc"
	cu_begin
	base_types
.Lf1:
	.uleb128 21
	.byte 1
	.long .Lf2 - .Lcu
	.uleb128 4
	.asciz "inner1"
	.uleb128 1
	.byte 5
	.byte 0
.Lf2:
	.uleb128 21
	.byte 2
	.long .Lf2 - .Lcu
	.uleb128 4
	.asciz "inner2"
	.uleb128 1
	.byte 5
	.byte 0
.Lf3:
	.uleb128 21
	.byte 3
	.long .Lf1 - .Lcu
	.byte 0
	.uleb128 2
	.asciz "after"
	.uleb128 4
	.uleb128 3
	.asciz "a"
	.long .Lint - .Lcu
	.uleb128 0
	.byte 0
	cu_end
