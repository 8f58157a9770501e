/*
 * test_dwarf_inputs.c - what sf_input_load accepts and refuses: static
 * archives (GNU long names, BSD names, thin archives), directories
 * (sorted, symbolic link loops, links to files read once), compressed
 * debug sections (gABI SHF_COMPRESSED and GNU .zdebug), separate debug
 * files (the build-id lookup of input/debugfile.h over debug
 * directories); and every unusable input as one "PATH: problem" line:
 * missing path, not ELF, empty file, truncated ELF, stripped object,
 * stripped binary with a .gnu_debuglink, empty archive, archive without
 * DWARF, directory without DWARF.  Last, damaged objects (bytes of the
 * debug sections overwritten, files cut at every length) must give a
 * result or an error, never a crash or a hang.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "input/debugfile.h"
#include "input/elfobj.h"
#include "test_dwarf_util.h"

static int have_binutils(void)
{
	return td_have("gcc") && td_have("ar") && td_have("objcopy");
}

/* st_table.o, abi.o (with -g) and nodebug.o (without), in the scratch dir. */
static int build_objects(void)
{
	if (!have_binutils())
		return -1;
	if (td_compile("gcc", "-g", "st_table.c", "st_table.o") < 0 ||
	    td_compile("gcc", "-g", "abi.c", "abi.o") < 0 ||
	    td_compile("gcc", "", "abi.c", "nodebug.o") < 0)
		return -1;
	return 0;
}

static void assert_message(const char *path, const char *problem)
{
	struct sf_err err;
	char want[1200];

	snprintf(want, sizeof(want), "%s: %s", path, problem);
	assert_string_equal(td_load_error(path, &err), want);
}

/* ---- archives ----------------------------------------------------------- */

static void test_archives(void **state)
{
	(void)state;
	if (build_objects() < 0)
		td_skip("gcc, ar or objcopy is missing, or the objects did not compile");
	const char *lib = td_path("lib.a");
	assert_int_equal(td_sh("cd %s && ar rcs lib.a st_table.o abi.o", td_dir), 0);
	struct sf_typeset *ts = td_load(lib);
	assert_non_null(ts);
	const struct sf_type *st = td_type(ts, "st_table");
	const struct sf_type *abi = td_type(ts, "abi_mix");
	assert_non_null(st);
	assert_non_null(abi);
	assert_int_equal(st->size, 48);
	char origin[700];
	snprintf(origin, sizeof(origin), "%s(st_table.o)", lib);
	assert_string_equal(st->origin, origin);
	snprintf(origin, sizeof(origin), "%s(abi.o)", lib);
	assert_string_equal(abi->origin, origin);
	sf_typeset_free(ts);

	/* a member name longer than 15 bytes lives in the "//" table */
	assert_int_equal(td_sh("cd %s && cp abi.o a_really_long_member_name.o && "
			       "ar rcs long.a a_really_long_member_name.o", td_dir), 0);
	ts = td_load(td_path("long.a"));
	assert_non_null(ts);
	snprintf(origin, sizeof(origin), "%s(a_really_long_member_name.o)", td_path("long.a"));
	assert_string_equal(td_type(ts, "abi_mix")->origin, origin);
	sf_typeset_free(ts);

	/* BSD names ("#1/LEN": the name leads the data), as llvm-ar writes them */
	assert_true(td_have("llvm-ar"));	/* package llvm, in TEST_PKGS */
	assert_int_equal(td_sh("cd %s && llvm-ar --format=bsd rcs bsd.a a_really_long_member_name.o "
			       "st_table.o", td_dir), 0);
	ts = td_load(td_path("bsd.a"));
	assert_non_null(ts);
	snprintf(origin, sizeof(origin), "%s(a_really_long_member_name.o)", td_path("bsd.a"));
	assert_string_equal(td_type(ts, "abi_mix")->origin, origin);
	snprintf(origin, sizeof(origin), "%s(st_table.o)", td_path("bsd.a"));
	assert_string_equal(td_type(ts, "st_table")->origin, origin);
	assert_int_equal(td_type(ts, "st_table")->size, 48);
	sf_typeset_free(ts);

	/* a thin archive names its members instead of holding them */
	assert_int_equal(td_sh("cd %s && ar rcsT thin.a st_table.o", td_dir), 0);
	ts = td_load(td_path("thin.a"));
	assert_non_null(ts);
	assert_int_equal(td_type(ts, "st_table")->size, 48);
	sf_typeset_free(ts);

	/* members without DWARF are skipped as long as one has it */
	assert_int_equal(td_sh("cd %s && ar rcs mixed.a nodebug.o st_table.o", td_dir), 0);
	ts = td_load(td_path("mixed.a"));
	assert_non_null(ts);
	assert_non_null(td_type(ts, "st_table"));
	assert_null(td_type(ts, "abi_mix"));
	sf_typeset_free(ts);
}

static void test_archive_errors(void **state)
{
	(void)state;
	if (build_objects() < 0)
		td_skip("gcc, ar or objcopy is missing, or the objects did not compile");
	FILE *f = fopen(td_path("empty.a"), "w");
	assert_non_null(f);
	fputs("!<arch>\n", f);
	fclose(f);
	assert_message(td_path("empty.a"), "empty archive (no members)");

	assert_int_equal(td_sh("cd %s && ar rcs nodwarf.a nodebug.o", td_dir), 0);
	assert_message(td_path("nodwarf.a"), "no DWARF debug info in any of its 1 archive members");

	/* a member header cut in the middle */
	assert_int_equal(td_sh("cd %s && ar rcs cut.a st_table.o abi.o && head -c 3000 cut.a > cut2.a",
			       td_dir), 0);
	struct sf_err err;
	const char *msg = td_load_error(td_path("cut2.a"), &err);
	assert_non_null(strstr(msg, "truncated"));
}

/* ---- directories ---------------------------------------------------------- */

static void test_directories(void **state)
{
	(void)state;
	if (build_objects() < 0)
		td_skip("gcc, ar or objcopy is missing, or the objects did not compile");
	/* dir/abi.o, dir/README, dir/sub/st_table.o, dir/sub/loop -> .. (a
	 * loop), dir/sub/again.o -> ../abi.o (the same file twice) */
	assert_int_equal(td_sh("cd %s && mkdir -p dir/sub dir/empty && cp abi.o dir/ && "
			       "cp st_table.o dir/sub/ && echo text > dir/README && "
			       "ln -s .. dir/sub/loop && ln -s ../abi.o dir/sub/again.o && "
			       "ln -s /nonexistent dir/dangling", td_dir), 0);
	struct sf_typeset *ts = td_load(td_path("dir"));
	assert_non_null(ts);
	const struct sf_type *found[4];
	assert_int_equal(sf_typeset_find(ts, "abi_mix", found, 4), 1);
	assert_int_equal(sf_typeset_find(ts, "st_table", found, 4), 1);
	/* in name order: abi.o before sub/st_table.o */
	assert_string_equal(sf_typeset_get(ts, 0)->origin, td_path("dir/abi.o"));
	sf_typeset_free(ts);

	assert_int_equal(td_sh("mkdir -p %s && echo text > %s/a.txt", td_path("nodwarf"),
			       td_path("nodwarf")), 0);
	assert_message(td_path("nodwarf"), "no ELF file with DWARF debug info below this directory");
}

/* ---- compressed and separate debug info ------------------------------------ */

