#pragma once

#include <QList>

#include "clicontext.h"

namespace MqttDoctor::Cli {

/**
 * `explain [LINE ...] [--file PATH ...]`: explains nats-server log lines with the log-line catalogue: whole logs (files,
 * else standard input) of any size, read as a stream, or lines given as arguments. Lines about MQTT's state in
 * JetStream are explained or reported as not recognised, the rest is skipped; repeated lines are counted once per
 * group (LogGrouper). Prints every group in full, or one line per group (`--summary`, also the default when the full
 * text would not fit on the screen), or every line on its own (`--per-line`). Needs no connection. Exit code: 0 when
 * every MQTT line was explained, 1 when some were not recognised, 3 when an input cannot be read, 64 on a usage error
 * (no lines). `explain --templates` lists the catalogue. docs/cli.md has the output and its JSON.
 */
QList<Command> explainCommands();

} // namespace MqttDoctor::Cli
