# forms.s - one struct written with its constants and names in different
# DWARF forms, and versions of it that differ in one value only: what the
# fingerprints (dwarf/fingerprint.c) must tell apart, and what they may
# take for one (tests/e2e/identity.sh).
#
# Three abbreviation tables (DWARF 5, 32-bit, 8-byte addresses):
#   A  names DW_FORM_string, constants data1
#   B  names DW_FORM_strp, a size in data2, member offsets in udata or as
#      an implicit constant (0)
#   C  names DW_FORM_strx1, the size an implicit constant (8), member
#      offsets in data2
# and the units (the macro `units` makes all six; UNITS_REPEAT copies
# of them are assembled, 1 by default):
#   u1 (A)  struct s { int a @0; int b @4; }, size 8
#   u2 (B)  the same                                  (a twin of u1)
#   u3 (C)  the same                                  (a twin of u1)
#   u4 (B)  b @8, size 12                             (another value)
#   u5 (A)  the second member named c                 (another name)
#   u6 (C)  b an unsigned int                         (another type)
#
# DW_TAG / DW_AT / DW_FORM numbers are written out in hex with their names.

	.ifndef UNITS_REPEAT
	.set UNITS_REPEAT, 1
	.endif

	.section .debug_abbrev,"",@progbits
.Labbrev_a:
	.uleb128 1		# DW_TAG_compile_unit, children
	.uleb128 0x11
	.byte 1
	.uleb128 0x03, 0x08	# DW_AT_name, DW_FORM_string
	.uleb128 0x13, 0x0b	# DW_AT_language, DW_FORM_data1
	.byte 0, 0
	.uleb128 2		# DW_TAG_structure_type, children
	.uleb128 0x13
	.byte 1
	.uleb128 0x03, 0x08	# DW_AT_name, DW_FORM_string
	.uleb128 0x0b, 0x0b	# DW_AT_byte_size, DW_FORM_data1
	.byte 0, 0
	.uleb128 3		# DW_TAG_member
	.uleb128 0x0d
	.byte 0
	.uleb128 0x03, 0x08	# DW_AT_name, DW_FORM_string
	.uleb128 0x49, 0x13	# DW_AT_type, DW_FORM_ref4
	.uleb128 0x38, 0x0b	# DW_AT_data_member_location, DW_FORM_data1
	.byte 0, 0
	.uleb128 4		# DW_TAG_base_type
	.uleb128 0x24
	.byte 0
	.uleb128 0x03, 0x08	# DW_AT_name, DW_FORM_string
	.uleb128 0x0b, 0x0b	# DW_AT_byte_size, DW_FORM_data1
	.uleb128 0x3e, 0x0b	# DW_AT_encoding, DW_FORM_data1
	.byte 0, 0
	.byte 0
.Labbrev_b:
	.uleb128 1		# DW_TAG_compile_unit, children
	.uleb128 0x11
	.byte 1
	.uleb128 0x03, 0x0e	# DW_AT_name, DW_FORM_strp
	.uleb128 0x13, 0x0b	# DW_AT_language, DW_FORM_data1
	.byte 0, 0
	.uleb128 2		# DW_TAG_structure_type, children
	.uleb128 0x13
	.byte 1
	.uleb128 0x03, 0x0e	# DW_AT_name, DW_FORM_strp
	.uleb128 0x0b, 0x05	# DW_AT_byte_size, DW_FORM_data2
	.byte 0, 0
	.uleb128 3		# DW_TAG_member
	.uleb128 0x0d
	.byte 0
	.uleb128 0x03, 0x0e	# DW_AT_name, DW_FORM_strp
	.uleb128 0x49, 0x13	# DW_AT_type, DW_FORM_ref4
	.uleb128 0x38, 0x0f	# DW_AT_data_member_location, DW_FORM_udata
	.byte 0, 0
	.uleb128 4		# DW_TAG_base_type
	.uleb128 0x24
	.byte 0
	.uleb128 0x03, 0x0e	# DW_AT_name, DW_FORM_strp
	.uleb128 0x0b, 0x0f	# DW_AT_byte_size, DW_FORM_udata
	.uleb128 0x3e, 0x0b	# DW_AT_encoding, DW_FORM_data1
	.byte 0, 0
	.uleb128 5		# DW_TAG_member, at offset 0
	.uleb128 0x0d
	.byte 0
	.uleb128 0x03, 0x0e	# DW_AT_name, DW_FORM_strp
	.uleb128 0x49, 0x13	# DW_AT_type, DW_FORM_ref4
	.uleb128 0x38, 0x21	# DW_AT_data_member_location, DW_FORM_implicit_const
	.sleb128 0
	.byte 0, 0
	.byte 0