static void test_compressed_and_separate(void **state)
{
	(void)state;
	if (build_objects() < 0)
		td_skip("gcc, ar or objcopy is missing, or the objects did not compile");
	struct sf_typeset *plain = td_load(td_path("st_table.o"));
	assert_non_null(plain);
	const struct sf_type *ref = td_type(plain, "st_table");

	/* gABI SHF_COMPRESSED and GNU .zdebug_*: inflated, then relocated */
	static const char *const how[] = { "zlib-gabi", "zlib-gnu" };
	for (int i = 0; i < 2; i++) {
		char out[64];
		snprintf(out, sizeof(out), "z%d.o", i);
		assert_int_equal(td_sh("objcopy --compress-debug-sections=%s %s %s", how[i],
				       td_path("st_table.o"), td_path(out)), 0);
		struct sf_typeset *z = td_load(td_path(out));
		assert_non_null(z);
		assert_true(sf_type_equal(td_type(z, "st_table"), ref));
		sf_typeset_free(z);
	}

	/* a stripped binary names its debug file; the debug file loads */
	if (td_sh("gcc -g -shared -fPIC -nostdlib -o %s %s/testdata/reader/st_table.c",
		  td_path("libx.so"), td_src) != 0)
		td_skip("gcc cannot link libx.so");
	assert_int_equal(td_sh("cd %s && objcopy --only-keep-debug libx.so libx.debug && "
			       "objcopy --strip-debug --add-gnu-debuglink=libx.debug libx.so libx-stripped.so",
			       td_dir), 0);
	struct sf_typeset *dbg = td_load(td_path("libx.debug"));
	assert_non_null(dbg);
	assert_true(sf_type_equal(td_type(dbg, "st_table"), ref));
	sf_typeset_free(dbg);
	/* ... and the stripped binary is read from it (build-ids agree) */
	struct sf_typeset *viadbg = td_load(td_path("libx-stripped.so"));
	assert_non_null(viadbg);
	assert_true(sf_type_equal(td_type(viadbg, "st_table"), ref));
	assert_string_equal(td_type(viadbg, "st_table")->origin, td_path("libx.debug"));
	sf_typeset_free(viadbg);
	/* without it, the error names the places searched */
	assert_int_equal(td_sh("cd %s && mv libx.debug libx.moved", td_dir), 0);
	struct sf_err err;
	const char *msg = td_load_error(td_path("libx-stripped.so"), &err);
	assert_non_null(strstr(msg, "no debug file found by build-id "));
	assert_non_null(strstr(msg, " or .gnu_debuglink libx.debug (searched "));
	assert_non_null(strstr(msg, "/.debug/libx.debug, "));
	sf_typeset_free(plain);
}

/* ---- the build-id lookup (input/debugfile.h) ------------------------------- */

/* sf_debug_find_by_build_id over two debug directories: the first with
 * another build's file under the id (refused, said), the second with the
 * right one; the build-id read from the file agrees with readelf's. */
static void test_build_id_lookup(void **state)
{
	(void)state;
	if (!have_binutils() || !td_have("readelf"))
		td_skip("gcc or binutils is not installed");
	if (td_sh("gcc -g -shared -fPIC -Wl,--build-id -o %s %s/testdata/reader/st_table.c",
		  td_path("bid.so"), td_src) != 0 ||
	    td_sh("gcc -g -shared -fPIC -Wl,--build-id -o %s %s/testdata/reader/st_table.c "
		  "-DSF_OTHER_BUILD -Wl,-soname,other", td_path("other.so"), td_src) != 0)
		td_skip("gcc cannot link bid.so or other.so");
	unsigned char id[SF_BUILD_ID_MAX], oid[SF_BUILD_ID_MAX];
	size_t n = sf_file_build_id(td_path("bid.so"), id);
	assert_int_equal(n, 20);	/* ld's default: sha1 */
	assert_int_equal(sf_file_build_id(td_path("other.so"), oid), 20);
	assert_memory_not_equal(id, oid, 20);
	/* the same bytes readelf prints */
	char hex[2 * SF_BUILD_ID_MAX + 1];
	for (size_t i = 0; i < n; i++)
		snprintf(hex + 2 * i, 3, "%02x", id[i]);
	assert_int_equal(td_sh("readelf -n %s | grep -q 'Build ID: %s'", td_path("bid.so"), hex), 0);

	assert_int_equal(td_sh("cd %s && mkdir -p d1/.build-id/%.2s d2/.build-id/%.2s && "
			       "cp other.so d1/.build-id/%.2s/%s.debug && "
			       "objcopy --only-keep-debug bid.so d2/.build-id/%.2s/%s.debug",
			       td_dir, hex, hex, hex, hex + 2, hex, hex + 2), 0);
	char d1[1024], d2[1024], want[4096];
	snprintf(d1, sizeof(d1), "%s", td_path("d1"));
	snprintf(d2, sizeof(d2), "%s", td_path("d2"));
	const char *both[] = { d1, d2, NULL }, *first[] = { d1, NULL };
	struct strbuf searched = STRBUF_INIT;
	char *found = sf_debug_find_by_build_id(both, id, n, ".debug", &searched);
	assert_non_null(found);
	snprintf(want, sizeof(want), "%s/.build-id/%.2s/%s.debug", d2, hex, hex + 2);
	assert_string_equal(found, want);
	snprintf(want, sizeof(want), ", %s/.build-id/%.2s/%s.debug (build-id differs)", d1, hex,
		 hex + 2);
	assert_string_equal(searched.buf, want);
	free(found);
	/* only the wrong one, then the default root: nothing, every place said */
	sb_reset(&searched);
	assert_null(sf_debug_find_by_build_id(first, id, n, ".debug", &searched));
	snprintf(want, sizeof(want), ", %s/.build-id/%.2s/%s.debug (build-id differs), "
		 SF_DEBUG_ROOT "/.build-id/%.2s/%s.debug", d1, hex, hex + 2, hex, hex + 2);
	assert_string_equal(searched.buf, want);
	/* a suffix ("" for the executable itself) and no place list */
	assert_null(sf_debug_find_by_build_id(both, id, n, "", NULL));
	assert_null(sf_debug_find_by_build_id(both, id, 0, ".debug", NULL));
	sb_release(&searched);
	/* no build-id: 0 */
	assert_int_equal(td_sh("gcc -shared -fPIC -Wl,--build-id=none -o %s "
			       "%s/testdata/reader/st_table.c", td_path("nobid.so"), td_src), 0);
	assert_int_equal(sf_file_build_id(td_path("nobid.so"), id), 0);
	assert_int_equal(sf_file_build_id(td_path("missing.so"), id), 0);
}

