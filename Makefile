# Thin wrapper over CMake (in the style of neovim's top-level Makefile).
#   make demo   install the missing packages the demo needs, configure, build, run the main job:
#               the derivative table, then the side-by-side bend comparison
#               (lua/scenarios/bend_compare.lua)
#   make test   install the missing packages the tests need too, configure, build, run every
#               test; then build again with AddressSanitizer + UndefinedBehaviorSanitizer
#               (build-asan/) and run every test there too (what CI runs)
#   make test-quick   every test once, in the normal build only
#   make fuzz   build the libFuzzer targets with clang (build-fuzz/) and run each for
#               FUZZ_SECONDS (default 60) after replaying tests/fuzz/regress/, JOBS at a time
#               (part of make test)
#   make corpus the whole mutation corpus (tests/test_corpus.c --all): every variant, both
#               contracts, its confusion table (make test-quick runs a subset)
#   make install PREFIX=P   build, then install the C library for your own tests under P
#               (default /usr/local): lib/libclothcheck.so and .a, include/clothcheck/clothcheck.h,
#               lib/pkgconfig/clothcheck.pc, lib/cmake/clothcheck/ (docs/api.md)
# Variables: BUILD_TYPE=Release|Debug, SANITIZE=ON, BUILD_DIR=build, NATIVE=OFF (portable
#            x86-64 instead of x86-64-v3 where the building CPU has AVX2; see CMakeLists.txt),
#            DEPS=demo|test (the package set .ci/install-deps checks: test when a goal is one
#            of TEST_GOALS, else demo; README.md lists both for other systems)
BUILD_TYPE ?= Release
SANITIZE   ?= OFF
NATIVE     ?= ON
BUILD_DIR  ?= build
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
FUZZ_SECONDS ?= 60
PREFIX     ?= /usr/local
MAKEFLAGS  += --no-print-directory
# goals that run tests, so need the test set of packages (g++, python3, clang + libFuzzer,
# valgrind); everything else (build, demo, bench, install) the demo set. One set per make run:
# make demo test checks the test set once.
TEST_GOALS := test test-quick test-sanitize fuzz corpus
DEPS       ?= $(if $(filter $(TEST_GOALS),$(MAKECMDGOALS)),test,demo)

.PHONY: all deps configure build demo test test-quick test-sanitize fuzz bench corpus install clean

all: build

deps:
	@sh .ci/install-deps $(DEPS)

configure: deps
	@cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DCC_SANITIZE=$(SANITIZE) -DCC_NATIVE=$(NATIVE) >/dev/null

build: configure
	@cmake --build $(BUILD_DIR) -j $(JOBS)

demo: build
	@$(BUILD_DIR)/clothcheck demo
	@$(BUILD_DIR)/clothcheck run lua/scenarios/bend_compare.lua

test: test-quick test-sanitize fuzz

test-quick: build
	@cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS)

# the whole suite again under the sanitizers (a Debug build: checks are not optimised away)
test-sanitize: deps
	@$(MAKE) test-quick BUILD_DIR=build-asan SANITIZE=ON BUILD_TYPE=Debug

# libFuzzer: the --x/--uv parser, the OBJ reader and Lua scripts (docs/reliability.md)
fuzz: deps
	@cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCC_FUZZ=ON -DCC_NATIVE=OFF >/dev/null
	@cmake --build build-fuzz -j $(JOBS) --target fuzz_points fuzz_obj fuzz_lua fuzz_json
	@sh tests/fuzz/run.sh build-fuzz $(FUZZ_SECONDS) $(JOBS)

bench: build
	@$(BUILD_DIR)/clothcheck bench

corpus: build
	@$(BUILD_DIR)/test_corpus --all

install: build
	@cmake --install $(BUILD_DIR) --prefix $(PREFIX)

clean:
	rm -rf $(BUILD_DIR) build-asan build-fuzz
