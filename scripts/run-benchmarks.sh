#!/usr/bin/env bash
# Runs every benchmark executable (tests/bench, built as bench_*): each runs the same work through
# our code and through a baseline and prints both figures and their ratio. Arguments after the build
# directory go to every benchmark (e.g. `scripts/run-benchmarks.sh build-release --runs 9`).
set -euo pipefail
build=${1:-build}
shift || true
shopt -s nullglob
benches=("$build"/bench/bench_*)
if [ ${#benches[@]} -eq 0 ]; then
    echo "No benchmarks yet."
    exit 0
fi
for b in "${benches[@]}"; do
    echo "== $(basename "$b")"
    MQTTDOCTOR_NATS_SERVERS_DIR="$build/nats-servers" "$b" "$@"
done
