# bad_utf8.s - names that are not UTF-8: DW_AT_name is just bytes.
#
#   struct "bad\xff\xfe" { int "m\xc3"; int "ok"; };   size 8
#   typedef struct "bad\xff\xfe" "t\xe2\x28\xa1";
#   struct user { "t\xe2\x28\xa1" t; };                size 8
#
# Text output may pass the bytes through as they are (as pahole does); JSON
# must stay valid UTF-8 (RFC 8259: jq, Python and browsers reject anything
# else), whatever the names hold.
	.include "abbrev.inc"
	cu_begin
	base_types
.Lbad:
	.uleb128 2
	.byte 0x62, 0x61, 0x64, 0xff, 0xfe, 0	# "bad\xff\xfe"
	.uleb128 8
	.uleb128 3
	.byte 0x6d, 0xc3, 0			# "m\xc3": a sequence cut short
	.long .Lint - .Lcu
	.uleb128 0
	.uleb128 3
	.asciz "ok"
	.long .Lint - .Lcu
	.uleb128 4
	.byte 0
.Ltd:
	.uleb128 5
	.byte 0x74, 0xe2, 0x28, 0xa1, 0		# "t\xe2\x28\xa1": a bad continuation
	.long .Lbad - .Lcu
	.uleb128 2
	.asciz "user"
	.uleb128 8
	.uleb128 3
	.asciz "t"
	.long .Ltd - .Lcu
	.uleb128 0
	.byte 0
	cu_end