.Labbrev_c:
	.uleb128 1		# DW_TAG_compile_unit, children
	.uleb128 0x11
	.byte 1
	.uleb128 0x72, 0x17	# DW_AT_str_offsets_base, DW_FORM_sec_offset
	.uleb128 0x03, 0x25	# DW_AT_name, DW_FORM_strx1
	.uleb128 0x13, 0x0b	# DW_AT_language, DW_FORM_data1
	.byte 0, 0
	.uleb128 2		# DW_TAG_structure_type, children
	.uleb128 0x13
	.byte 1
	.uleb128 0x03, 0x25	# DW_AT_name, DW_FORM_strx1
	.uleb128 0x0b, 0x21	# DW_AT_byte_size, DW_FORM_implicit_const
	.sleb128 8
	.byte 0, 0
	.uleb128 3		# DW_TAG_member
	.uleb128 0x0d
	.byte 0
	.uleb128 0x03, 0x25	# DW_AT_name, DW_FORM_strx1
	.uleb128 0x49, 0x13	# DW_AT_type, DW_FORM_ref4
	.uleb128 0x38, 0x05	# DW_AT_data_member_location, DW_FORM_data2
	.byte 0, 0
	.uleb128 4		# DW_TAG_base_type
	.uleb128 0x24
	.byte 0
	.uleb128 0x03, 0x25	# DW_AT_name, DW_FORM_strx1
	.uleb128 0x0b, 0x0b	# DW_AT_byte_size, DW_FORM_data1
	.uleb128 0x3e, 0x0b	# DW_AT_encoding, DW_FORM_data1
	.byte 0, 0
	.byte 0

	.section .debug_str,"MS",@progbits,1
.Ls_unit:	.asciz "forms.c"
.Ls_s:		.asciz "s"
.Ls_a:		.asciz "a"
.Ls_b:		.asciz "b"
.Ls_int:	.asciz "int"
.Ls_uint:	.asciz "unsigned int"

	.section .debug_str_offsets,"",@progbits
	.long .Lstroff_end - .Lstroff_start	# unit length
.Lstroff_start:
	.short 5			# version
	.short 0			# padding
.Lstroff_base:
	.long .Ls_unit			# 0
	.long .Ls_s			# 1
	.long .Ls_a			# 2
	.long .Ls_b			# 3
	.long .Ls_int			# 4
	.long .Ls_uint			# 5
.Lstroff_end:

# unit_begin ABBREV: a DWARF 5 compile unit header (at 7:, where ref4
# offsets count from) and its unit DIE's abbreviation code
	.macro unit_begin abbrev
7:
	.long 9f - 8f		# unit length
8:
	.short 5		# version
	.byte 1			# DW_UT_compile
	.byte 8			# address size
	.long \abbrev
	.uleb128 1
	.endm

	.macro unit_end
	.byte 0
9:
	.endm

	.section .debug_info,"",@progbits
	.macro units
	# u1 (A)
	unit_begin .Labbrev_a
	.asciz "forms.c"
	.byte 0x1d		# DW_LANG_C11
1:
	.uleb128 4
	.asciz "int"
	.byte 4, 5
	.uleb128 2
	.asciz "s"
	.byte 8
	.uleb128 3
	.asciz "a"
	.long 1b - 7b
	.byte 0
	.uleb128 3
	.asciz "b"
	.long 1b - 7b
	.byte 4
	.byte 0
	unit_end

	# u2 (B)
	unit_begin .Labbrev_b
	.long .Ls_unit
	.byte 0x1d
1:
	.uleb128 4
	.long .Ls_int
	.uleb128 4
	.byte 5
	.uleb128 2
	.long .Ls_s
	.short 8
	.uleb128 5
	.long .Ls_a
	.long 1b - 7b
	.uleb128 3
	.long .Ls_b
	.long 1b - 7b
	.uleb128 4
	.byte 0
	unit_end

	# u3 (C)
	unit_begin .Labbrev_c
	.long .Lstroff_base
	.byte 0
	.byte 0x1d
1:
	.uleb128 4
	.byte 4
	.byte 4, 5
	.uleb128 2
	.byte 1
	.uleb128 3
	.byte 2
	.long 1b - 7b
	.short 0
	.uleb128 3
	.byte 3
	.long 1b - 7b
	.short 4
	.byte 0
	unit_end

	# u4 (B): b @8, size 12
	unit_begin .Labbrev_b
	.long .Ls_unit
	.byte 0x1d
1:
	.uleb128 4
	.long .Ls_int
	.uleb128 4
	.byte 5
	.uleb128 2
	.long .Ls_s
	.short 12
	.uleb128 5
	.long .Ls_a
	.long 1b - 7b
	.uleb128 3
	.long .Ls_b
	.long 1b - 7b
	.uleb128 8
	.byte 0
	unit_end

	# u5 (A): the second member named c
	unit_begin .Labbrev_a
	.asciz "forms.c"
	.byte 0x1d
1:
	.uleb128 4
	.asciz "int"
	.byte 4, 5
	.uleb128 2
	.asciz "s"
	.byte 8
	.uleb128 3
	.asciz "a"
	.long 1b - 7b
	.byte 0
	.uleb128 3
	.asciz "c"
	.long 1b - 7b
	.byte 4
	.byte 0
	unit_end

	# u6 (C): b an unsigned int
	unit_begin .Labbrev_c
	.long .Lstroff_base
	.byte 0
	.byte 0x1d
1:
	.uleb128 4
	.byte 4
	.byte 4, 5
2:
	.uleb128 4
	.byte 5
	.byte 4, 8
	.uleb128 2
	.byte 1
	.uleb128 3
	.byte 2
	.long 1b - 7b
	.short 0
	.uleb128 3
	.byte 3
	.long 2b - 7b
	.short 4
	.byte 0
	unit_end
	.endm

	.rept UNITS_REPEAT
	units
	.endr
