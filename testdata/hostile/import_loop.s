# import_loop.s - dwz-style partial units that import each other in a loop.
#
#   partial unit A: imports A (itself) and B; struct a { int x; long y; }
#                   with int and long in B (DW_FORM_ref_addr)
#   partial unit B: imports A; int, long; struct b { struct a in; int z; }
#   compile unit:   imports A twice, then B (DW_LANG_C99)
#
# dwz never writes a loop, but nothing stops a file from saying one: each
# partial unit must be walked once, and both structs reported once, with
# their facts (a: 16 bytes, b: 24 bytes).  import_bad.s has the imports
# that point nowhere.
	.include "imports.inc"

	.section .debug_info,"",@progbits
.Linfo:
# ---- partial unit A
	unit_header .LstartA, .LendA
.LpuA:
	.uleb128 2		# DW_TAG_partial_unit
	.uleb128 3
	.long .LpuA - .Linfo	# itself
	.uleb128 3
	.long .LpuB - .Linfo
.Lsa:
	.uleb128 4
	.asciz "a"
	.uleb128 16
	.uleb128 5
	.asciz "x"
	.long .Lint - .Linfo
	.uleb128 0
	.uleb128 5
	.asciz "y"
	.long .Llong - .Linfo
	.uleb128 8
	.byte 0
	.byte 0
.LendA:
# ---- partial unit B
	unit_header .LstartB, .LendB
.LpuB:
	.uleb128 2
	.uleb128 3
	.long .LpuA - .Linfo	# back to A
.Lint:
	.uleb128 6
	.asciz "int"
	.uleb128 4
	.byte 5
.Llong:
	.uleb128 6
	.asciz "long"
	.uleb128 8
	.byte 5
	.uleb128 4
	.asciz "b"
	.uleb128 24
	.uleb128 5
	.asciz "in"
	.long .Lsa - .Linfo
	.uleb128 0
	.uleb128 5
	.asciz "z"
	.long .Lint - .Linfo
	.uleb128 16
	.byte 0
	.byte 0
.LendB:
# ---- the compile unit
	unit_header .LstartC, .LendC
	.uleb128 1
	.asciz "hostile.c"
	.byte 0x0c		# DW_LANG_C99
	.uleb128 3
	.long .LpuA - .Linfo
	.uleb128 3
	.long .LpuA - .Linfo
	.uleb128 3
	.long .LpuB - .Linfo
	.byte 0
.LendC:
