/*
 * no_abbrev.S - the abbreviation table is missing or broken.  One case
 * per -DCASE=N (cpp):
 *
 *   1  no .debug_abbrev section at all
 *   2  debug_abbrev_offset 0x10000, past the end of .debug_abbrev
 *   3  a DIE uses abbrev code 42, which the table does not define
 *   4  the table ends in the middle (no terminating 0 0 pair)
 *   5  an attribute with an unknown form (0x7f)
 *   6  a DW_FORM_indirect chain: indirect -> indirect -> ... (9 times)
 *   7  two abbrevs with the same code and different shapes
 *
 * Each must exit 2 with one line "structfit: FILE: ..." or, for 7, a
 * bounded result; never a crash or a read outside the sections.
 */
#if CASE != 1
	.section .debug_abbrev,"",@progbits
	.uleb128 1		/* DW_TAG_compile_unit, children */
	.uleb128 0x11
	.byte 1
	.uleb128 0x03, 0x08	/* DW_AT_name, DW_FORM_string */
	.uleb128 0x13, 0x0b	/* DW_AT_language, DW_FORM_data1 */
	.byte 0, 0
	.uleb128 2		/* DW_TAG_structure_type, children */
	.uleb128 0x13
	.byte 1
	.uleb128 0x03, 0x08
# if CASE == 4
	.uleb128 0x0b		/* DW_AT_byte_size, then the section ends */
# elif CASE == 5
	.uleb128 0x0b, 0x7f	/* DW_AT_byte_size, form 0x7f */
	.byte 0, 0
# elif CASE == 6
	.uleb128 0x0b, 0x16	/* DW_AT_byte_size, DW_FORM_indirect */
	.byte 0, 0
# else
	.uleb128 0x0b, 0x0f	/* DW_AT_byte_size, DW_FORM_udata */
	.byte 0, 0
# endif
# if CASE == 7
	.uleb128 2		/* code 2 again: a member */
	.uleb128 0x0d
	.byte 0
	.uleb128 0x03, 0x08
	.uleb128 0x38, 0x0f
	.byte 0, 0
# endif
# if CASE != 4
	.byte 0
# endif
#endif
	.section .debug_info,"",@progbits
	.long .Lend - .Lstart
.Lstart:
	.short 4
#if CASE == 2
	.long 0x10000
#else
	.long 0
#endif
	.byte 8
	.uleb128 1
	.asciz "abbrev.c"
	.byte 0x0c
#if CASE == 3
	.uleb128 42
#else
	.uleb128 2
#endif
	.asciz "s"
#if CASE == 6
	.rept 9
	.uleb128 0x16		/* DW_FORM_indirect again */
	.endr
	.uleb128 0x0f
#endif
	.uleb128 8
	.byte 0
	.byte 0
.Lend:
