# deep_scope.s - C++ scopes 10,000 deep: namespace n { namespace n { ...
# struct s { int v; }; ... } }, the struct at the bottom, and a struct
# `top` at the top whose member has that struct's type.
#
# Qualified names would be n::n::...::s (20,000 characters); the reader
# bounds scope depth.  The layout of top (size 4, v of 4 bytes at 0) is a
# fact whatever the name of its member's type.
	.include "abbrev.inc"
	cu_begin 0x04		# DW_LANG_C_plus_plus
	base_types
	.rept 10000
	.uleb128 17		# DW_TAG_namespace "n"
	.asciz "n"
	.endr
.Linner:
	.uleb128 2
	.asciz "s"
	.uleb128 4
	.uleb128 3
	.asciz "v"
	.long .Lint - .Lcu
	.uleb128 0
	.byte 0
	.rept 10000
	.byte 0
	.endr
	.uleb128 2
	.asciz "top"
	.uleb128 4
	.uleb128 3
	.asciz "in"
	.long .Linner - .Lcu
	.uleb128 0
	.byte 0
	cu_end