/* ---- unusable inputs -------------------------------------------------------- */

static void test_errors(void **state)
{
	(void)state;
	if (build_objects() < 0)
		td_skip("gcc, ar or objcopy is missing, or the objects did not compile");
	assert_message(td_path("missing.o"), "cannot open: No such file or directory");

	FILE *f = fopen(td_path("text.txt"), "w");
	assert_non_null(f);
	fputs("not an object\n", f);
	fclose(f);
	assert_message(td_path("text.txt"), "not an ELF file");

	f = fopen(td_path("empty.o"), "w");
	assert_non_null(f);
	fclose(f);
	assert_message(td_path("empty.o"), "not an ELF file (empty)");

	assert_int_equal(td_sh("head -c 300 %s > %s", td_path("st_table.o"), td_path("cut.o")), 0);
	assert_message(td_path("cut.o"), "truncated ELF (section headers past the end of the file)");
	assert_int_equal(td_sh("head -c 40 %s > %s", td_path("st_table.o"), td_path("cut40.o")), 0);
	assert_message(td_path("cut40.o"), "truncated ELF (file header cut short)");

	assert_int_equal(td_sh("objcopy --strip-debug %s %s", td_path("st_table.o"),
			       td_path("stripped.o")), 0);
	assert_message(td_path("stripped.o"), "no DWARF debug info (stripped or built without -g)");
	assert_message(td_path("nodebug.o"), "no DWARF debug info (stripped or built without -g)");
}

/* ---- damaged objects: an answer or an error, never a crash ------------------ */

static unsigned char *slurp(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	*size = (size_t)ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc(*size);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, *size, f), *size);
	fclose(f);
	return buf;
}

static void spill(const char *path, const unsigned char *buf, size_t size)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(buf, 1, size, f), size);
	fclose(f);
}

/* Loading must return 0, or -1 with a message naming the file. */
static void load_survives(const char *path)
{
	struct sf_typeset *ts = sf_typeset_new();
	struct sf_load_opts opts = { .threads = 1 };
	struct sf_err err = SF_ERR_INIT;

	if (sf_input_load(ts, path, &opts, &err) < 0)
		assert_int_equal(strncmp(err.msg, path, strlen(path)), 0);
	/* whatever was read must be sane enough to walk */
	for (size_t i = 0; i < sf_typeset_count(ts); i++) {
		const struct sf_type *t = sf_typeset_get(ts, i);
		assert_non_null(t->name);
		for (uint32_t k = 0; k < t->nmembers; k++)
			assert_non_null(t->members[k].type_name);
	}
	sf_typeset_free(ts);
}

