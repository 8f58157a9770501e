# typedef_loop.s - type references that loop.
#
#   typedef const const T T;   (T -> const -> const -> T)
#   typedef U U;               (a typedef naming itself)
#   P: a pointer type pointing at itself
#   struct loop { T a; U b; P c; int d; };   size 24
#
# No compiler emits this; the reader must neither recurse forever nor
# overflow its stack.  The struct's own facts (size 24, c at 8, d at 16)
# are still true and must come out; a, b have no type that could be sized.
	.include "abbrev.inc"
	cu_begin
	base_types
.LT:
	.uleb128 5		# typedef T -> const
	.asciz "T"
	.long .Lc1 - .Lcu
.Lc1:
	.uleb128 6		# const -> const
	.long .Lc2 - .Lcu
.Lc2:
	.uleb128 6		# const -> T
	.long .LT - .Lcu
.LU:
	.uleb128 5		# typedef U -> U
	.asciz "U"
	.long .LU - .Lcu
.LP:
	.uleb128 7		# pointer -> itself
	.byte 8
	.long .LP - .Lcu
	.uleb128 2
	.asciz "loop"
	.uleb128 24
	.uleb128 3
	.asciz "a"
	.long .LT - .Lcu
	.uleb128 0
	.uleb128 3
	.asciz "b"
	.long .LU - .Lcu
	.uleb128 4
	.uleb128 3
	.asciz "c"
	.long .LP - .Lcu
	.uleb128 8
	.uleb128 3
	.asciz "d"
	.long .Lint - .Lcu
	.uleb128 16
	.byte 0			# end of struct loop
	cu_end
