#!/usr/bin/env sh
# Applies .clang-format to every C++ file of the project, or with --check only says which differ (exit 1).
# `make format` applies it; the test code_is_formatted checks it. CLANG_FORMAT names the binary.
set -eu
cd "$(dirname "$0")/.."
clang_format=${CLANG_FORMAT:-clang-format}
if ! command -v "$clang_format" >/dev/null 2>&1; then
    echo "clang-format not found (make deps installs it)" >&2
    exit 1
fi
files() { find src app ui tests fuzz tools packaging \( -name '*.cpp' -o -name '*.h' -o -name '*.c' \) -print; }
if [ "${1:-}" = "--check" ]; then
    files | xargs "$clang_format" --dry-run --Werror
else
    files | xargs "$clang_format" -i
fi
