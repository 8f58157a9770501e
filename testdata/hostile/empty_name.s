# empty_name.s - a struct whose DW_AT_name is the empty string, and a
# struct holding it:
#
#   struct "" { int x; };                 size 4
#   struct holder { struct "" e; long l; };  size 16
#
# The empty name is no name to report the struct under (it is left out,
# as an anonymous one would be), whether structs are laid out once
# (dwarf/reader.c, top_later: a C top's name is not read before its key
# is looked up) or every time (STRUCTFIT_NO_DEDUP=1).
	.include "abbrev.inc"
	cu_begin
	base_types
.Lempty:
	.uleb128 2
	.byte 0				# DW_AT_name ""
	.uleb128 4
	.uleb128 3
	.asciz "x"
	.long .Lint - .Lcu
	.uleb128 0
	.byte 0
	.uleb128 2
	.asciz "holder"
	.uleb128 16
	.uleb128 3
	.asciz "e"
	.long .Lempty - .Lcu
	.uleb128 0
	.uleb128 3
	.asciz "l"
	.long .Llong - .Lcu
	.uleb128 8
	.byte 0
	cu_end
