/*
 * test_dwarf_decoder.c - dwarf/die.c against libdwarf: the reader decodes
 * DIEs itself (libdwarf's DIE API is too slow for vmlinux), so libdwarf is
 * its reference.  Every DIE of every unit of each object is walked with
 * both - libdwarf through dwarf_child/dwarf_siblingof_b on a handle made
 * with elfobj's object interface, die.c sequentially - and the two walks
 * must agree on offset, tag, name, DW_AT_type target, byte size and
 * whether it has children.  Objects: the test sources built with gcc and
 * clang, DWARF 2-5, little- and big-endian, relocatable (so relocation is
 * covered too), with type units, plus a compressed libc6-dbg file.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dwarf.h>
#include <libdwarf.h>

#include "dwarf/die.h"
#include "dwarf/elfobj.h"
#include "lib/xalloc.h"
#include "test_dwarf_util.h"

struct rec {
	uint64_t off;
	uint64_t type;          /* 0: none (or a signature) */
	uint64_t byte_size;     /* ~0: none */
	const char *name;       /* NULL: none */
	unsigned tag;
	int children;
};

struct recs {
	struct rec *v;
	size_t n, cap;
};

static void push(struct recs *r, const struct rec *x)
{
	SF_GROW(r->v, r->n, r->cap);
	r->v[r->n++] = *x;
}

/* ---- the libdwarf walk ----------------------------------------------------- */

static void lib_record(Dwarf_Debug dbg, Dwarf_Die die, struct recs *out)
{
	Dwarf_Error e = NULL;
	Dwarf_Half tag;
	Dwarf_Off off;
	Dwarf_Attribute a;
	struct rec x = { .byte_size = ~0ull };
	char *name;
	Dwarf_Unsigned bs;

	assert_int_equal(dwarf_tag(die, &tag, &e), DW_DLV_OK);
	assert_int_equal(dwarf_dieoffset(die, &off, &e), DW_DLV_OK);
	x.tag = tag;
	x.off = off;
	if (dwarf_diename(die, &name, &e) == DW_DLV_OK)
		x.name = name;
	if (dwarf_attr(die, DW_AT_type, &a, &e) == DW_DLV_OK) {
		Dwarf_Half form;
		Dwarf_Off ref;
		dwarf_whatform(a, &form, &e);
		if (form != DW_FORM_ref_sig8 && dwarf_global_formref(a, &ref, &e) == DW_DLV_OK)
			x.type = ref;
		dwarf_dealloc_attribute(a);
	}
	/* dwarf_bytesize() only reads constants, as die.c keeps them */
	if (dwarf_attr(die, DW_AT_byte_size, &a, &e) == DW_DLV_OK) {
		Dwarf_Signed sv;
		if (dwarf_formudata(a, &bs, &e) == DW_DLV_OK)
			x.byte_size = bs;
		else if (dwarf_formsdata(a, &sv, &e) == DW_DLV_OK)	/* implicit_const */
			x.byte_size = (uint64_t)sv;
		dwarf_dealloc_attribute(a);
	}
	Dwarf_Die child = NULL;
	int rc = dwarf_child(die, &child, &e);
	x.children = rc == DW_DLV_OK;
	push(out, &x);
	while (rc == DW_DLV_OK) {
		Dwarf_Die next = NULL;
		lib_record(dbg, child, out);
		rc = dwarf_siblingof_b(dbg, child, dwarf_get_die_infotypes_flag(child), &next, &e);
		dwarf_dealloc_die(child);
		child = next;
	}
}

static void lib_walk(struct sf_elf *e, struct recs *out)
{
	Dwarf_Obj_Access_Interface *iface;
	Dwarf_Debug dbg;
	struct sf_err err;
	Dwarf_Error de = NULL;

	assert_int_equal(sf_elf_dwarf_open(e, &iface, &dbg, &err), 0);
	for (int is_info = 1; is_info >= 0; is_info--) {
		Dwarf_Unsigned next;
		Dwarf_Half unit_type;
		while (dwarf_next_cu_header_d(dbg, is_info, NULL, NULL, NULL, NULL, NULL, NULL,
					      NULL, NULL, &next, &unit_type, &de) == DW_DLV_OK) {
			Dwarf_Die cu = NULL;
			if (dwarf_siblingof_b(dbg, NULL, is_info, &cu, &de) != DW_DLV_OK)
				continue;
			lib_record(dbg, cu, out);
			dwarf_dealloc_die(cu);
		}
	}
	sf_elf_dwarf_close(iface, dbg);
}

/* ---- the die.c walk ---------------------------------------------------------- */

