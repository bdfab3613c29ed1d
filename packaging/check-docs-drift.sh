#!/usr/bin/env bash
# check-docs-drift.sh DOCGEN TABLE.json docs/cli.md (CTest docs_cli_drift_is_caught): the check of
# docs/cli.md against the CLI's command table fails, naming what differs, on two drifted copies: one
# without the servers command's section, one whose streams heading names an option the CLI lacks.
set -uo pipefail
docgen=$1 table=$2 docs=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/docs-drift.XXXXXX")
trap 'rm -rf "$work"' EXIT
failures=0

"$docgen" check-docs --table "$table" --docs "$docs" >/dev/null || { echo "FAIL: docs/cli.md itself differs"; failures=$((failures + 1)); }

grep -q '^### `servers`' "$docs" || { echo "FAIL: docs/cli.md has no servers section to remove"; exit 1; }
sed '/^### `servers`/d' "$docs" >"$work/no-section.md"
if "$docgen" check-docs --table "$table" --docs "$work/no-section.md" 2>"$work/err"; then
    echo "FAIL: a missing command section passed"; failures=$((failures + 1))
elif ! grep -q 'the command servers has no' "$work/err"; then
    echo "FAIL: the missing section is not named: $(cat "$work/err")"; failures=$((failures + 1))
else
    echo "ok: missing command section caught"
fi

sed 's/^### `streams \[--account A\]`/### `streams [--account A] [--gone-option]`/' "$docs" >"$work/gone-option.md"
cmp -s "$docs" "$work/gone-option.md" && { echo "FAIL: docs/cli.md has no streams heading to change"; exit 1; }
if "$docgen" check-docs --table "$table" --docs "$work/gone-option.md" 2>"$work/err"; then
    echo "FAIL: an option the CLI lacks passed"; failures=$((failures + 1))
elif ! grep -q 'names --gone-option' "$work/err"; then
    echo "FAIL: the gone option is not named: $(cat "$work/err")"; failures=$((failures + 1))
else
    echo "ok: documented option the CLI lacks caught"
fi
[ "$failures" = 0 ]
