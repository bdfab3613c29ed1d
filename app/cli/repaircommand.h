#pragma once

#include "clicontext.h"

namespace MqttDoctor::Cli {

/** `repair`: plan, back up, apply and verify (docs/cli.md). */
QList<Command> repairCommands();

} // namespace MqttDoctor::Cli
