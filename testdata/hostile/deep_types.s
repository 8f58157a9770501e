# deep_types.s - type chains 10,000 long:
#
#   T = typedef t of const of typedef t of const ... (10,000 links) of int
#   P = pointer to pointer to ... (10,000 levels) to int
#   A = array [1] of array [1] of ... (10,000 levels) of int
#   struct chains { T t @0; P p @8; A a @16; int end @20; };  size 24
#
# Legal C, however silly; resolving must not recurse 10,000 deep.  The
# struct's facts (size, offsets) must come out.
	.include "abbrev.inc"
	cu_begin
	base_types
.Ltd:				# pair j at .Ltd + 12 * j: typedef (7 bytes), const (5)
	.set j, 0
	.rept 4999
	.uleb128 5
	.asciz "t"
	.long .Ltd - .Lcu + 12 * j + 7
	.uleb128 6
	.long .Ltd - .Lcu + 12 * (j + 1)
	.set j, j + 1
	.endr
	.uleb128 5
	.asciz "t"
	.long .Ltd - .Lcu + 12 * j + 7
	.uleb128 6
	.long .Lint - .Lcu
.Lptr:				# level j at .Lptr + 6 * j
	.set j, 0
	.rept 9999
	.uleb128 7
	.byte 8
	.long .Lptr - .Lcu + 6 * (j + 1)
	.set j, j + 1
	.endr
	.uleb128 7
	.byte 8
	.long .Lint - .Lcu
.Larr:				# level j at .Larr + 8 * j: array, subrange [1], end
	.set j, 0
	.rept 9999
	.uleb128 13
	.long .Larr - .Lcu + 8 * (j + 1)
	.uleb128 14
	.uleb128 1
	.byte 0
	.set j, j + 1
	.endr
	.uleb128 13
	.long .Lint - .Lcu
	.uleb128 14
	.uleb128 1
	.byte 0
	.uleb128 2
	.asciz "chains"
	.uleb128 24
	.uleb128 3
	.asciz "t"
	.long .Ltd - .Lcu
	.uleb128 0
	.uleb128 3
	.asciz "p"
	.long .Lptr - .Lcu
	.uleb128 8
	.uleb128 3
	.asciz "a"
	.long .Larr - .Lcu
	.uleb128 16
	.uleb128 3
	.asciz "end"
	.long .Lint - .Lcu
	.uleb128 20
	.byte 0
	cu_end
