# rmapbench. One target per thing a person wants to do; `make help` lists them.
#
# The tree is layered, one layer per folder (ARCHITECTURE: lib at the
# bottom, the CLI at the top). LAYER_INC below says which folders each one
# may include from: a folder compiles with -I for those alone, so an
# include that points up does not compile, and tests/integration/layering.sh checks
# every #include line against the same table. Each layer is a static
# library of its own objects, with dependency files, so a change rebuilds
# what it touches and nothing else.
CC      ?= cc
CSTD    := -std=c11 -D_GNU_SOURCE
# snprintf into fixed buffers truncates by design (paths, reasons): that one
# warning is off, everything else in -Wall -Wextra is an error.
WARN    := -Wall -Wextra -Werror -Wno-format-truncation
CFLAGS  ?= -O2 -g
SAN     := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
# Every released binary: a stack protector and fortified libc calls; the
# dynamic ones PIE with full RELRO (tests/integration/hardening.sh).
HARDEN  := -fstack-protector-strong -D_FORTIFY_SOURCE=2 -fPIE
HARDLD  := -pie -Wl,-z,relro,-z,now
# The parser fuzzers: every layer again under clang, instrumented for
# libFuzzer, ASan and UBSan.
FUZZFLAGS := -g -O1 -Wno-unknown-warning-option -fsanitize=fuzzer-no-link,address,undefined
B       := build
# The layer rules below come first in the file: without this, a bare
# `make` would build the first of them, one fuzz library, and stop.
.DEFAULT_GOAL := all
GEN     := $(B)/gen

# folder: the folders it may include from (besides itself)
LAYERS := lib db collect workloads engine sim kernels kernels/agent \
	  harness/run harness/compare harness/report harness/jobs harness/cli bench record
LAYER_INC_lib             :=
LAYER_INC_db              := lib $(GEN)
LAYER_INC_collect         := lib
LAYER_INC_workloads       :=
LAYER_INC_engine          :=
LAYER_INC_sim             := workloads engine
LAYER_INC_kernels         := lib
LAYER_INC_kernels/agent   := kernels collect lib
LAYER_INC_harness/run     := sim workloads engine kernels collect db lib $(GEN)
LAYER_INC_harness/compare := db lib
LAYER_INC_harness/report  := harness/compare db lib
LAYER_INC_harness/jobs    := harness/report harness/compare harness/run sim workloads engine kernels collect db lib $(GEN)
LAYER_INC_harness/cli     := harness/jobs harness/report harness/compare harness/run sim workloads engine kernels collect db lib $(GEN)
LAYER_INC_bench           := engine lib $(GEN)
LAYER_INC_record          := engine

LIBS    := -lsqlite3 -lpfm -lgsl -lgslcblas -lz -lm -pthread

# The revision goes into one generated header, rewritten only when it
# changes, so that a commit does not rebuild the tree and a no-op make
# does nothing.
REV := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)$(shell git diff --quiet HEAD 2>/dev/null || echo -dirty)
$(shell mkdir -p $(GEN); f=$(GEN)/rev.h; t='#define RMAPBENCH_REV "$(REV)"'; \
	[ "$$(cat $$f 2>/dev/null)" = "$$t" ] || echo "$$t" > $$f)

# The flags each flavour compiles with, in a file rewritten only when they
# change: objects depend on it, so new flags rebuild and old ones do not.
$(shell f=$(GEN)/flags.rel; t='$(CC) $(CSTD) $(WARN) $(CFLAGS) $(HARDEN) $(HARDLD)'; \
	[ "$$(cat $$f 2>/dev/null)" = "$$t" ] || echo "$$t" > $$f)
$(shell f=$(GEN)/flags.fuzz; t='clang $(CSTD) $(WARN) $(FUZZFLAGS)'; \
	[ "$$(cat $$f 2>/dev/null)" = "$$t" ] || echo "$$t" > $$f)
$(shell f=$(GEN)/flags.asan; t='$(CC) $(CSTD) $(WARN) $(CFLAGS) $(SAN)'; \
	[ "$$(cat $$f 2>/dev/null)" = "$$t" ] || echo "$$t" > $$f)

