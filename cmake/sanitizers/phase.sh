#!/usr/bin/env bash
# One sanitizer phase of `make test` / `make fuzz`, timed.
#   phase.sh build DIR SERVERS_DIR JOBS CMAKE_ARGS... [-- TARGETS...]   configure (always: quick) and build
#   phase.sh test  DIR JOBS CTEST_ARGS...                              run ctest, then fail on any report
# Sanitizer reports are written to DIR/sanitizer-logs/ (log_path in the test environment), so a report
# of a child process (the CLI run by a test) fails the phase even when the test passed.
set -euo pipefail
cd "$(dirname "$0")/../.."

mode=${1:?usage: phase.sh build|test DIR ...}
shift
case $mode in
build)
    dir=$1 servers=$2 jobs=$3
    shift 3
    args=() targets=()
    while [ $# -gt 0 ]; do
        if [ "$1" = -- ]; then shift; targets=("$@"); break; fi
        args+=("$1"); shift
    done
    start=$(date +%s)
    cmake -S . -B "$dir" "${args[@]}" >/dev/null
    mkdir -p "$servers"
    ln -sfn "$(cd "$servers" && pwd)" "$dir/nats-servers"
    if [ ${#targets[@]} -gt 0 ]; then
        cmake --build "$dir" -j"$jobs" --target "${targets[@]}"
    else
        cmake --build "$dir" -j"$jobs"
    fi
    echo "== phase build ($dir): $(( $(date +%s) - start )) s"
    ;;
test)
    dir=$1 jobs=$2
    shift 2
    logs=$dir/sanitizer-logs
    mkdir -p "$logs"
    find "$logs" -type f -delete
    start=$(date +%s)
    rc=0
    ctest --test-dir "$dir" --output-on-failure -j"$jobs" "$@" || rc=$?
    reports=$(find "$logs" -type f | sort)
    if [ -n "$reports" ]; then
        echo "== sanitizer reports in $logs:"
        for f in $reports; do
            echo "---- $f"
            head -n 80 "$f"
        done
        rc=1
    fi
    echo "== phase tests ($dir $*): $(( $(date +%s) - start )) s"
    exit $rc
    ;;
*)
    echo "phase.sh: unknown mode $mode" >&2
    exit 2
    ;;
esac
