# rmapbench. One target per thing a person wants to do; `make help` lists them.
CC      ?= cc
CSTD    := -std=c11 -D_GNU_SOURCE
# snprintf into fixed buffers truncates by design (paths, reasons): that one
# warning is off, everything else in -Wall -Wextra is an error.
WARN    := -Wall -Wextra -Werror -Wno-format-truncation
CFLAGS  ?= -O2 -g
REV     := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)$(shell git diff --quiet HEAD 2>/dev/null || echo -dirty)
ALLCFLAGS = $(CSTD) $(WARN) $(CFLAGS) -Iworkloads -Iharness -Idb -Iengine -Ikernels -Ibuild/gen -DRMAPBENCH_REV='"$(REV)"'
SAN     := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
B       := build

LOAD_SRC    := $(wildcard workloads/*.c)
DB_SRC      := db/db.c
ENGINE_SRC  := $(wildcard engine/*.c)
KERNELS_SRC := $(wildcard kernels/*.c)
HARNESS_LIB := $(filter-out harness/main.c,$(wildcard harness/*.c)) $(DB_SRC) $(ENGINE_SRC) $(KERNELS_SRC)
# The guest agent: static, with the harness's own collectors inside.
AGENT_SRC   := $(wildcard kernels/agent/*.c) kernels/frame.c harness/collect_cpu.c harness/collect_vmstat.c \
	       harness/collect_lock.c harness/lockstat.c harness/sample.c harness/util.c
HARNESS_SRC := harness/main.c $(HARNESS_LIB) $(filter-out workloads/main.c,$(LOAD_SRC))
MIGRATIONS  := db/schema.sql $(sort $(wildcard db/migrations/*.sql))
LIBS        := -lsqlite3 -lpfm -lm -pthread

.PHONY: all deps test test-kernels check-10k fuzz clean help

all: $(B)/rmapbench $(B)/rmapbench-load $(B)/rmapbench-agent $(B)/rmapbench-bench

help:
	@echo "make              build the CLI, the static workload binary and the benchmarks"
	@echo "make deps         install missing Debian packages (or say which)"
	@echo "make test         every test, ending in 'N passed, N failed'"
	@echo "make test-kernels build legacy-anon-vma (cached), then compare it with stock in QEMU"
	@echo "make check-10k    a 10,000-user aim7 point, then check nothing is left"
	@echo "make fuzz         10M differential engine operations, 10M under ENOMEM, hunts for avc-rc's faults, libFuzzer on traces"
	@echo "make clean        remove build/"

deps:
	@scripts/deps.sh

$(B)/gen/migrations.h: $(MIGRATIONS) scripts/embed-sql.sh
	@mkdir -p $(@D)
	scripts/embed-sql.sh $(MIGRATIONS) > $@

$(B)/rmapbench-load: $(LOAD_SRC) workloads/*.h
	@mkdir -p $(@D)
	$(CC) $(ALLCFLAGS) -static -o $@ $(LOAD_SRC) -lm

$(B)/rmapbench-agent: $(AGENT_SRC) kernels/agent/*.h kernels/*.h harness/*.h
	@mkdir -p $(@D)
	$(CC) $(ALLCFLAGS) -Ikernels/agent -static -o $@ $(AGENT_SRC) -lm

$(B)/rmapbench: $(HARNESS_SRC) harness/*.h db/*.h engine/*.h kernels/*.h $(B)/gen/migrations.h
	$(CC) $(ALLCFLAGS) -o $@ $(HARNESS_SRC) $(LIBS)

# Microbenchmarks: C against bench/bench.h; bench/shim.cc is the only C++.
BENCH_C := $(filter-out bench/shim.cc,$(wildcard bench/*.c))
$(B)/bench/shim.o: bench/shim.cc bench/bench.h
	@mkdir -p $(@D)
	$(CXX) -std=c++17 -Wall -Wextra -Werror -O2 -g -Ibench -c -o $@ $<

BENCH_OBJ := $(patsubst bench/%.c,$(B)/bench/%.o,$(BENCH_C)) $(patsubst engine/%.c,$(B)/bench/engine-%.o,$(ENGINE_SRC))
$(B)/bench/%.o: bench/%.c bench/bench.h engine/*.h
	@mkdir -p $(@D)
	$(CC) $(ALLCFLAGS) -Ibench -c -o $@ $<
$(B)/bench/engine-%.o: engine/%.c engine/*.h
	@mkdir -p $(@D)
	$(CC) $(ALLCFLAGS) -c -o $@ $<
$(B)/rmapbench-bench: $(BENCH_OBJ) $(B)/bench/shim.o
	$(CXX) -o $@ $^ -lbenchmark -lpthread

# The same sources under ASan+UBSan, for the tests.
$(B)/asan/rmapbench: $(HARNESS_SRC) harness/*.h db/*.h engine/*.h kernels/*.h $(B)/gen/migrations.h
	@mkdir -p $(@D)
	$(CC) $(ALLCFLAGS) $(SAN) -o $@ $(HARNESS_SRC) $(LIBS)

$(B)/asan/rmapbench-load: $(LOAD_SRC) workloads/*.h
	@mkdir -p $(@D)
	$(CC) $(ALLCFLAGS) $(SAN) -o $@ $(LOAD_SRC) -lm

UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(patsubst tests/unit/%.c,$(B)/tests/%,$(UNIT_SRC))

$(B)/tests/%: tests/unit/%.c tests/unit/tap.h $(HARNESS_LIB) $(filter-out workloads/main.c,$(LOAD_SRC)) harness/*.h db/*.h engine/*.h kernels/*.h $(B)/gen/migrations.h
	@mkdir -p $(@D)
	$(CC) $(ALLCFLAGS) $(SAN) -Itests/unit -o $@ $< $(HARNESS_LIB) $(filter-out workloads/main.c,$(LOAD_SRC)) $(LIBS)

# The bootstrap runs first, so that a fresh machine has the headers before
# anything compiles.
test:
	@scripts/deps.sh
	@$(MAKE) --no-print-directory -s all $(B)/asan/rmapbench $(B)/asan/rmapbench-load $(UNIT_BIN) $(B)/fuzz/trace_fuzzer $(B)/tests/tsan_threads
	@tests/run-all.sh $(UNIT_BIN) $(B)/tests/tsan_threads

# The threaded engine under ThreadSanitizer (clang's runtime).
$(B)/tests/tsan_threads: tests/tsan/test_threads.c tests/unit/tap.h $(ENGINE_SRC) engine/*.h
	@mkdir -p $(@D)
	clang $(CSTD) -Wall -Wextra -Werror -g -O1 -fsanitize=thread -Iengine -Itests/unit -o $@ $< $(ENGINE_SRC) -lpthread

# libFuzzer over the trace parser and the engine behind it (clang only).
$(B)/fuzz/trace_fuzzer: tests/fuzz/trace_fuzzer.c $(ENGINE_SRC) engine/*.h
	@mkdir -p $(@D)
	clang $(CSTD) -Wall -Wextra -Werror -g -O1 -fsanitize=fuzzer,address,undefined -Iengine -o $@ $< $(ENGINE_SRC) -lpthread

FUZZ_OPS     ?= 10000000
FUZZ_SECONDS ?= 300
SEED         ?= 2026
AVC_RC_FAULTS = dangling_anon_vma rmap_unreachable chain_order
fuzz: all $(B)/fuzz/trace_fuzzer
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

test-kernels: all
	@tests/kernels/build_and_compare.sh

check-10k: all $(B)/asan/rmapbench
	@bash tests/integration/users_10k.sh && echo "10,000 users: ok, nothing left"

clean:
	rm -rf $(B)
