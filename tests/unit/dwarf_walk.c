/*
 * dwarf_walk.c - the floor under structfit's time: decode every DIE of one
 * ELF file and nothing else (tests/bench.sh times it beside `show`).
 *
 *   build/tests/dwarf_walk FILE [THREADS]
 *
 * The file is mapped, its debug sections picked, inflated and relocated as
 * the loader does (sf_elf_prepare_debug), the unit table read
 * (sf_dwfile_init); then THREADS threads (default 2) take units from a
 * shared counter and decode each unit's DIEs in section order with
 * dwarf/die.c, keeping none.  What `show` does beyond this - resolving
 * types, fingerprints, layouts, the report - is what it costs above the
 * floor.  Prints "N DIEs in M units"; exit 2 when the file cannot be read.
 */
#include <fcntl.h>
#include <libelf.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dwarf/die.h"
#include "input/elfobj.h"
#include "lib/err.h"

#define MAX_WALKERS 64

struct walk {
	const struct sf_dwfile *f;
	atomic_size_t next;        /* the next unit to hand out */
	atomic_size_t dies;
	atomic_int bad;
};

/* Every DIE of unit i, in section order: a DIE's attributes end where the
 * next DIE (its first child, its sibling or a null entry) starts. */
static size_t walk_unit(const struct sf_dwfile *f, size_t i, int *bad)
{
	struct sf_ucx cx;
	struct sf_err err;
	struct sf_die d;
	size_t n = 0;

	if (sf_ucx_open(&cx, f, i, &err) < 0) {
		*bad = 1;
		return 0;
	}
	for (uint64_t off = f->units[i].die_start; off < f->units[i].end; off = d.next, n++) {
		if (sf_die_read(&cx, off, &d) < 0) {
			*bad = 1;
			break;
		}
	}
	sf_ucx_release(&cx);
	return n;
}

static void *walker(void *arg)
{
	struct walk *w = arg;
	size_t dies = 0;
	int bad = 0;

	for (size_t i; (i = atomic_fetch_add(&w->next, 1)) < w->f->nunits;)
		dies += walk_unit(w->f, i, &bad);
	atomic_fetch_add(&w->dies, dies);
	if (bad)
		atomic_store(&w->bad, 1);
	return NULL;
}

static void dwfile_of(const struct sf_elf *e, struct sf_dwsec sec[SF_SEC_N])
{
	static const char *const names[SF_SEC_N] = {
		".debug_info", ".debug_types", ".debug_abbrev", ".debug_str",
		".debug_line_str", ".debug_str_offsets", ".debug_line",
	};

	memset(sec, 0, sizeof(struct sf_dwsec) * SF_SEC_N);
	for (uint32_t k = 1; k < e->ndw; k++)
		for (int s = 0; s < SF_SEC_N; s++)
			if (!strcmp(e->dw_name[k], names[s])) {
				sec[s].data = e->sec[e->dw[k]].data;
				sec[s].size = e->sec[e->dw[k]].size;
			}
}

static int fail(const char *msg)
{
	fprintf(stderr, "dwarf_walk: %s\n", msg);
	return 2;
}

int main(int argc, char **argv)
{
	struct sf_err err = SF_ERR_INIT;
	struct sf_elf e;
	struct sf_dwfile f;
	struct sf_dwsec sec[SF_SEC_N];
	struct stat st;
	int threads = argc > 2 ? atoi(argv[2]) : 2;

	if (argc < 2 || threads < 1 || threads > MAX_WALKERS)
		return fail("usage: dwarf_walk FILE [THREADS 1..64]");
	int fd = open(argv[1], O_RDONLY);
	if (fd < 0 || fstat(fd, &st) < 0 || st.st_size == 0)
		return fail("cannot open the file");
	unsigned char *img = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE, fd, 0);
	close(fd);
	if (img == MAP_FAILED)
		return fail("cannot map the file");
	elf_version(EV_CURRENT);
	if (sf_elf_parse(&e, img, (size_t)st.st_size, argv[1], &err) < 0)
		return fail(err.msg);
	e.file_backed = 1;	/* a file's mapping, as the loader's */
	if (sf_elf_prepare_debug(&e, &err) != 1)
		return fail(err.msg[0] ? err.msg : "no DWARF");
	dwfile_of(&e, sec);
	if (sf_dwfile_init(&f, argv[1], e.msb, sec, &err) < 0)
		return fail(err.msg);

	struct walk w = { .f = &f };
	pthread_t tid[MAX_WALKERS];
	int started = 0;
	atomic_init(&w.next, 0);
	atomic_init(&w.dies, 0);
	atomic_init(&w.bad, 0);
	for (int k = 1; k < threads; k++)
		started += pthread_create(&tid[started], NULL, walker, &w) == 0;
	walker(&w);
	for (int k = 0; k < started; k++)
		pthread_join(tid[k], NULL);
	printf("%zu DIEs in %zu units\n", atomic_load(&w.dies), f.nunits);
	int bad = atomic_load(&w.bad);
	sf_dwfile_release(&f);
	sf_elf_release(&e);
	munmap(img, (size_t)st.st_size);
	return bad ? fail("corrupt DWARF") : 0;
}
