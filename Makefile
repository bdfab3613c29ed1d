# NATS MQTT Doctor: the two commands of the README are `make demo` and `make test`.
# Both install what is missing (Debian 12, as root or with sudo), fetch the extra nats-server
# versions, configure and build.

# Two trees: BUILD holds what users run (`make build`, `make demo`, `make bench`): the application, the
# CLI and the demo, optimised (RelWithDebInfo: -O2 with line tables, so a crash report still names
# file:line), warnings not fatal (a newer compiler's new warning must not stop an install). TEST_BUILD
# is the Debug tree of every test (`make test`), warnings fatal. The extra nats-server versions are
# fetched once into $(BUILD)/nats-servers; the other trees link to them.
BUILD      ?= build
TEST_BUILD ?= $(BUILD)-debug
JOBS       ?= 2
BUILD_TYPE ?= RelWithDebInfo
RELEASE_CMAKE = -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" -DMQTTDOCTOR_WARNINGS_AS_ERRORS=OFF
# What `make build` builds (the benchmarks are built by `make bench`).
USER_TARGETS := nats-mqtt-doctor nats-mqtt-doctor-cli nats-mqtt-doctor-demo
SERVERS_DIR = $(BUILD)/nats-servers
# Debug info of the Debug trees (tests and sanitizers): line tables only (-g1), enough for file:line in
# backtraces and sanitizer reports, and ~20% less compile time than -g (5.1 -> 4.3 s for a core file
# on the 2-core CI machine). DEBUG_FLAGS=-g for a tree to step through with gdb; it applies when a
# tree is configured (a new TEST_BUILD folder; the sanitizer trees are configured on every run).
DEBUG_FLAGS ?= -g1
DEBUG_CMAKE = -DCMAKE_C_FLAGS_DEBUG=$(DEBUG_FLAGS) -DCMAKE_CXX_FLAGS_DEBUG=$(DEBUG_FLAGS)
# Sanitizer trees, clang, non-GUI targets only. ASAN_BUILD also holds the libFuzzer targets.
ASAN_BUILD ?= $(BUILD)-asan
TSAN_BUILD ?= $(BUILD)-tsan
# Seconds per fuzz target: FUZZ_SECONDS for `make fuzz`, FUZZ_TEST_SECONDS inside `make test`.
FUZZ_SECONDS ?= 60
FUZZ_TEST_SECONDS ?= 5
# SANITIZERS=0 skips the sanitizer and fuzz phases of `make test` (quick local runs; CI keeps them).
SANITIZERS ?= 1
# With the sanitizer phases on, the integration tests (the slow ones, ~5 min) run once, in the
# ASan+UBSan tree, to stay within CI's 20 minutes; SANITIZERS=0 runs them in the main tree instead.
ifeq ($(SANITIZERS),0)
MAIN_CTEST_ARGS ?=
else
MAIN_CTEST_ARGS ?= -LE integration
endif
# The integration tests mostly wait for nats-server: the sanitizer trees run more of them at once.
SAN_TEST_JOBS ?= 3
# The tests that exercise the nats.c callback bridge, the stream reader, the decode workers, the
# requests gathered several at once, the accounts read in parallel, and the GUI controllers handing
# workers' results to the GUI thread (built without widgets: MQTTDOCTOR_BUILD_CONTROLLERS).
TSAN_TESTS := tst_streamreader tst_records tst_connectionerrors tst_discovery tst_checkaccounts tst_jszcollector \
    tst_guidelivery tst_clustercontroller tst_accountdatacontroller tst_recordsweep tst_activityfeed tst_repaircontroller \
    tst_upgradecheckcontroller
# Non-GUI targets, the core as a unity build, warnings not fatal (they are in the main build).
SAN_CMAKE := -G Ninja -DCMAKE_BUILD_TYPE=Debug $(DEBUG_CMAKE) -DMQTTDOCTOR_BUILD_GUI=OFF -DMQTTDOCTOR_WARNINGS_AS_ERRORS=OFF \
    -DMQTTDOCTOR_UNITY_CORE=ON
# ASan+UBSan and libFuzzer with clang; TSan with gcc: clang 14's TSan runtime aborts in QProcess
# (Qt 6.4's forkfd clone: "CHECK failed: tsan_rtl.cpp:234"), gcc 12's libtsan does not.
ASAN_CMAKE := $(SAN_CMAKE) -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
    -DMQTTDOCTOR_SANITIZE=address -DMQTTDOCTOR_FUZZ=ON
TSAN_CMAKE := $(SAN_CMAKE) -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++ -DMQTTDOCTOR_SANITIZE=thread \
    -DMQTTDOCTOR_BUILD_CONTROLLERS=ON

# qt6-svg-dev: the GUI's icons are SVG, drawn by Qt's SVG plugins (and the package's icon PNGs are
# rendered from the SVG). graphviz: every build renders the architecture diagram
# (docs/architecture/layers.dot) and its test checks it. The last line: what `make package` and its
# test need (dpkg-dev's dpkg-shlibdeps finds the package's dependencies; the checkers of the package's files).
DEB_PACKAGES := cmake ninja-build g++ pkg-config make \
    qt6-base-dev qt6-base-dev-tools libqt6concurrent6 libgl-dev qtkeychain-qt6-dev qt6-charts-dev libqt6opengl6-dev qt6-svg-dev \
    libqt6sql6-sqlite libnats-dev libssl-dev openssl libmosquitto-dev \
    clang libclang-rt-dev llvm lld clang-format clang-tidy \
    nats-server mosquitto-clients python3-prometheus-client python3-jsonschema prometheus graphviz \
    xvfb xauth ca-certificates \
    dpkg-dev lintian desktop-file-utils appstream man-db bsdextrautils

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps servers configure build package configure-test build-test test test-main test-asan test-tsan fuzz demo bench \
    format tidy clean

