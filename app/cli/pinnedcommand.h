#pragma once

#include "clicontext.h"

namespace MqttDoctor::Cli {

/** `pinned [--account A] [--top N]`: who holds how many messages in the interest streams. */
QList<Command> pinnedCommands();

} // namespace MqttDoctor::Cli
