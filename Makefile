# perfverdict - see README.md.  `make demo` and `make check` do all set-up.
.DELETE_ON_ERROR:
.SUFFIXES:

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
DESTDIR ?=
CC ?= cc
CFLAGS ?= -O2 -g
PYTHON ?= /usr/bin/python3
PKG_CONFIG ?= pkg-config
VERSION = 0.1.0

# Lazily expanded: pkg-config may only exist once `make deps` has run.
PKGS = gsl jansson libxml-2.0 inih zlib
PKG_CFLAGS = $(shell $(PKG_CONFIG) --cflags $(PKGS))
PKG_LIBS = $(shell $(PKG_CONFIG) --libs $(PKGS)) -lm -pthread
CMOCKA_CFLAGS = $(shell $(PKG_CONFIG) --cflags cmocka)
CMOCKA_LIBS = $(shell $(PKG_CONFIG) --libs cmocka)

# Warnings kept apart from the user's CFLAGS (after git's config.mak.dev).
DEVFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE \
	-Wall -Wextra -pedantic -Wstrict-prototypes -Wmissing-prototypes \
	-Wvla -Wwrite-strings -Wformat-security -Wshadow -fno-common \
	-DPV_VERSION='"$(VERSION)"'

# make SANITIZE=address,undefined check
BUILD = build
ifdef SANITIZE
BUILD = build/sanitize
SANFLAGS = -fsanitize=$(SANITIZE) -fno-sanitize-recover=all -fno-omit-frame-pointer
endif

# -MMD -MP: each object lists the headers it includes in its .d file, so a
# header edit rebuilds only what includes it.
ALL_CFLAGS = $(DEVFLAGS) -MMD -MP -pthread $(PKG_CFLAGS) $(SANFLAGS) $(CFLAGS)
ALL_LDFLAGS = $(SANFLAGS) $(LDFLAGS)

LIB_SRC = $(filter-out src/main.c,$(wildcard src/*.c src/util/*.c src/readers/*.c src/writers/*.c \
	src/stats/*.c src/history/*.c))
LIB_OBJ = $(LIB_SRC:%.c=$(BUILD)/%.o)
LIB = $(BUILD)/libperfverdict.a
BIN = $(BUILD)/perfverdict

UNIT_SRC = $(wildcard tests/unit/test_*.c)
UNIT_BIN = $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
# Test drivers: tests/tools/X.c -> $(BUILD)/tests/tools/X
TOOL_BIN = $(patsubst %.c,$(BUILD)/%,$(wildcard tests/tools/*.c))

# The sub-makes of check, demo and fuzz build in parallel unless the
# caller gave its own -j.
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
SUBMAKE = $(MAKE) --no-print-directory $(if $(filter -j%,$(MAKEFLAGS)),,-j$(JOBS))

all: $(BIN)

$(BUILD)/%.o: %.c $(BUILD)/%.d
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(LIB): $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $(LIB_OBJ)

# --version prints the commit; main.o is rebuilt when it changes.
COMMIT := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
$(BUILD)/src/main.o: DEVFLAGS += -DPV_COMMIT='"$(COMMIT)"'
$(BUILD)/src/main.o: $(BUILD)/commit
$(BUILD)/commit: FORCE
	@mkdir -p $(@D)
	@echo '$(COMMIT)' | cmp -s - $@ || echo '$(COMMIT)' > $@

$(BIN): $(BUILD)/src/main.o $(LIB)
	$(CC) $(ALL_LDFLAGS) -o $@ $(BUILD)/src/main.o $(LIB) $(PKG_LIBS)

$(BUILD)/tests/tools/%: tests/tools/%.c $(LIB) $(BUILD)/tests/tools/%.d
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Isrc -o $@ $< $(LIB) $(ALL_LDFLAGS) $(PKG_LIBS)

$(BUILD)/tests/%: tests/unit/%.c $(LIB) $(BUILD)/tests/%.d
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(CMOCKA_CFLAGS) -Isrc -o $@ $< $(LIB) \
		$(ALL_LDFLAGS) $(PKG_LIBS) $(CMOCKA_LIBS)

# Installs missing Debian packages (as root) or prints the command.
deps:
	@sh ci/scripts/install-deps.sh

unit: $(UNIT_BIN) $(TOOL_BIN)

# The whole test suite; prints "N passed, N failed" last.
check: deps
	@$(SUBMAKE) all unit
	@PV_BIN=$(BIN) PV_BUILD=$(BUILD) PYTHON=$(PYTHON) JOBS=$(JOBS) sh tests/run.sh

# Every sample's HTML report and PR comment as PNG in build/screenshots/,
# for review; needs chromium and cmark-gfm (not part of check).
screenshots: $(BIN)
	PV_BIN=$(BIN) sh tests/look/screenshots.sh
.PHONY: screenshots

demo: deps
	@$(SUBMAKE) all
	@echo '$$ perfverdict compare -c samples/netperf/perf.conf -s netperf samples/netperf/baseline samples/netperf/candidate'
	@$(BIN) compare -c samples/netperf/perf.conf -s netperf \
		samples/netperf/baseline samples/netperf/candidate; \
	st=$$?; echo "(exit status $$st: 1 means the gate found a regression)"; \
	test $$st -le 1
	@echo '$$ perfverdict history -c samples/history/perf.conf samples/history/archive'
	@$(BIN) history -c samples/history/perf.conf samples/history/archive; \
	st=$$?; echo "(exit status $$st: 1 means a regression began in the newest 3 points)"; \
	test $$st -le 1

# Speed and memory against the strtod floor (tests/bench/run.sh), after
# ns per double printed (tests/bench/dtoa_bench.c); not a test.
bench: all $(BUILD)/tests/bench/dtoa_bench
	@$(BUILD)/tests/bench/dtoa_bench
	@PV_BIN=$(BIN) PYTHON=$(PYTHON) sh tests/bench/run.sh

$(BUILD)/tests/bench/%: tests/bench/%.c $(LIB) $(BUILD)/tests/bench/%.d
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Isrc -o $@ $< $(LIB) $(ALL_LDFLAGS) $(PKG_LIBS)

# make fuzz FUZZ_SECONDS=N: the libFuzzer harnesses of tests/fuzz/, built
# with clang and ASan/UBSan into build/fuzz/ (the library too), each run N
# seconds on seeds from samples/ and tests/ (tests/fuzz/run.sh), JOBS at
# once.  One binary holds every target; build/fuzz/fuzz-TARGET are links
# to it, and the name it is run under picks the target.
FUZZ_CC = clang
FUZZ_SECONDS = 60
FUZZ_TARGETS = rhs csv gbench pyperf hyperfine gobench pytest criterion \
	jmh catch2 csv-summary gbench-aggregates criterion-old load config \
	archive num dtoa point point-gz datajs benchmark-action
FUZZ_SAN = -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer

fuzz: deps
	@$(SUBMAKE) BUILD=build/fuzz CC=$(FUZZ_CC) \
		CFLAGS='-O1 -g' SANFLAGS='$(FUZZ_SAN) -fsanitize=fuzzer-no-link' \
		$(FUZZ_TARGETS:%=build/fuzz/fuzz-%)
	@FUZZ_DIR=build/fuzz FUZZ_JOBS=$(JOBS) sh tests/fuzz/run.sh $(FUZZ_SECONDS) $(FUZZ_TARGETS)

build/fuzz/fuzz: tests/fuzz/fuzz.c $(LIB) build/fuzz/fuzz.d
	$(CC) $(ALL_CFLAGS) -fsanitize=fuzzer -Isrc \
		-o $@ tests/fuzz/fuzz.c $(LIB) $(ALL_LDFLAGS) $(PKG_LIBS)

build/fuzz/fuzz-%: build/fuzz/fuzz
	ln -sf fuzz $@

# The end-to-end tests (golden cases, consumers, tests/bad/) under
# valgrind --error-exitcode=1 --leak-check=full (tests/valgrind.sh).
valgrind-check: deps
	@$(SUBMAKE) all unit
	@PV_BIN=$(BIN) PV_BUILD=$(BUILD) PYTHON=$(PYTHON) sh tests/valgrind.sh

.PHONY: fuzz valgrind-check

install: $(BIN)
	mkdir -p $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1
	cp -f $(BIN) $(DESTDIR)$(BINDIR)/perfverdict
	chmod 755 $(DESTDIR)$(BINDIR)/perfverdict
	cp -f perfverdict.1 $(DESTDIR)$(MANDIR)/man1/perfverdict.1
	chmod 644 $(DESTDIR)$(MANDIR)/man1/perfverdict.1

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/perfverdict
	rm -f $(DESTDIR)$(MANDIR)/man1/perfverdict.1

# What each object, test and tool includes (-MMD), as far as it was built.
# A target whose .d file is missing (built before -MMD, or the file was
# deleted) is rebuilt: each .d is named here as a target of no rule, so a
# missing one counts as new (not as an intermediate file, which would not).
DEPFILES = $(LIB_OBJ:.o=.d) $(BUILD)/src/main.d $(UNIT_BIN:=.d) \
	$(TOOL_BIN:=.d) $(patsubst tests/bench/%.c,$(BUILD)/tests/bench/%.d,\
	$(wildcard tests/bench/*.c)) build/fuzz/fuzz.d
$(DEPFILES):
-include $(wildcard $(DEPFILES))

# make release, make deb, make release-check (ci/release/release.mk)
include ci/release/release.mk

clean:
	rm -rf build dist

.PHONY: all deps unit check demo bench install uninstall clean