all: build

# Installs only what is missing; quick when everything is there.
deps:
	@missing=$$(for p in $(DEB_PACKAGES); do \
	    dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed$$' || echo $$p; \
	  done); \
	if [ -n "$$missing" ]; then \
	  echo "Installing missing Debian packages:" $$missing; \
	  $(SUDO) apt-get update && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y --no-install-recommends $$missing; \
	fi

# nats-server 2.10.x (trixie) and the newest (sid), next to Debian 12's installed 2.9.10.
servers: deps
	@scripts/fetch-nats-servers.sh $(SERVERS_DIR)

# Configured again when the tree was made with another build type (a Debug `build` of an older checkout).
configure: deps
	@if [ ! -f $(BUILD)/build.ninja ] || ! grep -qx 'CMAKE_BUILD_TYPE:STRING=$(BUILD_TYPE)' $(BUILD)/CMakeCache.txt; then \
	  cmake -S . -B $(BUILD) -G Ninja $(RELEASE_CMAKE); \
	fi

build: configure servers
	cmake --build $(BUILD) -j$(JOBS) --target $(USER_TARGETS)

# The Debian package of the optimised programs, with their man pages, completion, icons, desktop and
# AppStream files: $(BUILD)/nats-mqtt-doctor_<version>_<arch>.deb (`apt install ./<that file>`).
# `make test` builds and checks the same package from the test tree (CTest package_deb).
package: configure
	cmake --build $(BUILD) -j$(JOBS) --target nats-mqtt-doctor nats-mqtt-doctor-cli mqttdoctor_package_data
	cd $(BUILD) && cpack -G DEB

configure-test: deps
	@if [ ! -f $(TEST_BUILD)/build.ninja ]; then \
	  cmake -S . -B $(TEST_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Debug $(DEBUG_CMAKE); \
	fi

build-test: configure-test servers
	@ln -sfn "$$(cd $(SERVERS_DIR) && pwd)" $(TEST_BUILD)/nats-servers
	cmake --build $(TEST_BUILD) -j$(JOBS)

# The normal tree's tests, then (unless SANITIZERS=0) the same unit and integration tests under
# ASan+UBSan with a short run of every fuzz target, then the threaded tests under TSan. Each phase
# prints its time; any sanitizer report, in a test or in a process it started, fails the run.
test: test-main
	@if [ "$(SANITIZERS)" != 0 ]; then $(MAKE) --no-print-directory test-asan test-tsan; fi

test-main: build-test
	@start=$$(date +%s); \
	ctest --test-dir $(TEST_BUILD) --output-on-failure -j$(JOBS) $(MAIN_CTEST_ARGS); rc=$$?; \
	echo "== phase tests ($(TEST_BUILD)): $$(( $$(date +%s) - start )) s"; exit $$rc

# ASan+UBSan tree: configure, build, run labels unit, integration and fuzz, check the logs.
test-asan: deps servers
	@cmake/sanitizers/phase.sh build $(ASAN_BUILD) $(SERVERS_DIR) $(JOBS) \
	    $(ASAN_CMAKE) -DMQTTDOCTOR_FUZZ_SECONDS=$(FUZZ_TEST_SECONDS)
	@cmake/sanitizers/phase.sh test $(ASAN_BUILD) $(SAN_TEST_JOBS) -L 'unit|integration|fuzz'

# TSan tree: only the threaded tests and what they run (the CLI).
test-tsan: deps servers
	@cmake/sanitizers/phase.sh build $(TSAN_BUILD) $(SERVERS_DIR) $(JOBS) \
	    $(TSAN_CMAKE) -- $(TSAN_TESTS) nats-mqtt-doctor-cli
	@MQTTDOCTOR_TEST_VERSIONS=newest cmake/sanitizers/phase.sh test $(TSAN_BUILD) $(SAN_TEST_JOBS) -R '^($(shell echo $(TSAN_TESTS) | tr ' ' '|'))$$'

# Every fuzz target for FUZZ_SECONDS (new inputs stay in $(ASAN_BUILD)/fuzz/corpus, crashes in
# $(ASAN_BUILD)/fuzz/artifacts: copy a crash into fuzz/crashes/<target>/ once it is fixed).
fuzz: deps
	@cmake/sanitizers/phase.sh build $(ASAN_BUILD) $(SERVERS_DIR) $(JOBS) \
	    $(ASAN_CMAKE) -DMQTTDOCTOR_FUZZ_SECONDS=$(FUZZ_SECONDS)
	@cmake/sanitizers/phase.sh test $(ASAN_BUILD) $(JOBS) -L fuzz

demo: build
	scripts/demo.sh $(BUILD)

# Benchmarks measure the binaries users run: the optimised tree.
bench: configure servers
	cmake --build $(BUILD) -j$(JOBS) --target benchmarks
	@scripts/run-benchmarks.sh $(BUILD)

# The C++ files in the style of .clang-format (the test code_is_formatted checks the same files).
format: deps
	scripts/format.sh

# The checks of .clang-tidy over the core and the CLI, in a tree of their own (clang, no precompiled
# headers, nothing built); any warning fails.
TIDY_BUILD ?= $(BUILD)-tidy
tidy: deps
	cmake -S . -B $(TIDY_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
	    -DCMAKE_DISABLE_PRECOMPILE_HEADERS=ON -DMQTTDOCTOR_BUILD_GUI=OFF
	run-clang-tidy -p $(TIDY_BUILD) -quiet -j$(JOBS) '$(CURDIR)/(src|app/cli)/.*\.cpp$$'

clean:
	rm -rf $(BUILD) $(TEST_BUILD) $(ASAN_BUILD) $(TSAN_BUILD) $(TIDY_BUILD)
