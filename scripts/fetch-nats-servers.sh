#!/usr/bin/env bash
# Fetches the newer nats-server binaries that the test matrix needs from Debian's
# own archive, without installing them and without touching the system's apt configuration:
# trixie's 2.10.x and sid's newest.
#
# Usage: fetch-nats-servers.sh OUTDIR
# Result: OUTDIR/<suite>/nats-server and OUTDIR/versions.txt ("<suite> <version>" per line).
# Idempotent: a suite whose binary is already there and runs is not fetched again.
set -euo pipefail

out=${1:?usage: $0 OUTDIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)

# The mirror host comes from the machine's own apt sources, never from this repository.
mirror=""
for f in /etc/apt/sources.list.d/*.sources; do
    [ -e "$f" ] || continue
    mirror=$(awk '/^URIs:/ { for (i = 2; i <= NF; i++) if ($i ~ /\/debian\/?$/) { print $i; exit } }' "$f")
    [ -n "$mirror" ] && break
done
if [ -z "$mirror" ]; then
    mirror=$(grep -hsE '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
        | awk '{ for (i = 2; i <= NF; i++) if ($i ~ /^https?:\/\/.*\/debian\/?$/) { print $i; exit } }' | head -n1)
fi
if [ -z "$mirror" ]; then
    echo "fetch-nats-servers: no Debian mirror found in /etc/apt/sources.list*" >&2
    exit 1
fi
mirror=${mirror%/}

: > "$out/versions.txt.new"
for suite in trixie sid; do
    dir="$out/$suite"
    bin="$dir/nats-server"
    if [ -x "$bin" ] && ver=$("$bin" --version 2>/dev/null); then
        echo "$suite ${ver#nats-server: }" >> "$out/versions.txt.new"
        continue
    fi
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    mkdir -p "$work/lists/partial" "$work/archives/partial"
    echo "deb $mirror $suite main" > "$work/sources.list"
    aptopts=(-o "Dir::Etc::SourceList=$work/sources.list" -o Dir::Etc::SourceParts=/dev/null
             -o "Dir::State::Lists=$work/lists" -o "Dir::Cache::Archives=$work/archives"
             -o APT::Get::List-Cleanup=0 -o Debug::NoLocking=1 -o APT::Sandbox::User=root)
    echo "fetch-nats-servers: fetching nats-server from Debian $suite ($mirror)"
    apt-get "${aptopts[@]}" -qq update
    (cd "$work" && apt-get "${aptopts[@]}" -qq download nats-server)
    rm -rf "$dir" && mkdir -p "$dir"
    dpkg -x "$work"/nats-server_*.deb "$work/x"
    cp "$work/x/usr/sbin/nats-server" "$bin"
    chmod 0755 "$bin"
    rm -rf "$work"
    trap - EXIT
    ver=$("$bin" --version)
    echo "$suite ${ver#nats-server: }" >> "$out/versions.txt.new"
done
mv "$out/versions.txt.new" "$out/versions.txt"
cat "$out/versions.txt"
