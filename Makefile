# structfit - where your structs waste memory, and what to change.
#
#   make            build ./structfit
#   make run        install missing Debian packages, build, show the example
#   make test       install missing packages, build, run every test
#   make bench      structfit vs pahole on a large input (not a test)
#   make realworld  suggest -> patch -> rebuild -> tests on Debian's Redis and tinyxml2 (downloads)
#   make install    PREFIX=/usr/local DESTDIR=
#
# CC=clang works as well as gcc; warnings are errors under both.

# every core for the builds unless told (make -j1): the test run builds
# three times (plain, ASan, fuzz) on 2 cores
ifeq ($(MAKELEVEL)$(filter -j%,$(MAKEFLAGS)),0)
MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 2)
endif

CC       ?= gcc
PREFIX   ?= /usr/local
BUILD    ?= build
PKG_CONFIG ?= pkg-config

# structfit reads the ELF container with libelf (GNU .zdebug sections through
# it), zlib sections with libdeflate (a large .debug_info piecewise with
# ISA-L's igzip: input/zstream.c, and a large .debug_str so as it is packed:
# dwarf/strpack.h) and zstd sections with libzstd; zlib
# computes .gnu_debuglink CRCs
# (input/debugfile.c).  libdwarf is only the tests' reference
# decoder (tests/unit/dwarf_oracle.c); 20210528 (Debian) ships no .pc file.
ELF_LIBS     := $(shell $(PKG_CONFIG) --libs libelf 2>/dev/null || echo -lelf)
ZSTD_LIBS    := $(shell $(PKG_CONFIG) --libs libzstd 2>/dev/null || echo -lzstd)
CMOCKA_LIBS  := $(shell $(PKG_CONFIG) --libs cmocka 2>/dev/null || echo -lcmocka)
# libbpf parses BTF (btf/ only)
BPF_LIBS     := $(shell $(PKG_CONFIG) --libs libbpf 2>/dev/null || echo -lbpf)
READER_LIBS  := $(BPF_LIBS) $(ELF_LIBS) $(ZSTD_LIBS) -ldeflate -lisal -lz -lpthread
# dwarf/ takes the DW_* constants from libdwarf's <dwarf.h> (a header only)
DWARF_CFLAGS := -I/usr/include/libdwarf
ORACLE_CFLAGS := $(DWARF_CFLAGS)
ORACLE_LIBS  := -ldwarf $(ELF_LIBS) -lz

OPT      ?= -O2
CFLAGS   ?= $(OPT) -g
SF_CFLAGS := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -I. $(CFLAGS)
LDFLAGS  ?=

