#!/bin/sh
# tests/folders.sh - the folder rules of DESIGN.md's "Data flow and layout of
# the tree" checked on the sources, so they stay true: an include points
# down the data flow, and layout/ is pure computation.
#
#   cmd/ -> input/ -> dwarf/, btf/ (peers) -> model/ ;  layout/ -> model/ ;
#   report/ -> layout/, model/ ;  everything -> lib/
#
# Rules (a quoted #include "x/y.h" names x/y.h from the top of the tree;
# "y.h" without a folder is the including file's own folder):
#   model/    includes only model/ and lib/
#   lib/      includes only lib/
#   dwarf/, btf/  include no layout/, report/, cmd/ or input/ (input/ is
#             above the loaders); dwarf/ no btf/ and btf/ no dwarf/ (peers)
#   layout/   includes no report/, cmd/, input/, dwarf/ or btf/, and calls
#             no I/O: the names below, outside comments and string literals;
#             and words nothing (report/ does): no string literal in layout/
#             holds an option word ("--" and a letter) or a sentence (two
#             words in a row, the second of two letters or more: "is not",
#             "a pattern"), outside comments, #include lines and the
#             assert(!"...") idiom
#   report/   includes no cmd/, input/, dwarf/ or btf/
#   input/    includes no cmd/: what the loaders are told comes down in
#             arguments (struct sf_common_opts), never from cmd/'s state
#
# Allowed for good (the reason is the rule's own):
#   dwarf/ -> input/elfobj.h: the image the input room hands to the DWARF
#             loader (sections, their bytes, the ELF's class and machine)
#
# Allowed for now: tests/folders.allow lists edges that break a rule and
# are to go ("FILE INCLUDE reason").  Each is printed as a known exception
# while it exists; a line whose edge is gone fails, so the list only shrinks.
# tests/folders.words does the same for layout/'s literals: "FILE<TAB>ERE
# <TAB>reason", the ERE matched against the literal's text (between the
# quotes, escapes as written).  It holds only data that reads like words
# (type spellings, C code patch writes), listed for good: a line whose
# reason does not start "for good:" fails (words "to go" have all moved
# to report/: none comes back), as does an ERE not anchored with ^ (a
# catch-all such as /./ would let any sentence in).
#
# Each file checked is one case, each allowlist line one more.  A failure
# prints FILE:LINE and the rule; the last line is exactly
# "folders: N passed, M failed"; the exit status is 1 when anything failed.

cd "$(dirname "$0")/.." || exit 2

files=$(find model lib input dwarf btf layout report -name '*.[ch]' | LC_ALL=C sort)
[ -n "$files" ] || { echo "folders: no sources found"; echo "folders: 0 passed, 1 failed"; exit 1; }

# shellcheck disable=SC2086
awk '
function folder(p) { sub(/\/.*/, "", p); return p }
function dir(p) { sub(/\/[^\/]*$/, "", p); return p }

# Why file may not include target ("" when it may).
function forbidden(file, target,    f, t) {
	f = folder(file); t = folder(target)
	if (f == "model" && t != "model" && t != "lib")
		return "model/ includes only model/ and lib/"
	if (f == "lib" && t != "lib")
		return "lib/ includes only lib/"
	if ((f == "dwarf" || f == "btf") && (t == "layout" || t == "report" || t == "cmd"))
		return "a loader includes no layout/, report/ or cmd/: passes run after loading"
	if ((f == "dwarf" && t == "btf") || (f == "btf" && t == "dwarf"))
		return "dwarf/ and btf/ are peers: neither includes the other"
	if ((f == "dwarf" || f == "btf") && t == "input") {
		if (f == "dwarf" && target == "input/elfobj.h")
			return ""   # the image the input room hands to the loader
		return "input/ is above the loaders: it hands them images"
	}
	if (f == "layout" && (t == "report" || t == "cmd" || t == "input" || t == "dwarf" || t == "btf"))
		return "layout/ is pure computation over the model: no report/, cmd/, input/, dwarf/ or btf/"
	if (f == "input" && t == "cmd")
		return "input/ is below cmd/: the loaders are told what they need in arguments, never read cmd/ state"
	if (f == "report" && (t == "cmd" || t == "input" || t == "dwarf" || t == "btf"))
		return "report/ renders what layout/ computed: no cmd/, input/, dwarf/ or btf/"
	return ""
}

function fail(where, what) {
	print "folders: FAIL " where ": " what
	bad[FILENAME] = 1
}

