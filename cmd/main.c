/*
 * main.c - structfit's entry point: dispatch to one builtin per subcommand,
 * the way git dispatches its cmd_* builtins from a table.
 */
#include <errno.h>
#include <limits.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "builtin.h"
#include "common.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "version.h"

struct builtin {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct builtin builtins[] = {
	{ "show", cmd_show, "print each struct's layout with its holes (pahole style)" },
	{ "holes", cmd_holes, "rank the structs that waste the most bytes" },
	{ "suggest", cmd_suggest, "propose a reordering and narrowings for one struct" },
	{ "fit", cmd_fit, "the size class a struct (or sum of structs) lands in" },
	{ "classes", cmd_classes, "list the size-class presets" },
	{ "check", cmd_check, "gate CI on a budget file of sizeof rules" },
	{ "diff", cmd_diff, "compare the layouts of two builds" },
	{ "patch", cmd_patch, "write a suggestion as a patch to the source" },
	{ "pahole", cmd_pahole, "pahole 1.24's layout options, with pahole's output" },
};

#define NBUILTINS (sizeof(builtins) / sizeof(builtins[0]))

static void usage(FILE *f)
{
	fputs("usage: structfit [--version] [--help] COMMAND [OPTIONS] FILE...\n\n"
	      "commands:\n", f);
	for (size_t i = 0; i < NBUILTINS; i++)
		fprintf(f, "   %-9s %s\n", builtins[i].name, builtins[i].summary);
	fputs("\nFILE: an ELF object, shared library, executable, separate .debug file,\n"
	      "static archive or directory.  'structfit COMMAND --help' for its options,\n"
	      "'structfit help options' for the letters every command shares.\n"
	      "Exit status: 0 ok, 1 a finding you asked to fail on, 2 usage or input error.\n",
	      f);
}

/*
 * Every output ends here: a full disk or a closed pipe is an error (exit 2
 * with errno's text), --help and --version included, unless the command
 * already said so.
 */
static int flushed(int status)
{
	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return status;
	if (status != SF_EXIT_ERROR)
		sf_die_usage("error writing the output: %s",
			     strerror(errno ? errno : EIO));
	return SF_EXIT_ERROR;
}

static int dispatch(int argc, char **argv);

/* After "'X' is not a structfit command": the nearest commands; 2. */
static int hint_command(const char *arg)
{
	const char *names[NBUILTINS];

	for (size_t i = 0; i < NBUILTINS; i++)
		names[i] = builtins[i].name;
	sf_hint_similar_command(arg, names, NBUILTINS);
	return SF_EXIT_ERROR;
}

/*
 * glibc maps each block above its mmap threshold (128 KiB at first, then
 * the largest block freed so far) on its own and unmaps it at free(), and
 * gives the top of a heap back to the kernel past its trim threshold.
 * The loader allocates and frees a typeset (256 KiB chunks) and growing
 * lookup tables per run of units and per input, on several threads: that
 * memory was mapped, faulted in page by page, and unmapped again, over
 * and over (27.5 k page faults on vmlinux, 15.7 k with this; libpython's
 * archive 5.6 k, 3.6 k).  A run of structfit is short: it keeps what it
 * frees for the next input and gives it all back at exit.
 */
#define KEEP_TOP (512 << 20)

static void keep_freed_memory(void)
{
#ifdef M_TRIM_THRESHOLD
	mallopt(M_MMAP_THRESHOLD, 32 << 20);	/* glibc's largest on 64-bit */
	mallopt(M_TRIM_THRESHOLD, KEEP_TOP);
#endif
}

/*
 * Transparent huge pages for malloc's heap.  The kernel backs memory with
 * 2 MiB pages only where a program asks (THP's default "madvise" mode).
 * Every first write to a 4 KiB page is a fault, about 10 us on the
 * paravirtualised machines measured; 2 MiB pages took show of librados
 * from 10 k faults to 0.7 k and its CPU time down by a third,
 * libceph-common's from 19 k to 2 k (10 % of the wall time), with peak
 * memory within 5 % (libc6-dbg's 273 files: 20 -> 34 MB).  Only where an
 * input is big (big_input_named).
 *
 * glibc's malloc asks for them under its tunable glibc.malloc.hugetlb=1,
 * which it reads once, at exec; structfit ran itself again with it set,
 * which cost an exec and a second dynamic load (3-4 ms of librados' 150).
 * Now it asks in place, as that tunable would: one heap for every thread
 * (M_ARENA_MAX 1: a second thread's heap of its own is mapped apart and
 * never advised), grown once by HEAP_RESERVE (M_TOP_PAD, for the one
 * allocation that grows it) and all of it advised MADV_HUGEPAGE.  A page
 * of it is memory only once written, so the reserve costs address space,
 * not memory.  Blocks above the mmap threshold then come from that heap
 * too (M_MMAP_MAX 0), advised like the rest, as under the tunable; its
 * top is never trimmed (the advised reserve would go with it).  A heap
 * grown past the reserve grows on 4 KiB pages; where the reserve cannot
 * be had (RLIMIT_DATA, strict overcommit) malloc goes on as it was.
 *
 * Not done where the user set malloc tunables of their own, where
 * LD_PRELOAD puts something in front of malloc (valgrind, a profiler, an
 * allocator), or under a sanitizer's allocator.
 */
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer) || \
	__has_feature(thread_sanitizer)
#define SF_OWN_MALLOC 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SF_OWN_MALLOC 1
#endif
/* (64-bit only: a 1 GiB reserve would crowd a 32-bit address space's
 * mappings of big inputs) */
#if defined(__GLIBC__) && defined(M_ARENA_MAX) && !defined(SF_OWN_MALLOC) && \
	UINTPTR_MAX > 0xffffffffu
#define SF_HUGE_HEAP 1
#endif

#define HEAP_RESERVE ((size_t)1 << 30)

static void huge_page_heap(void)
{
#ifdef SF_HUGE_HEAP
	const char *tunables = getenv("GLIBC_TUNABLES");
	const char *preload = getenv("LD_PRELOAD");

	if ((tunables && strstr(tunables, "glibc.malloc.")) || (preload && *preload))
		return;
	mallopt(M_TRIM_THRESHOLD, INT_MAX);
	uintptr_t start = (uintptr_t)sbrk(0);
	mallopt(M_TOP_PAD, (int)HEAP_RESERVE);
	/* more than the heap has left: it grows, by the reserve more */
	void *volatile grow = malloc((size_t)1 << 20);
	free(grow);
	mallopt(M_TOP_PAD, 128 << 10);	/* glibc's default */
	uintptr_t end = (uintptr_t)sbrk(0);
	uintptr_t from = (start + SF_HUGE_PAGE - 1) & ~(uintptr_t)(SF_HUGE_PAGE - 1);
	if (start == (uintptr_t)-1 || end < from || end - from < HEAP_RESERVE / 2 ||
	    madvise((void *)from, end - from, MADV_HUGEPAGE) < 0) {
		mallopt(M_TRIM_THRESHOLD, KEEP_TOP);	/* no reserve: malloc as it was */
		return;
	}
	mallopt(M_MMAP_MAX, 0);
	mallopt(M_ARENA_MAX, 1);	/* before any thread: each would map its own */
#endif
}

/*
 * Whether the run is worth a heap of huge pages: an operand names a directory
 * or a file of HUGE_PAGES_FROM bytes or more.  A run over a small object
 * (a CI gate over one .o, say) touches a few MB and never gains.
 */
#define HUGE_PAGES_FROM ((off_t)1 << 20)

static int big_input_named(int argc, char **argv)
{
	struct stat st;

	for (int i = 2; i < argc; i++)
		if (argv[i][0] != '-' && stat(argv[i], &st) == 0 &&
		    (S_ISDIR(st.st_mode) || (S_ISREG(st.st_mode) && st.st_size >= HUGE_PAGES_FROM)))
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	keep_freed_memory();
	if (big_input_named(argc, argv))
		huge_page_heap();
	return flushed(dispatch(argc, argv));
}

static int dispatch(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return SF_EXIT_ERROR;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		if (argc > 2 && !strcmp(argv[1], "help") && !strcmp(argv[2], "options")) {
			sf_print_options(stdout);
			return SF_EXIT_OK;   /* flushed() checks the write */
		}
		if (argc > 2 && strcmp(argv[1], "help") == 0) {
			char *sub[] = { argv[2], "--help", NULL };
			for (size_t i = 0; i < NBUILTINS; i++)
				if (!strcmp(builtins[i].name, argv[2]))
					return builtins[i].fn(2, sub);
			sf_die_usage("help: '%s' is not a structfit command; see "
				     "'structfit --help'", argv[2]);
			return hint_command(argv[2]);
		}
		usage(stdout);
		return SF_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("structfit %s\n", SF_VERSION);
		return SF_EXIT_OK;
	}
	for (size_t i = 0; i < NBUILTINS; i++) {
		if (strcmp(builtins[i].name, argv[1]))
			continue;
		int status = builtins[i].fn(argc - 1, argv + 1);
		/* a machine --format gets a document carrying the error */
		return status == SF_EXIT_ERROR ? sf_error_document(argv[1]) : status;
	}
	sf_die_usage("'%s' is not a structfit command; see 'structfit --help'", argv[1]);
	return hint_command(argv[1]);
}