LIB_SRC    := $(wildcard lib/*.c)
MODEL_SRC  := $(wildcard model/*.c)
LAYOUT_SRC := $(wildcard layout/*.c)
REPORT_SRC := $(wildcard report/*.c)
DWARF_SRC  := $(wildcard input/*.c) $(wildcard dwarf/*.c) $(wildcard btf/*.c)
CMD_SRC    := $(wildcard cmd/*.c)

obj = $(patsubst %.c,$(BUILD)/%.o,$(1))

CORE_OBJ  := $(call obj,$(LIB_SRC) $(MODEL_SRC) $(LAYOUT_SRC) $(REPORT_SRC))
DWARF_OBJ := $(call obj,$(DWARF_SRC))
CMD_OBJ   := $(call obj,$(CMD_SRC))

UNIT_SRC  := $(wildcard tests/unit/test_*.c)
UNIT_BIN  := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRC))

# Debian packages the build and the tests need (see README "Dependencies").
BUILD_PKGS := gcc clang lld make pkg-config libelf-dev libzstd-dev libdeflate-dev libisal-dev libdwarf-dev zlib1g-dev libcmocka-dev libbpf-dev \
              libdebuginfod-dev
TEST_PKGS  := dwarves libc6-dbg gcc-multilib g++ python3 valgrind man-db chromium git patch binutils rustc golang-go gfortran dwz \
              debuginfod nodejs npm python3-jsonschema llvm gdb libbinutils-dbg libpython3.11-dbg \
              libstdc++6-12-dbg debhelper lintian fakeroot dpkg-dev parallel
# `make realworld` only: dpkg-source unpacks the source package, Redis's
# tests run on Tcl, tinyxml2 builds with cmake and g++, pahole measures the
# rebuilt struct
REALWORLD_PKGS := dpkg-dev tcl dwarves python3 cmake g++

.PHONY: all run test unit folders e2e longfn bench realworld deps deps-test install uninstall clean

# The default build links ./structfit; any other BUILD dir (build-clang,
# build-asan) links its own $(BUILD)/structfit and leaves ./structfit alone.
BIN := $(if $(filter build,$(BUILD)),structfit,$(BUILD)/structfit)

all: $(BIN)

structfit: $(CMD_OBJ) $(BUILD)/libsf.a
	$(CC) $(LDFLAGS) -o $@ $(CMD_OBJ) $(BUILD)/libsf.a $(READER_LIBS)

$(BUILD)/libsf.a: $(CORE_OBJ) $(DWARF_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/libsf_core.a: $(CORE_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/dwarf/%.o: dwarf/%.c
	@mkdir -p $(dir $@)
	$(CC) $(SF_CFLAGS) $(DWARF_CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/input/%.o: input/%.c
	@mkdir -p $(dir $@)
	$(CC) $(SF_CFLAGS) $(DWARF_CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(SF_CFLAGS) -MMD -MP -c -o $@ $<

# Unit tests of layout/ and report/ link only the core library: no DWARF.
# Tests named test_dwarf_* also get the reader, and libdwarf as the
# reference decoder (tests/unit/dwarf_oracle.c).
$(BUILD)/tests/dwarf_oracle.o: tests/unit/dwarf_oracle.c
	@mkdir -p $(dir $@)
	$(CC) $(SF_CFLAGS) $(ORACLE_CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/tests/test_dwarf_%: tests/unit/test_dwarf_%.c $(BUILD)/libsf.a $(BUILD)/tests/dwarf_oracle.o
	@mkdir -p $(dir $@)
	$(CC) $(SF_CFLAGS) $(ORACLE_CFLAGS) -MMD -MP -o $@ $< $(BUILD)/tests/dwarf_oracle.o \
		$(BUILD)/libsf.a $(CMOCKA_LIBS) $(READER_LIBS) $(ORACLE_LIBS)

# the floor tests/bench.sh measures: every DIE decoded, nothing else
$(BUILD)/tests/dwarf_walk: tests/unit/dwarf_walk.c $(BUILD)/libsf.a
	@mkdir -p $(dir $@)
	$(CC) $(SF_CFLAGS) $(DWARF_CFLAGS) -MMD -MP -o $@ $< $(BUILD)/libsf.a $(READER_LIBS)

# test_cmd_NAME tests cmd/NAME.c, a cmd/ file that reads no input (it
# needs lib/ and layout/ alone): linked with the core library, no DWARF.
$(BUILD)/tests/test_cmd_%: tests/unit/test_cmd_%.c $(BUILD)/cmd/%.o $(BUILD)/libsf_core.a
	@mkdir -p $(dir $@)
	$(CC) $(SF_CFLAGS) -MMD -MP -o $@ $< $(BUILD)/cmd/$*.o $(BUILD)/libsf_core.a $(CMOCKA_LIBS)

$(BUILD)/tests/test_%: tests/unit/test_%.c $(BUILD)/libsf_core.a
	@mkdir -p $(dir $@)
	$(CC) $(SF_CFLAGS) -MMD -MP -o $@ $< $(BUILD)/libsf_core.a $(CMOCKA_LIBS)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

deps:
	@sh tests/deps.sh $(BUILD_PKGS)

deps-test:
	@sh tests/deps.sh $(BUILD_PKGS) $(TEST_PKGS)

run: deps
	@$(MAKE) --no-print-directory structfit
	@sh tests/example.sh

# The folder rules (tests/folders.sh): includes point down the data flow,
# layout/ does no I/O and words nothing (tests/folders.words: what is left).
# Reads the sources only: run before the unit tests.
folders:
	@sh tests/folders.sh

unit: $(UNIT_BIN)
	@sh tests/folders.sh
	@sh tests/run-unit.sh $(UNIT_BIN)

# No function of the product over 120 lines (the house style).
longfn:
	@sh tests/longfn.sh

# The scripts on both cores (tests/run-e2e.sh runs them one by one).
e2e: structfit
	@sh tests/run-e2e-parallel.sh

# `make test` runs each e2e script once (the suite twice, plain and under
# ASan, took over 20 minutes on 2 cores): the scripts of TEST_E2E_PLAIN on
# ./structfit, the shipped build, since they check its outputs byte for
# byte on whole real inputs (identity: the md5s; alone, pahole_vmlinux,
# pahole_libc: every block; pahole_compat: pahole's output on the corpus,
# each option also run once on the ASan build by options.sh; jsondoc_libc:
# libc6-dbg's document;
# jsondoc_types: suggest and fit on every type of a document; bounded: the
# time limits, a hang detector meant for the shipped build, and the
# heuristic's sizes against the exact search's, a few hundred runs on
# small structs, while suggest.sh runs both searches, the heuristic on a
# struct past the exact search's reach, under ASan) and its
# packaging (deb; habits: make install; readme); malloc (the second run
# with glibc's huge-page tunables, which a sanitizer's allocator has not);
# every other script, and so
# every command, option, input kind and error path, on the ASan+UBSan
# build.  `make e2e` and `make asan` still run every script.
TEST_E2E_PLAIN := identity alone pahole_vmlinux pahole_libc pahole_compat jsondoc_libc jsondoc_types bounded deb habits readme malloc

# deps-test installed everything the tests need: a missing compiler, target
# or debug file, or a fixture that does not build, fails instead of skipping
# (SF_TEST_STRICT, read by tests/unit/test_dwarf_util.h)
test: export SF_TEST_STRICT := 1
# (each stage timed by tests/stage.sh; the times are printed at the end;
# the e2e scripts three at a time: a script waits on its processes' starts
# and exits, and two left a seventh of the 2 cores idle; the three fuzz
# targets side by side, 30 s each: on 2 cores about 20 s of CPU each, as
# many executions as 20 s one by one, 30 s sooner)
test:
	@mkdir -p build && rm -f build/test-stages
	@sh tests/stage.sh deps $(MAKE) --no-print-directory deps-test
	@sh tests/stage.sh folders $(MAKE) --no-print-directory folders longfn
	@sh tests/stage.sh build+unit $(MAKE) --no-print-directory structfit unit
	@E2E_JOBS=$${E2E_JOBS:-3} sh tests/stage.sh asan+e2e $(MAKE) --no-print-directory asan E2E_PLAIN="$(TEST_E2E_PLAIN)"
	@sh tests/stage.sh valgrind $(MAKE) --no-print-directory valgrind VALGRIND_E2E="$(TEST_VALGRIND_E2E)"
	@FUZZ_JOBS=$${FUZZ_JOBS:-3} sh tests/stage.sh fuzz $(MAKE) --no-print-directory fuzz FUZZ_SECONDS=$${FUZZ_SECONDS:-30}
	@echo "make test: every stage passed:"; sed 's/^/  /' build/test-stages

bench: structfit $(BUILD)/tests/dwarf_walk
	@sh tests/bench.sh

# The round trip on a real Debian source package (Redis): apt-get source
# through a private sources list, build with -g, suggest -> patch --apply ->
# rebuild -> pahole's size is the promised one -> Redis's own tests.  Not in
# `make test`: it downloads (about 3 MB) and takes minutes.
realworld: structfit
	@sh tests/deps.sh $(REALWORLD_PKGS)
	@st=0; sh tests/realworld/tinyxml2.sh || st=1; sh tests/realworld/redis.sh || st=1; exit $$st

# ---- hardening: sanitizers, valgrind, fuzzing --------------------------
#
#   make asan      build-asan/structfit and the unit tests under ASan+UBSan
#                  (hostile inputs get 120 s, not 20: a sanitizer build is slower),
#                  then the unit tests and the whole e2e suite on them
#                  (E2E_PLAIN="a b": scripts a and b on ./structfit instead)
#   make valgrind  e2e scripts $(VALGRIND_E2E) with ./structfit under valgrind
#                  (both run E2E_JOBS e2e scripts at a time, default 2;
#                  make test runs make asan's three at a time)
#   make fuzz      each libFuzzer target for FUZZ_SECONDS (default 60) s
#   make fuzz-long each target for FUZZ_SECONDS (default 1800) s, not in
#                  `make test`: a hang that needs minutes of mutation to
#                  find (testdata/regress/self-macro-expansion-hang.source.c
#                  took 7) is out of reach of make test's 30 s runs
#
# A sanitizer report or a valgrind error fails the target even when the test
# that ran into it did not look at the exit status: reports are written to
# files (build-asan/reports, build-valgrind) and any file there fails it.

SAN_FLAGS   := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
ASAN_BUILD  := build-asan
# clang: its UBSan honours log_path (gcc's libubsan prints to stderr only)
ASAN_CC     ?= clang
# abort (a crash the e2e tests see) on any report; out of memory stays
# structfit's own clean exit 2 (lib/xalloc.c), not an ASan report
SAN_ENV     := ASAN_OPTIONS=abort_on_error=1:detect_leaks=1:allocator_may_return_null=1:log_path=$(CURDIR)/$(ASAN_BUILD)/reports/asan \
	UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1:print_stacktrace=1:log_path=$(CURDIR)/$(ASAN_BUILD)/reports/ubsan
VALGRIND_E2E ?= show holes check hostile
# make test's share: show on one core, holes and check on the other, about
# two and a half minutes each on an idle machine.  hostile under valgrind
# alone took 313 s of make test's wall time on one core: it runs under
# ASan+UBSan in make test (and the fuzz targets read broken input under
# ASan), under valgrind in make valgrind
TEST_VALGRIND_E2E := show holes check

.PHONY: asan valgrind fuzz fuzz-long

# a structfit binary inside a build directory (build-asan/structfit)
$(BUILD)/structfit: $(CMD_OBJ) $(BUILD)/libsf.a
	$(CC) $(SF_CFLAGS) $(LDFLAGS) -o $@ $(CMD_OBJ) $(BUILD)/libsf.a $(READER_LIBS)

asan: $(if $(E2E_PLAIN),structfit)
	@$(MAKE) --no-print-directory BUILD=$(ASAN_BUILD) CC=$(ASAN_CC) \
		CFLAGS="-O1 -g $(SAN_FLAGS)" $(ASAN_BUILD)/structfit \
		$(patsubst $(BUILD)/%,$(ASAN_BUILD)/%,$(UNIT_BIN))
	@rm -rf $(ASAN_BUILD)/reports && mkdir -p $(ASAN_BUILD)/reports
	@st=0; \
	$(SAN_ENV) sh tests/run-unit.sh $(patsubst $(BUILD)/%,$(ASAN_BUILD)/%,$(UNIT_BIN)) || st=1; \
	$(SAN_ENV) HOSTILE_SANITIZED=1 STRUCTFIT=$(CURDIR)/$(ASAN_BUILD)/structfit \
		E2E_PLAIN="$(E2E_PLAIN)" E2E_PLAIN_STRUCTFIT=$(CURDIR)/structfit \
		sh tests/run-e2e-parallel.sh || st=1; \
	if [ -n "$$(ls $(ASAN_BUILD)/reports)" ]; then \
		echo "asan: sanitizer reports:"; head -n 40 $(ASAN_BUILD)/reports/*; st=1; \
	fi; \
	[ $$st = 0 ] && echo "asan: no sanitizer report" || { echo "asan: FAILED"; exit 1; }

valgrind: structfit
	@command -v valgrind >/dev/null || { echo "valgrind: not installed (make deps-test)"; exit 1; }
	@rm -rf build-valgrind && mkdir -p build-valgrind
	@st=0; \
	SF_VALGRIND_LOGS=$(CURDIR)/build-valgrind SF_VALGRIND_BIN=$(CURDIR)/structfit \
	STRUCTFIT=$(CURDIR)/tests/valgrind-structfit.sh E2E_TIMEOUT=900 HOSTILE_SLOW=1 \
		sh tests/run-e2e-parallel.sh $(VALGRIND_E2E) || st=1; \
	bad=$$(find build-valgrind -name '*.log' -size +0); \
	n=$$(ls build-valgrind | wc -l); \
	if [ -n "$$bad" ]; then \
		echo "valgrind: errors in:"; for f in $$bad; do head -n 60 $$f; done; st=1; \
	fi; \
	[ $$st = 0 ] && echo "valgrind: $$n runs, no error, no definite leak" || { echo "valgrind: FAILED"; exit 1; }

fuzz:
	@sh tests/fuzz.sh

fuzz-long:
	@FUZZ_SECONDS=$${FUZZ_SECONDS:-1800} sh tests/fuzz.sh

# The binary, the man page, the bash completion (PREFIX=/usr puts the
# completion where bash-completion looks: /usr/share/bash-completion/completions)
# and the JSON Schema of --format json.
install: structfit
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions \
		$(DESTDIR)$(PREFIX)/share/doc/structfit
	install -m 755 structfit $(DESTDIR)$(PREFIX)/bin/structfit
	install -m 644 doc/structfit.1 $(DESTDIR)$(PREFIX)/share/man/man1/structfit.1
	install -m 644 contrib/structfit.bash-completion \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/structfit
	install -m 644 doc/structfit.schema.json \
		$(DESTDIR)$(PREFIX)/share/doc/structfit/structfit.schema.json

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/structfit \
		$(DESTDIR)$(PREFIX)/share/man/man1/structfit.1 \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/structfit \
		$(DESTDIR)$(PREFIX)/share/doc/structfit/structfit.schema.json
	rmdir $(DESTDIR)$(PREFIX)/share/doc/structfit 2>/dev/null || true

clean:
	rm -rf $(BUILD) structfit
