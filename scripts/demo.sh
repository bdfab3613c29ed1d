#!/usr/bin/env bash
# make demo: starts the local demo cluster (nats-mqtt-doctor-demo) and opens the application on it.
# Without a display it runs the CLI against the demo instead and keeps the servers up until Ctrl-C.
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
bin="$build/bin"
export MQTTDOCTOR_NATS_SERVERS_DIR="$build/nats-servers"
if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
    exec "$bin/nats-mqtt-doctor-demo" -- "$bin/nats-mqtt-doctor" --profile '{profile}'
fi
echo "No display found (DISPLAY is not set): showing the demo through the CLI instead."
exec "$bin/nats-mqtt-doctor-demo" --keep-running -- bash -c '
    cli="'"$bin"'/nats-mqtt-doctor-cli"
    set -x
    "$cli" --server "$1" --system-user sys --system-password syspass servers
    "$cli" --server "$1" --system-user sys --system-password syspass accounts
    "$cli" --server "$1" --user acme --password acmepass streams
    "$cli" --profile "$2" check --all-accounts || true
    "$cli" --profile "$2" repair --account OVERLAP --dry-run || true
    { set +x; } 2>/dev/null
    echo
    echo "The demo servers keep running: try more commands with --server $1 or --profile $2"
    echo "(e.g. repair --account NOSESS); press Ctrl-C to stop them."
' demo '{url}' '{profile}'