static void own_walk(struct sf_elf *e, struct recs *out)
{
	static const char *const names[SF_SEC_N] = {
		".debug_info", ".debug_types", ".debug_abbrev", ".debug_str",
		".debug_line_str", ".debug_str_offsets", ".debug_line",
	};
	struct sf_dwsec sec[SF_SEC_N];
	struct sf_dwfile f;
	struct sf_err err;

	memset(sec, 0, sizeof(sec));
	for (uint32_t k = 1; k < e->ndw; k++)
		for (int s = 0; s < SF_SEC_N; s++)
			if (!strcmp(e->dw_name[k], names[s])) {
				sec[s].data = e->sec[e->dw[k]].data;
				sec[s].size = e->sec[e->dw[k]].size;
			}
	assert_int_equal(sf_dwfile_init(&f, "test", e->msb, sec, &err), 0);
	for (size_t i = 0; i < f.nunits; i++) {
		struct sf_ucx c;
		assert_int_equal(sf_ucx_open(&c, &f, i, &err), 0);
		for (uint64_t off = c.u->die_start; off < c.u->end;) {
			struct sf_die d;
			assert_int_equal(sf_die_read(&c, off, &d), 0);
			if (d.tag) {
				struct rec x = {
					.off = d.off, .tag = d.tag, .children = d.children,
					.name = (d.has & SF_A_NAME) ? d.name : NULL,
					.type = (d.has & SF_A_TYPE) && !(d.has & SF_A_SIG8) ? d.type : 0,
					.byte_size = (d.has & SF_A_BYTE_SIZE) ? d.byte_size : ~0ull,
				};
				push(out, &x);
			}
			off = d.next;
		}
		sf_ucx_release(&c);
	}
	sf_dwfile_release(&f);
}

/* ---- comparing ---------------------------------------------------------------- */

static size_t compare_file(const char *path)
{
	size_t size;
	FILE *fp = fopen(path, "rb");
	struct sf_elf e;
	struct sf_err err;
	struct recs a = { 0 }, b = { 0 };

	assert_non_null(fp);
	fseek(fp, 0, SEEK_END);
	size = (size_t)ftell(fp);
	fseek(fp, 0, SEEK_SET);
	unsigned char *img = sf_xmalloc(size);
	assert_int_equal(fread(img, 1, size, fp), size);
	fclose(fp);
	assert_int_equal(sf_elf_parse(&e, img, size, path, &err), 0);
	assert_int_equal(sf_elf_prepare_debug(&e, &err), 1);

	lib_walk(&e, &a);
	own_walk(&e, &b);
	assert_true(a.n > 0);
	assert_int_equal(a.n, b.n);
	for (size_t i = 0; i < a.n; i++) {
		const struct rec *x = &a.v[i], *y = &b.v[i];
		if (x->off != y->off || x->tag != y->tag || x->type != y->type ||
		    x->byte_size != y->byte_size || x->children != y->children ||
		    !x->name != !y->name || (x->name && strcmp(x->name, y->name)))
			fail_msg("%s: DIE %zu differs: libdwarf 0x%llx tag 0x%x %s type 0x%llx "
				 "size %lld children %d | die.c 0x%llx tag 0x%x %s type 0x%llx "
				 "size %lld children %d", path, i,
				 (unsigned long long)x->off, x->tag, x->name ? x->name : "-",
				 (unsigned long long)x->type, (long long)x->byte_size, x->children,
				 (unsigned long long)y->off, y->tag, y->name ? y->name : "-",
				 (unsigned long long)y->type, (long long)y->byte_size, y->children);
	}
	size_t n = a.n;
	free(a.v);
	free(b.v);
	sf_elf_release(&e);
	free(img);
	return n;
}

static void test_objects_agree(void **state)
{
	static const struct {
		const char *cc, *flags, *src;
	} cases[] = {
		{ "gcc", "-g -gdwarf-2", "bitfields.c" },
		{ "gcc", "-g -gdwarf-4", "shapes.c" },
		{ "gcc", "-g -gdwarf-5", "shapes.c" },
		{ "gcc", "-g -gdwarf-5", "layout.c" },
		{ "clang", "-g -gdwarf-4", "shapes.c" },
		{ "clang", "-g -gdwarf-5", "layout.c" },
		{ "clang", "--target=i386-linux-gnu -ffreestanding -g -gdwarf-5", "abi.c" },
		{ "clang", "--target=armv7-linux-gnueabihf -ffreestanding -g -gdwarf-4", "st_table.c" },
		{ "clang", "--target=aarch64-linux-gnu -ffreestanding -g -gdwarf-5", "st_table.c" },
		{ "clang", "--target=s390x-linux-gnu -ffreestanding -g -gdwarf-3", "bitfields.c" },
		{ "g++", "-g -gdwarf-4", "cxx.cc" },
		{ "g++", "-g -gdwarf-4 -fdebug-types-section", "cxx.cc" },
		{ "clang++", "-g -gdwarf-5", "cxx.cc" },
	};
	size_t total = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char out[64];
		snprintf(out, sizeof(out), "dec%zu.o", i);
		if (td_compile(cases[i].cc, cases[i].flags, cases[i].src, out) < 0) {
			fprintf(stderr, "note: skipping %s %s\n", cases[i].cc, cases[i].flags);
			continue;
		}
		total += compare_file(td_path(out));
	}
	if (!total)
		skip();
	fprintf(stderr, "  %zu DIEs agree\n", total);
}

static void test_debug_file_agrees(void **state)
{
	FILE *f = popen("find /usr/lib/debug/.build-id -name '*.debug' -size +100k -size -4M "
			"2>/dev/null | sort | head -3", "r");
	char line[600];
	size_t total = 0;

	(void)state;
	if (!f)
		skip();
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		total += compare_file(line);
	}
	pclose(f);
	if (!total) {
		fprintf(stderr, "note: no /usr/lib/debug file (libc6-dbg): skipped\n");
		skip();
	}
	fprintf(stderr, "  %zu DIEs agree\n", total);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_objects_agree),
		cmocka_unit_test(test_debug_file_agrees),
	};

	(void)argc;
	td_init(argv[0]);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
