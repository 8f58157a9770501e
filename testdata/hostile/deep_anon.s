# deep_anon.s - 10,000 anonymous structs nested in one another:
#
#   struct deep { struct { struct { ... struct { int x; }; ... }; }; };
#
# Each anonymous struct is a child DIE of the one around it (as compilers
# emit them), so the DIE tree is 10,000 levels deep; all are 4 bytes.  A
# compiler accepts this (gcc does); the reader must not recurse 10,000
# times, and the size (4) and the innermost x (offset 0) are facts.
	.include "abbrev.inc"
	cu_begin
	base_types
	.uleb128 2
	.asciz "deep"
	.uleb128 4
.Lanon:				# anonymous struct k (1-based) at .Lanon + 2 * (k - 1)
	.rept 10000
	.uleb128 10		# DW_TAG_structure_type, byte_size 4 (2 bytes)
	.uleb128 4
	.endr
	.uleb128 3		# in the innermost: int x @0
	.asciz "x"
	.long .Lint - .Lcu
	.uleb128 0
	.byte 0
	.set k, 10000
	.rept 10000		# in struct k - 1: an anonymous member of struct k
	.uleb128 11
	.long .Lanon - .Lcu + 2 * (k - 1)
	.uleb128 0
	.byte 0
	.set k, k - 1
	.endr
	cu_end