srcs = $(wildcard $(1)/*.c)
# A layer's library: every .c of its folder (workloads and sim less their main.c,
# kernels/agent is a program of its own, not a library).
lib_srcs = $(filter-out workloads/main.c sim/main.c record/main.c,$(call srcs,$(1)))
libname = $(subst /,-,$(1))

# objects and libraries, per build flavour: rel (build/obj) and asan (build/asan/obj)
obj = $(patsubst %.c,$(B)/$(2)/%.o,$(1))
alib = $(B)/$(2)/lib$(call libname,$(1)).a

define LAYER_RULES
$(B)/obj/$(1)/%.o: $(1)/%.c $(GEN)/flags.rel | $(GEN)/migrations.h
	@mkdir -p $$(@D)
	$$(CC) $$(CSTD) $$(WARN) $$(CFLAGS) $$(HARDEN) -MMD -MP -I$(1) $$(addprefix -I,$$(LAYER_INC_$(1))) -c -o $$@ $$<
$(B)/asan/obj/$(1)/%.o: $(1)/%.c $(GEN)/flags.asan | $(GEN)/migrations.h
	@mkdir -p $$(@D)
	$$(CC) $$(CSTD) $$(WARN) $$(CFLAGS) $$(SAN) -MMD -MP -I$(1) $$(addprefix -I,$$(LAYER_INC_$(1))) -c -o $$@ $$<
$(B)/fuzz/obj/$(1)/%.o: $(1)/%.c $(GEN)/flags.fuzz | $(GEN)/migrations.h
	@mkdir -p $$(@D)
	clang $$(CSTD) $$(WARN) $$(FUZZFLAGS) -MMD -MP -I$(1) $$(addprefix -I,$$(LAYER_INC_$(1))) -c -o $$@ $$<
$(call alib,$(1),fuzz/obj): $(call obj,$(call lib_srcs,$(1)),fuzz/obj)
	@rm -f $$@
	$$(AR) rcs $$@ $$^
$(call alib,$(1),obj): $(call obj,$(call lib_srcs,$(1)),obj)
	@rm -f $$@
	$$(AR) rcs $$@ $$^
$(call alib,$(1),asan/obj): $(call obj,$(call lib_srcs,$(1)),asan/obj)
	@rm -f $$@
	$$(AR) rcs $$@ $$^
endef
$(foreach L,$(LAYERS),$(eval $(call LAYER_RULES,$(L))))

# What the CLI links, top layer first (static libraries resolve downwards).
CLI_LAYERS := harness/jobs harness/report harness/compare harness/run kernels sim engine workloads collect db lib
cli_libs = $(foreach L,$(CLI_LAYERS),$(call alib,$(L),$(1)))

.PHONY: all deps test test-kernels test-bisect bench-record check-10k fuzz clean help print-layers

all: $(B)/rmapbench $(B)/rmapbench-load $(B)/rmapbench-sim $(B)/rmapbench-agent $(B)/rmapbench-bench $(B)/rmapbench-record

help:
	@echo "make              build the CLI, the static workload binary and the benchmarks"
	@echo "make deps         install missing Debian packages, those for building kernels too (or say which)"
	@echo "make test         every test, ending in 'N passed, N failed'"
	@echo "make test-kernels build legacy-anon-vma (cached), then compare it with stock in QEMU; a git tree's commits built incrementally and compared"
	@echo "make test-bisect  bisect a git history over linux-source-6.1 to the commit with 2.6.33's rules, twice (once interrupted), and a patch series"
	@echo "make bench-record what recording (make, bash, a PostgreSQL server under pgbench -C) and replaying cost here: a dated record in docs/results/"
	@echo "make check-10k    a 10,000-user aim7 point, then check nothing is left"
	@echo "make fuzz         10M differential engine operations, 10M under ENOMEM, hunts for avc-rc's faults, libFuzzer on traces and every parser"
	@echo "make clean        remove build/"

# The layering table, for tests/integration/layering.sh: "folder: allowed folders".
print-layers:
	@$(foreach L,$(LAYERS),echo "$(L): $(filter-out $(GEN),$(LAYER_INC_$(L)))";)

deps:
	@scripts/deps.sh --kernels

$(GEN)/migrations.h: db/schema.sql $(sort $(wildcard db/migrations/*.sql)) scripts/embed-sql.sh
	@mkdir -p $(@D)
	scripts/embed-sql.sh db/schema.sql $(sort $(wildcard db/migrations/*.sql)) > $@

$(B)/rmapbench: $(call obj,$(call srcs,harness/cli),obj) $(call cli_libs,obj)
	$(CC) $(HARDLD) -o $@ $^ $(LIBS)

$(B)/asan/rmapbench: $(call obj,$(call srcs,harness/cli),asan/obj) $(call cli_libs,asan/obj)
	$(CC) $(SAN) -o $@ $^ $(LIBS)

# The workload binary is static: it runs in guests with no libc of their own.
$(B)/rmapbench-load: $(B)/obj/workloads/main.o $(call alib,workloads,obj)
	$(CC) -static -o $@ $^ -lm

$(B)/asan/rmapbench-load: $(B)/asan/obj/workloads/main.o $(call alib,workloads,asan/obj)
	$(CC) $(SAN) -o $@ $^ -lm

# The engine target's simulator: the workloads on the engine, in virtual time.
$(B)/rmapbench-sim: $(B)/obj/sim/main.o $(call alib,sim,obj) $(call alib,engine,obj) $(call alib,workloads,obj)
	$(CC) $(HARDLD) -o $@ $^ -lm -pthread

$(B)/asan/rmapbench-sim: $(B)/asan/obj/sim/main.o $(call alib,sim,asan/obj) $(call alib,engine,asan/obj) \
			 $(call alib,workloads,asan/obj)
	$(CC) $(SAN) -o $@ $^ -lm -pthread

# The recorder: a program's anonymous memory as an engine trace.
$(B)/rmapbench-record: $(B)/obj/record/main.o $(call alib,record,obj)
	$(CC) $(HARDLD) -o $@ $^ -lz

$(B)/asan/rmapbench-record: $(B)/asan/obj/record/main.o $(call alib,record,asan/obj)
	$(CC) $(SAN) -o $@ $^ -lz

# The guest agent: static, with the harness's own collectors inside.
$(B)/rmapbench-agent: $(call obj,$(call srcs,kernels/agent),obj) $(call alib,kernels,obj) $(call alib,collect,obj) \
		      $(call alib,lib,obj)
	$(CC) -static -o $@ $^ -lpfm -lz -lm

# Microbenchmarks: C against bench/bench.h; bench/shim.cc is the only C++.
$(B)/obj/bench/shim.o: bench/shim.cc bench/bench.h $(GEN)/flags.rel
	@mkdir -p $(@D)
	$(CXX) -std=c++17 -Wall -Wextra -Werror -O2 -g $(HARDEN) -Ibench -c -o $@ $<
$(B)/rmapbench-bench: $(call obj,$(call srcs,bench),obj) $(B)/obj/bench/shim.o $(call alib,engine,obj) \
		      $(call alib,lib,obj)
	$(CXX) $(HARDLD) -o $@ $^ -lbenchmark -lpthread

# Unit tests (TAP, ASan+UBSan) link the sanitized libraries; a test may
# include any layer.
ALL_INC := $(addprefix -I,$(filter-out bench kernels/agent,$(LAYERS)) $(GEN) tests/unit)
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(patsubst tests/unit/%.c,$(B)/tests/%,$(UNIT_SRC))
$(B)/asan/obj/tests/%.o: tests/unit/%.c $(GEN)/flags.asan | $(GEN)/migrations.h
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(WARN) $(CFLAGS) $(SAN) -MMD -MP $(ALL_INC) -c -o $@ $<
$(B)/tests/%: $(B)/asan/obj/tests/%.o $(call cli_libs,asan/obj) $(call alib,record,asan/obj)
	@mkdir -p $(@D)
	$(CC) $(SAN) -o $@ $^ $(LIBS)

# The threaded engine under ThreadSanitizer, and libFuzzer over the trace
# parser and the engine behind it: both clang, the engine alone.
ENGINE_SRC := $(call srcs,engine)
$(B)/tests/tsan_threads: tests/tsan/test_threads.c tests/unit/tap.h $(ENGINE_SRC) engine/*.h
	@mkdir -p $(@D)
	clang $(CSTD) -Wall -Wextra -Werror -g -O1 -fsanitize=thread -Iengine -Itests/unit -o $@ $< $(ENGINE_SRC) -lpthread
$(B)/fuzz/trace_fuzzer: tests/fuzz/trace_fuzzer.c $(ENGINE_SRC) engine/*.h
	@mkdir -p $(@D)
	clang $(CSTD) -Wall -Wextra -Werror -g -O1 -fsanitize=fuzzer,address,undefined -Iengine -o $@ $< $(ENGINE_SRC) -lpthread

# libFuzzer over every parser of outside bytes (tests/fuzz/NAME_fuzzer.c,
# seeds in tests/fuzz/corpus-NAME/): guest frames, the guest's console,
# workload output, stress-ng's YAML, configs, kernel recipes, cache
# metadata, the walk calibration, an engine point's timeline, Google
# Benchmark's JSON, a kernel image's header and a kernel log's reports.
# (The trace fuzzer above takes the engine alone.)
PARSER_FUZZERS := frame console output yaml config recipe walkcalib timeline gbench bzimage gitrange maps klog folded
PARSER_FUZZ_BIN := $(patsubst %,$(B)/fuzz/%_fuzzer,$(PARSER_FUZZERS))
# the recorder's parser: its layer is not the CLI's
$(B)/fuzz/maps_fuzzer: tests/fuzz/maps_fuzzer.c record/maps.c record/maps.h tests/fuzz/fuzz.h
	@mkdir -p $(@D)
	clang $(CSTD) $(WARN) $(FUZZFLAGS) -fsanitize=fuzzer -Irecord -Itests/fuzz -o $@ $< record/maps.c
$(B)/fuzz/%_fuzzer: tests/fuzz/%_fuzzer.c tests/fuzz/fuzz.h $(call cli_libs,fuzz/obj)
	clang $(CSTD) $(WARN) $(FUZZFLAGS) -fsanitize=fuzzer $(ALL_INC) -Itests/fuzz -o $@ $< $(call cli_libs,fuzz/obj) $(LIBS)

# The bootstrap runs first, so that a fresh machine has the headers before
# anything compiles; then what the first lane's tests run is built on
# every CPU, and tests/run-all.sh runs the tests in two lanes (its header
# says how). The second lane builds its own first (the unit tests, the
# fuzzers, ThreadSanitizer's), while the first lane's tests run: each
# flavour is still built once.
NPROC := $(shell nproc 2>/dev/null || echo 2)
SECOND_LANE_BIN := $(UNIT_BIN) $(B)/fuzz/trace_fuzzer $(PARSER_FUZZ_BIN) $(B)/tests/tsan_threads
test:
	@scripts/deps.sh --test
	@$(MAKE) --no-print-directory -s -j$(NPROC) all $(B)/asan/rmapbench $(B)/asan/rmapbench-load $(B)/asan/rmapbench-sim \
		$(B)/asan/rmapbench-record
	@RMAPBENCH_SECOND_LANE_BUILD="$(MAKE) --no-print-directory -s -j$(NPROC) $(SECOND_LANE_BIN)" \
		tests/run-all.sh $(UNIT_BIN) $(B)/tests/tsan_threads

FUZZ_OPS     ?= 10000000
FUZZ_SECONDS ?= 300
SEED         ?= 2026
AVC_RC_FAULTS = dangling_anon_vma rmap_unreachable chain_order
fuzz: all $(B)/fuzz/trace_fuzzer $(PARSER_FUZZ_BIN)
	build/rmapbench engine fuzz --differential --ops $(FUZZ_OPS) --seed $(SEED)
	build/rmapbench engine fuzz --variant modern --inject-enomem --ops $(FUZZ_OPS) --seed $(SEED)
	@mkdir -p $(B)/fuzz/corpus
	@# avc-rc's three kinds of 2010 fault, hunted from random operations: the
	@# hunt exits 3 when it finds one, so anything else here is a failure.
	@for k in $(AVC_RC_FAULTS); do \
		build/rmapbench engine fuzz --variant avc-rc --until $$k --ops $(FUZZ_OPS) --seed $(SEED) \
			--trace-out $(B)/fuzz/avc-rc-$$k.trace; \
		rc=$$?; [ $$rc = 3 ] || { echo "make fuzz: avc-rc hunt for $$k exited $$rc, expected 3"; exit 1; }; \
	done
	$(B)/fuzz/trace_fuzzer -artifact_prefix=$(B)/fuzz/ -max_total_time=$(FUZZ_SECONDS) -max_len=4096 $(B)/fuzz/corpus tests/fuzz/corpus
	@# each parser gets a share of the budget, with its own growing corpus
	@for f in $(PARSER_FUZZERS); do \
		mkdir -p $(B)/fuzz/corpus-$$f; \
		$(B)/fuzz/$${f}_fuzzer -artifact_prefix=$(B)/fuzz/$$f- -max_total_time=$$(( $(FUZZ_SECONDS) / 3 )) \
			-max_len=65536 $(B)/fuzz/corpus-$$f tests/fuzz/corpus-$$f || exit 1; \
	done

test-kernels: all
	@tests/kernels/build_and_compare.sh
	@tests/kernels/git_builds.sh

test-bisect: all
	@tests/kernels/bisect.sh

bench-record: all
	@scripts/deps.sh --bench
	@scripts/bench-record.sh

check-10k: all $(B)/asan/rmapbench
	@bash tests/integration/users_10k.sh && echo "10,000 users: ok, nothing left"

clean:
	rm -rf $(B)

-include $(shell find $(B) -name '*.d' 2>/dev/null)
