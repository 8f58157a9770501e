/*
 * truncated.S - a .debug_info that ends too early or has a bad unit
 * header.  One case per -DCASE=N (cpp), each a complete object:
 *
 *   1  unit_length 1000, the section holds 40 bytes
 *   2  unit_length right, but the struct's children never end (no null
 *      entry before the unit ends)
 *   3  the section ends inside a DW_FORM_string attribute (no NUL)
 *   4  64-bit DWARF marker 0xffffffff, then only 4 of the 8 length bytes
 *   5  version 99
 *   6  unit_length 3, shorter than the header that follows
 *   7  address size 3
 *   8  the section ends inside a ULEB128 (every byte has bit 7 set)
 *   9  an empty .debug_info section
 *
 * Each must exit 2 with one line "structfit: FILE: ..." (a truncated or
 * corrupt unit), never read past the section.
 */
	.include "abbrev.inc"
	.section .debug_info,"",@progbits
#if CASE == 1
	.long 1000
	.short 4
	.long 0
	.byte 8
	.uleb128 1
	.asciz "trunc.c"
	.byte 0x0c
	.uleb128 2
	.asciz "cut"
	.uleb128 8
	.byte 3
	.asciz "m"
#elif CASE == 2
	.long .Lend2 - .Lstart2
.Lstart2:
	.short 4
	.long 0
	.byte 8
	.uleb128 1
	.asciz "trunc.c"
	.byte 0x0c
	.uleb128 2
	.asciz "open"
	.uleb128 8
	.uleb128 4
	.asciz "int"
	.uleb128 4
	.byte 5
.Lend2:
#elif CASE == 3
	.long 40
	.short 4
	.long 0
	.byte 8
	.uleb128 1
	.ascii "no-nul-here"
#elif CASE == 4
	.long 0xffffffff
	.long 64
#elif CASE == 5
	.long .Lend5 - .Lstart5
.Lstart5:
	.short 99
	.long 0
	.byte 8
	.uleb128 1
	.asciz "v99.c"
	.byte 0x0c
	.byte 0
.Lend5:
#elif CASE == 6
	.long 3
	.short 4
	.long 0
	.byte 8
	.uleb128 1
	.asciz "short.c"
	.byte 0x0c
	.byte 0
#elif CASE == 7
	.long .Lend7 - .Lstart7
.Lstart7:
	.short 4
	.long 0
	.byte 3
	.uleb128 1
	.asciz "addr3.c"
	.byte 0x0c
	.byte 0
.Lend7:
#elif CASE == 8
	.long 40
	.short 4
	.long 0
	.byte 8
	.uleb128 1
	.asciz "uleb.c"
	.byte 0x0c
	.uleb128 2
	.asciz "s"
	.byte 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80
#elif CASE == 9
	/* nothing */
#else
#error "CASE must be 1..9"
#endif
