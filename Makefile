# benchlog — build, test, demo, install.
#
#   make                 build build/benchlog and build/libbenchlog.a
#   make check           install missing Debian packages, build, run every test
#   make demo            install missing packages, run `benchlog report` on fixtures/
#   make docs            regenerate the docs made from the table definitions
#   make install PREFIX=/usr/local DESTDIR=
#   make SANITIZE=address,undefined check
#   make WERROR=1 ...    warnings are errors (CI sets this)
#   make V=1 ...         print each command in full (default: one short
#                        line per file made; `make -s`: nothing)
#
# Library flags come from pkg-config; libcsv ships no .pc file, so it is -lcsv.

PREFIX  ?= /usr/local
DESTDIR ?=
BUILD   ?= build
CC      ?= cc
PKGS    := libpcre2-8 zlib gsl gmime-3.0 libcmark-gfm jansson sqlite3 libxml-2.0
VERSION := $(shell cat VERSION 2>/dev/null || echo 0.0.0)

WARN := -Wall -Wextra -Wstrict-prototypes -Wmissing-prototypes -Wvla \
        -Wwrite-strings -Wformat=2 -Wshadow -Wno-format-nonliteral
ifeq ($(WERROR),1)
WARN += -Werror
endif

CFLAGS  ?= -O2 -g
SAN_FLAGS :=
ifneq ($(SANITIZE),)
SAN_FLAGS := -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all
BUILD := build-san
endif

# Quiet by default: a short "  CC      core/util.c" line per file made, the
# way Linux's Kbuild prints; V=1 prints the commands instead, -s nothing.
# Compiler diagnostics are never hidden.
V ?= 0
ifeq ($(V),1)
Q :=
say :=
else
Q := @
ifneq ($(findstring s,$(firstword -$(MAKEFLAGS))),)
say :=
else
say = @printf '  %-7s %s\n' '$(1)' '$(2)'
endif
endif

# GMime and libxml2 are not linked but opened at their first use
# (core/util.h bl_dynlib_open()), by the soname their .so link names.
DYNPKGS    := gmime-3.0 libxml-2.0
soname      = $(shell objdump -p $$(pkg-config --variable=libdir $(1))/$(2) 2>/dev/null | sed -n 's/^ *SONAME *//p')
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null) \
              -DBL_SONAME_GMIME=\"$(call soname,gmime-3.0,libgmime-3.0.so)\" \
              -DBL_SONAME_XML2=\"$(call soname,libxml-2.0,libxml2.so)\"
PKG_LIBS   := $(shell pkg-config --libs $(filter-out $(DYNPKGS),$(PKGS)) glib-2.0 2>/dev/null) \
              -lcsv -lcmark-gfm-extensions -lm -lpthread
ALL_CFLAGS := -std=c11 -D_GNU_SOURCE -DBENCHLOG_VERSION=\"$(VERSION)\" \
              -I. $(WARN) $(PKG_CFLAGS) $(SAN_FLAGS) $(CFLAGS)
ALL_LDFLAGS := $(SAN_FLAGS) $(LDFLAGS)

LIB_SRC  := $(sort $(wildcard core/*.c input/*.c parsers/*.c tables/*.c analyze/*.c plot/*.c report/*.c))
CLI_SRC  := $(sort $(wildcard cli/*.c))
TEST_SRC := $(sort $(wildcard tests/test_*.c))

LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
CLI_OBJ  := $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
# The command line but main() (cli/benchlog.c): linked into the tests and
# the argv fuzz harness as well.
CLI_LIB_OBJ := $(filter-out $(BUILD)/obj/cli/benchlog.o,$(CLI_OBJ))
TESTS    := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
DEPS     := $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(TEST_SRC:tests/%.c=$(BUILD)/obj/tests/%.d)

.PHONY: all check unit golden hostile demo install deps clean bench fuzz man docs

all: $(BUILD)/benchlog

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(call say,CC,$<)
	$(Q)$(CC) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/libbenchlog.a: $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(call say,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

$(BUILD)/libbenchlog-cli.a: $(CLI_LIB_OBJ)
	@mkdir -p $(dir $@)
	$(call say,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

$(BUILD)/benchlog: $(BUILD)/obj/cli/benchlog.o $(BUILD)/libbenchlog-cli.a $(BUILD)/libbenchlog.a
	$(call say,LD,$@)
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $(BUILD)/obj/cli/benchlog.o $(BUILD)/libbenchlog-cli.a $(BUILD)/libbenchlog.a $(PKG_LIBS)

$(BUILD)/tests/%: $(BUILD)/obj/tests/%.o $(BUILD)/libbenchlog-cli.a $(BUILD)/libbenchlog.a
	@mkdir -p $(dir $@)
	$(call say,LD,$@)
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $< $(BUILD)/libbenchlog-cli.a $(BUILD)/libbenchlog.a $(PKG_LIBS) $(shell pkg-config --libs cmocka)

# Kept, so that `make unit` does not compile every test again.
.SECONDARY: $(TEST_SRC:tests/%.c=$(BUILD)/obj/tests/%.o)

$(BUILD)/obj/tests/%.o: tests/%.c
	@mkdir -p $(dir $@)
	$(call say,CC,$<)
	$(Q)$(CC) $(ALL_CFLAGS) $(shell pkg-config --cflags cmocka) -MMD -MP -c $< -o $@

# Manual pages: man/<page>.1.scd -> $(BUILD)/man/<page>.1 with scdoc(1),
# @VERSION@ replaced by VERSION. `all` builds them when scdoc is installed
# (scripts/install-deps installs it); `install` copies them. The footer date
# is SOURCE_DATE_EPOCH, else the last commit's, so a rebuild gives the
# same bytes.
SCDOC    := $(shell command -v scdoc 2>/dev/null)
MAN_SRC  := $(sort $(wildcard man/*.scd))
MAN_OUT  := $(MAN_SRC:man/%.scd=$(BUILD)/man/%)
MAN_DATE := $(or $(SOURCE_DATE_EPOCH),$(shell git log -1 --format=%ct 2>/dev/null))

ifneq ($(SCDOC),)
all: man
endif

man: $(MAN_OUT)

$(BUILD)/man/%: man/%.scd VERSION
	@mkdir -p $(dir $@)
	$(call say,SCDOC,$<)
	$(Q)sed 's/@VERSION@/$(VERSION)/g' $< | $(if $(MAN_DATE),SOURCE_DATE_EPOCH=$(MAN_DATE)) scdoc > $@.tmp && mv $@.tmp $@

deps:
	@scripts/install-deps

# The parts of the docs made from the table definitions and the parser
# registry (`benchlog formats`): docs/csv.md, docs/schema.sql and the
# format and table lists of benchlog-formats(1) and benchlog-parse(1).
# `make check` fails while one is stale (tests/e2e/docs-generated.sh).
docs: $(BUILD)/benchlog
	@for g in gen-csv-doc gen-schema-sql gen-man-lists; do \
	   BENCHLOG=$(abspath $(BUILD)/benchlog) scripts/$$g || exit 1; done

# The layer check (no upward #include, scripts/check-layers), the
# function-size check (none over 150 lines, scripts/check-function-size), the unit
# tests (cmocka), the golden and end-to-end shell tests, then the hostile
# catalogue (tests/hostile/: bad input and faults, each case checking the
# message, the exit status and that nothing is left half-written).
#
# It prints one line per step ("unit: N passed, N failed", .ci/run sums
# them), a progress line on a terminal while a suite runs, and the details
# of each failure; under 100 lines when everything passes.
check: deps
	@$(MAKE) -s --no-print-directory all $(TESTS)
	@echo "build: $(BUILD)/benchlog and $(words $(TESTS)) unit test programs"
	@scripts/check-layers && echo "check-layers: no upward include"; l=$$?; \
	 scripts/check-function-size && echo "check-function-size: no function over 150 lines"; f=$$?; \
	 $(MAKE) -s --no-print-directory unit; u=$$?; \
	 $(MAKE) -s --no-print-directory golden; g=$$?; \
	 $(MAKE) -s --no-print-directory hostile; h=$$?; \
	 test $$l -eq 0 && test $$f -eq 0 && test $$u -eq 0 && test $$g -eq 0 && test $$h -eq 0

hostile: $(BUILD)/benchlog
	@BENCHLOG=$(abspath $(BUILD)/benchlog) SANITIZE=$(SANITIZE) tests/hostile/run

unit: $(TESTS)
	@BUILD=$(BUILD) tests/run-unit $(TESTS)

golden: $(BUILD)/benchlog
	@BENCHLOG=$(abspath $(BUILD)/benchlog) tests/run-golden

# The demo's inputs: the three seeds and one copy of each real-world sample
# kept under fixtures/ (posted logs with their mail damage), not the test
# cases built to exercise one trap each (those would crowd the report), and
# not 01: seed 001 was taken from that post, its runs would count twice.
DEMO_INPUTS = fixtures/seeds/*.txt $(shell find fixtures -type f -name '[0-9][0-9]-*.txt' ! -name '01-*' | \
	LC_ALL=C sort | awk -F/ '!seen[$$NF]++')

# Exit status 1 means the report was written but some input could not be
# read in full (the warnings above say which): still a demo.
demo: deps
	@$(MAKE) --no-print-directory all
	@$(BUILD)/benchlog report -o demo-report $(DEMO_INPUTS) || [ $$? -eq 1 ]
	@echo "demo: open demo-report/report.html (Markdown: demo-report/report.md, tables: demo-report/csv/, charts: demo-report/plots/)"

bench: all
	@scripts/bench

fuzz:
	@scripts/fuzz $(FUZZ_SECONDS)

install: all
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 $(BUILD)/benchlog $(DESTDIR)$(PREFIX)/bin/benchlog
	@if [ -d $(BUILD)/man ]; then install -d $(DESTDIR)$(PREFIX)/share/man/man1 && \
	  install -m 644 $(BUILD)/man/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/; fi
	@if [ -f completion/benchlog.bash ]; then install -d $(DESTDIR)$(PREFIX)/share/bash-completion/completions && \
	  install -m 644 completion/benchlog.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/benchlog; fi

clean:
	rm -rf build build-san

-include $(DEPS)
