# self_contain.s - aggregates that contain themselves by value.
#
#   struct self { int x; struct self me; };            size 8
#   struct ping { struct pong p; };  struct pong { struct ping q; int y; };
#
# Impossible in C, so corrupt; the layout recursion must stop.  The facts
# given (sizes, offsets) must come out unchanged.
	.include "abbrev.inc"
	cu_begin
	base_types
.Lself:
	.uleb128 2
	.asciz "self"
	.uleb128 8
	.uleb128 3
	.asciz "x"
	.long .Lint - .Lcu
	.uleb128 0
	.uleb128 3
	.asciz "me"
	.long .Lself - .Lcu
	.uleb128 4
	.byte 0
.Lping:
	.uleb128 2
	.asciz "ping"
	.uleb128 16
	.uleb128 3
	.asciz "p"
	.long .Lpong - .Lcu
	.uleb128 0
	.byte 0
.Lpong:
	.uleb128 2
	.asciz "pong"
	.uleb128 16
	.uleb128 3
	.asciz "q"
	.long .Lping - .Lcu
	.uleb128 0
	.uleb128 3
	.asciz "y"
	.long .Lint - .Lcu
	.uleb128 12
	.byte 0
	cu_end
