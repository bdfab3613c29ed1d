# NATS MQTT Doctor: the two commands of the README are `make demo` and `make test`.
# Both install what is missing (Debian 12, as root or with sudo), fetch the extra nats-server
# versions, configure and build.

BUILD      ?= build
JOBS       ?= 2
BUILD_TYPE ?= Debug
BENCH_BUILD ?= $(BUILD)-release

DEB_PACKAGES := cmake ninja-build g++ pkg-config make \
    qt6-base-dev qt6-base-dev-tools libqt6concurrent6 libgl-dev qtkeychain-qt6-dev \
    libnats-dev libssl-dev openssl \
    nats-server mosquitto-clients \
    xvfb xauth ca-certificates

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps servers configure build test demo bench clean

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
	@scripts/fetch-nats-servers.sh $(BUILD)/nats-servers

configure: deps
	@if [ ! -f $(BUILD)/build.ninja ]; then \
	  cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=$(BUILD_TYPE); \
	fi

build: configure servers
	cmake --build $(BUILD) -j$(JOBS)

test: build
	ctest --test-dir $(BUILD) --output-on-failure -j$(JOBS)

demo: build
	scripts/demo.sh $(BUILD)

# Benchmarks are measured on an optimised build of their own.
bench: deps servers
	@if [ ! -f $(BENCH_BUILD)/build.ninja ]; then \
	  cmake -S . -B $(BENCH_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release; \
	fi
	cmake --build $(BENCH_BUILD) -j$(JOBS)
	@ln -sfn ../$(BUILD)/nats-servers $(BENCH_BUILD)/nats-servers 2>/dev/null || true
	@scripts/run-benchmarks.sh $(BENCH_BUILD)

clean:
	rm -rf $(BUILD) $(BENCH_BUILD)
