#pragma once

#include <QList>

#include "clicontext.h"

namespace MqttDoctor::Cli {

/** `inflight` (docs/cli.md): what is in flight in an account. */
QList<Command> inflightCommands();

} // namespace MqttDoctor::Cli
