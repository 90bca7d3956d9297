# SPDX-License-Identifier: BSD-3-Clause
# Top-level driver: `make demo` solves the built-in problem, `make check` runs the tests.
# Both check (and on Debian as root install) their dependencies first.
BUILD ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=

.PHONY: all deps build demo check check-fpe asan valgrind tsan fuzz oclgrind mpich openfoam install bench bench-quick bench-gpu gpu-bundle clean

all: build

deps:
	@scripts/deps.sh

build: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)
	cmake --build $(BUILD) -j $(JOBS)

demo: build
	$(BUILD)/bin/hpls solve

check: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# Every unit test (the cmocka executables, each backend variant) with the floating-point
# exceptions OpenFOAM traps enabled (tests/util/fpe.c): a division by zero, an invalid
# operation or an overflow anywhere in the library fails the test with SIGFPE.
check-fpe: build
	cd $(BUILD) && HPLS_TEST_TRAP_FPE=1 ctest --output-on-failure -j $(JOBS) -R '^test_'

# The same tests under AddressSanitizer and UndefinedBehaviorSanitizer.
asan:
	@$(MAKE) --no-print-directory check BUILD=build-asan CMAKE_FLAGS="-DHPLS_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug"

# A subset of the tests under valgrind memcheck (scripts/valgrind.sh); the cuda module
# is compiled once in CI, by make check, so not here.
valgrind:
	@scripts/deps.sh --valgrind
	@$(MAKE) --no-print-directory build BUILD=build-vg CMAKE_FLAGS="-DCMAKE_BUILD_TYPE=Debug -DHPLS_CUDA=OFF"
	scripts/valgrind.sh build-vg

# The OpenMP paths that share data under ThreadSanitizer (clang + libomp + Archer).
tsan: deps
	scripts/tsan.sh build-tsan

# libFuzzer targets (tests/fuzz), FUZZ_SECONDS each: a crash, leak, hang or
# sanitizer report fails.
FUZZ_SECONDS ?= 60
fuzz:
	tests/fuzz/run.sh build-fuzz $(FUZZ_SECONDS)

# Every opencl kernel under Oclgrind --data-races, and a removed barrier that
# it must report (tests/oclgrind/run.sh).
oclgrind:
	@scripts/deps.sh --opencl
	@$(MAKE) --no-print-directory build CMAKE_FLAGS="-DHPLS_OPENCL=ON"
	tests/oclgrind/run.sh $(BUILD)

# The MPI tests again on a build against MPICH instead of Open MPI (scripts/mpich_tests.sh).
mpich:
	scripts/mpich_tests.sh build-mpich

# hpls as OpenFOAM's linear solver (issue 31): Debian's openfoam and the headers of its
# source package (scripts/openfoam_deps.sh, cached outside the repository),
# build-openfoam/libhplsFoam.so (integrations/openfoam), the tutorials against
# OpenFOAM's own solvers (tests/e2e/openfoam.sh).
openfoam: build
	@scripts/openfoam_deps.sh >/dev/null
	$(MAKE) -C integrations/openfoam FOAM_SRC="$$(scripts/openfoam_deps.sh 2>/dev/null | tail -n 1)" \
	    HPLS_BUILD=$(abspath $(BUILD)) OUT=$(abspath build-openfoam)
	HPLS_FOAM_LIB=$(abspath build-openfoam)/libhplsFoam.so tests/e2e/openfoam.sh $(BUILD)/bin/hpls

# make install PREFIX=$HOME/.local: under a prefix of your own (default: CMake's, /usr/local)
install: build
	cmake --install $(BUILD) $(if $(PREFIX),--prefix $(PREFIX))

bench: build
	@scripts/deps.sh --bench
	bench/run_all.sh $(BUILD)

# A few minutes on your own machine: hpls against PETSc, a plain -O3 CSR loop and
# the triad on 3 generated matrices, ratios printed (bench/quick.sh; publishes nothing).
bench-quick: build
	bench/quick.sh $(BUILD)

# On a machine with a GPU: the GPU performance model's table measured there
# (bench/gpu_measured.sh; it refuses to run without a GPU, PoCL's CPU device
# included), published as bench/results/gpu_measured.md.
bench-gpu: build
	bench/run_all.sh $(BUILD) gpu_measured

# What a first GPU host needs (docs/gpu.md, "On a first GPU host"): a build of
# $(GPU_BUILD) without MPI whose programs look for their libraries in $ORIGIN/../lib/deps,
# then scripts/gpu_bundle.sh: gpu-bundle/ and gpu-bundle.tar.gz (hpls, the device
# suite, the cuda module, the libraries they need but glibc, gpu_smoke.sh), checked
# to point nowhere on this machine and to stay under 64 MiB.  Needs nvcc here.
GPU_BUILD ?= build-gpu
gpu-bundle: deps
	cmake -S . -B $(GPU_BUILD) -DCMAKE_BUILD_TYPE=Release -DHPLS_CUDA=ON -DHPLS_MPI=OFF \
	    -DCMAKE_BUILD_WITH_INSTALL_RPATH=ON '-DCMAKE_INSTALL_RPATH=$$ORIGIN/../lib/deps' \
	    -DCMAKE_EXE_LINKER_FLAGS=-Wl,--disable-new-dtags
	cmake --build $(GPU_BUILD) -j $(JOBS) --target hpls_cmd test_opencl hpls_cuda
	scripts/gpu_bundle.sh $(GPU_BUILD) gpu-bundle

clean:
	rm -rf build build-asan build-vg build-tsan build-fuzz build-openfoam build-gpu gpu-bundle gpu-bundle.tar.gz
