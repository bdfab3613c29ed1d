#pragma once

#include "clicontext.h"

namespace MqttDoctor::Cli {

/** The operator actions: `delete-sessions`, `disconnect`, `clear-retained`, `drop-backlog` (docs/cli.md). */
QList<Command> actionCommands();

} // namespace MqttDoctor::Cli
