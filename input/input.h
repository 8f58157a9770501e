/*
 * input.h - read types from what the user named into a typeset.
 *
 * The only interface cmd/ uses to read builds: input/ finds and opens
 * files (the only code that uses libelf for the ELF container, libzstd
 * and libdeflate for compressed debug sections), then hands each image to
 * a loader - dwarf/ (the DIE decoder, dwarf/die.c; libdwarf is only the
 * tests' reference) or btf/ (raw BTF, or an ELF's .BTF) - which fills
 * model/.  A path may be an ELF relocatable object,
 * shared library, executable, separate .debug file, a static archive
 * (every member is read), or a directory (every ELF file below it, non-ELF
 * files skipped).  An ELF image without DWARF of its own is read from its
 * separate debug file (input/debugfile.h: build-id, .gnu_debuglink,
 * debuginfod).
 */
#ifndef SF_INPUT_H
#define SF_INPUT_H

#include "lib/err.h"
#include "model/typeset.h"

struct sf_load_opts {
	unsigned threads;          /* 0: one per online CPU */
	/*
	 * When non-NULL, only types whose name is in this NULL-terminated
	 * list (bare names, without "struct ") need to be read in full; the
	 * reader may skip the rest.  Types they contain are still resolved.
	 */
	const char *const *only;
	/*
	 * Internal, leave 0: with `only`, the definitions of declared-only
	 * bases are read in extra passes; this counts them (bounded).
	 */
	unsigned pass;
	/*
	 * Debug-file directories (--debug-dir), NULL-terminated or NULL,
	 * searched in order before /usr/lib/debug (input/debugfile.h).
	 */
	const char *const *debug_dirs;
	/*
	 * Called (when non-NULL) with one line, "DIR: N files without debug
	 * info skipped (...)", after a directory whose walk skipped ELF files
	 * that yield no types but found types in others.  The loader itself
	 * never prints.
	 */
	void (*note)(void *arg, const char *line);
	void *note_arg;
	/*
	 * Lay out every type of every unit, even one whose fingerprint was
	 * laid out already (dwarf/fingerprint.h): the slow reference path
	 * the identity tests compare the default with.
	 */
	int no_dedup;
	/* Say through note what dedup did: "dedup: K of N types laid out
	 * already, skipped; P units laid out again in part; U units laid out
	 * in full" (tests, benchmarks). */
	int dedup_note;
	/* A `holes --format json` document may be read (its types are
	 * summaries without members: only `holes` ranks them); else such a
	 * document is refused with a line saying a show document is needed. */
	int summaries;
	/* An ELF file's .BTF section is read instead of its DWARF when it
	 * has one (structfit pahole -F btf, as pahole reads it). */
	int btf_first;
	/*
	 * When non-zero, only the compilation units whose DW_AT_language is
	 * in this set are read (pahole --lang, --lang_exclude): bit L for
	 * DW_LANG L below 64, bit 0 for a unit of no language, of one at 64
	 * or above, or of BTF (which has no units).  A unit left out adds
	 * nothing, as if the file had not held it.
	 */
	uint64_t unit_langs;
	/*
	 * When non-NULL, called with each struct, union and class as each
	 * unit defines it - every unit, whether or not an equal definition
	 * was kept already (set no_dedup too: a unit that skips a type it
	 * was given before never lays it out) - on the reading thread, so
	 * from several at once (pahole -T counts definitions so).  The type
	 * lives during the call only.
	 */
	void (*each_def)(void *arg, const struct sf_type *t);
	void *each_def_arg;
	/* A zlib-compressed .debug_info of at least this many bytes
	 * inflated is inflated piecewise as its units are read, each run's
	 * bytes given back once merged (input/zstream.h), not held whole:
	 * 0 means SF_STREAM_MIN. */
	uint64_t stream_min;
};

/* The default stream_min: libceph-common's 154 MB and librados' 23 MB
 * are read piecewise; a small file's sections are inflated at once. */
#define SF_STREAM_MIN ((uint64_t)8 << 20)

/*
 * Read every struct/union/class definition of `path` into ts.  On an
 * unusable input (unreadable, not ELF, truncated, no DWARF) returns -1 with
 * err set to "PATH: problem".  A directory holding no ELF file with DWARF
 * is an error too.
 */
int sf_input_load(struct sf_typeset *ts, const char *path,
		  const struct sf_load_opts *opts, struct sf_err *err);

/*
 * The same for several paths at once.  Better than one sf_input_load()
 * per path: a C++ class whose base is only declared where the class is
 * defined (its key function lives in another file) is completed from
 * whichever input defines the base, in any order.  Such types come after
 * all the others.  Stops at the first unusable path.
 */
int sf_input_load_all(struct sf_typeset *ts, char *const *paths, int npaths,
		      const struct sf_load_opts *opts, struct sf_err *err);

#endif