# The line with comments and the insides of string and character literals
# blanked (state kept across lines in incomment).  The double-quoted
# literals go to lit[1..nlit] (not those of an #include line, nor
# the assert(!"...") idiom).
function strip(s,    out, i, c, q, n, text, start) {
	out = ""; n = length(s); nlit = 0
	for (i = 1; i <= n; i++) {
		c = substr(s, i, 1)
		if (incomment) {
			if (c == "*" && substr(s, i + 1, 1) == "/") { incomment = 0; i++ }
			continue
		}
		if (c == "/" && substr(s, i + 1, 1) == "*") { incomment = 1; i++; out = out " "; continue }
		if (c == "/" && substr(s, i + 1, 1) == "/") break
		if (c == "\"" || c == "\047") {
			q = c; text = ""; start = i
			for (i++; i <= n; i++) {
				c = substr(s, i, 1)
				if (c == "\\") { text = text substr(s, i, 2); i++; continue }
				if (c == q) break
				text = text c
			}
			if (q == "\"" && out !~ /^[ \t]*#[ \t]*include/ && out !~ /![ \t]*$/)
				lit[++nlit] = text
			out = out q q
			continue
		}
		out = out c
	}
	return out
}

BEGIN {
	io = "(^|[^A-Za-z0-9_.>])(fopen|fdopen|freopen|fclose|fread|fwrite|fflush|fprintf|printf|vprintf|vfprintf|dprintf|puts|fputs|putchar|fputc|putc|getc|fgetc|fgets|getchar|getline|open|openat|creat|read|pread|write|pwrite|close|stat|fstat|lstat|fstatat|opendir|readdir|closedir|mmap|popen|system|getenv|secure_getenv|perror)[ \t]*\\("
	std = "(^|[^A-Za-z0-9_])(stdin|stdout|stderr)([^A-Za-z0-9_]|$)"
}

FILENAME == wordsfile {
	if ($0 ~ /^[ \t]*(#|$)/)
		next
	nwords++
	split($0, wf, "\t")
	wfile[nwords] = wf[1]; wre[nwords] = wf[2]; wline[nwords] = FNR; wreason[nwords] = wf[3]
	if (wf[3] !~ /^for good: /)
		wbad[nwords] = "its reason is not \"for good: ...\": layout/ words nothing; return the reason as data and word it in report/"
	else if (wf[2] !~ /^\^/)
		wbad[nwords] = "its ERE /" wf[2] "/ is not anchored with ^: list the data itself, not a catch-all"
	next
}

FILENAME == allowfile {
	if ($0 ~ /^[ \t]*(#|$)/)
		next
	nallow++
	afile[nallow] = $1; ainc[nallow] = $2; aline[nallow] = FNR
	$1 = ""; $2 = ""; sub(/^[ \t]+/, ""); areason[nallow] = $0
	allowed[afile[nallow] SUBSEP ainc[nallow]] = nallow
	next
}

FNR == 1 { nfiles++; incomment = 0; seen[FILENAME] = 1 }

/^[ \t]*#[ \t]*include[ \t]*"/ {
	inc = $0
	sub(/^[ \t]*#[ \t]*include[ \t]*"/, "", inc); sub(/".*/, "", inc)
	target = inc ~ /\// ? inc : dir(FILENAME) "/" inc
	why = forbidden(FILENAME, target)
	if (why != "") {
		k = allowed[FILENAME SUBSEP target]
		if (k) {
			used[k] = 1
			print "folders: known exception " FILENAME ":" FNR ": includes \"" target "\" (" areason[k] "; " allowfile ":" aline[k] ")"
		} else {
			fail(FILENAME ":" FNR, "includes \"" target "\": " why)
		}
	}
}

# Why a literal of layout/ is words ("" when it is not).
function wordy(t) {
	if (t ~ /--[A-Za-z]/)
		return "an option word: cmd/ knows the options, report/ says them"
	if (t ~ /[A-Za-z]+ [A-Za-z][A-Za-z]/)
		return "a sentence: layout/ returns reasons as data, report/ words them"
	return ""
}

# The tests/folders.words line that lets FILE hold literal t, or 0.
function words_allowed(file, t,    k) {
	for (k = 1; k <= nwords; k++)
		if (wfile[k] == file && t ~ wre[k])
			return k
	return 0
}

folder(FILENAME) == "layout" {
	s = strip($0)
	if (match(s, io) || match(s, std)) {
		call = substr(s, RSTART, RLENGTH); sub(/^[^A-Za-z_]/, "", call); sub(/[ \t]*\($/, "", call)
		fail(FILENAME ":" FNR, "calls " call ": layout/ does no I/O (cmd/ reads and writes, report/ words)")
	}
	for (li = 1; li <= nlit; li++) {
		why = wordy(lit[li])
		if (why == "")
			continue
		k = words_allowed(FILENAME, lit[li])
		if (k)
			wused[k]++
		else
			fail(FILENAME ":" FNR, "\"" lit[li] "\" is " why)
	}
}

END {
	for (f in seen)
		nbad += (f in bad)
	for (k = 1; k <= nallow; k++) {
		if (used[k])
			continue
		print "folders: FAIL " allowfile ":" aline[k] ": " afile[k] " no longer includes \"" ainc[k] "\": remove the line (the list only shrinks)"
		nstale++
	}
	for (k = 1; k <= nwords; k++) {
		if (k in wbad) {
			print "folders: FAIL " wordsfile ":" wline[k] ": " wfile[k] ": " wbad[k]
			nstale++
			continue
		}
		if (wused[k]) {
			print "folders: known words " wfile[k] ": " wused[k] " literal(s) /" wre[k] "/ (" wreason[k] "; " wordsfile ":" wline[k] ")"
			continue
		}
		print "folders: FAIL " wordsfile ":" wline[k] ": no literal of " wfile[k] " matches /" wre[k] "/ any more: remove the line (the list only shrinks)"
		nstale++
	}
	printf "folders: %d passed, %d failed\n", nfiles - nbad + nallow + nwords - nstale, nbad + nstale
	exit (nbad + nstale) ? 1 : 0
}
 ' allowfile=tests/folders.allow wordsfile=tests/folders.words tests/folders.allow tests/folders.words $files
