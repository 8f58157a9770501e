# structfit - where your structs waste memory, and what to change.
#
#   make            build ./structfit
#   make run        install missing Debian packages, build, show the example
#   make test       install missing packages, build, run every test
#   make bench      structfit vs pahole on a large input (not a test)
#   make install    PREFIX=/usr/local DESTDIR=
#
# CC=clang works as well as gcc; warnings are errors under both.

CC       ?= gcc
PREFIX   ?= /usr/local
BUILD    ?= build
PKG_CONFIG ?= pkg-config

# libdwarf 20210528 (Debian) ships no .pc file; libelf and cmocka do.
DWARF_CFLAGS := -I/usr/include/libdwarf
ELF_LIBS     := $(shell $(PKG_CONFIG) --libs libelf 2>/dev/null || echo -lelf)
CMOCKA_LIBS  := $(shell $(PKG_CONFIG) --libs cmocka 2>/dev/null || echo -lcmocka)
DWARF_LIBS   := -ldwarf $(ELF_LIBS) -lz -lpthread

OPT      ?= -O2
CFLAGS   ?= $(OPT) -g
SF_CFLAGS := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -I. $(CFLAGS)
LDFLAGS  ?=

LIB_SRC    := $(wildcard lib/*.c)
LAYOUT_SRC := $(wildcard layout/*.c)
REPORT_SRC := $(wildcard report/*.c)
DWARF_SRC  := $(wildcard dwarf/*.c)
CMD_SRC    := $(wildcard cmd/*.c)

obj = $(patsubst %.c,$(BUILD)/%.o,$(1))

CORE_OBJ  := $(call obj,$(LIB_SRC) $(LAYOUT_SRC) $(REPORT_SRC))
DWARF_OBJ := $(call obj,$(DWARF_SRC))
CMD_OBJ   := $(call obj,$(CMD_SRC))

UNIT_SRC  := $(wildcard tests/unit/test_*.c)
UNIT_BIN  := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRC))

# Debian packages the build and the tests need (see README "Dependencies").
BUILD_PKGS := gcc clang lld make pkg-config libdwarf-dev libelf-dev zlib1g-dev libcmocka-dev
TEST_PKGS  := dwarves libc6-dbg gcc-multilib g++ python3 valgrind man-db chromium git patch

.PHONY: all run test unit e2e bench deps deps-test install uninstall clean

all: structfit

structfit: $(CMD_OBJ) $(BUILD)/libsf.a
	$(CC) $(LDFLAGS) -o $@ $(CMD_OBJ) $(BUILD)/libsf.a $(DWARF_LIBS)

$(BUILD)/libsf.a: $(CORE_OBJ) $(DWARF_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/libsf_core.a: $(CORE_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/dwarf/%.o: dwarf/%.c
	@mkdir -p $(dir $@)
	$(CC) $(SF_CFLAGS) $(DWARF_CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(SF_CFLAGS) -MMD -MP -c -o $@ $<

# Unit tests of layout/ and report/ link only the core library: no DWARF.
# Tests named test_dwarf_* also get the reader.
$(BUILD)/tests/test_dwarf_%: tests/unit/test_dwarf_%.c $(BUILD)/libsf.a
	@mkdir -p $(dir $@)
	$(CC) $(SF_CFLAGS) $(DWARF_CFLAGS) -o $@ $< $(BUILD)/libsf.a $(CMOCKA_LIBS) $(DWARF_LIBS)

$(BUILD)/tests/test_%: tests/unit/test_%.c $(BUILD)/libsf_core.a
	@mkdir -p $(dir $@)
	$(CC) $(SF_CFLAGS) -o $@ $< $(BUILD)/libsf_core.a $(CMOCKA_LIBS)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

deps:
	@sh tests/deps.sh $(BUILD_PKGS)

deps-test:
	@sh tests/deps.sh $(BUILD_PKGS) $(TEST_PKGS)

run: deps
	@$(MAKE) --no-print-directory structfit
	@sh tests/example.sh

unit: $(UNIT_BIN)
	@sh tests/run-unit.sh $(UNIT_BIN)

e2e: structfit
	@sh tests/run-e2e.sh

test: deps-test
	@$(MAKE) --no-print-directory structfit unit
	@$(MAKE) --no-print-directory e2e

bench: structfit
	@sh tests/bench.sh

# The binary, the man page and the bash completion (PREFIX=/usr puts the
# completion where bash-completion looks: /usr/share/bash-completion/completions).
install: structfit
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions
	install -m 755 structfit $(DESTDIR)$(PREFIX)/bin/structfit
	install -m 644 doc/structfit.1 $(DESTDIR)$(PREFIX)/share/man/man1/structfit.1
	install -m 644 contrib/structfit.bash-completion \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/structfit

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/structfit \
		$(DESTDIR)$(PREFIX)/share/man/man1/structfit.1 \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/structfit

clean:
	rm -rf $(BUILD) structfit
