# import_bad.S - DW_TAG_imported_unit that names no unit: the offset of a
# DIE inside a partial unit (default), or past the end of .debug_info
# (-DCASE=2).  A corrupt file: exit 2, one line naming it.
	.section .debug_abbrev,"",@progbits
	.uleb128 1		# DW_TAG_compile_unit, children
	.uleb128 0x11
	.byte 1
	.uleb128 0x03, 0x08	# DW_AT_name, DW_FORM_string
	.uleb128 0x13, 0x0b	# DW_AT_language, DW_FORM_data1
	.byte 0, 0
	.uleb128 2		# DW_TAG_partial_unit, children
	.uleb128 0x3c
	.byte 1
	.byte 0, 0
	.uleb128 3		# DW_TAG_imported_unit
	.uleb128 0x3d
	.byte 0
	.uleb128 0x18, 0x10	# DW_AT_import, DW_FORM_ref_addr
	.byte 0, 0
	.uleb128 4		# DW_TAG_base_type
	.uleb128 0x24
	.byte 0
	.uleb128 0x03, 0x08	# DW_AT_name, DW_FORM_string
	.uleb128 0x0b, 0x0f	# DW_AT_byte_size, DW_FORM_udata
	.uleb128 0x3e, 0x0b	# DW_AT_encoding, DW_FORM_data1
	.byte 0, 0
	.byte 0

	.section .debug_info,"",@progbits
.Linfo:
	.long .LendP - .LstartP
.LstartP:
	.short 4
	.long 0
	.byte 8
	.uleb128 2		# DW_TAG_partial_unit
.Lint:
	.uleb128 4
	.asciz "int"
	.uleb128 4
	.byte 5
	.byte 0
.LendP:
	.long .LendC - .LstartC
.LstartC:
	.short 4
	.long 0
	.byte 8
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
