# variants.s - a Rust unit whose enums (DW_TAG_variant_part) are broken:
#
#   loop    a variant whose payload is the enum itself (a layout cycle),
#           and one whose payload struct sits at offset 2^64-1
#   nodisc  a variant part with no DW_AT_discr, no discriminant member and
#           no variants; another with a discriminant and no variants
#   outer   a variant whose payload is `loop` (an enum inside a variant)
#
# Own abbreviation table (Rust needs DW_AT_discr / DW_AT_discr_value,
# which abbrev.inc has not).
	.section .debug_abbrev,"",@progbits
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
	.uleb128 0x0b, 0x0f	# DW_AT_byte_size, DW_FORM_udata
	.byte 0, 0
	.uleb128 3		# DW_TAG_member
	.uleb128 0x0d
	.byte 0
	.uleb128 0x03, 0x08	# DW_AT_name, DW_FORM_string
	.uleb128 0x49, 0x13	# DW_AT_type, DW_FORM_ref4
	.uleb128 0x38, 0x0f	# DW_AT_data_member_location, DW_FORM_udata
	.byte 0, 0
	.uleb128 4		# DW_TAG_base_type
	.uleb128 0x24
	.byte 0
	.uleb128 0x03, 0x08	# DW_AT_name, DW_FORM_string
	.uleb128 0x0b, 0x0f	# DW_AT_byte_size, DW_FORM_udata
	.uleb128 0x3e, 0x0b	# DW_AT_encoding, DW_FORM_data1
	.byte 0, 0
	.uleb128 5		# DW_TAG_variant_part, children
	.uleb128 0x33
	.byte 1
	.uleb128 0x15, 0x13	# DW_AT_discr, DW_FORM_ref4
	.byte 0, 0
	.uleb128 6		# DW_TAG_member (the discriminant: no name)
	.uleb128 0x0d
	.byte 0
	.uleb128 0x49, 0x13	# DW_AT_type, DW_FORM_ref4
	.uleb128 0x38, 0x0f	# DW_AT_data_member_location, DW_FORM_udata
	.byte 0, 0
	.uleb128 7		# DW_TAG_variant, children
	.uleb128 0x19
	.byte 1
	.uleb128 0x16, 0x0f	# DW_AT_discr_value, DW_FORM_udata
	.byte 0, 0
	.uleb128 8		# DW_TAG_variant (the default one), children
	.uleb128 0x19
	.byte 1
	.byte 0, 0
	.uleb128 9		# DW_TAG_variant_part without DW_AT_discr, children
	.uleb128 0x33
	.byte 1
	.byte 0, 0
	.byte 0

	.section .debug_info,"",@progbits
.Lcu:
	.long .Lend - .Lstart	# unit_length
.Lstart:
	.short 4		# version
	.long 0			# debug_abbrev_offset
	.byte 8			# address_size
	.uleb128 1		# DW_TAG_compile_unit
	.asciz "hostile.rs"
	.byte 0x1c		# DW_LANG_Rust
.Lu64:
	.uleb128 4
	.asciz "u64"
	.uleb128 8
	.byte 7			# DW_ATE_unsigned
.Lpay:
	.uleb128 2
	.asciz "pay"
	.uleb128 8
	.uleb128 3
	.asciz "p"
	.long .Lu64 - .Lcu
	.uleb128 0
	.byte 0
.Lloop:
	.uleb128 2
	.asciz "loop"
	.uleb128 16
	.uleb128 5		# variant_part
	.long .Lloopd - .Lcu
.Lloopd:
	.uleb128 6
	.long .Lu64 - .Lcu
	.uleb128 0
	.uleb128 7		# variant 0: the enum itself
	.uleb128 0
	.uleb128 3
	.asciz "A"
	.long .Lloop - .Lcu
	.uleb128 0
	.byte 0
	.uleb128 8		# default variant: pay at 2^64-1
	.uleb128 3
	.asciz "B"
	.long .Lpay - .Lcu
	.uleb128 0xffffffffffffffff
	.byte 0
	.byte 0			# end of variant_part
	.byte 0			# end of loop
	.uleb128 2
	.asciz "nodisc"
	.uleb128 8
	.uleb128 3
	.asciz "x"
	.long .Lu64 - .Lcu
	.uleb128 0
	.uleb128 9		# variant_part: nothing in it
	.byte 0
	.uleb128 5		# variant_part: a discriminant, no variant
	.long .Lnd - .Lcu
.Lnd:
	.uleb128 6
	.long .Lu64 - .Lcu
	.uleb128 0
	.byte 0
	.byte 0			# end of nodisc
	.uleb128 2
	.asciz "outer"
	.uleb128 24
	.uleb128 9		# variant_part, no discriminant
	.uleb128 7
	.uleb128 1
	.uleb128 3
	.asciz "N"
	.long .Lloop - .Lcu
	.uleb128 8
	.byte 0
	.byte 0			# end of variant_part
	.byte 0			# end of outer
	.byte 0			# end of the unit's children
.Lend:
