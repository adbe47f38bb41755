# vpmu — the one build.
#
#   make                 build ./vpmu (objects in $(BUILD), default build/)
#   make check           unit tests (plain and ASan+UBSan), tests/diff, tests/e2e,
#                        two of its suites again on a clang+UBSan build
#   make example         build and run `vpmu stat` on tests/progs/example.c
#   make install PREFIX=/usr/local   binary and man pages
#   make bench           scripts/bench.sh, bench-hostcost.sh, bench-report.sh
#   make fuzz            every libFuzzer harness, FUZZ_SECONDS (300) each
#   make lint            clang-format (check mode), cppcheck, mandoc -Tlint
#   make clean
#
# Sources are picked up by wildcard, so adding a file never needs an edit
# here.  Every object except cmd/vpmu.c (main) goes into $(BUILD)/libvpmu.a,
# which the cmocka unit tests (tests/unit/test_*.c, one program each) and
# the differential instruction tester (tests/diff/*.{c,S}, one program) link.
#
# Guest programs: tests/progs/NAME.{c,cc,S} become $(BUILD)/progs/NAME.  The
# name chooses how it is linked:
#   NAME_nolibc   freestanding: -nostdlib -static, no libc (entry _start)
#   NAME_static   -static (glibc, non-PIE)
#   NAME_spie     -static-pie
#   anything else dynamically linked PIE against glibc (-pthread -lm)
# A source line containing `vpmu-cflags: FLAGS` adds FLAGS to its compile
# and link command (e.g. `// vpmu-cflags: -O0 -mfpmath=387`).

VERSION := 0.1.0

BUILD ?= build
PREFIX ?= /usr/local
DESTDIR ?=

ifeq ($(origin CC),default)
CC := gcc
endif
CXX ?= g++
AR ?= ar
CFLAGS ?= -O2 -g
# vpmu itself is optimized across files (the timing model calls the cache,
# predictor and memory code per instruction).  The objects keep their
# ordinary code too: the unit tests, tests/diff and the test tools link
# them from libvpmu.a with -fno-lto, which uses it (without that flag gcc
# would optimize each of those links across files again).
LTO ?= -flto=auto -ffat-lto-objects
# Its functions start on 64-byte boundaries: code placement alone moved the
# timed model's speed by 5% between two builds that differ in unrelated
# commands; aligned, bench_qsort 100000 ran in 1.77-1.80 s of user time
# against 1.83-1.89 s, gzip and python3 2-4% faster too.
ALIGN ?= -falign-functions=64
SANFLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer \
	    -fno-sanitize-recover=undefined

VPMU_CFLAGS := -std=gnu11 -Wall -Wextra -fPIE -I. -MMD -MP
VPMU_LDFLAGS := -pie
LIBS := -lZydis -lZycore -ldw -lelf -lunwind-x86_64 -lunwind -lz -lstdc++ -lpthread -lm
TEST_LIBS := -lcmocka

SRCDIRS := emu/x86 emu/linux emu/uarch arch $(patsubst %/,%,$(wildcard arch/*/)) core cmd
SRCS := $(sort $(foreach d,$(SRCDIRS),$(wildcard $(d)/*.c)))
MAIN_SRC := cmd/vpmu.c
LIB_SRCS := $(filter-out $(MAIN_SRC),$(SRCS))

OBJS := $(SRCS:%.c=$(BUILD)/obj/%.o)
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/obj/%.o)
SAN_LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/san/obj/%.o)

UNIT_SRCS := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/unit/%)
SAN_UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/san/unit/%)

PROG_SRCS := $(sort $(wildcard tests/progs/*.c tests/progs/*.cc tests/progs/*.S))
PROG_BINS := $(addprefix $(BUILD)/progs/,$(basename $(notdir $(PROG_SRCS))))

MAN_PAGES := $(sort $(wildcard man/*.[1-8]))
C_FILES := $(sort $(foreach d,$(SRCDIRS),$(wildcard $(d)/*.[ch])) \
	   $(wildcard emu/*.h arch/*.h core/*.h cmd/*.h tests/unit/*.[ch]))

# Link mode of a guest program from its name (see the top of this file).
prog_ldmode = $(strip \
	$(if $(filter %_nolibc,$1),-nostdlib -static -ffreestanding -fno-stack-protector,\
	$(if $(filter %_spie,$1),-static-pie -pthread -lm,\
	$(if $(filter %_static,$1),-static -pthread -lm,-pthread -lm))))
prog_extra = $$(sed -n 's/.*vpmu-cflags:[[:space:]]*//p' $1 | sed 's/[[:space:]]*\*\/.*//')

.PHONY: all deps check unit progs example install bench fuzz lint clean
.DELETE_ON_ERROR:

all: $(BUILD)/vpmu $(if $(filter build,$(BUILD)),vpmu)

# Install missing Debian packages first; quiet when nothing is missing.
# SKIP_DEPS=1 skips the check (machines that are not Debian).
deps:
ifneq ($(SKIP_DEPS),1)
	@scripts/deps.sh
endif

$(BUILD)/vpmu: $(OBJS) | deps
	$(CC) $(CFLAGS) $(LTO) $(ALIGN) $(VPMU_LDFLAGS) $(LDFLAGS) -o $@ $(OBJS) $(LIBS)

vpmu: $(BUILD)/vpmu
	ln -sf $(BUILD)/vpmu $@

$(BUILD)/obj/%.o: %.c | deps
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LTO) $(ALIGN) $(VPMU_CFLAGS) $(CPPFLAGS) -c -o $@ $<

$(BUILD)/obj/cmd/vpmu.o: CPPFLAGS += -DVPMU_VERSION='"$(VERSION)"' -DVPMU_SRCDIR='"$(CURDIR)"'
$(BUILD)/obj/cmd/vpmu.o: Makefile
# (top-level asm, which a fat LTO object keeps in its LTO part only)
$(BUILD)/obj/emu/linux/syscall.o $(BUILD)/obj/emu/linux/signal.o: LTO :=

$(BUILD)/libvpmu.a: $(LIB_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

# ---- unit tests ----------------------------------------------------------

$(BUILD)/unit/%: tests/unit/%.c $(BUILD)/libvpmu.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -fno-lto $(VPMU_CFLAGS) $(CPPFLAGS) $(VPMU_LDFLAGS) -o $@ $< \
		$(BUILD)/libvpmu.a $(TEST_LIBS) $(LIBS)

$(BUILD)/san/obj/%.o: %.c | deps
	@mkdir -p $(@D)
	$(CC) $(SANFLAGS) $(VPMU_CFLAGS) $(CPPFLAGS) -c -o $@ $<

$(BUILD)/san/libvpmu.a: $(SAN_LIB_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/san/unit/%: tests/unit/%.c $(BUILD)/san/libvpmu.a
	@mkdir -p $(@D)
	$(CC) $(SANFLAGS) $(VPMU_CFLAGS) $(CPPFLAGS) $(VPMU_LDFLAGS) -o $@ $< \
		$(BUILD)/san/libvpmu.a $(TEST_LIBS) $(LIBS)

unit: $(UNIT_BINS) $(SAN_UNIT_BINS)

# ---- a second compiler -----------------------------------------------------
# vpmu built by clang as well, optimized and with the undefined-behaviour
# sanitizer (make check runs the program comparisons and the random-code
# suite on it, and the build must be free of warnings): what one compiler
# forgives, such as an int passed where a variadic function reads a long,
# another may not, and what x86 forgives, such as a misaligned struct,
# the sanitizer does not.

CLANG ?= clang
CLANG_SAN := -fsanitize=undefined -fno-sanitize-recover=undefined
CLANG_OBJS := $(SRCS:%.c=$(BUILD)/clang/obj/%.o)

$(BUILD)/clang/obj/%.o: %.c | deps
	@mkdir -p $(@D)
	$(CLANG) $(CFLAGS) $(CLANG_SAN) $(VPMU_CFLAGS) -Werror $(CPPFLAGS) -c -o $@ $<

$(BUILD)/clang/obj/cmd/vpmu.o: CPPFLAGS += -DVPMU_VERSION='"$(VERSION)"' -DVPMU_SRCDIR='"$(CURDIR)"'
$(BUILD)/clang/obj/cmd/vpmu.o: Makefile

$(BUILD)/clang/vpmu: $(CLANG_OBJS)
	$(CLANG) $(CFLAGS) $(CLANG_SAN) $(VPMU_LDFLAGS) $(LDFLAGS) -o $@ $(CLANG_OBJS) $(LIBS)

# ---- differential instruction tests ----------------------------------------
# tests/diff/*.c and *.S form one program, linked with libvpmu.a;
# tests/diff/run.sh runs it (make check passes its path as DIFF).

DIFF_SRCS := $(sort $(wildcard tests/diff/*.c tests/diff/*.S))
DIFF_OBJS := $(patsubst %,$(BUILD)/obj/%.o,$(basename $(DIFF_SRCS)))
DIFF_BIN := $(if $(DIFF_SRCS),$(BUILD)/diff/vpmu-diff)

$(BUILD)/obj/tests/diff/%.o: tests/diff/%.S | deps
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(VPMU_CFLAGS) $(CPPFLAGS) -c -o $@ $<

$(BUILD)/diff/vpmu-diff: $(DIFF_OBJS) $(BUILD)/libvpmu.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -fno-lto $(VPMU_LDFLAGS) $(LDFLAGS) -o $@ $(DIFF_OBJS) $(BUILD)/libvpmu.a $(LIBS)

# ---- guest programs ------------------------------------------------------

$(BUILD)/progs/%: tests/progs/%.c | deps
	@mkdir -p $(@D)
	$(CC) -O2 -g -Wall -Wextra $(call prog_extra,$<) -o $@ $< $(call prog_ldmode,$*)

$(BUILD)/progs/%: tests/progs/%.cc | deps
	@mkdir -p $(@D)
	$(CXX) -O2 -g -Wall -Wextra $(call prog_extra,$<) -o $@ $< $(call prog_ldmode,$*)

$(BUILD)/progs/%: tests/progs/%.S | deps
	@mkdir -p $(@D)
	$(CC) -g $(call prog_extra,$<) -o $@ $< $(call prog_ldmode,$*)

progs: $(PROG_BINS)

# ---- running -------------------------------------------------------------

check: all unit progs $(DIFF_BIN) $(BUILD)/clang/vpmu
	@BUILD=$(BUILD) VPMU=$(abspath $(BUILD)/vpmu) PROGS=$(abspath $(BUILD)/progs) \
		DIFF=$(if $(DIFF_BIN),$(abspath $(DIFF_BIN))) \
		VPMU_CLANG=$(abspath $(BUILD)/clang/vpmu) tests/run-check.sh

example: all $(BUILD)/progs/example
	$(BUILD)/vpmu stat $(BUILD)/progs/example

# libFuzzer harnesses tests/fuzz/fuzz_*.c (make check runs each briefly)
FUZZ_SECONDS ?= 300
fuzz: deps
	@BUILD=$(BUILD) scripts/fuzz.sh $(FUZZ_SECONDS)

bench: all $(BUILD)/progs/bench_qsort
	@BUILD=$(BUILD) VPMU=$(abspath $(BUILD)/vpmu) PROGS=$(abspath $(BUILD)/progs) \
		scripts/bench.sh
	@VPMU=$(abspath $(BUILD)/vpmu) PROGS=$(abspath $(BUILD)/progs) \
		scripts/bench-hostcost.sh -a p4,alpha,xscale,ia64
	@BUILD=$(BUILD) scripts/bench-report.sh

install: $(BUILD)/vpmu
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(BUILD)/vpmu $(DESTDIR)$(PREFIX)/bin/vpmu
	for p in $(MAN_PAGES); do \
		s=$${p##*.}; install -d $(DESTDIR)$(PREFIX)/share/man/man$$s; \
		install -m 644 $$p $(DESTDIR)$(PREFIX)/share/man/man$$s/; \
	done

# Every checker runs; the target fails if any of them complained.
lint:
	@rc=0; \
	echo "clang-format --dry-run -Werror ..."; \
	clang-format --dry-run -Werror $(C_FILES) || rc=1; \
	echo "cppcheck ..."; \
	cppcheck --quiet --error-exitcode=1 --std=c11 --enable=warning,portability \
		--inline-suppr -I. $(SRCDIRS) || rc=1; \
	echo "mandoc -Tlint ..."; \
	mandoc -Tlint -Wwarning $(MAN_PAGES) || rc=1; \
	exit $$rc

clean:
	rm -rf $(BUILD)
	if [ -L vpmu ]; then rm -f vpmu; fi

-include $(OBJS:.o=.d) $(SAN_LIB_OBJS:.o=.d) $(CLANG_OBJS:.o=.d) $(DIFF_OBJS:.o=.d)