static void test_damaged_objects(void **state)
{
	size_t size;

	(void)state;
	if (build_objects() < 0)
		td_skip("gcc, ar or objcopy is missing, or the objects did not compile");
	unsigned char *orig = slurp(td_path("st_table.o"), &size);
	unsigned char *buf = malloc(size);
	struct sf_elf e;
	struct sf_err err;
	assert_non_null(buf);
	assert_int_equal(sf_elf_parse(&e, orig, size, "st_table.o", &err), 0);

	/* overwrite bytes of .debug_info, .debug_abbrev, .debug_str and
	 * .debug_line (a deterministic sequence: the same every run) */
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	const char *path = td_path("damaged.o");
	int rounds = 0;
	for (uint32_t s = 0; s < e.nsec; s++) {
		const struct sf_elf_sec *sec = &e.sec[s];
		if (strncmp(sec->name, ".debug_", 7) || !sec->data || !sec->size)
			continue;
		size_t start = (size_t)(sec->data - orig);
		for (int k = 0; k < 60; k++, rounds++) {
			memcpy(buf, orig, size);
			for (int j = 0; j < 1 + k % 4; j++) {
				seed = seed * 6364136223846793005ull + 1442695040888963407ull;
				size_t at = start + (size_t)((seed >> 33) % sec->size);
				buf[at] = (unsigned char)(k & 1 ? seed >> 13 : buf[at] ^ (1u << (seed % 8)));
			}
			spill(path, buf, size);
			load_survives(path);
		}
	}
	assert_true(rounds >= 120);
	/* and cut at many lengths */
	for (size_t len = 1; len < size; len += 37) {
		spill(path, orig, len);
		load_survives(path);
	}
	sf_elf_release(&e);
	free(buf);
	free(orig);
}

/* Memory follows the unique types, not the inputs: 20 copies of two
 * objects take what one copy takes. */
static void test_memory_follows_unique_types(void **state)
{
	(void)state;
	if (build_objects() < 0)
		td_skip("gcc, ar or objcopy is missing, or the objects did not compile");
	assert_int_equal(td_sh("cd %s && mkdir -p one many && cp st_table.o abi.o one/ && "
			       "for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do "
			       "cp st_table.o many/st$i.o; cp abi.o many/abi$i.o; done", td_dir), 0);
	struct sf_typeset *one = td_load(td_path("one"));
	struct sf_typeset *many = td_load(td_path("many"));
	assert_non_null(one);
	assert_non_null(many);
	assert_int_equal(sf_typeset_count(one), sf_typeset_count(many));
	assert_true(sf_typeset_bytes(many) <= sf_typeset_bytes(one) + sf_typeset_bytes(one) / 10);
	sf_typeset_free(one);
	sf_typeset_free(many);
}

/* A struct of 50,000 members and one nested 500 deep: bounded work. */
static void test_wide_and_deep(void **state)
{
	(void)state;
	if (!td_have("gcc") || !td_have("awk"))
		td_skip("gcc or awk is not installed");
	assert_int_equal(td_sh("awk 'BEGIN { print \"struct wide {\"; "
			       "for (i = 0; i < 50000; i++) printf \"char m%%d;\\n\", i; "
			       "print \"} wide_example;\"; s = \"struct deep {\"; "
			       "for (i = 0; i < 500; i++) s = s \" struct {\"; s = s \" int leaf;\"; "
			       "for (i = 0; i < 500; i++) s = s \" } n;\"; print s \" } deep_example;\" }' > %s",
			       td_path("big.c")), 0);
	assert_int_equal(td_sh("gcc -g -c -o %s %s", td_path("big.o"), td_path("big.c")), 0);
	struct sf_typeset *ts = td_load(td_path("big.o"));
	assert_non_null(ts);
	const struct sf_type *w = td_type(ts, "wide");
	assert_non_null(w);
	assert_int_equal(w->nmembers, 50000);
	assert_int_equal(w->size, 50000);
	assert_int_equal(w->members[49999].offset, 49999);
	const struct sf_type *d = td_type(ts, "deep");
	assert_non_null(d);
	assert_int_equal(d->size, 4);
	/* nesting is shown to a bounded depth */
	unsigned depth = 0;
	for (const struct sf_type *t = d; t && t->nmembers; t = t->members[0].nested)
		depth++;
	assert_true(depth >= 50);
	assert_true(depth <= 200);
	sf_typeset_free(ts);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wide_and_deep),
		cmocka_unit_test(test_memory_follows_unique_types),
		cmocka_unit_test(test_archives),
		cmocka_unit_test(test_archive_errors),
		cmocka_unit_test(test_directories),
		cmocka_unit_test(test_compressed_and_separate),
		cmocka_unit_test(test_build_id_lookup),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_damaged_objects),
	};

	(void)argc;
	td_init(argv[0]);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
