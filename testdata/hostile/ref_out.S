/*
 * ref_out.S - type references that point outside the unit or the
 * section, or into the middle of a DIE.  -DCASE=N (cpp):
 *
 *   1  struct refs (size 32), members whose DW_AT_type points nowhere:
 *        a  DW_FORM_ref4 0x7ffffff0      (past the end of .debug_info)
 *        b  DW_FORM_ref_udata 2^63       (unit offset + 2^63)
 *        c  DW_FORM_ref_addr 0xfffffff0  (section offset past the end)
 *        f  DW_FORM_ref_udata 2^64-1     (wraps around to before the unit)
 *      and g, an int at 24: the facts that are known must come out.
 *   2  a member whose DW_FORM_ref4 points into the middle of a DIE (the
 *      string "int"), where bytes decode as garbage
 *   3  a member whose DW_FORM_ref4 is 0: the unit header, not a DIE
 */
	.include "abbrev.inc"
	cu_begin
	base_types
	.uleb128 2
	.asciz "refs"
	.uleb128 32
#if CASE == 1
	.uleb128 3
	.asciz "a"
	.long 0x7ffffff0
	.uleb128 0
	.uleb128 18
	.asciz "b"
	.uleb128 0x8000000000000000
	.uleb128 4
	.uleb128 19
	.asciz "c"
	.long 0xfffffff0
	.uleb128 8
	.uleb128 18
	.asciz "f"
	.uleb128 0xffffffffffffffff
	.uleb128 16
#elif CASE == 2
	.uleb128 3
	.asciz "d"
	.long .Lint - .Lcu + 2
	.uleb128 0
#elif CASE == 3
	.uleb128 3
	.asciz "e"
	.long 0
	.uleb128 0
#else
#error "CASE must be 1..3"
#endif
	.uleb128 3
	.asciz "g"
	.long .Lint - .Lcu
	.uleb128 24
	.byte 0
	cu_end
