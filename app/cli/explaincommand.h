#pragma once

#include <QList>

#include "clicontext.h"

namespace MqttDoctor::Cli {

/**
 * `explain [LINE ...]`: maps nats-server log lines (the arguments, else standard input, one line each) to the log-line
 * catalogue. Needs no connection. Exit code: 0 when every line matched a template, 1 when some did not, 64 on a usage
 * error (no lines, more than the cap). `explain --templates` lists the catalogue.
 */
QList<Command> explainCommands();

} // namespace MqttDoctor::Cli
