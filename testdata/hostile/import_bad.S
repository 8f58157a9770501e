# import_bad.S - DW_TAG_imported_unit that names no unit: the offset of a
# DIE inside a partial unit (default), or past the end of .debug_info
# (-DCASE=2).  A corrupt file: exit 2, one line naming it.
	.include "imports.inc"

	.section .debug_info,"",@progbits
.Linfo:
	unit_header .LstartP, .LendP
	.uleb128 2		# DW_TAG_partial_unit
.Lint:
	.uleb128 6		# DW_TAG_base_type
	.asciz "int"
	.uleb128 4
	.byte 5
	.byte 0
.LendP:
	unit_header .LstartC, .LendC
	.uleb128 1
	.asciz "hostile.c"
	.byte 0x0c
	.uleb128 3
#if CASE == 2
	.long 0x7fffff00
#else
	.long .Lint - .Linfo
#endif
	.byte 0
.LendC:
